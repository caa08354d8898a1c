//! Rotations: Euler angles and gimbal lock, quaternions, their matrix, their product
//! and how one turns a point. Blending them is the next page's (`interpolation`).

mod cells;
pub mod exercise;
mod links;
mod meshes;
mod view;

pub(crate) use cells::euler_ui;
pub(crate) use exercise::quat_check_ui;
#[cfg(test)]
pub(crate) use meshes::{GLIDER_COLORS, RING_COLORS};
pub(crate) use view::{CAPTION, glider, glider_scene};

use crate::link::Param;
use crate::page::{Lesson, PageInfo};
use crate::ui::check::Check;
use crate::ui::scroll::ScrollTo;
use crate::ui::{Camera, OrbitCamera};
use exercise::EXERCISE_COUNT;
use glam::Vec3;
use scene::{MeshData, Primitive};
use skin::explain::rotation::Euler;
use std::f32::consts::{FRAC_PI_2, PI};
use std::sync::{Arc, OnceLock};

/// The page's cells, in chapter order; their snake_case names are the chapter's cell
/// markers.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, strum::EnumString, strum::VariantNames, strum::IntoStaticStr,
)]
#[strum(serialize_all = "snake_case")]
pub enum Cell {
    Gimbal,
    Quaternion,
    Multiply,
    Turn,
    Check,
}

/// The part of the lesson the viewport shows.
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    strum::VariantArray,
    strum::VariantNames,
    strum::IntoStaticStr,
)]
#[strum(serialize_all = "snake_case")]
pub enum Section {
    /// Three rings and a glider: Euler angles.
    Gimbal,
    /// The glider turned by one quaternion, with its axis.
    Quaternion,
}

impl Section {
    /// The cell that introduces this section.
    fn first_cell(self) -> Cell {
        match self {
            Self::Gimbal => Cell::Gimbal,
            Self::Quaternion => Cell::Quaternion,
        }
    }
}

/// The view of the glider from above and to one side: from the side its nose does not
/// turn to, so the default gimbal (nose 30° round) is seen three-quarters on, not
/// nose-on.
pub(crate) fn glider_camera() -> Camera {
    glider_camera_at(-0.75, 0.35)
}

/// The glider's camera from `yaw` round and `pitch` up (radians), at the distance that
/// holds the drawn sphere.
pub(crate) fn glider_camera_at(yaw: f32, pitch: f32) -> Camera {
    Camera::Orbit(OrbitCamera {
        target: Vec3::ZERO,
        yaw,
        pitch,
        distance: 8.5,
    })
}

/// The meshes, built once and shared by every page and reset: this page's and the
/// interpolation page's.
pub(crate) struct Assets {
    /// The glider, one joint.
    pub(crate) glider: Arc<MeshData>,
    /// The gimbal's three rings, one joint each.
    rings: Arc<MeshData>,
}

impl Assets {
    fn new() -> Self {
        let glider = meshes::glider();
        let rings = meshes::gimbal_rings();
        Self {
            glider: MeshData::with_colors(
                glider.skin,
                glider.indices,
                Primitive::Triangles,
                glider.colors,
            ),
            rings: MeshData::with_colors(rings.skin, rings.indices, Primitive::Lines, rings.colors),
        }
    }

    /// The one set of meshes, built on first use.
    pub(crate) fn shared() -> Arc<Self> {
        static ASSETS: OnceLock<Arc<Assets>> = OnceLock::new();
        ASSETS.get_or_init(|| Arc::new(Self::new())).clone()
    }
}

/// The page's state.
pub struct QuaternionsPage {
    /// What the viewport shows.
    pub section: Section,
    /// Yaw, pitch and roll of the gimbal and of the quaternion section, radians.
    pub euler: Euler,
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

impl Default for QuaternionsPage {
    fn default() -> Self {
        Self {
            section: Section::Gimbal,
            euler: DEFAULT_EULER,
            exercise: 0,
            check: Check::default(),
            camera: glider_camera(),
            assets: Assets::shared(),
            scroll_to: ScrollTo::default(),
            viewport_rect: egui::Rect::NOTHING,
        }
    }
}

impl QuaternionsPage {
    /// Points the viewport at `section`, with that section's view.
    pub fn show(&mut self, section: Section) {
        if self.section != section {
            self.section = section;
            self.camera = self.section_camera();
        }
    }

    /// The camera a section opens with: the gimbal's usual view, or for a quaternion
    /// the view that shows its turn ([`camera_facing_turn`]).
    fn section_camera(&self) -> Camera {
        match self.section {
            Section::Gimbal => glider_camera(),
            Section::Quaternion => {
                camera_facing_turn(skin::explain::rotation::euler_quat(self.euler))
            }
        }
    }

    /// The camera, as the viewport last left it.
    pub fn camera(&self) -> &Camera {
        &self.camera
    }
}

/// The glider's camera for showing `q`'s turn: from where the nose's arc round the
/// axis is seen open (not edge-on), the axis as an arrow (not a point), and `p` and
/// `p′` (the turn cell's x axis, before and after) along their length (not end-on);
/// the nearest such view to the usual one.
pub(crate) fn camera_facing_turn(q: glam::Quat) -> Camera {
    let Camera::Orbit(usual) = glider_camera() else {
        return glider_camera();
    };
    let (axis, angle) = skin::explain::rotation::axis_angle(q);
    if angle < 1e-3 || !axis.is_finite() {
        return glider_camera();
    }
    let from = (usual.eye() - usual.target).normalize();
    let (p, turned) = (Vec3::X, q * Vec3::X);
    let side = |d: Vec3, v: Vec3| d.cross(v).length();
    let score = |d: Vec3| {
        // The arc opens as the view nears the axis, the axis arrow as it leaves it:
        // about 45° off the axis shows both.
        let arc = d.dot(axis).abs().min(side(d, axis)) * 1.4;
        let clear = side(d, p).min(side(d, turned)).min(arc);
        clear + 0.2 * d.dot(from)
    };
    // The way to the eye of the usual camera turned to `yaw` and `pitch`.
    let view = |yaw: f32, pitch: f32| {
        let turned = OrbitCamera {
            yaw,
            pitch,
            ..usual
        };
        (turned.eye() - turned.target) / turned.distance
    };
    let best = (0..24)
        .flat_map(|i| (0..12).map(move |j| (i as f32 * PI / 12.0 - PI, j as f32 * 0.1)))
        .max_by(|a, b| score(view(a.0, a.1)).total_cmp(&score(view(b.0, b.1))))
        .unwrap_or((usual.yaw, usual.pitch));
    glider_camera_at(best.0, best.1)
}

impl Lesson for QuaternionsPage {
    fn camera(&self) -> Option<Camera> {
        Some(self.camera)
    }

    /// A link that shows a quaternion's turn (and names no camera) looks toward its
    /// axis, where the nose's arc shows.
    fn link_applied(&mut self) {
        self.camera = self.section_camera();
    }

    fn set_camera(&mut self, camera: Camera) {
        self.camera = camera;
    }

    const INFO: &'static PageInfo = &PageInfo {
        slug: "quaternions",
        chapter: chapter_text!("quaternions"),
    };

    const PARAMS: &'static [Param<Self>] = links::PARAMS;

    type Cell = Cell;

    fn cell_ui(&mut self, cell: Cell, ui: &mut egui::Ui) {
        self.page_cell_ui(cell, ui);
    }

    /// A focused cell shows its part: the gimbal beside its cell, the quaternion beside
    /// the cells that build on it; the check keeps the part it was given.
    fn focused(&mut self, cell: Cell) {
        match cell {
            Cell::Gimbal => self.show(Section::Gimbal),
            Cell::Quaternion | Cell::Multiply | Cell::Turn => self.show(Section::Quaternion),
            Cell::Check => {}
        }
    }

    fn view_in_words(&mut self) -> String {
        let [yaw, pitch, roll] = self.euler.map(crate::ui::degrees);
        format!(
            "A glider in a gimbal of three rings: yaw {yaw} (green, about y), pitch {pitch} (red, about x), roll {roll} (blue, about z){}.",
            if skin::explain::rotation::lock_closeness(self.euler[1]) > 0.999 {
                "; the roll ring lies in the yaw ring's plane: gimbal lock"
            } else {
                ""
            }
        )
    }

    fn viewport_ui(&mut self, ui: &mut egui::Ui) {
        self.page_viewport_ui(ui);
    }

    /// A link that says which part the viewport shows opens at that part's cell.
    fn linked_cell(&self, link: &crate::link::Link) -> Option<&'static str> {
        link.get("show")
            .is_some()
            .then(|| self.section.first_cell().into())
    }
}
