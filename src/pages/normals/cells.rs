//! The normals page's notebook cells.

use super::Cell;
use super::data;
use super::view::{NORMAL_COLOR, TANGENT_COLOR, arm_label};
use super::{MAX_BEND, NormalsPage, SCALE_RANGE, Show};
use crate::link::Named;
use crate::ui::matrix::{two_mat3_text, vec3_text as vec3};
use crate::ui::{angle_slider_ui, error_ui, legible, mono_ui};
use egui::{Color32, RichText, Ui};
use egui_plot::{HLine, Line, LineStyle, VLine};
use glam::{Mat3, Mat4};
use skin::explain::steps::TangentSteps;
use skin::normals::{NormalMethod, angle_degrees};

/// The colour of the naive arm's curves and labels.
const NAIVE_COLOR: Color32 = Color32::from_rgb(200, 60, 40);
/// The colour of the inverse transpose's curves.
const RIGHT_COLOR: Color32 = Color32::from_rgb(30, 140, 70);
/// The colour of the curves of the two methods against each other.
const BETWEEN_COLOR: Color32 = Color32::from_rgb(130, 130, 130);
/// The colour of the plot's line at the current scale.
const NOW_COLOR: Color32 = Color32::from_rgb(40, 110, 220);

/// One comparison the error plot draws: its name, colour, and where its angles are.
struct ErrorRow {
    name: &'static str,
    color: Color32,
    spread: fn(&data::NormalErrors) -> data::Spread,
}

/// The error plot's comparisons: each method against the true normal, then the two
/// against each other.
fn error_rows() -> [ErrorRow; 3] {
    [
        ErrorRow {
            name: "M · n vs true",
            color: NAIVE_COLOR,
            spread: |e| e.naive,
        },
        ErrorRow {
            name: "(M⁻¹)^T · n vs true",
            color: RIGHT_COLOR,
            spread: |e| e.inverse_transpose,
        },
        ErrorRow {
            name: "M · n vs (M⁻¹)^T · n",
            color: BETWEEN_COLOR,
            spread: |e| e.between,
        },
    ]
}

/// A short sample of a plotted line, solid or dashed, for a legend.
fn swatch_ui(ui: &mut Ui, color: Color32, dashed: bool) {
    let (rect, _) = ui.allocate_exact_size(egui::vec2(20.0, 12.0), egui::Sense::hover());
    let (a, b) = (rect.left_center(), rect.right_center());
    let stroke = egui::Stroke::new(2.0, color);
    if dashed {
        ui.painter()
            .add(egui::Shape::dashed_line(&[a, b], stroke, 4.0, 3.0));
    } else {
        ui.painter().line_segment([a, b], stroke);
    }
}

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
        let slider = egui::Slider::new(&mut self.scale, SCALE_RANGE)
            .logarithmic(true)
            .max_decimals(2);
        crate::ui::slider_ui(ui, slider, "forearm scale across the bone (y)");
    }

    fn compare_ui(&mut self, ui: &mut Ui) {
        ui.horizontal_wrapped(|ui| {
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
        ui.horizontal_wrapped(|ui| {
            ui.checkbox(&mut self.show_lines, "Normal and tangent lines");
            ui.colored_label(legible(ui, NORMAL_COLOR), "normals");
            ui.colored_label(legible(ui, TANGENT_COLOR), "tangents");
            ui.checkbox(&mut self.ellipses, "Deformation ellipses");
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
        let (points, every_scale) = self.error_curves(ui.ctx().cumulative_frame_nr());
        if !every_scale {
            // The rest of the scales, once the bend rests.
            ui.ctx().request_repaint();
        }
        let now = self.normal_errors();
        ui.label(format!(
            "At scale {:.2} and bend {:.0}°, over the arm:",
            self.scale,
            self.bend.to_degrees()
        ));
        // The legend is this table, above the plot: it never covers a curve, and it
        // reads out the values at the vertical line.
        let rows = error_rows();
        // A table, never wrapped: on a phone it scrolls sideways.
        crate::ui::table_ui(ui, "normal_error_legend", |ui| {
            egui::Grid::new("normal_error_legend")
                .spacing([10.0, 2.0])
                .show(ui, |ui| {
                    ui.label("");
                    ui.label(RichText::new("largest").strong());
                    ui.label(RichText::new("mean").strong());
                    ui.end_row();
                    for row in &rows {
                        ui.label(
                            RichText::new(row.name)
                                .monospace()
                                .color(legible(ui, row.color)),
                        );
                        let spread = (row.spread)(&now);
                        // One row each: a grid cell's width is last frame's, so a
                        // wrapping row would drop the value under its swatch.
                        ui.horizontal(|ui| {
                            swatch_ui(ui, row.color, false);
                            ui.monospace(format!("{:.1}°", spread.max));
                        });
                        ui.horizontal(|ui| {
                            swatch_ui(ui, row.color, true);
                            ui.monospace(format!("{:.1}°", spread.mean));
                        });
                        ui.end_row();
                    }
                });
        });
        // Where each method is furthest off: a click rings the vertex in the view and
        // works it in the tangent cell below. Where nothing is off (a straight elbow at
        // scale 1), nowhere to ring, but the row stays: the plot and the slider under it
        // stay put as the angles come and go.
        let worst: Vec<(&str, usize)> = rows[..2]
            .iter()
            .filter_map(|row| {
                let spread = (row.spread)(&now);
                let method = row.name.trim_end_matches(" vs true");
                spread
                    .worst
                    .filter(|_| spread.max >= 0.5)
                    .map(|v| (method, v))
            })
            .collect();
        ui.horizontal_wrapped(|ui| {
            ui.label("Ring where it is largest:");
            if worst.is_empty() {
                ui.add_enabled(false, egui::Button::new("nothing is off here"));
            }
            for (method, vertex) in worst {
                if ui.button(format!("{method}, vertex {vertex}")).clicked() {
                    self.vertex = Some(vertex);
                }
            }
        });
        if now.skipped > 0 {
            ui.label(
                RichText::new(format!(
                    "{} vertices left out: the skin has no true normal there.",
                    now.skipped
                ))
                .weak(),
            );
        }
        let shown = crate::ui::plot("normal_angle_error")
            .height(200.0)
            .x_axis_label("forearm scale across the bone")
            .y_axis_label("angle (°)")
            .include_y(0.0)
            // The axis always reaches past 90° (the grey dashes), so it reads in degrees
            // and the dashes sit inside the plot, not on its border.
            .include_y(100.0)
            .show(ui, |plot| {
                // The grey comparison first: where a method's curve runs along it (a
                // straight elbow), the method's colour is drawn on top.
                for row in rows.iter().rev() {
                    for dashed in [false, true] {
                        let curve: Vec<[f64; 2]> = points
                            .iter()
                            .map(|(scale, e)| {
                                let s = (row.spread)(e);
                                [*scale as f64, if dashed { s.mean } else { s.max } as f64]
                            })
                            .collect();
                        let kind = if dashed { "mean" } else { "largest" };
                        let line = Line::new(format!("{}, {kind}", row.name), curve)
                            .color(row.color)
                            .width(if dashed { 1.5 } else { 2.0 });
                        plot.line(if dashed {
                            line.style(LineStyle::dashed_dense())
                        } else {
                            line
                        });
                    }
                }
                plot.vline(VLine::new("now", self.scale as f64).color(NOW_COLOR));
                plot.hline(
                    HLine::new("90°", 90.0)
                        .color(Color32::GRAY)
                        .style(LineStyle::dashed_loose()),
                );
            });
        crate::ui::name_plot(&shown.response, || {
            "Plot: the angle between each method's normal and the true one against the forearm's scale, largest and mean, naive and inverse transpose".to_owned()
        });
        ui.label(
            RichText::new(
                "Grey dashes: 90°. A shaded normal past it faces away from the true one.",
            )
            .small(),
        );
        self.scale_slider_ui(ui);
    }

    fn tangent_ui(&mut self, ui: &mut Ui) {
        let count = self.vertex_count();
        let mut vertex = self.vertex.unwrap_or(super::DEFAULT_VERTEX);
        ui.horizontal_wrapped(|ui| {
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
        let truth = self.vertex_normals(vertex).map(|[truth, ..]| truth);
        // The vertex's blended matrix, which both rules start from, named above its
        // rows: a name beside them would break between the rows on a phone.
        let blended = self.linear_and_facing(&palette, vertex).map(|(m, _)| {
            let [a, b, c] = crate::ui::matrix::mat3_rows(&m);
            format!("M, the vertex's blended matrix (its 3×3 part):\n    {a}\nM = {b}\n    {c}")
        });
        mono_ui(
            ui,
            format!(
                "{}\nbind normal n = {}\nbind tangent t = {}\ntrue normal of the skinned surface = {}",
                blended.unwrap_or_default(),
                vec3(first.bind_normal),
                vec3(first.bind_tangent),
                truth.map_or("none here".to_owned(), vec3)
            ),
        );
        // Each step's name on a line of its own, then one column per arm: the table
        // stays as narrow as two vectors side by side.
        let column = |texts: Vec<String>| {
            texts
                .iter()
                .map(|t| format!("{t:<22}"))
                .collect::<String>()
                .trim_end()
                .to_owned()
        };
        type Row = (&'static str, fn(&TangentSteps) -> String);
        let rows: [Row; 5] = [
            ("1. N = normalize(the column's matrix · n)", |s| {
                vec3(s.normal)
            }),
            ("2. T = normalize(M · t)", |s| vec3(s.carried)),
            ("3. T · N, and the angle from T to N", |s| {
                format!(
                    "{:.3}, {:.2}°",
                    s.dot + 0.0,
                    angle_degrees(s.carried, s.normal)
                )
            }),
            ("4. T − (T · N) N", |s| vec3(s.removed)),
            ("5. T = normalize(…)", |s| vec3(s.tangent)),
        ];
        let mut text = column(
            steps
                .iter()
                .map(|(m, _)| arm_label(*m).to_owned())
                .collect(),
        );
        for (i, (label, value)) in rows.into_iter().enumerate() {
            text += &format!(
                "\n{label}\n{}",
                column(steps.iter().map(|(_, s)| value(s)).collect())
            );
            if i == 0 {
                let angles = steps.iter().map(|(_, s)| {
                    truth.map_or("–".to_owned(), |t| {
                        format!("{:.2}°", angle_degrees(s.normal, t))
                    })
                });
                text += &format!(
                    "\n   N's angle to the true normal\n{}",
                    column(angles.collect())
                );
            }
        }
        mono_ui(ui, text);
        for (m, s) in &steps {
            let (note, color) = if s.dot.abs() < 1e-4 {
                (
                    format!(
                        "{}: T was already at 90° to N; the dot is rounding.",
                        m.name()
                    ),
                    Color32::from_rgb(40, 150, 60),
                )
            } else {
                (
                    format!(
                        "{}: T leaned {:.1}° off perpendicular; step 4 took that lean out.",
                        m.name(),
                        (90.0 - angle_degrees(s.carried, s.normal)).abs()
                    ),
                    NAIVE_COLOR,
                )
            };
            ui.colored_label(legible(ui, color), note);
        }
    }
}
