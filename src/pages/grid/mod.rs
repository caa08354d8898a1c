//! The 2D bone-chain grid: ten vertices, three bones, the skinning shader drawing red lines.

mod cells;
pub mod data;
pub mod exercise;
mod view;

use crate::gl::{MeshData, Palette, Primitive, Scene, SkinnedDraw};
use crate::link::{Access, Param};
use crate::page::{Lesson, PageInfo};
use crate::skin::lbs::{VertexBreakdown, palette, skin_vertices};
use crate::ui::inspect::{InspectStyle, breakdown_ui, partials_overlay};
use crate::ui::matrix::matrix_view_ui;
use crate::ui::pick::{PICK_RADIUS, nearest};
use crate::ui::{Camera, PlaneCamera, Viewport, angle_slider_ui, error_ui};
use data::BONE_COUNT;
use egui::{Color32, RichText, Ui};
use exercise::EXERCISES;
use glam::{Mat4, Vec2, Vec3};
use std::f32::consts::{PI, TAU};
use std::sync::Arc;

/// The page's cells, in chapter order; their snake_case names are the chapter's cell
/// markers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, strum::EnumString, strum::VariantNames)]
#[strum(serialize_all = "snake_case")]
pub enum Cell {
    Controls,
    Bone,
    Vertex,
    Forget,
    Check,
}

/// The colour of the skinned mesh. Only the shader draws in it, so a screenshot test
/// can find the shader's lines by colour.
pub const MESH_RED: Color32 = Color32::from_rgb(240, 60, 50);
/// Vertex dots drawn over the mesh (by egui, from the CPU reference).
const DOT_RED: Color32 = Color32::from_rgb(150, 25, 25);
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
    check: crate::ui::check::Check,
    dragging: Option<usize>,
    camera: Camera,
    mesh: Arc<MeshData>,
    /// Screen positions of the joints in the last frame (for tests and picking).
    pub joint_screen: [egui::Pos2; BONE_COUNT],
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
        let indices = data::LINES.iter().flatten().copied().collect();
        Self {
            angles: [0.0; BONE_COUNT],
            playing: true,
            time: 0.0,
            bone: 1,
            vertex: None,
            forget_inverse_bind: false,
            exercise: 0,
            check: Default::default(),
            dragging: None,
            camera: default_camera(),
            mesh: MeshData::new(skin, indices, Primitive::Lines),
            joint_screen: [egui::Pos2::ZERO; BONE_COUNT],
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

    fn play_ui(&mut self, ui: &mut Ui) {
        ui.horizontal(|ui| {
            let label = if self.playing { "Pause" } else { "Play" };
            if ui.button(label).clicked() {
                self.playing = !self.playing;
            }
            let mut t = self.time;
            // Angles set by hand (a drag, a slider, a link) are not `sin(t) · 0.8` for
            // any one t: the time is then not shown, so it cannot contradict the formula.
            let by_hand = self.angles != [data::animated_angle(self.time); BONE_COUNT];
            let text = if by_hand {
                "time t (angles set by hand)"
            } else {
                "time t"
            };
            if ui
                .add(
                    egui::Slider::new(&mut t, 0.0..=2.0 * PI)
                        .text(text)
                        .custom_formatter(move |v, _| {
                            if by_hand {
                                "–".to_owned()
                            } else {
                                format!("{v:.2}")
                            }
                        }),
                )
                .changed()
            {
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
        }
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
        chapter: include_str!("../../../chapters/grid.md"),
    };

    // While the animation plays, the link names no angle: a link that changed every
    // frame could not be copied, and browsers throttle address-bar updates.
    const PARAMS: &'static [Param<Self>] = &[
        Param {
            key: "t",
            doc: "animation time in seconds; pauses there",
            access: Access::Number {
                min: 0.0,
                max: TAU,
                set: |s, t| {
                    s.time = t;
                    s.pause_at([data::animated_angle(t); BONE_COUNT]);
                },
                get: |_| None,
            },
        },
        Param {
            key: "angle",
            doc: "every bone's angle in radians; pauses",
            access: Access::Number {
                min: -TAU,
                max: TAU,
                set: |s, angle| s.pause_at([angle; BONE_COUNT]),
                get: |s| {
                    (!s.playing && s.angles.iter().all(|a| *a == s.angles[0]))
                        .then_some(s.angles[0])
                },
            },
        },
        Param {
            key: "angles",
            doc: "one angle per bone in radians; pauses",
            access: Access::Numbers {
                count: BONE_COUNT,
                min: -TAU,
                max: TAU,
                set: |s, xs| {
                    if let Ok(angles) = xs.try_into() {
                        s.pause_at(angles);
                    }
                },
                get: |s| {
                    (!s.playing && s.angles.iter().any(|a| *a != s.angles[0]))
                        .then(|| s.angles.to_vec())
                },
            },
        },
        Param {
            key: "bone",
            doc: "the bone whose matrices are shown",
            access: Access::Whole {
                min: 0,
                max: BONE_COUNT - 1,
                set: |s, bone| s.bone = bone,
                get: |s| (s.bone != 1).then_some(s.bone),
            },
        },
        Param {
            key: "vertex",
            doc: "the vertex inspected",
            access: Access::Whole {
                min: 0,
                max: data::POSITIONS.len() - 1,
                set: |s, vertex| s.vertex = Some(vertex),
                get: |s| s.vertex,
            },
        },
        Param {
            key: "forget_inverse_bind",
            doc: "upload world matrices instead of gradients",
            access: Access::Bool {
                set: |s, on| s.forget_inverse_bind = on,
                get: |s| s.forget_inverse_bind.then_some(true),
            },
        },
        Param {
            key: "question",
            doc: "the check-yourself exercise",
            access: Access::Whole {
                min: 1,
                max: EXERCISES.len(),
                set: |s, q| s.exercise = q - 1,
                get: |s| (s.exercise != 0).then_some(s.exercise + 1),
            },
        },
    ];

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

    fn viewport_ui(&mut self, ui: &mut Ui) {
        self.page_viewport_ui(ui);
    }
}
