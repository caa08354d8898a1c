//! End to end: the built binary opens a page link under Xvfb, saves a screenshot, and
//! the purple lines the skinning shader drew are where the CPU reference says.

use crate::common;

use skin::lbs::{inverse_bind, palette, skin_vertices};
use skinlab::pages::grid::MESH_COLOR;
use skinlab::pages::grid::data as grid;
use std::path::{Path, PathBuf};

/// Runs `skinlab LINK --screenshot` under Xvfb; `None` (outside CI only) when there is no Xvfb.
fn screenshot(link: &str, name: &str) -> Option<PathBuf> {
    screenshot_with(&[link], name)
}

/// Runs `skinlab ARGS --screenshot` under Xvfb, like [`screenshot`].
fn screenshot_with(args: &[&str], name: &str) -> Option<PathBuf> {
    let link = args.join(" ");
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let path = dir.join(name);
    let _ = std::fs::remove_file(&path);
    let mut all: Vec<&std::ffi::OsStr> = args.iter().map(std::ffi::OsStr::new).collect();
    all.extend([std::ffi::OsStr::new("--screenshot"), path.as_os_str()]);
    let output = common::run_in_xvfb(&all)?;
    assert!(
        output.status.success(),
        "skinlab {link} --screenshot failed: {}\n{}",
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
    Some(path)
}

/// How many pixels of `path` are within `tolerance` of `color` in each channel, and
/// their bounding box (min x, min y, max x, max y).
fn color_box(path: &Path, color: [u8; 3], tolerance: u8) -> (usize, (u32, u32, u32, u32)) {
    pixel_box(path, |_, _, p| {
        (0..3).all(|c| p[c].abs_diff(color[c]) <= tolerance)
    })
}

/// How many pixels of `path` `keep` (given x, y and the colour) holds, and their
/// bounding box (min x, min y, max x, max y).
fn pixel_box(
    path: &Path,
    keep: impl Fn(u32, u32, [u8; 3]) -> bool,
) -> (usize, (u32, u32, u32, u32)) {
    let img = image::open(path).expect("a PNG").to_rgb8();
    let mut bbox = (u32::MAX, u32::MAX, 0, 0);
    let mut count = 0;
    for (x, y, p) in img.enumerate_pixels() {
        if keep(x, y, p.0) {
            count += 1;
            bbox = (bbox.0.min(x), bbox.1.min(y), bbox.2.max(x), bbox.3.max(y));
        }
    }
    (count, bbox)
}

/// Bounding box (min x, min y, max x, max y) of the pixels in exactly the mesh colour.
fn mesh_box(path: &Path) -> (u32, u32, u32, u32) {
    let img = image::open(path).expect("a PNG").to_rgba8();
    assert_eq!(img.dimensions(), (1280, 800), "the window is 1280x800");
    let [r, g, b, _] = MESH_COLOR.to_array();
    let (count, bbox) = color_box(path, [r, g, b], 3);
    assert!(
        count > 100,
        "{}: the shader's purple lines are on screen ({count} purple pixels)",
        path.display()
    );
    bbox
}

/// World-space bounds (min, max) of the skinned grid at `angle`, from the CPU reference.
fn cpu_bounds(angle: f32) -> (glam::Vec3, glam::Vec3) {
    let skeleton = grid::skeleton();
    let bind = skeleton.world_from_joint(&grid::parent_from_joint([0.0; 3]));
    let pose = skeleton.world_from_joint(&grid::parent_from_joint([angle; 3]));
    let pal = palette(&pose, &inverse_bind(&bind).unwrap());
    let points: Vec<_> = skin_vertices(&pal, &grid::mesh().unwrap())
        .iter()
        .map(|v| v.position)
        .collect();
    let (min, max) = points.iter().fold((points[0], points[0]), |(lo, hi), p| {
        (lo.min(*p), hi.max(*p))
    });
    (min, max)
}

/// World-space extents (width, height) of the skinned grid at `angle`.
fn cpu_extents(angle: f32) -> (f32, f32) {
    let (min, max) = cpu_bounds(angle);
    (max.x - min.x, max.y - min.y)
}

#[test]
fn straight_and_bent_grids_are_drawn_where_the_cpu_says() {
    let Some(straight) = screenshot("grid?angle=0", "grid-straight.png") else {
        return;
    };
    let Some(bent) = screenshot("grid?angle=0.8", "grid-bent.png") else {
        return;
    };
    let s = mesh_box(&straight);
    let b = mesh_box(&bent);
    let (sw, sh) = ((s.2 - s.0) as f32, (s.3 - s.1) as f32);
    let (bw, bh) = ((b.2 - b.0) as f32, (b.3 - b.1) as f32);

    // The straight grid is 8 x 2 units: this fixes the scale in pixels per unit.
    let (cw, ch) = cpu_extents(0.0);
    assert!((cw - 8.0).abs() < 1e-5 && (ch - 2.0).abs() < 1e-5);
    let scale = sw / cw;
    assert!(
        (sh - ch * scale).abs() <= 3.0,
        "straight: {sw}x{sh} px is 8x2 units at {scale} px/unit"
    );

    // The bent grid must have the size the CPU reference predicts at that scale. Vertex
    // dots (radius 3.5 px), joint circles and labels cover line ends: allow 4% or 8 px.
    let (cw, ch) = cpu_extents(0.8);
    assert!(
        (bw - cw * scale).abs() <= 8.0_f32.max(0.04 * cw.max(ch) * scale),
        "bent width: {bw} px, CPU predicts {}",
        cw * scale
    );
    assert!(
        (bh - ch * scale).abs() <= 8.0_f32.max(0.04 * cw.max(ch) * scale),
        "bent height: {bh} px, CPU predicts {}",
        ch * scale
    );
    assert!(
        bh > sh * 2.0,
        "bending raises the chain: {sh} -> {bh} px tall"
    );

    // And where: the straight grid's box pins world (0, 1) to a pixel; the bent grid's
    // left and top edges must land where the CPU's bounds put them from there.
    let (min, max) = cpu_bounds(0.8);
    let (s_min, s_max) = cpu_bounds(0.0);
    let left = s.0 as f32 + (min.x - s_min.x) * scale;
    let top = s.1 as f32 - (max.y - s_max.y) * scale;
    let tolerance = 8.0_f32.max(0.04 * cw.max(ch) * scale);
    assert!(
        (b.0 as f32 - left).abs() <= tolerance,
        "bent left edge at {} px, CPU predicts {left}",
        b.0
    );
    assert!(
        (b.1 as f32 - top).abs() <= tolerance,
        "bent top edge at {} px, CPU predicts {top}",
        b.1
    );
}

#[test]
fn an_opened_file_is_drawn_and_the_link_applies_to_it() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let file = dir.join("MySkin.gltf");
    std::fs::write(
        &file,
        skinlab::models::bytes("simple_skin").expect("bundled"),
    )
    .expect("written");
    let file = file.to_str().expect("utf-8");
    let Some(rest) = screenshot_with(&["--open", file, "model?t=0"], "open-rest.png") else {
        return;
    };
    let Some(bent) = screenshot_with(&["--open", file, "model?t=1"], "open-bent.png") else {
        return;
    };
    // The mesh is drawn in the first tint, lit by the headlight (the loader gives
    // SimpleSkin normals from its triangles): the tint times a shade from 0.35 to 1.
    // At t = 1 s its top half has turned 90°, so the tinted area's box gets wider and
    // less tall.
    let tint = skinlab::pages::model::MESH_TINTS[0]
        .to_array()
        .map(f32::from);
    let tinted_box = |path: &Path| {
        let (count, bbox) = pixel_box(path, |x, _, p| {
            let shade = f32::from(p[0]) / tint[0];
            let near = (1..3).all(|c| (f32::from(p[c]) - shade * tint[c]).abs() <= 8.0);
            (0.3..=1.02).contains(&shade) && near && x >= 720
        });
        assert!(
            count > 2000,
            "{}: the file's mesh is drawn ({count} px)",
            path.display()
        );
        (bbox.2 - bbox.0, bbox.3 - bbox.1)
    };
    let (rw, rh) = tinted_box(&rest);
    let (bw, bh) = tinted_box(&bent);
    assert!(rh > rw, "at rest SimpleSkin stands up: {rw}x{rh} px");
    assert!(
        bw > rw && bh < rh,
        "bent at t = 1: {rw}x{rh} -> {bw}x{bh} px"
    );
}

/// Pixels of the viewport (the window's right part, 1280×800) where `keep` holds.
fn viewport_pixels(path: &Path, keep: impl Fn([u8; 3]) -> bool) -> usize {
    pixel_box(path, |x, y, p| {
        x >= 720 && (40..770).contains(&y) && keep(p)
    })
    .0
}

#[test]
fn the_fox_is_painted_with_its_texture_and_tinted_without_it() {
    let Some(painted) = screenshot("model?asset=fox&t=0", "fox-painted.png") else {
        return;
    };
    let Some(tinted) = screenshot("model?asset=fox&t=0&materials=false", "fox-tinted.png") else {
        return;
    };
    // The texture's fur: red well above green, green above blue. The tint is a pale
    // beige, nowhere near.
    let fur =
        |[r, g, b]: [u8; 3]| r >= 120 && r.saturating_sub(g) >= 50 && g.saturating_sub(b) >= 15;
    let (on, off) = (
        viewport_pixels(&painted, fur),
        viewport_pixels(&tinted, fur),
    );
    assert!(
        on > 5000,
        "the fox's fur is drawn from its texture ({on} px)"
    );
    assert!(
        off < 100,
        "without materials the fox is tinted ({off} px of fur)"
    );
    // Its chest is white in the texture: light greys, lit and shaded.
    let chest = |p: [u8; 3]| {
        let (lo, hi) = (
            p.iter().min().copied().unwrap_or(0),
            p.iter().max().copied().unwrap_or(0),
        );
        lo >= 150 && hi - lo <= 25 && p != [242, 242, 240]
    };
    let white = viewport_pixels(&painted, chest);
    assert!(white > 1000, "the fox's white chest is drawn ({white} px)");
}

/// A deck of `slides` written into a fresh folder `name`, exported with `extra`
/// arguments on a screen of `screen` pixels: the folder the pictures and handout were
/// written to, and the run's output (`None` outside CI where there is no Xvfb).
fn exported(
    name: &str,
    slides: &str,
    extra: &[&str],
    screen: &str,
) -> (PathBuf, Option<std::process::Output>) {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("the folder is made");
    let deck = dir.join("deck.txt");
    std::fs::write(&deck, slides).expect("written");
    // The web app beside the handout's folder, as in the book: its links open there.
    std::fs::create_dir_all(dir.join("app")).expect("the folder is made");
    std::fs::write(dir.join("app/index.html"), "<html>").expect("written");
    let out = dir.join("handout");
    let mut args = vec![
        "--deck",
        deck.to_str().expect("utf-8"),
        "--export",
        out.to_str().expect("utf-8"),
    ];
    args.extend(extra);
    let all: Vec<&std::ffi::OsStr> = args.iter().map(std::ffi::OsStr::new).collect();
    let output = common::run_in_xvfb_on(screen, &all);
    (out, output)
}

#[test]
fn a_deck_exports_a_picture_of_every_slide_and_a_handout() {
    let (out, output) = exported(
        "export",
        "grid?angle=0.8  One vertex, two bones\n> Ask where vertex 8 goes.\n\
         gird?angle=0.8  A slide with a typo\nxray  The matrix X-ray\n",
        &[],
        "1280x800",
    );
    let Some(output) = output else {
        return;
    };
    let stderr = String::from_utf8_lossy(&output.stderr);
    // The typo fails its slide: the run says so and exits 2, with everything written.
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("1 of 3 slides failed") && stderr.contains("Slide 2 failed"),
        "{stderr}"
    );
    for n in 1..=3 {
        let picture = out.join(format!("slide-0{n}.png"));
        let image = image::open(&picture).unwrap_or_else(|e| panic!("{}: {e}", picture.display()));
        assert_eq!((image.width(), image.height()), (1280, 800));
    }
    // The grid's picture shows its purple lines; the failed slide's does not.
    let purple = |n: usize| {
        let [r, g, b, _] = MESH_COLOR.to_array();
        color_box(&out.join(format!("slide-0{n}.png")), [r, g, b], 3).0
    };
    assert!(
        purple(1) > 100 && purple(2) == 0,
        "{} and {}",
        purple(1),
        purple(2)
    );
    let html = std::fs::read_to_string(out.join("index.html")).expect("the handout");
    for part in [
        "<h2>1. One vertex, two bones</h2>",
        "<p>Ask where vertex 8 goes.</p>",
        "href=\"../app/index.html#grid?angle=0.8\"",
        "<p class=\"failed\">Slide 2 failed",
        "<h2>3. The matrix X-ray</h2>\n<img src=\"slide-03.png\"",
    ] {
        assert!(html.contains(part), "{part} in {html}");
    }
}

#[test]
fn an_exported_deck_says_which_focused_slides_would_scroll_on_the_projector() {
    // Two moments a lecturer found scrolling once their deck's bar took a row, and a
    // cell as long as the file it lists, which does scroll.
    let (out, output) = exported(
        "export-fit",
        "binding?stage=bind_space&focus=bind_space  Bind space\n\
         hierarchy?joint=hand.L&rot=upper_arm.L:0,0,1.2&scrub=1&focus=chain  The chain\n\
         model?focus=file  The whole file\n",
        &["--presenter", "--size", "1920x1080"],
        "1920x1080",
    );
    let Some(output) = output else {
        return;
    };
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    for n in 1..=3 {
        let picture = out.join(format!("slide-0{n}.png"));
        let image = image::open(&picture).unwrap_or_else(|e| panic!("{}: {e}", picture.display()));
        assert_eq!((image.width(), image.height()), (1920, 1080));
    }
    let scrolls = |n: usize| stderr.contains(&format!("note: slide {n} does not fit the screen"));
    assert!(
        !scrolls(1) && !scrolls(2),
        "the two moments fit with the deck's bar:\n{stderr}"
    );
    assert!(scrolls(3), "the whole file is said to scroll:\n{stderr}");
}
