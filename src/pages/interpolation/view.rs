//! The interpolation page's viewport: the paths of the glider's nose from A to B on a
//! sphere, one per method, and the glider at `t`, drawn by the skinning shader.

use super::InterpolationPage;
use super::predict_ui::judgement_text;
use crate::link::Named;
use crate::pages::predict::Predicts;
use crate::pages::predict::verdict_color;
use crate::pages::quaternions::{CAPTION, glider, glider_scene};
use crate::ui::viewport::{caption_ui, room_below};
use crate::ui::{Viewport, color32, rgba};
use egui::{Color32, Ui};
use glam::{Mat4, Vec3};
use scene::Scene;
use skin::explain::rotation::{Interp, object_matrix};
use std::f32::consts::{PI, TAU};

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
/// The narrowest view, in points, that names the noses at t.
const NAMED_WIDTH: f32 = 320.0;
/// NLERP's nose beside LERP's: the rotation the squashed glider mixes with A.
const GHOST: [f32; 4] = [0.45, 0.45, 0.45, 1.0];

/// Where the glider's nose points under `matrix`, on the sphere (inside it when the
/// matrix shrinks).
fn nose(matrix: &Mat4) -> Vec3 {
    matrix.transform_vector3(Vec3::Z * SPHERE)
}

/// The wire sphere of the directions the nose can point: meridians and parallels, in
/// the backdrop (the paths and the glider draw over it, and labels may cover it), and
/// framed whole.
fn sphere(scene: &mut Scene) {
    let point = |lat: f32, lon: f32| {
        Vec3::new(lat.cos() * lon.cos(), lat.sin(), lat.cos() * lon.sin()) * SPHERE
    };
    let steps = 48;
    let step = |i: usize| i as f32 / steps as f32;
    let start = scene.backdrop.len();
    for k in 0..8 {
        let lon = k as f32 / 8.0 * TAU;
        let lat = |f: f32| (f - 0.5) * PI;
        for i in 0..steps {
            scene.backdrop_line(point(lat(step(i)), lon), point(lat(step(i + 1)), lon), GREY);
        }
    }
    for lat in [-60f32, -30.0, 0.0, 30.0, 60.0] {
        let lat = lat.to_radians();
        for i in 0..steps {
            scene.backdrop_line(
                point(lat, step(i) * TAU),
                point(lat, step(i + 1) * TAU),
                GREY,
            );
        }
    }
    scene
        .framed
        .extend(scene.backdrop[start..].iter().map(|v| v.position));
}

impl InterpolationPage {
    /// Where the drawn glider's nose points at `t` by `method`.
    fn nose_at(&self, method: Interp, t: f32) -> Vec3 {
        nose(&object_matrix(self.interpolated(method, t)))
    }

    fn scene(&self, clip_from_world: Mat4) -> Scene {
        let mut scene = glider_scene(clip_from_world, &self.camera);
        sphere(&mut scene);
        for &method in Interp::ALL {
            let color = rgba(method_color(method));
            let tip = |t: f32| self.nose_at(method, t);
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
            scene
                .skinned
                .push(glider(&self.assets.glider, object_matrix(q)));
            // The nose's direction, from the centre to where it points: on the sphere,
            // or short of it when LERP squashes the glider. LERP's is shown beside the
            // rotation it squashes (NLERP's, on the sphere), in grey.
            let color = rgba(method_color(self.method));
            if self.method == Interp::Lerp {
                let rotation = self.nose_at(Interp::Nlerp, self.t);
                scene.line(Vec3::ZERO, rotation, GHOST);
                scene.marker(rotation, 0.08, GHOST);
            }
            let tip = self.nose_at(self.method, self.t);
            scene.arrow(Vec3::ZERO, tip, 0.02, color);
            scene.marker(tip, 0.1, color);
        }
        scene
    }

    fn overlay_ui(&self, ui: &Ui, vp: &Viewport) {
        let font = egui::FontId::proportional(18.0);
        let dark = Color32::from_gray(30);
        let (a, b) = self.endpoints();
        let (nose_a, nose_b) = (nose(&object_matrix(a)), nose(&object_matrix(b)));
        // A turn about the nose itself leaves the nose where it was: one dot, and a
        // word on where the turn shows instead.
        let same_nose = nose_a.angle_between(nose_b) < 3f32.to_radians();
        let ends: &[(&str, Vec3)] = if same_nose {
            &[("A, B", nose_a)]
        } else {
            &[("A", nose_a), ("B", nose_b)]
        };
        for &(label, tip) in ends {
            if let Some(s) = vp.to_screen(tip * 1.08) {
                vp.label(ui, s, label, font.clone(), dark, egui::vec2(1.0, -1.0));
            }
        }
        if same_nose {
            vp.note(
                ui,
                egui::Align2::LEFT_BOTTOM,
                "A and B point the nose the same way: the turn between them is about the \
                 nose itself, so the nose draws no path. Watch the wings turn.",
                egui::FontId::proportional(15.0),
                dark,
            );
        }
        // A view too narrow for the whole names (beside a focused cell on a projector)
        // names the methods alone.
        if !self.answer_hidden() {
            // The nose at t, named near the arrow's tip, past the glider (the tip itself
            // may lie on another path); with LERP, NLERP's beside it.
            let method = self.method.slug().to_ascii_uppercase();
            let mut noses = vec![(method, self.method, method_color(self.method))];
            if self.method == Interp::Lerp {
                noses.push(("NLERP".to_owned(), Interp::Nlerp, color32(GHOST)));
            }
            for (name, m, color) in noses {
                let tip = self.nose_at(m, self.t);
                if let Some(s) = vp.to_screen(tip * 0.85) {
                    let name = if vp.rect().width() >= NAMED_WIDTH {
                        format!("{name} nose at t = {:.2}", self.t)
                    } else {
                        name
                    };
                    vp.label(ui, s, name, font.clone(), color, egui::vec2(1.0, 1.0));
                }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pages::quaternions::{GLIDER_COLORS, RING_COLORS};

    /// No part of the glider is the colour of a ring or of a method's path: each is
    /// at least a third of the RGB cube's edge from all of them.
    #[test]
    fn the_glider_wears_no_ring_or_method_colour() {
        let methods = Interp::ALL.iter().map(|m| rgba(method_color(*m)));
        let marks: Vec<[f32; 4]> = RING_COLORS.into_iter().chain(methods).collect();
        for part in GLIDER_COLORS {
            for mark in &marks {
                let d = Vec3::from_slice(&part[..3]).distance(Vec3::from_slice(&mark[..3]));
                assert!(d > 0.33, "glider {part:?} is {d:.2} from {mark:?}");
            }
        }
    }
}
