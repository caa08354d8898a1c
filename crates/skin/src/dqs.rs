//! Dual quaternion skinning on the CPU: the reference the DQS shader is checked against.
//!
//! A unit dual quaternion `real + ε·dual` holds a rotation (the unit quaternion `real`)
//! and a translation `t` (in `dual = ½·t·real`, with `t` read as the pure quaternion
//! `(t, 0)`). Blending these instead of matrices keeps every skinned vertex under a
//! rigid transform, so a twisted joint keeps its volume where linear blending collapses
//! it (the "candy wrapper").

use super::influences::Influences;
use super::lbs::{SkinMesh, SkinnedVertex};
use super::normals::{skin_normal, skin_tangent};
use super::quat::product as mul;
use glam::{Mat3, Mat4, Quat, Vec3, Vec4};

/// Below this length the blended rotation is treated as having cancelled out.
pub const DEGENERATE_LENGTH: f32 = 1e-6;

/// A rigid transform as a dual quaternion `real + ε·dual`.
///
/// Contract for a *unit* dual quaternion (what [`DualQuat::from_rigid`] and
/// [`DualQuat::normalize`] return): `|real| = 1` and `real · dual = 0` (as 4-vectors).
/// `q` and `-q` are the same transform.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DualQuat {
    /// The rotation, a unit quaternion.
    pub real: Quat,
    /// `½·t·real`: the translation `t`, carried so that it blends with the rotation.
    pub dual: Quat,
}

impl DualQuat {
    /// No rotation, no translation.
    pub const IDENTITY: Self = Self {
        real: Quat::IDENTITY,
        dual: Quat::from_xyzw(0.0, 0.0, 0.0, 0.0),
    };

    /// The rigid transform `point -> rotation * point + translation`.
    pub fn from_rotation_translation(rotation: Quat, translation: Vec3) -> Self {
        let t = Quat::from_xyzw(translation.x, translation.y, translation.z, 0.0);
        Self {
            real: rotation,
            dual: mul(t, rotation) * 0.5,
        }
    }

    /// The dual quaternion of a rigid matrix (rotation and translation only).
    ///
    /// Contract: `world_from_bind` should be rigid (see [`super::matrix::is_rigid`]).
    /// Anything else is made rigid, not refused: the three basis columns are divided
    /// by their lengths before the rotation is read (so a scale is dropped, and a
    /// mirror flips the x column first), and the translation column is kept as it is.
    /// A matrix with a zero or non-finite column gives the identity rotation.
    pub fn from_rigid(world_from_bind: &Mat4) -> Self {
        let (_scale, rotation, translation) = world_from_bind.to_scale_rotation_translation();
        // Shear leaves the columns non-orthogonal, so the quaternion read from them is
        // not quite unit: renormalise. A zero column leaves NaN: fall back to no rotation.
        let rotation = Vec4::from(rotation)
            .try_normalize()
            .map_or(Quat::IDENTITY, Quat::from_vec4);
        let translation = if translation.is_finite() {
            translation
        } else {
            Vec3::ZERO
        };
        Self::from_rotation_translation(rotation, translation)
    }

    /// The translation `t = 2·dual·conjugate(real)` (its vector part). For a unit dual
    /// quaternion the scalar part is `-2·real·dual = 0`.
    pub fn translation(&self) -> Vec3 {
        (mul(self.dual, self.real.conjugate()) * 2.0).xyz()
    }

    /// The rigid matrix of a unit dual quaternion.
    pub fn to_mat4(&self) -> Mat4 {
        Mat4::from_rotation_translation(self.real, self.translation())
    }

    /// `rotation * point + translation`, for a unit dual quaternion.
    pub fn transform_point(&self, point: Vec3) -> Vec3 {
        self.real * point + self.translation()
    }

    /// The direction `vector` rotated (no translation), for a unit dual quaternion.
    pub fn transform_vector(&self, vector: Vec3) -> Vec3 {
        self.real * vector
    }

    /// Divides by the dual number norm `|real| + ε·(real·dual)/|real|`, which makes
    /// `|real| = 1` and `real · dual = 0`: the nearest unit dual quaternion.
    ///
    /// A real part of (nearly) zero length has no rotation to give; that happens only
    /// when blended rotations cancel (possible without the antipodal check), and the
    /// result is then the identity, so the vertex stays where the bind pose put it.
    pub fn normalize(&self) -> Self {
        let real = Vec4::from(self.real);
        let length = real.length();
        if !length.is_finite() || length < DEGENERATE_LENGTH {
            return Self::IDENTITY;
        }
        let real = real / length;
        let dual = Vec4::from(self.dual) / length;
        // Remove the part of the dual along the real: what is left is perpendicular.
        let dual = dual - real * real.dot(dual);
        Self {
            real: Quat::from_vec4(real),
            dual: Quat::from_vec4(dual),
        }
    }
}

// ANCHOR: dqs_blend
/// The normalised weighted sum of the dual quaternions that influence one vertex.
///
/// `q` and `-q` are the same rotation, but their sum cancels. With `antipodal_check`,
/// every quaternion whose real part points away from the first influence's (negative
/// 4D dot product) is negated before it is added, so the blend takes the short way
/// round. Without it, the blend may take the long way, or cancel out altogether.
///
/// Contract: every joint index in `influences` is inside `palette_dq` (guaranteed when
/// the influences came from [`Influences::prepare`] with the palette's length).
pub fn blend_dual_quats(
    palette_dq: &[DualQuat],
    influences: &Influences,
    antipodal_check: bool,
) -> DualQuat {
    let pivot = Vec4::from(palette_dq[influences.joints[0] as usize].real);
    let mut real = Vec4::ZERO;
    let mut dual = Vec4::ZERO;
    for (joint, weight) in influences.joints.iter().zip(influences.weights) {
        let q = palette_dq[*joint as usize];
        let (r, d) = (Vec4::from(q.real), Vec4::from(q.dual));
        let sign = if antipodal_check && r.dot(pivot) < 0.0 {
            -1.0
        } else {
            1.0
        };
        real += r * (weight * sign);
        dual += d * (weight * sign);
    }
    DualQuat {
        real: Quat::from_vec4(real),
        dual: Quat::from_vec4(dual),
    }
    .normalize()
}
// ANCHOR_END: dqs_blend

/// One dual quaternion per palette matrix (see [`DualQuat::from_rigid`] for what
/// happens to a matrix that is not rigid).
///
/// ```
/// use glam::{Mat4, Quat, Vec3};
/// use skinlab_skin::dqs::dual_quat_palette;
///
/// // A quarter turn about z, then a step along x: a rigid motion, as a dual quaternion.
/// let turn = Mat4::from_rotation_translation(Quat::from_rotation_z(1.5708), Vec3::X);
/// let [dq] = dual_quat_palette(&[turn])[..] else { unreachable!() };
/// let moved = dq.transform_point(Vec3::new(1.0, 0.0, 0.0));
/// assert!((moved - turn.transform_point3(Vec3::X)).length() < 1e-5);
/// ```
pub fn dual_quat_palette(palette: &[Mat4]) -> Vec<DualQuat> {
    palette.iter().map(DualQuat::from_rigid).collect()
}

/// Skins every vertex of `mesh` with an already converted palette: each joint's rigid
/// part and, for the two-phase blend, its stretch ([`split_palette`]; empty for plain
/// DQS). A vertex is stretched by `Σ w[j] · S[j]`, then moved by the blended rigid
/// parts; its normal takes the inverse transpose of the whole.
pub fn skin_vertices_dq(
    palette_dq: &[DualQuat],
    stretches: &[Mat3],
    mesh: &SkinMesh,
    antipodal_check: bool,
) -> Vec<SkinnedVertex> {
    mesh.influences
        .iter()
        .enumerate()
        .map(|(i, influences)| {
            let whole = blended_whole(palette_dq, stretches, influences, antipodal_check);
            let normal = mesh
                .normals
                .get(i)
                .map_or(Vec3::ZERO, |n| skin_normal(&whole, *n));
            let tangent = mesh
                .tangents
                .get(i)
                .map_or(Vec3::ZERO, |t| skin_tangent(&whole, *t, normal));
            SkinnedVertex {
                position: whole.transform_point3(mesh.positions[i]),
                normal,
                tangent,
            }
        })
        .collect()
}

/// Skins every vertex of `mesh` by dual quaternion blending of `palette`
/// (`world_from_bind` per joint, as for [`super::lbs::skin_vertices`]).
pub fn skin_vertices_dqs(
    palette: &[Mat4],
    mesh: &SkinMesh,
    antipodal_check: bool,
) -> Vec<SkinnedVertex> {
    skin_vertices_dq(&dual_quat_palette(palette), &[], mesh, antipodal_check)
}

/// The rotation nearest `a` (its polar rotation): `a` turned into `R · S` with `S`
/// symmetric, by averaging `R` with its inverse transpose until it stops changing.
/// `None` for a matrix that mirrors, is singular or is not finite: it has no rotation
/// of its own.
pub fn polar_rotation(a: Mat3) -> Option<Mat3> {
    let det = a.determinant();
    if !det.is_finite() || det <= 1e-12 {
        return None;
    }
    let mut r = a;
    for _ in 0..32 {
        let next = (r + r.inverse().transpose()) * 0.5;
        let moved = (next - r).abs_diff_eq(Mat3::ZERO, 1e-7);
        r = next;
        if moved {
            break;
        }
    }
    Some(r)
}

// ANCHOR: dqs_scale
/// A joint's `world_from_bind`, `[A | t]`, split into a stretch applied first and a
/// rigid move after it, `G = rigid · S`: `rigid` is `A`'s polar rotation with `t`, and
/// `S = Rᵀ · A` is what is left, the scale and shear in bind space. (Kavan, Collins,
/// Žára and O'Sullivan, "Geometric Skinning with Approximate Dual Quaternion
/// Blending", 2008, blend the two parts apart.) A matrix without a rotation of its own
/// keeps [`DualQuat::from_rigid`]'s and no stretch.
pub fn split_scale(world_from_bind: &Mat4) -> (DualQuat, Mat3) {
    let a = Mat3::from_mat4(*world_from_bind);
    match polar_rotation(a) {
        Some(r) => {
            // Rᵀ·A is symmetric up to rounding; made exactly so, it fits in six numbers
            // (the shader's two vectors a joint, shaders/stretch.glsl).
            let s = r.transpose() * a;
            let rigid = DualQuat::from_rotation_translation(
                Quat::from_mat3(&r).normalize(),
                world_from_bind.w_axis.truncate(),
            );
            (rigid, (s + s.transpose()) * 0.5)
        }
        None => (DualQuat::from_rigid(world_from_bind), Mat3::IDENTITY),
    }
}

/// Each joint of `palette` split by [`split_scale`]: the rigid parts, and the stretches.
pub fn split_palette(palette: &[Mat4]) -> (Vec<DualQuat>, Vec<Mat3>) {
    palette.iter().map(split_scale).unzip()
}

/// The stretch a vertex takes before its rigid move, `Σ w[j] · S[j] / Σ w[j]`; the
/// identity for plain DQS (`stretches` empty) and for weights that sum to 0. Over the
/// weights' sum, so that, as for the dual quaternion blend, weights that do not sum to
/// 1 change nothing.
///
/// Contract: every joint index in `influences` is inside a non-empty `stretches`.
pub fn blend_stretches(stretches: &[Mat3], influences: &Influences) -> Mat3 {
    let total: f32 = influences.weights.iter().sum();
    if stretches.is_empty() || total.abs() <= 1e-6 {
        return Mat3::IDENTITY;
    }
    let sum: Mat3 = influences.used().map(|(j, w)| stretches[j] * w).sum();
    sum * (1.0 / total)
}

/// One vertex's whole matrix under the two-phase blend: its rigid parts blended as dual
/// quaternions, after its stretches blended linearly (none: plain DQS).
pub fn blended_whole(
    palette_dq: &[DualQuat],
    stretches: &[Mat3],
    influences: &Influences,
    antipodal_check: bool,
) -> Mat4 {
    let moved = blend_dual_quats(palette_dq, influences, antipodal_check);
    moved.to_mat4() * Mat4::from_mat3(blend_stretches(stretches, influences))
}

/// Dual quaternion skinning that carries scale, in two phases: each vertex is first
/// stretched by its joints' stretches blended linearly (`Σ w[j] · S[j]`), then moved by
/// the dual quaternion blend of their rigid parts. With rigid joints it is plain DQS;
/// with one joint it is that joint's matrix, scale and all.
pub fn skin_vertices_dqs_scaled(
    palette: &[Mat4],
    mesh: &SkinMesh,
    antipodal_check: bool,
) -> Vec<SkinnedVertex> {
    let (rigid, stretches) = split_palette(palette);
    skin_vertices_dq(&rigid, &stretches, mesh, antipodal_check)
}
// ANCHOR_END: dqs_scale

#[cfg(test)]
mod tests {
    use super::*;
    use crate::explain::steps::DqsBreakdown;
    use crate::lbs::{blended_matrix, skin_vertices};
    use crate::matrix::is_rigid;
    use glam::EulerRot;
    use proptest::prelude::*;

    #[test]
    fn the_two_phase_blend_carries_a_scaled_joint_that_plain_dqs_drops() {
        let stretched = Mat4::from_translation(Vec3::new(1.0, 2.0, 0.0))
            * Mat4::from_rotation_z(0.7)
            * Mat4::from_scale(Vec3::new(1.5, 1.0, 0.5));
        let (rigid, s) = split_scale(&stretched);
        assert!((rigid.to_mat4() * Mat4::from_mat3(s)).abs_diff_eq(stretched, 1e-5));
        assert!(
            s.abs_diff_eq(s.transpose(), 1e-5),
            "the stretch is symmetric: {s}"
        );
        // One joint: the matrix itself, scale and all; plain DQS loses the scale.
        let mesh = SkinMesh {
            positions: vec![Vec3::new(2.0, 1.0, 1.0)],
            normals: vec![Vec3::new(0.0, 0.6, 0.8)],
            influences: vec![Influences::prepare(&[(0, 1.0)], 1).unwrap()],
            ..Default::default()
        };
        let scaled = skin_vertices_dqs_scaled(&[stretched], &mesh, true);
        let lbs = skin_vertices(&[stretched], &mesh);
        assert!(scaled[0].position.abs_diff_eq(lbs[0].position, 1e-5));
        assert!(scaled[0].normal.abs_diff_eq(lbs[0].normal, 1e-5));
        let plain = skin_vertices_dqs(&[stretched], &mesh, true);
        assert!(plain[0].position.distance(lbs[0].position) > 0.5);
        // Rigid joints: plain DQS again, blended vertices included.
        let turn = Mat4::from_translation(Vec3::X) * Mat4::from_rotation_z(2.0);
        let two = SkinMesh {
            positions: vec![Vec3::new(1.0, 0.3, 0.0)],
            normals: vec![Vec3::Y],
            influences: vec![Influences::prepare(&[(0, 0.4), (1, 0.6)], 2).unwrap()],
            ..Default::default()
        };
        let a = skin_vertices_dqs_scaled(&[Mat4::IDENTITY, turn], &two, true);
        let b = skin_vertices_dqs(&[Mat4::IDENTITY, turn], &two, true);
        assert!(a[0].position.abs_diff_eq(b[0].position, 1e-5));
        // No rotation of its own (a mirror): the rigid part as plain DQS reads it.
        assert!(polar_rotation(Mat3::from_diagonal(Vec3::new(-1.0, 1.0, 1.0))).is_none());
    }

    #[test]
    fn a_blended_elbow_is_a_screw_about_the_elbow() {
        // Half of the identity and half of a quarter turn about z round (2, 0, 0): an
        // eighth of a turn about the same line, with no slide.
        let elbow = Vec3::new(2.0, 0.0, 0.0);
        let turn = Mat4::from_translation(elbow)
            * Mat4::from_rotation_z(std::f32::consts::FRAC_PI_2)
            * Mat4::from_translation(-elbow);
        let palette = dual_quat_palette(&[Mat4::IDENTITY, turn]);
        let half = Influences::prepare(&[(0, 0.5), (1, 0.5)], 2).unwrap();
        let screw = blend_dual_quats(&palette, &half, true).screw();
        assert!(
            (screw.angle - std::f32::consts::FRAC_PI_4).abs() < 1e-5,
            "{screw:?}"
        );
        assert!(screw.axis.abs_diff_eq(Vec3::Z, 1e-5), "{screw:?}");
        assert!(screw.point.abs_diff_eq(elbow, 1e-5), "{screw:?}");
        assert!(screw.slide.abs() < 1e-5, "{screw:?}");
        // The breakdown of a vertex there lands where the blend puts it.
        let mesh = SkinMesh {
            positions: vec![Vec3::new(2.0, 0.5, 0.0)],
            influences: vec![half],
            ..Default::default()
        };
        let b = DqsBreakdown::new(&palette, &mesh, 0, true).unwrap();
        let blended = blend_dual_quats(&palette, &half, true);
        assert!(
            b.moved
                .abs_diff_eq(blended.transform_point(mesh.positions[0]), 1e-5)
        );
        assert!((b.length - (0.5f32 + 0.5 * std::f32::consts::FRAC_1_SQRT_2).sqrt()).abs() < 1e-5);
        assert!(DqsBreakdown::new(&palette, &mesh, 1, true).is_none());
    }

    fn arb_rigid() -> impl Strategy<Value = Mat4> {
        (
            prop::array::uniform3(-3.2f32..3.2),
            prop::array::uniform3(-3.0f32..3.0),
        )
            .prop_map(|(r, t)| {
                Mat4::from_rotation_translation(
                    Quat::from_euler(EulerRot::XYZ, r[0], r[1], r[2]),
                    Vec3::from(t),
                )
            })
    }

    fn arb_influences(joint_count: usize) -> impl Strategy<Value = Influences> {
        prop::collection::vec((0..joint_count, 0.05f32..1.0), 1..6)
            .prop_map(move |list| Influences::prepare(&list, joint_count).unwrap())
    }

    fn is_unit(q: &DualQuat, tolerance: f32) -> bool {
        (q.real.length() - 1.0).abs() < tolerance
            && Vec4::from(q.real).dot(Vec4::from(q.dual)).abs() < tolerance
    }

    fn negated(q: &DualQuat) -> DualQuat {
        DualQuat {
            real: -q.real,
            dual: -q.dual,
        }
    }

    #[test]
    fn identity_matrix_is_identity_dual_quat() {
        let q = DualQuat::from_rigid(&Mat4::IDENTITY);
        assert_eq!(q, DualQuat::IDENTITY);
        assert_eq!(q.to_mat4(), Mat4::IDENTITY);
    }

    #[test]
    fn translation_survives_the_round_trip() {
        let t = Vec3::new(1.0, -2.0, 3.5);
        let q = DualQuat::from_rigid(&Mat4::from_translation(t));
        assert!(q.translation().abs_diff_eq(t, 1e-6));
        assert!(
            q.transform_point(Vec3::ONE)
                .abs_diff_eq(Vec3::ONE + t, 1e-6)
        );
    }

    #[test]
    fn scale_is_dropped_and_the_rest_is_kept() {
        let rotation = Quat::from_rotation_y(0.8);
        let t = Vec3::new(0.5, 1.0, -2.0);
        let scaled = Mat4::from_scale_rotation_translation(Vec3::new(2.0, 3.0, 0.5), rotation, t);
        let q = DualQuat::from_rigid(&scaled);
        assert!(is_unit(&q, 1e-6));
        assert!(
            q.to_mat4()
                .abs_diff_eq(Mat4::from_rotation_translation(rotation, t), 1e-5)
        );
    }

    #[test]
    fn a_degenerate_matrix_gives_a_finite_transform() {
        let flat = Mat4::from_scale(Vec3::new(1.0, 0.0, 1.0));
        let q = DualQuat::from_rigid(&flat);
        assert!(q.to_mat4().is_finite());
        let mut nan = Mat4::IDENTITY;
        nan.w_axis.x = f32::NAN;
        assert!(DualQuat::from_rigid(&nan).to_mat4().is_finite());
    }

    #[test]
    fn cancelling_rotations_fall_back_to_the_identity() {
        let q = DualQuat::from_rigid(&Mat4::from_rotation_z(0.5));
        let palette = [q, negated(&q)];
        let half = Influences::prepare(&[(0, 0.5), (1, 0.5)], 2).unwrap();
        assert_eq!(blend_dual_quats(&palette, &half, false), DualQuat::IDENTITY);
        // With the check, -q is recognised as q.
        let checked = blend_dual_quats(&palette, &half, true);
        assert!(checked.to_mat4().abs_diff_eq(q.to_mat4(), 1e-6));
    }

    #[test]
    fn half_way_between_two_twists_is_half_the_twist() {
        let palette = dual_quat_palette(&[Mat4::IDENTITY, Mat4::from_rotation_x(1.2)]);
        let half = Influences::prepare(&[(0, 0.5), (1, 0.5)], 2).unwrap();
        let blended = blend_dual_quats(&palette, &half, true);
        assert!(
            blended
                .to_mat4()
                .abs_diff_eq(Mat4::from_rotation_x(0.6), 1e-6)
        );
    }

    #[test]
    fn the_check_takes_the_short_way_round() {
        // 200 degrees one way is 160 degrees the other. The matrix is read as the
        // 200-degree quaternion (negative w, so a negative dot with the identity): the
        // check turns it into the -160-degree one and half of it is -80 degrees;
        // without the check the blend goes the long way, to +100 degrees.
        let turn = 200f32.to_radians();
        let palette = dual_quat_palette(&[Mat4::IDENTITY, Mat4::from_rotation_x(turn)]);
        let half = Influences::prepare(&[(0, 0.5), (1, 0.5)], 2).unwrap();
        let short = blend_dual_quats(&palette, &half, true).to_mat4();
        let long = blend_dual_quats(&palette, &half, false).to_mat4();
        let short_expected = Mat4::from_rotation_x((turn - std::f32::consts::TAU) / 2.0);
        let long_expected = Mat4::from_rotation_x(turn / 2.0);
        assert!(short.abs_diff_eq(short_expected, 1e-5), "{short}");
        assert!(long.abs_diff_eq(long_expected, 1e-5), "{long}");
    }

    proptest! {
        #[test]
        fn rigid_matrices_survive_the_round_trip(m in arb_rigid()) {
            let q = DualQuat::from_rigid(&m);
            prop_assert!(is_unit(&q, 1e-5));
            prop_assert!(q.to_mat4().abs_diff_eq(m, 1e-5), "{} vs {}", q.to_mat4(), m);
            let p = Vec3::new(0.3, -1.2, 2.0);
            prop_assert!(q.transform_point(p).abs_diff_eq(m.transform_point3(p), 1e-5));
        }

        #[test]
        fn the_screw_moves_a_point_as_the_dual_quaternion_does(m in arb_rigid()) {
            let q = DualQuat::from_rigid(&m);
            let s = q.screw();
            let p = Vec3::new(0.3, -1.2, 2.0);
            let about = Quat::from_axis_angle(s.axis, s.angle) * (p - s.point) + s.point;
            let screwed = about + s.axis * s.slide;
            prop_assert!(screwed.abs_diff_eq(q.transform_point(p), 1e-3), "{screwed} {s:?}");
        }

        #[test]
        fn one_weight_of_one_matches_lbs(
            pal in prop::collection::vec(arb_rigid(), 3),
            joint in 0u32..3,
            p in prop::array::uniform3(-5.0f32..5.0),
            n in prop::array::uniform3(-1.0f32..1.0),
        ) {
            let n = Vec3::from(n);
            prop_assume!(n.length() > 0.1);
            let mesh = SkinMesh {
                positions: vec![Vec3::from(p)],
                normals: vec![n.normalize()],
                tangents: vec![n.any_orthonormal_vector()],
                influences: vec![Influences::rigid(joint)],
            };
            let lbs = skin_vertices(&pal, &mesh)[0];
            for check in [true, false] {
                let dqs = skin_vertices_dqs(&pal, &mesh, check)[0];
                prop_assert!(dqs.position.abs_diff_eq(lbs.position, 1e-4));
                prop_assert!(dqs.normal.abs_diff_eq(lbs.normal, 1e-4));
                prop_assert!(dqs.tangent.abs_diff_eq(lbs.tangent, 1e-4));
            }
        }

        #[test]
        fn blended_dual_quats_are_unit(
            pal in prop::collection::vec(arb_rigid(), 4),
            inf in arb_influences(4),
            check in any::<bool>(),
        ) {
            let blended = blend_dual_quats(&dual_quat_palette(&pal), &inf, check);
            prop_assert!(is_unit(&blended, 1e-5), "{:?}", blended);
            prop_assert!(is_rigid(&blended.to_mat4(), 1e-4));
        }

        #[test]
        fn the_check_makes_the_sign_of_each_quaternion_irrelevant(
            pal in prop::collection::vec(arb_rigid(), 3),
            flips in prop::array::uniform3(any::<bool>()),
            inf in arb_influences(3),
            p in prop::array::uniform3(-3.0f32..3.0),
        ) {
            let palette = dual_quat_palette(&pal);
            let flipped: Vec<DualQuat> = palette
                .iter()
                .zip(flips)
                .map(|(q, flip)| if flip { negated(q) } else { *q })
                .collect();
            let p = Vec3::from(p);
            let a = blend_dual_quats(&palette, &inf, true).transform_point(p);
            let b = blend_dual_quats(&flipped, &inf, true).transform_point(p);
            prop_assert!(a.abs_diff_eq(b, 1e-4), "{} vs {}", a, b);
        }

        #[test]
        fn without_the_check_the_sign_matters(
            a in arb_rigid(),
            b in arb_rigid(),
            w in 0.2f32..0.45,
        ) {
            // Two joints whose rotations differ: negating one of them changes the blend
            // (unless the check puts the sign back).
            let palette = dual_quat_palette(&[a, b]);
            prop_assume!(Vec4::from(palette[0].real).dot(Vec4::from(palette[1].real)).abs() < 0.9);
            let inf = Influences::prepare(&[(0, 1.0 - w), (1, w)], 2).unwrap();
            let flipped = [palette[0], negated(&palette[1])];
            let p = Vec3::new(1.0, 2.0, -0.5);
            let on = blend_dual_quats(&palette, &inf, true).transform_point(p);
            let on_flipped = blend_dual_quats(&flipped, &inf, true).transform_point(p);
            let off = blend_dual_quats(&palette, &inf, false).transform_point(p);
            let off_flipped = blend_dual_quats(&flipped, &inf, false).transform_point(p);
            prop_assert!(on.abs_diff_eq(on_flipped, 1e-4));
            prop_assert!(!off.abs_diff_eq(off_flipped, 1e-2), "{} vs {}", off, off_flipped);
        }

        #[test]
        fn dqs_keeps_a_rigid_region_rigid(
            m in arb_rigid(),
            inf in arb_influences(3),
            p in prop::array::uniform3(-3.0f32..3.0),
        ) {
            // Every joint moved the same way: any blend of them is that same motion
            // (LBS agrees here too; the difference shows when the joints differ).
            let pal = [m, m, m];
            let blended = blend_dual_quats(&dual_quat_palette(&pal), &inf, true);
            let p = Vec3::from(p);
            prop_assert!(blended.transform_point(p).abs_diff_eq(m.transform_point3(p), 1e-4));
            prop_assert!(blended_matrix(&pal, &inf).abs_diff_eq(m, 1e-5));
        }
    }
}
