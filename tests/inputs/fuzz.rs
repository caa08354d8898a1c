//! Fuzz targets for every boundary that takes outside input: `link` (the link parser and
//! every page's parameters), `state` (the stored state read back at start) and `gltf`
//! (the model loader, through the model page).
//!
//! Each input must be answered without a panic, with a one-line message when refused,
//! and leave the app in a state whose own link reopens it exactly. The suite runs a
//! fixed, seeded budget per target; `scripts/fuzz TARGET [SECONDS]` runs one target for
//! longer (the ignored test `long_run`) and saves any failing input under
//! `target/fuzz/`. Inputs that ever failed live in `tests/fuzz/TARGET/` and are replayed
//! by every run.

use crate::common;

use common::mutate::{XorShift, glb, glb_chunks, mutate_number};
use skinlab::SkinlabApp;
use skinlab::pages::model::ModelPage;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

#[derive(Clone, Copy, Debug, PartialEq)]
enum Target {
    Link,
    State,
    Gltf,
}

const TARGETS: [(Target, &str); 3] = [
    (Target::Link, "link"),
    (Target::State, "state"),
    (Target::Gltf, "gltf"),
];

/// Values that break parsers: wrong types, extremes, spellings of NaN and infinity,
/// empty, unicode, escapes, separators, and a 10 kB value.
fn trouble(rng: &mut XorShift) -> String {
    const VALUES: [&str; 24] = [
        "",
        "nan",
        "NaN",
        "inf",
        "-inf",
        "infinity",
        "1e39",
        "-1e39",
        "1e-45",
        "0",
        "-0",
        "99999999999",
        "abc",
        "é",
        "\u{1F980}",
        "1,2",
        ";;",
        ":",
        "%",
        "%zz",
        "%00",
        "true",
        "-1",
        "0x10",
    ];
    match rng.below(VALUES.len() + 1) {
        i if i < VALUES.len() => VALUES[i].to_owned(),
        _ => "7".repeat(10_000),
    }
}

/// A link made broken: a documented one mutated, or random text.
fn link_input(rng: &mut XorShift, corpus: &[String]) -> String {
    let base = corpus[rng.below(corpus.len())].clone();
    match rng.below(9) {
        // Random printable text, with the link's own punctuation over-represented.
        0 => {
            const CHARS: &[u8] = b"abcxyz019_-.,;:?&=#%+| \tAZ";
            (0..rng.below(60))
                .map(|_| CHARS[rng.below(CHARS.len())] as char)
                .collect()
        }
        // One value replaced by a troublesome one.
        1 | 2 => {
            let mut parts: Vec<String> = base.split('&').map(str::to_owned).collect();
            let at = rng.below(parts.len());
            let key = parts[at].split('=').next().unwrap_or("").to_owned();
            let key = key.rsplit('?').next().unwrap_or("").to_owned();
            let prefix = if at == 0 {
                format!("{}?", base.split('?').next().unwrap_or(""))
            } else {
                String::new()
            };
            let key = if key.is_empty() {
                "angle".to_owned()
            } else {
                key
            };
            parts[at] = format!("{prefix}{key}={}", trouble(rng));
            parts.join("&")
        }
        // A key given twice, or one no page has.
        3 => format!("{base}{}{}", if base.contains('?') { "&" } else { "?" }, {
            let key = ["angle", "focus", "zoom", "deck", "compare", "wiggle", "t"][rng.below(7)];
            format!("{key}={}", trouble(rng))
        }),
        4 => format!("{base}&{base}"),
        // Cut anywhere.
        5 => base
            .chars()
            .take(rng.below(base.chars().count() + 1))
            .collect(),
        // One character changed.
        6 => {
            let mut chars: Vec<char> = base.chars().collect();
            if !chars.is_empty() {
                let at = rng.below(chars.len());
                chars[at] = ['%', '&', '=', '?', '#', 'é', ' ', 'Z', '0', ';'][rng.below(10)];
            }
            chars.into_iter().collect()
        }
        // Addresses and commands around it.
        7 => match rng.below(3) {
            0 => format!("http://127.0.0.1:1/app/index.html#{base}"),
            1 => format!("skinlab '{base}'"),
            _ => base.to_uppercase(),
        },
        _ => base,
    }
}

/// A stored state made broken: a real one (of some documented links) with bytes
/// flipped, lines cut, repeated or invented.
fn state_input(rng: &mut XorShift, corpus: &[String]) -> String {
    let mut app = SkinlabApp::new();
    app.paused = true;
    for _ in 0..1 + rng.below(3) {
        let _ = app.open_link(&corpus[rng.below(corpus.len())]);
    }
    let mut lines: Vec<String> = app.save_state().lines().map(str::to_owned).collect();
    for _ in 0..1 + rng.below(3) {
        let at = rng.below(lines.len().max(1)).min(lines.len());
        match rng.below(5) {
            0 if !lines.is_empty() => {
                let last = lines.len() - 1;
                let line = &mut lines[at.min(last)];
                let cut = rng.below(line.len() + 1);
                line.truncate(line.floor_char_boundary(cut));
            }
            1 => lines.insert(at, format!("page {}", link_input(rng, corpus))),
            2 => lines.insert(at, format!("zoom {} {}", trouble(rng), trouble(rng))),
            3 => lines.insert(at, trouble(rng)),
            _ if !lines.is_empty() => {
                let line = lines[at.min(lines.len() - 1)].clone();
                lines.insert(at, line);
            }
            _ => {}
        }
    }
    lines.join("\n")
}

/// A bundled model made broken: cut, bytes flipped, or a JSON number swapped.
fn gltf_input(rng: &mut XorShift) -> (String, Vec<u8>) {
    let (name, file) = match rng.below(2) {
        0 => ("SimpleSkin.gltf", skinlab::models::bytes("simple_skin")),
        _ => ("RobotExpressive.glb", skinlab::models::bytes("robot")),
    };
    let file = file.expect("bundled").to_vec();
    let bytes = match rng.below(3) {
        0 => file[..rng.below(file.len())].to_vec(),
        1 => {
            let mut bytes = file;
            for _ in 0..1 + rng.below(4) {
                let at = rng.below(bytes.len());
                bytes[at] = rng.next() as u8;
            }
            bytes
        }
        _ if file.starts_with(b"glTF") => {
            let (json, bin) = glb_chunks(&file);
            let mut json = json.to_vec();
            for _ in 0..1 + rng.below(3) {
                json = mutate_number(&json, rng);
            }
            glb(&json, bin)
        }
        _ => mutate_number(&file, rng),
    };
    (name.to_owned(), bytes)
}

/// A refusal must be one line that says something.
fn one_line(message: &str) -> Result<(), String> {
    if message.trim().is_empty() || message.contains('\n') {
        return Err(format!("the message is not one line: {message:?}"));
    }
    Ok(())
}

/// The app's own link must reopen exactly what it shows.
fn reopens(app: &SkinlabApp) -> Result<(), String> {
    let written = app.current_link().to_string();
    let mut again = SkinlabApp::new();
    again.paused = true;
    again
        .open_link(&written)
        .map_err(|e| format!("its own link `{written}` is refused: {e}"))?;
    let reread = again.current_link().to_string();
    if reread != written {
        return Err(format!("its own link `{written}` reopens as `{reread}`"));
    }
    Ok(())
}

/// The state that fuzzing one target carries from input to input.
struct Run {
    app: SkinlabApp,
    page: ModelPage,
}

impl Run {
    fn new() -> Self {
        let mut app = SkinlabApp::new();
        app.paused = true;
        Self {
            app,
            page: ModelPage::default(),
        }
    }

    /// Feeds one input to `target`; the error says which property broke.
    fn check(&mut self, target: Target, input: &[u8]) -> Result<(), String> {
        match target {
            Target::Link => {
                let text = String::from_utf8_lossy(input);
                let before = self.app.current_link().to_string();
                if let Err(e) = self.app.open_link(&text) {
                    one_line(&e.to_string())?;
                    let after = self.app.current_link().to_string();
                    if e.is_about_the_page() && after != before {
                        return Err(format!("a link with no page moved `{before}` to `{after}`"));
                    }
                }
                reopens(&self.app)
            }
            Target::State => {
                let mut app = SkinlabApp::new();
                app.paused = true;
                app.restore_state(&String::from_utf8_lossy(input));
                for notice in app.notices() {
                    one_line(notice)?;
                }
                reopens(&app)
            }
            Target::Gltf => {
                let shown = self.page.model.clone();
                match self.page.open_bytes("fuzzed.glb", input) {
                    Err(e) => {
                        one_line(&e)?;
                        if !Arc::ptr_eq(&shown, &self.page.model) {
                            return Err("a refused file replaced the model shown".into());
                        }
                    }
                    Ok(_) => {
                        // Whatever loads must pose and skin, as every frame does, and
                        // again once every fix has repaired it.
                        for repaired in [false, true] {
                            if repaired {
                                self.page.repair(&gltf::Fix::EVERY);
                            }
                            let frame = self.page.frame();
                            if frame.skinned.len() != self.page.model.skinned_meshes.len() {
                                return Err("a skinned mesh was not skinned".into());
                            }
                        }
                    }
                }
                Ok(())
            }
        }
    }
}

/// Runs `check`, turning a panic into a failure.
fn guarded(check: impl FnOnce() -> Result<(), String>) -> Result<(), String> {
    match common::catch_quietly(check) {
        Ok(result) => result,
        Err(panic) => Err(format!("panicked: {}", common::panic_message(&*panic))),
    }
}

/// What one run of a target did.
struct Report {
    cases: usize,
    slowest: Duration,
    /// The input that took longest, and how many took over 100 ms.
    slowest_input: Vec<u8>,
    over_100_ms: usize,
    failures: Vec<(String, Vec<u8>)>,
}

/// Runs `target` from `seed` until `cases` inputs or `until`, whichever comes first.
fn fuzz(target: Target, seed: u64, cases: usize, until: Option<Instant>) -> Report {
    let corpus = common::documented_links();
    let mut rng = XorShift(seed | 1);
    let mut run = Run::new();
    let mut report = Report {
        cases: 0,
        slowest: Duration::ZERO,
        slowest_input: Vec::new(),
        over_100_ms: 0,
        failures: Vec::new(),
    };
    while report.cases < cases && until.is_none_or(|t| Instant::now() < t) {
        let input = match target {
            Target::Link => link_input(&mut rng, &corpus).into_bytes(),
            Target::State => state_input(&mut rng, &corpus).into_bytes(),
            Target::Gltf => gltf_input(&mut rng).1,
        };
        let start = Instant::now();
        let result = guarded(|| run.check(target, &input));
        let took = start.elapsed();
        if took > report.slowest {
            report.slowest = took;
            report.slowest_input.clone_from(&input);
        }
        report.over_100_ms += usize::from(took > Duration::from_millis(100));
        report.cases += 1;
        if let Err(why) = result {
            report.failures.push((why, input));
            // A panic may leave the shared state half-changed: start afresh.
            run = Run::new();
        }
    }
    report
}

fn regressions(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fuzz")
        .join(name)
}

/// How many cases each target runs in the suite: `FUZZ_CASES_SCALE` scales the default.
fn budget(target: Target) -> usize {
    let scale: f64 = std::env::var("FUZZ_CASES_SCALE")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1.0);
    let base = match target {
        Target::Link => 1500.0,
        Target::State => 150.0,
        Target::Gltf => 200.0,
    };
    (base * scale) as usize
}

#[test]
fn every_target_runs_its_budget_clean() {
    let mut failures = Vec::new();
    for (target, name) in TARGETS {
        let report = fuzz(
            target,
            0x5EED_0000 + name.len() as u64,
            budget(target),
            None,
        );
        eprintln!(
            "fuzz {name}: {} cases, slowest {:.1} ms, {} failures",
            report.cases,
            report.slowest.as_secs_f64() * 1e3,
            report.failures.len()
        );
        failures.extend(report.failures.into_iter().take(5).map(|(why, input)| {
            let shown = String::from_utf8_lossy(&input[..input.len().min(300)]).into_owned();
            format!("{name}: {why}\n  input: {shown:?}")
        }));
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_input_that_ever_failed_stays_fixed() {
    let mut replayed = 0;
    let mut failures = Vec::new();
    for (target, name) in TARGETS {
        let Ok(entries) = std::fs::read_dir(regressions(name)) else {
            continue;
        };
        let mut run = Run::new();
        for entry in entries.flatten() {
            let input = std::fs::read(entry.path()).expect("a regression input");
            replayed += 1;
            if let Err(why) = guarded(|| run.check(target, &input)) {
                failures.push(format!("{}: {why}", entry.path().display()));
                run = Run::new();
            }
        }
    }
    assert!(replayed > 0, "the regression inputs are found");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn the_harness_reports_what_breaks() {
    // A panic is caught and reported with its message, not lost.
    let caught = guarded(|| panic!("boom"));
    assert!(caught.is_err_and(|why| why.contains("boom")));
    // Messages of two lines and links that do not reopen are failures.
    assert!(one_line("two\nlines").is_err());
    assert!(one_line(" ").is_err());
    let mut app = SkinlabApp::new();
    app.open_link("grid?angle=0.5").expect("opens");
    assert!(reopens(&app).is_ok());
    // Every documented link is in the corpus the mutations start from.
    let corpus = common::documented_links();
    assert!(corpus.len() > 50, "{} links", corpus.len());
    assert!(corpus.iter().any(|l| l.starts_with("model?")));
}

/// `scripts/fuzz TARGET [SECONDS]`: one target for a while from a fresh seed; a failing
/// input is saved under `target/fuzz/` and its path printed.
#[test]
#[ignore = "long runs are started by scripts/fuzz"]
fn long_run() {
    let name = std::env::var("FUZZ_TARGET").unwrap_or_else(|_| "link".to_owned());
    let Some(&(target, name)) = TARGETS.iter().find(|(_, n)| *n == name) else {
        panic!("no fuzz target `{name}`: the targets are link, state, gltf");
    };
    let seconds: u64 = std::env::var("FUZZ_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(60);
    let seed = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(1, |d| d.as_nanos() as u64);
    let start = Instant::now();
    let report = fuzz(
        target,
        seed,
        usize::MAX,
        Some(start + Duration::from_secs(seconds)),
    );
    let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join("../fuzz");
    let _ = std::fs::create_dir_all(&out);
    let out = out.canonicalize().unwrap_or(out);
    for (k, (why, input)) in report.failures.iter().enumerate() {
        let file = out.join(format!("{name}-{seed:x}-{k}.bin"));
        let _ = std::fs::write(&file, input);
        println!("FAILED {name}: {why}\n  input saved in {}", file.display());
    }
    println!(
        "fuzz {name}: {} cases in {:.0} s (seed {seed:x}), slowest {:.1} ms, {} over 100 ms, {} failures\n  slowest input: {:?}",
        report.cases,
        start.elapsed().as_secs_f64(),
        report.slowest.as_secs_f64() * 1e3,
        report.over_100_ms,
        report.failures.len(),
        String::from_utf8_lossy(&report.slowest_input[..report.slowest_input.len().min(160)])
    );
    assert!(
        report.failures.is_empty(),
        "{} failures",
        report.failures.len()
    );
}
