//! "Predict, then reveal", shared by the pages that ask it: a guess judged against the
//! truth, which question the truth was shown for, and the colour a verdict is written
//! in. The judging needs no egui; the colours are egui's.

use egui::{Color32, Ui};

/// How good a guess was.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Within the page's "right on" distance.
    RightOn,
    /// Within the page's "close" distance.
    Close,
    /// Further.
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

impl Judgement {
    /// A guess `distance` from the truth, judged with the page's two distances.
    pub fn of(distance: f32, right_on: f32, close: f32) -> Self {
        Self {
            distance,
            verdict: Verdict::of(distance, right_on, close),
        }
    }
}

/// The colour a verdict is written in on a viewport's light background.
pub fn verdict_color(verdict: Verdict) -> Color32 {
    match verdict {
        Verdict::RightOn => Color32::from_rgb(30, 140, 60),
        Verdict::Close => Color32::from_rgb(190, 120, 0),
        Verdict::Far => Color32::from_rgb(200, 40, 40),
    }
}

/// `color` made lighter when the notebook is dark, so it reads there too.
pub fn for_notebook(ui: &Ui, color: Color32) -> Color32 {
    if ui.visuals().dark_mode {
        color.lerp_to_gamma(Color32::WHITE, 0.35)
    } else {
        color
    }
}

/// Which question the truth was revealed for. A reveal holds for that question only:
/// once the question changes the truth hides, and changing it back does not show it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Revealed<Q>(Option<Q>);

impl<Q> Default for Revealed<Q> {
    fn default() -> Self {
        Self(None)
    }
}

impl<Q: Copy + PartialEq> Revealed<Q> {
    /// Shows the truth for `question`.
    pub fn reveal(&mut self, question: Q) {
        self.0 = Some(question);
    }

    /// Hides the truth again.
    pub fn hide(&mut self) {
        self.0 = None;
    }

    /// Whether the truth is shown for `question`.
    pub fn is_revealed(&self, question: Q) -> bool {
        self.0 == Some(question)
    }

    /// Hides a truth revealed for another question.
    pub fn settle(&mut self, question: Q) {
        if !self.is_revealed(question) {
            self.hide();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reveal_holds_for_its_question_only() {
        let mut r = Revealed::default();
        assert!(!r.is_revealed(1));
        r.reveal(1);
        assert!(r.is_revealed(1) && !r.is_revealed(2));
        r.settle(1);
        assert!(r.is_revealed(1), "the same question keeps it");
        r.settle(2);
        r.settle(1);
        assert!(
            !r.is_revealed(1),
            "another question hid it, and going back does not show it"
        );
    }

    #[test]
    fn verdicts_follow_the_two_distances() {
        assert_eq!(Verdict::of(0.1, 0.25, 0.75), Verdict::RightOn);
        assert_eq!(Verdict::of(0.5, 0.25, 0.75), Verdict::Close);
        assert_eq!(Verdict::of(0.8, 0.25, 0.75), Verdict::Far);
    }
}
