//! Interpolating rotations: LERP, NLERP and SLERP from A to B, the length of `q(t)`,
//! the speed of each method, q against −q, and turns about one axis on the half-angle
//! circle. The quaternions themselves are taught on the page before.

mod cells;
pub mod circle;
mod circle_ui;
pub mod exercise;
mod links;
pub mod predict;
mod predict_ui;
mod view;

pub use circle_ui::{FLY_CIRCLE, Frame as CircleFrame};

use crate::link::Param;
use crate::page::{Lesson, PageInfo};
use crate::pages::predict::Predicts;
use crate::pages::quaternions::{Assets, glider_camera_at};
use crate::ui::Camera;
use crate::ui::check::Check;
use crate::ui::scroll::ScrollTo;
use exercise::EXERCISES;
use glam::Quat;
use predict::{GUESS_LIMIT, Prediction, Question, nose_turn};
use skin::explain::rotation::{self, Euler, Interp, euler_quat};
use std::f32::consts::{PI, TAU};
use std::sync::Arc;

/// The page's cells, in chapter order; their snake_case names are the chapter's cell
/// markers.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, strum::EnumString, strum::VariantNames, strum::IntoStaticStr,
)]
#[strum(serialize_all = "snake_case")]
pub enum Cell {
    Interpolate,
    Length,
    Speed,
    HalfAngle,
    Check,
}

/// The page's state.
pub struct InterpolationPage {
    /// Orientation B (A is no turn at all), as yaw, pitch, roll.
    pub target: Euler,
    /// How A goes to B.
    pub method: Interp,
    /// How far from A to B, 0..=1.
    pub t: f32,
    /// Store B as −q (the same rotation).
    pub flip: bool,
    /// Negate B when `A · B < 0`, to take the short way round.
    pub shortest: bool,
    /// The half-angle circle's A and B: turns about z, radians (−2π..=2π reaches every
    /// point of the circle).
    pub circle: [f32; 2],
    /// What a drag on the circle holds, from the press until the release.
    circle_grab: Option<circle_ui::Grab>,
    /// Where the circle was drawn last frame (for tests).
    pub circle_frame: circle_ui::Frame,
    /// The prediction under way: the nose's turn at `t` stays hidden until revealed.
    pub prediction: Option<Prediction>,
    /// The check cell's exercise.
    pub exercise: usize,
    check: Check,
    camera: Camera,
    assets: Arc<Assets>,
    scroll_to: ScrollTo,
    /// Where the viewport was drawn last frame (for tests).
    pub viewport_rect: egui::Rect,
}

/// The circle's A and B: 40° and 200°, 80° apart on the circle (160° of turn).
const DEFAULT_CIRCLE: [f32; 2] = [40.0f32.to_radians(), 200.0f32.to_radians()];
/// 140°, 30° and 45°: far enough from A that the methods part ways.
const DEFAULT_TARGET: Euler = [
    140.0f32.to_radians(),
    30.0f32.to_radians(),
    45.0f32.to_radians(),
];

impl Default for InterpolationPage {
    fn default() -> Self {
        Self {
            target: DEFAULT_TARGET,
            method: Interp::Slerp,
            t: 0.5,
            flip: false,
            shortest: true,
            circle: DEFAULT_CIRCLE,
            circle_grab: None,
            circle_frame: circle_ui::Frame::default(),
            prediction: None,
            exercise: 0,
            check: Check::default(),
            // Across the default path from A to B, from above: the arc shows its
            // length and its dots their spacing, not foreshortened.
            camera: glider_camera_at(1.3, 0.6),
            assets: Assets::shared(),
            scroll_to: ScrollTo::default(),
            viewport_rect: egui::Rect::NOTHING,
        }
    }
}

impl InterpolationPage {
    /// The camera, as the viewport last left it.
    pub fn camera(&self) -> &Camera {
        &self.camera
    }

    /// Orientation A (no turn) and B as stored (negated when `flip`).
    pub fn endpoints(&self) -> (Quat, Quat) {
        let b = euler_quat(self.target);
        (Quat::IDENTITY, if self.flip { -b } else { b })
    }

    /// The interpolated quaternion at `t` by `method`.
    pub fn interpolated(&self, method: Interp, t: f32) -> Quat {
        let (a, b) = self.endpoints();
        rotation::interpolate(a, b, t, method, self.shortest)
    }

    /// How far the drawn glider's nose has turned from A at `t` by `method`, degrees.
    pub fn nose_turn(&self, method: Interp, t: f32) -> f32 {
        nose_turn(self.interpolated(method, t))
    }

    /// Starts a new, hidden prediction (keeping one under way).
    pub fn start_prediction(&mut self) {
        self.prediction_mut();
    }

    /// The revealed prediction judged: the true turn in degrees and how far the guess
    /// is from it; `None` while hidden or not predicting.
    pub fn judgement(&self) -> Option<(f32, predict::Judgement)> {
        let p = self.prediction.filter(|_| !self.answer_hidden())?;
        let truth = self.nose_turn(self.method, self.t);
        Some((truth, predict::judge(p.guess, truth)))
    }
}

impl Predicts for InterpolationPage {
    type Guess = f32;
    type Question = Question;
    type Of = ();

    /// t, the method and B: a reveal made before one changed is for another question.
    fn question(&self) -> Question {
        Question {
            method: self.method,
            t: self.t,
            target: self.target,
            flip: self.flip,
            shortest: self.shortest,
        }
    }

    crate::pages::predict::prediction_in!(prediction);

    fn fresh(&self) -> Prediction {
        Prediction::new((), 0.0)
    }
}

impl Lesson for InterpolationPage {
    fn camera(&self) -> Option<Camera> {
        Some(self.camera)
    }

    fn set_camera(&mut self, camera: Camera) {
        self.camera = camera;
    }

    const INFO: &'static PageInfo = &PageInfo {
        slug: "interpolation",
        chapter: chapter_text!("interpolation"),
    };

    const PARAMS: &'static [Param<Self>] = links::PARAMS;

    type Cell = Cell;

    fn cell_ui(&mut self, cell: Cell, ui: &mut egui::Ui) {
        self.page_cell_ui(cell, ui);
    }

    fn view_in_words(&mut self) -> String {
        let [yaw, pitch, roll] = self.target.map(crate::ui::degrees);
        format!(
            "The glider turning from rest toward yaw {yaw}, pitch {pitch}, roll {roll} by {}, at t = {:.2}{}.",
            <&str>::from(self.method).to_uppercase(),
            self.t,
            if self.shortest {
                ", the shorter way"
            } else {
                ""
            }
        )
    }

    fn viewport_ui(&mut self, ui: &mut egui::Ui) {
        self.page_viewport_ui(ui);
    }

    fn settle(&mut self) {
        self.settle_prediction();
    }
}
