//! The mathematics any skinning code needs, with glam and nothing else: skeletons and
//! their world transforms, local transforms (TRS), checks on typed matrices, influences,
//! the palette, linear and dual quaternion blending, normals and tangents, deformation
//! ellipses, rotations and keyframes, the true normal of a skinned surface, and the
//! GPU's bone texture layout and uniform budget.
//!
//! No lesson lives here: the rigs the lessons are taught on are in `rigs`, and a page's
//! own data and exercises in its folder under `pages`. Nothing here imports those, nor
//! `gl` or `ui`: the crate's layers are `pages -> ui -> gl -> skin` and `rigs -> skin`.
//!
//! Inside, imports go one way: `skeleton`, `trs`, `matrix`, `influences`, `normals` and
//! `rotation` need no other module; `lbs` builds on `influences`, `matrix` and `normals`;
//! `dqs` on `influences`, `lbs` and `normals`; `blend` on `lbs` and `dqs`; `ellipse` on
//! `influences`, `lbs` and `dqs`; `surface` on `influences` and `lbs`; `gpu` on
//! `influences`.
//!
//! Conventions, stated once for the whole crate:
//! - column vectors, column-major 4x4 matrices, right-handed, y up (glam and GLSL agree);
//! - angles are radians;
//! - a matrix is named by the frames it maps: `world_from_joint` takes a point in a
//!   joint's frame to the world, so `a_from_b * b_from_c` reads right to left;
//! - the skinning palette is `world_from_bind = world_from_joint * joint_from_bind`,
//!   the *gradient matrix* `target_pose * inverse(bind_pose)`.

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
pub mod rotation;
pub mod skeleton;
pub mod surface;
pub mod trs;

pub use blend::Blend;
pub use influences::{InfluenceError, Influences, MAX_INFLUENCES};
pub use matrix::MatrixError;
pub use skeleton::Skeleton;
pub use trs::Trs;
