//! The "check yourself" cell: how alike two sets of weights are, a centre from two
//! triangles, a vertex turned about its centre, and what the centres cost, each worked
//! by hand.

use super::CentresPage;
use crate::ui::check::{Worked, hundredths, worked_cell_ui};
use egui::Ui;
use glam::{Quat, Vec3};
use skin::cor::{SIGMA, similarity};

/// A check-yourself exercise.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Exercise {
    /// The similarity of two vertices' weights on the same two joints.
    Alike { a: [f32; 2], b: [f32; 2] },
    /// A centre from two triangles: each centroid, area and similarity.
    Centre {
        centroids: [[f32; 3]; 2],
        areas: [f32; 2],
        alike: [f32; 2],
    },
    /// A vertex turned `degrees` about z about its centre, the centre moved to `moved`.
    Turn {
        v: [f32; 3],
        centre: [f32; 3],
        moved: [f32; 3],
        degrees: f32,
    },
    /// Bytes the centres of a mesh take.
    Memory { vertices: u32 },
}

// ANCHOR: exercises
/// The exercises, easiest first.
pub const EXERCISES: [Exercise; 4] = [
    Exercise::Alike {
        a: [0.5, 0.5],
        b: [0.6, 0.4],
    },
    Exercise::Centre {
        centroids: [[1.0, 0.0, 0.0], [2.0, 0.0, 0.0]],
        areas: [2.0, 1.0],
        alike: [0.06, 0.03],
    },
    Exercise::Turn {
        v: [2.0, 0.5, 0.0],
        centre: [2.0, 0.0, 0.0],
        moved: [2.0, 0.0, 0.0],
        degrees: 90.0,
    },
    Exercise::Memory { vertices: 5000 },
];
// ANCHOR_END: exercises

/// `(x, y, z)` to hundredths.
fn text(v: Vec3) -> String {
    let [x, y, z] = v.to_array().map(hundredths);
    format!("({x}, {y}, {z})")
}

/// `v` turned `degrees` about z.
fn turned(degrees: f32, v: Vec3) -> Vec3 {
    Quat::from_rotation_z(degrees.to_radians()) * v
}

impl Worked for Exercise {
    /// The answer, as the page computes it.
    fn answer(&self) -> Vec<f32> {
        match *self {
            Self::Alike { a, b } => {
                vec![similarity(&[(0, a[0]), (1, a[1])], &[(0, b[0]), (1, b[1])])]
            }
            Self::Centre {
                centroids,
                areas,
                alike,
            } => {
                let (w0, w1) = (areas[0] * alike[0], areas[1] * alike[1]);
                let c = (Vec3::from(centroids[0]) * w0 + Vec3::from(centroids[1]) * w1) / (w0 + w1);
                c.to_array().to_vec()
            }
            Self::Turn {
                v,
                centre,
                moved,
                degrees,
            } => (turned(degrees, Vec3::from(v) - Vec3::from(centre)) + Vec3::from(moved))
                .to_array()
                .to_vec(),
            Self::Memory { vertices } => vec![(vertices * 12) as f32],
        }
    }

    /// A likely wrong answer and what it shows.
    fn mistake(&self) -> Option<(Vec<f32>, &'static str)> {
        match *self {
            Self::Alike { a, b } => Some((
                vec![a[0] * a[1] * b[0] * b[1]],
                "that is the product alone: the kernel exp(−(a0·b1 − a1·b0)² / σ²) scales it down",
            )),
            Self::Centre { centroids, .. } => Some((
                ((Vec3::from(centroids[0]) + Vec3::from(centroids[1])) / 2.0)
                    .to_array()
                    .to_vec(),
                "that is the plain middle: each centroid counts by its area times its similarity",
            )),
            Self::Turn { v, degrees, .. } => Some((
                turned(degrees, Vec3::from(v)).to_array().to_vec(),
                "the vertex was turned about the origin: turn it about its centre, then move the centre",
            )),
            Self::Memory { vertices } => Some((
                vec![(vertices * 16) as f32],
                "that is four floats a vertex: a centre is a point, three floats",
            )),
        }
    }

    /// The question, in words.
    fn question(&self) -> String {
        match *self {
            Self::Alike { a, b } => format!(
                "Vertex A has weights {} and {} on two joints, vertex B {} and {}. With σ = {SIGMA}, how alike are they?",
                a[0], a[1], b[0], b[1]
            ),
            Self::Centre {
                centroids,
                areas,
                alike,
            } => format!(
                "Two triangles are alike to a vertex: one with its centroid at {}, area {}, similarity {}; the other at {}, area {}, similarity {}. Where is the vertex's centre of rotation (x, y, z)?",
                text(centroids[0].into()),
                areas[0],
                alike[0],
                text(centroids[1].into()),
                areas[1],
                alike[1]
            ),
            Self::Turn {
                v,
                centre,
                moved,
                degrees,
            } => format!(
                "A vertex at {} has its centre of rotation at {}. Its blended rotation turns {degrees}° about z, and linear blending moves the centre to {}. Where is the vertex drawn (x, y, z)?",
                text(v.into()),
                text(centre.into()),
                text(moved.into())
            ),
            Self::Memory { vertices } => format!(
                "A mesh has {vertices} vertices. Each keeps its centre of rotation as three 4-byte floats. How many bytes do the centres take?"
            ),
        }
    }

    /// The working, step by step.
    fn working(&self) -> String {
        match *self {
            Self::Alike { a, b } => {
                let product = a[0] * a[1] * b[0] * b[1];
                let apart = a[0] * b[1] - a[1] * b[0];
                format!(
                    "s = a0·a1·b0·b1 · exp(−(a0·b1 − a1·b0)² / σ²)\n  = {} · exp(−({})² / {})\n  = {:.4}",
                    hundredths(product),
                    hundredths(apart),
                    SIGMA * SIGMA,
                    self.answer()[0]
                )
            }
            Self::Centre {
                centroids,
                areas,
                alike,
            } => format!(
                "each counts by s · a: {} and {}\np* = ({} · {} + {} · {}) / {}\n   = {}",
                hundredths(areas[0] * alike[0]),
                hundredths(areas[1] * alike[1]),
                hundredths(areas[0] * alike[0]),
                text(centroids[0].into()),
                hundredths(areas[1] * alike[1]),
                text(centroids[1].into()),
                hundredths(areas[0] * alike[0] + areas[1] * alike[1]),
                text(Vec3::from_slice(&self.answer()))
            ),
            Self::Turn {
                v,
                centre,
                moved,
                degrees,
            } => {
                let from = Vec3::from(v) - Vec3::from(centre);
                format!(
                    "from the centre: v − p* = {}\nturned {degrees}°: {}\nplus where the centre went, {}: v' = {}",
                    text(from),
                    text(turned(degrees, from)),
                    text(moved.into()),
                    text(Vec3::from_slice(&self.answer()))
                )
            }
            Self::Memory { vertices } => format!(
                "{vertices} vertices × 3 floats × 4 bytes = {} bytes",
                self.answer()[0]
            ),
        }
    }

    /// The answer fields' names.
    fn labels(&self) -> &'static [&'static str] {
        match self {
            Self::Centre { .. } | Self::Turn { .. } => &["x", "y", "z"],
            Self::Alike { .. } => &["s"],
            Self::Memory { .. } => &["bytes"],
        }
    }

    fn tolerance(&self) -> f32 {
        match self {
            Self::Memory { .. } => 0.5,
            Self::Alike { .. } => 0.0005,
            _ => 0.01,
        }
    }
}

impl CentresPage {
    /// The exercise picker, the question, the answer fields and the working.
    pub(super) fn check_cell_ui(&mut self, ui: &mut Ui) {
        worked_cell_ui(
            ui,
            "centres",
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
        // By hand: 0.25 · 0.24 · exp(−(0.2 − 0.3)² / 0.01) = 0.06 · e⁻¹ = 0.02207.
        // (2 · 0.06 · 1 + 1 · 0.03 · 2) / (0.12 + 0.03) = 0.18 / 0.15 = 1.2.
        // (0, 0.5, 0) from the centre, a quarter turn: (−0.5, 0, 0), plus (2, 0, 0).
        // 5000 × 12 = 60,000.
        let by_hand: [&[f32]; 4] = [&[0.022073], &[1.2, 0.0, 0.0], &[1.5, 0.0, 0.0], &[60_000.0]];
        for (e, expected) in EXERCISES.iter().zip(by_hand) {
            let got = e.answer();
            assert_eq!(got.len(), expected.len(), "{e:?}");
            for (g, x) in got.iter().zip(expected) {
                assert!((g - x).abs() < 1e-4, "{e:?}: {got:?}");
            }
            let (wrong, _) = e.mistake().expect("each names a mistake");
            assert!(
                wrong
                    .iter()
                    .zip(expected)
                    .any(|(w, x)| (w - x).abs() > 0.002),
                "{e:?}"
            );
        }
    }
}
