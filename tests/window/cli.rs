//! The command line: `--help` lists every option, and a bad option, value or link is
//! refused with a message naming it and exit code 2, before any window opens (none of
//! these tests needs a display).

use std::process::{Command, Output};

fn skinlab(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_skinlab"))
        .args(args)
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .output()
        .expect("the binary runs")
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

#[test]
fn help_lists_every_option() {
    for flag in ["--help", "-h"] {
        let out = skinlab(&[flag]);
        assert!(out.status.success(), "{flag}: {}", stderr(&out));
        let help = String::from_utf8_lossy(&out.stdout);
        for option in [
            "LINK",
            "--screenshot PATH",
            "--presenter",
            "--size WxH",
            "--list-pages",
            "--bench",
            "--bench cpu",
            "--csv",
            "--vertices N,...",
            "--simd NAME",
            "--open FILE",
            "--deck FILE",
            "--help",
        ] {
            assert!(help.contains(option), "{flag} lists `{option}`:\n{help}");
        }
        assert!(!help.contains('\\'), "no stray backslash:\n{help}");
        assert!(help.starts_with("usage: skinlab"), "{help}");
    }
}

#[test]
fn an_unknown_option_is_named_with_exit_code_2() {
    let out = skinlab(&["grid", "--bogus"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("unknown option `--bogus`"),
        "{}",
        stderr(&out)
    );
    assert!(out.stdout.is_empty());
}

#[test]
fn a_bad_size_is_refused_with_exit_code_2() {
    for (args, shown) in [
        (&["--size", "huge"][..], "not `huge`"),
        (&["--size", "100x100"], "not `100x100`"),
        (&["--size", "1280x"], "not `1280x`"),
        (&["--size"], "--size needs WIDTHxHEIGHT"),
    ] {
        let out = skinlab(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        assert!(stderr(&out).contains(shown), "{args:?}: {}", stderr(&out));
    }
}

#[test]
fn a_second_link_and_a_value_on_a_flag_are_refused() {
    let out = skinlab(&["grid", "xray"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("`xray`"), "{}", stderr(&out));
    let out = skinlab(&["--presenter=yes"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("--presenter takes no value"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn list_pages_prints_the_registry_in_order() {
    let out = skinlab(&["--list-pages"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let pages = String::from_utf8_lossy(&out.stdout);
    assert_eq!(pages.lines().collect::<Vec<_>>(), skinlab::pages::slugs());
}

#[test]
fn a_bad_link_with_screenshot_fails_before_a_window_opens() {
    let out = skinlab(&["nowhere?x=1", "--screenshot", "never.png"]);
    assert_eq!(
        out.status.code(),
        Some(2),
        "refused without a display: {}",
        stderr(&out)
    );
    let err = stderr(&out);
    assert!(
        err.contains("no page called `nowhere`") && err.contains("grid"),
        "{err}"
    );
    assert_eq!(
        err.matches("nowhere").count(),
        1,
        "the error is reported once: {err}"
    );
}

/// A scratch file for one test, with `bytes` in it.
fn scratch(name: &str, bytes: &[u8]) -> std::path::PathBuf {
    let path = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    std::fs::write(&path, bytes).expect("the scratch file is written");
    path
}

#[test]
fn a_file_the_app_cannot_use_is_refused_with_its_reason_and_exit_code_2() {
    let robot = skinlab::models::bytes("robot").expect("bundled");
    let cases: [(&str, &[u8], &str); 4] = [
        (
            "cli-not-gltf.glb",
            b"hello, world",
            "this is not a glTF file",
        ),
        ("cli-cut.glb", &robot[..4000], "truncated"),
        (
            "cli-notes.txt",
            b"{}",
            "is not a file skinlab opens; it opens .glb",
        ),
        ("cli-empty.gltf", b"", "the file is empty"),
    ];
    for (name, bytes, reason) in cases {
        let path = scratch(name, bytes);
        let out = skinlab(&[
            "--open",
            path.to_str().expect("utf-8"),
            "--screenshot",
            "never.png",
        ]);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{name}: {err}");
        assert!(err.contains(name) && err.contains(reason), "{name}: {err}");
        assert_eq!(
            err.lines().next().map(|l| l.starts_with("error: --open")),
            Some(true),
            "{err}"
        );
    }
    let out = skinlab(&["--open", "no/such/model.glb"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("could not be read"),
        "{}",
        stderr(&out)
    );
    let out = skinlab(&["--open"]);
    assert!(
        stderr(&out).contains("--open needs a file"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn asset_file_without_a_file_open_is_refused() {
    let out = skinlab(&["model?asset=file", "--screenshot", "never.png"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("no file is open"), "{}", stderr(&out));
}

#[test]
fn a_link_for_the_opened_file_is_checked_against_it() {
    // SimpleSkin has one clip, unnamed: a robot clip name is refused with the file's own.
    let path = scratch(
        "cli-simple.gltf",
        skinlab::models::bytes("simple_skin").expect("bundled"),
    );
    let out = skinlab(&[
        "--open",
        path.to_str().expect("utf-8"),
        "model?clip=Walking",
        "--screenshot",
        "never.png",
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("animation 0"), "{}", stderr(&out));
}

#[test]
fn check_deck_names_each_bad_line_and_fails() {
    let path = scratch(
        "cli-check-deck.txt",
        b"grid?angle=0.8  Fine\n> a note\ngird?angle=0.8  A typo\n\nblending?twist=9  Too far\n",
    );
    let out = skinlab(&["--check-deck", path.to_str().expect("utf-8")]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let printed = String::from_utf8_lossy(&out.stdout);
    assert!(printed.contains("line 3: `gird?angle=0.8`"), "{printed}");
    assert!(printed.contains("did you mean `grid`"), "{printed}");
    assert!(printed.contains("line 5: `blending?twist=9`"), "{printed}");
    assert!(!printed.contains("line 1"), "{printed}");
    let good = scratch("cli-good-deck.txt", b"grid  One\nxray  Two\n");
    let out = skinlab(&["--check-deck", good.to_str().expect("utf-8")]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(String::from_utf8_lossy(&out.stdout).contains("all 2 slides open"));
}

#[test]
fn a_deck_opens_at_the_slide_asked_for() {
    let path = scratch("cli-slide-deck.txt", b"grid  One\nxray  Two\n");
    let deck = path.to_str().expect("utf-8");
    let out = skinlab(&["--deck", deck, "--slide", "3", "--screenshot", "never.png"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("slides 1 to 2"), "{}", stderr(&out));
    let out = skinlab(&["--slide", "2"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("--slide goes with --deck"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_deck_the_app_cannot_use_is_refused_with_exit_code_2() {
    for (name, text, says) in [
        (
            "cli-empty-deck.txt",
            "# nothing but a comment\n",
            "has no links",
        ),
        (
            "cli-bad-deck.txt",
            "nowhere?x=1  A page that is not there\n",
            "no page called `nowhere`",
        ),
    ] {
        let path = scratch(name, text.as_bytes());
        let out = skinlab(&[
            "--deck",
            path.to_str().expect("utf-8"),
            "--screenshot",
            "never.png",
        ]);
        assert_eq!(out.status.code(), Some(2), "{name}: {}", stderr(&out));
        assert!(stderr(&out).contains(says), "{name}: {}", stderr(&out));
    }
    let out = skinlab(&["--deck", "no/such/deck.txt"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("could not be read"),
        "{}",
        stderr(&out)
    );
}

/// A glTF of `primitives` primitives that all name one accessor of `count` positions of
/// zeros with no buffer view: no bytes in the file, 12 bytes a position once read.
fn zeros_shared_by(primitives: usize, count: usize) -> Vec<u8> {
    let primitive = serde_json::json!({"attributes": {"POSITION": 0}});
    serde_json::to_vec(&serde_json::json!({
        "asset": {"version": "2.0"},
        "nodes": [{"mesh": 0}],
        "meshes": [{"primitives": vec![primitive; primitives]}],
        "accessors": [{"componentType": 5126, "type": "VEC3", "count": count}]
    }))
    .expect("json")
}

#[test]
fn a_few_hundred_bytes_cannot_take_more_than_the_budget_under_an_address_space_limit() {
    // A million positions named by 1, 4 and 48 primitives, and the most one accessor
    // of zeros may hold (2^24 − 1 numbers) named by one. Each run is under a 3 GiB
    // address-space limit (`open_capped`), so a loader that reads past its budget fails
    // here (an allocation refused, the process aborted) instead of swapping.
    let cases = [
        (1, 1_000_000, None),
        (4, 1_000_000, None),
        (48, 1_000_000, Some("48000000 vertices in all")),
        (1, 5_592_405, Some("has 5592405 vertices")),
    ];
    for (primitives, count, refused) in cases {
        let name = format!("cli-zeros-{primitives}-{count}.gltf");
        let bytes = zeros_shared_by(primitives, count);
        assert!(bytes.len() < 4096, "{} bytes", bytes.len());
        let path = scratch(&name, &bytes);
        let said = refused.map(|why| [why, "more than the page draws"]);
        loaded_or_refused(&name, open_capped(&path), said.as_ref().map(|s| &s[..]));
    }
}

#[test]
fn a_million_nodes_or_ten_thousand_primitives_are_refused_in_one_line() {
    // A million empty nodes is 3 MB of JSON; ten thousand primitives of one shared
    // accessor, a few hundred kilobytes. The page would lay out a row and draw a part
    // for each; the loader refuses both by count, before anything is decoded.
    let nodes = format!(
        r#"{{"asset":{{"version":"2.0"}},"nodes":[{}{{}}]}}"#,
        "{},".repeat(999_999)
    );
    let path = scratch("cli-a-million-nodes.gltf", nodes.as_bytes());
    loaded_or_refused(
        "a million nodes",
        open_capped(&path),
        Some(&["has 1000000 nodes", "more than the page lays out (262144)"]),
    );
    let path = scratch(
        "cli-ten-thousand-primitives.gltf",
        &zeros_shared_by(10_000, 3),
    );
    loaded_or_refused(
        "ten thousand primitives",
        open_capped(&path),
        Some(&[
            "10000 mesh primitives in all",
            "more than the page draws (4096)",
        ]),
    );
    // At the limits, both load.
    let nodes = format!(
        r#"{{"asset":{{"version":"2.0"}},"nodes":[{}{{}}]}}"#,
        "{},".repeat(262_143)
    );
    let path = scratch("cli-nodes-at-the-limit.gltf", nodes.as_bytes());
    loaded_or_refused("262144 nodes", open_capped(&path), None);
    let path = scratch(
        "cli-primitives-at-the-limit.gltf",
        &zeros_shared_by(4096, 3),
    );
    loaded_or_refused("4096 primitives", open_capped(&path), None);
}

/// That `--open` loaded the file (and then, with no display, could not start: exit 1),
/// or refused it (exit 2) in one line saying each of `refused`.
fn loaded_or_refused(name: &str, (code, err): (Option<i32>, String), refused: Option<&[&str]>) {
    match refused {
        None => {
            assert_eq!(code, Some(1), "{name}: {err}");
            assert!(err.contains("could not start"), "{name}: {err}");
        }
        Some(said) => {
            assert_eq!(code, Some(2), "{name}: {err}");
            assert!(said.iter().all(|s| err.contains(s)), "{name}: {err}");
            assert_eq!(err.trim().lines().count(), 1, "{name}: one line: {err}");
        }
    }
}

/// A folder of its own under the tests' scratch folder, emptied.
fn scratch_folder(name: &str) -> std::path::PathBuf {
    let folder = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&folder);
    std::fs::create_dir_all(&folder).expect("the scratch folder is made");
    folder
}

/// A `.gltf` of one triangle whose 36 bytes of positions are the file `data.bin` beside
/// it, and those bytes.
fn triangle_beside_its_bin() -> (Vec<u8>, Vec<u8>) {
    let positions: [f32; 9] = [0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0];
    let bin: Vec<u8> = positions.iter().flat_map(|v| v.to_le_bytes()).collect();
    let json = serde_json::json!({
        "asset": {"version": "2.0"},
        "nodes": [{"mesh": 0}],
        "meshes": [{"primitives": [{"attributes": {"POSITION": 0}}]}],
        "buffers": [{"uri": "data.bin", "byteLength": 36}],
        "bufferViews": [{"buffer": 0, "byteLength": 36}],
        "accessors": [{"bufferView": 0, "componentType": 5126, "type": "VEC3", "count": 3,
                       "min": [0, 0, 0], "max": [1, 1, 0]}]
    });
    (serde_json::to_vec(&json).expect("json"), bin)
}

/// Runs `skinlab --open path` with no display, under a 3 GiB address-space limit and a
/// 60-second timeout (a read that hangs or floods fails here instead of stalling the
/// tests): the exit code and what it said.
fn open_capped(path: &std::path::Path) -> (Option<i32>, String) {
    let out = Command::new("sh")
        .args([
            "-c",
            "ulimit -v 3145728 && exec timeout 60 \"$0\" \"$@\"",
            env!("CARGO_BIN_EXE_skinlab"),
            "--open",
            path.to_str().expect("utf-8"),
            "--screenshot",
            "never.png",
        ])
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .output()
        .expect("the binary runs");
    (out.status.code(), stderr(&out))
}

#[cfg(unix)]
#[test]
fn beside_a_model_only_regular_files_inside_its_folder_are_read_and_no_more_than_claimed() {
    let (gltf, bin) = triangle_beside_its_bin();
    let outside = scratch("cli-outside.bin", &bin);
    // Each case: how `data.bin` is made, and what the one line says (None: it loads).
    type Make = fn(&std::path::Path, &std::path::Path, &[u8]);
    let cases: [(&str, Make, Option<&str>); 6] = [
        (
            "cli-beside-plain",
            |bin_path, _, bin| std::fs::write(bin_path, bin).unwrap(),
            None,
        ),
        (
            "cli-beside-link-out",
            |bin_path, outside, _| std::os::unix::fs::symlink(outside, bin_path).unwrap(),
            Some("a link that leads outside the model's folder"),
        ),
        (
            "cli-beside-fifo",
            |bin_path, _, _| {
                let made = Command::new("mkfifo")
                    .arg(bin_path)
                    .status()
                    .expect("mkfifo runs");
                assert!(made.success());
            },
            Some("it is a named pipe (FIFO), not a file"),
        ),
        (
            "cli-beside-zero",
            |bin_path, _, _| std::os::unix::fs::symlink("/dev/zero", bin_path).unwrap(),
            Some("a link that leads outside the model's folder"),
        ),
        (
            "cli-beside-folder",
            |bin_path, _, _| std::fs::create_dir(bin_path).unwrap(),
            Some("it is a folder, not a file"),
        ),
        (
            // 6 GiB on paper, its first 36 bytes the triangle's: read only as far as
            // the buffer claims, under the 3 GiB limit.
            "cli-beside-sparse",
            |bin_path, _, bin| {
                let file = std::fs::File::create(bin_path).unwrap();
                file.set_len(6 << 30).unwrap();
                use std::os::unix::fs::FileExt as _;
                file.write_all_at(bin, 0).unwrap();
            },
            None,
        ),
    ];
    for (name, make, refused) in cases {
        let folder = scratch_folder(name);
        let path = folder.join("model.gltf");
        std::fs::write(&path, &gltf).unwrap();
        make(&folder.join("data.bin"), &outside, &bin);
        let said = refused.map(|why| ["'data.bin' beside it, which could not be read", why]);
        loaded_or_refused(name, open_capped(&path), said.as_ref().map(|s| &s[..]));
    }
}

#[cfg(unix)]
#[test]
fn the_opened_file_is_checked_before_it_is_read() {
    let folder = scratch_folder("cli-opened");
    // Larger than the most the app opens, on paper: refused without reading it.
    let large = folder.join("large.glb");
    std::fs::File::create(&large)
        .unwrap()
        .set_len(gltf::MAX_FILE_BYTES as u64 + 1)
        .unwrap();
    let (code, err) = open_capped(&large);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("skinlab opens files of 512 MiB at most"),
        "{err}"
    );
    // A named pipe as the file itself: refused, not waited on.
    let fifo = folder.join("pipe.glb");
    assert!(
        Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    let (code, err) = open_capped(&fifo);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("it is a named pipe (FIFO), not a file"),
        "{err}"
    );
}

#[test]
fn repair_writes_one_glb_never_over_the_file_read_and_refuses_what_it_cannot_read() {
    let bundled = skinlab::models::bytes("robot").expect("bundled");
    let robot = scratch("cli-repair-robot.glb", bundled);
    let written = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("cli-repaired.glb");
    let _ = std::fs::remove_file(&written);
    let arg = |p: &std::path::Path| p.to_str().expect("utf-8").to_owned();
    let out = skinlab(&["--repair", &arg(&robot), &arg(&written)]);
    assert!(out.status.success(), "{}", stderr(&out));
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(said.contains("nothing to repair"), "{said}");
    let again = gltf::load(&std::fs::read(&written).expect("written")).expect("it opens");
    let read = gltf::load(bundled).expect("bundled");
    assert_eq!(again.skinned_meshes, read.skinned_meshes);
    assert_eq!(again.clips, read.clips);
    // A fix named with --fix: a line a skin, with how many joints it touched.
    let out = skinlab(&["--repair", &arg(&robot), &arg(&written), "--fix", "rebind"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let said = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = said.lines().collect();
    assert_eq!(lines.len(), read.skins.len(), "{said}");
    assert!(
        lines
            .iter()
            .all(|l| l.contains("43 of 43 inverse binds recomputed at the rest pose")),
        "{said}"
    );
    // Never over the file read.
    let out = skinlab(&["--repair", &arg(&robot), &arg(&robot)]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("is the file read"),
        "{}",
        stderr(&out)
    );
    assert_eq!(std::fs::read(&robot).expect("still there"), bundled);
    // A file that is not glTF: its reason, exit 2, and nothing written.
    let junk = scratch("cli-repair-junk.glb", b"hello, world");
    let nowhere = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("cli-never.glb");
    let out = skinlab(&["--repair", &arg(&junk), &arg(&nowhere)]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("this is not a glTF file"),
        "{}",
        stderr(&out)
    );
    assert!(!nowhere.exists());
}
