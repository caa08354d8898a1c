//! Blend shapes on the GPU: a mesh's morph targets in one RGBA32F texture that
//! `shaders/skin.vert` reads by vertex (`gl_VertexID`), and the weights of each draw in
//! its first row.
//!
//! Why a texture: GL 3.3, GLES 3.0 and WebGL2 all read one by integer coordinates
//! (`texelFetch`), with no limit on the targets but the texture's size, and it costs the
//! shader one sampler and one integer of its uniform budget, which the palette's uniform
//! arrays fill. Vertex attributes would cost two of the sixteen a program may have for
//! every target; uniform arrays of offsets would hold a few hundred vertices at most.

use super::limits::max_texture_size;
use super::palette::texel_texture;
use glam::Vec3;
use glow::HasContext as _;
use skin::morph::MorphTarget;

/// The texture unit the offsets are read from (0 is the bone texture's and egui's, 1 a
/// material's).
pub(super) const MORPH_UNIT: u32 = 2;

/// The most texels a row holds (fewer where the context's textures are narrower): the
/// shader reads the width from the texture.
const MOST_WIDTH: usize = 4096;

/// A mesh's blend shapes on the GPU.
pub(super) struct MorphTexture {
    texture: glow::Texture,
    targets: usize,
}

impl MorphTexture {
    /// Uploads the offsets of `targets` for a mesh of `vertices` vertices: position
    /// then normal, target by target, vertex by vertex (a target without one has zeros
    /// there). `None` for no targets.
    pub(super) fn upload(
        gl: &glow::Context,
        targets: &[MorphTarget],
        vertices: usize,
    ) -> Result<Option<Self>, String> {
        if targets.is_empty() {
            return Ok(None);
        }
        let most = max_texture_size(gl);
        let width = most.min(MOST_WIDTH);
        let texels = 2 * vertices * targets.len();
        let rows = 1 + texels.div_ceil(width);
        if targets.len() > 4 * width || rows > most {
            return Err(format!(
                "{} blend shapes of {vertices} vertices do not fit a texture of {most} by \
                 {most} on this GPU",
                targets.len()
            ));
        }
        let mut data = vec![0.0f32; 4 * width * rows];
        let offset = |list: &[Vec3], v: usize| list.get(v).copied().unwrap_or(Vec3::ZERO);
        for v in 0..vertices {
            for (i, target) in targets.iter().enumerate() {
                let at = 4 * (width + 2 * (v * targets.len() + i));
                data[at..at + 3].copy_from_slice(&offset(&target.positions, v).to_array());
                data[at + 4..at + 7].copy_from_slice(&offset(&target.normals, v).to_array());
            }
        }
        // SAFETY: the texture is made on the morph unit, filled there, then unbound.
        unsafe {
            gl.active_texture(glow::TEXTURE0 + MORPH_UNIT);
            let texture = match texel_texture(gl) {
                Ok(texture) => texture,
                Err(e) => {
                    gl.active_texture(glow::TEXTURE0);
                    return Err(e);
                }
            };
            gl.bind_texture(glow::TEXTURE_2D, Some(texture));
            gl.pixel_store_i32(glow::UNPACK_ALIGNMENT, 4);
            gl.tex_image_2d(
                glow::TEXTURE_2D,
                0,
                glow::RGBA32F as i32,
                width as i32,
                rows as i32,
                0,
                glow::RGBA,
                glow::FLOAT,
                glow::PixelUnpackData::Slice(Some(bytemuck::cast_slice(&data))),
            );
            gl.bind_texture(glow::TEXTURE_2D, None);
            gl.active_texture(glow::TEXTURE0);
            Ok(Some(Self {
                texture,
                targets: targets.len(),
            }))
        }
    }

    /// Writes `weights` into row 0 and points `program`, in use, at the offsets.
    pub(super) fn bind(&self, gl: &glow::Context, program: glow::Program, weights: &[f32]) {
        let mut row = vec![0.0f32; 4 * self.targets.div_ceil(4)];
        for (slot, w) in row.iter_mut().zip(weights) {
            *slot = if w.is_finite() { *w } else { 0.0 };
        }
        // SAFETY: the texture belongs to this context; unit 0 is made active again.
        unsafe {
            gl.active_texture(glow::TEXTURE0 + MORPH_UNIT);
            gl.bind_texture(glow::TEXTURE_2D, Some(self.texture));
            gl.pixel_store_i32(glow::UNPACK_ALIGNMENT, 4);
            gl.tex_sub_image_2d(
                glow::TEXTURE_2D,
                0,
                0,
                0,
                (row.len() / 4) as i32,
                1,
                glow::RGBA,
                glow::FLOAT,
                glow::PixelUnpackData::Slice(Some(bytemuck::cast_slice(&row))),
            );
            gl.active_texture(glow::TEXTURE0);
            let loc = gl.get_uniform_location(program, "u_morph_deltas");
            gl.uniform_1_i32(loc.as_ref(), MORPH_UNIT as i32);
            let loc = gl.get_uniform_location(program, "u_morph_targets");
            gl.uniform_1_i32(loc.as_ref(), self.targets as i32);
        }
    }

    /// Frees the texture.
    pub(super) fn destroy(self, gl: &glow::Context) {
        // SAFETY: the texture was created by `upload` on this context.
        unsafe { gl.delete_texture(self.texture) };
    }
}

/// Tells `program`, in use, that the draw adds no blend shapes.
pub(super) fn unbind(gl: &glow::Context, program: glow::Program) {
    // SAFETY: a uniform of a program in use on the current context.
    unsafe {
        let loc = gl.get_uniform_location(program, "u_morph_targets");
        gl.uniform_1_i32(loc.as_ref(), 0);
    }
}

/// Unbinds [`MORPH_UNIT`], at the end of a scene.
pub(super) fn release(gl: &glow::Context) {
    // SAFETY: plain state of the current context; unit 0 is made active again.
    unsafe {
        gl.active_texture(glow::TEXTURE0 + MORPH_UNIT);
        gl.bind_texture(glow::TEXTURE_2D, None);
        gl.active_texture(glow::TEXTURE0);
    }
}
