//! The keyframes page's link parameters, declared once.

use super::*;

/// Every link parameter of the page, applied and written in this order.
pub(super) const PARAMS: &[Param<KeyframesPage>] = &[
    // While playing, the time changes every frame: a link cannot hold it, and says
    // `play` in its place.
    Param {
        key: "time",
        doc: "the animation's time in seconds",
        access: Access::Number {
            min: 0.0,
            max: DURATION,
            set: |s, time| s.time = time,
            get: |s| (!s.playing && s.time != 0.0).then_some(s.time),
        },
    },
    Param {
        key: "play",
        doc: "whether the animation plays",
        access: Access::Bool {
            set: |s, on| s.playing = on,
            get: |s| s.playing.then_some(true),
        },
    },
    Param {
        key: "speed",
        doc: "playback speed; negative plays backwards",
        access: Access::Number {
            min: *SPEED_RANGE.start(),
            max: *SPEED_RANGE.end(),
            set: |s, speed| s.speed = speed,
            get: |s| (s.speed != 1.0).then_some(s.speed),
        },
    },
    Param {
        key: "joint",
        doc: "the joint whose keys the cells work through",
        access: Access::Choice {
            names: &JOINT_NAMES,
            set: |s, i| {
                if i < JOINT_NAMES.len() {
                    s.joint = i;
                }
            },
            get: |s| (s.joint != 0).then_some(s.joint),
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
