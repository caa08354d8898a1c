//! The X-ray page's notebook cells, and the words that describe a matrix.

use super::Cell;
use super::*;
use crate::link::Named;

/// `m * v` for a 4-vector, written out as the column-major product, and what the
/// result's `w` means when it is not the `w` a point or a vector should have.
fn product_text(m: &Mat4, v: glam::Vec4) -> (String, Option<String>) {
    let r = *m * v;
    let mut text = String::new();
    for row in 0..4 {
        let (l, rr) = match row {
            0 => ('⎡', '⎤'),
            3 => ('⎣', '⎦'),
            _ => ('⎢', '⎥'),
        };
        let cells: Vec<String> = (0..4).map(|c| format!("{:6.2}", m.col(c)[row])).collect();
        let op = if row == 1 { " × " } else { "   " };
        let eq = if row == 1 { " = " } else { "   " };
        text += &format!(
            "{l}{}{rr}{op}{l}{:6.2}{rr}{eq}{l}{:6.2}{rr}",
            cells.join(""),
            v[row],
            r[row]
        );
        if row < 3 {
            text.push('\n');
        }
    }
    // A point whose w came out other than 1 is drawn divided by it; a vector whose w
    // came out other than 0 is no longer a vector.
    let note = if v.w == 1.0 && r.w != 1.0 {
        Some(if r.w == 0.0 {
            "w = 0: the GPU cannot divide, and draws no point".to_owned()
        } else {
            let d = r.truncate() / r.w;
            format!(
                "÷ w = {:.2}: drawn at ({:.2}, {:.2}, {:.2})",
                r.w, d.x, d.y, d.z
            )
        })
    } else if v.w == 0.0 && r.w != 0.0 {
        Some(format!(
            "w = {:.2}, not 0: this bottom row gives even a vector a w, so it is no longer \
             a pure direction. The orange arrow shows its x, y, z alone. A skinning \
             matrix's bottom row is 0 0 0 1, and its vectors keep w = 0.",
            r.w
        ))
    } else {
        None
    };
    (text, note)
}

/// A product from [`product_text`]: the matrices scroll sideways where the column is
/// narrower than they are (a phone), never broken inside a row; the note wraps.
fn product_ui(ui: &mut Ui, id: &str, m: &Mat4, v: glam::Vec4) {
    let (text, note) = product_text(m, v);
    crate::ui::sideways_ui(ui, ("product", id), |ui| {
        ui.add(egui::Label::new(RichText::new(text).monospace()).extend());
    });
    if let Some(note) = note {
        crate::ui::mono_ui(ui, note);
    }
}

/// Plain-words notes on what the matrix does besides rotating and moving.
pub fn describe(m: &Mat4) -> Vec<String> {
    let mut notes = Vec::new();
    let names = ["x", "y", "z"];
    let cols = [
        m.x_axis.truncate(),
        m.y_axis.truncate(),
        m.z_axis.truncate(),
    ];
    let pairs = [(0, 1), (0, 2), (1, 2)];
    let cos = |a: usize, b: usize| cols[a].normalize_or_zero().dot(cols[b].normalize_or_zero());
    // A column that leans towards another is longer without any scale: a shear.
    let leans = |c: usize| {
        pairs
            .iter()
            .any(|&(a, b)| (a == c || b == c) && cos(a, b).abs() > 1e-3)
    };
    for (c, (name, length)) in names.iter().zip(column_lengths(m)).enumerate() {
        if (length - 1.0).abs() > 1e-3 {
            notes.push(if leans(c) {
                format!(
                    "The {name} column has length {length:.2} because it leans (below): \
                     not a plain scale along {name}."
                )
            } else {
                format!("The {name} column has length {length:.2}: the matrix scales along {name}.")
            });
        }
    }
    for (a, b) in pairs {
        let cos = cos(a, b);
        if cos.abs() > 1e-3 {
            let angle = cos.clamp(-1.0, 1.0).acos().to_degrees();
            notes.push(format!(
                "Columns {} and {} meet at {angle:.0}°, not 90°: the matrix shears.",
                names[a], names[b]
            ));
        }
    }
    if Mat3::from_mat4(*m).determinant() < 0.0 {
        notes.push(
            "The determinant is negative: the matrix mirrors space (left becomes right).".into(),
        );
    }
    if m.row(3) != glam::Vec4::W {
        notes.push(
            "The bottom row is not 0 0 0 1: this is a projection, not an affine transform.".into(),
        );
    }
    notes
}

impl XrayPage {
    pub(super) fn page_cell_ui(&mut self, cell: Cell, ui: &mut Ui) {
        match cell {
            Cell::Presets => {
                ui.horizontal_wrapped(|ui| {
                    for &preset in Preset::ALL {
                        if ui
                            .selectable_label(
                                self.preset == preset && self.matrix == preset.matrix(),
                                preset.label(),
                            )
                            .clicked()
                        {
                            self.set_preset(preset);
                        }
                    }
                });
            }
            Cell::Matrix => {
                ui.label(RichText::new("M — drag a number, or click to type").weak());
                match matrix_edit_ui(ui, "M", &mut self.matrix, within_limit) {
                    MatrixEdit::Changed => self.refused = None,
                    MatrixEdit::Refused(reason) => {
                        self.refused = Some(format!(
                            "Edit refused: {reason}. M keeps its last valid value."
                        ))
                    }
                    MatrixEdit::Unchanged => {}
                }
                if let Some(reason) = &self.refused {
                    error_ui(ui, reason);
                }
                ui.checkbox(
                    &mut self.transposed,
                    "Send M transposed: a matrix written for row vectors, read as columns",
                );
            }
            Cell::Multiply => {
                if let Some(reason) = Self::vec3_ui(ui, "point p (w = 1):", &mut self.point) {
                    self.refused = Some(reason);
                }
                product_ui(ui, "point", &self.matrix, self.point.extend(1.0));
                // The point's product and the vector's read as two blocks.
                ui.add_space(ui.spacing().item_spacing.y * 3.0);
                if let Some(reason) = Self::vec3_ui(ui, "vector v (w = 0):", &mut self.vector) {
                    self.refused = Some(reason);
                }
                product_ui(ui, "vector", &self.matrix, self.vector.extend(0.0));
                if let Some(reason) = &self.refused {
                    error_ui(ui, reason);
                }
            }
            Cell::Check => exercise::check_cell_ui(self, ui),
            Cell::Properties => {
                let det = Mat3::from_mat4(self.matrix).determinant();
                ui.label(format!("determinant of the 3×3 part: {det:.3}"));
                if is_rigid(&self.matrix, 1e-3) {
                    ui.label("Rigid: the x, y, z columns have length 1 and meet at right angles. M only rotates and moves.");
                } else {
                    ui.label(RichText::new("Not rigid:").strong());
                    for note in describe(&self.matrix) {
                        ui.label(format!("• {note}"));
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_shear_is_not_called_a_scale() {
        let shear = Mat4::from_cols(
            glam::Vec4::X,
            glam::Vec4::new(0.5, 1.0, 0.0, 0.0),
            glam::Vec4::Z,
            glam::Vec4::W,
        );
        let notes = describe(&shear).join(" ");
        assert!(notes.contains("shears"), "{notes}");
        assert!(notes.contains("because it leans"), "{notes}");
        assert!(!notes.contains("scales along y"), "{notes}");
        let scale = Mat4::from_scale(glam::Vec3::new(1.0, 2.0, 1.0));
        let notes = describe(&scale).join(" ");
        assert!(
            notes.contains("scales along y") && !notes.contains("shears"),
            "{notes}"
        );
    }
}
