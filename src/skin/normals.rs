//! Normals and tangents under skinning: why a normal needs the inverse transpose of the
//! blended matrix, and how a tangent is made perpendicular again (one Gram-Schmidt step).
//!
//! The lesson's mesh is the blending page's two-bone arm with a muscle on each bone, so
//! its normals lean along the bone as well as around it. The forearm carries a scale
//! across the bone, `(1, s, 1)` in its own frame: a non-uniform scale.

use super::arm;
use super::influences::{InfluenceError, Influences};
use super::lbs::{SkinMesh, blended_matrix, skin_normal};
use glam::{Mat3, Mat4, Vec3};
use std::f32::consts::{PI, TAU};

/// How a normal is carried by the blended matrix `M`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum NormalMethod {
    /// `normalize(inverse(transpose(M₃ₓ₃)) · n)`: stays perpendicular to the surface.
    #[default]
    InverseTranspose,
    /// `normalize(M₃ₓ₃ · n)`: right for rotations and uniform scale only.
    Naive,
}

impl NormalMethod {
    /// Both methods, right one first.
    pub const ALL: [Self; 2] = [Self::InverseTranspose, Self::Naive];

    /// The link name.
    pub fn slug(self) -> &'static str {
        match self {
            Self::InverseTranspose => "inverse_transpose",
            Self::Naive => "naive",
        }
    }

    /// The method in words.
    pub fn name(self) -> &'static str {
        match self {
            Self::InverseTranspose => "inverse transpose",
            Self::Naive => "naive",
        }
    }

    /// The value the skinning shader's `u_normal_method` takes for this method.
    pub fn shader_value(self) -> i32 {
        match self {
            Self::InverseTranspose => 0,
            Self::Naive => 1,
        }
    }
}

// ANCHOR: normal
/// The skinned normal of bind-space normal `n` under the blended matrix `blended`.
pub fn transform_normal(method: NormalMethod, blended: &Mat4, n: Vec3) -> Vec3 {
    match method {
        NormalMethod::InverseTranspose => skin_normal(blended, n),
        NormalMethod::Naive => (Mat3::from_mat4(*blended) * n).normalize_or_zero(),
    }
}
// ANCHOR_END: normal

/// The angle between two directions, in degrees (0 when either is zero).
pub fn angle_degrees(a: Vec3, b: Vec3) -> f32 {
    let (a, b) = (a.normalize_or_zero(), b.normalize_or_zero());
    if a == Vec3::ZERO || b == Vec3::ZERO {
        return 0.0;
    }
    // atan2 of the sine and cosine stays accurate near 0°, where acos does not.
    a.cross(b).length().atan2(a.dot(b)).to_degrees()
}

/// The tube's radius at the bind-pose point `x` along the arm: thin at the joints, a
/// muscle in the middle of each bone.
fn radius(x: f32) -> f32 {
    0.3 + 0.25 * (PI * x / arm::BONE_LENGTH).sin().powi(2)
}

/// The slope of [`radius`] along x.
fn radius_slope(x: f32) -> f32 {
    0.25 * (TAU * x / arm::BONE_LENGTH).sin() * PI / arm::BONE_LENGTH
}

/// Rings along each bone.
pub const RINGS_PER_BONE: usize = 24;
/// Rings from shoulder to fingertip.
pub const RING_COUNT: usize = arm::BONE_COUNT * RINGS_PER_BONE + 1;
/// Vertices around a ring.
pub const SEGMENTS: usize = 32;
/// Vertices of the tube (the caps follow them).
pub const TUBE_VERTICES: usize = RING_COUNT * SEGMENTS;
/// Vertices of the limb: the tube's, then each cap's rim and centre.
pub const VERTEX_COUNT: usize = TUBE_VERTICES + 2 * (SEGMENTS + 1);
/// The blend width across the elbow.
pub const BLEND_WIDTH: f32 = 1.0;

/// The muscled arm in its bind pose: positions, unit normals, unit tangents along the
/// bone (perpendicular to the normals), smooth weights across the elbow, and two caps.
#[derive(Clone, Debug, PartialEq)]
pub struct Limb {
    /// The vertices: [`RING_COUNT`] rings of [`SEGMENTS`], then each cap's rim and centre.
    pub skin: SkinMesh,
    /// Triangle indices.
    pub triangles: Vec<u32>,
}

/// Builds the [`Limb`].
pub fn limb() -> Result<Limb, InfluenceError> {
    let mut skin = SkinMesh::default();
    let influences_at = |x: f32| {
        Influences::prepare(
            &arm::weights_at(x, arm::Falloff::Smooth, BLEND_WIDTH),
            arm::BONE_COUNT,
        )
    };
    for ring in 0..RING_COUNT {
        let x = ring as f32 * arm::LENGTH / (RING_COUNT - 1) as f32;
        let (r, slope) = (radius(x), radius_slope(x));
        let influences = influences_at(x)?;
        for segment in 0..SEGMENTS {
            let (sin, cos) = (segment as f32 / SEGMENTS as f32 * TAU).sin_cos();
            let around = Vec3::new(0.0, cos, sin);
            skin.positions.push(Vec3::X * x + around * r);
            // The surface climbs by `slope` per unit of x: the tangent along the bone
            // follows that climb, and the normal leans back against it.
            skin.normals.push((around - Vec3::X * slope).normalize());
            skin.tangents.push((Vec3::X + around * slope).normalize());
            skin.influences.push(influences);
        }
    }
    let mut triangles = arm::tube_triangles(RING_COUNT, SEGMENTS);
    // Flat caps: their own rim vertices (a cap's normal is the bone's axis).
    for (ring, outward) in [(0, -1.0f32), (RING_COUNT - 1, 1.0)] {
        let rim = skin.positions.len();
        let influences = skin.influences[ring * SEGMENTS];
        for s in 0..SEGMENTS {
            skin.positions.push(skin.positions[ring * SEGMENTS + s]);
            skin.normals.push(Vec3::X * outward);
            skin.tangents.push(Vec3::Y);
            skin.influences.push(influences);
        }
        let centre = skin.positions.len() as u32;
        skin.positions
            .push(Vec3::X * (ring / RINGS_PER_BONE) as f32 * arm::BONE_LENGTH);
        skin.normals.push(Vec3::X * outward);
        skin.tangents.push(Vec3::Y);
        skin.influences.push(influences);
        for s in 0..SEGMENTS {
            let (a, b) = ((rim + s) as u32, (rim + (s + 1) % SEGMENTS) as u32);
            triangles.extend([centre, a, b]);
        }
    }
    Ok(Limb { skin, triangles })
}

// ANCHOR: pose
/// Each joint's local transform: the forearm bends by `bend` about z at the elbow and
/// is scaled by `scale` across the bone, along its own y axis.
pub fn parent_from_joint(bend: f32, scale: f32) -> [Mat4; arm::BONE_COUNT] {
    let [shoulder, elbow] = arm::parent_from_joint(0.0, bend);
    [
        shoulder,
        elbow * Mat4::from_scale(Vec3::new(1.0, scale, 1.0)),
    ]
}
// ANCHOR_END: pose

/// The skinning palette `world_from_bind` for this bend and scale.
pub fn palette(bend: f32, scale: f32) -> Vec<Mat4> {
    let world = arm::skeleton().world_from_joint(&parent_from_joint(bend, scale));
    super::lbs::palette(&world, &arm::joint_from_bind())
}

/// Over every tube vertex of `mesh` skinned with `palette`: the largest and the mean
/// angle (degrees) between the naive normal and the inverse-transpose normal.
pub fn angle_error(palette: &[Mat4], mesh: &SkinMesh) -> (f32, f32) {
    let mut max = 0.0f32;
    let mut sum = 0.0;
    let count = mesh
        .normals
        .len()
        .min(mesh.influences.len())
        .min(TUBE_VERTICES);
    for (n, influences) in mesh.normals.iter().zip(&mesh.influences).take(count) {
        let m = blended_matrix(palette, influences);
        let a = angle_degrees(
            transform_normal(NormalMethod::Naive, &m, *n),
            transform_normal(NormalMethod::InverseTranspose, &m, *n),
        );
        max = max.max(a);
        sum += a;
    }
    (max, if count == 0 { 0.0 } else { sum / count as f32 })
}

// ANCHOR: gram_schmidt
/// One vertex's normal and tangent, step by step (seed 000, §3.4).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TangentSteps {
    /// The blended matrix `M`.
    pub blended: Mat4,
    /// The bind-space normal and tangent.
    pub bind_normal: Vec3,
    /// The bind-space tangent.
    pub bind_tangent: Vec3,
    /// `N`: the skinned unit normal (by the chosen method).
    pub normal: Vec3,
    /// `T = normalize(M · t)`: the tangent carried by the matrix itself.
    pub carried: Vec3,
    /// `T · N`: zero when they are already perpendicular.
    pub dot: f32,
    /// `T − (T · N) N`, before normalising.
    pub removed: Vec3,
    /// The final unit tangent.
    pub tangent: Vec3,
}

impl TangentSteps {
    /// Works vertex `vertex` of `mesh` under `palette`; `None` when there is no such
    /// vertex or it has no normal and tangent.
    pub fn new(
        palette: &[Mat4],
        mesh: &SkinMesh,
        vertex: usize,
        method: NormalMethod,
    ) -> Option<Self> {
        let blended = blended_matrix(palette, mesh.influences.get(vertex)?);
        let (bind_normal, bind_tangent) = (*mesh.normals.get(vertex)?, *mesh.tangents.get(vertex)?);
        let normal = transform_normal(method, &blended, bind_normal);
        let carried = blended.transform_vector3(bind_tangent).normalize_or_zero();
        let dot = carried.dot(normal);
        let removed = carried - dot * normal;
        Some(Self {
            blended,
            bind_normal,
            bind_tangent,
            normal,
            carried,
            dot,
            removed,
            tangent: removed.normalize_or_zero(),
        })
    }
}
// ANCHOR_END: gram_schmidt

/// A check-yourself exercise: the forearm scaled by `(1, scale, 1)`, no turn; carry
/// the bind normal `normal` correctly.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Exercise {
    /// The scale along y.
    pub scale: f32,
    /// The bind-space unit normal.
    pub normal: [f32; 3],
}

/// The exercises, easiest first.
pub const EXERCISES: [Exercise; 3] = [
    Exercise {
        scale: 2.0,
        normal: [0.6, 0.8, 0.0],
    },
    Exercise {
        scale: 0.5,
        normal: [0.0, 0.6, 0.8],
    },
    Exercise {
        scale: 3.0,
        normal: [0.8, 0.0, 0.6],
    },
];

impl Exercise {
    /// The matrix: a scale of `scale` along y.
    pub fn matrix(&self) -> Mat4 {
        Mat4::from_scale(Vec3::new(1.0, self.scale, 1.0))
    }

    /// `(M⁻¹)^T · n` before normalising.
    pub fn unnormalised(&self) -> Vec3 {
        Mat3::from_mat4(self.matrix()).inverse().transpose() * Vec3::from(self.normal)
    }

    /// The right answer: the unit skinned normal.
    pub fn answer(&self) -> Vec3 {
        transform_normal(
            NormalMethod::InverseTranspose,
            &self.matrix(),
            Vec3::from(self.normal),
        )
    }

    /// What the naive method gives, for the working.
    pub fn naive(&self) -> Vec3 {
        transform_normal(NormalMethod::Naive, &self.matrix(), Vec3::from(self.normal))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Quat;
    use proptest::prelude::*;

    #[test]
    fn the_limb_has_unit_normals_perpendicular_to_unit_tangents() {
        let limb = limb().unwrap();
        let n = limb.skin.positions.len();
        assert_eq!(n, VERTEX_COUNT);
        assert_eq!(n, TUBE_VERTICES + 2 * (SEGMENTS + 1));
        assert_eq!((limb.skin.normals.len(), limb.skin.tangents.len()), (n, n));
        for (nr, t) in limb.skin.normals.iter().zip(&limb.skin.tangents) {
            assert!((nr.length() - 1.0).abs() < 1e-5 && (t.length() - 1.0).abs() < 1e-5);
            assert!(nr.dot(*t).abs() < 1e-5, "{nr} {t}");
        }
        assert!(limb.triangles.iter().all(|i| (*i as usize) < n));
    }

    #[test]
    fn a_normal_points_out_of_the_surface_it_belongs_to() {
        // Neighbours along the ring and along the bone lie (nearly) in the tangent plane.
        let limb = limb().unwrap();
        let p = &limb.skin.positions;
        for ring in [3, 12, 30] {
            for s in [0, 7, 20] {
                let v = ring * SEGMENTS + s;
                let n = limb.skin.normals[v];
                let along = (p[v + SEGMENTS] - p[v - SEGMENTS]).normalize();
                let around = (p[ring * SEGMENTS + (s + 1) % SEGMENTS]
                    - p[ring * SEGMENTS + (s + SEGMENTS - 1) % SEGMENTS])
                    .normalize();
                assert!(n.dot(along).abs() < 0.02, "ring {ring}: {}", n.dot(along));
                assert!(n.dot(around).abs() < 1e-4);
                assert!(n.dot(p[v] - Vec3::X * p[v].x) > 0.0, "points outwards");
            }
        }
    }

    fn arb_matrix() -> impl Strategy<Value = Mat4> {
        (
            prop::array::uniform3(0.2f32..3.0),
            prop::array::uniform3(-3.0f32..3.0),
            prop::array::uniform3(-2.0f32..2.0),
        )
            .prop_map(|(s, r, t)| {
                Mat4::from_scale_rotation_translation(
                    Vec3::from(s),
                    Quat::from_euler(glam::EulerRot::XYZ, r[0], r[1], r[2]),
                    Vec3::from(t),
                )
            })
    }

    proptest! {
        // The inverse transpose keeps a normal perpendicular to every tangent the matrix
        // carries, whatever the scale.
        #[test]
        fn inverse_transpose_normals_stay_perpendicular_to_carried_tangents(
            m in arb_matrix(),
            a in prop::array::uniform3(-1.0f32..1.0),
            b in prop::array::uniform3(-1.0f32..1.0),
        ) {
            let (a, b) = (Vec3::from(a), Vec3::from(b));
            let n = a.cross(b);
            prop_assume!(n.length() > 0.1);
            let normal = transform_normal(NormalMethod::InverseTranspose, &m, n.normalize());
            for t in [a, b] {
                let carried = m.transform_vector3(t).normalize();
                prop_assert!(normal.dot(carried).abs() < 1e-4, "{}", normal.dot(carried));
            }
        }

        // Under a rotation and a uniform scale both methods agree.
        #[test]
        fn both_methods_agree_without_non_uniform_scale(
            s in 0.2f32..3.0,
            r in prop::array::uniform3(-3.0f32..3.0),
            n in prop::array::uniform3(-1.0f32..1.0),
        ) {
            let n = Vec3::from(n);
            prop_assume!(n.length() > 0.1);
            let m = Mat4::from_scale_rotation_translation(
                Vec3::splat(s),
                Quat::from_euler(glam::EulerRot::XYZ, r[0], r[1], r[2]),
                Vec3::ONE,
            );
            let [a, b] = NormalMethod::ALL.map(|method| transform_normal(method, &m, n));
            prop_assert!(a.abs_diff_eq(b, 1e-4), "{a} {b}");
        }
    }

    #[test]
    fn the_naive_normal_leaves_the_surface_under_non_uniform_scale() {
        let m = Mat4::from_scale(Vec3::new(1.0, 2.0, 1.0));
        let (n, t) = (
            Vec3::new(1.0, 1.0, 0.0).normalize(),
            Vec3::new(1.0, -1.0, 0.0),
        );
        let carried = m.transform_vector3(t).normalize();
        let naive = transform_normal(NormalMethod::Naive, &m, n);
        let right = transform_normal(NormalMethod::InverseTranspose, &m, n);
        assert!(right.dot(carried).abs() < 1e-6);
        // (1, 2) against (1, -2): cos = -3/5, 37° off square.
        assert!((angle_degrees(naive, carried) - 126.87).abs() < 0.01);
    }

    #[test]
    fn the_angle_error_is_zero_at_scale_one_and_grows_with_the_scale() {
        let limb = limb().unwrap();
        assert!(angle_error(&palette(0.0, 1.0), &limb.skin).0 < 0.01);
        let errors: Vec<f32> = [1.0, 1.5, 2.5, 4.0]
            .iter()
            .map(|s| angle_error(&palette(0.4, *s), &limb.skin).0)
            .collect();
        // Bent, even scale 1 is a little off at the elbow: a blend of two rotations is
        // not a rotation.
        assert!(errors[0] > 0.1 && errors[0] < 3.0, "{errors:?}");
        assert!(errors.windows(2).all(|w| w[1] > w[0] + 1.0), "{errors:?}");
        // Shrinking is as wrong as stretching by the inverse factor.
        let half = angle_error(&palette(0.4, 0.4), &limb.skin).0;
        assert!((half - angle_error(&palette(0.4, 2.5), &limb.skin).0).abs() < 0.5);
    }

    #[test]
    fn gram_schmidt_gives_a_unit_tangent_perpendicular_to_the_normal() {
        let limb = limb().unwrap();
        let pal = palette(0.9, 2.5);
        for method in NormalMethod::ALL {
            for v in [5, 700, 790, 1500] {
                let s = TangentSteps::new(&pal, &limb.skin, v, method).unwrap();
                assert!((s.tangent.length() - 1.0).abs() < 1e-5);
                assert!(s.tangent.dot(s.normal).abs() < 1e-5);
                assert!((s.removed - (s.carried - s.dot * s.normal)).length() < 1e-6);
            }
        }
        // On the scaled forearm the naive normal is far from square to the tangent; the
        // inverse transpose is square before the step.
        let v = 40 * SEGMENTS + 4;
        let naive = TangentSteps::new(&pal, &limb.skin, v, NormalMethod::Naive).unwrap();
        let right = TangentSteps::new(&pal, &limb.skin, v, NormalMethod::InverseTranspose).unwrap();
        assert!(naive.dot.abs() > 0.05, "{}", naive.dot);
        assert!(right.dot.abs() < 1e-5, "{}", right.dot);
        assert!(TangentSteps::new(&pal, &limb.skin, usize::MAX, NormalMethod::Naive).is_none());
    }

    #[test]
    fn skin_vertices_with_the_inverse_transpose_is_the_reference() {
        use crate::skin::lbs::{skin_vertices, skin_vertices_with};
        let limb = limb().unwrap();
        let pal = palette(0.7, 1.8);
        let a = skin_vertices_with(&pal, &limb.skin, NormalMethod::InverseTranspose);
        assert_eq!(a, skin_vertices(&pal, &limb.skin));
        let b = skin_vertices_with(&pal, &limb.skin, NormalMethod::Naive);
        assert!(a.iter().zip(&b).all(|(a, b)| a.position == b.position));
        assert!(
            a.iter()
                .zip(&b)
                .any(|(a, b)| angle_degrees(a.normal, b.normal) > 10.0)
        );
    }

    #[test]
    fn exercise_answers() {
        let a = EXERCISES[0].answer();
        assert!(
            a.abs_diff_eq(Vec3::new(0.6, 0.4, 0.0).normalize(), 1e-6),
            "{a}"
        );
        assert!(
            EXERCISES[0]
                .unnormalised()
                .abs_diff_eq(Vec3::new(0.6, 0.4, 0.0), 1e-6)
        );
        // No y component: the scale cannot tilt it.
        assert!(
            EXERCISES[2]
                .answer()
                .abs_diff_eq(Vec3::new(0.8, 0.0, 0.6), 1e-6)
        );
        assert!(EXERCISES[1].naive().y < EXERCISES[1].answer().y);
    }
}
