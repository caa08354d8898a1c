//! Skinning with optimized centres of rotation, after Binh Huy Le and Jessica K. Hodgins,
//! "Real-time Skeletal Skinning with Optimized Centers of Rotation" (SIGGRAPH 2016).
//!
//! Each vertex gets, once, a centre of rotation `p*` in bind space: the average of the
//! mesh's triangles, each weighted by its area and by how alike its weights are to the
//! vertex's ([`similarity`]). Every frame the vertex turns by its joints' rotations
//! blended as quaternions, `R`, about that centre, and the centre itself moves by linear
//! blending:
//!
//! ```text
//! t  = Σ w[j] · G[j] · p*  −  R · p*
//! v' = R · v + t            n' = R · n
//! ```
//!
//! Where weights are alike, vertices share a centre and turn together, so a ring of the
//! skin keeps its shape: no collapse as linear blending gives, and no bulge as dual
//! quaternions give at a bent joint. A vertex ruled by one joint is skinned as that
//! joint moves it, whatever its centre.
//!
//! A scaled joint is carried as dual quaternions carry it in two phases: the vertex is
//! stretched first (`S = Σ w[j] · S[j]`, so `R` becomes `R · S`), and the centre moves
//! by the whole matrices.
//!
//! Contract: the palette's length covers every joint the influences name.

use crate::Influences;
use crate::dqs::{DualQuat, blend_dual_quats, blend_stretches, split_palette};
use crate::lbs::{SkinMesh, SkinnedVertex};
use crate::normals::{skin_normal, skin_tangent};
use glam::{Mat3, Mat4, Vec3};
use std::collections::HashMap;

/// The width of the similarity's kernel: how far apart two pairs of weights may be and
/// still count as alike (the paper's σ).
pub const SIGMA: f32 = 0.1;

/// A weight vector as a short list of (joint, weight), zeros left out.
type Weights = Vec<(u32, f32)>;

fn sparse(influences: &Influences) -> Weights {
    influences.used().map(|(j, w)| (j as u32, w)).collect()
}

fn weight_of(weights: &[(u32, f32)], joint: u32) -> f32 {
    weights
        .iter()
        .find(|(j, _)| *j == joint)
        .map_or(0.0, |(_, w)| *w)
}

// ANCHOR: similarity
/// How alike two weight vectors are, for finding centres: the sum over pairs of joints
/// `j < k` that both blend of `a[j]·a[k]·b[j]·b[k]·exp(−(a[j]·b[k] − a[k]·b[j])² / σ²)`.
/// It is 0 when either vector has a single joint (nothing blends), and largest when the
/// two mix the same joints in the same proportion.
pub fn similarity(a: &[(u32, f32)], b: &[(u32, f32)]) -> f32 {
    let mut sum = 0.0;
    for (n, &(j, aj)) in a.iter().enumerate() {
        for &(k, ak) in &a[n + 1..] {
            let (bj, bk) = (weight_of(b, j), weight_of(b, k));
            if bj == 0.0 || bk == 0.0 {
                continue;
            }
            let apart = aj * bk - ak * bj;
            sum += aj * ak * bj * bk * (-(apart * apart) / (SIGMA * SIGMA)).exp();
        }
    }
    sum
}
// ANCHOR_END: similarity

/// The pairs of joints `(j, k)`, `j < k`, that `w` blends.
fn pairs(w: &[(u32, f32)]) -> Vec<(u32, u32)> {
    let mut out = Vec::new();
    for (n, &(j, _)) in w.iter().enumerate() {
        for &(k, _) in &w[n + 1..] {
            out.push((j.min(k), j.max(k)));
        }
    }
    out
}

/// The average of three weight vectors.
fn average(parts: [&Weights; 3]) -> Weights {
    let mut out: Weights = Vec::new();
    for part in parts {
        for &(j, w) in part {
            match out.iter_mut().find(|(k, _)| *k == j) {
                Some((_, sum)) => *sum += w / 3.0,
                None => out.push((j, w / 3.0)),
            }
        }
    }
    out
}

// ANCHOR: centres
/// Each vertex's centre of rotation, in bind space: `Σ s·a·c / Σ s·a` over the triangles
/// of `triangles` (three vertex indices each), with `c` a triangle's centroid, `a` its
/// area and `s` the [`similarity`] of the vertex's weights to the triangle's average
/// weights. `None` where no triangle is alike (a vertex ruled by one joint, which
/// needs none).
///
/// Two things keep the cost down. Vertices with the same weights share a centre, so it
/// is found once for each set of weights. And a triangle adds to a centre only if it
/// blends a pair of joints the vertex also blends (else the similarity is 0), so
/// triangles are listed by the pairs they blend and each set of weights visits only
/// those of its own pairs.
pub fn centres(mesh: &SkinMesh, triangles: &[u32]) -> Vec<Option<Vec3>> {
    centres_counted(mesh, triangles).0
}

/// How much work finding the centres took.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Work {
    /// Vertices times triangles: what a search of every triangle for every vertex pays.
    pub every_pair: usize,
    /// Distinct sets of weights, each searched once.
    pub weight_sets: usize,
    /// Similarities computed: triangles visited, summed over the sets of weights.
    pub similarities: usize,
}

/// [`centres`], and how much work it took.
pub fn centres_counted(mesh: &SkinMesh, triangles: &[u32]) -> (Vec<Option<Vec3>>, Work) {
    let weights: Vec<Weights> = mesh.influences.iter().map(sparse).collect();
    let faces: Vec<(Weights, Vec3, f32)> = triangles
        .chunks_exact(3)
        .filter_map(|t| {
            let [a, b, c] = [t[0], t[1], t[2]].map(|i| i as usize);
            let (pa, pb, pc) = (
                *mesh.positions.get(a)?,
                *mesh.positions.get(b)?,
                *mesh.positions.get(c)?,
            );
            let area = 0.5 * (pb - pa).cross(pc - pa).length();
            let w = average([weights.get(a)?, weights.get(b)?, weights.get(c)?]);
            Some((w, (pa + pb + pc) / 3.0, area))
        })
        .collect();
    let mut by_pair: HashMap<(u32, u32), Vec<usize>> = HashMap::new();
    for (f, (w, _, _)) in faces.iter().enumerate() {
        for pair in pairs(w) {
            by_pair.entry(pair).or_default().push(f);
        }
    }
    // Which faces this set of weights has visited, stamped with the set's number.
    let mut seen = vec![usize::MAX; faces.len()];
    let mut found: HashMap<Vec<(u32, u32)>, Option<Vec3>> = HashMap::new();
    let mut similarities = 0;
    let centres = weights
        .iter()
        .map(|w| {
            let key: Vec<(u32, u32)> = w.iter().map(|(j, w)| (*j, w.to_bits())).collect();
            let stamp = found.len();
            *found.entry(key).or_insert_with(|| {
                let (mut sum, mut total) = (Vec3::ZERO, 0.0);
                for pair in pairs(w) {
                    for &f in by_pair.get(&pair).map_or(&[][..], Vec::as_slice) {
                        if seen[f] == stamp {
                            continue;
                        }
                        seen[f] = stamp;
                        similarities += 1;
                        let (face, centroid, area) = &faces[f];
                        let s = similarity(w, face) * area;
                        sum += *centroid * s;
                        total += s;
                    }
                }
                (total > 1e-12).then(|| sum / total)
            })
        })
        .collect();
    let work = Work {
        every_pair: mesh.positions.len() * faces.len(),
        weight_sets: found.len(),
        similarities,
    };
    (centres, work)
}
// ANCHOR_END: centres

// ANCHOR: cor_skin
/// The motion of one vertex with `influences` and centre of rotation `centre`: the
/// rotation `R` blended as quaternions (with the antipodal check) after the blended
/// stretch `S` ([`blend_stretches`]; none for a rigid palette), and the translation
/// that takes `R · S · centre` to where linear blending of the whole matrices
/// `G[j] = rigid[j] · S[j]` takes the centre.
pub fn turn(
    palette_dq: &[DualQuat],
    stretches: &[Mat3],
    influences: &Influences,
    centre: Vec3,
) -> Mat4 {
    let r = blend_dual_quats(palette_dq, influences, true).real;
    let own = |j: usize| stretches.get(j).map_or(centre, |s| *s * centre);
    let moved: Vec3 = influences
        .used()
        .map(|(j, w)| palette_dq[j].transform_point(own(j)) * w)
        .sum();
    let m = Mat3::from_quat(r) * blend_stretches(stretches, influences);
    Mat4::from_cols(
        m.x_axis.extend(0.0),
        m.y_axis.extend(0.0),
        m.z_axis.extend(0.0),
        (moved - m * centre).extend(1.0),
    )
}

/// Skins every vertex of `mesh` about its centre of rotation (`centres`, one per
/// vertex in bind space: [`placed`] gives them from [`centres`]) with an already
/// converted palette: the rigid parts and the stretches of
/// [`crate::dqs::split_palette`] (or none, for a rigid palette). The rotation is the
/// quaternion blend of the joints' rotations (with the antipodal check); the centre
/// moves by linear blending of where each joint alone would take it.
/// `shaders/blend_cor.glsl` on the GPU.
pub fn skin_vertices_cor_dq(
    palette_dq: &[DualQuat],
    stretches: &[Mat3],
    mesh: &SkinMesh,
    centres: &[Vec3],
) -> Vec<SkinnedVertex> {
    mesh.influences
        .iter()
        .enumerate()
        .map(|(i, influences)| {
            let v = mesh.positions[i];
            let centre = centres.get(i).copied().unwrap_or(v);
            let turn = turn(palette_dq, stretches, influences, centre);
            let normal = mesh
                .normals
                .get(i)
                .map_or(Vec3::ZERO, |n| skin_normal(&turn, *n));
            let tangent = mesh
                .tangents
                .get(i)
                .map_or(Vec3::ZERO, |tg| skin_tangent(&turn, *tg, normal));
            SkinnedVertex {
                position: turn.transform_point3(v),
                normal,
                tangent,
            }
        })
        .collect()
}
// ANCHOR_END: cor_skin

/// [`skin_vertices_cor_dq`] with each of `palette`'s matrices (`world_from_bind` per
/// joint) split into its rigid part and its stretch, so a scaled joint keeps its scale.
pub fn skin_vertices_cor(
    palette: &[Mat4],
    mesh: &SkinMesh,
    centres: &[Vec3],
) -> Vec<SkinnedVertex> {
    let (rigid, stretches) = split_palette(palette);
    skin_vertices_cor_dq(&rigid, &stretches, mesh, centres)
}

/// One centre per vertex, as the skinning takes them: the one [`centres`] found, or
/// where there is none (a vertex ruled by one joint, which turns the same about any
/// centre) the vertex's own bind position.
pub fn placed(found: &[Option<Vec3>], positions: &[Vec3]) -> Vec<Vec3> {
    positions
        .iter()
        .enumerate()
        .map(|(i, p)| found.get(i).copied().flatten().unwrap_or(*p))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lbs::skin_vertices;
    use glam::Quat;

    fn w(list: &[(u32, f32)]) -> Weights {
        list.to_vec()
    }

    #[test]
    fn similarity_is_zero_for_one_joint_symmetric_and_largest_for_equal_mixes() {
        let half = w(&[(0, 0.5), (1, 0.5)]);
        let mostly = w(&[(0, 0.9), (1, 0.1)]);
        let rigid = w(&[(0, 1.0)]);
        assert_eq!(similarity(&rigid, &half), 0.0);
        assert_eq!(similarity(&half, &rigid), 0.0);
        assert!((similarity(&half, &mostly) - similarity(&mostly, &half)).abs() < 1e-9);
        // Equal mixes: the exponent is 0.
        assert!((similarity(&half, &half) - 0.0625).abs() < 1e-7);
        // 0.9/0.1 against 0.5/0.5: far apart on the kernel's scale.
        assert!(similarity(&half, &mostly) < 1e-6);
        // Joints the other does not blend add nothing.
        assert_eq!(similarity(&half, &w(&[(2, 0.5), (3, 0.5)])), 0.0);
    }

    /// Two joints along x; the second turns by `palette[1]`. Vertices at x = 0, 1, 2 on
    /// a small triangle strip, the middle ones half and half.
    fn strip() -> (SkinMesh, Vec<u32>) {
        let mut mesh = SkinMesh::default();
        for (x, w1) in [(0.0f32, 0.0f32), (1.0, 0.5), (2.0, 1.0)] {
            for y in [-0.5f32, 0.5] {
                mesh.positions.push(Vec3::new(x, y, 0.0));
                mesh.normals.push(Vec3::Z);
                let list: Vec<(usize, f32)> = [(0, 1.0 - w1), (1, w1)]
                    .into_iter()
                    .filter(|(_, w)| *w > 0.0)
                    .collect();
                mesh.influences.push(Influences::prepare(&list, 2).unwrap());
            }
        }
        (mesh, vec![0, 2, 1, 1, 2, 3, 2, 4, 3, 3, 4, 5])
    }

    #[test]
    fn listing_triangles_by_pair_finds_the_centres_every_triangle_gives() {
        // A strip along x over four joints, each stretch of it blending a different pair.
        let mut mesh = SkinMesh::default();
        let columns = 13;
        for c in 0..columns {
            let x = c as f32 * 0.25;
            let (j, t) = ((x as usize).min(2), x.fract());
            for y in [-0.5f32, 0.5] {
                mesh.positions.push(Vec3::new(x, y, 0.1 * (c % 3) as f32));
                let list: Vec<(usize, f32)> = [(j, 1.0 - t), (j + 1, t)]
                    .into_iter()
                    .filter(|(_, w)| *w > 0.0)
                    .collect();
                mesh.influences.push(Influences::prepare(&list, 4).unwrap());
            }
        }
        let mut triangles = vec![];
        for c in 0..columns as u32 - 1 {
            let (a, b) = (2 * c, 2 * c + 2);
            triangles.extend([a, b, a + 1, a + 1, b, b + 1]);
        }
        let found = centres(&mesh, &triangles);
        // Every triangle against every vertex, the plain way.
        let weights: Vec<Weights> = mesh.influences.iter().map(sparse).collect();
        for (v, w) in weights.iter().enumerate() {
            let (mut sum, mut total) = (Vec3::ZERO, 0.0);
            for t in triangles.chunks_exact(3) {
                let t = [t[0], t[1], t[2]].map(|i| i as usize);
                let p = t.map(|i| mesh.positions[i]);
                let area = 0.5 * (p[1] - p[0]).cross(p[2] - p[0]).length();
                let face = average(t.map(|i| &weights[i]));
                let s = similarity(w, &face) * area;
                sum += (p[0] + p[1] + p[2]) / 3.0 * s;
                total += s;
            }
            let plain = (total > 1e-12).then(|| sum / total);
            match (found[v], plain) {
                (Some(a), Some(b)) => assert!(a.abs_diff_eq(b, 1e-5), "vertex {v}: {a} {b}"),
                (a, b) => assert_eq!(a, b, "vertex {v}"),
            }
        }
        assert!(found.iter().filter(|c| c.is_some()).count() > 10);
    }

    #[test]
    fn a_vertex_of_one_joint_moves_with_it_and_blended_ones_find_a_centre() {
        let (mesh, triangles) = strip();
        let found = centres(&mesh, &triangles);
        assert_eq!(found[0], None, "one joint: no centre needed");
        let c = found[2].expect("a blended vertex has a centre");
        // The two middle vertices share their weights, so their centre: between them.
        assert_eq!(found[2], found[3]);
        assert!(c.y.abs() < 1e-5 && c.x > 0.5 && c.x < 1.5, "{c}");
        let turn = Mat4::from_translation(Vec3::X)
            * Mat4::from_quat(Quat::from_rotation_z(1.2))
            * Mat4::from_translation(-Vec3::X);
        let palette = [Mat4::IDENTITY, turn];
        let cor = skin_vertices_cor(&palette, &mesh, &placed(&found, &mesh.positions));
        let lbs = skin_vertices(&palette, &mesh);
        for v in [0, 1, 4, 5] {
            assert!(
                cor[v].position.distance(lbs[v].position) < 1e-5,
                "vertex {v}"
            );
        }
        // The blended pair turns rigidly: it keeps its distance, as LBS does not.
        let apart = cor[2].position.distance(cor[3].position);
        assert!((apart - 1.0).abs() < 1e-4, "{apart}");
        assert!(lbs[2].position.distance(lbs[3].position) < 0.99);
        assert!((cor[2].normal.length() - 1.0).abs() < 1e-5);
    }
}
