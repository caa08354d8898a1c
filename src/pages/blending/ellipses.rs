//! The blending page's deformation ellipses: a small circle around a vertex, carried by
//! the vertex's blended transform, drawn on both arms and summed up in a cell.

use super::{BlendingPage, Pose};
use crate::rigs::arm;
use crate::skin::ellipse::{Ellipse, dqs_linear, lbs_linear};
use crate::skin::lbs::SkinMesh;
use crate::ui::Viewport;
use egui::{Color32, Pos2, Rect, RichText, Stroke, Ui, pos2, vec2};
use glam::Vec3;

/// Every this many rings, and this many segments round a ring, carries a glyph.
pub const ELLIPSE_STRIDE: usize = 4;
/// The radius of the circle on the arm at rest, world units: under half the distance
/// between two glyphs, so neighbours do not touch until they grow past 1.2 times.
pub const ELLIPSE_RADIUS: f32 = 0.1;
/// Points on each drawn ellipse.
const ELLIPSE_POINTS: usize = 24;
/// The least cosine between a drawn ellipse's normal and the direction to the eye.
const MIN_FACING: f32 = 0.4;
/// Ellipses thinner than this aspect are drawn edge by edge.
const THIN: f32 = 0.3;
/// The area ratio drawn fully blue (shrunk) and, mirrored about 1, fully red (grown).
const SHRUNK: f32 = 0.5;

/// One ellipse as drawn: where it sits in the world and its shape.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Glyph {
    /// The vertex it belongs to.
    pub vertex: usize,
    /// Whether it is on the DQS arm.
    pub dqs: bool,
    /// The vertex as drawn: its skinned position plus its arm's offset.
    pub center: Vec3,
    /// What the vertex's transform makes of a unit circle.
    pub ellipse: Ellipse,
}

/// The extremes of one method's ellipses over the whole arm.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EllipseRange {
    /// The smallest aspect (1 round, 0 a line) and the vertex that has it.
    pub thinnest: (f32, usize),
    /// The smallest area ratio.
    pub least_area: f32,
    /// The largest area ratio.
    pub most_area: f32,
}

/// The colour of an area ratio: grey at 1, bluer as it shrinks, redder as it grows.
pub fn area_color(ratio: f32) -> Color32 {
    let grey = Color32::from_gray(70);
    if ratio.is_nan() {
        return grey;
    }
    let t = ((ratio - 1.0) / (1.0 - SHRUNK)).clamp(-1.0, 1.0);
    if t < 0.0 {
        grey.lerp_to_gamma(Color32::from_rgb(20, 70, 235), -t)
    } else {
        grey.lerp_to_gamma(Color32::from_rgb(225, 30, 20), t)
    }
}

impl BlendingPage {
    /// Vertex `v`'s deformation ellipse under linear blending, or under dual quaternions
    /// when `dqs`, as the page draws that arm (its `w`, its antipodal check). `None` for
    /// a vertex not on the arm, or one whose transform is not finite.
    pub fn ellipse(&self, pose: &Pose, dqs: bool, v: usize) -> Option<Ellipse> {
        self.ellipse_in(&self.skin(), pose, dqs, v)
    }

    /// [`BlendingPage::ellipse`] with the skin in use already at hand.
    fn ellipse_in(&self, skin: &SkinMesh, pose: &Pose, dqs: bool, v: usize) -> Option<Ellipse> {
        let influences = skin.influences.get(v)?;
        let linear = if dqs {
            dqs_linear(&pose.dual_quats, influences, self.antipodal_check)
        } else {
            lbs_linear(&pose.palette, influences, self.position_w)
        };
        Ellipse::new(linear, *skin.normals.get(v)?, *skin.tangents.get(v)?)
    }

    /// The smallest and largest ellipses of each method over every vertex: `[LBS, DQS]`.
    pub fn ellipse_ranges(&self, pose: &Pose) -> [Option<EllipseRange>; 2] {
        let skin = self.skin();
        [false, true].map(|dqs| {
            (0..skin.positions.len())
                .filter_map(|v| Some((v, self.ellipse_in(&skin, pose, dqs, v)?)))
                .fold(None, |range: Option<EllipseRange>, (v, e)| {
                    let (aspect, area) = (e.aspect(), e.area_ratio());
                    Some(match range {
                        None => EllipseRange {
                            thinnest: (aspect, v),
                            least_area: area,
                            most_area: area,
                        },
                        Some(r) => EllipseRange {
                            thinnest: if aspect < r.thinnest.0 {
                                (aspect, v)
                            } else {
                                r.thinnest
                            },
                            least_area: r.least_area.min(area),
                            most_area: r.most_area.max(area),
                        },
                    })
                })
        })
    }

    /// The ellipses the viewport draws: a sparse grid of vertices on each arm shown,
    /// those that face the camera (or whose skinned normal collapsed, so that it cannot
    /// tell), each centred where the shader draws its vertex.
    pub fn ellipse_glyphs(&self, pose: &Pose) -> Vec<Glyph> {
        let eye = self.eye();
        let skin = self.skin();
        let mut glyphs = Vec::new();
        for (dqs, at, vertices) in self.placed(pose) {
            for ring in (0..arm::RING_COUNT).step_by(ELLIPSE_STRIDE) {
                for segment in (0..arm::SEGMENTS).step_by(ELLIPSE_STRIDE) {
                    let v = ring * arm::SEGMENTS + segment;
                    let Some(drawn) = vertices.get(v) else {
                        continue;
                    };
                    let center = drawn.position + at;
                    // Near the outline a circle is seen edge on and looks flat: leave
                    // those out, so that a flat ellipse always means a flat map.
                    let facing = drawn.normal.dot((eye - center).normalize_or_zero());
                    let known = drawn.normal.length_squared() > 0.25;
                    if known && facing < MIN_FACING || !center.is_finite() {
                        continue;
                    }
                    if let Some(ellipse) = self.ellipse_in(&skin, pose, dqs, v) {
                        glyphs.push(Glyph {
                            vertex: v,
                            dqs,
                            center,
                            ellipse,
                        });
                    }
                }
            }
        }
        glyphs
    }

    /// Draws [`BlendingPage::ellipse_glyphs`] over the viewport, with a legend.
    pub(super) fn ellipses_overlay(&self, ui: &Ui, vp: &Viewport, pose: &Pose) {
        let painter = ui.painter_at(vp.rect());
        for glyph in self.ellipse_glyphs(pose) {
            let points: Option<Vec<Pos2>> = glyph
                .ellipse
                .points(glyph.center, ELLIPSE_RADIUS, ELLIPSE_POINTS)
                .into_iter()
                .map(|p| vp.to_screen(p))
                .collect();
            let Some(points) = points else {
                continue;
            };
            let color = area_color(glyph.ellipse.area_ratio());
            // A pale halo under the coloured line keeps it readable on the skin.
            for stroke in [
                Stroke::new(3.0, Color32::from_white_alpha(170)),
                Stroke::new(1.4, color),
            ] {
                if glyph.ellipse.aspect() < THIN {
                    // A closed path that doubles back on itself gets mitred into long
                    // spikes at its ends: draw a thin ellipse edge by edge instead.
                    for k in 0..points.len() {
                        let next = points[(k + 1) % points.len()];
                        painter.line_segment([points[k], next], stroke);
                    }
                } else {
                    painter.add(egui::Shape::closed_line(points.clone(), stroke));
                }
            }
        }
        legend(&painter, vp.rect());
    }

    pub(super) fn ellipses_ui(&mut self, ui: &mut Ui) {
        ui.checkbox(&mut self.ellipses, "Deformation ellipses");
        ui.label(
            RichText::new(
                "Each circle of radius r on the arm at rest, carried by its vertex's transform. \
                 While they are shown the arm is drawn without its heat map.",
            )
            .weak(),
        );
        let pose = self.skinned();
        let skin = self.skin();
        let ranges = self.ellipse_ranges(&pose);
        for (name, range) in ["LBS", "DQS"].iter().zip(ranges) {
            let text = match range {
                Some(r) => format!(
                    "{name}: thinnest aspect {:.2} (x = {:.2}), area {:.2} to {:.2}",
                    r.thinnest.0,
                    skin.positions.get(r.thinnest.1).map_or(f32::NAN, |p| p.x),
                    r.least_area,
                    r.most_area,
                ),
                None => format!("{name}: no vertex has an ellipse"),
            };
            ui.label(RichText::new(text).monospace());
        }
    }
}

/// A small key in the viewport's top-left corner: the colour of each area ratio.
fn legend(painter: &egui::Painter, viewport: Rect) {
    let font = egui::FontId::proportional(13.0);
    let text = Color32::from_gray(30);
    let origin = viewport.left_top() + vec2(10.0, 10.0);
    let bar = Rect::from_min_size(origin + vec2(0.0, 18.0), vec2(150.0, 10.0));
    let back = Rect::from_min_max(
        origin - vec2(6.0, 6.0),
        bar.right_bottom() + vec2(6.0, 22.0),
    );
    painter.rect_filled(back, 4.0, Color32::from_white_alpha(200));
    painter.text(
        origin,
        egui::Align2::LEFT_TOP,
        "ellipse area / circle area",
        font.clone(),
        text,
    );
    let steps = 30;
    let low = SHRUNK;
    let high = 2.0 - SHRUNK;
    for k in 0..steps {
        let x0 = bar.left() + bar.width() * k as f32 / steps as f32;
        let x1 = bar.left() + bar.width() * (k + 1) as f32 / steps as f32;
        let ratio = low + (high - low) * (k as f32 + 0.5) / steps as f32;
        painter.rect_filled(
            Rect::from_min_max(pos2(x0, bar.top()), pos2(x1 + 0.5, bar.bottom())),
            0.0,
            area_color(ratio),
        );
    }
    for (value, align) in [
        (low, egui::Align2::LEFT_TOP),
        (1.0, egui::Align2::CENTER_TOP),
        (high, egui::Align2::RIGHT_TOP),
    ] {
        let x = bar.left() + bar.width() * (value - low) / (high - low);
        painter.text(
            pos2(x, bar.bottom() + 2.0),
            align,
            format!("{value}"),
            font.clone(),
            text,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colours_run_from_blue_through_grey_to_red() {
        let grey = area_color(1.0);
        assert_eq!(grey, Color32::from_gray(70));
        let (shrunk, grown) = (area_color(0.0), area_color(3.0));
        assert!(shrunk.b() > shrunk.r() && grown.r() > grown.b());
        assert_eq!(
            area_color(SHRUNK),
            shrunk,
            "saturated from half the area down"
        );
        assert_eq!(area_color(f32::NAN), grey);
    }
}
