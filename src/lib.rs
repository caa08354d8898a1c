//! skinlab: an interactive, notebook-style tutorial on mesh skinning.
//!
//! Layers, each depending only on the ones after it:
//! [`pages`] → [`ui`] → [`gl`] → [`skin`]. [`skin`] is the mathematics (glam only),
//! [`gl`] holds every OpenGL call, [`ui`] the shared egui widgets, and each page in
//! [`pages`] its own state and cells. [`app`] is the shell around the pages, the same on
//! every target; `native` (the desktop window) and `web` (the browser) each wrap it in
//! an `eframe::App` with what only their target has.

pub mod app;
#[cfg(not(target_arch = "wasm32"))]
pub mod bench;
pub mod chapter;
pub mod gl;
pub mod link;
#[cfg(not(target_arch = "wasm32"))]
pub mod native;
pub mod notebook;
pub mod page;
pub mod pages;
pub mod rigs;
pub mod skin;
pub mod ui;

pub use app::SkinlabApp;

#[cfg(target_arch = "wasm32")]
mod web;
