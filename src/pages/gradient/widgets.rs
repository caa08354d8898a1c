//! Widgets both of the notebook's cell files use: a matrix with its title, the button
//! that shows a section in the viewport, and the colour of a match.

use super::{GradientPage, Section};
use crate::ui::matrix::matrix_view_ui;
use egui::{Color32, RichText, Ui};
use glam::Mat4;

/// The colour of a check that holds.
pub(super) const GOOD: Color32 = Color32::from_rgb(40, 150, 60);

/// Points the viewport at `section` when its button is pressed.
pub(super) fn show_here_ui(page: &mut GradientPage, ui: &mut Ui, section: Section) {
    if crate::ui::show_here_ui(ui, page.section == section) {
        page.section = section;
    }
}

pub(super) fn titled_matrix_ui(ui: &mut Ui, title: &str, name: &str, m: &Mat4) {
    ui.vertical(|ui| {
        ui.label(RichText::new(title).monospace().strong());
        crate::ui::sideways_ui(ui, ("sideways", name), |ui| matrix_view_ui(ui, name, m));
    });
}

/// Matrices under their titles side by side, the next on a new row where it would not
/// fit: `(title, name, matrix)`.
pub(super) fn titled_matrices_ui<const N: usize>(ui: &mut Ui, matrices: [(&str, &str, &Mat4); N]) {
    crate::ui::matrix::side_by_side_ui(
        ui,
        matrices.map(|(title, name, m)| {
            Box::new(move |ui: &mut Ui| titled_matrix_ui(ui, title, name, m))
                as Box<dyn FnOnce(&mut Ui) + '_>
        }),
    );
}
