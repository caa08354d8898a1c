//! skinlab: an interactive, notebook-style tutorial on mesh skinning.
//!
//! Layers, each depending only on the ones after it: [`pages`] → [`ui`] → [`gl`] →
//! [`skin`], and [`rigs`] → [`skin`] beside them.
//! - [`skin`] is the mathematics any skinning code needs, with glam and nothing else:
//!   no egui, no GL, no lesson.
//! - [`rigs`] holds the rigs the lessons are taught on (the blending arm, the humanoid
//!   and its poses, the gpu page's chain), for the pages and `skinlab --bench`.
//! - [`gl`] holds every OpenGL call; it knows [`skin`] and nothing above it.
//! - [`ui`] holds the egui widgets pages share.
//! - [`pages`] holds one folder per page: its state, cells, the data only it uses, and
//!   its exercises. Pages may use [`rigs`].
//! - [`model`] → [`skin`] is the glTF boundary: file bytes in, skin types out.
//!
//! [`app`] is the shell around the pages, the same on every target; `native` (the
//! desktop window) and `web` (the browser) each wrap it in an `eframe::App` with what
//! only their target has. `tests/layers.rs` checks these arrows.

pub mod app;
pub mod base64;
#[cfg(not(target_arch = "wasm32"))]
pub mod bench;
pub mod chapter;
pub mod deck;
pub mod gl;
pub mod link;
pub mod model;
#[cfg(not(target_arch = "wasm32"))]
pub mod native;
pub mod notebook;
pub mod page;
pub mod pages;
#[cfg(not(target_arch = "wasm32"))]
pub mod profile;
pub mod rigs;
pub mod skin;
pub mod ui;

pub use app::SkinlabApp;

#[cfg(target_arch = "wasm32")]
mod web;
