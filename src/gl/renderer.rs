//! Draw calls: a scene into the current framebuffer, and the skinning shader's output
//! captured with transform feedback.

use super::program::{link_program, shaders};
use super::scene::{ColorVertex, JointIndices, MeshData, Palette, Primitive, Scene};
use crate::skin::gpu::bone_texels;
use crate::skin::normals::NormalMethod;
use glam::{Mat4, Vec3, Vec4};
use glow::HasContext as _;
use std::collections::HashMap;
use std::sync::{Arc, Weak};

/// Attribute locations of `shaders/skin.vert` in the programs that read float joint
/// indices (`shaders/joints_float.glsl`).
pub const SKIN_PROGRAM_ATTRIBUTES: [(&str, u32); 5] = [
    ("a_position", 0),
    ("a_normal", 1),
    ("a_joints", 2),
    ("a_weights", 3),
    ("a_color", 4),
];

/// Attribute locations in the programs that read integer joint indices
/// (`shaders/joints_int.glsl`): every mesh carries both copies of the indices, the
/// integer one at location 5.
pub const SKIN_INT_PROGRAM_ATTRIBUTES: [(&str, u32); 5] = [
    ("a_position", 0),
    ("a_normal", 1),
    ("a_joints", 5),
    ("a_weights", 3),
    ("a_color", 4),
];

/// The outputs of `shaders/skin.vert` that transform feedback captures, interleaved
/// (in both skinning programs).
pub const SKIN_FEEDBACK: [&str; 2] = ["v_position", "v_normal"];

const COLOR_PROGRAM_ATTRIBUTES: [(&str, u32); 3] =
    [("a_position", 0), ("a_color", 1), ("a_normal", 2)];

/// Floats at the start of a skinned vertex: position 3, normal 3, joints 4 (as
/// floats), weights 4, colour 4. Then the joints again as four i16.
const SKIN_FLOATS: usize = 18;
/// Bytes per skinned vertex: the floats, then four 16-bit joint indices.
const SKIN_STRIDE_BYTES: usize = SKIN_FLOATS * 4 + 4 * 2;
/// Floats per colour vertex: position 3, colour 4, normal 3.
const COLOR_STRIDE: usize = 10;

/// A float attribute of `size` components, `offset` floats into a vertex of
/// `stride_bytes`.
fn attribute(gl: &glow::Context, location: u32, size: i32, stride_bytes: usize, offset: usize) {
    // SAFETY: called with a bound VAO and ARRAY_BUFFER; sizes match the layout above.
    unsafe {
        gl.enable_vertex_attrib_array(location);
        gl.vertex_attrib_pointer_f32(
            location,
            size,
            glow::FLOAT,
            false,
            stride_bytes as i32,
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
        let mut data: Vec<u8> = Vec::with_capacity(skin.positions.len() * SKIN_STRIDE_BYTES);
        for (i, p) in skin.positions.iter().enumerate() {
            let n = skin.normals.get(i).copied().unwrap_or(Vec3::ZERO);
            let inf = skin
                .influences
                .get(i)
                .ok_or("every vertex needs influences")?;
            let mut floats = [0.0f32; SKIN_FLOATS];
            floats[0..3].copy_from_slice(&p.to_array());
            floats[3..6].copy_from_slice(&n.to_array());
            for (slot, j) in floats[6..10].iter_mut().zip(inf.joints) {
                *slot = j as f32;
            }
            floats[10..14].copy_from_slice(&inf.weights);
            floats[14..18].copy_from_slice(&mesh.colors.get(i).copied().unwrap_or([1.0; 4]));
            data.extend_from_slice(bytemuck::cast_slice(&floats));
            for j in inf.joints {
                let j = i16::try_from(j)
                    .map_err(|_| format!("joint index {j} does not fit a signed 16-bit number"))?;
                data.extend_from_slice(&j.to_ne_bytes());
            }
        }
        // SAFETY: buffers are created, bound and filled here; the layout matches SKIN_STRIDE.
        unsafe {
            let vao = gl.create_vertex_array()?;
            let vbo = gl.create_buffer()?;
            let ebo = gl.create_buffer()?;
            gl.bind_vertex_array(Some(vao));
            gl.bind_buffer(glow::ARRAY_BUFFER, Some(vbo));
            gl.buffer_data_u8_slice(glow::ARRAY_BUFFER, &data, glow::STATIC_DRAW);
            attribute(gl, 0, 3, SKIN_STRIDE_BYTES, 0);
            attribute(gl, 1, 3, SKIN_STRIDE_BYTES, 3);
            attribute(gl, 2, 4, SKIN_STRIDE_BYTES, 6);
            attribute(gl, 3, 4, SKIN_STRIDE_BYTES, 10);
            attribute(gl, 4, 4, SKIN_STRIDE_BYTES, 14);
            // ANCHOR: int_attribute
            // The integer copy: glVertexAttribIPointer keeps the values integers
            // (glVertexAttribPointer would turn them into floats). The type is signed
            // because the attribute is an ivec4: WebGL2 refuses to draw when an unsigned
            // pointer feeds a signed attribute.
            gl.enable_vertex_attrib_array(5);
            gl.vertex_attrib_pointer_i32(
                5,
                4,
                glow::SHORT,
                SKIN_STRIDE_BYTES as i32,
                (SKIN_FLOATS * 4) as i32,
            );
            // ANCHOR_END: int_attribute
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

    /// Number of vertices.
    pub fn vertex_count(&self) -> usize {
        self.vertex_count
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

/// Sets `u_normal_method` of `program`, which is in use.
fn set_normal_method(gl: &glow::Context, program: glow::Program, method: NormalMethod) {
    // SAFETY: a uniform upload to a program of the current context, which is in use.
    unsafe {
        let loc = gl.get_uniform_location(program, "u_normal_method");
        gl.uniform_1_i32(loc.as_ref(), method.shader_value());
    }
}

fn flatten(palette: &[Mat4]) -> Vec<f32> {
    palette.iter().flat_map(|m| m.to_cols_array()).collect()
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
    capture_skinned_with(gl, renderer, mesh, palette, JointIndices::Float)
}

/// [`capture_skinned`] with the program that reads `indices`.
pub fn capture_skinned_with(
    gl: &glow::Context,
    renderer: &SceneRenderer,
    mesh: &SkinnedMeshGpu,
    palette: &Palette,
    indices: JointIndices,
) -> Result<Vec<(Vec3, Vec3)>, String> {
    capture(
        gl,
        renderer,
        mesh,
        palette,
        indices,
        NormalMethod::InverseTranspose,
    )
}

/// [`capture_skinned`] with normals carried by `normals`.
pub fn capture_skinned_normals(
    gl: &glow::Context,
    renderer: &SceneRenderer,
    mesh: &SkinnedMeshGpu,
    palette: &Palette,
    normals: NormalMethod,
) -> Result<Vec<(Vec3, Vec3)>, String> {
    capture(gl, renderer, mesh, palette, JointIndices::Float, normals)
}

fn capture(
    gl: &glow::Context,
    renderer: &SceneRenderer,
    mesh: &SkinnedMeshGpu,
    palette: &Palette,
    indices: JointIndices,
    normals: NormalMethod,
) -> Result<Vec<(Vec3, Vec3)>, String> {
    renderer.check_palette(palette)?;
    let program = renderer.program_for(palette, indices);
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
        renderer.upload_palette(gl, program, palette);
        set_normal_method(gl, program, normals);
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
        gl.bind_texture(glow::TEXTURE_2D, None);
        gl.use_program(None);
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

/// Seconds the GPU takes to run the skinning vertex shader over every vertex of
/// `mesh`, rasterisation off: `glFinish`, start the clock, draw, `glFinish`, stop.
/// Wall time around glFinish works on every context (timer queries do not: WebGL2
/// often hides them), at the price of including the driver's overhead.
pub fn time_skinning(
    gl: &glow::Context,
    renderer: &SceneRenderer,
    mesh: &SkinnedMeshGpu,
    palette: &Palette,
    indices: JointIndices,
) -> Result<f64, String> {
    renderer.check_palette(palette)?;
    let program = renderer.program_for(palette, indices);
    // SAFETY: the program and the mesh's buffers belong to this renderer and context.
    unsafe {
        gl.use_program(Some(program));
        renderer.upload_palette(gl, program, palette);
        gl.bind_vertex_array(Some(mesh.vao));
        gl.enable(glow::RASTERIZER_DISCARD);
        gl.finish();
        let start = web_time::Instant::now();
        gl.draw_arrays(glow::POINTS, 0, mesh.vertex_count as i32);
        gl.finish();
        let seconds = start.elapsed().as_secs_f64();
        gl.disable(glow::RASTERIZER_DISCARD);
        gl.bind_vertex_array(None);
        gl.bind_texture(glow::TEXTURE_2D, None);
        gl.use_program(None);
        match gl.get_error() {
            glow::NO_ERROR => Ok(seconds),
            error => Err(format!(
                "timing the skinning failed with GL error 0x{error:x}"
            )),
        }
    }
}

/// Seconds to upload `bytes` into a fresh vertex buffer and wait for it: what a
/// CPU-skinned mesh costs each frame on top of the skinning itself.
pub fn time_upload(gl: &glow::Context, bytes: &[u8]) -> Result<f64, String> {
    // SAFETY: the buffer is created, filled and deleted here.
    unsafe {
        let buffer = gl.create_buffer()?;
        gl.bind_buffer(glow::ARRAY_BUFFER, Some(buffer));
        gl.finish();
        let start = web_time::Instant::now();
        gl.buffer_data_u8_slice(glow::ARRAY_BUFFER, bytes, glow::STREAM_DRAW);
        gl.finish();
        let seconds = start.elapsed().as_secs_f64();
        gl.bind_buffer(glow::ARRAY_BUFFER, None);
        gl.delete_buffer(buffer);
        Ok(seconds)
    }
}

/// The GPU's side of one size of the CPU-against-GPU comparison, in seconds: uploading
/// what a CPU-skinned `mesh` would send each frame, and the best of three runs of the
/// skinning vertex stage over it (the first run also pays for warming caches).
pub fn time_both_sides(
    gl: &glow::Context,
    renderer: &mut SceneRenderer,
    mesh: &Arc<MeshData>,
    palette: &Palette,
    indices: JointIndices,
) -> Result<(f64, f64), String> {
    renderer.mesh(gl, mesh)?;
    let gpu = renderer
        .uploaded(mesh)
        .ok_or("the mesh is not on the GPU")?;
    let mut best = f64::INFINITY;
    for _ in 0..3 {
        best = best.min(time_skinning(gl, renderer, gpu, palette, indices)?);
    }
    let bytes = vec![0u8; gpu.vertex_count() * crate::skin::gpu::CPU_BYTES_PER_VERTEX];
    Ok((time_upload(gl, &bytes)?, best))
}

/// What this context allows, for the uniform budget.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// GL_MAX_VERTEX_UNIFORM_VECTORS (vec4 slots for the vertex shader's uniforms).
    pub max_vertex_uniform_vectors: usize,
    /// GL_MAX_TEXTURE_SIZE (the most rows a bone texture can have).
    pub max_texture_size: usize,
}

/// Asks the current context for its [`Limits`].
pub fn limits(gl: &glow::Context) -> Limits {
    // SAFETY: plain queries on the current context.
    unsafe {
        let mut vectors = gl.get_parameter_i32(glow::MAX_VERTEX_UNIFORM_VECTORS);
        if gl.get_error() != glow::NO_ERROR || vectors <= 0 {
            // Desktop GL before 4.1 counts components instead.
            vectors = gl.get_parameter_i32(glow::MAX_VERTEX_UNIFORM_COMPONENTS) / 4;
            gl.get_error();
        }
        Limits {
            max_vertex_uniform_vectors: vectors.max(0) as usize,
            max_texture_size: gl.get_parameter_i32(glow::MAX_TEXTURE_SIZE).max(0) as usize,
        }
    }
}

/// The programs and buffers that draw a [`Scene`].
pub struct SceneRenderer {
    /// Linear blend skinning: `shaders/blend_lbs.glsl` + `shaders/skin.vert` +
    /// `shaders/skin.frag`, linked with [`SKIN_FEEDBACK`].
    pub skin_program: glow::Program,
    /// Dual quaternion skinning: `shaders/blend_dqs.glsl` + `shaders/skin.vert` +
    /// `shaders/skin.frag`, linked with [`SKIN_FEEDBACK`].
    pub dqs_program: glow::Program,
    /// Like `skin_program`, reading integer joint indices.
    pub lbs_int_program: glow::Program,
    /// Linear blend skinning from the bone texture (`shaders/blend_texture.glsl`).
    pub texture_program: glow::Program,
    /// Like `texture_program`, reading integer joint indices.
    pub texture_int_program: glow::Program,
    /// The bone texture: 4 texels wide, one row per joint, refilled for each draw.
    bone_texture: glow::Texture,
    /// GL_MAX_TEXTURE_SIZE: the most joints the bone texture can hold.
    max_texture_size: usize,
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
        let mut linked = vec![skin_program, dqs_program];
        let mut skin = |vertex: &[super::ShaderSource], attributes: &[(&str, u32)]| {
            let program = link_program(
                gl,
                vertex,
                &[shaders::SKIN_FRAG],
                attributes,
                &SKIN_FEEDBACK,
            )
            .inspect_err(|_| free(&linked))?;
            linked.push(program);
            Ok::<_, String>(program)
        };
        let lbs_int_program = skin(&shaders::SKIN_LBS_INT_VERT, &SKIN_INT_PROGRAM_ATTRIBUTES)?;
        let texture_program = skin(&shaders::SKIN_TEXTURE_VERT, &SKIN_PROGRAM_ATTRIBUTES)?;
        let texture_int_program = skin(
            &shaders::SKIN_TEXTURE_INT_VERT,
            &SKIN_INT_PROGRAM_ATTRIBUTES,
        )?;
        let color_program = link_program(
            gl,
            &[shaders::COLOR_VERT],
            &[shaders::COLOR_FRAG],
            &COLOR_PROGRAM_ATTRIBUTES,
            &[],
        )
        .inspect_err(|_| free(&linked))?;
        // SAFETY: objects are created and bound here; the layout matches COLOR_STRIDE.
        unsafe {
            let color_vao = gl.create_vertex_array()?;
            let color_vbo = gl.create_buffer()?;
            gl.bind_vertex_array(Some(color_vao));
            gl.bind_buffer(glow::ARRAY_BUFFER, Some(color_vbo));
            attribute(gl, 0, 3, COLOR_STRIDE * 4, 0);
            attribute(gl, 1, 4, COLOR_STRIDE * 4, 3);
            attribute(gl, 2, 3, COLOR_STRIDE * 4, 7);
            gl.bind_vertex_array(None);
            gl.bind_buffer(glow::ARRAY_BUFFER, None);
            // RGBA32F cannot be filtered in WebGL2 without an extension: NEAREST keeps
            // the texture complete (texelFetch ignores filtering anyway).
            let bone_texture = gl.create_texture()?;
            gl.bind_texture(glow::TEXTURE_2D, Some(bone_texture));
            for (param, value) in [
                (glow::TEXTURE_MIN_FILTER, glow::NEAREST),
                (glow::TEXTURE_MAG_FILTER, glow::NEAREST),
                (glow::TEXTURE_WRAP_S, glow::CLAMP_TO_EDGE),
                (glow::TEXTURE_WRAP_T, glow::CLAMP_TO_EDGE),
            ] {
                gl.tex_parameter_i32(glow::TEXTURE_2D, param, value as i32);
            }
            gl.bind_texture(glow::TEXTURE_2D, None);
            let max_texture_size = gl.get_parameter_i32(glow::MAX_TEXTURE_SIZE).max(0) as usize;
            Ok(Self {
                skin_program,
                dqs_program,
                lbs_int_program,
                texture_program,
                texture_int_program,
                bone_texture,
                max_texture_size,
                color_program,
                meshes: HashMap::new(),
                color_vao,
                color_vbo,
            })
        }
    }

    /// The skinning program that blends `palette`, reading float joint indices.
    pub fn program(&self, palette: &Palette) -> glow::Program {
        self.program_for(palette, JointIndices::Float)
    }

    /// The skinning program that blends `palette` and reads joint indices as
    /// `indices` (dual quaternions always read floats).
    pub fn program_for(&self, palette: &Palette, indices: JointIndices) -> glow::Program {
        match (palette, indices) {
            (Palette::Matrices(_), JointIndices::Float) => self.skin_program,
            (Palette::Matrices(_), JointIndices::Int) => self.lbs_int_program,
            (Palette::Texture(_), JointIndices::Float) => self.texture_program,
            (Palette::Texture(_), JointIndices::Int) => self.texture_int_program,
            (Palette::DualQuats { .. }, _) => self.dqs_program,
        }
    }

    /// The most joints the bone texture holds on this context (GL_MAX_TEXTURE_SIZE).
    pub fn max_texture_joints(&self) -> usize {
        self.max_texture_size
    }

    /// Refuses a palette its program cannot hold.
    fn check_palette(&self, palette: &Palette) -> Result<(), String> {
        match palette {
            Palette::Texture(m) if m.is_empty() => {
                Err("the bone texture needs at least one joint".to_owned())
            }
            Palette::Texture(m) if m.len() > self.max_texture_size => Err(format!(
                "{} joints do not fit a bone texture of at most {} rows",
                m.len(),
                self.max_texture_size
            )),
            Palette::Texture(_) => Ok(()),
            _ if palette.len() > super::MAX_JOINTS => Err(format!(
                "{} joints do not fit the shader's uniform arrays of {} joints",
                palette.len(),
                super::MAX_JOINTS
            )),
            _ => Ok(()),
        }
    }

    /// Uploads `palette` to `program` (the one [`SceneRenderer::program_for`] gives for
    /// it): matrices, dual quaternions as two vec4 a joint, or the bone texture.
    fn upload_palette(&self, gl: &glow::Context, program: glow::Program, palette: &Palette) {
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
                // ANCHOR: bone_texture_upload
                Palette::Texture(matrices) => {
                    let texels = bone_texels(matrices);
                    // Unit 0, which egui rebinds for each of its own meshes.
                    gl.active_texture(glow::TEXTURE0);
                    gl.bind_texture(glow::TEXTURE_2D, Some(self.bone_texture));
                    gl.pixel_store_i32(glow::UNPACK_ALIGNMENT, 4);
                    gl.tex_image_2d(
                        glow::TEXTURE_2D,
                        0,
                        glow::RGBA32F as i32,
                        4,
                        matrices.len() as i32,
                        0,
                        glow::RGBA,
                        glow::FLOAT,
                        glow::PixelUnpackData::Slice(Some(bytemuck::cast_slice(&texels))),
                    );
                    let loc = gl.get_uniform_location(program, "u_bone_texture");
                    gl.uniform_1_i32(loc.as_ref(), 0);
                } // ANCHOR_END: bone_texture_upload
            }
        }
    }

    /// The GPU copy of `mesh`, if it has been uploaded.
    pub fn uploaded(&self, mesh: &MeshData) -> Option<&SkinnedMeshGpu> {
        self.meshes.get(&mesh.id).map(|(_, gpu)| gpu)
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
            self.check_palette(&draw.palette)?;
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
            let program = self.program_for(&draw.palette, draw.joint_indices);
            // SAFETY: the program and the mesh's buffers belong to this renderer.
            unsafe {
                gl.use_program(Some(program));
                let loc = gl.get_uniform_location(program, "u_clip_from_world");
                gl.uniform_matrix_4_f32_slice(
                    loc.as_ref(),
                    false,
                    &scene.clip_from_world.to_cols_array(),
                );
                self.upload_palette(gl, program, &draw.palette);
                set_normal_method(gl, program, draw.normals);
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
            gl.bind_texture(glow::TEXTURE_2D, None);
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
            gl.delete_program(self.lbs_int_program);
            gl.delete_program(self.texture_program);
            gl.delete_program(self.texture_int_program);
            gl.delete_texture(self.bone_texture);
            gl.delete_program(self.color_program);
            gl.delete_vertex_array(self.color_vao);
            gl.delete_buffer(self.color_vbo);
        }
    }
}
