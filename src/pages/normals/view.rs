//! The normals page's viewport: one or two lit arms drawn by the skinning shader, their
//! normals (blue) and tangents (orange) as short lines, and vertex picking.

use super::NormalsPage;
use super::data;
use crate::ui::pick::{PICK_RADIUS, nearest};
use crate::ui::viewport::{caption_ui, room_below};
use crate::ui::{Viewport, ellipses, rgba};
use egui::{Color32, Ui};
use glam::{Mat3, Mat4, Vec3};
use scene::{Palette, Scene, SkinnedDraw};
use skin::explain::ellipse::{Ellipse, lbs_linear};
use skin::lbs::PositionW;
use skin::lbs::SkinnedVertex;
use skin::normals::NormalMethod;

/// What the viewport shows and how to handle it, under it.
const CAPTION: &str = "Drawn and lit by the skinning shader (light from above left). Blue: normals, orange: tangents. Red, green, blue: each joint's x, y, z axes; the forearm's green y axis is the one its scale stretches. Drag to turn the view, scroll to zoom, click a vertex to work its tangent.";

const SKIN_TONE: Color32 = Color32::from_rgb(225, 190, 160);
/// The colour of normal lines.
pub const NORMAL_COLOR: Color32 = Color32::from_rgb(40, 90, 230);
/// The colour of tangent lines.
pub const TANGENT_COLOR: Color32 = Color32::from_rgb(235, 130, 20);
const LINE_LENGTH: f32 = 0.3;

/// The label of an arm drawn with `method`.
pub fn arm_label(method: NormalMethod) -> &'static str {
    match method {
        NormalMethod::Naive => "M · n",
        NormalMethod::InverseTranspose => "(M⁻¹)^T · n",
    }
}

/// Whether vertex `v` carries an ellipse: every third ring and every fourth segment of
/// the tube.
fn has_ellipse(v: usize) -> bool {
    v < data::TUBE_VERTICES && (v / data::SEGMENTS).is_multiple_of(3) && v.is_multiple_of(4)
}

/// Whether vertex `v` may carry a normal and a tangent line: every third ring, at
/// eight segments an eighth of a turn apart (the tube's top, bottom and sides, and
/// halfway between, where a normal has both a y and a z part and the naive one
/// leans), so the lines run in rows along the tube. A line at every vertex would be a
/// forest.
fn has_line(v: usize) -> bool {
    v < data::TUBE_VERTICES
        && (v / data::SEGMENTS).is_multiple_of(3)
        && (v % data::SEGMENTS).is_multiple_of(data::SEGMENTS / 8)
}

/// Which way a line's vertex may face and still be drawn (the cosine between its right
/// normal and the way to the eye): the rows near the outline, where a line is seen
/// side on and its lean shows. A row facing the eye is seen end on, as dots; a row
/// behind the arm is hidden.
const LINE_FACING: std::ops::RangeInclusive<f32> = -0.15..=0.75;

/// The radius of an ellipse's circle on the arm at rest, world units.
pub const ELLIPSE_RADIUS: f32 = 0.12;

/// Where an arm's name goes: left of the arm's outline on screen (its normal and
/// tangent lines included), at its middle height, when a label `width` points wide
/// fits there; else above the outline. The spot, and the way the label extends from it.
fn label_spot(
    vp: &Viewport,
    vertices: &[SkinnedVertex],
    at: Vec3,
    width: f32,
) -> Option<(egui::Pos2, egui::Vec2)> {
    // The outline with the tips of the normal and tangent lines, which stand out.
    let shown = vertices
        .iter()
        .flat_map(|v| [v.normal, v.tangent, Vec3::ZERO].map(|d| v.position + d * LINE_LENGTH))
        .filter_map(|p| vp.to_screen(p + at))
        .map(|p| egui::Rect::from_min_max(p, p));
    let outline = shown.reduce(|a, b| a.union(b))?;
    let room = outline.left() - vp.rect().left();
    Some(if room >= width + 12.0 {
        (outline.left_center(), egui::vec2(-1.0, 0.0))
    } else {
        (outline.center_top(), egui::vec2(0.0, -1.0))
    })
}

impl NormalsPage {
    /// The deformation ellipses of one arm drawn at `at` with its skinned `vertices`:
    /// every third ring and fourth segment of the tube, those facing the camera, each the
    /// image of a circle in the surface at rest under the vertex's blended matrix. Both
    /// arms share the matrix (only their normals differ), so they share the ellipses.
    pub fn ellipse_glyphs(&self, vertices: &[SkinnedVertex], at: Vec3) -> Vec<(Vec3, Ellipse)> {
        let eye = self.camera.eye();
        let palette = self.palette();
        let skin = &self.assets.limb.skin;
        (0..data::TUBE_VERTICES)
            .filter(|v| has_ellipse(*v))
            .filter_map(|v| {
                let center = vertices.get(v)?.position + at;
                let (linear, facing) = self.linear_and_facing(&palette, v)?;
                if !ellipses::faces(eye, center, facing) {
                    return None;
                }
                let ellipse = Ellipse::new(linear, *skin.normals.get(v)?, *skin.tangents.get(v)?)?;
                Some((center, ellipse))
            })
            .collect()
    }

    /// Vertex `v`'s blended matrix (its 3×3 part, `M`) under `palette`, and which way
    /// the skinned surface faces there: the right normal, `(M⁻¹)^T · n`, whichever arm
    /// is drawn (the naive arm's normals lean, and would say the surface faces away).
    pub(super) fn linear_and_facing(&self, palette: &[Mat4], v: usize) -> Option<(Mat3, Vec3)> {
        let skin = &self.assets.limb.skin;
        let linear = lbs_linear(palette, skin.influences.get(v)?, PositionW::Divide);
        let facing = (linear.inverse().transpose() * *skin.normals.get(v)?).normalize_or_zero();
        Some((linear, facing))
    }

    /// The vertices of an arm drawn at `at` that carry lines: those of [`has_line`]
    /// that are not behind the arm, judged by the right normal on either arm (the
    /// naive one leans).
    pub fn line_vertices(&self, vertices: &[SkinnedVertex], at: Vec3) -> Vec<usize> {
        let eye = self.camera.eye();
        let palette = self.palette();
        (0..vertices.len().min(data::TUBE_VERTICES))
            .filter(|v| has_line(*v))
            .filter(|&v| {
                self.linear_and_facing(&palette, v)
                    .is_some_and(|(_, facing)| {
                        let to_eye = (eye - (vertices[v].position + at)).normalize_or_zero();
                        LINE_FACING.contains(&facing.dot(to_eye))
                    })
            })
            .collect()
    }

    /// Each drawn arm: its method, its offset and its vertices skinned on the CPU.
    fn placed(&self) -> Vec<(NormalMethod, Vec3, Vec<SkinnedVertex>)> {
        self.show
            .arms()
            .into_iter()
            .map(|(method, at)| (method, at, self.skinned(method)))
            .collect()
    }

    fn scene(&self, arms: &[(NormalMethod, Vec3, Vec<SkinnedVertex>)], clip: Mat4) -> Scene {
        // A light above and to the left of the camera: shading then depends on where a
        // normal points, not only on how far it turns from the eye.
        let eye = self.camera.light_dir();
        let left = eye.cross(Vec3::Y).normalize_or_zero();
        let mut scene = Scene {
            clip_from_world: clip,
            light_dir: (eye + Vec3::Y * 0.7 + left * 0.5).normalize_or(eye),
            background: [0.95, 0.95, 0.94, 1.0],
            ..Default::default()
        };
        let palette = self.palette();
        let world =
            rigs::arm::skeleton().world_from_joint(&data::parent_from_joint(self.bend, self.scale));
        for (method, at, vertices) in arms {
            let shift = Mat4::from_translation(*at);
            let moved = palette.iter().map(|m| shift * *m).collect();
            let mut draw = SkinnedDraw::surface(
                self.assets.mesh.clone(),
                Palette::Matrices(moved),
                rgba(SKIN_TONE),
            );
            draw.normals = *method;
            scene.skinned.push(draw);
            for w in &world {
                scene.axes(&(shift * *w), 0.7);
            }
            if self.show_lines {
                for i in self.line_vertices(vertices, *at) {
                    let v = &vertices[i];
                    let p = v.position + *at;
                    scene.line(p, p + v.normal * LINE_LENGTH, rgba(NORMAL_COLOR));
                    scene.line(p, p + v.tangent * LINE_LENGTH, rgba(TANGENT_COLOR));
                }
            }
            if let Some(v) = self.vertex.and_then(|v| vertices.get(v)) {
                let p = v.position + *at;
                scene.arrow(p, p + v.normal * 0.7, 0.02, rgba(NORMAL_COLOR));
                scene.arrow(p, p + v.tangent * 0.7, 0.02, rgba(TANGENT_COLOR));
            }
        }
        scene
    }

    /// The front-facing vertex nearest to `at` on screen, if any is close.
    fn vertex_under(
        &self,
        vp: &Viewport,
        arms: &[(NormalMethod, Vec3, Vec<SkinnedVertex>)],
        at: egui::Pos2,
    ) -> Option<usize> {
        let eye = self.camera.eye();
        let mut candidates = Vec::new();
        for (method, offset, vertices) in arms {
            // Facing is judged by the right normal: the naive one may point away.
            let right;
            let facing = if *method == NormalMethod::InverseTranspose {
                vertices
            } else {
                right = self.skinned(NormalMethod::InverseTranspose);
                &right
            };
            for (i, (v, f)) in vertices.iter().zip(facing).enumerate() {
                let p = v.position + *offset;
                if f.normal.dot(eye - p) > 0.0
                    && let Some(s) = vp.to_screen(p)
                {
                    candidates.push((i, s));
                }
            }
        }
        nearest(candidates.iter().map(|(_, s)| *s), at, PICK_RADIUS).map(|k| candidates[k].0)
    }

    fn overlay_ui(
        &self,
        ui: &Ui,
        vp: &Viewport,
        arms: &[(NormalMethod, Vec3, Vec<SkinnedVertex>)],
    ) {
        let painter = ui.painter_at(vp.rect());
        for (method, at, vertices) in arms {
            // Beside the arm as drawn, never on it: left of it where the view has
            // room, else above it; on a card, so it reads over the lines too.
            let galley = ui.painter().layout_no_wrap(
                arm_label(*method).to_owned(),
                egui::FontId::monospace(20.0),
                Color32::from_gray(30),
            );
            if let Some((s, toward)) = label_spot(vp, vertices, *at, galley.size().x) {
                let card = Color32::from_rgba_unmultiplied(245, 245, 240, 230);
                vp.label_galley(s, galley, 4.0, toward, Some(card));
            }
            if let Some(s) = self
                .vertex
                .and_then(|v| vertices.get(v))
                .and_then(|v| vp.to_screen(v.position + *at))
            {
                painter.circle_stroke(s, 6.0, egui::Stroke::new(2.0, Color32::BLACK));
            }
        }
    }

    pub(super) fn page_viewport_ui(&mut self, ui: &mut Ui) {
        let height = ui.available_height() - room_below(ui, CAPTION, 0);
        let vp = Viewport::new(ui, height, &self.camera);
        self.viewport_rect = vp.rect();
        let arms = self.placed();
        vp.camera_input(ui, &mut self.camera);
        if vp.response.clicked()
            && let Some(at) = vp.response.interact_pointer_pos()
        {
            self.vertex = self.vertex_under(&vp, &arms, at).or(self.vertex);
        }
        let mut scene = self.scene(&arms, vp.clip_from_world);
        if self.ellipses {
            let glyphs: Vec<_> = arms
                .iter()
                .flat_map(|(_, at, vertices)| self.ellipse_glyphs(vertices, *at))
                .collect();
            ellipses::add(&mut scene, &glyphs, ELLIPSE_RADIUS);
        }
        vp.paint(ui, scene);
        if self.ellipses {
            ellipses::legend_ui(ui, &vp);
        }
        self.overlay_ui(ui, &vp, &arms);
        caption_ui(ui, CAPTION);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The lines are rows a reader can follow: a few dozen an arm, none on the far side
    /// of the arm or facing the eye, and those are really left out.
    #[test]
    fn the_lines_are_rows_on_the_near_side_only() {
        let page = NormalsPage::default();
        let vertices = page.skinned(NormalMethod::InverseTranspose);
        let drawn = page.line_vertices(&vertices, Vec3::ZERO);
        let rows = (0..data::TUBE_VERTICES).filter(|v| has_line(*v)).count();
        assert!(
            (10..=60).contains(&drawn.len()),
            "{} of {rows} lines drawn",
            drawn.len()
        );
        assert!(drawn.len() < rows, "the far side's rows are left out");
        let eye = page.camera.eye();
        for v in drawn {
            let n = vertices[v].normal;
            let to_eye = (eye - vertices[v].position).normalize();
            let facing = n.dot(to_eye);
            assert!(
                (LINE_FACING.start() - 0.01..=LINE_FACING.end() + 0.01).contains(&facing),
                "vertex {v} faces the eye at {facing}"
            );
        }
    }
}
