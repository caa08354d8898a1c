//! The grid page's viewport: the scene, joint drags, vertex picks and overlays.

use super::data;
use super::*;

impl GridPage {
    fn scene(&self, pose: &Pose, clip_from_world: Mat4) -> Scene {
        let mut scene = Scene {
            clip_from_world,
            light_dir: Vec3::Z,
            background: [0.97, 0.97, 0.96, 1.0],
            ..Default::default()
        };
        let faint = [0.86, 0.86, 0.84, 1.0];
        for i in -20..=30 {
            let t = i as f32;
            scene.backdrop_line(Vec3::new(t, -20.0, 0.0), Vec3::new(t, 20.0, 0.0), faint);
            scene.backdrop_line(
                Vec3::new(-20.0, t - 5.0, 0.0),
                Vec3::new(30.0, t - 5.0, 0.0),
                faint,
            );
        }
        for world in &pose.world {
            let origin = world.transform_point3(Vec3::ZERO);
            scene.line(
                origin,
                world.transform_point3(Vec3::X * 1.5),
                [0.1, 0.7, 0.2, 1.0],
            );
            scene.line(
                origin,
                world.transform_point3(Vec3::Y * 1.5),
                [0.15, 0.35, 0.95, 1.0],
            );
        }
        if self.forget_inverse_bind {
            // Where the mesh belongs: skinned with the real gradients, on the CPU.
            let correct = skin_vertices(&pose.gradients, &self.mesh.skin);
            for [a, b] in data::LINES {
                scene.backdrop_line(
                    correct[a as usize].position,
                    correct[b as usize].position,
                    [0.6, 0.6, 0.6, 1.0],
                );
            }
        }
        scene.skinned.push(SkinnedDraw::lines(
            self.mesh.clone(),
            Palette::Matrices(pose.uploaded.clone()),
            crate::ui::rgba(MESH_RED),
            3.0,
        ));
        scene
    }

    fn handle_pointer(&mut self, vp: &Viewport, pose: &Pose) {
        let r = &vp.response;
        let press = r.interact_pointer_pos();
        if r.drag_started()
            && let Some(origin) = r.ctx.input(|i| i.pointer.press_origin())
        {
            self.dragging = nearest(self.joint_screen, origin, PICK_RADIUS);
            if let Some(joint) = self.dragging {
                self.bone = joint;
                self.playing = false;
            }
        }
        if let (Some(joint), Some(at)) = (self.dragging, press)
            && r.dragged()
        {
            let target = vp.to_plane(at);
            let origin = pose.world[joint].transform_point3(Vec3::ZERO);
            let parent_angle = match joint.checked_sub(1) {
                Some(parent) => pose.world[parent]
                    .x_axis
                    .y
                    .atan2(pose.world[parent].x_axis.x),
                None => 0.0,
            };
            let d = target - origin;
            if d.length() > 1e-3 {
                let local = d.y.atan2(d.x) - parent_angle;
                self.angles[joint] = (local + PI).rem_euclid(2.0 * PI) - PI;
            }
        }
        if r.drag_stopped() {
            self.dragging = None;
        }
        if r.clicked()
            && let Some(at) = press
        {
            if let Some(joint) = nearest(self.joint_screen, at, PICK_RADIUS) {
                self.bone = joint;
            } else {
                let screen: Vec<egui::Pos2> = pose
                    .skinned
                    .iter()
                    .filter_map(|p| vp.to_screen(*p))
                    .collect();
                self.vertex = nearest(screen, at, PICK_RADIUS);
            }
        }
    }

    fn overlay_ui(&self, ui: &Ui, vp: &Viewport, pose: &Pose) {
        let painter = ui.painter_at(vp.rect());
        let font = egui::FontId::proportional(15.0);
        for (i, p) in pose.skinned.iter().enumerate() {
            if let Some(at) = vp.to_screen(*p) {
                let selected = self.vertex == Some(i);
                painter.circle_filled(at, if selected { 6.0 } else { 3.5 }, DOT_RED);
                painter.text(
                    at + egui::vec2(6.0, -4.0),
                    egui::Align2::LEFT_BOTTOM,
                    i.to_string(),
                    font.clone(),
                    Color32::from_gray(30),
                );
            }
        }
        for (joint, at) in self.joint_screen.iter().enumerate() {
            let stroke = egui::Stroke::new(
                if joint == self.bone { 3.0 } else { 1.5 },
                BONE_COLORS[joint],
            );
            painter.circle(*at, 11.0, Color32::from_white_alpha(200), stroke);
            painter.text(
                *at,
                egui::Align2::CENTER_CENTER,
                format!("b{joint}"),
                egui::FontId::proportional(11.0),
                Color32::from_gray(30),
            );
        }
        if let Some(b) = self
            .vertex
            .and_then(|v| VertexBreakdown::new(&pose.uploaded, &self.mesh.skin, v))
        {
            partials_overlay(ui, vp, &b, &self.inspect_style());
        }
    }

    pub(super) fn page_viewport_ui(&mut self, ui: &mut Ui) {
        let height = ui.available_height() - 64.0;
        let vp = Viewport::new(ui, height, &self.camera);
        let pose = self.pose();
        self.joint_screen = std::array::from_fn(|j| {
            vp.to_screen(pose.world[j].transform_point3(Vec3::ZERO))
                .unwrap_or_default()
        });
        self.handle_pointer(&vp, &pose);
        if self.dragging.is_none() {
            vp.camera_input(ui, &mut self.camera);
        }
        let pose = self.pose();
        vp.paint(ui, self.scene(&pose, vp.clip_from_world));
        self.overlay_ui(ui, &vp, &pose);
        if self.forget_inverse_bind {
            vp.note(
                ui,
                egui::Align2::LEFT_TOP,
                "Inverse bind forgotten: the shader gets world matrices.\nGrey: where the mesh belongs.",
                egui::FontId::proportional(15.0),
                Color32::from_rgb(190, 30, 30),
            );
        }
        self.play_ui(ui);
        ui.label(
            RichText::new("Red: the skinned mesh, drawn by the skinning shader. Green/blue: each bone's x/y axis. Drag a joint circle to bend it; click a vertex to inspect it; drag elsewhere to pan.")
                .small(),
        );
    }
}
