//! GPU = CPU: the skinning shaders in `shaders/`, run on a headless context and read
//! back with transform feedback, match `skin::lbs`, `skin::dqs` and `skin::cor` within
//! 1e-5.

use crate::common;

use common::{Api, headless};
use egui_kittest::Harness;
use gl::{
    SceneRenderer, SkinnedMeshGpu, Switches, capture_skinned, capture_skinned_as,
    capture_skinned_range,
};
use glam::{EulerRot, Mat4, Quat, Vec3, Vec4};
use proptest::prelude::*;
use proptest::strategy::ValueTree;
use proptest::test_runner::{Config, TestRunner};
use rigs::arm;
use scene::{JointIndices, MeshData, Palette, Primitive, SkinnedDraw};
use skin::dqs::{DualQuat, dual_quat_palette};
use skin::lbs::{
    PositionW, SkinMesh, SkinnedVertex, inverse_bind, palette, skin_vertices, skin_vertices_with,
};
use skin::morph::MorphTarget;
use skin::normals::{NormalMethod, angle_degrees};
use skin::{Blend, Influences, Skeleton};
use skinlab::SkinlabApp;
use skinlab::pages::grid::data as grid;
use skinlab::pages::normals::data as limb;
use skinlab::ui::viewport::MeshBounds;
use std::sync::OnceLock;

const TOLERANCE: f32 = 1e-5;

const DQS_NORMAL_TOLERANCE: f32 = 1e-4;

/// Both checks: with the antipodal check, and without it.
const DQS_BOTH: [Blend; 2] = [
    Blend::DualQuaternion {
        antipodal_check: true,
    },
    Blend::DualQuaternion {
        antipodal_check: false,
    },
];

/// The app's switches, with the program that reads joint indices as `indices`.
fn reading(indices: JointIndices) -> Switches {
    Switches {
        indices,
        ..Default::default()
    }
}

/// Runs the shader of `blend` over `mesh` and reads back (position, normal) per vertex.
fn gpu_skin(
    h: &common::Headless,
    renderer: &SceneRenderer,
    mesh: &SkinMesh,
    pal: &[Mat4],
    blend: Blend,
) -> Vec<(Vec3, Vec3)> {
    let data = MeshData::new(mesh.clone(), Vec::new(), Primitive::Lines);
    // Lines have no triangles to find centres from: each vertex turns about itself.
    let data = if blend == Blend::Centres {
        data.centred()
    } else {
        data
    };
    let gpu = SkinnedMeshGpu::upload(&h.gl, &data).expect("upload");
    let palette = Palette::new(pal.to_vec(), blend);
    let captured = capture_skinned(&h.gl, renderer, &gpu, &palette).expect("capture");
    gpu.destroy(&h.gl);
    captured
}

/// Skins `mesh` on both sides and returns the largest difference (relative to the size
/// of the position, absolute for unit normals).
fn max_difference(
    h: &common::Headless,
    renderer: &SceneRenderer,
    mesh: SkinMesh,
    pal: &[Mat4],
    blend: Blend,
) -> (f32, f32) {
    let captured = gpu_skin(h, renderer, &mesh, pal, blend);
    worst_difference(&captured, &blend.skin_vertices(pal, &mesh, &[]), |_| true)
}

/// The largest difference between what the shader wrote and what the CPU computed, over
/// the vertices `compared` keeps: positions relative to their size, normals (unit or
/// zero) absolute.
fn worst_difference(
    captured: &[(Vec3, Vec3)],
    cpu: &[SkinnedVertex],
    compared: impl Fn(usize) -> bool,
) -> (f32, f32) {
    assert_eq!(captured.len(), cpu.len(), "one captured vertex per vertex");
    let mut worst = (0.0f32, 0.0f32);
    for (i, ((gp, gn), c)) in captured.iter().zip(cpu).enumerate() {
        if !compared(i) {
            continue;
        }
        let dp = (*gp - c.position).abs().max_element() / c.position.abs().max_element().max(1.0);
        let dn = (*gn - c.normal).abs().max_element();
        worst = (worst.0.max(dp), worst.1.max(dn));
    }
    worst
}

/// Random local transforms with a uniform scale.
fn arb_local() -> impl Strategy<Value = Mat4> + Clone {
    (
        prop::array::uniform3(-1.0f32..1.0),
        prop::array::uniform3(-2.0f32..2.0),
        0.6f32..1.6,
    )
        .prop_map(|(r, t, s)| {
            Mat4::from_scale_rotation_translation(
                Vec3::splat(s),
                Quat::from_euler(EulerRot::XYZ, r[0], r[1], r[2]),
                Vec3::from(t),
            )
        })
}

/// A random tree of `joints` joints posed by `local`, and `vertices` random vertices.
fn arb_case(
    joints: usize,
    vertices: usize,
    local: impl Strategy<Value = Mat4> + Clone,
) -> impl Strategy<Value = (Vec<Mat4>, SkinMesh)> {
    let vertex = (
        prop::array::uniform3(-4.0f32..4.0),
        prop::array::uniform3(-1.0f32..1.0),
        prop::collection::vec((0..joints, 0.05f32..1.0), 1..7),
    );
    (
        prop::collection::vec(local, joints),
        prop::collection::vec(vertex, vertices),
    )
        .prop_map(move |(pose, verts)| {
            let skeleton = Skeleton::new(
                (0..joints)
                    .map(|j| j.checked_sub(1).map(|p| p / 2))
                    .collect(),
            )
            .expect("tree");
            let world = skeleton.world_from_joint(&pose);
            let mut mesh = SkinMesh::default();
            for (p, n, list) in verts {
                mesh.positions.push(Vec3::from(p));
                mesh.normals
                    .push(Vec3::from(n).try_normalize().unwrap_or(Vec3::Y));
                mesh.influences
                    .push(Influences::prepare(&list, joints).expect("valid"));
            }
            (world, mesh)
        })
}

fn check_api(api: Api) {
    let Some(h) = headless(api) else { return };
    let renderer = SceneRenderer::new(&h.gl)
        .unwrap_or_else(|log| panic!("shaders must build on {api:?}:\n{log}"));

    // The grid of the lesson, at several angles.
    let skeleton = grid::skeleton();
    let bind = skeleton.world_from_joint(&grid::parent_from_joint([0.0; 3]));
    let inv = inverse_bind(&bind).expect("bind pose invertible");
    for angle in [0.0, 0.3, 0.8, -1.2, 3.0] {
        let pal = palette(
            &skeleton.world_from_joint(&grid::parent_from_joint([angle; 3])),
            &inv,
        );
        let (dp, _) = max_difference(
            &h,
            &renderer,
            grid::mesh().expect("grid"),
            &pal,
            Blend::Linear,
        );
        assert!(
            dp <= TOLERANCE,
            "{api:?} grid at angle {angle}: GPU differs from CPU by {dp}"
        );
    }

    // Random skeletons, poses, weights and normals.
    let mut runner = TestRunner::new(Config {
        cases: 48,
        ..Config::default()
    });
    runner
        .run(&arb_case(12, 64, arb_local()), |(world, mesh)| {
            let (dp, dn) = max_difference(&h, &renderer, mesh, &world, Blend::Linear);
            prop_assert!(dp <= TOLERANCE, "{:?}: positions differ by {}", api, dp);
            prop_assert!(
                dn <= TOLERANCE * 10.0,
                "{:?}: normals differ by {}",
                api,
                dn
            );
            Ok(())
        })
        .unwrap();
    renderer.destroy(&h.gl);
}

on_both_apis!(check_api: skinning_shader_matches_cpu_on_gl_core_330, skinning_shader_matches_cpu_on_gles_300);

#[test]
fn a_broken_shader_reports_the_driver_log() {
    let Some(h) = headless(Api::GlCore33) else {
        return;
    };
    let broken = gl::ShaderSource {
        path: "broken.vert",
        text: "void main() { gl_Position = undefined_thing; }",
    };
    let err = gl::link_program(&h.gl, &[broken], &[gl::shaders::SKIN_FRAG], &[], &[]).unwrap_err();
    assert!(
        err.contains("broken.vert") && err.contains("undefined_thing"),
        "{err}"
    );
}

#[test]
fn a_log_names_the_file_and_line_of_a_joined_shader() {
    let Some(h) = headless(Api::GlCore33) else {
        return;
    };
    use gl::{ShaderSource, link_program, shaders};
    let broken_main = ShaderSource {
        path: "broken.vert",
        text: "// line 1\n// line 2\nvoid main() { gl_Position = undefined_thing; }",
    };
    let err = link_program(
        &h.gl,
        &[
            shaders::QUAT,
            shaders::STRETCH,
            shaders::BLEND_DQS,
            broken_main,
        ],
        &[shaders::SKIN_FRAG],
        &[],
        &[],
    )
    .unwrap_err();
    assert!(
        err.starts_with(
            "broken.vert failed to compile (after shaders/quat.glsl + shaders/stretch.glsl + shaders/blend_dqs.glsl)"
        ),
        "{err}"
    );
    // Line 3 of the second file: the driver counts lines from the top of that file
    // (without the `#line`, the error would sit some 50 lines further down).
    assert!(err.contains(":3"), "{err}");
    assert!(err.contains("undefined_thing"), "{err}");

    let broken_blend = ShaderSource {
        path: "broken_blend.glsl",
        text: "mat4 skin_matrix(vec4 joints, vec4 weights) {\n    return nothing_here;\n}",
    };
    let err = link_program(
        &h.gl,
        &[broken_blend, shaders::SKIN_VERT],
        &[shaders::SKIN_FRAG],
        &[],
        &[],
    )
    .unwrap_err();
    assert!(
        err.starts_with("broken_blend.glsl failed to compile:"),
        "{err}"
    );
    assert!(err.contains(":2") && err.contains("nothing_here"), "{err}");
}

/// Random rigid local transforms (no scale): Euler angles up to half a turn either way,
/// so rotations land far apart and some quaternions point away from others.
fn arb_rigid_local() -> impl Strategy<Value = Mat4> + Clone {
    (
        prop::array::uniform3(-std::f32::consts::PI..std::f32::consts::PI),
        prop::array::uniform3(-2.0f32..2.0),
    )
        .prop_map(|(r, t)| {
            Mat4::from_rotation_translation(
                Quat::from_euler(EulerRot::XYZ, r[0], r[1], r[2]),
                Vec3::from(t),
            )
        })
}

/// The vertices of `mesh` whose rotations, added without the antipodal check, do not
/// nearly cancel. Where they do, the blend divides by a tiny length and magnifies f32
/// rounding without bound: such a vertex says nothing about the shader.
fn without_cancelling(mesh: &SkinMesh, pal: &[Mat4]) -> SkinMesh {
    let dq = dual_quat_palette(pal);
    let mut kept = SkinMesh::default();
    for (i, inf) in mesh.influences.iter().enumerate() {
        if !cancels(&dq, inf) {
            kept.positions.push(mesh.positions[i]);
            kept.normals.push(mesh.normals[i]);
            kept.influences.push(*inf);
        }
    }
    kept
}

/// Whether the rotations of `influences`, added without the antipodal check, nearly
/// cancel (see [`without_cancelling`]).
fn cancels(dq: &[DualQuat], influences: &Influences) -> bool {
    let sum: Vec4 = influences
        .joints
        .iter()
        .zip(influences.weights)
        .map(|(j, w)| {
            dq.get(*j as usize)
                .map_or(Vec4::ZERO, |d| Vec4::from(d.real) * w)
        })
        .sum();
    sum.length() < 0.2
}

/// A proptest case's check that the shader and the CPU agree within the tolerances of
/// the rotation blends: positions within [`TOLERANCE`], normals within
/// [`DQS_NORMAL_TOLERANCE`].
fn dqs_close(
    api: Api,
    what: impl std::fmt::Debug,
    (dp, dn): (f32, f32),
) -> Result<(), proptest::test_runner::TestCaseError> {
    prop_assert!(
        dp <= TOLERANCE,
        "{:?} {:?}: positions differ by {}",
        api,
        what,
        dp
    );
    prop_assert!(
        dn <= DQS_NORMAL_TOLERANCE,
        "{:?} {:?}: normals differ by {}",
        api,
        what,
        dn
    );
    Ok(())
}

/// Random rigid skeletons and vertices, with the antipodal check and without it.
fn check_dqs_random(h: &common::Headless, renderer: &SceneRenderer, api: Api) {
    let mut runner = TestRunner::new(Config {
        cases: 48,
        ..Config::default()
    });
    // `run` takes a `Fn`, so the running maximum and the count live in Cells.
    let worst = std::cell::Cell::new([(0.0f32, 0.0f32); 2]);
    let compared = std::cell::Cell::new([0usize; 2]);
    runner
        .run(&arb_case(12, 64, arb_rigid_local()), |(world, mesh)| {
            for (k, blend) in DQS_BOTH.into_iter().enumerate() {
                let mesh = if blend == DQS_BOTH[1] {
                    without_cancelling(&mesh, &world)
                } else {
                    mesh.clone()
                };
                let mut n = compared.get();
                n[k] += mesh.positions.len();
                compared.set(n);
                let (dp, dn) = max_difference(h, renderer, mesh, &world, blend);
                let mut w = worst.get();
                w[k] = (w[k].0.max(dp), w[k].1.max(dn));
                worst.set(w);
                dqs_close(api, blend, (dp, dn))?;
            }
            Ok(())
        })
        .unwrap();
    let [on, off] = worst.get();
    let [n_on, n_off] = compared.get();
    eprintln!(
        "{api:?} DQS random rigid skeletons, worst (position, normal): \
         check on {on:?} over {n_on} vertices, off {off:?} over {n_off}"
    );
    assert!(
        n_off * 2 > n_on,
        "{api:?}: most vertices must be compared without the check too ({n_off} of {n_on})"
    );
}

fn check_dqs_arm(h: &common::Headless, renderer: &SceneRenderer, api: Api) {
    let mesh = arm::mesh(arm::Falloff::Smooth, arm::DEFAULT_BLEND_WIDTH).expect("arm");
    let mut worst = (0.0f32, 0.0f32);
    for twist in [0.0, 0.7, 1.6, std::f32::consts::PI, 4.0, 5.5, -2.5] {
        for bend in [0.0, 0.9] {
            let pal = arm::palette(twist, bend);
            for blend in DQS_BOTH {
                let (dp, dn) = max_difference(h, renderer, mesh.skin.clone(), &pal, blend);
                worst = (worst.0.max(dp), worst.1.max(dn));
                assert!(
                    dp <= TOLERANCE && dn <= DQS_NORMAL_TOLERANCE,
                    "{api:?} {blend:?} arm at twist {twist}, bend {bend}: positions differ by {dp}, normals by {dn}"
                );
            }
        }
    }
    eprintln!("{api:?} DQS arm, worst (position, normal): {worst:?}");
}

/// Two joints turned 200 degrees apart about one axis, with random vertices between
/// them: the check must change the result, and each setting must match the CPU.
fn check_dqs_antipodal(h: &common::Headless, renderer: &SceneRenderer, api: Api) {
    let axis = Vec3::new(0.3, 1.0, -0.4).normalize();
    let pal = [
        Mat4::from_rotation_translation(
            Quat::from_axis_angle(axis, 0.3),
            Vec3::new(0.5, -1.0, 0.2),
        ),
        Mat4::from_rotation_translation(
            Quat::from_axis_angle(axis, 0.3 + 200f32.to_radians()),
            Vec3::new(1.0, 2.0, -0.5),
        ),
    ];
    let dq = dual_quat_palette(&pal);
    assert!(
        Vec4::from(dq[0].real).dot(Vec4::from(dq[1].real)) < 0.0,
        "the case must hold quaternions on opposite sides"
    );
    let mut mesh = SkinMesh::default();
    for i in 0..200 {
        let f = i as f32;
        let p = Vec3::new(
            (f * 0.37).sin() * 3.0,
            (f * 0.73).cos() * 2.0,
            (f * 0.19).sin(),
        );
        mesh.positions.push(p);
        mesh.normals
            .push(Vec3::new((f * 0.5).cos(), (f * 0.5).sin(), 0.3).normalize());
        // Weights from 0.1 to 0.9 on joint 1, skipping the middle where, without the
        // check, the blend nearly cancels.
        let w = 0.1 + 0.8 * (i as f32 / 199.0);
        let w = if (w - 0.5).abs() < 0.1 { w + 0.2 } else { w };
        mesh.influences
            .push(Influences::prepare(&[(0, 1.0 - w), (1, w)], 2).expect("valid"));
    }
    let mut outputs = Vec::new();
    for blend in DQS_BOTH {
        let (dp, dn) = max_difference(h, renderer, mesh.clone(), &pal, blend);
        eprintln!("{api:?} DQS antipodal case {blend:?}: worst (position, normal) ({dp}, {dn})");
        assert!(
            dp <= TOLERANCE && dn <= DQS_NORMAL_TOLERANCE,
            "{api:?} {blend:?} antipodal case: positions differ by {dp}, normals by {dn}"
        );
        outputs.push(gpu_skin(h, renderer, &mesh, &pal, blend));
    }
    let apart = outputs[0]
        .iter()
        .zip(&outputs[1])
        .map(|((a, _), (b, _))| (*a - *b).length())
        .fold(0.0f32, f32::max);
    assert!(
        apart > 0.5,
        "{api:?}: the antipodal check made no difference on the GPU ({apart})"
    );
}

fn check_dqs_api(api: Api) {
    let Some(h) = headless(api) else { return };
    let renderer = SceneRenderer::new(&h.gl)
        .unwrap_or_else(|log| panic!("shaders must build on {api:?}:\n{log}"));
    check_dqs_antipodal(&h, &renderer, api);
    check_dqs_arm(&h, &renderer, api);
    check_dqs_random(&h, &renderer, api);
    renderer.destroy(&h.gl);
}

on_both_apis!(check_dqs_api: dqs_shader_matches_cpu_on_gl_core_330, dqs_shader_matches_cpu_on_gles_300);

/// Skinning about centres of rotation (`shaders/blend_cor.glsl` against `skin::cor`):
/// the lesson arm with the centres its triangles give, twisted and bent, against both
/// the draw's reference and the plain `Blend::Centres` path that finds them again; then
/// random rigid skeletons with a random centre for every vertex, so the shader's formula
/// is checked away from any centre the finder would give.
fn check_cor_api(api: Api) {
    let Some(h) = headless(api) else { return };
    let renderer = SceneRenderer::new(&h.gl)
        .unwrap_or_else(|log| panic!("shaders must build on {api:?}:\n{log}"));
    let arm = arm::mesh(arm::Falloff::Smooth, arm::DEFAULT_BLEND_WIDTH).expect("arm");
    let data = MeshData::new(
        arm.skin.clone(),
        arm.triangles.clone(),
        Primitive::Triangles,
    )
    .centred();
    let off_centre = data
        .centres
        .iter()
        .zip(&arm.skin.positions)
        .filter(|(c, p)| c.distance(**p) > 0.1)
        .count();
    assert!(
        off_centre > 50,
        "the arm's blended rings have centres inside it ({off_centre})"
    );
    let gpu = SkinnedMeshGpu::upload(&h.gl, &data).expect("upload");
    let mut worst = (0.0f32, 0.0f32);
    let mut from_lbs = 0.0f32;
    for twist in [0.0, 1.6, std::f32::consts::PI, -2.5] {
        for bend in [0.0, 0.9, 2.2] {
            let pal = arm::palette(twist, bend);
            let draw = SkinnedDraw::surface(
                data.clone(),
                Palette::new(pal.clone(), Blend::Centres),
                [1.0; 4],
            );
            let captured = capture_skinned(&h.gl, &renderer, &gpu, &draw.palette).expect("capture");
            let plain = Blend::Centres.skin_vertices(&pal, &arm.skin, &arm.triangles);
            for cpu in [draw.skin_on_cpu(), plain] {
                let (dp, dn) = worst_difference(&captured, &cpu, |_| true);
                assert!(
                    dp <= TOLERANCE && dn <= DQS_NORMAL_TOLERANCE,
                    "{api:?} arm about centres at twist {twist}, bend {bend}: positions differ by {dp}, normals by {dn}"
                );
                worst = (worst.0.max(dp), worst.1.max(dn));
            }
            let lbs = skin_vertices(&pal, &arm.skin);
            for ((p, _), l) in captured.iter().zip(&lbs) {
                from_lbs = from_lbs.max(p.distance(l.position));
            }
        }
    }
    assert!(
        from_lbs > 0.2,
        "{api:?}: the centres moved nothing away from LBS ({from_lbs})"
    );
    gpu.destroy(&h.gl);
    let mut runner = TestRunner::new(Config {
        cases: 32,
        ..Config::default()
    });
    let centres = prop::collection::vec(prop::array::uniform3(-3.0f32..3.0), 64);
    runner
        .run(
            &(arb_case(12, 64, arb_rigid_local()), centres),
            |((world, mesh), centres)| {
                let data = MeshData::new(mesh, Vec::new(), Primitive::Lines)
                    .with_centres(centres.into_iter().map(Vec3::from).collect());
                let gpu = SkinnedMeshGpu::upload(&h.gl, &data).expect("upload");
                let draw =
                    SkinnedDraw::surface(data, Palette::new(world, Blend::Centres), [1.0; 4]);
                let captured =
                    capture_skinned(&h.gl, &renderer, &gpu, &draw.palette).expect("capture");
                gpu.destroy(&h.gl);
                let (dp, dn) = worst_difference(&captured, &draw.skin_on_cpu(), |_| true);
                dqs_close(api, "about random centres", (dp, dn))?;
                Ok(())
            },
        )
        .unwrap();
    eprintln!("{api:?} centres of rotation on the arm, worst (position, normal): {worst:?}");
    // A mesh without centres cannot be drawn about them: a message, not a picture.
    let bare = MeshData::new(arm.skin.clone(), Vec::new(), Primitive::Lines);
    let gpu = SkinnedMeshGpu::upload(&h.gl, &bare).expect("upload");
    let err = capture_skinned(
        &h.gl,
        &renderer,
        &gpu,
        &Palette::Centres {
            dual_quats: vec![DualQuat::IDENTITY; 2],
            stretches: Vec::new(),
        },
    )
    .expect_err("no centres");
    assert!(err.contains("centres"), "{err}");
    gpu.destroy(&h.gl);
    renderer.destroy(&h.gl);
}

on_both_apis!(check_cor_api: cor_shader_matches_cpu_on_gl_core_330, cor_shader_matches_cpu_on_gles_300);

/// Random local transforms that scale each axis apart, so the world matrices they make
/// down a chain also shear.
fn arb_stretched_local() -> impl Strategy<Value = Mat4> + Clone {
    (
        prop::array::uniform3(-1.0f32..1.0),
        prop::array::uniform3(-2.0f32..2.0),
        prop::array::uniform3(0.5f32..1.8),
    )
        .prop_map(|(r, t, s)| {
            Mat4::from_scale_rotation_translation(
                Vec3::from(s),
                Quat::from_euler(EulerRot::XYZ, r[0], r[1], r[2]),
                Vec3::from(t),
            )
        })
}

/// Scaled and sheared joints by dual quaternions in two phases and about centres of
/// rotation (`shaders/stretch.glsl` with the two blend files, against
/// `skin::dqs::skin_vertices_dq` and `skin::cor::skin_vertices_cor_dq`): random
/// skeletons whose joints scale each axis apart, random centres. A vertex ruled by one
/// joint lands where that joint's whole matrix puts it, which plain DQS misses.
fn check_scaled_api(api: Api) {
    let Some(h) = headless(api) else { return };
    let renderer = SceneRenderer::new(&h.gl)
        .unwrap_or_else(|log| panic!("shaders must build on {api:?}:\n{log}"));
    let mut runner = TestRunner::new(Config {
        cases: 32,
        ..Config::default()
    });
    let centres = prop::collection::vec(prop::array::uniform3(-3.0f32..3.0), 64);
    let worst = std::cell::Cell::new([(0.0f32, 0.0f32); 2]);
    let dropped = std::cell::Cell::new(0.0f32);
    runner
        .run(
            &(arb_case(12, 64, arb_stretched_local()), centres),
            |((world, mesh), centres)| {
                let data = MeshData::new(mesh.clone(), Vec::new(), Primitive::Lines)
                    .with_centres(centres.into_iter().map(Vec3::from).collect());
                let gpu = SkinnedMeshGpu::upload(&h.gl, &data).expect("upload");
                let lbs = skin_vertices(&world, &mesh);
                let dqs = Blend::DualQuaternion {
                    antipodal_check: true,
                };
                for (k, blend) in [dqs, Blend::Centres].into_iter().enumerate() {
                    let draw = SkinnedDraw::surface(
                        data.clone(),
                        Palette::new(world.clone(), blend),
                        [1.0; 4],
                    );
                    let captured =
                        capture_skinned(&h.gl, &renderer, &gpu, &draw.palette).expect("capture");
                    let (dp, dn) = worst_difference(&captured, &draw.skin_on_cpu(), |_| true);
                    let mut w = worst.get();
                    w[k] = (w[k].0.max(dp), w[k].1.max(dn));
                    worst.set(w);
                    dqs_close(api, blend, (dp, dn))?;
                    // One joint: its whole matrix, scale and all.
                    let one =
                        (0..captured.len()).filter(|i| mesh.influences[*i].used().count() == 1);
                    let (dp, _) =
                        worst_difference(&captured, &lbs, |i| one.clone().any(|j| j == i));
                    prop_assert!(
                        dp <= TOLERANCE,
                        "{:?} {:?}: a one-joint vertex is {} off its joint",
                        api,
                        blend,
                        dp
                    );
                }
                let plain = Palette::plain_dqs(&world, true);
                let captured = capture_skinned(&h.gl, &renderer, &gpu, &plain).expect("capture");
                let off = captured
                    .iter()
                    .zip(&lbs)
                    .zip(&mesh.influences)
                    .filter(|(_, inf)| inf.used().count() == 1)
                    .map(|(((p, _), l), _)| p.distance(l.position))
                    .fold(0.0f32, f32::max);
                dropped.set(dropped.get().max(off));
                gpu.destroy(&h.gl);
                Ok(())
            },
        )
        .unwrap();
    eprintln!(
        "{api:?} scaled joints, worst (position, normal): DQS in two phases {:?}, centres {:?}; plain DQS drops up to {}",
        worst.get()[0],
        worst.get()[1],
        dropped.get()
    );
    assert!(
        dropped.get() > 0.5,
        "{api:?}: the scales must matter: plain DQS puts one-joint vertices only {} off",
        dropped.get()
    );
    renderer.destroy(&h.gl);
}

on_both_apis!(check_scaled_api: scaled_joints_match_cpu_on_gl_core_330, scaled_joints_match_cpu_on_gles_300);

/// Blend shapes on every path: the lesson arm with five targets of random offsets (one
/// without normals, one of normals alone), added in at weights past 1, below 0 and 0,
/// then skinned bent and twisted, by the uniform arrays and the bone texture with both
/// index types, by dual quaternions with and without the antipodal check, and about
/// the arm's centres of rotation; the shader against `SkinnedDraw::skin_on_cpu`
/// (`skin::morph::morphed`, then the reference).
fn check_morph_api(api: Api) {
    let Some(h) = headless(api) else { return };
    let renderer = SceneRenderer::new(&h.gl)
        .unwrap_or_else(|log| panic!("shaders must build on {api:?}:\n{log}"));
    let arm = arm::mesh(arm::Falloff::Smooth, arm::DEFAULT_BLEND_WIDTH).expect("arm");
    let n = arm.skin.positions.len();
    let mut rng = common::mutate::XorShift(47);
    let mut offsets = |scale: f32| -> Vec<Vec3> {
        let mut one = || (rng.below(2001) as f32 / 1000.0 - 1.0) * scale;
        (0..n).map(|_| Vec3::new(one(), one(), one())).collect()
    };
    let targets: Vec<MorphTarget> = (0..5)
        .map(|t| MorphTarget {
            name: format!("shape {t}"),
            positions: if t == 4 { Vec::new() } else { offsets(0.3) },
            normals: if t == 2 { Vec::new() } else { offsets(0.5) },
            tangents: Vec::new(),
        })
        .collect();
    let weights = vec![0.7, -0.4, 1.3, 0.0, 0.25];
    let mesh = MeshData::with_targets(
        arm.skin.clone(),
        arm.triangles.clone(),
        Vec::new(),
        Vec::new(),
        std::sync::Arc::new(targets),
    )
    .centred();
    let gpu = SkinnedMeshGpu::upload(&h.gl, &mesh).expect("upload");
    let mut compared = 0;
    for (twist, bend) in [(0.0, 0.0), (0.7, 0.9), (2.5, -1.2)] {
        let pal = arm::palette(twist, bend);
        let mut palettes: Vec<(Palette, JointIndices)> = PATHS
            .iter()
            .map(|(storage, indices)| match storage {
                Storage::Uniform => (Palette::Matrices(pal.clone()), *indices),
                Storage::Texture => (Palette::Texture(pal.clone()), *indices),
            })
            .collect();
        palettes
            .extend(DQS_BOTH.map(|blend| (Palette::new(pal.clone(), blend), JointIndices::Float)));
        palettes.push((
            Palette::new(pal.clone(), Blend::Centres),
            JointIndices::Float,
        ));
        for (palette, indices) in palettes {
            let path = match &palette {
                Palette::Matrices(_) => "uniform arrays".to_owned(),
                Palette::Texture(_) => "bone texture".to_owned(),
                Palette::DualQuats {
                    antipodal_check, ..
                } => format!("dual quaternions (antipodal check {antipodal_check})"),
                Palette::Centres { .. } => "centres of rotation".to_owned(),
            };
            let mut draw = SkinnedDraw::surface(mesh.clone(), palette.clone(), [1.0; 4]);
            draw.joint_indices = indices;
            draw.morph_weights = weights.clone();
            let cpu = draw.skin_on_cpu();
            // The shapes move the arm: a shader that left them out would differ.
            let plain = SkinnedDraw {
                morph_weights: Vec::new(),
                ..draw.clone()
            };
            assert_ne!(cpu[0].position, plain.skin_on_cpu()[0].position);
            let tolerance = match palette {
                Palette::DualQuats { .. } | Palette::Centres { .. } => DQS_NORMAL_TOLERANCE,
                _ => TOLERANCE * 10.0,
            };
            let (dp, dn) = draw_difference(&h, &renderer, &gpu, &draw, &palette, &cpu);
            assert!(
                dp <= TOLERANCE && dn <= tolerance,
                "{api:?} {path} {indices:?} at twist {twist}, bend {bend}: morph plus skin \
                 differs from the CPU by {dp} in position, {dn} in normal"
            );
            compared += 1;
        }
    }
    assert_eq!(compared, 21);
    gpu.destroy(&h.gl);
    renderer.destroy(&h.gl);
}

on_both_apis!(check_morph_api: morph_then_skin_matches_cpu_on_every_path_on_gl_core_330, morph_then_skin_matches_cpu_on_every_path_on_gles_300);

/// Where a linear blend skinning program keeps the palette.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Storage {
    /// `u_palette`, a uniform array (`shaders/blend_lbs.glsl`).
    Uniform,
    /// The bone texture (`shaders/blend_texture.glsl`).
    Texture,
}

/// Every linear blend skinning path: two places for the palette, two index types.
const PATHS: [(Storage, JointIndices); 4] = [
    (Storage::Uniform, JointIndices::Float),
    (Storage::Uniform, JointIndices::Int),
    (Storage::Texture, JointIndices::Float),
    (Storage::Texture, JointIndices::Int),
];

/// The largest difference between the path's shader and `skin::lbs` over `mesh`
/// (positions relative to their size, normals absolute).
fn path_difference(
    h: &common::Headless,
    renderer: &SceneRenderer,
    mesh: &SkinMesh,
    pal: &[Mat4],
    (storage, indices): (Storage, JointIndices),
) -> (f32, f32) {
    let data = MeshData::new(mesh.clone(), Vec::new(), Primitive::Lines);
    let gpu = SkinnedMeshGpu::upload(&h.gl, &data).expect("upload");
    let palette = match storage {
        Storage::Uniform => Palette::Matrices(pal.to_vec()),
        Storage::Texture => Palette::Texture(pal.to_vec()),
    };
    let captured = capture_skinned_as(&h.gl, renderer, &gpu, &palette, reading(indices))
        .unwrap_or_else(|e| panic!("{storage:?} {indices:?}: {e}"));
    gpu.destroy(&h.gl);
    worst_difference(&captured, &skin_vertices(pal, mesh), |_| true)
}

/// Every path on random skeletons of `joints` joints; returns the worst differences.
fn check_paths_random(
    h: &common::Headless,
    renderer: &SceneRenderer,
    api: Api,
    joints: usize,
    paths: &[(Storage, JointIndices)],
) {
    let mut runner = TestRunner::new(Config {
        cases: 24,
        ..Config::default()
    });
    let worst = std::cell::Cell::new((0.0f32, 0.0f32));
    runner
        .run(&arb_case(joints, 128, arb_local()), |(world, mesh)| {
            for path in paths {
                let (dp, dn) = path_difference(h, renderer, &mesh, &world, *path);
                let w = worst.get();
                worst.set((w.0.max(dp), w.1.max(dn)));
                prop_assert!(
                    dp <= TOLERANCE,
                    "{:?} {:?}: positions differ by {}",
                    api,
                    path,
                    dp
                );
                prop_assert!(
                    dn <= TOLERANCE * 10.0,
                    "{:?} {:?}: normals differ by {}",
                    api,
                    path,
                    dn
                );
            }
            Ok(())
        })
        .unwrap();
    eprintln!(
        "{api:?} {joints} joints, paths {paths:?}: worst (position, normal) {:?}",
        worst.get()
    );
}

fn check_paths_api(api: Api) {
    let Some(h) = headless(api) else { return };
    let renderer = SceneRenderer::new(&h.gl)
        .unwrap_or_else(|log| panic!("shaders must build on {api:?}:\n{log}"));
    // The arm of the lesson, bent and twisted.
    let arm = arm::mesh(arm::Falloff::Smooth, arm::DEFAULT_BLEND_WIDTH).expect("arm");
    for (twist, bend) in [(0.0, 0.0), (0.7, 0.9), (2.5, -1.2)] {
        for path in PATHS {
            let (dp, dn) =
                path_difference(&h, &renderer, &arm.skin, &arm::palette(twist, bend), path);
            assert!(
                dp <= TOLERANCE && dn <= TOLERANCE * 10.0,
                "{api:?} {path:?} arm at twist {twist}, bend {bend}: positions differ by {dp}, normals by {dn}"
            );
        }
    }
    check_paths_random(&h, &renderer, api, 12, &PATHS);
    // More joints than WebGL2's 256 guaranteed uniform vectors hold (64 matrices, less
    // the other uniforms): only the bone texture can take them.
    let texture_paths = [PATHS[2], PATHS[3]];
    check_paths_random(&h, &renderer, api, 120, &texture_paths);
    renderer.destroy(&h.gl);
}

on_both_apis!(check_paths_api: every_lbs_path_matches_cpu_on_gl_core_330, every_lbs_path_matches_cpu_on_gles_300);

#[test]
fn every_skinning_program_links_on_first_use_on_each_api() {
    // The renderer links two programs when it is built and each other skinning program
    // when a draw first needs it: each must link on every API the app runs on.
    for api in [Api::GlCore33, Api::Gles30] {
        let Some(h) = headless(api) else {
            return;
        };
        let renderer = SceneRenderer::new(&h.gl).expect("shaders");
        let palettes = [
            Palette::Matrices(vec![Mat4::IDENTITY]),
            Palette::Texture(vec![Mat4::IDENTITY]),
            Palette::plain_dqs(&[Mat4::IDENTITY], true),
            Palette::new(vec![Mat4::IDENTITY], Blend::Centres),
        ];
        let mut linked = Vec::new();
        for palette in &palettes {
            for indices in [JointIndices::Float, JointIndices::Int] {
                let program = renderer
                    .program_for(&h.gl, palette, indices)
                    .unwrap_or_else(|e| panic!("{api:?}: {e}"));
                // A second ask gives the program linked the first time.
                assert_eq!(renderer.program_for(&h.gl, palette, indices), Ok(program));
                linked.push(program);
            }
        }
        linked.sort_by_key(|p| format!("{p:?}"));
        linked.dedup();
        // Dual quaternions and centres read floats whichever indices are asked for:
        // six programs.
        assert_eq!(linked.len(), 6, "{api:?}");
        renderer.destroy(&h.gl);
    }
}

#[test]
fn the_uniform_path_refuses_more_joints_than_it_holds() {
    let Some(h) = headless(Api::GlCore33) else {
        return;
    };
    let renderer = SceneRenderer::new(&h.gl).expect("shaders");
    let arm = arm::mesh(arm::Falloff::Smooth, arm::DEFAULT_BLEND_WIDTH).expect("arm");
    let data = MeshData::new(arm.skin, Vec::new(), Primitive::Lines);
    let gpu = SkinnedMeshGpu::upload(&h.gl, &data).expect("upload");
    let many = vec![Mat4::IDENTITY; scene::MAX_JOINTS + 1];
    let err = capture_skinned(&h.gl, &renderer, &gpu, &Palette::Matrices(many.clone()))
        .expect_err("too many joints for the uniform array");
    assert!(err.contains("do not fit"), "{err}");
    capture_skinned_as(
        &h.gl,
        &renderer,
        &gpu,
        &Palette::Texture(many),
        reading(JointIndices::Int),
    )
    .expect("the texture takes them");
    gpu.destroy(&h.gl);
    renderer.destroy(&h.gl);
}

#[test]
fn a_slice_of_the_mesh_captures_what_the_whole_capture_has_there() {
    // The gpu page compares a big mesh a slice per frame: each slice must be exactly
    // that part of the whole, on every path.
    let Some(h) = headless(Api::GlCore33) else {
        return;
    };
    let renderer = SceneRenderer::new(&h.gl).expect("shaders");
    let arm = arm::mesh(arm::Falloff::Smooth, arm::DEFAULT_BLEND_WIDTH).expect("arm");
    let n = arm.skin.positions.len();
    let data = MeshData::new(arm.skin, Vec::new(), Primitive::Lines);
    let gpu = SkinnedMeshGpu::upload(&h.gl, &data).expect("upload");
    let pal = arm::palette(0.7, 0.9);
    for (storage, indices) in PATHS {
        let palette = match storage {
            Storage::Uniform => Palette::Matrices(pal.clone()),
            Storage::Texture => Palette::Texture(pal.clone()),
        };
        let whole =
            capture_skinned_as(&h.gl, &renderer, &gpu, &palette, reading(indices)).expect("whole");
        let mut pieces = Vec::new();
        for start in (0..n).step_by(1000) {
            pieces.extend(
                capture_skinned_range(
                    &h.gl,
                    &renderer,
                    &gpu,
                    &palette,
                    reading(indices),
                    start..start + 1000,
                    &[],
                )
                .expect("a slice"),
            );
        }
        assert_eq!(
            pieces, whole,
            "{storage:?} {indices:?}: the slices make the whole"
        );
        let past = capture_skinned_range(
            &h.gl,
            &renderer,
            &gpu,
            &palette,
            reading(indices),
            n..n + 10,
            &[],
        )
        .expect("past the end");
        assert!(past.is_empty(), "nothing past the last vertex");
    }
    gpu.destroy(&h.gl);
    renderer.destroy(&h.gl);
}

/// Both normal methods of `shaders/skin.vert` (`u_normal_method`) against
/// `skin::normals` on the normals lesson's limb, its forearm scaled across the bone.
fn check_normal_methods(api: Api) {
    let Some(h) = headless(api) else { return };
    let renderer = SceneRenderer::new(&h.gl)
        .unwrap_or_else(|log| panic!("shaders must build on {api:?}:\n{log}"));
    let limb = limb::limb().expect("limb");
    let data = MeshData::new(limb.skin.clone(), Vec::new(), Primitive::Lines);
    let gpu = SkinnedMeshGpu::upload(&h.gl, &data).expect("upload");
    for (bend, scale) in [(0.0, 1.0), (0.6, 2.5), (-1.1, 0.3)] {
        let pal = limb::palette(bend, scale);
        for &method in <NormalMethod as strum::VariantArray>::VARIANTS {
            let captured = capture_skinned_as(
                &h.gl,
                &renderer,
                &gpu,
                &Palette::Matrices(pal.clone()),
                Switches {
                    normals: method,
                    ..Default::default()
                },
            )
            .expect("capture");
            let cpu = skin_vertices_with(&pal, &limb.skin, method);
            let worst = captured
                .iter()
                .zip(&cpu)
                .map(|((_, n), c)| (*n - c.normal).abs().max_element())
                .fold(0.0f32, f32::max);
            assert!(
                worst <= TOLERANCE * 10.0,
                "{api:?} {method:?} at bend {bend}, scale {scale}: normals differ by {worst}"
            );
        }
        // The two methods really differ once the scale is not uniform.
        let [right, naive] = [NormalMethod::InverseTranspose, NormalMethod::Naive].map(|m| {
            let switches = Switches {
                normals: m,
                ..Default::default()
            };
            capture_skinned_as(
                &h.gl,
                &renderer,
                &gpu,
                &Palette::Matrices(pal.clone()),
                switches,
            )
            .expect("capture")
        });
        let apart = right
            .iter()
            .zip(&naive)
            .map(|((_, a), (_, b))| angle_degrees(*a, *b))
            .fold(0.0f32, f32::max);
        if scale == 1.0 {
            assert!(
                apart < 0.01,
                "{api:?}: methods differ at scale 1 by {apart}°"
            );
        } else {
            assert!(
                apart > 10.0,
                "{api:?}: methods agree at scale {scale} ({apart}°)"
            );
        }
    }
    gpu.destroy(&h.gl);
    renderer.destroy(&h.gl);
}

on_both_apis!(check_normal_methods: normal_methods_match_cpu_on_gl_core_330, normal_methods_match_cpu_on_gles_300);

/// Weights that do not sum to 1 on the blending lesson's arm: with `u_position_w` 1 the
/// shader puts each vertex where the CPU does (`w = 1`, the sum shows as a scale about
/// the origin); with 0 it divides by `w = sum`, as `PositionW::Divide` says, which
/// gives back the point of normalised weights.
fn check_position_w(api: Api) {
    let Some(h) = headless(api) else { return };
    let renderer = SceneRenderer::new(&h.gl)
        .unwrap_or_else(|log| panic!("shaders must build on {api:?}:\n{log}"));
    let normalised = arm::mesh(arm::Falloff::Linear, arm::DEFAULT_BLEND_WIDTH)
        .expect("arm")
        .skin;
    let pal = arm::palette(0.7, 1.1);
    for scale in [1.25f32, 0.6] {
        let mut mesh = normalised.clone();
        for influences in &mut mesh.influences {
            influences.weights = influences.weights.map(|w| w * scale);
        }
        let data = MeshData::new(mesh.clone(), Vec::new(), Primitive::Lines);
        let gpu = SkinnedMeshGpu::upload(&h.gl, &data).expect("upload");
        let unit = skin_vertices(&pal, &normalised);
        for w in [PositionW::Divide, PositionW::One] {
            let captured = capture_skinned_as(
                &h.gl,
                &renderer,
                &gpu,
                &Palette::Matrices(pal.clone()),
                Switches {
                    position_w: w,
                    ..Default::default()
                },
            )
            .expect("capture");
            let mut cpu = skin_vertices(&pal, &mesh);
            w.place(&pal, &mesh, &mut cpu);
            for (i, ((p, _), c)) in captured.iter().zip(&cpu).enumerate() {
                let size = c.position.length().max(1.0);
                assert!(
                    (*p - c.position).length() / size < TOLERANCE * 10.0,
                    "{api:?} {w:?} ×{scale}, vertex {i}: GPU {p} but CPU {}",
                    c.position
                );
                // What each choice means, against the arm whose weights sum to 1.
                let expected = match w {
                    PositionW::Divide => unit[i].position,
                    PositionW::One => unit[i].position * scale,
                };
                assert!(
                    (*p - expected).length() / size < 1e-4,
                    "{api:?} {w:?} ×{scale}, vertex {i}: drawn at {p}, expected {expected}"
                );
            }
        }
        gpu.destroy(&h.gl);
    }
    renderer.destroy(&h.gl);
}

on_both_apis!(check_position_w: the_shader_divides_by_w_or_sets_it_to_one_on_gl_core_330, the_shader_divides_by_w_or_sets_it_to_one_on_gles_300);

/// The robot as bundled, repaired by every fix (rebound at its rest pose, so its
/// palette changes) and painted (every other vertex of a hand given wholly to one
/// joint), each written as a file and opened again: what the model page saves.
fn robots() -> Vec<(&'static str, gltf::Model)> {
    const NOTHING: &gltf::Beside = &|_, _| Err("nothing is beside it".to_owned());
    let bytes = skinlab::models::bytes("robot").expect("bundled");
    let model = gltf::load(bytes).expect("the robot loads");
    let repaired = gltf::repair(bytes, NOTHING, &gltf::Fix::EVERY).expect("repaired");
    let hand = &model.skinned_meshes[0];
    let mut influences = hand.stored.clone();
    for stored in influences.iter_mut().step_by(2) {
        *stored = gltf::StoredInfluences {
            joints: [1, 0, 0, 0],
            weights: [1.0, 0.0, 0.0, 0.0],
        };
    }
    let painted = gltf::Painted {
        mesh: hand.part.mesh,
        primitive: hand.part.primitive,
        influences,
    };
    let (painted, _) = gltf::paint(bytes, NOTHING, &[painted]).expect("painted");
    vec![
        ("as bundled", model),
        ("repaired", gltf::load(&repaired.glb).expect("reopens")),
        ("painted", gltf::load(&painted).expect("reopens")),
    ]
}

/// The robot's four skinned meshes (the hands), on every palette path, at five times of
/// two of its clips, as bundled, repaired and painted ([`robots`]): the shaders skin a
/// real file's data as `skin::lbs` does.
fn check_robot(api: Api) {
    let Some(h) = headless(api) else { return };
    let renderer = SceneRenderer::new(&h.gl)
        .unwrap_or_else(|log| panic!("shaders must build on {api:?}:\n{log}"));
    for (version, model) in robots() {
        check_robot_model(&h, &renderer, api, version, &model);
    }
    renderer.destroy(&h.gl);
}

fn check_robot_model(
    h: &common::Headless,
    renderer: &SceneRenderer,
    api: Api,
    version: &str,
    model: &gltf::Model,
) {
    assert_eq!(model.skinned_meshes.len(), 4, "four skinned meshes");
    let mut checked = 0;
    for name in ["Walking", "Dance"] {
        let clip = model
            .clips
            .iter()
            .find(|c| c.name() == name)
            .unwrap_or_else(|| panic!("the robot has `{name}`"));
        for k in 0..5 {
            let t = clip.start() + clip.duration() * k as f32 / 4.0;
            let world = model.world_from_joint(&model.sample(clip, t));
            for mesh in &model.skinned_meshes {
                let pal = model.palette(mesh.skin, &world);
                for path in PATHS {
                    let (dp, dn) = path_difference(h, renderer, &mesh.part.vertices, &pal, path);
                    assert!(
                        dp <= TOLERANCE && dn <= TOLERANCE * 10.0,
                        "{api:?} {path:?} the robot {version}, `{}` in {name} at {t} s: positions differ by {dp}, normals by {dn}",
                        mesh.part.name
                    );
                    checked += mesh.part.vertices.positions.len();
                }
            }
        }
    }
    assert!(
        checked > 10_000,
        "the robot {version}: vertices compared: {checked}"
    );
}

on_both_apis!(check_robot: the_robots_skinned_meshes_match_cpu_on_gl_core_330, the_robots_skinned_meshes_match_cpu_on_gles_300);

/// The model page's read-back of a picked vertex: SimpleSkin's top vertex at t = 1 s,
/// skinned by the shader the viewport draws with, equals the CPU's (-1, 0.5, 0).
fn check_model_readback(api: Api) {
    use skinlab::link::Link;
    use skinlab::pages::model::ModelPage;
    let Some(h) = headless(api) else { return };
    let mut renderer = SceneRenderer::new(&h.gl)
        .unwrap_or_else(|log| panic!("shaders must build on {api:?}:\n{log}"));
    let mut page = ModelPage::default();
    let top = (0..10)
        .find(|&v| {
            skinlab::page::open(
                &mut page,
                &Link::parse(&format!("model?asset=simple_skin&t=1&vertex={v}")).expect("link"),
            )
            .expect("opens");
            page.model.skinned_meshes[0].part.vertices.positions[v]
                .abs_diff_eq(Vec3::new(-0.5, 2.0, 0.0), 1e-6)
        })
        .expect("SimpleSkin has its top vertex");
    assert!(page.readback().is_none(), "nothing read back yet");
    let work = page.readback_work().expect("a vertex is picked");
    work(&h.gl, &mut renderer);
    let readback = page.readback().expect("read back");
    assert_eq!(readback.vertex, top);
    let gpu = readback.gpu.expect("the shader's value");
    assert!(
        readback.cpu.abs_diff_eq(Vec3::new(-1.0, 0.5, 0.0), 1e-5),
        "{}",
        readback.cpu
    );
    assert!(
        gpu.abs_diff_eq(readback.cpu, TOLERANCE),
        "GPU {gpu} against CPU {}",
        readback.cpu
    );
    assert!(
        page.readback_work().is_none(),
        "the same state is not read again"
    );
    renderer.destroy(&h.gl);
}

on_both_apis!(check_model_readback: the_model_page_reads_its_picked_vertex_back_on_gl_core_330, the_model_page_reads_its_picked_vertex_back_on_gles_300);

/// Every skinned draw the app hands its viewports on every documented link (each
/// chapter's links and figures, each deck's slides), in the first frames after it
/// opens: collected once, for both contexts.
fn documented_draws() -> &'static [(String, String, Vec<SkinnedDraw>)] {
    static DRAWS: OnceLock<Vec<(String, String, Vec<SkinnedDraw>)>> = OnceLock::new();
    DRAWS.get_or_init(|| {
        common::documented_links()
            .into_iter()
            .map(|link| {
                let mut app = SkinlabApp::new();
                app.paused = true;
                app.open_link(&link)
                    .unwrap_or_else(|e| panic!("`{link}` opens: {e}"));
                let mut harness = Harness::builder()
                    .with_context_setup(|ctx| {
                        skinlab::ui::fonts::install(ctx);
                        MeshBounds::record(ctx);
                    })
                    .with_size(egui::Vec2::new(1280.0, 800.0))
                    .build_ui_state(|ui, app: &mut SkinlabApp| app.app_ui(ui), app);
                harness.run_steps(3);
                let draws = MeshBounds::of(&harness.ctx)
                    .into_iter()
                    .flat_map(|drawn| drawn.skinned)
                    .collect();
                // The page the link opened (a deck's slide or an old link can open
                // another than it names).
                let shown = harness.state().current_link().to_string();
                let page = shown.split('?').next().unwrap_or_default().to_owned();
                (link, page, draws)
            })
            .collect()
    })
}

/// How many vertices of a page mesh are compared: all of any page's default mesh; a
/// slice of the million-vertex tail a link can ask for.
const PAGE_MESH_VERTICES: usize = 200_000;

/// The shader's output for `draw`'s mesh (its first [`PAGE_MESH_VERTICES`]) with
/// `palette` and `draw`'s switches, against `cpu`; vertices whose dual quaternions
/// cancel without the antipodal check are left out (see [`without_cancelling`]).
fn draw_difference(
    h: &common::Headless,
    renderer: &SceneRenderer,
    gpu: &SkinnedMeshGpu,
    draw: &SkinnedDraw,
    palette: &Palette,
    cpu: &[SkinnedVertex],
) -> (f32, f32) {
    let switches = draw.switches();
    let captured = capture_skinned_range(
        &h.gl,
        renderer,
        gpu,
        palette,
        switches,
        0..PAGE_MESH_VERTICES,
        draw.shader_morph_weights(),
    )
    .unwrap_or_else(|e| panic!("capture: {e}"));
    let influences = &draw.mesh.skin.influences;
    let compared = |i: usize| match palette {
        Palette::DualQuats {
            dual_quats,
            antipodal_check: false,
            ..
        } => !cancels(dual_quats, &influences[i]),
        _ => true,
    };
    worst_difference(&captured, &cpu[..captured.len()], compared)
}

/// The palette `draw` would get with `world_from_bind` instead of its own, on the same
/// path.
fn same_path(draw: &SkinnedDraw, world_from_bind: Vec<Mat4>) -> Palette {
    match &draw.palette {
        Palette::Matrices(_) => Palette::Matrices(world_from_bind),
        Palette::Texture(_) => Palette::Texture(world_from_bind),
        Palette::DualQuats {
            stretches,
            antipodal_check,
            ..
        } if stretches.is_empty() => Palette::plain_dqs(&world_from_bind, *antipodal_check),
        Palette::DualQuats {
            antipodal_check, ..
        } => Palette::new(
            world_from_bind,
            Blend::DualQuaternion {
                antipodal_check: *antipodal_check,
            },
        ),
        Palette::Centres { .. } => Palette::new(world_from_bind, Blend::Centres),
    }
}

/// The CPU reference of `draw` with `palette` in place of its own.
fn cpu_with(draw: &SkinnedDraw, palette: Palette) -> Vec<SkinnedVertex> {
    SkinnedDraw {
        palette,
        ..draw.clone()
    }
    .skin_on_cpu()
}

/// Every documented link's skinned draws through the shader each is drawn with (its
/// palette path, joint indices, normal method and `w`), against the CPU reference of the
/// same draw; then each page mesh on random poses (uniform scale, any turn), and on
/// poses that break the math (each axis scaled from 1e-6 to 1e6, moved up to a thousand
/// units), where nothing the shader writes may be NaN or infinite and every normal is a
/// unit vector or zero.
fn check_every_page(api: Api) {
    let Some(h) = headless(api) else { return };
    let renderer = SceneRenderer::new(&h.gl)
        .unwrap_or_else(|log| panic!("shaders must build on {api:?}:\n{log}"));
    let mut pages = std::collections::BTreeSet::new();
    let (mut draws, mut vertices, mut posed) = (0usize, 0usize, 0usize);
    let mut worst = (0.0f32, 0.0f32);
    // Page meshes already posed at random, by size and first position: many links
    // draw the same mesh.
    let mut seen = std::collections::HashSet::new();
    let mut runner = TestRunner::deterministic();
    for (link, page, link_draws) in documented_draws() {
        for draw in link_draws {
            // A streamed draw's shader gets the CPU's vertices in place of the mesh's.
            let drawn = match &draw.streamed {
                Some(_) => MeshData::shared(
                    std::sync::Arc::new(draw.drawn_skin().into_owned()),
                    draw.mesh.indices.clone(),
                    draw.mesh.primitive,
                ),
                None => draw.mesh.clone(),
            };
            let gpu = SkinnedMeshGpu::upload(&h.gl, &drawn).expect("upload");
            let cpu = draw.skin_on_cpu();
            let (dp, dn) = draw_difference(&h, &renderer, &gpu, draw, &draw.palette, &cpu);
            assert!(
                dp <= TOLERANCE && dn <= DQS_NORMAL_TOLERANCE,
                "{api:?} `{link}`: a draw of {} vertices ({:?}) differs from the CPU by {dp} in position, {dn} in normal",
                cpu.len(),
                draw.switches()
            );
            worst = (worst.0.max(dp), worst.1.max(dn));
            draws += 1;
            vertices += cpu.len().min(PAGE_MESH_VERTICES);
            pages.insert(page.as_str());

            let skin = &draw.mesh.skin;
            let key = (
                skin.positions.len(),
                draw.palette.len(),
                skin.positions
                    .first()
                    .map(|p| p.to_array().map(f32::to_bits)),
                std::mem::discriminant(&draw.palette),
            );
            if seen.insert(key) {
                let joints = draw.palette.len();
                let poses = [
                    (arb_local().boxed(), true),
                    (common::poses::extreme_joint(6.0).boxed(), false),
                ];
                for (poses, compare) in poses {
                    for _ in 0..4 {
                        let world = prop::collection::vec(poses.clone(), joints)
                            .new_tree(&mut runner)
                            .expect("a pose")
                            .current();
                        let palette = same_path(draw, world);
                        let cpu = cpu_with(draw, palette.clone());
                        if compare {
                            let (dp, dn) =
                                draw_difference(&h, &renderer, &gpu, draw, &palette, &cpu);
                            assert!(
                                dp <= TOLERANCE && dn <= DQS_NORMAL_TOLERANCE,
                                "{api:?} `{link}` posed at random: positions differ by {dp}, normals by {dn}"
                            );
                        } else {
                            let captured = capture_skinned_range(
                                &h.gl,
                                &renderer,
                                &gpu,
                                &palette,
                                draw.switches(),
                                0..PAGE_MESH_VERTICES,
                                draw.shader_morph_weights(),
                            )
                            .expect("capture");
                            for (i, (p, n)) in captured.iter().enumerate() {
                                let length = n.length();
                                assert!(
                                    p.is_finite()
                                        && n.is_finite()
                                        && (length == 0.0 || (length - 1.0).abs() < 1e-3),
                                    "{api:?} `{link}` at extreme scales, vertex {i}: position {p}, normal {n} (length {length}); the CPU gives {:?}",
                                    cpu[i]
                                );
                            }
                        }
                        posed += 1;
                    }
                }
            }
            gpu.destroy(&h.gl);
        }
    }
    eprintln!(
        "{api:?}: {draws} draws of {} documented links on {} pages, {vertices} vertices, worst (position, normal) {worst:?}; {posed} random poses of {} page meshes",
        documented_draws().len(),
        pages.len(),
        seen.len()
    );
    let without: Vec<_> = skinlab::pages::PAGES
        .iter()
        .map(|p| p.info.slug)
        .filter(|slug| !pages.contains(slug))
        .collect();
    assert!(
        without.is_empty(),
        "pages whose links drew no skinned mesh: {without:?}"
    );
    renderer.destroy(&h.gl);
}

on_both_apis!(check_every_page: every_pages_draws_match_cpu_on_gl_core_330, every_pages_draws_match_cpu_on_gles_300);
