//! What the current context allows: the numbers the gpu page's uniform budget and the
//! bone texture's size check read.

use glow::HasContext as _;

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
    super::clear_errors(gl);
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
            max_texture_size: max_texture_size(gl),
        }
    }
}

/// GL_MAX_TEXTURE_SIZE of the current context.
pub(super) fn max_texture_size(gl: &glow::Context) -> usize {
    // SAFETY: a plain query on the current context.
    unsafe { gl.get_parameter_i32(glow::MAX_TEXTURE_SIZE).max(0) as usize }
}

/// GL_RENDERER of the current context: what the gpu page names beside its timings. A
/// browser names itself there ("WebKit WebGL"); where it offers
/// `WEBGL_debug_renderer_info`, the GPU's own name is taken from that instead.
pub fn renderer(gl: &glow::Context) -> String {
    /// `UNMASKED_RENDERER_WEBGL`, of `WEBGL_debug_renderer_info`.
    const UNMASKED_RENDERER: u32 = 0x9246;
    if gl
        .supported_extensions()
        .contains("WEBGL_debug_renderer_info")
    {
        // SAFETY: a plain string query, of an enum the context says it knows.
        let unmasked = unsafe { gl.get_parameter_string(UNMASKED_RENDERER) };
        if !unmasked.is_empty() {
            return unmasked;
        }
    }
    // SAFETY: a plain string query on the current context.
    unsafe { gl.get_parameter_string(glow::RENDERER) }
}
