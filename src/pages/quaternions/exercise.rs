//! The "check yourself" cell: write a quaternion by hand.

use super::QuaternionsPage;
use crate::ui::check::{Question, check_ui, exercise_picker_ui};
use crate::ui::matrix::quat_text;
use crate::ui::mono_ui;
use egui::Ui;
use glam::{Quat, Vec3};

/// A check-yourself exercise: a turn of `degrees` about `axis`; its quaternion.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Exercise {
    /// The axis (unit).
    pub axis: [f32; 3],
    /// The angle, degrees.
    pub degrees: f32,
}

/// The exercises, easiest first.
pub const EXERCISES: [Exercise; 3] = [
    Exercise {
        axis: [0.0, 1.0, 0.0],
        degrees: 90.0,
    },
    Exercise {
        axis: [1.0, 0.0, 0.0],
        degrees: 180.0,
    },
    Exercise {
        axis: [0.0, 0.0, 1.0],
        degrees: 60.0,
    },
];

impl Exercise {
    /// `(x, y, z, w) = (sin(θ/2) · axis, cos(θ/2))`.
    pub fn answer(&self) -> Quat {
        let (s, c) = (self.degrees.to_radians() / 2.0).sin_cos();
        let a = Vec3::from(self.axis) * s;
        Quat::from_xyzw(a.x, a.y, a.z, c)
    }
}

impl QuaternionsPage {
    /// The exercise picker, the question, the answer fields and the working.
    pub(super) fn check_cell_ui(&mut self, ui: &mut Ui) {
        exercise_picker_ui(ui, &mut self.exercise, EXERCISES.len(), &mut self.check);
        let e = EXERCISES[self.exercise.min(EXERCISES.len() - 1)];
        let [x, y, z] = e.axis;
        ui.label(format!(
            "A turn of {}° about the axis ({x}, {y}, {z}). Type its unit quaternion (x, y, z, w), to three decimals.",
            e.degrees
        ));
        let expected = glam::Vec4::from(e.answer()).to_array();
        let question = Question {
            name: "quaternion",
            labels: &["x", "y", "z", "w"],
            columns: 4,
            expected: &expected,
            tolerance: 0.002,
        };
        check_ui(ui, &mut self.check, &question, |ui| {
            mono_ui(ui, working(&e));
        });
    }
}

/// The working: half the angle, its sine and cosine, the quaternion, and what −q is.
pub fn working(e: &Exercise) -> String {
    let half = e.degrees / 2.0;
    let (s, c) = half.to_radians().sin_cos();
    let q = e.answer();
    format!(
        "θ/2 = {half}°\nsin(θ/2) = {:.3}, cos(θ/2) = {:.3}\nq = (sin(θ/2) · axis, cos(θ/2)) = {}\n−q = {} is the same rotation; the check wants q as the formula gives it.",
        s + 0.0,
        c + 0.0,
        quat_text(q),
        quat_text(-q)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Vec4;

    #[test]
    fn the_working_shows_half_the_angle() {
        let text = working(&EXERCISES[0]);
        assert!(text.contains("θ/2 = 45°"), "{text}");
        assert!(text.contains("(0.000, 0.707, 0.000, 0.707)"), "{text}");
    }

    #[test]
    fn exercise_answers() {
        let q = EXERCISES[0].answer();
        assert!(Vec4::from(q).abs_diff_eq(Vec4::new(0.0, 0.70710677, 0.0, 0.70710677), 1e-6));
        assert!(Vec4::from(EXERCISES[1].answer()).abs_diff_eq(Vec4::new(1.0, 0.0, 0.0, 0.0), 1e-6));
    }
}
