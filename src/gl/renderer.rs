//! Draw calls: a scene into the current framebuffer, and the skinning shader's output
//! captured with transform feedback.

use super::program::{link_program, shaders};
use super::scene::{ColorVertex, MeshData, Palette, Primitive, Scene};
use glam::{Mat4, Vec3, Vec4};
use glow::HasContext as _;
use std::collections::HashMap;
use std::sync::{Arc, Weak};

/// Attribute locations of `shaders/skin.vert` (in both skinning programs).
pub const SKIN_PROGRAM_ATTRIBUTES: [(&str, u32); 5] = [
    ("a_position", 0),
    ("a_normal", 1),
    ("a_joints", 2),
    ("a_weights", 3),
    ("a_color", 4),
];

/// The outputs of `shaders/skin.vert` that transform feedback captures, interleaved
/// (in both skinning programs).
pub const SKIN_FEEDBACK: [&str; 2] = ["v_position", "v_normal"];

const COLOR_PROGRAM_ATTRIBUTES: [(&str, u32); 3] =
    [("a_position", 0), ("a_color", 1), ("a_normal", 2)];

/// Floats per skinned vertex: position 3, normal 3, joints 4, weights 4, colour 4.
const SKIN_STRIDE: usize = 18;
/// Floats per colour vertex: position 3, colour 4, normal 3.
const COLOR_STRIDE: usize = 10;

fn attribute(gl: &glow::Context, location: u32, size: i32, stride: usize, offset: usize) {
    // SAFETY: called with a bound VAO and ARRAY_BUFFER; sizes match the layout above.
    unsafe {
        gl.enable_vertex_attrib_array(location);
        gl.vertex_attrib_pointer_f32(
            location,
            size,
            glow::FLOAT,
            false,
            (stride * 4) as i32,
            (offset * 4) as i32,
        );
    }
}

/// A skinnable mesh in GPU buffers, drawn by `shaders/skin.vert`.
pub struct SkinnedMeshGpu {
    vao: glow::VertexArray,
    vbo: glow::Buffer,
    ebo: glow::Buffer,
    vertex_count: usize,
    index_count: usize,
    mode: u32,
}

impl SkinnedMeshGpu {
    /// Uploads vertices, influences and indices.
    pub fn upload(gl: &glow::Context, mesh: &MeshData) -> Result<Self, String> {
        let skin = &mesh.skin;
        let mut data = Vec::with_capacity(skin.positions.len() * SKIN_STRIDE);
        for (i, p) in skin.positions.iter().enumerate() {
            let n = skin.normals.get(i).copied().unwrap_or(Vec3::ZERO);
            let inf = skin
                .influences
                .get(i)
                .ok_or("every vertex needs influences")?;
            data.extend_from_slice(&p.to_array());
            data.extend_from_slice(&n.to_array());
            data.extend(inf.joints.iter().map(|j| *j as f32));
            data.extend_from_slice(&inf.weights);
            data.extend_from_slice(&mesh.colors.get(i).copied().unwrap_or([1.0; 4]));
        }
        // SAFETY: buffers are created, bound and filled here; the layout matches SKIN_STRIDE.
        unsafe {
            let vao = gl.create_vertex_array()?;
            let vbo = gl.create_buffer()?;
            let ebo = gl.create_buffer()?;
            gl.bind_vertex_array(Some(vao));
            gl.bind_buffer(glow::ARRAY_BUFFER, Some(vbo));
            gl.buffer_data_u8_slice(
                glow::ARRAY_BUFFER,
                bytemuck::cast_slice(&data),
                glow::STATIC_DRAW,
            );
            attribute(gl, 0, 3, SKIN_STRIDE, 0);
            attribute(gl, 1, 3, SKIN_STRIDE, 3);
            attribute(gl, 2, 4, SKIN_STRIDE, 6);
            attribute(gl, 3, 4, SKIN_STRIDE, 10);
            attribute(gl, 4, 4, SKIN_STRIDE, 14);
            gl.bind_buffer(glow::ELEMENT_ARRAY_BUFFER, Some(ebo));
            gl.buffer_data_u8_slice(
                glow::ELEMENT_ARRAY_BUFFER,
                bytemuck::cast_slice(&mesh.indices),
                glow::STATIC_DRAW,
            );
            gl.bind_vertex_array(None);
            gl.bind_buffer(glow::ARRAY_BUFFER, None);
            let mode = match mesh.primitive {
                Primitive::Lines => glow::LINES,
                Primitive::Triangles => glow::TRIANGLES,
            };
            Ok(Self {
                vao,
                vbo,
                ebo,
                vertex_count: skin.positions.len(),
                index_count: mesh.indices.len(),
                mode,
            })
        }
    }

    /// Frees the buffers.
    pub fn destroy(self, gl: &glow::Context) {
        // SAFETY: the objects were created by `upload` on this context.
        unsafe {
            gl.delete_vertex_array(self.vao);
            gl.delete_buffer(self.vbo);
            gl.delete_buffer(self.ebo);
        }
    }
}

fn flatten(palette: &[Mat4]) -> Vec<f32> {
    palette.iter().flat_map(|m| m.to_cols_array()).collect()
}

fn check_palette(palette: &Palette) -> Result<(), String> {
    if palette.len() > super::MAX_JOINTS {
        return Err(format!(
            "{} joints do not fit the shader's uniform arrays of {} joints",
            palette.len(),
            super::MAX_JOINTS
        ));
    }
    Ok(())
}

/// Uploads `palette` to `program` (the one [`SceneRenderer::program`] gives for it):
/// matrices, or dual quaternions as two vec4 a joint.
fn upload_palette(gl: &glow::Context, program: glow::Program, palette: &Palette) {
    // SAFETY: uniform uploads to a program of the current context, which is in use.
    unsafe {
        match palette {
            Palette::Matrices(matrices) => {
                let loc = gl.get_uniform_location(program, "u_palette[0]");
                gl.uniform_matrix_4_f32_slice(loc.as_ref(), false, &flatten(matrices));
            }
            Palette::DualQuats {
                dual_quats,
                antipodal_check,
            } => {
                let real: Vec<f32> = dual_quats
                    .iter()
                    .flat_map(|q| Vec4::from(q.real).to_array())
                    .collect();
                let dual: Vec<f32> = dual_quats
                    .iter()
                    .flat_map(|q| Vec4::from(q.dual).to_array())
                    .collect();
                let loc = gl.get_uniform_location(program, "u_dq_real[0]");
                gl.uniform_4_f32_slice(loc.as_ref(), &real);
                let loc = gl.get_uniform_location(program, "u_dq_dual[0]");
                gl.uniform_4_f32_slice(loc.as_ref(), &dual);
                let loc = gl.get_uniform_location(program, "u_antipodal_check");
                gl.uniform_1_i32(loc.as_ref(), i32::from(*antipodal_check));
            }
        }
    }
}

/// Reads the start of the buffer bound to `target`. OpenGL ES has no
/// glGetBufferSubData (WebGL2 does), so native ES maps the buffer instead.
///
/// # Safety
/// A buffer of at least `out.len()` bytes is bound to `target` on the current context.
unsafe fn read_buffer(gl: &glow::Context, target: u32, out: &mut [u8]) {
    // SAFETY: the caller guarantees the binding and size.
    unsafe {
        if cfg!(target_arch = "wasm32") || !gl.version().is_embedded {
            gl.get_buffer_sub_data(target, 0, out);
            return;
        }
        let ptr = gl.map_buffer_range(target, 0, out.len() as i32, glow::MAP_READ_BIT);
        if !ptr.is_null() {
            std::ptr::copy_nonoverlapping(ptr, out.as_mut_ptr(), out.len());
        }
        gl.unmap_buffer(target);
    }
}

/// Runs the skinning vertex shader for `palette` over every vertex of `mesh` and reads
/// back what it wrote to `v_position` and `v_normal`, with rasterisation off.
///
/// A framebuffer must be bound (drawing fails without one, even with nothing drawn).
pub fn capture_skinned(
    gl: &glow::Context,
    renderer: &SceneRenderer,
    mesh: &SkinnedMeshGpu,
    palette: &Palette,
) -> Result<Vec<(Vec3, Vec3)>, String> {
    check_palette(palette)?;
    let program = renderer.program(palette);
    let floats = mesh.vertex_count * 6;
    let mut bytes = vec![0u8; floats * 4];
    // SAFETY: objects are created and bound here; the read-back size matches the capture.
    unsafe {
        let out = gl.create_buffer()?;
        gl.bind_buffer(glow::TRANSFORM_FEEDBACK_BUFFER, Some(out));
        gl.buffer_data_size(
            glow::TRANSFORM_FEEDBACK_BUFFER,
            bytes.len() as i32,
            glow::STATIC_READ,
        );
        gl.use_program(Some(program));
        upload_palette(gl, program, palette);
        gl.bind_vertex_array(Some(mesh.vao));
        gl.enable(glow::RASTERIZER_DISCARD);
        gl.bind_buffer_base(glow::TRANSFORM_FEEDBACK_BUFFER, 0, Some(out));
        gl.begin_transform_feedback(glow::POINTS);
        gl.draw_arrays(glow::POINTS, 0, mesh.vertex_count as i32);
        gl.end_transform_feedback();
        gl.disable(glow::RASTERIZER_DISCARD);
        gl.bind_buffer_base(glow::TRANSFORM_FEEDBACK_BUFFER, 0, None);
        gl.bind_buffer(glow::TRANSFORM_FEEDBACK_BUFFER, Some(out));
        read_buffer(gl, glow::TRANSFORM_FEEDBACK_BUFFER, &mut bytes);
        gl.bind_buffer(glow::TRANSFORM_FEEDBACK_BUFFER, None);
        gl.delete_buffer(out);
        gl.bind_vertex_array(None);
        let error = gl.get_error();
        if error != glow::NO_ERROR {
            return Err(format!(
                "transform feedback failed with GL error 0x{error:x}"
            ));
        }
    }
    let data: &[f32] = bytemuck::cast_slice(&bytes);
    Ok(data
        .chunks_exact(6)
        .map(|c| (Vec3::new(c[0], c[1], c[2]), Vec3::new(c[3], c[4], c[5])))
        .collect())
}

/// The programs and buffers that draw a [`Scene`].
pub struct SceneRenderer {
    /// Linear blend skinning: `shaders/blend_lbs.glsl` + `shaders/skin.vert` +
    /// `shaders/skin.frag`, linked with [`SKIN_FEEDBACK`].
    pub skin_program: glow::Program,
    /// Dual quaternion skinning: `shaders/blend_dqs.glsl` + `shaders/skin.vert` +
    /// `shaders/skin.frag`, linked with [`SKIN_FEEDBACK`].
    pub dqs_program: glow::Program,
    color_program: glow::Program,
    /// GPU copies by mesh id, with a weak handle to know when a page dropped the mesh.
    meshes: HashMap<u64, (Weak<MeshData>, SkinnedMeshGpu)>,
    color_vao: glow::VertexArray,
    color_vbo: glow::Buffer,
}

impl SceneRenderer {
    /// Builds the programs; the error carries the driver's log.
    pub fn new(gl: &glow::Context) -> Result<Self, String> {
        // A failure frees the programs linked before it.
        let free = |programs: &[glow::Program]| {
            for program in programs {
                // SAFETY: the programs were linked below on this context.
                unsafe { gl.delete_program(*program) };
            }
        };
        let skin_program = link_program(
            gl,
            &shaders::SKIN_LBS_VERT,
            &[shaders::SKIN_FRAG],
            &SKIN_PROGRAM_ATTRIBUTES,
            &SKIN_FEEDBACK,
        )?;
        let dqs_program = link_program(
            gl,
            &shaders::SKIN_DQS_VERT,
            &[shaders::SKIN_FRAG],
            &SKIN_PROGRAM_ATTRIBUTES,
            &SKIN_FEEDBACK,
        )
        .inspect_err(|_| free(&[skin_program]))?;
        let color_program = link_program(
            gl,
            &[shaders::COLOR_VERT],
            &[shaders::COLOR_FRAG],
            &COLOR_PROGRAM_ATTRIBUTES,
            &[],
        )
        .inspect_err(|_| free(&[skin_program, dqs_program]))?;
        // SAFETY: objects are created and bound here; the layout matches COLOR_STRIDE.
        unsafe {
            let color_vao = gl.create_vertex_array()?;
            let color_vbo = gl.create_buffer()?;
            gl.bind_vertex_array(Some(color_vao));
            gl.bind_buffer(glow::ARRAY_BUFFER, Some(color_vbo));
            attribute(gl, 0, 3, COLOR_STRIDE, 0);
            attribute(gl, 1, 4, COLOR_STRIDE, 3);
            attribute(gl, 2, 3, COLOR_STRIDE, 7);
            gl.bind_vertex_array(None);
            gl.bind_buffer(glow::ARRAY_BUFFER, None);
            Ok(Self {
                skin_program,
                dqs_program,
                color_program,
                meshes: HashMap::new(),
                color_vao,
                color_vbo,
            })
        }
    }

    /// The skinning program that blends `palette`.
    pub fn program(&self, palette: &Palette) -> glow::Program {
        match palette {
            Palette::Matrices(_) => self.skin_program,
            Palette::DualQuats { .. } => self.dqs_program,
        }
    }

    /// The GPU copy of `mesh`, uploaded on first use.
    pub fn mesh(
        &mut self,
        gl: &glow::Context,
        mesh: &Arc<MeshData>,
    ) -> Result<&SkinnedMeshGpu, String> {
        match self.meshes.entry(mesh.id) {
            std::collections::hash_map::Entry::Occupied(entry) => Ok(&entry.into_mut().1),
            std::collections::hash_map::Entry::Vacant(entry) => {
                let gpu = SkinnedMeshGpu::upload(gl, mesh)?;
                Ok(&entry.insert((Arc::downgrade(mesh), gpu)).1)
            }
        }
    }

    /// Frees the GPU copies of meshes that no page holds any more (a re-weighted mesh
    /// replaces its old copy every time the weights change).
    fn evict_dropped(&mut self, gl: &glow::Context) {
        let dropped: Vec<u64> = self
            .meshes
            .iter()
            .filter(|(_, (weak, _))| weak.strong_count() == 0)
            .map(|(id, _)| *id)
            .collect();
        for id in dropped {
            if let Some((_, gpu)) = self.meshes.remove(&id) {
                gpu.destroy(gl);
            }
        }
    }

    fn draw_colored(&self, gl: &glow::Context, scene: &Scene, vertices: &[ColorVertex], mode: u32) {
        if vertices.is_empty() {
            return;
        }
        let data: Vec<f32> = vertices
            .iter()
            .flat_map(|v| {
                let [x, y, z] = v.position.to_array();
                let [r, g, b, a] = v.color;
                let [nx, ny, nz] = v.normal.to_array();
                [x, y, z, r, g, b, a, nx, ny, nz]
            })
            .collect();
        // SAFETY: the program and buffers belong to this renderer and context.
        unsafe {
            gl.use_program(Some(self.color_program));
            let loc = gl.get_uniform_location(self.color_program, "u_clip_from_world");
            gl.uniform_matrix_4_f32_slice(
                loc.as_ref(),
                false,
                &scene.clip_from_world.to_cols_array(),
            );
            let loc = gl.get_uniform_location(self.color_program, "u_light_dir");
            gl.uniform_3_f32_slice(loc.as_ref(), &scene.light_dir.to_array());
            gl.bind_vertex_array(Some(self.color_vao));
            gl.bind_buffer(glow::ARRAY_BUFFER, Some(self.color_vbo));
            gl.buffer_data_u8_slice(
                glow::ARRAY_BUFFER,
                bytemuck::cast_slice(&data),
                glow::STREAM_DRAW,
            );
            gl.draw_arrays(mode, 0, vertices.len() as i32);
        }
    }

    /// Clears the current viewport and draws `scene` into it with depth testing.
    /// The caller has set the GL viewport (of `viewport_px` pixels) and the scissor.
    pub fn paint(
        &mut self,
        gl: &glow::Context,
        scene: &Scene,
        viewport_px: [f32; 2],
    ) -> Result<(), String> {
        self.evict_dropped(gl);
        for draw in &scene.skinned {
            check_palette(&draw.palette)?;
            self.mesh(gl, &draw.mesh)?;
        }
        let [r, g, b, a] = scene.background;
        // SAFETY: state changes on the current context, restored at the end.
        unsafe {
            gl.clear_color(r, g, b, a);
            gl.clear_depth_f32(1.0);
            gl.clear(glow::COLOR_BUFFER_BIT | glow::DEPTH_BUFFER_BIT);
            gl.disable(glow::DEPTH_TEST);
        }
        self.draw_colored(gl, scene, &scene.backdrop, glow::LINES);
        // SAFETY: state changes on the current context, restored at the end.
        unsafe {
            gl.enable(glow::DEPTH_TEST);
            gl.depth_func(glow::LEQUAL);
            gl.disable(glow::CULL_FACE);
        }
        self.draw_colored(gl, scene, &scene.triangles, glow::TRIANGLES);
        for draw in &scene.skinned {
            let Some((_, mesh)) = self.meshes.get(&draw.mesh.id) else {
                continue;
            };
            let program = self.program(&draw.palette);
            // SAFETY: the program and the mesh's buffers belong to this renderer.
            unsafe {
                gl.use_program(Some(program));
                let loc = gl.get_uniform_location(program, "u_clip_from_world");
                gl.uniform_matrix_4_f32_slice(
                    loc.as_ref(),
                    false,
                    &scene.clip_from_world.to_cols_array(),
                );
                upload_palette(gl, program, &draw.palette);
                let loc = gl.get_uniform_location(program, "u_color");
                gl.uniform_4_f32_slice(loc.as_ref(), &draw.color);
                let loc = gl.get_uniform_location(program, "u_lit");
                gl.uniform_1_f32(loc.as_ref(), if draw.lit { 1.0 } else { 0.0 });
                let loc = gl.get_uniform_location(program, "u_light_dir");
                gl.uniform_3_f32_slice(loc.as_ref(), &scene.light_dir.to_array());
                gl.bind_vertex_array(Some(mesh.vao));
                let offset_loc = gl.get_uniform_location(program, "u_clip_offset");
                // Wide lines: draw the mesh again shifted by up to half the width, in a
                // plus shape. WebGL2 has no line widths above 1.
                let r = if mesh.mode == glow::LINES {
                    (draw.line_width - 1.0).max(0.0) * 0.5
                } else {
                    0.0
                };
                let shifts: &[[f32; 2]] = if r > 0.0 {
                    &[[0.0, 0.0], [r, 0.0], [-r, 0.0], [0.0, r], [0.0, -r]]
                } else {
                    &[[0.0, 0.0]]
                };
                for [dx, dy] in shifts {
                    let offset = [
                        2.0 * dx / viewport_px[0].max(1.0),
                        2.0 * dy / viewport_px[1].max(1.0),
                    ];
                    gl.uniform_2_f32_slice(offset_loc.as_ref(), &offset);
                    gl.draw_elements(mesh.mode, mesh.index_count as i32, glow::UNSIGNED_INT, 0);
                }
            }
        }
        self.draw_colored(gl, scene, &scene.lines, glow::LINES);
        // SAFETY: restores the state egui expects.
        unsafe {
            gl.bind_vertex_array(None);
            gl.bind_buffer(glow::ARRAY_BUFFER, None);
            gl.use_program(None);
            gl.disable(glow::DEPTH_TEST);
            let error = gl.get_error();
            if error != glow::NO_ERROR {
                return Err(format!(
                    "drawing the scene failed with GL error 0x{error:x}"
                ));
            }
        }
        Ok(())
    }

    /// Frees every GL object.
    pub fn destroy(self, gl: &glow::Context) {
        for (_, (_, mesh)) in self.meshes {
            mesh.destroy(gl);
        }
        // SAFETY: the objects were created by `new` on this context.
        unsafe {
            gl.delete_program(self.skin_program);
            gl.delete_program(self.dqs_program);
            gl.delete_program(self.color_program);
            gl.delete_vertex_array(self.color_vao);
            gl.delete_buffer(self.color_vbo);
        }
    }
}
