//! The matrix X-ray: a 4x4 matrix is four columns, three basis arrows and an origin.

mod cells;
pub use cells::describe;
mod exercise;
mod links;

use crate::link::Param;
use crate::page::{Lesson, PageInfo};
use crate::ui::matrix::{MatrixEdit, matrix_edit_ui};
use crate::ui::viewport::{caption_ui, room_below};
use crate::ui::{AXIS_COLORS, Camera, OrbitCamera, Viewport, error_ui, rgba};
use egui::{RichText, Ui};
use glam::{Mat3, Mat4, Vec3};
use scene::{MeshData, Palette, Primitive, Scene, SkinnedDraw};
use skin::Influences;
use skin::lbs::SkinMesh;
use skin::matrix::{column_lengths, is_rigid};
use std::sync::{Arc, OnceLock};

/// What the viewport shows and how to handle it, under it.
const CAPTION: &str = "Drag to orbit, scroll to zoom. Arrows: M's x, y, z columns from its t column. Grey/yellow: p before/after; grey/orange: v before/after.";
/// The caption where the bottom row is not 0 0 0 1: the arrows end at divided points.
const CAPTION_PROJECTIVE: &str = "Drag to orbit, scroll to zoom. The bottom row is not 0 0 0 1, so the arrows are not M's columns: they run from where M puts the origin to where it puts (1, 0, 0), (0, 1, 0) and (0, 0, 1), each divided by its w. Grey/yellow: p before/after; grey/orange: v before/after (its x, y, z).";
/// The caption while the cube is drawn with M transposed.
const CAPTION_TRANSPOSED: &str = "Drag to orbit, scroll to zoom. Arrows: M's x, y, z columns from its t column. White cube: M transposed, what a shader that reads columns draws from M written for rows. The dots and arrows stay with M itself.";

/// The named starting matrices.
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
pub enum Preset {
    Identity,
    RotateX,
    RotateY,
    RotateZ,
    Scale,
    ScaleXyz,
    Shear,
    Translate,
    Composed,
    Perspective,
}

impl Preset {
    fn label(self) -> &'static str {
        match self {
            Self::Identity => "Identity",
            Self::RotateX => "Rotate 30° about x",
            Self::RotateY => "Rotate 30° about y",
            Self::RotateZ => "Rotate 30° about z",
            Self::Scale => "Scale ×1.5",
            Self::ScaleXyz => "Scale 2, 1, 0.5",
            Self::Shear => "Shear x by y",
            Self::Translate => "Translate (1, 0.5, -0.5)",
            Self::Composed => "Translate · rotate · scale",
            Self::Perspective => "Perspective: w = 1 − z/2",
        }
    }

    /// The matrix this preset stands for.
    pub fn matrix(self) -> Mat4 {
        let deg30 = 30f32.to_radians();
        match self {
            Self::Identity => Mat4::IDENTITY,
            Self::RotateX => Mat4::from_rotation_x(deg30),
            Self::RotateY => Mat4::from_rotation_y(deg30),
            Self::RotateZ => Mat4::from_rotation_z(deg30),
            Self::Scale => Mat4::from_scale(Vec3::splat(1.5)),
            Self::ScaleXyz => Mat4::from_scale(Vec3::new(2.0, 1.0, 0.5)),
            Self::Shear => Mat4::from_cols(
                Vec3::X.extend(0.0),
                Vec3::new(0.5, 1.0, 0.0).extend(0.0),
                Vec3::Z.extend(0.0),
                glam::Vec4::W,
            ),
            Self::Translate => Mat4::from_translation(Vec3::new(1.0, 0.5, -0.5)),
            Self::Composed => {
                Mat4::from_translation(Vec3::new(1.0, 0.0, 0.5))
                    * Mat4::from_rotation_y(40f32.to_radians())
                    * Mat4::from_scale(Vec3::new(1.5, 1.0, 1.0))
            }
            // The bottom row 0 0 −0.5 1: a point's w becomes 1 − z/2.
            Self::Perspective => {
                let mut m = Mat4::IDENTITY;
                m.z_axis.w = -0.5;
                m
            }
        }
    }
}

/// The page's cells, in chapter order; their snake_case names are the chapter's cell
/// markers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, strum::EnumString, strum::VariantNames)]
#[strum(serialize_all = "snake_case")]
pub enum Cell {
    Presets,
    Matrix,
    Multiply,
    Properties,
    Check,
}

pub use crate::pages::LIMIT;

/// Refuses a matrix with an entry past ±[`LIMIT`], which no link could carry.
fn within_limit(m: &Mat4) -> Result<(), String> {
    if m.abs().to_cols_array().iter().all(|x| *x <= LIMIT) {
        Ok(())
    } else {
        Err(format!("every number stays within ±{LIMIT}"))
    }
}
/// Where `m` draws the point `p`: `m · (p, 1)`, divided by its w, as the GPU divides
/// (the skinning shader's own rule, [`skin::lbs::PositionW::drawn`]).
pub fn drawn(m: &Mat4, p: Vec3) -> Vec3 {
    skin::lbs::PositionW::Divide.drawn(m, p)
}

const DEFAULT_POINT: Vec3 = Vec3::new(1.0, 1.0, 0.0);
const DEFAULT_VECTOR: Vec3 = Vec3::new(0.0, 1.0, 1.0);

/// The page's state.
pub struct XrayPage {
    /// The matrix under the X-ray.
    pub matrix: Mat4,
    preset: Preset,
    /// A point (w = 1) the matrix moves.
    pub point: Vec3,
    /// A vector (w = 0) the matrix turns and scales but does not move.
    pub vector: Vec3,
    /// Whether the viewport draws M transposed: what a matrix written for row vectors
    /// becomes when a shader reads it as columns.
    pub transposed: bool,
    /// The check cell's exercise.
    pub exercise: usize,
    check: crate::ui::check::Check,
    camera: Camera,
    refused: Option<String>,
    cube: Arc<MeshData>,
}

/// Close enough that the unit cube and its arrows fill most of the view: every preset
/// keeps them within about two units of the origin.
fn default_camera() -> OrbitCamera {
    OrbitCamera {
        distance: 6.0,
        ..OrbitCamera::default()
    }
}

impl Default for XrayPage {
    fn default() -> Self {
        Self {
            // The chapter opens on the composed preset: three columns that differ.
            matrix: Preset::Composed.matrix(),
            preset: Preset::Composed,
            point: DEFAULT_POINT,
            vector: DEFAULT_VECTOR,
            transposed: false,
            exercise: 0,
            check: Default::default(),
            camera: Camera::Orbit(default_camera()),
            refused: None,
            cube: unit_cube(),
        }
    }
}

/// The unit cube's twelve edges, one joint: the matrix moves it like a skinned mesh.
/// Built once and shared by every page built.
fn unit_cube() -> Arc<MeshData> {
    static CUBE: OnceLock<Arc<MeshData>> = OnceLock::new();
    CUBE.get_or_init(build_unit_cube).clone()
}

fn build_unit_cube() -> Arc<MeshData> {
    let positions: Vec<Vec3> = (0..8)
        .map(|i| Vec3::new((i & 1) as f32, ((i >> 1) & 1) as f32, ((i >> 2) & 1) as f32))
        .collect();
    let mut indices = Vec::new();
    for a in 0..8u32 {
        for bit in [1, 2, 4] {
            if a & bit == 0 {
                indices.extend([a, a | bit]);
            }
        }
    }
    let influences = vec![Influences::rigid(0); positions.len()];
    MeshData::new(
        SkinMesh {
            positions,
            influences,
            ..Default::default()
        },
        indices,
        Primitive::Lines,
    )
}
impl XrayPage {
    /// The three basis arrows the viewport draws: (origin, tip) for x, y and z. They
    /// run from where `M` puts the origin to where it puts the cube's corners on the
    /// axes, after the divide by w: the columns themselves while the bottom row is
    /// 0 0 0 1.
    pub fn arrows(&self) -> [(Vec3, Vec3); 3] {
        let origin = drawn(&self.matrix, Vec3::ZERO);
        std::array::from_fn(|i| (origin, drawn(&self.matrix, Vec3::AXES[i])))
    }

    /// The matrix the viewport's cube is drawn with: `M`, or its transpose.
    pub fn drawn_matrix(&self) -> Mat4 {
        if self.transposed {
            self.matrix.transpose()
        } else {
            self.matrix
        }
    }

    fn set_preset(&mut self, preset: Preset) {
        self.preset = preset;
        self.matrix = preset.matrix();
        self.refused = None;
    }

    /// Edits a point or vector; a value that is not a finite number is refused and the
    /// last valid one kept. Returns the refusal, if any.
    fn vec3_ui(ui: &mut Ui, label: &str, v: &mut Vec3) -> Option<String> {
        let mut candidate = *v;
        ui.horizontal_wrapped(|ui| {
            ui.label(label);
            for (i, axis) in ["x", "y", "z"].iter().enumerate() {
                let current = f64::from(candidate[i]);
                ui.add(
                    egui::DragValue::new(&mut candidate[i])
                        .speed(0.02)
                        .fixed_decimals(2)
                        .custom_parser(move |text| crate::ui::numbers::typed_near(text, current, 2))
                        .prefix(format!("{axis} ")),
                );
            }
        });
        if candidate.is_finite() && candidate.abs().max_element() <= LIMIT {
            *v = candidate;
            None
        } else {
            Some(format!(
                "Edit refused: {label} must be finite numbers within ±{LIMIT}; it keeps its last valid value."
            ))
        }
    }

    fn scene(&self, clip_from_world: Mat4, light_dir: Vec3) -> Scene {
        let mut scene = Scene {
            clip_from_world,
            light_dir,
            background: [0.09, 0.09, 0.11, 1.0],
            ..Default::default()
        };
        let grid = [0.28, 0.28, 0.32, 1.0];
        for i in -5..=5 {
            let t = i as f32;
            scene.backdrop_line(Vec3::new(t, 0.0, -5.0), Vec3::new(t, 0.0, 5.0), grid);
            scene.backdrop_line(Vec3::new(-5.0, 0.0, t), Vec3::new(5.0, 0.0, t), grid);
        }
        for (axis, color) in [Vec3::X, Vec3::Y, Vec3::Z].iter().zip(AXIS_COLORS) {
            let mut dim = rgba(color);
            dim[3] = 1.0;
            dim = [dim[0] * 0.55, dim[1] * 0.55, dim[2] * 0.55, 1.0];
            // Part of the backdrop: framing fits the cube and its arrows, not the world.
            scene.backdrop_line(Vec3::ZERO, *axis * 5.0, dim);
        }
        for ((origin, tip), color) in self.arrows().iter().zip(AXIS_COLORS) {
            scene.arrow(*origin, *tip, 0.035, rgba(color));
        }
        scene.marker(self.arrows()[0].0, 0.06, rgba(AXIS_COLORS[3]));
        scene.skinned.push(SkinnedDraw::lines(
            self.cube.clone(),
            Palette::Matrices(vec![self.drawn_matrix()]),
            [0.85, 0.85, 0.9, 1.0],
            2.0,
        ));
        let before = [0.6, 0.6, 0.6, 1.0];
        let after = [1.0, 0.8, 0.2, 1.0];
        scene.marker(self.point, 0.08, before);
        scene.marker(drawn(&self.matrix, self.point), 0.1, after);
        scene.arrow(Vec3::ZERO, self.vector, 0.02, before);
        scene.arrow(
            Vec3::ZERO,
            self.matrix.transform_vector3(self.vector),
            0.025,
            [1.0, 0.55, 0.15, 1.0],
        );
        scene
    }
}

impl Lesson for XrayPage {
    fn camera(&self) -> Option<Camera> {
        Some(self.camera)
    }

    fn set_camera(&mut self, camera: Camera) {
        self.camera = camera;
    }

    const INFO: &'static PageInfo = &PageInfo {
        slug: "xray",
        chapter: chapter_text!("xray"),
    };

    const PARAMS: &'static [Param<Self>] = links::PARAMS;

    type Cell = Cell;

    fn cell_ui(&mut self, cell: Cell, ui: &mut Ui) {
        self.page_cell_ui(cell, ui);
    }

    fn view_in_words(&mut self) -> String {
        let m = self.matrix;
        let v = |c: glam::Vec4| format!("({:.2}, {:.2}, {:.2})", c.x, c.y, c.z);
        format!(
            "Three arrows from the point {}, the matrix's t column: x to {}, y to {}, z to {} away; the unit cube after the matrix moves it; a point and a vector before and after.",
            v(m.w_axis),
            v(m.x_axis),
            v(m.y_axis),
            v(m.z_axis)
        )
    }

    fn viewport_ui(&mut self, ui: &mut Ui) {
        let caption = if self.transposed {
            CAPTION_TRANSPOSED
        } else if self.matrix.row(3) != glam::Vec4::W {
            CAPTION_PROJECTIVE
        } else {
            CAPTION
        };
        let height = ui.available_height() - room_below(ui, caption, 0);
        let vp = Viewport::new(ui, height, &self.camera);
        vp.camera_input(ui, &mut self.camera);
        vp.paint(ui, self.scene(vp.clip_from_world, self.camera.light_dir()));
        for ((_, tip), (name, color)) in self
            .arrows()
            .iter()
            .zip(scene::AXIS_NAMES.iter().zip(AXIS_COLORS))
        {
            if let Some(pos) = vp.to_screen(*tip) {
                vp.label(
                    ui,
                    pos,
                    *name,
                    egui::FontId::proportional(16.0),
                    color,
                    egui::vec2(1.0, -1.0),
                );
            }
        }
        caption_ui(ui, caption);
    }
}
