//! The "check yourself" cell: a joint's inverse bind matrix in the plane, and a vertex
//! carried into the joint's space, worked by hand.

use super::BindingPage;
use crate::ui::check::{Question, check_ui, exercise_picker_ui, hundredths as r};
use egui::Ui;
use glam::{Mat4, Vec2};

/// A plane exercise: a joint's bind matrix (where it sits and how far it is turned) and
/// a bind-space vertex to carry into the joint's space.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Exercise {
    /// Where the joint sits in the bind pose.
    pub position: [f32; 2],
    /// How far it is turned, degrees counter-clockwise.
    pub turn_degrees: f32,
    /// A vertex in bind (world) space.
    pub vertex: [f32; 2],
}

// ANCHOR: exercises
/// The check-yourself exercises. The answers, worked by hand:
/// 1. turned 90° at (2, 1): inverse bind x = (0, -1), y = (1, 0), t = (-1, 2);
///    vertex (3, 1) in joint space is (0, -1).
/// 2. turned 180° at (1, 3): x = (-1, 0), y = (0, -1), t = (1, 3); (1, 4) becomes (0, -1).
/// 3. the example's head, not turned, at (0, 2): x = (1, 0), y = (0, 1), t = (0, -2);
///    the head vertex (0, 2) becomes (0, 0).
pub const EXERCISES: [Exercise; 3] = [
    Exercise {
        position: [2.0, 1.0],
        turn_degrees: 90.0,
        vertex: [3.0, 1.0],
    },
    Exercise {
        position: [1.0, 3.0],
        turn_degrees: 180.0,
        vertex: [1.0, 4.0],
    },
    Exercise {
        position: [0.0, 2.0],
        turn_degrees: 0.0,
        vertex: [0.0, 2.0],
    },
];
// ANCHOR_END: exercises

impl Exercise {
    /// `world_from_joint` at bind time: move to the position, after turning.
    pub fn bind(&self) -> Mat4 {
        Mat4::from_translation(Vec2::from(self.position).extend(0.0))
            * Mat4::from_rotation_z(self.turn_degrees.to_radians())
    }

    /// `joint_from_bind`: the inverse of [`Exercise::bind`], written out as "turn back,
    /// after moving back" (no general inverse needed).
    pub fn inverse_bind(&self) -> Mat4 {
        Mat4::from_rotation_z(-self.turn_degrees.to_radians())
            * Mat4::from_translation(-Vec2::from(self.position).extend(0.0))
    }

    /// The vertex in the joint's space: `joint_from_bind · vertex`.
    pub fn vertex_in_joint(&self) -> Vec2 {
        self.inverse_bind()
            .transform_point3(Vec2::from(self.vertex).extend(0.0))
            .truncate()
    }

    /// The answer: the inverse bind's x, y and t columns as two plane rows
    /// (`x.x y.x t.x`, `x.y y.y t.y`), then the vertex in joint space.
    pub fn answer(&self) -> [f32; 8] {
        let m = self.inverse_bind();
        let v = self.vertex_in_joint();
        [
            m.x_axis.x, m.y_axis.x, m.w_axis.x, m.x_axis.y, m.y_axis.y, m.w_axis.y, v.x, v.y,
        ]
        .map(|x| crate::ui::numbers::rounded(x, 4))
    }
}

/// The labels of the answer fields: the inverse bind's two plane rows, then the vertex.
pub const LABELS: [&str; 8] = [
    "x.x",
    "y.x",
    "t.x",
    "x.y",
    "y.y",
    "t.y",
    "v_joint.x",
    "v_joint.y",
];

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
        "At bind time a joint sits at ({}, {}), turned {}° counter-clockwise: its bind matrix is B = T · R, the turn R and then the move T. Type its inverse bind matrix B⁻¹ = R⁻¹ · T⁻¹ in the plane (top row: the first numbers of its x, y and t columns; bottom row: the second numbers), then the bind-space vertex v = ({}, {}) in the joint's space, v_joint = B⁻¹ · v.",
        e.position[0], e.position[1], e.turn_degrees, e.vertex[0], e.vertex[1]
    )
}

/// What B⁻¹ does, in the order it acts: the move undone, then the turn (if any).
fn undo(e: &Exercise) -> String {
    let back = format!("({}, {})", r(-e.position[0]), r(-e.position[1]));
    if e.turn_degrees == 0.0 {
        format!("B⁻¹ moves back by {back}; there is no turn to undo.")
    } else {
        format!(
            "B⁻¹ moves back by {back}, then turns back by {}°.",
            e.turn_degrees
        )
    }
}

/// The working: B, then B⁻¹ = R(-angle) · T(-position), then B⁻¹ · vertex.
fn working(e: &Exercise) -> String {
    let (w, b) = (plane_rows(&e.bind()), plane_rows(&e.inverse_bind()));
    let mut text = format!("{:<22}{}\n", "B = T · R (bind)", "B⁻¹ = R⁻¹ · T⁻¹");
    for (l, r) in w.iter().zip(&b) {
        text += &format!("{l:<22}{r}\n");
    }
    let v = e.vertex_in_joint();
    let [x, y] = e.vertex;
    text += &format!(
        "\n{}\nB⁻¹ · ({x}, {y}) = ({:.1}, {:.1}): the vertex seen from the joint.\nCheck: B · ({:.1}, {:.1}) gives ({x}, {y}) again.",
        undo(e),
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
        mistakes: &[],
    };
    check_ui(ui, &mut page.check, &question, |ui| {
        crate::ui::check::working_ui(ui, &working(&e));
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

    #[test]
    fn the_exercises_match_the_answers_worked_by_hand() {
        let answers = [
            [0.0, 1.0, -1.0, -1.0, 0.0, 2.0, 0.0, -1.0],
            [-1.0, 0.0, 1.0, 0.0, -1.0, 3.0, 0.0, -1.0],
            [1.0, 0.0, 0.0, 0.0, 1.0, -2.0, 0.0, 0.0],
        ];
        for (e, expected) in EXERCISES.iter().zip(answers) {
            assert_eq!(e.answer(), expected, "{e:?}");
            assert!((e.bind() * e.inverse_bind()).abs_diff_eq(Mat4::IDENTITY, 1e-6));
        }
    }
}
