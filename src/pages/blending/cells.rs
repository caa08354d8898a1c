//! The blending page's notebook cells.

use super::Cell;
use super::{BONE_NAMES, BlendingPage, MAX_BEND, Mode};
use crate::link::Named;
use crate::ui::inspect::InspectStyle;
use crate::ui::legend::{Mark, plot_key_ui, weight_legend_ui};
use crate::ui::{angle_slider_ui, error_ui, legible};
use egui::{Color32, RichText, Ui};
use egui_plot::{Line, VLine};
use rigs::arm::{self, Falloff};
use skin::lbs::PositionW;
use std::f32::consts::TAU;

pub(crate) const LBS_COLOR: Color32 = Color32::from_rgb(220, 80, 40);
pub(crate) const DQS_COLOR: Color32 = Color32::from_rgb(40, 110, 220);

pub(super) fn bone_color(bone: usize) -> Color32 {
    [
        Color32::from_rgb(200, 140, 20),
        Color32::from_rgb(30, 150, 170),
        Color32::from_rgb(150, 80, 200),
    ][bone % arm::MAX_JOINTS]
}

impl BlendingPage {
    pub(super) fn inspect_style(&self) -> InspectStyle<'static> {
        InspectStyle {
            matrix_name: "gradient",
            bone_name: &|j| BONE_NAMES.get(j).copied().unwrap_or("?").to_owned(),
            bone_color: &bone_color,
            dims: 3,
            decimals: 2,
        }
    }

    pub(super) fn page_cell_ui(&mut self, cell: Cell, ui: &mut Ui) {
        match cell {
            Cell::Weights => self.weights_ui(ui),
            Cell::Paint => self.paint_ui(ui),
            Cell::Sum => self.sum_ui(ui),
            Cell::Vertex => self.vertex_ui(ui),
            Cell::Algorithm => self.algorithm_ui(ui),
            Cell::Compare => self.compare_ui(ui),
            Cell::Ellipses => self.ellipses_ui(ui),
            Cell::DqPoint => self.dq_point_ui(ui),
            Cell::Antipodal => self.antipodal_ui(ui),
            Cell::Check => self.check_cell_ui(ui),
        }
    }

    fn bone_picker_ui(&mut self, ui: &mut Ui) {
        ui.horizontal_wrapped(|ui| {
            ui.label("Bone:");
            for (bone, name) in BONE_NAMES.iter().enumerate().take(self.rig().joint_count()) {
                if ui.selectable_label(self.bone == bone, *name).clicked() && self.bone != bone {
                    self.bone = bone;
                    self.weights_changed();
                }
            }
        });
    }

    fn weights_ui(&mut self, ui: &mut Ui) {
        ui.horizontal_wrapped(|ui| {
            ui.label("Falloff:");
            for &falloff in Falloff::ALL {
                if ui
                    .selectable_label(self.falloff == falloff && !self.painted, falloff.slug())
                    .clicked()
                {
                    self.use_falloff(falloff, self.blend_width);
                }
            }
        });
        let mut width = self.blend_width;
        // A rigid falloff has no blend region: its width is greyed out.
        let rigid = self.falloff == Falloff::Rigid && !self.painted;
        let slider = egui::Slider::new(&mut width, 0.0..=self.rig().max_blend_width());
        let text = if rigid {
            "blend width (rigid: no blend)"
        } else {
            "blend width"
        };
        if ui.add_enabled(!rigid, slider.text(text)).changed() {
            self.use_falloff(self.falloff, width);
        }
        if self.painted {
            ui.label(
                RichText::new("The weights are painted. Pick a falloff to start again from it.")
                    .weak(),
            );
        }
        ui.horizontal_wrapped(|ui| {
            if ui.checkbox(&mut self.heat_map, "Heat map").changed() {
                self.weights_changed();
            }
            weight_legend_ui(ui);
        });
        if self.heat_map && self.ellipses {
            ui.label(
                RichText::new("The deformation ellipses are on: the arm is drawn plain.").weak(),
            );
        }
        self.bone_picker_ui(ui);
        // Each bone's mean weight per ring, along the arm.
        let lines: Vec<Vec<[f64; 2]>> = (0..self.rig().joint_count())
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
        let shown = crate::ui::plot("weights_along_arm")
            .height(140.0)
            .x_axis_label("x along the arm")
            .y_axis_label("weight")
            .show(ui, |plot| {
                for (bone, points) in lines.into_iter().enumerate() {
                    plot.line(
                        Line::new(BONE_NAMES[bone], points)
                            .color(bone_color(bone))
                            .width(2.0),
                    );
                }
            });
        crate::ui::name_plot(&shown.response, || {
            "Plot: each bone's weight along the arm".to_owned()
        });
        let key: Vec<_> = (BONE_NAMES.iter().enumerate())
            .take(self.rig().joint_count())
            .map(|(bone, name)| (*name, bone_color(bone), Mark::Line))
            .collect();
        plot_key_ui(ui, &key);
    }

    fn paint_ui(&mut self, ui: &mut Ui) {
        self.bone_picker_ui(ui);
        self.brush.controls_ui(ui, 0.1..=1.5, "radius");
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
                    "{} weights that do not sum to 1{}.",
                    crate::ui::counted(bad, "vertex has", "vertices have"),
                    match (self.auto_normalise, self.position_w) {
                        (true, _) => " (auto normalise fixes them when the shader reads them)",
                        // As the viewport's note says: the divide puts them back.
                        (false, PositionW::Divide) => {
                            ": the shader's divide by w puts them where weights summing \
                             to 1 would (see \"When the weights do not sum to 1\")"
                        }
                        (false, PositionW::One) => {
                            ": with w = 1 the shader scales them toward the origin or away \
                             from it"
                        }
                    }
                ),
            );
        }
        // Said from the start: a line that appeared with the first dab pushed the
        // controls below it from under the pointer.
        ui.label(RichText::new("Copy link keeps what you paint.").weak());
    }

    fn compare_ui(&mut self, ui: &mut Ui) {
        angle_slider_ui(ui, &mut self.twist, 0.0..=360.0, "twist", 0);
        // The slider ends where links end, so every state it reaches can be linked.
        let max = MAX_BEND.to_degrees();
        angle_slider_ui(ui, &mut self.bend, -max..=max, "bend", 0);
        ui.horizontal_wrapped(|ui| {
            ui.label("Show:");
            for (&mode, label) in Mode::ALL.iter().zip(["LBS", "DQS", "both"]) {
                ui.selectable_value(&mut self.mode, mode, label);
            }
        });
        let mut twist_bone = self.twist_bone;
        if ui.checkbox(&mut twist_bone, "Twist bone").changed() {
            self.set_twist_bone(twist_bone);
        }
        if self.twist_bone {
            ui.label(
                RichText::new(
                    "A third joint at x = 3 takes half the twist; the elbow turns by the other half.",
                )
                .weak(),
            );
        }
        self.twist = self.twist.rem_euclid(TAU + 1e-4);
        let areas = self.areas();
        let now = self.twist.to_degrees() as f64;
        let (lbs, dqs) = self.areas_now();
        ui.label(format!(
            "Elbow ring area at {:.0}° twist: LBS {:.0}% of the bind pose, DQS {:.0}%.",
            now,
            lbs * 100.0,
            dqs * 100.0
        ));
        let marker = ui.visuals().strong_text_color();
        let shown = crate::ui::plot("area_against_twist")
            .height(180.0)
            .x_axis_label("twist (degrees)")
            .y_axis_label("area / bind area")
            .include_y(0.0)
            .include_y(1.1)
            // No crosshair under the pointer: the one vertical line is the twist's.
            .show_x(false)
            .show_y(false)
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
                // Thicker and darker than the grid, which it would pass for in grey.
                plot.vline(VLine::new("current twist", now).color(marker).width(2.5));
            });
        crate::ui::name_plot(&shown.response, || {
            "Plot: the elbow ring's area against the twist, LBS and DQS".to_owned()
        });
        plot_key_ui(
            ui,
            &[
                ("LBS", LBS_COLOR, Mark::Line),
                ("DQS", DQS_COLOR, Mark::Line),
                ("current twist", marker, Mark::Line),
            ],
        );
    }

    fn antipodal_ui(&mut self, ui: &mut Ui) {
        ui.checkbox(&mut self.antipodal_check, "Antipodal check");
        ui.checkbox(&mut self.negate_forearm, "Store the forearm as -q");
        let pose = self.skinned();
        let q = |i: usize| pose.dual_quats[i].real;
        let dot = q(0).dot(q(1));
        // Rounded before the sign is written: no "-0.00".
        let round = crate::ui::check::hundredths;
        for (i, name) in BONE_NAMES.iter().enumerate().take(pose.dual_quats.len()) {
            let r = q(i);
            let ink = legible(ui, bone_color(i));
            crate::ui::listing::lines_ui(
                ui,
                &format!(
                    "{name:>9}: rotation r = ({:+.2}, {:+.2}, {:+.2}, {:+.2})",
                    round(r.x),
                    round(r.y),
                    round(r.z),
                    round(r.w)
                ),
                |t| t.color(ink),
            );
        }
        crate::ui::mono_ui(
            ui,
            format!("dot(r upper arm, r forearm) = {:+.2}", round(dot)),
        );
        if dot < 0.0 && !self.antipodal_check {
            error_ui(
                ui,
                "The quaternions point into opposite halves and the check is off: at the elbow they cancel.",
            );
        } else if dot < 0.0 {
            ui.label("The dot product is negative, so the check flips the forearm's quaternion before adding it.");
        }
    }
}
