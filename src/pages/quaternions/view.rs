//! The quaternions page's viewport: the gimbal, one quaternion's turn, or interpolation
//! paths on a sphere. Every moving part is drawn by the skinning shader with a palette
//! of one matrix per joint.

use super::predict_ui::judgement_text;
use super::{QuaternionsPage, Section};
use crate::link::Named;
use crate::pages::predict::verdict_color;
use crate::ui::viewport::{caption_ui, room_below};
use crate::ui::{Viewport, rgba};
use egui::{Color32, Ui};
use glam::{Mat4, Vec3};
use scene::{Palette, Scene, SkinnedDraw};
use skin::rotation::{self, Interp, axis_angle, euler_quat, gimbal_frames, object_matrix};

/// What the viewport shows and how to handle it, under it.
const CAPTION: &str = "Drawn by the skinning shader: each part is a joint of the palette. Drag to turn the view, scroll to zoom.";

/// The colour of each interpolation method's path and curve.
pub fn method_color(method: Interp) -> Color32 {
    match method {
        Interp::Lerp => Color32::from_rgb(210, 50, 40),
        Interp::Nlerp => Color32::from_rgb(230, 150, 20),
        Interp::Slerp => Color32::from_rgb(40, 110, 220),
    }
}

/// The radius of the sphere the glider's nose draws its path on.
const SPHERE: f32 = 2.0;
const GREY: [f32; 4] = [0.75, 0.75, 0.75, 1.0];
const AXIS_COLOR: [f32; 4] = [0.85, 0.65, 0.05, 1.0];

/// Where the glider's nose points under `matrix`, on the sphere (inside it when the
/// matrix shrinks).
fn nose(matrix: &Mat4) -> Vec3 {
    matrix.transform_vector3(Vec3::Z * SPHERE)
}

impl QuaternionsPage {
    fn glider(&self, scene: &mut Scene, matrix: Mat4) {
        scene.skinned.push(SkinnedDraw::surface(
            self.assets.glider.clone(),
            Palette::Matrices(vec![matrix]),
            [1.0; 4],
        ));
    }

    fn sphere(scene: &mut Scene) {
        let point = |lat: f32, lon: f32| {
            Vec3::new(lat.cos() * lon.cos(), lat.sin(), lat.cos() * lon.sin()) * SPHERE
        };
        let steps = 48;
        for k in 0..8 {
            let lon = k as f32 / 8.0 * std::f32::consts::TAU;
            for i in 0..steps {
                let (a, b) = (i as f32 / steps as f32, (i + 1) as f32 / steps as f32);
                let lat = |f: f32| (f - 0.5) * std::f32::consts::PI;
                scene.line(point(lat(a), lon), point(lat(b), lon), GREY);
            }
        }
        for lat in [-60f32, -30.0, 0.0, 30.0, 60.0] {
            for i in 0..steps {
                let lon = |i: usize| i as f32 / steps as f32 * std::f32::consts::TAU;
                let lat = lat.to_radians();
                scene.line(point(lat, lon(i)), point(lat, lon(i + 1)), GREY);
            }
        }
    }

    fn scene(&self, clip_from_world: Mat4) -> Scene {
        let mut scene = Scene {
            clip_from_world,
            light_dir: self.camera.light_dir(),
            background: [0.95, 0.95, 0.94, 1.0],
            ..Default::default()
        };
        match self.section {
            Section::Gimbal => {
                let frames = gimbal_frames(self.euler);
                scene.skinned.push(SkinnedDraw::lines(
                    self.assets.rings.clone(),
                    Palette::Matrices(frames.to_vec()),
                    [1.0; 4],
                    4.0,
                ));
                self.glider(&mut scene, frames[2]);
                scene.axes(&Mat4::IDENTITY, 0.6);
            }
            Section::Quaternion => {
                let q = euler_quat(self.euler);
                self.glider(&mut scene, Mat4::from_quat(q));
                let (axis, angle) = axis_angle(q);
                if angle > 1e-3 {
                    scene.arrow(-axis * 2.6, axis * 2.6, 0.03, AXIS_COLOR);
                }
                scene.axes(&Mat4::IDENTITY, 0.6);
            }
            Section::Interpolate => {
                Self::sphere(&mut scene);
                for &method in Interp::ALL {
                    let color = rgba(method_color(method));
                    let tip = |t: f32| nose(&object_matrix(self.interpolated(method, t)));
                    for i in 0..64 {
                        let (a, b) = (i as f32 / 64.0, (i + 1) as f32 / 64.0);
                        scene.line(tip(a), tip(b), color);
                    }
                    // While predicting, the dots would mark t = 0.5 on the path.
                    if method == self.method && !self.answer_hidden() {
                        // Even steps of t: the gaps show the speed.
                        for k in 0..=10 {
                            scene.marker(tip(k as f32 / 10.0), 0.05, color);
                        }
                    }
                }
                if !self.answer_hidden() {
                    let q = self.interpolated(self.method, self.t);
                    self.glider(&mut scene, object_matrix(q));
                }
            }
        }
        scene
    }

    fn overlay_ui(&self, ui: &Ui, vp: &Viewport) {
        let font = egui::FontId::proportional(18.0);
        let dark = Color32::from_gray(30);
        match self.section {
            Section::Gimbal => {
                if rotation::lock_closeness(self.euler[1]) > 0.999 {
                    vp.note(
                        ui,
                        egui::Align2::LEFT_TOP,
                        "Gimbal lock: the yaw and roll rings lie in one plane",
                        font,
                        Color32::from_rgb(200, 40, 40),
                    );
                }
            }
            Section::Interpolate => {
                for (label, q) in [("A", self.endpoints().0), ("B", self.endpoints().1)] {
                    if let Some(s) = vp.to_screen(nose(&object_matrix(q)) * 1.08) {
                        vp.label(ui, s, label, font.clone(), dark, egui::vec2(1.0, -1.0));
                    }
                }
                if self.answer_hidden() {
                    vp.note(
                        ui,
                        egui::Align2::LEFT_TOP,
                        "Predicting: the glider is hidden until you reveal",
                        font,
                        dark,
                    );
                } else if let Some((truth, j)) = self.judgement() {
                    let guess = self.prediction.map_or(0.0, |p| p.guess);
                    vp.note(
                        ui,
                        egui::Align2::LEFT_TOP,
                        judgement_text(truth, guess, &j),
                        font,
                        verdict_color(j.verdict),
                    );
                }
            }
            Section::Quaternion => {}
        }
    }

    pub(super) fn page_viewport_ui(&mut self, ui: &mut Ui) {
        let height = ui.available_height() - room_below(ui, CAPTION, 0);
        let vp = Viewport::new(ui, height, &self.camera);
        self.viewport_rect = vp.rect();
        vp.camera_input(ui, &mut self.camera);
        vp.paint(ui, self.scene(vp.clip_from_world));
        self.overlay_ui(ui, &vp);
        caption_ui(ui, CAPTION);
    }
}
