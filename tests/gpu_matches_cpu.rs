//! GPU = CPU: the skinning shader in `shaders/`, run on a headless context and read
//! back with transform feedback, matches `skin::lbs` within 1e-5.

mod common;

use common::{Api, headless};
use glam::{EulerRot, Mat4, Quat, Vec3};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use skinlab::gl::{MeshData, Primitive, SceneRenderer, SkinnedMeshGpu, capture_skinned};
use skinlab::skin::lbs::{SkinMesh, inverse_bind, palette, skin_vertices};
use skinlab::skin::{Influences, Skeleton, grid};

const TOLERANCE: f32 = 1e-5;

/// Skins `mesh` on both sides and returns the largest difference (relative to the size
/// of the position, absolute for unit normals).
fn max_difference(
    h: &common::Headless,
    renderer: &SceneRenderer,
    mesh: SkinMesh,
    pal: &[Mat4],
) -> (f32, f32) {
    let data = MeshData::new(mesh, Vec::new(), Primitive::Lines);
    let gpu = SkinnedMeshGpu::upload(&h.gl, &data).expect("upload");
    let captured = capture_skinned(&h.gl, renderer.skin_program, &gpu, pal).expect("capture");
    gpu.destroy(&h.gl);
    let cpu = skin_vertices(pal, &data.skin);
    assert_eq!(captured.len(), cpu.len(), "one captured vertex per vertex");
    let mut worst = (0.0f32, 0.0f32);
    for ((gp, gn), c) in captured.iter().zip(&cpu) {
        let dp = (*gp - c.position).abs().max_element() / c.position.abs().max_element().max(1.0);
        let dn = if data.skin.normals.is_empty() {
            0.0
        } else {
            (*gn - c.normal).abs().max_element()
        };
        worst = (worst.0.max(dp), worst.1.max(dn));
    }
    worst
}

fn arb_case(joints: usize, vertices: usize) -> impl Strategy<Value = (Vec<Mat4>, SkinMesh)> {
    let local = (
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
        });
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
        let (dp, _) = max_difference(&h, &renderer, grid::mesh().expect("grid"), &pal);
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
        .run(&arb_case(12, 64), |(world, mesh)| {
            let (dp, dn) = max_difference(&h, &renderer, mesh, &world);
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

#[test]
fn skinning_shader_matches_cpu_on_gl_core_330() {
    check_api(Api::GlCore33);
}

#[test]
fn skinning_shader_matches_cpu_on_gles_300() {
    check_api(Api::Gles30);
}

#[test]
fn a_broken_shader_reports_the_driver_log() {
    let Some(h) = headless(Api::GlCore33) else {
        return;
    };
    let broken = skinlab::gl::ShaderSource {
        path: "broken.vert",
        text: "void main() { gl_Position = undefined_thing; }",
    };
    let err = skinlab::gl::link_program(&h.gl, &broken, &skinlab::gl::shaders::SKIN_FRAG, &[], &[])
        .unwrap_err();
    assert!(
        err.contains("broken.vert") && err.contains("undefined_thing"),
        "{err}"
    );
}
