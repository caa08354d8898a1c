//! The normals page's link parameters, declared once.

use super::*;
use crate::link::choice;
use crate::link::{Exercises, question};

// Only what differs from the defaults is written. A link about one vertex opens at
// the tangent cell, one about an exercise at the check cell: `question` comes last
// so it wins.
/// Every link parameter of the page, applied and written in this order.
pub(super) const PARAMS: &[Param<NormalsPage>] = &[
    Param {
        key: "scale",
        doc: "the forearm's scale across the bone",
        cell: Some("compare"),
        access: Access::Number {
            min: *SCALE_RANGE.start(),
            max: *SCALE_RANGE.end(),
            set: |s, scale| s.scale = scale,
            get: |s| (s.scale != DEFAULT_SCALE).then_some(s.scale),
        },
    },
    Param {
        key: "method",
        doc: "the arms drawn: normals by the matrix, by its inverse transpose, or both",
        cell: Some("compare"),
        access: choice!(Show, set: |s, show| s.show = show, get: |s| Some(s.show)),
    },
    Param {
        key: "bend",
        doc: "the elbow's bend about z, radians",
        cell: Some("compare"),
        access: Access::Number {
            min: -MAX_BEND,
            max: MAX_BEND,
            set: |s, bend| s.bend = bend,
            get: |s| (s.bend != DEFAULT_BEND).then_some(s.bend),
        },
    },
    Param {
        key: "vertex",
        doc: "the vertex whose tangent is worked step by step",
        cell: None,
        access: Access::Whole {
            min: 0,
            max: data::VERTEX_COUNT - 1,
            set: |s, vertex| {
                s.vertex = Some(vertex);
                s.scroll_to.set(Some(Cell::Tangent.into()));
            },
            get: |s| s.vertex.filter(|v| *v != DEFAULT_VERTEX),
        },
    },
    Param {
        key: "lines",
        doc: "draw each arm's normals and tangents as short lines",
        cell: Some("compare"),
        access: Access::Bool {
            set: |s, on| s.show_lines = on,
            get: |s| (!s.show_lines).then_some(false),
        },
    },
    Param {
        key: "ellipses",
        doc: "draw deformation ellipses: small circles on the arm at rest, carried by each vertex's blended matrix",
        cell: Some("compare"),
        access: Access::Bool {
            set: |s, on| s.ellipses = on,
            get: |s| s.ellipses.then_some(true),
        },
    },
    question(),
];

impl Exercises for NormalsPage {
    const COUNT: usize = EXERCISES.len();

    fn exercise(&self) -> usize {
        self.exercise
    }

    fn show_exercise(&mut self, index: usize) {
        self.exercise = index;
        self.scroll_to.set(Some(Cell::Check.into()));
    }
}
