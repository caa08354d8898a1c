//! The quaternions page's link parameters, declared once.

use super::*;
use crate::link::choice;
use crate::link::{Exercises, question};

// A link that sets only one section's values opens that section: `show` says so
// first and wins; `question` comes last and scrolls to the check cell.
/// Every link parameter of the page, applied and written in this order.
pub(super) const PARAMS: &[Param<QuaternionsPage>] = &[
    Param {
        key: "show",
        doc: "the part of the lesson the viewport shows",
        cell: None,
        // Written whenever the other keys would open another section: a gimbal view
        // with LERP chosen must not reopen on the interpolation.
        access: choice!(Section,
            set: |s, section| {
                s.show_linked = true;
                s.show_linked_section(section);
            },
            get: |s| (s.section != s.implied_section()).then_some(s.section),
        ),
    },
    Param {
        key: "yaw",
        doc: "yaw of the gimbal and the quaternion, radians",
        cell: Some("gimbal"),
        access: Access::Number {
            min: -PI,
            max: PI,
            set: |s, a| s.euler[0] = a,
            get: |s| (s.euler[0] != DEFAULT_EULER[0]).then_some(s.euler[0]),
        },
    },
    Param {
        key: "pitch",
        doc: "pitch of the gimbal and the quaternion, radians",
        cell: Some("gimbal"),
        access: Access::Number {
            min: -FRAC_PI_2,
            max: FRAC_PI_2,
            set: |s, a| s.euler[1] = a,
            get: |s| (s.euler[1] != DEFAULT_EULER[1]).then_some(s.euler[1]),
        },
    },
    Param {
        key: "roll",
        doc: "roll of the gimbal and the quaternion, radians",
        cell: Some("gimbal"),
        access: Access::Number {
            min: -PI,
            max: PI,
            set: |s, a| s.euler[2] = a,
            get: |s| (s.euler[2] != DEFAULT_EULER[2]).then_some(s.euler[2]),
        },
    },
    Param {
        key: "b",
        doc: "orientation B as yaw, pitch, roll in radians",
        cell: None,
        access: Access::Numbers {
            count: 3,
            min: -PI,
            max: PI,
            set: |s, xs| {
                if let Ok(b) = xs.try_into() {
                    s.target = b;
                    s.imply(Section::Interpolate);
                }
            },
            get: |s| (s.target != DEFAULT_TARGET).then(|| s.target.to_vec()),
        },
    },
    Param {
        key: "method",
        doc: "how A goes to B",
        cell: None,
        access: choice!(Interp,
            set: |s, method| {
                s.method = method;
                s.imply(Section::Interpolate);
            },
            get: |s| Some(s.method),
        ),
    },
    Param {
        key: "t",
        doc: "how far from A to B",
        cell: None,
        access: Access::Number {
            min: 0.0,
            max: 1.0,
            set: |s, t| {
                s.t = t;
                s.imply(Section::Interpolate);
            },
            get: |s| Some(s.t),
        },
    },
    Param {
        key: "flip",
        doc: "store B as −q",
        cell: None,
        access: Access::Bool {
            set: |s, on| s.flip = on,
            get: |s| s.flip.then_some(true),
        },
    },
    Param {
        key: "shortest",
        doc: "negate B when A · B < 0, the short way round",
        cell: None,
        access: Access::Bool {
            set: |s, on| s.shortest = on,
            get: |s| (!s.shortest).then_some(false),
        },
    },
    Param {
        key: "circle",
        doc: "the half-angle circle's A and B: turns about z, radians",
        cell: None,
        access: Access::Numbers {
            count: 2,
            min: -TAU,
            max: TAU,
            set: |s, xs| {
                if let [a, b] = *xs {
                    s.circle = [a, b];
                    s.scroll_to.set(Some(Cell::HalfAngle.into()));
                }
            },
            get: |s| (s.circle != DEFAULT_CIRCLE).then(|| s.circle.to_vec()),
        },
    },
    // After every key that shapes the question: a reveal holds for the question asked.
    Param {
        key: "predict",
        doc: "guess the nose's turn at t before the page shows it",
        cell: None,
        access: Access::Bool {
            set: |s, on| {
                if on {
                    s.start_prediction();
                    s.imply(Section::Interpolate);
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
        cell: None,
        access: Access::Number {
            min: 0.0,
            max: GUESS_LIMIT,
            set: |s, degrees| {
                s.prediction_mut().set_guess(degrees);
                s.imply(Section::Interpolate);
            },
            get: |s| s.prediction.map(|p| p.guess).filter(|g| *g != 0.0),
        },
    },
    Param {
        key: "reveal",
        doc: "show the nose's turn and how far the guess is from it",
        cell: None,
        access: Access::Bool {
            set: |s, on| {
                if on {
                    s.reveal();
                    s.imply(Section::Interpolate);
                } else if let Some(p) = &mut s.prediction {
                    p.revealed.hide();
                }
            },
            get: |s| (s.prediction.is_some() && !s.answer_hidden()).then_some(true),
        },
    },
    question(),
];

impl Exercises for QuaternionsPage {
    const COUNT: usize = EXERCISE_COUNT;

    fn exercise(&self) -> usize {
        self.exercise
    }

    fn show_exercise(&mut self, index: usize) {
        self.exercise = index;
        self.check = Check::default();
        self.scroll_to.set(Some(Cell::Check.into()));
    }
}
