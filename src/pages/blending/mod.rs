//! Weighted blending: a cylinder arm skinned by linear blending and by dual
//! quaternions, side by side, with weights to choose or paint.

mod cells;
mod check;
mod data;
mod ellipses;
mod inspect;
mod links;
pub mod paint;
mod view;

use crate::link::Param;
use crate::page::{Lesson, PageInfo};
use crate::ui::check::Check;
use crate::ui::{Camera, OrbitCamera};
pub(crate) use cells::{DQS_COLOR, LBS_COLOR};
pub use data::Pose;
pub use ellipses::{ELLIPSE_RADIUS, ELLIPSE_STRIDE, EllipseRange, Glyph};
use glam::{Mat4, Vec3};
use paint::WeightMap;
pub use paint::{Brush, Stroke};
use rigs::arm::{self, Arm, ArmMesh, Falloff};
use scene::MeshData;
use skin::dqs::{DualQuat, dual_quat_palette, skin_vertices_dq};
use skin::lbs::{PositionW, SkinMesh, SkinnedVertex, skin_vertices};
use std::f32::consts::TAU;
use std::sync::{Arc, Mutex, OnceLock};

/// The page's cells, in chapter order; their snake_case names are the chapter's cell
/// markers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, strum::EnumString, strum::VariantNames)]
#[strum(serialize_all = "snake_case")]
pub enum Cell {
    Weights,
    Paint,
    Sum,
    Vertex,
    Algorithm,
    Compare,
    Ellipses,
    DqPoint,
    Antipodal,
    Check,
}

/// Bone names, in joint order: the twist bone's is used only when the arm has one.
pub const BONE_NAMES: [&str; arm::MAX_JOINTS] = ["upper arm", "forearm", "twist bone"];
/// How far apart the two arms are drawn when both methods are shown.
const ROW_OFFSET: f32 = 1.6;

/// Which skinning the viewport shows.
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
pub enum Mode {
    /// Linear blend skinning only.
    Lbs,
    /// Dual quaternion skinning only.
    Dqs,
    /// Both, LBS above DQS.
    Both,
}

impl Mode {
    /// The arms drawn: (is it DQS, where it sits).
    fn arms(self) -> Vec<(bool, Vec3)> {
        match self {
            Self::Lbs => vec![(false, Vec3::ZERO)],
            Self::Dqs => vec![(true, Vec3::ZERO)],
            Self::Both => vec![(false, Vec3::Y * ROW_OFFSET), (true, Vec3::Y * -ROW_OFFSET)],
        }
    }
}

/// The page's state.
pub struct BlendingPage {
    /// The forearm's twist about its own axis, radians.
    pub twist: f32,
    /// The elbow's bend about z, radians.
    pub bend: f32,
    /// Which skinning is drawn.
    pub mode: Mode,
    /// The bone whose weights the heat map shows.
    pub bone: usize,
    /// How weights fall off across the elbow (until painted over).
    pub falloff: Falloff,
    /// The width of the blend region, world units: at most
    /// [`Arm::max_blend_width`] of the rig.
    pub blend_width: f32,
    /// Colour the arm by one bone's weights.
    pub heat_map: bool,
    /// The weights in use: from the falloff, or painted.
    pub weights: WeightMap,
    /// Whether the brush has changed the weights since the falloff made them.
    pub painted: bool,
    /// The brush.
    pub brush: Brush,
    /// Keep each vertex's weights summing to 1 while painting.
    pub auto_normalise: bool,
    /// What the LBS shader does with `w`, which a wrong sum of weights makes other than 1.
    pub position_w: PositionW,
    /// Every weight the shader reads is multiplied by this: 1 leaves the sums alone.
    pub weight_scale: f32,
    /// The vertex being inspected.
    pub vertex: Option<usize>,
    /// Flip quaternions into the first influence's half before adding them.
    pub antipodal_check: bool,
    /// Upload the forearm's dual quaternion negated (the same rotation).
    pub negate_forearm: bool,
    /// Draw each vertex's deformation ellipse over the arms.
    pub ellipses: bool,
    /// A third joint halfway along the forearm takes half the twist (see [`Arm`]).
    pub twist_bone: bool,
    check: Check,
    camera: Camera,
    arm: Arc<ArmMesh>,
    /// The mesh as drawn: the arm with the current weights, and whether it carries the
    /// heat map's colours.
    drawn: Option<(bool, Arc<SkinMesh>, Arc<MeshData>)>,
    /// Area curves against twist, and what they were computed for.
    areas: Option<(AreaKey, Arc<Areas>)>,
    /// The vertex the brush is over.
    brush_at: Option<usize>,
    /// The skin and the skinned arm of the last state asked about.
    cache: Mutex<data::Cache>,
    /// Where the viewport was drawn last frame (for tests).
    pub viewport_rect: egui::Rect,
}

fn default_camera() -> Camera {
    Camera::Orbit(OrbitCamera {
        target: Vec3::new(2.0, 0.0, 0.0),
        yaw: 0.35,
        pitch: 0.3,
        distance: 11.0,
    })
}

fn falloff_arm(rig: Arm, falloff: Falloff, width: f32) -> ArmMesh {
    // Falloff weights are finite, non-negative and name bones of the arm for any width:
    // covered by the tests in `rigs::arm`; an error there would show as an empty arm.
    rig.mesh(falloff, width).unwrap_or_else(|_| ArmMesh {
        skin: SkinMesh::default(),
        triangles: Vec::new(),
    })
}

/// The arm the page opens with and its weights, built once: every page shares them.
fn default_arm() -> (Arc<ArmMesh>, WeightMap) {
    static ARM: OnceLock<(Arc<ArmMesh>, WeightMap)> = OnceLock::new();
    ARM.get_or_init(|| {
        let arm = falloff_arm(Arm::PLAIN, DEFAULT_FALLOFF, arm::DEFAULT_BLEND_WIDTH);
        let weights = WeightMap::from_influences(&arm.skin.influences, arm::BONE_COUNT);
        (Arc::new(arm), weights)
    })
    .clone()
}

/// The falloff the page opens with.
const DEFAULT_FALLOFF: Falloff = Falloff::Linear;
/// The bone whose weights the heat map shows when the page opens: the forearm.
const DEFAULT_BONE: usize = 1;
/// The elbow's bend: the most either way, radians.
pub const MAX_BEND: f32 = 2.6;
/// The range of [`BlendingPage::weight_scale`].
pub const WEIGHT_SCALE: std::ops::RangeInclusive<f32> = 0.25..=2.0;

impl Default for BlendingPage {
    fn default() -> Self {
        let (arm, weights) = default_arm();
        Self {
            twist: 0.0,
            bend: 0.0,
            mode: Mode::Both,
            bone: DEFAULT_BONE,
            falloff: DEFAULT_FALLOFF,
            blend_width: arm::DEFAULT_BLEND_WIDTH,
            heat_map: true,
            weights,
            painted: false,
            brush: Brush::new(0.45),
            auto_normalise: true,
            position_w: PositionW::Divide,
            weight_scale: 1.0,
            vertex: None,
            antipodal_check: true,
            negate_forearm: false,
            ellipses: false,
            twist_bone: false,
            check: Check::default(),
            camera: default_camera(),
            arm,
            drawn: None,
            areas: None,
            brush_at: None,
            cache: Mutex::default(),
            viewport_rect: egui::Rect::NOTHING,
        }
    }
}

/// What the area curves depend on.
#[derive(Clone, Debug, PartialEq)]
struct AreaKey {
    bend: f32,
    weights: WeightMap,
    auto_normalise: bool,
    position_w: PositionW,
    weight_scale: f32,
    antipodal_check: bool,
    negate_forearm: bool,
    twist_bone: bool,
}

/// The elbow ring's area, relative to the bind pose, against the twist in degrees.
pub struct Areas {
    /// `[twist degrees, area / bind area]` for linear blending.
    pub lbs: Vec<[f64; 2]>,
    /// The same for dual quaternions.
    pub dqs: Vec<[f64; 2]>,
}

impl BlendingPage {
    /// The rig the arm is skinned with: with or without the twist bone.
    pub fn rig(&self) -> Arm {
        Arm {
            twist_bone: self.twist_bone,
        }
    }

    /// Adds or removes the twist bone. The weights start again from the falloff, since
    /// painted weights name the joints of the other rig.
    pub fn set_twist_bone(&mut self, on: bool) {
        if on == self.twist_bone {
            return;
        }
        self.twist_bone = on;
        self.bone = self.bone.min(self.rig().joint_count() - 1);
        self.use_falloff(self.falloff, self.blend_width);
    }

    fn dual_quats(&self, palette: &[Mat4]) -> Vec<DualQuat> {
        let mut dq = dual_quat_palette(palette);
        if self.negate_forearm
            && let Some(forearm) = dq.get_mut(1)
        {
            forearm.real = -forearm.real;
            forearm.dual = -forearm.dual;
        }
        dq
    }

    /// The elbow ring's area at the current twist, as a share of the bind pose's: LBS,
    /// then DQS (the curves' step nearest the twist).
    pub fn areas_now(&mut self) -> (f64, f64) {
        let areas = self.areas();
        let now = self.twist.to_degrees() as f64;
        let at = |curve: &[[f64; 2]]| {
            curve
                .iter()
                .min_by(|a, b| (a[0] - now).abs().total_cmp(&(b[0] - now).abs()))
                .map_or(0.0, |p| p[1])
        };
        (at(&areas.lbs), at(&areas.dqs))
    }

    /// The elbow ring's area against twist for both methods (cached).
    pub fn areas(&mut self) -> Arc<Areas> {
        let key = AreaKey {
            bend: self.bend,
            weights: self.weights.clone(),
            auto_normalise: self.auto_normalise,
            position_w: self.position_w,
            weight_scale: self.weight_scale,
            antipodal_check: self.antipodal_check,
            negate_forearm: self.negate_forearm,
            twist_bone: self.twist_bone,
        };
        if let Some((k, areas)) = &self.areas
            && *k == key
        {
            return areas.clone();
        }
        let ring = arm::elbow_ring();
        let mut only = self.arm.ring_only(ring);
        let skin = self.skin();
        only.influences =
            skin.influences[ring * arm::SEGMENTS..(ring + 1) * arm::SEGMENTS].to_vec();
        let bind = arm::ring_area(&only.positions, 0).max(1e-6);
        let (mut lbs, mut dqs) = (Vec::new(), Vec::new());
        for step in 0..=72 {
            let degrees = step as f32 * 5.0;
            let palette = self.rig().palette(degrees.to_radians(), self.bend);
            let mut l = skin_vertices(&palette, &only);
            self.position_w.place(&palette, &only, &mut l);
            let d = skin_vertices_dq(&self.dual_quats(&palette), &[], &only, self.antipodal_check);
            let area = |v: &[SkinnedVertex]| {
                let p: Vec<Vec3> = v.iter().map(|v| v.position).collect();
                (arm::ring_area(&p, 0) / bind) as f64
            };
            lbs.push([degrees as f64, area(&l)]);
            dqs.push([degrees as f64, area(&d)]);
        }
        let areas = Arc::new(Areas { lbs, dqs });
        self.areas = Some((key, areas.clone()));
        areas
    }

    /// Replaces the weights with the falloff's (dropping any painting).
    pub fn use_falloff(&mut self, falloff: Falloff, width: f32) {
        self.falloff = falloff;
        // What the weights can use: wider regions would overlap (see `Arm::weights_at`).
        self.blend_width = width.min(self.rig().max_blend_width());
        let arm = falloff_arm(self.rig(), falloff, width);
        self.weights = WeightMap::from_influences(&arm.skin.influences, self.rig().joint_count());
        self.arm = Arc::new(arm);
        self.painted = false;
        self.drawn = None;
    }

    /// The weights the falloff gives, before any painting.
    fn falloff_weights(&self) -> WeightMap {
        WeightMap::from_influences(&self.arm.skin.influences, self.rig().joint_count())
    }

    /// The painted weights as a link writes them: the changed weights, packed, in
    /// URL-safe base64. `None` when nothing is painted.
    pub fn painted_link(&self) -> Option<String> {
        if !self.painted {
            return None;
        }
        let packed = self.weights.pack_changes(&self.falloff_weights())?;
        Some(base64::encode_url(&packed))
    }

    /// Paints the weights a link packed over the falloff's, or says what is wrong
    /// and changes nothing.
    pub fn set_painted_link(&mut self, text: &str) -> Result<(), String> {
        let packed = base64::decode(text.as_bytes())
            .map_err(|at| format!("character {} is not URL-safe base64", at + 1))?;
        let weights = WeightMap::unpack_changes(&self.falloff_weights(), &packed)?;
        if let Err(e) = weights.influences(self.auto_normalise) {
            return Err(format!("the weights cannot be blended: {e}"));
        }
        self.weights = weights;
        self.painted = true;
        self.weights_changed();
        Ok(())
    }

    /// Marks the drawn mesh stale after the weights or colours changed.
    fn weights_changed(&mut self) {
        self.drawn = None;
    }
}

impl Lesson for BlendingPage {
    fn camera(&self) -> Option<Camera> {
        Some(self.camera)
    }

    fn set_camera(&mut self, camera: Camera) {
        self.camera = camera;
    }

    const INFO: &'static PageInfo = &PageInfo {
        slug: "blending",
        chapter: chapter_text!("blending"),
    };

    const PARAMS: &'static [Param<Self>] = links::PARAMS;

    type Cell = Cell;

    fn cell_ui(&mut self, cell: Cell, ui: &mut egui::Ui) {
        self.page_cell_ui(cell, ui);
    }

    fn view_in_words(&mut self) -> String {
        let (lbs, dqs) = self.areas_now();
        let arms = match self.mode {
            Mode::Lbs => "An LBS arm",
            Mode::Dqs => "A DQS arm",
            Mode::Both => "LBS and DQS arms",
        };
        format!(
            "{arms}, twist {}, bend {}; elbow ring area LBS {:.0}%, DQS {:.0}% of the bind pose{}.",
            crate::ui::degrees(self.twist),
            crate::ui::degrees(self.bend),
            lbs * 100.0,
            dqs * 100.0,
            if self.heat_map {
                format!("; heat map of bone {}'s weights", self.bone)
            } else {
                String::new()
            }
        )
    }

    fn viewport_ui(&mut self, ui: &mut egui::Ui) {
        self.page_viewport_ui(ui);
    }
}
