//! Mesh skinning on the CPU, with glam: skeletons and their world transforms, checks on
//! typed matrices, four influences per vertex, the palette, linear and dual quaternion
//! blending and centres of rotation, normals and tangents, blend shapes (morph targets), keyframe clips and
//! their blending, a fast multi-threaded skinning job that writes into the caller's
//! buffers, and the GPU's bone texture layout and uniform budget.
//!
//! That is the runtime: what a game or a viewer needs to skin a mesh. Beside it,
//! [`explain`] holds what a lesson shows and a runtime does not need (Euler angles and
//! the gimbal, interpolation methods compared, editable transforms, deformation
//! ellipses, the true normal of a skinned surface, one vertex's working step by step).
//! It builds on the runtime; the runtime never uses it.
//!
//! The crate knows no window and no GPU: it depends on glam (and bytemuck and strum for
//! small derives, and `skinlab-parallel` to share work between threads) and builds
//! alone for `wasm32-unknown-unknown`.
//!
//! # An arm of two joints, bent at the elbow
//!
//! ```
//! use glam::{Mat4, Vec3};
//! use skinlab_skin::{Influences, Skeleton, lbs};
//!
//! // Joint 0 at the origin, joint 1 (the elbow) one unit along x, its child.
//! let skeleton = Skeleton::chain(2);
//! let elbow = Mat4::from_translation(Vec3::X);
//! let bind = skeleton.world_from_joint(&[Mat4::IDENTITY, elbow]);
//! let joint_from_bind = lbs::inverse_bind(&bind)?;
//!
//! // Bend the elbow a quarter turn about z.
//! let bent = elbow * Mat4::from_rotation_z(std::f32::consts::FRAC_PI_2);
//! let world_from_joint = skeleton.world_from_joint(&[Mat4::IDENTITY, bent]);
//! let palette = lbs::palette(&world_from_joint, &joint_from_bind);
//!
//! // A vertex at the hand, two units along x, weighted fully to the elbow.
//! let mesh = lbs::SkinMesh {
//!     positions: vec![Vec3::new(2.0, 0.0, 0.0)],
//!     influences: vec![Influences::prepare(&[(1, 1.0)], 2)?],
//!     ..Default::default()
//! };
//! let hand = lbs::skin_vertices(&palette, &mesh)[0].position;
//! assert!((hand - Vec3::new(1.0, 1.0, 0.0)).length() < 1e-6);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Inside, imports go one way: `skeleton`, `matrix`, `influences`, `normals` and `quat`
//! need no other module; `morph` on `lbs`'s mesh; `lbs` builds on `influences`, `matrix` and `normals`; `dqs` on
//! `influences`, `lbs`, `normals` and `quat`; `blend` on `lbs` and `dqs`; `clip` on
//! `skeleton`; `gpu` on `influences`; `job` on `influences`; `explain` on any of them.
//!
//! Conventions, stated once for the whole crate:
//! - column vectors, column-major 4x4 matrices, right-handed, y up (glam and GLSL agree);
//! - angles are radians;
//! - a matrix is named by the frames it maps: `world_from_joint` takes a point in a
//!   joint's frame to the world, so `a_from_b * b_from_c` reads right to left;
//! - the skinning palette is `world_from_bind = world_from_joint * joint_from_bind`,
//!   the *gradient matrix* `target_pose * inverse(bind_pose)`.

#![warn(missing_docs)]

pub mod blend;
pub mod clip;
pub mod cor;
pub mod dqs;
pub mod explain;
pub mod gpu;
pub mod influences;
pub mod job;
pub mod lbs;
pub mod matrix;
pub mod morph;
pub mod normals;
pub mod quat;
pub mod skeleton;

/// The README's example runs as a doc test too.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;

pub use blend::Blend;
pub use influences::{InfluenceError, Influences, MAX_INFLUENCES};
pub use matrix::MatrixError;
pub use skeleton::Skeleton;
