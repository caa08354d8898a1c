//! The 2D bone-chain grid: ten vertices, three bones, the skinning shader drawing red
//! lines.

mod cells;
pub mod data;
pub mod exercise;
mod links;
pub mod predict;
mod predict_ui;
mod view;

use crate::link::Param;
use crate::page::{Lesson, PageInfo};
use crate::pages::predict::Predicts;
use crate::ui::inspect::{InspectStyle, breakdown_ui, partials_overlay};
use crate::ui::matrix::matrix_view_ui;
use crate::ui::pick::{PICK_RADIUS, nearest};
use crate::ui::{Camera, PlaneCamera, Viewport, angle_slider_ui, error_ui};
use data::BONE_COUNT;
use egui::{Color32, RichText, Ui};
use exercise::EXERCISES;
use glam::{Mat4, Vec2, Vec3};
use predict::{DEFAULT_PREDICT, GUESS_LIMIT, Prediction, Question};
use scene::{MeshData, Palette, Primitive, Scene, SkinnedDraw};
use skin::explain::steps::VertexBreakdown;
use skin::lbs::{palette, skin_vertices};
use std::f32::consts::{PI, TAU};
use std::sync::Arc;

/// The page's cells, in chapter order; their snake_case names are the chapter's cell
/// markers.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, strum::EnumString, strum::VariantNames, strum::IntoStaticStr,
)]
#[strum(serialize_all = "snake_case")]
pub enum Cell {
    Controls,
    Bone,
    Predict,
    Vertex,
    Forget,
    Check,
}

/// The colour of the skinned mesh, purple, apart from the red and green of the x and
/// y axes. Only the shader draws in it, so a screenshot test
/// can find the shader's lines by colour.
pub const MESH_COLOR: Color32 = Color32::from_rgb(130, 50, 170);
/// Vertex dots drawn over the mesh (by egui, from the CPU reference).
const DOT_COLOR: Color32 = Color32::from_rgb(80, 25, 110);
const BONE_COLORS: [Color32; BONE_COUNT] = [
    Color32::from_rgb(255, 200, 60),
    Color32::from_rgb(90, 220, 230),
    Color32::from_rgb(230, 120, 230),
];

/// The page's state.
pub struct GridPage {
    /// Each bone's local rotation about z, radians.
    pub angles: [f32; BONE_COUNT],
    /// Whether the `sin(t) · 0.8` animation drives the angles.
    pub playing: bool,
    /// Animation time, seconds.
    pub time: f32,
    /// The bone whose matrices are shown.
    pub bone: usize,
    /// The vertex being inspected.
    pub vertex: Option<usize>,
    /// Upload world matrices instead of gradients, to see why the inverse bind matters.
    pub forget_inverse_bind: bool,
    /// The check cell's exercise.
    pub exercise: usize,
    /// The prediction under way: its vertex stays hidden until revealed.
    pub prediction: Option<Prediction>,
    check: crate::ui::check::Check,
    scroll_to: crate::ui::scroll::ScrollTo,
    dragging: Option<crate::pages::predict::Grab>,
    camera: Camera,
    mesh: Arc<MeshData>,
    /// For each vertex, the mesh without the lines that meet it (drawn while that
    /// vertex is predicted, so the lines do not point at the answer).
    without: Vec<Arc<MeshData>>,
    /// Screen positions of the joints in the last frame (for tests and picking).
    pub joint_screen: [egui::Pos2; BONE_COUNT],
    /// Screen position of the guess marker in the last frame, while predicting.
    pub guess_screen: Option<egui::Pos2>,
}

fn default_camera() -> Camera {
    Camera::Plane(PlaneCamera {
        center: Vec2::new(5.0, 0.0),
        half_height: 10.5,
    })
}

impl Default for GridPage {
    fn default() -> Self {
        // The grid data is constant and covered by tests in `data`.
        let skin = data::mesh().expect("the grid's weights are valid");
        let indices: Vec<u32> = data::LINES.iter().flatten().copied().collect();
        let mesh = MeshData::new(skin, indices, Primitive::Lines);
        let without = (0..data::POSITIONS.len() as u32)
            .map(|v| {
                let kept = data::LINES
                    .iter()
                    .filter(|line| !line.contains(&v))
                    .flatten()
                    .copied()
                    .collect();
                MeshData::shared(mesh.skin.clone(), Arc::new(kept), Primitive::Lines)
            })
            .collect();
        Self {
            angles: [0.0; BONE_COUNT],
            playing: crate::ui::motion::plays_on_open(),
            time: 0.0,
            bone: 1,
            vertex: None,
            forget_inverse_bind: false,
            exercise: 0,
            prediction: None,
            check: Default::default(),
            scroll_to: Default::default(),
            dragging: None,
            camera: default_camera(),
            mesh,
            without,
            joint_screen: [egui::Pos2::ZERO; BONE_COUNT],
            guess_screen: None,
        }
    }
}

/// Everything derived from the angles for one frame.
struct Pose {
    local: [Mat4; BONE_COUNT],
    world: Vec<Mat4>,
    inverse_bind: Vec<Mat4>,
    /// `world · inverse bind` per bone.
    gradients: Vec<Mat4>,
    /// What is uploaded: the gradients, or the world matrices when the inverse bind is
    /// forgotten.
    uploaded: Vec<Mat4>,
    skinned: Vec<Vec3>,
}

impl GridPage {
    fn pose(&self) -> Pose {
        let skeleton = data::skeleton();
        let local = data::parent_from_joint(self.angles);
        let world = skeleton.world_from_joint(&local);
        let inverse_bind = data::joint_from_bind();
        let gradients = palette(&world, &inverse_bind);
        let uploaded = if self.forget_inverse_bind {
            world.clone()
        } else {
            gradients.clone()
        };
        let skinned = skin_vertices(&uploaded, &self.mesh.skin)
            .iter()
            .map(|v| v.position)
            .collect();
        Pose {
            local,
            world,
            inverse_bind,
            gradients,
            uploaded,
            skinned,
        }
    }

    fn pause_at(&mut self, angles: [f32; BONE_COUNT]) {
        self.playing = false;
        self.angles = angles;
    }

    /// Where each vertex lands with the matrices uploaded now (what the shader draws).
    pub fn skinned_positions(&self) -> Vec<Vec3> {
        self.pose().skinned
    }

    /// Starts a new, hidden prediction for `vertex` and pauses at the current angles: a
    /// question about a moving chain has no one answer.
    pub fn start_prediction(&mut self, vertex: usize) {
        self.prediction = Some(Prediction::of_vertex(vertex));
        self.started();
    }

    /// The vertex whose position is hidden now, if any.
    pub fn hidden_vertex(&self) -> Option<usize> {
        self.prediction
            .filter(|_| !self.revealed())
            .map(|p| p.vertex())
    }

    fn play_ui(&mut self, ui: &mut Ui) {
        // Wrapped, so the row fits a viewport narrowed beside a focused cell.
        ui.horizontal_wrapped(|ui| {
            crate::ui::play_button_ui(ui, &mut self.playing);
            let mut t = self.time;
            // Angles set by hand (a drag, a slider, a link) are not `sin(t) · 0.8` for
            // any one t: the time is then not shown, so it cannot contradict the formula.
            let by_hand = self.angles != [data::animated_angle(self.time); BONE_COUNT];
            let text = if by_hand {
                "time t (angles set by hand)"
            } else {
                "time t"
            };
            let slider = ui.add(egui::Slider::new(&mut t, 0.0..=2.0 * PI).custom_formatter(
                move |v, _| {
                    if by_hand {
                        "–".to_owned()
                    } else {
                        format!("{v:.2}")
                    }
                },
            ));
            let label = ui.label(text);
            if slider.labelled_by(label.id).changed() {
                self.time = t;
                self.pause_at([data::animated_angle(t); BONE_COUNT]);
            }
        });
    }

    fn inspect_style(&self) -> InspectStyle<'static> {
        InspectStyle {
            matrix_name: if self.forget_inverse_bind {
                "world"
            } else {
                "gradient"
            },
            bone_name: &|j| format!("b{j}"),
            bone_color: &|j| BONE_COLORS[j],
            dims: 2,
            decimals: 2,
        }
    }
}

impl Predicts for GridPage {
    type Guess = Vec2;
    type Question = Question;
    type Of = usize;

    /// The angles and the switch: a reveal made before one changed is for another
    /// question.
    fn question(&self) -> Question {
        Question {
            angles: self.angles,
            forget_inverse_bind: self.forget_inverse_bind,
        }
    }

    crate::pages::predict::prediction_in!(prediction);

    /// The default vertex's.
    fn fresh(&self) -> Prediction {
        Prediction::of_vertex(DEFAULT_PREDICT)
    }

    /// Pauses at the current angles.
    fn started(&mut self) {
        self.playing = false;
    }
}

impl Lesson for GridPage {
    fn camera(&self) -> Option<Camera> {
        Some(self.camera)
    }

    fn set_camera(&mut self, camera: Camera) {
        self.camera = camera;
    }

    const INFO: &'static PageInfo = &PageInfo {
        slug: "grid",
        chapter: chapter_text!("grid"),
    };

    const PARAMS: &'static [Param<Self>] = links::PARAMS;

    type Cell = Cell;

    fn tick(&mut self, dt: f32) -> bool {
        if self.playing {
            self.time = (self.time + dt).rem_euclid(TAU);
            self.angles = [data::animated_angle(self.time); BONE_COUNT];
        }
        self.playing
    }

    fn cell_ui(&mut self, cell: Cell, ui: &mut Ui) {
        self.page_cell_ui(cell, ui);
    }

    fn view_in_words(&mut self) -> String {
        let angles: Vec<String> = self
            .angles
            .iter()
            .enumerate()
            .map(|(b, a)| format!("b{b} {}", crate::ui::degrees(*a)))
            .collect();
        let vertex = self
            .vertex
            .filter(|v| self.hidden_vertex() != Some(*v))
            .and_then(|v| Some((v, *self.skinned_positions().get(v)?)))
            .map(|(v, p)| format!("; vertex {v} at ({:.2}, {:.2})", p.x, p.y))
            .unwrap_or_default();
        format!(
            "A grid of ten vertices on a chain of three bones, {}: {}{vertex}{}.",
            if self.playing {
                "bending back and forth"
            } else {
                "held still"
            },
            angles.join(", "),
            if self.forget_inverse_bind {
                "; world matrices uploaded without the inverse bind"
            } else {
                ""
            }
        )
    }

    fn viewport_ui(&mut self, ui: &mut Ui) {
        self.page_viewport_ui(ui);
    }

    fn settle(&mut self) {
        self.settle_prediction();
    }
}
