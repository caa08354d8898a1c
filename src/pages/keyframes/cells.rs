//! The keyframes page's notebook cells.

use super::data::{DURATION, INTERPOLATIONS, arm_keys};
use super::{Cell, JOINT_NAMES, KeyframesPage, SPEED_RANGE};
use crate::ui::legend::{Mark, plot_key_ui};
use crate::ui::matrix::{matrix_view_ui, quat_text, vec3_text};
use crate::ui::{mono_ui, sideways_ui};
use egui::{Color32, RichText, Ui};
use egui_plot::{Line, Points, VLine};
use skin::clip::{Channel, Interpolation, Sample, Segment, hermite};

/// The colour of each interpolation's curve, in [`INTERPOLATIONS`] order.
const CURVE_COLORS: [Color32; 3] = [
    Color32::from_rgb(200, 60, 60),
    Color32::from_rgb(60, 140, 220),
    Color32::from_rgb(60, 170, 90),
];

/// Rotation keys on the timeline (circles).
const ROTATION_KEY: Color32 = Color32::from_rgb(40, 110, 220);
/// Translation keys on the timeline (squares).
const TRANSLATION_KEY: Color32 = Color32::from_rgb(230, 150, 20);

impl KeyframesPage {
    pub(super) fn page_cell_ui(&mut self, cell: Cell, ui: &mut Ui) {
        self.scroll_to.cell_ui(cell.into(), ui);
        match cell {
            Cell::Player => self.player_ui(ui),
            Cell::Sample => self.sample_ui(ui),
            Cell::Curves => self.curves_ui(ui),
            Cell::Check => self.check_cell_ui(ui),
        }
    }

    fn player_ui(&mut self, ui: &mut Ui) {
        ui.horizontal_wrapped(|ui| {
            crate::ui::play_button_ui(ui, &mut self.playing);
            ui.add(
                egui::Slider::new(&mut self.speed, SPEED_RANGE)
                    .text("speed")
                    .max_decimals(2),
            );
        });
        if ui
            .add(egui::Slider::new(&mut self.time, 0.0..=DURATION).text("time (s)"))
            .changed()
        {
            self.playing = false;
        }
        ui.horizontal_wrapped(|ui| {
            ui.label("Joint:");
            for (j, name) in JOINT_NAMES.iter().enumerate() {
                if ui.selectable_label(self.joint == j, *name).clicked() {
                    self.joint = j;
                }
            }
        });
        self.interpolation_ui(ui);
        let keys = &arm_keys(self.interpolation)[self.joint.min(1)];
        if let Some(time) = timeline_ui(ui, [&keys.rotation, &keys.translation], self.time) {
            self.time = time;
            self.playing = false;
        }
    }

    fn sample_ui(&mut self, ui: &mut Ui) {
        let keys = &arm_keys(self.interpolation)[self.joint.min(1)];
        let sample = self.samples()[self.joint.min(1)];
        let (r, t) = (sample.rotation_keys, sample.translation_keys);
        // The key before and the key after; the same key twice where it holds.
        let around = |channel: &Channel, key: usize, next: usize| {
            let key_text = |k: usize| {
                channel.key(k).map_or("none".to_owned(), |(time, value)| {
                    let value = match value {
                        Sample::Rotation(q) => quat_text(q),
                        Sample::Translation(v) | Sample::Scale(v) => vec3_text(v),
                    };
                    format!("{time:.2} s  {value}")
                })
            };
            let after = if next == key {
                let (first, last) = (key == 0, channel.key(key + 1).is_none());
                match (first, last) {
                    (true, true) => "(the only key: it holds)",
                    (true, false) => "(τ is at or before the first key: it holds)",
                    _ => "(τ is at or after the last key: it holds)",
                }
                .to_owned()
            } else {
                key_text(next)
            };
            (key_text(key), after)
        };
        let (r0, r1) = around(&keys.rotation, r.key, r.next);
        let (t0, t1) = around(&keys.translation, t.key, t.next);
        // How the interpolation fills in between, for a factor u. A cubic spline also
        // shows the tangents its curve multiplies (out of key 0, into key 1), scaled by
        // the key spacing, so the four weights can be checked by hand.
        let how = |channel: &Channel, segment: Segment, rotation: bool| match self.interpolation {
            Interpolation::Step => "STEP holds key 0".to_owned(),
            _ if segment.key == segment.next => "one key around τ: it holds".to_owned(),
            Interpolation::Linear if rotation => "slerp".to_owned(),
            Interpolation::Linear => "lerp".to_owned(),
            Interpolation::CubicSpline => {
                let h = hermite(segment.u).map(|h| format!("{h:.3}"));
                let time = |k: usize| channel.key(k).map_or(0.0, |(time, _)| time);
                let dt = time(segment.next) - time(segment.key);
                let scaled = |tangent: Option<Sample>| match tangent {
                    Some(Sample::Rotation(q)) => quat_text(q * dt),
                    Some(Sample::Translation(v) | Sample::Scale(v)) => vec3_text(v * dt),
                    None => "none".to_owned(),
                };
                let out0 = scaled(channel.tangents(segment.key).map(|(_, out)| out));
                let in1 = scaled(channel.tangents(segment.next).map(|(into, _)| into));
                let mut text = format!(
                    "Δt = t1 − t0 = {dt:.2} s\nΔt · out0 = {out0}\nΔt · in1  = {in1}\n\
                     Hermite (h00, h10, h01, h11) = ({})\n\
                     = h00 · key0 + h10 · Δt · out0 + h01 · key1 + h11 · Δt · in1",
                    h.join(", ")
                );
                // A rotation's sum is not unit length: show it, then the division.
                let quat = |s: Option<Sample>| match s {
                    Some(Sample::Rotation(q)) => Some(q),
                    _ => None,
                };
                let key = |k: usize| quat(channel.key(k).map(|(_, s)| s));
                if let (true, Some(k0), Some(k1), Some(o), Some(i)) = (
                    rotation,
                    key(segment.key),
                    key(segment.next),
                    quat(channel.tangents(segment.key).map(|(_, out)| out)),
                    quat(channel.tangents(segment.next).map(|(into, _)| into)),
                ) {
                    let [h00, h10, h01, h11] = hermite(segment.u);
                    let sum = k0 * h00 + o * (dt * h10) + k1 * h01 + i * (dt * h11);
                    let length = sum.length();
                    text += &format!(
                        "\n= {} (length {length:.3})\nnormalised, ÷ {length:.3}:",
                        quat_text(sum)
                    );
                }
                text
            }
        };
        let text = format!(
            "{} at τ = {:.2} s, {}\nrotations as quaternions, (x, y, z, w)\n\nrotation keys    {r0}\n                 {r1}\nfactor u = (τ − t0) / (t1 − t0) = {:.3}\n{}\nrotation         {}\n\ntranslation keys {t0}\n                 {t1}\nfactor u = {:.3}\n{}\ntranslation      {}",
            JOINT_NAMES[self.joint.min(1)],
            self.time,
            self.interpolation.name(),
            r.u,
            how(&keys.rotation, r, true),
            quat_text(sample.rotation),
            t.u,
            how(&keys.translation, t, false),
            vec3_text(sample.translation),
        );
        mono_ui(ui, text);
        ui.label("Local matrix = T(translation) · R(rotation): rotate first, then move.");
        sideways_ui(ui, "keyframe_local", |ui| {
            matrix_view_ui(ui, "keyframe_local", &sample.matrix)
        });
    }
}

impl KeyframesPage {
    /// One button per interpolation; the arm, the cells and the plot follow the one
    /// picked.
    fn interpolation_ui(&mut self, ui: &mut Ui) {
        ui.horizontal_wrapped(|ui| {
            ui.label("Between keys:");
            for (interpolation, _) in INTERPOLATIONS {
                if ui
                    .selectable_label(self.interpolation == interpolation, interpolation.name())
                    .clicked()
                {
                    self.interpolation = interpolation;
                }
            }
        });
    }

    /// The shoulder's height over the clip under each interpolation, the one picked
    /// drawn thickest, with its keys and the current time.
    fn curves_ui(&mut self, ui: &mut Ui) {
        self.interpolation_ui(ui);
        const STEPS: usize = 200;
        let height = |interpolation: Interpolation, time: f32| {
            arm_keys(interpolation)[0].sample(time).translation.y as f64
        };
        let keys = &arm_keys(Interpolation::Linear)[0].translation;
        let key_points: Vec<[f64; 2]> = (0..keys.key_count())
            .filter_map(|k| keys.key(k))
            .filter_map(|(time, value)| match value {
                Sample::Translation(v) => Some([time as f64, v.y as f64]),
                _ => None,
            })
            .collect();
        let shown = crate::ui::plot("keyframe_curves")
            .height(180.0)
            .x_axis_label("time (s)")
            .y_axis_label("shoulder height y")
            .include_y(0.0)
            .include_y(1.1)
            .show(ui, |plot| {
                for ((interpolation, _), color) in INTERPOLATIONS.into_iter().zip(CURVE_COLORS) {
                    let points: Vec<[f64; 2]> = (0..=STEPS)
                        .map(|i| {
                            let time = DURATION * i as f32 / STEPS as f32;
                            [time as f64, height(interpolation, time)]
                        })
                        .collect();
                    let width = if interpolation == self.interpolation {
                        4.0
                    } else {
                        1.5
                    };
                    plot.line(
                        Line::new(interpolation.name(), points)
                            .color(color)
                            .width(width),
                    );
                }
                plot.points(
                    Points::new("keys", key_points)
                        .radius(5.0)
                        .color(TRANSLATION_KEY),
                );
                plot.vline(VLine::new("τ", self.time as f64).color(Color32::GRAY));
            });
        crate::ui::name_plot(&shown.response, || {
            "Plot: the shoulder's height against time, by each interpolation, with the keys as dots"
                .to_owned()
        });
        let mut key: Vec<(&str, Color32, Mark)> = INTERPOLATIONS
            .into_iter()
            .zip(CURVE_COLORS)
            .map(|((interpolation, _), color)| (interpolation.name(), color, Mark::Line))
            .collect();
        key.push(("keys", TRANSLATION_KEY, Mark::Dot));
        key.push(("τ", Color32::GRAY, Mark::Line));
        plot_key_ui(ui, &key);
        ui.label(format!(
            "At τ = {:.2} s the shoulder is at height {:.3} under {}.",
            self.time,
            height(self.interpolation, self.time),
            self.interpolation.name()
        ));
    }
}

/// Marks on a timeline: one row for the rotation keys (circles), one for the
/// translation keys (squares), and the current time as a line. A click or a drag on it
/// scrubs; returns the time picked.
fn timeline_ui(ui: &mut Ui, [rotation, translation]: [&Channel; 2], time: f32) -> Option<f32> {
    let width = ui.available_width();
    let (rect, response) =
        ui.allocate_exact_size(egui::vec2(width, 44.0), egui::Sense::click_and_drag());
    let painter = ui.painter_at(rect);
    let visuals = ui.visuals();
    painter.rect_filled(rect, 3.0, visuals.extreme_bg_color);
    let x = |t: f32| rect.left() + 8.0 + (rect.width() - 16.0) * t / DURATION;
    let (rot_y, pos_y) = (rect.top() + 14.0, rect.bottom() - 14.0);
    let ink = visuals.text_color();
    painter.line_segment(
        [egui::pos2(x(0.0), rot_y), egui::pos2(x(DURATION), rot_y)],
        (1.0, ink),
    );
    painter.line_segment(
        [egui::pos2(x(0.0), pos_y), egui::pos2(x(DURATION), pos_y)],
        (1.0, ink),
    );
    for &t in &rotation.times {
        painter.circle_filled(egui::pos2(x(t), rot_y), 5.0, ROTATION_KEY);
    }
    for &t in &translation.times {
        let c = egui::pos2(x(t), pos_y);
        painter.rect_filled(
            egui::Rect::from_center_size(c, egui::vec2(9.0, 9.0)),
            1.0,
            TRANSLATION_KEY,
        );
    }
    let now = x(time.clamp(0.0, DURATION));
    painter.line_segment(
        [
            egui::pos2(now, rect.top() + 2.0),
            egui::pos2(now, rect.bottom() - 2.0),
        ],
        (2.0, Color32::from_rgb(200, 40, 40)),
    );
    response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Slider, true, "timeline"));
    ui.label(
        RichText::new(
            "Keys: rotation (circles, top), translation (squares, bottom). Click or drag to scrub.",
        )
        .small(),
    );
    let pointer = response.interact_pointer_pos()?;
    // To the hundredth of a second, as the time field shows it: a pixel is finer than
    // that, and the link and the sample cell then read 2.99, not 2.9937108.
    (response.clicked() || response.dragged()).then(|| {
        let time = (pointer.x - rect.left() - 8.0) / (rect.width() - 16.0) * DURATION;
        crate::ui::numbers::rounded(time, 2).clamp(0.0, DURATION)
    })
}
