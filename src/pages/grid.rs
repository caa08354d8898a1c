//! The 2D bone-chain grid: ten vertices, three bones, the skinning shader drawing red lines.

use crate::gl::{MeshData, Palette, Primitive, Scene, SkinnedDraw};
use crate::link::{Link, LinkError, number, numbers};
use crate::page::Page;
use crate::skin::grid::{self, BONE_COUNT};
use crate::skin::lbs::{VertexBreakdown, inverse_bind, palette, skin_vertices};
use crate::ui::inspect::{InspectStyle, breakdown_ui, partials_overlay};
use crate::ui::matrix::matrix_view_ui;
use crate::ui::pick::{PICK_RADIUS, nearest};
use crate::ui::{Camera, PlaneCamera, Viewport, angle_slider_ui, error_ui};
use egui::{Color32, RichText, Ui};
use glam::{Mat4, Vec2, Vec3};
use std::f32::consts::PI;
use std::sync::Arc;

const CELLS: &[&str] = &["controls", "bone", "vertex", "forget"];
const KEYS: &[&str] = &[
    "angle",
    "angles",
    "t",
    "bone",
    "vertex",
    "forget_inverse_bind",
];
/// The colour of the skinned mesh. Only the shader draws in it, so a screenshot test
/// can find the shader's lines by colour.
pub const MESH_RED: Color32 = Color32::from_rgb(240, 60, 50);
/// Vertex dots drawn over the mesh (by egui, from the CPU reference).
const DOT_RED: Color32 = Color32::from_rgb(150, 25, 25);
const BONE_COLORS: [Color32; BONE_COUNT] = [
    Color32::from_rgb(255, 200, 60),
    Color32::from_rgb(90, 220, 230),
    Color32::from_rgb(230, 120, 230),
];

/// The page's state.
pub struct GridPage {
    /// Each bone's local rotation about z, radians.
    pub angles: [f32; BONE_COUNT],
    /// Whether the seed's animation drives the angles.
    pub playing: bool,
    /// Animation time, seconds.
    pub time: f32,
    /// The bone whose matrices are shown.
    pub bone: usize,
    /// The vertex being inspected.
    pub vertex: Option<usize>,
    /// Upload world matrices instead of gradients, to see why the inverse bind matters.
    pub forget_inverse_bind: bool,
    dragging: Option<usize>,
    camera: Camera,
    mesh: Arc<MeshData>,
    /// Screen positions of the joints in the last frame (for tests and picking).
    pub joint_screen: [egui::Pos2; BONE_COUNT],
}

fn default_camera() -> Camera {
    Camera::Plane(PlaneCamera {
        center: Vec2::new(5.0, 0.0),
        half_height: 10.5,
    })
}

impl Default for GridPage {
    fn default() -> Self {
        // The grid data is constant and covered by tests in `skin::grid`.
        let skin = grid::mesh().expect("the grid's weights are valid");
        let indices = grid::LINES.iter().flatten().copied().collect();
        Self {
            angles: [0.0; BONE_COUNT],
            playing: true,
            time: 0.0,
            bone: 1,
            vertex: None,
            forget_inverse_bind: false,
            dragging: None,
            camera: default_camera(),
            mesh: MeshData::new(skin, indices, Primitive::Lines),
            joint_screen: [egui::Pos2::ZERO; BONE_COUNT],
        }
    }
}

/// Everything derived from the angles for one frame.
struct Pose {
    local: [Mat4; BONE_COUNT],
    world: Vec<Mat4>,
    inverse_bind: Vec<Mat4>,
    /// `world · inverse bind` per bone.
    gradients: Vec<Mat4>,
    /// What is uploaded: the gradients, or the world matrices when the inverse bind is
    /// forgotten.
    uploaded: Vec<Mat4>,
    skinned: Vec<Vec3>,
}

impl GridPage {
    fn pose(&self) -> Pose {
        let skeleton = grid::skeleton();
        let local = grid::parent_from_joint(self.angles);
        let world = skeleton.world_from_joint(&local);
        let bind = skeleton.world_from_joint(&grid::parent_from_joint([0.0; BONE_COUNT]));
        // The bind pose is translations and rotations only: always invertible.
        let inverse_bind = inverse_bind(&bind).unwrap_or_else(|_| vec![Mat4::IDENTITY; BONE_COUNT]);
        let gradients = palette(&world, &inverse_bind);
        let uploaded = if self.forget_inverse_bind {
            world.clone()
        } else {
            gradients.clone()
        };
        let skinned = skin_vertices(&uploaded, &self.mesh.skin)
            .iter()
            .map(|v| v.position)
            .collect();
        Pose {
            local,
            world,
            inverse_bind,
            gradients,
            uploaded,
            skinned,
        }
    }

    fn pause_at(&mut self, angles: [f32; BONE_COUNT]) {
        self.playing = false;
        self.angles = angles;
    }

    fn play_ui(&mut self, ui: &mut Ui) {
        ui.horizontal(|ui| {
            let label = if self.playing { "Pause" } else { "Play" };
            if ui.button(label).clicked() {
                self.playing = !self.playing;
            }
            let mut t = self.time;
            if ui
                .add(
                    egui::Slider::new(&mut t, 0.0..=2.0 * PI)
                        .text("time t")
                        .custom_formatter(|v, _| format!("{v:.2}")),
                )
                .changed()
            {
                self.time = t;
                self.pause_at([grid::animated_angle(t); BONE_COUNT]);
            }
        });
    }

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
            for [a, b] in grid::LINES {
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

    fn inspect_style(&self) -> InspectStyle<'static> {
        InspectStyle {
            matrix_name: if self.forget_inverse_bind {
                "world"
            } else {
                "gradient"
            },
            bone_name: &|j| format!("b{j}"),
            bone_color: &|j| BONE_COLORS[j],
            dims: 2,
        }
    }
}

impl Page for GridPage {
    fn slug(&self) -> &'static str {
        "grid"
    }

    fn title(&self) -> &'static str {
        "The 2D bone-chain grid"
    }

    fn notebook(&self) -> &'static str {
        include_str!("../../chapters/05-grid.md")
    }

    fn cells(&self) -> &'static [&'static str] {
        CELLS
    }

    fn link_keys(&self) -> &'static [&'static str] {
        KEYS
    }

    fn reset(&mut self) {
        *self = Self {
            mesh: self.mesh.clone(),
            ..Self::default()
        };
    }

    fn apply_link(&mut self, link: &Link) -> Result<(), LinkError> {
        let angle = link.f32("angle")?;
        let angles = link.f32s::<BONE_COUNT>("angles")?;
        let time = link.f32("t")?;
        let bone = link.index("bone", BONE_COUNT)?;
        let vertex = link.index("vertex", grid::POSITIONS.len())?;
        let forget = link.bool("forget_inverse_bind")?;
        if let Some(t) = time {
            self.time = t;
            self.pause_at([grid::animated_angle(t); BONE_COUNT]);
        }
        if let Some(angle) = angle {
            self.pause_at([angle; BONE_COUNT]);
        }
        if let Some(angles) = angles {
            self.pause_at(angles);
        }
        if let Some(bone) = bone {
            self.bone = bone;
        }
        self.vertex = vertex.or(self.vertex);
        self.forget_inverse_bind = forget.unwrap_or(self.forget_inverse_bind);
        Ok(())
    }

    fn link(&self) -> Link {
        let mut link = Link::new(self.slug());
        // While the animation plays, the link names the page only: a link that changed
        // every frame could not be copied, and browsers throttle address-bar updates.
        if !self.playing {
            link = if self.angles.iter().all(|a| *a == self.angles[0]) {
                link.with("angle", number(self.angles[0]))
            } else {
                link.with("angles", numbers(&self.angles))
            };
        }
        if self.bone != 1 {
            link = link.with("bone", self.bone);
        }
        if let Some(vertex) = self.vertex {
            link = link.with("vertex", vertex);
        }
        if self.forget_inverse_bind {
            link = link.with("forget_inverse_bind", true);
        }
        link
    }

    fn tick(&mut self, dt: f32) -> bool {
        if self.playing {
            self.time = (self.time + dt).rem_euclid(2.0 * PI);
            self.angles = [grid::animated_angle(self.time); BONE_COUNT];
        }
        self.playing
    }

    fn cell_ui(&mut self, cell: &str, ui: &mut Ui) {
        match cell {
            "controls" => {
                self.play_ui(ui);
                for bone in 0..BONE_COUNT {
                    let mut angle = self.angles[bone];
                    if angle_slider_ui(
                        ui,
                        &mut angle,
                        -180.0..=180.0,
                        &format!("b{bone} local angle"),
                        1,
                    ) {
                        self.angles[bone] = angle;
                        self.playing = false;
                    }
                }
            }
            "bone" => {
                let pose = self.pose();
                ui.horizontal(|ui| {
                    ui.label("Show bone:");
                    for bone in 0..BONE_COUNT {
                        ui.selectable_value(&mut self.bone, bone, format!("b{bone}"));
                    }
                });
                let b = self.bone;
                let gradient = pose.gradients[b];
                egui::Grid::new("bone_matrices")
                    .spacing([16.0, 8.0])
                    .show(ui, |ui| {
                        ui.vertical(|ui| {
                            ui.label(RichText::new(format!("local  (b{b} from parent)")).strong());
                            matrix_view_ui(ui, "local", &pose.local[b]);
                        });
                        ui.vertical(|ui| {
                            ui.label(RichText::new("world = parent world · local").strong());
                            matrix_view_ui(ui, "world", &pose.world[b]);
                        });
                        ui.end_row();
                        ui.vertical(|ui| {
                            ui.label(RichText::new("inverse bind").strong());
                            matrix_view_ui(ui, "inverse bind", &pose.inverse_bind[b]);
                        });
                        ui.vertical(|ui| {
                            ui.label(RichText::new("gradient = world · inverse bind").strong());
                            matrix_view_ui(ui, "gradient", &gradient);
                        });
                        ui.end_row();
                    });
            }
            "vertex" => {
                let pose = self.pose();
                ui.horizontal_wrapped(|ui| {
                    ui.label("Vertex:");
                    for i in 0..grid::POSITIONS.len() {
                        if ui
                            .selectable_label(self.vertex == Some(i), i.to_string())
                            .clicked()
                        {
                            self.vertex = Some(i);
                        }
                    }
                });
                let Some(v) = self.vertex else {
                    ui.label(
                        RichText::new("Click a vertex in the viewport, or a number above.").weak(),
                    );
                    return;
                };
                let bind = self.mesh.skin.positions[v];
                let influences = &self.mesh.skin.influences[v];
                ui.label(format!(
                    "bind position {}   bones {:?}   weights {:?}",
                    self.inspect_style().point(bind),
                    influences.joints,
                    influences.weights
                ));
                if let Some(b) = VertexBreakdown::new(&pose.uploaded, &self.mesh.skin, v) {
                    breakdown_ui(ui, &b, &self.inspect_style());
                }
            }
            "forget" => {
                ui.checkbox(
                    &mut self.forget_inverse_bind,
                    "Forget the inverse bind (upload world matrices)",
                );
                if self.forget_inverse_bind {
                    error_ui(
                        ui,
                        "The shader now gets world matrices. Vertex 4 sits at x = 4 and bone b1 sits at x = 4 too, so the vertex is moved by 4 twice and lands near x = 8.",
                    );
                }
            }
            _ => error_ui(ui, format!("this page has no cell `{cell}`")),
        }
    }

    fn viewport_ui(&mut self, ui: &mut Ui) {
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
            ui.painter_at(vp.rect()).text(
                vp.rect().left_top() + egui::vec2(10.0, 10.0),
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
