//! The "check yourself" cell: write a quaternion by hand.

use super::QuaternionsPage;
use crate::ui::check::{Check, Question, check_ui, exercise_picker_ui};
use crate::ui::matrix::{fixed, quat_text};
use crate::ui::mono_ui;
use egui::Ui;
use glam::{Quat, Vec3};
use skin::explain::rotation::euler_matrix;

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

/// The last exercise, after the quaternions: gimbal lock. The gimbal is at these
/// (yaw, pitch, roll) degrees, pitched to 90°; with roll 0, which yaw gives the same
/// orientation?
pub const GIMBAL_EXERCISE: [f32; 3] = [50.0, 90.0, 20.0];

/// Every exercise: the quaternions, then the gimbal.
pub const EXERCISE_COUNT: usize = EXERCISES.len() + 1;

/// The answer to [`GIMBAL_EXERCISE`], in degrees, read off the rotation itself: at
/// pitch 90° the rotation is `Ry(θ) · Rx(90°)` for one `θ`; this finds it.
pub fn gimbal_answer() -> f32 {
    let [yaw, pitch, roll] = GIMBAL_EXERCISE.map(f32::to_radians);
    let m = euler_matrix([yaw, pitch, roll]) * glam::Mat4::from_rotation_x(-pitch);
    // Ry(θ) sends x to (cos θ, 0, −sin θ).
    (-m.x_axis.z).atan2(m.x_axis.x).to_degrees()
}

impl Exercise {
    /// `(x, y, z, w) = (sin(θ/2) · axis, cos(θ/2))`.
    pub fn answer(&self) -> Quat {
        let (s, c) = (self.degrees.to_radians() / 2.0).sin_cos();
        let a = Vec3::from(self.axis) * s;
        Quat::from_xyzw(a.x, a.y, a.z, c)
    }

    /// The page's (yaw, pitch, roll), radians, that give the same turn: what "Show this
    /// pose" sets the sliders to.
    pub fn angles(&self) -> [f32; 3] {
        let (yaw, pitch, roll) = self.answer().to_euler(glam::EulerRot::YXZ);
        // To a millionth of a radian: float noise (pitch -8.7e-8 for a half turn about
        // x) would otherwise reach the sliders and the link.
        [yaw, pitch, roll].map(|a| (a * 1e6).round() / 1e6 + 0.0)
    }
}

/// How far off a typed component may be.
const TOLERANCE: f32 = 0.002;

impl QuaternionsPage {
    /// The exercise picker, the question, the answer fields and the working.
    pub(super) fn check_cell_ui(&mut self, ui: &mut Ui) {
        exercise_picker_ui(ui, &mut self.exercise, EXERCISE_COUNT, &mut self.check);
        if self.exercise >= EXERCISES.len() {
            self.gimbal_check_ui(ui);
            return;
        }
        let e = EXERCISES[self.exercise];
        let [x, y, z] = e.axis;
        ui.label(format!(
            "A turn of {}° about the axis ({x}, {y}, {z}). Type its unit quaternion (x, y, z, w), to three decimals.",
            e.degrees
        ));
        if crate::ui::show_pose_after_ui(ui, &self.check) {
            self.euler = e.angles();
            self.show(super::Section::Quaternion);
        }
        // The whole angle where the half belongs.
        let (sin, cos) = e.degrees.to_radians().sin_cos();
        let whole = Quat::from_xyzw(e.axis[0] * sin, e.axis[1] * sin, e.axis[2] * sin, cos);
        let mistakes = [(
            whole,
            "a quaternion holds half the angle: (sin(θ/2) · axis, cos(θ/2))",
        )];
        quat_check_ui(ui, &mut self.check, e.answer(), &mistakes, working(&e));
    }
}

/// The answer fields of a question whose answer is the unit quaternion `answer`, and
/// the `working` shown once answered. −q is the same rotation as q, as the page
/// teaches: an answer of −q counts, and is then compared with −q, number by number.
///
/// `mistakes` are likely wrong quaternions, each with what it shows.
pub(crate) fn quat_check_ui(
    ui: &mut Ui,
    check: &mut Check,
    answer: Quat,
    mistakes: &[(Quat, &str)],
    working: String,
) {
    let q = glam::Vec4::from(answer).to_array();
    let negated = q.map(|v| -v + 0.0);
    let typed: Option<Vec<f32>> = check
        .inputs
        .iter()
        .map(|t| crate::link::parse_number(t))
        .collect();
    let is_negated = typed.is_some_and(|t| {
        t.len() == 4
            && t.iter()
                .zip(negated)
                .all(|(a, b)| (a - b).abs() <= TOLERANCE)
    });
    let expected = if is_negated { negated } else { q };
    // The scalar written first, as some books and engines order it.
    let w_first = [q[3], q[0], q[1], q[2]];
    let w_first_hint = "that is w first: this app writes (x, y, z, w), the scalar part last";
    let wrong: Vec<[f32; 4]> = mistakes
        .iter()
        .map(|(m, _)| glam::Vec4::from(*m).to_array())
        .collect();
    let known: Vec<(&[f32], &str)> = wrong
        .iter()
        .zip(mistakes.iter().map(|(_, hint)| *hint))
        .chain((w_first != q).then_some((&w_first, w_first_hint)))
        .map(|(w, hint)| (w.as_slice(), hint))
        .collect();
    let question = Question {
        name: "quaternion",
        labels: &["x", "y", "z", "w"],
        columns: 4,
        expected: &expected,
        tolerance: TOLERANCE,
        mistakes: &known,
    };
    check_ui(ui, check, &question, |ui| {
        crate::ui::check::working_ui(ui, &working);
    });
    // −q is right: say why at once, not only in the working.
    if is_negated && check.verdict == Some(crate::ui::check::Verdict::Right) {
        ui.label("That is −q: every sign flipped, the same rotation as q.");
    }
}

impl QuaternionsPage {
    /// The gimbal-lock exercise: one angle, with its working.
    fn gimbal_check_ui(&mut self, ui: &mut Ui) {
        let [yaw, pitch, roll] = GIMBAL_EXERCISE;
        ui.label(format!(
            "The gimbal stands at yaw {yaw}°, pitch {pitch}°, roll {roll}°. Set roll to 0°. \
             Which yaw, in degrees from −180 to 180, gives the glider the same orientation?"
        ));
        if crate::ui::show_pose_ui(ui) {
            self.euler = GIMBAL_EXERCISE.map(f32::to_radians);
            self.show(super::Section::Gimbal);
        }
        let expected = [gimbal_answer()];
        // Yaw and roll added: the senses of the two turns missed.
        let added = [yaw + roll];
        // The right turn written a whole turn away.
        let (above, below) = ([expected[0] + 360.0], [expected[0] - 360.0]);
        let whole_turn =
            "that is the same orientation, a whole turn away: give it from −180 to 180";
        let question = Question {
            name: "gimbal",
            labels: &["yaw"],
            columns: 1,
            expected: &expected,
            tolerance: 0.5,
            mistakes: &[
                (
                    &added,
                    "that is yaw + roll: at pitch 90° the two turn about one axis, in opposite \
                     senses, so only yaw − roll counts",
                ),
                (&above, whole_turn),
                (&below, whole_turn),
            ],
        };
        check_ui(ui, &mut self.check, &question, |ui| {
            mono_ui(
                ui,
                format!(
                    "At pitch 90° yaw and roll turn about the same axis, in opposite senses:\n\
                     only yaw − roll counts. {yaw}° − {roll}° = {}°, so with roll 0 the yaw is {}°.",
                    yaw - roll,
                    expected[0].round()
                ),
            );
        });
    }
}

/// The working: half the angle, its sine and cosine, the quaternion, and what −q is.
pub fn working(e: &Exercise) -> String {
    let half = e.degrees / 2.0;
    let (s, c) = half.to_radians().sin_cos();
    let q = e.answer();
    format!(
        "θ/2 = {half}°\nsin(θ/2) = {}, cos(θ/2) = {}\nq = (sin(θ/2) · axis, cos(θ/2)) = {}\n−q = {} is the same rotation: the check takes either.",
        fixed(s, 3),
        fixed(c, 3),
        quat_text(q),
        quat_text(-q)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Vec4;

    /// "Show this pose" sets angles whose rotation is the exercise's turn (as q or −q).
    #[test]
    fn the_shown_pose_is_the_exercise_turn() {
        for e in EXERCISES {
            let shown = skin::explain::rotation::euler_quat(e.angles());
            assert!(
                shown.dot(e.answer()).abs() > 1.0 - 1e-5,
                "{e:?}: {shown:?} against {:?}",
                e.answer()
            );
        }
    }

    #[test]
    fn at_pitch_90_only_yaw_minus_roll_counts() {
        // Worked by hand: 50° − 20° = 30°.
        assert!((gimbal_answer() - 30.0).abs() < 1e-3, "{}", gimbal_answer());
        // The answer really is the same orientation, and another yaw is not.
        let [yaw, pitch, roll] = GIMBAL_EXERCISE.map(f32::to_radians);
        let given = euler_matrix([yaw, pitch, roll]);
        let same = euler_matrix([gimbal_answer().to_radians(), pitch, 0.0]);
        assert!(given.abs_diff_eq(same, 1e-5));
        let other = euler_matrix([yaw, pitch, 0.0]);
        assert!(!given.abs_diff_eq(other, 1e-3));
    }

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
