//! The gpu lesson's tail: a chain of joints along +x in a tube of skin whose weights
//! reach several joints either side, so some vertices have more than four influences.
//! `skinlab --bench` times skinning it at the sizes of [`SWEEP`].

use glam::{Mat4, Quat, Vec3};
use parallel;
use skin::Influences;
use skin::gpu::blend_all;
use skin::lbs::{SkinMesh, blended_matrix};
use std::sync::Arc;

/// The vertex counts of the CPU-against-GPU sweep (the gpu page and `skinlab --bench`).
pub const SWEEP: [usize; 6] = [3_000, 10_000, 30_000, 100_000, 300_000, 1_000_000];

/// A tail: a chain of joints along +x, each a child of the one before, and a tube
/// of skin around it whose weights reach several joints either side.
#[derive(Clone, Debug)]
pub struct Chain {
    /// Number of joints.
    pub joints: usize,
    /// How far the weights reach, in bones either side.
    pub spread: f32,
    /// Rings of vertices along the tube.
    pub rings: usize,
    /// Vertices around each ring.
    pub segments: usize,
    /// The tube in bind pose, with prepared influences (four at most); shared with the
    /// mesh that draws it.
    pub skin: Arc<SkinMesh>,
    /// Triangle indices, shared the same way.
    pub triangles: Arc<Vec<u32>>,
    /// Each ring's influences before preparation (often more than four).
    pub ring_influences: Vec<Vec<(usize, f32)>>,
}

/// The chain's length, root to tip.
pub const CHAIN_LENGTH: f32 = 8.0;
/// The tube's radius.
pub const CHAIN_RADIUS: f32 = 0.35;

impl Chain {
    /// A chain of `joints` joints (at least 1) with about `vertices` vertices.
    pub fn new(joints: usize, spread: f32, vertices: usize) -> Self {
        let joints = joints.max(1);
        let segments = ((vertices as f32 / 16.0).sqrt().round() as usize).clamp(8, 128);
        let rings = (vertices / segments).max(2);
        // Every ring has the same normals and tangents: work them out once.
        let around: Vec<(Vec3, Vec3)> = (0..segments)
            .map(|s| {
                let a = s as f32 / segments as f32 * std::f32::consts::TAU;
                let (sin, cos) = a.sin_cos();
                (Vec3::new(0.0, cos, sin), Vec3::new(0.0, -sin, cos))
            })
            .collect();
        let (skin, ring_influences) = tube(joints, spread, rings, &around);
        let triangles = triangles(rings, segments);
        Self {
            joints,
            spread,
            rings,
            segments,
            skin: Arc::new(skin),
            triangles: Arc::new(triangles),
            ring_influences,
        }
    }

    fn bone_length_of(joints: usize) -> f32 {
        CHAIN_LENGTH / joints as f32
    }

    /// The distance between neighbouring joints.
    pub fn bone_length(&self) -> f32 {
        Self::bone_length_of(self.joints)
    }

    /// Each joint's world matrix in bind pose: joint `j` at `x = j * bone`.
    pub fn bind(&self) -> Vec<Mat4> {
        (0..self.joints)
            .map(|j| Mat4::from_translation(Vec3::X * j as f32 * self.bone_length()))
            .collect()
    }

    /// `world_from_joint` when the chain curls by `bend` radians in all (about z,
    /// shared out along the joints) and twists by `twist` radians (about each
    /// joint's x axis, shared out the same way).
    pub fn world_from_joint(&self, bend: f32, twist: f32) -> Vec<Mat4> {
        let n = self.joints as f32;
        let step = Quat::from_rotation_z(bend / n) * Quat::from_rotation_x(twist / n);
        let mut world = Vec::with_capacity(self.joints);
        let mut parent = Mat4::IDENTITY;
        for j in 0..self.joints {
            let offset = if j == 0 { 0.0 } else { self.bone_length() };
            let local = Mat4::from_rotation_translation(step, Vec3::X * offset);
            parent *= local;
            world.push(parent);
        }
        world
    }

    /// The skinning palette for a pose: `world_from_joint * joint_from_bind`.
    pub fn palette(&self, bend: f32, twist: f32) -> Vec<Mat4> {
        // The bind matrices are translations: their inverses always exist.
        self.world_from_joint(bend, twist)
            .iter()
            .zip(self.bind())
            .map(|(w, b)| *w * b.inverse())
            .collect()
    }

    /// The ring with the most influences before preparation (the first such ring).
    pub fn busiest_ring(&self) -> usize {
        let most = self.ring_influences.iter().map(Vec::len).max().unwrap_or(0);
        self.ring_influences
            .iter()
            .position(|l| l.len() == most)
            .unwrap_or(0)
    }
}

/// The tube's vertices, ring by ring, with their prepared influences, and each ring's
/// influences before preparation. `around` holds one ring's normals and tangents. A big
/// tube is filled by every core.
fn tube(
    joints: usize,
    spread: f32,
    rings: usize,
    around: &[(Vec3, Vec3)],
) -> (SkinMesh, Vec<Vec<(usize, f32)>>) {
    let bone = Chain::bone_length_of(joints);
    let segments = around.len().max(1);
    let count = rings * around.len();
    let x_of = |ring: usize| CHAIN_LENGTH * ring as f32 / (rings - 1).max(1) as f32;
    let ring_influences: Vec<_> = (0..rings)
        .map(|ring| chain_weights(x_of(ring), joints, bone, spread))
        .collect();
    // Weights here are finite, positive, and name joints of the chain.
    let prepared: Vec<Influences> = ring_influences
        .iter()
        .map(|list| Influences::prepare(list, joints).unwrap_or(Influences::rigid(0)))
        .collect();
    let mut skin = SkinMesh {
        positions: parallel::zeroed(count),
        normals: parallel::zeroed(count),
        tangents: parallel::zeroed(count),
        influences: parallel::zeroed(count),
    };
    let all = (
        0..count,
        &mut skin.positions[..],
        &mut skin.normals[..],
        &mut skin.tangents[..],
        &mut skin.influences[..],
    );
    parallel::run(all, |(range, positions, normals, tangents, influences)| {
        let out = positions
            .iter_mut()
            .zip(normals)
            .zip(tangents)
            .zip(influences);
        for (i, (((p, n), t), inf)) in range.zip(out) {
            let (ring, (normal, tangent)) = (i / segments, around[i % segments]);
            *p = Vec3::X * x_of(ring) + normal * CHAIN_RADIUS;
            *n = normal;
            *t = tangent;
            *inf = prepared[ring];
        }
    });
    (skin, ring_influences)
}

/// Two triangles between each pair of neighbouring vertices of neighbouring rings.
fn triangles(rings: usize, segments: usize) -> Vec<u32> {
    let index = |r: usize, s: usize| (r * segments + s % segments) as u32;
    let quads = rings.saturating_sub(1) * segments;
    let mut triangles = vec![[0u32; 6]; quads];
    parallel::run((0..quads, &mut triangles[..]), |(range, out)| {
        for (q, out) in range.zip(out) {
            let (r, s) = (q / segments, q % segments);
            *out = [
                index(r, s),
                index(r, s + 1),
                index(r + 1, s),
                index(r, s + 1),
                index(r + 1, s + 1),
                index(r + 1, s),
            ];
        }
    });
    triangles.into_flattened()
}

/// The weights of a point at `x` on a chain: a smooth bump around each bone's middle,
/// reaching `spread` bones either side (at least the nearest joint).
fn chain_weights(x: f32, joints: usize, bone: f32, spread: f32) -> Vec<(usize, f32)> {
    let reach = spread.max(0.05) * bone;
    let mut list: Vec<(usize, f32)> = (0..joints)
        .filter_map(|j| {
            let d = (x - (j as f32 + 0.5) * bone).abs() / reach;
            (d < 1.0).then(|| (j, (1.0 - d * d).powi(2)))
        })
        .filter(|(_, w)| *w > 1e-4)
        .collect();
    if list.is_empty() {
        let nearest = ((x / bone).floor().max(0.0) as usize).min(joints - 1);
        list.push((nearest, 1.0));
    }
    list
}

// ANCHOR: truncation
/// The position error of keeping four influences: for each ring of `chain`, the
/// distance between a vertex skinned with all its influences and with the four kept.
/// Returns (largest error, the ring where it is).
pub fn truncation_error(chain: &Chain, palette: &[Mat4]) -> (f32, usize) {
    let mut worst = (0.0f32, 0);
    for (ring, list) in chain.ring_influences.iter().enumerate() {
        let v = ring * chain.segments;
        let (Some(p), Some(kept)) = (chain.skin.positions.get(v), chain.skin.influences.get(v))
        else {
            continue;
        };
        let all = blend_all(palette, list).transform_point3(*p);
        let four = blended_matrix(palette, kept).transform_point3(*p);
        let error = all.distance(four);
        if error > worst.0 {
            worst = (error, ring);
        }
    }
    worst
}
// ANCHOR_END: truncation

#[cfg(test)]
mod tests {
    use super::*;
    use skin::MAX_INFLUENCES;

    #[test]
    fn a_chain_has_wide_influences_and_its_bind_pose_is_still() {
        let chain = Chain::new(40, 2.5, 4000);
        assert!(
            chain.skin.positions.len() >= 3000,
            "{}",
            chain.skin.positions.len()
        );
        assert!(
            chain
                .ring_influences
                .iter()
                .any(|l| l.len() > MAX_INFLUENCES)
        );
        let rest = chain.palette(0.0, 0.0);
        for m in &rest {
            assert!(m.abs_diff_eq(Mat4::IDENTITY, 1e-5));
        }
        assert!(truncation_error(&chain, &rest).0 < 1e-5);
        let bent = chain.palette(2.0, 1.0);
        let (error, ring) = truncation_error(&chain, &bent);
        assert!(error > 1e-4 && error < 0.2, "error {error} at ring {ring}");
        // With weights that reach one joint either side, four is enough.
        let narrow = Chain::new(40, 0.9, 4000);
        assert!(
            narrow
                .ring_influences
                .iter()
                .all(|l| l.len() <= MAX_INFLUENCES)
        );
        assert!(truncation_error(&narrow, &narrow.palette(2.0, 1.0)).0 < 1e-5);
    }
}
