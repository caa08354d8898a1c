//! The blending page's notebook cells.

use super::{BONE_NAMES, BlendingPage, Mode};
use crate::notebook::{anchor, code_ui};
use crate::skin::arm::{self, Falloff};
use crate::skin::dqs::{blend_dual_quats, dual_quat_palette};
use crate::skin::lbs::{VertexBreakdown, blended_matrix};
use crate::skin::{Influences, MAX_INFLUENCES};
use crate::ui::check::{Question, check_ui};
use crate::ui::inspect::{InspectStyle, breakdown_ui};
use crate::ui::legend::weight_legend_ui;
use crate::ui::matrix::matrix_view_ui;
use crate::ui::{angle_slider_ui, error_ui};
use egui::{Color32, RichText, Ui};
use egui_plot::{Legend, Line, Plot, VLine};
use glam::Vec3;
use std::f32::consts::TAU;

const LBS_SOURCE: &str = include_str!("../../skin/lbs.rs");
const LBS_COLOR: Color32 = Color32::from_rgb(220, 80, 40);
const DQS_COLOR: Color32 = Color32::from_rgb(40, 110, 220);

/// The check question: an elbow vertex, half on each bone, with the elbow bent 90°.
pub const CHECK_VERTEX: Vec3 = Vec3::new(2.0, 0.5, 0.0);
/// The bend of the check question, radians.
pub const CHECK_BEND: f32 = std::f32::consts::FRAC_PI_2;

/// Where LBS and DQS put [`CHECK_VERTEX`] at [`CHECK_BEND`]: `[lbs x, lbs y, dqs x, dqs y]`.
pub fn check_answer() -> [f32; 4] {
    let palette = arm::palette(0.0, CHECK_BEND);
    let half =
        Influences::prepare(&[(0, 0.5), (1, 0.5)], arm::BONE_COUNT).unwrap_or(Influences::rigid(0));
    let lbs = blended_matrix(&palette, &half).transform_point3(CHECK_VERTEX);
    let dqs =
        blend_dual_quats(&dual_quat_palette(&palette), &half, true).transform_point(CHECK_VERTEX);
    [lbs.x, lbs.y, dqs.x, dqs.y]
}

fn bone_color(bone: usize) -> Color32 {
    [
        Color32::from_rgb(200, 140, 20),
        Color32::from_rgb(30, 150, 170),
    ][bone % 2]
}

impl BlendingPage {
    pub(super) fn inspect_style(&self) -> InspectStyle<'static> {
        InspectStyle {
            matrix_name: "gradient",
            bone_name: &|j| BONE_NAMES.get(j).copied().unwrap_or("?").to_owned(),
            bone_color: &bone_color,
            dims: 3,
        }
    }

    pub(super) fn cell(&mut self, cell: &str, ui: &mut Ui) {
        match cell {
            "weights" => self.weights_ui(ui),
            "paint" => self.paint_ui(ui),
            "vertex" => self.vertex_ui(ui),
            "algorithm" => self.algorithm_ui(ui),
            "compare" => self.compare_ui(ui),
            "antipodal" => self.antipodal_ui(ui),
            "check" => self.check_ui(ui),
            _ => error_ui(ui, format!("this page has no cell `{cell}`")),
        }
    }

    fn bone_picker_ui(&mut self, ui: &mut Ui) {
        ui.horizontal(|ui| {
            ui.label("Bone:");
            for (bone, name) in BONE_NAMES.iter().enumerate() {
                if ui.selectable_label(self.bone == bone, *name).clicked() && self.bone != bone {
                    self.bone = bone;
                    self.weights_changed();
                }
            }
        });
    }

    fn weights_ui(&mut self, ui: &mut Ui) {
        ui.horizontal(|ui| {
            ui.label("Falloff:");
            for falloff in Falloff::ALL {
                if ui
                    .selectable_label(self.falloff == falloff && !self.painted, falloff.slug())
                    .clicked()
                {
                    self.use_falloff(falloff, self.blend_width);
                }
            }
        });
        let mut width = self.blend_width;
        if ui
            .add(egui::Slider::new(&mut width, 0.0..=arm::BONE_LENGTH).text("blend width"))
            .changed()
        {
            self.use_falloff(self.falloff, width);
        }
        if self.painted {
            ui.label(
                RichText::new("The weights are painted. Pick a falloff to start again from it.")
                    .weak(),
            );
        }
        ui.horizontal(|ui| {
            if ui.checkbox(&mut self.heat_map, "Heat map").changed() {
                self.weights_changed();
            }
            weight_legend_ui(ui);
        });
        self.bone_picker_ui(ui);
        // Each bone's mean weight per ring, along the arm.
        let lines: Vec<Vec<[f64; 2]>> = (0..arm::BONE_COUNT)
            .map(|bone| {
                (0..arm::RING_COUNT)
                    .map(|ring| {
                        let sum: f32 = (0..arm::SEGMENTS)
                            .map(|s| self.weights.get(ring * arm::SEGMENTS + s, bone))
                            .sum();
                        [
                            arm::ring_x(ring) as f64,
                            (sum / arm::SEGMENTS as f32) as f64,
                        ]
                    })
                    .collect()
            })
            .collect();
        Plot::new("weights_along_arm")
            .height(140.0)
            .legend(Legend::default())
            .x_axis_label("x along the arm")
            .y_axis_label("weight")
            .allow_drag(false)
            .allow_scroll(false)
            .allow_zoom(false)
            .show(ui, |plot| {
                for (bone, points) in lines.into_iter().enumerate() {
                    plot.line(
                        Line::new(BONE_NAMES[bone], points)
                            .color(bone_color(bone))
                            .width(2.0),
                    );
                }
            });
    }

    fn paint_ui(&mut self, ui: &mut Ui) {
        ui.horizontal(|ui| {
            ui.toggle_value(&mut self.brush.on, "Brush");
            ui.selectable_value(&mut self.brush.erase, false, "Add");
            ui.selectable_value(&mut self.brush.erase, true, "Remove");
        });
        self.bone_picker_ui(ui);
        ui.add(egui::Slider::new(&mut self.brush.radius, 0.1..=1.5).text("radius"));
        ui.add(egui::Slider::new(&mut self.brush.strength, 0.2..=6.0).text("strength"));
        if ui
            .checkbox(&mut self.auto_normalise, "Auto normalise")
            .changed()
        {
            self.weights_changed();
        }
        if ui.button("Back to the falloff's weights").clicked() {
            self.use_falloff(self.falloff, self.blend_width);
        }
        let bad = self.weights.unnormalised().len();
        if bad > 0 {
            error_ui(
                ui,
                format!(
                    "{bad} vertices have weights that do not sum to 1{}.",
                    if self.auto_normalise {
                        " (auto normalise fixes them when the shader reads them)"
                    } else {
                        ": the shader scales them toward the origin or away from it"
                    }
                ),
            );
        }
        if self.painted {
            ui.label(RichText::new("Painted weights are not part of the page link.").weak());
        }
    }

    fn vertex_ui(&mut self, ui: &mut Ui) {
        let count = self.arm.skin.positions.len();
        ui.horizontal(|ui| {
            let label = ui.label("Vertex:");
            let mut v = self.vertex.unwrap_or(arm::elbow_ring() * arm::SEGMENTS);
            if ui
                .add(egui::DragValue::new(&mut v).range(0..=count - 1))
                .labelled_by(label.id)
                .changed()
                || self.vertex.is_none() && ui.button("Pick one at the elbow").clicked()
            {
                self.vertex = Some(v.min(count - 1));
            }
        });
        let Some(v) = self.vertex else {
            ui.label(RichText::new("Click a vertex on the arm, or pick one above.").weak());
            return;
        };
        let pose = self.pose();
        let skin = self.skin();
        let influences = skin.influences[v];
        ui.label(format!(
            "bind position {}   weights: {}   (sum {:.3})",
            self.inspect_style().point(skin.positions[v]),
            influences
                .used()
                .map(|(j, w)| format!("{} {w:.2}", BONE_NAMES[j]))
                .collect::<Vec<_>>()
                .join(", "),
            influences.sum()
        ));
        ui.horizontal_wrapped(|ui| {
            for (j, _) in influences.used() {
                ui.vertical(|ui| {
                    ui.label(
                        RichText::new(format!("gradient, {}", BONE_NAMES[j]))
                            .color(bone_color(j))
                            .strong(),
                    );
                    matrix_view_ui(ui, &format!("gradient {j}"), &pose.palette[j]);
                });
            }
        });
        ui.label(RichText::new("blended = w0 · gradient0 + w1 · gradient1").strong());
        matrix_view_ui(ui, "blended", &blended_matrix(&pose.palette, &influences));
        if let Some(b) = VertexBreakdown::new(&pose.palette, &skin, v) {
            breakdown_ui(ui, &b, &self.inspect_style());
        }
        let dqs = pose.dqs[v].position;
        ui.label(
            RichText::new(format!(
                "dual quaternions put it at {}   (LBS and DQS {:.3} apart)",
                self.inspect_style().point(dqs),
                dqs.distance(pose.lbs[v].position)
            ))
            .monospace()
            .color(DQS_COLOR),
        );
    }

    fn algorithm_ui(&mut self, ui: &mut Ui) {
        let step = |ui: &mut Ui, name: &str| match anchor(LBS_SOURCE, name) {
            Some(code) => code_ui(ui, &code),
            None => error_ui(ui, format!("the source has no anchor `{name}`")),
        };
        let v = self.vertex;
        let pose = self.pose();
        let skin = self.skin();
        ui.label(RichText::new("1. Once per frame, a gradient matrix per bone:").strong());
        step(ui, "palette");
        ui.horizontal_wrapped(|ui| {
            for (j, m) in pose.palette.iter().enumerate() {
                ui.vertical(|ui| {
                    ui.label(RichText::new(BONE_NAMES[j]).color(bone_color(j)));
                    matrix_view_ui(ui, &format!("algorithm gradient {j}"), m);
                });
            }
        });
        ui.label(
            RichText::new("2. Per vertex, the weighted sum of its bones' gradients:").strong(),
        );
        step(ui, "blend");
        let Some(v) = v else {
            ui.label(RichText::new("Pick a vertex to see its numbers here.").weak());
            return;
        };
        let influences = skin.influences[v];
        let blended = blended_matrix(&pose.palette, &influences);
        ui.label(
            RichText::new(format!(
                "vertex {v}: joints {:?}, weights {:?}",
                &influences.joints[..MAX_INFLUENCES],
                influences.weights.map(|w| (w * 1000.0).round() / 1000.0)
            ))
            .monospace(),
        );
        matrix_view_ui(ui, "algorithm blended", &blended);
        ui.label(RichText::new("3. The blended matrix moves the vertex:").strong());
        step(ui, "skin_vertices");
        ui.label(
            RichText::new(format!(
                "{} -> {}",
                self.inspect_style().point(skin.positions[v]),
                self.inspect_style().point(pose.lbs[v].position)
            ))
            .monospace()
            .strong(),
        );
    }

    fn compare_ui(&mut self, ui: &mut Ui) {
        angle_slider_ui(ui, &mut self.twist, 0.0..=360.0, "twist", 0);
        angle_slider_ui(ui, &mut self.bend, -150.0..=150.0, "bend", 0);
        ui.horizontal(|ui| {
            ui.label("Show:");
            for (mode, label) in Mode::ALL.into_iter().zip(["LBS", "DQS", "both"]) {
                ui.selectable_value(&mut self.mode, mode, label);
            }
        });
        self.twist = self.twist.rem_euclid(TAU + 1e-4);
        let areas = self.areas();
        let now = self.twist.to_degrees() as f64;
        let at = |curve: &[[f64; 2]]| {
            curve
                .iter()
                .min_by(|a, b| (a[0] - now).abs().total_cmp(&(b[0] - now).abs()))
                .map_or(0.0, |p| p[1])
        };
        ui.label(format!(
            "Elbow ring area at {:.0}° twist: LBS {:.0}% of the bind pose, DQS {:.0}%.",
            now,
            at(&areas.lbs) * 100.0,
            at(&areas.dqs) * 100.0
        ));
        Plot::new("area_against_twist")
            .height(180.0)
            .legend(Legend::default())
            .x_axis_label("twist (degrees)")
            .y_axis_label("area / bind area")
            .include_y(0.0)
            .include_y(1.1)
            .allow_drag(false)
            .allow_scroll(false)
            .allow_zoom(false)
            .show(ui, |plot| {
                plot.line(
                    Line::new("LBS", areas.lbs.clone())
                        .color(LBS_COLOR)
                        .width(2.0),
                );
                plot.line(
                    Line::new("DQS", areas.dqs.clone())
                        .color(DQS_COLOR)
                        .width(2.0),
                );
                plot.vline(VLine::new("current twist", now).color(Color32::GRAY));
            });
    }

    fn antipodal_ui(&mut self, ui: &mut Ui) {
        ui.checkbox(&mut self.antipodal_check, "Antipodal check");
        ui.checkbox(&mut self.negate_forearm, "Store the forearm as -q");
        let pose = self.pose();
        let q = |i: usize| pose.dual_quats[i].real;
        let dot = q(0).dot(q(1));
        for (i, name) in BONE_NAMES.iter().enumerate() {
            let r = q(i);
            ui.label(
                RichText::new(format!(
                    "{name:>9}: rotation q = ({:+.2}, {:+.2}, {:+.2}, {:+.2})",
                    r.x, r.y, r.z, r.w
                ))
                .monospace()
                .color(bone_color(i)),
            );
        }
        ui.label(RichText::new(format!("dot(q upper arm, q forearm) = {dot:+.2}")).monospace());
        if dot < 0.0 && !self.antipodal_check {
            error_ui(
                ui,
                "The quaternions point into opposite halves and the check is off: at the elbow they cancel.",
            );
        } else if dot < 0.0 {
            ui.label("The dot product is negative, so the check flips the forearm's quaternion before adding it.");
        }
    }

    fn check_ui(&mut self, ui: &mut Ui) {
        ui.label(
            "Bend the elbow 90° (no twist). Vertex v = (2, 0.5, 0) sits on the elbow with weight 0.5 on each bone. \
             The upper arm does not move; the forearm turns 90° about z around the elbow at (2, 0, 0). \
             Where does each method put v?"
        );
        if ui.button("Show this pose in the viewport").clicked() {
            self.twist = 0.0;
            self.bend = CHECK_BEND;
            self.vertex = Some(arm::elbow_ring() * arm::SEGMENTS);
        }
        let expected = check_answer();
        let question = Question {
            name: "blend",
            labels: &["LBS x", "LBS y", "DQS x", "DQS y"],
            columns: 2,
            expected: &expected,
            tolerance: 0.01,
        };
        let palette = arm::palette(0.0, CHECK_BEND);
        let moved = self
            .inspect_style()
            .point(palette[1].transform_point3(CHECK_VERTEX));
        check_ui(ui, &mut self.check, &question, |ui| {
            ui.label("Forearm gradient (upper arm: identity):");
            matrix_view_ui(ui, "check gradient", &palette[1]);
            ui.label(RichText::new(format!(
                "forearm . v = {}\nLBS: 0.5 . v + 0.5 . (forearm . v) = ({:.3}, {:.3})\n\
                 DQS: half the rotation, 45° about the elbow: (2, 0) + 0.5 . (-sin 45°, cos 45°) = ({:.3}, {:.3})\n\
                 LBS pulls the vertex to {:.3} from the elbow; DQS keeps it at 0.5.",
                moved,
                expected[0], expected[1], expected[2], expected[3],
                Vec3::new(expected[0] - 2.0, expected[1], 0.0).length()
            )).monospace());
        });
    }
}
