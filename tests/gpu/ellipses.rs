//! Ellipse outlines (`shaders/ellipse.vert`) drawn where the CPU puts them: every pixel
//! the shader covers lies near the outline through the points of
//! `EllipseOutline::point`, projected as GL projects them, and every pixel on that
//! outline (away from the sharp ends of a flat one) is covered, by the line and, beside
//! it, by the pale halo.

use crate::common;

use common::{Api, headless};
use glam::camera::rh::proj::opengl::perspective;
use glam::camera::rh::view::look_at_mat4;
use glam::{Mat4, Vec2, Vec3};
use scene::{
    ELLIPSE_HALO, ELLIPSE_HALO_WIDTH, ELLIPSE_SEGMENTS, ELLIPSE_WIDTH, EllipseOutline, Scene,
};

const SIZE: i32 = 64;
/// The projection of the perspective checks: an eye at z = 3 looking down −z.
fn seen() -> Mat4 {
    perspective(1.0, 1.0, 0.1, 50.0) * look_at_mat4(Vec3::Z * 3.0, Vec3::ZERO, Vec3::Y)
}

/// Pixels per point: a line of 4.2 pixels on a halo of 9.
const SCALE: f32 = 3.0;

/// A white outline.
fn outline(center: Vec3, major: Vec3, minor: Vec3) -> EllipseOutline {
    EllipseOutline {
        center,
        major,
        minor,
        color: [1.0; 4],
    }
}

/// Where GL puts a world point in the framebuffer, in pixels from its bottom left
/// corner.
fn to_pixels(clip_from_world: Mat4, world: Vec3) -> Vec2 {
    let clip = clip_from_world * world.extend(1.0);
    (clip.truncate().truncate() / clip.w * 0.5 + 0.5) * SIZE as f32
}

/// The framebuffer after `renderer` draws `ellipses` alone over black through
/// `clip_from_world`.
fn painted(
    h: &common::Headless,
    renderer: &mut gl::SceneRenderer,
    clip_from_world: Mat4,
    ellipses: Vec<EllipseOutline>,
) -> Vec<u8> {
    let scene = Scene {
        clip_from_world,
        background: [0.0, 0.0, 0.0, 1.0],
        ellipses,
        pixels_per_point: SCALE,
        ..Scene::default()
    };
    h.bind_framebuffer();
    renderer
        .paint(&h.gl, &scene, [SIZE as f32; 2])
        .expect("the scene draws");
    crate::pixels(&h.gl, [SIZE; 2])
}

/// How many pixels are not black.
fn lit(pixels: &[u8]) -> usize {
    pixels.chunks(4).filter(|p| p[..3] != [0, 0, 0]).count()
}

/// How far `p` is from the segment `a`–`b`.
fn distance_to_segment(p: Vec2, a: Vec2, b: Vec2) -> f32 {
    let ab = b - a;
    let t = ((p - a).dot(ab) / ab.length_squared().max(1e-12)).clamp(0.0, 1.0);
    p.distance(a + t * ab)
}

/// The CPU's outline of `drawn` in pixels, its first point repeated at the end.
fn outline_px(clip_from_world: Mat4, drawn: &EllipseOutline) -> Vec<Vec2> {
    (0..=ELLIPSE_SEGMENTS)
        .map(|k| to_pixels(clip_from_world, drawn.point(k, ELLIPSE_SEGMENTS)))
        .collect()
}

/// How far `p` is from the polyline `points`.
fn distance(p: Vec2, points: &[Vec2]) -> f32 {
    points
        .windows(2)
        .map(|w| distance_to_segment(p, w[0], w[1]))
        .fold(f32::INFINITY, f32::min)
}

/// Whether `p` lies inside the closed polygon `points` (even-odd).
fn inside(p: Vec2, points: &[Vec2]) -> bool {
    let mut inside = false;
    for w in points.windows(2) {
        let (a, b) = (w[0], w[1]);
        if (a.y > p.y) != (b.y > p.y) && p.x < a.x + (p.y - a.y) / (b.y - a.y) * (b.x - a.x) {
            inside = !inside;
        }
    }
    inside
}

/// One outline drawn alone over black, checked pixel by pixel against the CPU's
/// outline. `sharp_ends`: the outline folds back at the ends of its `major` axis (a
/// flat ellipse), where the band is cut square or mitred and no pixel near them is
/// held to the line or the halo. `halo`: whether the halo ring outside the line is
/// checked too (a flat ellipse's two sides share one halo, drawn twice). Inside, where
/// the outline bends tighter than the halo is wide, the line may cover the halo.
fn check(
    h: &common::Headless,
    renderer: &mut gl::SceneRenderer,
    clip_from_world: Mat4,
    drawn: EllipseOutline,
    sharp_ends: bool,
    halo: bool,
    what: &str,
) {
    let pixels = painted(h, renderer, clip_from_world, vec![drawn]);
    let outline = outline_px(clip_from_world, &drawn);
    let ends = [drawn.center + drawn.major, drawn.center - drawn.major]
        .map(|end| to_pixels(clip_from_world, end));
    let line = ELLIPSE_WIDTH * SCALE;
    let halo_width = ELLIPSE_HALO_WIDTH * SCALE;
    // The band reaches a pixel past half the halo, and its mitres half as far again.
    let reach = 1.5 * (0.5 * halo_width + 1.0) + 0.75;
    let halo_grey = (ELLIPSE_HALO[3] * 255.0).round() as i32;
    let (mut on_line, mut on_halo) = (0, 0);
    for y in 0..SIZE {
        for x in 0..SIZE {
            let at = Vec2::new(x as f32 + 0.5, y as f32 + 0.5);
            let d = distance(at, &outline);
            let red = i32::from(pixels[((y * SIZE + x) * 4) as usize]);
            let near_an_end = sharp_ends && ends.iter().any(|e| e.distance(at) < halo_width);
            if d > reach {
                assert_eq!(red, 0, "{what}: ({x}, {y}) is {d:.1} px off the outline");
            } else if near_an_end {
                continue;
            } else if d < 0.5 * line - 0.6 {
                on_line += 1;
                assert!(red >= 250, "{what}: ({x}, {y}) on the line reads {red}");
            } else if halo
                && d > 0.5 * line + 0.6
                && d < 0.5 * halo_width - 0.6
                && !inside(at, &outline)
            {
                on_halo += 1;
                assert!(
                    (red - halo_grey).abs() <= 3,
                    "{what}: ({x}, {y}) on the halo reads {red}, not {halo_grey}"
                );
            }
        }
    }
    assert!(on_line > 20, "{what}: {on_line} pixels checked on the line");
    assert!(!halo || on_halo > 20, "{what}: {on_halo} on the halo");
}

fn check_outlines(api: Api) {
    let Some(h) = headless(api) else {
        return;
    };
    let mut renderer = gl::SceneRenderer::new(&h.gl).expect("shaders");
    // Flat on the screen: world x and y from −1 to 1 fill the framebuffer.
    let flat = Mat4::IDENTITY;
    let what = format!("{api:?}");
    check(
        &h,
        &mut renderer,
        flat,
        outline(Vec3::ZERO, Vec3::X * 0.6, Vec3::Y * 0.6),
        false,
        true,
        &format!("{what}: a circle"),
    );
    let tilted = Vec3::new(0.6, 0.3, 0.0);
    check(
        &h,
        &mut renderer,
        flat,
        outline(
            Vec3::new(0.1, -0.1, 0.0),
            tilted,
            0.4 * Vec3::new(-tilted.y, tilted.x, 0.0),
        ),
        false,
        true,
        &format!("{what}: a tilted ellipse"),
    );
    check(
        &h,
        &mut renderer,
        flat,
        outline(
            Vec3::ZERO,
            tilted,
            0.04 * Vec3::new(-tilted.y, tilted.x, 0.0),
        ),
        true,
        false,
        &format!("{what}: a thin ellipse"),
    );
    check(
        &h,
        &mut renderer,
        flat,
        outline(Vec3::ZERO, Vec3::new(0.7, -0.2, 0.0), Vec3::ZERO),
        true,
        false,
        &format!("{what}: an ellipse flattened to a line"),
    );
    // Seen in perspective, leaning away from the eye: each point is projected on its
    // own, so the outline is no longer an ellipse's.
    check(
        &h,
        &mut renderer,
        seen(),
        outline(Vec3::ZERO, Vec3::X * 1.0, Vec3::new(0.0, 0.6, -1.6)),
        false,
        true,
        &format!("{what}: a circle in perspective"),
    );
    renderer.destroy(&h.gl);
}

on_both_apis!(check_outlines: each_ellipse_outline_is_drawn_where_the_cpu_puts_it_on_gl_core_330, each_ellipse_outline_is_drawn_where_the_cpu_puts_it_on_gles_300);

/// An outline with a point behind the eye is not drawn at all: projected, its points
/// would wrap round the screen.
fn check_behind(api: Api) {
    let Some(h) = headless(api) else {
        return;
    };
    let mut renderer = gl::SceneRenderer::new(&h.gl).expect("shaders");
    let seen = seen();
    let across_the_eye = outline(Vec3::Z * 2.0, Vec3::Z * 1.5, Vec3::X * 0.5);
    assert!(!across_the_eye.drawable(seen));
    let pixels = painted(&h, &mut renderer, seen, vec![across_the_eye]);
    assert_eq!(lit(&pixels), 0, "{api:?}: pixels drawn");
    // In front of the eye, the same outline shows.
    let in_front = EllipseOutline {
        center: Vec3::ZERO,
        ..across_the_eye
    };
    let pixels = painted(&h, &mut renderer, seen, vec![in_front]);
    assert!(lit(&pixels) > 50, "{api:?}");
    renderer.destroy(&h.gl);
}

on_both_apis!(check_behind: an_ellipse_reaching_behind_the_eye_is_not_drawn_on_gl_core_330, an_ellipse_reaching_behind_the_eye_is_not_drawn_on_gles_300);

/// Several outlines in one draw, one of them behind the eye: each one left is drawn in
/// its own colour (every channel, blended over the halo as egui blends, premultiplied),
/// so each instance reads its own numbers.
fn check_colours(api: Api) {
    let Some(h) = headless(api) else {
        return;
    };
    let mut renderer = gl::SceneRenderer::new(&h.gl).expect("shaders");
    let circle = |x: f32, y: f32, color: [f32; 4]| EllipseOutline {
        color,
        ..outline(Vec3::new(x, y, 0.0), Vec3::X * 0.45, Vec3::Y * 0.45)
    };
    let behind = EllipseOutline {
        center: Vec3::Z * 4.0,
        ..circle(0.0, 0.0, [1.0; 4])
    };
    let drawn_here = [
        circle(-0.6, 0.6, [1.0, 0.0, 0.0, 1.0]),
        behind,
        circle(0.6, 0.6, [0.2, 0.8, 0.4, 1.0]),
        circle(0.0, -0.6, [0.1, 0.3, 1.0, 0.5]),
    ];
    let pixels = painted(&h, &mut renderer, seen(), drawn_here.to_vec());
    let halo = ELLIPSE_HALO[3];
    let line = ELLIPSE_WIDTH * SCALE;
    for (i, e) in drawn_here
        .iter()
        .enumerate()
        .filter(|(_, e)| e.drawable(seen()))
    {
        let outline = outline_px(seen(), e);
        let [r, g, b, a] = e.color;
        // Over the halo's grey, which lies over black.
        let want = [r, g, b].map(|c| 255.0 * (c * a + (1.0 - a) * halo));
        let mut checked = 0;
        for y in 0..SIZE {
            for x in 0..SIZE {
                let at = Vec2::new(x as f32 + 0.5, y as f32 + 0.5);
                if distance(at, &outline) >= 0.5 * line - 0.6 {
                    continue;
                }
                checked += 1;
                let at = ((y * SIZE + x) * 4) as usize;
                let got = &pixels[at..at + 4];
                for (channel, expected) in want.iter().enumerate() {
                    let diff = (f32::from(got[channel]) - expected).abs();
                    assert!(
                        diff <= 3.0,
                        "{api:?}: outline {i} at ({x}, {y}) reads {got:?}, not {want:?}"
                    );
                }
                assert_eq!(got[3], 255, "{api:?}: outline {i} leaves the frame opaque");
            }
        }
        assert!(
            checked > 20,
            "{api:?}: outline {i}: {checked} pixels checked"
        );
    }
    renderer.destroy(&h.gl);
}

on_both_apis!(check_colours: several_outlines_in_one_draw_each_keep_their_colour_on_gl_core_330, several_outlines_in_one_draw_each_keep_their_colour_on_gles_300);
