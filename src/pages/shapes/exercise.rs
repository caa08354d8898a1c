//! The "check yourself" cell: a sum of shapes, the order against the skin, a driven
//! weight, and a shape's memory, each worked by hand.

use super::{Driver, ShapesPage, driven_weight};
use crate::ui::check::{Worked, hundredths, worked_cell_ui};
use egui::Ui;
use glam::Vec3;

/// A check-yourself exercise.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Exercise {
    /// A vertex with two shapes at their weights.
    Sum {
        v0: [f32; 3],
        a: [f32; 3],
        b: [f32; 3],
        weights: [f32; 2],
    },
    /// A forearm vertex (weight 1 on the forearm) with a shape, the elbow bent by
    /// `bend_degrees` about z at (2, 0, 0).
    Order {
        v0: [f32; 3],
        delta: [f32; 3],
        bend_degrees: f32,
    },
    /// The weight a bend gives a corrective made at another bend.
    Driven { made_at: f32, bend: f32 },
    /// Bytes of offsets for a mesh's shapes, positions and normals at 3 floats each.
    Memory { vertices: u32, targets: u32 },
}

// ANCHOR: exercises
/// The exercises, easiest first.
pub const EXERCISES: [Exercise; 4] = [
    Exercise::Sum {
        v0: [3.0, 0.5, 0.0],
        a: [0.0, 0.3, 0.0],
        b: [0.2, 0.0, 0.1],
        weights: [0.5, 2.0],
    },
    Exercise::Order {
        v0: [3.0, 0.5, 0.0],
        delta: [0.0, 0.3, 0.0],
        bend_degrees: 90.0,
    },
    Exercise::Driven {
        made_at: 120.0,
        bend: 45.0,
    },
    Exercise::Memory {
        vertices: 5000,
        targets: 3,
    },
];
// ANCHOR_END: exercises

/// Where the forearm (weight 1) puts `p` with the elbow at (2, 0, 0) bent by `degrees`.
fn forearm(degrees: f32, p: Vec3) -> Vec3 {
    rigs::arm::palette(0.0, degrees.to_radians())[1].transform_point3(p)
}

/// `(x, y, z)` to hundredths.
fn text(v: Vec3) -> String {
    let [x, y, z] = v.to_array().map(hundredths);
    format!("({x}, {y}, {z})")
}

impl Worked for Exercise {
    /// The answer, as the page computes it.
    fn answer(&self) -> Vec<f32> {
        match *self {
            Self::Sum { v0, a, b, weights } => {
                let v = Vec3::from(v0) + weights[0] * Vec3::from(a) + weights[1] * Vec3::from(b);
                v.to_array().to_vec()
            }
            Self::Order {
                v0,
                delta,
                bend_degrees,
            } => forearm(bend_degrees, Vec3::from(v0) + Vec3::from(delta))
                .to_array()
                .to_vec(),
            Self::Driven { made_at, bend } => {
                vec![driven_weight(
                    Driver::Linear,
                    bend.to_radians(),
                    made_at.to_radians(),
                )]
            }
            Self::Memory { vertices, targets } => vec![(vertices * targets * 2 * 12) as f32],
        }
    }

    /// A likely wrong answer and what it shows.
    fn mistake(&self) -> Option<(Vec<f32>, &'static str)> {
        match *self {
            Self::Sum { v0, a, b, weights } => {
                let total = weights[0] + weights[1];
                let v = Vec3::from(v0)
                    + (weights[0] * Vec3::from(a) + weights[1] * Vec3::from(b)) / total;
                Some((
                    v.to_array().to_vec(),
                    "the weights were divided by their sum: shape weights need not sum to 1",
                ))
            }
            Self::Order {
                v0,
                delta,
                bend_degrees,
            } => Some((
                (forearm(bend_degrees, Vec3::from(v0)) + Vec3::from(delta))
                    .to_array()
                    .to_vec(),
                "the offset was added after the skin: it lives in bind space, so it turns with the forearm",
            )),
            Self::Driven { .. } => None,
            Self::Memory { vertices, targets } => Some((
                vec![(vertices * targets * 12) as f32],
                "that is the positions' offsets alone: each normal has an offset too",
            )),
        }
    }

    /// The question, in words.
    fn question(&self) -> String {
        match *self {
            Self::Sum { v0, a, b, weights } => format!(
                "A vertex sits at {} in the bind pose. Shape A moves it by {}, shape B by {}. With A at weight {} and B at weight {}, where is it before the skin (x, y, z)?",
                text(v0.into()),
                text(a.into()),
                text(b.into()),
                weights[0],
                weights[1]
            ),
            Self::Order {
                v0,
                delta,
                bend_degrees,
            } => format!(
                "A vertex at {} belongs to the forearm alone. A shape at weight 1 moves it by {}. The elbow, at (2, 0, 0), bends {bend_degrees}° about z. Where is the vertex drawn (x, y, z)?",
                text(v0.into()),
                text(delta.into())
            ),
            Self::Driven { made_at, bend } => format!(
                "A corrective was made for the elbow bent {made_at}°. Its weight rises in a straight line from 0 with the arm straight to 1 at {made_at}°. The elbow bends {bend}°. What is the weight?"
            ),
            Self::Memory { vertices, targets } => format!(
                "A head has {vertices} vertices and {targets} shapes. Each shape stores an offset for every position and every normal, three 4-byte floats each. How many bytes do the offsets take?"
            ),
        }
    }

    /// The working, step by step.
    fn working(&self) -> String {
        match *self {
            Self::Sum { v0, a, b, weights } => format!(
                "v = v0 + wA · ΔA + wB · ΔB\n  = {} + {} · {} + {} · {}\n  = {}",
                text(v0.into()),
                weights[0],
                text(a.into()),
                weights[1],
                text(b.into()),
                text(Vec3::from_slice(&self.answer()))
            ),
            Self::Order {
                v0,
                delta,
                bend_degrees,
            } => {
                let morphed = Vec3::from(v0) + Vec3::from(delta);
                format!(
                    "first the shape, in bind space: v = {} + {} = {}\nthen the skin: from the elbow, {} turns {bend_degrees}° to {}\nv' = {}",
                    text(v0.into()),
                    text(delta.into()),
                    text(morphed),
                    text(morphed - Vec3::X * 2.0),
                    text(forearm(bend_degrees, morphed) - Vec3::X * 2.0),
                    text(forearm(bend_degrees, morphed))
                )
            }
            Self::Driven { made_at, bend } => format!(
                "weight = bend / made at = {bend} / {made_at} = {}",
                hundredths(self.answer()[0])
            ),
            Self::Memory { vertices, targets } => format!(
                "{vertices} vertices × {targets} shapes × 2 offsets × 3 floats × 4 bytes = {} bytes",
                self.answer()[0]
            ),
        }
    }

    /// The answer fields' names.
    fn labels(&self) -> &'static [&'static str] {
        match self {
            Self::Sum { .. } | Self::Order { .. } => &["x", "y", "z"],
            Self::Driven { .. } => &["weight"],
            Self::Memory { .. } => &["bytes"],
        }
    }

    fn tolerance(&self) -> f32 {
        match self {
            Self::Memory { .. } => 0.5,
            _ => 0.01,
        }
    }
}

impl ShapesPage {
    /// The exercise picker, the question, the answer fields and the working.
    pub(super) fn check_cell_ui(&mut self, ui: &mut Ui) {
        worked_cell_ui(
            ui,
            "shapes",
            &EXERCISES,
            &mut self.exercise,
            &mut self.check,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_answers_are_the_ones_worked_out_by_hand() {
        // By hand: (3, 0.5, 0) + 0.5 (0, 0.3, 0) + 2 (0.2, 0, 0.1) = (3.4, 0.65, 0.2).
        // (3, 0.8, 0) is (1, 0.8) from the elbow; a quarter turn makes it (−0.8, 1).
        // 45 / 120 = 0.375. 5000 × 3 × 2 × 12 = 360,000.
        let by_hand: [&[f32]; 4] = [&[3.4, 0.65, 0.2], &[1.2, 1.0, 0.0], &[0.375], &[360_000.0]];
        for (e, expected) in EXERCISES.iter().zip(by_hand) {
            let got = e.answer();
            assert_eq!(got.len(), expected.len(), "{e:?}");
            for (g, x) in got.iter().zip(expected) {
                assert!((g - x).abs() < 1e-4, "{e:?}: {got:?}");
            }
            if let Some((wrong, _)) = e.mistake() {
                assert!(
                    wrong
                        .iter()
                        .zip(expected)
                        .any(|(w, x)| (w - x).abs() > 0.05),
                    "{e:?}"
                );
            }
        }
    }
}
