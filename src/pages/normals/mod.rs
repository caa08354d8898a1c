//! Normals and tangents: a lit, skinned arm whose forearm is scaled across the bone.
//! Its normals are carried by the blended matrix itself (wrong) and by its inverse
//! transpose (right), side by side; a plot measures how wrong; one vertex's tangent is
//! made perpendicular again step by step.

mod cells;
mod view;

use crate::gl::{MeshData, Primitive};
use crate::link::{Link, LinkError, number};
use crate::page::{Page, PageInfo};
use crate::skin::lbs::{SkinnedVertex, skin_vertices_with};
use crate::skin::normals::{self, EXERCISES, Limb, NormalMethod};
use crate::ui::check::Check;
use crate::ui::{Camera, OrbitCamera};
use glam::{Mat4, Vec3};
use std::sync::Arc;

const SLUG: &str = "normals";
/// The page's cells, in chapter order; their snake_case names are the chapter's cell
/// markers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, strum::EnumString, strum::VariantNames)]
#[strum(serialize_all = "snake_case")]
pub enum Cell {
    Compare,
    Error,
    Tangent,
    Check,
}

/// The page's declaration.
pub static INFO: PageInfo = PageInfo {
    slug: "normals",
    title: "Normals and tangents",
    chapter: include_str!("../../../chapters/07-normals.md"),
    cells: <Cell as strum::VariantNames>::VARIANTS,
};
const KEYS: &[&str] = &["scale", "method", "bend", "vertex", "lines", "question"];

/// The forearm's scale across the bone: the smallest and largest the page allows.
pub const SCALE_RANGE: std::ops::RangeInclusive<f32> = 0.25..=3.0;
/// The elbow's bend: the most either way, radians.
pub const MAX_BEND: f32 = 1.6;
const DEFAULT_SCALE: f32 = 2.5;
const DEFAULT_BEND: f32 = 0.5;
/// A vertex on the front of the forearm's muscle, where the methods disagree most.
pub const DEFAULT_VERTEX: usize = 40 * normals::SEGMENTS + 5;
/// How far apart the two arms are drawn when both are shown.
const ROW_OFFSET: f32 = 2.6;

/// Which arms the viewport draws.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Show {
    /// Normals by the matrix itself.
    Naive,
    /// Normals by the inverse transpose.
    InverseTranspose,
    /// Both, the naive arm above.
    Both,
}

impl Show {
    /// Every choice, in the order of the buttons.
    pub const ALL: [Self; 3] = [Self::Naive, Self::InverseTranspose, Self::Both];

    /// The link name.
    pub fn slug(self) -> &'static str {
        match self {
            Self::Naive => "naive",
            Self::InverseTranspose => "inverse_transpose",
            Self::Both => "both",
        }
    }

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

/// The limb and its GPU mesh, built once and kept through resets.
struct Assets {
    limb: Limb,
    mesh: Arc<MeshData>,
}

impl Assets {
    fn new() -> Self {
        // The limb's weights come from the arm's falloff, covered by the tests in
        // `skin::normals`; an error there would show as an empty viewport.
        let limb = normals::limb().unwrap_or(Limb {
            skin: Default::default(),
            triangles: Vec::new(),
        });
        let mesh = MeshData::new(
            limb.skin.clone(),
            limb.triangles.clone(),
            Primitive::Triangles,
        );
        Self { limb, mesh }
    }
}

/// `[scale, degrees]` points of a plotted curve.
type Curve = Arc<Vec<[f64; 2]>>;

/// The largest and mean angle error against the scale, for one bend.
struct ErrorCurves {
    bend: f32,
    max: Curve,
    mean: Curve,
}

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
        Self::with_assets(Arc::new(Assets::new()))
    }
}

impl NormalsPage {
    fn with_assets(assets: Arc<Assets>) -> Self {
        Self {
            scale: DEFAULT_SCALE,
            bend: DEFAULT_BEND,
            show: Show::Both,
            vertex: Some(DEFAULT_VERTEX),
            show_lines: true,
            exercise: 0,
            check: Check::default(),
            camera: default_camera(),
            assets,
            errors: None,
            scroll_to: Default::default(),
            viewport_rect: egui::Rect::NOTHING,
        }
    }

    /// `world_from_bind` per bone for the current bend and scale.
    pub fn palette(&self) -> Vec<Mat4> {
        normals::palette(self.bend, self.scale)
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

    /// The largest and mean angle error (degrees) against the scale, at this bend.
    pub fn error_curves(&mut self) -> (Curve, Curve) {
        if let Some(c) = &self.errors
            && c.bend == self.bend
        {
            return (c.max.clone(), c.mean.clone());
        }
        let (mut max, mut mean) = (Vec::new(), Vec::new());
        let (lo, hi) = (SCALE_RANGE.start().ln(), SCALE_RANGE.end().ln());
        for step in 0..=60 {
            let scale = (lo + (hi - lo) * step as f32 / 60.0).exp();
            let (m, a) =
                normals::angle_error(&normals::palette(self.bend, scale), &self.assets.limb.skin);
            max.push([scale as f64, m as f64]);
            mean.push([scale as f64, a as f64]);
        }
        let curves = ErrorCurves {
            bend: self.bend,
            max: Arc::new(max),
            mean: Arc::new(mean),
        };
        let out = (curves.max.clone(), curves.mean.clone());
        self.errors = Some(curves);
        out
    }
}

impl Page for NormalsPage {
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
        let scale = link.f32("scale")?;
        if let Some(s) = scale
            && !SCALE_RANGE.contains(&s)
        {
            return Err(link.bad(
                "scale",
                format!(
                    "a number from {} to {}",
                    SCALE_RANGE.start(),
                    SCALE_RANGE.end()
                ),
            ));
        }
        let bend = link.f32("bend")?;
        if let Some(b) = bend
            && b.abs() > MAX_BEND
        {
            return Err(link.bad("bend", format!("radians from -{MAX_BEND} to {MAX_BEND}")));
        }
        let show = link.choice("method", &Show::ALL.map(Show::slug))?;
        let vertex = link.index("vertex", self.vertex_count())?;
        let lines = link.bool("lines")?;
        let question = link.question(EXERCISES.len())?;
        self.scale = scale.unwrap_or(self.scale);
        self.bend = bend.unwrap_or(self.bend);
        self.show = show.map_or(self.show, |i| Show::ALL[i]);
        self.vertex = vertex.or(self.vertex);
        self.show_lines = lines.unwrap_or(self.show_lines);
        if let Some(q) = question {
            self.exercise = q;
            self.check = Check::default();
        }
        // A link about one vertex or one exercise opens at its cell.
        let cell = match (question, vertex) {
            (Some(_), _) => Some("check"),
            (None, Some(_)) => Some("tangent"),
            (None, None) => None,
        };
        self.scroll_to.set(cell);
        Ok(())
    }

    fn link(&self) -> Link {
        let mut link = Link::new(SLUG);
        if self.scale != DEFAULT_SCALE {
            link = link.with("scale", number(self.scale));
        }
        if self.show != Show::Both {
            link = link.with("method", self.show.slug());
        }
        if self.bend != DEFAULT_BEND {
            link = link.with("bend", number(self.bend));
        }
        if self.vertex != Some(DEFAULT_VERTEX)
            && let Some(v) = self.vertex
        {
            link = link.with("vertex", v);
        }
        if !self.show_lines {
            link = link.with("lines", false);
        }
        if self.exercise != 0 {
            link = link.with("question", self.exercise + 1);
        }
        link
    }

    fn cell_ui(&mut self, cell: &str, ui: &mut egui::Ui) {
        self.cell(cell, ui);
    }

    fn viewport_ui(&mut self, ui: &mut egui::Ui) {
        self.viewport(ui);
    }
}
