//! Blend shapes and correctives: offsets added to the mesh before the skin, a muscle
//! to push and a corrective that a bend of the elbow drives, on the blending page's
//! arm beside plain linear blending and dual quaternions.

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
use data::{FIX, MUSCLE};
use glam::Vec3;
use rigs::arm;
use scene::MeshData;
use skin::dqs::skin_vertices_dqs;
use skin::lbs::{SkinMesh, SkinnedVertex, skin_vertices};
use skin::morph::{MorphTarget, morphed};
use std::sync::Arc;

/// The page's cells, in chapter order; their snake_case names are the chapter's cell
/// markers.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, strum::EnumString, strum::VariantNames, strum::IntoStaticStr,
)]
#[strum(serialize_all = "snake_case")]
pub enum Cell {
    /// The muscle's weight and one vertex through the sum and the skin.
    Shape,
    /// The bend, the bend the corrective was made for, and what drives it.
    Corrective,
    /// The elbow ring's area against the bend, three ways.
    Area,
    /// What the shapes cost in memory and time.
    Cost,
    Check,
}

/// The elbow's bend: the most, radians. A corrective mends one way of bending, so the
/// page bends only that way.
pub const MAX_BEND: f32 = 2.6;
/// The least bend a corrective may be made for, radians.
pub const MIN_MADE_AT: f32 = 0.3;
/// The bend the page opens with, and the corrective's: a right angle.
pub const DEFAULT_BEND: f32 = std::f32::consts::FRAC_PI_2;
/// How far a shape's weight slider and link go either way.
pub const WEIGHT_RANGE: std::ops::RangeInclusive<f32> = -1.0..=2.0;
/// How far apart the arms are drawn, along y.
const ROW: f32 = 3.8;

/// Which arms the viewport draws.
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
pub enum Show {
    /// LBS, LBS with the corrective, and DQS, top to bottom.
    All,
    /// Linear blending, no corrective.
    Lbs,
    /// Linear blending with the corrective.
    Fixed,
    /// Dual quaternions, no corrective.
    Dqs,
}

/// One of the three ways the page skins its arm.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    Lbs,
    Fixed,
    Dqs,
}

impl Method {
    pub const ALL: [Method; 3] = [Method::Lbs, Method::Fixed, Method::Dqs];

    /// Its name on the picture and in the plot's key.
    pub fn label(self) -> &'static str {
        match self {
            Self::Lbs => "LBS",
            Self::Fixed => "LBS + fix",
            Self::Dqs => "DQS",
        }
    }
}

impl Show {
    /// The arms drawn, and where each sits.
    pub fn arms(self) -> Vec<(Method, Vec3)> {
        match self {
            Self::All => Method::ALL
                .iter()
                .zip([ROW, 0.0, -ROW])
                .map(|(m, y)| (*m, Vec3::Y * y))
                .collect(),
            Self::Lbs => vec![(Method::Lbs, Vec3::ZERO)],
            Self::Fixed => vec![(Method::Fixed, Vec3::ZERO)],
            Self::Dqs => vec![(Method::Dqs, Vec3::ZERO)],
        }
    }
}

/// The elbow ring's vertex on the inside of the bend, where the crease forms.
pub fn default_vertex() -> usize {
    arm::elbow_ring() * arm::SEGMENTS
}

// ANCHOR: driver
/// How the bend sets the corrective's weight. Both give 0 with the arm straight and 1
/// at the bend the shape was made for, and hold 1 past it.
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
pub enum Driver {
    /// In a straight line with the bend: `bend / made_at`.
    Linear,
    /// Slowly at first, as LBS's pinch grows, with one minus the cosine of the bend:
    /// `(1 − cos bend) / (1 − cos made_at)`.
    Cosine,
}

/// The corrective's weight at `bend` for a shape made at `made_at`, set by `driver`.
pub fn driven_weight(driver: Driver, bend: f32, made_at: f32) -> f32 {
    let made_at = made_at.max(MIN_MADE_AT);
    let t = match driver {
        Driver::Linear => bend / made_at,
        Driver::Cosine => (1.0 - bend.cos()) / (1.0 - made_at.cos()),
    };
    t.clamp(0.0, 1.0)
}
// ANCHOR_END: driver

/// The elbow ring's area, relative to the bind pose, against the bend in degrees.
pub struct Areas {
    /// `[bend degrees, area / bind area]` for each [`Method`], in order.
    pub curves: [Vec<[f64; 2]>; 3],
}

/// What the area curves depend on: the bend the fix was made for, whether the bend
/// drives it and how, and its weight by hand.
type AreaKey = (f32, bool, Driver, f32);

/// The page's state.
pub struct ShapesPage {
    /// The elbow's bend about z, radians.
    pub bend: f32,
    /// The bend the corrective was made for, radians.
    pub made_at: f32,
    /// Whether the bend drives the corrective's weight; else [`ShapesPage::fix`] does.
    pub drive: bool,
    /// How the bend drives it.
    pub driver: Driver,
    /// The corrective's weight when the bend does not drive it.
    pub fix: f32,
    /// The muscle's weight.
    pub muscle: f32,
    /// Which arms are drawn.
    pub show: Show,
    /// The vertex followed through the shapes and the skin.
    pub vertex: usize,
    /// The check cell's exercise.
    pub exercise: usize,
    check: Check,
    camera: Camera,
    /// The arm with its two shapes, and the bend its corrective was made for.
    mesh: (f32, Arc<MeshData>),
    areas: Option<(AreaKey, Arc<Areas>)>,
    scroll_to: ScrollTo,
    /// The viewport's `clip_from_world`, as last drawn.
    seen: Option<glam::Mat4>,
    /// Where the viewport was drawn last frame (for tests).
    pub viewport_rect: egui::Rect,
}

fn default_camera() -> Camera {
    Camera::Orbit(OrbitCamera {
        // Right of the arms' middle, so their labels have room left of the shoulders.
        target: Vec3::new(1.2, 0.6, 0.0),
        yaw: 0.25,
        pitch: 0.15,
        distance: 15.0,
    })
}

/// The arm with its muscle and a corrective made at `made_at`.
fn build_mesh(made_at: f32) -> Arc<MeshData> {
    let arm = data::arm();
    let targets = vec![data::muscle(&arm), data::corrective(&arm, made_at)];
    let colors = vec![[0.88, 0.75, 0.63, 1.0]; arm.skin.positions.len()];
    MeshData::with_targets(
        arm.skin,
        arm.triangles,
        colors,
        Vec::new(),
        Arc::new(targets),
    )
}

impl Default for ShapesPage {
    fn default() -> Self {
        Self {
            bend: DEFAULT_BEND,
            made_at: DEFAULT_BEND,
            drive: true,
            driver: Driver::Cosine,
            fix: 1.0,
            muscle: 1.0,
            show: Show::All,
            vertex: default_vertex(),
            exercise: 0,
            check: Check::default(),
            camera: default_camera(),
            mesh: (DEFAULT_BEND, build_mesh(DEFAULT_BEND)),
            areas: None,
            scroll_to: ScrollTo::default(),
            seen: None,
            viewport_rect: egui::Rect::NOTHING,
        }
    }
}

impl ShapesPage {
    /// The corrective's weight now.
    pub fn fix_weight(&self) -> f32 {
        self.fix_weight_at(self.bend)
    }

    /// The corrective's weight with the elbow bent by `bend`.
    fn fix_weight_at(&self, bend: f32) -> f32 {
        if self.drive {
            driven_weight(self.driver, bend, self.made_at)
        } else {
            self.fix
        }
    }

    /// The arm as drawn, rebuilt when the bend its corrective was made for changed.
    pub fn mesh(&mut self) -> Arc<MeshData> {
        // Links and sliders keep it finite; a NaN would rebuild the arm every frame.
        if !self.made_at.is_finite() {
            self.made_at = self.mesh.0;
        }
        if self.mesh.0 != self.made_at {
            self.mesh = (self.made_at, build_mesh(self.made_at));
            self.areas = None;
        }
        self.mesh.1.clone()
    }

    /// Each shape's weight for `method`: plain LBS and DQS leave the corrective out.
    pub fn weights(&self, method: Method) -> Vec<f32> {
        self.weights_at(method, self.bend)
    }

    /// [`ShapesPage::weights`] with the elbow bent by `bend`.
    fn weights_at(&self, method: Method, bend: f32) -> Vec<f32> {
        let mut w = vec![0.0; 2];
        w[MUSCLE] = self.muscle;
        if method == Method::Fixed {
            w[FIX] = self.fix_weight_at(bend);
        }
        w
    }

    /// The arm skinned by `method` now, on the CPU: where the shader draws it.
    pub fn skinned(&mut self, method: Method) -> Vec<SkinnedVertex> {
        let mesh = self.mesh();
        skinned(
            method,
            self.bend,
            &mesh.skin,
            &mesh.targets,
            &self.weights(method),
        )
    }

    /// Where `method` puts `vertex` now, on the CPU (the vertex alone is skinned).
    pub fn vertex_skinned(&mut self, method: Method, vertex: usize) -> Option<Vec3> {
        let (one, targets) = part_of(&self.mesh(), vertex..vertex + 1);
        let v = skinned(method, self.bend, &one, &targets, &self.weights(method));
        v.first().map(|v| v.position)
    }

    /// Where the viewport, as last drawn, shows `vertex` of the arm skinned by `method`
    /// (in points from the window's corner); `None` before the first frame, when that
    /// arm is not drawn or the point is behind the camera.
    pub fn drawn_at(&mut self, method: Method, vertex: usize) -> Option<egui::Pos2> {
        let clip_from_world = self.seen?;
        let (_, at) = self.show.arms().into_iter().find(|(m, _)| *m == method)?;
        let p = self.vertex_skinned(method, vertex)? + at;
        crate::ui::on_screen(clip_from_world, self.viewport_rect, p)
    }

    /// The elbow ring's area now, relative to the bind pose, for each [`Method`].
    pub fn areas_now(&mut self) -> [f32; 3] {
        let ring = ElbowRing::of(&self.mesh());
        ring.areas(self, self.bend)
    }

    /// The elbow ring's area against the bend, three ways (cached). The muscle, which
    /// leaves the elbow alone, is not in the key.
    pub fn areas(&mut self) -> Arc<Areas> {
        let key = (self.made_at, self.drive, self.driver, self.fix);
        let mesh = self.mesh();
        if let Some((k, areas)) = &self.areas
            && *k == key
        {
            return areas.clone();
        }
        let ring = ElbowRing::of(&mesh);
        let mut curves: [Vec<[f64; 2]>; 3] = Default::default();
        let steps = 60;
        for step in 0..=steps {
            let bend = MAX_BEND * step as f32 / steps as f32;
            for (curve, area) in curves.iter_mut().zip(ring.areas(self, bend)) {
                curve.push([bend.to_degrees() as f64, area as f64]);
            }
        }
        let areas = Arc::new(Areas { curves });
        self.areas = Some((key, areas.clone()));
        areas
    }
}

/// Vertices `range` of `mesh`, with their part of each of its shapes.
fn part_of(mesh: &MeshData, range: std::ops::Range<usize>) -> (SkinMesh, Vec<MorphTarget>) {
    let targets = mesh
        .targets
        .iter()
        .map(|t| t.range(range.clone()))
        .collect();
    (mesh.skin.range(range), targets)
}

/// The elbow ring alone, with its part of each shape and its area in the bind pose:
/// enough to measure its area at any bend.
struct ElbowRing {
    skin: SkinMesh,
    targets: Vec<MorphTarget>,
    bind: f32,
}

impl ElbowRing {
    fn of(mesh: &MeshData) -> Self {
        let first = arm::elbow_ring() * arm::SEGMENTS;
        let (skin, targets) = part_of(mesh, first..first + arm::SEGMENTS);
        let bind = arm::ring_area(&skin.positions, 0).max(1e-6);
        Self {
            skin,
            targets,
            bind,
        }
    }

    /// Its area over the bind pose's at `bend`, for each [`Method`] as `page` sets it.
    fn areas(&self, page: &ShapesPage, bend: f32) -> [f32; 3] {
        Method::ALL.map(|method| {
            let weights = page.weights_at(method, bend);
            let v = skinned(method, bend, &self.skin, &self.targets, &weights);
            let p: Vec<Vec3> = v.iter().map(|v| v.position).collect();
            arm::ring_area(&p, 0) / self.bind
        })
    }
}

/// `skin` with `targets` at `weights`, skinned by `method` with the elbow bent by
/// `bend`, on the CPU.
fn skinned(
    method: Method,
    bend: f32,
    skin: &SkinMesh,
    targets: &[MorphTarget],
    weights: &[f32],
) -> Vec<SkinnedVertex> {
    let skin = morphed(skin, targets, weights);
    let palette = arm::palette(0.0, bend);
    match method {
        Method::Dqs => skin_vertices_dqs(&palette, &skin, true),
        Method::Lbs | Method::Fixed => skin_vertices(&palette, &skin),
    }
}

impl Lesson for ShapesPage {
    fn camera(&self) -> Option<Camera> {
        Some(self.camera)
    }

    fn set_camera(&mut self, camera: Camera) {
        self.camera = camera;
    }

    const INFO: &'static PageInfo = &PageInfo {
        slug: "shapes",
        chapter: chapter_text!("shapes"),
    };

    const PARAMS: &'static [Param<Self>] = links::PARAMS;

    type Cell = Cell;

    fn cell_ui(&mut self, cell: Cell, ui: &mut egui::Ui) {
        self.page_cell_ui(cell, ui);
    }

    fn view_in_words(&mut self) -> String {
        let arms: Vec<&str> = self.show.arms().iter().map(|(m, _)| m.label()).collect();
        format!(
            "Arms by {}, the elbow bent {}; the corrective shape at weight {:.2}, the muscle shape at {:.2}.",
            arms.join(", "),
            crate::ui::degrees(self.bend),
            self.fix_weight(),
            self.muscle
        )
    }

    fn viewport_ui(&mut self, ui: &mut egui::Ui) {
        self.page_viewport_ui(ui);
    }
}
