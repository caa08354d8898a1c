//! The transformation hierarchy: a 19-joint figure, `world = parent world · local` as a
//! live chain of matrices, and the same walk multiplied in the wrong order.

mod cells;
mod exercise;
pub mod links;
mod view;

use crate::gl::{MeshData, Primitive};
use crate::link::{Link, LinkError};
use crate::page::{Page, PageInfo};
use crate::skin::Trs;
use crate::skin::hierarchy::{self, EXERCISES};
use crate::skin::humanoid::{self, JOINT_COUNT, JOINTS};
use crate::skin::lbs::inverse_bind;
use crate::ui::check::Check;
use crate::ui::{Camera, OrbitCamera};
use egui::{Pos2, Ui};
use glam::{Mat4, Vec3};
use links::Field;
use std::sync::Arc;

/// The page's cells, in chapter order; their snake_case names are the chapter's cell
/// markers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, strum::EnumString, strum::VariantNames)]
#[strum(serialize_all = "snake_case")]
pub enum Cell {
    Tree,
    Local,
    Chain,
    Order,
    Check,
}

/// The page's declaration.
pub static INFO: PageInfo = PageInfo {
    slug: "hierarchy",
    title: "The transformation hierarchy",
    chapter: include_str!("../../../chapters/01-hierarchy.md"),
    cells: <Cell as strum::VariantNames>::VARIANTS,
};
const KEYS: &[&str] = &["joint", "rot", "pos", "scale", "order", "question"];
/// The joint selected when the page opens: far enough down to make a chain worth reading.
pub const DEFAULT_JOINT: usize = 6;
const ORDERS: [&str; 2] = ["right", "wrong"];

/// Meshes and bind-pose data, built once and shared across resets.
struct Assets {
    /// The T-pose as local transforms.
    bind: [Trs; JOINT_COUNT],
    /// The inverse bind matrices of the T-pose.
    joint_from_bind: Vec<Mat4>,
    /// Every bone shape, as triangles.
    bones: Arc<MeshData>,
    /// The same shapes as outlines, for the wrong-order ghost.
    ghost: Arc<MeshData>,
    /// Per joint: the bone shapes of its subtree only, drawn over `bones` to highlight
    /// what an edit of that joint moves.
    subtree: Vec<Arc<MeshData>>,
}

impl Assets {
    fn new() -> Self {
        let bind_pose = humanoid::bind_pose();
        let bind: [Trs; JOINT_COUNT] = std::array::from_fn(|j| bind_pose[j]);
        let world_at_bind = humanoid::skeleton().world_from_joint(&hierarchy::locals(&bind));
        // The T-pose is translations only, so it always has an inverse.
        let joint_from_bind =
            inverse_bind(&world_at_bind).unwrap_or_else(|_| vec![Mat4::IDENTITY; JOINT_COUNT]);
        let (skin, indices) = humanoid::bone_mesh(&world_at_bind);
        let outline = indices
            .chunks_exact(3)
            .flat_map(|t| [t[0], t[1], t[1], t[2], t[2], t[0]])
            .collect();
        let subtree = (0..JOINT_COUNT)
            .map(|joint| {
                let inside = humanoid::subtree(joint);
                let picked = indices
                    .chunks_exact(3)
                    .filter(|t| {
                        let owner = skin.influences[t[0] as usize].joints[0] as usize;
                        inside.contains(&owner)
                    })
                    .flatten()
                    .copied()
                    .collect();
                MeshData::new(skin.clone(), picked, Primitive::Triangles)
            })
            .collect();
        Self {
            bind,
            joint_from_bind,
            ghost: MeshData::new(skin.clone(), outline, Primitive::Lines),
            bones: MeshData::new(skin, indices, Primitive::Triangles),
            subtree,
        }
    }
}

/// A joint being dragged in the viewport.
#[derive(Clone, Copy, Debug)]
struct Drag {
    joint: usize,
    /// The drag moves the joint on the plane facing the camera through this point.
    plane_through: Vec3,
}

/// Everything derived from the local transforms for one frame.
pub struct Pose {
    /// `parent_from_joint` per joint.
    pub local: Vec<Mat4>,
    /// `world_from_joint = world_from_parent · parent_from_joint`.
    pub world: Vec<Mat4>,
    /// The wrong order, `parent_from_joint · world_from_parent`.
    pub wrong: Vec<Mat4>,
}

/// The page's state.
pub struct HierarchyPage {
    /// Each joint's local transform; the T-pose by default.
    pub pose: [Trs; JOINT_COUNT],
    /// The joint shown in the local and chain cells.
    pub selected: usize,
    /// Show the wrong order, `local · parent world`, as a ghost skeleton.
    pub wrong_order: bool,
    /// Which check-yourself exercise is asked.
    pub exercise: usize,
    /// The check-yourself answer and verdict.
    pub check: Check,
    /// Why the last edit was refused, shown until the next good edit.
    pub refused: Option<String>,
    dragging: Option<Drag>,
    camera: Camera,
    /// Screen positions of the joints in the last frame (for picking and tests).
    pub joint_screen: [Pos2; JOINT_COUNT],
    assets: Arc<Assets>,
}

fn default_camera() -> Camera {
    Camera::Orbit(OrbitCamera {
        target: Vec3::new(-0.25, 1.05, 0.0),
        yaw: 0.45,
        pitch: 0.22,
        distance: 3.9,
    })
}

impl Default for HierarchyPage {
    fn default() -> Self {
        Self::with_assets(Arc::new(Assets::new()))
    }
}

impl HierarchyPage {
    /// The page at its defaults around already built meshes.
    fn with_assets(assets: Arc<Assets>) -> Self {
        Self {
            pose: assets.bind,
            selected: DEFAULT_JOINT,
            wrong_order: false,
            exercise: 0,
            check: Check::default(),
            refused: None,
            dragging: None,
            camera: default_camera(),
            joint_screen: [Pos2::ZERO; JOINT_COUNT],
            assets,
        }
    }
}

impl HierarchyPage {
    /// The world and wrong-order matrices of the current pose.
    pub fn pose(&self) -> Pose {
        let skeleton = humanoid::skeleton();
        let local = hierarchy::locals(&self.pose);
        Pose {
            world: skeleton.world_from_joint(&local),
            wrong: hierarchy::world_from_joint_wrong_order(&skeleton, &local),
            local,
        }
    }

    /// Where joint `joint` is in the world now.
    pub fn joint_position(&self, joint: usize) -> Vec3 {
        self.pose().world[joint].transform_point3(Vec3::ZERO)
    }

    /// Whether `joint` differs from the T-pose.
    pub fn is_edited(&self, joint: usize) -> bool {
        self.pose[joint] != self.assets.bind[joint]
    }

    /// Back to the T-pose, keeping the selection and the toggles.
    pub fn reset_pose(&mut self) {
        self.pose = self.assets.bind;
        self.refused = None;
    }
}

impl Page for HierarchyPage {
    fn info(&self) -> &'static PageInfo {
        &INFO
    }

    fn link_keys(&self) -> Vec<&'static str> {
        KEYS.to_vec()
    }

    fn reset(&mut self) {
        let joint_screen = self.joint_screen;
        *self = Self::with_assets(self.assets.clone());
        // Where the joints were drawn stays valid until the next frame redraws them.
        self.joint_screen = joint_screen;
    }

    fn apply_link(&mut self, link: &Link) -> Result<(), LinkError> {
        let names: Vec<&str> = JOINTS.iter().map(|j| j.name).collect();
        let joint = link.choice("joint", &names)?;
        let edits: Vec<(Field, Vec<(usize, Vec3)>)> = Field::ALL
            .iter()
            .map(|f| links::read(*f, link).map(|e| (*f, e)))
            .collect::<Result<_, _>>()?;
        let order = link.choice("order", &ORDERS)?;
        let exercise = link.question(EXERCISES.len())?;
        self.selected = joint.unwrap_or(self.selected);
        for (field, entries) in edits {
            for (j, value) in entries {
                *field.get_mut(&mut self.pose[j]) = value;
            }
        }
        if let Some(order) = order {
            self.wrong_order = order == 1;
        }
        self.exercise = exercise.unwrap_or(self.exercise);
        Ok(())
    }

    fn link(&self) -> Link {
        let mut link = Link::new(self.slug());
        if self.selected != DEFAULT_JOINT {
            link = link.with("joint", JOINTS[self.selected].name);
        }
        for field in Field::ALL {
            if let Some(value) = links::write(field, &self.pose, &self.assets.bind) {
                link = link.with(field.key(), value);
            }
        }
        if self.wrong_order {
            link = link.with("order", "wrong");
        }
        if self.exercise != 0 {
            link = link.with("question", self.exercise + 1);
        }
        link
    }

    fn cell_ui(&mut self, cell: &str, ui: &mut Ui) {
        // A 4x4 matrix is wider than the notebook column in presenter mode: let a cell
        // scroll sideways rather than widen the column and cut the prose off.
        let width = ui.available_width();
        egui::ScrollArea::horizontal()
            .id_salt(("hierarchy", cell))
            .show(ui, |ui| {
                // Sentences still wrap at the column (`cells::wrapped`); matrices scroll.
                ui.set_max_width(width);
                self.cell_content_ui(cell, ui);
            });
    }

    fn viewport_ui(&mut self, ui: &mut Ui) {
        self.view_ui(ui);
    }
}

impl HierarchyPage {
    fn cell_content_ui(&mut self, cell: &str, ui: &mut Ui) {
        match cell.parse::<Cell>() {
            Ok(Cell::Tree) => self.tree_ui(ui),
            Ok(Cell::Local) => self.local_ui(ui),
            Ok(Cell::Chain) => self.chain_ui(ui),
            Ok(Cell::Order) => self.order_ui(ui),
            Ok(Cell::Check) => self.check_ui(ui),
            Err(_) => crate::ui::error_ui(ui, format!("this page has no cell `{cell}`")),
        }
    }
}
