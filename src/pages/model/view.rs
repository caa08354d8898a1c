//! The model page's viewport: every mesh drawn by the skinning shaders, the skeleton
//! over it, and picking of joints and vertices.

use super::data::Frame;
use super::textures::Decoded;
use super::{Heat, ModelPage};
use crate::pages::centres::Method;
use crate::ui::labels::label_name;
use crate::ui::legend::heat_color;
use crate::ui::marks::{self, Target};
use crate::ui::pick::{PICK_RADIUS, in_triangle, nearest};
use crate::ui::viewport::AfterPaint;
use crate::ui::viewport::{caption_ui, room_below};
use crate::ui::{Viewport, rgba};
use egui::{Color32, Stroke, Ui};
use gl::capture_skinned_range;
use glam::{Mat4, Vec3};
use scene::{Alpha, MAX_JOINTS, MeshData, Palette, Scene, SkinnedDraw};
use skin::Influences;
use skin::explain::steps::VertexBreakdown;
use skin::lbs::SkinMesh;
use std::sync::Arc;

/// What the viewport shows and how to handle it, under it.
/// A click this close (in points) to a joint's dot picks the joint, however near a
/// vertex is.
const JOINT_DOT_HIT: f32 = 4.0;

const CAPTION: &str = "Drawn by the skinning shaders. Drag to turn the view, scroll to zoom, \
                 click a joint or a vertex to inspect it.";

/// The caption while the brush is on.
const BRUSH_CAPTION: &str = "Brush on: drag the mouse or a finger over the model to paint \
     the picked joint's weight. Two fingers turn and zoom the view; the wheel zooms.";

/// Colours for the meshes, one after another, where the file's materials are not drawn
/// (or a mesh has none).
pub const MESH_TINTS: [Color32; 4] = [
    Color32::from_rgb(225, 190, 160),
    Color32::from_rgb(150, 180, 215),
    Color32::from_rgb(200, 200, 200),
    Color32::from_rgb(235, 200, 120),
];

fn tint(i: usize) -> [f32; 4] {
    rgba(MESH_TINTS[i % MESH_TINTS.len()])
}

/// A mesh with a heat colour per vertex: the weight `weight(influences)` picks out.
fn heat_mesh(skin: &SkinMesh, weight: impl Fn(&Influences) -> f32) -> Vec<[f32; 4]> {
    skin.influences
        .iter()
        .map(|inf| rgba(heat_color(weight(inf))))
        .collect()
}

/// The picked vertex as the vertex shader skinned it, read back by transform feedback,
/// beside the CPU's value from the same frame.
#[derive(Clone, Debug, PartialEq)]
pub struct Readback {
    /// The vertex, counted across the skinned meshes.
    pub vertex: usize,
    /// `skin::lbs`'s position for it.
    pub cpu: Vec3,
    /// What the shader wrote to `v_position`, or why it could not be read.
    pub gpu: Result<Vec3, String>,
    /// The palette of the vertex's skin in the frame read back: the vertex cell works
    /// its sum from it, so that every number it shows belongs to one frame, even while
    /// the clip plays.
    pub palette: Vec<Mat4>,
    /// The blend-shape weights of the vertex's mesh in that frame, for the same reason.
    pub morph_weights: Vec<f32>,
}

/// Where the paint callback leaves the last read-back.
pub type ReadbackSlot = Arc<std::sync::Mutex<Option<Readback>>>;

impl ModelPage {
    /// The last read-back of the picked vertex, if it is for the vertex picked now.
    pub fn readback(&self) -> Option<Readback> {
        let slot = self.readback.lock().ok()?;
        slot.clone().filter(|r| Some(r.vertex) == self.vertex)
    }

    /// Work for the paint callback: skin the picked vertex's mesh with the palette just
    /// drawn and keep that vertex, unless the last read-back is of this very state.
    fn readback_request(&self, frame: &Frame, scene: &Scene) -> Option<AfterPaint> {
        let vertex = self.vertex?;
        let (m, v) = self.vertex_in_mesh(vertex)?;
        let cpu = frame.skinned.get(m)?.get(v)?.position;
        let last = self.readback.lock().ok()?.clone();
        if last.is_some_and(|r| r.vertex == vertex && r.cpu == cpu) {
            return None;
        }
        let drawn = self.drawn.as_ref()?.1.get(m)?.clone();
        let draw = scene
            .skinned
            .iter()
            .find(|d| Arc::ptr_eq(&d.mesh, &drawn))?;
        let (mesh, palette) = (draw.mesh.clone(), draw.palette.clone());
        let (switches, weights) = (draw.switches(), draw.shader_morph_weights().to_vec());
        let morph_weights = draw.morph_weights.clone();
        let skin_palette = self
            .model
            .skinned_meshes
            .get(m)
            .and_then(|mesh| frame.palettes.get(mesh.skin))
            .cloned()
            .unwrap_or_default();
        let slot = self.readback.clone();
        Some(Box::new(move |gl, renderer| {
            let gpu = renderer
                .mesh(gl, &mesh)
                .map(|_| ())
                .and_then(|()| {
                    let uploaded = renderer
                        .uploaded(&mesh)
                        .ok_or("the mesh is not on the GPU")?;
                    capture_skinned_range(
                        gl,
                        renderer,
                        uploaded,
                        &palette,
                        switches,
                        v..v + 1,
                        &weights,
                    )
                })
                .and_then(|one| {
                    one.first()
                        .map(|(p, _)| *p)
                        .ok_or_else(|| "the shader wrote fewer vertices than the mesh has".into())
                });
            if let Ok(mut slot) = slot.lock() {
                *slot = Some(Readback {
                    vertex,
                    cpu,
                    gpu,
                    palette: skin_palette.clone(),
                    morph_weights: morph_weights.clone(),
                });
            }
        }))
    }

    /// The read-back work for the current state, as the viewport would hand it to its
    /// paint callback (for tests on a headless context).
    pub fn readback_work(&mut self) -> Option<AfterPaint> {
        let frame = self.frame();
        let scene = self.scene(&frame, Mat4::IDENTITY);
        self.readback_request(&frame, &scene)
    }

    /// What colours the meshes, if a heat map is on.
    pub(super) fn heat_shown(&self) -> Option<Heat> {
        // The brush paints the picked joint's weight: the heat map shows it.
        if self.painting() {
            return self.joint.map(Heat::Joint);
        }
        if self.repair_heat && self.before_repair().is_some() {
            return Some(Heat::Repair);
        }
        self.joint.filter(|_| self.heat).map(Heat::Joint)
    }

    /// The meshes as drawn (skinned first, then rigid), rebuilt when the heat changed.
    fn drawn(&mut self) -> Arc<Vec<Arc<MeshData>>> {
        let key = (
            self.heat_shown(),
            self.materials,
            self.method == Method::Cor,
        );
        if let Some((drawn_for, meshes)) = &self.drawn
            && *drawn_for == key
        {
            return meshes.clone();
        }
        let (heat, materials, _) = key;
        // With the file's materials and no heat map, a mesh's vertex colours (COLOR_0)
        // are multiplied in, as glTF viewers draw them.
        let file_colors = |part: &gltf::MeshPart| {
            if materials {
                part.colors
                    .iter()
                    .map(|c| super::textures::gamma_encoded(*c))
                    .collect()
            } else {
                Vec::new()
            }
        };
        let model = &self.model;
        let mut meshes = Vec::new();
        for (i, mesh) in model.skinned_meshes.iter().enumerate() {
            let colors = match (heat, model.skins.get(mesh.skin)) {
                (Some(Heat::Repair), _) => (self.weight_moved(i).into_iter())
                    .map(|moved| rgba(heat_color(moved)))
                    .collect(),
                (Some(Heat::Joint(j)), Some(skin)) => {
                    let local = skin.joints.iter().position(|&k| k == j);
                    heat_mesh(&mesh.part.vertices, |inf| {
                        local.map_or(0.0, |local| inf.weight(local))
                    })
                }
                _ => file_colors(&mesh.part),
            };
            let data = MeshData::with_targets(
                mesh.part.vertices.clone(),
                mesh.part.indices.clone(),
                colors,
                mesh.part.uvs.clone(),
                Arc::new(mesh.part.targets.clone()),
            );
            // Centres of rotation ride along only while they are drawn.
            meshes.push(match self.mesh_method(i, &[]).0 {
                Method::Cor => data.with_centres(self.mesh_centres(i).to_vec()),
                _ => data,
            });
        }
        for mesh in &model.rigid_meshes {
            let colors = match heat {
                Some(Heat::Joint(j)) => {
                    heat_mesh(&mesh.part.vertices, |_| f32::from(mesh.joint == j))
                }
                // A hard part has no weights to repair.
                Some(Heat::Repair) => heat_mesh(&mesh.part.vertices, |_| 0.0),
                None => file_colors(&mesh.part),
            };
            meshes.push(MeshData::with_targets(
                mesh.part.vertices.clone(),
                mesh.part.indices.clone(),
                colors,
                mesh.part.uvs.clone(),
                Arc::new(mesh.part.targets.clone()),
            ));
        }
        let meshes = Arc::new(meshes);
        self.drawn = Some((key, meshes.clone()));
        meshes
    }

    fn scene(&mut self, frame: &Frame, clip_from_world: Mat4) -> Scene {
        let mut scene = Scene {
            clip_from_world,
            light_dir: self.camera.light_dir(),
            background: [0.95, 0.95, 0.94, 1.0],
            ..Default::default()
        };
        let meshes = self.drawn();
        let heat = self.heat_shown().is_some();
        let model = self.model.clone();
        let skinned = model.skinned_meshes.len();
        for (i, mesh) in model.skinned_meshes.iter().enumerate() {
            let (Some(data), Some(palette)) = (meshes.get(i), frame.palettes.get(mesh.skin)) else {
                continue;
            };
            // Past the uniform array's budget the palette goes to the bone texture,
            // which only linear blending reads.
            let palette = match self.mesh_method(i, palette).0 {
                Method::Lbs if palette.len() > MAX_JOINTS => Palette::Texture(palette.clone()),
                method => method.palette(palette.clone()),
            };
            let mut draw = SkinnedDraw::surface(data.clone(), palette, tint(i));
            self.paint(&mut draw, &mesh.part, heat);
            draw.morph_weights = frame.morph_weights.get(i).cloned().unwrap_or_default();
            scene.skinned.push(draw);
        }
        for (i, mesh) in model.rigid_meshes.iter().enumerate() {
            let Some(data) = meshes.get(skinned + i) else {
                continue;
            };
            // The one-joint case: every vertex has weight 1 on palette entry 0.
            let world = frame
                .world
                .get(mesh.joint)
                .copied()
                .unwrap_or(Mat4::IDENTITY);
            let mut draw = SkinnedDraw::surface(
                data.clone(),
                Palette::Matrices(vec![world]),
                tint(skinned + i),
            );
            self.paint(&mut draw, &mesh.part, heat);
            let weights = frame.morph_weights.get(skinned + i);
            draw.morph_weights = weights.cloned().unwrap_or_default();
            scene.skinned.push(draw);
        }
        // Blended surfaces last, over everything opaque they let through.
        let blended: Vec<_> = (scene.skinned)
            .extract_if(.., |d| d.alpha == Alpha::Blend)
            .collect();
        scene.skinned.extend(blended);
        scene
    }

    /// Sets how `draw` of `part` is painted: white under the heat map (the vertex
    /// colours are the picture), its material's colour, texture and alpha mode where
    /// the file's materials are drawn and it has one, else the tint it has.
    fn paint(&self, draw: &mut SkinnedDraw, part: &gltf::MeshPart, heat: bool) {
        // A file's surface without a material of its own is opaque (glTF's default
        // material), as are the tints and the heat map.
        draw.alpha = Alpha::Opaque;
        if heat {
            draw.color = [1.0; 4];
            return;
        }
        let Some((m, material)) = part
            .material
            .filter(|_| self.materials)
            .and_then(|m| Some((m, self.model.materials.get(m)?)))
        else {
            return;
        };
        draw.color = super::textures::gamma_encoded(material.base_color);
        draw.alpha = match material.alpha {
            gltf::AlphaMode::Opaque => Alpha::Opaque,
            gltf::AlphaMode::Mask(cutoff) => Alpha::Mask(cutoff),
            gltf::AlphaMode::Blend => Alpha::Blend,
        };
        if let Some(Decoded::Ready(texture)) = self.texture(m)
            && !part.uvs.is_empty()
        {
            draw.texture = Some(texture);
        }
    }

    /// What became of material `m`'s texture (`None` past the materials).
    pub fn texture(&self, m: usize) -> Option<Decoded> {
        let (_, slots) = self.textures.as_ref()?;
        slots.lock().ok()?.get(m).cloned()
    }

    /// Whether a texture is still being decoded (the browser's decoder is
    /// asynchronous): the page draws again until it is not.
    fn decoding(&self) -> bool {
        (0..self.model.materials.len()).any(|m| matches!(self.texture(m), Some(Decoded::Pending)))
    }

    /// Each joint's origin on screen, with its index.
    fn joints_on_screen(&self, vp: &Viewport, frame: &Frame) -> Vec<(usize, egui::Pos2)> {
        let skeletal = self.model.skeletal();
        frame
            .world
            .iter()
            .enumerate()
            .filter(|(j, _)| skeletal.get(*j) == Some(&true))
            .filter_map(|(j, w)| vp.to_screen(w.transform_point3(Vec3::ZERO)).map(|s| (j, s)))
            .collect()
    }

    /// Front-facing skinned vertices on screen, numbered across the skinned meshes.
    pub(super) fn vertices_on_screen(
        &self,
        vp: &Viewport,
        frame: &Frame,
    ) -> Vec<(usize, egui::Pos2)> {
        let eye = self.camera.eye();
        let mut out = Vec::new();
        let mut first = 0;
        for mesh in &frame.skinned {
            for (i, v) in mesh.iter().enumerate() {
                if v.normal.dot(eye - v.position) >= 0.0
                    && let Some(s) = vp.to_screen(v.position)
                {
                    out.push((first + i, s));
                }
            }
            first += mesh.len();
        }
        out
    }

    /// Picks what a click at `at` names. A joint's dot is small and a hand's joints
    /// sit among its vertices, so a joint wins only when the click is on its dot or
    /// nearer to it than to any vertex; else the nearest vertex, else a hard mesh.
    fn pick(&mut self, vp: &Viewport, frame: &Frame, at: egui::Pos2) {
        let vertices = self.vertices_on_screen(vp, frame);
        let vertex = nearest(vertices.iter().map(|(_, s)| *s), at, PICK_RADIUS)
            .map(|k| (vertices[k].0, vertices[k].1.distance(at)));
        if self.show_skeleton {
            let joints = self.joints_on_screen(vp, frame);
            if let Some(k) = nearest(joints.iter().map(|(_, s)| *s), at, PICK_RADIUS * 0.6) {
                let (joint, d) = (joints[k].0, joints[k].1.distance(at));
                if d <= JOINT_DOT_HIT || vertex.is_none_or(|(_, dv)| d < dv) {
                    self.joint = Some(joint);
                    return;
                }
            }
        }
        self.rigid_clicked = None;
        if let Some((v, _)) = vertex {
            self.vertex = Some(v);
        } else {
            self.rigid_clicked = self.rigid_mesh_at(vp, frame, at);
            // A hard piece clicked says what it is, in place of the vertex picked
            // before (which stayed, and the click seemed to do nothing).
            if self.rigid_clicked.is_some() {
                self.vertex = None;
            }
        }
    }

    /// The hard mesh whose triangle is nearest the eye under `at`, if any.
    fn rigid_mesh_at(&self, vp: &Viewport, frame: &Frame, at: egui::Pos2) -> Option<usize> {
        let rect = vp.rect();
        let mut best: Option<(f32, usize)> = None;
        for (r, mesh) in self.model.rigid_meshes.iter().enumerate() {
            let Some(world) = frame.world.get(mesh.joint) else {
                continue;
            };
            let clip_from_local = vp.clip_from_world * *world;
            // Each corner in screen points, with its depth; none behind the eye.
            let corner = |i: u32| {
                let p = *mesh.part.vertices.positions.get(i as usize)?;
                let (_, ndc, [x, y]) = crate::ui::viewport::project(
                    clip_from_local,
                    [rect.width(), rect.height()],
                    p,
                )?;
                Some((rect.min + egui::vec2(x, y), ndc.z))
            };
            for t in mesh.part.indices.chunks_exact(3) {
                let (Some(a), Some(b), Some(c)) = (corner(t[0]), corner(t[1]), corner(t[2])) else {
                    continue;
                };
                if in_triangle(at, [a.0, b.0, c.0]) {
                    let depth = (a.1 + b.1 + c.1) / 3.0;
                    if best.is_none_or(|(d, _)| depth < d) {
                        best = Some((depth, r));
                    }
                }
            }
        }
        best.map(|(_, r)| r)
    }

    fn overlay_ui(&self, ui: &Ui, vp: &Viewport, frame: &Frame) {
        let painter = ui.painter_at(vp.rect());
        if self.show_skeleton {
            let origin = |j: usize| {
                frame
                    .world
                    .get(j)
                    .and_then(|w| vp.to_screen(w.transform_point3(Vec3::ZERO)))
            };
            let skeletal = self.model.skeletal();
            let parent = |j: usize| {
                self.model
                    .skeleton
                    .parent(j)
                    .filter(|p| skeletal.get(*p) == Some(&true))
            };
            let mut has_child = vec![false; frame.world.len()];
            for j in (0..frame.world.len()).filter(|j| skeletal.get(*j) == Some(&true)) {
                if let Some(p) = parent(j).and_then(|p| has_child.get_mut(p)) {
                    *p = true;
                }
            }
            // One dot a pixel: a file may stack thousands of joints on one point.
            let mut dotted = std::collections::HashSet::new();
            let (mut bones, mut dots) = (vec![], vec![]);
            for (j, has_child) in has_child.iter().enumerate() {
                if skeletal.get(j) != Some(&true) {
                    continue;
                }
                if let (Some(p), Some(a)) = (parent(j), origin(j))
                    && let Some(pa) = origin(p)
                    && pa.distance(a) >= 1.0
                {
                    bones.push([pa, a]);
                }
                // A joint with no child still turns: a tail along its own y axis (the
                // way bones point in the files modelling tools write), half as long as
                // its parent's bone, shows it.
                if !has_child
                    && let Some(tail) = leaf_tail(&frame.world, parent(j), j)
                    && let (Some(a), Some(t)) = (origin(j), vp.to_screen(tail))
                {
                    bones.push([a, t]);
                }
                if let Some(a) = origin(j)
                    && dotted.insert((a.x.round() as i32, a.y.round() as i32))
                {
                    dots.push(a);
                }
            }
            // Dark bones on a light halo, all halos first: the bones read over the light
            // background and over the heat map's dark purple alike.
            let (dark, halo) = (
                Color32::from_rgb(30, 30, 30),
                Color32::from_white_alpha(180),
            );
            for &segment in &bones {
                painter.line_segment(segment, Stroke::new(4.0, halo));
            }
            for &dot in &dots {
                painter.circle_filled(dot, 3.8, halo);
            }
            for &segment in &bones {
                painter.line_segment(segment, Stroke::new(1.5, dark));
            }
            for &dot in &dots {
                painter.circle_filled(dot, 2.5, dark);
            }
        }
        if let Some(j) = self.joint
            && let Some(s) = frame
                .world
                .get(j)
                .and_then(|w| vp.to_screen(w.transform_point3(Vec3::ZERO)))
        {
            painter.circle(
                s,
                6.0,
                Color32::from_rgb(240, 200, 40),
                Stroke::new(2.0, Color32::BLACK),
            );
            if let Some(joint) = self.model.joints.get(j) {
                vp.block(egui::Rect::from_center_size(s, egui::Vec2::splat(14.0)));
                vp.label(
                    ui,
                    s,
                    label_name(&joint.name).into_owned(),
                    egui::FontId::proportional(15.0),
                    Color32::from_gray(20),
                    egui::vec2(1.0, -1.0),
                );
            }
        }
        if let Some((m, v)) = self.vertex.and_then(|v| self.vertex_in_mesh(v))
            && let Some(s) = frame
                .skinned
                .get(m)
                .and_then(|mesh| mesh.get(v))
                .and_then(|p| vp.to_screen(p.position))
        {
            // Each joint's partial position (palette[joint] · v) as a ghost dot, tied
            // to the skinned position, their weighted sum.
            let mesh = &self.model.skinned_meshes[m];
            let palette = frame.palettes.get(mesh.skin).map_or(&[][..], Vec::as_slice);
            if let Some(b) = VertexBreakdown::new(palette, &mesh.part.vertices, v) {
                let ghost = Color32::from_rgba_unmultiplied(90, 90, 255, 200);
                for (_, weight, partial) in &b.parts {
                    if let Some(p) = vp.to_screen(*partial) {
                        painter.line_segment([p, s], Stroke::new(1.0, ghost));
                        painter.circle_stroke(p, 3.0 + 5.0 * weight, Stroke::new(2.0, ghost));
                    }
                }
            }
            painter.circle(s, 6.0, Color32::WHITE, Stroke::new(2.0, Color32::BLACK));
        }
        let clip = self
            .model
            .clips
            .get(self.clip)
            .map_or("rest pose".to_owned(), |c| {
                format!("{} at {:.2} s", label_name(c.name()), self.time)
            });
        // The note names every setting that changes the picture, so a screenshot or a
        // projector says what it shows.
        let mut blend = match self.clip_b.and_then(|b| self.model.clips.get(b)) {
            Some(b) => format!(
                ", blended {:.0}% with {}",
                self.blend * 100.0,
                label_name(b.name())
            ),
            None => String::new(),
        };
        if self.clip_b.is_some() {
            if let Some(joint) = self.mask.and_then(|j| self.model.joints.get(j)) {
                blend += &format!(" below {}", label_name(&joint.name));
            }
            if !self.sign_check {
                blend += ", sign check off";
            }
        }
        if self.forget_inverse_bind {
            blend += "\ninverse bind forgotten: palette = W";
        }
        vp.note(
            ui,
            egui::Align2::LEFT_TOP,
            format!("{}: {clip}{blend}", self.model_name()),
            egui::FontId::proportional(16.0),
            Color32::from_gray(30),
        );
    }

    pub(super) fn viewport(&mut self, ui: &mut Ui) {
        let caption = if self.painting() {
            BRUSH_CAPTION
        } else {
            CAPTION
        };
        let height = ui.available_height() - room_below(ui, caption, 0);
        let vp = Viewport::new(ui, height, &self.camera);
        self.viewport_rect = vp.rect();
        let ppp = ui.ctx().pixels_per_point();
        let size = [vp.rect().width() * ppp, vp.rect().height() * ppp];
        let aspect = vp.rect().width() / vp.rect().height();
        self.seen = self
            .camera
            .view_and_projection(aspect)
            .map(|(view, projection)| (view, projection, size));
        let painting = self.painting();
        if !painting {
            vp.camera_input(ui, &mut self.camera);
        }
        let frame = self.frame();
        if marks::recording(ui.ctx()) {
            if self.show_skeleton {
                let joints = self.joints_on_screen(&vp, &frame).into_iter();
                marks::targets_drawn(ui.ctx(), Target::Joint, joints.map(|(_, s)| s));
            }
            let vertices = self.vertices_on_screen(&vp, &frame).into_iter();
            marks::targets_drawn(ui.ctx(), Target::Vertex, vertices.map(|(_, s)| s));
        }
        // With the brush on, a drag or a tap paints (and the frame is skinned again
        // with the new weights); else a click picks.
        let frame = if painting {
            self.brush_input(ui, &vp, &frame);
            if self.drawn.is_none() {
                self.frame()
            } else {
                frame
            }
        } else {
            // The brush switched off (or the joint unpicked) mid-stroke: it ends there.
            self.end_stroke();
            self.brush_at = None;
            if vp.response.clicked()
                && let Some(at) = vp.response.interact_pointer_pos()
            {
                self.pick(&vp, &frame, at);
            }
            frame
        };
        #[cfg(not(target_arch = "wasm32"))]
        self.save_dialog_ui(ui.ctx());
        let scene = self.scene(&frame, vp.clip_from_world);
        if self.decoding() {
            ui.ctx().request_repaint();
        }
        let readback = self.readback_request(&frame, &scene);
        if readback.is_some() {
            // The answer arrives after this frame is painted: show it in the next.
            ui.ctx().request_repaint();
        }
        vp.paint_then(ui, scene, readback);
        self.overlay_ui(ui, &vp, &frame);
        if let Some(at) = self.brush_at {
            let ring = egui::Stroke::new(2.0, self.brush.color());
            ui.painter_at(vp.rect())
                .circle_stroke(at, self.brush.radius, ring);
        }
        caption_ui(ui, caption);
    }
}

/// Where the tail of leaf joint `j` ends: from its origin along its own y axis, half
/// the distance to its parent. `None` for a root, or a joint on its parent.
pub fn leaf_tail(world: &[glam::Mat4], parent: Option<usize>, j: usize) -> Option<Vec3> {
    let at = world.get(j)?.w_axis.truncate();
    let length = 0.5 * at.distance(world.get(parent?)?.w_axis.truncate());
    let along = world[j].y_axis.truncate().try_normalize()?;
    (length > 0.0).then(|| at + along * length)
}
