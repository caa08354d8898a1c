//! Binding transforms: a neck and head rig skinned two ways. First each vertex is stored
//! in its one joint's space and placed by that joint's world matrix alone; then every
//! vertex is stored in bind space and each joint gets an inverse bind matrix, captured
//! at bind time, so the palette is `world_from_joint · joint_from_bind`.

mod cells;
pub mod data;
pub mod exercise;
mod links;
pub mod predict;
mod scrub;
mod view;

use crate::link::{Param, numbers};
use crate::page::{Lesson, PageInfo};
use crate::pages::predict::Predicts;
use crate::ui::check::Check;
use crate::ui::{Camera, PlaneCamera};
use data::{JOINT_COUNT, JOINT_NAMES};
use egui::{Pos2, Ui};
use exercise::EXERCISES;
use glam::{Mat4, Vec2, Vec3};
use scene::{MeshData, Primitive};
use skin::lbs::{SkinMesh, skin_vertices};
use skin::matrix::checked_inverse;
use std::f32::consts::TAU;
use std::sync::{Arc, OnceLock};

/// The page's cells, in chapter order; their snake_case names are the chapter's cell
/// markers.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, strum::EnumString, strum::VariantNames, strum::IntoStaticStr,
)]
#[strum(serialize_all = "snake_case")]
pub enum Cell {
    JointSpace,
    Forget,
    BindSpace,
    Rebind,
    Check,
}

/// The joint selected when the page opens: the head of the binding example.
const DEFAULT_JOINT: usize = data::HEAD;

/// How the mesh is stored and bound: the two stages of the chapter.
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
pub enum Stage {
    /// One joint per vertex, vertices in that joint's space, palette = world matrices.
    JointSpace,
    /// Blended weights, vertices in bind space, palette = world · inverse bind.
    BindSpace,
}

impl Stage {
    fn label(self) -> &'static str {
        match self {
            Self::JointSpace => "1. One joint each, joint space",
            Self::BindSpace => "2. Blended, bind space",
        }
    }

    /// The stage's name in a phone's one row.
    fn short_label(self) -> &'static str {
        match self {
            Self::JointSpace => "Stage 1",
            Self::BindSpace => "Stage 2",
        }
    }

    /// The cell that introduces this stage in the notebook.
    fn first_cell(self) -> Cell {
        match self {
            Self::JointSpace => Cell::JointSpace,
            Self::BindSpace => Cell::BindSpace,
        }
    }
}

/// The two stored meshes, built once: every page shares them.
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
    /// The meshes, built the first time they are asked for.
    fn shared() -> Arc<Self> {
        static ASSETS: OnceLock<Arc<Assets>> = OnceLock::new();
        ASSETS.get_or_init(|| Arc::new(Self::new())).clone()
    }

    fn new() -> Self {
        let lines = data::lines();
        let local = data::mesh_in_joint_space();
        // The weights are constant and covered by tests in `data`; an error
        // could only come from a change there, and would show as an empty mesh.
        let bind = data::mesh_in_bind_space().unwrap_or_default();
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
    /// How many factors of the head's palette `W · B⁻¹` act on the head vertex, from the
    /// right (0 to 2); `None` when not scrubbing.
    pub scrub: Option<usize>,
    /// The head vertex's place in stage two, hidden until revealed; `None` when not
    /// predicting.
    pub prediction: Option<predict::Prediction>,
    /// The check cell's exercise.
    pub exercise: usize,
    check: Check,
    refused: Option<String>,
    scroll_to: crate::ui::scroll::ScrollTo,
    dragging: Option<crate::pages::predict::Grab>,
    camera: Camera,
    assets: Arc<Assets>,
    /// Screen positions of the joints in the last frame (picking and tests).
    pub joint_screen: [Pos2; JOINT_COUNT],
    /// Screen position of the guess marker in the last frame, while predicting in the
    /// bind-space stage.
    pub guess_screen: Option<Pos2>,
}

fn default_camera() -> Camera {
    Camera::Plane(PlaneCamera {
        center: Vec2::new(0.0, 2.2),
        half_height: 3.6,
    })
}

impl Default for BindingPage {
    fn default() -> Self {
        Self {
            stage: Stage::JointSpace,
            angles: [0.0; JOINT_COUNT],
            rebind: [0.0; JOINT_COUNT],
            joint_from_bind: data::capture_inverse_bind([0.0; JOINT_COUNT]),
            joint: DEFAULT_JOINT,
            forget_inverse_bind: false,
            show_stored: false,
            scrub: None,
            prediction: None,
            exercise: 0,
            check: Check::default(),
            refused: None,
            scroll_to: Default::default(),
            dragging: None,
            camera: default_camera(),
            assets: Assets::shared(),
            joint_screen: [Pos2::ZERO; JOINT_COUNT],
            guess_screen: None,
        }
    }
}

impl BindingPage {
    /// `world_from_joint` of the current pose.
    pub fn world_from_joint(&self) -> Vec<Mat4> {
        data::world_from_joint(self.angles)
    }

    /// The inverse bind matrices captured at the `rebind` pose (before any edit).
    pub fn captured(&self) -> [Mat4; JOINT_COUNT] {
        data::capture_inverse_bind(self.rebind)
    }

    /// What the shader receives in the stage shown.
    pub fn uploaded(&self) -> Vec<Mat4> {
        let world = self.world_from_joint();
        match self.stage {
            Stage::JointSpace => world,
            Stage::BindSpace => {
                data::palette(&world, &self.joint_from_bind, self.forget_inverse_bind)
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

    fn scroll_to(&mut self, cell: Cell) {
        self.scroll_to.set(Some(cell.into()));
    }
}

impl Lesson for BindingPage {
    // The keys a link sets pick the cell as they are applied (and so do the stage
    // switches in the view): the cell scrolled to is the one they picked.
    fn linked_cell(&self, _link: &crate::link::Link) -> Option<&'static str> {
        self.scroll_to.target()
    }

    fn scroll_to(&mut self) -> Option<&mut crate::ui::scroll::ScrollTo> {
        Some(&mut self.scroll_to)
    }

    fn camera(&self) -> Option<Camera> {
        Some(self.camera)
    }

    fn set_camera(&mut self, camera: Camera) {
        self.camera = camera;
    }

    const INFO: &'static PageInfo = &PageInfo {
        slug: "binding",
        chapter: chapter_text!("binding"),
    };

    const PARAMS: &'static [Param<Self>] = links::PARAMS;

    type Cell = Cell;

    fn cell_ui(&mut self, cell: Cell, ui: &mut Ui) {
        cells::cell_ui(self, cell, ui);
    }

    /// A focused stage cell shows its stage; the check keeps the stage it was given.
    fn focused(&mut self, cell: Cell) {
        match cell {
            Cell::JointSpace => self.stage = Stage::JointSpace,
            Cell::Forget | Cell::BindSpace | Cell::Rebind => self.stage = Stage::BindSpace,
            Cell::Check => {}
        }
    }

    fn view_in_words(&mut self) -> String {
        let turned: Vec<String> = JOINT_NAMES
            .iter()
            .zip(self.angles)
            .map(|(name, angle)| format!("{name} {}", crate::ui::degrees(angle)))
            .collect();
        format!(
            "A chest, neck and head skinned at stage {}: {}; the {} picked{}.",
            self.stage.label(),
            turned.join(", "),
            JOINT_NAMES[self.joint.min(JOINT_COUNT - 1)],
            if self.forget_inverse_bind {
                ", the inverse bind matrices left out"
            } else {
                ""
            }
        )
    }

    fn viewport_ui(&mut self, ui: &mut Ui) {
        view::viewport_ui(self, ui);
    }

    fn settle(&mut self) {
        self.settle_prediction();
    }
}

/// What `inverse_bind` holds, e.g. `head:1,0,0,0,0,1,0,0,0,0,1,0,0.5,-2,0,1`.
const INVERSE_BIND_FORM: &str =
    "entries like `head:` and 16 numbers (a matrix, column by column), joined by `;`";

/// Reads `inverse_bind`: joint names, sixteen finite numbers each, no joint twice, and
/// every matrix invertible (an inverse bind with no inverse could not come from a pose).
fn read_inverse_binds(text: &str) -> Result<Vec<(usize, Mat4)>, String> {
    let find = |name: &str| {
        JOINT_NAMES.iter().position(|n| *n == name).ok_or_else(|| {
            format!(
                "`{name}` is not a joint. The joints are: {}",
                JOINT_NAMES.join(", ")
            )
        })
    };
    let check = |cells: &[f32]| {
        checked_inverse(&Mat4::from_cols_slice(cells))
            .err()
            .map(|e| e.to_string())
    };
    let entries = crate::pages::joint_link::read_list(text, INVERSE_BIND_FORM, 16, find, check)?;
    Ok(entries
        .into_iter()
        .map(|(joint, cells)| (joint, Mat4::from_cols_slice(&cells)))
        .collect())
}

/// Writes `inverse_bind`: the joints whose inverse bind differs from the one captured
/// at the bind pose, `None` when none does.
fn write_inverse_binds(page: &BindingPage) -> Option<String> {
    let captured = page.captured();
    let edits: Vec<String> = JOINT_NAMES
        .iter()
        .zip(page.joint_from_bind.iter().zip(&captured))
        .filter(|(_, (m, c))| m != c)
        .map(|(name, (m, _))| format!("{name}:{}", numbers(&m.to_cols_array())))
        .collect();
    (!edits.is_empty()).then(|| edits.join(";"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::link::Link;
    use crate::link::Named;
    use crate::page::{Page, open};

    #[test]
    fn a_link_opens_at_the_cell_it_is_about() {
        let edit = "inverse_bind=head:1,0,0,0,0,1,0,0,0,0,1,0,0.5,-2,0,1";
        for (query, cell) in [
            ("angles=0.1,0,0&joint=neck&stored=true", Some("joint_space")),
            ("stage=bind_space", Some("bind_space")),
            (edit, Some("joint_space")),
            (&format!("stage=bind_space&{edit}"), Some("bind_space")),
            (&format!("rebind=0,0.5,0&{edit}"), Some("rebind")),
            ("stage=bind_space&rebind=0,0,0", Some("rebind")),
            ("rebind=0,0.5,0&forget_inverse_bind=false", Some("forget")),
            ("forget_inverse_bind=true&question=2", Some("check")),
            ("stage=bind_space&scrub=1", Some("forget")),
            ("rebind=0,0.5,0&scrub=0", Some("forget")),
            ("scrub=2&question=1", Some("check")),
            ("rebind=0,0.5,0&predict=true", Some("forget")),
            ("guess=1,3&question=1", Some("check")),
        ] {
            let mut page = BindingPage::default();
            let link = Link::parse(&format!("binding?{query}")).unwrap();
            open(&mut page, &link).unwrap();
            assert_eq!(page.scroll_to.target(), cell, "{query}");
        }
    }

    #[test]
    fn the_stage_names_follow_the_stages() {
        let cells: Vec<Cell> = Stage::ALL.iter().map(|s| s.first_cell()).collect();
        assert_eq!(cells, [Cell::JointSpace, Cell::BindSpace]);
        for (&stage, &name) in Stage::ALL.iter().zip(Stage::NAMES) {
            assert_eq!(<&str>::from(stage.first_cell()), name);
        }
        assert!(BindingPage::default().link().to_string() == "binding");
    }
}
