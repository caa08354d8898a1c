//! The blending page's viewport: the arms, picking, the brush, and the overlays.

use super::paint::weighted_mean;
use super::{BONE_NAMES, BlendingPage, Pose};
use crate::ui::inspect::partials_overlay;
use crate::ui::legend::heat_color;
use crate::ui::marks::{self, Target};
use crate::ui::viewport::{caption_ui, room_below};
use crate::ui::{Viewport, ellipses, rgba};
use egui::{Color32, Ui};
use glam::{Mat4, Vec3};
use rigs::arm;
use scene::{MeshData, Palette, Primitive, Scene, SkinnedDraw};
use skin::explain::steps::VertexBreakdown;
use skin::lbs::{PositionW, SkinMesh, SkinnedVertex};
use std::sync::Arc;

const SKIN_TONE: Color32 = Color32::from_rgb(225, 190, 160);
/// The stripes that run along the plain arm, so a twist shows as they wind round it.
const STRIPE_TONE: Color32 = Color32::from_rgb(150, 105, 80);

/// Vertex `v`'s colour on the plain arm: four stripes along it, each a twelfth of the
/// way round, on the skin tone.
fn stripe_color(v: usize) -> Color32 {
    let around = v % arm::SEGMENTS;
    if (around * 12 / arm::SEGMENTS).is_multiple_of(3) {
        STRIPE_TONE
    } else {
        SKIN_TONE
    }
}

impl BlendingPage {
    /// Whether the arm carries the heat map: not under the ellipses, whose colours
    /// would clash with it.
    pub(super) fn heat_shown(&self) -> bool {
        self.heat_map && !self.ellipses
    }

    /// The mesh as drawn, rebuilt when the skin (the weights, their sum) or the heat
    /// map changed.
    fn drawn(&mut self) -> Arc<MeshData> {
        let heat = self.heat_shown();
        let skin = self.skin();
        if let Some((colored, from, mesh)) = &self.drawn
            && *colored == heat
            && Arc::ptr_eq(from, &skin)
        {
            return mesh.clone();
        }
        let colors = (0..self.weights.len())
            .map(|v| match heat {
                true => rgba(heat_color(self.weights.get(v, self.bone))),
                false => rgba(stripe_color(v)),
            })
            .collect();
        let mesh = MeshData::with_colors(
            SkinMesh::clone(&skin),
            self.arm.triangles.clone(),
            Primitive::Triangles,
            colors,
        );
        self.drawn = Some((heat, skin, mesh.clone()));
        mesh
    }

    /// Where each arm is drawn and what it shows: (is DQS, offset, skinned vertices).
    pub(super) fn placed<'a>(&self, pose: &'a Pose) -> Vec<(bool, Vec3, &'a [SkinnedVertex])> {
        self.mode
            .arms()
            .into_iter()
            .map(|(dqs, at)| (dqs, at, if dqs { &pose.dqs[..] } else { &pose.lbs[..] }))
            .collect()
    }

    fn scene(&mut self, pose: &Pose, clip_from_world: Mat4) -> Scene {
        let mut scene = Scene {
            clip_from_world,
            light_dir: self.camera.light_dir(),
            background: [0.95, 0.95, 0.94, 1.0],
            ..Default::default()
        };
        let mesh = self.drawn();
        // Every vertex carries its own colour: the heat map's, or the stripes'.
        let color = [1.0; 4];
        for (dqs, at, _) in self.placed(pose) {
            let shift = Mat4::from_translation(at);
            let palette = if dqs {
                Palette::DualQuats {
                    dual_quats: pose.dual_quats.clone(),
                    stretches: Vec::new(),
                    antipodal_check: self.antipodal_check,
                }
            } else {
                Palette::Matrices(pose.palette.clone())
            };
            // Each arm skinned as if alone, then moved to its row: a wrong sum with
            // w = 1 then scales the arm about its own shoulder.
            let mut draw = SkinnedDraw::surface(mesh.clone(), palette, color);
            draw.position_w = self.position_w;
            draw.offset = at;
            scene.skinned.push(draw);
            let world = self.rig().world_from_joint(self.twist, self.bend);
            for w in &world {
                scene.axes(&(shift * *w), 0.8);
            }
        }
        if self.ellipses {
            self.add_ellipses(&mut scene, pose);
        }
        scene
    }

    /// Front-facing skinned vertices on screen, with their index.
    fn visible(&self, vp: &Viewport, pose: &Pose) -> Vec<(usize, egui::Pos2)> {
        let eye = self.camera.eye();
        self.placed(pose)
            .into_iter()
            .flat_map(|(_, at, vertices)| vp.front_facing(eye, at, vertices))
            .collect()
    }

    fn vertex_under(&self, vp: &Viewport, pose: &Pose, at: egui::Pos2) -> Option<usize> {
        let drawn = self
            .placed(pose)
            .into_iter()
            .map(|(_, offset, v)| (offset, v));
        vp.vertex_under(self.camera.eye(), drawn, at)
    }

    fn handle_pointer(&mut self, ui: &Ui, vp: &Viewport, pose: &Pose) {
        let r = &vp.response;
        let pointer = r.hover_pos();
        self.brush_at = if self.brush.on {
            pointer.and_then(|at| self.vertex_under(vp, pose, at))
        } else {
            None
        };
        if self.brush.on && r.dragged() {
            if let Some(center) = self.brush_at {
                let dt = ui.input(|i| i.stable_dt).min(0.1);
                self.paint_around(center, dt);
            }
        } else {
            vp.camera_input(ui, &mut self.camera);
        }
        if r.clicked()
            && let Some(at) = r.interact_pointer_pos()
        {
            if self.brush.on {
                if let Some(center) = self.vertex_under(vp, pose, at) {
                    self.paint_around(center, 0.1);
                }
            } else {
                self.vertex = self.vertex_under(vp, pose, at).or(self.vertex);
            }
        }
    }

    /// One dab of the brush around vertex `center`, lasting `dt` seconds.
    pub fn paint_around(&mut self, center: usize, dt: f32) {
        let Some(c) = self.arm.skin.positions.get(center).copied() else {
            return;
        };
        let brushed: Vec<(usize, f32)> = (self.arm.skin.positions.iter().enumerate())
            .filter_map(|(v, p)| Some((v, self.brush.amount(p.distance(c), dt)?)))
            .collect();
        let target = self.brush.target(weighted_mean(
            brushed
                .iter()
                .map(|&(v, amount)| (self.weights.get(v, self.bone), amount)),
        ));
        for (v, amount) in brushed {
            self.weights
                .paint(v, self.bone, target, amount, self.auto_normalise);
        }
        self.painted = true;
        self.weights_changed();
    }

    fn overlay_ui(&self, ui: &Ui, vp: &Viewport, pose: &Pose) {
        let painter = ui.painter_at(vp.rect());
        let off_sum = self.off_sum();
        let (dotted, stride) = self.dots_of(off_sum.clone());
        let font = egui::FontId::proportional(16.0);
        // A setting that changes the DQS arm is named on the picture itself.
        if !self.antipodal_check && self.mode != super::Mode::Lbs {
            vp.note(
                ui,
                egui::Align2::LEFT_TOP,
                "antipodal check off: DQS may blend the long way round",
                font.clone(),
                Color32::from_rgb(190, 30, 30),
            );
        }
        // Taken before the labels, which keep off it.
        if self.ellipses {
            ellipses::legend_ui(ui, vp);
        }
        for (dqs, at, vertices) in self.placed(pose) {
            let label = if dqs { "DQS" } else { "LBS" };
            // At the arm's shoulder end, just past its cap: the label touches the arm
            // it names, or a leader joins them.
            if let Some(s) = vp.to_screen(at - Vec3::X * (rigs::arm::RADIUS + 0.1)) {
                vp.label(
                    ui,
                    s,
                    label,
                    egui::FontId::proportional(20.0),
                    Color32::from_gray(30),
                    egui::vec2(-1.0, 0.0),
                );
            }
            for &v in &dotted {
                if let Some(s) = vp.to_screen(vertices[v].position + at) {
                    painter.circle_filled(s, 2.5, Color32::BLACK);
                }
            }
            if let Some(v) = self.vertex {
                if let Some(s) = vertices.get(v).and_then(|p| vp.to_screen(p.position + at)) {
                    painter.circle(
                        s,
                        6.0,
                        Color32::WHITE,
                        egui::Stroke::new(2.0, Color32::BLACK),
                    );
                }
                if !dqs {
                    // Worked out for the arm alone, then moved to its row, as drawn.
                    if let Some(mut b) = VertexBreakdown::new(&pose.palette, &self.skin(), v) {
                        b.sum += at;
                        for part in &mut b.parts {
                            part.2 += at;
                        }
                        partials_overlay(ui, vp, &b, &self.inspect_style());
                    }
                }
            }
        }
        if let Some(center) = self.brush_at {
            let color = self.brush.color();
            for (_, at, vertices) in self.placed(pose) {
                if let Some(s) = vertices
                    .get(center)
                    .and_then(|v| vp.to_screen(v.position + at))
                {
                    painter.circle_stroke(s, 18.0, egui::Stroke::new(2.0, color));
                }
            }
        }
        if !off_sum.is_empty() {
            let text = format!(
                "{}{}: weights do not sum to 1; {}",
                crate::ui::counted(off_sum.len(), "vertex", "vertices"),
                if stride == 1 {
                    " (black dots)".to_owned()
                } else {
                    format!(" (black dots, one for every {stride})")
                },
                match self.position_w {
                    PositionW::Divide => "the divide by w hides it",
                    PositionW::One => "w = 1 shows it",
                }
            );
            vp.note(
                ui,
                egui::Align2::LEFT_BOTTOM,
                text,
                font,
                Color32::from_rgb(190, 30, 30),
            );
        }
    }

    pub(super) fn page_viewport_ui(&mut self, ui: &mut Ui) {
        let help = if self.brush.on {
            format!(
                "Brush on: drag over the arm to {} {}'s weight. Switch the brush off to turn the view.",
                self.brush.verb(),
                BONE_NAMES[self.bone]
            )
        } else {
            "Drawn by the skinning shaders. Drag to turn the view, scroll to zoom, click a vertex to inspect it.".to_owned()
        };
        let height = ui.available_height() - room_below(ui, &help, 0);
        let vp = Viewport::new(ui, height, &self.camera);
        self.viewport_rect = vp.rect();
        let pose = self.skinned();
        if marks::recording(ui.ctx()) {
            let vertices = self.visible(&vp, &pose).into_iter().map(|(_, s)| s);
            marks::targets_drawn(ui.ctx(), Target::Vertex, vertices);
        }
        self.handle_pointer(ui, &vp, &pose);
        // The same skinning again, unless the brush just changed the weights.
        let pose = self.skinned();
        let scene = self.scene(&pose, vp.clip_from_world);
        vp.paint(ui, scene);
        self.overlay_ui(ui, &vp, &pose);
        caption_ui(ui, &help);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_drawn_mesh_follows_the_weight_sum() {
        // The shader reads the weights of the mesh handed to it: a new sum must reach
        // it, not only the CPU's copy.
        let mut page = BlendingPage::default();
        let sum = |mesh: &MeshData| {
            let w = mesh.skin.influences[0].weights;
            w.iter().sum::<f32>()
        };
        let before = page.drawn();
        assert!((sum(&before) - 1.0).abs() < 1e-5);
        page.weight_scale = 1.25;
        let after = page.drawn();
        assert_ne!(before.id, after.id, "a new mesh for the renderer");
        assert!((sum(&after) - 1.25).abs() < 1e-5, "{}", sum(&after));
    }
}
