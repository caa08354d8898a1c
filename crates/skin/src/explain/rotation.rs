//! Rotations: Euler angles and gimbal lock, quaternions and their matrix, and LERP,
//! NLERP and SLERP side by side. Keyframes are sampled by [`crate::clip`], whose slerp
//! this module's SLERP is.
//!
//! Euler angles here are (yaw, pitch, roll): a turn about y, then x, then z, applied as
//! `R = Ry(yaw) · Rx(pitch) · Rz(roll)` (roll first to the points, yaw last). Quaternions
//! are written (x, y, z, w), `w` the scalar part, as glam stores them.

use crate::clip::slerp_as_given;
use glam::{Mat3, Mat4, Quat, Vec3, Vec4};
use std::f32::consts::FRAC_PI_2;

/// Yaw, pitch and roll, radians.
pub type Euler = [f32; 3];

/// The gimbal's three frames: after the yaw, after the pitch, after the roll. The
/// last is the rotation of the object the gimbal holds.
pub fn gimbal_frames([yaw, pitch, roll]: Euler) -> [Mat4; 3] {
    let y = Mat4::from_rotation_y(yaw);
    let yx = y * Mat4::from_rotation_x(pitch);
    [y, yx, yx * Mat4::from_rotation_z(roll)]
}

/// `R = Ry(yaw) · Rx(pitch) · Rz(roll)`.
pub fn euler_matrix(euler: Euler) -> Mat4 {
    gimbal_frames(euler)[2]
}

/// How close the pitch is to ±90°, where the yaw and roll rings line up: 1 at the
/// lock, 0 at pitch 0.
pub fn lock_closeness(pitch: f32) -> f32 {
    pitch.sin().abs()
}

/// At pitch ±90° the rotation depends on yaw and roll only through this angle:
/// `yaw − roll` at +90°, `yaw + roll` at −90°. One degree of freedom is gone.
pub fn locked_angle([yaw, pitch, roll]: Euler) -> f32 {
    if pitch >= 0.0 { yaw - roll } else { yaw + roll }
}

// ANCHOR: euler_quat
/// The quaternion of (yaw, pitch, roll): one half-angle quaternion per axis,
/// multiplied in the same order as the matrices.
pub fn euler_quat([yaw, pitch, roll]: Euler) -> Quat {
    let (sy, cy) = (yaw / 2.0).sin_cos();
    let (sp, cp) = (pitch / 2.0).sin_cos();
    let (sr, cr) = (roll / 2.0).sin_cos();
    let qy = Quat::from_xyzw(0.0, sy, 0.0, cy);
    let qx = Quat::from_xyzw(sp, 0.0, 0.0, cp);
    let qz = Quat::from_xyzw(0.0, 0.0, sr, cr);
    qy * qx * qz
}
// ANCHOR_END: euler_quat

// ANCHOR: quat_matrix
/// The 3×3 matrix of a quaternion, term by term. For a unit quaternion it is a
/// rotation; for any other it is not (it scales and skews), which is what plain LERP
/// runs into.
pub fn quat_matrix(q: Quat) -> Mat3 {
    let (x, y, z, w) = (q.x, q.y, q.z, q.w);
    Mat3::from_cols(
        Vec3::new(
            1.0 - 2.0 * (y * y + z * z),
            2.0 * (x * y + w * z),
            2.0 * (x * z - w * y),
        ),
        Vec3::new(
            2.0 * (x * y - w * z),
            1.0 - 2.0 * (x * x + z * z),
            2.0 * (y * z + w * x),
        ),
        Vec3::new(
            2.0 * (x * z + w * y),
            2.0 * (y * z - w * x),
            1.0 - 2.0 * (x * x + y * y),
        ),
    )
}
// ANCHOR_END: quat_matrix

/// The rotation axis (unit) and angle (radians, 0..=2π) of a quaternion; the axis is x
/// when the angle is zero.
pub fn axis_angle(q: Quat) -> (Vec3, f32) {
    let q = q.normalize();
    let s = Vec3::new(q.x, q.y, q.z);
    let angle = 2.0 * s.length().atan2(q.w);
    (s.try_normalize().unwrap_or(Vec3::X), angle)
}

/// Three ways to go from one orientation to another.
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
pub enum Interp {
    /// `(1 − t) q0 + t q1`: a straight line through the inside of the sphere.
    Lerp,
    /// LERP, then normalised: back on the sphere, but not at an even pace.
    Nlerp,
    /// Along the great arc at an even pace.
    #[default]
    Slerp,
}

// ANCHOR: interpolate
/// Goes `t` of the way from `q0` to `q1` by `method`. With `shortest`, `q1` is first
/// negated when `q0 · q1 < 0` (`q` and `−q` are the same rotation; the flip takes the
/// short way round). LERP's result is not unit length.
pub fn interpolate(q0: Quat, q1: Quat, t: f32, method: Interp, shortest: bool) -> Quat {
    let (a, mut b) = (Vec4::from(q0), Vec4::from(q1));
    if shortest && a.dot(b) < 0.0 {
        b = -b;
    }
    let v = match method {
        Interp::Lerp => a * (1.0 - t) + b * t,
        Interp::Nlerp => (a * (1.0 - t) + b * t).normalize_or_zero(),
        // The one slerp (`clip::slerp_as_given`); `shortest` already chose the arc.
        Interp::Slerp => Vec4::from(slerp_as_given(Quat::from_vec4(a), Quat::from_vec4(b), t)),
    };
    Quat::from_vec4(v)
}
// ANCHOR_END: interpolate

/// The angle (radians) between the orientations of two quaternions of any length.
pub fn rotation_between(a: Quat, b: Quat) -> f32 {
    let unit = |q: Quat| Vec4::from(q).try_normalize().map(Quat::from_vec4);
    let (Some(a), Some(b)) = (unit(a), unit(b)) else {
        return 0.0;
    };
    // The turn from a to b; atan2 stays accurate for tiny angles, where acos does not.
    let r = a.conjugate() * b;
    2.0 * Vec3::new(r.x, r.y, r.z).length().atan2(r.w.abs())
}

/// Angular speed along an interpolation: `[t, degrees per unit t]` at `steps` + 1
/// points (central differences, one-sided at the ends).
pub fn angular_speed(
    q0: Quat,
    q1: Quat,
    method: Interp,
    shortest: bool,
    steps: usize,
) -> Vec<[f32; 2]> {
    let h = 5e-3;
    (0..=steps)
        .map(|i| {
            let t = i as f32 / steps as f32;
            let (lo, hi) = ((t - h).max(0.0), (t + h).min(1.0));
            let a = interpolate(q0, q1, lo, method, shortest);
            let b = interpolate(q0, q1, hi, method, shortest);
            [t, rotation_between(a, b).to_degrees() / (hi - lo)]
        })
        .collect()
}

/// The object matrix of an interpolated quaternion as the CITS3003 slides' formula
/// gives it: exactly `quat_matrix`, with no normalising, so LERP's shrink shows.
pub fn object_matrix(q: Quat) -> Mat4 {
    Mat4::from_mat3(quat_matrix(q))
}

/// The pitch of a perfect gimbal lock, radians.
pub const LOCK_PITCH: f32 = FRAC_PI_2;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::quat::{product, turn};
    use proptest::prelude::*;

    fn arb_quat() -> impl Strategy<Value = Quat> {
        prop::array::uniform4(-1.0f32..1.0)
            .prop_filter("not tiny", |v| Vec4::from(*v).length() > 0.2)
            .prop_map(|v| Quat::from_vec4(Vec4::from(v).normalize()))
    }

    proptest! {
        #[test]
        fn q_v_q_conjugate_turns_as_the_matrix_does(q in arb_quat(), v in prop::array::uniform3(-3.0f32..3.0)) {
            let v = Vec3::from(v);
            let by_matrix = quat_matrix(q) * v;
            prop_assert!(turn(q, v).abs_diff_eq(by_matrix, 1e-4), "{} vs {}", turn(q, v), by_matrix);
            prop_assert!(turn(-q, v).abs_diff_eq(by_matrix, 1e-4), "−q turns the same way");
            let sandwich = product(product(q, Quat::from_vec4(v.extend(0.0))), q.conjugate());
            prop_assert!(sandwich.w.abs() < 1e-4, "a vector again: w = {}", sandwich.w);
        }

        #[test]
        fn euler_quaternion_and_matrix_agree(e in prop::array::uniform3(-3.0f32..3.0)) {
            let m = euler_matrix(e);
            let q = euler_quat(e);
            prop_assert!(Mat4::from_mat3(quat_matrix(q)).abs_diff_eq(m, 1e-5));
            prop_assert!(Mat4::from_quat(q).abs_diff_eq(m, 1e-5));
        }

        #[test]
        fn slerp_keeps_an_even_angular_speed_and_matches_glam(a in arb_quat(), b in arb_quat(), t in 0.0f32..1.0) {
            let total = rotation_between(a, b);
            prop_assume!(total > 0.05 && total < 3.0);
            let q = interpolate(a, b, t, Interp::Slerp, true);
            prop_assert!((q.length() - 1.0).abs() < 1e-4);
            prop_assert!((rotation_between(a, q) - t * total).abs() < 2e-3, "{} vs {}", rotation_between(a, q), t * total);
            prop_assert!(rotation_between(q, a.slerp(b, t)) < 2e-3);
        }

        #[test]
        fn multiplying_quaternions_composes_rotations(a in arb_quat(), b in arb_quat(), v in prop::array::uniform3(-2.0f32..2.0)) {
            let v = Vec3::from(v);
            let composed = quat_matrix(a * b) * v;
            prop_assert!(composed.abs_diff_eq(quat_matrix(a) * (quat_matrix(b) * v), 1e-4));
        }
    }

    #[test]
    fn slerp_has_a_flat_speed_and_lerp_does_not() {
        let a = Quat::IDENTITY;
        let b = Quat::from_axis_angle(Vec3::new(1.0, 1.0, 0.0).normalize(), 2.6);
        let spread = |m| {
            let s = angular_speed(a, b, m, true, 40);
            let (lo, hi) = s.iter().fold((f32::MAX, 0.0f32), |(lo, hi), p| {
                (lo.min(p[1]), hi.max(p[1]))
            });
            (hi - lo) / hi
        };
        assert!(spread(Interp::Slerp) < 0.01, "{}", spread(Interp::Slerp));
        assert!(spread(Interp::Lerp) > 0.3, "{}", spread(Interp::Lerp));
        assert!(spread(Interp::Nlerp) > 0.3);
        // The average speed is the whole angle, whatever the method.
        let mean: f32 = angular_speed(a, b, Interp::Slerp, true, 40)
            .iter()
            .map(|p| p[1])
            .sum::<f32>()
            / 41.0;
        assert!((mean - 2.6f32.to_degrees()).abs() < 1.0, "{mean}");
    }

    #[test]
    fn lerp_leaves_the_unit_sphere_and_shrinks_the_object() {
        let a = Quat::IDENTITY;
        let b = Quat::from_rotation_z(2.5);
        let q = interpolate(a, b, 0.5, Interp::Lerp, true);
        assert!(q.length() < 0.9, "{}", q.length());
        let m = quat_matrix(q);
        assert!(
            m.determinant() < 0.8,
            "not a rotation: det {}",
            m.determinant()
        );
        let n = interpolate(a, b, 0.5, Interp::Nlerp, true);
        assert!((quat_matrix(n).determinant() - 1.0).abs() < 1e-5);
    }

    #[test]
    fn the_shortest_path_flip_takes_the_short_way() {
        let a = Quat::IDENTITY;
        let b = -Quat::from_rotation_y(1.0); // the same rotation, stored negated
        let half_short = interpolate(a, b, 0.5, Interp::Slerp, true);
        let half_long = interpolate(a, b, 0.5, Interp::Slerp, false);
        assert!((rotation_between(a, half_short) - 0.5).abs() < 1e-4);
        // Without the flip the arc goes the other way round: 2π − 1 radians in all.
        assert!(
            (rotation_between(a, half_long) - (std::f32::consts::TAU - 1.0) / 2.0).abs() < 1e-3
        );
    }

    #[test]
    fn slerp_between_opposite_quaternions_stays_on_the_sphere() {
        // q and −q: the same rotation, and without the shortest path a full turn apart.
        let a = Quat::from_rotation_y(0.4);
        let b = -a;
        let mut last = a;
        for i in 1..=20 {
            let q = interpolate(a, b, i as f32 / 20.0, Interp::Slerp, false);
            assert!(
                (q.length() - 1.0).abs() < 1e-5,
                "step {i}: |q| = {}",
                q.length()
            );
            // Even steps: 360° over 20 steps of the turned rotation.
            assert!((rotation_between(last, q) - std::f32::consts::TAU / 20.0).abs() < 1e-3);
            last = q;
        }
        assert!(rotation_between(last, b) < 1e-3);
    }

    #[test]
    fn at_pitch_ninety_only_yaw_minus_roll_counts() {
        let m = |y: f32, r: f32| euler_matrix([y, LOCK_PITCH, r]);
        assert!(
            m(0.7, 0.2).abs_diff_eq(m(0.9, 0.4), 1e-5),
            "yaw and roll turn about one axis"
        );
        assert!(!m(0.7, 0.2).abs_diff_eq(m(0.9, 0.0), 1e-3));
        assert!((locked_angle([0.7, LOCK_PITCH, 0.2]) - 0.5).abs() < 1e-6);
        let n = |y: f32, r: f32| euler_matrix([y, -LOCK_PITCH, r]);
        assert!(n(0.7, 0.2).abs_diff_eq(n(0.9, 0.0), 1e-5));
        // Away from the lock, both change the rotation independently.
        let free = |y: f32, r: f32| euler_matrix([y, 0.3, r]);
        assert!(!free(0.7, 0.2).abs_diff_eq(free(0.9, 0.4), 1e-3));
    }

    #[test]
    fn axis_angle_reads_back_the_turn() {
        let (axis, angle) = axis_angle(Quat::from_axis_angle(Vec3::Y, 1.2));
        assert!(axis.abs_diff_eq(Vec3::Y, 1e-5) && (angle - 1.2).abs() < 1e-5);
    }

    #[test]
    fn the_gimbal_lock_closeness_peaks_at_ninety() {
        assert!(lock_closeness(0.0) < 1e-6);
        assert!((lock_closeness(LOCK_PITCH) - 1.0).abs() < 1e-6);
    }
}
