//! The skinning shaders on a headless EGL context, held to the CPU reference.
//!
//! One test binary for the group, one module a file: the group links egui, eframe and
//! the rest once.

#[path = "../common/mod.rs"]
mod common;

/// Two tests that run `check`: one on a GL 3.3 core context, one on GLES 3.0 (the
/// module that uses it has `common::Api` in scope).
macro_rules! on_both_apis {
    ($check:ident: $gl:ident, $gles:ident) => {
        #[test]
        fn $gl() {
            $check(Api::GlCore33);
        }

        #[test]
        fn $gles() {
            $check(Api::Gles30);
        }
    };
}

/// The pixels of the bound framebuffer's bottom left `size`, RGBA, rows bottom first.
#[allow(unsafe_code)]
fn pixels(gl: &glow::Context, size: [i32; 2]) -> Vec<u8> {
    use glow::HasContext as _;
    let mut pixels = vec![0u8; (size[0] * size[1] * 4) as usize];
    // SAFETY: a plain read of a bound framebuffer at least `size` large into a buffer
    // of that many RGBA pixels.
    unsafe {
        gl.read_pixels(
            0,
            0,
            size[0],
            size[1],
            glow::RGBA,
            glow::UNSIGNED_BYTE,
            glow::PixelPackData::Slice(Some(&mut pixels)),
        );
    }
    pixels
}

mod ellipses;
mod extremes;
mod layout;
mod matches_cpu;
mod scene_cache;
