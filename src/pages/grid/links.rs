//! The grid page's link parameters, declared once.

use super::*;
use crate::link::param;
use crate::link::{Exercises, question};

// While the animation plays, the link names no angle: a link that changed every
// frame could not be copied, and browsers throttle address-bar updates.
/// Every link parameter of the page, applied and written in this order.
#[rustfmt::skip]
pub(super) const PARAMS: &[Param<GridPage>] = &[
    param! { "t", "animation time in seconds; pauses there", @"controls", number(0.0, TAU),
        set: |s, t| {
            s.time = t;
            s.pause_at([data::animated_angle(t); BONE_COUNT]);
        },
        get: |_| None },
    param! { "angle", "every bone's angle in radians; pauses", @"controls", number(-TAU, TAU),
        set: |s, angle| s.pause_at([angle; BONE_COUNT]),
        get: |s| {
            (!s.playing && s.angles.iter().all(|a| *a == s.angles[0])).then_some(s.angles[0])
        } },
    param! { "angles", "one angle per bone in radians; pauses", @"controls",
        numbers(BONE_COUNT, -TAU, TAU),
        set: |s, xs| {
            if let Ok(angles) = xs.try_into() {
                s.pause_at(angles);
            }
        },
        get: |s| {
            (!s.playing && s.angles.iter().any(|a| *a != s.angles[0]))
                .then(|| s.angles.to_vec())
        } },
    param! { "bone", "the bone whose matrices are shown", @"bone",
        whole(0, BONE_COUNT - 1), s.bone },
    param! { "vertex", "the vertex inspected", @"vertex", whole(0, data::POSITIONS.len() - 1),
        set: |s, vertex| s.vertex = Some(vertex),
        get: |s| s.vertex },
    param! { "forget_inverse_bind", "upload world matrices instead of gradients", @"forget",
        bool, s.forget_inverse_bind },
    // After the angles and the switch: a reveal holds for the question they pose.
    param! { "predict", "the vertex to predict: hidden until revealed; pauses", @"predict",
        whole(0, data::POSITIONS.len() - 1),
        set: |s, vertex| {
            s.start_prediction(vertex);
            s.scroll_to.set(Some(Cell::Predict.into()));
        },
        get: |s| s.prediction.map(|p| p.vertex()) },
    param! { "guess", "the guess x,y for the predicted vertex (vertex 2 if none is named)", @"predict",
        numbers(2, -GUESS_LIMIT, GUESS_LIMIT),
        set: |s, xy| {
            if let [x, y] = xy {
                s.prediction_mut().set_guess(Vec2::new(*x, *y));
            }
        },
        get: |s| {
            s.prediction
                .filter(|p| p.guess != Prediction::start(p.vertex()))
                .map(|p| p.guess.to_array().to_vec())
        } },
    param! { "reveal", "show where the predicted vertex lands", @"predict", bool,
        set: |s, on| s.set_revealed(on),
        get: |s| Some(s.revealed()) },
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
