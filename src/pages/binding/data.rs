//! Binding transforms: a chest, neck and head chain standing up the y axis, and a
//! small outline mesh bound to it in two ways.
//!
//! Stage one stores each vertex in the space of the one joint it follows, so the
//! joint's world matrix alone places it. Stage two stores every vertex once, in the
//! bind (world) space, and gives each joint an inverse bind matrix
//! `joint_from_bind = inverse(world_from_joint at bind time)`, so the palette is
//! `world_from_joint · joint_from_bind`.

use glam::{Mat4, Vec3};
use skin::lbs::{self, SkinMesh};
use skin::{InfluenceError, Influences, Skeleton};

/// Number of joints in the chain.
pub const JOINT_COUNT: usize = 3;

/// The joints' names, parents first: joint `j` is the child of joint `j - 1`.
pub const JOINT_NAMES: [&str; JOINT_COUNT] = ["chest", "neck", "head"];

/// How far up its parent's y axis each joint sits (the chest sits at the origin).
pub const JOINT_OFFSETS: [f32; JOINT_COUNT] = [0.0, 1.0, 1.0];

/// The height of each rung of the outline, bottom to top.
const RUNG_HEIGHTS: [f32; 13] = [
    0.0, 0.25, 0.5, 0.75, 1.0, 1.25, 1.5, 1.75, 2.0, 2.25, 2.5, 2.75, 3.0,
];

/// Vertices per rung: left edge, centre, right edge.
const PER_RUNG: usize = 3;

/// Number of vertices in the mesh.
pub const VERTEX_COUNT: usize = RUNG_HEIGHTS.len() * PER_RUNG;

/// The vertex of the binding example: on the centre line, 2 units up, exactly where the
/// head joint sits in the straight pose.
pub const HEAD_VERTEX: usize = 8 * PER_RUNG + 1;

/// The joint the binding example binds [`HEAD_VERTEX`] to.
pub const HEAD: usize = 2;

/// A vertex that follows `joint` alone, half a unit above it on the right edge: its
/// stored numbers in joint space are not zero, so they are worth reading.
pub fn sample_vertex(joint: usize) -> usize {
    (joint.min(JOINT_COUNT - 1) * 4 + 2) * PER_RUNG + 2
}

/// How wide the outline is at height `y`: shoulders, a narrow neck, a round head.
fn half_width(y: f32) -> f32 {
    match y {
        y if y < 0.6 => 0.8,
        y if y < 0.8 => 0.55,
        y if y < 1.9 => 0.3,
        y if y < 2.1 => 0.45,
        y if y < 2.9 => 0.6,
        _ => 0.35,
    }
}

/// The chain, chest first.
pub fn skeleton() -> Skeleton {
    Skeleton::chain(JOINT_COUNT)
}

// ANCHOR: pose
/// Each joint's local transform: the joint sits its offset up its parent's y axis,
/// turned by its angle (radians, counter-clockwise) about z. Read from the right, a
/// point is turned first, then moved.
pub fn parent_from_joint(angles: [f32; JOINT_COUNT]) -> [Mat4; JOINT_COUNT] {
    std::array::from_fn(|j| {
        Mat4::from_translation(Vec3::Y * JOINT_OFFSETS[j]) * Mat4::from_rotation_z(angles[j])
    })
}
// ANCHOR_END: pose

/// Every joint's world matrix at these angles.
pub fn world_from_joint(angles: [f32; JOINT_COUNT]) -> Vec<Mat4> {
    skeleton().world_from_joint(&parent_from_joint(angles))
}

// ANCHOR: capture
/// "Bind at this pose": each joint's inverse bind matrix is the inverse of its world
/// matrix at that pose, `joint_from_bind = inverse(world_from_joint)`. A chain of turns
/// and moves always has an inverse, so this cannot fail.
pub fn capture_inverse_bind(angles: [f32; JOINT_COUNT]) -> [Mat4; JOINT_COUNT] {
    let world = world_from_joint(angles);
    std::array::from_fn(|j| tidy(world[j].inverse()))
}

/// Rounding noise below a millionth becomes a plain zero, so a captured matrix reads
/// `0.00`, never `-0.00`.
fn tidy(m: Mat4) -> Mat4 {
    Mat4::from_cols_array(
        &m.to_cols_array()
            .map(|v| if v.abs() < 1e-6 { 0.0 } else { v }),
    )
}
// ANCHOR_END: capture

// ANCHOR: palette
/// What the shader receives in stage two: `world_from_joint · joint_from_bind` per
/// joint, or the world matrices alone when the inverse bind is forgotten.
pub fn palette(
    world_from_joint: &[Mat4],
    joint_from_bind: &[Mat4; JOINT_COUNT],
    forget_inverse_bind: bool,
) -> Vec<Mat4> {
    if forget_inverse_bind {
        world_from_joint.to_vec()
    } else {
        lbs::palette(world_from_joint, joint_from_bind)
    }
}
// ANCHOR_END: palette

// ANCHOR: scrub
/// The palette `W · B⁻¹` read right to left, one factor at a time, for a vertex `v` that
/// follows one joint: `v` in bind space (where it sat in the bind pose), then `B⁻¹ · v`
/// (the same point in the joint's own frame), then `W · B⁻¹ · v` (in the world, where the
/// shader draws it).
pub fn scrub(world_from_joint: Mat4, joint_from_bind: Mat4, v: Vec3) -> [Vec3; 3] {
    let in_joint = joint_from_bind.transform_point3(v);
    [v, in_joint, world_from_joint.transform_point3(in_joint)]
}
// ANCHOR_END: scrub

/// The bind-space position of every vertex, rung by rung (left, centre, right).
pub fn bind_positions() -> Vec<Vec3> {
    RUNG_HEIGHTS
        .iter()
        .flat_map(|&y| {
            let w = half_width(y);
            [-w, 0.0, w].map(|x| Vec3::new(x, y, 0.0))
        })
        .collect()
}

/// The outline's segments: the two edges up the side, and each rung across.
pub fn lines() -> Vec<u32> {
    let mut indices = Vec::new();
    for rung in 0..RUNG_HEIGHTS.len() {
        let at = |k: usize| (rung * PER_RUNG + k) as u32;
        indices.extend([at(0), at(1), at(1), at(2)]);
        if rung + 1 < RUNG_HEIGHTS.len() {
            let up = |k: usize| ((rung + 1) * PER_RUNG + k) as u32;
            indices.extend([at(0), up(0), at(2), up(2)]);
        }
    }
    indices
}

// ANCHOR: rigid_joint
/// Stage one: the one joint a vertex at height `y` follows — the highest joint at or
/// below it in the straight pose.
pub fn rigid_joint(y: f32) -> usize {
    let mut height = 0.0;
    let mut joint = 0;
    for (j, offset) in JOINT_OFFSETS.iter().enumerate() {
        height += offset;
        if y >= height - 1e-6 {
            joint = j;
        }
    }
    joint
}
// ANCHOR_END: rigid_joint

/// Stage two: the (joint, weight) list of a vertex at height `y`. Over the half unit
/// below each joint the weight slides from the parent to the joint (smoothstep), so a
/// vertex on a joint, like [`HEAD_VERTEX`], belongs to that joint alone.
pub fn blended_weights(y: f32) -> Vec<(usize, f32)> {
    let joint = rigid_joint(y);
    let next = joint + 1;
    if next >= JOINT_COUNT {
        return vec![(joint, 1.0)];
    }
    let next_height: f32 = JOINT_OFFSETS[..=next].iter().sum();
    let t = ((y - (next_height - 0.5)) / 0.5).clamp(0.0, 1.0);
    let w = t * t * (3.0 - 2.0 * t);
    [(joint, 1.0 - w), (next, w)]
        .into_iter()
        .filter(|(_, w)| *w > 0.0)
        .collect()
}

// ANCHOR: joint_space
/// Stage one: every vertex stored in the space of the joint it follows, as a modelling
/// tool would export it: `joint_from_world` of the straight pose times the bind position.
pub fn mesh_in_joint_space() -> SkinMesh {
    let straight = world_from_joint([0.0; JOINT_COUNT]);
    let (positions, influences) = bind_positions()
        .into_iter()
        .map(|p| {
            let joint = rigid_joint(p.y);
            let local = straight[joint].inverse().transform_point3(p);
            (local, Influences::rigid(joint as u32))
        })
        .unzip();
    SkinMesh {
        positions,
        influences,
        ..Default::default()
    }
}
// ANCHOR_END: joint_space

/// Stage two: every vertex stored once, in bind space, with blended weights.
pub fn mesh_in_bind_space() -> Result<SkinMesh, InfluenceError> {
    let positions = bind_positions();
    let influences = positions
        .iter()
        .map(|p| Influences::prepare(&blended_weights(p.y), JOINT_COUNT))
        .collect::<Result<_, _>>()?;
    Ok(SkinMesh {
        positions,
        influences,
        ..Default::default()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use skin::lbs::skin_vertices;
    use std::f32::consts::FRAC_PI_2;

    fn skinned(palette: &[Mat4], mesh: &SkinMesh) -> Vec<Vec3> {
        skin_vertices(palette, mesh)
            .iter()
            .map(|v| v.position)
            .collect()
    }

    fn close(a: &[Vec3], b: &[Vec3], tolerance: f32) -> bool {
        a.len() == b.len() && a.iter().zip(b).all(|(p, q)| p.abs_diff_eq(*q, tolerance))
    }

    const BENT: [f32; JOINT_COUNT] = [0.2, -0.5, 0.9];

    #[test]
    fn the_mesh_has_a_few_dozen_vertices_and_valid_lines() {
        assert_eq!(VERTEX_COUNT, 39);
        assert_eq!(bind_positions().len(), VERTEX_COUNT);
        let lines = lines();
        assert_eq!(lines.len() % 2, 0);
        assert!(lines.iter().all(|&i| (i as usize) < VERTEX_COUNT));
        assert_eq!(bind_positions()[HEAD_VERTEX], Vec3::new(0.0, 2.0, 0.0));
        let local = mesh_in_joint_space();
        for j in 0..JOINT_COUNT {
            let v = sample_vertex(j);
            assert_eq!(local.influences[v], Influences::rigid(j as u32));
            assert_eq!(local.positions[v].y, 0.5, "half a unit above joint {j}");
            assert!(local.positions[v].x > 0.0);
        }
    }

    #[test]
    fn the_joints_stand_one_unit_apart_up_the_y_axis() {
        let world = world_from_joint([0.0; JOINT_COUNT]);
        for (j, w) in world.iter().enumerate() {
            assert_eq!(w.transform_point3(Vec3::ZERO), Vec3::Y * j as f32);
        }
        assert_eq!(rigid_joint(0.5), 0);
        assert_eq!(rigid_joint(1.0), 1);
        assert_eq!(rigid_joint(1.99), 1);
        assert_eq!(rigid_joint(2.0), 2);
    }

    #[test]
    fn stage_one_with_world_matrices_alone_rebuilds_the_straight_mesh() {
        let mesh = mesh_in_joint_space();
        let at_rest = skinned(&world_from_joint([0.0; JOINT_COUNT]), &mesh);
        assert!(close(&at_rest, &bind_positions(), 1e-6));
        // Without the skeleton, the stored numbers are not the mesh: the head's vertices
        // pile up around the origin.
        let stored = skinned(&[Mat4::IDENTITY; JOINT_COUNT], &mesh);
        assert_eq!(stored[HEAD_VERTEX], Vec3::ZERO);
    }

    #[test]
    fn stage_two_at_the_bind_pose_has_an_identity_palette() {
        let joint_from_bind = capture_inverse_bind([0.0; JOINT_COUNT]);
        let world = world_from_joint([0.0; JOINT_COUNT]);
        for m in palette(&world, &joint_from_bind, false) {
            assert!(m.abs_diff_eq(Mat4::IDENTITY, 1e-6));
        }
    }

    #[test]
    fn both_stages_agree_on_vertices_that_follow_one_joint() {
        let world = world_from_joint(BENT);
        let one = skinned(&world, &mesh_in_joint_space());
        let mesh = mesh_in_bind_space().unwrap();
        let pal = palette(&world, &capture_inverse_bind([0.0; JOINT_COUNT]), false);
        let two = skinned(&pal, &mesh);
        let mut rigid = 0;
        for (v, inf) in mesh.influences.iter().enumerate() {
            if inf.used().count() == 1 {
                rigid += 1;
                assert!(one[v].abs_diff_eq(two[v], 1e-5), "vertex {v}");
            }
        }
        assert!(rigid > 20, "most vertices follow one joint ({rigid})");
    }

    #[test]
    fn weights_sum_to_one_and_blend_below_each_joint() {
        for p in bind_positions() {
            let sum: f32 = blended_weights(p.y).iter().map(|(_, w)| w).sum();
            assert!((sum - 1.0).abs() < 1e-6);
        }
        assert_eq!(blended_weights(2.0), vec![(2, 1.0)]);
        assert_eq!(blended_weights(1.75), vec![(1, 0.5), (2, 0.5)]);
        assert_eq!(blended_weights(0.4), vec![(0, 1.0)]);
    }

    #[test]
    fn scrubbing_the_head_vertex_ends_where_the_skinning_draws_it() {
        let mesh = mesh_in_bind_space().unwrap();
        assert_eq!(mesh.influences[HEAD_VERTEX], Influences::rigid(HEAD as u32));
        let v = mesh.positions[HEAD_VERTEX];
        for (angles, bind) in [
            ([0.0; JOINT_COUNT], [0.0; JOINT_COUNT]),
            (BENT, [0.0; JOINT_COUNT]),
            (BENT, [0.4, 0.1, -0.7]),
        ] {
            let world = world_from_joint(angles);
            let joint_from_bind = capture_inverse_bind(bind);
            let [start, in_joint, drawn] = scrub(world[HEAD], joint_from_bind[HEAD], v);
            assert_eq!(start, v, "step 0 is the stored vertex");
            let pal = palette(&world, &joint_from_bind, false);
            let skinned = skinned(&pal, &mesh)[HEAD_VERTEX];
            assert!(drawn.abs_diff_eq(skinned, 1e-5), "{drawn} vs {skinned}");
            // The bind matrix takes the point in the joint's frame back to bind space.
            let bind_matrix = world_from_joint(bind)[HEAD];
            assert!(bind_matrix.transform_point3(in_joint).abs_diff_eq(v, 1e-5));
        }
        // The head example: B takes the head's 2 units away, W puts them back.
        let straight = world_from_joint([0.0; JOINT_COUNT]);
        let points = scrub(
            straight[HEAD],
            capture_inverse_bind([0.0; JOINT_COUNT])[HEAD],
            v,
        );
        assert_eq!(points, [Vec3::Y * 2.0, Vec3::ZERO, Vec3::Y * 2.0]);
    }

    #[test]
    fn forgetting_the_inverse_bind_puts_the_head_vertex_four_units_up() {
        let mesh = mesh_in_bind_space().unwrap();
        let world = world_from_joint([0.0; JOINT_COUNT]);
        let pal = palette(&world, &capture_inverse_bind([0.0; JOINT_COUNT]), true);
        let head = skinned(&pal, &mesh)[HEAD_VERTEX];
        assert!(head.abs_diff_eq(Vec3::new(0.0, 4.0, 0.0), 1e-6), "{head}");
    }

    #[test]
    fn binding_at_the_current_pose_snaps_the_mesh_back_to_its_rest_shape() {
        let mesh = mesh_in_bind_space().unwrap();
        let world = world_from_joint(BENT);
        let pal = palette(&world, &capture_inverse_bind(BENT), false);
        assert!(close(&skinned(&pal, &mesh), &bind_positions(), 1e-5));
        // Turning on from there moves the mesh by the change since the new bind.
        let mut more = BENT;
        more[HEAD] += FRAC_PI_2;
        let pal = palette(&world_from_joint(more), &capture_inverse_bind(BENT), false);
        let head = skinned(&pal, &mesh)[HEAD_VERTEX];
        assert!(!head.abs_diff_eq(Vec3::new(0.0, 2.0, 0.0), 0.1), "{head}");
    }
}
