//! Keys: the heat map's ramp and its legend, and the key under a plot.

use egui::{Color32, Ui};

/// The ramp from weight 0 to weight 1: viridis (dark purple, blue, teal, green, yellow),
/// at nine even steps. Its lightness rises all the way, so it reads in the same order
/// with every common colour blindness and in grey; the test below proves it.
const RAMP: [Color32; 9] = [
    Color32::from_rgb(0x44, 0x01, 0x54),
    Color32::from_rgb(0x48, 0x28, 0x78),
    Color32::from_rgb(0x3e, 0x49, 0x89),
    Color32::from_rgb(0x31, 0x68, 0x8e),
    Color32::from_rgb(0x26, 0x82, 0x8e),
    Color32::from_rgb(0x1f, 0x9e, 0x89),
    Color32::from_rgb(0x35, 0xb7, 0x79),
    Color32::from_rgb(0x6e, 0xce, 0x58),
    Color32::from_rgb(0xfd, 0xe7, 0x25),
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

/// A horizontal bar from 0 (dark purple) to 1 (yellow) with its ends labelled.
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
    use super::{RAMP, heat_color};
    use egui::Color32;

    #[test]
    fn ends_are_the_ramps_ends_and_bad_input_is_clamped() {
        let last = RAMP.len() - 1;
        assert_eq!(heat_color(0.0), RAMP[0]);
        assert_eq!(heat_color(1.0), RAMP[last]);
        assert_eq!(heat_color(0.5), RAMP[last / 2]);
        assert_eq!(heat_color(-3.0), RAMP[0]);
        assert_eq!(heat_color(7.0), RAMP[last]);
        assert_eq!(heat_color(f32::NAN), RAMP[0]);
    }

    /// Machado, Oliveira and Fernandes, "A Physiologically-based Model for Simulation of
    /// Color Vision Deficiency" (2009): full severity, on linear RGB.
    const PROTAN: [[f32; 3]; 3] = [
        [0.152286, 1.052583, -0.204868],
        [0.114503, 0.786281, 0.099216],
        [-0.003882, -0.048116, 1.051998],
    ];
    const DEUTAN: [[f32; 3]; 3] = [
        [0.367322, 0.860646, -0.227968],
        [0.280085, 0.672501, 0.047413],
        [-0.011820, 0.042940, 0.968881],
    ];
    const TRITAN: [[f32; 3]; 3] = [
        [1.255528, -0.076749, -0.178779],
        [-0.078411, 0.930809, 0.147602],
        [0.004733, 0.691367, 0.303900],
    ];
    const NORMAL: [[f32; 3]; 3] = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]];
    const VISIONS: [(&str, [[f32; 3]; 3]); 4] = [
        ("normal", NORMAL),
        ("protanopia", PROTAN),
        ("deuteranopia", DEUTAN),
        ("tritanopia", TRITAN),
    ];

    /// CIELAB (D65) of `color` as seen through `vision`.
    fn lab(color: Color32, vision: [[f32; 3]; 3]) -> [f32; 3] {
        let linear = egui::Rgba::from(color);
        let rgb = [linear.r(), linear.g(), linear.b()];
        let seen = vision.map(|row| (0..3).map(|i| row[i] * rgb[i]).sum::<f32>().clamp(0.0, 1.0));
        let [r, g, b] = seen;
        let xyz = [
            (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047,
            0.2126 * r + 0.7152 * g + 0.0722 * b,
            (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883,
        ];
        let f = |t: f32| {
            if t > 0.008856 {
                t.cbrt()
            } else {
                7.787 * t + 16.0 / 116.0
            }
        };
        let [x, y, z] = xyz.map(f);
        [116.0 * y - 16.0, 500.0 * (x - y), 200.0 * (y - z)]
    }

    /// CIE76 colour difference.
    fn delta_e(a: [f32; 3], b: [f32; 3]) -> f32 {
        (0..3).map(|i| (a[i] - b[i]).powi(2)).sum::<f32>().sqrt()
    }

    #[test]
    fn the_heat_map_keeps_neighbouring_weights_apart_with_every_colour_blindness() {
        let weights = [0.0, 0.25, 0.5, 0.75, 1.0];
        for (name, vision) in VISIONS {
            let seen = weights.map(|w| lab(heat_color(w), vision));
            for i in 1..weights.len() {
                let d = delta_e(seen[i - 1], seen[i]);
                assert!(
                    d >= 10.0,
                    "{name}: weights {} and {} are {d:.1} apart (ΔE76), under 10",
                    weights[i - 1],
                    weights[i]
                );
                // And in order: lighter as the weight rises, so that "more" reads the
                // same way without hue.
                assert!(
                    seen[i][0] > seen[i - 1][0],
                    "{name}: weight {} is not lighter than {}",
                    weights[i],
                    weights[i - 1]
                );
            }
        }
    }

    /// The viewport's axes (`ui::AXIS_COLORS`, the scene's `AXIS_RGB`): every pair far
    /// apart with every colour blindness, x and y of different lightness, and each
    /// visible at 3:1 (WCAG 1.4.11) on the light viewports and on the dark ones.
    #[test]
    fn the_axis_colours_stay_apart_with_every_colour_blindness() {
        use crate::ui::{AXIS_COLORS, contrast};
        let axes = [AXIS_COLORS[0], AXIS_COLORS[1], AXIS_COLORS[2]];
        for (name, vision) in VISIONS {
            let seen = axes.map(|c| lab(c, vision));
            for (i, j) in [(0, 1), (0, 2), (1, 2)] {
                let d = delta_e(seen[i], seen[j]);
                assert!(
                    d >= 20.0,
                    "{name}: axes {i} and {j} are {d:.1} apart (ΔE76)"
                );
            }
        }
        let [x, y, _] = axes.map(|c| lab(c, NORMAL)[0]);
        assert!(
            y - x >= 10.0,
            "x (L* {x:.0}) and y (L* {y:.0}) differ in hue alone"
        );
        // The viewports' backgrounds: the light pages' two, and the dark pages'.
        let backgrounds = [[0.95, 0.95, 0.94], [0.97, 0.97, 0.96], [0.09, 0.09, 0.11]]
            .map(|[r, g, b]| crate::ui::color32([r, g, b, 1.0]));
        for axis in axes {
            for background in backgrounds {
                let ratio = contrast(axis, background);
                assert!(ratio >= 3.0, "{axis:?} on {background:?}: {ratio:.2}:1");
            }
        }
    }

    #[test]
    fn the_simulation_merges_red_and_green_for_a_deutan() {
        // The check above can fail: the red-green pair it guards against is under
        // ΔE 10 through the deutan matrix, and far apart through normal vision.
        let (red, green) = (
            Color32::from_rgb(230, 40, 30),
            Color32::from_rgb(150, 130, 0),
        );
        assert!(delta_e(lab(red, DEUTAN), lab(green, DEUTAN)) < 10.0);
        assert!(delta_e(lab(red, NORMAL), lab(green, NORMAL)) > 40.0);
    }
}
