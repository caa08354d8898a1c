//! "Predict, then reveal": the student places a guess for one vertex before the page
//! shows where it lands. The state and the judging, with no egui.

use super::data::{BONE_COUNT, POSITIONS};
pub use crate::pages::predict::{Judgement, Revealed, Verdict};
use glam::Vec2;

/// The vertex predicted when none is named: it follows `b0` and `b1` half each.
pub const DEFAULT_PREDICT: usize = 2;

/// How far from the origin a guess may go, in world units (the chain reaches about 9).
pub const GUESS_LIMIT: f32 = 20.0;

// The vertices stand 2 units apart: "right on" is within an eighth of that gap, and
// "close" is within three eighths, still well short of the neighbour's place.
/// A guess at most this far from the truth is right on.
pub const RIGHT_ON: f32 = 0.25;
/// A guess at most this far from the truth is close.
pub const CLOSE: f32 = 0.75;

/// Judges `guess` against `truth`: the distance between them and its verdict.
pub fn judge(guess: Vec2, truth: Vec2) -> Judgement {
    Judgement::of(guess.distance(truth), RIGHT_ON, CLOSE)
}

/// What the answer depends on besides the vertex: when it changes, the question is new.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Question {
    /// Each bone's angle.
    pub angles: [f32; BONE_COUNT],
    /// Whether world matrices are uploaded instead of gradients.
    pub forget_inverse_bind: bool,
}

/// A prediction under way: the vertex whose skinned position is hidden until revealed,
/// where the student thinks it lands (world units, z = 0), and the question the truth
/// was shown for.
pub type Prediction = crate::pages::predict::Prediction<Vec2, Question, usize>;

impl Prediction {
    /// A hidden prediction for `vertex`, the guess at its bind position (the origin for
    /// a vertex the grid does not have).
    pub fn of_vertex(vertex: usize) -> Self {
        Self::new(vertex, Self::start(vertex))
    }

    /// The vertex predicted.
    pub fn vertex(&self) -> usize {
        self.of
    }

    /// Where the guess starts: the vertex's bind position.
    pub fn start(vertex: usize) -> Vec2 {
        POSITIONS.get(vertex).map_or(Vec2::ZERO, |p| Vec2::from(*p))
    }

    /// Moves the guess, kept within [`GUESS_LIMIT`] of the origin on each axis; a
    /// non-finite guess is refused.
    pub fn set_guess(&mut self, guess: Vec2) {
        if let Some(guess) = crate::pages::predict::clamped_guess(guess, GUESS_LIMIT) {
            self.guess = guess;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_distance_is_euclidean_and_the_verdict_follows_the_thresholds() {
        let truth = Vec2::new(2.0, 1.0);
        let j = judge(Vec2::new(5.0, 5.0), truth);
        assert!((j.distance - 5.0).abs() < 1e-6, "{j:?}");
        assert_eq!(j.verdict, Verdict::Far);
        assert_eq!(judge(truth, truth).verdict, Verdict::RightOn);
        assert_eq!(judge(truth, truth).distance, 0.0);
        let at = |d: f32| judge(truth + Vec2::new(0.0, d), truth).verdict;
        assert_eq!(at(RIGHT_ON * 0.99), Verdict::RightOn);
        assert_eq!(at(RIGHT_ON * 1.01), Verdict::Close);
        assert_eq!(at(CLOSE * 0.99), Verdict::Close);
        assert_eq!(at(CLOSE * 1.01), Verdict::Far);
        // Which point is the guess does not matter.
        let a = Vec2::new(-1.5, 0.25);
        assert_eq!(judge(a, truth), judge(truth, a));
    }

    #[test]
    fn a_reveal_holds_for_its_question_only() {
        let q = Question {
            angles: [0.8; BONE_COUNT],
            forget_inverse_bind: false,
        };
        let mut p = Prediction::of_vertex(2);
        assert_eq!(p.guess, Vec2::new(2.0, 1.0), "the guess starts at bind");
        assert!(!p.revealed.is_revealed(q));
        p.revealed.reveal(q);
        assert!(p.revealed.is_revealed(q));
        let bent = Question {
            angles: [0.8, 0.1, 0.8],
            ..q
        };
        let forgotten = Question {
            forget_inverse_bind: true,
            ..q
        };
        assert!(!p.revealed.is_revealed(bent) && !p.revealed.is_revealed(forgotten));
        p.revealed.settle(bent);
        assert!(
            !p.revealed.is_revealed(q),
            "back to the old angles stays hidden"
        );
    }

    #[test]
    fn the_chapter_states_the_thresholds_the_page_uses() {
        let chapter = include_str!("../../../chapters/grid.md");
        for line in [
            format!("Within {RIGHT_ON} is right on."),
            format!("Within {CLOSE} is close."),
        ] {
            assert!(chapter.contains(&line), "{line}");
        }
    }

    #[test]
    fn a_guess_stays_finite_and_in_range() {
        let mut p = Prediction::of_vertex(9);
        p.set_guess(Vec2::new(f32::NAN, 1.0));
        assert_eq!(p.guess, Vec2::new(8.0, -1.0));
        p.set_guess(Vec2::new(100.0, -3.0));
        assert_eq!(p.guess, Vec2::new(GUESS_LIMIT, -3.0));
        assert_eq!(Prediction::of_vertex(99).guess, Vec2::ZERO);
    }
}
