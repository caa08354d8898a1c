//! The 2D bone-chain grid: ten vertices, three bones, each bone 4 units along its
//! parent's x axis. Every number the grid page shows or draws comes from here.

use glam::{Mat4, Vec3};
use skin::lbs::{self, SkinMesh};
use skin::{InfluenceError, Influences, Skeleton};

/// Number of bones in the chain: b0 -> b1 -> b2.
pub const BONE_COUNT: usize = 3;

/// How far each bone sits along its parent's x axis.
pub const BONE_LENGTH: f32 = 4.0;

// ANCHOR: data
/// Vertex positions in bind space, in pairs at x = 0, 2, 4, 6, 8 and y = +1 / -1.
pub const POSITIONS: [[f32; 2]; 10] = [
    [0.0, 1.0],
    [0.0, -1.0],
    [2.0, 1.0],
    [2.0, -1.0],
    [4.0, 1.0],
    [4.0, -1.0],
    [6.0, 1.0],
    [6.0, -1.0],
    [8.0, 1.0],
    [8.0, -1.0],
];

/// (bone, weight) for each vertex: one bone, or half and half between neighbours.
pub const WEIGHTS: [&[(usize, f32)]; 10] = [
    &[(0, 1.0)],
    &[(0, 1.0)],
    &[(0, 0.5), (1, 0.5)],
    &[(0, 0.5), (1, 0.5)],
    &[(1, 1.0)],
    &[(1, 1.0)],
    &[(1, 0.5), (2, 0.5)],
    &[(1, 0.5), (2, 0.5)],
    &[(2, 1.0)],
    &[(2, 1.0)],
];

/// Pairs of vertex indices, one pair per drawn line.
pub const LINES: [[u32; 2]; 13] = [
    [0, 1],
    [0, 2],
    [1, 3],
    [2, 3],
    [2, 4],
    [3, 5],
    [4, 5],
    [4, 6],
    [5, 7],
    [6, 7],
    [6, 8],
    [7, 9],
    [8, 9],
];
// ANCHOR_END: data

/// The chain b0 -> b1 -> b2.
pub fn skeleton() -> Skeleton {
    Skeleton::chain(BONE_COUNT)
}

// ANCHOR: local
/// Each bone's local transform: move 4 units along the parent's x axis (not for the
/// root), then rotate about z by that bone's angle.
pub fn parent_from_joint(angles: [f32; BONE_COUNT]) -> [Mat4; BONE_COUNT] {
    std::array::from_fn(|bone| {
        let offset = if bone == 0 { 0.0 } else { BONE_LENGTH };
        Mat4::from_translation(Vec3::X * offset) * Mat4::from_rotation_z(angles[bone])
    })
}
// ANCHOR_END: local

/// The animation the grid plays (as in WebGLFundamentals' "WebGL Skinning"): every bone at `sin(t) * 0.8`.
pub fn animated_angle(time: f32) -> f32 {
    time.sin() * 0.8
}

/// The grid as a skinnable mesh (z = 0), influences prepared for four slots.
pub fn mesh() -> Result<SkinMesh, InfluenceError> {
    let influences = WEIGHTS
        .iter()
        .map(|list| Influences::prepare(list, BONE_COUNT))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(SkinMesh {
        positions: POSITIONS
            .iter()
            .map(|[x, y]| Vec3::new(*x, *y, 0.0))
            .collect(),
        influences,
        ..Default::default()
    })
}

/// The inverse bind matrices. The bind pose (every angle 0) only moves along x, so
/// each is exactly a move back.
pub fn joint_from_bind() -> Vec<Mat4> {
    skeleton()
        .world_from_joint(&parent_from_joint([0.0; BONE_COUNT]))
        .iter()
        .map(|m| Mat4::from_translation(-m.w_axis.truncate()))
        .collect()
}

/// The skinning palette (`world · inverse bind`, the gradients) for these bone angles.
pub fn palette(angles: [f32; BONE_COUNT]) -> Vec<Mat4> {
    let world = skeleton().world_from_joint(&parent_from_joint(angles));
    lbs::palette(&world, &joint_from_bind())
}

#[cfg(test)]
mod tests {
    use super::*;
    use skin::lbs::{inverse_bind, palette, skin_vertices};

    fn skinned(angle: f32) -> Vec<Vec3> {
        let skeleton = skeleton();
        let bind = skeleton.world_from_joint(&parent_from_joint([0.0; 3]));
        let pose = skeleton.world_from_joint(&parent_from_joint([angle; 3]));
        let pal = palette(&pose, &inverse_bind(&bind).unwrap());
        skin_vertices(&pal, &mesh().unwrap())
            .iter()
            .map(|v| v.position)
            .collect()
    }

    #[test]
    fn straight_at_angle_zero() {
        for (p, expected) in skinned(0.0).iter().zip(POSITIONS) {
            assert!(p.abs_diff_eq(Vec3::new(expected[0], expected[1], 0.0), 1e-6));
        }
    }

    #[test]
    fn rigid_vertices_follow_their_bone() {
        let angle = 0.8;
        let p = skinned(angle);
        // Vertex 0 sits at (0, 1) on bone 0 only: rotated by one angle about the origin.
        let expected = Mat4::from_rotation_z(angle).transform_point3(Vec3::Y);
        assert!(p[0].abs_diff_eq(expected, 1e-5));
        // The chain bends upward: the tip rises.
        assert!(p[8].y > 4.0);
    }

    #[test]
    fn every_line_names_real_vertices() {
        assert!(
            LINES
                .iter()
                .flatten()
                .all(|&i| (i as usize) < POSITIONS.len())
        );
        assert!(mesh().is_ok());
    }
}
