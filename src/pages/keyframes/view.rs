//! The keyframes page's viewport: the two-bone arm at the current time, drawn by the
//! skinning shader, with each joint's frame and a floor grid.

use super::KeyframesPage;
use crate::ui::Viewport;
use crate::ui::viewport::{caption_ui, room_below};
use egui::{Color32, Ui};
use glam::{Mat4, Vec3};
use scene::{Palette, Scene, SkinnedDraw};

/// What the viewport shows and how to handle it, under it.
const CAPTION: &str = "Drawn by the skinning shader, one palette matrix per joint. Green and blue lines: each joint's y and z axes (its x axis runs inside the arm). Drag to turn the view, scroll to zoom.";

const GREY: [f32; 4] = [0.75, 0.75, 0.75, 1.0];
const SKIN: [f32; 4] = [0.88, 0.75, 0.63, 1.0];

impl KeyframesPage {
    fn scene(&self, clip_from_world: Mat4) -> Scene {
        let mut scene = Scene {
            clip_from_world,
            light_dir: self.camera.light_dir(),
            background: [0.95, 0.95, 0.94, 1.0],
            ..Default::default()
        };
        scene.skinned.push(SkinnedDraw::surface(
            self.arm.clone(),
            Palette::Matrices(self.arm_palette()),
            SKIN,
        ));
        for w in &self.arm_world() {
            scene.axes(w, 0.9);
        }
        for i in -4..=6 {
            let x = i as f32;
            scene.backdrop_line(Vec3::new(x, -1.5, -4.0), Vec3::new(x, -1.5, 4.0), GREY);
        }
        for i in -4..=4 {
            let z = i as f32;
            scene.backdrop_line(Vec3::new(-4.0, -1.5, z), Vec3::new(6.0, -1.5, z), GREY);
        }
        scene
    }

    pub(super) fn page_viewport_ui(&mut self, ui: &mut Ui) {
        let height = ui.available_height() - room_below(ui, CAPTION, 0);
        let vp = Viewport::new(ui, height, &self.camera);
        self.viewport_rect = vp.rect();
        vp.camera_input(ui, &mut self.camera);
        vp.paint(ui, self.scene(vp.clip_from_world));
        vp.note(
            ui,
            egui::Align2::LEFT_TOP,
            format!("time {:.2} s", self.time),
            egui::FontId::monospace(20.0),
            Color32::from_gray(30),
        );
        // Each joint named at its origin, as the sample cell names it.
        for (w, name) in self.arm_world().iter().zip(super::JOINT_NAMES) {
            if let Some(at) = vp.to_screen(w.transform_point3(Vec3::ZERO)) {
                let font = egui::FontId::proportional(16.0);
                let dark = Color32::from_gray(30);
                vp.label(ui, at, name, font, dark, egui::vec2(-1.0, -1.0));
            }
        }
        caption_ui(ui, CAPTION);
    }
}
