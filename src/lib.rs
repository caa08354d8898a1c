//! skinlab: an interactive, notebook-style tutorial on mesh skinning.
//!
//! This crate is the app. The layers below it are crates of their own, so the compiler
//! keeps their arrows (ARCHITECTURE.md draws them):
//! - [`skin`] (`crates/skin`): the mathematics any skinning code needs, with glam and
//!   nothing else: no egui, no GL, no lesson.
//! - [`gltf`] (`crates/gltf`): the glTF boundary, file bytes in, skin types out.
//! - [`rigs`] (`crates/rigs`): the rigs the lessons are taught on (the blending arm, the
//!   humanoid and its poses, the gpu page's chain), for the pages and `skinlab --bench`.
//! - [`scene`] (`crates/scene`): what a page asks a viewport to draw, as plain data.
//! - [`gl`] (`crates/gl`): every OpenGL call; it knows `skin` and `scene` and nothing
//!   above them.
//!
//! Inside the app, [`pages`] holds one folder per page (its state, cells, the data only
//! it uses, and its exercises) and [`ui`] the egui widgets pages share. [`app`] is the
//! shell around the pages, the same on every target; `native` (the desktop window) and
//! `web` (the browser) each wrap it in an `eframe::App` with what only their target has.

/// The text of chapter `name` (`chapters/NAME.md`) as this build carries it: whole on
/// the desktop, where `skinlab-book` builds the book from it; on the web, none: the
/// web app fetches its chapters, written by `build.rs` without the blocks only the
/// book shows, from beside it ([`page::fetched_chapters`]).
#[cfg(not(target_arch = "wasm32"))]
macro_rules! chapter_text {
    ($name:literal) => {
        include_str!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/chapters/",
            $name,
            ".md"
        ))
    };
}
#[cfg(target_arch = "wasm32")]
macro_rules! chapter_text {
    ($name:literal) => {
        ""
    };
}

/// The text of the project's file `path` (e.g. `crates/skin/src/lbs.rs`), for a cell
/// that shows its code: compiled in on the desktop; on the web, fetched beside the app
/// with the chapters (`scripts/build-web` finds each path named here and adds the file
/// to `chapters.txt`), and empty until it arrives.
#[cfg(not(target_arch = "wasm32"))]
macro_rules! source_text {
    ($path:literal) => {
        include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/", $path))
    };
}
#[cfg(target_arch = "wasm32")]
macro_rules! source_text {
    ($path:literal) => {
        $crate::page::fetched_text($path).unwrap_or_default()
    };
}

pub mod app;
#[cfg(not(target_arch = "wasm32"))]
pub mod bench;
pub mod chapter;
#[cfg(not(target_arch = "wasm32"))]
pub mod cli;
pub mod deck;
pub mod files;
pub mod link;
pub mod models;
#[cfg(not(target_arch = "wasm32"))]
pub mod native;
pub mod notebook;
pub mod page;
pub mod pages;
#[cfg(not(target_arch = "wasm32"))]
pub mod profile;
pub mod ui;

pub use app::SkinlabApp;

#[cfg(target_arch = "wasm32")]
mod web;
