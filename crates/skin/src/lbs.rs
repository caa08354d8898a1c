//! Linear blend skinning on the CPU: the reference every shader is checked against.

use super::influences::Influences;
use super::matrix::{MatrixError, checked_inverse};
use super::normals::{NormalMethod, skin_tangent, transform_normal};
use glam::{Mat4, Vec3};

/// A mesh in bind pose, ready to skin: positions (and optionally normals and tangents)
/// in the bind (world) space, with four influences per vertex.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SkinMesh {
    /// Bind-space positions.
    pub positions: Vec<Vec3>,
    /// Bind-space unit normals; empty when the mesh has none.
    pub normals: Vec<Vec3>,
    /// Bind-space unit tangents; empty when the mesh has none.
    pub tangents: Vec<Vec3>,
    /// Prepared influences, one per vertex.
    pub influences: Vec<Influences>,
}

/// `v[range]`, or nothing when `v` is shorter (a mesh without normals, say).
pub(crate) fn part<T: Clone>(v: &[T], range: std::ops::Range<usize>) -> Vec<T> {
    v.get(range).map_or(Vec::new(), <[T]>::to_vec)
}

impl SkinMesh {
    /// Vertices `range` alone, as a mesh of their own (vertex `range.start` becomes 0):
    /// enough to skin a few of them. A list that does not reach `range.end` (normals a
    /// mesh does not have, or a range past the end) comes out empty.
    pub fn range(&self, range: std::ops::Range<usize>) -> SkinMesh {
        SkinMesh {
            positions: part(&self.positions, range.clone()),
            normals: part(&self.normals, range.clone()),
            tangents: part(&self.tangents, range.clone()),
            influences: part(&self.influences, range),
        }
    }
}

/// One skinned vertex.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SkinnedVertex {
    /// World position.
    pub position: Vec3,
    /// Unit normal (zero when the mesh has none).
    pub normal: Vec3,
    /// Unit tangent, perpendicular to the normal (zero when the mesh has none).
    pub tangent: Vec3,
}

/// What becomes of `w`, the fourth coordinate of a blended position.
///
/// Every gradient's bottom row is `(0, 0, 0, 1)`, so a blend whose weights sum to `s`
/// sends `(p, 1)` to `(s·q, s)`, where `q` is the point that the same weights scaled to
/// sum 1 give. The two choices differ only when `s` is not 1. The skinning shader's
/// `u_position_w` takes [`PositionW::shader_value`].
#[derive(
    Clone,
    Copy,
    Debug,
    Default,
    PartialEq,
    Eq,
    strum::VariantArray,
    strum::VariantNames,
    strum::IntoStaticStr,
)]
#[strum(serialize_all = "snake_case")]
pub enum PositionW {
    /// Keep `w = s`. The divide by `w` that follows the vertex shader gives `q` back,
    /// so a wrong sum does not show. What the shader does unless told otherwise.
    #[default]
    Divide,
    /// Set `w = 1`, as a 3x4 palette does, and as [`skin_vertices`] does by reading
    /// only the top three rows: the point lands at `s·q`.
    One,
}

impl PositionW {
    /// The value of the skinning shader's `u_position_w`.
    pub fn shader_value(self) -> i32 {
        match self {
            Self::Divide => 0,
            Self::One => 1,
        }
    }

    /// Where the shader draws the bind position `p` of a vertex whose blended matrix is
    /// `blended`: `blended · (p, 1)`, then the divide by its `w`, or `w` set to 1. When
    /// every gradient's bottom row is 0 0 0 1, that `w` is the sum of the weights; a
    /// matrix with another bottom row (a projection) gives its own. A `w` of 0 (weights
    /// that are all zero) leaves the point undivided, since there is no point to divide.
    pub fn drawn(self, blended: &Mat4, p: Vec3) -> Vec3 {
        let h = *blended * p.extend(1.0);
        match self {
            Self::Divide if h.w != 0.0 => h.truncate() / h.w,
            _ => h.truncate(),
        }
    }

    /// [`PositionW::drawn`] for every vertex of `mesh`, skinned by `palette` into
    /// `vertices`.
    pub fn place(self, palette: &[Mat4], mesh: &SkinMesh, vertices: &mut [SkinnedVertex]) {
        let bind = mesh.positions.iter().zip(&mesh.influences);
        for (v, (p, influences)) in vertices.iter_mut().zip(bind) {
            v.position = self.drawn(&blended_matrix(palette, influences), *p);
        }
    }
}

/// `joint_from_bind[j] = inverse(world_from_joint_at_bind[j])`: the inverse bind matrices.
pub fn inverse_bind(world_from_joint_at_bind: &[Mat4]) -> Result<Vec<Mat4>, MatrixError> {
    world_from_joint_at_bind
        .iter()
        .map(checked_inverse)
        .collect()
}

// ANCHOR: palette
/// The skinning palette: `world_from_bind[j] = world_from_joint[j] * joint_from_bind[j]`,
/// the gradient matrix `target_pose * inverse(bind_pose)` of each joint.
pub fn palette(world_from_joint: &[Mat4], joint_from_bind: &[Mat4]) -> Vec<Mat4> {
    assert_eq!(
        world_from_joint.len(),
        joint_from_bind.len(),
        "one inverse bind per joint"
    );
    world_from_joint
        .iter()
        .zip(joint_from_bind)
        .map(|(w, b)| *w * *b)
        .collect()
}
// ANCHOR_END: palette

// ANCHOR: blend
/// The weighted sum of the palette matrices that influence one vertex.
///
/// Contract: every joint index in `influences` is inside `palette` (guaranteed when
/// the influences came from [`Influences::prepare`] with the palette's length).
pub fn blended_matrix(palette: &[Mat4], influences: &Influences) -> Mat4 {
    let mut sum = Mat4::ZERO;
    for (joint, weight) in influences.joints.iter().zip(influences.weights) {
        sum += palette[*joint as usize] * weight;
    }
    sum
}
// ANCHOR_END: blend

/// Skins every vertex of `mesh` with `palette`, normals by the inverse transpose.
pub fn skin_vertices(palette: &[Mat4], mesh: &SkinMesh) -> Vec<SkinnedVertex> {
    skin_vertices_with(palette, mesh, NormalMethod::InverseTranspose)
}

// ANCHOR: skin_vertices
/// Skins every vertex of `mesh` with `palette` (the loop of the OpenGLStarter article
/// "Mesh Skinning"), carrying normals by `normals` (the inverse transpose, unless a
/// lesson shows the wrong way); each tangent is made perpendicular to the normal that
/// gives.
pub fn skin_vertices_with(
    palette: &[Mat4],
    mesh: &SkinMesh,
    normals: NormalMethod,
) -> Vec<SkinnedVertex> {
    mesh.influences
        .iter()
        .enumerate()
        .map(|(i, influences)| {
            let blended = blended_matrix(palette, influences);
            let position = blended.transform_point3(mesh.positions[i]);
            let normal = mesh
                .normals
                .get(i)
                .map_or(Vec3::ZERO, |n| transform_normal(normals, &blended, *n));
            let tangent = mesh
                .tangents
                .get(i)
                .map_or(Vec3::ZERO, |t| skin_tangent(&blended, *t, normal));
            SkinnedVertex {
                position,
                normal,
                tangent,
            }
        })
        .collect()
}
// ANCHOR_END: skin_vertices

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Skeleton;
    use crate::explain::steps::{VertexBreakdown, partial_position};
    use crate::normals::{angle_degrees, skin_normal};
    use glam::{Mat3, Quat};
    use proptest::prelude::*;

    #[test]
    fn a_range_of_a_mesh_keeps_its_vertices_and_empties_what_falls_short() {
        let mesh = SkinMesh {
            positions: (0..4).map(|i| Vec3::X * i as f32).collect(),
            normals: vec![Vec3::Y; 4],
            tangents: vec![Vec3::Z; 2],
            influences: vec![Influences::prepare(&[(0, 1.0)], 1).unwrap(); 4],
        };
        let part = mesh.range(1..3);
        assert_eq!(part.positions, [Vec3::X, Vec3::X * 2.0]);
        assert_eq!(part.normals.len(), 2);
        assert_eq!(part.influences.len(), 2);
        assert!(
            part.tangents.is_empty(),
            "only two tangents: none for vertex 2"
        );
        assert!(mesh.range(3..9).positions.is_empty());
    }

    fn arb_local() -> impl Strategy<Value = Mat4> {
        (
            prop::array::uniform3(-1.2f32..1.2),
            prop::array::uniform3(-3.0f32..3.0),
            0.5f32..2.0,
        )
            .prop_map(|(r, t, s)| {
                Mat4::from_scale_rotation_translation(
                    Vec3::splat(s),
                    Quat::from_euler(glam::EulerRot::XYZ, r[0], r[1], r[2]),
                    Vec3::from(t),
                )
            })
    }

    fn arb_influences(joint_count: usize) -> impl Strategy<Value = Influences> {
        prop::collection::vec((0..joint_count, 0.05f32..1.0), 1..6)
            .prop_map(move |list| Influences::prepare(&list, joint_count).unwrap())
    }

    #[test]
    fn bind_pose_gives_identity_palette() {
        let skeleton = Skeleton::chain(3);
        let local = [
            Mat4::from_rotation_z(0.4),
            Mat4::from_translation(Vec3::X * 4.0),
            Mat4::from_translation(Vec3::X * 4.0),
        ];
        let world = skeleton.world_from_joint(&local);
        let inv = inverse_bind(&world).unwrap();
        for m in palette(&world, &inv) {
            assert!(m.abs_diff_eq(Mat4::IDENTITY, 1e-5), "{m}");
        }
    }

    /// A strip along x over three bones, each vertex on one bone or half on two.
    fn strip() -> SkinMesh {
        let weights: [&[(usize, f32)]; 5] = [
            &[(0, 1.0)],
            &[(0, 0.5), (1, 0.5)],
            &[(1, 1.0)],
            &[(1, 0.5), (2, 0.5)],
            &[(2, 1.0)],
        ];
        let (positions, influences) = weights
            .iter()
            .enumerate()
            .flat_map(|(i, list)| {
                let inf = Influences::prepare(list, 3).unwrap();
                [1.0, -1.0].map(|y| (Vec3::new(2.0 * i as f32, y, 0.0), inf))
            })
            .unzip();
        SkinMesh {
            positions,
            influences,
            ..Default::default()
        }
    }

    #[test]
    fn breakdown_sums_to_the_skinned_position() {
        let mesh = strip();
        let pal = [
            Mat4::from_rotation_z(0.3),
            Mat4::from_rotation_z(-0.7) * Mat4::from_translation(Vec3::X),
            Mat4::from_translation(Vec3::Y),
        ];
        let skinned = skin_vertices(&pal, &mesh);
        for (v, skinned) in skinned.iter().enumerate() {
            let b = VertexBreakdown::new(&pal, &mesh, v).unwrap();
            assert!(b.sum.abs_diff_eq(skinned.position, 1e-5), "vertex {v}");
            assert!(b.blended.transform_point3(b.bind).abs_diff_eq(b.sum, 1e-5));
            let weights: f32 = b.parts.iter().map(|(_, w, _)| w).sum();
            assert!((weights - 1.0).abs() < 1e-6);
        }
        assert!(VertexBreakdown::new(&pal, &mesh, mesh.positions.len()).is_none());
    }

    #[test]
    fn dividing_by_w_undoes_a_wrong_sum_and_w_one_keeps_it() {
        // Two joints, a vertex half on each: weights summing to 1 give `q`.
        let pal = [
            Mat4::from_translation(Vec3::new(1.0, 0.0, 0.0)),
            Mat4::from_rotation_z(0.9),
        ];
        let p = Vec3::new(2.0, 1.0, 0.5);
        let at = |weights: [f32; 2]| {
            let influences = Influences::unnormalised(&[(0, weights[0]), (1, weights[1])], 2)
                .expect("valid influences");
            blended_matrix(&pal, &influences)
        };
        let q = at([0.5, 0.5]).transform_point3(p);
        for scale in [0.5f32, 1.25, 3.0] {
            let blended = at([0.5 * scale, 0.5 * scale]);
            assert!(PositionW::Divide.drawn(&blended, p).abs_diff_eq(q, 1e-5));
            assert!(
                PositionW::One
                    .drawn(&blended, p)
                    .abs_diff_eq(q * scale, 1e-5)
            );
        }
        // All weights zero: no point to divide, and no NaN either.
        assert_eq!(PositionW::Divide.drawn(&at([0.0, 0.0]), p), Vec3::ZERO);
    }

    #[test]
    fn a_projection_in_the_palette_is_divided_by_its_own_w() {
        // A bottom row of 0 0 0.5 1 gives w = 1 + z/2, whatever the weights sum to.
        let mut projection = Mat4::IDENTITY;
        projection.z_axis.w = 0.5;
        let p = Vec3::new(1.0, 1.0, 1.0);
        let rigid = Influences::rigid(0);
        let drawn = PositionW::Divide.drawn(&blended_matrix(&[projection], &rigid), p);
        assert!(drawn.abs_diff_eq(p / 1.5, 1e-6), "{drawn}");
        let kept = PositionW::One.drawn(&blended_matrix(&[projection], &rigid), p);
        assert!(kept.abs_diff_eq(p, 1e-6), "{kept}");
    }

    #[test]
    fn skin_vertices_with_the_inverse_transpose_is_the_reference() {
        // A ring of vertices half on a joint scaled across the bone: the naive normals
        // lean off the surface, the positions do not care.
        let mut mesh = SkinMesh::default();
        for k in 0..16 {
            let (sin, cos) = (k as f32 / 16.0 * std::f32::consts::TAU).sin_cos();
            let around = Vec3::new(0.0, cos, sin);
            mesh.positions.push(Vec3::X * 2.0 + around * 0.5);
            mesh.normals.push(around);
            mesh.tangents.push(Vec3::new(0.0, -sin, cos));
            let w = k as f32 / 15.0;
            mesh.influences
                .push(Influences::prepare(&[(0, 1.0 - w), (1, w)], 2).unwrap());
        }
        let pal = [
            Mat4::IDENTITY,
            Mat4::from_rotation_z(0.7) * Mat4::from_scale(Vec3::new(1.0, 1.8, 1.0)),
        ];
        let a = skin_vertices_with(&pal, &mesh, NormalMethod::InverseTranspose);
        assert_eq!(a, skin_vertices(&pal, &mesh));
        let b = skin_vertices_with(&pal, &mesh, NormalMethod::Naive);
        assert!(a.iter().zip(&b).all(|(a, b)| a.position == b.position));
        assert!(
            a.iter()
                .zip(&b)
                .any(|(a, b)| angle_degrees(a.normal, b.normal) > 10.0)
        );
    }

    #[test]
    fn singular_bind_pose_is_refused() {
        let flat = Mat4::from_scale(Vec3::new(1.0, 1.0, 0.0));
        assert!(inverse_bind(&[Mat4::IDENTITY, flat]).is_err());
    }

    proptest! {
        #[test]
        fn one_weight_of_one_is_rigid(local in arb_local(), p in prop::array::uniform3(-5.0f32..5.0)) {
            let pal = [local];
            let blended = blended_matrix(&pal, &Influences::rigid(0));
            prop_assert!(blended.abs_diff_eq(local, 1e-6));
            let v = Vec3::from(p);
            let skinned = skin_vertices(&pal, &SkinMesh { positions: vec![v], influences: vec![Influences::rigid(0)], ..Default::default() });
            prop_assert!(skinned[0].position.abs_diff_eq(local.transform_point3(v), 1e-4));
        }

        #[test]
        fn blending_positions_equals_blending_matrices(
            pal in prop::collection::vec(arb_local(), 4),
            inf in arb_influences(4),
            p in prop::array::uniform3(-5.0f32..5.0),
        ) {
            let v = Vec3::from(p);
            let via_matrix = blended_matrix(&pal, &inf).transform_point3(v);
            let via_positions: Vec3 = inf.joints.iter().zip(inf.weights)
                .map(|(j, w)| partial_position(&pal, *j as usize, v) * w)
                .sum();
            prop_assert!(via_matrix.abs_diff_eq(via_positions, 1e-3 * (1.0 + via_matrix.length())));
        }

        #[test]
        fn normals_stay_unit_and_perpendicular_to_tangents(
            pal in prop::collection::vec(arb_local(), 3),
            inf in arb_influences(3),
            angle in 0.0f32..std::f32::consts::TAU,
        ) {
            let n = Vec3::new(angle.cos(), angle.sin(), 0.0);
            let t = Vec3::Z;
            let blended = blended_matrix(&pal, &inf);
            prop_assume!(Mat3::from_mat4(blended).determinant().abs() > 1e-3);
            let sn = skin_normal(&blended, n);
            let st = skin_tangent(&blended, t, sn);
            prop_assert!((sn.length() - 1.0).abs() < 1e-4);
            prop_assert!(sn.dot(st).abs() < 1e-4);
            // The surface's tangent, carried by the blended matrix, stays perpendicular to the
            // inverse-transpose normal: that is why the normal uses the inverse transpose.
            let carried = blended.transform_vector3(t).normalize();
            prop_assert!(sn.dot(carried).abs() < 1e-3);
        }
    }
}
