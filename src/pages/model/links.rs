//! The model page's link parameters: clips and joints by name (or number, when a name
//! cannot stand in a link), times checked against the clip.

use super::{Asset, Cell, DEFAULT_ASSET, MAX_SPEED, ModelPage, NO_FILE};
use crate::link::param;
use crate::link::{Named, Param, is_link_value, numbers};
use crate::pages::joint_link::read_list;
use crate::pages::local_transform::{rounded, trs_problem};
use glam::{Mat4, Vec3};
use skin::clip::Transform;
use skin::explain::trs::Trs;
use skin::matrix::checked_inverse;

/// A name for a link: the name itself when a link can hold it and it names one thing,
/// else its index (both read back).
fn link_name<'a>(names: impl Iterator<Item = &'a str> + Clone, index: usize) -> Option<String> {
    let name = names.clone().nth(index)?;
    let unique = names.filter(|n| *n == name).count() == 1;
    let numeric = name.parse::<usize>().is_ok();
    Some(if unique && !numeric && is_link_value(name) {
        name.to_owned()
    } else {
        index.to_string()
    })
}

/// Finds `text` among `names`, by name or by index; a `+` may stand for a space, as
/// forms write one (`animation+0` for `animation 0`).
fn find_name<'a>(names: impl Iterator<Item = &'a str> + Clone, text: &str) -> Option<usize> {
    let count = names.clone().count();
    match text.parse::<usize>() {
        Ok(i) if i < count => Some(i),
        _ => names.clone().position(|n| n == text).or_else(|| {
            let spaced = text.replace('+', " ");
            names.clone().position(|n| n == spaced)
        }),
    }
}

/// What `local` holds: a joint, then translation, rotation (radians, R = Rx·Ry·Rz)
/// and scale.
const LOCAL_FORM: &str = "entries like `Head:0,1.2,0,0,0.5,0,1,1,1` (a joint, then translation, \
                          rotation in radians and scale) joined by `;`";
/// What `inverse_bind` holds.
const INVERSE_BIND_FORM: &str =
    "entries like `Head:` and 16 numbers (a matrix, column by column) joined by `;`";

/// The local transform nine link numbers give: translation, rotation, scale.
fn local_trs(n: &[f32]) -> Trs {
    let v = |k: usize| Vec3::from_slice(&n[3 * k..3 * k + 3]);
    Trs {
        translation: v(0),
        rotation: v(1),
        scale: v(2),
    }
}

/// What the asset parameter takes.
const ASSET_EXPECTED: &str = "simple_skin, robot, fox, or file (the file opened last)";
/// What a clip parameter takes; the refusal adds the model's clip names.
const CLIP_EXPECTED: &str = "the name (or number) of one of the model's clips";
/// What a joint parameter takes; the refusal adds the model's joint names.
const JOINT_EXPECTED: &str = "the name (or number) of one of the model's joints";

impl ModelPage {
    pub(super) fn clip_link(&self, clip: usize) -> Option<String> {
        link_name(self.model.clips.iter().map(|c| c.name()), clip)
    }

    pub(super) fn joint_link(&self, joint: usize) -> Option<String> {
        link_name(self.model.joints.iter().map(|j| j.name.as_str()), joint)
    }

    pub(super) fn find_clip(&self, text: &str) -> Result<usize, String> {
        find_name(self.model.clips.iter().map(|c| c.name()), text)
            .ok_or_else(|| format!("{CLIP_EXPECTED}: {}", self.clip_names().join(", ")))
    }

    pub(super) fn find_joint(&self, text: &str) -> Result<usize, String> {
        find_name(self.model.joints.iter().map(|j| j.name.as_str()), text)
            .ok_or_else(|| format!("{JOINT_EXPECTED}: {}", self.joint_names().join(", ")))
    }
}

/// The page's link parameters, applied in this order: `asset` first, since it resets
/// everything after it. A time in the link stops the clock there, so the link shows
/// the pose it names.
#[rustfmt::skip]
pub const PARAMS: &[Param<ModelPage>] = &[
    // With a file open the model is always written: the link says which.
    param! { "asset", "the model shown: a bundled one, or the file opened last", @"file",
        text(ASSET_EXPECTED),
        set: |s, text| {
            let asset = Asset::ALL
                .iter()
                .find(|a| a.slug().eq_ignore_ascii_case(text))
                .ok_or(ASSET_EXPECTED)?;
            if *asset == Asset::File && s.opened.is_none() {
                return Err(NO_FILE.to_owned());
            }
            s.set_asset(*asset);
            Ok(())
        },
        get: |s| {
            (s.asset != DEFAULT_ASSET || s.opened.is_some()).then(|| s.asset.slug().to_owned())
        } },
    // Another model's first clip is written, so a link names every key.
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
    param! { "t", "clip A's time in seconds (stops the clock there)",
        text("a time in seconds within the clip"),
        set: |s, text| {
            // From 0 as well: before its first key a clip holds that key (glTF), and
            // most exporters put the first key a frame after 0.
            let (start, end) = s.time_range();
            let start = start.min(0.0);
            let t = crate::link::parse_number(text)
                .filter(|t| (start..=end).contains(t))
                .ok_or_else(|| {
                    let clip = s.clip_names().get(s.clip).copied().unwrap_or("A");
                    format!("a time in seconds within the clip `{clip}`, from {start} to {end}")
                })?;
            s.time = t;
            s.playing = false;
            Ok(())
        },
        get: |s| (!s.playing).then(|| crate::link::number(s.time)) },
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
        set: |s, text| {
            let count = s.vertex_count();
            let v = text
                .parse::<usize>()
                .ok()
                .filter(|v| *v < count)
                .ok_or_else(|| {
                    format!(
                        "a vertex number of the model's skinned meshes, from 0 to {}",
                        count.saturating_sub(1)
                    )
                })?;
            s.vertex = Some(v);
            s.scroll_to.set(Some(Cell::Vertex.into()));
            Ok(())
        },
        get: |s| s.vertex.map(|v| v.to_string()) },
    param! { "heat", "colour the meshes by the picked joint's weights", bool, s.heat },
    param! { "materials", "paint the meshes with the file's materials (colours and textures), or one tint a mesh",
        bool, s.materials },
    param! { "skeleton", "draw the skeleton over the model", @"skeleton", bool, s.show_skeleton },
    param! { "forget_inverse_bind", "leave the inverse bind matrices out of the palette",
        bool, s.forget_inverse_bind },
    param! { "local", "joints held by hand: their local transform replaces the clips'",
        text(LOCAL_FORM),
        set: |s, text| {
            let check = |n: &[f32]| {
                let trs = local_trs(n);
                trs_problem(&trs)
            };
            let find = |name: &str| s.find_joint(name);
            let entries = read_list(text, LOCAL_FORM, 9, find, check)?;
            for (joint, n) in entries {
                let trs = local_trs(&n);
                s.held.insert(
                    joint,
                    Transform {
                        translation: trs.translation,
                        rotation: trs.quat(),
                        scale: trs.scale,
                    },
                );
            }
            s.scroll_to.set(Some(Cell::Joint.into()));
            Ok(())
        },
        get: |s| {
            let entries: Vec<String> = s
                .held
                .iter()
                .filter_map(|(&joint, held)| {
                    let mut trs = Trs {
                        translation: held.translation,
                        scale: held.scale,
                        ..Trs::default()
                    };
                    trs.set_quat(held.rotation);
                    let trs = rounded(trs);
                    let n = [trs.translation, trs.rotation, trs.scale].map(|v| v.to_array());
                    Some(format!(
                        "{}:{}",
                        s.joint_link(joint)?,
                        numbers(n.as_flattened())
                    ))
                })
                .collect();
            (!entries.is_empty()).then(|| entries.join(";"))
        } },
    param! { "inverse_bind", "inverse binds edited by hand, by joint (every skin that lists it)",
        text(INVERSE_BIND_FORM),
        set: |s, text| {
            let check = |n: &[f32]| {
                checked_inverse(&Mat4::from_cols_slice(n))
                    .err()
                    .map(|e| e.to_string())
            };
            let find = |name: &str| s.find_joint(name);
            let entries = read_list(text, INVERSE_BIND_FORM, 16, find, check)?;
            for (joint, n) in entries {
                s.inverse_binds.insert(joint, Mat4::from_cols_slice(&n));
            }
            s.scroll_to.set(Some(Cell::Joint.into()));
            Ok(())
        },
        get: |s| {
            let entries: Vec<String> = s
                .inverse_binds
                .iter()
                .filter_map(|(&joint, m)| {
                    Some(format!(
                        "{}:{}",
                        s.joint_link(joint)?,
                        numbers(&m.to_cols_array())
                    ))
                })
                .collect();
            (!entries.is_empty()).then(|| entries.join(";"))
        } },
];
