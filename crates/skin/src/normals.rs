//! Normals and tangents under skinning: why a normal needs the inverse transpose of the
//! blended matrix, and how a tangent is made perpendicular again (one Gram-Schmidt step).
//!
//! Nothing here needs a mesh or a palette: [`super::lbs`] and [`super::dqs`] call these
//! for each vertex, and an inspector calls them on one blended matrix.

use glam::{Mat3, Mat4, Vec3};

/// How a normal is carried by the blended matrix `M`. The right way first; the
/// variants' snake_case names (`inverse_transpose`, `naive`) come from strum.
#[derive(
    Clone,
    Copy,
    Debug,
    Default,
    PartialEq,
    Eq,
    strum::VariantArray,
    strum::VariantNames,
    strum::IntoStaticStr,
)]
#[strum(serialize_all = "snake_case")]
pub enum NormalMethod {
    /// `normalize(inverse(transpose(M₃ₓ₃)) · n)`: stays perpendicular to the surface.
    #[default]
    InverseTranspose,
    /// `normalize(M₃ₓ₃ · n)`: right for rotations and uniform scale only.
    Naive,
}

impl NormalMethod {
    /// The method in words.
    pub fn name(self) -> &'static str {
        match self {
            Self::InverseTranspose => "inverse transpose",
            Self::Naive => "naive",
        }
    }

    /// The value the skinning shader's `u_normal_method` takes for this method.
    pub fn shader_value(self) -> i32 {
        match self {
            Self::InverseTranspose => 0,
            Self::Naive => 1,
        }
    }
}

/// The normal under `blended`: the inverse transpose of its 3x3 part, renormalised.
pub fn skin_normal(blended: &Mat4, normal: Vec3) -> Vec3 {
    let normal_matrix = Mat3::from_mat4(*blended).inverse().transpose();
    (normal_matrix * normal).normalize_or_zero()
}

/// The tangent under `blended`, made perpendicular to the skinned normal again
/// (one Gram-Schmidt step) and renormalised.
pub fn skin_tangent(blended: &Mat4, tangent: Vec3, skinned_normal: Vec3) -> Vec3 {
    let t = blended.transform_vector3(tangent).normalize_or_zero();
    (t - t.dot(skinned_normal) * skinned_normal).normalize_or_zero()
}

// ANCHOR: normal
/// The skinned normal of bind-space normal `n` under the blended matrix `blended`.
pub fn transform_normal(method: NormalMethod, blended: &Mat4, n: Vec3) -> Vec3 {
    match method {
        NormalMethod::InverseTranspose => skin_normal(blended, n),
        NormalMethod::Naive => (Mat3::from_mat4(*blended) * n).normalize_or_zero(),
    }
}
// ANCHOR_END: normal

/// A normal for each vertex of a mesh from its triangles (three indices each): the sum
/// of the normals of the triangles around the vertex, each as long as twice the
/// triangle's area (so big triangles count more), made unit length. A vertex in no
/// triangle gets zero; a triangle that names a vertex past `positions` is left out.
pub fn smooth_normals(positions: &[Vec3], triangles: &[u32]) -> Vec<Vec3> {
    let mut sums = vec![Vec3::ZERO; positions.len()];
    for t in triangles.chunks_exact(3) {
        let [a, b, c] = [t[0], t[1], t[2]].map(|i| i as usize);
        let (Some(pa), Some(pb), Some(pc)) = (positions.get(a), positions.get(b), positions.get(c))
        else {
            continue;
        };
        let n = (*pb - *pa).cross(*pc - *pa);
        for i in [a, b, c] {
            sums[i] += n;
        }
    }
    sums.into_iter().map(Vec3::normalize_or_zero).collect()
}

/// The angle between two directions, in degrees (0 when either is zero).
pub fn angle_degrees(a: Vec3, b: Vec3) -> f32 {
    let (a, b) = (a.normalize_or_zero(), b.normalize_or_zero());
    if a == Vec3::ZERO || b == Vec3::ZERO {
        return 0.0;
    }
    // atan2 of the sine and cosine stays accurate near 0°, where acos does not.
    a.cross(b).length().atan2(a.dot(b)).to_degrees()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn smooth_normals_average_the_faces_around_each_vertex() {
        // A square in z = 0 (two triangles): every normal is +z.
        let positions = [
            Vec3::new(0.0, 0.0, 0.0),
            Vec3::new(1.0, 0.0, 0.0),
            Vec3::new(1.0, 1.0, 0.0),
            Vec3::new(0.0, 1.0, 0.0),
            Vec3::new(1.0, 0.0, 0.0),
        ];
        let flat = smooth_normals(&positions[..4], &[0, 1, 2, 0, 2, 3]);
        assert!(
            flat.iter().all(|n| n.abs_diff_eq(Vec3::Z, 1e-6)),
            "{flat:?}"
        );
        // A vertex in no triangle gets zero; a triangle past the end is left out.
        let lonely = smooth_normals(&positions, &[0, 1, 2, 0, 2, 9]);
        assert_eq!(lonely[3], Vec3::ZERO);
        assert_eq!(lonely[4], Vec3::ZERO);
        assert!(lonely[0].abs_diff_eq(Vec3::Z, 1e-6));
    }
    use crate::explain::steps::TangentSteps;
    use glam::Quat;
    use proptest::prelude::*;
    fn arb_matrix() -> impl Strategy<Value = Mat4> {
        (
            prop::array::uniform3(0.2f32..3.0),
            prop::array::uniform3(-3.0f32..3.0),
            prop::array::uniform3(-2.0f32..2.0),
        )
            .prop_map(|(s, r, t)| {
                Mat4::from_scale_rotation_translation(
                    Vec3::from(s),
                    Quat::from_euler(glam::EulerRot::XYZ, r[0], r[1], r[2]),
                    Vec3::from(t),
                )
            })
    }

    proptest! {
        // The inverse transpose keeps a normal perpendicular to every tangent the matrix
        // carries, whatever the scale.
        #[test]
        fn inverse_transpose_normals_stay_perpendicular_to_carried_tangents(
            m in arb_matrix(),
            a in prop::array::uniform3(-1.0f32..1.0),
            b in prop::array::uniform3(-1.0f32..1.0),
        ) {
            let (a, b) = (Vec3::from(a), Vec3::from(b));
            let n = a.cross(b);
            prop_assume!(n.length() > 0.1);
            let normal = transform_normal(NormalMethod::InverseTranspose, &m, n.normalize());
            for t in [a, b] {
                let carried = m.transform_vector3(t).normalize();
                prop_assert!(normal.dot(carried).abs() < 1e-4, "{}", normal.dot(carried));
            }
        }

        // Under a rotation and a uniform scale both methods agree.
        #[test]
        fn both_methods_agree_without_non_uniform_scale(
            s in 0.2f32..3.0,
            r in prop::array::uniform3(-3.0f32..3.0),
            n in prop::array::uniform3(-1.0f32..1.0),
        ) {
            let n = Vec3::from(n);
            prop_assume!(n.length() > 0.1);
            let m = Mat4::from_scale_rotation_translation(
                Vec3::splat(s),
                Quat::from_euler(glam::EulerRot::XYZ, r[0], r[1], r[2]),
                Vec3::ONE,
            );
            let [a, b] = [NormalMethod::InverseTranspose, NormalMethod::Naive]
                .map(|method| transform_normal(method, &m, n));
            prop_assert!(a.abs_diff_eq(b, 1e-4), "{a} {b}");
        }
    }

    #[test]
    fn the_naive_normal_leaves_the_surface_under_non_uniform_scale() {
        let m = Mat4::from_scale(Vec3::new(1.0, 2.0, 1.0));
        let (n, t) = (
            Vec3::new(1.0, 1.0, 0.0).normalize(),
            Vec3::new(1.0, -1.0, 0.0),
        );
        let carried = m.transform_vector3(t).normalize();
        let naive = transform_normal(NormalMethod::Naive, &m, n);
        let right = transform_normal(NormalMethod::InverseTranspose, &m, n);
        assert!(right.dot(carried).abs() < 1e-6);
        // (1, 2) against (1, -2): cos = -3/5, 37° off square.
        assert!((angle_degrees(naive, carried) - 126.87).abs() < 0.01);
    }

    #[test]
    fn gram_schmidt_on_one_matrix_gives_a_unit_tangent_perpendicular_to_the_normal() {
        // Scaled across x and turned: the naive normal is not square to the carried tangent.
        let m = Mat4::from_rotation_z(0.6) * Mat4::from_scale(Vec3::new(1.0, 2.5, 1.0));
        let (n, t) = (Vec3::new(0.6, 0.8, 0.0), Vec3::new(0.8, -0.6, 0.0));
        for &method in <NormalMethod as strum::VariantArray>::VARIANTS {
            let s = TangentSteps::new(m, n, t, method);
            assert!((s.tangent.length() - 1.0).abs() < 1e-5);
            assert!(s.tangent.dot(s.normal).abs() < 1e-5);
            assert!((s.removed - (s.carried - s.dot * s.normal)).length() < 1e-6);
        }
        let naive = TangentSteps::new(m, n, t, NormalMethod::Naive);
        let right = TangentSteps::new(m, n, t, NormalMethod::InverseTranspose);
        assert!(naive.dot.abs() > 0.05, "{}", naive.dot);
        assert!(right.dot.abs() < 1e-5, "{}", right.dot);
        // Its tangent is the one the skinning loop computes.
        assert!(
            right
                .tangent
                .abs_diff_eq(skin_tangent(&m, t, right.normal), 1e-6)
        );
    }
}
