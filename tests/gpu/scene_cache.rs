//! A viewport's cached picture: a big scene unchanged since the last frame is copied
//! back, not drawn again, and the copy shows what drawing it would; a changed scene,
//! and any small one, is drawn anew.

// The test reads the headless context's pixels through glow itself.
#![allow(unsafe_code)]

use crate::common;

use common::{Api, headless};
use gl::{KEPT_FROM_VERTICES, SceneCache, SceneRenderer, ViewportPx};
use glam::{Mat4, Vec3};
use glow::HasContext as _;
use rigs::arm;
use scene::{MeshData, Palette, Primitive, Scene, SkinnedDraw};
use skin::lbs::SkinMesh;

/// `skin` with copies of its vertices that no triangle uses, enough for the cache to
/// keep a scene of it.
fn big(skin: SkinMesh) -> SkinMesh {
    let n = KEPT_FROM_VERTICES.div_ceil(skin.positions.len());
    SkinMesh {
        positions: skin.positions.repeat(n),
        normals: skin.normals.repeat(n),
        tangents: skin.tangents.repeat(n),
        influences: skin.influences.repeat(n),
    }
}

const SIZE: i32 = 64;

/// The headless context's 64 × 64 framebuffer.
fn read(gl: &glow::Context) -> Vec<u8> {
    crate::pixels(gl, [SIZE; 2])
}

fn clear(gl: &glow::Context) {
    // SAFETY: plain state changes on the current context.
    unsafe {
        gl.clear_color(0.0, 0.0, 0.0, 1.0);
        gl.clear(glow::COLOR_BUFFER_BIT);
    }
}

#[test]
fn an_unchanged_scene_is_copied_and_looks_as_drawn() {
    let Some(h) = headless(Api::GlCore33) else {
        return;
    };
    let gl = &h.gl;
    let mut renderer = SceneRenderer::new(gl).expect("shaders");
    let arm = arm::mesh(arm::Falloff::Smooth, arm::DEFAULT_BLEND_WIDTH).expect("arm");
    let small = MeshData::new(
        arm.skin.clone(),
        arm.triangles.clone(),
        Primitive::Triangles,
    );
    let mesh = MeshData::new(big(arm.skin), arm.triangles, Primitive::Triangles);
    // x from -0.5 to 4.5 and y from -2.5 to 2.5 fill the view.
    let view = Mat4::from_translation(Vec3::new(-0.8, 0.0, 0.0))
        * Mat4::from_scale(Vec3::new(0.4, 0.4, 0.1));
    let scene_of = |mesh: &std::sync::Arc<MeshData>, bend: f32| {
        let mut scene = Scene {
            clip_from_world: view,
            light_dir: Vec3::Z,
            background: [0.2, 0.4, 0.6, 1.0],
            ..Scene::default()
        };
        scene.skinned.push(SkinnedDraw::surface(
            mesh.clone(),
            Palette::Matrices(arm::palette(0.0, bend)),
            [0.9, 0.6, 0.3, 1.0],
        ));
        scene.line(Vec3::ZERO, Vec3::new(4.0, 2.0, 0.0), [1.0, 0.0, 0.0, 1.0]);
        scene
    };
    let scene = |bend: f32| scene_of(&mesh, bend);
    // SAFETY: egui paints with the scissor test on, around the viewport.
    let target = unsafe {
        gl.enable(glow::SCISSOR_TEST);
        gl.scissor(0, 0, SIZE, SIZE);
        gl.get_parameter_framebuffer(glow::DRAW_FRAMEBUFFER_BINDING)
    };
    let viewport: ViewportPx = [0, 0, SIZE, SIZE];

    // Straight into the framebuffer, as the web build draws.
    renderer
        .paint(gl, &scene(1.0), [SIZE as f32; 2])
        .expect("drawn");
    let direct = read(gl);

    let mut cache = SceneCache::new(gl).expect("a cache");
    for _ in 0..3 {
        clear(gl);
        let drawn = cache.paint(gl, &mut renderer, &scene_of(&small, 1.0), viewport, target);
        assert_eq!(drawn, Ok(true), "a small scene is drawn every time");
        assert_eq!(read(gl), direct, "the same picture");
    }

    let mut cache = SceneCache::new(gl).expect("a cache");
    clear(gl);
    let drawn = cache.paint(gl, &mut renderer, &scene(1.0), viewport, target);
    assert_eq!(drawn, Ok(true), "the first paint draws");
    let first = read(gl);
    assert_eq!(first, direct, "the unused vertices change nothing");
    clear(gl);
    let kept = cache.paint(gl, &mut renderer, &scene(1.0), viewport, target);
    assert_eq!(
        kept,
        Ok(true),
        "shown twice, the scene is drawn into the cache"
    );
    assert_eq!(
        read(gl),
        direct,
        "drawn through the cache, the picture is the same"
    );

    clear(gl);
    let again = cache.paint(gl, &mut renderer, &scene(1.0), viewport, target);
    assert_eq!(again, Ok(false), "the same scene is copied, not drawn");
    assert_eq!(read(gl), first, "and the copy is the picture");

    let bent = cache.paint(gl, &mut renderer, &scene(2.0), viewport, target);
    assert_eq!(bent, Ok(true), "another pose is drawn anew");
    assert_ne!(read(gl), first, "and looks different");

    let other = MeshData::new(
        big(rigs::arm::mesh(arm::Falloff::Rigid, 1.0).expect("arm").skin),
        Vec::new(),
        Primitive::Triangles,
    );
    let mut swapped = scene(2.0);
    swapped.skinned[0].mesh = other;
    let redrawn = cache.paint(gl, &mut renderer, &swapped, viewport, target);
    assert_eq!(
        redrawn,
        Ok(true),
        "another mesh is drawn anew, even in the same pose"
    );

    let resized = cache.paint(gl, &mut renderer, &swapped, [0, 0, 32, 32], target);
    assert_eq!(resized, Ok(true), "a new size is drawn anew");

    // Wider than any renderbuffer: drawn straight into the framebuffer, no error left.
    let huge = cache.paint(gl, &mut renderer, &swapped, [0, 0, i32::MAX, 32], target);
    assert_eq!(huge, Ok(true), "drawn without the cache");
    // SAFETY: reading the error flag of the current context.
    assert_eq!(unsafe { gl.get_error() }, glow::NO_ERROR);
    cache.destroy(gl);
    renderer.destroy(gl);
}

#[test]
fn vertices_skinned_on_the_cpu_and_streamed_look_as_the_shader_draws_them() {
    let Some(h) = headless(Api::GlCore33) else {
        return;
    };
    let gl = &h.gl;
    let mut renderer = SceneRenderer::new(gl).expect("shaders");
    let arm = arm::mesh(arm::Falloff::Smooth, arm::DEFAULT_BLEND_WIDTH).expect("arm");
    let mesh = MeshData::new(arm.skin, arm.triangles, Primitive::Triangles);
    let view = Mat4::from_translation(Vec3::new(-0.8, 0.0, 0.0))
        * Mat4::from_scale(Vec3::new(0.4, 0.4, 0.1));
    let picture = |renderer: &mut SceneRenderer, draw: SkinnedDraw| {
        let scene = Scene {
            clip_from_world: view,
            light_dir: Vec3::Z,
            background: [0.2, 0.4, 0.6, 1.0],
            skinned: vec![draw],
            ..Scene::default()
        };
        clear(gl);
        renderer
            .paint(gl, &scene, [SIZE as f32; 2])
            .expect("the scene draws");
        read(gl)
    };
    let color = [0.9, 0.6, 0.3, 1.0];
    let mut seen = Vec::new();
    for bend in [0.0, 0.9, -1.4] {
        let palette = arm::palette(0.3, bend);
        let by_shader =
            SkinnedDraw::surface(mesh.clone(), Palette::Matrices(palette.clone()), color);
        let skinned = by_shader.skin_on_cpu();
        let mut streamed = SkinnedDraw::surface(
            mesh.clone(),
            Palette::Matrices(vec![Mat4::IDENTITY; palette.len()]),
            color,
        );
        streamed.streamed = Some(scene::Streamed::new(
            skinned.iter().map(|v| v.position).collect(),
            skinned.iter().map(|v| v.normal).collect(),
        ));
        // The reference, through the draw's own CPU view of what the shader gets.
        assert_eq!(streamed.skin_on_cpu().len(), skinned.len());
        let expected = picture(&mut renderer, by_shader);
        let got = picture(&mut renderer, streamed);
        let differing = expected
            .chunks(4)
            .zip(got.chunks(4))
            .filter(|(a, b)| a.iter().zip(*b).any(|(x, y)| x.abs_diff(*y) > 2))
            .count();
        assert!(
            differing <= 2,
            "bend {bend}: {differing} pixels differ between the shader's skinning and the streamed vertices"
        );
        seen.push(got);
    }
    // Each bend streamed new vertices: the pictures moved.
    assert_ne!(seen[0], seen[1]);
    assert_ne!(seen[1], seen[2]);
    // A stream of the wrong length is refused with the reason, not drawn.
    let mut short = SkinnedDraw::surface(
        mesh.clone(),
        Palette::Matrices(vec![Mat4::IDENTITY; 3]),
        color,
    );
    short.streamed = Some(scene::Streamed::new(vec![Vec3::ZERO; 2], vec![Vec3::Z; 2]));
    let scene = Scene {
        skinned: vec![short],
        ..Scene::default()
    };
    let err = renderer.paint(gl, &scene, [SIZE as f32; 2]).unwrap_err();
    assert!(err.contains("2 streamed positions"), "{err}");
    renderer.destroy(gl);
}

#[test]
fn every_upload_method_leaves_exactly_the_streamed_bytes_in_the_buffer() {
    let Some(h) = headless(Api::GlCore33) else {
        return;
    };
    let gl = &*h.gl;
    // Three runs as a CPU-skinned mesh streams them, big enough for the copy to be
    // shared between threads; each byte tells its run and place.
    let run = |k: usize| -> Vec<u8> {
        (0..3 << 20)
            .map(|i: usize| (i * 7 + k * 31) as u8)
            .collect()
    };
    let runs = [run(0), run(1), run(2)];
    let runs: Vec<&[u8]> = runs.iter().map(Vec::as_slice).collect();
    let expected = runs.concat();
    for &upload in gl::Upload::OFFERED {
        let buffer = gl::StreamBuffer::new(gl, expected.len(), upload).expect("a buffer");
        // Twice: the second write replaces the first in place.
        for _ in 0..2 {
            buffer.write(gl, &runs).expect("written");
        }
        let mut read = vec![0u8; expected.len()];
        // SAFETY: the buffer holds `expected.len()` bytes; the binding is restored.
        unsafe {
            gl.bind_buffer(glow::ARRAY_BUFFER, Some(buffer.buffer()));
            gl.get_buffer_sub_data(glow::ARRAY_BUFFER, 0, &mut read);
            gl.bind_buffer(glow::ARRAY_BUFFER, None);
            assert_eq!(gl.get_error(), glow::NO_ERROR, "{}", upload.name());
        }
        assert!(read == expected, "{} wrote other bytes", upload.name());
        assert!(
            buffer.write(gl, &runs[..2]).is_err(),
            "{}: a stream must fill the buffer",
            upload.name()
        );
        buffer.destroy(gl);
    }
}
