//! The pipeline page's cells: the six stages side by side with their other names.

use super::{Cell, JOINT_NAMES, MAX_BEND, PipelinePage, Stages, to_pixel};
use crate::ui::matrix::{affine_rows, vec3_text};
use crate::ui::{angle_slider_ui, error_ui};
use egui::{RichText, Ui};
use rigs::arm;

/// The widest line of a stage's value, in characters.
const STAGE_COLUMNS: usize = 27;

/// One stage as the cell shows it.
struct Row {
    name: &'static str,
    formula: &'static str,
    value: String,
}

impl PipelinePage {
    pub(super) fn page_cell_ui(&mut self, cell: Cell, ui: &mut Ui) {
        self.scroll_to.cell_ui(cell.into(), ui);
        match cell {
            Cell::Pipeline => self.pipeline_ui(ui),
            Cell::Check => self.check_cell_ui(ui),
        }
    }

    fn pipeline_ui(&mut self, ui: &mut Ui) {
        let max = MAX_BEND.to_degrees();
        angle_slider_ui(ui, &mut self.bend, -max..=max, "bend", 0);
        ui.horizontal_wrapped(|ui| {
            ui.label("Joint:");
            for (j, name) in JOINT_NAMES.iter().enumerate() {
                ui.selectable_value(&mut self.joint, j, *name);
            }
            let label = ui.label("  Vertex:");
            ui.add(egui::DragValue::new(&mut self.vertex).range(0..=arm::VERTEX_COUNT - 1))
                .labelled_by(label.id);
        });
        let Some(stages) = self.stages() else {
            error_ui(ui, "no such joint or vertex on the arm");
            return;
        };
        // Two stages to a row when two fit side by side (read left to right, top to
        // bottom), else one.
        let gap = 18.0;
        let mono = egui::TextStyle::Monospace.resolve(ui.style());
        let widest = ui.fonts_mut(|f| f.glyph_width(&mono, '0')) * STAGE_COLUMNS as f32;
        let half = (ui.available_width() - gap) / 2.0;
        let per_row = if half >= widest { 2 } else { 1 };
        let width = if per_row == 2 {
            half
        } else {
            ui.available_width()
        };
        let rows = self.rows(&stages);
        for (pair, two) in rows.chunks(per_row).enumerate() {
            ui.horizontal_top(|ui| {
                ui.spacing_mut().item_spacing.x = gap;
                for (k, row) in two.iter().enumerate() {
                    ui.allocate_ui_with_layout(
                        egui::vec2(width, 0.0),
                        egui::Layout::top_down(egui::Align::LEFT),
                        |ui| {
                            ui.set_width(width);
                            ui.horizontal_wrapped(|ui| {
                                let n = pair * per_row + k + 1;
                                ui.label(RichText::new(format!("{n}. {}", row.name)).strong());
                                // Whole, on the next line if it does not fit; none
                                // for a stage without one (an empty label would be
                                // a control with no name).
                                if !row.formula.is_empty() {
                                    ui.add(
                                        egui::Label::new(RichText::new(row.formula).monospace())
                                            .extend(),
                                    );
                                }
                            });
                            ui.add(
                                egui::Label::new(RichText::new(&row.value).monospace()).extend(),
                            );
                        },
                    );
                }
            });
            ui.add_space(8.0);
        }
        ui.label(RichText::new("Each matrix's bottom row is (0, 0, 0, 1) and is left out.").weak());
    }

    /// The six stages for the current state, with the numbers of the chosen joint and
    /// vertex.
    fn rows(&self, s: &Stages) -> Vec<Row> {
        let matrix = |m| affine_rows(m).join("\n");
        let weights: Vec<String> = s
            .influences
            .used()
            .map(|(j, w)| format!("{w:.2} {}", JOINT_NAMES.get(j).unwrap_or(&"?")))
            .collect();
        let pixel = match self
            .seen
            .and_then(|(clip_from_world, size)| to_pixel(clip_from_world, size, s.skinned))
        {
            Some((clip, ndc, [x, y])) => {
                // The viewport's size, so the last step can be done by hand.
                let [w, h] = self.seen.map_or([0.0; 2], |(_, size)| size);
                format!(
                    "xyz = {}\nclip.w = {:.2}\nxyz / clip.w\n    = {}\nin a {w:.0} × {h:.0} view:\npixel ({x:.0}, {y:.0})",
                    vec3_text(clip.truncate()),
                    clip.w,
                    vec3_text(ndc)
                )
            }
            None => "not on screen".to_owned(),
        };
        vec![
            Row {
                name: "Bind pose",
                formula: "B, at bind",
                value: matrix(&s.bind),
            },
            Row {
                name: "Inverse bind",
                formula: "B⁻¹",
                value: matrix(&s.inverse_bind),
            },
            Row {
                name: "Pose",
                formula: "W, now",
                value: matrix(&s.pose),
            },
            Row {
                name: "Palette",
                formula: "G = W · B⁻¹",
                value: matrix(&s.palette[self.joint]),
            },
            Row {
                name: "Shader",
                formula: "v' = Σ w[j] · G[j] · v",
                value: format!(
                    "v  = {}\nw  = {}\nv' = {}",
                    vec3_text(s.vertex),
                    weights.join("\n     "),
                    vec3_text(s.skinned)
                ),
            },
            Row {
                name: "Pixel",
                formula: "clip = P · V · v'",
                value: pixel,
            },
        ]
    }
}
