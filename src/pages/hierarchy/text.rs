//! How the page writes numbers, vectors and matrices, for its cells, its scrubbed chain
//! and its exercise alike.

use egui::Ui;
use glam::{Mat4, Vec3};

/// A read-only matrix without float noise: `cos 90°` shows as `0.00`, not `-0.00`.
pub(super) fn matrix_view_ui(ui: &mut Ui, name: &str, m: &Mat4) {
    crate::ui::matrix::matrix_view_ui(ui, name, &tidy(*m));
}

/// A number for prose: no trailing zeros, no `-0`.
pub(super) fn num(x: f32) -> String {
    let x = (x * 1e4).round() / 1e4 + 0.0;
    format!("{x}")
}

pub(super) fn vec_text(v: Vec3) -> String {
    format!("({}, {}, {})", num(v.x), num(v.y), num(v.z))
}

/// A sentence that wraps at the notebook column, even inside a cell that scrolls sideways.
pub(super) fn wrapped(ui: &mut Ui, text: impl Into<egui::WidgetText>) {
    ui.add(egui::Label::new(text).wrap());
}

/// Rounds away float noise such as `cos 90° = -4e-8` (to 4 decimals, no `-0`), so
/// hand-sized answers are exact and shown matrices read `0.00`, not `-0.00`.
pub(super) fn tidy(m: Mat4) -> Mat4 {
    Mat4::from_cols_array(&m.to_cols_array().map(|x| (x * 1e4).round() / 1e4 + 0.0))
}
