//! The "check yourself" cell: carry a normal through a scale by hand.

use super::NormalsPage;
use crate::ui::check::{Question, check_ui, exercise_picker_ui};
use crate::ui::matrix::{fixed2, vec3_text as vec3};
use egui::Ui;
use glam::{Mat3, Mat4, Vec3};
use skin::normals::{NormalMethod, angle_degrees, transform_normal};

/// A check-yourself exercise: the forearm scaled by `(1, scale, 1)`, no turn; carry
/// the bind normal `normal` correctly.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Exercise {
    /// The scale along y.
    pub scale: f32,
    /// The bind-space unit normal.
    pub normal: [f32; 3],
}

// ANCHOR: exercises
/// The exercises, easiest first.
pub const EXERCISES: [Exercise; 3] = [
    Exercise {
        scale: 2.0,
        normal: [0.8, 0.6, 0.0],
    },
    Exercise {
        scale: 0.5,
        normal: [0.0, 0.6, 0.8],
    },
    Exercise {
        scale: 3.0,
        normal: [0.8, 0.0, 0.6],
    },
];
// ANCHOR_END: exercises

impl Exercise {
    /// The matrix: a scale of `scale` along y.
    pub fn matrix(&self) -> Mat4 {
        Mat4::from_scale(Vec3::new(1.0, self.scale, 1.0))
    }

    /// `(M⁻¹)^T · n` before normalising.
    pub fn unnormalised(&self) -> Vec3 {
        Mat3::from_mat4(self.matrix()).inverse().transpose() * Vec3::from(self.normal)
    }

    /// The right answer: the unit skinned normal.
    pub fn answer(&self) -> Vec3 {
        transform_normal(
            NormalMethod::InverseTranspose,
            &self.matrix(),
            Vec3::from(self.normal),
        )
    }

    /// What the naive method gives, for the working.
    pub fn naive(&self) -> Vec3 {
        transform_normal(NormalMethod::Naive, &self.matrix(), Vec3::from(self.normal))
    }
}

impl NormalsPage {
    /// The exercise picker, the question, the answer fields and the working.
    pub(super) fn check_cell_ui(&mut self, ui: &mut Ui) {
        exercise_picker_ui(ui, &mut self.exercise, EXERCISES.len(), &mut self.check);
        let e = EXERCISES[self.exercise.min(EXERCISES.len() - 1)];
        let [x, y, z] = e.normal;
        ui.label(format!(
            "A bone scales by {} along y and does not turn: M = diag(1, {}, 1). A vertex on it has the unit normal n = ({x}, {y}, {z}). Type the skinned unit normal, to two decimals.",
            e.scale, e.scale
        ));
        let expected = e.answer().to_array();
        // The two slips this page is about, where they differ from the answer.
        let (naive, unnormalised) = (e.naive().to_array(), e.unnormalised().to_array());
        let slips: [(&[f32], &str); 2] = [
            (
                &naive,
                "that is the naive M · n, normalised: a scale needs (M⁻¹)^T for normals",
            ),
            (
                &unnormalised,
                "that is (M⁻¹)^T · n before normalising: divide it by its length",
            ),
        ];
        let far = |m: &[f32]| m.iter().zip(&expected).any(|(a, b)| (a - b).abs() > 0.01);
        let mistakes: Vec<(&[f32], &str)> = slips.into_iter().filter(|(m, _)| far(m)).collect();
        let question = Question {
            name: "normal",
            labels: &["x", "y", "z"],
            columns: 3,
            expected: &expected,
            tolerance: 0.01,
            mistakes: &mistakes,
        };
        check_ui(ui, &mut self.check, &question, |ui| {
            crate::ui::check::working_ui(ui, &working(&e));
        });
    }
}

/// The working of an exercise: the inverse transpose, the product, its length, the
/// unit normal, and what the naive way would have given.
pub fn working(e: &Exercise) -> String {
    let s = e.scale;
    let u = e.unnormalised();
    let a = e.answer();
    let naive = e.naive();
    format!(
        "(M⁻¹)^T = diag(1, 1/{s}, 1) = diag(1, {}, 1)\n(M⁻¹)^T · n = {}\nlength {:.3}, so N = {}\nThe naive M · n, normalised, would be {}: {:.1}° off.",
        fixed2(1.0 / s),
        vec3(u),
        u.length(),
        vec3(a),
        vec3(naive),
        angle_degrees(a, naive)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_working_shows_the_steps() {
        let text = working(&EXERCISES[0]);
        assert!(text.contains("(0.80, 0.30, 0.00)"), "{text}");
        assert!(text.contains("(0.94, 0.35, 0.00)"), "{text}");
        assert!(!text.contains("-0.00"), "{text}");
    }

    #[test]
    fn exercise_answers() {
        let a = EXERCISES[0].answer();
        assert!(
            a.abs_diff_eq(Vec3::new(0.8, 0.3, 0.0).normalize(), 1e-6),
            "{a}"
        );
        assert!(
            EXERCISES[0]
                .unnormalised()
                .abs_diff_eq(Vec3::new(0.8, 0.3, 0.0), 1e-6)
        );
        // No y component: the scale cannot tilt it.
        assert!(
            EXERCISES[2]
                .answer()
                .abs_diff_eq(Vec3::new(0.8, 0.0, 0.6), 1e-6)
        );
        assert!(EXERCISES[1].naive().y < EXERCISES[1].answer().y);
    }
}
