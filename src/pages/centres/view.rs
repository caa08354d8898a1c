//! The centres page's viewport: the arms drawn by the skinning shader, each named with
//! its elbow ring's area and its bulge, the centres as points inside the arm skinned
//! about them, and the followed vertex on each.

use super::cells::color;
use super::{CentresPage, Method, Mode};
use crate::ui::Viewport;
use crate::ui::viewport::{caption_ui, room_below};
use egui::{Color32, Stroke, Ui};
use glam::{Mat4, Vec3};
use rigs::arm;
use scene::{Scene, SkinnedDraw};
use skin::lbs::SkinnedVertex;

/// What the viewport shows and how to handle it, under it.
const CAPTION: &str = "Drawn by the skinning shader. Dots: the centres of rotation, moved by linear blending. Drag to turn the view, scroll to zoom, click the arm to follow a vertex.";

/// A view narrower than this, in points, labels each arm with its two numbers alone.
const NARROW: f32 = 420.0;

impl CentresPage {
    fn scene(&self, clip_from_world: Mat4) -> Scene {
        let mut scene = Scene {
            clip_from_world,
            light_dir: self.camera.light_dir(),
            background: [0.95, 0.95, 0.94, 1.0],
            ..Default::default()
        };
        let mesh = &self.centred.mesh;
        let world = arm::world_from_joint(self.twist, self.bend);
        for (method, at) in self.mode.arms() {
            let mut draw =
                SkinnedDraw::surface(mesh.clone(), method.palette(self.palette()), [1.0; 4]);
            draw.offset = at;
            scene.skinned.push(draw);
            for w in &world {
                scene.axes(&(Mat4::from_translation(at) * *w), 0.8);
            }
        }
        scene
    }

    fn pick(&mut self, vp: &Viewport, at: egui::Pos2) {
        // Every arm drawn, skinned whole on the CPU: only when a click asks.
        let arms: Vec<(Vec3, Vec<SkinnedVertex>)> = (self.mode.arms().into_iter())
            .map(|(method, offset)| (offset, self.skinned(method)))
            .collect();
        let drawn = arms.iter().map(|(offset, v)| (*offset, &v[..]));
        if let Some(vertex) = vp.vertex_under(self.camera.eye(), drawn, at) {
            self.vertex = vertex;
        }
    }

    pub(super) fn page_viewport_ui(&mut self, ui: &mut Ui) {
        let height = ui.available_height() - room_below(ui, CAPTION, 0);
        let vp = Viewport::new(ui, height, &self.camera);
        self.viewport_rect = vp.rect();
        self.seen = Some(vp.clip_from_world);
        vp.camera_input(ui, &mut self.camera);
        if vp.response.clicked()
            && let Some(at) = vp.response.interact_pointer_pos()
        {
            self.pick(&vp, at);
        }
        vp.paint(ui, self.scene(vp.clip_from_world));
        let painter = ui.painter_at(vp.rect());
        let elbow = arm::world_from_joint(self.twist, self.bend)[1]
            .w_axis
            .truncate();
        for (method, at) in self.mode.arms() {
            // Under the upper arm, which no pose moves: the room below it is clear of
            // the next arm's forearm, which rises further right.
            let under = at + Vec3::new(arm::BONE_LENGTH * 0.4, -arm::RADIUS, 0.0);
            // A narrow view (a focused cell beside a slide) gets the numbers alone.
            let narrow = vp.rect().width() < NARROW;
            let size = if narrow { 15.0 } else { 18.0 };
            let label = method.label();
            let text = if self.mode == Mode::Scale {
                // What a stretch shows: how long the forearm came out.
                let long = self.hand(method).distance(elbow);
                let label = if method == Method::Dqs {
                    "DQS in two phases"
                } else {
                    label
                };
                if narrow {
                    format!("{label} {long:.2} long")
                } else {
                    format!("{label}: forearm {long:.2} long")
                }
            } else {
                let (area, bulge) = self.measure_now(method);
                let (area, bulge) = (area * 100.0, bulge * 100.0);
                if narrow {
                    format!("{label} {area:.0}% / {bulge:.0}%")
                } else {
                    format!("{label}: elbow {area:.0}%, bulge {bulge:.0}%")
                }
            };
            if let Some(s) = vp.to_screen(under) {
                vp.label(
                    ui,
                    s,
                    text,
                    egui::FontId::proportional(size),
                    color(method),
                    egui::vec2(0.0, 1.0),
                );
            }
            if method == Method::Cor && self.show_centres {
                for c in self.centres_now() {
                    if let Some(s) = vp.to_screen(c + at) {
                        painter.circle(s, 3.5, color(method), Stroke::new(1.0, Color32::WHITE));
                    }
                }
            }
            // The followed vertex alone is skinned, each frame.
            if let Some(s) = self
                .vertex_skinned(method, self.vertex)
                .and_then(|p| vp.to_screen(p + at))
            {
                painter.circle(s, 6.0, Color32::WHITE, Stroke::new(2.0, Color32::BLACK));
            }
        }
        caption_ui(ui, CAPTION);
    }
}
