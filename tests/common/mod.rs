//! Shared test helpers: the headless GL context and Xvfb, which CI must have.
//!
//! Outside CI a test that cannot run here returns early and passes, and says so with
//! [`skip`]. With `CI=true` a missing context or Xvfb is a failure, never a skip.
#![allow(dead_code)]

use std::io::Write as _;

pub use gl::headless::{Api, Headless};

/// Whether this is a CI run (`CI=true` or `CI=1`), where nothing may be skipped.
pub fn in_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| v == "true" || v == "1")
}

/// What `skinlab ARGS` did in a 1280x800 window under Xvfb; `None` (after [`skip`])
/// when there is no xvfb-run outside CI.
pub fn run_in_xvfb(args: &[&std::ffi::OsStr]) -> Option<std::process::Output> {
    run_in_xvfb_on("1280x800", args)
}

/// [`run_in_xvfb`] on a screen of `size` (`WxH`) pixels: a projector's 1920x1080.
pub fn run_in_xvfb_on(size: &str, args: &[&std::ffi::OsStr]) -> Option<std::process::Output> {
    let output = std::process::Command::new("xvfb-run")
        .args([
            "-a",
            "-s",
            &format!("-screen 0 {size}x24"),
            env!("CARGO_BIN_EXE_skinlab"),
        ])
        .args(args)
        .output();
    match output {
        Ok(output) => Some(output),
        Err(e) if !in_ci() => {
            skip(&format!("no xvfb-run: {e}"));
            None
        }
        Err(e) => panic!("CI needs xvfb-run: {e}"),
    }
}

/// Says that the running test skipped itself, and why, where plain `cargo test` shows
/// it. The test harness captures `println!` and `eprintln!` of passing tests and shows
/// nothing of them; it does not capture writes to the standard error stream itself, so
/// the line appears between the test results. The harness names the test's thread after
/// the test.
pub fn skip(reason: &str) {
    let thread = std::thread::current();
    let test = thread.name().unwrap_or("a test");
    let line = format!("SKIPPED {test}: {reason} (CI=true makes this a failure)\n");
    // Nothing to do if stderr itself is gone: the test passes either way.
    let _ = std::io::stderr().lock().write_all(line.as_bytes());
}

/// A headless context, or `None` (after [`skip`]) when there is none outside CI.
pub fn headless(api: Api) -> Option<Headless> {
    match gl::headless::create(api) {
        Ok(h) => Some(h),
        Err(e) if in_ci() => panic!("CI needs a headless GL context ({api:?}): {e}"),
        Err(e) => {
            skip(&format!("no headless GL context ({api:?}): {e}"));
            None
        }
    }
}

/// Every link the project documents: the chapters' `skinlab:` links and figure links,
/// and the bundled decks' slides.
pub fn documented_links() -> Vec<String> {
    let mut links = Vec::new();
    for entry in skinlab::pages::PAGES {
        let text = entry.info.chapter;
        for (at, _) in text.match_indices("skinlab:") {
            let rest = &text[at + "skinlab:".len()..];
            let end = rest
                .find(|c: char| c == ')' || c == '`' || c.is_whitespace())
                .unwrap_or(rest.len());
            links.push(rest[..end].to_owned());
        }
        for line in text.lines() {
            if let Some(query) = line.strip_prefix("link: ") {
                links.push(format!("{}?{}", entry.info.slug, query.trim()));
            }
        }
        links.push(entry.info.slug.to_owned());
    }
    for (name, text) in skinlab::deck::BUNDLED {
        let deck = skinlab::deck::Deck::parse(name, text).expect("a bundled deck reads");
        links.extend(deck.slides.into_iter().map(|s| s.link));
    }
    links
}

pub mod mutate;
pub mod poses;

thread_local! {
    /// Whether a panic on this thread is one [`catch_quietly`] expects and reports.
    static QUIET: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Runs `f` and catches a panic, without the panic message on stderr: the caller
/// reports it. The panic hook is installed once for the whole test binary and stays
/// quiet only on a thread inside this call, so a real failure in a test running beside
/// it still prints as usual (swapping the process-wide hook per test would silence it).
pub fn catch_quietly<T>(f: impl FnOnce() -> T) -> std::thread::Result<T> {
    static HOOK: std::sync::Once = std::sync::Once::new();
    HOOK.call_once(|| {
        let default = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if !QUIET.with(std::cell::Cell::get) {
                default(info);
            }
        }));
    });
    let outer = QUIET.with(|q| q.replace(true));
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f));
    QUIET.with(|q| q.set(outer));
    result
}

/// A caught panic's message.
pub fn panic_message(panic: &(dyn std::any::Any + Send)) -> String {
    panic
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_default()
}

/// A mouse wheel turned by `dy` points (positive scrolls the content down, towards
/// its top) wherever the pointer is.
pub fn wheel<S>(harness: &mut egui_kittest::Harness<'_, S>, dy: f32) {
    harness.event(egui::Event::MouseWheel {
        unit: egui::MouseWheelUnit::Point,
        delta: egui::vec2(0.0, dy),
        phase: egui::TouchPhase::Move,
        source: egui::MouseWheelSource::Unknown,
        modifiers: egui::Modifiers::NONE,
    });
}
