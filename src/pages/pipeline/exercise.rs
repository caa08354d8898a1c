//! The "check yourself" cell: an inverse bind, then two vertices skinned by hand.

use super::PipelinePage;
use crate::ui::check::{Question, check_ui, exercise_picker_ui, hundredths};
use egui::Ui;
use glam::Vec3;
use rigs::arm;
use skin::Influences;
use skin::lbs::blended_matrix;

/// A check-yourself exercise on the two-bone arm (shoulder at the origin, elbow at
/// x = 2 in the bind pose).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Exercise {
    /// The translation of a joint's inverse bind.
    InverseBind { joint: usize },
    /// Where a bind-pose vertex lands with the elbow bent, for a forearm weight (the
    /// upper arm has the rest).
    Skin {
        bend_degrees: f32,
        position: [f32; 3],
        forearm: f32,
    },
}

// ANCHOR: exercises
/// The exercises, easiest first.
pub const EXERCISES: [Exercise; 3] = [
    Exercise::InverseBind { joint: 1 },
    Exercise::Skin {
        bend_degrees: 90.0,
        position: [3.0, 0.0, 0.0],
        forearm: 1.0,
    },
    Exercise::Skin {
        bend_degrees: 90.0,
        position: [2.5, 0.0, 0.0],
        forearm: 0.5,
    },
];
// ANCHOR_END: exercises

impl Exercise {
    /// The answer, as the page computes it: a point (x, y, z).
    pub fn answer(&self) -> Vec3 {
        match *self {
            Self::InverseBind { joint } => arm::joint_from_bind()[joint].w_axis.truncate(),
            Self::Skin {
                bend_degrees,
                position,
                forearm,
            } => {
                let palette = arm::palette(0.0, bend_degrees.to_radians());
                // The exercises' weights are valid; a bad one would show as the origin.
                Influences::unnormalised(&[(0, 1.0 - forearm), (1, forearm)], 2)
                    .map(|influences| {
                        blended_matrix(&palette, &influences).transform_point3(Vec3::from(position))
                    })
                    .unwrap_or(Vec3::ZERO)
            }
        }
    }

    /// The elbow's bend in the exercise, degrees: none for an inverse bind, which is
    /// read in the bind pose.
    pub fn bend(&self) -> f32 {
        match *self {
            Self::InverseBind { .. } => 0.0,
            Self::Skin { bend_degrees, .. } => bend_degrees,
        }
    }

    /// The question, in words.
    pub fn question(&self) -> String {
        match *self {
            Self::InverseBind { joint } => format!(
                "In the bind pose the {} joint sits at ({}, 0, 0), not turned. What is the translation (x, y, z) of its inverse bind?",
                super::JOINT_NAMES[joint],
                arm::bind_joint_position(joint).x
            ),
            Self::Skin {
                bend_degrees,
                position: [x, y, z],
                forearm,
            } => format!(
                "The elbow bends {bend_degrees}° about z. A vertex at ({x}, {y}, {z}) in the bind pose has weights: upper arm {}, forearm {forearm}. Where does it land (x, y, z)?",
                1.0 - forearm
            ),
        }
    }

    /// The working, step by step.
    pub fn working(&self) -> String {
        let [x, y, z] = self.answer().to_array().map(hundredths);
        match *self {
            Self::InverseBind { joint } => {
                let at = arm::bind_joint_position(joint).x;
                format!(
                    "bind = translate({at}, 0, 0)\ninverse bind = translate(−{at}, 0, 0): it moves the joint back to the origin\ntranslation = ({x}, {y}, {z})"
                )
            }
            Self::Skin {
                bend_degrees,
                position,
                forearm,
            } => {
                let palette = arm::palette(0.0, bend_degrees.to_radians());
                let p = Vec3::from(position);
                let text = |v: Vec3| {
                    let [a, b, c] = v.to_array().map(hundredths);
                    format!("({a}, {b}, {c})")
                };
                format!(
                    "upper arm: G = identity, so G · v = {}\nforearm: G = translate(2, 0, 0) · rotate_z({bend_degrees}°) · translate(−2, 0, 0), so G · v = {}\nv' = {} · {} + {forearm} · {} = ({x}, {y}, {z})",
                    text(palette[0].transform_point3(p)),
                    text(palette[1].transform_point3(p)),
                    1.0 - forearm,
                    text(palette[0].transform_point3(p)),
                    text(palette[1].transform_point3(p)),
                )
            }
        }
    }
}

impl PipelinePage {
    /// The exercise picker, the question, the answer fields and the working.
    pub(super) fn check_cell_ui(&mut self, ui: &mut Ui) {
        let before = self.exercise;
        exercise_picker_ui(ui, &mut self.exercise, EXERCISES.len(), &mut self.check);
        if self.exercise != before {
            self.exercise_point = None;
        }
        let e = EXERCISES[self.exercise.min(EXERCISES.len() - 1)];
        ui.label(e.question());
        // The page's own camera: a framing fits the bent arm, and cuts off the bind
        // outline and the exercise's vertex beside it.
        if crate::ui::show_pose_own_camera_ui(ui) {
            self.bend = e.bend().to_radians();
            self.camera = super::default_camera();
            self.exercise_point = match e {
                Exercise::Skin { position, .. } => Some((Vec3::from(position), e.answer())),
                Exercise::InverseBind { .. } => None,
            };
        }
        let expected = e.answer().to_array();
        let question = Question {
            name: "pipeline",
            labels: &["x", "y", "z"],
            columns: 3,
            expected: &expected,
            tolerance: 0.01,
            mistakes: &[],
        };
        check_ui(ui, &mut self.check, &question, |ui| {
            crate::ui::check::working_ui(ui, &e.working());
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_answers_are_the_ones_worked_out_by_hand() {
        // Worked by hand: the elbow's inverse bind undoes its (2, 0, 0); a 90° bend
        // turns the forearm's (1, 0, 0) past the elbow into (0, 1, 0); half and half
        // averages (2.5, 0, 0) and (2, 0.5, 0).
        let by_hand = [
            Vec3::new(-2.0, 0.0, 0.0),
            Vec3::new(2.0, 1.0, 0.0),
            Vec3::new(2.25, 0.25, 0.0),
        ];
        for (e, expected) in EXERCISES.iter().zip(by_hand) {
            assert!(
                e.answer().abs_diff_eq(expected, 1e-5),
                "{e:?}: {}",
                e.answer()
            );
            assert!(e.working().contains(&format!("{}", expected.x)), "{e:?}");
        }
    }
}
