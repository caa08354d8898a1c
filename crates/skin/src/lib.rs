//! The mathematics any skinning code needs, with glam and nothing else: skeletons and
//! their world transforms, local transforms (TRS), checks on typed matrices, influences,
//! the palette, linear and dual quaternion blending, normals and tangents, deformation
//! ellipses, rotations and keyframes, the true normal of a skinned surface, a fast
//! multi-threaded skinning job (and the one way work is shared between threads), and
//! the GPU's bone texture layout and uniform budget.
//!
//! The crate knows no lesson, no window and no GPU: it depends on glam (and bytemuck and
//! strum for small derives) and builds alone for `wasm32-unknown-unknown`.
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
//! Inside, imports go one way: `skeleton`, `trs`, `matrix`, `influences`, `normals` and
//! `rotation` need no other module; `lbs` builds on `influences`, `matrix` and `normals`;
//! `dqs` on `influences`, `lbs` and `normals`; `blend` on `lbs` and `dqs`; `ellipse` on
//! `influences`, `lbs` and `dqs`; `surface` on `influences` and `lbs`; `gpu` on
//! `influences`; `parallel` (work shared between threads) on nothing, and `job` on
//! `influences` and `parallel`.
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
pub mod dqs;
pub mod ellipse;
pub mod gpu;
pub mod influences;
pub mod job;
pub mod lbs;
pub mod matrix;
pub mod normals;
pub mod parallel;
pub mod rotation;
pub mod skeleton;
pub mod surface;
pub mod trs;

pub use blend::Blend;
pub use influences::{InfluenceError, Influences, MAX_INFLUENCES};
pub use matrix::MatrixError;
pub use skeleton::Skeleton;
pub use trs::Trs;
