//! Ellipse outlines drawn over a scene by `shaders/ellipse.vert`: one instance an
//! ellipse, from a buffer refilled each frame. The GPU works out every point of every
//! outline, so a frame with hundreds of them hands the driver a few hundred numbers,
//! not thousands of triangles.

use super::mesh::{FloatStream, attribute};
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

/// Vertices in one ellipse's triangle strip: two for each point, the first pair
/// repeated at the end.
const CORNERS: usize = 2 * (ELLIPSE_SEGMENTS + 1);

/// The ellipses, one instance each, and the strip's corners, in one vertex array.
pub(super) struct EllipseBuffer {
    instances: FloatStream,
    corners: glow::Buffer,
}

impl EllipseBuffer {
    /// Creates the buffers and their vertex array.
    pub(super) fn new(gl: &glow::Context) -> Result<Self, String> {
        let [center, major, minor, color, corner] = ELLIPSE_PROGRAM_ATTRIBUTES.map(|(_, at)| at);
        let instances =
            FloatStream::new(gl, &[(center, 3), (major, 3), (minor, 3), (color, 4)], 1)?;
        // SAFETY: the buffer is created here and filled with one float a corner, which
        // is what its attribute reads.
        unsafe {
            let corners = match gl.create_buffer() {
                Ok(corners) => corners,
                Err(e) => {
                    instances.destroy(gl);
                    return Err(e);
                }
            };
            gl.bind_vertex_array(Some(instances.vao));
            gl.bind_buffer(glow::ARRAY_BUFFER, Some(corners));
            let numbers: Vec<f32> = (0..CORNERS).map(|i| i as f32).collect();
            gl.buffer_data_u8_slice(
                glow::ARRAY_BUFFER,
                bytemuck::cast_slice(&numbers),
                glow::STATIC_DRAW,
            );
            attribute(gl, corner, 1, glow::FLOAT, false, 4, 0);
            gl.bind_vertex_array(None);
            gl.bind_buffer(glow::ARRAY_BUFFER, None);
            Ok(Self { instances, corners })
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
        let drawn: Vec<_> = scene
            .ellipses
            .iter()
            .filter(|e| e.drawable(scene.clip_from_world))
            .collect();
        if drawn.is_empty() {
            return;
        }
        // In the order of `new`'s layout.
        let data: Vec<f32> = drawn
            .iter()
            .flat_map(|e| {
                let [cx, cy, cz] = e.center.to_array();
                let [ax, ay, az] = e.major.to_array();
                let [bx, by, bz] = e.minor.to_array();
                let [r, g, b, a] = e.color;
                [cx, cy, cz, ax, ay, az, bx, by, bz, r, g, b, a]
            })
            .collect();
        // SAFETY: the program and buffers belong to this renderer and context.
        // Blending is put back as it was found.
        unsafe {
            gl.use_program(Some(program));
            self.instances.fill(gl, &data);
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
            super::blend_premultiplied(gl);
            let width = gl.get_uniform_location(program, "u_width_px");
            let flat = gl.get_uniform_location(program, "u_flat_color");
            for (points, color) in [
                (ELLIPSE_HALO_WIDTH, ELLIPSE_HALO),
                (ELLIPSE_WIDTH, [0.0; 4]),
            ] {
                gl.uniform_1_f32(width.as_ref(), scene.line_px(points));
                gl.uniform_4_f32_slice(flat.as_ref(), &color);
                gl.draw_arrays_instanced(
                    glow::TRIANGLE_STRIP,
                    0,
                    CORNERS as i32,
                    drawn.len() as i32,
                );
            }
            if !blending {
                gl.disable(glow::BLEND);
            }
        }
    }

    /// Frees the buffers.
    pub(super) fn destroy(self, gl: &glow::Context) {
        // SAFETY: the buffer was created by `new` on this context.
        unsafe { gl.delete_buffer(self.corners) };
        self.instances.destroy(gl);
    }
}
