//! Colour textures: the images a material paints a surface with, uploaded once per
//! [`Texture`] while a page holds it, and a white pixel for the draws without one (the
//! fragment shader always multiplies by a texture, so an untextured draw keeps its
//! colour exactly).

use super::mesh::take_dropped;
use glow::HasContext as _;
use scene::Texture;
use std::collections::HashMap;
use std::collections::hash_map::Entry;
use std::sync::{Arc, Weak};

/// The texture unit colour textures are bound to: unit 0 is the bone texture's.
pub(super) const COLOR_UNIT: u32 = 1;

/// The GPU copies of textures by id, and the white pixel.
pub(super) struct TextureCache {
    white: glow::Texture,
    textures: HashMap<u64, (Weak<Texture>, glow::Texture)>,
}

/// Makes a texture object and fills it with `rgba`, `size` pixels, sampled as asked;
/// leaves it bound to unit [`COLOR_UNIT`].
fn upload(
    gl: &glow::Context,
    size: [u32; 2],
    rgba: &[u8],
    filters: [u32; 2],
    wraps: [u32; 2],
) -> Result<glow::Texture, String> {
    let [mag, min] = filters;
    let mipmapped = !matches!(min, glow::NEAREST | glow::LINEAR);
    // SAFETY: the texture is made and filled here with exactly 4 × width × height
    // bytes (Texture::new's contract), on the current context.
    unsafe {
        let texture = gl.create_texture()?;
        gl.active_texture(glow::TEXTURE0 + COLOR_UNIT);
        gl.bind_texture(glow::TEXTURE_2D, Some(texture));
        gl.pixel_store_i32(glow::UNPACK_ALIGNMENT, 1);
        gl.tex_image_2d(
            glow::TEXTURE_2D,
            0,
            glow::RGBA8 as i32,
            size[0] as i32,
            size[1] as i32,
            0,
            glow::RGBA,
            glow::UNSIGNED_BYTE,
            glow::PixelUnpackData::Slice(Some(rgba)),
        );
        gl.pixel_store_i32(glow::UNPACK_ALIGNMENT, 4);
        gl.tex_parameter_i32(glow::TEXTURE_2D, glow::TEXTURE_MAG_FILTER, mag as i32);
        gl.tex_parameter_i32(glow::TEXTURE_2D, glow::TEXTURE_MIN_FILTER, min as i32);
        gl.tex_parameter_i32(glow::TEXTURE_2D, glow::TEXTURE_WRAP_S, wraps[0] as i32);
        gl.tex_parameter_i32(glow::TEXTURE_2D, glow::TEXTURE_WRAP_T, wraps[1] as i32);
        if mipmapped {
            gl.generate_mipmap(glow::TEXTURE_2D);
        }
        Ok(texture)
    }
}

impl TextureCache {
    /// Makes the white pixel.
    pub(super) fn new(gl: &glow::Context) -> Result<Self, String> {
        let white = upload(
            gl,
            [1, 1],
            &[255; 4],
            [glow::NEAREST, glow::NEAREST],
            [glow::REPEAT; 2],
        )?;
        Ok(Self {
            white,
            textures: HashMap::new(),
        })
    }

    /// Uploads `texture` unless it is on the GPU already.
    pub(super) fn prepare(
        &mut self,
        gl: &glow::Context,
        texture: &Arc<Texture>,
    ) -> Result<(), String> {
        if let Entry::Vacant(entry) = self.textures.entry(texture.id) {
            let Texture {
                size,
                rgba,
                filters,
                wraps,
                ..
            } = &**texture;
            let gpu = upload(gl, *size, rgba, *filters, *wraps)?;
            entry.insert((Arc::downgrade(texture), gpu));
        }
        Ok(())
    }

    /// Binds `texture` (uploaded by [`Self::prepare`]), or the white pixel, to unit
    /// [`COLOR_UNIT`] and points `program`'s `u_base_color` at it.
    pub(super) fn bind(
        &self,
        gl: &glow::Context,
        program: glow::Program,
        texture: Option<&Texture>,
    ) {
        let gpu = texture
            .and_then(|t| self.textures.get(&t.id))
            .map_or(self.white, |(_, gpu)| *gpu);
        // SAFETY: the texture belongs to this cache and context; unit 0 is made active
        // again for egui and the bone texture.
        unsafe {
            gl.active_texture(glow::TEXTURE0 + COLOR_UNIT);
            gl.bind_texture(glow::TEXTURE_2D, Some(gpu));
            gl.active_texture(glow::TEXTURE0);
            let loc = gl.get_uniform_location(program, "u_base_color");
            gl.uniform_1_i32(loc.as_ref(), COLOR_UNIT as i32);
        }
    }

    /// Unbinds unit [`COLOR_UNIT`] and frees the copies of textures no page holds.
    pub(super) fn release(&mut self, gl: &glow::Context) {
        // SAFETY: the objects were made by `upload` on this context.
        unsafe {
            gl.active_texture(glow::TEXTURE0 + COLOR_UNIT);
            gl.bind_texture(glow::TEXTURE_2D, None);
            gl.active_texture(glow::TEXTURE0);
            for gpu in take_dropped(&mut self.textures) {
                gl.delete_texture(gpu);
            }
        }
    }

    /// Frees every texture.
    pub(super) fn destroy(self, gl: &glow::Context) {
        // SAFETY: the objects were made by `upload` on this context.
        unsafe {
            gl.delete_texture(self.white);
            for (_, (_, gpu)) in self.textures {
                gl.delete_texture(gpu);
            }
        }
    }
}
