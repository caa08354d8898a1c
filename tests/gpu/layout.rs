//! How a mesh's vertices lie in its buffer: a colour stored as bytes reads back as the
//! colour, and a mesh without colours draws white, whatever mesh was drawn before it
//! (the constant a draw reads for a missing attribute is the context's, not the mesh's).

// The test reads the headless context's pixels through glow itself.
#![allow(unsafe_code)]

use crate::common;

use common::{Api, headless};
use glam::{Mat4, Vec3};
use glow::HasContext as _;
use scene::{Alpha, MeshData, Palette, Primitive, Scene, SkinnedDraw};
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
    drawn_with(gl, renderer, mesh, Alpha::Premultiplied)
}

/// The middle pixel after drawing `mesh` unlit in white over black, its alpha read as
/// `alpha` says.
fn drawn_with(
    gl: &glow::Context,
    renderer: &mut gl::SceneRenderer,
    mesh: std::sync::Arc<MeshData>,
    alpha: Alpha,
) -> [u8; 4] {
    let mut draw = SkinnedDraw::surface(mesh, Palette::Matrices(vec![Mat4::IDENTITY]), [1.0; 4]);
    draw.lit = false;
    draw.alpha = alpha;
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

fn check_colours(api: Api) {
    let Some(h) = headless(api) else {
        return;
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

on_both_apis!(check_colours: vertex_colours_read_back_as_stored_and_a_mesh_without_them_draws_white_on_gl_core_330, vertex_colours_read_back_as_stored_and_a_mesh_without_them_draws_white_on_gles_300);

fn check_alpha_modes(api: Api) {
    let Some(h) = headless(api) else {
        return;
    };
    let gl = &h.gl;
    let mut renderer = gl::SceneRenderer::new(gl).expect("shaders");
    let mut draw = |alpha: Alpha, a: f32| {
        drawn_with(gl, &mut renderer, square(Some([1.0, 0.5, 0.0, a])), alpha)
    };
    // glTF's OPAQUE: an alpha of 0 is ignored, the surface drawn whole.
    assert_eq!(
        draw(Alpha::Opaque, 0.0),
        [255, 128, 0, 255],
        "{api:?}: opaque"
    );
    // MASK: below the cutoff, nothing (the black behind); at or above it, opaque.
    assert_eq!(draw(Alpha::Mask(0.5), 0.25), [0, 0, 0, 255], "{api:?}: cut");
    assert_eq!(
        draw(Alpha::Mask(0.5), 0.75),
        [255, 128, 0, 255],
        "{api:?}: kept"
    );
    // BLEND: a quarter of the colour over the black behind.
    let blended = draw(Alpha::Blend, 0.25);
    for (got, want) in blended.iter().zip([64, 32, 0, 255]) {
        assert!(got.abs_diff(want) <= 1, "{api:?}: blended {blended:?}");
    }
    renderer.destroy(gl);
}

on_both_apis!(check_alpha_modes: each_alpha_mode_draws_as_gltf_says_on_gl_core_330, each_alpha_mode_draws_as_gltf_says_on_gles_300);

fn check_staged(api: Api) {
    let Some(h) = headless(api) else {
        return;
    };
    let gl = &h.gl;
    let arm = rigs::arm::mesh(rigs::arm::Falloff::Smooth, 1.0).expect("arm");
    let n = arm.skin.positions.len();
    let colors = (0..n)
        .map(|i| [(i % 7) as f32 / 6.0, 0.5, 1.0, 1.0])
        .collect();
    let mut mesh = MeshData::with_colors(arm.skin, arm.triangles, Primitive::Triangles, colors);
    std::sync::Arc::get_mut(&mut mesh).expect("one owner").uvs =
        (0..n).map(|i| [i as f32, -(i as f32)]).collect();
    let stride = 60;
    // One piece holds it all, or 1,000 bytes at a time: 16 vertices, 250 indices.
    let whole = gl::Staging::new(1 << 24);
    let small = gl::Staging::new(1000);
    let mut read = Vec::new();
    for mut staging in [whole, small] {
        let gpu = gl::SkinnedMeshGpu::upload_through(gl, &mesh, &mut staging).expect("upload");
        read.push(gpu.read_back(gl));
        gpu.destroy(gl);
        staging.destroy(gl);
    }
    let (vertices, indices) = &read[1];
    assert!(
        vertices.len() > 1000 && indices.len() > 1000,
        "{api:?}: many pieces"
    );
    // Compared whole, not printed whole: the buffers are hundreds of kilobytes.
    assert!(
        read[0] == read[1],
        "{api:?}: the same bytes, whatever the pieces"
    );
    let wanted: &[u8] = bytemuck::cast_slice(&mesh.indices);
    assert!(
        indices.as_slice() == wanted,
        "{api:?}: the indices as given"
    );
    for (i, vertex) in vertices.chunks(stride).enumerate() {
        let floats = |at: usize, k: usize| -> Vec<f32> {
            bytemuck::pod_collect_to_vec(&vertex[at..at + 4 * k])
        };
        let p = mesh.skin.positions[i];
        assert_eq!(floats(0, 3), p.to_array(), "{api:?}: vertex {i}'s position");
        let weights = floats(24, 4);
        assert_eq!(weights, mesh.skin.influences[i].weights, "{api:?}: weights");
        let joints: Vec<i16> = bytemuck::pod_collect_to_vec(&vertex[40..48]);
        let want = mesh.skin.influences[i].joints.map(|j| j as i16);
        assert_eq!(joints, want, "{api:?}: vertex {i}'s joints");
        assert_eq!(vertex[48], ((i % 7) as f32 / 6.0 * 255.0).round() as u8);
        assert_eq!(
            floats(52, 2),
            [i as f32, -(i as f32)],
            "{api:?}: vertex {i}'s uv"
        );
    }
    // An empty mesh: nothing staged, nothing read, and no error left behind.
    let empty = MeshData::new(SkinMesh::default(), Vec::new(), Primitive::Triangles);
    let gpu = gl::SkinnedMeshGpu::upload(gl, &empty).expect("an empty mesh uploads");
    assert_eq!(gpu.read_back(gl), (Vec::new(), Vec::new()));
    gpu.destroy(gl);
    // SAFETY: reading the error flag of the current context.
    assert_eq!(unsafe { gl.get_error() }, glow::NO_ERROR, "{api:?}");
}

on_both_apis!(check_staged: a_mesh_staged_in_many_small_pieces_is_the_same_mesh_on_the_gpu_on_gl_core_330, a_mesh_staged_in_many_small_pieces_is_the_same_mesh_on_the_gpu_on_gles_300);
