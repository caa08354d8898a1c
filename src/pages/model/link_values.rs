//! The model page's link values in words: clips and joints by name (or number, when a
//! name cannot stand in a link), the model, a time checked against the clip, the
//! inspected vertex, joints held by hand and inverse binds edited by hand. The keys
//! themselves are declared in `links.rs`.

use super::{Asset, Cell, DEFAULT_ASSET, ModelPage, NO_FILE};
use crate::link::{Named, is_link_value, numbers};
use crate::pages::joint_link::read_list;
use crate::pages::local_transform::{rounded, trs_problem};
use glam::{Mat4, Vec3};
use skin::clip::Transform;
use skin::explain::trs::Trs;
use skin::matrix::checked_inverse;

/// A name for a link: the name itself when a link can hold it and it names one thing,
/// else its index (both read back).
pub(super) fn link_name<'a>(
    names: impl Iterator<Item = &'a str> + Clone,
    index: usize,
) -> Option<String> {
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
pub(super) fn find_name<'a>(
    names: impl Iterator<Item = &'a str> + Clone,
    text: &str,
) -> Option<usize> {
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
pub(super) const LOCAL_FORM: &str = "entries like `Head:0,1.2,0,0,0.5,0,1,1,1` (a joint, then translation, \
                          rotation in radians and scale) joined by `;`";
/// What `inverse_bind` holds.
pub(super) const INVERSE_BIND_FORM: &str =
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
pub(super) const ASSET_EXPECTED: &str = "simple_skin, robot, fox, or file (the file opened last)";
/// What a clip parameter takes; the refusal adds the model's clip names.
pub(super) const CLIP_EXPECTED: &str = "the name (or number) of one of the model's clips";
/// What a joint parameter takes; the refusal adds the model's joint names.
pub(super) const JOINT_EXPECTED: &str = "the name (or number) of one of the model's joints";

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

    /// `asset=`: a bundled model, or the file opened last.
    pub(super) fn set_asset_text(&mut self, text: &str) -> Result<(), String> {
        let asset = Asset::ALL
            .iter()
            .find(|a| a.slug().eq_ignore_ascii_case(text))
            .ok_or(ASSET_EXPECTED)?;
        if *asset == Asset::File && self.opened.is_none() {
            return Err(NO_FILE.to_owned());
        }
        self.set_asset(*asset);
        Ok(())
    }

    /// The model in a link: always once a file is open, so the link says which.
    pub(super) fn asset_text(&self) -> Option<String> {
        (self.asset != DEFAULT_ASSET || self.opened.is_some()).then(|| self.asset.slug().to_owned())
    }

    /// `t=`: a time within the clip (from 0), which stops the clock there.
    pub(super) fn set_time_text(&mut self, text: &str) -> Result<(), String> {
        // From 0 as well: before its first key a clip holds that key (glTF), and
        // most exporters put the first key a frame after 0.
        let (start, end) = self.time_range();
        let start = start.min(0.0);
        let t = crate::link::parse_number(text)
            .filter(|t| (start..=end).contains(t))
            .ok_or_else(|| {
                let clip = self.clip_names().get(self.clip).copied().unwrap_or("A");
                format!("a time in seconds within the clip `{clip}`, from {start} to {end}")
            })?;
        self.time = t;
        self.playing = false;
        Ok(())
    }

    /// The time in a link, while the clock is stopped.
    pub(super) fn time_text(&self) -> Option<String> {
        (!self.playing).then(|| crate::link::number(self.time))
    }

    /// `vertex=`: a vertex of the skinned meshes, counted across them.
    pub(super) fn set_vertex_text(&mut self, text: &str) -> Result<(), String> {
        let count = self.vertex_count();
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
        self.vertex = Some(v);
        self.scroll_to.set(Some(Cell::Vertex.into()));
        Ok(())
    }

    /// The inspected vertex in a link.
    pub(super) fn vertex_text(&self) -> Option<String> {
        self.vertex.map(|v| v.to_string())
    }

    /// `local=`: joints held by hand, each a translation, a rotation in radians and a scale.
    pub(super) fn set_held_text(&mut self, text: &str) -> Result<(), String> {
        let check = |n: &[f32]| {
            let trs = local_trs(n);
            trs_problem(&trs)
        };
        let find = |name: &str| self.find_joint(name);
        let entries = read_list(text, LOCAL_FORM, 9, find, check)?;
        for (joint, n) in entries {
            let trs = local_trs(&n);
            self.held.insert(
                joint,
                Transform {
                    translation: trs.translation,
                    rotation: trs.quat(),
                    scale: trs.scale,
                },
            );
        }
        self.scroll_to.set(Some(Cell::Joint.into()));
        Ok(())
    }

    /// The joints held by hand in a link.
    pub(super) fn held_text(&self) -> Option<String> {
        let entries: Vec<String> = self
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
                    self.joint_link(joint)?,
                    numbers(n.as_flattened())
                ))
            })
            .collect();
        (!entries.is_empty()).then(|| entries.join(";"))
    }

    /// `inverse_bind=`: inverse binds edited by hand, each a matrix with an inverse.
    pub(super) fn set_inverse_binds_text(&mut self, text: &str) -> Result<(), String> {
        let check = |n: &[f32]| {
            checked_inverse(&Mat4::from_cols_slice(n))
                .err()
                .map(|e| e.to_string())
        };
        let find = |name: &str| self.find_joint(name);
        let entries = read_list(text, INVERSE_BIND_FORM, 16, find, check)?;
        for (joint, n) in entries {
            self.inverse_binds.insert(joint, Mat4::from_cols_slice(&n));
        }
        self.scroll_to.set(Some(Cell::Joint.into()));
        Ok(())
    }

    /// The inverse binds edited by hand in a link.
    pub(super) fn inverse_binds_text(&self) -> Option<String> {
        let entries: Vec<String> = self
            .inverse_binds
            .iter()
            .filter_map(|(&joint, m)| {
                Some(format!(
                    "{}:{}",
                    self.joint_link(joint)?,
                    numbers(&m.to_cols_array())
                ))
            })
            .collect();
        (!entries.is_empty()).then(|| entries.join(";"))
    }
}
