//! The interpolation page's notebook cells.

use super::view::method_color;
use super::{Cell, InterpolationPage};
use crate::link::Named;
use crate::pages::predict::Predicts;
use crate::pages::quaternions::euler_ui;
use crate::ui::legend::{Mark, plot_key_ui};
use crate::ui::matrix::quat_text;
use crate::ui::mono_ui;
use egui::{Color32, RichText, Ui};
use egui_plot::{HLine, Line, VLine};
use glam::Vec4;
use skin::explain::rotation::{self, Interp, angular_speed, quat_matrix};

/// Samples along `t` in the plots.
const PLOT_STEPS: usize = 100;

/// "Method:" and a button per interpolation method; returns whether one was chosen.
pub(super) fn method_buttons_ui(ui: &mut Ui, method: &mut Interp) -> bool {
    ui.label("Method:");
    let mut changed = false;
    for &m in Interp::ALL {
        let text = RichText::new(m.slug().to_ascii_uppercase());
        if crate::ui::colored_choice(ui, *method == m, text, method_color(m)).clicked() {
            *method = m;
            changed = true;
        }
    }
    changed
}

/// A plot against `t` with one curve per method. `under` is drawn thicker, below the
/// others, where it shares its curve with another method; `level` adds a grey line
/// across, named in the key.
struct MethodsPlot<'a> {
    id: &'a str,
    y_label: &'a str,
    under: Interp,
    level: Option<(&'a str, f64)>,
    /// A value the y axis always shows (a speed's 0); `None` fits the curves alone.
    floor: Option<f64>,
}

impl InterpolationPage {
    pub(super) fn page_cell_ui(&mut self, cell: Cell, ui: &mut Ui) {
        self.scroll_to.cell_ui(cell.into(), ui);
        match cell {
            Cell::Interpolate => self.interpolate_ui(ui),
            Cell::Length => self.length_ui(ui),
            Cell::Speed => self.speed_ui(ui),
            Cell::HalfAngle => self.half_angle_ui(ui),
            Cell::Check => self.check_cell_ui(ui),
        }
    }

    fn interpolate_ui(&mut self, ui: &mut Ui) {
        ui.horizontal_wrapped(|ui| {
            method_buttons_ui(ui, &mut self.method);
        });
        ui.add(egui::Slider::new(&mut self.t, 0.0..=1.0).text("t, from A to B"));
        ui.label("B:");
        euler_ui(ui, &mut self.target, "B ");
        ui.checkbox(&mut self.flip, "Store B as −q (the same rotation)");
        ui.checkbox(&mut self.shortest, "Shortest path: negate B when A · B < 0");
        let (a, b) = self.endpoints();
        let dot = Vec4::from(a).dot(Vec4::from(b));
        let q = self.interpolated(self.method, self.t);
        let length = Vec4::from(q).length();
        let mut text = format!(
            "A = {}\nB = {}\nA · B = {dot:.3}{}",
            quat_text(a),
            quat_text(b),
            if dot < 0.0 && self.shortest {
                ": negative, so B is negated first"
            } else {
                ""
            },
        );
        if self.answer_hidden() {
            text += "\nq(t) = hidden until you reveal your prediction";
        } else {
            text += &format!(
                "\nq(t) = {}\n|q(t)| = {length:.3}, det of its matrix = {:.3}\nturned {:.1}° from A; the nose {:.1}° from A's",
                quat_text(q),
                quat_matrix(q).determinant(),
                rotation::rotation_between(a, q).to_degrees(),
                self.nose_turn(self.method, self.t),
            );
            if self.method == Interp::Lerp && length < 0.99 {
                text += "\nLERP left the unit sphere: the matrix shrinks the glider.";
            }
        }
        mono_ui(ui, text);
    }

    /// `|q(t)|` for each method: LERP dips inside the sphere of unit quaternions.
    fn length_ui(&mut self, ui: &mut Ui) {
        let plot = MethodsPlot {
            id: "quaternion_length",
            y_label: "|q(t)|",
            under: Interp::Nlerp,
            level: Some(("|q| = 1, the unit sphere", 1.0)),
            // The dip is a fifth of the height or less: fitted, it shows.
            floor: None,
        };
        self.methods_plot_ui(ui, &plot, |m| {
            (0..=PLOT_STEPS)
                .map(|i| {
                    let t = i as f32 / PLOT_STEPS as f32;
                    [t as f64, self.interpolated(m, t).length() as f64]
                })
                .collect()
        });
        let lerp = self.interpolated(Interp::Lerp, self.t).length();
        ui.label(format!(
            "At t = {:.2}, LERP's q has length {lerp:.3}: its matrix scales by |q|² = {:.3} across the turn. NLERP and SLERP stay at 1.",
            self.t,
            lerp * lerp
        ));
        // The chapter asks for the prediction right after this plot, from the squashed
        // matrix it measures.
        ui.separator();
        self.predict_ui(ui);
    }

    fn speed_ui(&mut self, ui: &mut Ui) {
        let (a, b) = self.endpoints();
        let plot = MethodsPlot {
            id: "angular_speed",
            y_label: "speed (° per unit t)",
            // LERP and NLERP turn alike (normalising changes the length only).
            under: Interp::Lerp,
            level: None,
            floor: Some(0.0),
        };
        let shortest = self.shortest;
        self.methods_plot_ui(ui, &plot, |m| {
            angular_speed(a, b, m, shortest, PLOT_STEPS)
                .into_iter()
                .map(|[t, s]| [t as f64, s as f64])
                .collect()
        });
        // SLERP's flat line is the whole turn, the way it goes: one turn per unit of t.
        let slerp = angular_speed(a, b, Interp::Slerp, shortest, PLOT_STEPS);
        if let Some([_, whole]) = slerp.get(PLOT_STEPS / 2) {
            ui.label(format!(
                "SLERP turns {whole:.0}° per unit of t at every t: the whole turn from A to B, {whole:.0}°, spread evenly."
            ));
        }
    }

    /// Draws `plot` with `curve(method)` for each method, the current `t`, and its key
    /// under it.
    fn methods_plot_ui(
        &self,
        ui: &mut Ui,
        plot: &MethodsPlot,
        curve: impl Fn(Interp) -> Vec<[f64; 2]>,
    ) {
        let curves: Vec<(Interp, Vec<[f64; 2]>)> =
            Interp::ALL.iter().map(|m| (*m, curve(*m))).collect();
        let mut shown = crate::ui::plot(plot.id)
            .height(170.0)
            .x_axis_label("t")
            .y_axis_label(plot.y_label);
        if let Some(y) = plot.floor {
            shown = shown.include_y(y);
        }
        let response = shown.show(ui, |p| {
            if let Some((name, y)) = plot.level {
                p.hline(HLine::new(name, y).color(Color32::DARK_GRAY));
            }
            for (m, points) in curves {
                let width = if m == plot.under { 5.0 } else { 2.0 };
                p.line(
                    Line::new(m.slug().to_ascii_uppercase(), points)
                        .color(method_color(m))
                        .width(width),
                );
            }
            p.vline(VLine::new("t", self.t as f64).color(Color32::GRAY));
        });
        crate::ui::name_plot(&response.response, || {
            format!("Plot: {} against t, LERP, NLERP and SLERP", plot.y_label)
        });
        let names: Vec<String> = Interp::ALL
            .iter()
            .map(|m| m.slug().to_ascii_uppercase())
            .collect();
        let mut key: Vec<(&str, Color32, Mark)> = Interp::ALL
            .iter()
            .zip(&names)
            .map(|(m, name)| (name.as_str(), method_color(*m), Mark::Line))
            .collect();
        if let Some((name, _)) = plot.level {
            key.push((name, Color32::DARK_GRAY, Mark::Line));
        }
        key.push(("t", Color32::GRAY, Mark::Line));
        plot_key_ui(ui, &key);
    }
}
