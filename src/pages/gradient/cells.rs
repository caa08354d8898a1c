//! The notebook's live cells.

use super::view::{A_COLOR, B_COLOR, PINK};
use super::{GradientPage, Section};
use crate::skin::gradient::{EXERCISES, Exercise, plane_part, vector_between};
use crate::skin::humanoid::{JOINT_COUNT, JOINTS};
use crate::skin::matrix::checked_inverse;
use crate::skin::poses::{PRESETS, max_difference};
use crate::ui::check::{Question, check_ui};
use crate::ui::error_ui;
use crate::ui::matrix::{MatrixEdit, matrix_edit_ui, matrix_view_ui};
use egui::{Color32, RichText, Role, Ui, WidgetInfo};
use glam::{Mat4, Vec2};

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
const GOOD: Color32 = Color32::from_rgb(40, 150, 60);

/// Draws one named cell.
pub fn cell_ui(page: &mut GradientPage, cell: &str, ui: &mut Ui) {
    if let Some((target, frames)) = page.scroll_to
        && target == cell
    {
        page.scroll_to = frames
            .checked_sub(1)
            .filter(|f| *f > 0)
            .map(|f| (target, f));
        // Aim a little above the cell, so the prose that leads into it shows too.
        let top = ui.cursor().top() - 120.0;
        let left = ui.cursor().left();
        ui.scroll_to_rect(
            egui::Rect::from_min_size(egui::pos2(left, top), egui::vec2(1.0, 1.0)),
            Some(egui::Align::TOP),
        );
    }
    match cell {
        "points" => points_ui(page, ui),
        "matrices" => matrices_ui(page, ui),
        "product" => product_ui(page, ui),
        "poses" => poses_ui(page, ui),
        "joint" => joint_ui(page, ui),
        "check" => check_cell_ui(page, ui),
        _ => error_ui(ui, format!("this page has no cell `{cell}`")),
    }
}

/// A button that points the viewport at this cell's section. It stays in place (greyed
/// out) while the viewport shows it: a button that came and went would shift the
/// widgets below it in the middle of a drag.
fn show_here_ui(page: &mut GradientPage, ui: &mut Ui, section: Section) {
    let shown = page.section == section;
    let text = if shown {
        "Shown in the viewport"
    } else {
        "Show this in the viewport"
    };
    if ui.add_enabled(!shown, egui::Button::new(text)).clicked() {
        page.section = section;
    }
}

/// A number to drag, labelled for screen readers and tests as `name`.
fn number_ui(ui: &mut Ui, name: &str, value: &mut f32, prefix: &str) -> bool {
    let response = ui.add(
        egui::DragValue::new(value)
            .speed(0.02)
            .max_decimals(2)
            .prefix(prefix),
    );
    let label = name.to_owned();
    response.widget_info(|| WidgetInfo::labeled(Role::SpinButton, true, label.clone()));
    response.changed()
}

fn points_ui(page: &mut GradientPage, ui: &mut Ui) {
    show_here_ui(page, ui, Section::Points);
    for (i, name) in NAMES.iter().enumerate() {
        let mut p = page.points[i];
        let changed = ui
            .horizontal(|ui| {
                ui.label(RichText::new(format!("point {name}")).color(color(i)));
                let x = number_ui(ui, &format!("{name} x"), &mut p.x, "x ");
                let y = number_ui(ui, &format!("{name} y"), &mut p.y, "y ");
                x | y
            })
            .inner;
        if changed {
            page.section = Section::Points;
            if p.is_finite() {
                page.points[i] = p;
                page.refused = None;
            } else {
                page.refused = Some((
                    POINT_NAMES[i],
                    format!(
                        "Edit refused: point {name} must be finite numbers; it keeps its last valid value."
                    ),
                ));
            }
        }
    }
    let [a, b] = page.points;
    let ab = vector_between(a, b);
    let v = |p: Vec2| format!("({:.2}, {:.2})", p.x, p.y);
    ui.label(
        RichText::new(format!("ab = b − a = {} − {} = {}", v(b), v(a), v(ab)))
            .monospace()
            .color(PINK),
    );
    ui.label(
        RichText::new(format!(
            "a + ab    = {} + {} = {} = b",
            v(a),
            v(ab),
            v(a + ab)
        ))
        .monospace(),
    );
    refusal_ui(page, ui, &POINT_NAMES);
}

fn color(i: usize) -> Color32 {
    if i == 0 { A_COLOR } else { B_COLOR }
}

/// Degrees in the slider, radians in the state.
fn degrees_ui(ui: &mut Ui, label: &str, radians: &mut f32) -> bool {
    let mut degrees = radians.to_degrees();
    let changed = ui
        .add(
            egui::Slider::new(&mut degrees, -180.0..=180.0)
                .suffix("°")
                .text(label)
                .custom_formatter(|v, _| format!("{v:.0}")),
        )
        .changed();
    if changed {
        *radians = degrees.to_radians();
    }
    changed
}

fn move_ui(ui: &mut Ui, label: &str, value: &mut f32) -> bool {
    ui.add(
        egui::Slider::new(value, -4.0..=4.0)
            .text(label)
            .custom_formatter(|v, _| format!("{v:.2}")),
    )
    .changed()
}

fn matrices_ui(page: &mut GradientPage, ui: &mut Ui) {
    show_here_ui(page, ui, Section::Matrices);
    for (i, name) in NAMES.iter().enumerate() {
        ui.label(
            RichText::new(format!("Frame {name}"))
                .strong()
                .color(color(i)),
        );
        let mut turn = page.turns[i];
        let changed = degrees_ui(ui, &format!("{name}: turn about z"), &mut turn.angle)
            | move_ui(ui, &format!("{name}: move x"), &mut turn.origin.x)
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
            if i == 0 {
                checked_inverse(m).map(|_| ()).map_err(|e| e.to_string())
            } else {
                Ok(())
            }
        };
        let edit = sideways(ui, name, |ui| matrix_edit_ui(ui, name, &mut m, validate));
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

/// A matrix in a narrow column (presenter mode, a narrowed panel) scrolls sideways
/// instead of being cut off.
fn sideways<R>(ui: &mut Ui, name: &str, add: impl FnOnce(&mut Ui) -> R) -> R {
    egui::ScrollArea::horizontal()
        .id_salt(("sideways", name))
        .show(ui, add)
        .inner
}

fn titled_matrix_ui(ui: &mut Ui, title: &str, name: &str, m: &Mat4) {
    ui.vertical(|ui| {
        ui.label(RichText::new(title).monospace().strong());
        sideways(ui, name, |ui| matrix_view_ui(ui, name, m));
    });
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
    ui.horizontal_wrapped(|ui| {
        titled_matrix_ui(ui, "a⁻¹", "a inverse", &a_inverse);
        titled_matrix_ui(ui, "ab = b · a⁻¹", "ab", &ab);
    });
    ui.horizontal_wrapped(|ui| {
        titled_matrix_ui(ui, "ab · a", "ab times a", &back);
        titled_matrix_ui(ui, "b", "b again", &b);
    });
    // One cell of the product written out: row 1 of ab against column t of a.
    let terms: Vec<String> = (0..4)
        .map(|k| format!("{:.2} × {:.2}", ab.col(k)[0] + 0.0, a.col(3)[k] + 0.0))
        .collect();
    ui.label(
        RichText::new(format!(
            "(ab · a) row 1, column t\n  = {}\n  = {:.2}   and b row 1, column t = {:.2}",
            terms.join(" + "),
            back.col(3)[0] + 0.0,
            b.col(3)[0] + 0.0
        ))
        .monospace(),
    );
    let diff = max_difference(&back, &b);
    ui.label(
        RichText::new(format!(
            "ab · a = b   (largest difference {diff:.1e}: rounding only)"
        ))
        .monospace()
        .color(GOOD),
    );
}

fn poses_ui(page: &mut GradientPage, ui: &mut Ui) {
    show_here_ui(page, ui, Section::Poses);
    ui.horizontal_wrapped(|ui| {
        ui.label("Target pose:");
        for (i, preset) in PRESETS.iter().enumerate() {
            let current = page.preset == i && page.target == preset.local();
            if ui.selectable_label(current, preset.name).clicked() {
                page.set_preset(i);
                page.section = Section::Poses;
            }
        }
    });
    let base = PRESETS[page.preset].local();
    let edited: Vec<&str> = (0..JOINT_COUNT)
        .filter(|j| page.target[*j] != base[*j])
        .map(|j| JOINTS[j].name)
        .collect();
    if !edited.is_empty() {
        ui.label(
            RichText::new(format!(
                "Changed by hand from `{}`: {}",
                PRESETS[page.preset].name,
                edited.join(", ")
            ))
            .weak(),
        );
    }
}

fn joint_ui(page: &mut GradientPage, ui: &mut Ui) {
    ui.horizontal_wrapped(|ui| {
        ui.label("Joint:");
        for (j, def) in JOINTS.iter().enumerate() {
            if ui.selectable_label(page.joint == j, def.name).clicked() {
                page.joint = j;
                page.section = Section::Poses;
            }
        }
    });
    let j = page.joint.min(JOINT_COUNT - 1);
    let mut rotation = page.target[j].rotation;
    let mut changed = false;
    for (axis, name) in ["x", "y", "z"].iter().enumerate() {
        changed |= degrees_ui(
            ui,
            &format!("{} local turn about {name}", JOINTS[j].name),
            &mut rotation[axis],
        );
    }
    if changed {
        page.target[j].rotation = rotation;
        page.section = Section::Poses;
    }
    let world = page.world_from_joint();
    let gradients = page.gradients();
    let bind = page.assets.world_at_bind[j];
    let joint_from_bind = page.assets.joint_from_bind[j];
    ui.horizontal_wrapped(|ui| {
        titled_matrix_ui(ui, "target: world_from_joint", "target", &world[j]);
        titled_matrix_ui(
            ui,
            "inverse bind: joint_from_bind",
            "inverse bind",
            &joint_from_bind,
        );
    });
    ui.horizontal_wrapped(|ui| {
        titled_matrix_ui(ui, "gradient: world_from_bind", "gradient", &gradients[j]);
        ui.vertical(|ui| {
            ui.label(RichText::new("gradient = target · inverse bind").monospace());
            let diff = max_difference(&(gradients[j] * bind), &world[j]);
            ui.label(
                RichText::new(format!(
                    "gradient · bind = target\n(largest difference {diff:.1e})"
                ))
                .monospace()
                .color(GOOD),
            );
            let from = bind.w_axis.truncate();
            let to = gradients[j].transform_point3(from);
            ui.label(
                RichText::new(format!(
                    "carries the joint\nfrom ({:.2}, {:.2}, {:.2})\nto   ({:.2}, {:.2}, {:.2})",
                    from.x + 0.0,
                    from.y + 0.0,
                    from.z + 0.0,
                    to.x + 0.0,
                    to.y + 0.0,
                    to.z + 0.0
                ))
                .monospace()
                .color(PINK),
            );
        });
    });
}

/// The three rows of a plane matrix (x, y and t columns), rounded so that a rounding
/// error never shows as `-0.0`.
fn plane_rows(m: &Mat4) -> [String; 3] {
    let p = plane_part(m).map(|v| (v * 100.0).round() / 100.0 + 0.0);
    [
        format!("⎡{:5.1}{:5.1}{:5.1} ⎤", p[0], p[1], p[2]),
        format!("⎢{:5.1}{:5.1}{:5.1} ⎥", p[3], p[4], p[5]),
        format!("⎣{:5.1}{:5.1}{:5.1} ⎦", 0.0, 0.0, 1.0),
    ]
}

/// Two plane matrices side by side under their titles.
fn pair_text(left: (&str, &Mat4), right: (&str, &Mat4)) -> String {
    let (l, r) = (plane_rows(left.1), plane_rows(right.1));
    let mut text = format!("{:<20}{}\n", left.0, right.0);
    for (a, b) in l.iter().zip(&r) {
        text += &format!("{a:<20}{b}\n");
    }
    text
}

fn describe(e: &Exercise) -> String {
    let (bind, bind_turn) = e.bind;
    let (target, target_turn) = e.target;
    format!(
        "In the bind pose a joint sits at ({}, {}), turned {}°. In the target pose it sits at ({}, {}), turned {}° (counter-clockwise is positive). Type the gradient ab = target · inverse(bind) in the plane: the top row holds the first numbers of its x, y and t columns, the bottom row the second numbers.",
        bind[0], bind[1], bind_turn, target[0], target[1], target_turn
    )
}

fn check_cell_ui(page: &mut GradientPage, ui: &mut Ui) {
    ui.horizontal(|ui| {
        ui.label("Exercise:");
        for i in 0..EXERCISES.len() {
            if ui
                .selectable_label(page.exercise == i, (i + 1).to_string())
                .clicked()
                && page.exercise != i
            {
                page.exercise = i;
                page.check = Default::default();
            }
        }
    });
    let e = EXERCISES[page.exercise.min(EXERCISES.len() - 1)];
    ui.label(describe(&e));
    let expected = plane_part(&e.gradient());
    let question = Question {
        name: "gradient",
        labels: &["x.x", "y.x", "t.x", "x.y", "y.y", "t.y"],
        columns: 3,
        expected: &expected,
        tolerance: 0.01,
    };
    check_ui(ui, &mut page.check, &question, |ui| {
        let a_inverse = e.bind().inverse();
        let mut text = pair_text(("a = bind", &e.bind()), ("a⁻¹", &a_inverse));
        text += "\n";
        text += &pair_text(("b = target", &e.target()), ("ab = b · a⁻¹", &e.gradient()));
        let v = e.carried_vertex();
        text += &format!(
            "\nA vertex bound to the joint at ({}, {}) goes to\nab · ({}, {}) = ({:.1}, {:.1}).",
            e.vertex[0],
            e.vertex[1],
            e.vertex[0],
            e.vertex[1],
            v.x + 0.0,
            v.y + 0.0
        );
        ui.label(RichText::new(text).monospace());
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plane_rows_never_show_negative_zero() {
        let rows = plane_rows(&EXERCISES[0].gradient());
        assert!(rows.iter().all(|r| !r.contains("-0.0")), "{rows:?}");
        assert_eq!(rows[0], "⎡  0.0 -1.0  3.0 ⎤");
    }
}
