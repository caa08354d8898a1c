//! The centres page's link parameters, declared once.

use super::*;
use crate::link::{Exercises, param, question};
use exercise::EXERCISES;
use std::f32::consts::PI;

/// Every link parameter of the page, applied and written in this order.
#[rustfmt::skip]
pub(super) const PARAMS: &[Param<CentresPage>] = &[
    param! { "twist", "the forearm's twist about its own axis, radians", @"compare",
        number(-PI, PI), s.twist },
    param! { "bend", "the elbow's bend about z, radians", @"compare",
        number(-MAX_BEND, MAX_BEND), s.bend },
    param! { "mode", "the arms drawn: all three, LBS, DQS or centres of rotation alone, or plain DQS above DQS in two phases (scale)", @"compare",
        choice(Mode), s.mode },
    param! { "centres", "whether the centres are drawn inside the arm skinned about them", @"compare",
        bool, s.show_centres },
    param! { "sweep", "what the plots sweep: the bend (at the twist set) or the twist (at the bend set)", @"measure",
        choice(Sweep), s.sweep },
    param! { "vertex", "the vertex followed through the method", @"vertex",
        whole(0, arm::VERTEX_COUNT - 1), s.vertex },
    param! { "stretch", "how many times its length the forearm is stretched along its bone", @"scale",
        number(MIN_STRETCH, MAX_STRETCH), s.stretch },
    question(),
];

impl Exercises for CentresPage {
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
