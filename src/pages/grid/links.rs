//! The grid page's link parameters, declared once.

use super::*;
use crate::link::{Exercises, question};

// While the animation plays, the link names no angle: a link that changed every
// frame could not be copied, and browsers throttle address-bar updates.
/// Every link parameter of the page, applied and written in this order.
pub(super) const PARAMS: &[Param<GridPage>] = &[
    Param {
        key: "t",
        doc: "animation time in seconds; pauses there",
        cell: Some("controls"),
        access: Access::Number {
            min: 0.0,
            max: TAU,
            set: |s, t| {
                s.time = t;
                s.pause_at([data::animated_angle(t); BONE_COUNT]);
            },
            get: |_| None,
        },
    },
    Param {
        key: "angle",
        doc: "every bone's angle in radians; pauses",
        cell: Some("controls"),
        access: Access::Number {
            min: -TAU,
            max: TAU,
            set: |s, angle| s.pause_at([angle; BONE_COUNT]),
            get: |s| {
                (!s.playing && s.angles.iter().all(|a| *a == s.angles[0])).then_some(s.angles[0])
            },
        },
    },
    Param {
        key: "angles",
        doc: "one angle per bone in radians; pauses",
        cell: Some("controls"),
        access: Access::Numbers {
            count: BONE_COUNT,
            min: -TAU,
            max: TAU,
            set: |s, xs| {
                if let Ok(angles) = xs.try_into() {
                    s.pause_at(angles);
                }
            },
            get: |s| {
                (!s.playing && s.angles.iter().any(|a| *a != s.angles[0]))
                    .then(|| s.angles.to_vec())
            },
        },
    },
    Param {
        key: "bone",
        doc: "the bone whose matrices are shown",
        cell: Some("bone"),
        access: Access::Whole {
            min: 0,
            max: BONE_COUNT - 1,
            set: |s, bone| s.bone = bone,
            get: |s| Some(s.bone),
        },
    },
    Param {
        key: "vertex",
        doc: "the vertex inspected",
        cell: Some("vertex"),
        access: Access::Whole {
            min: 0,
            max: data::POSITIONS.len() - 1,
            set: |s, vertex| s.vertex = Some(vertex),
            get: |s| s.vertex,
        },
    },
    Param {
        key: "forget_inverse_bind",
        doc: "upload world matrices instead of gradients",
        cell: Some("forget"),
        access: Access::Bool {
            set: |s, on| s.forget_inverse_bind = on,
            get: |s| s.forget_inverse_bind.then_some(true),
        },
    },
    // After the angles and the switch: a reveal holds for the question they pose.
    Param {
        key: "predict",
        doc: "the vertex to predict: hidden until revealed; pauses",
        cell: None,
        access: Access::Whole {
            min: 0,
            max: data::POSITIONS.len() - 1,
            set: |s, vertex| {
                s.start_prediction(vertex);
                s.scroll_to.set(Some(Cell::Predict.into()));
            },
            get: |s| s.prediction.map(|p| p.vertex),
        },
    },
    Param {
        key: "guess",
        doc: "the guess x,y for the predicted vertex (vertex 2 if none is named)",
        cell: None,
        access: Access::Numbers {
            count: 2,
            min: -GUESS_LIMIT,
            max: GUESS_LIMIT,
            set: |s, xy| {
                if let [x, y] = xy {
                    s.prediction_mut().set_guess(Vec2::new(*x, *y));
                }
            },
            get: |s| {
                s.prediction
                    .filter(|p| p.guess != Prediction::start(p.vertex))
                    .map(|p| p.guess.to_array().to_vec())
            },
        },
    },
    Param {
        key: "reveal",
        doc: "show where the predicted vertex lands",
        cell: None,
        access: Access::Bool {
            set: |s, on| {
                if on {
                    s.reveal();
                } else if let Some(p) = &mut s.prediction {
                    p.revealed.hide();
                }
            },
            get: |s| s.revealed().then_some(true),
        },
    },
    question(),
];

impl Exercises for GridPage {
    const COUNT: usize = EXERCISES.len();

    fn exercise(&self) -> usize {
        self.exercise
    }

    fn show_exercise(&mut self, index: usize) {
        self.exercise = index;
    }
}
