//! `skinlab --bench` runs the sweep on a headless context and prints one row per size.
//! `skinlab --bench cpu --csv` prints one row per kernel, attribute set, thread count and
//! size. `skinlab --profile LINK --csv` prints each phase of a frame for an empty window
//! and the link. `skinlab --sliders --csv` prints a row per slider move. (They report
//! timings; these tests check only that everything was measured.)

use crate::common;

/// The standard output of a run that succeeded (its output shown if it did not).
fn stdout_of(out: std::process::Output) -> String {
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
}

/// The standard output of `skinlab ARGS` in a window under Xvfb; `None` (after
/// [`common::skip`]) when there is no xvfb-run outside CI.
fn in_window(args: &[&str]) -> Option<String> {
    let args: Vec<&std::ffi::OsStr> = args.iter().map(std::ffi::OsStr::new).collect();
    common::run_in_xvfb(&args).map(stdout_of)
}

/// The lines before the figures of a headless run: the GL context it ran on, each
/// named and not empty; returns the rest.
fn after_the_gl_context<'a>(stdout: &'a str, prefix: &str) -> std::str::Lines<'a> {
    let mut lines = stdout.lines();
    for name in ["GL vendor: ", "GL renderer: ", "GL version: "] {
        let line = lines.next().unwrap_or("");
        let value = line
            .strip_prefix(prefix)
            .and_then(|l| l.strip_prefix(name))
            .unwrap_or_else(|| panic!("`{prefix}{name}…` first: {stdout}"));
        assert!(!value.trim().is_empty(), "{stdout}");
    }
    lines
}

#[test]
fn the_bench_command_names_the_gpu_and_measures_every_phase_of_every_size() {
    // The command makes its own context; without one here (outside CI) it cannot run.
    if common::headless(common::Api::GlCore33).is_none() {
        return;
    }
    // The app's own way to stream is `upload`; the variable would choose another.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_skinlab"))
        .args(["--bench", "gpu", "--csv"])
        .env_remove("SKINLAB_UPLOAD")
        .output()
        .expect("the binary runs");
    let stdout = stdout_of(out);
    let mut lines = after_the_gl_context(&stdout, "# ");
    let mut lines = lines.by_ref().skip_while(|l| l.starts_with('#'));
    assert_eq!(lines.next(), Some("vertices,phase,ms"), "{stdout}");
    let mut seen = std::collections::BTreeSet::new();
    for line in lines {
        let [vertices, phase, ms] = line.split(',').collect::<Vec<_>>()[..] else {
            panic!("three cells: {line}");
        };
        let vertices: usize = vertices.parse().expect("a vertex count");
        let ms: f64 = ms.parse().expect("milliseconds");
        assert!(ms.is_finite() && ms >= 0.0, "{line}");
        assert!(seen.insert((vertices, phase.to_owned())), "twice: {line}");
    }
    let phases = [
        "reference",
        "fast_1",
        "fast_all",
        "memcpy",
        "upload",
        "upload_mapped",
        "upload_subdata",
        "upload_orphan",
        "gpu_vertex",
        "gpu_draw",
        "dqs_reference",
        "gpu_vertex_dqs",
    ];
    // Blend shapes where a file may hold that many offsets.
    let morph_phases = ["morph_cpu", "gpu_vertex_morph"];
    // Centres of rotation where the model page would search them.
    let centres_phases = ["cor_search", "cor_reference", "gpu_vertex_cor"];
    let mut expected = 0;
    for size in rigs::chain::SWEEP {
        let measured: Vec<&str> = seen
            .iter()
            .filter(|(n, _)| n.abs_diff(size) <= size / 100)
            .map(|(_, phase)| phase.as_str())
            .collect();
        let morphed = skinlab::bench::morphed_size(size);
        let searched = skinlab::bench::searched_size(size);
        for phase in phases
            .iter()
            .chain(morphed.then_some(&morph_phases).into_iter().flatten())
            .chain(searched.then_some(&centres_phases).into_iter().flatten())
        {
            assert!(measured.contains(phase), "{phase} at {size}: {stdout}");
            expected += 1;
        }
    }
    assert!(
        expected > phases.len() * rigs::chain::SWEEP.len(),
        "some sizes morph"
    );
    assert_eq!(seen.len(), expected, "{stdout}");
}

#[test]
fn the_cpu_bench_prints_one_csv_row_per_measurement() {
    // No GL context needed: this one runs everywhere.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_skinlab"))
        .args(["--bench", "cpu", "--csv", "--vertices", "1000,2003"])
        .output()
        .expect("the binary runs");
    let stdout = stdout_of(out);
    let mut lines = stdout.lines();
    assert_eq!(
        lines.next(),
        Some("kernel,attributes,threads,vertices,ns_per_vertex")
    );
    let all = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut seen = std::collections::BTreeSet::new();
    for line in lines {
        let cells: Vec<&str> = line.split(',').collect();
        let [kernel, attributes, threads, vertices, ns] = cells[..] else {
            panic!("five cells: {line}");
        };
        assert!(
            ["reference", "plain", "fast", "memory", "memcpy"].contains(&kernel),
            "{line}"
        );
        assert!(["p", "pn", "pnt"].contains(&attributes), "{line}");
        let threads: usize = threads.parse().expect("a thread count");
        assert!(threads == 1 || threads == all, "{line}");
        assert!(
            threads == 1 || ["fast", "memory", "memcpy"].contains(&kernel),
            "only fast, memory and memcpy run on more threads: {line}"
        );
        assert!(["1000", "2003"].contains(&vertices), "{line}");
        let ns: f64 = ns.parse().expect("a number");
        assert!(ns.is_finite() && ns > 0.0, "{line}");
        assert!(
            seen.insert((kernel, attributes, threads, vertices)),
            "measured twice: {line}"
        );
    }
    // Every kernel, attribute set and size; fast, memory and memcpy on one thread and
    // on all.
    let per_size_and_attributes = if all > 1 { 8 } else { 5 };
    assert_eq!(seen.len(), 2 * 3 * per_size_and_attributes, "{stdout}");
}

#[test]
fn the_profile_times_every_phase_of_the_link_and_of_an_empty_window() {
    let link = "grid?angle=0.8";
    let Some(stdout) = in_window(&["--profile", link, "--frames", "20", "--csv"]) else {
        return;
    };
    check_profile(stdout.lines(), link, &stdout);
}

#[test]
fn with_no_display_the_profile_runs_headless_and_names_the_gpu_first() {
    if common::headless(common::Api::GlCore33).is_none() {
        return;
    }
    let link = "gpu?vertices=100000";
    // No display named: the profile draws offscreen by itself, as on a GPU server.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_skinlab"))
        .args(["--profile", link, "--frames", "20", "--csv"])
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .output()
        .expect("the binary runs");
    let stdout = stdout_of(out);
    check_profile(after_the_gl_context(&stdout, "# "), link, &stdout);
}

/// Checks a profile's CSV: every phase of the empty window and of `link`, once each,
/// each a number in order (median ≤ 95th percentile ≤ max).
fn check_profile<'a>(mut lines: impl Iterator<Item = &'a str>, link: &str, stdout: &str) {
    assert_eq!(
        lines.next(),
        Some("link,phase,median_ms,p95_ms,max_ms"),
        "{stdout}"
    );
    let mut seen = std::collections::BTreeSet::new();
    for line in lines {
        let cells: Vec<&str> = line.split(',').collect();
        let [who, phase, median, p95, max] = cells[..] else {
            panic!("five cells: {line}");
        };
        let who = who.trim_matches('"');
        assert!(who == "empty" || who == link, "{line}");
        let number = |text: &str| {
            text.parse::<f64>()
                .ok()
                .filter(|v| v.is_finite() && *v >= 0.0)
        };
        let median = number(median).unwrap_or_else(|| panic!("a median: {line}"));
        if phase == "fps" {
            assert!(median > 0.0, "{line}");
            assert!(p95.is_empty() && max.is_empty(), "{line}");
        } else {
            assert!(
                [
                    "frame",
                    "app",
                    "ui",
                    "paint",
                    "tessellate",
                    "draw",
                    "gpu_wait"
                ]
                .contains(&phase),
                "{line}"
            );
            let (p95, max) = (
                number(p95).expect("a 95th percentile"),
                number(max).expect("a max"),
            );
            assert!(median <= p95 && p95 <= max, "{line}");
        }
        assert!(
            seen.insert((who.to_owned(), phase.to_owned())),
            "twice: {line}"
        );
    }
    assert_eq!(seen.len(), 2 * 8, "{stdout}");
}

#[test]
fn the_slider_sweep_moves_every_pages_sliders_and_times_each_move() {
    let Some(stdout) = in_window(&["--sliders", "--csv"]) else {
        return;
    };
    let mut lines = stdout.lines();
    assert_eq!(lines.next(), Some("link,frame_ms,draw_ms"));
    let mut pages = std::collections::BTreeSet::new();
    let mut moves = 0;
    for line in lines {
        let (link, times) = line
            .rsplit_once(',')
            .and_then(|(rest, draw)| {
                let (link, frame) = rest.rsplit_once(',')?;
                Some((
                    link.trim_matches('"'),
                    (frame.parse::<f64>().ok()?, draw.parse::<f64>().ok()?),
                ))
            })
            .unwrap_or_else(|| panic!("a link and two times: {line}"));
        let (frame, draw) = times;
        assert!(frame > 0.0 && (0.0..=frame).contains(&draw), "{line}");
        let (page, change) = link
            .split_once('?')
            .unwrap_or_else(|| panic!("a move: {line}"));
        assert!(change.contains('='), "{line}");
        pages.insert(page.to_owned());
        moves += 1;
    }
    let every: std::collections::BTreeSet<String> = skinlab::pages::slugs()
        .into_iter()
        .map(str::to_owned)
        .collect();
    assert_eq!(pages, every, "{stdout}");
    let samples: usize = skinlab::pages::PAGES
        .iter()
        .map(|entry| {
            (entry.params)()
                .iter()
                .map(|p| p.samples.len())
                .sum::<usize>()
        })
        .sum();
    assert_eq!(moves, samples, "{stdout}");
}
