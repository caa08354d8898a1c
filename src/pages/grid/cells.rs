//! The grid page's notebook cells.

use super::Cell;
use super::data;
use super::*;

/// The least width, in points, that holds two of the bone cell's matrices side by side.
const MATRICES_SIDE_BY_SIDE: f32 = 440.0;

impl GridPage {
    pub(super) fn page_cell_ui(&mut self, cell: Cell, ui: &mut Ui) {
        self.scroll_to.cell_ui(cell.into(), ui);
        match cell {
            Cell::Check => exercise::check_cell_ui(self, ui),
            Cell::Predict => self.predict_cell_ui(ui),
            Cell::Controls => {
                self.play_ui(ui);
                for bone in 0..BONE_COUNT {
                    let mut angle = self.angles[bone];
                    if angle_slider_ui(
                        ui,
                        &mut angle,
                        -180.0..=180.0,
                        &format!("b{bone} local angle"),
                        1,
                    ) {
                        self.angles[bone] = angle;
                        self.playing = false;
                    }
                }
            }
            Cell::Bone => {
                let pose = self.pose();
                ui.horizontal_wrapped(|ui| {
                    ui.label("Show bone:");
                    for bone in 0..BONE_COUNT {
                        ui.selectable_value(&mut self.bone, bone, format!("b{bone}"));
                    }
                });
                let b = self.bone;
                let gradient = pose.gradients[b];
                let local_title = format!("local  (b{b} from parent)");
                let blocks = [
                    (local_title.as_str(), "local", &pose.local[b]),
                    ("world = parent world · local", "world", &pose.world[b]),
                    ("inverse bind", "inverse bind", &pose.inverse_bind[b]),
                    ("gradient = world · inverse bind", "gradient", &gradient),
                ];
                // Two to a row where they fit; a phone shows one under the other.
                let per_row = if ui.available_width() >= MATRICES_SIDE_BY_SIDE {
                    2
                } else {
                    1
                };
                egui::Grid::new("bone_matrices")
                    .spacing([16.0, 8.0])
                    .show(ui, |ui| {
                        for (i, (title, name, matrix)) in blocks.into_iter().enumerate() {
                            ui.vertical(|ui| {
                                ui.label(RichText::new(title).strong());
                                matrix_view_ui(ui, name, matrix);
                            });
                            if i % per_row == per_row - 1 {
                                ui.end_row();
                            }
                        }
                    });
            }
            Cell::Vertex => {
                let pose = self.pose();
                ui.horizontal_wrapped(|ui| {
                    ui.label("Vertex:");
                    for i in 0..data::POSITIONS.len() {
                        if ui
                            .selectable_label(self.vertex == Some(i), i.to_string())
                            .clicked()
                        {
                            self.vertex = Some(i);
                        }
                    }
                });
                let Some(v) = self.vertex else {
                    let hint = "Click a vertex in the viewport, or a number above.";
                    let touch = crate::ui::touch(ui.ctx());
                    ui.label(RichText::new(crate::ui::pointer_words(hint, touch)).weak());
                    return;
                };
                let bind = self.mesh.skin.positions[v];
                let influences = &self.mesh.skin.influences[v];
                ui.label(format!(
                    "bind position {}   bones {:?}   weights {:?}",
                    self.inspect_style().point(bind),
                    influences.joints,
                    influences.weights
                ));
                if self.hidden_vertex() == Some(v) {
                    ui.label(
                        RichText::new(format!(
                            "Where vertex {v} lands stays hidden until you reveal your prediction."
                        ))
                        .weak(),
                    );
                } else if let Some(b) = VertexBreakdown::new(&pose.uploaded, &self.mesh.skin, v) {
                    breakdown_ui(ui, &b, &self.inspect_style());
                }
            }
            Cell::Forget => {
                crate::ui::checkbox_ui(
                    ui,
                    &mut self.forget_inverse_bind,
                    "Forget the inverse bind (upload world matrices)",
                );
                if self.forget_inverse_bind {
                    error_ui(
                        ui,
                        "The shader now gets world matrices. Vertex 4 sits at x = 4 and bone b1 sits at x = 4 too, so the vertex is moved by 4 twice and lands near x = 8.",
                    );
                }
            }
        }
    }
}
