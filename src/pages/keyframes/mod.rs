//! Keyframes: the two-bone arm played from rotation and translation keys, with the two
//! keys around the time, the factor between them, the slerped rotation and the local
//! matrix they build.

mod cells;
pub mod data;
pub mod exercise;
mod links;
mod view;

use crate::link::Param;
use crate::page::{Lesson, PageInfo};
use crate::ui::check::Check;
use crate::ui::scroll::ScrollTo;
use crate::ui::{Camera, OrbitCamera};
use data::{DURATION, Worked, arm_keys};
use exercise::EXERCISES;
use glam::{Mat4, Vec3};
use rigs::arm::{self, Falloff};
use scene::{MeshData, Primitive};
use skin::clip::Interpolation;
use std::sync::{Arc, OnceLock};

/// The page's cells, in chapter order; their snake_case names are the chapter's cell
/// markers.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, strum::EnumString, strum::VariantNames, strum::IntoStaticStr,
)]
#[strum(serialize_all = "snake_case")]
pub enum Cell {
    /// Play, speed, time, the joint and its keys on a timeline.
    Player,
    /// The two keys around the time, the factor, and what they build.
    Sample,
    /// One value over the whole clip under each interpolation.
    Curves,
    Check,
}

/// The names of the animated joints.
pub const JOINT_NAMES: [&str; 2] = ["shoulder", "elbow"];
/// The playback speeds the page allows (negative plays backwards).
pub const SPEED_RANGE: std::ops::RangeInclusive<f32> = -2.0..=2.0;

/// The arm's mesh, built once and shared by every page and reset.
fn arm_mesh() -> Arc<MeshData> {
    static ARM: OnceLock<Arc<MeshData>> = OnceLock::new();
    ARM.get_or_init(|| {
        // Falloff weights are valid by construction (tested in `rigs::arm`); an error
        // would show as an empty viewport.
        let arm = arm::mesh(Falloff::Smooth, arm::DEFAULT_BLEND_WIDTH).ok();
        let (skin, triangles) = arm.map(|a| (a.skin, a.triangles)).unwrap_or_default();
        MeshData::new(skin, triangles, Primitive::Triangles)
    })
    .clone()
}

/// The page's state.
pub struct KeyframesPage {
    /// The animation's time, seconds, 0..DURATION.
    pub time: f32,
    /// Whether the animation plays.
    pub playing: bool,
    /// Playback speed; negative plays backwards.
    pub speed: f32,
    /// The joint whose keys the cells work through.
    pub joint: usize,
    /// How the keys are filled in between: STEP, LINEAR or CUBICSPLINE.
    pub interpolation: Interpolation,
    /// The check cell's exercise.
    pub exercise: usize,
    check: Check,
    camera: Camera,
    arm: Arc<MeshData>,
    scroll_to: ScrollTo,
    /// Where the viewport was drawn last frame (for tests).
    pub viewport_rect: egui::Rect,
}

impl Default for KeyframesPage {
    fn default() -> Self {
        Self {
            time: 0.0,
            playing: false,
            speed: 1.0,
            joint: 0,
            interpolation: Interpolation::Linear,
            exercise: 0,
            check: Check::default(),
            camera: Camera::Orbit(OrbitCamera {
                target: Vec3::new(1.5, 0.8, 0.0),
                yaw: 0.6,
                pitch: 0.35,
                distance: 11.0,
            }),
            arm: arm_mesh(),
            scroll_to: ScrollTo::default(),
            viewport_rect: egui::Rect::NOTHING,
        }
    }
}

impl KeyframesPage {
    /// The camera, as the viewport last left it.
    pub fn camera(&self) -> &Camera {
        &self.camera
    }

    /// Each animated joint's keys sampled at the current time.
    pub fn samples(&self) -> [Worked; 2] {
        arm_keys(self.interpolation)
            .each_ref()
            .map(|keys| keys.sample(self.time))
    }

    /// The arm's `world_from_joint` at the current time.
    pub fn arm_world(&self) -> Vec<Mat4> {
        arm::skeleton().world_from_joint(&self.samples().map(|s| s.matrix))
    }

    /// The arm's skinning palette at the current time.
    pub fn arm_palette(&self) -> Vec<Mat4> {
        skin::lbs::palette(&self.arm_world(), &arm::joint_from_bind())
    }
}

impl Lesson for KeyframesPage {
    fn camera(&self) -> Option<Camera> {
        Some(self.camera)
    }

    fn set_camera(&mut self, camera: Camera) {
        self.camera = camera;
    }

    const INFO: &'static PageInfo = &PageInfo {
        slug: "keyframes",
        chapter: chapter_text!("keyframes"),
    };

    const PARAMS: &'static [Param<Self>] = links::PARAMS;

    type Cell = Cell;

    fn tick(&mut self, dt: f32) -> bool {
        if self.playing {
            self.time = (self.time + dt * self.speed).rem_euclid(DURATION);
        }
        self.playing
    }

    fn cell_ui(&mut self, cell: Cell, ui: &mut egui::Ui) {
        self.page_cell_ui(cell, ui);
    }

    fn view_in_words(&mut self) -> String {
        format!(
            "A two-bone arm {} its clip at {:.2} s, keys joined by {:?}; the {} picked.",
            if self.playing { "playing" } else { "holding" },
            self.time,
            self.interpolation,
            JOINT_NAMES[self.joint.min(JOINT_NAMES.len() - 1)]
        )
    }

    fn viewport_ui(&mut self, ui: &mut egui::Ui) {
        self.page_viewport_ui(ui);
    }
}
