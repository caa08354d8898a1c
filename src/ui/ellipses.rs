//! Deformation ellipses drawn over a viewport: each one a small circle on the surface at
//! rest, carried by its vertex's transform (`skin::ellipse`), coloured by how much its
//! area grew or shrank, with a key in the corner. Shared by the pages that show them.

use super::Viewport;
use egui::{Color32, Pos2, Rect, Stroke, Ui, pos2, vec2};
use glam::Vec3;
use skin::ellipse::Ellipse;

/// The most points on a drawn ellipse, and the fewest.
const POINTS: [usize; 2] = [24, 8];
/// About how long each straight piece of a drawn ellipse is, in points: a small
/// ellipse is drawn with fewer pieces (laying out and tessellating the outlines of
/// hundreds of them was most of the work of a frame that shows every vertex's).
const PIECE: f32 = 3.0;
/// Ellipses thinner than this aspect are drawn edge by edge.
const THIN: f32 = 0.3;
/// The area ratio drawn fully blue (shrunk) and, mirrored about 1, fully red (grown).
pub const SHRUNK: f32 = 0.5;
/// The least cosine between a drawn ellipse's normal and the direction to the eye:
/// nearer the outline a circle is seen edge on and looks flat, so it is left out, and a
/// flat ellipse always means a flattening transform.
pub const MIN_FACING: f32 = 0.4;

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

/// Whether a surface point at `center` with skinned unit normal `normal` faces the eye
/// enough to show its ellipse. A collapsed normal (near zero) cannot tell: it shows.
pub fn faces(eye: Vec3, center: Vec3, normal: Vec3) -> bool {
    let facing = normal.dot((eye - center).normalize_or_zero());
    center.is_finite() && (normal.length_squared() <= 0.25 || facing >= MIN_FACING)
}

/// Draws each `(center, ellipse)` as a circle of `radius` (world units) carried by the
/// ellipse's map, and the colour key in the viewport's top left corner.
pub fn draw(ui: &Ui, vp: &Viewport, glyphs: &[(Vec3, Ellipse)], radius: f32) {
    let painter = ui.painter_at(vp.rect());
    for (center, ellipse) in glyphs {
        let Some(count) = point_count(vp, *center, ellipse, radius) else {
            continue;
        };
        let points: Option<Vec<Pos2>> = ellipse
            .points(*center, radius, count)
            .into_iter()
            .map(|p| vp.to_screen(p))
            .collect();
        let Some(points) = points else {
            continue;
        };
        let color = area_color(ellipse.area_ratio());
        // A pale halo under the coloured line keeps it readable on the skin.
        for stroke in [
            Stroke::new(3.0, Color32::from_white_alpha(170)),
            Stroke::new(1.4, color),
        ] {
            if ellipse.aspect() < THIN {
                // A closed path that doubles back on itself gets mitred into long
                // spikes at its ends: draw a thin ellipse as two open halves that meet
                // at those ends (the first point is one end of the major axis).
                let half = points.len() / 2;
                let second = points[half..].iter().chain(points.first());
                painter.add(egui::Shape::line(points[..=half].to_vec(), stroke));
                painter.add(egui::Shape::line(second.copied().collect(), stroke));
            } else {
                painter.add(egui::Shape::closed_line(points.clone(), stroke));
            }
        }
    }
    vp.block_text(legend(&painter, vp.rect()));
}

/// How many points to draw the ellipse of a circle of `radius` at `center` with, from
/// its size on screen: one every [`PIECE`] points of its outline, an even number (a
/// thin ellipse is drawn as two halves) within [`POINTS`]. `None` when it is not on
/// screen.
fn point_count(vp: &Viewport, center: Vec3, ellipse: &Ellipse, radius: f32) -> Option<usize> {
    let at = vp.to_screen(center)?;
    let semi = |axis: Vec3| Some(vp.to_screen(center + radius * axis)?.distance(at));
    Some(points_around(semi(ellipse.major)?, semi(ellipse.minor)?))
}

/// The points of [`point_count`] for an ellipse of semi-axes `a` and `b` on screen.
fn points_around(a: f32, b: f32) -> usize {
    // The circumference of an ellipse, within a few percent (Ramanujan's first form).
    let around = std::f32::consts::PI * (3.0 * (a + b) - ((3.0 * a + b) * (a + 3.0 * b)).sqrt());
    let [most, fewest] = POINTS;
    let count = ((around / PIECE).ceil() as usize).clamp(fewest, most);
    count + count % 2
}

/// A small key in the viewport's top-left corner: the colour of each area ratio.
/// Returns the corner it covers.
fn legend(painter: &egui::Painter, viewport: Rect) -> Rect {
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
    back
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

    #[test]
    fn an_ellipse_gets_a_point_every_few_pixels_of_its_outline() {
        // A circle of radius 10 is 63 points around: 21 pieces, made even.
        assert_eq!(points_around(10.0, 10.0), 22);
        assert_eq!(points_around(2.0, 2.0), POINTS[1], "the fewest");
        assert_eq!(points_around(400.0, 100.0), POINTS[0], "the most");
        // A flat ellipse is twice its length around.
        assert_eq!(points_around(6.0, 0.0), 8);
        assert_eq!(points_around(f32::NAN, 1.0), POINTS[1]);
        for a in 0..200 {
            assert_eq!(points_around(a as f32 * 0.37, 1.0) % 2, 0, "{a}");
        }
    }

    #[test]
    fn only_ellipses_facing_the_eye_show() {
        let eye = Vec3::Z * 10.0;
        assert!(faces(eye, Vec3::ZERO, Vec3::Z));
        assert!(!faces(eye, Vec3::ZERO, Vec3::X), "seen edge on");
        assert!(
            faces(eye, Vec3::ZERO, Vec3::ZERO),
            "a collapsed normal cannot tell"
        );
        assert!(!faces(eye, Vec3::NAN, Vec3::Z));
    }
}
