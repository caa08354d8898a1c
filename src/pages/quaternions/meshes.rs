//! The page's skinnable meshes: a small glider (one joint) and the gimbal's three rings
//! (one joint each), in their rest pose.

use glam::Vec3;
use skin::Influences;
use skin::lbs::SkinMesh;
use std::f32::consts::TAU;

/// The ring colours: yaw (about y), pitch (about x), roll (about z), each its axis's.
pub const RING_COLORS: [[f32; 4]; 3] = [
    scene::axis_color(1),
    scene::axis_color(0),
    scene::axis_color(2),
];
/// The glider's body, nose, wings and fin: greys, so that no part of it is taken for a
/// ring or, on the next page, for a method's path. The dark nose shows where it points.
pub const GLIDER_COLORS: [[f32; 4]; 4] = [
    [0.93, 0.93, 0.9, 1.0],
    [0.12, 0.12, 0.13, 1.0],
    [0.5, 0.5, 0.53, 1.0],
    [0.21, 0.21, 0.24, 1.0],
];
/// The rings' radii, outside in.
pub(crate) const RING_RADII: [f32; 3] = [2.3, 2.0, 1.7];
const RING_SEGMENTS: usize = 96;

/// A mesh with per-vertex colours, ready to wrap in `MeshData`.
pub struct Built {
    /// The vertices.
    pub skin: SkinMesh,
    /// Indices (triangles or line pairs).
    pub indices: Vec<u32>,
    /// One colour per vertex.
    pub colors: Vec<[f32; 4]>,
}

fn one_joint(joint: u32) -> Influences {
    Influences {
        joints: [joint, joint, joint, joint],
        weights: [1.0, 0.0, 0.0, 0.0],
    }
}

/// Adds an axis-aligned box from `min` to `max`: four vertices a face, with the face's
/// normal, bound to joint 0.
fn add_box(out: &mut Built, min: Vec3, max: Vec3, color: [f32; 4]) {
    let c = |x: bool, y: bool, z: bool| {
        Vec3::new(
            if x { max.x } else { min.x },
            if y { max.y } else { min.y },
            if z { max.z } else { min.z },
        )
    };
    // Each face: its normal and four corners counter-clockwise seen from outside.
    let faces = [
        (
            Vec3::X,
            [
                c(true, false, false),
                c(true, true, false),
                c(true, true, true),
                c(true, false, true),
            ],
        ),
        (
            -Vec3::X,
            [
                c(false, false, true),
                c(false, true, true),
                c(false, true, false),
                c(false, false, false),
            ],
        ),
        (
            Vec3::Y,
            [
                c(false, true, false),
                c(false, true, true),
                c(true, true, true),
                c(true, true, false),
            ],
        ),
        (
            -Vec3::Y,
            [
                c(false, false, false),
                c(true, false, false),
                c(true, false, true),
                c(false, false, true),
            ],
        ),
        (
            Vec3::Z,
            [
                c(false, false, true),
                c(true, false, true),
                c(true, true, true),
                c(false, true, true),
            ],
        ),
        (
            -Vec3::Z,
            [
                c(true, false, false),
                c(false, false, false),
                c(false, true, false),
                c(true, true, false),
            ],
        ),
    ];
    for (normal, corners) in faces {
        let base = out.skin.positions.len() as u32;
        for p in corners {
            out.skin.positions.push(p);
            out.skin.normals.push(normal);
            out.skin.influences.push(one_joint(0));
            out.colors.push(color);
        }
        out.indices
            .extend([base, base + 1, base + 2, base, base + 2, base + 3]);
    }
}

/// A glider pointing along +z with its wings along x and its fin up y: enough shape
/// to read an orientation at a glance. About 2 units long.
pub fn glider() -> Built {
    let mut out = Built {
        skin: SkinMesh::default(),
        indices: Vec::new(),
        colors: Vec::new(),
    };
    let [body, nose, wings, fin] = GLIDER_COLORS;
    add_box(
        &mut out,
        Vec3::new(-0.14, -0.1, -0.9),
        Vec3::new(0.14, 0.1, 0.7),
        body,
    );
    add_box(
        &mut out,
        Vec3::new(-0.1, -0.07, 0.7),
        Vec3::new(0.1, 0.07, 1.0),
        nose,
    );
    add_box(
        &mut out,
        Vec3::new(-1.1, -0.03, -0.15),
        Vec3::new(1.1, 0.03, 0.25),
        wings,
    );
    add_box(
        &mut out,
        Vec3::new(-0.03, 0.1, -0.9),
        Vec3::new(0.03, 0.5, -0.6),
        fin,
    );
    add_box(
        &mut out,
        Vec3::new(-0.45, -0.03, -0.9),
        Vec3::new(0.45, 0.03, -0.7),
        body,
    );
    out
}

/// The gimbal's rings as line loops: ring `k` is bound to joint `k`. The yaw ring lies
/// flat (around y), the pitch ring stands across x, the roll ring across z.
pub fn gimbal_rings() -> Built {
    let mut out = Built {
        skin: SkinMesh::default(),
        indices: Vec::new(),
        colors: Vec::new(),
    };
    for (joint, radius) in RING_RADII.iter().enumerate() {
        let base = out.skin.positions.len() as u32;
        for s in 0..RING_SEGMENTS {
            let (sin, cos) = (s as f32 / RING_SEGMENTS as f32 * TAU).sin_cos();
            let p = match joint {
                0 => Vec3::new(cos, 0.0, sin),
                1 => Vec3::new(0.0, cos, sin),
                _ => Vec3::new(cos, sin, 0.0),
            } * *radius;
            out.skin.positions.push(p);
            out.skin.normals.push(Vec3::ZERO);
            out.skin.influences.push(one_joint(joint as u32));
            out.colors.push(RING_COLORS[joint]);
            let next = base + ((s + 1) % RING_SEGMENTS) as u32;
            out.indices.extend([base + s as u32, next]);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn meshes_are_consistent() {
        for built in [glider(), gimbal_rings()] {
            let n = built.skin.positions.len();
            assert_eq!(built.skin.normals.len(), n);
            assert_eq!(built.skin.influences.len(), n);
            assert_eq!(built.colors.len(), n);
            assert!(built.indices.iter().all(|i| (*i as usize) < n));
        }
        let g = glider();
        // Normals point away from the box centres they belong to.
        for face in 0..g.skin.positions.len() / 4 {
            let corners = &g.skin.positions[face * 4..face * 4 + 4];
            let a = corners[1] - corners[0];
            let b = corners[2] - corners[0];
            assert!(
                a.cross(b).dot(g.skin.normals[face * 4]) > 0.0,
                "face {face} winds outwards"
            );
        }
        assert_eq!(gimbal_rings().skin.influences[RING_SEGMENTS].joints[0], 1);
    }
}
