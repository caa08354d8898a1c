//! The rigs the lessons are taught on: skeletons, bind poses and skinned meshes that
//! several pages (or `skinlab --bench`) share. Built from [`skin`] and nothing
//! else; a rig used by one page only lives in that page's folder.

pub mod arm;
pub mod chain;
pub mod humanoid;
pub mod poses;
