//! The "check yourself" cell: a matrix times a point or a vector, worked by hand.

use super::XrayPage;
use crate::ui::check::{Question, check_ui, exercise_picker_ui, hundredths as r};
use egui::Ui;
use glam::{Mat4, Vec3, Vec4};

/// One exercise: a turn about z and a move, applied to a point (w = 1) or a vector
/// (w = 0).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Exercise {
    /// The turn about z, degrees.
    pub turn_degrees: f32,
    /// The move: the matrix's fourth column.
    pub offset: [f32; 3],
    /// The input's x, y, z.
    pub input: [f32; 3],
    /// 1 for a point, 0 for a vector.
    pub w: f32,
}

/// The exercises, easiest first.
pub const EXERCISES: [Exercise; 3] = [
    Exercise {
        turn_degrees: 0.0,
        offset: [2.0, -1.0, 3.0],
        input: [1.0, 1.0, 1.0],
        w: 1.0,
    },
    Exercise {
        turn_degrees: 90.0,
        offset: [2.0, 0.0, 0.0],
        input: [1.0, 0.0, 0.0],
        w: 1.0,
    },
    Exercise {
        turn_degrees: 90.0,
        offset: [2.0, 0.0, 0.0],
        input: [1.0, 0.0, 0.0],
        w: 0.0,
    },
];

impl Exercise {
    /// `T(offset) · Rz(turn)`.
    pub fn matrix(&self) -> Mat4 {
        let m = Mat4::from_translation(Vec3::from(self.offset))
            * Mat4::from_rotation_z(self.turn_degrees.to_radians());
        // cos 90° in f32 is -4.4e-8, not 0: a quarter turn's entries are whole numbers,
        // and the cells and the link show them so (never -0.00).
        let whole = |x: f32| {
            if (x - x.round()).abs() < 1e-6 {
                x.round() + 0.0
            } else {
                x
            }
        };
        Mat4::from_cols_array(&m.to_cols_array().map(whole))
    }

    /// The input as a 4-vector.
    pub fn input4(&self) -> Vec4 {
        Vec3::from(self.input).extend(self.w)
    }

    /// `M · (x, y, z, w)`, its x, y and z.
    pub fn answer(&self) -> Vec3 {
        (self.matrix() * self.input4()).truncate()
    }

    fn kind(&self) -> &'static str {
        if self.w == 0.0 { "vector" } else { "point" }
    }
}

/// The working: the matrix's columns, then the product as a sum of columns.
pub fn working(e: &Exercise) -> String {
    let m = e.matrix();
    let [x, y, z] = e.input;
    let col = |i: usize| {
        let c = m.col(i).truncate();
        format!("({}, {}, {})", r(c.x), r(c.y), r(c.z))
    };
    let a = e.answer();
    format!(
        "columns: x {}, y {}, z {}, t {}\nM · ({x}, {y}, {z}, {}) = {x}·x + {y}·y + {z}·z + {}·t\n= ({}, {}, {}){}",
        col(0),
        col(1),
        col(2),
        col(3),
        e.w,
        e.w,
        r(a.x),
        r(a.y),
        r(a.z),
        if e.w == 0.0 {
            "\nw = 0: the t column drops out, so a vector is turned but never moved."
        } else {
            ""
        }
    )
}

impl XrayPage {
    /// Puts the exercise's M in the matrix and its input in the multiply cell's point
    /// or vector, so the viewport draws the question.
    fn show_exercise_matrix(&mut self, e: &Exercise) {
        self.matrix = e.matrix();
        if e.w == 0.0 {
            self.vector = Vec3::from(e.input);
        } else {
            self.point = Vec3::from(e.input);
        }
    }
}

/// The exercise picker, the question, the answer fields and the working.
pub(super) fn check_cell_ui(page: &mut XrayPage, ui: &mut Ui) {
    exercise_picker_ui(ui, &mut page.exercise, EXERCISES.len(), &mut page.check);
    let e = EXERCISES[page.exercise.min(EXERCISES.len() - 1)];
    let [x, y, z] = e.input;
    let [tx, ty, tz] = e.offset;
    let motion = if e.turn_degrees == 0.0 {
        format!("M does not turn; it only moves by ({tx}, {ty}, {tz}).")
    } else {
        format!(
            "M turns {}° about z, then moves by ({tx}, {ty}, {tz}).",
            e.turn_degrees
        )
    };
    // The vector and "w = 1" each stay on one line.
    ui.label(format!(
        "{motion} Type M times the {} ({x},\u{a0}{y},\u{a0}{z}) with w\u{a0}=\u{a0}{}.",
        e.kind(),
        e.w
    ));
    if crate::ui::show_pose_ui(ui) {
        page.show_exercise_matrix(&e);
    }
    let expected = e.answer().to_array();
    // The other w: a vector moved, or a point left unmoved.
    let other_w = (e.matrix() * Vec3::from(e.input).extend(1.0 - e.w))
        .truncate()
        .to_array();
    let hint = if e.w == 0.0 {
        "a vector has w = 0, so M's t column (the move) does not apply to it"
    } else {
        "a point has w = 1, so M's t column (the move) applies to it too"
    };
    // For a point, two slips more: moved first and turned after (M is T · R, so it
    // turns first), and the move alone, the point's own numbers left out.
    let input = Vec3::from(e.input);
    let turn = glam::Mat4::from_rotation_z(e.turn_degrees.to_radians());
    let moved_first = (turn * glam::Mat4::from_translation(Vec3::from(e.offset)))
        .transform_point3(input)
        .to_array();
    let mut mistakes: Vec<(&[f32], &str)> = vec![(&other_w, hint)];
    if e.w == 1.0 {
        if e.turn_degrees != 0.0 {
            mistakes.push((
                &moved_first,
                "that is the point moved first and turned after; M = T · R turns it first, \
                 then moves it",
            ));
        }
        mistakes.push((
            &e.offset,
            "that is M's t column alone: the point's own x, y, z come first (its columns \
             x, y, z times 1, 1, 1), then the move is added",
        ));
    }
    let question = Question {
        name: "product",
        labels: &["x", "y", "z"],
        columns: 3,
        expected: &expected,
        tolerance: 0.01,
        mistakes: &mistakes,
    };
    check_ui(ui, &mut page.check, &question, |ui| {
        crate::ui::check::working_ui(ui, &working(&e))
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_and_working() {
        assert_eq!(EXERCISES[0].answer(), Vec3::new(3.0, 0.0, 4.0));
        assert!(
            EXERCISES[1]
                .answer()
                .abs_diff_eq(Vec3::new(2.0, 1.0, 0.0), 1e-6)
        );
        assert!(
            EXERCISES[2]
                .answer()
                .abs_diff_eq(Vec3::new(0.0, 1.0, 0.0), 1e-6)
        );
        let text = working(&EXERCISES[2]);
        assert!(text.contains("drops out"), "{text}");
        assert!(!text.contains("-0"), "{text}");
    }
}
