//! Ellipse outlines drawn over a scene by `shaders/ellipse.vert`: one instance an
//! ellipse, from a buffer refilled each frame. The GPU works out every point of every
//! outline, so a frame with hundreds of them hands the driver a few hundred numbers,
//! not thousands of triangles.

use super::mesh::attribute;
use glow::HasContext as _;
use scene::{ELLIPSE_HALO, ELLIPSE_HALO_WIDTH, ELLIPSE_SEGMENTS, ELLIPSE_WIDTH, Scene};

/// Attribute locations of `shaders/ellipse.vert`: the four read once per instance,
/// then the strip's corner, read once per vertex.
pub(super) const ELLIPSE_PROGRAM_ATTRIBUTES: [(&str, u32); 5] = [
    ("a_center", 0),
    ("a_major", 1),
    ("a_minor", 2),
    ("a_color", 3),
    ("a_corner", 4),
];

/// Floats per ellipse: centre 3, major 3, minor 3, colour 4.
const FLOATS: usize = 13;

/// Vertices in one ellipse's triangle strip: two for each point, the first pair
/// repeated at the end.
const CORNERS: usize = 2 * (ELLIPSE_SEGMENTS + 1);

/// The instance buffer, the strip's corners and their vertex array.
pub(super) struct EllipseBuffer {
    vao: glow::VertexArray,
    vbo: glow::Buffer,
    corners: glow::Buffer,
}

impl EllipseBuffer {
    /// Creates the buffers and their vertex array.
    pub(super) fn new(gl: &glow::Context) -> Result<Self, String> {
        // SAFETY: objects are created and bound here; the layouts match FLOATS and the
        // corners' one float each.
        unsafe {
            let vao = gl.create_vertex_array()?;
            let vbo = gl.create_buffer()?;
            let corners = gl.create_buffer()?;
            gl.bind_vertex_array(Some(vao));
            gl.bind_buffer(glow::ARRAY_BUFFER, Some(corners));
            let numbers: Vec<f32> = (0..CORNERS).map(|i| i as f32).collect();
            gl.buffer_data_u8_slice(
                glow::ARRAY_BUFFER,
                bytemuck::cast_slice(&numbers),
                glow::STATIC_DRAW,
            );
            let (_, corner) = ELLIPSE_PROGRAM_ATTRIBUTES[4];
            attribute(gl, corner, 1, glow::FLOAT, false, 4, 0);
            gl.bind_buffer(glow::ARRAY_BUFFER, Some(vbo));
            let stride = FLOATS * 4;
            for ((_, location), (size, at)) in
                ELLIPSE_PROGRAM_ATTRIBUTES
                    .iter()
                    .zip([(3, 0), (3, 3), (3, 6), (4, 9)])
            {
                attribute(gl, *location, size, glow::FLOAT, false, stride, at * 4);
                gl.vertex_attrib_divisor(*location, 1);
            }
            gl.bind_vertex_array(None);
            gl.bind_buffer(glow::ARRAY_BUFFER, None);
            Ok(Self { vao, vbo, corners })
        }
    }

    /// Draws the outlines of `scene` that lie wholly in front of the eye with
    /// `program` (`shaders/ellipse.vert`), over whatever is drawn, in a viewport of
    /// `viewport_px`: every halo first, then every line, so no halo covers a
    /// neighbour's line. Blends as egui does (premultiplied alpha), leaving the blend
    /// function and equation egui's and blending itself on or off as it found it;
    /// leaves the vertex array bound and depth testing off.
    pub(super) fn draw(
        &self,
        gl: &glow::Context,
        program: glow::Program,
        scene: &Scene,
        viewport_px: [f32; 2],
    ) {
        let data: Vec<f32> = scene
            .ellipses
            .iter()
            .filter(|e| e.drawable(scene.clip_from_world))
            .flat_map(|e| {
                let [cx, cy, cz] = e.center.to_array();
                let [ax, ay, az] = e.major.to_array();
                let [bx, by, bz] = e.minor.to_array();
                let [r, g, b, a] = e.color;
                [cx, cy, cz, ax, ay, az, bx, by, bz, r, g, b, a]
            })
            .collect();
        let count = (data.len() / FLOATS) as i32;
        if count == 0 {
            return;
        }
        // SAFETY: the program and buffers belong to this renderer and context; the data
        // matches the layout set in `new`. Blending is put back as it was found.
        unsafe {
            gl.use_program(Some(program));
            gl.bind_vertex_array(Some(self.vao));
            gl.bind_buffer(glow::ARRAY_BUFFER, Some(self.vbo));
            gl.buffer_data_u8_slice(
                glow::ARRAY_BUFFER,
                bytemuck::cast_slice(&data),
                glow::STREAM_DRAW,
            );
            super::set_clip_from_world(gl, program, scene.clip_from_world);
            let loc = gl.get_uniform_location(program, "u_viewport_px");
            gl.uniform_2_f32_slice(loc.as_ref(), &viewport_px);
            let loc = gl.get_uniform_location(program, "u_segments");
            gl.uniform_1_i32(loc.as_ref(), ELLIPSE_SEGMENTS as i32);
            gl.disable(glow::DEPTH_TEST);
            // Only whether blending was on is put back: asking a browser for the other
            // settings can mean waiting for its GPU process, and egui sets them again
            // after every paint callback.
            let blending = gl.is_enabled(glow::BLEND);
            gl.enable(glow::BLEND);
            gl.blend_equation(glow::FUNC_ADD);
            // Premultiplied colour, as egui blends.
            gl.blend_func_separate(
                glow::ONE,
                glow::ONE_MINUS_SRC_ALPHA,
                glow::ONE_MINUS_DST_ALPHA,
                glow::ONE,
            );
            let width = gl.get_uniform_location(program, "u_width_px");
            let flat = gl.get_uniform_location(program, "u_flat_color");
            for (points, color) in [
                (ELLIPSE_HALO_WIDTH, ELLIPSE_HALO),
                (ELLIPSE_WIDTH, [0.0; 4]),
            ] {
                gl.uniform_1_f32(width.as_ref(), scene.line_px(points));
                gl.uniform_4_f32_slice(flat.as_ref(), &color);
                gl.draw_arrays_instanced(glow::TRIANGLE_STRIP, 0, CORNERS as i32, count);
            }
            if !blending {
                gl.disable(glow::BLEND);
            }
        }
    }

    /// Frees the buffers.
    pub(super) fn destroy(self, gl: &glow::Context) {
        // SAFETY: the objects were created by `new` on this context.
        unsafe {
            gl.delete_vertex_array(self.vao);
            gl.delete_buffer(self.vbo);
            gl.delete_buffer(self.corners);
        }
    }
}
