//! "Predict, then reveal" for the interpolation: the student guesses how far the
//! glider's nose has turned from A at the current `t` before the page shows it. The
//! state and the judging, with no egui.

pub use crate::pages::predict::{Judgement, Revealed, Verdict};
use glam::{Quat, Vec3};
use skin::explain::rotation::{Euler, Interp, object_matrix};

/// The largest guess, degrees: no direction is further than that from A's nose.
pub const GUESS_LIMIT: f32 = 180.0;

/// A guess at most this many degrees from the truth is right on.
pub const RIGHT_ON: f32 = 3.0;
/// A guess at most this many degrees from the truth is close.
pub const CLOSE: f32 = 10.0;

/// How far the glider's nose points from A's nose (straight along +z), in degrees,
/// under the matrix the viewport draws for `q`: raw, so a LERP `q` shorter than 1
/// squashes the glider and its nose lags.
pub fn nose_turn(q: Quat) -> f32 {
    let nose = object_matrix(q).transform_vector3(Vec3::Z);
    if nose.length_squared() < 1e-12 {
        // A nose squashed to nothing points nowhere: no turn to speak of.
        return 0.0;
    }
    nose.angle_between(Vec3::Z).to_degrees()
}

/// Judges a guess of `guess` degrees against `truth` degrees: how many degrees apart,
/// and the verdict.
pub fn judge(guess: f32, truth: f32) -> Judgement {
    Judgement::of((guess - truth).abs(), RIGHT_ON, CLOSE)
}

/// What the answer depends on: when it changes, the question is new.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Question {
    /// How A goes to B.
    pub method: Interp,
    /// How far from A to B.
    pub t: f32,
    /// Orientation B (A is no turn).
    pub target: Euler,
    /// Whether B is stored as −q.
    pub flip: bool,
    /// Whether B is negated when `A · B < 0`.
    pub shortest: bool,
}

/// A prediction under way: how far the student thinks the nose has turned from A,
/// degrees, and the question the truth was shown for.
pub type Prediction = crate::pages::predict::Prediction<f32, Question>;

impl Prediction {
    /// Moves the guess, kept within 0..=[`GUESS_LIMIT`]; a non-finite guess is refused.
    pub fn set_guess(&mut self, guess: f32) {
        if guess.is_finite() {
            self.guess = guess.clamp(0.0, GUESS_LIMIT);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use skin::explain::rotation::{euler_quat, interpolate};

    #[test]
    fn the_difference_is_absolute_and_the_verdict_follows_the_thresholds() {
        let j = judge(30.0, 47.5);
        assert!((j.distance - 17.5).abs() < 1e-5, "{j:?}");
        assert_eq!(j.verdict, Verdict::Far);
        assert_eq!(judge(47.5, 30.0), j, "which is the guess does not matter");
        assert_eq!(judge(60.0, 60.0).distance, 0.0);
        let at = |d: f32| judge(60.0 + d, 60.0).verdict;
        assert_eq!(at(RIGHT_ON * 0.99), Verdict::RightOn);
        assert_eq!(at(-RIGHT_ON * 1.01), Verdict::Close);
        assert_eq!(at(CLOSE * 0.99), Verdict::Close);
        assert_eq!(at(-CLOSE * 1.01), Verdict::Far);
    }

    #[test]
    fn the_lerp_nose_lags_behind_the_normalised_ones() {
        let b = euler_quat([
            140.0f32.to_radians(),
            30.0f32.to_radians(),
            45.0f32.to_radians(),
        ]);
        let at = |m| nose_turn(interpolate(Quat::IDENTITY, b, 0.5, m, true));
        let (lerp, nlerp, slerp) = (at(Interp::Lerp), at(Interp::Nlerp), at(Interp::Slerp));
        assert!((lerp - 47.6).abs() < 0.1, "{lerp}");
        assert!((nlerp - 66.1).abs() < 0.1, "{nlerp}");
        assert!((slerp - nlerp).abs() < 1e-3, "{slerp} vs {nlerp}");
        assert_eq!(nose_turn(Quat::IDENTITY), 0.0);
        // A quarter turn about y swings the nose from +z to +x.
        let quarter = Quat::from_rotation_y(std::f32::consts::FRAC_PI_2);
        assert!((nose_turn(quarter) - 90.0).abs() < 1e-3);
        // A turn about the nose itself leaves it where it was.
        assert!(nose_turn(Quat::from_rotation_z(2.0)) < 1e-3);
    }

    /// The formula the predict cell gives for LERP (the matrix mixes A's nose and
    /// NLERP's by the squared length) gives the turn the page reveals.
    #[test]
    fn the_lerp_nose_is_the_mix_the_cell_states() {
        let b = euler_quat([2.4, 0.5, 0.8]);
        for t in [0.2, 0.5, 0.8] {
            let l2 = interpolate(Quat::IDENTITY, b, t, Interp::Lerp, true).length_squared();
            let alpha =
                nose_turn(interpolate(Quat::IDENTITY, b, t, Interp::Nlerp, true)).to_radians();
            let theta = (l2 * alpha.sin()).atan2(1.0 - l2 + l2 * alpha.cos());
            let truth = nose_turn(interpolate(Quat::IDENTITY, b, t, Interp::Lerp, true));
            assert!(
                (theta.to_degrees() - truth).abs() < 0.01,
                "t = {t}: {theta} vs {truth}"
            );
        }
    }

    #[test]
    fn a_reveal_holds_for_its_question_only() {
        let q = Question {
            method: Interp::Lerp,
            t: 0.5,
            target: [1.0, 0.5, 0.0],
            flip: false,
            shortest: true,
        };
        let mut p = Prediction::new((), 0.0);
        assert!(!p.revealed.is_revealed(q));
        p.revealed.reveal(q);
        assert!(p.revealed.is_revealed(q));
        let others = [
            Question { t: 0.6, ..q },
            Question {
                method: Interp::Slerp,
                ..q
            },
            Question {
                target: [1.0, 0.4, 0.0],
                ..q
            },
            Question { flip: true, ..q },
            Question {
                shortest: false,
                ..q
            },
        ];
        for other in others {
            assert!(!p.revealed.is_revealed(other), "{other:?}");
        }
        p.revealed.settle(others[0]);
        assert!(!p.revealed.is_revealed(q), "back to the old t stays hidden");
    }

    #[test]
    fn a_guess_stays_finite_and_in_range() {
        let mut p = Prediction::new((), 0.0);
        p.set_guess(45.5);
        assert_eq!(p.guess, 45.5);
        p.set_guess(f32::NAN);
        assert_eq!(p.guess, 45.5);
        p.set_guess(500.0);
        assert_eq!(p.guess, GUESS_LIMIT);
        p.set_guess(-3.0);
        assert_eq!(p.guess, 0.0);
    }

    #[test]
    fn the_chapter_states_the_thresholds_the_page_uses() {
        let chapter = include_str!("../../../chapters/interpolation.md");
        for line in [
            format!("Within {RIGHT_ON}° is right on"),
            format!("within {CLOSE}° is close"),
        ] {
            assert!(chapter.contains(&line), "{line}");
        }
    }
}
