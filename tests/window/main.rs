//! The built app in a window under Xvfb, and its command line.
//!
//! One test binary for the group, one module a file: the group links egui, eframe and
//! the rest once.

#[path = "../common/mod.rs"]
mod common;

mod bench_command;
mod cli;
mod looks;
mod screenshot;
