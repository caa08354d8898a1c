//! The blending page's link parameters, declared once.

use super::*;
use crate::link::param;

// Only what differs from the defaults is written. `falloff` and `width` each rebuild
// the weights from the falloff, so together they give the same arm as either order;
// `painted` comes after both, and after `normalise`, which decides whether the painted
// weights can be blended.
/// What `painted=` holds.
const PAINTED: &str = "weights packed by the app, in URL-safe base64";

/// Every link parameter of the page, applied and written in this order.
#[rustfmt::skip]
pub(super) const PARAMS: &[Param<BlendingPage>] = &[
    param! { "twist", "the forearm's twist about its own axis, radians (kept within a turn)", @"compare",
        number(-TAU, TAU),
        set: |s, twist| s.twist = twist.rem_euclid(TAU),
        get: |s| Some(s.twist) },
    param! { "bend", "the elbow's bend about z, radians", @"compare",
        number(-MAX_BEND, MAX_BEND), s.bend },
    param! { "mode", "the skinning drawn: linear, dual quaternion or both", @"compare",
        choice(Mode), s.mode },
    param! { "twist_bone", "a third joint halfway along the forearm that takes half the twist", @"compare",
        bool,
        set: |s, on| s.set_twist_bone(on),
        get: |s| Some(s.twist_bone) },
    param! { "bone", "the bone whose weights the heat map shows and the brush paints (0 upper arm, 1 forearm, 2 the twist bone, which it adds)", @"weights",
        whole(0, arm::MAX_JOINTS - 1),
        set: |s, bone| {
            if bone >= s.rig().joint_count() {
                s.set_twist_bone(true);
            }
            s.bone = bone;
        },
        get: |s| Some(s.bone) },
    param! { "falloff", "how weights fall off across the elbow", @"weights", choice(Falloff),
        set: |s, falloff| s.use_falloff(falloff, s.blend_width),
        get: |s| Some(s.falloff) },
    param! { "width", "the width of the blend region across the elbow (at most 1 with the twist bone, so the two regions do not overlap)", @"weights",
        number(0.0, arm::BONE_LENGTH),
        set: |s, width| s.use_falloff(s.falloff, width),
        get: |s| Some(s.blend_width) },
    param! { "heat", "colour the arm by the chosen bone's weights", @"weights", bool,
        set: |s, on| {
            s.heat_map = on;
            s.weights_changed();
        },
        get: |s| Some(s.heat_map) },
    param! { "normalise", "keep each vertex's weights summing to 1 while painting", @"paint",
        bool, s.auto_normalise },
    param! { "painted", "the weights the brush changed, packed by the app (copy the link to get it)", @"paint",
        text(PAINTED),
        set: |s, text| {
            s.set_painted_link(text)
                .map_err(|why| format!("{PAINTED} ({why})"))
        },
        get: BlendingPage::painted_link },
    param! { "w", "what the LBS shader does with w when weights do not sum to 1: divide by it (the default) or set it to 1", @"sum",
        choice(PositionW), s.position_w },
    param! { "weight_scale", "multiplies every weight the shader reads, so each vertex's weights sum to this instead of 1", @"sum",
        number(*WEIGHT_SCALE.start(), *WEIGHT_SCALE.end()), s.weight_scale },
    param! { "vertex", "the vertex inspected", @"vertex", whole(0, arm::VERTEX_COUNT - 1),
        set: |s, vertex| s.vertex = Some(vertex),
        get: |s| s.vertex },
    param! { "antipodal_check", "flip quaternions into the first influence's half before adding them", @"antipodal",
        bool, s.antipodal_check },
    param! { "negate_forearm", "upload the forearm's dual quaternion negated (the same rotation)", @"antipodal",
        bool, s.negate_forearm },
    param! { "ellipses", "draw each vertex's deformation ellipse: a small circle on the arm, carried by the vertex's blended transform", @"ellipses",
        bool, s.ellipses },
];
