//! The "check yourself" cell: sample two keys by hand, the factor first.

use super::KeyframesPage;
use super::data::{JointKeys, rotation_keys, translation_keys};
use crate::ui::check::{Question, check_ui, exercise_picker_ui, hundredths};
use egui::Ui;
use glam::{Quat, Vec3};
use skin::explain::rotation::axis_angle;

/// What two keys hold.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Keys {
    /// Two translation keys.
    Translation([f32; 3], [f32; 3]),
    /// Two rotation keys, turns about z in degrees.
    TurnZ(f32, f32),
}

/// A check-yourself exercise: two keys at `times`, sampled at `time`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Exercise {
    /// The two key times, seconds.
    pub times: [f32; 2],
    /// The two key values.
    pub keys: Keys,
    /// The time τ the player samples at, seconds.
    pub time: f32,
}

// ANCHOR: exercises
/// The exercises, easiest first.
pub const EXERCISES: [Exercise; 3] = [
    Exercise {
        times: [1.0, 3.0],
        keys: Keys::Translation([0.0, 0.0, 0.0], [2.0, 4.0, 0.0]),
        time: 1.5,
    },
    Exercise {
        times: [0.0, 2.0],
        keys: Keys::TurnZ(30.0, 90.0),
        time: 1.5,
    },
    Exercise {
        times: [1.0, 3.0],
        keys: Keys::Translation([0.0, 1.0, 0.0], [2.0, 1.0, 4.0]),
        time: 0.5,
    },
];
// ANCHOR_END: exercises

impl Exercise {
    /// The two keys as a joint's channels, the way the player reads an animation.
    pub fn keys(&self) -> JointKeys {
        let [t0, t1] = self.times;
        match self.keys {
            Keys::Translation(a, b) => JointKeys {
                rotation: rotation_keys(0, &[]),
                translation: translation_keys(0, &[(t0, Vec3::from(a)), (t1, Vec3::from(b))]),
            },
            Keys::TurnZ(a, b) => {
                let q = |d: f32| Quat::from_rotation_z(d.to_radians());
                JointKeys {
                    rotation: rotation_keys(0, &[(t0, q(a)), (t1, q(b))]),
                    translation: translation_keys(0, &[]),
                }
            }
        }
    }

    /// The labels of the answer fields.
    pub fn labels(&self) -> &'static [&'static str] {
        match self.keys {
            Keys::Translation(..) => &["u", "x", "y", "z"],
            Keys::TurnZ(..) => &["u", "angle"],
        }
    }

    /// The answer, as the player computes it: the factor `u`, then the translation, or
    /// the angle turned about z in degrees.
    pub fn answer(&self) -> Vec<f32> {
        let sample = self.keys().sample(self.time);
        match self.keys {
            Keys::Translation(..) => {
                let t = sample.translation;
                vec![sample.translation_keys.u, t.x, t.y, t.z]
            }
            Keys::TurnZ(..) => {
                let (axis, angle) = axis_angle(sample.rotation);
                vec![
                    sample.rotation_keys.u,
                    (angle * axis.z.signum()).to_degrees(),
                ]
            }
        }
    }

    /// The question, in words.
    pub fn question(&self) -> String {
        let [t0, t1] = self.times;
        let keys = match self.keys {
            Keys::Translation(a, b) => format!(
                "Translation keys: ({}, {}, {}) at {t0} s, ({}, {}, {}) at {t1} s.",
                a[0], a[1], a[2], b[0], b[1], b[2]
            ),
            Keys::TurnZ(a, b) => {
                format!("Rotation keys: {a}° about z at {t0} s, {b}° about z at {t1} s.")
            }
        };
        let asked = match self.keys {
            Keys::Translation(..) => "the translation (x, y, z)",
            Keys::TurnZ(..) => "the angle about z, in degrees",
        };
        format!(
            "{keys} At τ = {} s, what are the factor u and {asked}?",
            self.time
        )
    }
}

impl KeyframesPage {
    /// The exercise picker, the question, the answer fields and the working.
    pub(super) fn check_cell_ui(&mut self, ui: &mut Ui) {
        exercise_picker_ui(ui, &mut self.exercise, EXERCISES.len(), &mut self.check);
        let e = EXERCISES[self.exercise.min(EXERCISES.len() - 1)];
        ui.label(e.question());
        let expected = e.answer();
        let labels = e.labels();
        let question = Question {
            name: "keyframe",
            labels,
            columns: labels.len(),
            expected: &expected,
            tolerance: 0.01,
            mistakes: &[],
        };
        check_ui(ui, &mut self.check, &question, |ui| {
            crate::ui::check::working_ui(ui, &working(&e));
        });
    }
}

/// The working: the factor, clamped to the keys, then the blend of the two values.
pub fn working(e: &Exercise) -> String {
    let [t0, t1] = e.times;
    let raw = (e.time - t0) / (t1 - t0);
    let answer = e.answer();
    let u = answer[0];
    let mut text = format!(
        "u = (τ − t0) / (t1 − t0) = ({} − {t0}) / ({t1} − {t0}) = {}",
        e.time,
        hundredths(raw)
    );
    if raw != u {
        text += &format!(
            "\nτ is before the first key: the first key holds, u = {}",
            hundredths(u)
        );
    }
    match e.keys {
        Keys::Translation(a, b) => {
            let lerp = |i: usize| hundredths(a[i] + u * (b[i] - a[i]));
            text += &format!(
                "\ntranslation = (1 − u) · key0 + u · key1 = ({}, {}, {})",
                lerp(0),
                lerp(1),
                lerp(2)
            );
        }
        Keys::TurnZ(a, b) => {
            text += &format!(
                "\nboth keys turn about z, so SLERP turns at an even pace:\nangle = {a}° + u · ({b}° − {a}°) = {}°",
                hundredths(answer[1])
            );
        }
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exercise_answers_match_the_hand_worked_ones() {
        let close = |a: &[f32], b: &[f32]| {
            a.len() == b.len() && a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-4)
        };
        let hand: [&[f32]; 3] = [&[0.25, 0.5, 1.0, 0.0], &[0.75, 75.0], &[0.0, 0.0, 1.0, 0.0]];
        for (e, hand) in EXERCISES.iter().zip(hand) {
            assert!(close(&e.answer(), hand), "{e:?}: {:?}", e.answer());
            assert_eq!(e.labels().len(), hand.len());
        }
    }

    #[test]
    fn the_working_shows_the_factor_and_the_clamp() {
        let text = working(&EXERCISES[0]);
        assert!(text.contains("= 0.25"), "{text}");
        assert!(text.contains("(0.5, 1, 0)"), "{text}");
        assert!(working(&EXERCISES[1]).contains("= 75°"));
        let clamped = working(&EXERCISES[2]);
        assert!(clamped.contains("the first key holds, u = 0"), "{clamped}");
    }
}
