//! Pages driven as a user would drive them (egui_kittest: clicks, typing, drags), one
//! module a page.
//!
//! One test binary for the group, one module a file: the group links egui, eframe and
//! the rest once.

#[path = "../common/mod.rs"]
mod common;
#[path = "../kit/mod.rs"]
mod kit;
/// GLB files put together (shared with the loader tests).
use common::mutate;

mod binding;
mod blending;
mod every_page;
mod gpu;
mod gradient;
mod grid;
mod hierarchy;
mod keyframes;
mod model;
mod normals;
mod open_file;
mod pipeline;
mod quaternions;
mod screens;
mod xray;
