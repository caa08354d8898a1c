//! The hierarchy page's link parameters, declared once.

use super::*;
use crate::link::param;
use crate::link::{Exercises, question};

// The pose in a link: only the joints that differ from the T-pose, one field a key.
/// Every link parameter of the page, applied and written in this order.
#[rustfmt::skip]
pub(super) const PARAMS: &[Param<HierarchyPage>] = &[
    param! { "joint", "the joint shown in the local and chain cells (without it, the last joint the pose keys name)",
        names(&JOINT_NAMES),
        set: |s, joint| {
            s.selected = joint;
            s.joint_linked = true;
        },
        get: |s| (s.selected != implied_joint(s)).then_some(s.selected) },
    param! { "rot", "local rotations in radians of the joints that differ from the T-pose", @"local",
        text(Field::Rotation.form()),
        set: |s, text| read_field(s, Field::Rotation, text),
        get: |s| write_field(s, Field::Rotation) },
    param! { "pos", "local translations of the joints that differ from the T-pose", @"local",
        text(Field::Translation.form()),
        set: |s, text| read_field(s, Field::Translation, text),
        get: |s| write_field(s, Field::Translation) },
    param! { "scale", "local scales of the joints that differ from the T-pose", @"local",
        text(Field::Scale.form()),
        set: |s, text| read_field(s, Field::Scale, text),
        get: |s| write_field(s, Field::Scale) },
    param! { "order", "the product order; wrong adds local · parent world as a ghost", @"order",
        names(&ORDERS),
        set: |s, order| s.wrong_order = order == 1,
        get: |s| s.wrong_order.then_some(1) },
    param! { "scrub", "how many factors of the joint's chain act on its origin, from the right (at most its length)", @"chain",
        whole(0, MOST_FACTORS),
        set: |s, k| s.scrub = Some(k.min(s.factors())),
        get: |s| s.scrub_step() },
    question(),
];

impl Exercises for HierarchyPage {
    const COUNT: usize = EXERCISES.len();

    fn exercise(&self) -> usize {
        self.exercise
    }

    fn show_exercise(&mut self, index: usize) {
        self.exercise = index;
    }
}
