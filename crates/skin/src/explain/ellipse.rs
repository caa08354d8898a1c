//! Deformation ellipses: what a vertex's blended transform does to a small circle drawn
//! on the surface around it. One glyph shows stretch, squash and collapse alike.

use crate::dqs::{DualQuat, blend_dual_quats};
use crate::influences::Influences;
use crate::lbs::{PositionW, blended_matrix};
use glam::{Mat3, Mat4, Vec3};

/// The image of a small circle on the surface under one vertex's linear map.
///
/// Contract: the circle of radius `r` around the bind vertex `p` is
/// `p + r·(cos θ·t + sin θ·b)`, with `n` the bind normal, `t` the bind tangent made
/// perpendicular to `n` and unit, and `b = n × t`. The vertex's transform takes it to
/// an ellipse round the skinned vertex `p'`, `p' + r·(cos φ·major + sin φ·minor)`, whose
/// shape only the linear part `M` (the 3x3 part of the blended transform) decides.
/// `major` and `minor` are perpendicular; their lengths are the singular values of the
/// 3x2 matrix `M·[t, b]`, `σ1` and `σ2`, largest first. So `σ1·σ2` is the ellipse's area
/// over the circle's and `σ2/σ1` its aspect: both 1 for a rotation, `σ2 = 0` where `M`
/// flattens the surface to a line. A map that flattens it to a point gives `σ1 = σ2 = 0`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ellipse {
    /// The longer semi-axis for a circle of radius 1: length `σ1`.
    pub major: Vec3,
    /// The shorter semi-axis, perpendicular to `major`: length `σ2`.
    pub minor: Vec3,
    /// `[σ1, σ2]`, largest first.
    pub sigma: [f32; 2],
}

impl Ellipse {
    /// The ellipse that `linear` makes of the unit circle in the plane with normal
    /// `normal`, started along `tangent`. `None` when an input is not finite, the normal
    /// is zero, the tangent is zero or along the normal, or the ellipse overflows.
    pub fn new(linear: Mat3, normal: Vec3, tangent: Vec3) -> Option<Self> {
        if !linear.is_finite() {
            return None;
        }
        let n = normal.try_normalize()?;
        // What is left of the tangent off the normal, if more than rounding.
        let t = tangent - tangent.dot(n) * n;
        if t.length() <= 1e-4 * tangent.length() {
            return None;
        }
        // Not finite (from a tangent that was not) is refused here.
        let t = t.try_normalize()?;
        let (a, b) = (linear * t, linear * n.cross(t));
        // The Gram matrix [[a·a, a·b], [a·b, b·b]] has eigenvalues σ1², σ2².
        let (aa, ab, bb) = (a.dot(a), a.dot(b), b.dot(b));
        let half_gap = (0.5 * (aa - bb)).hypot(ab);
        let sigma1 = (0.5 * (aa + bb) + half_gap).sqrt();
        // σ1·σ2 = |a × b| directly: accurate when σ2 is tiny, where the other
        // eigenvalue would be a difference of two nearly equal numbers.
        let area = a.cross(b).length();
        let sigma2 = if sigma1 > 0.0 {
            (area / sigma1).min(sigma1)
        } else {
            0.0
        };
        // The major axis is the image of the unit vector at angle φ, where
        // tan 2φ = 2 a·b / (a·a − b·b).
        let (sin, cos) = (0.5 * (2.0 * ab).atan2(aa - bb)).sin_cos();
        let ellipse = Self {
            major: cos * a + sin * b,
            minor: cos * b - sin * a,
            sigma: [sigma1, sigma2],
        };
        (sigma1.is_finite()
            && sigma2.is_finite()
            && ellipse.major.is_finite()
            && ellipse.minor.is_finite())
        .then_some(ellipse)
    }

    /// `σ1·σ2`: the ellipse's area over the circle's (1 kept, below 1 shrunk).
    pub fn area_ratio(&self) -> f32 {
        self.sigma[0] * self.sigma[1]
    }

    /// `σ2/σ1`: 1 for a circle, 0 for a line (and for a point).
    pub fn aspect(&self) -> f32 {
        if self.sigma[0] > 0.0 {
            self.sigma[1] / self.sigma[0]
        } else {
            0.0
        }
    }

    /// `count` points around the ellipse of a circle of radius `radius`, centred on
    /// `center` (the skinned vertex); the last does not repeat the first. The app draws
    /// the same points: `scene::EllipseOutline::point` with `major` and `minor` scaled by
    /// `radius`.
    pub fn points(&self, center: Vec3, radius: f32, count: usize) -> Vec<Vec3> {
        (0..count)
            .map(|k| {
                let (sin, cos) = (k as f32 / count as f32 * std::f32::consts::TAU).sin_cos();
                center + radius * (cos * self.major + sin * self.minor)
            })
            .collect()
    }
}

/// The linear part of a vertex's transform under linear blending: the 3x3 part of
/// [`blended_matrix`], divided by the sum of the weights when `position_w` divides
/// (what the drawn position then goes through, see [`PositionW::drawn`]).
///
/// Contract: as for [`blended_matrix`], every joint in `influences` is inside `palette`.
pub fn lbs_linear(palette: &[Mat4], influences: &Influences, position_w: PositionW) -> Mat3 {
    let linear = Mat3::from_mat4(blended_matrix(palette, influences));
    let sum = influences.sum();
    match position_w {
        PositionW::Divide if sum != 0.0 => linear * (1.0 / sum),
        _ => linear,
    }
}

/// The linear part of a vertex's transform under dual quaternion blending: the
/// rotation of the normalised blend (see [`blend_dual_quats`]), so always a rotation.
///
/// Contract: as for [`blend_dual_quats`], every joint in `influences` is inside
/// `palette_dq`.
pub fn dqs_linear(palette_dq: &[DualQuat], influences: &Influences, antipodal_check: bool) -> Mat3 {
    Mat3::from_quat(blend_dual_quats(palette_dq, influences, antipodal_check).real)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dqs::dual_quat_palette;
    use glam::Quat;
    use proptest::prelude::*;
    use std::f32::consts::PI;

    /// A vertex on a tube along x of radius 0.5, at `x` and angle `angle` round it:
    /// (position, normal, tangent round the ring).
    fn tube_vertex(x: f32, angle: f32) -> (Vec3, Vec3, Vec3) {
        let (sin, cos) = angle.sin_cos();
        let normal = Vec3::new(0.0, cos, sin);
        (
            Vec3::X * x + normal * 0.5,
            normal,
            Vec3::new(0.0, -sin, cos),
        )
    }

    /// Half on a bone that stays put, half on one twisted by `twist` about x.
    fn twisted_elbow(twist: f32) -> (Vec<Mat4>, Influences) {
        let palette = vec![Mat4::IDENTITY, Mat4::from_rotation_x(twist)];
        (
            palette,
            Influences::prepare(&[(0, 0.5), (1, 0.5)], 2).unwrap(),
        )
    }

    fn close(a: f32, b: f32) -> bool {
        (a - b).abs() < 1e-5
    }

    #[test]
    fn one_bone_keeps_the_unit_circle() {
        let palette = [Mat4::from_rotation_translation(
            Quat::from_rotation_y(0.7),
            Vec3::new(1.0, 2.0, 3.0),
        )];
        let rigid = Influences::rigid(0);
        let (_, n, t) = tube_vertex(1.0, 0.4);
        for linear in [
            lbs_linear(&palette, &rigid, PositionW::Divide),
            dqs_linear(&dual_quat_palette(&palette), &rigid, true),
        ] {
            let e = Ellipse::new(linear, n, t).unwrap();
            assert!(close(e.sigma[0], 1.0) && close(e.sigma[1], 1.0), "{e:?}");
            assert!(close(e.area_ratio(), 1.0) && close(e.aspect(), 1.0));
            // Every point is at distance r from the centre, in the turned tangent plane.
            let c = Vec3::new(4.0, 5.0, 6.0);
            let turned = Quat::from_rotation_y(0.7) * n;
            for p in e.points(c, 0.1, 16) {
                assert!(close(p.distance(c), 0.1));
                assert!((p - c).dot(turned).abs() < 1e-6);
            }
        }
    }

    #[test]
    fn a_uniform_scale_gives_a_circle_scaled_as_much() {
        let s = 1.7;
        let palette = [Mat4::from_scale(Vec3::splat(s)) * Mat4::from_rotation_z(0.3)];
        let linear = lbs_linear(&palette, &Influences::rigid(0), PositionW::One);
        let (_, n, t) = tube_vertex(0.0, 2.0);
        let e = Ellipse::new(linear, n, t).unwrap();
        assert!(close(e.sigma[0], s) && close(e.sigma[1], s), "{e:?}");
        assert!(close(e.area_ratio(), s * s));
        let r = 0.2;
        for p in e.points(Vec3::ZERO, r, 12) {
            assert!(close(p.length(), s * r));
        }
    }

    #[test]
    fn a_stretch_along_the_surface_shows_as_the_major_axis() {
        // Twice as long along x, the axis of the tube: b = n × t is x here.
        let linear = Mat3::from_diagonal(Vec3::new(2.0, 1.0, 1.0));
        let (_, n, t) = tube_vertex(0.0, 1.0);
        let e = Ellipse::new(linear, n, t).unwrap();
        assert!(close(e.sigma[0], 2.0) && close(e.sigma[1], 1.0));
        assert!(e.major.normalize().cross(Vec3::X).length() < 1e-5);
        assert!(e.major.dot(e.minor).abs() < 1e-5);
        assert!(close(e.aspect(), 0.5));
    }

    #[test]
    fn linear_blending_at_half_a_twist_collapses_the_elbow_ring() {
        let (palette, half) = twisted_elbow(PI);
        for segment in 0..12 {
            let (_, n, t) = tube_vertex(2.0, segment as f32 / 12.0 * 2.0 * PI);
            let e = Ellipse::new(lbs_linear(&palette, &half, PositionW::Divide), n, t).unwrap();
            // diag(1, 0, 0): the circle's x extent stays, the rest is gone.
            assert!(e.sigma[1] < 1e-6 && e.aspect() < 1e-6, "{e:?}");
            assert!(e.area_ratio() < 1e-6);
            assert!(close(e.sigma[0], 1.0));
        }
    }

    #[test]
    fn dual_quaternions_at_half_a_twist_keep_the_elbow_ring_round() {
        let (palette, half) = twisted_elbow(PI);
        let palette_dq = dual_quat_palette(&palette);
        for segment in 0..12 {
            let (_, n, t) = tube_vertex(2.0, segment as f32 / 12.0 * 2.0 * PI);
            let e = Ellipse::new(dqs_linear(&palette_dq, &half, true), n, t).unwrap();
            assert!(close(e.sigma[0], 1.0) && close(e.sigma[1], 1.0), "{e:?}");
        }
    }

    #[test]
    fn dividing_by_w_undoes_a_wrong_sum() {
        let palette = [Mat4::from_rotation_x(0.4)];
        let heavy = Influences::unnormalised(&[(0, 1.25)], 1).unwrap();
        let (_, n, t) = tube_vertex(1.0, 0.0);
        let area = |w| {
            Ellipse::new(lbs_linear(&palette, &heavy, w), n, t)
                .unwrap()
                .area_ratio()
        };
        assert!(close(area(PositionW::Divide), 1.0));
        assert!(close(area(PositionW::One), 1.25 * 1.25));
    }

    #[test]
    fn bad_input_gives_no_ellipse() {
        let (_, n, t) = tube_vertex(1.0, 0.3);
        let mut nan = Mat3::IDENTITY;
        nan.x_axis.y = f32::NAN;
        assert_eq!(Ellipse::new(nan, n, t), None);
        let mut inf = Mat3::IDENTITY;
        inf.z_axis.z = f32::INFINITY;
        assert_eq!(Ellipse::new(inf, n, t), None);
        assert_eq!(Ellipse::new(Mat3::IDENTITY, Vec3::ZERO, t), None);
        assert_eq!(Ellipse::new(Mat3::IDENTITY, n, Vec3::ZERO), None);
        assert_eq!(Ellipse::new(Mat3::IDENTITY, n, n * 2.0), None);
        assert_eq!(Ellipse::new(Mat3::IDENTITY, Vec3::NAN, t), None);
        // Too large to square: the Gram matrix overflows.
        assert_eq!(Ellipse::new(Mat3::IDENTITY * 1e30, n, t), None);
        // Flattened to a point: an ellipse, collapsed both ways.
        let point = Ellipse::new(Mat3::ZERO, n, t).unwrap();
        assert_eq!(
            (point.sigma, point.aspect(), point.area_ratio()),
            ([0.0; 2], 0.0, 0.0)
        );
    }

    proptest! {
        // The semi-axes are perpendicular, of lengths σ1 then σ2 (no longer), and every point of the
        // mapped circle lies on the ellipse they span.
        #[test]
        fn the_axes_span_the_mapped_circle(
            m in prop::array::uniform9(-3.0f32..3.0),
            n in prop::array::uniform3(-1.0f32..1.0),
            theta in 0.0f32..6.3,
        ) {
            let n = Vec3::from(n);
            prop_assume!(n.length() > 0.1);
            let n = n.normalize();
            let linear = Mat3::from_cols_array(&m);
            let t = n.any_orthonormal_vector();
            let e = Ellipse::new(linear, n, t).unwrap();
            let scale = e.sigma[0].max(1.0);
            prop_assert!(e.sigma[0] >= e.sigma[1] && e.sigma[1] >= 0.0);
            prop_assert!((e.major.length() - e.sigma[0]).abs() < 1e-4 * scale);
            prop_assert!((e.minor.length() - e.sigma[1]).abs() < 1e-3 * scale);
            prop_assert!(e.major.dot(e.minor).abs() < 1e-3 * scale * scale);
            // The image of one point of the circle, in the ellipse's own coordinates,
            // satisfies (x/σ1)² + (y/σ2)² = 1.
            prop_assume!(e.sigma[1] > 0.05);
            let (sin, cos) = theta.sin_cos();
            let p = linear * (cos * t + sin * n.cross(t));
            let x = p.dot(e.major) / (e.sigma[0] * e.sigma[0]);
            let y = p.dot(e.minor) / (e.sigma[1] * e.sigma[1]);
            prop_assert!((x * x + y * y - 1.0).abs() < 2e-2, "{}", x * x + y * y);
        }
    }
}
