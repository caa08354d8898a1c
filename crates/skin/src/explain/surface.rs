//! The true normal of a surface skinned by linear blending: the yardstick the
//! per-vertex normal formulas of [`crate::normals`] are measured against.
//!
//! Both formulas carry a normal by the vertex's own blended matrix `M`. Where the weights
//! change along the surface, a step along it also changes `M`, so the skinned surface
//! turns in a way neither formula sees. Here the skinning map itself is differentiated.

use crate::influences::Influences;
use crate::lbs::blended_matrix;
use glam::{Mat3, Mat4, Vec3};

/// The step [`NormalStencil::new`] callers use when they have no better one: small next
/// to any blend region a rig uses, large next to the rounding of positions near 1.
pub const DEFAULT_STEP: f32 = 1e-3;

/// What the true normal of one skinned vertex needs beyond its own influences.
///
/// Contract: the weights are a field over bind space, `q -> w(q)`, and the skinned
/// surface is the image of the bind surface under `f(q) = Σ w_j(q) · G_j · q`, with `G`
/// the palette. Its tangents at the vertex `p` are the derivatives of `f` along two bind
/// tangents `t`, `f'(t) = M · t + Σ (∂w_j/∂t) · G_j · p`, taken here as a central
/// difference of `f` over `p ± step · t` (error of order `step²` where the weights are
/// smooth). The true normal is the unit cross product of the two, turned as the bind
/// surface is (`t_a × t_b = n`, flipped only where `M` mirrors): where the skin folds over
/// itself it points into the fold, as the skinned triangles' own normals do. The
/// influences at those four points do not move with the pose, so they are looked up
/// once, here; each pose then costs four blended matrices, or one where the weights do
/// not change.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NormalStencil {
    position: Vec3,
    step: f32,
    /// Two unit bind tangents, `frame[0] × frame[1]` the bind normal.
    frame: [Vec3; 2],
    /// The influences at `position − step · frame[k]` and `position + step · frame[k]`.
    sides: [[Influences; 2]; 2],
    /// All four sides have the same influences: `M` does not change here.
    uniform: bool,
}

impl NormalStencil {
    /// The stencil of the bind vertex at `position` with normal `normal`;
    /// `influences_at` gives the weights at any bind point near it. `None` when the
    /// input is not finite, the normal is zero, `step` is not positive, or a point has
    /// no influences.
    pub fn new(
        position: Vec3,
        normal: Vec3,
        step: f32,
        influences_at: impl Fn(Vec3) -> Option<Influences>,
    ) -> Option<Self> {
        if !(position.is_finite() && step > 0.0 && step.is_finite()) {
            return None;
        }
        let n = normal.try_normalize()?;
        let (a, b) = n.any_orthonormal_pair();
        let (a, b) = if a.cross(b).dot(n) > 0.0 {
            (a, b)
        } else {
            (b, a)
        };
        let frame = [a, b];
        let side = |d: Vec3| -> Option<[Influences; 2]> {
            Some([
                influences_at(position - d * step)?,
                influences_at(position + d * step)?,
            ])
        };
        let sides = [side(a)?, side(b)?];
        let first = sides[0][0];
        Some(Self {
            position,
            step,
            frame,
            uniform: sides.iter().flatten().all(|i| *i == first),
            sides,
        })
    }

    /// The blended matrices at `position − step · frame[k]` and at `+ step · frame[k]`.
    fn blends(&self, palette: &[Mat4]) -> Option<[[Mat4; 2]; 2]> {
        if self.uniform {
            let m = blend_checked(palette, &self.sides[0][0])?;
            return Some([[m; 2]; 2]);
        }
        let pair = |k: usize| -> Option<[Mat4; 2]> {
            let [minus, plus] = self.sides[k].map(|i| blend_checked(palette, &i));
            Some([minus?, plus?])
        };
        Some([pair(0)?, pair(1)?])
    }

    // ANCHOR: true_normal
    /// `f'(frame[k])` from the blended matrices either side.
    fn derivative(&self, [minus, plus]: [Mat4; 2], k: usize) -> Vec3 {
        // f(p + h·t) − f(p − h·t) = (M_plus − M_minus)·p + h·(M_plus + M_minus)·t:
        // the same central difference, without subtracting two nearly equal positions.
        let weights_part = ((plus - minus) * self.position.extend(1.0)).truncate();
        let matrix_part = (plus + minus).transform_vector3(self.frame[k]) * 0.5;
        weights_part / (2.0 * self.step) + matrix_part
    }

    /// The unit normal of the skinned surface at this vertex under `palette`; `None`
    /// when a matrix is missing or not finite, or the surface is folded flat there.
    pub fn true_normal(&self, palette: &[Mat4]) -> Option<Vec3> {
        let [a, b] = self.blends(palette)?;
        let (along_a, along_b) = (self.derivative(a, 0), self.derivative(b, 1));
        let normal = along_a.cross(along_b);
        // Tangents (nearly) parallel: the skin has collapsed to a line here.
        if !(normal.is_finite() && normal.length() > 1e-6 * along_a.length() * along_b.length()) {
            return None;
        }
        let mirrored = Mat3::from_mat4(a[0] + a[1]).determinant() < 0.0;
        let normal = if mirrored { -normal } else { normal };
        normal.try_normalize()
    }
    // ANCHOR_END: true_normal
}

/// [`blended_matrix`], or `None` when a joint is past the palette or the sum is not
/// finite.
fn blend_checked(palette: &[Mat4], influences: &Influences) -> Option<Mat4> {
    if influences
        .joints
        .iter()
        .any(|j| *j as usize >= palette.len())
    {
        return None;
    }
    let m = blended_matrix(palette, influences);
    m.is_finite().then_some(m)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::normals::{NormalMethod, angle_degrees, transform_normal};
    use glam::Quat;

    /// Weights over x: bone 0 below `-w/2`, bone 1 above `w/2`, smoothstep between.
    fn smooth(x: f32, w: f32) -> Option<Influences> {
        let t = (x / w + 0.5).clamp(0.0, 1.0);
        let c = t * t * (3.0 - 2.0 * t);
        Influences::prepare(&[(0, 1.0 - c), (1, c)].map(|(j, w)| (j, w.max(0.0))), 2).ok()
    }

    fn palette() -> Vec<Mat4> {
        vec![
            Mat4::IDENTITY,
            Mat4::from_rotation_z(1.0) * Mat4::from_scale(Vec3::new(1.0, 2.0, 1.0)),
        ]
    }

    #[test]
    fn where_one_bone_rules_the_true_normal_is_the_inverse_transpose() {
        let m = Mat4::from_scale_rotation_translation(
            Vec3::new(0.5, 2.5, 1.5),
            Quat::from_euler(glam::EulerRot::XYZ, 0.3, -1.1, 2.0),
            Vec3::new(1.0, -2.0, 3.0),
        );
        let n = Vec3::new(0.2, -0.9, 0.4).normalize();
        let s = NormalStencil::new(Vec3::new(0.7, 0.1, -0.3), n, DEFAULT_STEP, |_| {
            Some(Influences::rigid(0))
        })
        .unwrap();
        let truth = s.true_normal(&[m]).unwrap();
        let right = transform_normal(NormalMethod::InverseTranspose, &m, n);
        let naive = transform_normal(NormalMethod::Naive, &m, n);
        assert!(angle_degrees(truth, right) < 0.01, "{truth} {right}");
        assert!(angle_degrees(truth, naive) > 5.0, "{truth} {naive}");
        // A mirror turns the surface over; the true normal still points outwards.
        let mirror = Mat4::from_scale(Vec3::new(-1.0, 1.0, 1.0));
        let flipped = s.true_normal(&[mirror]).unwrap();
        assert!(angle_degrees(flipped, mirror.transform_vector3(n)) < 0.01);
    }

    #[test]
    fn the_central_difference_matches_the_exact_derivative() {
        // p on the x axis, normal +y: f'(x) = M·x + (∂w_1/∂x)·(G_1 − G_0)·p, exactly.
        let (p, w) = (Vec3::new(0.2, 0.5, 0.0), 1.0);
        let g = palette();
        let s = NormalStencil::new(p, Vec3::Y, DEFAULT_STEP, |q| smooth(q.x, w)).unwrap();
        let t = (p.x / w + 0.5).clamp(0.0, 1.0);
        let (c, dc) = (t * t * (3.0 - 2.0 * t), 6.0 * t * (1.0 - t) / w);
        let m = g[0] * (1.0 - c) + g[1] * c;
        let along = m.transform_vector3(Vec3::X) + (g[1] - g[0]).transform_point3(p) * dc;
        let across = m.transform_vector3(Vec3::Z);
        let exact = across.cross(along).normalize();
        let truth = s.true_normal(&g).unwrap();
        assert!(angle_degrees(truth, exact) < 0.01, "{truth} {exact}");
        // And the weights' change matters here: the inverse transpose is well off.
        let right = transform_normal(NormalMethod::InverseTranspose, &m, Vec3::Y);
        assert!(angle_degrees(truth, right) > 10.0);
    }

    #[test]
    fn bad_input_gives_none_not_nan() {
        let at = |_| Some(Influences::rigid(0));
        assert!(NormalStencil::new(Vec3::NAN, Vec3::Y, 1e-3, at).is_none());
        assert!(NormalStencil::new(Vec3::ZERO, Vec3::ZERO, 1e-3, at).is_none());
        assert!(NormalStencil::new(Vec3::ZERO, Vec3::Y, 0.0, at).is_none());
        assert!(NormalStencil::new(Vec3::ZERO, Vec3::Y, f32::NAN, at).is_none());
        assert!(NormalStencil::new(Vec3::ZERO, Vec3::Y, 1e-3, |_| None).is_none());
        let s = NormalStencil::new(Vec3::ZERO, Vec3::Y, 1e-3, at).unwrap();
        assert!(s.true_normal(&[]).is_none(), "no matrix for joint 0");
        assert!(
            s.true_normal(&[Mat4::from_cols_array(&[f32::NAN; 16])])
                .is_none()
        );
        // Flattened onto a line: the tangents are parallel.
        let flat = Mat4::from_scale(Vec3::new(1.0, 0.0, 0.0));
        assert!(s.true_normal(&[flat]).is_none());
        assert!(
            s.true_normal(&[Mat4::IDENTITY])
                .unwrap()
                .abs_diff_eq(Vec3::Y, 1e-6)
        );
    }
}
