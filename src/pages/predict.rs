//! "Predict, then reveal", shared by the pages that ask it: a guess judged against the
//! truth, which question the truth was shown for, the colour a verdict is written in,
//! and, for pages that ask where a point lands in the plane, the guess marker the
//! student drags. The judging needs no egui; the rest is egui's.

use crate::ui::Viewport;
use crate::ui::pick::{PICK_RADIUS, nearest};
use egui::{Color32, Pos2, Ui};
use glam::Vec2;

/// The guess marker's colour on a viewport's light background.
pub const GUESS_BLUE: Color32 = Color32::from_rgb(40, 90, 220);

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

/// `guess` kept within `limit` of the origin on each axis, to the hundredth the fields
/// show (a guess dragged to a pixel writes `1.24`, not `1.2386804`, into the link, and
/// never reads `-0.00`); `None` when it is not finite (the guess then stays where it
/// was).
pub fn clamped_guess(guess: Vec2, limit: f32) -> Option<Vec2> {
    guess.is_finite().then(|| {
        let kept = guess.clamp(Vec2::splat(-limit), Vec2::splat(limit));
        // Adding zero turns a rounded −0 into 0.
        (kept * 100.0).round() / 100.0 + Vec2::ZERO
    })
}

/// The guess in the plane as two named number fields ("guess x", "guess y"), each kept
/// within ±`limit`, greyed out once `locked` (the truth is shown). Returns the edited
/// guess, if the student changed it.
pub fn guess_fields_ui(ui: &mut Ui, guess: Vec2, limit: f32, locked: bool) -> Option<Vec2> {
    use crate::ui::named_number_ui;
    let mut guess = guess;
    let edited = ui
        .add_enabled_ui(!locked, |ui| {
            ui.horizontal_wrapped(|ui| {
                let label =
                    egui::RichText::new("your guess").color(crate::ui::legible(ui, GUESS_BLUE));
                ui.label(label);
                let range = Some(-limit..=limit);
                let x = named_number_ui(ui, "guess x", &mut guess.x, "x ", range.clone());
                let y = named_number_ui(ui, "guess y", &mut guess.y, "y ", range);
                x | y
            })
            .inner
        })
        .inner;
    if locked {
        ui.label(
            egui::RichText::new(
                "Your guess is kept while the answer shows: Try again to change it.",
            )
            .weak(),
        );
    }
    edited.then_some(guess)
}

/// The distance and verdict of a judged guess, bold, in the verdict's colour.
pub fn verdict_ui(ui: &mut Ui, j: &Judgement) {
    let text = format!("distance {:.2}: {}", j.distance, j.verdict.text());
    let color = crate::ui::legible(ui, verdict_color(j.verdict));
    ui.label(egui::RichText::new(text).strong().color(color));
}

/// What a drag in a plane viewport holds on a page with joints and a guess marker.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Grab {
    /// A joint, turning its bone.
    Joint(usize),
    /// The guess marker.
    Guess,
}

/// What a press at `origin` grabs: the nearer of the guess marker (`None` while it
/// cannot move) and the joints, within [`PICK_RADIUS`]; on a tie, the guess.
pub fn grab(origin: Pos2, guess: Option<Pos2>, joints: &[Pos2]) -> Option<Grab> {
    let marks = guess
        .into_iter()
        .chain(joints.iter().copied())
        .collect::<Vec<_>>();
    let i = nearest(marks, origin, PICK_RADIUS)?;
    Some(match (guess, i) {
        (Some(_), 0) => Grab::Guess,
        (Some(_), i) => Grab::Joint(i - 1),
        (None, i) => Grab::Joint(i),
    })
}

/// The guess marker in a plane viewport: a blue ring at `guess`, named `name`. Once
/// revealed (`judged`: the truth on screen and the judgement), a line from the guess
/// to the truth in the verdict's colour, the truth as a dot of colour `truth_fill`,
/// and the distance and verdict beside the ring, away from the truth.
pub fn guess_marker_ui(
    ui: &Ui,
    vp: &Viewport,
    guess: Pos2,
    name: &str,
    judged: Option<(Pos2, Judgement)>,
    truth_fill: Color32,
) {
    use egui::text::{LayoutJob, TextFormat};
    let painter = ui.painter_at(vp.rect());
    let font = egui::FontId::proportional(16.0);
    // A pale card keeps the label readable over the mesh and the grid; its text takes
    // the marks' colours darkened until they read on it.
    let card = Color32::from_rgba_unmultiplied(250, 250, 248, 220);
    let ink = |c| crate::ui::card_ink(c, card);
    let mut job = LayoutJob::default();
    job.append(name, 0.0, TextFormat::simple(font.clone(), ink(GUESS_BLUE)));
    // Above the ring while the truth is hidden; then on the far side from the truth.
    let mut away = -egui::Vec2::Y;
    if let Some((truth, j)) = judged {
        let color = verdict_color(j.verdict);
        painter.line_segment([guess, truth], egui::Stroke::new(2.5, color));
        painter.circle(
            truth,
            8.0,
            truth_fill,
            egui::Stroke::new(2.0, Color32::WHITE),
        );
        vp.block(egui::Rect::from_center_size(truth, egui::Vec2::splat(18.0)));
        let verdict = format!("\n{:.2}: {}", j.distance, j.verdict.text());
        job.append(&verdict, 0.0, TextFormat::simple(font, ink(color)));
        if guess.distance(truth) > 1.0 {
            away = (guess - truth).normalized();
        }
    }
    painter.circle_stroke(guess, 10.0, egui::Stroke::new(3.0, GUESS_BLUE));
    painter.circle_filled(guess, 2.5, GUESS_BLUE);
    vp.block(egui::Rect::from_center_size(guess, egui::Vec2::splat(22.0)));
    let galley = painter.layout_job(job);
    vp.label_galley(guess, galley, 8.0, away, Some(card));
}

/// A prediction under way: what it is of (the grid's vertex; nothing where a page
/// predicts one thing), the student's guess, and the question the truth was shown for.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Prediction<G, Q, S = ()> {
    /// What is predicted, where a page asks about one of several things.
    pub of: S,
    /// The student's guess, in the page's unit.
    pub guess: G,
    /// The question the truth was shown for, if any.
    pub revealed: Revealed<Q>,
}

impl<G, Q, S> Prediction<G, Q, S> {
    /// A hidden prediction of `of`, the guess at `guess`.
    pub fn new(of: S, guess: G) -> Self {
        Self {
            of,
            guess,
            revealed: Revealed(None),
        }
    }
}

/// A page that asks for a prediction before it shows the answer. The page says what
/// the answer depends on and where its prediction lives; starting, revealing, hiding
/// and settling are written once, here. The page calls [`Predicts::settle_prediction`]
/// from [`crate::page::Lesson::settle`].
pub trait Predicts {
    /// The guess: a point, an angle.
    type Guess: Copy;
    /// What the answer depends on: when it changes, the question is new.
    type Question: Copy + PartialEq;
    /// What is predicted, where the page asks about one of several things.
    type Of: Copy;

    /// What the answer depends on now.
    fn question(&self) -> Self::Question;

    /// The prediction under way, if any.
    fn prediction(&self) -> Option<&Prediction<Self::Guess, Self::Question, Self::Of>>;

    /// Where the page keeps its prediction.
    fn prediction_slot(&mut self)
    -> &mut Option<Prediction<Self::Guess, Self::Question, Self::Of>>;

    /// The prediction a guess or a reveal starts when none is under way.
    fn fresh(&self) -> Prediction<Self::Guess, Self::Question, Self::Of>;

    /// Runs as a prediction starts (the grid pauses its animation: a moving chain
    /// poses no one question).
    fn started(&mut self) {}

    /// The prediction under way, starting one if there is none.
    fn prediction_mut(&mut self) -> &mut Prediction<Self::Guess, Self::Question, Self::Of> {
        if self.prediction().is_none() {
            self.started();
        }
        let fresh = self.fresh();
        self.prediction_slot().get_or_insert(fresh)
    }

    /// Shows the truth for the question posed now.
    fn reveal(&mut self) {
        let question = self.question();
        self.prediction_mut().revealed.reveal(question);
    }

    /// Hides the truth again (the prediction stays).
    fn hide(&mut self) {
        if let Some(p) = self.prediction_slot() {
            p.revealed.hide();
        }
    }

    /// Reveals the truth, or hides it again: what a link's `reveal` key sets.
    fn set_revealed(&mut self, on: bool) {
        if on {
            self.reveal();
        } else {
            self.hide();
        }
    }

    /// Whether the truth is shown for a prediction under way.
    fn revealed(&self) -> bool {
        self.prediction()
            .is_some_and(|p| p.revealed.is_revealed(self.question()))
    }

    /// Whether the answer is kept back: a prediction under way, not yet revealed.
    fn answer_hidden(&self) -> bool {
        self.prediction().is_some() && !self.revealed()
    }

    /// Hides a truth revealed for another question.
    fn settle_prediction(&mut self) {
        let question = self.question();
        if let Some(p) = self.prediction_slot() {
            p.revealed.settle(question);
        }
    }
}

/// [`Predicts::prediction`] and [`Predicts::prediction_slot`] for a page that keeps its
/// prediction in the field `$field`.
macro_rules! prediction_in {
    ($field:ident) => {
        fn prediction(
            &self,
        ) -> Option<&$crate::pages::predict::Prediction<Self::Guess, Self::Question, Self::Of>> {
            self.$field.as_ref()
        }

        fn prediction_slot(
            &mut self,
        ) -> &mut Option<$crate::pages::predict::Prediction<Self::Guess, Self::Question, Self::Of>>
        {
            &mut self.$field
        }
    };
}
pub(crate) use prediction_in;

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
    fn a_guess_is_clamped_or_refused() {
        assert_eq!(
            clamped_guess(Vec2::new(50.0, -3.0), 10.0),
            Some(Vec2::new(10.0, -3.0))
        );
        assert_eq!(clamped_guess(Vec2::new(f32::NAN, 1.0), 10.0), None);
    }

    #[test]
    fn the_nearer_mark_is_grabbed_and_a_tie_goes_to_the_guess() {
        let joints = [Pos2::new(0.0, 0.0), Pos2::new(100.0, 0.0)];
        let at = |x| Pos2::new(x, 0.0);
        assert_eq!(grab(at(2.0), Some(at(10.0)), &joints), Some(Grab::Joint(0)));
        assert_eq!(grab(at(8.0), Some(at(10.0)), &joints), Some(Grab::Guess));
        assert_eq!(grab(at(5.0), Some(at(10.0)), &joints), Some(Grab::Guess));
        assert_eq!(grab(at(99.0), None, &joints), Some(Grab::Joint(1)));
        assert_eq!(grab(at(50.0), Some(at(10.0)), &joints), None);
    }

    #[test]
    fn verdicts_follow_the_two_distances() {
        assert_eq!(Verdict::of(0.1, 0.25, 0.75), Verdict::RightOn);
        assert_eq!(Verdict::of(0.5, 0.25, 0.75), Verdict::Close);
        assert_eq!(Verdict::of(0.8, 0.25, 0.75), Verdict::Far);
    }
}
