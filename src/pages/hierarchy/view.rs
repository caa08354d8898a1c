//! The viewport: the figure drawn by the skinning shader, joint axes, picking, and the
//! drag that turns a joint's parent.

use super::cells::{MOVED, WRONG};
use super::{Drag, HierarchyPage, Pose};
use crate::pages::local_transform::rounded;
use crate::ui::pick::{PICK_RADIUS, nearest};
use crate::ui::viewport::{caption_ui, room_below};
use crate::ui::{Viewport, rgba};
use egui::{Color32, FontId, Pos2, Stroke, Ui};
use glam::{Mat4, Vec3};
use rigs::humanoid::{self, JOINTS};
use scene::{Palette, Scene, SkinnedDraw};
use skin::lbs::palette;

/// The controls under the viewport.
const RESET: &str = "Reset T-pose";
const WRONG_ORDER: &str = "wrong order: local · parent";

/// What the viewport shows and how to handle it, under it.
const CAPTION: &str = "Click a joint to select it. Drag a joint: its parent turns so it follows. \
                 Drag elsewhere to orbit, scroll to zoom. Yellow: what an edit of the \
                 selected joint moves.";

const BONE: [f32; 4] = [0.62, 0.68, 0.8, 1.0];
/// Where a joint behind the camera is "on screen": far away, so it is never picked.
const OFF_SCREEN: Pos2 = Pos2::new(-1.0e6, -1.0e6);

fn origin(m: &Mat4) -> Vec3 {
    m.transform_point3(Vec3::ZERO)
}

impl HierarchyPage {
    fn scene(&self, pose: &Pose, clip_from_world: Mat4, light_dir: Vec3) -> Scene {
        let mut scene = Scene {
            clip_from_world,
            light_dir,
            background: [0.09, 0.09, 0.11, 1.0],
            ..Default::default()
        };
        let floor = [0.26, 0.26, 0.3, 1.0];
        for i in -8..=8 {
            let t = i as f32 * 0.25;
            scene.backdrop_line(Vec3::new(t, 0.0, -2.0), Vec3::new(t, 0.0, 2.0), floor);
            scene.backdrop_line(Vec3::new(-2.0, 0.0, t), Vec3::new(2.0, 0.0, t), floor);
        }
        let assets = &self.assets;
        let skinned = palette(&pose.world, &assets.joint_from_bind);
        scene.skinned.push(SkinnedDraw::surface(
            assets.bones.clone(),
            Palette::Matrices(skinned.clone()),
            BONE,
        ));
        // The moved bones again, in their own colour: same vertices, same depth, drawn
        // later, so they win.
        if let Some(mesh) = assets.subtree.get(self.selected) {
            scene.skinned.push(SkinnedDraw::surface(
                mesh.clone(),
                Palette::Matrices(skinned),
                rgba(MOVED),
            ));
        }
        if self.wrong_order {
            scene.skinned.push(SkinnedDraw::lines(
                assets.ghost.clone(),
                Palette::Matrices(palette(&pose.wrong, &assets.joint_from_bind)),
                rgba(WRONG),
                2.0,
            ));
            scene.marker(Vec3::ZERO, 0.03, rgba(WRONG));
        }
        for (j, world) in pose.world.iter().enumerate() {
            scene.axes(world, if j == self.selected { 0.2 } else { 0.09 });
        }
        scene
    }

    fn handle_pointer(&mut self, vp: &Viewport, pose: &Pose) {
        let r = &vp.response;
        if r.drag_started()
            && let Some(at) = r.ctx.input(|i| i.pointer.press_origin())
            && let Some(joint) = nearest(self.joint_screen, at, PICK_RADIUS)
        {
            self.dragging = Some(Drag {
                joint,
                plane_through: origin(&pose.world[joint]),
            });
            // The edit lands on the parent (the root moves itself): show that one.
            self.selected = JOINTS[joint].parent.unwrap_or(joint);
        }
        // ANCHOR: drag
        if let (Some(drag), Some(at)) = (self.dragging, r.interact_pointer_pos())
            && r.dragged()
            && let Some(target) = vp.on_view_plane(at, drag.plane_through)
        {
            match JOINTS[drag.joint].parent {
                Some(parent) => {
                    let pivot = origin(&pose.world[parent]);
                    let world_from_grandparent = JOINTS[parent]
                        .parent
                        .map_or(Mat4::IDENTITY, |g| pose.world[g]);
                    self.pose[parent].aim(
                        &world_from_grandparent,
                        origin(&pose.world[drag.joint]) - pivot,
                        target - pivot,
                    );
                }
                // The root has no parent to turn: it moves.
                None => self.pose[drag.joint].translation = target,
            }
            let edited = JOINTS[drag.joint].parent.unwrap_or(drag.joint);
            self.pose[edited] = rounded(self.pose[edited]);
            self.refused = None;
        }
        // ANCHOR_END: drag
        if r.drag_stopped() {
            self.dragging = None;
        }
        if r.clicked()
            && let Some(at) = r.interact_pointer_pos()
            && let Some(joint) = nearest(self.joint_screen, at, PICK_RADIUS)
        {
            self.selected = joint;
        }
    }

    fn overlay_ui(&self, ui: &Ui, vp: &Viewport, pose: &Pose) {
        let painter = ui.painter_at(vp.rect());
        let moved = humanoid::subtree(self.selected);
        for (joint, at) in self.joint_screen.iter().enumerate() {
            let fill = if moved.contains(&joint) {
                MOVED
            } else {
                Color32::from_gray(225)
            };
            painter.circle(*at, 5.0, fill, Stroke::new(1.0, Color32::from_gray(20)));
        }
        let selected = self.joint_screen[self.selected];
        painter.circle_stroke(selected, 10.0, Stroke::new(2.5, MOVED));
        let corner = vp.rect().left_top() + egui::vec2(10.0, 10.0);
        let below = vp.note_at(
            ui,
            corner,
            format!(
                "editing {} moves {} joint{}",
                JOINTS[self.selected].name,
                moved.len(),
                if moved.len() == 1 { "" } else { "s" }
            ),
            16.0,
            MOVED,
        );
        if self.wrong_order {
            vp.note_at(
                ui,
                egui::pos2(corner.x, below + 6.0),
                "pink ghost: world = local · parent (wrong order)",
                16.0,
                WRONG,
            );
        }
        for at in &self.joint_screen {
            vp.block(egui::Rect::from_center_size(*at, egui::Vec2::splat(10.0)));
        }
        // The selected joint's ring, as drawn: its name goes past it.
        vp.block(egui::Rect::from_center_size(
            selected,
            egui::Vec2::splat(24.0),
        ));
        vp.label(
            ui,
            selected,
            JOINTS[self.selected].name,
            FontId::proportional(17.0),
            Color32::WHITE,
            // Under the ring first: up and to the right run the joint's own axes.
            egui::vec2(0.0, 1.0),
        );
        if self.wrong_order {
            let right = vp.to_screen(origin(&pose.world[self.selected]));
            let wrong = vp.to_screen(origin(&pose.wrong[self.selected]));
            if let (Some(right), Some(wrong)) = (right, wrong) {
                painter.line_segment([right, wrong], Stroke::new(1.5, WRONG));
                painter.circle_stroke(wrong, 7.0, Stroke::new(2.0, WRONG));
            }
            if let Some(at) = vp.to_screen(Vec3::ZERO) {
                vp.label(
                    ui,
                    at,
                    "world origin",
                    FontId::proportional(14.0),
                    WRONG,
                    egui::vec2(1.0, 1.0),
                );
            }
        }
    }

    /// Draws the viewport column.
    pub(super) fn view_ui(&mut self, ui: &mut Ui) {
        // The buttons under the viewport take a second row when the pane is narrow.
        let controls = ui
            .painter()
            .layout_no_wrap(
                format!("{RESET}{WRONG_ORDER}"),
                egui::TextStyle::Button.resolve(ui.style()),
                Color32::WHITE,
            )
            .size()
            .x;
        let rows = if controls + 60.0 > ui.available_width() {
            2
        } else {
            1
        };
        let height = ui.available_height() - room_below(ui, CAPTION, rows);
        let vp = Viewport::new(ui, height, &self.camera);
        let pose = self.pose();
        self.joint_screen =
            std::array::from_fn(|j| vp.to_screen(origin(&pose.world[j])).unwrap_or(OFF_SCREEN));
        self.handle_pointer(&vp, &pose);
        if self.dragging.is_none() {
            vp.camera_input(ui, &mut self.camera);
        }
        let pose = self.pose();
        vp.paint(
            ui,
            self.scene(&pose, vp.clip_from_world, self.camera.light_dir()),
        );
        self.overlay_ui(ui, &vp, &pose);
        self.scrub_overlay_ui(ui, &vp);
        ui.horizontal_wrapped(|ui| {
            if ui.button(RESET).clicked() {
                self.reset_pose();
            }
            ui.checkbox(&mut self.wrong_order, WRONG_ORDER);
        });
        caption_ui(ui, CAPTION);
    }
}
