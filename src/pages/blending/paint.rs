//! Weights as a painter edits them: one number per vertex and bone, a brush that adds
//! or removes weight, and auto-normalise that keeps each vertex's sum at 1.

use crate::skin::{InfluenceError, Influences};

/// `weight(vertex, bone)` for every vertex and bone, as painted.
#[derive(Clone, Debug, PartialEq)]
pub struct WeightMap {
    bones: usize,
    values: Vec<f32>,
}

/// How far from 1 a vertex's weights may sum before it counts as unnormalised.
pub const SUM_TOLERANCE: f32 = 1e-3;

impl WeightMap {
    /// The weights that `influences` give, `bones` per vertex.
    pub fn from_influences(influences: &[Influences], bones: usize) -> Self {
        let mut values = vec![0.0; influences.len() * bones];
        for (v, inf) in influences.iter().enumerate() {
            for (joint, weight) in inf.used() {
                if joint < bones {
                    values[v * bones + joint] += weight;
                }
            }
        }
        Self { bones, values }
    }

    /// Number of vertices.
    pub fn len(&self) -> usize {
        self.values.len() / self.bones.max(1)
    }

    /// True when there are no vertices.
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// One vertex's weight for one bone (0 outside the map).
    pub fn get(&self, vertex: usize, bone: usize) -> f32 {
        if bone >= self.bones {
            return 0.0;
        }
        self.values
            .get(vertex * self.bones + bone)
            .copied()
            .unwrap_or(0.0)
    }

    /// The sum of one vertex's weights.
    pub fn sum(&self, vertex: usize) -> f32 {
        (0..self.bones).map(|b| self.get(vertex, b)).sum()
    }

    /// The vertices whose weights do not sum to 1.
    pub fn unnormalised(&self) -> Vec<usize> {
        (0..self.len())
            .filter(|v| (self.sum(*v) - 1.0).abs() > SUM_TOLERANCE)
            .collect()
    }

    // ANCHOR: paint
    /// Moves `vertex`'s weight for `bone` a fraction `amount` (0..1) of the way to
    /// `target` (1 to add, 0 to remove). With `normalise`, the other bones share the
    /// change in proportion to what they had, so the sum stays 1, as in Blender.
    pub fn paint(&mut self, vertex: usize, bone: usize, target: f32, amount: f32, normalise: bool) {
        if vertex >= self.len() || bone >= self.bones || !amount.is_finite() {
            return;
        }
        let row = &mut self.values[vertex * self.bones..(vertex + 1) * self.bones];
        let amount = amount.clamp(0.0, 1.0);
        let old = row[bone];
        row[bone] = old + (target.clamp(0.0, 1.0) - old) * amount;
        if !normalise {
            return;
        }
        let others: f32 = row
            .iter()
            .enumerate()
            .filter(|(b, _)| *b != bone)
            .map(|(_, w)| w)
            .sum();
        let room = (1.0 - row[bone]).max(0.0);
        for (b, w) in row.iter_mut().enumerate() {
            if b == bone {
                continue;
            }
            *w = if others > 0.0 {
                *w / others * room
            } else {
                // Nothing to scale: spread what is left evenly.
                room / (self.bones - 1).max(1) as f32
            };
        }
        if others <= 0.0 && self.bones == 1 {
            row[bone] = 1.0;
        }
    }
    // ANCHOR_END: paint

    /// The influences the shader reads: prepared (normalised) when `normalise`,
    /// otherwise as painted, so a sum other than 1 shows on the mesh.
    pub fn influences(&self, normalise: bool) -> Result<Vec<Influences>, InfluenceError> {
        (0..self.len())
            .map(|v| {
                let list: Vec<(usize, f32)> =
                    (0..self.bones).map(|b| (b, self.get(v, b))).collect();
                if normalise {
                    Influences::prepare(&list, self.bones)
                } else {
                    Influences::unnormalised(&list, self.bones)
                }
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn map() -> WeightMap {
        let inf = [
            Influences::rigid(0),
            Influences::prepare(&[(0, 0.5), (1, 0.5)], 3).unwrap(),
            Influences::prepare(&[(0, 0.2), (1, 0.3), (2, 0.5)], 3).unwrap(),
        ];
        WeightMap::from_influences(&inf, 3)
    }

    #[test]
    fn reads_back_the_influences() {
        let m = map();
        assert_eq!(m.len(), 3);
        assert_eq!(m.get(1, 1), 0.5);
        assert!((m.sum(2) - 1.0).abs() < 1e-6);
        assert!(m.unnormalised().is_empty());
        assert_eq!(m.influences(true).unwrap()[2].used().count(), 3);
    }

    #[test]
    fn auto_normalise_keeps_the_sum_and_the_others_proportions() {
        let mut m = map();
        m.paint(2, 2, 1.0, 0.5, true);
        assert!((m.get(2, 2) - 0.75).abs() < 1e-6);
        assert!((m.sum(2) - 1.0).abs() < 1e-6);
        // 0.2 : 0.3 before, still 2 : 3 after.
        assert!((m.get(2, 0) / m.get(2, 1) - 2.0 / 3.0).abs() < 1e-5);
        m.paint(0, 0, 0.0, 1.0, true);
        assert_eq!(m.get(0, 0), 0.0);
        assert!((m.sum(0) - 1.0).abs() < 1e-6, "the weight went somewhere");
    }

    #[test]
    fn without_normalise_the_sum_drifts_and_is_reported() {
        let mut m = map();
        m.paint(1, 1, 1.0, 0.5, false);
        assert!((m.sum(1) - 1.25).abs() < 1e-6);
        assert_eq!(m.unnormalised(), vec![1]);
        let inf = m.influences(false).unwrap();
        assert!((inf[1].sum() - 1.25).abs() < 1e-6);
        let normalised = m.influences(true).unwrap();
        assert!((normalised[1].sum() - 1.0).abs() < 1e-6);
    }

    #[test]
    fn bad_brush_input_changes_nothing() {
        let mut m = map();
        let before = m.clone();
        m.paint(99, 0, 1.0, 0.5, true);
        m.paint(0, 7, 1.0, 0.5, true);
        m.paint(0, 1, 1.0, f32::NAN, true);
        assert_eq!(m, before);
    }
}
