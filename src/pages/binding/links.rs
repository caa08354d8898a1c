//! The binding page's link parameters, declared once.

use super::*;
use crate::link::param;
use crate::link::{Exercises, question};
use crate::pages::predict::Predicts;

// Only what differs from the defaults is written. A link opens at the cell it is
// about: `question` wins, then `predict`, `guess`, `reveal`, `scrub` or
// `forget_inverse_bind` (the same cell), then `rebind`, then the stage's first cell
// (for `stage` or `inverse_bind`); the order below makes it so.
// `inverse_bind` follows `rebind`, which captures every inverse bind afresh.
/// Every link parameter of the page, applied and written in this order.
#[rustfmt::skip]
pub(super) const PARAMS: &[Param<BindingPage>] = &[
    param! { "stage", "the stage the viewport shows", choice(Stage),
        set: |s, stage| { s.stage = stage; s.scroll_to(stage.first_cell()); },
        get: |s| Some(s.stage) },
    param! { "angles", "the pose: the chest, neck and head turns in radians",
        numbers(JOINT_COUNT, -TAU, TAU),
        set: |s, xs| {
            if let Ok(angles) = xs.try_into() {
                s.angles = angles;
            }
        },
        get: |s| Some(s.angles.to_vec()) },
    param! { "rebind", "the three turns the inverse binds were captured at, radians",
        numbers(JOINT_COUNT, -TAU, TAU),
        set: |s, xs| {
            if let Ok(angles) = xs.try_into() {
                s.bind_at(angles);
                s.scroll_to(Cell::Rebind);
            }
        },
        get: |s| Some(s.rebind.to_vec()) },
    param! { "inverse_bind", "inverse binds edited by hand; each must have an inverse",
        text(INVERSE_BIND_FORM),
        set: |s, text| {
            for (joint, m) in read_inverse_binds(text)? {
                if let Some(slot) = s.joint_from_bind.get_mut(joint) {
                    *slot = m;
                }
            }
            if s.scroll_to.target().is_none() {
                s.scroll_to(s.stage.first_cell());
            }
            Ok(())
        },
        get: write_inverse_binds },
    param! { "joint", "the joint whose matrices are shown", names(&JOINT_NAMES), s.joint },
    param! { "forget_inverse_bind", "stage 2 uploads world matrices instead of world · inverse bind",
        bool,
        set: |s, on| {
            s.forget_inverse_bind = on;
            s.scroll_to(Cell::Forget);
        },
        get: |s| Some(s.forget_inverse_bind) },
    param! { "stored", "stage 1 also draws the stored numbers with no skeleton", bool,
        set: |s, on| {
            s.show_stored = on;
            s.scroll_to(Cell::JointSpace);
        },
        get: |s| Some(s.show_stored) },
    param! { "scrub", "how many factors of the head's W · B⁻¹ act on the head vertex, from the right",
        whole(0, scrub::STEPS - 1),
        set: |s, k| {
            s.scrub = Some(k);
            s.scroll_to(Cell::Forget);
        },
        get: |s| s.scrub_step() },
    // After the angles, the inverse binds and the switch: a reveal holds for the
    // question they pose.
    param! { "predict", "predict where the head vertex lands in stage 2: hidden until revealed",
        bool,
        set: |s, on| {
            s.prediction = on.then(|| s.fresh());
            s.scroll_to(Cell::Forget);
        },
        get: |s| Some(s.prediction.is_some()) },
    param! { "guess", "the guess x,y for the head vertex (starts predicting)",
        numbers(2, -predict::GUESS_LIMIT, predict::GUESS_LIMIT),
        set: |s, xs| {
            if let [x, y] = xs {
                s.prediction_mut().set_guess(Vec2::new(*x, *y));
                s.scroll_to(Cell::Forget);
            }
        },
        get: |s| {
            s.prediction
                .filter(|p| p.guess != predict::Prediction::START)
                .map(|p| p.guess.to_array().to_vec())
        } },
    param! { "reveal", "show where the head vertex lands and how far the guess is", bool,
        set: |s, on| {
            s.set_revealed(on);
            if on {
                s.scroll_to(Cell::Forget);
            }
        },
        get: |s| Some(s.revealed()) },
    question(),
];

impl Exercises for BindingPage {
    const COUNT: usize = EXERCISES.len();

    fn exercise(&self) -> usize {
        self.exercise
    }

    fn show_exercise(&mut self, index: usize) {
        self.exercise = index;
        self.scroll_to(Cell::Check);
    }
}
