//! The notebook's live cells.

use super::Cell;
use super::draw::{A_COLOR, B_COLOR, PINK};
use super::frames::vector_between;
use super::link_values::{LIMIT, within_limit};
use super::widgets::{GOOD, show_here_ui, titled_matrices_ui};
use super::{GradientPage, Section};
use crate::ui::matrix::{MatrixEdit, matrix_edit_ui};
use crate::ui::{angle_slider_ui, error_ui, legible, named_number_ui};
use egui::{Color32, RichText, Ui};
use glam::{Mat4, Vec2};
use skin::matrix::checked_inverse;
use skin::matrix::max_difference;

const NAMES: [&str; 2] = ["a", "b"];
const POINT_NAMES: [&str; 2] = ["point a", "point b"];
const FRAME_NAMES: [&str; 2] = ["frame a", "frame b"];

/// Shows the last refused edit, if it was made to one of `owners`.
fn refusal_ui(page: &GradientPage, ui: &mut Ui, owners: &[&str]) {
    if let Some((owner, why)) = &page.refused
        && owners.contains(owner)
    {
        error_ui(ui, why.clone());
    }
}

/// Draws one named cell.
pub fn cell_ui(page: &mut GradientPage, cell: Cell, ui: &mut Ui) {
    page.scroll_to.cell_ui(cell.into(), ui);
    page.note_reading(cell, ui);
    match cell {
        Cell::Points => points_ui(page, ui),
        Cell::Matrices => matrices_ui(page, ui),
        Cell::Product => product_ui(page, ui),
        Cell::Poses => super::pose_cells::poses_ui(page, ui),
        Cell::Joint => super::pose_cells::joint_ui(page, ui),
        Cell::Check => super::exercise::check_cell_ui(page, ui),
    }
}

fn points_ui(page: &mut GradientPage, ui: &mut Ui) {
    show_here_ui(page, ui, Section::Points);
    for (i, name) in NAMES.iter().enumerate() {
        let mut p = page.points[i];
        let changed = ui
            .horizontal(|ui| {
                ui.label(RichText::new(format!("point {name}")).color(legible(ui, color(i))));
                let x = named_number_ui(ui, &format!("{name} x"), &mut p.x, "x ", None);
                let y = named_number_ui(ui, &format!("{name} y"), &mut p.y, "y ", None);
                x | y
            })
            .inner;
        if changed {
            page.section = Section::Points;
            if p.is_finite() && p.abs().max_element() <= LIMIT {
                page.points[i] = p;
                page.refused = None;
            } else {
                page.refused = Some((
                    POINT_NAMES[i],
                    format!(
                        "Edit refused: point {name} must be finite numbers within ±{LIMIT}; it keeps its last valid value."
                    ),
                ));
            }
        }
    }
    let [a, b] = page.points;
    let ab = vector_between(a, b);
    let v = |p: Vec2| format!("({:.2}, {:.2})", p.x, p.y);
    let ink = legible(ui, PINK);
    crate::ui::listing::lines_ui(
        ui,
        &format!("ab = b − a = {} − {} = {}", v(b), v(a), v(ab)),
        |t| t.color(ink),
    );
    crate::ui::mono_ui(
        ui,
        format!("a + ab    = {} + {} = {} = b", v(a), v(ab), v(a + ab)),
    );
    refusal_ui(page, ui, &POINT_NAMES);
}

fn color(i: usize) -> Color32 {
    if i == 0 { A_COLOR } else { B_COLOR }
}

fn move_ui(ui: &mut Ui, label: &str, value: &mut f32) -> bool {
    let slider = egui::Slider::new(value, -4.0..=4.0)
        .clamping(egui::SliderClamping::Edits)
        .custom_formatter(|v, _| format!("{v:.2}"));
    crate::ui::slider_ui(ui, slider, label).changed()
}

fn matrices_ui(page: &mut GradientPage, ui: &mut Ui) {
    show_here_ui(page, ui, Section::Matrices);
    for (i, name) in NAMES.iter().enumerate() {
        ui.label(
            RichText::new(format!("Frame {name}"))
                .strong()
                .color(legible(ui, color(i))),
        );
        let mut turn = page.turns[i];
        let changed = angle_slider_ui(
            ui,
            &mut turn.angle,
            -180.0..=180.0,
            &format!("{name}: turn about z"),
            0,
        ) | move_ui(ui, &format!("{name}: move x"), &mut turn.origin.x)
            | move_ui(ui, &format!("{name}: move y"), &mut turn.origin.y);
        if changed {
            page.section = Section::Matrices;
            page.set_turn(i, turn);
        }
        if page.frames[i] != page.turns[i].to_mat4() {
            ui.label(
                RichText::new("The matrix was edited by hand: a slider replaces it with a plain turn and move.")
                    .weak(),
            );
        }
        let mut m = page.frames[i];
        let validate = |m: &Mat4| {
            within_limit(m)?;
            if i == 0 {
                checked_inverse(m).map(|_| ()).map_err(|e| e.to_string())
            } else {
                Ok(())
            }
        };
        let edit = crate::ui::sideways_ui(ui, ("sideways", name), |ui| {
            matrix_edit_ui(ui, name, &mut m, validate)
        });
        match edit {
            MatrixEdit::Changed => {
                page.section = Section::Matrices;
                page.set_frame(i, m);
                page.refused = None;
            }
            MatrixEdit::Refused(reason) => {
                page.refused = Some((
                    FRAME_NAMES[i],
                    format!("Edit refused: {reason}. Frame {name} keeps its last valid value."),
                ));
            }
            MatrixEdit::Unchanged => {}
        }
        refusal_ui(page, ui, &FRAME_NAMES[i..=i]);
        ui.add_space(6.0);
    }
}

fn product_ui(page: &mut GradientPage, ui: &mut Ui) {
    let [a, b] = page.frames;
    let Ok(a_inverse) = checked_inverse(&a) else {
        error_ui(ui, "Frame a has no inverse, so there is no gradient.");
        return;
    };
    let ab = b * a_inverse;
    let back = ab * a;
    // Side by side where there is room; one under the other in presenter mode.
    titled_matrices_ui(
        ui,
        [
            ("a⁻¹", "a inverse", &a_inverse),
            ("ab = b · a⁻¹", "ab", &ab),
        ],
    );
    titled_matrices_ui(ui, [("ab · a", "ab times a", &back), ("b", "b again", &b)]);
    // One cell of the product written out: row 1 of ab against column t of a.
    let terms: Vec<String> = (0..4)
        .map(|k| format!("{:.2} × {:.2}", ab.col(k)[0] + 0.0, a.col(3)[k] + 0.0))
        .collect();
    crate::ui::mono_ui(
        ui,
        format!(
            "(ab · a) row 1, column t\n  = {}\n  = {:.2}   and b row 1, column t = {:.2}",
            terms.join(" + "),
            back.col(3)[0] + 0.0,
            b.col(3)[0] + 0.0
        ),
    );
    let diff = max_difference(&back, &b);
    let ink = legible(ui, GOOD);
    crate::ui::listing::lines_ui(
        ui,
        &format!("ab · a = b   ({})", crate::ui::matrix::agreement_text(diff)),
        |t| t.color(ink),
    );
    page.scrub_ui(ui);
}
