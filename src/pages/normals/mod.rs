//! Normals and tangents: a lit, skinned arm whose forearm is scaled across the bone.
//! Its normals are carried by the blended matrix itself (wrong) and by its inverse
//! transpose (right), side by side; a plot measures how far each is from the true normal
//! of the skinned surface; one vertex's tangent is made perpendicular again step by step.

mod cells;
pub mod data;
pub mod exercise;
mod links;
mod view;

use crate::link::Param;
use crate::page::{Lesson, PageInfo};
use crate::ui::check::Check;
use crate::ui::{Camera, OrbitCamera};
use data::Limb;
use exercise::EXERCISES;
use glam::{Mat4, Vec3};
use scene::{MeshData, Primitive};
use skin::lbs::{SkinnedVertex, skin_vertices_with};
use skin::normals::NormalMethod;
use std::sync::{Arc, OnceLock};

/// The page's cells, in chapter order; their snake_case names are the chapter's cell
/// markers.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, strum::EnumString, strum::VariantNames, strum::IntoStaticStr,
)]
#[strum(serialize_all = "snake_case")]
pub enum Cell {
    Compare,
    Error,
    Tangent,
    Check,
}

/// The forearm's scale across the bone: the smallest and largest the page allows.
pub const SCALE_RANGE: std::ops::RangeInclusive<f32> = 0.25..=3.0;
/// The elbow's bend: the most either way, radians.
pub const MAX_BEND: f32 = 1.6;
const DEFAULT_SCALE: f32 = 2.5;
const DEFAULT_BEND: f32 = 0.5;
/// A vertex on the front of the forearm's muscle, where the methods disagree most.
pub const DEFAULT_VERTEX: usize = 40 * data::SEGMENTS + 5;
/// How far apart the two arms are drawn when both are shown.
const ROW_OFFSET: f32 = 2.6;

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
    /// Normals by the matrix itself.
    Naive,
    /// Normals by the inverse transpose.
    InverseTranspose,
    /// Both, the naive arm above.
    Both,
}

impl Show {
    /// The arms drawn: how each carries its normals, and where it sits.
    pub fn arms(self) -> Vec<(NormalMethod, Vec3)> {
        match self {
            Self::Naive => vec![(NormalMethod::Naive, Vec3::ZERO)],
            Self::InverseTranspose => vec![(NormalMethod::InverseTranspose, Vec3::ZERO)],
            Self::Both => vec![
                (NormalMethod::Naive, Vec3::Y * ROW_OFFSET),
                (NormalMethod::InverseTranspose, Vec3::Y * -ROW_OFFSET),
            ],
        }
    }
}

/// The limb and its GPU mesh, built once: every page shares them.
struct Assets {
    limb: Limb,
    mesh: Arc<MeshData>,
}

impl Assets {
    /// The limb and mesh, built the first time they are asked for.
    fn shared() -> Arc<Self> {
        static ASSETS: OnceLock<Arc<Assets>> = OnceLock::new();
        ASSETS.get_or_init(|| Arc::new(Self::new())).clone()
    }

    fn new() -> Self {
        // The limb's weights come from the arm's falloff, covered by the tests in
        // `pages::normals::data`; an error there would show as an empty viewport.
        let limb = data::limb().unwrap_or(Limb {
            skin: Default::default(),
            triangles: Vec::new(),
            stencils: Vec::new(),
        });
        let mesh = MeshData::new(
            limb.skin.clone(),
            limb.triangles.clone(),
            Primitive::Triangles,
        );
        Self { limb, mesh }
    }
}

/// The normals' errors against the forearm's scale, for one bend.
struct ErrorCurves {
    bend: f32,
    points: ErrorPoints,
    /// Every scale sampled, or one in [`COARSE_STEP`] while the bend was moving.
    full: bool,
    /// The frame (egui's count) they were worked out in.
    frame: u64,
}

/// While the bend changes from one frame to the next (a drag), the plot samples one
/// scale in this many, and every scale once the bend rests for a frame. One pass over
/// the arm per scale is a frame's worth of work on one thread, as in the browser.
const COARSE_STEP: usize = 4;

/// `(scale, errors over the arm)`, from the smallest scale to the largest.
pub type ErrorPoints = Arc<Vec<(f32, data::NormalErrors)>>;

/// How many scales the error plot samples, from end to end of [`SCALE_RANGE`].
const ERROR_SAMPLES: usize = 40;

/// The page's state.
pub struct NormalsPage {
    /// The forearm's scale along its own y axis (across the bone).
    pub scale: f32,
    /// The elbow's bend about z, radians.
    pub bend: f32,
    /// Which arms are drawn.
    pub show: Show,
    /// The vertex whose tangent is worked step by step.
    pub vertex: Option<usize>,
    /// Draw each arm's normals and tangents as short lines.
    pub show_lines: bool,
    /// Draw deformation ellipses on the arms.
    pub ellipses: bool,
    /// The check cell's exercise.
    pub exercise: usize,
    check: Check,
    camera: Camera,
    assets: Arc<Assets>,
    errors: Option<ErrorCurves>,
    scroll_to: crate::ui::scroll::ScrollTo,
    /// Where the viewport was drawn last frame (for tests).
    pub viewport_rect: egui::Rect,
}

fn default_camera() -> Camera {
    Camera::Orbit(OrbitCamera {
        target: Vec3::new(2.2, 0.0, 0.0),
        yaw: 0.25,
        pitch: 0.2,
        distance: 14.0,
    })
}

impl Default for NormalsPage {
    fn default() -> Self {
        Self {
            scale: DEFAULT_SCALE,
            bend: DEFAULT_BEND,
            show: Show::Both,
            vertex: Some(DEFAULT_VERTEX),
            show_lines: true,
            ellipses: false,
            exercise: 0,
            check: Check::default(),
            camera: default_camera(),
            assets: Assets::shared(),
            errors: None,
            scroll_to: Default::default(),
            viewport_rect: egui::Rect::NOTHING,
        }
    }
}

impl NormalsPage {
    /// `world_from_bind` per bone for the current bend and scale.
    pub fn palette(&self) -> Vec<Mat4> {
        data::palette(self.bend, self.scale)
    }

    /// The limb skinned on the CPU with normals carried by `method`: what the shader
    /// draws, for picking, the lines and the readouts.
    pub fn skinned(&self, method: NormalMethod) -> Vec<SkinnedVertex> {
        skin_vertices_with(&self.palette(), &self.assets.limb.skin, method)
    }

    /// The camera, as the viewport last left it.
    pub fn camera(&self) -> &Camera {
        &self.camera
    }

    /// The number of vertices of the limb.
    pub fn vertex_count(&self) -> usize {
        self.assets.limb.skin.positions.len()
    }

    /// The normals' errors over the arm against the scale, at this bend, drawn in
    /// egui's frame `frame`, and whether every scale is in them. They are worked once
    /// per bend, so dragging the scale costs nothing. A new bend, or a link opened,
    /// works them again: each scale a pass over the whole arm, shared out between the
    /// cores (docs/measurements.md, "Slider moves on the H100"). A bend that changes
    /// again the frame after gets one scale in [`COARSE_STEP`], and the next frame the
    /// bend rests gets them all: the caller asks for that frame when they are not all in.
    pub fn error_curves(&mut self, frame: u64) -> (ErrorPoints, bool) {
        let moving = match &self.errors {
            Some(c) if c.bend == self.bend && (c.full || c.frame == frame) => {
                return (c.points.clone(), c.full);
            }
            // The same bend a frame later: it has come to rest.
            Some(c) if c.bend == self.bend => false,
            Some(c) => frame <= c.frame + 1,
            None => false,
        };
        let step = if moving { COARSE_STEP } else { 1 };
        let (lo, hi) = (SCALE_RANGE.start().ln(), SCALE_RANGE.end().ln());
        let steps: Vec<usize> = (0..=ERROR_SAMPLES).step_by(step).collect();
        let mut points = vec![(0.0, data::NormalErrors::default()); steps.len()];
        let (bend, limb) = (self.bend, &self.assets.limb);
        parallel::run_each((&steps[..], &mut points[..]), |(steps, out)| {
            for (step, out) in steps.iter().zip(out) {
                let scale = (lo + (hi - lo) * *step as f32 / ERROR_SAMPLES as f32).exp();
                *out = (
                    scale,
                    data::normal_errors(&data::palette(bend, scale), limb),
                );
            }
        });
        let points = Arc::new(points);
        self.errors = Some(ErrorCurves {
            bend: self.bend,
            points: points.clone(),
            full: !moving,
            frame,
        });
        (points, !moving)
    }

    /// The normals' errors over the arm at the current bend and scale.
    pub fn normal_errors(&self) -> data::NormalErrors {
        data::normal_errors(&self.palette(), &self.assets.limb)
    }

    /// The true normal of the skinned surface at `vertex` and the two methods' normals,
    /// in that order, at the current pose.
    pub fn vertex_normals(&self, vertex: usize) -> Option<[Vec3; 3]> {
        data::vertex_normals(&self.palette(), &self.assets.limb, vertex)
    }
}

impl Lesson for NormalsPage {
    fn camera(&self) -> Option<Camera> {
        Some(self.camera)
    }

    fn set_camera(&mut self, camera: Camera) {
        self.camera = camera;
    }

    const INFO: &'static PageInfo = &PageInfo {
        slug: "normals",
        chapter: chapter_text!("normals"),
    };

    const PARAMS: &'static [Param<Self>] = links::PARAMS;

    type Cell = Cell;

    fn cell_ui(&mut self, cell: Cell, ui: &mut egui::Ui) {
        self.page_cell_ui(cell, ui);
    }

    fn view_in_words(&mut self) -> String {
        format!(
            "An arm, the forearm scaled {:.2} times and the elbow bent {}, its normals by {}.",
            self.scale,
            crate::ui::degrees(self.bend),
            match self.show {
                Show::Naive => "the matrix itself (naive)",
                Show::InverseTranspose => "the inverse transpose",
                Show::Both => "the matrix (above) and the inverse transpose (below)",
            }
        )
    }

    fn viewport_ui(&mut self, ui: &mut egui::Ui) {
        self.page_viewport_ui(ui);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::link::Link;
    use crate::page::open;

    #[test]
    fn a_link_about_a_vertex_or_an_exercise_opens_at_its_cell() {
        for (query, cell) in [
            ("scale=1&method=naive&bend=0&lines=false", None),
            ("vertex=3", Some("tangent")),
            ("vertex=3&question=2", Some("check")),
        ] {
            let mut page = NormalsPage::default();
            open(
                &mut page,
                &Link::parse(&format!("normals?{query}")).unwrap(),
            )
            .unwrap();
            assert_eq!(page.scroll_to.target(), cell, "{query}");
        }
    }

    #[test]
    fn a_moving_bend_plots_every_fourth_scale_and_every_scale_once_it_rests() {
        let mut page = NormalsPage::default();
        let (first, all) = page.error_curves(10);
        assert!(
            all && first.len() == ERROR_SAMPLES + 1,
            "a new page: every scale"
        );
        // The bend changes the frame after, and again the frame after that: a drag.
        for (frame, step) in [(11, 0.1), (12, 0.2)] {
            page.bend = DEFAULT_BEND + step;
            let (coarse, all) = page.error_curves(frame);
            assert!(!all, "frame {frame}: a moving bend");
            assert_eq!(coarse.len(), ERROR_SAMPLES / COARSE_STEP + 1);
            let (again, _) = page.error_curves(frame);
            assert!(
                Arc::ptr_eq(&again, &coarse),
                "a second pass of one frame reuses it"
            );
        }
        // At rest a frame later: every scale, and the coarse ones among them.
        let (coarse, _) = page.error_curves(12);
        let (rested, all) = page.error_curves(13);
        assert!(all && rested.len() == ERROR_SAMPLES + 1);
        for (k, point) in coarse.iter().enumerate() {
            assert_eq!(
                *point,
                rested[k * COARSE_STEP],
                "scale {k} of the coarse plot"
            );
        }
        assert!(
            Arc::ptr_eq(&page.error_curves(14).0, &rested),
            "kept while at rest"
        );
        // A bend changed after a pause (a typed value, a link): every scale at once.
        page.bend = DEFAULT_BEND + 0.4;
        let (typed, all) = page.error_curves(40);
        assert!(all && typed.len() == ERROR_SAMPLES + 1);
        let mut fresh = NormalsPage {
            bend: DEFAULT_BEND + 0.4,
            ..NormalsPage::default()
        };
        assert_eq!(fresh.error_curves(0).0, typed, "the same as a new page's");
    }

    #[test]
    fn the_declared_vertex_count_is_the_limb_s() {
        assert_eq!(NormalsPage::default().vertex_count(), data::VERTEX_COUNT);
        // The bend slider's ends, in degrees and back, stay within the link's range.
        assert!(MAX_BEND.to_degrees().to_radians() <= MAX_BEND);
    }
}
