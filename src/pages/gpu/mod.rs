//! GPU skinning paths: the palette in a uniform array or in a bone texture, joint
//! indices as floats or as integers, all drawing one chain of skin, measured against
//! the CPU reference on the live context.

mod cells;
mod links;
mod measure;
mod source;
mod sweep;
mod view;

pub use measure::{
    Bench, BenchPoint, Crossover, DiffProgress, PathDiff, Report, SWEEP, cpu_threads, crossover,
};
pub use source::{LISTING_HEIGHT, changed_lines, highlighted_lines};

use crate::link::Named;
use crate::link::Param;
use crate::page::{Lesson, PageInfo};
use crate::ui::check::Check;
use crate::ui::{Camera, OrbitCamera};
use glam::{Mat4, Vec3};
use rigs::chain::Chain;
use scene::{JointIndices, MAX_JOINTS, MeshData, Primitive};
use skin::job::JointWeights;
use std::f32::consts::TAU;
use std::sync::{Arc, Mutex, OnceLock};

/// The page's cells, in chapter order; their snake_case names are the chapter's cell
/// markers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, strum::EnumString, strum::VariantNames)]
#[strum(serialize_all = "snake_case")]
pub enum Cell {
    Controls,
    Source,
    Paths,
    Budget,
    Texels,
    Influences,
    CpuGpu,
    Check,
}

/// The most joints the page's chain can have.
pub const MAX_CHAIN_JOINTS: usize = 120;
/// The joint count of the "many joints" button: past what the uniform array holds.
pub const MANY_JOINTS: usize = 100;
/// The range of the mesh's vertex count.
pub const VERTEX_RANGE: std::ops::RangeInclusive<usize> = 3_000..=1_000_000;

/// Where the skinning shader reads the palette from.
#[derive(
    Clone,
    Copy,
    Debug,
    Default,
    PartialEq,
    Eq,
    strum::VariantArray,
    strum::VariantNames,
    strum::IntoStaticStr,
)]
#[strum(serialize_all = "snake_case")]
pub enum Storage {
    /// `uniform mat4 u_palette[MAX_JOINTS]` (`shaders/blend_lbs.glsl`).
    #[default]
    Uniform,
    /// The bone texture (`shaders/blend_texture.glsl`).
    Texture,
}

impl Storage {}

/// Both index types, in the order of the buttons.
const INDICES: [JointIndices; 2] = [JointIndices::Float, JointIndices::Int];

/// The link name of an index type.
pub const fn indices_slug(indices: JointIndices) -> &'static str {
    match indices {
        JointIndices::Float => "float",
        JointIndices::Int => "int",
    }
}

/// The page's state.
pub struct GpuPage {
    /// Where the palette goes (until the joints stop fitting the uniform array).
    pub storage: Storage,
    /// How joint indices reach the shader.
    pub indices: JointIndices,
    /// Joints in the chain.
    pub joints: usize,
    /// How far each vertex's weights reach, in bones either side.
    pub spread: f32,
    /// About how many vertices the chain has.
    pub vertices: usize,
    /// The curl of the whole chain, radians.
    pub bend: f32,
    /// The twist of the whole chain about its length, radians.
    pub twist: f32,
    /// Skin on the CPU and upload every frame, instead of in the shader.
    pub cpu_skinning: bool,
    /// The ring whose influences the preparation cell shows.
    pub ring: Option<usize>,
    /// The joint whose texels the inspector shows.
    pub texel_joint: usize,
    /// The shader file shown (index into [`GpuPage::shader_files`]).
    pub file: usize,
    /// The file set beside it, its differing lines marked (index into
    /// [`source::FILES`]).
    pub beside: Option<usize>,
    /// The pair of files (shown, beside) the listing last scrolled to their first
    /// difference: a new pair scrolls once, then the reader scrolls.
    listed_pair: Option<(&'static str, &'static str)>,
    /// Frames left in which a new pair keeps its first difference in view (the first
    /// frames still move the layout: presenter mode's zoom, a focused cell's fit).
    first_change_frames: u8,
    /// The line of the shown file a link points at (from 1): marked, and scrolled to
    /// once.
    pub line: Option<usize>,
    /// Whether the listing has scrolled to [`GpuPage::line`] yet.
    line_shown: bool,
    /// Whether a focused listing shows the file's opening comment (folded at first, so
    /// the code comes first on a projector).
    pub header_open: bool,
    /// A vertex count being dragged on the slider, applied when the drag ends.
    pending_vertices: Option<usize>,
    /// Where a big mesh a slider asked for stands ([`GpuPage::rebuild_from_ui`]).
    build: Build,
    /// A joint count being dragged on a big mesh, applied when the drag ends.
    pending_joints: Option<usize>,
    /// A spread being dragged on a big mesh, applied when the drag ends.
    pending_spread: Option<f32>,
    /// Milliseconds the last frame spent skinning on the CPU (when it does).
    pub cpu_frame_ms: Option<f64>,
    /// The threads that skinning used.
    pub cpu_frame_threads: usize,
    /// Why the last frame could not skin on the CPU, if it could not.
    pub cpu_error: Option<String>,
    /// The CPU-skinned positions, normals and tangents, kept between frames.
    cpu_out: [Vec<Vec3>; 3],
    /// The positions and normals last streamed, whose vectors the next frame reuses.
    streamed: Option<Arc<scene::Streamed>>,
    /// The live sweep of CPU and GPU times.
    pub bench: Bench,
    /// What the GL thread measured, written by the viewport's paint callback.
    pub report: Arc<Mutex<Report>>,
    /// The check cell's exercise: 0 the budget and a texel, 1 preparing influences.
    pub exercise: usize,
    check: Check,
    camera: Camera,
    chain: Arc<Chain>,
    mesh: Arc<MeshData>,
    /// The chain's joint indices and weights as the fast kernel reads them.
    weights: Arc<JointWeights>,
    /// The joints, spread and vertex count the chain was built for.
    built_for: (usize, f32, usize),
    /// Where the viewport was drawn last frame (for tests).
    pub viewport_rect: egui::Rect,
    /// The frame (egui's count) the viewport was first laid out in: the comparison of
    /// the GPU with the CPU starts on a later frame, so the page is drawn before the
    /// first readback waits on the GPU (half a second in a software-rendered browser).
    first_frame: Option<u64>,
}

/// How many check-yourself exercises the page has.
pub const EXERCISE_COUNT: usize = 2;

// ANCHOR: exercise
/// The second exercise's influences, as (joint, weight): five, unsorted, summing to 1.
pub const PREPARE_EXERCISE: [(usize, f32); 5] =
    [(2, 0.12), (7, 0.15), (3, 0.40), (5, 0.08), (1, 0.25)];
// ANCHOR_END: exercise

/// The camera the page opens with: the chain seen whole (`skinlab --bench` draws the
/// same view).
pub fn default_camera() -> Camera {
    Camera::Orbit(OrbitCamera {
        target: Vec3::new(1.2, 2.6, 0.0),
        yaw: 0.3,
        pitch: 0.25,
        distance: 13.0,
    })
}

/// The chain, its mesh and the weights the fast kernel reads.
type Built = (Arc<Chain>, Arc<MeshData>, Arc<JointWeights>);

/// The chain and its mesh for `joints`, `spread` and about `vertices` vertices; the
/// page's defaults are built once and shared by every reset.
fn build(joints: usize, spread: f32, vertices: usize) -> Built {
    static DEFAULT: OnceLock<Built> = OnceLock::new();
    if (joints, spread, vertices) == (DEFAULT_JOINTS, DEFAULT_SPREAD, DEFAULT_VERTICES) {
        return DEFAULT
            .get_or_init(|| build_new(joints, spread, vertices))
            .clone();
    }
    build_new(joints, spread, vertices)
}

fn build_new(joints: usize, spread: f32, vertices: usize) -> Built {
    let chain = Chain::new(joints, spread, vertices);
    let mesh = MeshData::shared(
        chain.skin.clone(),
        chain.triangles.clone(),
        Primitive::Triangles,
    );
    // The chain's joint indices are below MAX_CHAIN_JOINTS and its weights finite; were
    // they refused, the empty weights make every CPU skinning say why.
    let weights = JointWeights::from_influences(&chain.skin.influences).unwrap_or_default();
    (Arc::new(chain), mesh, Arc::new(weights))
}

/// A big mesh a slider asked for is built a frame after one that says it is building,
/// so the user sees that before the wait. The viewport is drawn before the cells, so
/// the frame that asks cannot say it; and egui may lay a frame out twice and paint only
/// the second pass, so each step waits for a new frame (egui's frame number), not a new
/// pass or the next thing drawn.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) enum Build {
    #[default]
    Idle,
    /// Asked by a slider in this frame; said in the next.
    Asked(u64),
    /// Said in this frame; built in the next.
    Said(u64),
}

/// The joints of the chain when the page opens.
pub const DEFAULT_JOINTS: usize = 40;
/// The chain's spread when the page opens.
pub const DEFAULT_SPREAD: f32 = 2.5;
/// Above this many vertices, the joints and spread sliders rebuild the mesh when their
/// drag ends rather than on every step (building and uploading a million vertices takes
/// longer than a frame).
const LIVE_REBUILD_VERTICES: usize = 100_000;
/// The mesh's vertex count when the page opens.
const DEFAULT_VERTICES: usize = 12_000;
/// The bend when the page opens, radians.
const DEFAULT_BEND: f32 = 2.5;

impl Default for GpuPage {
    fn default() -> Self {
        let (joints, spread, vertices) = (DEFAULT_JOINTS, DEFAULT_SPREAD, DEFAULT_VERTICES);
        let (chain, mesh, weights) = build(joints, spread, vertices);
        Self {
            storage: Storage::Uniform,
            indices: JointIndices::Float,
            joints,
            spread,
            vertices,
            bend: DEFAULT_BEND,
            twist: 0.0,
            cpu_skinning: false,
            ring: None,
            // Halfway along the chain, where a bend gives the palette a translation
            // (the root's t column is empty): texel 3 then shows what it holds.
            texel_joint: DEFAULT_JOINTS / 2,
            file: 1,
            beside: None,
            listed_pair: None,
            first_change_frames: 0,
            line: None,
            line_shown: false,
            header_open: false,
            pending_vertices: None,
            build: Build::Idle,
            pending_joints: None,
            pending_spread: None,
            cpu_frame_ms: None,
            cpu_frame_threads: 1,
            cpu_error: None,
            cpu_out: Default::default(),
            streamed: None,
            bench: Bench::default(),
            report: Arc::default(),
            exercise: 0,
            check: Check::default(),
            camera: default_camera(),
            chain,
            mesh,
            weights,
            built_for: (joints, spread, vertices),
            viewport_rect: egui::Rect::NOTHING,
            first_frame: None,
        }
    }
}

impl GpuPage {
    /// The chain as built for the current joints, spread and vertices.
    pub fn chain(&self) -> &Chain {
        &self.chain
    }

    /// The viewport's camera.
    pub fn camera(&self) -> &Camera {
        &self.camera
    }

    /// The mesh the viewport draws.
    pub fn mesh(&self) -> &Arc<MeshData> {
        &self.mesh
    }

    /// Rebuilds the chain after its joints, spread or vertex count changed (and does
    /// nothing when none did).
    pub fn rebuild(&mut self) {
        let wanted = (self.joints, self.spread, self.vertices);
        if wanted == self.built_for {
            return;
        }
        self.built_for = wanted;
        let (chain, mesh, weights) = build(self.joints, self.spread, self.vertices);
        self.chain = chain;
        self.mesh = mesh;
        self.weights = weights;
        self.texel_joint = self.texel_joint.min(self.joints - 1);
        if self.ring.is_some_and(|r| r >= self.chain.rings) {
            self.ring = None;
        }
    }

    /// Whether the mesh is too big to rebuild on every step of a slider's drag.
    pub fn is_big(&self) -> bool {
        self.chain.skin.positions.len() > LIVE_REBUILD_VERTICES
    }

    /// Whether the palette fits this build's uniform array (`MAX_JOINTS`).
    pub fn fits_uniforms(&self) -> bool {
        self.joints <= MAX_JOINTS
    }

    /// The storage in use: the chosen one, or the texture when the joints do not fit.
    pub fn effective_storage(&self) -> Storage {
        if self.fits_uniforms() {
            self.storage
        } else {
            Storage::Texture
        }
    }

    /// The skinning palette of the current pose.
    pub fn palette(&self) -> Vec<Mat4> {
        self.chain.palette(self.bend, self.twist)
    }

    /// The ring the preparation cell shows: the chosen one, or the one with the most
    /// influences.
    pub fn example_ring(&self) -> usize {
        self.ring.unwrap_or_else(|| self.chain.busiest_ring())
    }

    /// Moves a build a slider asked for on ([`Build`]), at the start of whatever the
    /// page draws first: the viewport, or a cell when the viewport is out of sight.
    pub(super) fn advance_build(&mut self, ctx: &egui::Context) {
        let frame = ctx.cumulative_frame_nr();
        match self.build {
            Build::Asked(asked) if frame > asked => self.build = Build::Said(frame),
            Build::Said(said) if frame > said => {
                self.rebuild();
                self.build = Build::Idle;
            }
            _ => {}
        }
        if self.build != Build::Idle {
            // Frames until it is built, even with time paused.
            ctx.request_repaint();
        }
    }

    /// Rebuilds the mesh for a slider: at once when the mesh is small, and otherwise
    /// after a frame that says it is building ([`Build`]; building and uploading a
    /// million vertices takes a good part of a second).
    pub(super) fn rebuild_from_ui(&mut self, ctx: &egui::Context) {
        if self.vertices.max(self.chain.skin.positions.len()) > LIVE_REBUILD_VERTICES {
            self.build = Build::Asked(ctx.cumulative_frame_nr());
            ctx.request_repaint();
        } else {
            self.rebuild();
        }
    }
}

impl Lesson for GpuPage {
    fn camera(&self) -> Option<Camera> {
        Some(self.camera)
    }

    fn set_camera(&mut self, camera: Camera) {
        self.camera = camera;
    }

    /// Each path's largest GPU-against-CPU distance for the current pose, once every
    /// path is compared: `uniform/float=0 uniform/int=0 texture/float=1.2e-7 …`, or
    /// `failed` with the reason.
    fn readout(&self) -> Option<String> {
        let diffs = self.diffs()?;
        let entries = measure::PATHS
            .iter()
            .zip(diffs)
            .map(|((storage, indices), diff)| {
                let path = format!("{}/{}", <&str>::from(storage), indices_slug(*indices));
                match diff {
                    PathDiff::Measured(d) => format!("{path}={d:e}"),
                    PathDiff::Failed(why) => format!("{path}=failed: {why}"),
                }
            });
        Some(entries.collect::<Vec<_>>().join(" "))
    }

    /// A link's `joints`, `spread` and `vertices` build the mesh once, together.
    fn link_applied(&mut self) {
        self.build = Build::Idle;
        self.rebuild();
    }

    const INFO: &'static PageInfo = &PageInfo {
        slug: "gpu",
        chapter: chapter_text!("gpu"),
    };

    const PARAMS: &'static [Param<Self>] = links::PARAMS;

    type Cell = Cell;

    const FULL_WIDTH: &'static [&'static str] = &["source"];

    fn cell_ui(&mut self, cell: Cell, ui: &mut egui::Ui) {
        self.page_cell_ui(cell, ui);
    }

    fn view_in_words(&mut self) -> String {
        format!(
            "A tail of {} vertices on {} joints, bent {} and twisted {}; the palette in a {}, joint indices as {}, skinned on the {}.",
            self.vertices,
            self.joints,
            crate::ui::degrees(self.bend),
            crate::ui::degrees(self.twist),
            match self.storage {
                Storage::Uniform => "uniform array",
                Storage::Texture => "bone texture",
            },
            indices_slug(self.indices),
            if self.cpu_skinning { "CPU" } else { "GPU" }
        )
    }

    fn viewport_ui(&mut self, ui: &mut egui::Ui) {
        self.page_viewport_ui(ui);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_slider_builds_a_big_mesh_in_the_frame_after_one_that_says_so() {
        let ctx = egui::Context::default();
        let next_frame = || {
            // Nothing paints here: the frame's new font textures are let go.
            let mut output = ctx.run_ui(egui::RawInput::default(), |_| {});
            output.textures_delta.clear();
        };
        // Small: at once.
        let mut page = GpuPage {
            vertices: 20_000,
            ..GpuPage::default()
        };
        page.rebuild_from_ui(&ctx);
        assert_eq!(page.build, Build::Idle);
        assert_eq!(page.built_for.2, 20_000);
        // Big: asked in one frame, said in the next, built in the one after.
        page.vertices = LIVE_REBUILD_VERTICES + 50_000;
        page.rebuild_from_ui(&ctx);
        assert!(matches!(page.build, Build::Asked(_)));
        // What the page draws after the slider, in the frame that asks, changes nothing.
        page.advance_build(&ctx);
        assert!(matches!(page.build, Build::Asked(_)));
        next_frame();
        page.advance_build(&ctx);
        assert!(matches!(page.build, Build::Said(_)));
        // A second pass of the same frame only says it again.
        page.advance_build(&ctx);
        assert!(matches!(page.build, Build::Said(_)));
        assert_eq!(page.built_for.2, 20_000, "not built while it is said");
        next_frame();
        page.advance_build(&ctx);
        assert_eq!(page.build, Build::Idle);
        assert_eq!(page.built_for.2, LIVE_REBUILD_VERTICES + 50_000);
        assert!(page.chain.skin.positions.len() > LIVE_REBUILD_VERTICES);
        // Back down from a big mesh: the old one is big, so the message is shown too.
        page.vertices = 3_000;
        page.rebuild_from_ui(&ctx);
        assert!(matches!(page.build, Build::Asked(_)));
        for _ in 0..2 {
            next_frame();
            page.advance_build(&ctx);
        }
        assert!(page.chain.skin.positions.len() < LIVE_REBUILD_VERTICES);
    }
}
