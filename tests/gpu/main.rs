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

mod extremes;
mod layout;
mod matches_cpu;
mod scene_cache;
