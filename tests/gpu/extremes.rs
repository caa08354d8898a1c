//! Numbers that break the math: joints scaled on each axis by up to six powers of ten
//! either way, turned anyhow and moved up to a thousand units, blended by the CPU's
//! skinning loops (the reference LBS loop, dual quaternions, and the fast job on every
//! instruction set this machine has). Nothing they give may be NaN or infinite, and every
//! direction is a unit
//! vector or zero. Weights that cannot be blended never get that far: the boundary
//! refuses them with the reason.

use crate::common;

use common::poses::extreme_joint;
use glam::{Mat4, Vec3};
use proptest::prelude::*;
use skin::dqs::skin_vertices_dqs;
use skin::influences::{InfluenceError, Influences};
use skin::job::{JointWeights, Simd, SkinningJob, Stream};
use skin::lbs::{SkinMesh, skin_vertices};

const JOINTS: usize = 4;

fn unit() -> impl Strategy<Value = Vec3> {
    prop::array::uniform3(-1.0f32..1.0)
        .prop_filter_map("a direction", |v| Vec3::from(v).try_normalize())
}

/// One vertex: a position, a normal, a tangent across it, and up to four weights.
fn vertex() -> impl Strategy<Value = (Vec3, Vec3, Vec3, Influences)> {
    (
        prop::array::uniform3(-10.0f32..10.0),
        unit(),
        unit(),
        prop::collection::vec((0..JOINTS, 0.0f32..1.0), 1..=4),
    )
        .prop_filter_map("weights that blend", |(p, n, t, list)| {
            let tangent = (t - t.dot(n) * n).try_normalize()?;
            let influences = Influences::prepare(&list, JOINTS).ok()?;
            Some((Vec3::from(p), n, tangent, influences))
        })
}

fn case(decades: f32) -> impl Strategy<Value = (Vec<Mat4>, SkinMesh)> {
    (
        prop::collection::vec(extreme_joint(decades), JOINTS),
        prop::collection::vec(vertex(), 1..24),
    )
        .prop_map(|(palette, vertices)| {
            let mut mesh = SkinMesh::default();
            for (p, n, t, influences) in vertices {
                mesh.positions.push(p);
                mesh.normals.push(n);
                mesh.tangents.push(t);
                mesh.influences.push(influences);
            }
            (palette, mesh)
        })
}

/// Finite, and a direction's length 1 or 0.
fn sound(what: &str, position: Vec3, normal: Vec3, tangent: Vec3) -> Result<(), TestCaseError> {
    prop_assert!(position.is_finite(), "{what}: position {position}");
    for (name, d) in [("normal", normal), ("tangent", tangent)] {
        let length = d.length();
        prop_assert!(
            d.is_finite() && (length == 0.0 || (length - 1.0).abs() < 1e-3),
            "{what}: {name} {d} (length {length})"
        );
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn the_reference_loops_stay_sound_from_1e_minus_6_to_1e6((palette, mesh) in case(6.0)) {
        for v in skin_vertices(&palette, &mesh) {
            sound("LBS", v.position, v.normal, v.tangent)?;
        }
        for v in skin_vertices_dqs(&palette, &mesh, true) {
            sound("DQS", v.position, v.normal, v.tangent)?;
        }
    }

    #[test]
    fn the_fast_job_stays_sound_from_1e_minus_6_to_1e6((palette, mesh) in case(6.0)) {
        let influences = JointWeights::from_influences(&mesh.influences).unwrap();
        let n = mesh.positions.len();
        for simd in [Simd::Portable, Simd::detect()] {
            let (mut p, mut nr, mut t) = (vec![Vec3::ZERO; n], vec![Vec3::ZERO; n], vec![Vec3::ZERO; n]);
            let mut job = SkinningJob {
                palette: &palette,
                influences: &influences,
                positions: Stream::new(&mesh.positions, &mut p),
                normals: Some(Stream::new(&mesh.normals, &mut nr)),
                tangents: Some(Stream::new(&mesh.tangents, &mut t)),
            };
            job.run_with(simd, 1).unwrap();
            for i in 0..n {
                sound(simd.name(), p[i], nr[i], t[i])?;
            }
        }
    }
}

#[test]
fn weights_that_cannot_be_blended_are_refused_with_the_reason() {
    for (list, expected) in [
        (vec![(0, f32::NAN)], "must be a finite number"),
        (vec![(0, -0.5), (1, 1.5)], "must be a finite number"),
        (vec![(0, f32::INFINITY)], "must be a finite number"),
        (vec![(0, 0.0), (1, 0.0)], "sum to zero"),
        (vec![(JOINTS, 1.0)], "out of range"),
        (vec![], "at least one influence"),
    ] {
        let refused: InfluenceError = Influences::prepare(&list, JOINTS).unwrap_err();
        assert!(
            refused.to_string().contains(expected),
            "{list:?}: {refused}"
        );
    }
}
