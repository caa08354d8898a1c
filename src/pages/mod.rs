//! One module per page: its state (a `Default`) and its cells.

pub mod binding;
pub mod blending;
pub mod gpu;
pub mod gradient;
pub mod grid;
pub mod hierarchy;
pub mod joint_link;
pub mod normals;
pub mod quaternions;
pub mod xray;
