//! The model page's link parameters, declared once; their values in words (names or
//! numbers, forms, checks) are in `link_values.rs`.

use super::link_values::{
    ASSET_EXPECTED, CLIP_EXPECTED, INVERSE_BIND_FORM, JOINT_EXPECTED, LOCAL_FORM,
};
use super::morphs::MORPH_FORM;
use super::{Cell, DEFAULT_ASSET, MAX_SPEED, Method, ModelPage};
use crate::link::Param;
use crate::link::param;

/// The page's link parameters, applied in this order: `asset` first, since it resets
/// everything after it. A time in the link stops the clock there, so the link shows
/// the pose it names.
#[rustfmt::skip]
pub const PARAMS: &[Param<ModelPage>] = &[
    // With a file open the model is always written: the link says which.
    param! { "asset", "the model shown: a bundled one, or the file opened last", @"file",
        text(ASSET_EXPECTED),
        set: ModelPage::set_asset_text, get: ModelPage::asset_text },
    param! { "clip", "clip A, by name", @"clips", text(CLIP_EXPECTED),
        set: |s, text| {
            let clip = s.find_clip(text)?;
            s.set_clip(clip);
            Ok(())
        },
        get: |s| {
            (s.clip != 0 || s.asset != DEFAULT_ASSET || s.opened.is_some())
                .then(|| s.clip_link(s.clip))
                .flatten()
        } },
    param! { "clip_b", "clip B, blended in by `blend`", text(CLIP_EXPECTED),
        set: |s, text| {
            s.clip_b = Some(s.find_clip(text)?);
            s.scroll_to.set(Some(Cell::Blend.into()));
            Ok(())
        },
        get: |s| s.clip_b.and_then(|b| s.clip_link(b)) },
    param! { "blend", "how much of clip B (0 all clip A, 1 all clip B)",
        number(0.0, 1.0), s.blend },
    param! { "mask", "the joint whose subtree takes clip B, by name", text(JOINT_EXPECTED),
        set: |s, text| {
            s.mask = Some(s.find_joint(text)?);
            Ok(())
        },
        get: |s| s.mask.and_then(|j| s.joint_link(j)) },
    param! { "sign_check", "flip a quaternion more than half a turn away before blending",
        bool, s.sign_check },
    param! { "morph", "blend shapes (morph targets) held at a weight by hand, over the clip's", @"clips",
        text(MORPH_FORM),
        set: ModelPage::set_morph_text, get: ModelPage::morph_text },
    param! { "t", "clip A's time in seconds (stops the clock there)",
        text("a time in seconds within the clip"),
        set: ModelPage::set_time_text, get: ModelPage::time_text },
    param! { "speed", "playback speed, times real time (negative plays backwards)",
        number(-MAX_SPEED, MAX_SPEED), s.speed },
    param! { "joint", "the joint inspected, by name", text(JOINT_EXPECTED),
        set: |s, text| {
            s.joint = Some(s.find_joint(text)?);
            s.scroll_to.set(Some(Cell::Joint.into()));
            Ok(())
        },
        get: |s| s.joint.and_then(|j| s.joint_link(j)) },
    param! { "vertex", "the vertex inspected, counted across the skinned meshes",
        text("a vertex number of the model's skinned meshes"),
        set: ModelPage::set_vertex_text, get: ModelPage::vertex_text },
    param! { "heat", "colour the meshes by the picked joint's weights", bool, s.heat },
    param! { "brush", "the paint cell's weight brush: a drag paints the picked joint's weight", @"paint",
        bool, s.brush.on },
    param! { "method", "how the skinned meshes blend their joints: linear blending, dual quaternions (in two phases, carrying a scale), about centres of rotation, or plain dual quaternions (which drop a scale)",
        choice(Method), s.method },
    param! { "materials", "paint the meshes with the file's materials (colours and textures), or one tint a mesh",
        bool, s.materials },
    param! { "skeleton", "draw the skeleton over the model", @"skeleton", bool, s.show_skeleton },
    param! { "forget_inverse_bind", "leave the inverse bind matrices out of the palette",
        bool, s.forget_inverse_bind },
    param! { "local", "joints held by hand: their local transform replaces the clips'",
        text(LOCAL_FORM),
        set: ModelPage::set_held_text, get: ModelPage::held_text },
    param! { "inverse_bind", "inverse binds edited by hand, by joint (every skin that lists it)",
        text(INVERSE_BIND_FORM),
        set: ModelPage::set_inverse_binds_text, get: ModelPage::inverse_binds_text },
    
];
