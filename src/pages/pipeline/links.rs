//! The pipeline page's link parameters, declared once.

use super::*;
use crate::link::Access;
use exercise::EXERCISES;

/// Every link parameter of the page, applied and written in this order.
pub(super) const PARAMS: &[Param<PipelinePage>] = &[
    Param {
        key: "bend",
        doc: "the elbow's bend about z, radians",
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
        access: Access::Choice {
            names: &["upper_arm", "forearm"],
            set: |s, i| {
                if i < JOINT_NAMES.len() {
                    s.joint = i;
                }
            },
            get: |s| (s.joint != 1).then_some(s.joint),
        },
    },
    Param {
        key: "vertex",
        doc: "the vertex followed from the file to the pixel",
        access: Access::Whole {
            min: 0,
            max: arm::VERTEX_COUNT - 1,
            set: |s, vertex| s.vertex = vertex,
            get: |s| (s.vertex != default_vertex()).then_some(s.vertex),
        },
    },
    Param {
        key: "question",
        doc: "the check-yourself exercise",
        access: Access::Whole {
            min: 1,
            max: EXERCISES.len(),
            set: |s, q| {
                s.exercise = q - 1;
                s.check = Check::default();
                s.scroll_to.set(Some(Cell::Check.into()));
            },
            get: |s| (s.exercise != 0).then_some(s.exercise + 1),
        },
    },
];
