//! Per-vertex joint influences, prepared for a GPU that reads exactly four.

use std::fmt;

/// How many influences the shaders read per vertex.
pub const MAX_INFLUENCES: usize = 4;

/// Sorts one vertex's (joint, weight) pairs largest weight first; equal weights keep the
/// order they were given in (stable), and NaN sorts as `f32::total_cmp` puts it.
///
/// An insertion sort: a vertex has a handful of influences, and the standard library's
/// sort would add its whole machinery to the web app at every place that sorts them.
pub fn sort_by_weight<J>(list: &mut [(J, f32)]) {
    for i in 1..list.len() {
        let mut j = i;
        while j > 0 && list[j - 1].1.total_cmp(&list[j].1).is_lt() {
            list.swap(j - 1, j);
            j -= 1;
        }
    }
}

/// Four (joint, weight) pairs for one vertex.
///
/// Contract, established by [`Influences::prepare`]: weights are finite, non-negative,
/// sorted largest first, and sum to 1; unused slots repeat the last used joint with
/// weight 0, so the GPU reads a matrix it has just read.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Influences {
    /// Joint indices.
    pub joints: [u32; MAX_INFLUENCES],
    /// Weights, summing to 1.
    pub weights: [f32; MAX_INFLUENCES],
}

/// Why a list of influences was refused.
#[derive(Clone, Debug, PartialEq)]
pub enum InfluenceError {
    /// The list is empty.
    Empty,
    /// A joint index is past the skeleton's end.
    JointOutOfRange {
        /// The joint index given.
        joint: usize,
        /// How many joints the skeleton has.
        joint_count: usize,
    },
    /// A weight is NaN, infinite or negative.
    BadWeight {
        /// The joint the weight is for.
        joint: usize,
        /// The weight given.
        weight: f32,
    },
    /// All weights are zero, so they cannot be normalised.
    ZeroSum,
}

impl fmt::Display for InfluenceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Empty => write!(f, "a vertex needs at least one influence"),
            Self::JointOutOfRange { joint, joint_count } => write!(
                f,
                "joint index {joint} is out of range: the skeleton has joints 0 to {}",
                joint_count.saturating_sub(1)
            ),
            Self::BadWeight { joint, weight } => {
                write!(
                    f,
                    "weight {weight} for joint {joint} must be a finite number >= 0"
                )
            }
            Self::ZeroSum => write!(f, "the weights sum to zero, so they cannot be normalised"),
        }
    }
}

impl std::error::Error for InfluenceError {}

// SAFETY: two arrays of u32 and f32, for which all zeroes is a value. All zeroes is no
// weight at all, which breaks the contract above: it is only ever a placeholder in a big
// vector that every core then fills (`parallel::zeroed`), so the pages are first
// touched by the threads that fill them, not all by one beforehand.
#[allow(unsafe_code)]
unsafe impl bytemuck::Zeroable for Influences {}

impl Influences {
    /// One joint with weight 1.
    pub fn rigid(joint: u32) -> Self {
        Self {
            joints: [joint; MAX_INFLUENCES],
            weights: [1.0, 0.0, 0.0, 0.0],
        }
    }

    // ANCHOR: prepare
    /// From any list of (joint, weight): keep the four largest, normalise them to sum
    /// to 1, and pad unused slots by repeating the last joint with weight 0.
    pub fn prepare(list: &[(usize, f32)], joint_count: usize) -> Result<Self, InfluenceError> {
        Self::build(list, joint_count, true)
    }

    fn build(
        list: &[(usize, f32)],
        joint_count: usize,
        normalise: bool,
    ) -> Result<Self, InfluenceError> {
        if list.is_empty() {
            return Err(InfluenceError::Empty);
        }
        for &(joint, weight) in list {
            if joint >= joint_count {
                return Err(InfluenceError::JointOutOfRange { joint, joint_count });
            }
            if !weight.is_finite() || weight < 0.0 {
                return Err(InfluenceError::BadWeight { joint, weight });
            }
        }
        let mut sorted = list.to_vec();
        sort_by_weight(&mut sorted);
        sorted.truncate(MAX_INFLUENCES);
        let sum: f32 = sorted.iter().map(|(_, w)| w).sum();
        if normalise && sum <= 0.0 {
            return Err(InfluenceError::ZeroSum);
        }
        let mut out = Self {
            joints: [0; MAX_INFLUENCES],
            weights: [0.0; MAX_INFLUENCES],
        };
        let mut last = sorted[0].0 as u32;
        for slot in 0..MAX_INFLUENCES {
            if let Some(&(joint, weight)) = sorted.get(slot) {
                last = joint as u32;
                out.weights[slot] = if normalise { weight / sum } else { weight };
            }
            out.joints[slot] = last;
        }
        Ok(out)
    }
    // ANCHOR_END: prepare

    /// Like [`Influences::prepare`] but without normalising: the weights keep whatever
    /// sum they have. This breaks the sum-to-1 contract on purpose, to show what
    /// unnormalised weights do to a mesh; the blend functions still accept it.
    pub fn unnormalised(list: &[(usize, f32)], joint_count: usize) -> Result<Self, InfluenceError> {
        Self::build(list, joint_count, false)
    }

    /// The sum of the weights (1 for prepared influences).
    pub fn sum(&self) -> f32 {
        self.weights.iter().sum()
    }

    /// The (joint, weight) pairs whose weight is not zero.
    pub fn used(&self) -> impl Iterator<Item = (usize, f32)> + '_ {
        self.joints
            .iter()
            .zip(self.weights)
            .filter(|(_, w)| *w != 0.0)
            .map(|(j, w)| (*j as usize, w))
    }

    /// The weight of `joint`: 0 when the vertex does not use it, the sum where it is
    /// listed twice.
    pub fn weight(&self, joint: usize) -> f32 {
        self.used()
            .filter(|&(j, _)| j == joint)
            .map(|(_, w)| w)
            .sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn a_joints_weight_is_zero_where_unused_and_summed_where_listed_twice() {
        let inf = Influences::unnormalised(&[(2, 0.25), (0, 0.5), (2, 0.25)], 3).unwrap();
        assert_eq!(inf.weight(2), 0.5);
        assert_eq!(inf.weight(0), 0.5);
        assert_eq!(inf.weight(1), 0.0);
    }

    proptest! {
        /// The same order as the standard library's stable sort, NaN and ties included.
        #[test]
        fn sort_by_weight_is_the_stable_sort_largest_first(
            weights in prop::collection::vec(
                prop_oneof![Just(0.0f32), Just(0.5), Just(f32::NAN), -2.0f32..2.0],
                0..12,
            )
        ) {
            let mut list: Vec<(usize, f32)> = weights.into_iter().enumerate().collect();
            let mut expected = list.clone();
            expected.sort_by(|a, b| b.1.total_cmp(&a.1));
            sort_by_weight(&mut list);
            let bits = |l: &[(usize, f32)]| l.iter().map(|&(j, w)| (j, w.to_bits())).collect::<Vec<_>>();
            prop_assert_eq!(bits(&list), bits(&expected));
        }
    }

    #[test]
    fn pads_by_repeating_the_last_joint() {
        let inf = Influences::prepare(&[(0, 0.5), (1, 0.5)], 3).unwrap();
        assert_eq!(inf.joints, [0, 1, 1, 1]);
        assert_eq!(inf.weights, [0.5, 0.5, 0.0, 0.0]);
    }

    #[test]
    fn keeps_four_largest_and_normalises() {
        let list = [(0, 0.1), (1, 0.4), (2, 0.05), (3, 0.2), (4, 0.25)];
        let inf = Influences::prepare(&list, 5).unwrap();
        assert_eq!(inf.joints, [1, 4, 3, 0]);
        let total = 0.4 + 0.25 + 0.2 + 0.1;
        assert!((inf.weights[0] - 0.4 / total).abs() < 1e-6);
        assert!((inf.weights.iter().sum::<f32>() - 1.0).abs() < 1e-6);
    }

    #[test]
    fn refuses_bad_input_with_a_reason() {
        assert_eq!(
            Influences::prepare(&[(7, 1.0)], 3),
            Err(InfluenceError::JointOutOfRange {
                joint: 7,
                joint_count: 3
            })
        );
        assert!(matches!(
            Influences::prepare(&[(0, f32::NAN)], 3),
            Err(InfluenceError::BadWeight { .. })
        ));
        assert_eq!(
            Influences::prepare(&[(0, 0.0)], 3),
            Err(InfluenceError::ZeroSum)
        );
        assert_eq!(Influences::prepare(&[], 3), Err(InfluenceError::Empty));
    }

    proptest! {
        #[test]
        fn prepared_weights_sum_to_one(
            list in prop::collection::vec((0usize..10, 0.01f32..1.0), 1..9)
        ) {
            let inf = Influences::prepare(&list, 10).unwrap();
            prop_assert!((inf.weights.iter().sum::<f32>() - 1.0).abs() < 1e-5);
            prop_assert!(inf.weights.windows(2).all(|w| w[0] >= w[1]));
            prop_assert!(inf.joints.iter().all(|&j| j < 10));
        }
    }
}
