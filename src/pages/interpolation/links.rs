//! The interpolation page's link parameters, declared once.

use super::*;
use crate::link::param;
use crate::link::{Exercises, question};

// Every key shapes the question a prediction asks: `predict`, `guess` and `reveal`
// come after them, so a reveal holds for the question the link asks.
/// Every link parameter of the page, applied and written in this order.
#[rustfmt::skip]
pub(super) const PARAMS: &[Param<InterpolationPage>] = &[
    param! { "b", "orientation B as yaw, pitch, roll in radians", @"interpolate",
        numbers(3, -PI, PI),
        set: |s, xs| {
            if let Ok(b) = xs.try_into() {
                s.target = b;
            }
        },
        get: |s| Some(s.target.to_vec()) },
    param! { "method", "how A goes to B", @"interpolate", choice(Interp), s.method },
    param! { "t", "how far from A to B", @"interpolate", number(0.0, 1.0), s.t },
    param! { "flip", "store B as −q", @"interpolate", bool, s.flip },
    param! { "shortest", "negate B when A · B < 0, the short way round", @"interpolate",
        bool, s.shortest },
    param! { "circle", "the half-angle circle's A and B: turns about z, radians", @"half_angle",
        numbers(2, -TAU, TAU),
        set: |s, xs| {
            if let [a, b] = *xs {
                s.circle = [a, b];
            }
        },
        get: |s| Some(s.circle.to_vec()) },
    // After every key that shapes the question: a reveal holds for the question asked.
    param! { "predict", "guess the nose's turn at t before the page shows it", @"length", bool,
        set: |s, on| {
            if on {
                s.start_prediction();
            } else {
                s.prediction = None;
            }
        },
        get: |s| Some(s.prediction.is_some()) },
    param! { "guess", "the predicted turn of the nose from A, degrees; starts predicting", @"length",
        number(0.0, GUESS_LIMIT),
        set: |s, degrees| s.prediction_mut().set_guess(degrees),
        get: |s| s.prediction.map(|p| p.guess).filter(|g| *g != 0.0) },
    param! { "reveal", "show the nose's turn and how far the guess is from it", @"length",
        bool,
        set: |s, on| s.set_revealed(on),
        get: |s| Some(s.revealed()) },
    question(),
];

impl Exercises for InterpolationPage {
    const COUNT: usize = EXERCISES.len();

    fn exercise(&self) -> usize {
        self.exercise
    }

    fn show_exercise(&mut self, index: usize) {
        self.exercise = index;
        self.check = Check::default();
        self.scroll_to.set(Some(Cell::Check.into()));
    }
}
