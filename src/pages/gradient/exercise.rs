//! The "check yourself" cell: one joint's gradient in the plane, worked by hand.

use super::GradientPage;
use crate::skin::gradient::{EXERCISES, Exercise, plane_part};
use crate::ui::check::{Question, check_ui, exercise_picker_ui};
use egui::{RichText, Ui};
use glam::Mat4;

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

/// The exercise, the answer fields and the working.
pub(super) fn check_cell_ui(page: &mut GradientPage, ui: &mut Ui) {
    exercise_picker_ui(ui, &mut page.exercise, EXERCISES.len(), &mut page.check);
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
