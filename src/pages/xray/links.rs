//! The xray page's link parameters, declared once.

use super::*;
use crate::link::choice;
use crate::link::{Exercises, question};

// A preset's matrix is written as its name; any other matrix as its numbers.
/// Every link parameter of the page, applied and written in this order.
pub(super) const PARAMS: &[Param<XrayPage>] = &[
    Param {
        key: "preset",
        doc: "a named starting matrix",
        cell: Some("presets"),
        // A preset is written while the matrix is still the preset's.
        access: choice!(Preset,
            set: |s, preset| s.set_preset(preset),
            get: |s| (s.matrix == s.preset.matrix()).then_some(s.preset),
        ),
    },
    Param {
        key: "m",
        doc: "the matrix M, column by column",
        cell: Some("matrix"),
        access: Access::Numbers {
            count: 16,
            min: -LIMIT,
            max: LIMIT,
            set: |s, xs| {
                if let Ok(cells) = <[f32; 16]>::try_from(xs) {
                    s.matrix = Mat4::from_cols_array(&cells);
                }
            },
            get: |s| (s.matrix != s.preset.matrix()).then(|| s.matrix.to_cols_array().to_vec()),
        },
    },
    Param {
        key: "transposed",
        doc: "whether the viewport draws M transposed, a matrix for row vectors read as columns",
        cell: Some("matrix"),
        access: Access::Bool {
            set: |s, on| s.transposed = on,
            get: |s| s.transposed.then_some(true),
        },
    },
    Param {
        key: "p",
        doc: "the point p (x, y, z) that M moves",
        cell: Some("multiply"),
        access: Access::Numbers {
            count: 3,
            min: -LIMIT,
            max: LIMIT,
            set: |s, xs| {
                if let Ok(p) = <[f32; 3]>::try_from(xs) {
                    s.point = Vec3::from(p);
                }
            },
            get: |s| (s.point != DEFAULT_POINT).then(|| s.point.to_array().to_vec()),
        },
    },
    Param {
        key: "v",
        doc: "the vector v (x, y, z) that M turns and scales",
        cell: Some("multiply"),
        access: Access::Numbers {
            count: 3,
            min: -LIMIT,
            max: LIMIT,
            set: |s, xs| {
                if let Ok(v) = <[f32; 3]>::try_from(xs) {
                    s.vector = Vec3::from(v);
                }
            },
            get: |s| (s.vector != DEFAULT_VECTOR).then(|| s.vector.to_array().to_vec()),
        },
    },
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
