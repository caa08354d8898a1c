//! The normals page's link parameters, declared once.

use super::*;
use crate::link::param;
use crate::link::{Exercises, question};

// Only what differs from the defaults is written. A link about one vertex opens at
// the tangent cell, one about an exercise at the check cell: `question` comes last
// so it wins.
/// Every link parameter of the page, applied and written in this order.
#[rustfmt::skip]
pub(super) const PARAMS: &[Param<NormalsPage>] = &[
    param! { "scale", "the forearm's scale across the bone", @"compare",
        number(*SCALE_RANGE.start(), *SCALE_RANGE.end()), s.scale },
    param! { "method", "the arms drawn: normals by the matrix, by its inverse transpose, or both",
        @"compare", choice(Show), s.show },
    param! { "bend", "the elbow's bend about z, radians", @"compare",
        number(-MAX_BEND, MAX_BEND), s.bend },
    param! { "vertex", "the vertex whose tangent is worked step by step", @"tangent", whole(0, data::VERTEX_COUNT - 1),
        set: |s, vertex| {
            s.vertex = Some(vertex);
            s.scroll_to.set(Some(Cell::Tangent.into()));
        },
        get: |s| s.vertex },
    param! { "lines", "draw each arm's normals and tangents as short lines", @"compare",
        bool, s.show_lines },
    param! { "ellipses", "draw deformation ellipses: small circles on the arm at rest, carried by each vertex's blended matrix",
        @"compare", bool, s.ellipses },
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
