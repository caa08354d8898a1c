//! The command line's tests: every mode, what goes with it, and each refusal's words.

use super::*;

fn parse_strs(args: &[&str]) -> Result<Command, String> {
    parse(args.iter().map(OsString::from))
}

fn err(args: &[&str]) -> String {
    parse_strs(args).err().unwrap_or_default()
}

/// The window options of a command line that opens a window.
fn window(args: &[&str]) -> (Options, bool) {
    match parse_strs(args) {
        Ok(Command::Window { options, csv }) => (options, csv),
        other => panic!("{args:?}: {other:?}"),
    }
}

#[test]
fn every_option_reaches_the_window() {
    let (options, csv) = window(&[
        "grid?angle=0.8",
        "--presenter",
        "--reduce-motion",
        "--size",
        "1024x700",
        "--screenshot=out.png",
        "--open",
        "robot.glb",
    ]);
    assert_eq!(
        options,
        Options {
            link: Some("grid?angle=0.8".into()),
            open: Some("robot.glb".into()),
            deck: None,
            slide: None,
            presenter: true,
            reduce_motion: true,
            headless: false,
            size: [1024.0, 700.0],
            mode: Mode::Screenshot("out.png".into()),
        }
    );
    assert!(!csv);
    assert_eq!(window(&[]), (Options::default(), false));
    assert_eq!(
        window(&["--deck", "talk.txt"]).0.deck,
        Some("talk.txt".into())
    );
    assert_eq!(
        window(&["--deck", "talk.txt", "--slide", "4"]).0.slide,
        Some(4)
    );
    assert_eq!(
        parse(["--check-deck", "talk.txt"].map(Into::into)),
        Ok(Command::CheckDeck("talk.txt".into()))
    );
}

#[test]
fn refusals_say_what_was_wrong() {
    assert_eq!(
        err(&["grid", "xray"]),
        "unexpected argument `xray`: give one link"
    );
    assert!(err(&["--size"]).contains("WIDTHxHEIGHT"));
    assert!(err(&["--size", "100x100"]).contains("not `100x100`"));
    assert!(err(&["--size", "wide"]).contains("not `wide`"));
    assert!(err(&["--screenshot"]).contains("file name"));
    assert_eq!(err(&["--presenter=yes"]), "--presenter takes no value");
    assert_eq!(err(&["-x"]), "unknown option `-x`");
}

#[test]
fn one_mode_is_chosen_once() {
    for (args, first, second) in [
        (
            &["--profile", "grid", "--sliders"][..],
            "--profile",
            "--sliders",
        ),
        (
            &["--sliders", "--profile", "grid"],
            "--sliders",
            "--profile",
        ),
        (
            &["--screenshot", "a.png", "--profile", "grid"],
            "--screenshot",
            "--profile",
        ),
        (&["--bench", "--list-pages"], "--bench", "--list-pages"),
        (&["--bench", "cpu", "--sliders"], "--bench cpu", "--sliders"),
    ] {
        assert_eq!(
            err(args),
            format!("{first} and {second} each choose what skinlab does: give one"),
            "{args:?}"
        );
    }
    assert_eq!(parse_strs(&["--list-pages"]), Ok(Command::ListPages));
    assert!(err(&["--list-pages", "grid"]).starts_with("a link does not go with --list-pages"));
}

#[test]
fn bench_names_what_it_measures() {
    assert_eq!(parse_strs(&["--bench"]), Ok(Command::Bench { csv: false }));
    assert_eq!(
        parse_strs(&["--bench", "gpu"]),
        Ok(Command::Bench { csv: false })
    );
    assert_eq!(
        parse_strs(&["--bench", "gpu", "--csv"]),
        Ok(Command::Bench { csv: true })
    );
    assert_eq!(
        parse_strs(&["--bench", "cpu"]),
        Ok(Command::BenchCpu {
            csv: false,
            vertices: vec![30_000, 1_000_000],
            simd: Simd::detect(),
        })
    );
    assert_eq!(
        parse_strs(&[
            "--bench",
            "cpu",
            "--csv",
            "--vertices",
            "1000, 24",
            "--simd",
            "portable"
        ]),
        Ok(Command::BenchCpu {
            csv: true,
            vertices: vec![1000, 24],
            simd: Simd::Portable,
        })
    );
    assert_eq!(
        err(&["--csv"]),
        "--csv goes with --bench, --profile or --sliders"
    );
    assert_eq!(
        err(&["--bench", "gpu", "--vertices", "10"]),
        "--vertices does not go with --bench, which takes --csv"
    );
    assert!(err(&["--bench", "cpu", "--vertices", "0"]).contains("not `0`"));
    assert!(err(&["--bench", "cpu", "--vertices", "1,x"]).contains("not `1,x`"));
    assert!(err(&["--bench", "cpu", "--vertices"]).contains("e.g. --vertices"));
    assert_eq!(
        err(&["--bench", "cpu", "--simd", "sse9"]),
        "--simd needs `avx2` or `portable`, not `sse9`"
    );
    assert_eq!(err(&["--simd", "avx2"]), "--simd goes with --bench cpu");
    assert_eq!(
        err(&["--bench", "cpu", "--presenter"]),
        "--presenter does not go with --bench cpu, which takes --csv, --vertices and --simd"
    );
    assert_eq!(
        err(&["--profile", "grid", "--reduce-motion"]),
        "--reduce-motion does not go with --profile, which takes --frames, --minutes, --csv, \
         --headless, --open, --deck, --presenter and --size"
    );
}

#[test]
fn sliders_take_only_csv_and_the_window_options() {
    let (options, csv) = window(&["--sliders", "--csv"]);
    assert!(options.mode == Mode::Sliders && csv && options.link.is_none());
    assert_eq!(
        err(&["--sliders", "grid"]),
        "--sliders moves every page's sliders itself: it takes no link"
    );
    assert_eq!(
        err(&["--sliders", "--frames", "40"]),
        "--frames does not go with --sliders, which takes --csv, --headless, --presenter and --size"
    );
    let (options, _) = window(&["--sliders", "--headless"]);
    assert!(options.headless);
    assert_eq!(
        err(&["--headless"]),
        "--headless goes with --profile or --sliders"
    );
    assert!(
        err(&["--screenshot", "a.png", "--headless"])
            .starts_with("--headless does not go with --screenshot")
    );
    assert!(err(&["--sliders", "--bench"]).contains("give one"));
}

#[test]
fn profile_takes_a_link_a_frame_count_and_csv() {
    let (options, csv) = window(&["--profile", "grid?angle=0.8", "--frames", "40", "--csv"]);
    assert!(csv);
    assert_eq!(options.link.as_deref(), Some("grid?angle=0.8"));
    assert_eq!(options.mode, Mode::Profile { frames: 40 });
    assert!(!options.headless);
    let (options, _) = window(&["--profile", "grid", "--headless"]);
    assert!(options.headless);
    let (options, _) = window(&["--profile", "gpu"]);
    assert_eq!(
        options.mode,
        Mode::Profile { frames: 300 },
        "the default count"
    );
    assert!(err(&["--profile"]).contains("needs a link"));
    assert!(err(&["--profile", "grid", "--frames", "5"]).contains("not `5`"));
    assert_eq!(err(&["--frames", "50"]), "--frames goes with --profile");
    assert_eq!(
        err(&["--profile", "grid", "gpu"]),
        "--profile takes its link itself: --profile LINK"
    );
    assert!(
        err(&["--screenshot", "a.png", "--frames", "50"]).contains("does not go with --screenshot")
    );
    let (options, _) = window(&["--profile", "model?clip=Walking", "--minutes", "60"]);
    assert_eq!(options.mode, Mode::Soak { minutes: 60 });
    assert!(err(&["--profile", "grid", "--minutes", "0"]).contains("from 1 to 1440"));
    assert!(err(&["--profile", "grid", "--minutes", "5", "--frames", "50"]).contains("not both"));
    assert_eq!(err(&["--minutes", "5"]), "--minutes goes with --profile");
}

#[test]
fn each_mode_names_itself_in_its_errors() {
    use crate::native::RunError;
    let modes = [
        (Mode::Screenshot("a.png".into()), "--screenshot"),
        (Mode::Profile { frames: 10 }, "--profile"),
        (Mode::Soak { minutes: 1 }, "--profile --minutes"),
        (Mode::Sliders, "--sliders"),
    ];
    for (mode, option) in modes {
        let e = RunError::Mode {
            option: mode.option(),
            why: "the window closed".into(),
        };
        assert_eq!(e.to_string(), format!("{option}: the window closed"));
    }
    assert_eq!(
        RunError::Deck("`x.txt` could not be read".into()).to_string(),
        "--deck: `x.txt` could not be read"
    );
}

#[test]
fn help_wins_and_lists_every_option_it_parses() {
    assert_eq!(parse_strs(&["grid", "--help"]), Ok(Command::Help));
    for option in [
        "--presenter",
        "--size",
        "--screenshot",
        "--list-pages",
        "--bench",
        "--csv",
        "--vertices",
        "--simd",
        "--profile",
        "--sliders",
        "--frames",
        "--minutes",
        "--open",
        "--deck",
        "--help",
    ] {
        assert!(OPTIONS.contains(option), "{option} is in the help");
        assert!(!parse_strs(&[option, "1x1"]).is_err_and(|e| e.contains("unknown")));
    }
}

#[test]
fn export_writes_a_decks_slides_and_takes_its_own_options() {
    let (options, _) = window(&["--deck", "talk.txt", "--export", "out", "--presenter"]);
    assert_eq!(
        options.mode,
        Mode::Export {
            dir: "out".into(),
            app: None
        }
    );
    assert!(options.presenter);
    let (options, _) = window(&[
        "--deck",
        "talk.txt",
        "--export",
        "out",
        "--app",
        "https://example.org/skinlab/app/index.html",
    ]);
    assert!(
        matches!(options.mode, Mode::Export { app: Some(app), .. } if app.starts_with("https://"))
    );
    assert!(err(&["--export", "out"]).contains("give it --deck FILE"));
    assert!(err(&["--deck", "t.txt", "--slide", "2", "--export", "out"]).contains("every slide"));
    assert_eq!(err(&["--app", "x"]), "--app goes with --export");
    assert!(
        err(&["grid", "--deck", "t.txt", "--export", "out"])
            .contains("a link does not go with --export")
    );
    assert!(err(&["--deck", "t.txt", "--export"]).contains("--export needs a folder"));
}

#[test]
fn repair_takes_the_file_to_read_and_the_glb_to_write_and_nothing_else() {
    assert_eq!(
        parse_strs(&["--repair", "robot.gltf", "robot.glb"]),
        Ok(Command::Repair {
            input: "robot.gltf".into(),
            output: "robot.glb".into(),
            fixes: gltf::Fix::ALL.to_vec(),
        })
    );
    assert_eq!(
        parse_strs(&[
            "--repair",
            "a.gltf",
            "b.glb",
            "--fix",
            "four,renormalise,four"
        ]),
        Ok(Command::Repair {
            input: "a.gltf".into(),
            output: "b.glb".into(),
            fixes: vec![gltf::Fix::KeepFour, gltf::Fix::Renormalise],
        })
    );
    assert_eq!(
        parse_strs(&["--repair", "a.gltf", "b.glb", "--fix", "all,rebind"]),
        Ok(Command::Repair {
            input: "a.gltf".into(),
            output: "b.glb".into(),
            fixes: [gltf::Fix::ALL.as_slice(), &[gltf::Fix::Rebind]].concat(),
        })
    );
    assert_eq!(
        err(&["--repair", "a.gltf", "b.glb", "--fix", "four,paint"]),
        "--fix takes `all`, `renormalise`, `four`, `influences`, `zeros`, `binds`, \
         `rotations`, `unused` and `rebind`, not `paint`"
    );
    assert_eq!(err(&["--fix", "four"]), "--fix goes with --repair");
    assert!(err(&["--repair", "a.gltf", "b.glb", "--fix"]).contains("a list of fixes"));
    assert!(err(&["--repair", "robot.gltf"]).contains("the GLB to write"));
    assert!(err(&["--repair"]).contains("the GLB to write"));
    assert_eq!(
        err(&["--repair", "a.gltf", "b.glb", "--csv"]),
        "--csv does not go with --repair, which takes --fix"
    );
    assert_eq!(
        err(&["--repair", "a.gltf", "b.glb", "c.glb"]),
        "--repair takes two files, the model to read and the GLB to write: no more"
    );
    assert!(err(&["--repair", "a.gltf", "b.glb", "--list-pages"]).contains("give one"));
}
