//! Drawing: [`SceneRenderer`] owns the programs, the bone texture and the GPU copies of
//! meshes, and turns a [`Scene`] into draw calls in the current framebuffer.

use super::ellipses::EllipseBuffer;
use super::mesh::{ColorBuffer, MeshCache, SkinnedMeshGpu};
use super::palette::{self, BoneTexture};
use super::programs::Programs;
use super::texture::TextureCache;
use glam::Mat4;
use glow::HasContext as _;
use scene::{ColorVertex, JointIndices, MeshData, Palette, Scene, SkinnedDraw};
use std::sync::Arc;

/// The programs and buffers that draw a [`Scene`].
pub struct SceneRenderer {
    programs: Programs,
    bones: BoneTexture,
    meshes: MeshCache,
    colors: ColorBuffer,
    textures: TextureCache,
    /// Made when a scene first has ellipses: most pages never draw any.
    ellipses: Option<EllipseBuffer>,
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
            ellipses: None,
        })
    }

    /// The skinning program that blends `palette`, reading float joint indices.
    pub fn program(&self, gl: &glow::Context, palette: &Palette) -> Result<glow::Program, String> {
        self.program_for(gl, palette, JointIndices::Float)
    }

    /// The skinning program that blends `palette` and reads joint indices as
    /// `indices` (dual quaternions always read floats), linked on first use; the error
    /// carries the driver's log.
    pub fn program_for(
        &self,
        gl: &glow::Context,
        palette: &Palette,
        indices: JointIndices,
    ) -> Result<glow::Program, String> {
        self.programs.for_palette(gl, palette, indices, false)
    }

    /// The program that draws `draw`: [`SceneRenderer::program_for`] its palette, with
    /// glTF's MASK cut-off when its alpha asks for one.
    fn program_of(&self, gl: &glow::Context, draw: &SkinnedDraw) -> Result<glow::Program, String> {
        let mask = matches!(draw.alpha, scene::Alpha::Mask(_));
        self.programs
            .for_palette(gl, &draw.palette, draw.joint_indices, mask)
    }

    /// The most joints the bone texture holds on this context (GL_MAX_TEXTURE_SIZE).
    pub fn max_texture_joints(&self) -> usize {
        self.bones.max_joints
    }

    /// Refuses a palette its program cannot hold, or that needs centres of rotation a
    /// mesh without them (`has_centres` false) cannot give.
    pub(super) fn check_palette(&self, palette: &Palette, has_centres: bool) -> Result<(), String> {
        palette::check(palette, self.bones.max_joints, has_centres)
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

    /// Draws `vertices` with the colour program; lines `width` pixels wide.
    fn draw_colored(
        &self,
        gl: &glow::Context,
        scene: &Scene,
        vertices: &[ColorVertex],
        mode: u32,
        width: f32,
        viewport_px: [f32; 2],
    ) {
        if vertices.is_empty() {
            return;
        }
        let program = self.programs.color;
        // SAFETY: the program and buffers belong to this renderer and context.
        unsafe {
            gl.use_program(Some(program));
            super::set_clip_from_world(gl, program, scene.clip_from_world);
            let loc = gl.get_uniform_location(program, "u_light_dir");
            gl.uniform_3_f32_slice(loc.as_ref(), &scene.light_dir.to_array());
            self.colors.fill(gl, vertices);
            let offset_loc = gl.get_uniform_location(program, "u_clip_offset");
            for offset in wide_line_offsets(width, viewport_px) {
                gl.uniform_2_f32_slice(offset_loc.as_ref(), &offset);
                gl.draw_arrays(mode, 0, vertices.len() as i32);
            }
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
            self.check_palette(&draw.palette, !draw.mesh.centres.is_empty())?;
            // Linked now, before any GL state changes, if this is its first draw.
            self.program_of(gl, draw)?;
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
        let ellipse_program = if scene.ellipses.is_empty() {
            None
        } else {
            let program = self.programs.ellipse(gl)?;
            if self.ellipses.is_none() {
                self.ellipses = Some(EllipseBuffer::new(gl)?);
            }
            Some(program)
        };
        let [r, g, b, a] = scene.background;
        // SAFETY: state changes on the current context, restored at the end.
        unsafe {
            gl.clear_color(r, g, b, a);
            gl.clear_depth_f32(1.0);
            gl.clear(glow::COLOR_BUFFER_BIT | glow::DEPTH_BUFFER_BIT);
            gl.disable(glow::DEPTH_TEST);
        }
        self.draw_colored(
            gl,
            scene,
            &scene.backdrop,
            glow::LINES,
            scene.line_px(scene::BACKDROP_WIDTH),
            viewport_px,
        );
        // SAFETY: state changes on the current context, restored at the end.
        unsafe {
            gl.enable(glow::DEPTH_TEST);
            gl.depth_func(glow::LEQUAL);
            gl.disable(glow::CULL_FACE);
        }
        super::blend_premultiplied(gl);
        self.draw_colored(
            gl,
            scene,
            &scene.triangles,
            glow::TRIANGLES,
            1.0,
            viewport_px,
        );
        for draw in &scene.skinned {
            let Some(mesh) = self.meshes.get(&draw.mesh) else {
                continue;
            };
            // Linked above.
            let Ok(program) = self.program_of(gl, draw) else {
                continue;
            };
            // SAFETY: the program and the mesh's buffers belong to this renderer.
            unsafe {
                gl.use_program(Some(program));
                let clip_from_world = scene.clip_from_world * Mat4::from_translation(draw.offset);
                super::set_clip_from_world(gl, program, clip_from_world);
                self.upload_palette(gl, program, &draw.palette);
                palette::set_switches(gl, program, draw.normals, draw.position_w);
                let loc = gl.get_uniform_location(program, "u_color");
                gl.uniform_4_f32_slice(loc.as_ref(), &draw.color);
                let loc = gl.get_uniform_location(program, "u_lit");
                gl.uniform_1_f32(loc.as_ref(), if draw.lit { 1.0 } else { 0.0 });
                let loc = gl.get_uniform_location(program, "u_light_dir");
                gl.uniform_3_f32_slice(loc.as_ref(), &scene.light_dir.to_array());
                let (cutoff, mode) = draw.alpha.uniforms();
                let loc = gl.get_uniform_location(program, "u_alpha_cutoff");
                gl.uniform_1_f32(loc.as_ref(), cutoff);
                let loc = gl.get_uniform_location(program, "u_alpha_mode");
                gl.uniform_1_f32(loc.as_ref(), mode);
                // A blended surface does not hide what is drawn after it.
                gl.depth_mask(draw.alpha != scene::Alpha::Blend);
                // A file's surfaces are depth-tested as glTF viewers test them: a
                // surface exactly behind another (a file may stack thousands) is not
                // shaded again. The pages' own draws pass at equal depth, so a wide
                // line's passes and a shape drawn over its own ghost show.
                gl.depth_func(if draw.alpha.from_file() {
                    glow::LESS
                } else {
                    glow::LEQUAL
                });
                self.textures.bind(gl, program, draw.texture.as_deref());
                mesh.bind(
                    gl,
                    program,
                    draw.streamed.is_some(),
                    draw.shader_morph_weights(),
                );
                let offset_loc = gl.get_uniform_location(program, "u_clip_offset");
                let width = if mesh.mode == glow::LINES {
                    scene.line_px(draw.line_width)
                } else {
                    1.0
                };
                for offset in wide_line_offsets(width, viewport_px) {
                    gl.uniform_2_f32_slice(offset_loc.as_ref(), &offset);
                    gl.draw_elements(mesh.mode, mesh.index_count as i32, glow::UNSIGNED_INT, 0);
                }
            }
        }
        self.draw_colored(
            gl,
            scene,
            &scene.lines,
            glow::LINES,
            scene.line_px(scene::LINES_WIDTH),
            viewport_px,
        );
        if let (Some(program), Some(ellipses)) = (ellipse_program, &self.ellipses) {
            ellipses.draw(gl, program, scene, viewport_px);
        }
        self.textures.release(gl);
        super::morph::release(gl);
        // SAFETY: restores the state egui expects.
        unsafe {
            gl.bind_vertex_array(None);
            gl.bind_buffer(glow::ARRAY_BUFFER, None);
            gl.bind_texture(glow::TEXTURE_2D, None);
            gl.use_program(None);
            gl.depth_mask(true);
            gl.disable(glow::DEPTH_TEST);
            // In a browser, `getError` waits for the GPU process to finish everything
            // asked so far (the first frame's shader compiles among it: 170 ms of the
            // web app's first frame in headless Chromium), so the web build does not ask.
            #[cfg(not(target_arch = "wasm32"))]
            {
                let error = gl.get_error();
                if error != glow::NO_ERROR {
                    return Err(format!(
                        "drawing the scene failed with GL error 0x{error:x}"
                    ));
                }
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
            ellipses,
        } = self;
        if let Some(ellipses) = ellipses {
            ellipses.destroy(gl);
        }
        textures.destroy(gl);
        meshes.destroy(gl);
        programs.destroy(gl);
        bones.destroy(gl);
        colors.destroy(gl);
    }
}

/// The clip-space shifts a line `width` pixels wide is drawn at, in a viewport of
/// `viewport_px`: once where it lies, and for a wider line again at every pixel out to
/// half the width, across and along, in a plus shape with no gaps. WebGL2 and core
/// profiles draw no line wider than one pixel.
fn wide_line_offsets(width: f32, viewport_px: [f32; 2]) -> impl Iterator<Item = [f32; 2]> {
    let r = (width - 1.0).max(0.0) * 0.5;
    // Steps of at most a pixel, so the copies of a line touch.
    let steps = r.ceil() as i32;
    let step = if steps > 0 { r / steps as f32 } else { 0.0 };
    let to_clip = move |dx: f32, dy: f32| {
        [
            2.0 * dx / viewport_px[0].max(1.0),
            2.0 * dy / viewport_px[1].max(1.0),
        ]
    };
    std::iter::once(to_clip(0.0, 0.0)).chain((-steps..=steps).filter(|&i| i != 0).flat_map(
        move |i| {
            let d = i as f32 * step;
            [to_clip(d, 0.0), to_clip(0.0, d)]
        },
    ))
}

#[cfg(test)]
mod tests {
    use super::wide_line_offsets;

    #[test]
    fn a_wide_line_is_drawn_at_every_pixel_out_to_half_its_width() {
        let px = [200.0, 100.0];
        assert_eq!(wide_line_offsets(1.0, px).count(), 1);
        let offsets: Vec<_> = wide_line_offsets(15.0, px).collect();
        // Seven pixels each way, across and along, and the line itself.
        assert_eq!(offsets.len(), 1 + 4 * 7);
        let xs: Vec<f32> = offsets
            .iter()
            .filter(|o| o[1] == 0.0)
            .map(|o| o[0] * px[0] / 2.0)
            .collect();
        assert!(xs.iter().any(|&x| (x - 7.0).abs() < 1e-4));
        assert!(xs.iter().any(|&x| (x + 7.0).abs() < 1e-4));
        for x in -7..=7 {
            assert!(
                xs.iter().any(|&d| (d - x as f32).abs() < 1e-4),
                "no copy {x} pixels across"
            );
        }
    }
}
