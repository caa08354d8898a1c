//! The mathematics of skinning, with glam and nothing else.
//!
//! Conventions, stated once for the whole crate:
//! - column vectors, column-major 4x4 matrices, right-handed, y up (glam and GLSL agree);
//! - angles are radians;
//! - a matrix is named by the frames it maps: `world_from_joint` takes a point in a
//!   joint's frame to the world, so `a_from_b * b_from_c` reads right to left;
//! - the skinning palette is `world_from_bind = world_from_joint * joint_from_bind`,
//!   the *gradient matrix* `target_pose * inverse(bind_pose)`.

pub mod arm;
pub mod binding;
pub mod blend;
pub mod dqs;
pub mod gpu;
pub mod gradient;
pub mod grid;
pub mod hierarchy;
pub mod humanoid;
pub mod influences;
pub mod job;
pub mod lbs;
pub mod matrix;
pub mod normals;
pub mod paint;
pub mod poses;
pub mod rotation;
pub mod skeleton;
pub mod trs;

pub use blend::Blend;
pub use influences::{InfluenceError, Influences, MAX_INFLUENCES};
pub use matrix::MatrixError;
pub use skeleton::Skeleton;
pub use trs::Trs;
