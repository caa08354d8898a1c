//! The shapes page's arm and its two blend shapes: a muscle on the forearm, and a
//! corrective made for one bend of the elbow. Built here, drawn by the skinning shader,
//! and skinned again on the CPU for the readouts and the area plot.

use glam::{Mat3, Vec3};
use rigs::arm::{self, ArmMesh, Falloff};
use skin::dqs::skin_vertices_dqs;
use skin::lbs::{SkinMesh, blended_matrix};
use skin::morph::MorphTarget;
use skin::normals::smooth_normals;

/// The muscle's index among the arm's targets.
pub const MUSCLE: usize = 0;
/// The corrective's index among the arm's targets.
pub const FIX: usize = 1;
/// The targets' names, in index order.
pub const TARGET_NAMES: [&str; 2] = ["muscle", "elbow fix"];

/// Where the muscle peaks along the forearm (on a ring), and how far it reaches either
/// side: past the elbow's blend region, so the corrective and the muscle never share a
/// vertex.
const MUSCLE_AT: f32 = 3.125;
const MUSCLE_REACH: f32 = 0.6;
/// How far the muscle lifts the skin at its peak, world units.
pub const MUSCLE_HEIGHT: f32 = 0.3;

/// The arm in the bind pose: the blending page's, with linear weights over a blend
/// region one unit wide, so the elbow ring is half upper arm, half forearm.
pub fn arm() -> ArmMesh {
    // Falloff weights are valid by construction (tested in `rigs::arm`); an error
    // would show as an empty viewport.
    arm::mesh(Falloff::Linear, arm::DEFAULT_BLEND_WIDTH).unwrap_or_else(|_| ArmMesh {
        skin: SkinMesh::default(),
        triangles: Vec::new(),
    })
}

// ANCHOR: muscle
/// A blend shape sculpted once, in the bind pose: a bulge on top of the forearm
/// (the side a bend turns toward), an offset per vertex straight out of the tube. Its
/// normal offsets are the bulged tube's normals less the plain tube's.
pub fn muscle(arm: &ArmMesh) -> MorphTarget {
    let positions: Vec<Vec3> = arm
        .skin
        .positions
        .iter()
        .map(|p| {
            let out = Vec3::new(0.0, p.y, p.z).normalize_or_zero();
            let along = (p.x - MUSCLE_AT) / MUSCLE_REACH;
            if along.abs() >= 1.0 || out.y <= 0.0 {
                return Vec3::ZERO;
            }
            let lift = (along * std::f32::consts::FRAC_PI_2).cos().powi(2) * out.y.powi(2);
            out * MUSCLE_HEIGHT * lift
        })
        .collect();
    let bulged: Vec<Vec3> = arm
        .skin
        .positions
        .iter()
        .zip(&positions)
        .map(|(p, d)| *p + *d)
        .collect();
    let before = smooth_normals(&arm.skin.positions, &arm.triangles);
    let after = smooth_normals(&bulged, &arm.triangles);
    MorphTarget {
        name: TARGET_NAMES[MUSCLE].to_owned(),
        normals: after.iter().zip(&before).map(|(a, b)| *a - *b).collect(),
        positions,
        tangents: Vec::new(),
    }
}
// ANCHOR_END: muscle

// ANCHOR: corrective
/// A pose-driven corrective made for the elbow bent by `made_at` radians: for each
/// vertex, the bind-space offset that makes linear blending put it where dual
/// quaternions do at that bend. LBS moves a vertex by its blended matrix `M`, so the
/// offset is `M⁻¹ · target − v₀`; a vertex ruled by one bone gets none. The normal
/// offset is the one whose inverse-transpose skinning gives the target's normal.
pub fn corrective(arm: &ArmMesh, made_at: f32) -> MorphTarget {
    let palette = arm::palette(0.0, made_at);
    let target = skin_vertices_dqs(&palette, &arm.skin, true);
    let mut shape = MorphTarget {
        name: TARGET_NAMES[FIX].to_owned(),
        ..MorphTarget::default()
    };
    for (v, goal) in target.iter().enumerate() {
        let m = blended_matrix(&palette, &arm.skin.influences[v]);
        let (p0, n0) = (arm.skin.positions[v], arm.skin.normals[v]);
        let (mut dp, mut dn) = (Vec3::ZERO, Vec3::ZERO);
        // The blend of rotations is singular only at a half turn, past the page's bends.
        if m.determinant().abs() > 1e-6 && arm.skin.influences[v].used().count() > 1 {
            dp = m.inverse().transform_point3(goal.position) - p0;
            dn = (Mat3::from_mat4(m).transpose() * goal.normal).normalize_or_zero() - n0;
        }
        shape.positions.push(dp);
        shape.normals.push(dn);
    }
    shape
}
// ANCHOR_END: corrective

#[cfg(test)]
mod tests {
    use super::*;
    use skin::lbs::skin_vertices;
    use skin::morph::morphed;

    #[test]
    fn at_the_bend_it_was_made_for_the_corrective_puts_lbs_on_dqs() {
        let arm = arm();
        let made_at = 1.6;
        let shapes = [muscle(&arm), corrective(&arm, made_at)];
        let palette = arm::palette(0.0, made_at);
        let fixed = skin_vertices(&palette, &morphed(&arm.skin, &shapes, &[0.0, 1.0]));
        let dqs = skin_vertices_dqs(&palette, &arm.skin, true);
        let lbs = skin_vertices(&palette, &arm.skin);
        // The largest of `d`, infinite if one is not a number.
        let most = |d: &mut dyn Iterator<Item = f32>| {
            d.fold(
                0.0,
                |m: f32, d| if d.is_nan() { f32::INFINITY } else { m.max(d) },
            )
        };
        let worst = |a: &[skin::lbs::SkinnedVertex]| {
            most(
                &mut a
                    .iter()
                    .zip(&dqs)
                    .map(|(a, b)| a.position.distance(b.position)),
            )
        };
        assert!(worst(&fixed) < 1e-4, "{}", worst(&fixed));
        assert!(worst(&lbs) > 0.05, "LBS alone differs: {}", worst(&lbs));
        // The normals land too.
        let turned = most(
            &mut fixed
                .iter()
                .zip(&dqs)
                .map(|(a, b)| a.normal.angle_between(b.normal)),
        );
        assert!(turned < 1e-3, "{turned}");
    }

    #[test]
    fn the_muscle_lifts_only_the_top_of_the_forearm() {
        let arm = arm();
        let m = muscle(&arm);
        for (p, d) in arm.skin.positions.iter().zip(&m.positions) {
            if *d != Vec3::ZERO {
                assert!(p.x > 2.5 && p.x < 3.8 && p.y > 0.0, "{p}");
                assert!(d.length() <= MUSCLE_HEIGHT + 1e-6);
            }
        }
        let peak = (arm::RINGS_PER_BONE * 3 / 2 + 2) * arm::SEGMENTS;
        assert!(
            (m.positions[peak].y - MUSCLE_HEIGHT).abs() < 1e-5,
            "{}",
            m.positions[peak]
        );
        // The bulge's side leans forward on the way up: its normal turns toward −x.
        let climbing = (arm::RINGS_PER_BONE * 3 / 2 - 3) * arm::SEGMENTS;
        assert!(m.normals[climbing].x < -0.05, "{}", m.normals[climbing]);
    }
}
