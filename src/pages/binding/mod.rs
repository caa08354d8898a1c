//! Binding transforms: a neck and head rig skinned two ways. First each vertex is stored
//! in its one joint's space and placed by that joint's world matrix alone; then every
//! vertex is stored in bind space and each joint gets an inverse bind matrix, captured
//! at bind time, so the palette is `world_from_joint · joint_from_bind`.

mod cells;
mod exercise;
mod links;
mod view;

use crate::gl::{MeshData, Primitive};
use crate::link::{Link, LinkError};
use crate::page::{Page, PageInfo};
use crate::skin::binding::{self, JOINT_COUNT};
use crate::skin::lbs::{SkinMesh, skin_vertices};
use crate::ui::check::Check;
use crate::ui::{Camera, PlaneCamera};
use egui::{Pos2, Ui};
use glam::{Mat4, Vec2, Vec3};
use std::sync::Arc;

/// The page's cells, in chapter order; their snake_case names are the chapter's cell
/// markers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, strum::EnumString, strum::VariantNames)]
#[strum(serialize_all = "snake_case")]
pub enum Cell {
    JointSpace,
    Forget,
    BindSpace,
    Rebind,
    Check,
}

/// The page's declaration.
pub static INFO: PageInfo = PageInfo {
    slug: "binding",
    title: "Binding transforms",
    chapter: include_str!("../../../chapters/04-binding.md"),
    cells: <Cell as strum::VariantNames>::VARIANTS,
};
const KEYS: &[&str] = &[
    "stage",
    "angles",
    "rebind",
    "inverse_bind",
    "joint",
    "forget_inverse_bind",
    "stored",
    "question",
];
/// The joint selected when the page opens: the head of the seed's example.
const DEFAULT_JOINT: usize = binding::HEAD;

/// How the mesh is stored and bound: the two stages of the chapter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// One joint per vertex, vertices in that joint's space, palette = world matrices.
    JointSpace,
    /// Blended weights, vertices in bind space, palette = world · inverse bind.
    BindSpace,
}

impl Stage {
    /// Both stages, in chapter order.
    pub const ALL: [Self; 2] = [Self::JointSpace, Self::BindSpace];

    /// The link name.
    pub fn slug(self) -> &'static str {
        match self {
            Self::JointSpace => "joint_space",
            Self::BindSpace => "bind_space",
        }
    }

    fn label(self) -> &'static str {
        match self {
            Self::JointSpace => "1. One joint each, joint space",
            Self::BindSpace => "2. Blended, bind space",
        }
    }

    /// The cell that introduces this stage in the notebook.
    fn first_cell(self) -> &'static str {
        match self {
            Self::JointSpace => "joint_space",
            Self::BindSpace => "bind_space",
        }
    }
}

/// The two stored meshes, built once and kept through resets.
struct Assets {
    /// Stage one: vertices in their joint's space, one joint each.
    joint_space: Arc<MeshData>,
    /// Stage two: vertices in bind space, blended weights.
    bind_space: Arc<MeshData>,
    /// The same meshes with no vertex colours, for the grey ghosts.
    joint_space_plain: Arc<MeshData>,
    bind_space_plain: Arc<MeshData>,
}

/// Colours each vertex by the joints that move it: its weights mix the joint colours.
fn weight_colors(mesh: &SkinMesh) -> Vec<[f32; 4]> {
    mesh.influences
        .iter()
        .map(|inf| {
            let mut c = [0.0, 0.0, 0.0, 1.0];
            for (joint, weight) in inf.used() {
                let jc = crate::ui::rgba(view::JOINT_COLORS[joint]);
                for k in 0..3 {
                    c[k] += jc[k] * weight;
                }
            }
            c
        })
        .collect()
}

impl Assets {
    fn new() -> Self {
        let lines = binding::lines();
        let local = binding::mesh_in_joint_space();
        // The weights are constant and covered by tests in `skin::binding`; an error
        // could only come from a change there, and would show as an empty mesh.
        let bind = binding::mesh_in_bind_space().unwrap_or_default();
        Self {
            joint_space_plain: MeshData::new(local.clone(), lines.clone(), Primitive::Lines),
            bind_space_plain: MeshData::new(bind.clone(), lines.clone(), Primitive::Lines),
            joint_space: MeshData::with_colors(
                local.clone(),
                lines.clone(),
                Primitive::Lines,
                weight_colors(&local),
            ),
            bind_space: MeshData::with_colors(
                bind.clone(),
                lines,
                Primitive::Lines,
                weight_colors(&bind),
            ),
        }
    }
}

/// The page's state.
pub struct BindingPage {
    /// Which stage the viewport shows.
    pub stage: Stage,
    /// Each joint's turn about z, radians (the current pose).
    pub angles: [f32; JOINT_COUNT],
    /// The pose at which the inverse bind matrices were captured.
    pub rebind: [f32; JOINT_COUNT],
    /// The inverse bind matrices: captured at `rebind`, unless a cell was edited. Each
    /// one always has an inverse.
    pub joint_from_bind: [Mat4; JOINT_COUNT],
    /// The joint whose matrices are shown.
    pub joint: usize,
    /// Stage two uploads world matrices instead of world · inverse bind.
    pub forget_inverse_bind: bool,
    /// Stage one also draws the stored numbers as they are, with no skeleton.
    pub show_stored: bool,
    /// The check cell's exercise.
    pub exercise: usize,
    check: Check,
    refused: Option<String>,
    scroll_to: crate::ui::scroll::ScrollTo,
    dragging: Option<usize>,
    camera: Camera,
    assets: Arc<Assets>,
    /// Screen positions of the joints in the last frame (picking and tests).
    pub joint_screen: [Pos2; JOINT_COUNT],
}

fn default_camera() -> Camera {
    Camera::Plane(PlaneCamera {
        center: Vec2::new(0.0, 2.2),
        half_height: 3.6,
    })
}

impl Default for BindingPage {
    fn default() -> Self {
        Self::with_assets(Arc::new(Assets::new()))
    }
}

impl BindingPage {
    fn with_assets(assets: Arc<Assets>) -> Self {
        Self {
            stage: Stage::JointSpace,
            angles: [0.0; JOINT_COUNT],
            rebind: [0.0; JOINT_COUNT],
            joint_from_bind: binding::capture_inverse_bind([0.0; JOINT_COUNT]),
            joint: DEFAULT_JOINT,
            forget_inverse_bind: false,
            show_stored: false,
            exercise: 0,
            check: Check::default(),
            refused: None,
            scroll_to: Default::default(),
            dragging: None,
            camera: default_camera(),
            assets,
            joint_screen: [Pos2::ZERO; JOINT_COUNT],
        }
    }

    /// `world_from_joint` of the current pose.
    pub fn world_from_joint(&self) -> Vec<Mat4> {
        binding::world_from_joint(self.angles)
    }

    /// The inverse bind matrices captured at the `rebind` pose (before any edit).
    pub fn captured(&self) -> [Mat4; JOINT_COUNT] {
        binding::capture_inverse_bind(self.rebind)
    }

    /// What the shader receives in the stage shown.
    pub fn uploaded(&self) -> Vec<Mat4> {
        let world = self.world_from_joint();
        match self.stage {
            Stage::JointSpace => world,
            Stage::BindSpace => {
                binding::palette(&world, &self.joint_from_bind, self.forget_inverse_bind)
            }
        }
    }

    /// The mesh of the stage shown, as stored.
    fn mesh(&self) -> &Arc<MeshData> {
        match self.stage {
            Stage::JointSpace => &self.assets.joint_space,
            Stage::BindSpace => &self.assets.bind_space,
        }
    }

    /// The stage's mesh with no vertex colours, for a ghost drawn in one colour.
    fn plain_mesh(&self) -> &Arc<MeshData> {
        match self.stage {
            Stage::JointSpace => &self.assets.joint_space_plain,
            Stage::BindSpace => &self.assets.bind_space_plain,
        }
    }

    /// Where every vertex lands now (the CPU reference of what the shader draws).
    pub fn skinned(&self) -> Vec<Vec3> {
        skin_vertices(&self.uploaded(), &self.mesh().skin)
            .iter()
            .map(|v| v.position)
            .collect()
    }

    /// "Bind at the current pose": capture every inverse bind again, here.
    pub fn bind_at(&mut self, angles: [f32; JOINT_COUNT]) {
        self.rebind = angles;
        self.joint_from_bind = self.captured();
        self.refused = None;
    }

    fn scroll_to(&mut self, cell: &'static str) {
        self.scroll_to.set(Some(cell));
    }
}

impl Page for BindingPage {
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
        links::apply(self, link)
    }

    fn link(&self) -> Link {
        links::write(self)
    }

    fn cell_ui(&mut self, cell: &str, ui: &mut Ui) {
        cells::cell_ui(self, cell, ui);
    }

    fn viewport_ui(&mut self, ui: &mut Ui) {
        view::viewport_ui(self, ui);
    }
}
