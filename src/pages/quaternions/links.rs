//! The quaternions page's link parameters, declared once.

use super::*;

// A link that sets only one section's values opens that section: `show` says so
// first and wins; the keyframe keys come after the interpolation keys and win over
// them; `question` comes last and scrolls to the check cell.
/// Every link parameter of the page, applied and written in this order.
pub(super) const PARAMS: &[Param<QuaternionsPage>] = &[
    Param {
        key: "show",
        doc: "the part of the lesson the viewport shows",
        access: Access::Choice {
            names: Section::NAMES,
            set: |s, i| {
                if let Some(section) = Section::ALL.get(i) {
                    s.show_linked = true;
                    s.show_linked_section(*section);
                }
            },
            // Written whenever the other keys would open another section: a
            // gimbal view with LERP chosen must not reopen on the interpolation.
            get: |s| {
                (s.section != s.implied_section())
                    .then(|| Section::ALL.iter().position(|x| *x == s.section))
                    .flatten()
            },
        },
    },
    Param {
        key: "yaw",
        doc: "yaw of the gimbal and the quaternion, radians",
        access: Access::Number {
            min: -PI,
            max: PI,
            set: |s, a| s.euler[0] = a,
            get: |s| (s.euler[0] != DEFAULT_EULER[0]).then_some(s.euler[0]),
        },
    },
    Param {
        key: "pitch",
        doc: "pitch of the gimbal and the quaternion, radians",
        access: Access::Number {
            min: -FRAC_PI_2,
            max: FRAC_PI_2,
            set: |s, a| s.euler[1] = a,
            get: |s| (s.euler[1] != DEFAULT_EULER[1]).then_some(s.euler[1]),
        },
    },
    Param {
        key: "roll",
        doc: "roll of the gimbal and the quaternion, radians",
        access: Access::Number {
            min: -PI,
            max: PI,
            set: |s, a| s.euler[2] = a,
            get: |s| (s.euler[2] != DEFAULT_EULER[2]).then_some(s.euler[2]),
        },
    },
    Param {
        key: "b",
        doc: "orientation B as yaw, pitch, roll in radians",
        access: Access::Numbers {
            count: 3,
            min: -PI,
            max: PI,
            set: |s, xs| {
                if let Ok(b) = xs.try_into() {
                    s.target = b;
                    s.imply(Section::Interpolate);
                }
            },
            get: |s| (s.target != DEFAULT_TARGET).then(|| s.target.to_vec()),
        },
    },
    Param {
        key: "method",
        doc: "how A goes to B",
        access: Access::Choice {
            names: &METHOD_NAMES,
            set: |s, i| {
                if let Some(method) = Interp::ALL.get(i) {
                    s.method = *method;
                    s.imply(Section::Interpolate);
                }
            },
            get: |s| {
                Interp::ALL
                    .iter()
                    .position(|m| *m == s.method)
                    .filter(|_| s.method != Interp::Slerp)
            },
        },
    },
    Param {
        key: "t",
        doc: "how far from A to B",
        access: Access::Number {
            min: 0.0,
            max: 1.0,
            set: |s, t| {
                s.t = t;
                s.imply(Section::Interpolate);
            },
            get: |s| (s.t != 0.5).then_some(s.t),
        },
    },
    Param {
        key: "flip",
        doc: "store B as −q",
        access: Access::Bool {
            set: |s, on| s.flip = on,
            get: |s| s.flip.then_some(true),
        },
    },
    Param {
        key: "shortest",
        doc: "negate B when A · B < 0, the short way round",
        access: Access::Bool {
            set: |s, on| s.shortest = on,
            get: |s| (!s.shortest).then_some(false),
        },
    },
    // While playing, the time changes every frame: a link cannot hold it, and says
    // `play` in its place.
    Param {
        key: "time",
        doc: "the animation's time in seconds",
        access: Access::Number {
            min: 0.0,
            max: DURATION,
            set: |s, time| {
                s.time = time;
                s.imply(Section::Keyframes);
            },
            get: |s| (!s.playing && s.time != 0.0).then_some(s.time),
        },
    },
    Param {
        key: "play",
        doc: "whether the animation plays",
        access: Access::Bool {
            set: |s, on| {
                s.playing = on;
                s.imply(Section::Keyframes);
            },
            get: |s| s.playing.then_some(true),
        },
    },
    Param {
        key: "speed",
        doc: "playback speed; negative plays backwards",
        access: Access::Number {
            min: *SPEED_RANGE.start(),
            max: *SPEED_RANGE.end(),
            set: |s, speed| {
                s.speed = speed;
                s.imply(Section::Keyframes);
            },
            get: |s| (s.speed != 1.0).then_some(s.speed),
        },
    },
    Param {
        key: "joint",
        doc: "the joint whose keys the keyframe cell works through",
        access: Access::Choice {
            names: &JOINT_NAMES,
            set: |s, i| {
                if i < JOINT_NAMES.len() {
                    s.joint = i;
                    s.imply(Section::Keyframes);
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
