//! "Predict, then reveal": the student places a guess for one vertex before the page
//! shows where it lands. The state and the judging, with no egui.

use super::data::{BONE_COUNT, POSITIONS};
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

/// How good a guess was.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Within [`RIGHT_ON`].
    RightOn,
    /// Within [`CLOSE`].
    Close,
    /// Further than [`CLOSE`].
    Far,
}

impl Verdict {
    /// The verdict on a guess `distance` from the truth: right on within `right_on`,
    /// close within `close`, far beyond (in whatever unit the page measures).
    pub fn of(distance: f32, right_on: f32, close: f32) -> Self {
        if distance <= right_on {
            Self::RightOn
        } else if distance <= close {
            Self::Close
        } else {
            Self::Far
        }
    }

    /// The verdict as the page writes it.
    pub fn text(self) -> &'static str {
        match self {
            Self::RightOn => "right on",
            Self::Close => "close",
            Self::Far => "far",
        }
    }
}

/// A guess judged against the truth.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Judgement {
    /// The distance from the guess to the truth, in the page's unit (world units on
    /// the grid, degrees on the quaternions page).
    pub distance: f32,
    /// What that distance means.
    pub verdict: Verdict,
}

/// Judges `guess` against `truth`: the distance between them and its verdict.
pub fn judge(guess: Vec2, truth: Vec2) -> Judgement {
    let distance = guess.distance(truth);
    Judgement {
        distance,
        verdict: Verdict::of(distance, RIGHT_ON, CLOSE),
    }
}

/// What the answer depends on besides the vertex: when it changes, the question is new.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Question {
    /// Each bone's angle.
    pub angles: [f32; BONE_COUNT],
    /// Whether world matrices are uploaded instead of gradients.
    pub forget_inverse_bind: bool,
}

/// A prediction under way: the vertex, the guess, and the question it was revealed for.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Prediction {
    /// The vertex whose skinned position is hidden until revealed.
    pub vertex: usize,
    /// Where the student thinks it lands, world units (z = 0).
    pub guess: Vec2,
    revealed_for: Option<Question>,
}

impl Prediction {
    /// A hidden prediction for `vertex`, the guess at its bind position (the origin for
    /// a vertex the grid does not have).
    pub fn new(vertex: usize) -> Self {
        Self {
            vertex,
            guess: Self::start(vertex),
            revealed_for: None,
        }
    }

    /// Where the guess starts: the vertex's bind position.
    pub fn start(vertex: usize) -> Vec2 {
        POSITIONS.get(vertex).map_or(Vec2::ZERO, |p| Vec2::from(*p))
    }

    /// Moves the guess, kept within [`GUESS_LIMIT`] of the origin on each axis; a
    /// non-finite guess is refused.
    pub fn set_guess(&mut self, guess: Vec2) {
        if guess.is_finite() {
            self.guess = guess.clamp(Vec2::splat(-GUESS_LIMIT), Vec2::splat(GUESS_LIMIT));
        }
    }

    /// Shows the truth for `question`.
    pub fn reveal(&mut self, question: Question) {
        self.revealed_for = Some(question);
    }

    /// Hides the truth again.
    pub fn hide(&mut self) {
        self.revealed_for = None;
    }

    /// Whether the truth is shown for `question`.
    pub fn is_revealed(&self, question: Question) -> bool {
        self.revealed_for == Some(question)
    }

    /// Hides a truth revealed for another question, so changing the question and
    /// changing it back does not show the answer.
    pub fn settle(&mut self, question: Question) {
        if !self.is_revealed(question) {
            self.hide();
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
        let mut p = Prediction::new(2);
        assert_eq!(p.guess, Vec2::new(2.0, 1.0), "the guess starts at bind");
        assert!(!p.is_revealed(q));
        p.reveal(q);
        assert!(p.is_revealed(q));
        let bent = Question {
            angles: [0.8, 0.1, 0.8],
            ..q
        };
        let forgotten = Question {
            forget_inverse_bind: true,
            ..q
        };
        assert!(!p.is_revealed(bent) && !p.is_revealed(forgotten));
        p.settle(bent);
        assert!(!p.is_revealed(q), "back to the old angles stays hidden");
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
        let mut p = Prediction::new(9);
        p.set_guess(Vec2::new(f32::NAN, 1.0));
        assert_eq!(p.guess, Vec2::new(8.0, -1.0));
        p.set_guess(Vec2::new(100.0, -3.0));
        assert_eq!(p.guess, Vec2::new(GUESS_LIMIT, -3.0));
        assert_eq!(Prediction::new(99).guess, Vec2::ZERO);
    }
}
