//! Rotations and keyframes: Euler angles and gimbal lock, quaternions and their matrix,
//! LERP, NLERP and SLERP, and an arm played from rotation and translation keys.

mod cells;
mod meshes;
mod view;

use crate::gl::{MeshData, Primitive};
use crate::link::{Link, LinkError, number, numbers};
use crate::page::{Page, PageInfo};
use crate::skin::arm::{self, Falloff};
use crate::skin::rotation::{
    self, DURATION, EXERCISES, Euler, Interp, Sample, arm_channels, euler_quat,
};
use crate::ui::check::Check;
use crate::ui::scroll::ScrollTo;
use crate::ui::{Camera, OrbitCamera};
use glam::{Mat4, Quat, Vec3};
use std::sync::Arc;

const SLUG: &str = "quaternions";
/// The page's cells, in chapter order; their snake_case names are the chapter's cell
/// markers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, strum::EnumString, strum::VariantNames)]
#[strum(serialize_all = "snake_case")]
pub enum Cell {
    Gimbal,
    Quaternion,
    Multiply,
    Interpolate,
    Speed,
    Keyframes,
    Check,
}

/// The page's declaration.
pub static INFO: PageInfo = PageInfo {
    slug: "quaternions",
    title: "Quaternions and keyframes",
    chapter: include_str!("../../../chapters/09-quaternions.md"),
    cells: <Cell as strum::VariantNames>::VARIANTS,
};
const KEYS: &[&str] = &[
    "show", "yaw", "pitch", "roll", "b", "method", "t", "flip", "shortest", "time", "speed",
    "play", "joint", "question",
];
/// The names of the animated joints.
pub const JOINT_NAMES: [&str; 2] = ["shoulder", "elbow"];
/// The playback speeds the page allows (negative plays backwards).
pub const SPEED_RANGE: std::ops::RangeInclusive<f32> = -2.0..=2.0;

/// The part of the lesson the viewport shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Section {
    /// Three rings and a glider: Euler angles.
    Gimbal,
    /// The glider turned by one quaternion, with its axis.
    Quaternion,
    /// Paths from A to B on a sphere.
    Interpolate,
    /// The arm played from keys.
    Keyframes,
}

impl Section {
    /// Every section, in chapter order.
    pub const ALL: [Self; 4] = [
        Self::Gimbal,
        Self::Quaternion,
        Self::Interpolate,
        Self::Keyframes,
    ];

    /// The link name.
    pub fn slug(self) -> &'static str {
        match self {
            Self::Gimbal => "gimbal",
            Self::Quaternion => "quaternion",
            Self::Interpolate => "interpolate",
            Self::Keyframes => "keyframes",
        }
    }

    /// The cell that introduces this section.
    fn first_cell(self) -> &'static str {
        match self {
            Self::Gimbal => "gimbal",
            Self::Quaternion => "quaternion",
            Self::Interpolate => "interpolate",
            Self::Keyframes => "keyframes",
        }
    }

    fn camera(self) -> Camera {
        let (target, distance) = match self {
            Self::Keyframes => (Vec3::new(1.5, 0.8, 0.0), 11.0),
            _ => (Vec3::ZERO, 8.5),
        };
        Camera::Orbit(OrbitCamera {
            target,
            yaw: 0.6,
            pitch: 0.35,
            distance,
        })
    }
}

/// The meshes, built once and kept through resets.
struct Assets {
    glider: Arc<MeshData>,
    rings: Arc<MeshData>,
    arm: Arc<MeshData>,
}

impl Assets {
    fn new() -> Self {
        let glider = meshes::glider();
        let rings = meshes::gimbal_rings();
        // Falloff weights are valid by construction (tested in `skin::arm`); an error
        // would show as an empty viewport.
        let arm = arm::mesh(Falloff::Smooth, arm::DEFAULT_BLEND_WIDTH).ok();
        let (arm_skin, arm_triangles) = arm.map(|a| (a.skin, a.triangles)).unwrap_or_default();
        Self {
            glider: MeshData::with_colors(
                glider.skin,
                glider.indices,
                Primitive::Triangles,
                glider.colors,
            ),
            rings: MeshData::with_colors(rings.skin, rings.indices, Primitive::Lines, rings.colors),
            arm: MeshData::new(arm_skin, arm_triangles, Primitive::Triangles),
        }
    }
}

/// The page's state.
pub struct QuaternionsPage {
    /// What the viewport shows.
    pub section: Section,
    /// Yaw, pitch and roll of the gimbal and of the quaternion section, radians.
    pub euler: Euler,
    /// Orientation B of the interpolation (A is no turn at all), as yaw, pitch, roll.
    pub target: Euler,
    /// How A goes to B.
    pub method: Interp,
    /// How far from A to B, 0..=1.
    pub t: f32,
    /// Store B as −q (the same rotation).
    pub flip: bool,
    /// Negate B when `A · B < 0`, to take the short way round.
    pub shortest: bool,
    /// The animation's time, seconds, 0..DURATION.
    pub time: f32,
    /// Whether the animation plays.
    pub playing: bool,
    /// Playback speed; negative plays backwards.
    pub speed: f32,
    /// The joint whose keys the keyframe cell works through.
    pub joint: usize,
    /// The check cell's exercise.
    pub exercise: usize,
    check: Check,
    camera: Camera,
    assets: Arc<Assets>,
    scroll_to: ScrollTo,
    /// Where the viewport was drawn last frame (for tests).
    pub viewport_rect: egui::Rect,
}

/// 30° of yaw and 20° of pitch.
const DEFAULT_EULER: Euler = [30.0f32.to_radians(), 20.0f32.to_radians(), 0.0];
/// 140°, 30° and 45°: far enough from A that the methods part ways.
const DEFAULT_TARGET: Euler = [
    140.0f32.to_radians(),
    30.0f32.to_radians(),
    45.0f32.to_radians(),
];

impl Default for QuaternionsPage {
    fn default() -> Self {
        Self::with_assets(Arc::new(Assets::new()))
    }
}

impl QuaternionsPage {
    fn with_assets(assets: Arc<Assets>) -> Self {
        Self {
            section: Section::Gimbal,
            euler: DEFAULT_EULER,
            target: DEFAULT_TARGET,
            method: Interp::Slerp,
            t: 0.5,
            flip: false,
            shortest: true,
            time: 0.0,
            playing: false,
            speed: 1.0,
            joint: 0,
            exercise: 0,
            check: Check::default(),
            camera: Section::Gimbal.camera(),
            assets,
            scroll_to: ScrollTo::default(),
            viewport_rect: egui::Rect::NOTHING,
        }
    }

    /// Points the viewport at `section`, with that section's view.
    pub fn show(&mut self, section: Section) {
        if self.section != section {
            self.section = section;
            self.camera = section.camera();
        }
    }

    /// The camera, as the viewport last left it.
    pub fn camera(&self) -> &Camera {
        &self.camera
    }

    /// Orientation A (no turn) and B as stored (negated when `flip`).
    pub fn endpoints(&self) -> (Quat, Quat) {
        let b = euler_quat(self.target);
        (Quat::IDENTITY, if self.flip { -b } else { b })
    }

    /// The interpolated quaternion at `t` by `method`.
    pub fn interpolated(&self, method: Interp, t: f32) -> Quat {
        let (a, b) = self.endpoints();
        rotation::interpolate(a, b, t, method, self.shortest)
    }

    /// Each animated joint's sample at the current time.
    pub fn samples(&self) -> [Sample; 2] {
        arm_channels().map(|c| c.sample(self.time))
    }

    /// The arm's `world_from_joint` at the current time.
    pub fn arm_world(&self) -> Vec<Mat4> {
        arm::skeleton().world_from_joint(&self.samples().map(|s| s.matrix))
    }

    /// The arm's skinning palette at the current time.
    pub fn arm_palette(&self) -> Vec<Mat4> {
        crate::skin::lbs::palette(&self.arm_world(), &arm::joint_from_bind())
    }
}

/// `angle` radians, finite and within `limit`, or the link's error.
fn angle_in(link: &Link, key: &str, limit: f32) -> Result<Option<f32>, LinkError> {
    match link.f32(key)? {
        Some(a) if a.abs() > limit => {
            Err(link.bad(key, format!("radians from -{limit} to {limit}")))
        }
        a => Ok(a),
    }
}

impl Page for QuaternionsPage {
    fn info(&self) -> &'static PageInfo {
        &INFO
    }

    fn link_keys(&self) -> Vec<&'static str> {
        KEYS.to_vec()
    }

    fn reset(&mut self) {
        *self = Self::with_assets(self.assets.clone());
    }

    fn apply_link(&mut self, link: &Link) -> Result<(), LinkError> {
        let pi = std::f32::consts::PI;
        let show = link.choice("show", &Section::ALL.map(Section::slug))?;
        let yaw = angle_in(link, "yaw", pi)?;
        let pitch = angle_in(link, "pitch", pi / 2.0)?;
        let roll = angle_in(link, "roll", pi)?;
        let b = link.f32s::<3>("b")?;
        if let Some(b) = b
            && b.iter().any(|a| a.abs() > pi)
        {
            return Err(link.bad("b", format!("three radians from -{pi} to {pi}")));
        }
        let method = link.choice("method", &Interp::ALL.map(Interp::slug))?;
        let t = link.f32("t")?;
        if let Some(t) = t
            && !(0.0..=1.0).contains(&t)
        {
            return Err(link.bad("t", "a number from 0 to 1"));
        }
        let flip = link.bool("flip")?;
        let shortest = link.bool("shortest")?;
        let time = link.f32("time")?;
        if let Some(time) = time
            && !(0.0..=DURATION).contains(&time)
        {
            return Err(link.bad("time", format!("seconds from 0 to {DURATION}")));
        }
        let speed = link.f32("speed")?;
        if let Some(s) = speed
            && !SPEED_RANGE.contains(&s)
        {
            return Err(link.bad("speed", "a number from -2 to 2"));
        }
        let play = link.bool("play")?;
        let joint = link.choice("joint", &JOINT_NAMES)?;
        let question = link.question(EXERCISES.len())?;

        let keyframes = time.is_some() || play.is_some() || speed.is_some() || joint.is_some();
        let section = show.map(|i| Section::ALL[i]).or_else(|| {
            // A link that sets only one section's values opens that section.
            if keyframes {
                Some(Section::Keyframes)
            } else if method.is_some() || t.is_some() || b.is_some() {
                Some(Section::Interpolate)
            } else {
                None
            }
        });
        if let Some(section) = section {
            self.show(section);
        }
        self.euler = [
            yaw.unwrap_or(self.euler[0]),
            pitch.unwrap_or(self.euler[1]),
            roll.unwrap_or(self.euler[2]),
        ];
        self.target = b.unwrap_or(self.target);
        self.method = method.map_or(self.method, |i| Interp::ALL[i]);
        self.t = t.unwrap_or(self.t);
        self.flip = flip.unwrap_or(self.flip);
        self.shortest = shortest.unwrap_or(self.shortest);
        self.time = time.unwrap_or(self.time);
        self.speed = speed.unwrap_or(self.speed);
        self.playing = play.unwrap_or(self.playing);
        self.joint = joint.unwrap_or(self.joint);
        if let Some(q) = question {
            self.exercise = q;
            self.check = Check::default();
        }
        let cell = if question.is_some() {
            Some("check")
        } else {
            section.map(Section::first_cell)
        };
        self.scroll_to.set(cell);
        Ok(())
    }

    fn link(&self) -> Link {
        let mut link = Link::new(SLUG);
        if self.section != Section::Gimbal {
            link = link.with("show", self.section.slug());
        }
        for (i, key) in ["yaw", "pitch", "roll"].into_iter().enumerate() {
            if self.euler[i] != DEFAULT_EULER[i] {
                link = link.with(key, number(self.euler[i]));
            }
        }
        if self.target != DEFAULT_TARGET {
            link = link.with("b", numbers(&self.target));
        }
        if self.method != Interp::Slerp {
            link = link.with("method", self.method.slug());
        }
        if self.t != 0.5 {
            link = link.with("t", number(self.t));
        }
        if self.flip {
            link = link.with("flip", true);
        }
        if !self.shortest {
            link = link.with("shortest", false);
        }
        // While playing, the time changes every frame: a link cannot hold it.
        if self.playing {
            link = link.with("play", true);
        } else if self.time != 0.0 {
            link = link.with("time", number(self.time));
        }
        if self.speed != 1.0 {
            link = link.with("speed", number(self.speed));
        }
        if self.joint != 0 {
            link = link.with("joint", JOINT_NAMES[self.joint]);
        }
        if self.exercise != 0 {
            link = link.with("question", self.exercise + 1);
        }
        link
    }

    fn tick(&mut self, dt: f32) -> bool {
        if self.playing {
            self.time = (self.time + dt * self.speed).rem_euclid(DURATION);
        }
        self.playing
    }

    fn cell_ui(&mut self, cell: &str, ui: &mut egui::Ui) {
        self.cell(cell, ui);
    }

    fn viewport_ui(&mut self, ui: &mut egui::Ui) {
        self.viewport(ui);
    }
}
