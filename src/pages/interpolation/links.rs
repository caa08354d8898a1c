//! The interpolation page's link parameters, declared once.

use super::*;
use crate::link::choice;
use crate::link::{Access, Exercises, question};

// Every key shapes the question a prediction asks: `predict`, `guess` and `reveal`
// come after them, so a reveal holds for the question the link asks.
/// Every link parameter of the page, applied and written in this order.
pub(super) const PARAMS: &[Param<InterpolationPage>] = &[
    Param {
        key: "b",
        doc: "orientation B as yaw, pitch, roll in radians",
        cell: Some("interpolate"),
        access: Access::Numbers {
            count: 3,
            min: -PI,
            max: PI,
            set: |s, xs| {
                if let Ok(b) = xs.try_into() {
                    s.target = b;
                }
            },
            get: |s| (s.target != DEFAULT_TARGET).then(|| s.target.to_vec()),
        },
    },
    Param {
        key: "method",
        doc: "how A goes to B",
        cell: Some("interpolate"),
        access: choice!(Interp,
            set: |s, method| s.method = method,
            get: |s| Some(s.method),
        ),
    },
    Param {
        key: "t",
        doc: "how far from A to B",
        cell: Some("interpolate"),
        access: Access::Number {
            min: 0.0,
            max: 1.0,
            set: |s, t| s.t = t,
            get: |s| Some(s.t),
        },
    },
    Param {
        key: "flip",
        doc: "store B as −q",
        cell: Some("interpolate"),
        access: Access::Bool {
            set: |s, on| s.flip = on,
            get: |s| s.flip.then_some(true),
        },
    },
    Param {
        key: "shortest",
        doc: "negate B when A · B < 0, the short way round",
        cell: Some("interpolate"),
        access: Access::Bool {
            set: |s, on| s.shortest = on,
            get: |s| (!s.shortest).then_some(false),
        },
    },
    Param {
        key: "circle",
        doc: "the half-angle circle's A and B: turns about z, radians",
        cell: Some("half_angle"),
        access: Access::Numbers {
            count: 2,
            min: -TAU,
            max: TAU,
            set: |s, xs| {
                if let [a, b] = *xs {
                    s.circle = [a, b];
                }
            },
            get: |s| (s.circle != DEFAULT_CIRCLE).then(|| s.circle.to_vec()),
        },
    },
    // After every key that shapes the question: a reveal holds for the question asked.
    Param {
        key: "predict",
        doc: "guess the nose's turn at t before the page shows it",
        cell: Some("interpolate"),
        access: Access::Bool {
            set: |s, on| {
                if on {
                    s.start_prediction();
                } else {
                    s.prediction = None;
                }
            },
            get: |s| s.prediction.is_some().then_some(true),
        },
    },
    Param {
        key: "guess",
        doc: "the predicted turn of the nose from A, degrees; starts predicting",
        cell: Some("interpolate"),
        access: Access::Number {
            min: 0.0,
            max: GUESS_LIMIT,
            set: |s, degrees| s.prediction_mut().set_guess(degrees),
            get: |s| s.prediction.map(|p| p.guess).filter(|g| *g != 0.0),
        },
    },
    Param {
        key: "reveal",
        doc: "show the nose's turn and how far the guess is from it",
        cell: Some("interpolate"),
        access: Access::Bool {
            set: |s, on| {
                if on {
                    s.reveal();
                } else if let Some(p) = &mut s.prediction {
                    p.revealed.hide();
                }
            },
            get: |s| (s.prediction.is_some() && !s.answer_hidden()).then_some(true),
        },
    },
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
