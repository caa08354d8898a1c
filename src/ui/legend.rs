//! Keys: the heat map's ramp and its legend, and the key under a plot.

use egui::{Color32, Ui};

/// The ramp from weight 0 to weight 1: blue, cyan, green, yellow, red (as weight
/// painting tools show it).
const RAMP: [Color32; 5] = [
    Color32::from_rgb(30, 60, 220),
    Color32::from_rgb(30, 200, 220),
    Color32::from_rgb(40, 200, 60),
    Color32::from_rgb(240, 220, 40),
    Color32::from_rgb(230, 40, 30),
];

/// The heat map colour of a weight; values outside 0..1 (and NaN) are clamped.
pub fn heat_color(weight: f32) -> Color32 {
    let w = if weight.is_nan() {
        0.0
    } else {
        weight.clamp(0.0, 1.0)
    };
    let x = w * (RAMP.len() - 1) as f32;
    let i = (x.floor() as usize).min(RAMP.len() - 2);
    RAMP[i].lerp_to_gamma(RAMP[i + 1], x - i as f32)
}

/// A horizontal bar from 0 (blue) to 1 (red) with its ends labelled.
pub fn weight_legend_ui(ui: &mut Ui) {
    ui.horizontal_wrapped(|ui| {
        ui.label("weight 0");
        let (rect, _) = ui.allocate_exact_size(egui::vec2(160.0, 14.0), egui::Sense::hover());
        let steps = 32;
        for k in 0..steps {
            let x0 = rect.left() + rect.width() * k as f32 / steps as f32;
            let x1 = rect.left() + rect.width() * (k + 1) as f32 / steps as f32;
            let r = egui::Rect::from_min_max(
                egui::pos2(x0, rect.top()),
                egui::pos2(x1 + 0.5, rect.bottom()),
            );
            ui.painter()
                .rect_filled(r, 0.0, heat_color((k as f32 + 0.5) / steps as f32));
        }
        ui.label("1");
    });
}

/// How a plot's key marks an entry: as its line, or as its points.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mark {
    Line,
    Dot,
}

/// The key under a plot: each entry's mark in its colour, then its name, wrapped as
/// words are. Plain text, not a control: egui_plot's own legend hides a line on a click,
/// but its entries are a line of text high, too small for a finger (44 points on a
/// touch screen), and inside the plot they cover the curves where they run.
pub fn plot_key_ui(ui: &mut Ui, entries: &[(&str, Color32, Mark)]) {
    ui.horizontal_wrapped(|ui| {
        ui.spacing_mut().item_spacing.x *= 3.0;
        for &(name, color, mark) in entries {
            // The mark and the name as one piece, so that a row ends between entries.
            let galley = egui::WidgetText::from(name).into_galley(
                ui,
                Some(egui::TextWrapMode::Extend),
                f32::INFINITY,
                egui::TextStyle::Body,
            );
            let height = galley.size().y;
            let mark_width = 1.4 * height;
            let size = egui::vec2(mark_width + galley.size().x, height);
            let (rect, response) = ui.allocate_exact_size(size, egui::Sense::hover());
            let mark_rect = egui::Rect::from_min_size(rect.min, egui::vec2(height, height));
            let painter = ui.painter();
            match mark {
                Mark::Line => painter.line_segment(
                    [mark_rect.left_center(), mark_rect.right_center()],
                    egui::Stroke::new(3.0, color),
                ),
                Mark::Dot => painter.circle_filled(mark_rect.center(), height * 0.25, color),
            };
            let text = egui::pos2(rect.left() + mark_width, rect.top());
            painter.galley(text, galley, ui.visuals().text_color());
            response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Label, true, name));
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ends_are_blue_and_red_and_bad_input_is_clamped() {
        assert_eq!(heat_color(0.0), RAMP[0]);
        assert_eq!(heat_color(1.0), RAMP[4]);
        assert_eq!(heat_color(0.5), RAMP[2]);
        assert_eq!(heat_color(-3.0), RAMP[0]);
        assert_eq!(heat_color(7.0), RAMP[4]);
        assert_eq!(heat_color(f32::NAN), RAMP[0]);
    }
}
