//! The "check yourself" cell: a joint's inverse bind matrix in the plane, and a vertex
//! carried into the joint's space, worked by hand.

use super::BindingPage;
use crate::skin::binding::{EXERCISES, Exercise};
use crate::ui::check::{Question, check_ui, exercise_picker_ui, hundredths as r};
use egui::{RichText, Ui};
use glam::Mat4;

/// The labels of the answer fields: the inverse bind's two plane rows, then the vertex.
pub const LABELS: [&str; 8] = ["x.x", "y.x", "t.x", "x.y", "y.y", "t.y", "v.x", "v.y"];

/// A plane matrix's three rows.
fn plane_rows(m: &Mat4) -> [String; 3] {
    [
        format!(
            "⎡{:5.1}{:5.1}{:5.1} ⎤",
            r(m.x_axis.x),
            r(m.y_axis.x),
            r(m.w_axis.x)
        ),
        format!(
            "⎢{:5.1}{:5.1}{:5.1} ⎥",
            r(m.x_axis.y),
            r(m.y_axis.y),
            r(m.w_axis.y)
        ),
        format!("⎣{:5.1}{:5.1}{:5.1} ⎦", 0.0, 0.0, 1.0),
    ]
}

fn describe(e: &Exercise) -> String {
    format!(
        "At bind time a joint sits at ({}, {}), turned {}° counter-clockwise. Type its inverse bind matrix B in the plane (top row: the first numbers of its x, y and t columns; bottom row: the second numbers), then the bind-space vertex ({}, {}) in the joint's space, v = B · vertex.",
        e.position[0], e.position[1], e.turn_degrees, e.vertex[0], e.vertex[1]
    )
}

/// The working: W, then B = R(-angle) · T(-position), then B · vertex.
fn working(e: &Exercise) -> String {
    let (w, b) = (plane_rows(&e.bind()), plane_rows(&e.inverse_bind()));
    let mut text = format!("{:<22}{}\n", "W = T · R (bind)", "B = W⁻¹ = R⁻¹ · T⁻¹");
    for (l, r) in w.iter().zip(&b) {
        text += &format!("{l:<22}{r}\n");
    }
    let v = e.vertex_in_joint();
    let [x, y] = e.vertex;
    text += &format!(
        "\nB turns back by {}° after moving back by ({}, {}).\nB · ({x}, {y}) = ({:.1}, {:.1}): the vertex seen from the joint.\nCheck: W · ({:.1}, {:.1}) gives ({x}, {y}) again.",
        e.turn_degrees,
        r(-e.position[0]),
        r(-e.position[1]),
        r(v.x),
        r(v.y),
        r(v.x),
        r(v.y),
    );
    text
}

/// The exercise picker, the question, the answer fields and the working.
pub(super) fn check_cell_ui(page: &mut BindingPage, ui: &mut Ui) {
    exercise_picker_ui(ui, &mut page.exercise, EXERCISES.len(), &mut page.check);
    let e = EXERCISES[page.exercise.min(EXERCISES.len() - 1)];
    ui.label(describe(&e));
    let expected = e.answer();
    let question = Question {
        name: "inverse bind",
        labels: &LABELS,
        columns: 3,
        expected: &expected,
        tolerance: 0.01,
    };
    check_ui(ui, &mut page.check, &question, |ui| {
        ui.label(RichText::new(working(&e)).monospace());
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_working_shows_the_numbers_without_negative_zero() {
        let text = working(&EXERCISES[0]);
        assert!(!text.contains("-0.0"), "{text}");
        assert!(text.contains("(0.0, -1.0)"), "{text}");
        assert_eq!(
            plane_rows(&EXERCISES[0].inverse_bind())[0],
            "⎡  0.0  1.0 -1.0 ⎤"
        );
    }
}
