//! How the page writes numbers, vectors and matrices, for its cells, its scrubbed chain
//! and its exercise alike.

use crate::ui::numbers::rounded;
use egui::Ui;
use glam::{Mat4, Vec3};

/// A read-only matrix without float noise: `cos 90°` shows as `0.00`, not `-0.00`.
pub(super) fn matrix_view_ui(ui: &mut Ui, name: &str, m: &Mat4) {
    crate::ui::matrix::matrix_view_ui(ui, name, &tidy(*m));
}

/// A number for prose: no trailing zeros, no `-0`.
pub(super) fn num(x: f32) -> String {
    format!("{}", rounded(x, 4))
}

pub(super) fn vec_text(v: Vec3) -> String {
    format!("({}, {}, {})", num(v.x), num(v.y), num(v.z))
}

/// The decimals (at most 4) that write every coordinate of `points` exactly to 4
/// decimals: the steps of one scrub share them, so the precision does not change from
/// one step to the next.
pub(super) fn decimals_of(points: &[Vec3]) -> usize {
    let needs = |x: f32| {
        let x = rounded(x, 4);
        (0..4)
            .find(|&d| (rounded(x, d) - x).abs() < 1e-6)
            .unwrap_or(4)
    };
    points
        .iter()
        .flat_map(|p| p.to_array())
        .map(needs)
        .max()
        .unwrap_or(0)
}

/// `v` as `(x, y, z)` with `decimals` decimals, no `-0`.
pub(super) fn vec_text_with(v: Vec3, decimals: usize) -> String {
    crate::ui::matrix::fixed_point(v, decimals)
}

/// A sentence that wraps at the notebook column, even inside a cell that scrolls sideways.
pub(super) fn wrapped(ui: &mut Ui, text: impl Into<egui::WidgetText>) {
    ui.add(egui::Label::new(text).wrap());
}

/// Rounds away float noise such as `cos 90° = -4e-8` (to 4 decimals, no `-0`), so
/// hand-sized answers are exact and shown matrices read `0.00`, not `-0.00`.
pub(super) fn tidy(m: Mat4) -> Mat4 {
    Mat4::from_cols_array(&m.to_cols_array().map(|x| rounded(x, 4)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_steps_of_a_scrub_share_the_decimals_the_finest_one_needs() {
        let points = [Vec3::new(0.26, 0.0, 0.0), Vec3::new(0.3357, 0.5033, 0.0)];
        assert_eq!(decimals_of(&points), 4);
        assert_eq!(vec_text_with(points[0], 4), "(0.2600, 0.0000, 0.0000)");
        assert_eq!(decimals_of(&[Vec3::new(1.0, 2.5, -3.0)]), 1);
        assert_eq!(
            decimals_of(&[Vec3::new(0.1 + 0.2, 0.0, 0.0)]),
            1,
            "float noise is not a decimal"
        );
    }
}
