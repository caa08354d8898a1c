//! The transformation hierarchy step by step: the chain of products from the root down
//! to one joint, and the same walk multiplied in the wrong order.

use glam::{Mat4, Vec3};
use skin::Skeleton;
use skin::explain::trs::Trs;

/// One step of the walk from the root to a joint.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ChainStep {
    /// The joint this step reaches.
    pub joint: usize,
    /// Its local transform.
    pub parent_from_joint: Mat4,
    /// The running product so far: `world_from_parent * parent_from_joint`.
    pub world_from_joint: Mat4,
}

/// Every local transform as a matrix, `T · R · S`.
pub fn locals(pose: &[Trs]) -> Vec<Mat4> {
    pose.iter().map(Trs::to_mat4).collect()
}

// ANCHOR: chain
/// The products that reach `joint`, root first: each step multiplies the running world
/// matrix by the next local one. An unknown joint gives an empty chain.
pub fn chain(skeleton: &Skeleton, parent_from_joint: &[Mat4], joint: usize) -> Vec<ChainStep> {
    if joint >= skeleton.len() || parent_from_joint.len() != skeleton.len() {
        return Vec::new();
    }
    let mut world_from_parent = Mat4::IDENTITY;
    skeleton
        .path_from_root(joint)
        .into_iter()
        .map(|j| {
            let local = parent_from_joint[j];
            world_from_parent *= local;
            ChainStep {
                joint: j,
                parent_from_joint: local,
                world_from_joint: world_from_parent,
            }
        })
        .collect()
}
// ANCHOR_END: chain

// ANCHOR: scrub
/// The point `p`, given in the frame of the chain's last joint, after 0, 1, 2, … of the
/// chain's factors, applied from the right: `p`, `local(joint) · p`,
/// `local(parent) · local(joint) · p`, …, `world(joint) · p`. One more point than factors.
pub fn scrub(steps: &[ChainStep], p: Vec3) -> Vec<Vec3> {
    let mut at = p;
    std::iter::once(p)
        .chain(steps.iter().rev().map(|step| {
            at = step.parent_from_joint.transform_point3(at);
            at
        }))
        .collect()
}
// ANCHOR_END: scrub

/// The joint whose frame holds the point after `applied` factors of `steps` (see
/// [`scrub`]); `None` once it is in the world, or past the end.
pub fn frame_after(steps: &[ChainStep], applied: usize) -> Option<usize> {
    let left = steps.len().checked_sub(applied)?;
    left.checked_sub(1).map(|i| steps[i].joint)
}

// ANCHOR: wrong_order
/// The classic mistake: `world[j] = local[j] * world[parent(j)]`. Same walk, same
/// matrices, the product reversed. Panics if the lengths differ (a programming error).
pub fn world_from_joint_wrong_order(skeleton: &Skeleton, parent_from_joint: &[Mat4]) -> Vec<Mat4> {
    assert_eq!(
        parent_from_joint.len(),
        skeleton.len(),
        "one local per joint"
    );
    let mut world: Vec<Mat4> = Vec::with_capacity(skeleton.len());
    for (joint, local) in parent_from_joint.iter().enumerate() {
        let parent_world = match skeleton.parent(joint) {
            Some(parent) => world[parent],
            None => Mat4::IDENTITY,
        };
        world.push(*local * parent_world);
    }
    world
}
// ANCHOR_END: wrong_order

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Vec3;
    use rigs::humanoid::{self, JOINT_COUNT};

    fn position(m: &Mat4) -> Vec3 {
        m.transform_point3(Vec3::ZERO)
    }

    fn index(name: &str) -> usize {
        humanoid::JOINTS
            .iter()
            .position(|j| j.name == name)
            .unwrap()
    }

    #[test]
    fn the_chain_ends_at_the_joints_world_matrix() {
        let skeleton = humanoid::skeleton();
        let mut pose = humanoid::bind_pose();
        pose[0].rotation = Vec3::new(0.1, 0.2, 0.3);
        pose[index("upper_arm.L")].rotation.z = 1.0;
        pose[index("forearm.L")].scale = Vec3::splat(1.5);
        let local = locals(&pose);
        let world = skeleton.world_from_joint(&local);
        let steps = chain(&skeleton, &local, index("hand.L"));
        let names: Vec<_> = steps
            .iter()
            .map(|s| humanoid::JOINTS[s.joint].name)
            .collect();
        assert_eq!(
            names,
            [
                "hips",
                "spine",
                "chest",
                "clavicle.L",
                "upper_arm.L",
                "forearm.L",
                "hand.L"
            ]
        );
        for step in &steps {
            assert!(step.world_from_joint.abs_diff_eq(world[step.joint], 1e-6));
            assert_eq!(step.parent_from_joint, local[step.joint]);
        }
        assert!(chain(&skeleton, &local, JOINT_COUNT).is_empty());
    }

    #[test]
    fn scrubbing_applies_one_factor_at_a_time_from_the_right() {
        let skeleton = humanoid::skeleton();
        let mut pose = humanoid::bind_pose();
        pose[index("upper_arm.L")].rotation = Vec3::new(0.0, 0.4, 1.2);
        pose[index("forearm.L")].scale = Vec3::splat(1.5);
        pose[index("hand.L")].rotation.x = 0.7;
        let local = locals(&pose);
        let world = skeleton.world_from_joint(&local);
        for (joint, p) in [
            (index("hand.L"), Vec3::ZERO),
            (index("hand.L"), Vec3::X),
            (index("head"), Vec3::new(0.1, -0.2, 0.3)),
            (0, Vec3::Y),
        ] {
            let steps = chain(&skeleton, &local, joint);
            let points = scrub(&steps, p);
            assert_eq!(points.len(), steps.len() + 1);
            assert_eq!(points[0], p, "no factor yet");
            let last = *points.last().unwrap();
            assert!(last.abs_diff_eq(world[joint].transform_point3(p), 1e-5));
            for k in 1..points.len() {
                let factor = local[steps[steps.len() - k].joint];
                assert!(
                    points[k].abs_diff_eq(factor.transform_point3(points[k - 1]), 1e-6),
                    "step {k} applies the next factor to step {}",
                    k - 1
                );
            }
        }
        assert!(scrub(&[], Vec3::X) == [Vec3::X]);
    }

    #[test]
    fn the_point_climbs_one_frame_per_factor_to_the_world() {
        let skeleton = humanoid::skeleton();
        let steps = chain(&skeleton, &locals(&humanoid::bind_pose()), index("hand.L"));
        let frame = |k| frame_after(&steps, k).map(|j| humanoid::JOINTS[j].name);
        assert_eq!(frame(0), Some("hand.L"));
        assert_eq!(frame(1), Some("forearm.L"));
        assert_eq!(frame(6), Some("hips"));
        assert_eq!(frame(7), None);
        assert_eq!(frame(8), None);
    }

    #[test]
    fn both_orders_agree_while_every_local_is_a_translation() {
        let skeleton = humanoid::skeleton();
        let local = locals(&humanoid::bind_pose());
        let right = skeleton.world_from_joint(&local);
        let wrong = world_from_joint_wrong_order(&skeleton, &local);
        for (r, w) in right.iter().zip(&wrong) {
            assert!(r.abs_diff_eq(*w, 1e-6));
        }
    }

    #[test]
    fn the_wrong_order_spins_the_parents_position_about_the_world_origin() {
        let skeleton = humanoid::skeleton();
        let mut pose = humanoid::bind_pose();
        let arm = index("upper_arm.L");
        pose[arm].rotation.z = std::f32::consts::FRAC_PI_2;
        let local = locals(&pose);
        let right = skeleton.world_from_joint(&local);
        let wrong = world_from_joint_wrong_order(&skeleton, &local);
        let clavicle = position(&right[index("clavicle.L")]);
        // Right: the shoulder stays put and the forearm swings up above it.
        let shoulder = clavicle + Vec3::new(0.14, 0.0, 0.0);
        assert!(position(&right[arm]).abs_diff_eq(shoulder, 1e-5));
        let elbow = position(&right[index("forearm.L")]);
        assert!(elbow.abs_diff_eq(shoulder + Vec3::new(0.0, 0.28, 0.0), 1e-5));
        // Wrong: the turn swings the clavicle's world position about the origin
        // (between the feet), then adds the shoulder's offset along world x.
        let spun = Vec3::new(-clavicle.y, clavicle.x, clavicle.z) + Vec3::new(0.14, 0.0, 0.0);
        assert!(
            position(&wrong[arm]).abs_diff_eq(spun, 1e-5),
            "{}",
            position(&wrong[arm])
        );
        // Its child is not carried round: the elbow sits along world x from there,
        // while the forearm's bone still points the turned way.
        let elbow_wrong = position(&wrong[index("forearm.L")]);
        assert!(elbow_wrong.abs_diff_eq(spun + Vec3::new(0.28, 0.0, 0.0), 1e-5));
        assert!(
            wrong[index("forearm.L")]
                .x_axis
                .abs_diff_eq(right[index("forearm.L")].x_axis, 1e-6)
        );
        // Joints outside the arm are the same either way.
        for j in [0, index("head"), index("hand.R"), index("foot.L")] {
            assert!(
                wrong[j].abs_diff_eq(right[j], 1e-6),
                "{}",
                humanoid::JOINTS[j].name
            );
        }
    }

    #[test]
    fn a_wrong_order_turn_of_the_hips_turns_every_bone_in_place() {
        let skeleton = humanoid::skeleton();
        let bind = skeleton.world_from_joint(&locals(&humanoid::bind_pose()));
        let mut pose = humanoid::bind_pose();
        pose[0].rotation.z = 0.8;
        let wrong = world_from_joint_wrong_order(&skeleton, &locals(&pose));
        for (j, (w, b)) in wrong.iter().zip(&bind).enumerate() {
            assert!(
                position(w).abs_diff_eq(position(b), 1e-5),
                "joint {j} stays put"
            );
            assert!(
                w.x_axis
                    .abs_diff_eq(Mat4::from_rotation_z(0.8).x_axis, 1e-6)
            );
        }
    }
}
