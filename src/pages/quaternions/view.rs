//! The quaternions page's viewport: the gimbal, or one quaternion's turn. Every moving
//! part is drawn by the skinning shader with a palette of one matrix per joint.

use super::meshes::RING_COLORS;
use super::{QuaternionsPage, Section};
use crate::ui::Viewport;
use crate::ui::viewport::{caption_ui, room_below};
use egui::{Color32, Ui};
use glam::{Mat4, Quat, Vec3};
use scene::{Palette, Scene, SkinnedDraw};
use skin::explain::rotation::{self, axis_angle, euler_quat, gimbal_frames};

/// What the viewport shows and how to handle it, under it: here and on the next page.
pub(crate) const CAPTION: &str = "Drawn by the skinning shader: each part is a joint of the palette. Drag to turn the view, scroll to zoom.";

const AXIS_COLOR: [f32; 4] = [0.85, 0.65, 0.05, 1.0];
/// The turn cell's point `p` and where `q` turns it, `p'`.
const POINT_COLOR: [f32; 4] = [0.45, 0.45, 0.45, 1.0];
const TURNED_COLOR: [f32; 4] = [0.5, 0.2, 0.65, 1.0];
/// How far out the viewport draws `p` and `p'` (the cell's `p` is one unit along x).
const POINT_SCALE: f32 = 2.2;
/// The glider's nose tip at rest: the arc starts here.
const NOSE: Vec3 = Vec3::new(0.0, 0.0, 1.2);
/// Above the glider at rest, as far out as the nose: the arc starts here for a turn
/// about the nose itself, where the nose would not move.
const TOP: Vec3 = Vec3::new(0.0, 1.2, 0.0);

/// Where the arc of a turn about `axis` starts: the nose, or for an axis within about
/// 25° of the nose, the point above the glider.
fn arc_start(axis: Vec3) -> Vec3 {
    if axis.dot(NOSE.normalize()).abs() > 0.9 {
        TOP
    } else {
        NOSE
    }
}

/// Where each ring's name goes: a point of the ring (as `meshes::gimbal_rings` lays
/// it out) carried by its frame, spread round so the three names keep apart.
fn ring_marks(euler: skin::explain::rotation::Euler) -> [(&'static str, Vec3); 3] {
    let frames = gimbal_frames(euler);
    let [yaw, pitch, roll] = super::meshes::RING_RADII;
    let h = std::f32::consts::FRAC_1_SQRT_2;
    [
        (
            "yaw",
            frames[0].transform_point3(Vec3::new(-h, 0.0, h) * yaw),
        ),
        (
            "pitch",
            frames[1].transform_point3(Vec3::new(0.0, 1.0, 0.0) * pitch),
        ),
        (
            "roll",
            frames[2].transform_point3(Vec3::new(h, -h, 0.0) * roll),
        ),
    ]
}

/// The path of the nose tip (or [`arc_start`]'s point) as the glider turns from rest
/// about `axis` by `angle`: an arc about the axis, `steps` + 1 points.
pub(crate) fn nose_arc(axis: Vec3, angle: f32, steps: usize) -> Vec<Vec3> {
    let start = arc_start(axis);
    (0..=steps)
        .map(|i| Quat::from_axis_angle(axis, angle * i as f32 / steps as f32) * start)
        .collect()
}

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
                    // The nose's way round the axis: the turn θ, seen.
                    let arc = nose_arc(axis, angle, 48);
                    for pair in arc.windows(2) {
                        scene.line(pair[0], pair[1], AXIS_COLOR);
                    }
                    scene.marker(arc_start(axis), 0.05, POINT_COLOR);
                }
                // The turn cell's p and p' = R(q) · p.
                scene.arrow(Vec3::ZERO, Vec3::X * POINT_SCALE, 0.015, POINT_COLOR);
                scene.arrow(Vec3::ZERO, q * Vec3::X * POINT_SCALE, 0.02, TURNED_COLOR);
            }
        }
        scene.axes(&Mat4::IDENTITY, 0.6);
        scene
    }

    fn overlay_ui(&self, ui: &Ui, vp: &Viewport) {
        let font = egui::FontId::proportional(18.0);
        if self.section == Section::Quaternion {
            let q = euler_quat(self.euler);
            let (axis, angle) = axis_angle(q);
            let marks = [
                ("p", Vec3::X * POINT_SCALE, POINT_COLOR),
                ("p'", q * Vec3::X * POINT_SCALE, TURNED_COLOR),
                ("axis", axis * 2.6, AXIS_COLOR),
            ];
            let theta = format!("θ = {:.0}°", angle.to_degrees());
            let middle = nose_arc(axis, angle, 2)[1];
            let named = marks
                .iter()
                .map(|(name, at, color)| (name.to_string(), *at, *color))
                .chain((angle > 1e-3).then_some((theta, middle, AXIS_COLOR)));
            // Each name away from the centre, where the glider is: the arc's θ had
            // lain over its fuselage.
            let center = vp.to_screen(Vec3::ZERO);
            for (name, at, color) in named {
                if let Some(s) = vp.to_screen(at) {
                    let color = crate::ui::color32(color);
                    let out = center
                        .map(|c| s - c)
                        .filter(|d| d.length() > 1.0)
                        .map_or(egui::vec2(1.0, -1.0), |d| d.normalized());
                    vp.label(ui, s, name, font.clone(), color, out);
                }
            }
        }
        if self.section == Section::Gimbal {
            // Each ring's name in its colour, outside the ring: away from the centre.
            let center = vp.to_screen(Vec3::ZERO);
            for ((name, at), color) in ring_marks(self.euler).into_iter().zip(RING_COLORS) {
                if let (Some(s), Some(c)) = (vp.to_screen(at), center) {
                    let color = crate::ui::color32(color);
                    let out = (s - c).normalized();
                    vp.label(ui, s, name, font.clone(), color, out);
                }
            }
        }
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

#[cfg(test)]
mod tests {
    use super::nose_arc;
    use glam::Vec3;

    #[test]
    fn the_arc_of_a_turn_about_the_nose_is_drawn_where_something_moves() {
        let length = |axis: Vec3| {
            let arc = nose_arc(axis, 60f32.to_radians(), 12);
            arc.windows(2).map(|p| p[0].distance(p[1])).sum::<f32>()
        };
        // A sixth of a circle of radius 1.2, whichever point it follows.
        let sixth = 1.2 * std::f32::consts::PI / 3.0;
        for axis in [Vec3::Y, Vec3::Z, -Vec3::Z, Vec3::X] {
            assert!(
                (length(axis) - sixth).abs() < 0.01,
                "{axis}: {}",
                length(axis)
            );
        }
    }
}
