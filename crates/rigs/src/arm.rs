//! The cylinder arm of the blending lesson: an upper arm and a forearm along +x, a tube
//! of rings around them, and weights that fade from one bone to the other across the
//! elbow. Twisting the forearm shows what linear blending does to the elbow's volume.

use glam::{Mat4, Vec3};
use skin::lbs::{self, SkinMesh};
use skin::{InfluenceError, Influences, Skeleton};

/// Number of bones in the chain: the upper arm (joint 0, the shoulder, at the origin)
/// and the forearm (joint 1, the elbow).
pub const BONE_COUNT: usize = 2;

/// How far each joint sits along its parent's x axis.
pub const BONE_LENGTH: f32 = 2.0;

/// The length of the whole arm, shoulder to fingertip.
pub const LENGTH: f32 = BONE_COUNT as f32 * BONE_LENGTH;

/// The radius of the tube.
pub const RADIUS: f32 = 0.5;

/// Rings along each bone; one ring sits exactly on each joint.
pub const RINGS_PER_BONE: usize = 32;

/// Rings from shoulder to fingertip.
pub const RING_COUNT: usize = BONE_COUNT * RINGS_PER_BONE + 1;

/// Vertices around each ring: ring `r` holds vertices `r * SEGMENTS .. (r + 1) * SEGMENTS`.
pub const SEGMENTS: usize = 48;

/// The vertices of the tube: every ring's.
pub const VERTEX_COUNT: usize = RING_COUNT * SEGMENTS;

/// A blend width that shows the effect well: half a bone.
pub const DEFAULT_BLEND_WIDTH: f32 = 1.0;

/// How a vertex's weight moves from the upper arm to the forearm across the elbow. Its
/// link names are its variants' names in snake_case.
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
pub enum Falloff {
    /// Each vertex follows one bone: the one whose side of the joint it is on.
    Rigid,
    /// The forearm's weight rises in a straight line across the blend width.
    Linear,
    /// The forearm's weight rises along smoothstep, with no kink at either end.
    #[default]
    Smooth,
}

impl Falloff {
    /// The child bone's weight at `t`, where `t` runs from 0 (start of the blend
    /// region, parent side) to 1 (end, child side); clamped outside.
    pub fn child_weight(self, t: f32) -> f32 {
        let t = t.clamp(0.0, 1.0);
        match self {
            Self::Rigid => {
                if t >= 0.5 {
                    1.0
                } else {
                    0.0
                }
            }
            Self::Linear => t,
            Self::Smooth => t * t * (3.0 - 2.0 * t),
        }
    }
}

/// Joints a rig of the arm can have: the shoulder, the elbow, and the twist bone when
/// [`Arm::twist_bone`] is on. Every per-joint table of the page is this long.
pub const MAX_JOINTS: usize = BONE_COUNT + 1;

/// Where the twist bone sits in the bind pose: halfway along the forearm.
pub const TWIST_BONE_X: f32 = BONE_LENGTH * 1.5;

/// A rig of the arm. The mesh is the same tube either way; what changes is the joints
/// that carry it and the weights across them.
///
/// Without a twist bone (the default) the forearm is one joint, the elbow, which both
/// bends and twists, so the blend region at the elbow spans the whole twist. With a
/// **twist bone**, a third joint halfway along the forearm takes half of the twist: the
/// elbow turns by half, the twist bone by the other half on top, and the hand still ends
/// at the full twist. Each blend region then spans only half the turn.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Arm {
    /// Whether the forearm carries a twist bone.
    pub twist_bone: bool,
}

impl Arm {
    /// The arm with two joints, shoulder and elbow.
    pub const PLAIN: Self = Self { twist_bone: false };

    /// The number of joints: 2, or 3 with the twist bone.
    pub fn joint_count(self) -> usize {
        if self.twist_bone {
            MAX_JOINTS
        } else {
            BONE_COUNT
        }
    }

    /// The chain shoulder -> elbow (-> twist bone).
    pub fn skeleton(self) -> Skeleton {
        Skeleton::chain(self.joint_count())
    }

    /// Where joint `joint` sits along x in the bind pose.
    pub fn joint_x(self, joint: usize) -> f32 {
        if self.twist_bone && joint == BONE_COUNT {
            TWIST_BONE_X
        } else {
            joint as f32 * BONE_LENGTH
        }
    }

    /// The widest blend region that keeps neighbouring regions apart, and inside the
    /// arm: the shortest gap from a blending joint to the next joint or the fingertip.
    pub fn max_blend_width(self) -> f32 {
        (1..self.joint_count())
            .map(|joint| {
                let next = if joint + 1 < self.joint_count() {
                    self.joint_x(joint + 1)
                } else {
                    LENGTH
                };
                next - self.joint_x(joint)
            })
            .fold(BONE_LENGTH, f32::min)
    }

    // ANCHOR: pose
    /// Each joint's local transform. The forearm moves `BONE_LENGTH` along the upper
    /// arm, bends by `bend` about z, then twists about its own x axis (the twist is
    /// applied first to the forearm's points, so it turns them about the forearm's axis
    /// whatever the bend). With a twist bone the elbow takes half of `twist` and the
    /// twist bone, halfway along the forearm, the other half. Zero and zero is the bind
    /// pose: a straight arm.
    pub fn parent_from_joint(self, twist: f32, bend: f32) -> Vec<Mat4> {
        let share = if self.twist_bone { 0.5 } else { 1.0 };
        (0..self.joint_count())
            .map(|joint| match joint {
                0 => Mat4::IDENTITY,
                1 => {
                    Mat4::from_translation(Vec3::X * BONE_LENGTH)
                        * Mat4::from_rotation_z(bend)
                        * Mat4::from_rotation_x(share * twist)
                }
                _ => {
                    Mat4::from_translation(Vec3::X * (self.joint_x(joint) - self.joint_x(1)))
                        * Mat4::from_rotation_x((1.0 - share) * twist)
                }
            })
            .collect()
    }
    // ANCHOR_END: pose

    /// Every joint's world transform for this twist and bend (radians).
    pub fn world_from_joint(self, twist: f32, bend: f32) -> Vec<Mat4> {
        self.skeleton()
            .world_from_joint(&self.parent_from_joint(twist, bend))
    }

    /// The inverse bind matrices. The bind pose only translates, so the inverse is
    /// exact and cannot fail.
    pub fn joint_from_bind(self) -> Vec<Mat4> {
        (0..self.joint_count())
            .map(|joint| Mat4::from_translation(-Vec3::X * self.joint_x(joint)))
            .collect()
    }

    /// The skinning palette `world_from_bind` for this twist and bend.
    pub fn palette(self, twist: f32, bend: f32) -> Vec<Mat4> {
        lbs::palette(&self.world_from_joint(twist, bend), &self.joint_from_bind())
    }

    // ANCHOR: weights
    /// The (joint, weight) list of a point `x` along the arm: across the nearest joint
    /// that has a parent, the weight moves from the parent to the joint following
    /// `falloff`, over a region `blend_width` wide centred on the joint.
    ///
    /// `blend_width` is clamped to `0..=max_blend_width()` so neighbouring regions never
    /// overlap; zero (or a value that is not finite) gives a hard step at the joint,
    /// like `Rigid`. Zero weights are left out, so a rigid vertex names a single joint.
    pub fn weights_at(self, x: f32, falloff: Falloff, blend_width: f32) -> Vec<(usize, f32)> {
        let nearest = (1..self.joint_count()).min_by(|&a, &b| {
            (x - self.joint_x(a))
                .abs()
                .total_cmp(&(x - self.joint_x(b)).abs())
        });
        let Some(joint) = nearest else {
            return vec![(0, 1.0)];
        };
        let offset = x - self.joint_x(joint);
        let width = if blend_width.is_finite() {
            blend_width.clamp(0.0, self.max_blend_width())
        } else {
            0.0
        };
        let t = if width > 1e-6 {
            offset / width + 0.5
        } else if offset >= 0.0 {
            1.0
        } else {
            0.0
        };
        let child = falloff.child_weight(t);
        [(joint - 1, 1.0 - child), (joint, child)]
            .into_iter()
            .filter(|(_, w)| *w > 0.0)
            .collect()
    }
    // ANCHOR_END: weights

    /// The tube in the bind pose, with weights from `falloff` and `blend_width` (see
    /// [`Arm::weights_at`]).
    pub fn mesh(self, falloff: Falloff, blend_width: f32) -> Result<ArmMesh, InfluenceError> {
        let mut skin = SkinMesh::default();
        for ring in 0..RING_COUNT {
            let x = ring_x(ring);
            let weights = self.weights_at(x, falloff, blend_width);
            let influences = Influences::prepare(&weights, self.joint_count())?;
            for segment in 0..SEGMENTS {
                let angle = segment as f32 / SEGMENTS as f32 * std::f32::consts::TAU;
                let (sin, cos) = angle.sin_cos();
                let normal = Vec3::new(0.0, cos, sin);
                skin.positions.push(Vec3::X * x + normal * RADIUS);
                skin.normals.push(normal);
                // Around the ring, the direction of increasing angle.
                skin.tangents.push(Vec3::new(0.0, -sin, cos));
                skin.influences.push(influences);
            }
        }
        Ok(ArmMesh {
            skin,
            triangles: tube_triangles(RING_COUNT, SEGMENTS),
        })
    }
}

/// The chain shoulder -> elbow of the plain arm.
pub fn skeleton() -> Skeleton {
    Arm::PLAIN.skeleton()
}

/// Where joint `joint` of the plain arm sits in the bind pose: `joint * BONE_LENGTH`
/// along x.
pub fn bind_joint_position(joint: usize) -> Vec3 {
    Vec3::X * Arm::PLAIN.joint_x(joint)
}

/// [`Arm::parent_from_joint`] of the plain arm.
pub fn parent_from_joint(twist: f32, bend: f32) -> Vec<Mat4> {
    Arm::PLAIN.parent_from_joint(twist, bend)
}

/// [`Arm::world_from_joint`] of the plain arm.
pub fn world_from_joint(twist: f32, bend: f32) -> Vec<Mat4> {
    Arm::PLAIN.world_from_joint(twist, bend)
}

/// [`Arm::joint_from_bind`] of the plain arm.
pub fn joint_from_bind() -> Vec<Mat4> {
    Arm::PLAIN.joint_from_bind()
}

/// [`Arm::palette`] of the plain arm.
pub fn palette(twist: f32, bend: f32) -> Vec<Mat4> {
    Arm::PLAIN.palette(twist, bend)
}

/// The plain arm's palette with the forearm also stretched `stretch` times along its
/// own bone (x), from the elbow: a scaled joint, which linear blending and dual
/// quaternions in two phases carry and plain dual quaternions drop.
pub fn palette_stretched(twist: f32, bend: f32, stretch: f32) -> Vec<Mat4> {
    let mut world = world_from_joint(twist, bend);
    world[1] *= Mat4::from_scale(Vec3::new(stretch, 1.0, 1.0));
    lbs::palette(&world, &joint_from_bind())
}

/// [`Arm::weights_at`] of the plain arm.
pub fn weights_at(x: f32, falloff: Falloff, blend_width: f32) -> Vec<(usize, f32)> {
    Arm::PLAIN.weights_at(x, falloff, blend_width)
}

/// The arm as a skinnable tube: positions, normals, tangents and influences, plus the
/// triangles that close it around.
#[derive(Clone, Debug, PartialEq)]
pub struct ArmMesh {
    /// Bind-pose vertices, ring by ring ([`SEGMENTS`] to a ring, [`RING_COUNT`] rings).
    pub skin: SkinMesh,
    /// Triangle indices, counter-clockwise seen from outside.
    pub triangles: Vec<u32>,
}

/// The x coordinate of ring `ring` in the bind pose.
pub fn ring_x(ring: usize) -> f32 {
    ring as f32 * LENGTH / (RING_COUNT - 1) as f32
}

/// The ring that sits on the elbow, where the twist shows.
pub fn elbow_ring() -> usize {
    RINGS_PER_BONE * (BONE_COUNT - 1)
}

/// [`Arm::mesh`] of the plain arm.
pub fn mesh(falloff: Falloff, blend_width: f32) -> Result<ArmMesh, InfluenceError> {
    Arm::PLAIN.mesh(falloff, blend_width)
}

/// The triangles of a tube of `rings` rings of `segments` vertices each (ring `r`
/// holds vertices `r * segments ..`), counter-clockwise seen from outside.
pub fn tube_triangles(rings: usize, segments: usize) -> Vec<u32> {
    let index = |ring: usize, segment: usize| (ring * segments + segment % segments) as u32;
    let mut triangles = Vec::with_capacity(rings.saturating_sub(1) * segments * 6);
    for ring in 0..rings.saturating_sub(1) {
        for s in 0..segments {
            triangles.extend([index(ring, s), index(ring, s + 1), index(ring + 1, s)]);
            triangles.extend([
                index(ring, s + 1),
                index(ring + 1, s + 1),
                index(ring + 1, s),
            ]);
        }
    }
    triangles
}

impl ArmMesh {
    /// Only the vertices of ring `ring` (as ring 0 of the result): skinning these alone
    /// is enough to plot that ring's area against the twist. Empty past the last ring.
    pub fn ring_only(&self, ring: usize) -> SkinMesh {
        self.skin.range(ring * SEGMENTS..(ring + 1) * SEGMENTS)
    }
}

// ANCHOR: ring_area
/// The area of ring `ring` of a (skinned) arm: the length of its vector area
/// `½ Σ pᵢ × pᵢ₊₁`. For a flat ring that is the area it encloses; a slightly bent ring
/// gives the area of its shadow on the plane it leans in, so the measure still works
/// once the skin has moved. Zero when `positions` has no such ring.
pub fn ring_area(positions: &[Vec3], ring: usize) -> f32 {
    let Some(points) = positions.get(ring * SEGMENTS..(ring + 1) * SEGMENTS) else {
        return 0.0;
    };
    // The sum does not depend on the origin; measuring from the centre keeps the
    // cross products small, so less cancels in f32.
    let centre = points.iter().sum::<Vec3>() / SEGMENTS as f32;
    let mut twice_area = Vec3::ZERO;
    for (i, p) in points.iter().enumerate() {
        let next = points[(i + 1) % SEGMENTS];
        twice_area += (*p - centre).cross(next - centre);
    }
    0.5 * twice_area.length()
}
// ANCHOR_END: ring_area

#[cfg(test)]
mod tests {
    use super::*;
    use skin::dqs::skin_vertices_dqs;
    use skin::lbs::skin_vertices;
    use std::f32::consts::PI;

    fn bind_area() -> f32 {
        PI * RADIUS * RADIUS
    }

    fn elbow_area(positions: &[Vec3]) -> f32 {
        ring_area(positions, elbow_ring())
    }

    #[test]
    fn the_tube_has_the_promised_shape() {
        let arm = mesh(Falloff::Smooth, DEFAULT_BLEND_WIDTH).unwrap();
        let n = VERTEX_COUNT;
        assert_eq!(n, 3120);
        assert_eq!(arm.skin.positions.len(), n);
        assert_eq!(arm.skin.normals.len(), n);
        assert_eq!(arm.skin.tangents.len(), n);
        assert_eq!(arm.skin.influences.len(), n);
        assert_eq!(arm.triangles.len(), (RING_COUNT - 1) * SEGMENTS * 6);
        assert!(arm.triangles.iter().all(|&i| (i as usize) < n));
        for ((p, nrm), t) in arm
            .skin
            .positions
            .iter()
            .zip(&arm.skin.normals)
            .zip(&arm.skin.tangents)
        {
            assert!((nrm.length() - 1.0).abs() < 1e-6);
            assert!((t.length() - 1.0).abs() < 1e-6);
            assert!(nrm.dot(*t).abs() < 1e-6);
            assert!((Vec3::new(0.0, p.y, p.z).length() - RADIUS).abs() < 1e-6);
        }
        assert_eq!(ring_x(0), 0.0);
        assert_eq!(ring_x(elbow_ring()), BONE_LENGTH);
        assert_eq!(ring_x(RING_COUNT - 1), LENGTH);
    }

    #[test]
    fn triangles_face_outwards() {
        let arm = mesh(Falloff::Rigid, 0.0).unwrap();
        let p = &arm.skin.positions;
        for tri in arm.triangles.chunks_exact(3) {
            let [a, b, c] = [0, 1, 2].map(|k| p[tri[k] as usize]);
            let face = (b - a).cross(c - a);
            let centre = (a + b + c) / 3.0;
            assert!(face.dot(Vec3::new(0.0, centre.y, centre.z)) > 0.0);
        }
    }

    #[test]
    fn bind_pose_area_is_pi_r_squared() {
        let arm = mesh(Falloff::Smooth, DEFAULT_BLEND_WIDTH).unwrap();
        // A regular polygon of n sides inside the circle: ½ n r² sin(2π / n).
        let polygon = 0.5 * SEGMENTS as f32 * RADIUS * RADIUS * (2.0 * PI / SEGMENTS as f32).sin();
        for ring in [0, elbow_ring(), RING_COUNT - 1] {
            let area = ring_area(&arm.skin.positions, ring);
            assert!((area - polygon).abs() < 1e-5, "{area} vs {polygon}");
            assert!((area / bind_area() - 1.0).abs() < 0.005, "{area}");
        }
        assert_eq!(ring_area(&arm.skin.positions, RING_COUNT), 0.0);
    }

    #[test]
    fn bind_pose_gives_the_identity_palette() {
        for m in palette(0.0, 0.0) {
            assert!(m.abs_diff_eq(Mat4::IDENTITY, 1e-6), "{m}");
        }
    }

    #[test]
    fn the_bend_turns_the_forearm_about_the_elbow_and_the_twist_keeps_its_axis() {
        let bend = 0.7;
        let world = world_from_joint(1.3, bend);
        let tip = world[1].transform_point3(Vec3::X * BONE_LENGTH);
        let expected = Vec3::X * BONE_LENGTH + Vec3::new(bend.cos(), bend.sin(), 0.0) * BONE_LENGTH;
        assert!(tip.abs_diff_eq(expected, 1e-5), "{tip}");
        // The twist leaves the forearm's axis where it was.
        let untwisted = world_from_joint(0.0, bend);
        assert!(
            world[1]
                .transform_vector3(Vec3::X)
                .abs_diff_eq(untwisted[1].transform_vector3(Vec3::X), 1e-6)
        );
    }

    #[test]
    fn weights_sum_to_one_for_every_falloff() {
        for &falloff in <Falloff as strum::VariantArray>::VARIANTS {
            for width in [0.0, 0.3, DEFAULT_BLEND_WIDTH, BONE_LENGTH, 100.0, f32::NAN] {
                let arm = mesh(falloff, width).unwrap();
                for inf in &arm.skin.influences {
                    assert!((inf.weights.iter().sum::<f32>() - 1.0).abs() < 1e-6);
                    assert!(inf.weights.iter().all(|w| (0.0..=1.0).contains(w)));
                }
            }
        }
    }

    #[test]
    fn rigid_falloff_gives_single_weights() {
        let arm = mesh(Falloff::Rigid, DEFAULT_BLEND_WIDTH).unwrap();
        for (p, inf) in arm.skin.positions.iter().zip(&arm.skin.influences) {
            assert_eq!(inf.used().count(), 1);
            let expected = if p.x >= BONE_LENGTH { 1 } else { 0 };
            assert_eq!(inf.joints, [expected; 4]);
        }
    }

    #[test]
    fn smooth_and_linear_split_the_elbow_in_half() {
        for falloff in [Falloff::Linear, Falloff::Smooth] {
            let weights = weights_at(BONE_LENGTH, falloff, DEFAULT_BLEND_WIDTH);
            assert_eq!(weights, vec![(0, 0.5), (1, 0.5)]);
            let edge = BONE_LENGTH + DEFAULT_BLEND_WIDTH / 2.0;
            assert_eq!(
                weights_at(edge, falloff, DEFAULT_BLEND_WIDTH),
                vec![(1, 1.0)]
            );
            assert_eq!(
                weights_at(
                    BONE_LENGTH - DEFAULT_BLEND_WIDTH,
                    falloff,
                    DEFAULT_BLEND_WIDTH
                ),
                vec![(0, 1.0)]
            );
        }
        // Smoothstep is flatter than the line near the ends.
        let x = BONE_LENGTH + 0.4 * DEFAULT_BLEND_WIDTH;
        let smooth = weights_at(x, Falloff::Smooth, DEFAULT_BLEND_WIDTH);
        let linear = weights_at(x, Falloff::Linear, DEFAULT_BLEND_WIDTH);
        assert!(smooth[1].1 > linear[1].1);
    }

    #[test]
    fn falloff_link_names_are_the_variants_in_snake_case() {
        let names: Vec<&str> = <Falloff as strum::VariantArray>::VARIANTS
            .iter()
            .map(|&f| f.into())
            .collect();
        assert_eq!(names, ["rigid", "linear", "smooth"]);
        assert_eq!(<Falloff as strum::VariantNames>::VARIANTS, names);
    }

    #[test]
    fn lbs_collapses_the_elbow_at_half_a_turn_and_dqs_does_not() {
        let arm = mesh(Falloff::Smooth, DEFAULT_BLEND_WIDTH).unwrap();
        let pal = palette(PI, 0.0);
        let lbs = elbow_area(
            &skin_vertices(&pal, &arm.skin)
                .iter()
                .map(|v| v.position)
                .collect::<Vec<_>>(),
        ) / bind_area();
        let dqs = elbow_area(
            &skin_vertices_dqs(&pal, &arm.skin, true)
                .iter()
                .map(|v| v.position)
                .collect::<Vec<_>>(),
        ) / bind_area();
        assert!(lbs < 0.05, "LBS keeps {lbs} of the elbow's area");
        assert!(dqs > 0.9, "DQS keeps {dqs} of the elbow's area");
    }

    /// The elbow ring's area, over the bind pose's, skinned about centres of rotation.
    fn cor_area(arm: &ArmMesh, twist: f32, bend: f32) -> f32 {
        let found = skin::cor::centres(&arm.skin, &arm.triangles);
        let centres = skin::cor::placed(&found, &arm.skin.positions);
        let skinned = skin::cor::skin_vertices_cor(&palette(twist, bend), &arm.skin, &centres);
        let p: Vec<Vec3> = skinned.iter().map(|v| v.position).collect();
        elbow_area(&p) / elbow_area(&arm.skin.positions)
    }

    #[test]
    fn centres_of_rotation_keep_the_elbow_whole_twisted_or_bent() {
        let arm = mesh(Falloff::Smooth, DEFAULT_BLEND_WIDTH).unwrap();
        // The elbow ring's centres lie on the bone's axis at the elbow, inside the arm.
        let centres = skin::cor::centres(&arm.skin, &arm.triangles);
        let ring = elbow_ring() * SEGMENTS..(elbow_ring() + 1) * SEGMENTS;
        for c in &centres[ring] {
            let c = c.expect("the elbow blends two bones");
            assert!(
                (c.x - BONE_LENGTH).abs() < 0.05 && c.y.abs() < 1e-3 && c.z.abs() < 1e-3,
                "{c}"
            );
        }
        for (twist, bend) in [(PI, 0.0), (2.0, 0.0), (0.0, 1.5), (0.0, 2.5), (1.0, 1.0)] {
            let area = cor_area(&arm, twist, bend);
            assert!(
                (area - 1.0).abs() < 0.01,
                "twist {twist} bend {bend}: {area}"
            );
        }
    }

    #[test]
    fn dqs_with_scale_carries_a_stretched_forearm_that_plain_dqs_drops() {
        let arm = mesh(Falloff::Linear, DEFAULT_BLEND_WIDTH).unwrap();
        // The forearm half a turn twisted and half as long again along its bone.
        let pal = palette_stretched(PI, 0.0, 1.5);
        assert_eq!(palette_stretched(PI, 0.0, 1.0), palette(PI, 0.0));
        let tip = (RING_COUNT - 1) * SEGMENTS;
        let reach = |v: &[skin::lbs::SkinnedVertex]| v[tip].position.x;
        let scaled = skin::dqs::skin_vertices_dqs_scaled(&pal, &arm.skin, true);
        let plain = skin_vertices_dqs(&pal, &arm.skin, true);
        assert!((reach(&scaled) - 5.0).abs() < 1e-4, "{}", reach(&scaled));
        // Plain DQS drops the scale but keeps the translation column, which was worked
        // out with it (2 − 1.5 · 2 = −1 along x): the tip, 4 along x, lands at 3.
        assert!((reach(&plain) - 3.0).abs() < 1e-4, "{}", reach(&plain));
        // The elbow keeps its area through the twist, as plain DQS does.
        let area = |v: &[skin::lbs::SkinnedVertex]| {
            elbow_area(&v.iter().map(|v| v.position).collect::<Vec<_>>()) / bind_area()
        };
        assert!(area(&scaled) > 0.95, "{}", area(&scaled));
        assert!(area(&skin_vertices(&pal, &arm.skin)) < 0.1);
    }

    #[test]
    fn the_ring_alone_gives_the_same_area() {
        let arm = mesh(Falloff::Linear, DEFAULT_BLEND_WIDTH).unwrap();
        let pal = palette(2.0, 0.4);
        let whole: Vec<Vec3> = skin_vertices(&pal, &arm.skin)
            .iter()
            .map(|v| v.position)
            .collect();
        let ring: Vec<Vec3> = skin_vertices(&pal, &arm.ring_only(elbow_ring()))
            .iter()
            .map(|v| v.position)
            .collect();
        assert_eq!(ring_area(&ring, 0), elbow_area(&whole));
        assert!(arm.ring_only(RING_COUNT).positions.is_empty());
    }

    const TWIST: Arm = Arm { twist_bone: true };

    fn lbs_area(arm: Arm, twist: f32, ring: usize) -> f32 {
        let mesh = arm.mesh(Falloff::Linear, DEFAULT_BLEND_WIDTH).unwrap();
        let skinned = skin_vertices(&arm.palette(twist, 0.0), &mesh.skin);
        let p: Vec<Vec3> = skinned.iter().map(|v| v.position).collect();
        ring_area(&p, ring) / ring_area(&mesh.skin.positions, ring)
    }

    #[test]
    fn the_twist_bone_takes_half_the_twist_and_the_hand_ends_where_it_did() {
        let (twist, bend) = (2.1, 0.6);
        let plain = Arm::PLAIN.world_from_joint(twist, bend);
        let split = TWIST.world_from_joint(twist, bend);
        assert_eq!(split.len(), 3);
        // The elbow is where it was, turned by half the twist.
        assert!(split[1].abs_diff_eq(Arm::PLAIN.world_from_joint(twist / 2.0, bend)[1], 1e-5));
        // Past the twist bone, every point is where the plain forearm puts it.
        let hand = Vec3::new(TWIST_BONE_X + 0.7, 0.3, -0.2);
        let by_plain = plain[1].transform_point3(hand - Vec3::X * BONE_LENGTH);
        let by_split = split[2].transform_point3(hand - Vec3::X * TWIST_BONE_X);
        assert!(
            by_plain.abs_diff_eq(by_split, 1e-5),
            "{by_plain} vs {by_split}"
        );
        for m in TWIST.palette(0.0, 0.0) {
            assert!(m.abs_diff_eq(Mat4::IDENTITY, 1e-6), "{m}");
        }
    }

    #[test]
    fn a_twist_bone_halves_each_blend_so_half_a_turn_keeps_half_the_area_at_each_step() {
        let twist_ring = (TWIST_BONE_X / LENGTH * (RING_COUNT - 1) as f32).round() as usize;
        assert_eq!(ring_x(twist_ring), TWIST_BONE_X);
        // cos²(θ/2) of the area stays where two joints θ apart blend half and half.
        let plain = lbs_area(Arm::PLAIN, PI, elbow_ring());
        let elbow = lbs_area(TWIST, PI, elbow_ring());
        let twist = lbs_area(TWIST, PI, twist_ring);
        assert!(plain < 0.05, "{plain}");
        for area in [elbow, twist] {
            assert!((area - 0.5).abs() < 0.02, "{area}");
        }
    }

    #[test]
    fn the_twist_bone_narrows_the_blend_and_its_weights_still_sum_to_one() {
        assert_eq!(Arm::PLAIN.max_blend_width(), BONE_LENGTH);
        assert_eq!(TWIST.max_blend_width(), TWIST_BONE_X - BONE_LENGTH);
        for width in [0.0, 0.5, DEFAULT_BLEND_WIDTH, BONE_LENGTH, f32::NAN] {
            let mesh = TWIST.mesh(Falloff::Smooth, width).unwrap();
            for inf in &mesh.skin.influences {
                assert!((inf.sum() - 1.0).abs() < 1e-6);
                assert!(inf.used().all(|(j, _)| j < 3));
            }
        }
        assert_eq!(
            TWIST.weights_at(TWIST_BONE_X, Falloff::Linear, DEFAULT_BLEND_WIDTH),
            vec![(1, 0.5), (2, 0.5)]
        );
        // Wider than the gap is clamped: the regions touch but do not overlap.
        assert_eq!(
            TWIST.weights_at(2.5, Falloff::Linear, BONE_LENGTH),
            vec![(1, 1.0)]
        );
    }
}
