//! "Predict, then reveal" for the head vertex in the bind-space stage: the student
//! types where it lands for the current pose and inverse-bind setting before the page
//! shows it. The state, the judging and the cell's widgets.

use super::data::{HEAD_VERTEX, JOINT_COUNT};
use super::view::point_text;
use super::{BindingPage, Stage};
pub use crate::pages::predict::{Judgement, Revealed, Verdict};
use crate::pages::predict::{Predicts, guess_fields_ui, verdict_ui};
use egui::Ui;
use glam::{Mat4, Vec2, Vec3};

/// How far from the origin a guess may go on each axis, world units (the rig stands
/// about 3 units tall).
pub const GUESS_LIMIT: f32 = 10.0;

// The head sits 2 units above the chest: "right on" is an eighth of that, "close"
// three eighths.
/// A guess at most this far from the truth is right on.
pub const RIGHT_ON: f32 = 0.25;
/// A guess at most this far from the truth is close.
pub const CLOSE: f32 = 0.75;

/// Judges `guess` against `truth`: the distance between them and its verdict.
pub fn judge(guess: Vec2, truth: Vec2) -> Judgement {
    Judgement::of(guess.distance(truth), RIGHT_ON, CLOSE)
}

/// What the answer depends on: when it changes, the question is new.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Question {
    /// Each joint's turn.
    pub angles: [f32; JOINT_COUNT],
    /// The inverse binds, captured or edited.
    pub joint_from_bind: [Mat4; JOINT_COUNT],
    /// Whether world matrices are uploaded instead of world · inverse bind.
    pub forget_inverse_bind: bool,
}

/// A prediction under way: where the student thinks the head vertex lands, world units
/// (z = 0), and the question the truth was shown for.
pub type Prediction = crate::pages::predict::Prediction<Vec2, Question>;

impl Prediction {
    /// Where the guess starts: the head vertex's bind position.
    pub const START: Vec2 = Vec2::new(0.0, 2.0);

    /// Moves the guess, kept within [`GUESS_LIMIT`] on each axis; a non-finite guess
    /// is refused.
    pub fn set_guess(&mut self, guess: Vec2) {
        if let Some(guess) = crate::pages::predict::clamped_guess(guess, GUESS_LIMIT) {
            self.guess = guess;
        }
    }
}

impl Predicts for BindingPage {
    type Guess = Vec2;
    type Question = Question;
    type Of = ();

    /// The pose, the inverse binds and the switch.
    fn question(&self) -> Question {
        Question {
            angles: self.angles,
            joint_from_bind: self.joint_from_bind,
            forget_inverse_bind: self.forget_inverse_bind,
        }
    }

    crate::pages::predict::prediction_in!(prediction);

    fn fresh(&self) -> Prediction {
        Prediction::new((), Prediction::START)
    }
}

impl BindingPage {
    /// Whether the viewport draws the mesh: not while the head vertex is predicted in
    /// the bind-space stage, where the mesh would show where it lands.
    pub fn draws_mesh(&self) -> bool {
        !(self.stage == Stage::BindSpace && self.answer_hidden())
    }

    /// Where the bind-space stage draws the head vertex now, whichever stage is shown.
    pub fn head_landing(&self) -> Vec3 {
        let palette = super::data::palette(
            &self.world_from_joint(),
            &self.joint_from_bind,
            self.forget_inverse_bind,
        );
        skin::lbs::blended_matrix(
            &palette,
            &self.assets.bind_space.skin.influences[HEAD_VERTEX],
        )
        .transform_point3(self.assets.bind_space.skin.positions[HEAD_VERTEX])
    }

    /// The head vertex's place and how far the guess is from it, `None` while hidden.
    pub fn judgement(&self) -> Option<(Vec2, Judgement)> {
        let p = self.prediction.filter(|_| self.revealed())?;
        let truth = self.head_landing().truncate();
        Some((truth, judge(p.guess, truth)))
    }

    /// The predict box, guess and reveal, in the head example's cell.
    pub(super) fn predict_ui(&mut self, ui: &mut Ui) {
        let Some(p) = self.prediction else {
            if ui.button("Predict the head vertex").clicked() {
                self.prediction = Some(self.fresh());
                self.stage = Stage::BindSpace;
            }
            return;
        };
        let how = if self.forget_inverse_bind {
            "with the inverse bind forgotten"
        } else {
            "with W · B⁻¹"
        };
        ui.label(format!(
            "Stage 2, {how}: where does the head vertex land in this pose? The mesh is hidden until you reveal. Drag the blue ring in the viewport, or type the numbers."
        ));
        let revealed = self.revealed();
        if let Some(guess) = guess_fields_ui(ui, p.guess, GUESS_LIMIT, revealed) {
            self.prediction_mut().set_guess(guess);
        }
        if !revealed {
            if ui.button("Reveal").clicked() {
                self.reveal();
                self.stage = Stage::BindSpace;
            }
        } else if let Some((truth, j)) = self.judgement() {
            ui.label(format!(
                "the head vertex lands at {}; your guess {}",
                point_text(truth.extend(0.0)),
                point_text(p.guess.extend(0.0)),
            ));
            verdict_ui(ui, &j);
            if ui.button("Try again").clicked() {
                self.hide();
            }
        }
        if ui.button("Stop predicting").clicked() {
            self.prediction = None;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_distance_is_euclidean_and_the_verdict_follows_the_thresholds() {
        let j = judge(Vec2::new(0.0, 2.0), Vec2::new(3.0, 6.0));
        assert!((j.distance - 5.0).abs() < 1e-6, "{j:?}");
        assert_eq!(j.verdict, Verdict::Far);
        let at = |d: f32| judge(Vec2::new(d, 4.0), Vec2::new(0.0, 4.0)).verdict;
        assert_eq!(at(RIGHT_ON * 0.99), Verdict::RightOn);
        assert_eq!(at(-RIGHT_ON * 1.01), Verdict::Close);
        assert_eq!(at(CLOSE * 0.99), Verdict::Close);
        assert_eq!(at(CLOSE * 1.01), Verdict::Far);
    }

    #[test]
    fn a_guess_stays_finite_and_in_range() {
        let mut p = BindingPage::default().fresh();
        assert_eq!(p.guess, Prediction::START);
        p.set_guess(Vec2::new(1.5, f32::NAN));
        assert_eq!(p.guess, Prediction::START);
        p.set_guess(Vec2::new(50.0, -50.0));
        assert_eq!(p.guess, Vec2::new(GUESS_LIMIT, -GUESS_LIMIT));
    }

    #[test]
    fn the_chapter_states_the_thresholds_the_page_uses() {
        let chapter = include_str!("../../../chapters/binding.md");
        let line = format!("right on within {RIGHT_ON} units and close within {CLOSE}");
        assert!(chapter.contains(&line), "{line}");
    }
}
