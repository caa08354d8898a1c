//! What the lessons show beside the runtime: Euler angles and the gimbal, quaternion
//! interpolation compared, transforms edited as translation, rotation and scale,
//! deformation ellipses, the true normal of a skinned surface, and one vertex's working
//! step by step. A project that only skins meshes needs none of it.
//!
//! Imports run one way: `explain` builds on the runtime modules, never the reverse.

pub mod ellipse;
pub mod rotation;
pub mod steps;
pub mod surface;
pub mod trs;
