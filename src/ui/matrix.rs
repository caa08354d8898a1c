//! A 4x4 matrix shown column-major: each column is one basis vector (x, y, z) or the
//! translation, tinted like the arrow it draws.

use super::AXIS_COLORS;
use egui::{DragValue, RichText, Role, Ui, WidgetInfo};
use glam::Mat4;

/// What an edit did.
#[derive(Clone, Debug, PartialEq)]
pub enum MatrixEdit {
    /// Nothing was touched.
    Unchanged,
    /// The matrix took a new, valid value.
    Changed,
    /// An edit was refused; the matrix kept its last valid value.
    Refused(String),
}

const COLUMN_NAMES: [&str; 4] = ["x", "y", "z", "t"];

/// The accessibility label of one cell, e.g. `M row 1 column 3`.
pub fn cell_label(name: &str, row: usize, column: usize) -> String {
    format!("{name} row {} column {}", row + 1, column + 1)
}

fn tinted(ui: &Ui, column: usize) -> egui::Frame {
    let c = AXIS_COLORS[column];
    let alpha = if ui.visuals().dark_mode { 70 } else { 60 };
    egui::Frame::new()
        .fill(egui::Color32::from_rgba_unmultiplied(
            c.r(),
            c.g(),
            c.b(),
            alpha,
        ))
        .inner_margin(egui::Margin::symmetric(3, 1))
        .corner_radius(3.0)
}

fn header_ui(ui: &mut Ui) {
    for (column, name) in COLUMN_NAMES.iter().enumerate() {
        ui.vertical_centered(|ui| {
            ui.label(
                RichText::new(*name)
                    .strong()
                    .color(super::legible(ui, AXIS_COLORS[column])),
            )
        });
    }
    ui.end_row();
}

/// An editable matrix. Every cell is a draggable number; an edit that `validate`
/// refuses (or that is not finite) is undone and reported.
pub fn matrix_edit_ui(
    ui: &mut Ui,
    name: &str,
    matrix: &mut Mat4,
    validate: impl Fn(&Mat4) -> Result<(), String>,
) -> MatrixEdit {
    matrix_edit_decimals_ui(ui, name, matrix, 2, validate)
}

/// [`matrix_edit_ui`] with `decimals` decimals in each cell, and a drag that moves two
/// of the last of them a point (a hundred points of mouse carry a cell by 2 at two
/// decimals, as the app's other draggable numbers do).
pub fn matrix_edit_decimals_ui(
    ui: &mut Ui,
    name: &str,
    matrix: &mut Mat4,
    decimals: usize,
    validate: impl Fn(&Mat4) -> Result<(), String>,
) -> MatrixEdit {
    let mut candidate = *matrix;
    let mut touched = false;
    // Typed text that is not a number: egui keeps the old value and says nothing, so
    // the cell's parser notes it for the refusal below.
    let unread: std::cell::RefCell<Option<String>> = Default::default();
    egui::Grid::new(("matrix", name))
        .spacing([4.0, 3.0])
        .show(ui, |ui| {
            header_ui(ui);
            for row in 0..4 {
                for (column, edge) in AXIS_COLORS.iter().enumerate() {
                    let cell = &mut candidate.col_mut(column)[row];
                    let current = f64::from(*cell);
                    let shown = tinted(ui, column).show(ui, |ui| {
                        ui.add(
                            DragValue::new(cell)
                                .speed(2.0 * 10f64.powi(-(decimals as i32)))
                                // A typed number is judged when it is entered: judged
                                // at each keystroke, a refused one left the field
                                // showing the old value rounded, which Enter then
                                // stored in place of the refusal.
                                .update_while_editing(false)
                                .fixed_decimals(decimals)
                                .min_decimals(decimals)
                                .custom_formatter(|x, _| fixed(x as f32, decimals))
                                .custom_parser(|text| {
                                    let read = super::numbers::typed_near(text, current, decimals);
                                    if read.is_none() {
                                        *unread.borrow_mut() = Some(text.trim().to_owned());
                                    }
                                    read
                                }),
                        )
                    });
                    // An edge in the column's colour tells a cell that can be dragged
                    // from one that only shows a number ([`matrix_view_ui`]).
                    ui.painter().rect_stroke(
                        shown.response.rect,
                        3.0,
                        egui::Stroke::new(1.0, *edge),
                        egui::StrokeKind::Inside,
                    );
                    let response = shown.inner;
                    let label = cell_label(name, row, column);
                    let value = *cell as f64;
                    response.widget_info(|| {
                        let mut info = WidgetInfo::labeled(Role::SpinButton, true, label.clone());
                        info.value = Some(value);
                        info
                    });
                    touched |= response.changed();
                }
                ui.end_row();
            }
        });
    if let Some(text) = unread.into_inner() {
        return MatrixEdit::Refused(format!("`{text}` is not a number"));
    }
    if !touched || candidate == *matrix {
        return MatrixEdit::Unchanged;
    }
    let verdict = skin::matrix::check_finite(&candidate)
        .map_err(|e| e.to_string())
        .and_then(|()| validate(&candidate));
    match verdict {
        Ok(()) => {
            *matrix = candidate;
            MatrixEdit::Changed
        }
        Err(reason) => MatrixEdit::Refused(reason),
    }
}

/// `x` with two decimals, without a sign on a value that rounds to zero (no "-0.00").
pub fn fixed2(x: f32) -> String {
    fixed(x, 2)
}

/// `x` with `decimals` decimals, without a sign on a value that rounds to zero.
pub fn fixed(x: f32, decimals: usize) -> String {
    without_negative_zero(format!("{x:.decimals$}"))
}

/// A number's text without the sign of a value that rounds to zero: `-0.000` is `0.000`.
pub fn without_negative_zero(text: String) -> String {
    match text.strip_prefix('-') {
        Some(rest) if rest.chars().all(|c| c == '0' || c == '.') => rest.to_owned(),
        _ => text,
    }
}

/// How far two results that should agree lie apart, for a note in brackets: "exactly"
/// when they are equal, else the largest difference, which rounding explains.
pub fn agreement_text(largest_difference: f32) -> String {
    if largest_difference == 0.0 {
        "exactly".to_owned()
    } else {
        format!("largest difference {largest_difference:.1e}: rounding only")
    }
}

/// A point as `(x, y, z)` with `decimals` decimals.
pub fn fixed_point(v: glam::Vec3, decimals: usize) -> String {
    let [x, y, z] = v.to_array().map(|c| fixed(c, decimals));
    format!("({x}, {y}, {z})")
}

/// How many decimals show a coordinate of something `size` across to about four
/// significant digits: 2 for a size of 10 to 100, 5 for a size of 0.01 to 0.1.
pub fn decimals_for(size: f32) -> usize {
    if !(size.is_finite() && size > 0.0) {
        return 2;
    }
    (3 - size.log10().floor() as i32).clamp(2, 7) as usize
}

/// A vector as `(x, y, z)` with two decimals.
pub fn vec3_text(v: glam::Vec3) -> String {
    fixed_point(v, 2)
}

/// A quaternion as `(x, y, z, w)` with three decimals, without a sign on a value that
/// rounds to zero.
pub fn quat_text(q: glam::Quat) -> String {
    let [x, y, z, w] = q.to_array().map(|c| fixed(c, 3));
    format!("({x}, {y}, {z}, {w})")
}

/// A vector as `(x, y, z)` with three decimals, as [`quat_text`] writes its parts.
pub fn vec3_text3(v: glam::Vec3) -> String {
    fixed_point(v, 3)
}

/// The rows of an R-row matrix with `columns` columns whose entry at (row, column) is
/// `entry`, bracketed, for a monospace label.
fn bracketed_rows<const R: usize>(
    columns: usize,
    entry: impl Fn(usize, usize) -> f32,
) -> [String; R] {
    std::array::from_fn(|r| {
        let row: String = (0..columns)
            .map(|c| format!("{:>6}", fixed2(entry(r, c))))
            .collect();
        let (left, right) = match r {
            0 => ('⎡', '⎤'),
            _ if r + 1 == R => ('⎣', '⎦'),
            _ => ('⎢', '⎥'),
        };
        format!("{left}{row} {right}")
    })
}

/// The three rows of a 3×3 matrix, bracketed, for a monospace label.
pub fn mat3_rows(m: &glam::Mat3) -> [String; 3] {
    bracketed_rows(3, |r, c| m.col(c)[r])
}

/// The top three rows of a 4×4 matrix whose bottom row is (0, 0, 0, 1), bracketed, for
/// a monospace label.
pub fn affine_rows(m: &Mat4) -> [String; 3] {
    bracketed_rows(4, |r, c| m.col(c)[r])
}

/// Two 3×3 matrices side by side under their names, for a monospace label.
pub fn two_mat3_text(a: (&str, &glam::Mat3), b: (&str, &glam::Mat3)) -> String {
    let (ra, rb) = (mat3_rows(a.1), mat3_rows(b.1));
    let w = a.0.chars().count().max(22) + 2;
    let mut text = format!("{:<w$}{}\n", a.0, b.0);
    for (l, r) in ra.iter().zip(&rb) {
        text += &format!("{l:<w$}{r}\n");
    }
    text
}

/// A read-only matrix in the same layout.
pub fn matrix_view_ui(ui: &mut Ui, name: &str, matrix: &Mat4) {
    matrix_view_decimals_ui(ui, name, matrix, [2; 4]);
}

/// [`matrix_view_ui`] with each column's numbers to about four significant digits
/// ([`column_decimals`]): for a model of any scale, whose palette may hold a 3×3 part
/// of hundreds (an armature scaled by 100) beside a translation of tenths.
pub fn matrix_view_significant_ui(ui: &mut Ui, name: &str, matrix: &Mat4) {
    // Numbers of up to seven characters: on a phone the matrix scrolls sideways rather
    // than break one across lines.
    super::table_ui(ui, ("significant", name), |ui| {
        matrix_view_decimals_ui(ui, name, matrix, column_decimals(matrix));
    });
}

/// The decimals that write each column's largest number (of its top three rows) to
/// four significant digits.
pub fn column_decimals(matrix: &Mat4) -> [usize; 4] {
    std::array::from_fn(|c| {
        let largest = (matrix.col(c).truncate().to_array())
            .map(f32::abs)
            .into_iter()
            .filter(|x| x.is_finite())
            .fold(0.0_f32, f32::max);
        decimals_for(largest)
    })
}

/// [`matrix_view_ui`] with `decimals[c]` decimals in column `c`.
fn matrix_view_decimals_ui(ui: &mut Ui, name: &str, matrix: &Mat4, decimals: [usize; 4]) {
    egui::Grid::new(("matrix_view", name))
        .spacing([4.0, 3.0])
        .show(ui, |ui| {
            header_ui(ui);
            for row in 0..4 {
                for (column, &decimals) in decimals.iter().enumerate() {
                    tinted(ui, column).show(ui, |ui| {
                        let text = fixed(matrix.col(column)[row], decimals);
                        // Never broken across lines: a narrow column (a phone) makes
                        // the matrix scroll or wrap whole, not split a number.
                        ui.add(
                            egui::Label::new(RichText::new(format!("{text:>6}")).monospace())
                                .extend(),
                        );
                    });
                }
                ui.end_row();
            }
        });
}

/// The decimals that write a matrix's largest number (of its top three rows) to four
/// significant digits: 2 for numbers of tens and hundreds, 5 for a skin scaled to a
/// hundredth (`0.03124`).
pub fn matrix_decimals(matrix: &Mat4) -> usize {
    let largest = (0..4)
        .flat_map(|c| matrix.col(c).truncate().to_array())
        .map(f32::abs)
        .filter(|x| x.is_finite())
        .fold(0.0_f32, f32::max);
    decimals_for(largest)
}

/// Read-only matrices side by side, each under its label, starting a new row where the
/// next would not fit: `(label, name, matrix)`, `name` as for [`matrix_view_ui`].
pub fn matrices_view_ui<'a>(
    ui: &mut Ui,
    matrices: impl IntoIterator<Item = (egui::RichText, String, &'a Mat4)>,
) {
    side_by_side_ui(
        ui,
        matrices.into_iter().map(|(label, name, matrix)| {
            Box::new(move |ui: &mut Ui| {
                ui.label(label);
                matrix_view_ui(ui, &name, matrix);
            }) as Box<dyn FnOnce(&mut Ui) + 'a>
        }),
    );
}

/// Groups side by side (matrices under their titles, say), each drawn top to bottom by
/// its closure, starting a new row where the next would not fit.
pub fn side_by_side_ui<'a>(
    ui: &mut Ui,
    groups: impl IntoIterator<Item = Box<dyn FnOnce(&mut Ui) + 'a>>,
) {
    ui.horizontal_wrapped(|ui| {
        // A group's width is known only once drawn; the groups are alike (a matrix
        // each), so the widest so far stands for the next.
        let mut widest = 0.0_f32;
        for (k, group) in groups.into_iter().enumerate() {
            if k > 0 && ui.available_size_before_wrap().x < widest {
                ui.end_row();
            }
            let shown = ui.vertical(group);
            widest = widest.max(shown.response.rect.width());
        }
    });
}

#[cfg(test)]
mod tests {
    #[test]
    fn tiny_negatives_lose_their_sign() {
        assert_eq!(super::fixed2(-1e-8), "0.00");
        assert_eq!(super::fixed2(-0.0), "0.00");
        assert_eq!(super::fixed2(-0.006), "-0.01");
        assert_eq!(super::fixed2(1.234), "1.23");
    }
}

#[cfg(test)]
mod number_tests {
    use super::*;

    #[test]
    fn numbers_keep_about_four_significant_digits() {
        assert_eq!(fixed(-0.0001, 2), "0.00");
        assert_eq!(fixed(-0.027_123, decimals_for(0.05)), "-0.02712");
        assert_eq!(fixed(2.1375, decimals_for(5.0)), "2.138");
        assert_eq!(decimals_for(80.0), 2);
        assert_eq!(decimals_for(f32::NAN), 2);
        assert_eq!(
            vec3_text3(glam::Vec3::splat(-0.0002)),
            "(0.000, 0.000, 0.000)"
        );
    }
}
