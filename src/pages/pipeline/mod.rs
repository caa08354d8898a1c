//! The skinning pipeline on one screen: bind pose, inverse bind, pose, palette, shader,
//! pixel, followed for one joint and one vertex of the two-bone arm, each stage beside
//! the names other tools give it and the page that teaches it.

mod cells;
pub mod exercise;
mod links;
mod view;

use crate::link::Param;
use crate::page::{Lesson, PageInfo};
use crate::ui::check::Check;
use crate::ui::scroll::ScrollTo;
use crate::ui::{Camera, OrbitCamera};
use glam::{Mat4, Vec3};
use rigs::arm::{self, Falloff};
use scene::{MeshData, Primitive};
use skin::Influences;
use skin::lbs::{SkinMesh, blended_matrix, palette};
use std::sync::{Arc, OnceLock};

/// The page's cells, in chapter order; their snake_case names are the chapter's cell
/// markers.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, strum::EnumString, strum::VariantNames, strum::IntoStaticStr,
)]
#[strum(serialize_all = "snake_case")]
pub enum Cell {
    /// The six stages for the chosen joint and vertex.
    Pipeline,
    Check,
}

/// The arm's joints, in order.
pub const JOINT_NAMES: [&str; arm::BONE_COUNT] = ["upper arm", "forearm"];
/// The elbow's bend: the most either way, radians.
pub const MAX_BEND: f32 = 2.6;
/// The bend the page opens with, radians: 52°, as the slider shows it, so that the
/// matrices beside it can be worked by hand from the angle on screen.
pub const DEFAULT_BEND: f32 = 52.0 * std::f32::consts::PI / 180.0;

/// The vertex the page opens with: on the front of the arm, a quarter of a bone past
/// the elbow, where the forearm holds 0.75 of it and the upper arm 0.25.
pub fn default_vertex() -> usize {
    (arm::elbow_ring() + arm::RINGS_PER_BONE / 8) * arm::SEGMENTS + arm::SEGMENTS / 4
}

/// The arm: its skin for the CPU, and its mesh for the GPU, built once.
fn arm_mesh() -> Arc<MeshData> {
    static ARM: OnceLock<Arc<MeshData>> = OnceLock::new();
    ARM.get_or_init(|| {
        // Falloff weights are valid by construction (tested in `rigs::arm`); an error
        // would show as an empty viewport.
        let arm = arm::mesh(Falloff::Linear, arm::DEFAULT_BLEND_WIDTH).ok();
        let (skin, triangles) = arm.map(|a| (a.skin, a.triangles)).unwrap_or_default();
        MeshData::new(skin, triangles, Primitive::Triangles)
    })
    .clone()
}

// ANCHOR: stages
/// One joint and one vertex through the pipeline, stage by stage.
#[derive(Clone, Debug, PartialEq)]
pub struct Stages {
    /// 1. `world_from_joint` in the bind pose, for the chosen joint.
    pub bind: Mat4,
    /// 2. `joint_from_bind = inverse(bind)`.
    pub inverse_bind: Mat4,
    /// 3. `world_from_joint` in the current pose.
    pub pose: Mat4,
    /// 4. The palette, one `world_from_bind = pose · inverse_bind` per joint.
    pub palette: Vec<Mat4>,
    /// 5. The vertex in the bind pose, its influences, and where the shader puts it.
    pub vertex: Vec3,
    pub influences: Influences,
    pub skinned: Vec3,
}

impl Stages {
    /// The stages for `joint` and `vertex` of `mesh` with the elbow bent by `bend`;
    /// `None` when there is no such joint or vertex.
    pub fn new(mesh: &SkinMesh, bend: f32, joint: usize, vertex: usize) -> Option<Self> {
        let bind = arm::world_from_joint(0.0, 0.0).get(joint).copied()?;
        let inverse_bind = arm::joint_from_bind().get(joint).copied()?;
        let pose = arm::world_from_joint(0.0, bend)[joint];
        let palette = palette(&arm::world_from_joint(0.0, bend), &arm::joint_from_bind());
        let position = *mesh.positions.get(vertex)?;
        let influences = *mesh.influences.get(vertex)?;
        let skinned = blended_matrix(&palette, &influences).transform_point3(position);
        Some(Self {
            bind,
            inverse_bind,
            pose,
            palette,
            vertex: position,
            influences,
            skinned,
        })
    }
}

/// Stage 6, where a world point lands: [`crate::ui::project`], the same arithmetic the
/// viewport uses to place its labels.
pub use crate::ui::project as to_pixel;
// ANCHOR_END: stages

/// The page's state.
pub struct PipelinePage {
    /// The elbow's bend about z, radians.
    pub bend: f32,
    /// The joint whose matrices the stages show.
    pub joint: usize,
    /// The vertex followed to the pixel.
    pub vertex: usize,
    /// The check cell's exercise.
    pub exercise: usize,
    check: Check,
    /// The exercise's vertex in the bind pose, once its pose is shown: ringed in the
    /// viewport, and where it lands too once answered right.
    exercise_point: Option<(Vec3, Vec3)>,
    camera: Camera,
    arm: Arc<MeshData>,
    scroll_to: ScrollTo,
    /// The viewport's `clip_from_world` and size in pixels, as last drawn.
    seen: Option<(Mat4, [f32; 2])>,
    /// Where the viewport was drawn last frame (for tests).
    pub viewport_rect: egui::Rect,
}

/// The arm face on, bent or straight, with its bind outline and the exercises' vertices
/// (out to x = 3) in view.
pub(super) fn default_camera() -> Camera {
    Camera::Orbit(OrbitCamera {
        target: Vec3::new(2.0, 0.6, 0.0),
        yaw: 0.0,
        pitch: 0.0,
        distance: 10.0,
    })
}

impl Default for PipelinePage {
    fn default() -> Self {
        Self {
            bend: DEFAULT_BEND,
            joint: 1,
            vertex: default_vertex(),
            exercise: 0,
            check: Check::default(),
            exercise_point: None,
            camera: default_camera(),
            arm: arm_mesh(),
            scroll_to: ScrollTo::default(),
            seen: None,
            viewport_rect: egui::Rect::NOTHING,
        }
    }
}

impl PipelinePage {
    /// The stages for the current state.
    pub fn stages(&self) -> Option<Stages> {
        Stages::new(&self.arm.skin, self.bend, self.joint, self.vertex)
    }

    /// The pixel of the viewport, as last drawn, where the followed vertex lands (from
    /// its top left corner); `None` before the first frame or behind the camera.
    pub fn pixel(&self) -> Option<[f32; 2]> {
        let (clip_from_world, size) = self.seen?;
        to_pixel(clip_from_world, size, self.stages()?.skinned).map(|(_, _, pixel)| pixel)
    }
}

impl Lesson for PipelinePage {
    fn camera(&self) -> Option<Camera> {
        Some(self.camera)
    }

    fn set_camera(&mut self, camera: Camera) {
        self.camera = camera;
    }

    const INFO: &'static PageInfo = &PageInfo {
        slug: "pipeline",
        chapter: chapter_text!("pipeline"),
    };

    const PARAMS: &'static [Param<Self>] = links::PARAMS;

    type Cell = Cell;

    fn cell_ui(&mut self, cell: Cell, ui: &mut egui::Ui) {
        self.page_cell_ui(cell, ui);
    }

    fn view_in_words(&mut self) -> String {
        format!(
            "An arm of {} vertices on two joints, drawn by the skinning shader, the elbow bent {}; the {} picked, vertex {} marked where it lands.",
            arm::VERTEX_COUNT,
            crate::ui::degrees(self.bend),
            JOINT_NAMES[self.joint.min(JOINT_NAMES.len() - 1)],
            self.vertex
        )
    }

    fn viewport_ui(&mut self, ui: &mut egui::Ui) {
        self.page_viewport_ui(ui);
    }
}
