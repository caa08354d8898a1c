//! The shapes page's viewport: the arms drawn by the skinning shader with their blend
//! shapes, each named with its elbow ring's area, and the followed vertex on each.

use super::cells::color;
use super::{Method, ShapesPage};
use crate::ui::Viewport;
use crate::ui::viewport::{caption_ui, room_below};
use egui::{Color32, Stroke, Ui};
use glam::{Mat4, Vec3};
use rigs::arm;
use scene::{Palette, Scene, SkinnedDraw};
use skin::lbs::SkinnedVertex;

/// What the viewport shows and how to handle it, under it.
const CAPTION: &str = "Drawn by the skinning shader, blend shapes first. Drag to turn the view, scroll to zoom, click the arm to follow a vertex.";

impl ShapesPage {
    fn scene(&mut self, clip_from_world: Mat4) -> Scene {
        let mut scene = Scene {
            clip_from_world,
            light_dir: self.camera.light_dir(),
            background: [0.95, 0.95, 0.94, 1.0],
            ..Default::default()
        };
        let mesh = self.mesh();
        let palette = arm::palette(0.0, self.bend);
        let world = arm::world_from_joint(0.0, self.bend);
        for (method, at) in self.show.arms() {
            let skinning = match method {
                Method::Dqs => Palette::plain_dqs(&palette, true),
                Method::Lbs | Method::Fixed => Palette::Matrices(palette.clone()),
            };
            let mut draw = SkinnedDraw::surface(mesh.clone(), skinning, [1.0; 4]);
            draw.offset = at;
            draw.morph_weights = self.weights(method);
            scene.skinned.push(draw);
            for w in &world {
                scene.axes(&(Mat4::from_translation(at) * *w), 0.8);
            }
        }
        scene
    }

    fn pick(&mut self, vp: &Viewport, at: egui::Pos2) {
        // Every arm drawn, skinned whole on the CPU: only when a click asks.
        let arms: Vec<(Vec3, Vec<SkinnedVertex>)> = (self.show.arms().into_iter())
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
        let scene = self.scene(vp.clip_from_world);
        vp.paint(ui, scene);
        let areas = self.areas_now();
        let painter = ui.painter_at(vp.rect());
        for (method, at) in self.show.arms() {
            let k = Method::ALL.iter().position(|m| *m == method).unwrap_or(0);
            let area = areas[k];
            // Under the upper arm, which no bend moves: the room below it is clear of
            // the next arm's forearm, which rises further right.
            let under = at + Vec3::new(arm::BONE_LENGTH * 0.4, -arm::RADIUS, 0.0);
            if let Some(s) = vp.to_screen(under) {
                vp.label(
                    ui,
                    s,
                    format!("{}: elbow {:.0}%", method.label(), area * 100.0),
                    egui::FontId::proportional(18.0),
                    color(method),
                    egui::vec2(0.0, 1.0),
                );
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
