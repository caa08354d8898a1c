//! Everything that talks to OpenGL (through glow), and every `unsafe` block of the crate.
//!
//! Pages describe what to draw as a [`Scene`] (plain data); [`SceneRenderer`] turns it
//! into draw calls. The same shader files load here for the app and for the tests.

#[cfg(not(target_arch = "wasm32"))]
pub mod headless;
mod program;
mod renderer;
mod scene;

pub use program::{ShaderSource, link_program, shader_header, shaders};
pub use renderer::{
    Limits, SKIN_FEEDBACK, SKIN_INT_PROGRAM_ATTRIBUTES, SKIN_PROGRAM_ATTRIBUTES, SceneRenderer,
    SkinnedMeshGpu, capture_skinned, capture_skinned_normals, capture_skinned_with, limits,
    time_both_sides, time_skinning, time_upload,
};
pub use scene::{ColorVertex, JointIndices, MeshData, Palette, Primitive, Scene, SkinnedDraw};

/// How many palette matrices the uniform-array shader path holds. 60 mat4 = 240 vectors,
/// which leaves room for the other uniforms inside WebGL2's guaranteed 256.
pub const MAX_JOINTS: usize = 60;
