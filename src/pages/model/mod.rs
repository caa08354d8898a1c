//! A real glTF character: the file's skins and clips drawn by the skinning shaders,
//! its skeleton and weights inspected, and two clips blended.

mod cells;
mod check;
pub mod data;
mod view;

use crate::gl::MeshData;
use crate::link::{Access, Named, Param, is_link_value};
use crate::model::Model;
use crate::page::{Lesson, PageInfo};
use crate::ui::Camera;
use crate::ui::check::Check;
pub use data::Asset;
use std::sync::Arc;

/// The page's cells, in chapter order; their snake_case names are the chapter's cell
/// markers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, strum::EnumString, strum::VariantNames)]
#[strum(serialize_all = "snake_case")]
pub enum Cell {
    File,
    Clips,
    Skeleton,
    Joint,
    Vertex,
    Blend,
    Check,
}

/// The fastest playback either way, times real time.
pub const MAX_SPEED: f32 = 4.0;

/// The page's state.
pub struct ModelPage {
    /// The bundled model shown.
    pub asset: Asset,
    /// The loaded model (empty when it failed to load: `load_error` says why).
    pub model: Arc<Model>,
    /// Why the bundled model could not be loaded.
    pub load_error: Option<String>,
    /// Clip A, an index into the model's clips.
    pub clip: usize,
    /// Clip A's time, seconds on its own clock.
    pub time: f32,
    /// Playback speed, times real time; negative plays backwards.
    pub speed: f32,
    /// Whether time moves.
    pub playing: bool,
    /// Start again at the end (otherwise stop there).
    pub looping: bool,
    /// Clip B, blended in by `blend`.
    pub clip_b: Option<usize>,
    /// How much of clip B: 0 is all A, 1 all B.
    pub blend: f32,
    /// The joint whose subtree takes clip B (every joint when `None`).
    pub mask: Option<usize>,
    /// Flip a quaternion that is more than half a turn from the other before blending.
    pub sign_check: bool,
    /// The joint picked (a joint of the model, not of a skin).
    pub joint: Option<usize>,
    /// The vertex picked, counted across every skinned mesh.
    pub vertex: Option<usize>,
    /// Colour the meshes by the picked joint's weights.
    pub heat: bool,
    /// Leave the inverse bind matrices out of the palette.
    pub forget_inverse_bind: bool,
    /// Draw the skeleton over the meshes.
    pub show_skeleton: bool,
    check: Check,
    camera: Camera,
    /// Meshes as drawn and the heat joint they were coloured for.
    drawn: Option<(Option<usize>, DrawnMeshes)>,
    /// Where the viewport was drawn last frame (for tests).
    pub viewport_rect: egui::Rect,
}

/// The meshes as uploaded: skinned meshes first, then rigid ones.
type DrawnMeshes = Arc<Vec<Arc<MeshData>>>;

/// The model the page opens with.
const DEFAULT_ASSET: Asset = Asset::Robot;

impl Default for ModelPage {
    fn default() -> Self {
        let mut page = Self {
            asset: DEFAULT_ASSET,
            model: data::empty_model(),
            load_error: None,
            clip: 0,
            time: 0.0,
            speed: 1.0,
            playing: true,
            looping: true,
            clip_b: None,
            blend: 0.5,
            mask: None,
            sign_check: true,
            joint: None,
            vertex: None,
            heat: false,
            forget_inverse_bind: false,
            show_skeleton: true,
            check: Check::default(),
            camera: Camera::Orbit(crate::ui::OrbitCamera::default()),
            drawn: None,
            viewport_rect: egui::Rect::NOTHING,
        };
        page.set_asset(DEFAULT_ASSET);
        page
    }
}

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

/// Finds `text` among `names`, by name or by index.
fn find_name<'a>(mut names: impl Iterator<Item = &'a str> + Clone, text: &str) -> Option<usize> {
    let count = names.clone().count();
    match text.parse::<usize>() {
        Ok(i) if i < count => Some(i),
        _ => names.position(|n| n == text),
    }
}

impl ModelPage {
    /// Shows bundled model `asset` from its start: first clip at its first key, no
    /// blend, nothing picked, the camera framing it.
    pub fn set_asset(&mut self, asset: Asset) {
        self.asset = asset;
        let (model, error) = match data::loaded(asset) {
            Ok(model) => (model, None),
            Err(e) => (data::empty_model(), Some(e)),
        };
        self.camera = Camera::Orbit(data::framing(&model));
        self.model = model;
        self.load_error = error;
        self.drawn = None;
        self.clip_b = None;
        self.mask = None;
        self.joint = None;
        self.vertex = None;
        self.set_clip(0);
    }

    /// Plays clip `clip` from its start.
    pub fn set_clip(&mut self, clip: usize) {
        self.clip = clip;
        self.time = self.model.clips.get(clip).map_or(0.0, |c| c.start());
    }

    /// The names of the model's clips, in file order.
    pub fn clip_names(&self) -> Vec<&str> {
        self.model.clips.iter().map(|c| c.name()).collect()
    }

    /// The names of the model's joints, in joint order.
    pub fn joint_names(&self) -> Vec<&str> {
        self.model.joints.iter().map(|j| j.name.as_str()).collect()
    }

    fn clip_link(&self, clip: usize) -> Option<String> {
        link_name(self.model.clips.iter().map(|c| c.name()), clip)
    }

    fn joint_link(&self, joint: usize) -> Option<String> {
        link_name(self.model.joints.iter().map(|j| j.name.as_str()), joint)
    }

    fn find_clip(&self, text: &str) -> Result<usize, String> {
        find_name(self.model.clips.iter().map(|c| c.name()), text)
            .ok_or_else(|| format!("{CLIP_EXPECTED}: {}", self.clip_names().join(", ")))
    }

    fn find_joint(&self, text: &str) -> Result<usize, String> {
        find_name(self.model.joints.iter().map(|j| j.name.as_str()), text)
            .ok_or_else(|| format!("{JOINT_EXPECTED}: {}", self.joint_names().join(", ")))
    }

    /// Clip A's first and last key times.
    pub fn time_range(&self) -> (f32, f32) {
        self.model
            .clips
            .get(self.clip)
            .map_or((0.0, 0.0), |c| (c.start(), c.end()))
    }

    /// Moves time on by `dt` seconds of real time, at the page's speed.
    pub fn advance(&mut self, dt: f32) {
        let (start, end) = self.time_range();
        let duration = end - start;
        let step = dt * self.speed;
        if duration <= 0.0 || !step.is_finite() {
            return;
        }
        let t = self.time + step;
        self.time = if self.looping {
            start + (t - start).rem_euclid(duration)
        } else {
            if !(start..=end).contains(&t) {
                self.playing = false;
            }
            t.clamp(start, end)
        };
    }
}

/// What a clip parameter takes; the refusal adds the model's clip names.
const CLIP_EXPECTED: &str = "the name (or number) of one of the model's clips";
/// What a joint parameter takes; the refusal adds the model's joint names.
const JOINT_EXPECTED: &str = "the name (or number) of one of the model's joints";

impl Lesson for ModelPage {
    const INFO: &'static PageInfo = &PageInfo {
        slug: "model",
        chapter: include_str!("../../../chapters/model.md"),
    };

    // `asset` first: it resets everything after it. A time in the link stops the clock
    // there, so the link shows the pose it names.
    const PARAMS: &'static [Param<Self>] = &[
        Param {
            key: "asset",
            doc: "the bundled model shown",
            access: Access::Choice {
                names: Asset::NAMES,
                set: |s, i| {
                    if let Some(asset) = Asset::ALL.get(i) {
                        s.set_asset(*asset);
                    }
                },
                get: |s| {
                    Asset::ALL
                        .iter()
                        .position(|a| *a == s.asset)
                        .filter(|_| s.asset != DEFAULT_ASSET)
                },
            },
        },
        Param {
            key: "clip",
            doc: "clip A, by name",
            access: Access::Text {
                expected: CLIP_EXPECTED,
                set: |s, text| {
                    let clip = s.find_clip(text)?;
                    s.set_clip(clip);
                    Ok(())
                },
                // Another model's first clip is written, so a link names every key.
                get: |s| {
                    (s.clip != 0 || s.asset != DEFAULT_ASSET)
                        .then(|| s.clip_link(s.clip))
                        .flatten()
                },
            },
        },
        Param {
            key: "clip_b",
            doc: "clip B, blended in by `blend`",
            access: Access::Text {
                expected: CLIP_EXPECTED,
                set: |s, text| {
                    s.clip_b = Some(s.find_clip(text)?);
                    Ok(())
                },
                get: |s| s.clip_b.and_then(|b| s.clip_link(b)),
            },
        },
        Param {
            key: "blend",
            doc: "how much of clip B (0 all A, 1 all B)",
            access: Access::Number {
                min: 0.0,
                max: 1.0,
                set: |s, w| s.blend = w,
                get: |s| (s.blend != 0.5).then_some(s.blend),
            },
        },
        Param {
            key: "mask",
            doc: "the joint whose subtree takes clip B, by name",
            access: Access::Text {
                expected: JOINT_EXPECTED,
                set: |s, text| {
                    s.mask = Some(s.find_joint(text)?);
                    Ok(())
                },
                get: |s| s.mask.and_then(|j| s.joint_link(j)),
            },
        },
        Param {
            key: "sign_check",
            doc: "flip a quaternion more than half a turn away before blending",
            access: Access::Bool {
                set: |s, on| s.sign_check = on,
                get: |s| (!s.sign_check).then_some(false),
            },
        },
        Param {
            key: "t",
            doc: "clip A's time in seconds (stops the clock there)",
            access: Access::Text {
                expected: "a time in seconds within clip A",
                set: |s, text| {
                    let (start, end) = s.time_range();
                    let t = crate::link::parse_number(text)
                        .filter(|t| (start..=end).contains(t))
                        .ok_or_else(|| {
                            format!("a time in seconds within clip A, from {start} to {end}")
                        })?;
                    s.time = t;
                    s.playing = false;
                    Ok(())
                },
                get: |s| (!s.playing).then(|| crate::link::number(s.time)),
            },
        },
        Param {
            key: "speed",
            doc: "playback speed, times real time (negative plays backwards)",
            access: Access::Number {
                min: -MAX_SPEED,
                max: MAX_SPEED,
                set: |s, speed| s.speed = speed,
                get: |s| (s.speed != 1.0).then_some(s.speed),
            },
        },
        Param {
            key: "joint",
            doc: "the joint inspected, by name",
            access: Access::Text {
                expected: JOINT_EXPECTED,
                set: |s, text| {
                    s.joint = Some(s.find_joint(text)?);
                    Ok(())
                },
                get: |s| s.joint.and_then(|j| s.joint_link(j)),
            },
        },
        Param {
            key: "vertex",
            doc: "the vertex inspected, counted across the skinned meshes",
            access: Access::Text {
                expected: "a vertex number of the model's skinned meshes",
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
                    Ok(())
                },
                get: |s| s.vertex.map(|v| v.to_string()),
            },
        },
        Param {
            key: "heat",
            doc: "colour the meshes by the picked joint's weights",
            access: Access::Bool {
                set: |s, on| s.heat = on,
                get: |s| s.heat.then_some(true),
            },
        },
        Param {
            key: "forget_inverse_bind",
            doc: "leave the inverse bind matrices out of the palette",
            access: Access::Bool {
                set: |s, on| s.forget_inverse_bind = on,
                get: |s| s.forget_inverse_bind.then_some(true),
            },
        },
    ];

    type Cell = Cell;

    fn cell_ui(&mut self, cell: Cell, ui: &mut egui::Ui) {
        self.cell(cell, ui);
    }

    fn viewport_ui(&mut self, ui: &mut egui::Ui) {
        self.viewport(ui);
    }

    fn tick(&mut self, dt: f32) -> bool {
        if self.playing {
            self.advance(dt);
        }
        self.playing
    }
}
