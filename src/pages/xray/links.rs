//! The xray page's link parameters, declared once.

use super::*;
use crate::link::param;
use crate::link::{Exercises, question};

// A preset's matrix is written as its name; any other matrix as its numbers.
/// Every link parameter of the page, applied and written in this order.
#[rustfmt::skip]
pub(super) const PARAMS: &[Param<XrayPage>] = &[
    // A preset is written while the matrix is still the preset's.
    param! { "preset", "a named starting matrix", @"presets", choice(Preset),
        set: |s, preset| s.set_preset(preset),
        get: |s| (s.matrix == s.preset.matrix()).then_some(s.preset) },
    param! { "m", "the matrix M, column by column", @"matrix", numbers(16, -LIMIT, LIMIT),
        set: |s, xs| {
            if let Ok(cells) = <[f32; 16]>::try_from(xs) {
                s.matrix = Mat4::from_cols_array(&cells);
            }
        },
        get: |s| (s.matrix != s.preset.matrix()).then(|| s.matrix.to_cols_array().to_vec()) },
    param! { "transposed", "whether the viewport draws M transposed, a matrix for row vectors read as columns", @"matrix",
        bool, s.transposed },
    param! { "p", "the point p (x, y, z) that M moves", @"multiply", numbers(3, -LIMIT, LIMIT),
        set: |s, xs| {
            if let Ok(p) = <[f32; 3]>::try_from(xs) {
                s.point = Vec3::from(p);
            }
        },
        get: |s| Some(s.point.to_array().to_vec()) },
    param! { "v", "the vector v (x, y, z) that M turns and scales", @"multiply",
        numbers(3, -LIMIT, LIMIT),
        set: |s, xs| {
            if let Ok(v) = <[f32; 3]>::try_from(xs) {
                s.vector = Vec3::from(v);
            }
        },
        get: |s| Some(s.vector.to_array().to_vec()) },
    question(),
];

impl Exercises for XrayPage {
    const COUNT: usize = exercise::EXERCISES.len();

    fn exercise(&self) -> usize {
        self.exercise
    }

    fn show_exercise(&mut self, index: usize) {
        self.exercise = index;
    }
}
