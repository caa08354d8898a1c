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

/// Page `P` at its defaults with `link` opened on it, as the app opens a link; a link
/// that does not read or open fails the test, naming the link. Each page's module
/// names its type once: `fn opened(link: &str) -> GridPage { crate::opened(link) }`.
fn opened<P: skinlab::page::Page + Default>(link: &str) -> P {
    let mut page = P::default();
    let parsed = skinlab::link::Link::parse(link)
        .unwrap_or_else(|e| panic!("`{link}` does not read as a link: {e}"));
    skinlab::page::open(&mut page, &parsed).unwrap_or_else(|e| panic!("`{link}`: {e}"));
    page
}

mod binding;
mod blending;
mod centres;
mod every_page;
mod gpu;
mod gradient;
mod grid;
mod hierarchy;
mod interpolation;
mod keyframes;
mod keys;
mod model;
mod normals;
mod open_file;
mod pipeline;
mod quaternions;
mod screens;
mod shapes;
mod xray;
