//! The notebook's live cells.

use super::Cell;
use super::data::{self, HEAD, HEAD_VERTEX, JOINT_COUNT, JOINT_NAMES};
use super::view::{JOINT_COLORS, point_text};
use super::{BindingPage, Stage};
use crate::pages::predict::Predicts;
use crate::ui::matrix::{MatrixEdit, matrix_edit_ui, matrix_view_ui, side_by_side_ui};
use crate::ui::{error_ui, legible};
use egui::{Color32, RichText, Ui};
use glam::{Mat4, Vec3};
use skin::matrix::checked_inverse;
use skin::matrix::max_difference;

/// The colour of a check that holds.
const GOOD: Color32 = Color32::from_rgb(40, 150, 60);

/// Draws one cell.
pub fn cell_ui(page: &mut BindingPage, cell: Cell, ui: &mut Ui) {
    let name: &'static str = cell.into();
    page.scroll_to.cell_ui(name, ui);
    // A 4x4 matrix is wider than the notebook column in presenter mode.
    crate::ui::sideways_ui(ui, ("binding", name), |ui| cell_content_ui(page, cell, ui));
}

fn cell_content_ui(page: &mut BindingPage, cell: Cell, ui: &mut Ui) {
    match cell {
        Cell::JointSpace => joint_space_ui(page, ui),
        Cell::Forget => forget_ui(page, ui),
        Cell::BindSpace => bind_space_ui(page, ui),
        Cell::Rebind => rebind_ui(page, ui),
        Cell::Check => super::exercise::check_cell_ui(page, ui),
    }
}

/// A button that points the viewport at this cell's stage ([`crate::ui::show_here_ui`]).
fn show_here_ui(page: &mut BindingPage, ui: &mut Ui, stage: Stage) {
    if crate::ui::show_here_ui(ui, page.stage == stage) {
        page.stage = stage;
    }
}

fn joint_picker_ui(page: &mut BindingPage, ui: &mut Ui) {
    ui.horizontal_wrapped(|ui| {
        ui.label("Joint:");
        for (j, name) in JOINT_NAMES.iter().enumerate() {
            let text = RichText::new(*name).strong();
            if crate::ui::colored_choice(ui, page.joint == j, text, JOINT_COLORS[j]).clicked() {
                page.joint = j;
            }
        }
    });
}

fn titled_matrix_ui(ui: &mut Ui, title: &str, name: &str, m: &Mat4) {
    ui.vertical(|ui| {
        ui.label(RichText::new(title).strong());
        matrix_view_ui(ui, name, m);
    });
}

fn joint_space_ui(page: &mut BindingPage, ui: &mut Ui) {
    show_here_ui(page, ui, Stage::JointSpace);
    joint_picker_ui(page, ui);
    if ui
        .checkbox(
            &mut page.show_stored,
            "Also draw the stored numbers with no skeleton (dark grey)",
        )
        .changed()
    {
        page.stage = Stage::JointSpace;
    }
    let j = page.joint;
    let name = JOINT_NAMES[j];
    let world = page.world_from_joint();
    titled_matrix_ui(
        ui,
        &format!("W = world_from_joint of the {name}"),
        "W stage 1",
        &world[j],
    );
    let v = data::sample_vertex(j);
    let stored = page.assets.joint_space.skin.positions[v];
    let placed = world[j].transform_point3(stored);
    crate::ui::mono_ui(
        ui,
        format!(
            "vertex {v} follows the {name} only.\nstored in {name} space: v_joint = {}\ndrawn at  W · v_joint = {}",
            point_text(stored),
            point_text(placed)
        ),
    );
}

fn forget_ui(page: &mut BindingPage, ui: &mut Ui) {
    if crate::ui::checkbox_ui(
        ui,
        &mut page.forget_inverse_bind,
        "Forget the inverse bind (upload W instead of W · B⁻¹)",
    )
    .changed()
    {
        page.stage = Stage::BindSpace;
    }
    let world = page.world_from_joint()[HEAD];
    let b = page.joint_from_bind[HEAD];
    let v = page.assets.bind_space.skin.positions[HEAD_VERTEX];
    let in_head = b.transform_point3(v);
    let right = world.transform_point3(in_head);
    let wrong = world.transform_point3(v);
    let head_at = world.transform_point3(Vec3::ZERO);
    let hidden = page.answer_hidden();
    let mut rows = vec![
        ("v", point_text(v), "the head vertex, in bind space"),
        (
            "W_head · (0, 0)",
            point_text(head_at),
            "where the head joint is now",
        ),
        (
            "B_head⁻¹ · v",
            point_text(in_head),
            "the vertex in head space",
        ),
        (
            "W_head · B_head⁻¹ · v",
            point_text(right),
            "drawn, with the inverse bind",
        ),
        (
            "W_head · v",
            point_text(wrong),
            "drawn, inverse bind forgotten",
        ),
    ];
    if hidden {
        // While predicting, the lines that say where the head vertex lands wait, and
        // so does the head joint's place (the vertex sits on it). They keep their
        // places, so the guess fields below do not move when the answer shows or hides.
        for row in [1, 3, 4] {
            rows[row].1 = "(?, ?)".to_owned();
        }
    }
    // Each step on a line, the values aligned; its note beside it where the column
    // has room, on the next line where it has not (a grid gave the notes a column a
    // word wide).
    let width = rows
        .iter()
        .map(|(what, ..)| what.chars().count())
        .max()
        .unwrap_or(0);
    for (what, value, note) in rows {
        ui.horizontal_wrapped(|ui| {
            let formula = format!("{what:<width$} = {value}");
            ui.label(RichText::new(formula).monospace().strong());
            ui.label(RichText::new(note).small());
        });
    }
    if hidden {
        ui.label(
            RichText::new("Where it lands is hidden until you reveal your prediction.").weak(),
        );
    } else if !page.forget_inverse_bind {
        ui.label(
            RichText::new(format!(
                "The shader gets W_head · B_head⁻¹: the vertex lands at {}.",
                point_text(right)
            ))
            .weak(),
        );
    } else {
        error_ui(
            ui,
            format!(
                "The shader gets W_head alone: the vertex lands at {}, not {}.",
                point_text(wrong),
                point_text(right)
            ),
        );
    }
    page.predict_ui(ui);
    page.scrub_ui(ui);
}

fn bind_space_ui(page: &mut BindingPage, ui: &mut Ui) {
    show_here_ui(page, ui, Stage::BindSpace);
    joint_picker_ui(page, ui);
    let j = page.joint;
    let name = JOINT_NAMES[j];
    let world = page.world_from_joint();
    let captured = page.captured();
    ui.label(format!(
        "W is the {name}'s world_from_joint now. B⁻¹ is its joint_from_bind: drag a number, \
         or click to type. Their product is the palette entry the shader gets."
    ));
    let palette = world[j] * page.joint_from_bind[j];
    let mut edit = MatrixEdit::Unchanged;
    let inverse_bind = &mut page.joint_from_bind[j];
    // Side by side where the pane is wide enough: a projector shows all three at once.
    side_by_side_ui(
        ui,
        [
            Box::new(|ui: &mut Ui| {
                ui.label(RichText::new("W").strong());
                matrix_view_ui(ui, "W", &world[j]);
            }) as Box<dyn FnOnce(&mut Ui)>,
            Box::new(|ui: &mut Ui| {
                ui.label(RichText::new("B⁻¹").strong());
                edit = matrix_edit_ui(ui, "B⁻¹", inverse_bind, |m| {
                    checked_inverse(m)
                        .map(|_| ())
                        .map_err(|e| format!("B⁻¹ must have an inverse, but {e}"))
                });
            }),
            Box::new(|ui: &mut Ui| {
                ui.label(RichText::new("palette = W · B⁻¹").strong());
                matrix_view_ui(ui, "W · B⁻¹", &palette);
            }),
        ],
    );
    match edit {
        MatrixEdit::Changed => {
            page.refused = None;
            page.stage = Stage::BindSpace;
        }
        MatrixEdit::Refused(why) => {
            page.refused = Some(format!(
                "Edit refused: {why}. B⁻¹ keeps its last valid value."
            ));
        }
        MatrixEdit::Unchanged => {}
    }
    if let Some(why) = &page.refused {
        error_ui(ui, why.clone());
    }
    if page.joint_from_bind[j] != captured[j] {
        ui.horizontal_wrapped(|ui| {
            ui.label(
                RichText::new(format!(
                    "This B⁻¹ was edited by hand: it no longer is the inverse of the {name}'s bind matrix B."
                ))
                .color(legible(ui, Color32::from_rgb(200, 120, 20))),
            );
            if ui.button("Restore the captured B⁻¹").clicked() {
                page.joint_from_bind[j] = captured[j];
                page.refused = None;
            }
        });
    }
}

fn rebind_ui(page: &mut BindingPage, ui: &mut Ui) {
    ui.horizontal_wrapped(|ui| {
        if ui.button("Bind at the current pose").clicked() {
            page.bind_at(page.angles);
            page.stage = Stage::BindSpace;
        }
        if ui.button("Bind at the straight pose").clicked() {
            page.bind_at([0.0; JOINT_COUNT]);
            page.stage = Stage::BindSpace;
        }
    });
    let turns: Vec<String> = JOINT_NAMES
        .iter()
        .zip(page.rebind)
        .map(|(n, a)| format!("{n} {:.0}°", a.to_degrees() + 0.0))
        .collect();
    ui.label(format!("Inverse binds captured at: {}", turns.join(", ")));
    let world = page.world_from_joint();
    let palette = data::palette(&world, &page.joint_from_bind, false);
    let off = palette
        .iter()
        .map(|m| max_difference(m, &Mat4::IDENTITY))
        .fold(0.0, f32::max);
    if off < 1e-4 {
        ui.label(
            RichText::new(
                "Every W · B⁻¹ is the identity: the mesh is drawn exactly as it was stored.",
            )
            .color(legible(ui, GOOD)),
        );
    } else {
        ui.label(format!(
            "W · B⁻¹ is not the identity (largest difference {off:.2}): the pose has moved on since the bind."
        ));
    }
}
