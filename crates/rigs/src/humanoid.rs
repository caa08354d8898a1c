//! A small humanoid skeleton in T-pose, and a mesh of bone shapes the skinning shader
//! can draw: each shape is bound rigidly to one joint.

use glam::{Mat4, Vec3};
use skin::explain::trs::Trs;
use skin::lbs::SkinMesh;
use skin::{Influences, Skeleton};

/// One joint of the rig: its name, its parent, and where it sits in its parent's frame
/// in the bind pose.
pub struct JointDef {
    /// Shown in the tree list and in links' error messages.
    pub name: &'static str,
    /// `None` for the root; otherwise an earlier joint.
    pub parent: Option<usize>,
    /// Bind-pose translation in the parent's frame (units: roughly metres).
    pub offset: [f32; 3],
}

const fn joint(name: &'static str, parent: Option<usize>, offset: [f32; 3]) -> JointDef {
    JointDef {
        name,
        parent,
        offset,
    }
}

// ANCHOR: joints
/// The rig, parents first. Left is +x, up is +y, the figure faces +z.
pub const JOINTS: [JointDef; 19] = [
    joint("hips", None, [0.0, 1.0, 0.0]),
    joint("spine", Some(0), [0.0, 0.15, 0.0]),
    joint("chest", Some(1), [0.0, 0.25, 0.0]),
    joint("neck", Some(2), [0.0, 0.25, 0.0]),
    joint("head", Some(3), [0.0, 0.1, 0.0]),
    joint("clavicle.L", Some(2), [0.06, 0.2, 0.0]),
    joint("upper_arm.L", Some(5), [0.14, 0.0, 0.0]),
    joint("forearm.L", Some(6), [0.28, 0.0, 0.0]),
    joint("hand.L", Some(7), [0.26, 0.0, 0.0]),
    joint("clavicle.R", Some(2), [-0.06, 0.2, 0.0]),
    joint("upper_arm.R", Some(9), [-0.14, 0.0, 0.0]),
    joint("forearm.R", Some(10), [-0.28, 0.0, 0.0]),
    joint("hand.R", Some(11), [-0.26, 0.0, 0.0]),
    joint("thigh.L", Some(0), [0.1, -0.05, 0.0]),
    joint("shin.L", Some(13), [0.0, -0.45, 0.0]),
    joint("foot.L", Some(14), [0.0, -0.42, 0.0]),
    joint("thigh.R", Some(0), [-0.1, -0.05, 0.0]),
    joint("shin.R", Some(16), [0.0, -0.45, 0.0]),
    joint("foot.R", Some(17), [0.0, -0.42, 0.0]),
];
// ANCHOR_END: joints

/// Number of joints.
pub const JOINT_COUNT: usize = JOINTS.len();

/// The index of the joint called `name`.
pub fn joint_index(name: &str) -> Option<usize> {
    JOINTS.iter().position(|j| j.name == name)
}

/// Where a joint with no child points its bone, in its own frame.
fn leaf_tip(joint: usize) -> Vec3 {
    match JOINTS[joint].name {
        "head" => Vec3::new(0.0, 0.22, 0.0),
        "foot.L" | "foot.R" => Vec3::new(0.0, -0.05, 0.16),
        name if name.starts_with("hand") => {
            Vec3::new(JOINTS[joint].offset[0].signum() * 0.12, 0.0, 0.0)
        }
        _ => Vec3::new(0.0, 0.08, 0.0),
    }
}

/// The rig's skeleton.
pub fn skeleton() -> Skeleton {
    // JOINTS is written parents-first; a unit test holds it to that.
    Skeleton::new(JOINTS.iter().map(|j| j.parent).collect())
        .unwrap_or_else(|_| Skeleton::chain(JOINT_COUNT))
}

/// The bind pose (T-pose) as local transforms.
pub fn bind_pose() -> Vec<Trs> {
    JOINTS
        .iter()
        .map(|j| Trs::from_translation(Vec3::from(j.offset)))
        .collect()
}

/// The joints whose parent is `joint`.
pub fn children(joint: usize) -> impl Iterator<Item = usize> {
    JOINTS
        .iter()
        .enumerate()
        .filter(move |(_, j)| j.parent == Some(joint))
        .map(|(i, _)| i)
}

/// `joint` and every joint below it.
pub fn subtree(joint: usize) -> Vec<usize> {
    let mut inside = [false; JOINT_COUNT];
    if joint < JOINT_COUNT {
        inside[joint] = true;
    }
    // Parents come first, so one pass finds every descendant.
    for (j, def) in JOINTS.iter().enumerate() {
        if let Some(p) = def.parent
            && inside[p]
        {
            inside[j] = true;
        }
    }
    (0..JOINT_COUNT).filter(|j| inside[*j]).collect()
}

/// Where each bone shape goes: from a joint to each child, or to a leaf tip.
/// Returns `(joint, tip in the joint's frame)` pairs.
pub fn bones() -> Vec<(usize, Vec3)> {
    let mut out = Vec::new();
    for j in 0..JOINT_COUNT {
        let mut any = false;
        for c in children(j) {
            out.push((j, Vec3::from(JOINTS[c].offset)));
            any = true;
        }
        if !any {
            out.push((j, leaf_tip(j)));
        }
    }
    out
}

/// Flat-shaded bone shapes in bind space, each bound with weight 1 to its joint, as
/// triangles. `world_from_joint_at_bind` places them.
pub fn bone_mesh(world_from_joint_at_bind: &[Mat4]) -> (SkinMesh, Vec<u32>) {
    let mut mesh = SkinMesh::default();
    for (j, tip) in bones() {
        let Some(world) = world_from_joint_at_bind.get(j) else {
            continue;
        };
        let length = tip.length();
        if length < 1e-6 {
            continue;
        }
        let dir = tip / length;
        let (u, v) = dir.any_orthonormal_pair();
        let w = (length * 0.12).min(0.05);
        let neck = dir * (length * 0.2);
        let ring = [u * w, v * w, -u * w, -v * w].map(|r| neck + r);
        for i in 0..4 {
            let (a, b) = (ring[i], ring[(i + 1) % 4]);
            for face in [[Vec3::ZERO, b, a], [a, b, tip]] {
                let normal = (face[1] - face[0])
                    .cross(face[2] - face[0])
                    .normalize_or_zero();
                for p in face {
                    mesh.positions.push(world.transform_point3(p));
                    mesh.normals
                        .push(world.transform_vector3(normal).normalize_or_zero());
                    mesh.influences.push(Influences::rigid(j as u32));
                }
            }
        }
    }
    let indices = (0..mesh.positions.len() as u32).collect();
    (mesh, indices)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn joints_are_parents_first_and_named_once() {
        for (j, def) in JOINTS.iter().enumerate() {
            assert!(def.parent.is_none_or(|p| p < j), "{}", def.name);
            assert_eq!(JOINTS.iter().filter(|o| o.name == def.name).count(), 1);
        }
        assert!(Skeleton::new(JOINTS.iter().map(|j| j.parent).collect()).is_ok());
        const { assert!(JOINT_COUNT >= 15) };
    }

    #[test]
    fn subtree_of_the_left_upper_arm_is_the_arm() {
        let names: Vec<_> = subtree(6).iter().map(|j| JOINTS[*j].name).collect();
        assert_eq!(names, ["upper_arm.L", "forearm.L", "hand.L"]);
        assert_eq!(subtree(0).len(), JOINT_COUNT);
    }

    #[test]
    fn bone_mesh_has_outward_normals_and_rigid_weights() {
        let world =
            skeleton().world_from_joint(&bind_pose().iter().map(Trs::to_mat4).collect::<Vec<_>>());
        let (mesh, indices) = bone_mesh(&world);
        assert_eq!(indices.len(), mesh.positions.len());
        let bones = bones();
        assert_eq!(
            mesh.positions.len(),
            bones.len() * 24,
            "8 triangles per bone"
        );
        for (b, (joint, tip)) in bones.iter().enumerate() {
            let origin = world[*joint].transform_point3(Vec3::ZERO);
            let axis = (world[*joint].transform_point3(*tip) - origin).normalize();
            for k in 0..8 {
                let at = b * 24 + k * 3;
                let center =
                    (mesh.positions[at] + mesh.positions[at + 1] + mesh.positions[at + 2]) / 3.0;
                let away = (center - origin).reject_from(axis);
                let n = mesh.normals[at];
                assert!((n.length() - 1.0).abs() < 1e-5);
                assert!(n.dot(away) > 0.0, "bone {b} face {k} faces inwards");
            }
        }
        assert!(mesh.influences.iter().all(|i| i.used().count() == 1));
    }
}
