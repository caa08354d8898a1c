//! A joint's local transform as a student edits it: translation, rotation in Euler
//! angles, scale.

use glam::{EulerRot, Mat4, Quat, Vec3};

/// The Euler order used everywhere: `R = Rx(x) · Ry(y) · Rz(z)`.
pub const EULER: EulerRot = EulerRot::XYZ;

/// `parent_from_joint` as three parts, applied scale first, then rotation, then
/// translation: `T · R · S`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Trs {
    /// Where the joint sits in its parent's frame.
    pub translation: Vec3,
    /// Euler angles in radians, `R = Rx · Ry · Rz`.
    pub rotation: Vec3,
    /// Scale along the joint's own axes.
    pub scale: Vec3,
}

impl Default for Trs {
    fn default() -> Self {
        Self::from_translation(Vec3::ZERO)
    }
}

impl Trs {
    /// A pure translation.
    pub fn from_translation(translation: Vec3) -> Self {
        Self {
            translation,
            rotation: Vec3::ZERO,
            scale: Vec3::ONE,
        }
    }

    /// The rotation as a quaternion.
    pub fn quat(&self) -> Quat {
        Quat::from_euler(EULER, self.rotation.x, self.rotation.y, self.rotation.z)
    }

    /// `parent_from_joint = T · R · S`.
    pub fn to_mat4(&self) -> Mat4 {
        Mat4::from_scale_rotation_translation(self.scale, self.quat(), self.translation)
    }

    /// Sets the rotation from a quaternion, keeping angles in (-π, π].
    pub fn set_quat(&mut self, q: Quat) {
        let (x, y, z) = q.normalize().to_euler(EULER);
        self.rotation = Vec3::new(x, y, z);
    }

    /// Turns the joint so that a point it carries, which sits in direction `from`
    /// (world space, seen from the joint), now lies in direction `to`.
    ///
    /// `world_from_parent` is the frame the joint's translation and rotation live in.
    /// The turn is the shortest arc between the two directions. With non-uniform scale
    /// above the joint the result is close, not exact.
    pub fn aim(&mut self, world_from_parent: &Mat4, from: Vec3, to: Vec3) {
        let parent_from_world = world_from_parent.inverse();
        let a = parent_from_world
            .transform_vector3(from)
            .normalize_or_zero();
        let b = parent_from_world.transform_vector3(to).normalize_or_zero();
        if a == Vec3::ZERO || b == Vec3::ZERO || !a.is_finite() || !b.is_finite() {
            return;
        }
        self.set_quat(Quat::from_rotation_arc(a, b) * self.quat());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn euler_order_is_x_then_y_then_z_as_a_product() {
        let t = Trs {
            rotation: Vec3::new(0.3, -0.7, 1.1),
            ..Trs::default()
        };
        let expected =
            Mat4::from_rotation_x(0.3) * Mat4::from_rotation_y(-0.7) * Mat4::from_rotation_z(1.1);
        assert!(t.to_mat4().abs_diff_eq(expected, 1e-6));
    }

    #[test]
    fn trs_is_translation_times_rotation_times_scale() {
        let t = Trs {
            translation: Vec3::new(1.0, 2.0, 3.0),
            rotation: Vec3::new(0.0, 0.5, 0.0),
            scale: Vec3::new(2.0, 1.0, 1.0),
        };
        let expected = Mat4::from_translation(t.translation)
            * Mat4::from_rotation_y(0.5)
            * Mat4::from_scale(t.scale);
        assert!(t.to_mat4().abs_diff_eq(expected, 1e-6));
    }

    #[test]
    fn aim_turns_the_carried_point_onto_the_target_direction() {
        let world_from_parent = Mat4::from_rotation_z(0.4) * Mat4::from_translation(Vec3::X);
        let mut joint = Trs::from_translation(Vec3::new(0.0, 1.0, 0.0));
        let child = Vec3::new(2.0, 0.0, 0.0);
        let world_from_joint = world_from_parent * joint.to_mat4();
        let origin = world_from_joint.transform_point3(Vec3::ZERO);
        let before = world_from_joint.transform_point3(child);
        let target = origin + Vec3::new(-1.0, 1.0, 0.5);
        joint.aim(&world_from_parent, before - origin, target - origin);
        let after = (world_from_parent * joint.to_mat4()).transform_point3(child);
        let got = (after - origin).normalize();
        assert!(
            got.abs_diff_eq((target - origin).normalize(), 1e-5),
            "{got}"
        );
        // The joint turned; it did not move.
        let moved = (world_from_parent * joint.to_mat4()).transform_point3(Vec3::ZERO);
        assert!(moved.abs_diff_eq(origin, 1e-6));
    }
}
