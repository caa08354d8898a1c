//! The desktop app: a window around [`SkinlabApp`], set up from the command line,
//! `--screenshot` (draw a link with time paused, save a PNG, close), `--profile`
//! (time a link's frames against an empty window's, print them, close) and `--profile
//! --minutes` (play a link for minutes, print a row of its figures each minute). The
//! timed modes run without a window too ([`headless`]), with `--headless` or where no
//! display opens.

mod headless;
mod mode;
mod screenshot;

pub use mode::{Mode, Options, RunError};
use screenshot::{Export, Screenshot, Shot};

use crate::SkinlabApp;
use crate::profile::{Half, PaintStamps, Recorder, Report, Soak, Sweep};
use crate::ui::file_dialog::file_name;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

/// The screenshot's outcome, written by the app and read by [`run`] once the window
/// has closed.
pub(super) type Outcome = Arc<Mutex<Option<Result<(), String>>>>;

/// All the CPU work of the frame before this one, as eframe reports it.
fn previous_cpu(frame: &eframe::Frame) -> Option<std::time::Duration> {
    let seconds = frame.info().cpu_usage?;
    Some(std::time::Duration::from_secs_f32(seconds.max(0.0)))
}

/// Runs `draw` between two paint callbacks that stamp when OpenGL painting reaches
/// them: one on the bottom layer, added before anything else and so painted first, and
/// one on the top layer, painted last. `draw` is given the stamps of the frame before
/// (this frame's are made once it is painted).
fn between_paint_stamps<R>(
    ctx: &egui::Context,
    stamps: &Arc<Mutex<PaintStamps>>,
    draw: impl FnOnce(PaintStamps) -> R,
) -> R {
    let previous = stamps.lock().map(|s| *s).unwrap_or_default();
    let stamp = |layer: egui::LayerId, first: bool| {
        let stamps = stamps.clone();
        let callback = egui_glow::CallbackFn::new(move |_, _| {
            if let Ok(mut s) = stamps.lock() {
                let now = Some(std::time::Instant::now());
                if first {
                    *s = PaintStamps {
                        first: now,
                        last: None,
                    };
                } else {
                    s.last = now;
                }
            }
        });
        ctx.layer_painter(layer).add(egui::PaintCallback {
            rect: egui::Rect::from_min_size(egui::Pos2::ZERO, egui::vec2(1.0, 1.0)),
            callback: Arc::new(callback),
        });
    };
    stamp(egui::LayerId::background(), true);
    let drawn = draw(previous);
    let top = egui::LayerId::new(egui::Order::Debug, egui::Id::unique("paint_stamp"));
    stamp(top, false);
    drawn
}

/// A timed run in the window: what it records, where that goes once it is done, and
/// the stamps of the last frame's painting.
type Timed<T> = (T, Arc<Mutex<Option<T>>>, Arc<Mutex<PaintStamps>>);

/// The work of the window's mode, set from [`Mode`]: one at most.
#[derive(Default)]
enum Job {
    /// The app for a person, or a job done.
    #[default]
    None,
    /// A `--screenshot` run.
    Screenshot(Screenshot),
    /// A `--deck FILE --export DIR` run: a picture of every slide, then the handout.
    Export(Export),
    /// A `--profile` run, where its report goes once it is done, and the stamps of
    /// the last frame's painting.
    Profile(Timed<Recorder>),
    /// A `--profile --minutes` run, and whether it played every minute.
    Soak(Soak, Arc<AtomicBool>),
    /// A `--sliders` run, and where it goes once done.
    Sweep(Timed<Sweep>),
}

impl Job {
    /// One frame of a timed mode's work (profile, slider sweep, soak) around the
    /// app's ui, given the previous frame's CPU work. Returns false when there is none,
    /// and the caller draws the app for a person. A finished run asks the viewport to
    /// close.
    fn frame(
        &mut self,
        app: &mut SkinlabApp,
        ui: &mut egui::Ui,
        previous_cpu: Option<std::time::Duration>,
    ) -> bool {
        if let Job::Profile((recorder, done, stamps)) = self {
            let ctx = ui.ctx().clone();
            let (previous_paint, start, ui_time) = between_paint_stamps(&ctx, stamps, |paint| {
                let start = std::time::Instant::now();
                match recorder.half() {
                    Some(Half::Empty) => {
                        egui::CentralPanel::default().show(ui, |_| {});
                    }
                    Some(Half::Link) => app.app_ui(ui),
                    None => {}
                }
                (paint, start, start.elapsed())
            });
            recorder.frame(start, ui_time, previous_cpu, previous_paint);
            if recorder.half().is_none() {
                if let Ok(mut slot) = done.lock() {
                    *slot = Some(std::mem::replace(recorder, Recorder::new(0)));
                }
                ui.ctx().send_viewport_cmd(egui::ViewportCommand::Close);
            }
            ui.ctx().request_repaint();
            return true;
        }
        if let Job::Sweep((sweep, _, stamps)) = self {
            let ctx = ui.ctx().clone();
            between_paint_stamps(&ctx, stamps, |paint| {
                if let Some(link) = sweep.frame(previous_cpu, paint) {
                    // A refused value is a notice in the window, as for a user.
                    app.follow_link(link);
                }
                app.app_ui(ui);
            });
            if sweep.done()
                && let Job::Sweep((sweep, done, _)) = std::mem::take(self)
            {
                // Taken out, so the frames before the window closes add nothing.
                if let Ok(mut slot) = done.lock() {
                    *slot = Some(sweep);
                }
                ui.ctx().send_viewport_cmd(egui::ViewportCommand::Close);
            }
            ui.ctx().request_repaint();
            return true;
        }
        if let Job::Soak(soak, done) = self {
            let start = std::time::Instant::now();
            app.app_ui(ui);
            if let Some(minute) = soak.frame(start, start.elapsed(), previous_cpu) {
                use std::io::Write as _;
                // The row goes out as the minute ends: a soak is read while it runs.
                let mut out = std::io::stdout().lock();
                let _ = writeln!(out, "{}", minute.csv());
                let _ = out.flush();
            }
            if soak.done() {
                done.store(true, Ordering::Relaxed);
                ui.ctx().send_viewport_cmd(egui::ViewportCommand::Close);
            }
            ui.ctx().request_repaint();
            return true;
        }
        false
    }
}

/// [`SkinlabApp`] in a desktop window.
struct NativeApp {
    app: SkinlabApp,
    job: Job,
    /// Whether the app's state is kept between runs (not for a screenshot).
    persist: bool,
    /// The deck slide whose notes were printed last (deck name, slide).
    noted: Option<(String, usize)>,
    /// Typing after a Tab, held back a frame.
    typing: crate::app::typing::FocusFirst,
}

impl NativeApp {
    /// Prints a deck slide's title and speaker notes to the terminal as it opens, for
    /// the lecturer's eyes only.
    fn print_notes(&mut self) {
        let Some((deck, slide)) = self.app.deck() else {
            self.noted = None;
            return;
        };
        if self
            .noted
            .as_ref()
            .is_some_and(|(name, at)| *name == deck.name && *at == slide)
        {
            return;
        }
        let shown = &deck.slides[slide];
        println!(
            "\n{} {}/{}: {}",
            deck.name,
            slide + 1,
            deck.slides.len(),
            shown.title
        );
        for note in &shown.notes {
            println!("  {note}");
        }
        self.noted = Some((deck.name.clone(), slide));
    }
}

impl eframe::App for NativeApp {
    fn raw_input_hook(&mut self, ctx: &egui::Context, raw_input: &mut egui::RawInput) {
        self.typing.hold_back(ctx, raw_input);
    }

    fn ui(&mut self, ui: &mut egui::Ui, frame: &mut eframe::Frame) {
        if self.job.frame(&mut self.app, ui, previous_cpu(frame)) {
            return;
        }
        let dropped = ui.input(|i| i.raw.dropped_files.clone());
        if !dropped.is_empty() {
            let folder = dropped
                .iter()
                .find_map(|f| f.path().parent().map(|p| p.to_owned()));
            let files = dropped
                .iter()
                .map(|f| (file_name(f.path()), crate::files::read_brought(f.path())))
                .collect();
            self.app.open_dropped_files(files, folder.as_deref());
        }
        self.app.app_ui(ui);
        self.print_notes();
        let done = match &mut self.job {
            Job::Screenshot(job) => job.step(ui.ctx(), self.app.settled()),
            Job::Export(job) => job.step(&mut self.app, ui.ctx()),
            _ => false,
        };
        if done {
            self.job = Job::None;
        }
    }

    fn save(&mut self, storage: &mut dyn eframe::Storage) {
        if self.persist {
            self.app.save_to(storage);
        }
    }
}

/// Whether the desktop's own switch asks for less motion: GNOME's Reduce Animation
/// (`enable-animations` off), read through `gsettings` where it is installed. Other
/// desktops' switches are not read: `--reduce-motion` asks for the same.
fn desktop_reduces_motion() -> bool {
    if !cfg!(target_os = "linux") {
        return false;
    }
    std::process::Command::new("gsettings")
        .args(["get", "org.gnome.desktop.interface", "enable-animations"])
        .stderr(std::process::Stdio::null())
        .output()
        .is_ok_and(|out| out.status.success() && out.stdout.trim_ascii() == b"false")
}

/// Opens the window and runs until it closes. In every mode but [`Mode::Run`] the link
/// is opened before the window (a refused one is an error, and no window opens), and the
/// run fails unless the mode's work was done; a profile's or a sweep's figures are
/// returned.
pub fn run(options: Options) -> Result<Option<Report>, RunError> {
    let Options {
        link,
        open,
        deck,
        slide,
        presenter,
        reduce_motion,
        headless,
        size,
        mode,
    } = options;
    // Before the first page is built: pages open paused for a reader who asked.
    crate::ui::motion::set_reduced(
        reduce_motion || (matches!(mode, Mode::Run) && desktop_reduces_motion()),
    );
    let mut native = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_title("skinlab")
            .with_app_id("skinlab")
            .with_inner_size(size)
            .with_min_inner_size([640.0, 400.0]),
        depth_buffer: 24,
        ..Default::default()
    };
    let mut app = SkinlabApp::new();
    // Presenter mode first, so that a `zoom=` in the link or a deck's slide is its zoom.
    app.set_presenter(presenter);
    // The file first, so a link applies to it; a file the app cannot use ends the run
    // before any window opens, like a refused link with --screenshot.
    if let Some(path) = &open {
        let bytes = crate::files::read_brought(path)
            .map_err(|e| RunError::Open(format!("`{}` could not be read: {e}", path.display())))?;
        let folder = path.parent().unwrap_or(std::path::Path::new("")).to_owned();
        let beside = |name: &str, at_most| crate::files::read_beside(&folder, name, at_most);
        let name = file_name(path);
        let warnings = app
            .open_brought(&crate::page::Brought::from_folder(&name, &bytes, &beside))
            .map_err(RunError::Open)?;
        for warning in warnings {
            eprintln!("{}: warning: {warning}", file_name(path));
        }
    }
    // A deck starts on its first slide; a refused deck, like a refused file, ends the
    // run before any window opens.
    let has_deck = match &deck {
        Some(path) => {
            let text = std::fs::read_to_string(path).map_err(|e| {
                RunError::Deck(format!("`{}` could not be read: {e}", path.display()))
            })?;
            let deck = crate::deck::Deck::parse(&file_name(path), &text).map_err(RunError::Deck)?;
            let count = deck.slides.len();
            let first = match slide {
                Some(n) if (1..=count).contains(&n) => n - 1,
                Some(n) => {
                    return Err(RunError::Deck(format!(
                        "--slide {n}: the deck has slides 1 to {count}"
                    )));
                }
                None => 0,
            };
            app.open_deck(deck, first).map_err(RunError::Link)?;
            true
        }
        None => false,
    };
    // Without a link, the window shows the opened file (the deck shows its slide).
    let link = link.or_else(|| {
        open.as_ref()
            .filter(|_| !has_deck)
            .map(|_| app.current_link().slug.clone())
    });
    let persist = mode == Mode::Run;
    if !persist && let Some(link) = &link {
        app.open_link(link).map_err(RunError::Link)?;
    }
    // A timed mode runs exactly the link given, as fast as frames come.
    if mode.timed() {
        native.glow_options.vsync = false;
    }
    let report = Arc::new(Mutex::new(None));
    let swept = Arc::new(Mutex::new(None));
    let soaked = Arc::new(AtomicBool::new(false));
    let outcome = Outcome::default();
    let mut job = match &mode {
        Mode::Run => Job::None,
        Mode::Screenshot(path) => {
            app.paused = true;
            Job::Screenshot(Screenshot {
                shot: Shot::new(path.clone()),
                outcome: outcome.clone(),
            })
        }
        Mode::Export { dir, app: address } => {
            app.paused = true;
            let deck = app
                .deck()
                .map(|(deck, _)| deck.clone())
                .ok_or_else(|| RunError::Mode {
                    option: mode.option(),
                    why: "it exports a deck: give one with --deck FILE".to_owned(),
                })?;
            std::fs::create_dir_all(dir).map_err(|e| RunError::Mode {
                option: mode.option(),
                why: format!("could not make the folder {}: {e}", dir.display()),
            })?;
            Job::Export(Export::new(
                dir.clone(),
                deck,
                address.clone(),
                outcome.clone(),
            ))
        }
        Mode::Profile { frames } => Job::Profile((
            Recorder::new(*frames),
            report.clone(),
            Arc::new(Mutex::new(PaintStamps::default())),
        )),
        Mode::Soak { minutes } => {
            println!("{}", Soak::CSV_HEADER);
            Job::Soak(Soak::new(*minutes), soaked.clone())
        }
        Mode::Sliders => Job::Sweep((
            Sweep::of_every_page(),
            swept.clone(),
            Arc::new(Mutex::new(PaintStamps::default())),
        )),
    };
    // Only the app for a person keeps its state. eframe 0.37 takes `persistence_path`
    // as the storage file itself (its doc says folder).
    let scratch = (!persist)
        .then(|| std::env::temp_dir().join(format!("skinlab-scratch-{}.ron", std::process::id())));
    if let Some(file) = &scratch {
        native.persist_window = false;
        native.persistence_path = Some(file.clone());
    }
    let profiled = link
        .clone()
        .unwrap_or_else(|| "the pages as left".to_owned());
    if mode.timed() && (headless || !has_display()) {
        headless::run(&mut app, &mut job, size).map_err(|why| RunError::Mode {
            option: mode.option(),
            why,
        })?;
        return finish(&mode, &profiled, &report, &swept, &soaked, &outcome);
    }
    let result = eframe::run_native(
        "skinlab",
        native,
        Box::new(move |cc| {
            crate::ui::fonts::install(&cc.egui_ctx);
            // `SKINLAB_THEME=light` (or `dark`) draws in that theme whatever the system
            // says: the book's figures are taken light, for its light pages.
            match std::env::var("SKINLAB_THEME").as_deref() {
                Ok("light") => cc.egui_ctx.set_theme(egui::ThemePreference::Light),
                Ok("dark") => cc.egui_ctx.set_theme(egui::ThemePreference::Dark),
                _ => {}
            }
            if persist && let Some(storage) = cc.storage {
                app.restore_from(storage);
            }
            // Before the link, so that a `zoom=` in it is presenter mode's.
            if presenter {
                app.set_presenter(true);
            }
            if persist {
                // After the saved state, so the link wins; in the window, a refused
                // link is a notice there.
                if let Some(link) = &link {
                    app.follow_link(link);
                } else if has_deck {
                    // The saved state opened other pages: back to the deck's slide.
                    app.step_deck(0);
                }
            }
            Ok(Box::new(NativeApp {
                app,
                job,
                persist,
                noted: None,
                typing: Default::default(),
            }))
        }),
    );
    if let Some(file) = scratch {
        // Nothing to report if eframe never wrote it.
        let _ = std::fs::remove_file(file);
    }
    result.map_err(|e| RunError::Start(e.to_string()))?;
    finish(&mode, &profiled, &report, &swept, &soaked, &outcome)
}

/// Whether a window could open here: on Linux, a display server is named.
fn has_display() -> bool {
    if !cfg!(target_os = "linux") {
        return true;
    }
    ["DISPLAY", "WAYLAND_DISPLAY"]
        .iter()
        .any(|name| std::env::var_os(name).is_some_and(|v| !v.is_empty()))
}

/// What the mode's run left behind: its report, or why it did not finish.
fn finish(
    mode: &Mode,
    profiled: &str,
    report: &Mutex<Option<Recorder>>,
    swept: &Mutex<Option<Sweep>>,
    soaked: &AtomicBool,
    outcome: &Outcome,
) -> Result<Option<Report>, RunError> {
    let unfinished = |what: &str| RunError::Mode {
        option: mode.option(),
        why: format!("the window closed before {what}"),
    };
    match &mode {
        Mode::Run => Ok(None),
        Mode::Soak { .. } if soaked.load(Ordering::Relaxed) => Ok(None),
        Mode::Soak { .. } => Err(unfinished("the soak was finished")),
        Mode::Sliders => match swept.lock().ok().and_then(|mut slot| slot.take()) {
            Some(sweep) => Ok(Some(Report::Sliders(sweep))),
            None => Err(unfinished("every slider was moved")),
        },
        Mode::Profile { .. } => match report.lock().ok().and_then(|mut slot| slot.take()) {
            Some(recorder) => Ok(Some(Report::Frames(recorder.report(profiled)))),
            None => Err(unfinished("the profile was finished")),
        },
        Mode::Screenshot(_) | Mode::Export { .. } => {
            match outcome.lock().ok().and_then(|mut slot| slot.take()) {
                Some(Ok(())) => Ok(None),
                Some(Err(why)) => Err(RunError::Mode {
                    option: mode.option(),
                    why,
                }),
                None => Err(unfinished("every picture was taken")),
            }
        }
    }
}
