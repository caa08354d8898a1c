//! The skinning shaders on a headless EGL context, held to the CPU reference.
//!
//! One test binary for the group, one module a file: the group links egui, eframe and
//! the rest once.

#[path = "../common/mod.rs"]
mod common;

mod extremes;
mod layout;
mod matches_cpu;
mod scene_cache;
