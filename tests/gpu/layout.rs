//! How a mesh's vertices lie in its buffer: a colour stored as bytes reads back as the
//! colour, and a mesh without colours draws white, whatever mesh was drawn before it
//! (the constant a draw reads for a missing attribute is the context's, not the mesh's).

// The test reads the headless context's pixels through glow itself.
#![allow(unsafe_code)]

use crate::common;

use common::{Api, headless};
use glam::{Mat4, Vec3};
use glow::HasContext as _;
use scene::{MeshData, Palette, Primitive, Scene, SkinnedDraw};
use skin::influences::Influences;
use skin::lbs::SkinMesh;

const SIZE: i32 = 16;

/// A square over the whole view, on joint 0, its vertices in `colors` (none: no
/// colours).
fn square(colors: Option<[f32; 4]>) -> std::sync::Arc<MeshData> {
    let positions = [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)]
        .map(|(x, y)| Vec3::new(x, y, 0.0))
        .to_vec();
    let skin = SkinMesh {
        normals: vec![Vec3::ZERO; 4],
        tangents: vec![Vec3::ZERO; 4],
        influences: vec![Influences::rigid(0); 4],
        positions,
    };
    let triangles = vec![0, 1, 2, 0, 2, 3];
    let colors = colors.map_or_else(Vec::new, |c| vec![c; 4]);
    MeshData::with_colors(skin, triangles, Primitive::Triangles, colors)
}

/// The middle pixel after drawing `mesh` unlit in white over black.
fn drawn(
    gl: &glow::Context,
    renderer: &mut gl::SceneRenderer,
    mesh: std::sync::Arc<MeshData>,
) -> [u8; 4] {
    let mut draw = SkinnedDraw::surface(mesh, Palette::Matrices(vec![Mat4::IDENTITY]), [1.0; 4]);
    draw.lit = false;
    let scene = Scene {
        clip_from_world: Mat4::IDENTITY,
        light_dir: Vec3::Z,
        background: [0.0, 0.0, 0.0, 1.0],
        skinned: vec![draw],
        ..Scene::default()
    };
    renderer
        .paint(gl, &scene, [SIZE as f32; 2])
        .expect("the scene draws");
    let mut pixel = [0u8; 4];
    // SAFETY: the headless context's framebuffer is bound and holds the middle pixel.
    unsafe {
        gl.read_pixels(
            SIZE / 2,
            SIZE / 2,
            1,
            1,
            glow::RGBA,
            glow::UNSIGNED_BYTE,
            glow::PixelPackData::Slice(Some(&mut pixel)),
        );
    }
    pixel
}

#[test]
fn vertex_colours_read_back_as_stored_and_a_mesh_without_them_draws_white() {
    for api in [Api::GlCore33, Api::Gles30] {
        let Some(h) = headless(api) else {
            continue;
        };
        let gl = &h.gl;
        let mut renderer = gl::SceneRenderer::new(gl).expect("shaders");
        let green = drawn(gl, &mut renderer, square(Some([0.0, 1.0, 0.0, 1.0])));
        assert_eq!(green, [0, 255, 0, 255], "{api:?}: the vertices' green");
        let white = drawn(gl, &mut renderer, square(None));
        assert_eq!(
            white, [255; 4],
            "{api:?}: no colours, drawn after green ones"
        );
        let mixed = drawn(gl, &mut renderer, square(Some([0.25, 0.5, 0.75, 1.0])));
        for (got, want) in mixed.iter().zip([64, 128, 191, 255]) {
            assert!(
                got.abs_diff(want) <= 1,
                "{api:?}: {mixed:?} for 0.25, 0.5, 0.75"
            );
        }
        let outside = drawn(gl, &mut renderer, square(Some([2.0, -1.0, f32::NAN, 1.0])));
        assert_eq!(outside, [255, 0, 0, 255], "{api:?}: clamped, NaN black");
        renderer.destroy(gl);
    }
}
