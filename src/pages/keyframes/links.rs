//! The keyframes page's link parameters, declared once.

use super::*;
use crate::link::{Exercises, question};

/// Every link parameter of the page, applied and written in this order.
pub(super) const PARAMS: &[Param<KeyframesPage>] = &[
    // While playing, the time changes every frame: a link cannot hold it, and says
    // `play` in its place.
    Param {
        key: "time",
        doc: "the animation's time in seconds",
        cell: Some("player"),
        access: Access::Number {
            min: 0.0,
            max: DURATION,
            set: |s, time| s.time = time,
            get: |s| (!s.playing).then_some(s.time),
        },
    },
    Param {
        key: "play",
        doc: "whether the animation plays",
        cell: Some("player"),
        access: Access::Bool {
            set: |s, on| s.playing = on,
            get: |s| s.playing.then_some(true),
        },
    },
    Param {
        key: "speed",
        doc: "playback speed; negative plays backwards",
        cell: Some("player"),
        access: Access::Number {
            min: *SPEED_RANGE.start(),
            max: *SPEED_RANGE.end(),
            set: |s, speed| s.speed = speed,
            get: |s| Some(s.speed),
        },
    },
    Param {
        key: "joint",
        doc: "the joint whose keys the cells work through",
        cell: Some("sample"),
        access: Access::Choice {
            names: &JOINT_NAMES,
            set: |s, i| {
                if i < JOINT_NAMES.len() {
                    s.joint = i;
                }
            },
            get: |s| Some(s.joint),
        },
    },
    Param {
        key: "interpolation",
        doc: "how the keys are filled in between: STEP, LINEAR or CUBICSPLINE",
        cell: Some("curves"),
        access: Access::Choice {
            names: &data::INTERPOLATION_NAMES,
            set: |s, i| {
                if let Some((interpolation, _)) = data::INTERPOLATIONS.get(i) {
                    s.interpolation = *interpolation;
                }
            },
            get: |s| {
                let i = data::INTERPOLATIONS
                    .iter()
                    .position(|(i, _)| *i == s.interpolation);
                i.filter(|_| s.interpolation != Interpolation::Linear)
            },
        },
    },
    question(),
];

impl Exercises for KeyframesPage {
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
