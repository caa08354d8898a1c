//! The shapes page's link parameters, declared once.

use super::*;
use crate::link::{Exercises, param, question};
use exercise::EXERCISES;

/// Every link parameter of the page, applied and written in this order.
#[rustfmt::skip]
pub(super) const PARAMS: &[Param<ShapesPage>] = &[
    param! { "bend", "the elbow's bend about z, radians (one way only: the way the corrective mends)", @"corrective",
        number(0.0, MAX_BEND), s.bend },
    param! { "made_at", "the bend the corrective was made for, radians: its weight is 1 there", @"corrective",
        number(MIN_MADE_AT, MAX_BEND), s.made_at },
    param! { "driver", "how the bend drives the corrective's weight: in a straight line, or with one minus its cosine, as the pinch grows", @"corrective",
        choice(Driver), s.driver },
    param! { "fix", "the corrective's weight, set by hand (without it, the bend drives the weight)", @"corrective",
        number(*WEIGHT_RANGE.start(), *WEIGHT_RANGE.end()),
        set: |s, w| {
            s.fix = w;
            s.drive = false;
        },
        get: |s| (!s.drive).then_some(s.fix) },
    param! { "show", "the arms drawn: all three, or LBS, LBS with the corrective, or DQS alone", @"corrective",
        choice(Show), s.show },
    param! { "muscle", "the muscle shape's weight", @"shape",
        number(*WEIGHT_RANGE.start(), *WEIGHT_RANGE.end()), s.muscle },
    param! { "vertex", "the vertex followed through the shapes and the skin", @"shape",
        whole(0, arm::VERTEX_COUNT - 1), s.vertex },
    question(),
];

impl Exercises for ShapesPage {
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
