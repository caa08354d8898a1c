//! The pipeline page's link parameters, declared once.

use super::*;
use crate::link::param;

use crate::link::{Exercises, question};
use exercise::EXERCISES;

/// Every link parameter of the page, applied and written in this order.
#[rustfmt::skip]
pub(super) const PARAMS: &[Param<PipelinePage>] = &[
    param! { "bend", "the elbow's bend about z, radians", @"pipeline",
        number(-MAX_BEND, MAX_BEND), s.bend },
    param! { "joint", "the joint whose matrices the stages show", @"pipeline",
        names(&["upper_arm", "forearm"]),
        set: |s, i| {
            if i < JOINT_NAMES.len() {
                s.joint = i;
            }
        },
        get: |s| Some(s.joint) },
    param! { "vertex", "the vertex followed from the file to the pixel", @"pipeline",
        whole(0, arm::VERTEX_COUNT - 1),
        set: |s, vertex| s.vertex = vertex,
        get: |s| Some(s.vertex) },
    question(),
];

impl Exercises for PipelinePage {
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
