//! The transformation hierarchy: a 19-joint figure, `world = parent world · local` as a
//! live chain of matrices, and the same walk multiplied in the wrong order.

mod cells;
pub mod exercise;
mod links;
mod scrub;
mod text;
mod view;
pub mod walk;

use crate::link::Param;
use crate::page::{Lesson, PageInfo};
use crate::pages::joint_link::{self, JOINT_NAMES};
use crate::pages::local_transform::{Field, problem};
use crate::ui::check::Check;
use crate::ui::{Camera, OrbitCamera};
use egui::{Pos2, Ui};
use exercise::EXERCISES;
use glam::{Mat4, Vec3};
use rigs::humanoid::{self, JOINT_COUNT};
use scene::{MeshData, Primitive};
use skin::explain::trs::Trs;
use skin::lbs::inverse_bind;
use std::sync::{Arc, OnceLock};

pub use scrub::{MOST_FACTORS, SCRUB_POINT};

/// The page's cells, in chapter order; their snake_case names are the chapter's cell
/// markers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, strum::EnumString, strum::VariantNames)]
#[strum(serialize_all = "snake_case")]
pub enum Cell {
    Tree,
    Local,
    Chain,
    Order,
    Check,
}

/// The joint selected when the page opens: far enough down to make a chain worth reading.
pub const DEFAULT_JOINT: usize = 6;
const ORDERS: [&str; 2] = ["right", "wrong"];

/// Meshes and bind-pose data: constant, built once and shared by every page built.
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
    /// The one copy, built the first time a page is.
    fn shared() -> Arc<Self> {
        static ASSETS: OnceLock<Arc<Assets>> = OnceLock::new();
        ASSETS.get_or_init(|| Arc::new(Self::new())).clone()
    }

    fn new() -> Self {
        let bind_pose = humanoid::bind_pose();
        let bind: [Trs; JOINT_COUNT] = std::array::from_fn(|j| bind_pose[j]);
        let world_at_bind = humanoid::skeleton().world_from_joint(&walk::locals(&bind));
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
    /// Whether the link being applied named the joint (`joint=`): if not, the last
    /// joint its pose lists name is the one shown.
    joint_linked: bool,
    /// Show the wrong order, `local · parent world`, as a ghost skeleton.
    pub wrong_order: bool,
    /// Which check-yourself exercise is asked.
    pub exercise: usize,
    /// The check-yourself answer and verdict.
    pub check: Check,
    /// Why the last edit was refused, shown until the next good edit.
    pub refused: Option<String>,
    /// How many factors of the selected joint's chain are applied to its origin, from
    /// the right; `None` when not scrubbing.
    pub scrub: Option<usize>,
    /// Where the viewport drew the scrubbed point in the last frame (for tests).
    pub scrub_screen: Option<Pos2>,
    /// The chain step last scrolled into view (joint, scrub step), and for how many
    /// more frames it is brought back if out of view (while the layout settles); then
    /// the reader may scroll freely.
    chain_shown: Option<((usize, usize), u8)>,
    /// Where the chain cell asked to scroll this frame: asked for outside the cell's
    /// sideways scroll area, which would otherwise swallow it.
    chain_scroll: Option<egui::Rect>,
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
        let assets = Assets::shared();
        Self {
            pose: assets.bind,
            selected: DEFAULT_JOINT,
            joint_linked: false,
            wrong_order: false,
            exercise: 0,
            check: Check::default(),
            refused: None,
            scrub: None,
            scrub_screen: None,
            chain_shown: None,
            chain_scroll: None,
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
        let local = walk::locals(&self.pose);
        Pose {
            world: skeleton.world_from_joint(&local),
            wrong: walk::world_from_joint_wrong_order(&skeleton, &local),
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

/// The link value of `field`: the joints that differ from the T-pose, `None` when none do.
/// The joint a link's pose keys show when it names none (`joint=`): the last joint they
/// set, in the order the keys are applied (`rot`, `pos`, `scale`) and joints written.
fn implied_joint(page: &HierarchyPage) -> usize {
    [Field::Scale, Field::Translation, Field::Rotation]
        .into_iter()
        .find_map(|field| {
            (0..JOINT_COUNT)
                .rev()
                .find(|&j| field.get(&page.pose[j]) != field.get(&page.assets.bind[j]))
        })
        .unwrap_or(DEFAULT_JOINT)
}

fn write_field(page: &HierarchyPage, field: Field) -> Option<String> {
    joint_link::write(&page.pose, &page.assets.bind, |t| field.get(t))
}

/// Reads a joint list into `field` of those joints: joint names, three finite numbers
/// each, no joint twice, nothing [`problem`] refuses. On error nothing changes.
fn read_field(page: &mut HierarchyPage, field: Field, text: &str) -> Result<(), String> {
    for (joint, value) in joint_link::read(text, field.form(), |v| problem(field, v))? {
        if let Some(trs) = page.pose.get_mut(joint) {
            *field.get_mut(trs) = value;
            // A link that poses a joint, and names none to show, shows the one posed.
            if !page.joint_linked {
                page.selected = joint;
            }
        }
    }
    Ok(())
}

impl Lesson for HierarchyPage {
    fn link_applied(&mut self) {
        self.joint_linked = false;
    }

    fn camera(&self) -> Option<Camera> {
        Some(self.camera)
    }

    fn set_camera(&mut self, camera: Camera) {
        self.camera = camera;
    }

    const INFO: &'static PageInfo = &PageInfo {
        slug: "hierarchy",
        chapter: chapter_text!("hierarchy"),
    };

    const PARAMS: &'static [Param<Self>] = links::PARAMS;

    type Cell = Cell;

    fn cell_ui(&mut self, cell: Cell, ui: &mut Ui) {
        // A 4x4 matrix is wider than the notebook column in presenter mode.
        crate::ui::sideways_ui(ui, ("hierarchy", cell), |ui| match cell {
            Cell::Tree => self.tree_ui(ui),
            Cell::Local => self.local_ui(ui),
            Cell::Chain => self.chain_ui(ui),
            Cell::Order => self.order_ui(ui),
            Cell::Check => self.check_ui(ui),
        });
        if let Some(step) = self.chain_scroll.take() {
            // At once: a lecturer scrubbing wants the step, not a glide to it.
            ui.scroll_to_rect_animation(
                step,
                Some(egui::Align::Center),
                egui::style::ScrollAnimation::none(),
            );
        }
    }

    fn view_in_words(&mut self) -> String {
        let edited = (0..JOINT_COUNT).filter(|j| self.is_edited(*j)).count();
        format!(
            "A figure of {JOINT_COUNT} joints on a floor grid, {edited} turned from the T-pose; {} selected, it and the joints below it in yellow.",
            JOINT_NAMES[self.selected.min(JOINT_COUNT - 1)]
        )
    }

    fn viewport_ui(&mut self, ui: &mut Ui) {
        self.view_ui(ui);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::link::Link;
    use crate::page::open;

    fn opened(link: &str) -> Result<HierarchyPage, String> {
        let mut page = HierarchyPage::default();
        open(&mut page, &Link::parse(link).map_err(|e| e.to_string())?)
            .map_err(|e| e.to_string())?;
        Ok(page)
    }

    #[test]
    fn only_changed_joints_are_written_and_read_back() {
        let mut page = HierarchyPage::default();
        assert_eq!(write_field(&page, Field::Rotation), None);
        page.pose[7].rotation = Vec3::new(0.0, 0.25, -1.2);
        page.pose[0].translation.y = 1.1;
        let rot = write_field(&page, Field::Rotation).unwrap();
        assert_eq!(rot, "forearm.L:0,0.25,-1.2");
        assert_eq!(
            write_field(&page, Field::Translation).unwrap(),
            "hips:0,1.1,0"
        );
        let again = opened(&format!("hierarchy?rot={rot}")).unwrap();
        assert_eq!(again.pose[7].rotation, page.pose[7].rotation);
        assert!((0..JOINT_COUNT).all(|j| j == 7 || !again.is_edited(j)));
    }

    #[test]
    fn bad_entries_name_the_problem() {
        let message = |text: &str| opened(text).err().unwrap_or_default();
        let unknown = message("hierarchy?rot=elbow:0,0,1");
        assert!(
            unknown.contains("elbow") && unknown.contains("forearm.L"),
            "{unknown}"
        );
        assert!(message("hierarchy?rot=head:0,1").contains("three"));
        assert!(message("hierarchy?rot=head:0,nan,1").contains("three"));
        assert!(message("hierarchy?rot=head").contains("forearm.L:0,0,1.2"));
        assert!(message("hierarchy?rot=head:0,0,1;head:1,0,0").contains("twice"));
        assert!(message("hierarchy?scale=head:1,0,1").contains("scale of 0"));
        assert!(message("hierarchy?pos=head:1,1e9,1").contains("±100"));
        assert_eq!(problem(Field::Rotation, Vec3::splat(1e3)), None);
    }

    #[test]
    fn a_bad_entry_changes_nothing() {
        let mut page = HierarchyPage::default();
        let before = page.pose;
        let refused = read_field(&mut page, Field::Rotation, "head:0,0,1;neck:1,x,0");
        assert!(refused.is_err());
        assert_eq!(page.pose, before);
    }
}
