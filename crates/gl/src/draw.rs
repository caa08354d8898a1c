//! Drawing: [`SceneRenderer`] owns the programs, the bone texture and the GPU copies of
//! meshes, and turns a [`Scene`] into draw calls in the current framebuffer.

use super::mesh::{ColorBuffer, MeshCache, SkinnedMeshGpu};
use super::palette::{self, BoneTexture};
use super::programs::Programs;
use super::texture::TextureCache;
use glam::Mat4;
use glow::HasContext as _;
use scene::{ColorVertex, JointIndices, MeshData, Palette, Scene};
use std::sync::Arc;

/// The programs and buffers that draw a [`Scene`].
pub struct SceneRenderer {
    programs: Programs,
    bones: BoneTexture,
    meshes: MeshCache,
    colors: ColorBuffer,
    textures: TextureCache,
}

impl SceneRenderer {
    /// Builds the programs; the error carries the driver's log.
    pub fn new(gl: &glow::Context) -> Result<Self, String> {
        let programs = Programs::new(gl)?;
        let bones = match BoneTexture::new(gl) {
            Ok(bones) => bones,
            Err(e) => {
                programs.destroy(gl);
                return Err(e);
            }
        };
        let colors = match ColorBuffer::new(gl) {
            Ok(colors) => colors,
            Err(e) => {
                programs.destroy(gl);
                bones.destroy(gl);
                return Err(e);
            }
        };
        let textures = match TextureCache::new(gl) {
            Ok(textures) => textures,
            Err(e) => {
                programs.destroy(gl);
                bones.destroy(gl);
                colors.destroy(gl);
                return Err(e);
            }
        };
        Ok(Self {
            programs,
            bones,
            meshes: MeshCache::default(),
            colors,
            textures,
        })
    }

    /// The skinning program that blends `palette`, reading float joint indices.
    pub fn program(&self, palette: &Palette) -> glow::Program {
        self.program_for(palette, JointIndices::Float)
    }

    /// The skinning program that blends `palette` and reads joint indices as
    /// `indices` (dual quaternions always read floats).
    pub fn program_for(&self, palette: &Palette, indices: JointIndices) -> glow::Program {
        self.programs.for_palette(palette, indices)
    }

    /// The most joints the bone texture holds on this context (GL_MAX_TEXTURE_SIZE).
    pub fn max_texture_joints(&self) -> usize {
        self.bones.max_joints
    }

    /// Refuses a palette its program cannot hold.
    pub(super) fn check_palette(&self, palette: &Palette) -> Result<(), String> {
        palette::check(palette, self.bones.max_joints)
    }

    /// Uploads `palette` to `program` (the one [`SceneRenderer::program_for`] gives for
    /// it), which is in use.
    pub(super) fn upload_palette(
        &self,
        gl: &glow::Context,
        program: glow::Program,
        palette: &Palette,
    ) {
        palette::upload(gl, program, palette, &self.bones);
    }

    /// The GPU copy of `mesh`, if it has been uploaded.
    pub fn uploaded(&self, mesh: &MeshData) -> Option<&SkinnedMeshGpu> {
        self.meshes.get(mesh)
    }

    /// The GPU copy of `mesh`, uploaded on first use.
    pub fn mesh(
        &mut self,
        gl: &glow::Context,
        mesh: &Arc<MeshData>,
    ) -> Result<&SkinnedMeshGpu, String> {
        self.meshes.get_or_upload(gl, mesh)
    }

    fn draw_colored(&self, gl: &glow::Context, scene: &Scene, vertices: &[ColorVertex], mode: u32) {
        if vertices.is_empty() {
            return;
        }
        let program = self.programs.color;
        // SAFETY: the program and buffers belong to this renderer and context.
        unsafe {
            gl.use_program(Some(program));
            let loc = gl.get_uniform_location(program, "u_clip_from_world");
            gl.uniform_matrix_4_f32_slice(
                loc.as_ref(),
                false,
                &scene.clip_from_world.to_cols_array(),
            );
            let loc = gl.get_uniform_location(program, "u_light_dir");
            gl.uniform_3_f32_slice(loc.as_ref(), &scene.light_dir.to_array());
            self.colors.fill(gl, vertices);
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
        self.meshes.evict_dropped(gl);
        for draw in &scene.skinned {
            self.check_palette(&draw.palette)?;
            match &draw.streamed {
                Some(streamed) => self.meshes.stream(gl, &draw.mesh, streamed)?,
                None => {
                    self.mesh(gl, &draw.mesh)?;
                }
            }
            if let Some(texture) = &draw.texture {
                self.textures.prepare(gl, texture)?;
            }
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
            let Some(mesh) = self.meshes.get(&draw.mesh) else {
                continue;
            };
            let program = self.program_for(&draw.palette, draw.joint_indices);
            // SAFETY: the program and the mesh's buffers belong to this renderer.
            unsafe {
                gl.use_program(Some(program));
                let loc = gl.get_uniform_location(program, "u_clip_from_world");
                let clip_from_world = scene.clip_from_world * Mat4::from_translation(draw.offset);
                gl.uniform_matrix_4_f32_slice(
                    loc.as_ref(),
                    false,
                    &clip_from_world.to_cols_array(),
                );
                self.upload_palette(gl, program, &draw.palette);
                palette::set_switches(gl, program, draw.normals, draw.position_w);
                let loc = gl.get_uniform_location(program, "u_color");
                gl.uniform_4_f32_slice(loc.as_ref(), &draw.color);
                let loc = gl.get_uniform_location(program, "u_lit");
                gl.uniform_1_f32(loc.as_ref(), if draw.lit { 1.0 } else { 0.0 });
                let loc = gl.get_uniform_location(program, "u_light_dir");
                gl.uniform_3_f32_slice(loc.as_ref(), &scene.light_dir.to_array());
                self.textures.bind(gl, program, draw.texture.as_deref());
                gl.bind_vertex_array(Some(mesh.vao_for(draw.streamed.is_some())));
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
        self.textures.release(gl);
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
        let Self {
            programs,
            bones,
            meshes,
            colors,
            textures,
        } = self;
        textures.destroy(gl);
        meshes.destroy(gl);
        programs.destroy(gl);
        bones.destroy(gl);
        colors.destroy(gl);
    }
}
