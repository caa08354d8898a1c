//! The vertex inspector: one vertex's partial positions, their weighted sum, and the
//! same point through the blended matrix, as text and as ghost dots in the viewport.

use super::Viewport;
use egui::{Color32, RichText, Ui};
use glam::Vec3;
use skin::explain::steps::VertexBreakdown;

/// How an inspector names and colours things on one page.
pub struct InspectStyle<'a> {
    /// What the palette holds, e.g. `gradient` (or `world` when the inverse bind is off).
    pub matrix_name: &'a str,
    /// A bone's short name, e.g. `b1`.
    pub bone_name: &'a dyn Fn(usize) -> String,
    /// A bone's colour.
    pub bone_color: &'a dyn Fn(usize) -> Color32,
    /// 2 to write (x, y), 3 to write (x, y, z).
    pub dims: usize,
    /// Decimals of each coordinate: 2 for the lessons' rigs, more for a model whose
    /// numbers are small ([`super::matrix::decimals_for`]).
    pub decimals: usize,
}

impl InspectStyle<'_> {
    /// A point written with this page's number of components.
    pub fn point(&self, v: Vec3) -> String {
        let c = v.to_array();
        let parts: Vec<String> = c[..self.dims.clamp(1, 3)]
            .iter()
            .map(|x| super::matrix::fixed(*x, self.decimals))
            .collect();
        format!("({})", parts.join(", "))
    }
}

/// The working for one vertex: each weight times its partial position, the sum, and
/// the blended matrix applied to the bind position.
pub fn breakdown_ui(ui: &mut Ui, b: &VertexBreakdown, style: &InspectStyle) {
    // Weights as they are, to four decimals where two would round them (a file's
    // 0.6507), so the products can be checked by hand.
    let decimals =
        if (b.parts.iter()).all(|(_, w, _)| (super::numbers::rounded(*w, 2) - w).abs() < 1e-6) {
            2
        } else {
            4
        };
    for (joint, weight, partial) in &b.parts {
        let weight = super::matrix::fixed(*weight, decimals);
        let color = super::legible(ui, (style.bone_color)(*joint));
        let part = |text: String| RichText::new(text).monospace().color(color).into();
        // A narrow column breaks the line after "=", never inside the point.
        super::unbroken_ui(
            ui,
            &[
                part(format!(
                    "{weight} × ({} {} · v) = ",
                    style.matrix_name,
                    (style.bone_name)(*joint)
                )),
                part(format!("{weight} × {}", style.point(*partial))),
            ],
            false,
        );
    }
    let sum = style.point(b.sum);
    crate::ui::listing::lines_ui(ui, &format!("weighted sum = {sum}"), |t| t.strong());
    // The rows as printed, multiplied and added by hand, can land a digit away from
    // the sum of the unrounded rows: say which is which, so the student's sum is not
    // taken for a slip. (Not in a focused cell: a projector's slide has no room.)
    let round = super::numbers::rounded;
    let by_hand: Vec3 = (b.parts.iter())
        .map(|(_, w, partial)| round(*w, decimals) * partial.map(|c| round(c, style.decimals)))
        .sum();
    let by_hand = style.point(by_hand);
    if by_hand != sum && !super::focused_cell(ui.ctx()) {
        ui.label(
            RichText::new(format!(
                "The rows as printed give {by_hand}: each row is rounded, and the sum is of \
                 the unrounded rows."
            ))
            .weak(),
        );
    }
    crate::ui::mono_ui(
        ui,
        format!(
            "blended matrix · v = {}",
            style.point(b.blended.transform_point3(b.bind))
        ),
    );
}

/// Ghost dots at each partial position, joined to the skinned vertex and labelled with
/// the bone and its weight, the labels clear of what the viewport already labelled.
pub fn partials_overlay(ui: &Ui, vp: &Viewport, b: &VertexBreakdown, style: &InspectStyle) {
    let painter = ui.painter_at(vp.rect());
    let Some(end) = vp.to_screen(b.sum) else {
        return;
    };
    let dots: Vec<_> = b
        .parts
        .iter()
        .filter_map(|(joint, weight, partial)| Some((*joint, *weight, vp.to_screen(*partial)?)))
        .collect();
    for (joint, _, at) in &dots {
        let c = (style.bone_color)(*joint);
        painter.line_segment([*at, end], egui::Stroke::new(1.0, c.gamma_multiply(0.6)));
        // Ringed in white and dark grey, so that a dot on a skin of its own colour (the
        // forearm's, inside the blue tube) still shows.
        painter.circle(*at, 6.5, c, egui::Stroke::new(2.0, Color32::from_gray(30)));
        painter.circle_stroke(*at, 8.0, egui::Stroke::new(1.5, Color32::WHITE));
        vp.block(egui::Rect::from_center_size(*at, egui::Vec2::splat(17.0)));
    }
    for (joint, weight, at) in &dots {
        let galley = painter.layout_no_wrap(
            format!("{} × {weight:.2}", (style.bone_name)(*joint)),
            egui::FontId::proportional(13.0),
            Color32::from_gray(40),
        );
        // A pale card keeps the label readable over a coloured skin.
        vp.label_galley(
            *at,
            galley,
            7.0,
            egui::vec2(1.0, -1.0),
            Some(Color32::from_white_alpha(190)),
        );
    }
}
