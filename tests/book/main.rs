//! The book and the chapters against the app: cells, links, includes, notation, fonts.
//!
//! One test binary for the group, one module a file: the group links egui, eframe and
//! the rest once.

mod architecture;
mod chapters;
mod web_fonts;
