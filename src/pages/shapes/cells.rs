//! The shapes page's cells: the muscle and one vertex, the corrective and what drives
//! it, the elbow ring's area, and the cost.

use super::data::{FIX, TARGET_NAMES};
use super::{Cell, Driver, MAX_BEND, MIN_MADE_AT, Method, ShapesPage, Show, WEIGHT_RANGE};
use crate::pages::blending::{DQS_COLOR, LBS_COLOR};
use crate::ui::legend::{Mark, plot_key_ui};
use crate::ui::matrix::vec3_text;
use crate::ui::{angle_slider_ui, checkbox_ui, error_ui, mono_ui, slider_ui};
use egui::{Color32, RichText, Ui};
use egui_plot::{Line, VLine};
use rigs::arm;
use skin::lbs::blended_matrix;

/// The colour of LBS with its corrective, in the plot and the labels.
pub(super) const FIXED_COLOR: Color32 = Color32::from_rgb(40, 150, 70);

/// Each method's colour.
pub(super) fn color(method: Method) -> Color32 {
    match method {
        Method::Lbs => LBS_COLOR,
        Method::Fixed => FIXED_COLOR,
        Method::Dqs => DQS_COLOR,
    }
}

/// A shape weight's slider.
fn weight_ui(ui: &mut Ui, weight: &mut f32, name: &str) -> bool {
    slider_ui(
        ui,
        egui::Slider::new(weight, WEIGHT_RANGE).fixed_decimals(2),
        name,
    )
    .changed()
}

impl ShapesPage {
    pub(super) fn page_cell_ui(&mut self, cell: Cell, ui: &mut Ui) {
        self.scroll_to.cell_ui(cell.into(), ui);
        match cell {
            Cell::Shape => self.shape_ui(ui),
            Cell::Corrective => self.corrective_ui(ui),
            Cell::Area => self.area_ui(ui),
            Cell::Cost => self.cost_ui(ui),
            Cell::Check => self.check_cell_ui(ui),
        }
    }

    /// The muscle's weight, and the followed vertex from the file through the shapes
    /// and the skin.
    fn shape_ui(&mut self, ui: &mut Ui) {
        weight_ui(ui, &mut self.muscle, "muscle");
        ui.horizontal_wrapped(|ui| {
            let label = ui.label("Vertex:");
            ui.add(egui::DragValue::new(&mut self.vertex).range(0..=arm::VERTEX_COUNT - 1))
                .labelled_by(label.id);
        });
        let mesh = self.mesh();
        let v = self.vertex;
        let (Some(&v0), Some(influences)) =
            (mesh.skin.positions.get(v), mesh.skin.influences.get(v))
        else {
            error_ui(ui, format!("the arm has no vertex {v}"));
            return;
        };
        let weights = self.weights(Method::Fixed);
        let mut lines = vec![format!("v0 = {}", vec3_text(v0))];
        let mut sum = glam::Vec3::ZERO;
        for (i, target) in mesh.targets.iter().enumerate() {
            let delta = target.positions.get(v).copied().unwrap_or_default();
            sum += weights[i] * delta;
            lines.push(format!(
                "m[{i}] = {:.2} ({}), Δ[{i}] = {}",
                weights[i],
                TARGET_NAMES[i],
                vec3_text(delta)
            ));
        }
        let morphed = v0 + sum;
        let m = blended_matrix(&arm::palette(0.0, self.bend), influences);
        let drawn = m.transform_point3(morphed);
        let after = m.transform_point3(v0) + sum;
        lines.push(format!("Σ m[i]·Δ[i] = {}", vec3_text(sum)));
        lines.push(format!("v = v0 + Σ m[i]·Δ[i] = {}", vec3_text(morphed)));
        lines.push(format!("v' = M · v = {}", vec3_text(drawn)));
        lines.push(format!(
            "after the skin instead: {}, {:.2} off",
            vec3_text(after),
            after.distance(drawn)
        ));
        mono_ui(ui, lines.join("\n"));
        ui.label(
            RichText::new("M is the vertex's blended matrix. The elbow fix is the corrective below, at the weight LBS + fix uses.")
                .weak(),
        );
    }

    /// The bend, the bend the corrective was made for, and its weight.
    fn corrective_ui(&mut self, ui: &mut Ui) {
        let max = MAX_BEND.to_degrees();
        angle_slider_ui(ui, &mut self.bend, 0.0..=max, "bend", 0);
        angle_slider_ui(
            ui,
            &mut self.made_at,
            MIN_MADE_AT.to_degrees()..=max,
            "made at",
            0,
        );
        let mut drive = self.drive;
        if checkbox_ui(ui, &mut drive, "The bend drives the fix").changed() {
            if !drive {
                // As the slider shows it.
                self.fix = (self.fix_weight() * 100.0).round() / 100.0;
            }
            self.drive = drive;
        }
        if self.drive {
            ui.horizontal_wrapped(|ui| {
                ui.label("Driver:");
                for (driver, label) in [(Driver::Linear, "linear"), (Driver::Cosine, "cosine")] {
                    ui.selectable_value(&mut self.driver, driver, label);
                }
            });
            let (bend, made) = (self.bend.to_degrees(), self.made_at.to_degrees());
            let ratio = match self.driver {
                Driver::Linear => format!("{bend:.0}° / {made:.0}°"),
                Driver::Cosine => format!("(1 − cos {bend:.0}°) / (1 − cos {made:.0}°)"),
            };
            mono_ui(
                ui,
                format!("m[fix] = clamp({ratio}, 0, 1) = {:.2}", self.fix_weight()),
            );
        } else {
            weight_ui(ui, &mut self.fix, TARGET_NAMES[FIX]);
        }
        ui.horizontal_wrapped(|ui| {
            ui.label("Show:");
            for (&show, label) in [Show::All, Show::Lbs, Show::Fixed, Show::Dqs].iter().zip([
                "all three",
                "LBS",
                "LBS + fix",
                "DQS",
            ]) {
                ui.selectable_value(&mut self.show, show, label);
            }
        });
    }

    /// The elbow ring's area against the bend for the three arms.
    fn area_ui(&mut self, ui: &mut Ui) {
        let areas = self.areas();
        let now = self.bend.to_degrees() as f64;
        let [lbs, fixed, dqs] = self.areas_now().map(|a| a * 100.0);
        ui.label(format!(
            "Elbow ring area at {now:.0}° bend: LBS {lbs:.0}% of the bind pose, LBS + fix {fixed:.0}%, DQS {dqs:.0}%."
        ));
        let marker = ui.visuals().strong_text_color();
        let shown = crate::ui::plot("area_against_bend")
            .height(180.0)
            .x_axis_label("bend (degrees)")
            .y_axis_label("area / bind area")
            .include_y(0.0)
            .include_y(1.1)
            .show_x(false)
            .show_y(false)
            .show(ui, |plot| {
                for (method, curve) in Method::ALL.iter().zip(&areas.curves) {
                    plot.line(
                        Line::new(method.label(), curve.clone())
                            .color(color(*method))
                            .width(2.0),
                    );
                }
                plot.vline(VLine::new("current bend", now).color(marker).width(2.5));
            });
        crate::ui::name_plot(&shown.response, || {
            "Plot: the elbow ring's area against the bend, LBS, LBS with the corrective and DQS"
                .to_owned()
        });
        let mut key: Vec<(&str, Color32, Mark)> = Method::ALL
            .iter()
            .map(|m| (m.label(), color(*m), Mark::Line))
            .collect();
        key.push(("current bend", marker, Mark::Line));
        plot_key_ui(ui, &key);
    }

    /// What the shapes cost: the bytes they take and the work they add each frame.
    fn cost_ui(&mut self, ui: &mut Ui) {
        let mesh = self.mesh();
        let vertices = mesh.skin.positions.len();
        let shapes = mesh.targets.len();
        let active = self
            .weights(Method::Fixed)
            .iter()
            .filter(|w| **w != 0.0)
            .count();
        // The file: a float triple for each position and each normal offset. The
        // shader's texture: two four-float texels for each (vertex, shape).
        let offsets = vertices * shapes;
        mono_ui(
            ui,
            format!(
                "{vertices} vertices × {shapes} shapes = {offsets} offsets, each of a position and a normal\nin a file: {offsets} × 2 × 12 bytes = {} bytes\nin the shader's texture: {offsets} × 2 × 16 bytes = {} bytes\neach frame: {active} of {shapes} shapes have a weight other than 0: {} multiply-adds of a position and a normal",
                offsets * 24,
                offsets * 32,
                vertices * active
            ),
        );
    }
}
