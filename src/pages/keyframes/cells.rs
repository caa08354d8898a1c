//! The keyframes page's notebook cells.

use super::data::{DURATION, arm_keys};
use super::{Cell, JOINT_NAMES, KeyframesPage, SPEED_RANGE};
use crate::ui::matrix::{matrix_view_ui, quat_text, vec3_text};
use crate::ui::{mono_ui, sideways_ui};
use egui::{Color32, RichText, Ui};
use skin::clip::{Channel, Sample};

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
            Cell::Check => self.check_cell_ui(ui),
        }
    }

    fn player_ui(&mut self, ui: &mut Ui) {
        ui.horizontal(|ui| {
            let label = if self.playing { "Pause" } else { "Play" };
            if ui.button(label).clicked() {
                self.playing = !self.playing;
            }
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
        ui.horizontal(|ui| {
            ui.label("Joint:");
            for (j, name) in JOINT_NAMES.iter().enumerate() {
                if ui.selectable_label(self.joint == j, *name).clicked() {
                    self.joint = j;
                }
            }
        });
        let keys = &arm_keys()[self.joint.min(1)];
        if let Some(time) = timeline_ui(ui, [&keys.rotation, &keys.translation], self.time) {
            self.time = time;
            self.playing = false;
        }
    }

    fn sample_ui(&mut self, ui: &mut Ui) {
        let keys = &arm_keys()[self.joint.min(1)];
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
            (key_text(key), key_text(next))
        };
        let (r0, r1) = around(&keys.rotation, r.key, r.next);
        let (t0, t1) = around(&keys.translation, t.key, t.next);
        let text = format!(
            "{} at τ = {:.2} s\n\nrotation keys    {r0}\n                 {r1}\nfactor u = (τ − t0) / (t1 − t0) = {:.3}\nslerp            {}\n\ntranslation keys {t0}\n                 {t1}\nfactor u = {:.3}\nlerp             {}",
            JOINT_NAMES[self.joint.min(1)],
            self.time,
            r.u,
            quat_text(sample.rotation),
            t.u,
            vec3_text(sample.translation),
        );
        mono_ui(ui, text);
        ui.label("Local matrix = T(translation) · R(rotation): rotate first, then move.");
        sideways_ui(ui, "keyframe_local", |ui| {
            matrix_view_ui(ui, "keyframe_local", &sample.matrix)
        });
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
    (response.clicked() || response.dragged()).then(|| {
        ((pointer.x - rect.left() - 8.0) / (rect.width() - 16.0) * DURATION).clamp(0.0, DURATION)
    })
}
