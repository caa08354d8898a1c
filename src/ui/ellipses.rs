//! Deformation ellipses drawn over a viewport: each one a small circle on the surface at
//! rest, carried by its vertex's transform (`skin::explain::ellipse`), coloured by how much its
//! area grew or shrank, with a key in the corner. Shared by the pages that show them.
//! The scene's renderer draws the outlines (`shaders/ellipse.vert`); the key is egui's.

use super::{Viewport, rgba};
use egui::{Color32, Rect, Ui, pos2, vec2};
use glam::Vec3;
use scene::{EllipseOutline, Scene};
use skin::explain::ellipse::Ellipse;

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

/// Adds each `(center, ellipse)` to `scene` as the outline of a circle of `radius`
/// (world units) carried by the ellipse's map, coloured by its area ratio.
pub fn add(scene: &mut Scene, glyphs: &[(Vec3, Ellipse)], radius: f32) {
    scene
        .ellipses
        .extend(glyphs.iter().map(|(center, ellipse)| EllipseOutline {
            center: *center,
            major: radius * ellipse.major,
            minor: radius * ellipse.minor,
            color: rgba(area_color(ellipse.area_ratio())),
        }));
}

/// Draws the colour key in the viewport's top left corner, which labels and framing
/// then keep off.
pub fn legend_ui(ui: &Ui, vp: &Viewport) {
    vp.block_note(ui, legend(&ui.painter_at(vp.rect()), vp.rect()));
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
