//! Everything that talks to OpenGL (through glow): skinlab's renderer, and the one crate
//! of the workspace where `unsafe` blocks are allowed (each says why it is sound).
//!
//! Pages describe what to draw as a [`Scene`] (plain data, from the `skinlab-scene` crate,
//! which knows no GL); [`SceneRenderer`] turns it
//! into draw calls. The same shader files load here for the app and for the tests.
//!
//! One file a concern: `compile` (shader files to programs, with the driver's log),
//! `programs` (the programs the renderer links), `mesh` (vertex layouts and mesh
//! upload), `morph` (blend shapes in a texture), `palette` (uniform arrays and the bone
//! texture), `draw` (the renderer),
//! `ellipses` (outlines over a scene),
//! `capture` (transform feedback), `stream` (vertices the CPU writes each frame),
//! `texture` (the images materials paint with), `timing` and `limits`.

#[cfg(not(target_arch = "wasm32"))]
mod cache;
mod capture;
mod compile;
mod draw;
mod ellipses;
#[cfg(not(target_arch = "wasm32"))]
pub mod headless;
mod limits;
mod mesh;
mod morph;
mod palette;
mod programs;
mod stream;
mod texture;
mod timing;
mod uniforms;

/// Empties the context's error flags, so the next `glGetError` speaks of what follows
/// alone. The web build does not ask after every scene (a browser's `getError` waits for
/// the GPU process), so errors from earlier frames may wait there.
pub(crate) fn clear_errors(gl: &glow::Context) {
    use glow::HasContext as _;
    // A context keeps one flag per kind of error: a few calls empty them all.
    for _ in 0..8 {
        // SAFETY: a plain query on the current context.
        if unsafe { gl.get_error() } == glow::NO_ERROR {
            break;
        }
    }
}

/// Sets `u_clip_from_world` of `program`, which is in use.
pub(crate) fn set_clip_from_world(
    gl: &glow::Context,
    program: glow::Program,
    clip_from_world: glam::Mat4,
) {
    use glow::HasContext as _;
    // SAFETY: a uniform of a program in use on the current context.
    unsafe {
        let loc = gl.get_uniform_location(program, "u_clip_from_world");
        gl.uniform_matrix_4_f32_slice(loc.as_ref(), false, &clip_from_world.to_cols_array());
    }
}

/// Turns blending on with premultiplied colour, as egui blends, so a picture is the
/// same in the app and on a headless context.
pub(crate) fn blend_premultiplied(gl: &glow::Context) {
    use glow::HasContext as _;
    // SAFETY: blend state of the current context.
    unsafe {
        gl.enable(glow::BLEND);
        gl.blend_equation(glow::FUNC_ADD);
        gl.blend_func_separate(
            glow::ONE,
            glow::ONE_MINUS_SRC_ALPHA,
            glow::ONE_MINUS_DST_ALPHA,
            glow::ONE,
        );
    }
}

#[cfg(not(target_arch = "wasm32"))]
pub use cache::{KEPT_FROM_VERTICES, SceneCache, ViewportPx};
pub use capture::{capture_skinned, capture_skinned_as, capture_skinned_range};
pub use compile::{ShaderSource, link_program, shader_header, shaders};
pub use draw::SceneRenderer;
pub use limits::{Limits, limits, renderer};
pub use mesh::{SKIN_INT_PROGRAM_ATTRIBUTES, SKIN_PROGRAM_ATTRIBUTES, SkinnedMeshGpu};
pub use programs::SKIN_FEEDBACK;
pub use scene::{
    ColorVertex, EllipseOutline, JointIndices, MAX_JOINTS, MeshData, Palette, Primitive, Scene,
    SkinnedDraw, Switches,
};
pub use stream::{Staging, StreamBuffer, Upload};
pub use timing::{
    Clock, GpuTimes, cpu_skinned_runs, time_both_sides, time_drawn, time_skinning, time_upload,
    time_vertex_stage,
};
pub use uniforms::{UniformCost, uniform_costs};
