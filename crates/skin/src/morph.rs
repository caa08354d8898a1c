//! Blend shapes (glTF's morph targets): offsets added to each vertex of the mesh in
//! its bind space, before the skin moves it.
//!
//! ```text
//! v = v₀ + Σ wᵢ · Δᵢ        n = normalize(n₀ + Σ wᵢ · Δnᵢ)        t likewise
//! ```
//!
//! The weights are free numbers: they need not sum to 1, and a weight past 1 or below 0
//! pushes the shape further or the other way. Because the offsets are in bind space,
//! the skin then moves the morphed vertex as it would the plain one.

use crate::lbs::SkinMesh;
use glam::Vec3;
use std::borrow::Cow;

/// One blend shape: an offset per vertex for positions, and for normals and tangents
/// where it moves them.
///
/// Contract: each list is empty (the shape leaves that attribute alone) or holds one
/// finite offset per vertex of its mesh.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MorphTarget {
    /// The shape's name (glTF's `extras.targetNames`, or `target N`).
    pub name: String,
    /// Offsets of the positions.
    pub positions: Vec<Vec3>,
    /// Offsets of the normals.
    pub normals: Vec<Vec3>,
    /// Offsets of the tangents (their `xyz`: the handedness does not morph).
    pub tangents: Vec<Vec3>,
}

impl MorphTarget {
    /// The offsets of vertices `range` alone, to go with [`SkinMesh::range`].
    pub fn range(&self, range: std::ops::Range<usize>) -> MorphTarget {
        MorphTarget {
            name: self.name.clone(),
            positions: crate::lbs::part(&self.positions, range.clone()),
            normals: crate::lbs::part(&self.normals, range.clone()),
            tangents: crate::lbs::part(&self.tangents, range),
        }
    }

    /// Whether the shape moves nothing (no offsets at all).
    pub fn is_empty(&self) -> bool {
        self.positions.is_empty() && self.normals.is_empty() && self.tangents.is_empty()
    }
}

// ANCHOR: morphed
/// `base` with every target added in at its weight: `v₀ + Σ wᵢ · Δᵢ` for positions,
/// the same sum made unit length for normals and tangents. A target without a weight
/// (past the end of `weights`), a weight of 0 and a weight that is not finite add
/// nothing; influences are kept as they are. Where nothing is added, `base` itself,
/// not a copy.
pub fn morphed<'a>(
    base: &'a SkinMesh,
    targets: &[MorphTarget],
    weights: &[f32],
) -> Cow<'a, SkinMesh> {
    let adds = |(t, w): (&MorphTarget, &f32)| *w != 0.0 && w.is_finite() && !t.is_empty();
    if !targets.iter().zip(weights).any(adds) {
        return Cow::Borrowed(base);
    }
    let mut out = base.clone();
    let mut turned = false;
    for (target, &w) in targets.iter().zip(weights) {
        if w == 0.0 || !w.is_finite() {
            continue;
        }
        add(&mut out.positions, &target.positions, w);
        turned |= add(&mut out.normals, &target.normals, w);
        turned |= add(&mut out.tangents, &target.tangents, w);
    }
    if turned {
        for n in out.normals.iter_mut().chain(&mut out.tangents) {
            *n = n.normalize_or_zero();
        }
    }
    Cow::Owned(out)
}
// ANCHOR_END: morphed

/// The positions alone of [`morphed`]: `v₀ + Σ wᵢ · Δᵢ` for each of `base`.
pub fn morphed_positions(base: &[Vec3], targets: &[MorphTarget], weights: &[f32]) -> Vec<Vec3> {
    let mut out = base.to_vec();
    for (target, &w) in targets.iter().zip(weights) {
        if w != 0.0 && w.is_finite() {
            add(&mut out, &target.positions, w);
        }
    }
    out
}

/// Adds `w · offsets` to `values` where both have one entry per vertex; whether it did.
fn add(values: &mut [Vec3], offsets: &[Vec3], w: f32) -> bool {
    if offsets.len() != values.len() || values.is_empty() {
        return false;
    }
    for (v, d) in values.iter_mut().zip(offsets) {
        *v += w * *d;
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    fn square() -> SkinMesh {
        SkinMesh {
            positions: vec![Vec3::ZERO, Vec3::X, Vec3::new(1.0, 1.0, 0.0), Vec3::Y],
            normals: vec![Vec3::Z; 4],
            ..Default::default()
        }
    }

    fn lift(by: f32) -> MorphTarget {
        MorphTarget {
            name: "lift".into(),
            positions: vec![Vec3::ZERO, Vec3::ZERO, Vec3::new(0.0, 0.0, by), Vec3::ZERO],
            ..Default::default()
        }
    }

    #[test]
    fn each_target_adds_its_offsets_times_its_weight() {
        let push = MorphTarget {
            name: "push".into(),
            positions: vec![Vec3::X; 4],
            normals: vec![Vec3::X; 4],
            ..Default::default()
        };
        let base = square();
        let out = morphed(&base, &[lift(2.0), push], &[0.5, -0.25]);
        assert_eq!(out.positions[2], Vec3::new(0.75, 1.0, 1.0));
        assert_eq!(out.positions[0], Vec3::new(-0.25, 0.0, 0.0));
        // The normal is the sum made unit length: (−0.25, 0, 1) normalised.
        let n = Vec3::new(-0.25, 0.0, 1.0).normalize();
        assert!(out.normals[1].abs_diff_eq(n, 1e-6), "{}", out.normals[1]);
    }

    #[test]
    fn weights_need_not_sum_to_one_and_missing_or_broken_weights_add_nothing() {
        let base = square();
        let out = morphed(&base, &[lift(1.0), lift(1.0)], &[1.0, 1.0]);
        assert_eq!(out.positions[2].z, 2.0);
        assert_eq!(
            *morphed(&base, &[lift(1.0), lift(1.0)], &[f32::NAN]),
            square()
        );
        assert_eq!(*morphed(&base, &[lift(1.0)], &[]), square());
    }

    #[test]
    fn a_target_of_the_wrong_length_is_left_alone() {
        let short = MorphTarget {
            positions: vec![Vec3::ONE; 3],
            ..Default::default()
        };
        assert_eq!(*morphed(&square(), &[short], &[1.0]), square());
    }
}
