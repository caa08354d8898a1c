//! The gradient: what carries one thing onto another. Between two points it is a
//! vector, `ab = b − a`. Between two frames it is a matrix, `ab = b · a⁻¹`.

use glam::{Mat4, Vec2, Vec3};
use skin::matrix::{MatrixError, checked_inverse};

// ANCHOR: vector
/// The vector that carries point `a` onto point `b`: `ab = b − a`, so that `b = a + ab`.
pub fn vector_between(a: Vec2, b: Vec2) -> Vec2 {
    b - a
}
// ANCHOR_END: vector

// ANCHOR: gradient
/// The matrix that carries frame `a` onto frame `b`: `ab = b · a⁻¹`, so that `b = ab · a`.
/// "Subtract" `a` by multiplying with its inverse, then "add" `b` by multiplying with `b`.
/// Refused when `a` has no inverse.
pub fn gradient(a: &Mat4, b: &Mat4) -> Result<Mat4, MatrixError> {
    Ok(*b * checked_inverse(a)?)
}
// ANCHOR_END: gradient

/// The point scrubbed through `b · a⁻¹`: the tip of the F's top bar, in a frame's own
/// coordinates. Placed by `a` it is the grey F's tip; placed by `b`, the yellow F's.
pub const SCRUB_LOCAL: Vec3 = Vec3::new(0.75, 1.0, 0.0);

/// A world point `p` carried through `ab = b · a⁻¹` one factor at a time, from the
/// right: `p` in the world, `a⁻¹ · p` in frame `a`'s own coordinates, then `b · a⁻¹ · p`
/// back in the world, at frame `b`. Refused when `a` has no inverse.
pub fn scrub(a: &Mat4, b: &Mat4, p: Vec3) -> Result<[Vec3; 3], MatrixError> {
    let in_a = checked_inverse(a)?.transform_point3(p);
    Ok([p, in_a, b.transform_point3(in_a)])
}

/// A frame in the xy plane: turned about z by `angle` (radians), then moved to `origin`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Frame2 {
    /// Turn about z, radians.
    pub angle: f32,
    /// Where the frame's origin sits.
    pub origin: Vec2,
}

impl Frame2 {
    /// `translate(origin) · rotate_z(angle)`.
    pub fn to_mat4(self) -> Mat4 {
        Mat4::from_translation(self.origin.extend(0.0)) * Mat4::from_rotation_z(self.angle)
    }

    /// The turn and the move a matrix makes in the xy plane, read from its x and t
    /// columns. Exact for matrices built by [`Frame2::to_mat4`]; for others, the
    /// nearest plane frame.
    pub fn from_mat4(m: &Mat4) -> Self {
        Self {
            angle: m.x_axis.y.atan2(m.x_axis.x),
            origin: m.w_axis.truncate().truncate(),
        }
    }
}

/// The parts of a matrix that act in the xy plane, row by row: `[x.x, y.x, t.x, x.y,
/// y.y, t.y]` (column name, then component), the way the 3×3 plane matrix is written.
pub fn plane_part(m: &Mat4) -> [f32; 6] {
    [
        m.x_axis.x, m.y_axis.x, m.w_axis.x, m.x_axis.y, m.y_axis.y, m.w_axis.y,
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_vector_between_two_points_carries_one_onto_the_other() {
        let (a, b) = (Vec2::new(1.0, 1.0), Vec2::new(4.0, 3.0));
        let ab = vector_between(a, b);
        assert_eq!(ab, Vec2::new(3.0, 2.0));
        assert_eq!(a + ab, b);
    }

    #[test]
    fn the_gradient_times_a_is_b_and_carries_a_onto_b() {
        let a = Frame2 {
            angle: 0.3,
            origin: Vec2::new(-1.0, 0.5),
        }
        .to_mat4()
            * Mat4::from_scale(Vec3::new(1.0, 2.0, 1.0));
        let b = Mat4::from_translation(Vec3::new(2.0, 1.0, -1.0)) * Mat4::from_rotation_y(1.1);
        let ab = gradient(&a, &b).unwrap();
        assert!((ab * a).abs_diff_eq(b, 1e-5));
        // A point drawn in a's frame lands on the same point drawn in b's frame.
        let local = Vec3::new(0.3, -0.2, 0.7);
        let carried = ab.transform_point3(a.transform_point3(local));
        assert!(carried.abs_diff_eq(b.transform_point3(local), 1e-5));
        // Nothing to carry: the gradient from a frame onto itself is the identity.
        assert!(gradient(&a, &a).unwrap().abs_diff_eq(Mat4::IDENTITY, 1e-5));
    }

    #[test]
    fn scrubbing_the_product_takes_the_tip_of_a_s_f_through_a_s_coordinates_onto_b_s() {
        let a = Frame2 {
            angle: 0.2,
            origin: Vec2::new(-2.0, 0.5),
        }
        .to_mat4();
        let b = Frame2 {
            angle: 1.2,
            origin: Vec2::new(0.5, 2.2),
        }
        .to_mat4();
        let p = a.transform_point3(SCRUB_LOCAL);
        let [start, in_a, end] = scrub(&a, &b, p).unwrap();
        assert_eq!(start, p);
        // a⁻¹ takes the point into a's own numbers, which a puts back.
        assert!(in_a.abs_diff_eq(SCRUB_LOCAL, 1e-5), "{in_a}");
        assert!(a.transform_point3(in_a).abs_diff_eq(p, 1e-5));
        // The last step is the gradient applied at once, and lands on b's F.
        let ab = gradient(&a, &b).unwrap();
        assert!(end.abs_diff_eq(ab.transform_point3(p), 1e-5), "{end}");
        assert!(end.abs_diff_eq(b.transform_point3(SCRUB_LOCAL), 1e-5));
        assert!(
            !end.abs_diff_eq(p, 0.1),
            "the frames differ, so the point moves"
        );
        let flat = Mat4::from_scale(Vec3::new(0.0, 1.0, 1.0));
        assert!(scrub(&flat, &b, p).is_err());
    }

    #[test]
    fn a_singular_a_has_no_gradient() {
        let flat = Mat4::from_scale(Vec3::new(1.0, 0.0, 1.0));
        assert!(matches!(
            gradient(&flat, &Mat4::IDENTITY),
            Err(MatrixError::Singular { .. })
        ));
    }

    #[test]
    fn a_plane_frame_reads_back_from_its_matrix() {
        let f = Frame2 {
            angle: -2.0,
            origin: Vec2::new(3.0, -4.0),
        };
        let back = Frame2::from_mat4(&f.to_mat4());
        assert!((back.angle - f.angle).abs() < 1e-6);
        assert_eq!(back.origin, f.origin);
    }
}
