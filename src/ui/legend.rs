//! Weight colours: the heat map ramp and its legend.

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
    ui.horizontal(|ui| {
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
