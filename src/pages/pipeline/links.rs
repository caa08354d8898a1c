//! The pipeline page's link parameters, declared once.

use super::*;
use crate::link::Access;
use crate::link::{Exercises, question};
use exercise::EXERCISES;

/// Every link parameter of the page, applied and written in this order.
pub(super) const PARAMS: &[Param<PipelinePage>] = &[
    Param {
        key: "bend",
        doc: "the elbow's bend about z, radians",
        cell: Some("pipeline"),
        access: Access::Number {
            min: -MAX_BEND,
            max: MAX_BEND,
            set: |s, bend| s.bend = bend,
            get: |s| (s.bend != DEFAULT_BEND).then_some(s.bend),
        },
    },
    Param {
        key: "joint",
        doc: "the joint whose matrices the stages show",
        cell: Some("pipeline"),
        access: Access::Choice {
            names: &["upper_arm", "forearm"],
            set: |s, i| {
                if i < JOINT_NAMES.len() {
                    s.joint = i;
                }
            },
            get: |s| Some(s.joint),
        },
    },
    Param {
        key: "vertex",
        doc: "the vertex followed from the file to the pixel",
        cell: Some("pipeline"),
        access: Access::Whole {
            min: 0,
            max: arm::VERTEX_COUNT - 1,
            set: |s, vertex| s.vertex = vertex,
            get: |s| (s.vertex != default_vertex()).then_some(s.vertex),
        },
    },
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
