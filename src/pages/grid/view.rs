//! The grid page's viewport: the scene, joint drags, vertex picks and overlays.

use super::data;
use super::*;
use crate::pages::predict::{GUESS_BLUE, Grab, grab, guess_marker_ui};
use crate::ui::marks::{self, Target};
use crate::ui::viewport::{caption_ui, room_below};
use egui::Rect;

/// What the viewport shows and how to handle it, under it.
const CAPTION: &str = "Purple: the skinned mesh, drawn by the skinning shader. Red/green: each bone's x/y axis, as in the matrices. Drag a joint circle to bend it; click a vertex to inspect it; drag elsewhere to pan.";

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
            for (axis, direction) in [Vec3::X, Vec3::Y].into_iter().enumerate() {
                scene.axis(origin, world.transform_point3(direction * 1.5), axis);
            }
        }
        let mesh = match self.hidden_vertex() {
            Some(v) => self.without.get(v).unwrap_or(&self.mesh),
            None => &self.mesh,
        };
        scene.skinned.push(SkinnedDraw::lines(
            mesh.clone(),
            Palette::Matrices(pose.uploaded.clone()),
            crate::ui::rgba(MESH_COLOR),
            3.0,
        ));
        scene
    }

    /// Where the mesh belongs (skinned with the real gradients, on the CPU), as
    /// dashed grey edges over the drawn mesh: behind it they hide wherever the two
    /// coincide.
    fn belongs_ui(&self, ui: &Ui, vp: &Viewport, pose: &Pose) {
        let correct = skin_vertices(&pose.gradients, &self.mesh.skin);
        let hidden = self.hidden_vertex().map(|v| v as u32);
        let painter = ui.painter_at(vp.rect());
        let stroke = egui::Stroke::new(2.5, Color32::from_gray(120));
        for [a, b] in data::LINES
            .into_iter()
            .filter(|l| !hidden.is_some_and(|v| l.contains(&v)))
        {
            let (Some(a), Some(b)) = (
                vp.to_screen(correct[a as usize].position),
                vp.to_screen(correct[b as usize].position),
            ) else {
                continue;
            };
            painter.add(egui::Shape::dashed_line(&[a, b], stroke, 6.0, 5.0));
        }
    }

    fn handle_pointer(&mut self, vp: &Viewport, pose: &Pose) {
        let r = &vp.response;
        let press = r.interact_pointer_pos();
        if r.drag_started()
            && let Some(origin) = r.ctx.input(|i| i.pointer.press_origin())
        {
            // The guess moves only while it is hidden.
            let guess = self.guess_screen.filter(|_| self.hidden_vertex().is_some());
            self.dragging = grab(origin, guess, &self.joint_screen);
            if let Some(Grab::Joint(joint)) = self.dragging {
                self.bone = joint;
                self.playing = false;
            }
        }
        if let (Some(Grab::Guess), Some(at)) = (self.dragging, press)
            && r.dragged()
            && let Some(p) = &mut self.prediction
        {
            p.set_guess(vp.to_plane(at).truncate());
        }
        if let (Some(Grab::Joint(joint)), Some(at)) = (self.dragging, press)
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
                // A hidden vertex cannot be found by clicking around for it.
                let hidden = self.hidden_vertex();
                let screen: Vec<egui::Pos2> = pose
                    .skinned
                    .iter()
                    .enumerate()
                    .map(|(i, p)| match vp.to_screen(*p) {
                        Some(at) if hidden != Some(i) => at,
                        _ => egui::pos2(f32::INFINITY, f32::INFINITY),
                    })
                    .collect();
                self.vertex = nearest(screen, at, PICK_RADIUS);
            }
        }
    }

    fn overlay_ui(&self, ui: &Ui, vp: &Viewport, pose: &Pose) {
        let painter = ui.painter_at(vp.rect());
        let font = egui::FontId::proportional(15.0);
        let hidden = self.hidden_vertex();
        // Bone circles and vertex dots first, then each vertex's number where it keeps
        // off them and off the other numbers.
        for at in &self.joint_screen {
            vp.block(Rect::from_center_size(*at, egui::Vec2::splat(24.0)));
        }
        let dots: Vec<(usize, egui::Pos2)> = pose
            .skinned
            .iter()
            .enumerate()
            .filter(|(i, _)| hidden != Some(*i))
            .filter_map(|(i, p)| Some((i, vp.to_screen(*p)?)))
            .collect();
        for (i, at) in &dots {
            let selected = self.vertex == Some(*i);
            painter.circle_filled(*at, if selected { 6.0 } else { 3.5 }, DOT_COLOR);
            vp.block(Rect::from_center_size(*at, egui::Vec2::splat(8.0)));
        }
        // The inspected vertex's ghosts, and the predicted one's once revealed, before
        // the numbers: a number keeps off them and nearest its own dot.
        let revealed = self
            .prediction
            .filter(|_| self.revealed())
            .map(|p| p.vertex());
        let mut ghosts: Vec<usize> = self.vertex.into_iter().chain(revealed).collect();
        ghosts.dedup();
        for v in ghosts.into_iter().filter(|v| hidden != Some(*v)) {
            if let Some(b) = VertexBreakdown::new(&pose.uploaded, &self.mesh.skin, v) {
                partials_overlay(ui, vp, &b, &self.inspect_style());
            }
        }
        for (i, at) in &dots {
            vp.label(
                ui,
                *at,
                i.to_string(),
                font.clone(),
                Color32::from_gray(30),
                egui::vec2(1.0, -1.0),
            );
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
        self.prediction_overlay_ui(ui, vp);
    }

    /// The guess marker; once revealed, a line from it to the truth and the distance.
    fn prediction_overlay_ui(&self, ui: &Ui, vp: &Viewport) {
        let (Some(p), Some(guess)) = (self.prediction, self.guess_screen) else {
            return;
        };
        let judged = self
            .judgement()
            .and_then(|(truth, j)| Some((vp.to_screen(truth.extend(0.0))?, j)));
        guess_marker_ui(
            ui,
            vp,
            guess,
            &format!("guess {}", p.vertex()),
            judged,
            DOT_COLOR,
        );
    }

    pub(super) fn page_viewport_ui(&mut self, ui: &mut Ui) {
        let height = ui.available_height() - room_below(ui, CAPTION, 1);
        let vp = Viewport::new(ui, height, &self.camera);
        let pose = self.pose();
        self.joint_screen = std::array::from_fn(|j| {
            vp.to_screen(pose.world[j].transform_point3(Vec3::ZERO))
                .unwrap_or_default()
        });
        self.guess_screen = self
            .prediction
            .and_then(|p| vp.to_screen(p.guess.extend(0.0)));
        if marks::recording(ui.ctx()) {
            marks::targets_drawn(ui.ctx(), Target::Joint, self.joint_screen);
            let vertices = pose.skinned.iter().filter_map(|p| vp.to_screen(*p));
            marks::targets_drawn(ui.ctx(), Target::Vertex, vertices);
        }
        self.handle_pointer(&vp, &pose);
        self.settle_prediction();
        self.guess_screen = self
            .prediction
            .and_then(|p| vp.to_screen(p.guess.extend(0.0)));
        if self.dragging.is_none() {
            vp.camera_input(ui, &mut self.camera);
        }
        let pose = self.pose();
        vp.paint(ui, self.scene(&pose, vp.clip_from_world));
        if self.forget_inverse_bind {
            self.belongs_ui(ui, &vp, &pose);
        }
        // The banner first: the labels keep off it.
        let mut banner = vp.rect().left_top() + egui::vec2(10.0, 10.0);
        if self.forget_inverse_bind {
            banner.y = vp.note_at(ui, banner, "Inverse bind forgotten: the shader gets world matrices.\nDashed grey: where the mesh belongs.".to_owned(),
                15.0,
                Color32::from_rgb(190, 30, 30),
            ) + 6.0;
        }
        if let Some(p) = self.prediction {
            let text = match self.judgement() {
                Some((_, j)) => format!(
                    "Vertex {}: your guess is {:.2} from where it lands ({}).",
                    p.vertex(),
                    j.distance,
                    j.verdict.text()
                ),
                None => format!(
                    "Predict: where does vertex {} land? Drag the blue ring there, then press Reveal in the predict cell.",
                    p.vertex()
                ),
            };
            vp.note_at(ui, banner, text, 16.0, GUESS_BLUE);
        }
        self.overlay_ui(ui, &vp, &pose);
        self.play_ui(ui);
        caption_ui(ui, CAPTION);
    }
}
