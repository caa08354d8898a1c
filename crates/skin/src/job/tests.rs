use super::*;
use crate::lbs::{SkinMesh, SkinnedVertex, blended_matrix, skin_vertices_with};
use crate::normals::NormalMethod;
use glam::{Mat3, Quat};
use proptest::prelude::*;

/// Which attributes a job skins.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Attributes {
    P,
    Pn,
    Pnt,
}

const ALL_ATTRIBUTES: [Attributes; 3] = [Attributes::P, Attributes::Pn, Attributes::Pnt];

/// The instruction sets this machine can run (portable always).
fn simds() -> Vec<Simd> {
    avx2_tested();
    [Simd::Portable, Simd::Avx2Fma]
        .into_iter()
        .filter(|s| s.available())
        .collect()
}

/// Whether the AVX2 kernel can be tested here. Where it cannot, the test says so on
/// stderr rather than passing in silence; under `CI=true` on x86-64 it fails, since
/// every machine CI runs on has AVX2 and FMA, unless `SKINLAB_NO_AVX2=1` says this
/// one has not.
fn avx2_tested() -> bool {
    if Simd::Avx2Fma.available() {
        return true;
    }
    eprintln!("the AVX2 kernel is not tested: this CPU lacks AVX2 or FMA");
    let ci = std::env::var("CI").is_ok_and(|v| v == "true");
    let excused = std::env::var("SKINLAB_NO_AVX2").is_ok_and(|v| v == "1");
    assert!(
        !(cfg!(target_arch = "x86_64") && ci && !excused),
        "CI=true on x86-64 expects AVX2 and FMA (set SKINLAB_NO_AVX2=1 on a machine without)"
    );
    false
}

/// Skins `mesh` with the job and returns what it wrote, in the reference's shape.
fn skin_with_job(
    palette: &[Mat4],
    mesh: &SkinMesh,
    attributes: Attributes,
    simd: Simd,
    threads: usize,
) -> Result<Vec<SkinnedVertex>, JobError> {
    let influences = JointWeights::from_influences(&mesh.influences)?;
    let n = mesh.positions.len();
    let (mut p, mut nn, mut t) = (vec![Vec3::NAN; n], vec![Vec3::NAN; n], vec![Vec3::NAN; n]);
    let mut job = SkinningJob {
        palette,
        influences: &influences,
        positions: Stream::new(&mesh.positions, &mut p),
        normals: (attributes != Attributes::P).then(|| Stream::new(&mesh.normals, &mut nn)),
        tangents: (attributes == Attributes::Pnt).then(|| Stream::new(&mesh.tangents, &mut t)),
    };
    job.run_with(simd, threads)?;
    Ok((0..n)
        .map(|i| SkinnedVertex {
            position: p[i],
            normal: if attributes == Attributes::P {
                Vec3::ZERO
            } else {
                nn[i]
            },
            tangent: if attributes == Attributes::Pnt {
                t[i]
            } else {
                Vec3::ZERO
            },
        })
        .collect())
}

/// Whether a blend is far enough from singular for its normal to be well defined to
/// 1e-4: |det| against the product of the column lengths (1 for a rotation, 0 for a
/// flattened matrix).
fn well_conditioned(blended: &Mat4) -> bool {
    let m = Mat3::from_mat4(*blended);
    let volume = m.x_axis.length() * m.y_axis.length() * m.z_axis.length();
    m.determinant().abs() > 0.05 * volume
}

/// Compares the job with the reference vertex by vertex; ill-conditioned blends are
/// compared by position only.
fn assert_matches_reference(
    palette: &[Mat4],
    mesh: &SkinMesh,
    attributes: Attributes,
    simd: Simd,
) -> Result<(), TestCaseError> {
    let reference = skin_vertices_with(palette, mesh, NormalMethod::InverseTranspose);
    let fast = skin_with_job(palette, mesh, attributes, simd, 1)
        .map_err(|e| TestCaseError::fail(e.to_string()))?;
    prop_assert_eq!(fast.len(), reference.len());
    for (i, (f, r)) in fast.iter().zip(&reference).enumerate() {
        let tolerance = 1e-5 * r.position.length().max(1.0);
        prop_assert!(
            f.position.abs_diff_eq(r.position, tolerance),
            "{simd:?} {attributes:?} vertex {i}: position {} against {}",
            f.position,
            r.position
        );
        if attributes == Attributes::P
            || !well_conditioned(&blended_matrix(palette, &mesh.influences[i]))
        {
            continue;
        }
        prop_assert!(
            f.normal.abs_diff_eq(r.normal, 1e-4),
            "{simd:?} {attributes:?} vertex {i}: normal {} against {}",
            f.normal,
            r.normal
        );
        if attributes == Attributes::Pnt {
            prop_assert!(
                f.tangent.abs_diff_eq(r.tangent, 1e-4),
                "{simd:?} {attributes:?} vertex {i}: tangent {} against {}",
                f.tangent,
                r.tangent
            );
        }
    }
    Ok(())
}

/// A palette matrix: rotation, translation and a scale that differs per axis, mirrored
/// (one negative axis) when `mirror`.
fn arb_joint() -> impl Strategy<Value = Mat4> {
    (
        prop::array::uniform3(-3.2f32..3.2),
        prop::array::uniform3(-3.0f32..3.0),
        prop::array::uniform3(0.4f32..2.5),
        prop::bool::weighted(0.2),
    )
        .prop_map(|(r, t, s, mirror)| {
            let scale = Vec3::from(s)
                * if mirror {
                    Vec3::new(-1.0, 1.0, 1.0)
                } else {
                    Vec3::ONE
                };
            Mat4::from_scale_rotation_translation(
                scale,
                Quat::from_euler(glam::EulerRot::XYZ, r[0], r[1], r[2]),
                Vec3::from(t),
            )
        })
}

fn arb_unit() -> impl Strategy<Value = Vec3> {
    prop::array::uniform3(-1.0f32..1.0)
        .prop_filter("not too short to normalise", |v| {
            Vec3::from(*v).length() > 0.1
        })
        .prop_map(|v| Vec3::from(v).normalize())
}

/// A mesh of `0..max` vertices, each with up to five influences among `joints` joints, a
/// unit normal and a unit tangent. The tangent leans towards or away from the normal by
/// up to 40° (a file's tangents are not always perpendicular to its normals): the job
/// must make the skinned one perpendicular, as the reference does.
fn arb_mesh(joints: usize, max: usize) -> impl Strategy<Value = SkinMesh> {
    prop::collection::vec(
        (
            prop::array::uniform3(-2.0f32..2.0),
            arb_unit(),
            (0.0f32..std::f32::consts::TAU, -0.7f32..0.7),
            prop::collection::vec((0..joints, 0.05f32..1.0), 1..6),
        ),
        0..max,
    )
    .prop_map(move |vertices| {
        let mut mesh = SkinMesh::default();
        for (p, n, (angle, lean), list) in vertices {
            let (u, v) = n.any_orthonormal_pair();
            mesh.positions.push(Vec3::from(p));
            mesh.normals.push(n);
            mesh.tangents
                .push((u * angle.cos() + v * angle.sin() + n * lean.tan()).normalize());
            // Joints are in range and weights positive, so preparation succeeds.
            mesh.influences
                .push(Influences::prepare(&list, joints).unwrap_or(Influences::rigid(0)));
        }
        mesh
    })
}

fn arb_case() -> impl Strategy<Value = (Vec<Mat4>, SkinMesh)> {
    (1usize..7).prop_flat_map(|joints| {
        (
            prop::collection::vec(arb_joint(), joints),
            arb_mesh(joints, 40),
        )
    })
}

proptest! {
    #[test]
    fn the_job_matches_the_reference((palette, mesh) in arb_case()) {
        for simd in simds() {
            for attributes in ALL_ATTRIBUTES {
                assert_matches_reference(&palette, &mesh, attributes, simd)?;
            }
        }
    }

    #[test]
    fn the_cofactor_normal_is_the_inverse_transpose_normal(
        m in arb_joint(),
        n in arb_unit(),
    ) {
        let reference = crate::normals::skin_normal(&m, n);
        prop_assert!(cofactor_normal(&m, n).abs_diff_eq(reference, 1e-5));
    }
}

/// A mesh of `n` vertices around a unit sphere (normal = position), with tangents along
/// the lines of latitude, bound to joints 0 and 1 with varied weights.
fn sphere(n: usize) -> SkinMesh {
    let mut mesh = SkinMesh::default();
    for i in 0..n {
        let a = i as f32 * 2.399_963; // the golden angle spreads the points evenly
        let z = 1.0 - 2.0 * (i as f32 + 0.5) / n as f32;
        let r = (1.0 - z * z).sqrt();
        let p = Vec3::new(r * a.cos(), r * a.sin(), z);
        mesh.positions.push(p);
        mesh.normals.push(p);
        mesh.tangents.push(Vec3::new(-a.sin(), a.cos(), 0.0));
        let w = (i % 5) as f32 / 4.0;
        mesh.influences.push(
            Influences::prepare(&[(0, 1.0 - w + 0.01), (1, w + 0.01)], 2)
                .unwrap_or(Influences::rigid(0)),
        );
    }
    mesh
}

#[test]
fn non_uniform_scale_the_cofactor_normal_is_right_where_the_naive_one_is_not() {
    // Both joints squash and stretch along different axes: an ellipsoid.
    let palette = [
        Mat4::from_scale(Vec3::new(1.0, 3.0, 0.5)),
        Mat4::from_scale_rotation_translation(
            Vec3::new(2.0, 0.5, 1.0),
            Quat::from_rotation_z(0.3),
            Vec3::X,
        ),
    ];
    let mesh = sphere(50);
    for simd in simds() {
        let fast = skin_with_job(&palette, &mesh, Attributes::Pnt, simd, 1).expect("valid job");
        let reference = skin_vertices_with(&palette, &mesh, NormalMethod::InverseTranspose);
        let mut naive_wrong = 0;
        for (i, (f, r)) in fast.iter().zip(&reference).enumerate() {
            assert!(f.normal.abs_diff_eq(r.normal, 1e-5), "{simd:?} {i}");
            assert!(f.tangent.abs_diff_eq(r.tangent, 1e-5), "{simd:?} {i}");
            // Perpendicular to the surface: to the carried tangent.
            let blended = blended_matrix(&palette, &mesh.influences[i]);
            let carried = blended.transform_vector3(mesh.tangents[i]).normalize();
            assert!(f.normal.dot(carried).abs() < 1e-5, "{simd:?} {i}");
            let naive = blended.transform_vector3(mesh.normals[i]).normalize();
            if naive.dot(carried).abs() > 0.05 {
                naive_wrong += 1;
            }
        }
        assert!(naive_wrong > 10, "the scale must matter: {naive_wrong}");
    }
}

#[test]
fn a_mirrored_joint_keeps_normals_pointing_out() {
    // Joint 0 mirrors x; joint 1 mirrors x and rotates. Every blend has det < 0.
    let palette = [
        Mat4::from_scale(Vec3::new(-1.0, 1.0, 1.0)),
        Mat4::from_scale(Vec3::new(-1.0, 1.0, 1.0)) * Mat4::from_rotation_z(0.4),
    ];
    let mesh = sphere(40);
    for simd in simds() {
        for attributes in [Attributes::Pn, Attributes::Pnt] {
            let fast = skin_with_job(&palette, &mesh, attributes, simd, 1).expect("valid job");
            let reference = skin_vertices_with(&palette, &mesh, NormalMethod::InverseTranspose);
            for (i, (f, r)) in fast.iter().zip(&reference).enumerate() {
                let blended = blended_matrix(&palette, &mesh.influences[i]);
                assert!(Mat3::from_mat4(blended).determinant() < 0.0);
                assert!(f.normal.abs_diff_eq(r.normal, 1e-5), "{simd:?} {i}");
                // The sphere stays a sphere around the origin: out is along the position.
                let out = f.position.normalize();
                assert!(f.normal.dot(out) > 0.9, "{simd:?} {i}: {}", f.normal);
            }
        }
    }
}

#[test]
fn a_flattened_blend_has_no_normal_and_keeps_its_tangent() {
    // The joint squashes y and z to nothing: a matrix of rank one, whose cofactor (and
    // inverse transpose) is zero. The tangent still has a direction, along x.
    let palette = [Mat4::from_scale(Vec3::new(2.0, 0.0, 0.0))];
    let mut mesh = SkinMesh::default();
    mesh.positions.push(Vec3::new(0.5, 1.0, 0.0));
    mesh.normals.push(Vec3::Z);
    mesh.tangents.push(Vec3::new(1.0, 1.0, 0.0).normalize());
    mesh.influences.push(Influences::rigid(0));
    let reference = skin_vertices_with(&palette, &mesh, NormalMethod::InverseTranspose);
    assert_eq!(reference[0].normal, Vec3::ZERO);
    assert!(reference[0].tangent.abs_diff_eq(Vec3::X, 1e-6));
    for simd in simds() {
        let fast = skin_with_job(&palette, &mesh, Attributes::Pnt, simd, 1).expect("valid job");
        assert_eq!(fast[0].position, Vec3::new(1.0, 0.0, 0.0), "{simd:?}");
        assert_eq!(fast[0].normal, Vec3::ZERO, "{simd:?}");
        assert!(
            fast[0].tangent.abs_diff_eq(Vec3::X, 1e-5),
            "{simd:?}: {}",
            fast[0].tangent
        );
    }
}

/// A strip of `n` vertices along x, each weighted over up to four of 40 joints, and a
/// palette that bends and twists it (skin keeps no lesson rig, so the test makes its own).
fn strip(n: usize) -> (SkinMesh, Vec<Mat4>) {
    strip_of(n, 40)
}

/// A strip of `n` vertices along `joints` joints, four influences each.
fn strip_of(n: usize, joints: usize) -> (SkinMesh, Vec<Mat4>) {
    let mut mesh = SkinMesh::default();
    for i in 0..n {
        let x = i as f32 / n as f32 * joints as f32;
        let a = i as f32 * 0.7;
        mesh.positions.push(Vec3::new(x, a.sin(), a.cos()));
        mesh.normals.push(Vec3::new(0.0, a.sin(), a.cos()));
        mesh.tangents.push(Vec3::X);
        let j = (x as usize).min(joints - 1);
        let list: Vec<(usize, f32)> = (0..4)
            .map(|k| ((j + k).min(joints - 1), 1.0 + (i % (k + 2)) as f32))
            .collect();
        mesh.influences
            .push(Influences::prepare(&list, joints).unwrap_or(Influences::rigid(0)));
    }
    let palette = (0..joints)
        .map(|j| {
            let t = j as f32 / joints as f32;
            Mat4::from_scale_rotation_translation(
                Vec3::new(1.0, 1.0 + t, 1.0),
                Quat::from_rotation_z(2.5 * t) * Quat::from_rotation_x(t),
                Vec3::new(0.0, t, -t),
            )
        })
        .collect();
    (mesh, palette)
}

#[test]
fn the_threaded_job_equals_the_single_threaded_one() {
    let (mut mesh, palette) = strip(3 * parallel::MIN_ITEMS_PER_THREAD + 1000);
    // An odd count, so the last chunk has a padded tail.
    let n = mesh.positions.len() - 3;
    mesh.positions.truncate(n);
    mesh.normals.truncate(n);
    mesh.tangents.truncate(n);
    mesh.influences.truncate(n);
    assert_ne!(n % BLOCK, 0);
    for simd in simds() {
        for attributes in ALL_ATTRIBUTES {
            let one = skin_with_job(&palette, &mesh, attributes, simd, 1).expect("valid job");
            for threads in [2, 3, 0] {
                assert!(threads == 0 || thread_count(threads, n) == threads);
                let many =
                    skin_with_job(&palette, &mesh, attributes, simd, threads).expect("valid job");
                assert!(
                    one == many,
                    "{simd:?} {attributes:?} with {threads} threads"
                );
            }
        }
    }
}

/// Skins `mesh` (all three attributes) into the given outputs with AVX2 on one thread,
/// and says whether the outputs were aligned for streaming stores.
#[cfg(target_arch = "x86_64")]
fn skin_into(palette: &[Mat4], mesh: &SkinMesh, out: [&mut [Vec3]; 3]) -> bool {
    let influences = JointWeights::from_influences(&mesh.influences).expect("valid");
    let [p, n, t] = out;
    let streamed = avx2::stream_start(&Parts {
        large: true,
        palette,
        joints: influences.joints(),
        weights: influences.weights(),
        positions: &mesh.positions,
        normals: &mesh.normals,
        tangents: &mesh.tangents,
        out_positions: &mut *p,
        out_normals: &mut *n,
        out_tangents: &mut *t,
    })
    .is_some();
    let mut job = SkinningJob {
        palette,
        influences: &influences,
        positions: Stream::new(&mesh.positions, p),
        normals: Some(Stream::new(&mesh.normals, n)),
        tangents: Some(Stream::new(&mesh.tangents, t)),
    };
    job.run_with(Simd::Avx2Fma, 1).expect("valid job");
    streamed
}

#[cfg(target_arch = "x86_64")]
#[test]
fn streaming_stores_write_what_plain_stores_write() {
    if !avx2_tested() {
        return;
    }
    // Enough vertices for the job to stream its output.
    let (mesh, palette) = strip(STREAM_TRAFFIC / 96 + 5000);
    let mesh = &mesh;
    let n = mesh.positions.len();
    // Each output starts some vertices into its buffer: 12-byte steps reach every 4-byte
    // phase of a 32-byte line, so one start per buffer aligns it, whatever address the
    // allocator gave. Every start of every buffer is tried, with the others aligned, and
    // all three aligned: the streamed and the plain stores must write the same.
    let mut buffers = [0, 1, 2].map(|_| vec![Vec3::ZERO; n + BLOCK]);
    let aligned = buffers.each_ref().map(|b| {
        (0..BLOCK)
            .find(|k| (b.as_ptr() as usize + 12 * k).is_multiple_of(32))
            .expect("a 4-byte aligned buffer has a 32-byte aligned vertex in 8")
    });
    let mut tries = vec![aligned];
    for which in 0..3 {
        for k in 0..BLOCK {
            let mut starts = aligned;
            starts[which] = k;
            tries.push(starts);
        }
    }
    let mut streamed = vec![];
    let mut first: Option<Vec<Vec<Vec3>>> = None;
    for starts in tries {
        let [p, nn, t] = &mut buffers;
        let out = [
            &mut p[starts[0]..],
            &mut nn[starts[1]..],
            &mut t[starts[2]..],
        ]
        .map(|s| &mut s[..n]);
        let [p, nn, t] = out;
        streamed.push(skin_into(&palette, mesh, [&mut *p, &mut *nn, &mut *t]));
        let result = vec![p.to_vec(), nn.to_vec(), t.to_vec()];
        match &first {
            None => first = Some(result),
            Some(first) => assert!(first == &result, "starts {starts:?}"),
        }
    }
    assert!(streamed.contains(&true), "no start aligned every output");
    assert!(
        streamed.contains(&false),
        "every start aligned every output"
    );
}

/// The palette at each 16-byte step of a cache line (the four places a `Mat4` may
/// start), short enough for the AVX2 kernel to copy it to a boundary and too long for
/// that: every place gives the same result, and the reference's, down to the last joint.
#[test]
fn a_palette_anywhere_in_memory_skins_the_same() {
    for joints in [40, 300] {
        let (mesh, palette) = strip_of(2 * joints + 5, joints);
        let last = mesh.influences.iter().flat_map(|i| i.joints).max();
        assert_eq!(
            last,
            Some(joints as u32 - 1),
            "the strip reaches the last joint"
        );
        let mut memory = vec![Vec4::ZERO; 4 * (joints + 1)];
        let mut first: Option<Vec<SkinnedVertex>> = None;
        for phase in 0..4 {
            let start = (0..4)
                .find(|&k| (memory[k..].as_ptr() as usize) % 64 == 16 * phase)
                .expect("a 16-byte aligned buffer reaches every phase in four steps");
            let here: &mut [Mat4] = bytemuck::cast_slice_mut(&mut memory[start..][..4 * joints]);
            here.copy_from_slice(&palette);
            let here: &[Mat4] = here;
            for simd in simds() {
                assert_matches_reference(here, &mesh, Attributes::Pnt, simd)
                    .unwrap_or_else(|e| panic!("{joints} joints, phase {phase}: {e}"));
                let result =
                    skin_with_job(here, &mesh, Attributes::Pnt, simd, 1).expect("valid job");
                match (&first, simd) {
                    (None, Simd::Avx2Fma) => first = Some(result),
                    (Some(first), Simd::Avx2Fma) => {
                        assert!(first == &result, "{joints} joints, phase {phase}");
                    }
                    _ => {}
                }
            }
        }
    }
}

#[test]
fn every_vertex_count_around_a_block_is_skinned() {
    let palette = [
        Mat4::from_rotation_y(0.7),
        Mat4::from_translation(Vec3::ONE),
    ];
    for n in 0..3 * BLOCK + 1 {
        let mesh = sphere(n);
        let reference = skin_vertices_with(&palette, &mesh, NormalMethod::InverseTranspose);
        for simd in simds() {
            let fast = skin_with_job(&palette, &mesh, Attributes::Pnt, simd, 1).expect("valid");
            for (f, r) in fast.iter().zip(&reference) {
                assert!(f.position.abs_diff_eq(r.position, 1e-5), "{simd:?} n = {n}");
                assert!(f.normal.abs_diff_eq(r.normal, 1e-5), "{simd:?} n = {n}");
                assert!(f.tangent.abs_diff_eq(r.tangent, 1e-5), "{simd:?} n = {n}");
            }
        }
    }
}

#[test]
fn a_joint_past_the_palette_is_refused_by_name() {
    let weights = JointWeights::new(vec![[0, 1, 1, 1], [2, 7, 0, 0]], vec![[0.5; 4]; 2])
        .expect("finite weights");
    assert_eq!(weights.joints_needed(), 8);
    let positions = [Vec3::ZERO; 2];
    let mut out = [Vec3::ZERO; 2];
    let palette = [Mat4::IDENTITY; 3];
    let mut job = SkinningJob {
        palette: &palette,
        influences: &weights,
        positions: Stream::new(&positions, &mut out),
        normals: None,
        tangents: None,
    };
    let err = job.run().expect_err("joint 7 is past a palette of 3");
    assert_eq!(
        err,
        JobError::JointOutOfRange {
            vertex: 1,
            joint: 7,
            palette: 3
        }
    );
    assert_eq!(
        err.to_string(),
        "vertex 1 names joint 7, but the palette has 3 matrices (joints 0 to 2)"
    );
    // Nothing was written.
    assert_eq!(job.positions.output, &[Vec3::ZERO; 2]);
    let palette = [Mat4::IDENTITY; 8];
    job.palette = &palette;
    assert_eq!(job.run(), Ok(()));
}

#[test]
fn mismatched_lengths_are_refused_by_name() {
    let weights =
        JointWeights::new(vec![[0; 4]; 3], vec![[1.0, 0.0, 0.0, 0.0]; 3]).expect("finite weights");
    let palette = [Mat4::IDENTITY];
    let three = [Vec3::X; 3];
    let two = [Vec3::X; 2];
    let (mut p, mut n, mut t) = ([Vec3::ZERO; 3], [Vec3::ZERO; 3], [Vec3::ZERO; 3]);
    let mut short = [Vec3::ZERO; 2];
    let message = |job: SkinningJob<'_>| job.validate().map_err(|e| e.to_string());

    let job = SkinningJob {
        palette: &palette,
        influences: &weights,
        positions: Stream::new(&two, &mut p),
        normals: None,
        tangents: None,
    };
    assert_eq!(
        message(job),
        Err(
            "bind positions: 2 entries, but there are 3 vertices (one joint index array each)"
                .into()
        )
    );
    let job = SkinningJob {
        palette: &palette,
        influences: &weights,
        positions: Stream::new(&three, &mut p),
        normals: Some(Stream::new(&three, &mut short)),
        tangents: None,
    };
    assert_eq!(
        message(job),
        Err(
            "skinned normals: 2 entries, but there are 3 vertices (one joint index array each)"
                .into()
        )
    );
    let job = SkinningJob {
        palette: &palette,
        influences: &weights,
        positions: Stream::new(&three, &mut p),
        normals: None,
        tangents: Some(Stream::new(&three, &mut t)),
    };
    assert_eq!(message(job), Err(JobError::TangentsNeedNormals.to_string()));
    let job = SkinningJob {
        palette: &palette,
        influences: &weights,
        positions: Stream::new(&three, &mut p),
        normals: Some(Stream::new(&three, &mut n)),
        tangents: Some(Stream::new(&three, &mut t)),
    };
    assert_eq!(message(job), Ok(()));

    assert_eq!(
        JointWeights::new(vec![[0; 4]; 3], vec![[1.0, 0.0, 0.0, 0.0]; 2]),
        Err(JobError::LengthMismatch {
            what: "weights",
            len: 2,
            vertices: 3
        })
    );
}

#[test]
fn bad_weights_and_wide_indices_are_refused() {
    let err = JointWeights::new(
        vec![[0; 4]; 2],
        vec![[1.0, 0.0, 0.0, 0.0], [0.5, f32::NAN, 0.0, 0.0]],
    )
    .expect_err("NaN is refused");
    assert_eq!(
        err.to_string(),
        "vertex 1: weight 1 is NaN, not a finite number"
    );
    assert!(matches!(
        JointWeights::new(vec![[0; 4]], vec![[f32::INFINITY, 0.0, 0.0, 0.0]]),
        Err(JobError::BadWeight {
            vertex: 0,
            slot: 0,
            ..
        })
    ));
    let wide = Influences {
        joints: [3, 70_000, 0, 0],
        weights: [0.5, 0.5, 0.0, 0.0],
    };
    let err = JointWeights::from_influences(&[Influences::rigid(0), wide])
        .expect_err("70000 does not fit 16 bits");
    assert_eq!(
        err,
        JobError::JointTooLarge {
            vertex: 1,
            joint: 70_000
        }
    );
    assert!(err.to_string().contains("at most 65535"));
}

#[test]
fn unavailable_instructions_are_refused_not_faked() {
    let weights = JointWeights::default();
    let mut job = SkinningJob {
        palette: &[],
        influences: &weights,
        positions: Stream::new(&[], &mut []),
        normals: None,
        tangents: None,
    };
    for simd in [Simd::Portable, Simd::Avx2Fma] {
        let result = job.run_with(simd, 1);
        if simd.available() {
            assert_eq!(result, Ok(()));
        } else {
            assert_eq!(result, Err(JobError::SimdUnavailable(simd)));
        }
    }
}
