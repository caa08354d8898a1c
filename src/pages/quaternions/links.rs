//! The quaternions page's link parameters, declared once.

use super::*;
use crate::link::param;
use crate::link::{Exercises, question};

// `show` comes first: the gimbal and the quaternion share the three angles, so the
// link says which of the two the viewport shows; `question` comes last and scrolls to
// the check cell.
/// Every link parameter of the page, applied and written in this order.
#[rustfmt::skip]
pub(super) const PARAMS: &[Param<QuaternionsPage>] = &[
    param! { "show", "the part of the lesson the viewport shows", choice(Section),
        set: |s, section| s.show(section),
        get: |s| Some(s.section) },
    param! { "yaw", "yaw of the gimbal and the quaternion, radians", @"gimbal", number(-PI, PI),
        set: |s, a| s.euler[0] = a,
        get: |s| Some(s.euler[0]) },
    param! { "pitch", "pitch of the gimbal and the quaternion, radians", @"gimbal",
        number(-FRAC_PI_2, FRAC_PI_2),
        set: |s, a| s.euler[1] = a,
        get: |s| Some(s.euler[1]) },
    param! { "roll", "roll of the gimbal and the quaternion, radians", @"gimbal", number(-PI, PI),
        set: |s, a| s.euler[2] = a,
        get: |s| Some(s.euler[2]) },
    question(),
];

impl Exercises for QuaternionsPage {
    const COUNT: usize = EXERCISE_COUNT;

    fn exercise(&self) -> usize {
        self.exercise
    }

    fn show_exercise(&mut self, index: usize) {
        self.exercise = index;
        self.check = Check::default();
        self.scroll_to.set(Some(Cell::Check.into()));
    }
}
