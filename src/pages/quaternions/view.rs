//! The quaternions page's viewport: the gimbal, or one quaternion's turn. Every moving
//! part is drawn by the skinning shader with a palette of one matrix per joint.

use super::{QuaternionsPage, Section};
use crate::ui::Viewport;
use crate::ui::viewport::{caption_ui, room_below};
use egui::{Color32, Ui};
use glam::Mat4;
use scene::{Palette, Scene, SkinnedDraw};
use skin::rotation::{self, axis_angle, euler_quat, gimbal_frames};

/// What the viewport shows and how to handle it, under it: here and on the next page.
pub(crate) const CAPTION: &str = "Drawn by the skinning shader: each part is a joint of the palette. Drag to turn the view, scroll to zoom.";

const AXIS_COLOR: [f32; 4] = [0.85, 0.65, 0.05, 1.0];

/// The glider's draw: its one joint at `matrix`.
pub(crate) fn glider(glider: &std::sync::Arc<scene::MeshData>, matrix: Mat4) -> SkinnedDraw {
    SkinnedDraw::surface(glider.clone(), Palette::Matrices(vec![matrix]), [1.0; 4])
}

/// The scene's frame: the glider's light background, lit from the camera.
pub(crate) fn glider_scene(clip_from_world: Mat4, camera: &crate::ui::Camera) -> Scene {
    Scene {
        clip_from_world,
        light_dir: camera.light_dir(),
        background: [0.95, 0.95, 0.94, 1.0],
        ..Default::default()
    }
}

impl QuaternionsPage {
    fn scene(&self, clip_from_world: Mat4) -> Scene {
        let mut scene = glider_scene(clip_from_world, &self.camera);
        match self.section {
            Section::Gimbal => {
                let frames = gimbal_frames(self.euler);
                scene.skinned.push(SkinnedDraw::lines(
                    self.assets.rings.clone(),
                    Palette::Matrices(frames.to_vec()),
                    [1.0; 4],
                    4.0,
                ));
                scene.skinned.push(glider(&self.assets.glider, frames[2]));
            }
            Section::Quaternion => {
                let q = euler_quat(self.euler);
                scene
                    .skinned
                    .push(glider(&self.assets.glider, Mat4::from_quat(q)));
                let (axis, angle) = axis_angle(q);
                if angle > 1e-3 {
                    scene.arrow(-axis * 2.6, axis * 2.6, 0.03, AXIS_COLOR);
                }
            }
        }
        scene.axes(&Mat4::IDENTITY, 0.6);
        scene
    }

    fn overlay_ui(&self, ui: &Ui, vp: &Viewport) {
        if self.section == Section::Gimbal && rotation::lock_closeness(self.euler[1]) > 0.999 {
            vp.note(
                ui,
                egui::Align2::LEFT_TOP,
                "Gimbal lock: the yaw and roll rings lie in one plane",
                egui::FontId::proportional(18.0),
                Color32::from_rgb(200, 40, 40),
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
