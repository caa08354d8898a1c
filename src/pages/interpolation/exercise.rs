//! The "check yourself" cell: blend two turns about z by hand.

use super::InterpolationPage;
use crate::link::Named;
use crate::pages::quaternions::quat_check_ui;
use crate::ui::check::exercise_picker_ui;
use crate::ui::matrix::quat_text;
use egui::Ui;
use glam::Quat;
use skin::explain::rotation::{Interp, interpolate};

/// A check-yourself exercise: from A, no turn, towards B, a turn of `degrees` about z,
/// by `method` at `t`, with the short-way check on. Its answer is `q(t)`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Exercise {
    /// B's turn about z, degrees.
    pub degrees: f32,
    /// How A goes to B.
    pub method: Interp,
    /// How far from A to B.
    pub t: f32,
}

/// The exercises, easiest first: SLERP halves the turn, LERP does not normalise, and a
/// turn past 180° is stored on the far side.
pub const EXERCISES: [Exercise; 3] = [
    Exercise {
        degrees: 90.0,
        method: Interp::Slerp,
        t: 0.5,
    },
    Exercise {
        degrees: 90.0,
        method: Interp::Lerp,
        t: 0.5,
    },
    Exercise {
        degrees: 300.0,
        method: Interp::Slerp,
        t: 0.5,
    },
];

impl Exercise {
    /// B's quaternion, as stored: `(0, 0, sin(θ/2), cos(θ/2))`.
    pub fn b(&self) -> Quat {
        let (s, c) = (self.degrees.to_radians() / 2.0).sin_cos();
        Quat::from_xyzw(0.0, 0.0, s, c)
    }

    /// `q(t)`, blended as the page blends, the short way.
    pub fn answer(&self) -> Quat {
        interpolate(Quat::IDENTITY, self.b(), self.t, self.method, true)
    }
}

/// The working: B, the dot product and its sign, then the blend.
pub fn working(e: &Exercise) -> String {
    let b = e.b();
    // A is (0, 0, 0, 1): its dot with B is B's w.
    let dot = b.w;
    let method = e.method.slug().to_ascii_uppercase();
    let mut lines = vec![
        format!(
            "B = (0, 0, sin({0}°/2), cos({0}°/2)) = {1}",
            e.degrees,
            quat_text(b)
        ),
        format!("A · B = w of B = {:.3}", dot + 0.0),
    ];
    let end = if dot < 0.0 {
        lines.push(format!(
            "negative: the short way heads for −B = {}, a turn of {}°",
            quat_text(-b),
            e.degrees - 360.0
        ));
        -b
    } else {
        b
    };
    let q = e.answer();
    let whole = 2.0 * end.z.atan2(end.w).to_degrees();
    lines.push(match e.method {
        Interp::Lerp => format!(
            "LERP: (1 − t) A + t B = {} (length {:.3}, not 1)",
            quat_text(q),
            q.length()
        ),
        _ => format!(
            "{method}: the turn at t = {} is θ = {:.0}° of {whole:.0}°, so q(t) = (0, 0, sin(θ/2), cos(θ/2)) = {}",
            e.t,
            whole * e.t,
            quat_text(q)
        ),
    });
    lines.push("−q(t) is the same rotation: the check takes either.".to_owned());
    lines.join("\n")
}

impl InterpolationPage {
    /// The exercise picker, the question, the answer fields and the working.
    pub(super) fn check_cell_ui(&mut self, ui: &mut Ui) {
        exercise_picker_ui(ui, &mut self.exercise, EXERCISES.len(), &mut self.check);
        let e = EXERCISES[self.exercise.min(EXERCISES.len() - 1)];
        ui.label(format!(
            "A is no turn. B is a turn of {}° about z. With the short way on, type q(t) by {} at t = {}, as (x, y, z, w), to three decimals.",
            e.degrees,
            e.method.slug().to_ascii_uppercase(),
            e.t
        ));
        if crate::ui::show_pose_after_ui(ui, &self.check) {
            self.show_exercise(&e);
        }
        // LERP normalised is NLERP; NLERP left unnormalised is LERP.
        let other = match e.method {
            Interp::Lerp => Some((
                interpolate(Quat::IDENTITY, e.b(), e.t, Interp::Nlerp, true),
                "that is normalised, NLERP: LERP leaves the sum as it is",
            )),
            Interp::Nlerp => Some((
                interpolate(Quat::IDENTITY, e.b(), e.t, Interp::Lerp, true),
                "that is LERP's sum: NLERP divides it by its length",
            )),
            // The long way round, where A · B < 0 (elsewhere it is the answer).
            Interp::Slerp => Some((
                interpolate(Quat::IDENTITY, e.b(), e.t, Interp::Slerp, false),
                "that is the long way round: A · B < 0, so the short way heads for −B",
            )),
        };
        quat_check_ui(
            ui,
            &mut self.check,
            e.answer(),
            other.as_slice(),
            working(&e),
        );
    }

    /// Puts exercise `e` in the viewport and on the half-angle circle: B as a roll about
    /// z, stored as the exercise stores it (a turn past 180° is the roll the other way,
    /// negated).
    fn show_exercise(&mut self, e: &Exercise) {
        self.fly_z_turn(e.degrees.to_radians());
        self.shortest = true;
        self.method = e.method;
        self.t = e.t;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn showing_an_exercise_stores_b_as_the_exercise_does() {
        for e in EXERCISES {
            let mut page = InterpolationPage::default();
            page.show_exercise(&e);
            let (a, b) = page.endpoints();
            assert_eq!(a, Quat::IDENTITY);
            assert!(
                glam::Vec4::from(b).abs_diff_eq(glam::Vec4::from(e.b()), 1e-5),
                "{e:?}: {b}"
            );
            let q = page.interpolated(e.method, e.t);
            assert!(
                glam::Vec4::from(q).abs_diff_eq(glam::Vec4::from(e.answer()), 1e-5),
                "{e:?}"
            );
            // The circle draws the same A and B.
            let circle = page.circle_blend();
            assert_eq!(circle.a(), Quat::IDENTITY, "{e:?}");
            assert!(
                glam::Vec4::from(circle.b()).abs_diff_eq(glam::Vec4::from(e.b()), 1e-5),
                "{e:?}: {}",
                circle.b()
            );
        }
    }

    /// The answers, worked by hand.
    #[test]
    fn the_answers_are_the_hand_worked_ones() {
        let close =
            |q: Quat, x: [f32; 4]| glam::Vec4::from(q).abs_diff_eq(glam::Vec4::from(x), 1e-3);
        // Half of 90° is 45°: (0, 0, sin 22.5°, cos 22.5°).
        assert!(close(EXERCISES[0].answer(), [0.0, 0.0, 0.383, 0.924]));
        // ((0, 0, 0, 1) + (0, 0, 0.707, 0.707)) / 2.
        assert!(close(EXERCISES[1].answer(), [0.0, 0.0, 0.354, 0.854]));
        // 300° is stored at w = cos 150° < 0: the short way is −60°, half of it −30°.
        assert!(close(EXERCISES[2].answer(), [0.0, 0.0, -0.259, 0.966]));
    }

    #[test]
    fn the_working_shows_the_flip_and_the_halved_turn() {
        let text = working(&EXERCISES[2]);
        assert!(text.contains("negative"), "{text}");
        assert!(text.contains("a turn of -60°"), "{text}");
        assert!(text.contains("θ = -30° of -60°"), "{text}");
        let text = working(&EXERCISES[1]);
        assert!(text.contains("length 0.924"), "{text}");
        assert!(!working(&EXERCISES[0]).contains("negative"));
    }
}
