//! The normals lesson's mesh: the blending page's two-bone arm with a muscle on each
//! bone, so its normals lean along the bone as well as around it. The forearm carries a
//! scale across the bone, `(1, s, 1)` in its own frame: a non-uniform scale.

use glam::{Mat4, Vec3};
use rigs::arm;
use skin::explain::steps::TangentSteps;
use skin::explain::surface::{DEFAULT_STEP, NormalStencil};
use skin::influences::{InfluenceError, Influences};
use skin::lbs::{self, SkinMesh, blended_matrix};
use skin::normals::{NormalMethod, angle_degrees, transform_normal};
use std::f32::consts::{PI, TAU};

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
    /// Per vertex, what its true skinned normal needs (`None` where it cannot be had).
    pub stencils: Vec<Option<NormalStencil>>,
}

/// The weights at bind-space `x` along the arm: they depend on nothing else.
fn influences_at(x: f32) -> Result<Influences, InfluenceError> {
    Influences::prepare(
        &arm::weights_at(x, arm::Falloff::Smooth, BLEND_WIDTH),
        arm::BONE_COUNT,
    )
}

/// Builds the [`Limb`].
pub fn limb() -> Result<Limb, InfluenceError> {
    let mut skin = SkinMesh::default();
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
    let stencils = skin
        .positions
        .iter()
        .zip(&skin.normals)
        .map(|(p, n)| NormalStencil::new(*p, *n, DEFAULT_STEP, |q| influences_at(q.x).ok()))
        .collect();
    Ok(Limb {
        skin,
        triangles,
        stencils,
    })
}

// ANCHOR: pose
/// Each joint's local transform: the forearm bends by `bend` about z at the elbow and
/// is scaled by `scale` across the bone, along its own y axis.
pub fn parent_from_joint(bend: f32, scale: f32) -> Vec<Mat4> {
    let mut parents = arm::parent_from_joint(0.0, bend);
    if let Some(elbow) = parents.get_mut(1) {
        *elbow *= Mat4::from_scale(Vec3::new(1.0, scale, 1.0));
    }
    parents
}
// ANCHOR_END: pose

/// The skinning palette `world_from_bind` for this bend and scale.
pub fn palette(bend: f32, scale: f32) -> Vec<Mat4> {
    let world = arm::skeleton().world_from_joint(&parent_from_joint(bend, scale));
    lbs::palette(&world, &arm::joint_from_bind())
}

/// The largest and the mean of some angles (degrees).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Spread {
    /// The largest angle.
    pub max: f32,
    /// The mean angle.
    pub mean: f32,
    /// The vertex where the angle is largest, if any was measured.
    pub worst: Option<usize>,
}

/// Sums angles into a [`Spread`].
#[derive(Clone, Copy, Default)]
struct SpreadSum {
    max: f32,
    worst: Option<usize>,
    sum: f32,
    count: usize,
}

impl SpreadSum {
    fn add(&mut self, vertex: usize, angle: f32) {
        if self.worst.is_none() || angle > self.max {
            self.max = angle;
            self.worst = Some(vertex);
        }
        self.sum += angle;
        self.count += 1;
    }

    /// The spread of the angles added; zero when there are none.
    fn spread(self) -> Spread {
        let mean = if self.count == 0 {
            0.0
        } else {
            self.sum / self.count as f32
        };
        Spread {
            max: self.max,
            mean,
            worst: self.worst,
        }
    }
}

/// How far the normals are off over the tube at one pose (degrees).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct NormalErrors {
    /// The naive normal against the true normal.
    pub naive: Spread,
    /// The inverse-transpose normal against the true normal.
    pub inverse_transpose: Spread,
    /// The two methods against each other.
    pub between: Spread,
    /// Tube vertices left out: no true normal there (the skin folded flat, or a matrix
    /// that is not finite).
    pub skipped: usize,
}

/// A unit normal, or `None` for the zero or non-finite results of bad matrices.
fn usable(n: Vec3) -> Option<Vec3> {
    (n.is_finite() && n != Vec3::ZERO).then_some(n)
}

/// The true skinned normal of vertex `vertex` of `limb` under `palette` and the two
/// methods' normals, in that order; `None` where one of them cannot be had.
pub fn vertex_normals(palette: &[Mat4], limb: &Limb, vertex: usize) -> Option<[Vec3; 3]> {
    let truth = limb.stencils.get(vertex)?.as_ref()?.true_normal(palette)?;
    let influences = limb.skin.influences.get(vertex)?;
    if influences
        .joints
        .iter()
        .any(|j| *j as usize >= palette.len())
    {
        return None;
    }
    let m = blended_matrix(palette, influences);
    let n = *limb.skin.normals.get(vertex)?;
    let [naive, right] = [NormalMethod::Naive, NormalMethod::InverseTranspose]
        .map(|method| usable(transform_normal(method, &m, n)));
    Some([usable(truth)?, naive?, right?])
}

/// Over every tube vertex of `limb` skinned with `palette`: each method's angle from the
/// true normal of the skinned surface, and the angle between the two methods.
pub fn normal_errors(palette: &[Mat4], limb: &Limb) -> NormalErrors {
    let count = limb.skin.positions.len().min(TUBE_VERTICES);
    let [mut naive, mut right, mut between] = [SpreadSum::default(); 3];
    for v in 0..count {
        if let Some([truth, n, r]) = vertex_normals(palette, limb, v) {
            naive.add(v, angle_degrees(n, truth));
            right.add(v, angle_degrees(r, truth));
            between.add(v, angle_degrees(n, r));
        }
    }
    NormalErrors {
        naive: naive.spread(),
        inverse_transpose: right.spread(),
        between: between.spread(),
        skipped: count - naive.count,
    }
}

/// Vertex `vertex` of `mesh` worked step by step under `palette`; `None` when there is
/// no such vertex or it has no normal and tangent.
pub fn tangent_steps(
    palette: &[Mat4],
    mesh: &SkinMesh,
    vertex: usize,
    method: NormalMethod,
) -> Option<TangentSteps> {
    let blended = blended_matrix(palette, mesh.influences.get(vertex)?);
    let (normal, tangent) = (*mesh.normals.get(vertex)?, *mesh.tangents.get(vertex)?);
    Some(TangentSteps::new(blended, normal, tangent, method))
}

#[cfg(test)]
mod tests {
    use super::*;

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

    #[test]
    fn the_angle_between_the_methods_is_zero_at_scale_one_and_grows_with_the_scale() {
        let limb = limb().unwrap();
        let apart = |bend: f32, scale: f32| normal_errors(&palette(bend, scale), &limb).between.max;
        assert!(apart(0.0, 1.0) < 0.01);
        let errors: Vec<f32> = [1.0, 1.5, 2.5, 4.0]
            .iter()
            .map(|s| apart(0.4, *s))
            .collect();
        // Bent, even scale 1 is a little off at the elbow: a blend of two rotations is
        // not a rotation.
        assert!(errors[0] > 0.1 && errors[0] < 3.0, "{errors:?}");
        assert!(errors.windows(2).all(|w| w[1] > w[0] + 1.0), "{errors:?}");
        // Shrinking is as wrong as stretching by the inverse factor.
        assert!((apart(0.4, 0.4) - apart(0.4, 2.5)).abs() < 0.5);
    }

    /// The normal of the skinned mesh itself at interior tube vertex `v`: the cross
    /// product of the central differences of its skinned neighbours around the ring and
    /// along the bone (what a renderer recomputing normals would see).
    fn mesh_normal(skinned: &[Vec3], v: usize) -> Vec3 {
        let (ring, s) = (v / SEGMENTS, v % SEGMENTS);
        let at = |r: usize, s: usize| skinned[r * SEGMENTS + s % SEGMENTS];
        let along = at(ring + 1, s) - at(ring - 1, s);
        let around = at(ring, s + 1) - at(ring, s + SEGMENTS - 1);
        around.cross(along).normalize()
    }

    #[test]
    fn the_true_normal_is_the_skinned_mesh_s_own_normal() {
        let limb = limb().unwrap();
        for (bend, scale) in [(1.2, 1.0), (0.5, 2.5), (-1.6, 0.3)] {
            let pal = palette(bend, scale);
            let skinned: Vec<Vec3> = lbs::skin_vertices(&pal, &limb.skin)
                .iter()
                .map(|v| v.position)
                .collect();
            let mut worst = 0.0f32;
            let bones = |ring: usize| limb.skin.influences[ring * SEGMENTS].used().count();
            for v in SEGMENTS..TUBE_VERTICES - SEGMENTS {
                // Across the edge of the blend the weights' curvature jumps, and the
                // mesh's differences, a ring wide, are off by degrees there.
                let ring = v / SEGMENTS;
                if bones(ring - 1) != bones(ring + 1) {
                    continue;
                }
                let [truth, ..] = vertex_normals(&pal, &limb, v).unwrap();
                worst = worst.max(angle_degrees(truth, mesh_normal(&skinned, v)));
            }
            assert!(worst < 1.5, "bend {bend} scale {scale}: {worst}°");
        }
    }

    #[test]
    fn a_bad_palette_leaves_vertices_out_and_no_nan_in() {
        let limb = limb().unwrap();
        let nan = Mat4::from_cols_array(&[f32::NAN; 16]);
        for pal in [vec![nan; 2], Vec::new()] {
            let e = normal_errors(&pal, &limb);
            assert_eq!(e.skipped, TUBE_VERTICES, "{pal:?}");
            assert_eq!(e.naive, Spread::default());
            assert_eq!(e.inverse_transpose, Spread::default());
        }
        // No matrix for the forearm: only the vertices the upper arm alone moves count,
        // less the ring on the blend's edge, whose neighbourhood reaches the forearm.
        let upper = normal_errors(&[Mat4::IDENTITY], &limb);
        let rigid = limb.skin.influences[..TUBE_VERTICES]
            .iter()
            .filter(|i| i.joints == [0; 4])
            .count();
        assert_eq!(upper.skipped, TUBE_VERTICES - rigid + SEGMENTS);
        // Squashed flat across the forearm: its vertices have no normal at all.
        let flat = normal_errors(&palette(0.7, 0.0), &limb);
        assert!(flat.skipped > 0 && flat.skipped < TUBE_VERTICES, "{flat:?}");
        assert!(flat.naive.max.is_finite() && flat.between.mean.is_finite());
        assert!(vertex_normals(&palette(0.0, 1.0), &limb, usize::MAX).is_none());
    }

    #[test]
    fn gram_schmidt_gives_a_unit_tangent_perpendicular_to_the_normal() {
        let limb = limb().unwrap();
        let pal = palette(0.9, 2.5);
        for &method in <NormalMethod as crate::link::Named>::ALL {
            for v in [5, 700, 790, 1500] {
                let s = tangent_steps(&pal, &limb.skin, v, method).unwrap();
                assert!((s.tangent.length() - 1.0).abs() < 1e-5);
                assert!(s.tangent.dot(s.normal).abs() < 1e-5);
                assert!((s.removed - (s.carried - s.dot * s.normal)).length() < 1e-6);
            }
        }
        // On the scaled forearm the naive normal is far from square to the tangent; the
        // inverse transpose is square before the step.
        let v = 40 * SEGMENTS + 4;
        let naive = tangent_steps(&pal, &limb.skin, v, NormalMethod::Naive).unwrap();
        let right = tangent_steps(&pal, &limb.skin, v, NormalMethod::InverseTranspose).unwrap();
        assert!(naive.dot.abs() > 0.05, "{}", naive.dot);
        assert!(right.dot.abs() < 1e-5, "{}", right.dot);
        assert!(tangent_steps(&pal, &limb.skin, usize::MAX, NormalMethod::Naive).is_none());
    }
}
