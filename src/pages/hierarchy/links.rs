//! The hierarchy page's link parameters, declared once.

use super::*;
use crate::link::{Exercises, question};

// The pose in a link: only the joints that differ from the T-pose, one field a key.
/// Every link parameter of the page, applied and written in this order.
pub(super) const PARAMS: &[Param<HierarchyPage>] = &[
    Param {
        key: "joint",
        doc: "the joint shown in the local and chain cells",
        cell: None,
        access: Access::Choice {
            names: &JOINT_NAMES,
            set: |s, joint| s.selected = joint,
            get: |s| (s.selected != DEFAULT_JOINT).then_some(s.selected),
        },
    },
    Param {
        key: "rot",
        doc: "local rotations in radians of the joints that differ from the T-pose",
        cell: Some("local"),
        access: Access::Text {
            expected: Field::Rotation.form(),
            set: |s, text| read_field(s, Field::Rotation, text),
            get: |s| write_field(s, Field::Rotation),
        },
    },
    Param {
        key: "pos",
        doc: "local translations of the joints that differ from the T-pose",
        cell: Some("local"),
        access: Access::Text {
            expected: Field::Translation.form(),
            set: |s, text| read_field(s, Field::Translation, text),
            get: |s| write_field(s, Field::Translation),
        },
    },
    Param {
        key: "scale",
        doc: "local scales of the joints that differ from the T-pose",
        cell: Some("local"),
        access: Access::Text {
            expected: Field::Scale.form(),
            set: |s, text| read_field(s, Field::Scale, text),
            get: |s| write_field(s, Field::Scale),
        },
    },
    Param {
        key: "order",
        doc: "the product order; wrong adds local · parent world as a ghost",
        cell: Some("order"),
        access: Access::Choice {
            names: &ORDERS,
            set: |s, order| s.wrong_order = order == 1,
            get: |s| s.wrong_order.then_some(1),
        },
    },
    Param {
        key: "scrub",
        doc: "how many factors of the joint's chain act on its origin, from the right (at most its length)",
        cell: Some("chain"),
        access: Access::Whole {
            min: 0,
            max: MOST_FACTORS,
            set: |s, k| s.scrub = Some(k.min(s.factors())),
            get: |s| s.scrub_step(),
        },
    },
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
