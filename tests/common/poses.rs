//! Poses that break the math: joints scaled on each axis by many powers of ten, turned
//! anyhow, moved far.

use glam::{EulerRot, Mat4, Quat, Vec3};
use proptest::prelude::*;

/// A factor from 10^-`decades` to 10^`decades`, spread evenly over the powers of ten.
pub fn scale(decades: f32) -> impl Strategy<Value = f32> + Clone {
    (-decades..decades).prop_map(|e| 10f32.powf(e))
}

/// A joint's `world_from_bind`: any turn, a scale of its own per axis from 10^-`decades`
/// to 10^`decades`, a move of up to a thousand units.
pub fn extreme_joint(decades: f32) -> impl Strategy<Value = Mat4> + Clone {
    (
        prop::array::uniform3(-3.2f32..3.2),
        prop::array::uniform3(scale(decades)),
        prop::array::uniform3(-1000.0f32..1000.0),
    )
        .prop_map(|(r, s, t)| {
            Mat4::from_scale_rotation_translation(
                Vec3::from(s),
                Quat::from_euler(EulerRot::XYZ, r[0], r[1], r[2]),
                Vec3::from(t),
            )
        })
}
