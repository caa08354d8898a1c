//! The blending page's link parameters, declared once.

use super::*;
use crate::link::choice;

// Only what differs from the defaults is written. `falloff` and `width` each rebuild
// the weights from the falloff, so together they give the same arm as either order;
// `painted` comes after both, and after `normalise`, which decides whether the painted
// weights can be blended.
/// What `painted=` holds.
const PAINTED: &str = "weights packed by the app, in URL-safe base64";

/// Every link parameter of the page, applied and written in this order.
pub(super) const PARAMS: &[Param<BlendingPage>] = &[
    Param {
        key: "twist",
        doc: "the forearm's twist about its own axis, radians (kept within a turn)",
        cell: Some("compare"),
        access: Access::Number {
            min: -TAU,
            max: TAU,
            set: |s, twist| s.twist = twist.rem_euclid(TAU),
            get: |s| Some(s.twist),
        },
    },
    Param {
        key: "bend",
        doc: "the elbow's bend about z, radians",
        cell: Some("compare"),
        access: Access::Number {
            min: -MAX_BEND,
            max: MAX_BEND,
            set: |s, bend| s.bend = bend,
            get: |s| Some(s.bend),
        },
    },
    Param {
        key: "mode",
        doc: "the skinning drawn: linear, dual quaternion or both",
        cell: Some("compare"),
        access: choice!(Mode, set: |s, mode| s.mode = mode, get: |s| Some(s.mode)),
    },
    Param {
        key: "twist_bone",
        doc: "a third joint halfway along the forearm that takes half the twist",
        cell: Some("compare"),
        access: Access::Bool {
            set: |s, on| s.set_twist_bone(on),
            get: |s| s.twist_bone.then_some(true),
        },
    },
    Param {
        key: "bone",
        doc: "the bone whose weights the heat map shows and the brush paints (0 upper arm, 1 forearm, 2 the twist bone, which it adds)",
        cell: Some("weights"),
        access: Access::Whole {
            min: 0,
            max: arm::MAX_JOINTS - 1,
            set: |s, bone| {
                if bone >= s.rig().joint_count() {
                    s.set_twist_bone(true);
                }
                s.bone = bone;
            },
            get: |s| (s.bone != DEFAULT_BONE).then_some(s.bone),
        },
    },
    Param {
        key: "falloff",
        doc: "how weights fall off across the elbow",
        cell: Some("weights"),
        access: choice!(Falloff,
            set: |s, falloff| s.use_falloff(falloff, s.blend_width),
            get: |s| Some(s.falloff),
        ),
    },
    Param {
        key: "width",
        doc: "the width of the blend region across the elbow (at most 1 with the twist bone, so the two regions do not overlap)",
        cell: Some("weights"),
        access: Access::Number {
            min: 0.0,
            max: arm::BONE_LENGTH,
            set: |s, width| s.use_falloff(s.falloff, width),
            get: |s| (s.blend_width != arm::DEFAULT_BLEND_WIDTH).then_some(s.blend_width),
        },
    },
    Param {
        key: "heat",
        doc: "colour the arm by the chosen bone's weights",
        cell: Some("weights"),
        access: Access::Bool {
            set: |s, on| {
                s.heat_map = on;
                s.weights_changed();
            },
            get: |s| (!s.heat_map).then_some(false),
        },
    },
    Param {
        key: "normalise",
        doc: "keep each vertex's weights summing to 1 while painting",
        cell: Some("paint"),
        access: Access::Bool {
            set: |s, on| s.auto_normalise = on,
            get: |s| (!s.auto_normalise).then_some(false),
        },
    },
    Param {
        key: "painted",
        doc: "the weights the brush changed, packed by the app (copy the link to get it)",
        cell: Some("paint"),
        access: Access::Text {
            expected: PAINTED,
            set: |s, text| {
                s.set_painted_link(text)
                    .map_err(|why| format!("{PAINTED} ({why})"))
            },
            get: BlendingPage::painted_link,
        },
    },
    Param {
        key: "w",
        doc: "what the LBS shader does with w when weights do not sum to 1: divide by it (the default) or set it to 1",
        cell: Some("sum"),
        access: choice!(PositionW,
            set: |s, w| s.position_w = w,
            get: |s| Some(s.position_w),
        ),
    },
    Param {
        key: "weight_scale",
        doc: "multiplies every weight the shader reads, so each vertex's weights sum to this instead of 1",
        cell: Some("sum"),
        access: Access::Number {
            min: *WEIGHT_SCALE.start(),
            max: *WEIGHT_SCALE.end(),
            set: |s, scale| s.weight_scale = scale,
            get: |s| Some(s.weight_scale),
        },
    },
    Param {
        key: "vertex",
        doc: "the vertex inspected",
        cell: Some("vertex"),
        access: Access::Whole {
            min: 0,
            max: arm::VERTEX_COUNT - 1,
            set: |s, vertex| s.vertex = Some(vertex),
            get: |s| s.vertex,
        },
    },
    Param {
        key: "antipodal_check",
        doc: "flip quaternions into the first influence's half before adding them",
        cell: Some("antipodal"),
        access: Access::Bool {
            set: |s, on| s.antipodal_check = on,
            get: |s| (!s.antipodal_check).then_some(false),
        },
    },
    Param {
        key: "negate_forearm",
        doc: "upload the forearm's dual quaternion negated (the same rotation)",
        cell: Some("antipodal"),
        access: Access::Bool {
            set: |s, on| s.negate_forearm = on,
            get: |s| s.negate_forearm.then_some(true),
        },
    },
    Param {
        key: "ellipses",
        doc: "draw each vertex's deformation ellipse: a small circle on the arm, carried by the vertex's blended transform",
        cell: Some("ellipses"),
        access: Access::Bool {
            set: |s, on| s.ellipses = on,
            get: |s| s.ellipses.then_some(true),
        },
    },
];
