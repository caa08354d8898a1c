//! Files and links from outside: the glTF boundary on real and broken files, and the fuzz
//! targets.
//!
//! One test binary for the group, one module a file: the group links egui, eframe and
//! the rest once.

#[path = "../common/mod.rs"]
mod common;

mod fuzz;
mod model;
mod repair;
