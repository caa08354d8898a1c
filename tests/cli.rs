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
    assert_eq!(pages.lines().collect::<Vec<_>>(), skinlab::page::slugs());
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
