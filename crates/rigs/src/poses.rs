//! Named target poses for the humanoid rig, and the gradient matrices that carry the
//! bind pose (the T-pose) onto a target pose.

use super::humanoid::{self, joint_index};
use glam::{Mat4, Vec3};
use skin::explain::trs::Trs;
use skin::lbs::palette;

/// A named pose: local rotations on top of the T-pose, and a move of the hips.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PosePreset {
    /// The link name, e.g. `wave`.
    pub name: &'static str,
    /// Added to the hips' bind translation (a crouch lowers the whole figure).
    pub hips_offset: [f32; 3],
    /// `(joint name, Euler XYZ angles in radians)` for every joint that turns.
    pub rotations: &'static [(&'static str, [f32; 3])],
}

// ANCHOR: presets
/// Every named pose. Left is +x, up is +y, the figure faces +z.
pub const PRESETS: [PosePreset; 4] = [
    PosePreset {
        name: "bind",
        hips_offset: [0.0; 3],
        rotations: &[],
    },
    PosePreset {
        name: "wave",
        hips_offset: [0.0; 3],
        rotations: &[
            ("upper_arm.L", [0.0, 0.0, 0.5]),
            ("forearm.L", [0.0, 0.0, 1.1]),
            ("hand.L", [0.0, 0.0, 0.25]),
            ("upper_arm.R", [0.0, 0.0, 1.3]),
            ("forearm.R", [0.0, 0.3, 0.1]),
            ("head", [0.0, 0.0, -0.15]),
        ],
    },
    PosePreset {
        name: "walk",
        hips_offset: [0.0; 3],
        rotations: &[
            ("spine", [0.0, 0.1, 0.0]),
            ("upper_arm.L", [0.45, 0.0, -1.3]),
            ("forearm.L", [0.0, -0.4, 0.0]),
            ("upper_arm.R", [-0.45, 0.0, 1.3]),
            ("forearm.R", [0.0, 0.4, 0.0]),
            ("thigh.L", [-0.45, 0.0, 0.0]),
            ("shin.L", [0.25, 0.0, 0.0]),
            ("foot.L", [0.2, 0.0, 0.0]),
            ("thigh.R", [0.35, 0.0, 0.0]),
            ("shin.R", [0.55, 0.0, 0.0]),
            ("foot.R", [-0.4, 0.0, 0.0]),
        ],
    },
    PosePreset {
        name: "crouch",
        hips_offset: [0.0, -0.405, 0.0],
        rotations: &[
            ("spine", [0.45, 0.0, 0.0]),
            ("neck", [-0.35, 0.0, 0.0]),
            ("upper_arm.L", [0.0, -1.3, 0.45]),
            ("upper_arm.R", [0.0, 1.3, -0.45]),
            ("thigh.L", [-1.1, 0.0, 0.0]),
            ("shin.L", [2.0, 0.0, 0.0]),
            ("foot.L", [-0.9, 0.0, 0.0]),
            ("thigh.R", [-1.1, 0.0, 0.0]),
            ("shin.R", [2.0, 0.0, 0.0]),
            ("foot.R", [-0.9, 0.0, 0.0]),
        ],
    },
];
// ANCHOR_END: presets

/// The names of every preset, in order.
pub fn names() -> Vec<&'static str> {
    PRESETS.iter().map(|p| p.name).collect()
}

/// The preset called `name`.
pub fn preset(name: &str) -> Option<&'static PosePreset> {
    PRESETS.iter().find(|p| p.name == name)
}

impl PosePreset {
    /// The pose as local transforms: the T-pose with this preset's turns and hips move.
    pub fn local(&self) -> Vec<Trs> {
        let mut pose = humanoid::bind_pose();
        pose[0].translation += Vec3::from(self.hips_offset);
        for (name, angles) in self.rotations {
            // Every name is a joint of the rig: a unit test holds the table to that.
            if let Some(j) = joint_index(name) {
                pose[j].rotation = Vec3::from(*angles);
            }
        }
        pose
    }
}

/// `world_from_joint` for every joint of a pose given as local transforms.
pub fn world_from_joint(local: &[Trs]) -> Vec<Mat4> {
    let local: Vec<Mat4> = local.iter().map(Trs::to_mat4).collect();
    humanoid::skeleton().world_from_joint(&local)
}

/// `world_from_joint` in the bind pose (the T-pose).
pub fn world_from_joint_at_bind() -> Vec<Mat4> {
    world_from_joint(&humanoid::bind_pose())
}

/// `joint_from_bind`: the inverse bind matrices of the rig. The T-pose holds
/// translations only, so every joint's matrix has an inverse.
pub fn joint_from_bind() -> Vec<Mat4> {
    world_from_joint_at_bind()
        .iter()
        .map(Mat4::inverse)
        .collect()
}

// ANCHOR: gradients
/// The gradient matrices of a target pose: `world_from_bind[j] = world_from_joint[j] ·
/// joint_from_bind[j]`, "target pose times inverse bind pose", one per joint.
pub fn gradients(world_from_joint: &[Mat4], joint_from_bind: &[Mat4]) -> Vec<Mat4> {
    palette(world_from_joint, joint_from_bind)
}
// ANCHOR_END: gradients

#[cfg(test)]
mod tests {
    use super::*;
    use crate::humanoid::JOINT_COUNT;
    use skin::matrix::max_difference;

    fn posed(preset: &PosePreset) -> (Vec<Mat4>, Vec<Mat4>) {
        let world = world_from_joint(&preset.local());
        let grads = gradients(&world, &joint_from_bind());
        (world, grads)
    }

    #[test]
    fn every_preset_names_real_joints_once_and_finite_angles() {
        for p in PRESETS {
            for (name, angles) in p.rotations {
                assert!(joint_index(name).is_some(), "{}: `{name}`", p.name);
                assert!(angles.iter().all(|a| a.is_finite() && a.abs() <= 3.2));
                let count = p.rotations.iter().filter(|(n, _)| n == name).count();
                assert_eq!(count, 1, "{}: `{name}` twice", p.name);
            }
            assert_eq!(preset(p.name), Some(&p));
        }
        assert_eq!(names(), ["bind", "wave", "walk", "crouch"]);
    }

    #[test]
    fn the_bind_preset_gives_identity_gradients() {
        let (world, grads) = posed(&PRESETS[0]);
        assert_eq!(world.len(), JOINT_COUNT);
        for (j, g) in grads.iter().enumerate() {
            assert!(g.abs_diff_eq(Mat4::IDENTITY, 1e-6), "joint {j}: {g}");
        }
    }

    #[test]
    fn gradient_times_bind_is_the_target_and_carries_each_joint() {
        let bind = world_from_joint_at_bind();
        for p in &PRESETS[1..] {
            let (world, grads) = posed(p);
            let mut moved = 0;
            for j in 0..JOINT_COUNT {
                assert!(max_difference(&(grads[j] * bind[j]), &world[j]) < 1e-5);
                let from = bind[j].transform_point3(Vec3::ZERO);
                let to = world[j].transform_point3(Vec3::ZERO);
                assert!(grads[j].transform_point3(from).abs_diff_eq(to, 1e-5));
                moved += usize::from(from.distance(to) > 0.05);
            }
            assert!(moved >= 3, "{}: only {moved} joints moved", p.name);
        }
    }

    #[test]
    fn the_crouch_keeps_the_feet_on_the_ground() {
        let ankles = |world: &[Mat4]| {
            ["foot.L", "foot.R"].map(|n| world[joint_index(n).unwrap_or(0)].w_axis.y)
        };
        let bind = ankles(&world_from_joint_at_bind());
        let crouch = ankles(&posed(&PRESETS[3]).0);
        for (b, c) in bind.iter().zip(crouch) {
            assert!((b - c).abs() < 0.01, "ankle at {c}, bind {b}");
        }
        let hips = posed(&PRESETS[3]).0[0].w_axis.y;
        assert!(hips < 0.7, "the hips went down to {hips}");
    }

    #[test]
    fn the_wave_raises_the_left_hand_above_the_head() {
        let (world, _) = posed(&PRESETS[1]);
        let hand = world[joint_index("hand.L").unwrap_or(0)].w_axis.y;
        let head = world[joint_index("head").unwrap_or(0)].w_axis.y;
        assert!(hand > head, "hand {hand}, head {head}");
    }
}
