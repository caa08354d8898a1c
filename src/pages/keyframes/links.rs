//! The keyframes page's link parameters, declared once.

use super::*;
use crate::link::param;
use crate::link::{Exercises, question};

/// Every link parameter of the page, applied and written in this order.
#[rustfmt::skip]
pub(super) const PARAMS: &[Param<KeyframesPage>] = &[
    // While playing, the time changes every frame: a link cannot hold it, and says
    // `play` in its place.
    param! { "time", "the animation's time in seconds", @"player", number(0.0, DURATION),
        set: |s, time| s.time = time,
        get: |s| (!s.playing).then_some(s.time) },
    param! { "play", "whether the animation plays", @"player", bool, s.playing },
    param! { "speed", "playback speed; negative plays backwards", @"player",
        number(*SPEED_RANGE.start(), *SPEED_RANGE.end()), s.speed },
    param! { "joint", "the joint whose keys the cells work through", @"sample", names(&JOINT_NAMES),
        set: |s, i| {
            if i < JOINT_NAMES.len() {
                s.joint = i;
            }
        },
        get: |s| Some(s.joint) },
    param! { "interpolation", "how the keys are filled in between: STEP, LINEAR or CUBICSPLINE", @"curves",
        names(&data::INTERPOLATION_NAMES),
        set: |s, i| {
            if let Some((interpolation, _)) = data::INTERPOLATIONS.get(i) {
                s.interpolation = *interpolation;
            }
        },
        get: |s| {
            let i = data::INTERPOLATIONS
                .iter()
                .position(|(i, _)| *i == s.interpolation);
            i.filter(|_| s.interpolation != Interpolation::Linear)
        } },
    question(),
];

impl Exercises for KeyframesPage {
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
