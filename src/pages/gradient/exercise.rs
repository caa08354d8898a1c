//! The "check yourself" cell: one joint's gradient in the plane, worked by hand.

use super::GradientPage;
use super::frames::{Frame2, plane_part};
use crate::ui::check::{Question, check_ui, exercise_picker_ui};
use egui::Ui;
use glam::{Mat4, Vec2, Vec3};

/// A "check yourself" exercise: one joint's bind frame and target frame in the plane,
/// with whole-degree turns and whole-number positions, so the gradient can be worked out
/// by hand; and a vertex to carry.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Exercise {
    /// The joint in the bind pose: position, turn in degrees.
    pub bind: ([f32; 2], f32),
    /// The joint in the target pose: position, turn in degrees.
    pub target: ([f32; 2], f32),
    /// A vertex in the bind pose, bound to the joint.
    pub vertex: [f32; 2],
}

fn frame(([x, y], degrees): ([f32; 2], f32)) -> Mat4 {
    Frame2 {
        angle: degrees.to_radians(),
        origin: Vec2::new(x, y),
    }
    .to_mat4()
}

impl Exercise {
    /// `world_from_joint` in the bind pose.
    pub fn bind(&self) -> Mat4 {
        frame(self.bind)
    }

    /// `world_from_joint` in the target pose.
    pub fn target(&self) -> Mat4 {
        frame(self.target)
    }

    /// The answer: `target · bind⁻¹`. A bind frame is a turn and a move, always
    /// invertible.
    pub fn gradient(&self) -> Mat4 {
        self.target() * self.bind().inverse()
    }

    /// Where the gradient carries the vertex.
    pub fn carried_vertex(&self) -> Vec3 {
        self.gradient()
            .transform_point3(Vec2::from(self.vertex).extend(0.0))
    }
}

// ANCHOR: exercises
/// The exercises of the check cell, easiest first.
pub const EXERCISES: [Exercise; 3] = [
    Exercise {
        bind: ([2.0, 0.0], 0.0),
        target: ([3.0, 1.0], 90.0),
        vertex: [4.0, 0.0],
    },
    Exercise {
        bind: ([1.0, 1.0], 0.0),
        target: ([1.0, 1.0], 180.0),
        vertex: [2.0, 1.0],
    },
    Exercise {
        bind: ([0.0, 1.0], 90.0),
        target: ([2.0, 0.0], 0.0),
        vertex: [0.0, 3.0],
    },
];
// ANCHOR_END: exercises

/// The three rows of a plane matrix (x, y and t columns), rounded so that a rounding
/// error never shows as `-0.0`.
fn plane_rows(m: &Mat4) -> [String; 3] {
    let p = plane_part(m).map(|v| crate::ui::numbers::rounded(v, 2));
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
        "In the bind pose a joint sits at ({}, {}), turned {}°. In the target pose it sits at ({}, {}), turned {}° (counter-clockwise is positive). Type its gradient G = W · B⁻¹ (the target W times the inverse of the bind B) in the plane: the top row holds the first numbers of its x, y and t columns, the bottom row the second numbers.",
        bind[0], bind[1], bind_turn, target[0], target[1], target_turn
    )
}

impl GradientPage {
    /// Shows the exercise's two frames in the matrices view: the bind frame as a, the
    /// target as b.
    pub(super) fn pose_exercise(&mut self) {
        let e = EXERCISES[self.exercise.min(EXERCISES.len() - 1)];
        self.posed_exercise = true;
        for (i, ([x, y], degrees)) in [e.bind, e.target].into_iter().enumerate() {
            self.set_turn(
                i,
                Frame2 {
                    angle: degrees.to_radians(),
                    origin: Vec2::new(x, y),
                },
            );
        }
        self.section = super::Section::Matrices;
    }
}

/// The exercise, the answer fields and the working.
pub(super) fn check_cell_ui(page: &mut GradientPage, ui: &mut Ui) {
    let before = page.exercise;
    exercise_picker_ui(ui, &mut page.exercise, EXERCISES.len(), &mut page.check);
    // Another exercise picked while the last one's frames are shown shows its own.
    let switched = page.posed_exercise && page.exercise != before;
    let e = EXERCISES[page.exercise.min(EXERCISES.len() - 1)];
    ui.label(describe(&e));
    // The two frames in the matrices view: the bind frame as a, the target as b.
    if crate::ui::show_pose_ui(ui) || switched {
        if switched {
            crate::ui::viewport::ask_to_frame(ui.ctx());
        }
        page.pose_exercise();
    }
    let expected = plane_part(&e.gradient());
    let question = Question {
        name: "gradient",
        labels: &["x.x", "y.x", "t.x", "x.y", "y.y", "t.y"],
        columns: 3,
        expected: &expected,
        tolerance: 0.01,
        mistakes: &[],
    };
    check_ui(ui, &mut page.check, &question, |ui| {
        let bind_inverse = e.bind().inverse();
        let mut text = pair_text(("B, the bind", &e.bind()), ("B⁻¹", &bind_inverse));
        text += "\n";
        text += &pair_text(
            ("W, the target", &e.target()),
            ("G = W · B⁻¹", &e.gradient()),
        );
        let v = e.carried_vertex();
        text += &format!(
            "\nA vertex bound to the joint at ({}, {}) goes to\nG · ({}, {}) = ({:.1}, {:.1}).",
            e.vertex[0],
            e.vertex[1],
            e.vertex[0],
            e.vertex[1],
            (v.x * 10.0).round() / 10.0 + 0.0,
            (v.y * 10.0).round() / 10.0 + 0.0
        );
        crate::ui::check::working_ui(ui, &text);
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

    #[test]
    fn the_exercises_have_the_answers_worked_by_hand() {
        let close =
            |got: [f32; 6], want: [f32; 6]| got.iter().zip(want).all(|(g, w)| (g - w).abs() < 1e-5);
        // Joint at (2, 0) turns 90° and moves to (3, 1): x -> y, y -> -x, and the
        // turned bind position (0, 2) must land on (3, 1), so t = (3, -1).
        let got = plane_part(&EXERCISES[0].gradient());
        assert!(close(got, [0.0, -1.0, 3.0, 1.0, 0.0, -1.0]), "{got:?}");
        assert!(
            EXERCISES[0]
                .carried_vertex()
                .abs_diff_eq(Vec3::new(3.0, 3.0, 0.0), 1e-5)
        );
        // A half turn in place about (1, 1): t = (1, 1) + (1, 1).
        let got = plane_part(&EXERCISES[1].gradient());
        assert!(close(got, [-1.0, 0.0, 2.0, 0.0, -1.0, 2.0]), "{got:?}");
        assert!(
            EXERCISES[1]
                .carried_vertex()
                .abs_diff_eq(Vec3::new(0.0, 1.0, 0.0), 1e-5)
        );
        // Turned back by 90°: x -> -y, y -> x; (0, 1) turns to (1, 0) and must land on
        // (2, 0), so t = (1, 0).
        let got = plane_part(&EXERCISES[2].gradient());
        assert!(close(got, [0.0, 1.0, 1.0, -1.0, 0.0, 0.0]), "{got:?}");
        assert!(
            EXERCISES[2]
                .carried_vertex()
                .abs_diff_eq(Vec3::new(4.0, 0.0, 0.0), 1e-5)
        );
        for e in EXERCISES {
            assert!((e.gradient() * e.bind()).abs_diff_eq(e.target(), 1e-5));
        }
    }
}
