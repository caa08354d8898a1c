//! Gradient matrices: what carries a point onto a point (`ab = b − a`), a frame onto a
//! frame (`ab = b · a⁻¹`), and a whole bind pose onto a target pose, one joint at a time.

mod cells;
mod draw;
pub mod exercise;
pub mod frames;
mod link_values;
mod links;
mod pose_cells;
mod pose_view;
pub mod scrub;
mod view;
mod widgets;

use crate::link::Param;
use crate::page::{Lesson, PageInfo};
use crate::ui::check::Check;
use crate::ui::{Camera, OrbitCamera, PlaneCamera};
use egui::{Pos2, Ui};
use frames::Frame2;
use glam::{Mat4, Vec2, Vec3};
use rigs::humanoid::{self, JOINT_COUNT};
use rigs::poses::{self, PRESETS};
use scene::{MeshData, Primitive};
use skin::Influences;
use skin::explain::trs::Trs;
use skin::lbs::SkinMesh;
use std::sync::{Arc, OnceLock};

/// The page's cells, in chapter order; their snake_case names are the chapter's cell
/// markers.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, strum::EnumString, strum::VariantNames, strum::IntoStaticStr,
)]
#[strum(serialize_all = "snake_case")]
pub enum Cell {
    Points,
    Matrices,
    Product,
    Poses,
    Joint,
    Check,
}

impl Cell {
    /// The part of the chapter the cell belongs to; the check belongs to none.
    pub fn section(self) -> Option<Section> {
        match self {
            Cell::Points => Some(Section::Points),
            Cell::Matrices | Cell::Product => Some(Section::Matrices),
            Cell::Poses | Cell::Joint => Some(Section::Poses),
            Cell::Check => None,
        }
    }
}

/// What the viewport shows: one per part of the chapter.
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
    /// Two points and the vector between them.
    Points,
    /// Two frames and the matrix between them.
    Matrices,
    /// The bind pose and a target pose of the humanoid.
    Poses,
}

impl Section {
    fn label(self) -> &'static str {
        match self {
            Self::Points => "Points",
            Self::Matrices => "Matrices",
            Self::Poses => "Poses",
        }
    }

    /// The first cell of this section in the notebook.
    fn first_cell(self) -> Cell {
        match self {
            Self::Points => Cell::Points,
            Self::Matrices => Cell::Matrices,
            Self::Poses => Cell::Poses,
        }
    }
}

const DEFAULT_POINTS: [Vec2; 2] = [Vec2::new(1.0, 1.0), Vec2::new(4.0, 3.0)];
const DEFAULT_FRAMES: [Frame2; 2] = [
    Frame2 {
        angle: 0.2,
        origin: Vec2::new(-2.0, 0.5),
    },
    Frame2 {
        angle: 1.2,
        origin: Vec2::new(0.5, 2.2),
    },
];
/// The preset the page opens with: a wave shows gradients on one arm and not the legs.
const DEFAULT_PRESET: usize = 1;
/// The joint the page opens with: the elbow of the waving arm.
const DEFAULT_JOINT: usize = 7;

/// Meshes and bind-pose matrices: constant, built once and shared by every page built.
struct Assets {
    /// The humanoid's bone shapes in bind space, one joint each.
    bones: Arc<MeshData>,
    /// A letter F in a frame's own space, for the frames section.
    letter: Arc<MeshData>,
    world_at_bind: Vec<Mat4>,
    joint_from_bind: Vec<Mat4>,
}

impl Assets {
    /// The one copy, built the first time a page is.
    fn shared() -> Arc<Self> {
        static ASSETS: OnceLock<Arc<Assets>> = OnceLock::new();
        ASSETS.get_or_init(|| Arc::new(Self::new())).clone()
    }

    fn new() -> Self {
        let world_at_bind = poses::world_from_joint_at_bind();
        let (skin, indices) = humanoid::bone_mesh(&world_at_bind);
        Self {
            bones: MeshData::new(skin, indices, Primitive::Triangles),
            letter: letter_f(),
            joint_from_bind: poses::joint_from_bind(),
            world_at_bind,
        }
    }
}

/// An F drawn in the first quadrant of a frame: not symmetric, so a turn or a mirror
/// shows.
fn letter_f() -> Arc<MeshData> {
    let positions = [
        [0.25, 0.2],
        [0.25, 1.0],
        [0.75, 1.0],
        [0.25, 0.6],
        [0.6, 0.6],
    ]
    .map(|[x, y]| Vec3::new(x, y, 0.0))
    .to_vec();
    let influences = vec![Influences::rigid(0); positions.len()];
    MeshData::new(
        SkinMesh {
            positions,
            influences,
            ..Default::default()
        },
        vec![0, 1, 1, 2, 3, 4],
        Primitive::Lines,
    )
}

/// A joint or a point being dragged in the viewport.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Drag {
    Point(usize),
    Frame(usize),
    Joint(usize),
}

/// The page's state.
pub struct GradientPage {
    /// What the viewport shows.
    pub section: Section,
    /// Points a and b in the plane.
    pub points: [Vec2; 2],
    /// Frames a and b as matrices. `a` always has an inverse.
    pub frames: [Mat4; 2],
    /// The turn and move the sliders show for each frame; the matrix equals it unless a
    /// cell was edited directly.
    turns: [Frame2; 2],
    /// The named pose the target started from.
    pub preset: usize,
    /// The target pose: each joint's local transform.
    pub target: Vec<Trs>,
    /// The joint whose matrices are shown.
    pub joint: usize,
    /// The check cell's exercise.
    pub exercise: usize,
    /// Whether the viewport shows the exercise's frames (its pose button was
    /// pressed): picking another exercise then shows that one's.
    posed_exercise: bool,
    /// How many factors of `b · a⁻¹` act on the F's tip, from the right; `None` when not
    /// scrubbing.
    pub scrub: Option<usize>,
    check: Check,
    /// The cell the notebook scrolls to, for the next few frames (the first frames of a
    /// window, or a change of zoom, still move the layout): a link or the viewport's
    /// section buttons bring the prose about what is shown into view.
    scroll_to: crate::ui::scroll::ScrollTo,
    /// Which key of the link being applied chose `scroll_to` (see [`links::Focus`]).
    focus: links::Focus,
    /// The section of the last cell drawn high enough in the notebook this frame: the
    /// part being read.
    reading: Option<Section>,
    /// The part read at the last frame. The viewport changes part when the reader
    /// moves on to another, and keeps a part picked by hand or by a link until then;
    /// `None` after a link, so what the notebook shows first is not taken as a move.
    pub(crate) last_read: Option<Section>,
    /// The last refused edit: whose it was, and why.
    refused: Option<(&'static str, String)>,
    dragging: Option<Drag>,
    cameras: [Camera; 3],
    assets: Arc<Assets>,
    /// Screen positions of the target's joints in the last frame (picking and tests).
    pub joint_screen: [Pos2; JOINT_COUNT],
    /// Screen positions of points a and b, or of frames a and b's origins, in the last
    /// frame.
    pub handle_screen: [Pos2; 2],
}

fn default_cameras() -> [Camera; 3] {
    [
        Camera::Plane(PlaneCamera {
            center: Vec2::new(2.5, 2.0),
            half_height: 4.0,
        }),
        // Frames a and b turn and move in the xy plane: seen square on, as the
        // points are.
        Camera::Plane(PlaneCamera {
            center: Vec2::new(-0.5, 1.5),
            half_height: 3.0,
        }),
        Camera::Orbit(OrbitCamera {
            target: Vec3::new(0.0, 1.0, 0.0),
            yaw: 0.5,
            pitch: 0.15,
            distance: 3.4,
        }),
    ]
}

impl Default for GradientPage {
    fn default() -> Self {
        Self {
            section: Section::Points,
            points: DEFAULT_POINTS,
            frames: DEFAULT_FRAMES.map(Frame2::to_mat4),
            turns: DEFAULT_FRAMES,
            preset: DEFAULT_PRESET,
            target: PRESETS[DEFAULT_PRESET].local(),
            joint: DEFAULT_JOINT,
            exercise: 0,
            posed_exercise: false,
            scrub: None,
            reading: None,
            last_read: None,
            check: Check::default(),
            scroll_to: Default::default(),
            focus: Default::default(),
            refused: None,
            dragging: None,
            cameras: default_cameras(),
            assets: Assets::shared(),
            joint_screen: [Pos2::ZERO; JOINT_COUNT],
            handle_screen: [Pos2::ZERO; 2],
        }
    }
}

impl GradientPage {
    /// Notes that `cell` is drawn at `ui`'s cursor: in the upper 70 % of what the
    /// notebook shows, it is the part being read (a section's cell comes after a few
    /// lines of its prose, which the reader reads with the cell's own view beside it).
    fn note_reading(&mut self, cell: Cell, ui: &Ui) {
        let clip = ui.clip_rect();
        if let Some(section) = cell.section()
            && ui.cursor().top() < clip.top() + 0.7 * clip.height()
        {
            self.reading = Some(section);
        }
    }

    /// Shows the part the reader has moved on to (the cells were drawn last frame).
    fn follow_reading(&mut self) {
        let now = self.reading.take();
        // While the notebook scrolls to a link's cell, what passes by is not read.
        let scrolling = self.scroll_to.target().is_some();
        // The first part read chooses too, unless a link chose the part: a focused
        // cell shows its own part beside it.
        let moved_on = match self.last_read {
            Some(_) => self.last_read != now,
            None => self.focus == links::Focus::Nothing,
        };
        if let Some(section) = now
            && moved_on
            && !scrolling
        {
            self.section = section;
        }
        if now.is_some() {
            self.last_read = now;
        }
    }
}

impl GradientPage {
    /// `world_from_joint` of the target pose, one per joint.
    pub fn world_from_joint(&self) -> Vec<Mat4> {
        poses::world_from_joint(&self.target)
    }

    /// The gradient of every joint: `world_from_joint · joint_from_bind`.
    pub fn gradients(&self) -> Vec<Mat4> {
        poses::gradients(&self.world_from_joint(), &self.assets.joint_from_bind)
    }

    /// `ab = b · a⁻¹` for the two frames. `a` is kept invertible, so this only falls
    /// back to `b` if that promise were ever broken.
    pub fn frame_gradient(&self) -> Mat4 {
        frames::gradient(&self.frames[0], &self.frames[1]).unwrap_or(self.frames[1])
    }

    /// Starts the target pose over from a named preset.
    pub fn set_preset(&mut self, preset: usize) {
        if let Some(p) = PRESETS.get(preset) {
            self.preset = preset;
            self.target = p.local();
        }
    }

    /// Sets frame `i` from a turn and a move (what the sliders do).
    pub(super) fn set_turn(&mut self, i: usize, turn: Frame2) {
        self.turns[i] = turn;
        self.frames[i] = turn.to_mat4();
        self.refused = None;
    }

    /// Sets frame `i` to any matrix, already checked (a cell edit or a link).
    fn set_frame(&mut self, i: usize, m: Mat4) {
        self.frames[i] = m;
        self.turns[i] = Frame2::from_mat4(&m);
    }
}

impl Lesson for GradientPage {
    // The keys a link sets pick the cell as they are applied (and so do the stage
    // switches in the view): the cell scrolled to is the one they picked.
    fn linked_cell(&self, _link: &crate::link::Link) -> Option<&'static str> {
        self.scroll_to.target()
    }

    fn scroll_to(&mut self) -> Option<&mut crate::ui::scroll::ScrollTo> {
        Some(&mut self.scroll_to)
    }

    fn camera(&self) -> Option<Camera> {
        Some(self.cameras[view::section_index(self.section)])
    }

    fn set_camera(&mut self, camera: Camera) {
        self.cameras[view::section_index(self.section)] = camera;
    }

    const INFO: &'static PageInfo = &PageInfo {
        slug: "gradient",
        chapter: chapter_text!("gradient"),
    };

    const PARAMS: &'static [Param<Self>] = links::PARAMS;

    type Cell = Cell;

    fn cell_ui(&mut self, cell: Cell, ui: &mut Ui) {
        cells::cell_ui(self, cell, ui);
    }

    fn view_in_words(&mut self) -> String {
        match self.section {
            Section::Points => {
                let [a, b] = self.points;
                format!(
                    "Two points on a grid: a at ({:.2}, {:.2}), b at ({:.2}, {:.2}); the arrow ab = ({:.2}, {:.2}) from a to b.",
                    a.x,
                    a.y,
                    b.x,
                    b.y,
                    b.x - a.x,
                    b.y - a.y
                )
            }
            Section::Matrices => {
                let [a, b] = self.frames;
                format!(
                    "Two frames, each a letter F on its x and y axes: a with its origin at ({:.2}, {:.2}), b at ({:.2}, {:.2}); pink arrows show the gradient ab carrying a onto b.",
                    a.w_axis.x, a.w_axis.y, b.w_axis.x, b.w_axis.y
                )
            }
            Section::Poses => format!(
                "A figure in its bind pose (grey) and its target pose (orange), pink arrows carrying each joint from one to the other; {} selected.",
                crate::pages::joint_link::JOINT_NAMES
                    [self.joint.min(rigs::humanoid::JOINT_COUNT - 1)]
            ),
        }
    }

    fn viewport_ui(&mut self, ui: &mut Ui) {
        self.follow_reading();
        view::viewport_ui(self, ui);
    }
}
