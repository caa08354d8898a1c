//! The pipeline page's viewport: the arm drawn by the skinning shader, the bind pose as
//! grey bones, and the chosen vertex from where the file puts it to where it is drawn.

use super::{PipelinePage, to_pixel};
use crate::ui::Viewport;
use crate::ui::pick::{PICK_RADIUS, nearest};
use crate::ui::viewport::{caption_ui, room_below};
use egui::{Color32, Stroke, Ui};
use glam::{Mat4, Vec3};
use rigs::arm;
use scene::{Palette, Scene, SkinnedDraw};

/// What the viewport shows and how to handle it, under it.
const CAPTION: &str = "Drawn by the skinning shader. Dashed: the bind pose. Click the arm to follow another vertex; drag to turn the view.";

const SKIN: [f32; 4] = [0.88, 0.75, 0.63, 1.0];
const BIND_GREY: Color32 = Color32::from_gray(120);
const EXERCISE_ORANGE: Color32 = Color32::from_rgb(230, 120, 20);

impl PipelinePage {
    fn scene(&self, clip_from_world: Mat4) -> Scene {
        let mut scene = Scene {
            clip_from_world,
            light_dir: self.camera.light_dir(),
            background: [0.95, 0.95, 0.94, 1.0],
            ..Default::default()
        };
        let palette = arm::palette(0.0, self.bend);
        scene.skinned.push(SkinnedDraw::surface(
            self.arm.clone(),
            Palette::Matrices(palette),
            SKIN,
        ));
        for w in &arm::world_from_joint(0.0, self.bend) {
            scene.axes(w, 0.9);
        }
        scene
    }

    fn pick(&mut self, vp: &Viewport, at: egui::Pos2) {
        let skinned = skin::lbs::skin_vertices(&arm::palette(0.0, self.bend), &self.arm.skin);
        let front = vp.front_facing(self.camera.eye(), Vec3::ZERO, &skinned);
        if let Some(k) = nearest(front.iter().map(|(_, s)| *s), at, PICK_RADIUS) {
            self.vertex = front[k].0;
        }
    }

    pub(super) fn page_viewport_ui(&mut self, ui: &mut Ui) {
        let height = ui.available_height() - room_below(ui, CAPTION, 0);
        let vp = Viewport::new(ui, height, &self.camera);
        self.viewport_rect = vp.rect();
        let ppp = ui.ctx().pixels_per_point();
        let size_px = [vp.rect().width() * ppp, vp.rect().height() * ppp];
        self.seen = Some((vp.clip_from_world, size_px));
        vp.camera_input(ui, &mut self.camera);
        if vp.response.clicked()
            && let Some(at) = vp.response.interact_pointer_pos()
        {
            self.pick(&vp, at);
        }
        let stages = self.stages();
        vp.paint(ui, self.scene(vp.clip_from_world));
        let painter = ui.painter_at(vp.rect());
        // The bind pose: the straight arm's outline in the plane of the bend, on top.
        let (r, end) = (arm::RADIUS, arm::LENGTH);
        let outline = [
            Vec3::new(0.0, -r, 0.0),
            Vec3::new(end, -r, 0.0),
            Vec3::new(end, r, 0.0),
            Vec3::new(0.0, r, 0.0),
            Vec3::new(0.0, -r, 0.0),
        ];
        let points: Vec<egui::Pos2> = outline.iter().filter_map(|p| vp.to_screen(*p)).collect();
        if points.len() == outline.len() {
            painter.add(egui::Shape::dashed_line(
                &points,
                Stroke::new(1.5, BIND_GREY),
                6.0,
                4.0,
            ));
        }
        if let Some(s) = &stages {
            let bind = vp.to_screen(s.vertex);
            let drawn = vp.to_screen(s.skinned);
            if let Some(at) = bind {
                painter.circle_stroke(at, 6.0, Stroke::new(2.0, Color32::from_gray(110)));
            }
            if let Some(at) = drawn {
                painter.circle(at, 6.0, Color32::WHITE, Stroke::new(2.0, Color32::BLACK));
            }
            // A key in the corner, off the mesh: what the two rings are, and the pixel.
            let pixel = to_pixel(vp.clip_from_world, size_px, s.skinned)
                .map(|(_, _, [x, y])| format!(", pixel ({x:.0}, {y:.0})"))
                .unwrap_or_default();
            let mut key = format!(
                "grey ring: vertex {} where the file puts it\nwhite ring: where the shader draws it{pixel}",
                self.vertex
            );
            if let Some((bind, landed)) = self.exercise_point {
                // The exercise's vertex, drawn over the arm it lies inside; where it
                // lands only once answered, or the ring would give the answer away.
                let right = self.check.verdict == Some(crate::ui::check::Verdict::Right);
                let stroke = Stroke::new(2.5, EXERCISE_ORANGE);
                if let Some(at) = vp.to_screen(bind) {
                    painter.circle_stroke(at, 8.0, stroke);
                }
                if right && let Some(at) = vp.to_screen(landed) {
                    painter.circle(at, 7.0, EXERCISE_ORANGE, Stroke::new(1.5, Color32::BLACK));
                }
                key += "\norange ring: the exercise's vertex in the bind pose";
                if right {
                    key += "\norange dot: where it lands";
                }
            }
            vp.note(
                ui,
                egui::Align2::LEFT_TOP,
                key,
                egui::FontId::proportional(15.0),
                Color32::from_gray(30),
            );
        }
        caption_ui(ui, CAPTION);
    }
}
