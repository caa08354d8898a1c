//! Everything that talks to OpenGL (through glow), and every `unsafe` block of the crate.
//!
//! Pages describe what to draw as a [`Scene`] (plain data); [`SceneRenderer`] turns it
//! into draw calls. The same shader files load here for the app and for the tests.
//!
//! One file a concern: `compile` (shader files to programs, with the driver's log),
//! `programs` (the programs the renderer links), `mesh` (vertex layouts and mesh
//! upload), `palette` (uniform arrays and the bone texture), `draw` (the renderer),
//! `capture` (transform feedback), `timing` and `limits`.

#[cfg(not(target_arch = "wasm32"))]
mod cache;
mod capture;
mod compile;
mod draw;
#[cfg(not(target_arch = "wasm32"))]
pub mod headless;
mod limits;
mod mesh;
mod palette;
mod programs;
mod scene;
mod timing;

#[cfg(not(target_arch = "wasm32"))]
pub use cache::{KEPT_FROM_VERTICES, SceneCache, ViewportPx};
pub use capture::{Switches, capture_skinned, capture_skinned_as, capture_skinned_range};
pub use compile::{ShaderSource, link_program, shader_header, shaders};
pub use draw::SceneRenderer;
pub use limits::{Limits, limits};
pub use mesh::{SKIN_INT_PROGRAM_ATTRIBUTES, SKIN_PROGRAM_ATTRIBUTES, SkinnedMeshGpu};
pub use programs::SKIN_FEEDBACK;
pub use scene::{ColorVertex, JointIndices, MeshData, Palette, Primitive, Scene, SkinnedDraw};
pub use timing::{time_both_sides, time_skinning, time_upload};

/// How many palette matrices the uniform-array shader path holds. 60 mat4 = 240 vectors,
/// which leaves room for the other uniforms inside WebGL2's guaranteed 256.
pub const MAX_JOINTS: usize = 60;
