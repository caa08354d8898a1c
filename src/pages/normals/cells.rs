//! The normals page's notebook cells.

use super::Cell;
use super::data;
use super::view::{NORMAL_COLOR, TANGENT_COLOR, arm_label};
use super::{MAX_BEND, NormalsPage, SCALE_RANGE, Show};
use crate::link::Named;
use crate::skin::normals::{NormalMethod, TangentSteps, angle_degrees};
use crate::ui::matrix::{two_mat3_text, vec3_text as vec3};
use crate::ui::{angle_slider_ui, error_ui, mono_ui, sideways_ui};
use egui::{Color32, RichText, Ui};
use egui_plot::{Legend, Line, Plot, VLine};
use glam::{Mat3, Mat4};

/// The colour of the naive arm's curves and labels.
const NAIVE_COLOR: Color32 = Color32::from_rgb(200, 60, 40);

impl NormalsPage {
    pub(super) fn page_cell_ui(&mut self, cell: Cell, ui: &mut Ui) {
        self.scroll_to.cell_ui(cell.into(), ui);
        match cell {
            Cell::Compare => self.compare_ui(ui),
            Cell::Error => self.error_ui(ui),
            Cell::Tangent => self.tangent_ui(ui),
            Cell::Check => self.check_cell_ui(ui),
        }
    }

    fn scale_slider_ui(&mut self, ui: &mut Ui) {
        ui.add(
            egui::Slider::new(&mut self.scale, SCALE_RANGE)
                .logarithmic(true)
                .text("forearm scale across the bone (y)")
                .max_decimals(2),
        );
    }

    fn compare_ui(&mut self, ui: &mut Ui) {
        ui.horizontal(|ui| {
            ui.label("Draw:");
            for &show in Show::ALL {
                let label = match show {
                    Show::Naive => "M · n",
                    Show::InverseTranspose => "(M⁻¹)^T · n",
                    Show::Both => "both",
                };
                let label = RichText::new(label).monospace();
                if ui.selectable_label(self.show == show, label).clicked() {
                    self.show = show;
                }
            }
        });
        self.scale_slider_ui(ui);
        let max = MAX_BEND.to_degrees();
        angle_slider_ui(ui, &mut self.bend, -max..=max, "elbow bend", 0);
        ui.horizontal(|ui| {
            ui.checkbox(&mut self.show_lines, "Normal and tangent lines");
            ui.colored_label(NORMAL_COLOR, "normals");
            ui.colored_label(TANGENT_COLOR, "tangents");
        });
        // The forearm alone (weight 1): its palette matrix and what normals need.
        let forearm = self.palette().get(1).copied().unwrap_or(Mat4::IDENTITY);
        let m = Mat3::from_mat4(forearm);
        let text = two_mat3_text(
            ("M (forearm, 3×3 part)", &m),
            ("(M⁻¹)^T", &m.inverse().transpose()),
        );
        mono_ui(ui, text);
        let s = self.scale;
        ui.label(format!(
            "M = R · S with S = diag(1, {s:.2}, 1). Its inverse transpose is R · diag(1, 1/{s:.2}, 1): the normal is scaled by 1/{s:.2} where the surface is scaled by {s:.2}."
        ));
    }

    fn error_ui(&mut self, ui: &mut Ui) {
        let (max, mean) = self.error_curves();
        let (now_max, now_mean) = data::angle_error(&self.palette(), &self.assets.limb.skin);
        ui.label(format!(
            "At scale {:.2}: the naive normals are off by up to {now_max:.1}° (mean {now_mean:.1}° over the arm).",
            self.scale
        ));
        Plot::new("normal_angle_error")
            .height(180.0)
            .legend(Legend::default())
            .x_axis_label("forearm scale across the bone")
            .y_axis_label("angle error (°)")
            .allow_drag(false)
            .allow_scroll(false)
            .allow_zoom(false)
            .include_y(0.0)
            .show(ui, |plot| {
                plot.line(
                    Line::new("largest", max.to_vec())
                        .color(NAIVE_COLOR)
                        .width(2.0),
                );
                plot.line(
                    Line::new("mean", mean.to_vec())
                        .color(Color32::from_rgb(120, 120, 120))
                        .width(2.0),
                );
                plot.vline(
                    VLine::new("now", self.scale as f64).color(Color32::from_rgb(40, 110, 220)),
                );
            });
        self.scale_slider_ui(ui);
    }

    fn tangent_ui(&mut self, ui: &mut Ui) {
        let count = self.vertex_count();
        let mut vertex = self.vertex.unwrap_or(super::DEFAULT_VERTEX);
        ui.horizontal(|ui| {
            ui.label("Vertex:");
            let response =
                ui.add(egui::DragValue::new(&mut vertex).range(0..=count.saturating_sub(1)));
            response
                .widget_info(|| egui::WidgetInfo::labeled(egui::Role::SpinButton, true, "vertex"));
            if response.changed() {
                self.vertex = Some(vertex);
            }
            ui.label(RichText::new("(or click one in the viewport)").weak());
        });
        let palette = self.palette();
        let methods: Vec<NormalMethod> = self.show.arms().iter().map(|(m, _)| *m).collect();
        let steps: Vec<(NormalMethod, TangentSteps)> = methods
            .iter()
            .filter_map(|m| {
                data::tangent_steps(&palette, &self.assets.limb.skin, vertex, *m).map(|s| (*m, s))
            })
            .collect();
        let Some((_, first)) = steps.first() else {
            error_ui(ui, format!("vertex {vertex} has no normal and tangent"));
            return;
        };
        mono_ui(
            ui,
            format!(
                "bind normal n = {}\nbind tangent t = {}",
                vec3(first.bind_normal),
                vec3(first.bind_tangent)
            ),
        );
        sideways_ui(ui, "tangent_steps", |ui| {
            egui::Grid::new("tangent_steps")
                .striped(true)
                .spacing([12.0, 4.0])
                .show(ui, |ui| {
                    ui.label("");
                    for (m, _) in &steps {
                        ui.label(RichText::new(arm_label(*m)).strong().monospace());
                    }
                    ui.end_row();
                    type Row = (&'static str, fn(&TangentSteps) -> String);
                    let rows: [Row; 6] = [
                        ("1. N = normalize(normal)", |s| vec3(s.normal)),
                        ("2. T = normalize(M · t)", |s| vec3(s.carried)),
                        ("3. T · N", |s| format!("{:.5}", s.dot + 0.0)),
                        ("   angle(T, N)", |s| {
                            format!("{:.2}°", angle_degrees(s.carried, s.normal))
                        }),
                        ("4. T − (T · N) N", |s| vec3(s.removed)),
                        ("5. T = normalize(…)", |s| vec3(s.tangent)),
                    ];
                    for (label, value) in rows {
                        ui.monospace(label);
                        for (_, s) in &steps {
                            ui.monospace(value(s));
                        }
                        ui.end_row();
                    }
                });
        });
        for (m, s) in &steps {
            let (note, color) = if s.dot.abs() < 1e-4 {
                (
                    format!(
                        "{}: T was already perpendicular to N (the dot is only rounding); the step costs little and guards against rounding.",
                        m.name()
                    ),
                    Color32::from_rgb(40, 150, 60),
                )
            } else {
                (
                    format!(
                        "{}: T leaned {:.1}° off perpendicular; step 4 removed the part along N.",
                        m.name(),
                        (90.0 - angle_degrees(s.carried, s.normal)).abs()
                    ),
                    NAIVE_COLOR,
                )
            };
            ui.colored_label(color, note);
        }
    }
}
