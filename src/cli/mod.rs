//! The desktop app's command line: `skinlab --help` lists it. [`parse`] reads it into one
//! [`Command`]; `main` carries it out.

use crate::native::{Mode, Options};
use skin::job::Simd;
use std::ffi::OsString;
use std::path::PathBuf;

/// The usage lines, printed with every command-line error.
pub const SYNOPSIS: &str = "\
usage: skinlab [LINK] [--open FILE] [--deck FILE [--slide N]] [--presenter] [--reduce-motion] [--size WxH] [--screenshot PATH]
       skinlab --deck FILE --export DIR [--app ADDRESS] [--presenter] [--size WxH]
       skinlab --check-deck FILE
       skinlab --repair IN OUT.glb [--fix LIST]
       skinlab --bench [gpu] [--csv]
       skinlab --bench cpu [--csv] [--vertices N,...] [--simd NAME]
       skinlab --profile LINK [--frames N | --minutes M] [--csv] [--headless] [--presenter] [--size WxH]
       skinlab --sliders [--csv] [--headless] [--presenter] [--size WxH]
       skinlab --list-pages | --help";

/// What `--help` prints after the usage lines.
pub const OPTIONS: &str = "\
Opens skinlab, the interactive mesh-skinning tutorial, in a window.

  LINK               a page link: `grid` or `grid?angle=0.8&bone=2`
                     (without one, the pages as they were left)
  --open FILE        open a glTF model (.glb, or a .gltf with its buffers
                     embedded) on the model page; LINK then applies to it
                     (`model?clip=Walking&t=0.4`). A file the page cannot use is
                     an error: the reason is printed and no window opens
  --deck FILE        step through a lecture deck: a text file of links, one per
                     line with its title (PageDown / PageUp); starts on its first,
                     or on slide N with --slide N
  --check-deck FILE  open every slide of a deck without a window; print each bad
                     line and why, and exit non-zero if any
  --export DIR       with --deck: draw every slide with time paused (as
                     --screenshot does), save them as DIR/slide-01.png, ... and
                     write DIR/index.html, a handout with each slide's title,
                     picture, speaker notes and live link; exit non-zero naming
                     any slide that failed (its picture says why)
  --app ADDRESS      with --export: the web app the handout's links open, each
                     slide's link after `#` (default: app/index.html in DIR or a
                     folder above it, if the web app is there; else each slide's
                     link is written out to type or paste)
  --presenter        start with big text for a projector (F5 toggles)
  --reduce-motion    open every page with its animation paused (Play starts
                     it) and let nothing glide; chosen by itself where the
                     desktop's own switch says so (GNOME: Reduce Animation)
  --size WxH         window size in points, each side 200 to 8000 (default 1280x800)
  --screenshot PATH  open LINK, draw a few frames with time paused, save a PNG, exit
  --repair IN OUT    write the glTF model IN (a .glb, or a .gltf with the files
                     beside it) as one self-contained GLB, OUT, with its skin
                     repaired; print a line per change, or that there was nothing
                     to repair. Never over IN
  --fix LIST         with --repair: the fixes to make, with commas (default: all
                     but unused and rebind): renormalise, four, influences, zeros,
                     binds, rotations, unused, rebind (see docs/links.md)
  --list-pages       print every page link name in lesson order, one a line
  --bench [gpu]      time CPU against GPU skinning, 3k to 1M vertices, on a headless
                     GL context: name the GL renderer, then print a Markdown table
                     (reference and fast kernels, a host memcpy of the bytes a
                     CPU-skinned mesh uploads, the upload, the GPU vertex stage)
  --bench cpu        time the CPU skinning kernels (reference, plain, fast, memory
                     floor) on one thread and on all, and print a Markdown table
  --csv              with --bench gpu: print CSV rows instead (vertices,phase,ms);
                     with --bench cpu: kernel,attributes,threads,vertices,ns_per_vertex;
                     with --profile: link,phase,median_ms,p95_ms,max_ms;
                     with --sliders: link,frame_ms,draw_ms
  --profile LINK     open LINK in a window with its animation running, time N
                     frames of it and N of an empty window, print milliseconds a
                     frame (median, 95th percentile, max) for the app's update
                     (ui), all its CPU work (app: ui, tessellation, OpenGL
                     calls), tessellation and the OpenGL draws alone
                     (tessellate, draw), the wait for the GPU (gpu_wait), and
                     frames a second
  --sliders          in a window, move every page's sliders and switches (each
                     link parameter to its ends and middle, every choice), one
                     move a frame, and print each page's slowest move; with
                     --csv, a row per move: link,frame_ms,draw_ms
  --headless         with --profile or --sliders: draw into an offscreen framebuffer
                     on a surfaceless EGL context instead of a window (chosen by
                     itself when there is no display), naming the GL renderer first
  --frames N         with --profile: frames to time, 10 to 100000 (default 300)
  --minutes M        with --profile: a soak instead: play LINK for M minutes (1 to
                     1440), printing a CSV row as each ends: minute,frames,fps,
                     app_median_ms,app_p95_ms,app_max_ms,resident_mib
  --vertices N,...   with --bench cpu: the mesh sizes, each 1 to 10000000
                     (default 30000,1000000)
  --simd NAME        with --bench cpu: the fast kernel's instructions, `avx2` or
                     `portable` (default: the best this machine has)
  -h, --help         print this help";

/// What the command line asks for: one mode, chosen once.
#[derive(Debug, PartialEq)]
pub enum Command {
    Help,
    ListPages,
    /// `--check-deck FILE`.
    CheckDeck(PathBuf),
    /// `--repair IN OUT`.
    Repair {
        input: PathBuf,
        output: PathBuf,
        /// `--fix LIST`: every fix of "repair all" when not given.
        fixes: Vec<gltf::Fix>,
    },
    /// `--bench` or `--bench gpu`, and whether to print CSV.
    Bench {
        csv: bool,
    },
    /// `--bench cpu`.
    BenchCpu {
        csv: bool,
        vertices: Vec<usize>,
        simd: Simd,
    },
    /// A window: the app, a screenshot, a profile, a soak or a slider sweep
    /// ([`Options::mode`]), and whether to print CSV.
    Window {
        options: Options,
        csv: bool,
    },
}

/// The option that chose what skinlab does, before the others are checked against it.
#[derive(Debug)]
enum Chosen {
    List,
    CheckDeck(PathBuf),
    /// `--repair IN`, and the file to write once it is read.
    Repair(PathBuf, Option<PathBuf>),
    /// `--bench`, and `Some(true)` for `--bench cpu`.
    Bench(Option<bool>),
    Screenshot(PathBuf),
    Export(PathBuf),
    Profile(String),
    Sliders,
}

impl Chosen {
    fn option(&self) -> &'static str {
        match self {
            Self::List => "--list-pages",
            Self::CheckDeck(_) => "--check-deck",
            Self::Repair(..) => "--repair",
            Self::Bench(Some(true)) => "--bench cpu",
            Self::Bench(_) => "--bench",
            Self::Screenshot(_) => "--screenshot",
            Self::Export(_) => "--export",
            Self::Profile(_) => "--profile",
            Self::Sliders => "--sliders",
        }
    }

    /// The options that go with it, as `parse` names them.
    fn takes(&self) -> &'static [&'static str] {
        const WINDOW: [&str; 6] = [
            "a link",
            "--open",
            "--deck",
            "--presenter",
            "--reduce-motion",
            "--size",
        ];
        match self {
            Self::List | Self::CheckDeck(_) => &[],
            Self::Repair(..) => &["--fix"],
            Self::Bench(None | Some(false)) => &["--csv"],
            Self::Bench(Some(true)) => &["--csv", "--vertices", "--simd"],
            Self::Screenshot(_) => &WINDOW,
            Self::Export(_) => &["--deck", "--app", "--open", "--presenter", "--size"],
            Self::Profile(_) => &[
                "--frames",
                "--minutes",
                "--csv",
                "--headless",
                "--open",
                "--deck",
                "--presenter",
                "--size",
            ],
            Self::Sliders => &["--csv", "--headless", "--presenter", "--size"],
        }
    }
}

/// The options that belong to some modes only, and the modes they go with.
const GOES_WITH: [(&str, &str); 8] = [
    ("--fix", "--repair"),
    ("--app", "--export"),
    ("--frames", "--profile"),
    ("--minutes", "--profile"),
    ("--csv", "--bench, --profile or --sliders"),
    ("--headless", "--profile or --sliders"),
    ("--vertices", "--bench cpu"),
    ("--simd", "--bench cpu"),
];

/// `a`, `a and b`, `a, b and c`.
fn and_list(items: &[&str]) -> String {
    match items {
        [] => "nothing else".to_owned(),
        [one] => (*one).to_owned(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// A comma-separated list of mesh sizes, each 1 to 10 000 000.
fn parse_vertices(text: &str) -> Option<Vec<usize>> {
    text.split(',')
        .map(|v| {
            v.trim()
                .parse()
                .ok()
                .filter(|n| (1..=10_000_000).contains(n))
        })
        .collect()
}

/// A comma-separated list of fixes by name ([`gltf::Fix::name`]), or `all`.
fn parse_fixes(text: &str) -> Result<Vec<gltf::Fix>, String> {
    let mut fixes = Vec::new();
    for name in text.split(',').map(str::trim) {
        match (name, gltf::Fix::named(name)) {
            ("all", _) => fixes.extend(gltf::Fix::ALL),
            (_, Some(fix)) => fixes.push(fix),
            (_, None) => {
                let names: Vec<String> = (["all"].into_iter())
                    .chain(gltf::Fix::EVERY.map(gltf::Fix::name))
                    .map(|n| format!("`{n}`"))
                    .collect();
                let names: Vec<&str> = names.iter().map(String::as_str).collect();
                return Err(format!("--fix takes {}, not `{name}`", and_list(&names)));
            }
        }
    }
    // Each once, where it was first named.
    let mut once = Vec::with_capacity(fixes.len());
    for fix in fixes {
        if !once.contains(&fix) {
            once.push(fix);
        }
    }
    Ok(once)
}

/// What `--repair` takes.
const REPAIR_NEEDS: &str =
    "--repair needs the file to read and the GLB to write, e.g. --repair robot.gltf robot.glb";

/// The value of the option just read, as text.
fn text_value(parser: &mut lexopt::Parser) -> Result<String, String> {
    use lexopt::ValueExt as _;
    parser.value().map_err(describe)?.string().map_err(describe)
}

/// The value of `option`, a whole number within `range`.
fn count(
    parser: &mut lexopt::Parser,
    option: &str,
    range: std::ops::RangeInclusive<usize>,
) -> Result<usize, String> {
    let text = text_value(parser)?;
    text.parse::<usize>()
        .ok()
        .filter(|n| range.contains(n))
        .ok_or_else(|| {
            format!(
                "{option} needs a count from {} to {}, not `{text}`",
                range.start(),
                range.end()
            )
        })
}

/// `WIDTHxHEIGHT` in points, each side within what a window can sensibly be.
fn parse_size(text: &str) -> Option<[f32; 2]> {
    let (w, h) = text.split_once('x')?;
    let size = [w.parse().ok()?, h.parse().ok()?];
    size.iter()
        .all(|v: &f32| (200.0..=8000.0).contains(v))
        .then_some(size)
}

/// The message for a command line lexopt refused, in this program's words.
fn describe(error: lexopt::Error) -> String {
    use lexopt::Error::*;
    match error {
        UnexpectedOption(option) => format!("unknown option `{option}`"),
        UnexpectedArgument(value) => format!(
            "unexpected argument `{}`: give one link",
            value.to_string_lossy()
        ),
        UnexpectedValue { option, .. } => format!("{option} takes no value"),
        MissingValue {
            option: Some(option),
        } => match option.as_str() {
            "--size" => "--size needs WIDTHxHEIGHT, e.g. --size 1280x800".to_owned(),
            "--screenshot" => {
                "--screenshot needs a file name, e.g. --screenshot grid.png".to_owned()
            }
            "--vertices" => "--vertices needs sizes, e.g. --vertices 30000,1000000".to_owned(),
            "--simd" => "--simd needs `avx2` or `portable`".to_owned(),
            "--open" => "--open needs a file, e.g. --open robot.glb".to_owned(),
            "--deck" => "--deck needs a file, e.g. --deck lecture.txt".to_owned(),
            "--check-deck" => "--check-deck needs a file, e.g. --check-deck lecture.txt".to_owned(),
            "--repair" => REPAIR_NEEDS.to_owned(),
            "--fix" => "--fix needs a list of fixes, e.g. --fix renormalise,four".to_owned(),
            "--slide" => "--slide needs a number, e.g. --slide 5".to_owned(),
            "--export" => "--export needs a folder, e.g. --export handout".to_owned(),
            "--app" => "--app needs the web app's address, e.g. --app https://example.org/skinlab/app/index.html".to_owned(),
            "--profile" => "--profile needs a link, e.g. --profile grid".to_owned(),
            "--frames" => "--frames needs a count, e.g. --frames 300".to_owned(),
            "--minutes" => "--minutes needs a count, e.g. --minutes 60".to_owned(),
            _ => format!("{option} needs a value"),
        },
        other => other.to_string(),
    }
}

/// Reads a command line (without the program name) into one command, or says what
/// is wrong with it: the options are read ([`Given::read`]), checked against each
/// other ([`Given::check`]), then made into the command ([`Given::command`]).
pub fn parse(args: impl IntoIterator<Item = OsString>) -> Result<Command, String> {
    let given = Given::read(args)?;
    if given.help {
        return Ok(Command::Help);
    }
    given.check()?;
    given.command()
}

/// Every option of a command line as read, before they are checked against each other.
#[derive(Default)]
struct Given {
    help: bool,
    /// The option that chose what skinlab does; none runs the app.
    chosen: Option<Chosen>,
    /// What a window takes.
    options: Options,
    csv: bool,
    vertices: Option<Vec<usize>>,
    simd: Option<Simd>,
    frames: Option<usize>,
    minutes: Option<usize>,
    fixes: Option<Vec<gltf::Fix>>,
    /// Whether `--size` was given (`options.size` holds a default otherwise).
    sized: bool,
    app: Option<String>,
}

impl Given {
    /// Reads the options one by one; a second option that chooses a mode is refused
    /// here, each mode being one thing to do.
    fn read(args: impl IntoIterator<Item = OsString>) -> Result<Self, String> {
        use lexopt::prelude::*;
        let mut parser = lexopt::Parser::from_args(args);
        let mut given = Self::default();
        while let Some(arg) = parser.next().map_err(describe)? {
            match arg {
                Short('h') | Long("help") => given.help = true,
                Long("list-pages") => given.choose(Chosen::List)?,
                Long("check-deck") => {
                    let path = parser.value().map_err(describe)?.into();
                    given.choose(Chosen::CheckDeck(path))?;
                }
                Long("repair") => {
                    let path = parser.value().map_err(describe)?.into();
                    given.choose(Chosen::Repair(path, None))?;
                }
                // The word after --repair IN is where to write.
                Value(output) if matches!(given.chosen, Some(Chosen::Repair(_, None))) => {
                    if let Some(Chosen::Repair(_, written)) = &mut given.chosen {
                        *written = Some(output.into());
                    }
                }
                Long("fix") => given.fixes = Some(parse_fixes(&text_value(&mut parser)?)?),
                Long("slide") => {
                    given.options.slide =
                        Some(count(&mut parser, "--slide", 1..=crate::deck::MAX_SLIDES)?);
                }
                Long("bench") => given.choose(Chosen::Bench(None))?,
                // The word after --bench says what it measures.
                Value(what)
                    if matches!(given.chosen, Some(Chosen::Bench(None)))
                        && (what == "cpu" || what == "gpu") =>
                {
                    given.chosen = Some(Chosen::Bench(Some(what == "cpu")));
                }
                Long("screenshot") => {
                    let path = parser.value().map_err(describe)?.into();
                    given.choose(Chosen::Screenshot(path))?;
                }
                Long("export") => {
                    let path = parser.value().map_err(describe)?.into();
                    given.choose(Chosen::Export(path))?;
                }
                Long("app") => given.app = Some(text_value(&mut parser)?),
                Long("profile") => {
                    let link = text_value(&mut parser)?;
                    given.choose(Chosen::Profile(link))?;
                }
                Long("sliders") => given.choose(Chosen::Sliders)?,
                Long("presenter") => given.options.presenter = true,
                Long("reduce-motion") => given.options.reduce_motion = true,
                Long("csv") => given.csv = true,
                Long("headless") => given.options.headless = true,
                Long("vertices") => {
                    let text = text_value(&mut parser)?;
                    given.vertices = Some(parse_vertices(&text).ok_or_else(|| {
                        format!(
                            "--vertices needs sizes from 1 to 10000000, separated by commas, \
                             e.g. 30000,1000000, not `{text}`"
                        )
                    })?);
                }
                Long("simd") => {
                    let text = text_value(&mut parser)?;
                    given.simd = Some(match text.as_str() {
                        "avx2" => Simd::Avx2Fma,
                        "portable" => Simd::Portable,
                        _ => {
                            return Err(format!("--simd needs `avx2` or `portable`, not `{text}`"));
                        }
                    });
                }
                Long("size") => {
                    let text = text_value(&mut parser)?;
                    given.sized = true;
                    given.options.size = parse_size(&text).ok_or_else(|| {
                        format!("--size needs WIDTHxHEIGHT, each side 200 to 8000, e.g. 1280x800, not `{text}`")
                    })?;
                }
                Long("deck") => given.options.deck = Some(parser.value().map_err(describe)?.into()),
                Long("open") => given.options.open = Some(parser.value().map_err(describe)?.into()),
                Long("frames") => {
                    given.frames = Some(count(&mut parser, "--frames", 10..=100_000)?)
                }
                Long("minutes") => given.minutes = Some(count(&mut parser, "--minutes", 1..=1440)?),
                Value(link) if given.options.link.is_none() => {
                    given.options.link = Some(link.string().map_err(describe)?);
                }
                other => return Err(describe(other.unexpected())),
            }
        }
        Ok(given)
    }

    /// Takes `new` as what skinlab does, unless another option chose already.
    fn choose(&mut self, new: Chosen) -> Result<(), String> {
        match &self.chosen {
            Some(first) => Err(format!(
                "{} and {} each choose what skinlab does: give one",
                first.option(),
                new.option()
            )),
            None => {
                self.chosen = Some(new);
                Ok(())
            }
        }
    }

    /// Every option given goes with the mode chosen ([`Chosen::takes`], [`GOES_WITH`]),
    /// and the few pairs that need each other have each other.
    fn check(&self) -> Result<(), String> {
        if self.options.slide.is_some() && self.options.deck.is_none() {
            return Err("--slide goes with --deck".to_owned());
        }
        if let Some(Chosen::Export(_)) = &self.chosen {
            if self.options.deck.is_none() {
                return Err("--export writes a deck's slides: give it --deck FILE".to_owned());
            }
            if self.options.slide.is_some() {
                return Err(
                    "--export writes every slide of the deck: --slide does not go with it"
                        .to_owned(),
                );
            }
        }
        // Every option given must go with the mode chosen.
        let given = [
            ("a link", self.options.link.is_some()),
            ("--open", self.options.open.is_some()),
            ("--deck", self.options.deck.is_some()),
            ("--presenter", self.options.presenter),
            ("--reduce-motion", self.options.reduce_motion),
            ("--size", self.sized),
            ("--frames", self.frames.is_some()),
            ("--minutes", self.minutes.is_some()),
            ("--csv", self.csv),
            ("--headless", self.options.headless),
            ("--vertices", self.vertices.is_some()),
            ("--simd", self.simd.is_some()),
            ("--app", self.app.is_some()),
            ("--fix", self.fixes.is_some()),
        ];
        for (name, _) in given.iter().filter(|(_, on)| *on) {
            let Some(mode) = &self.chosen else {
                match GOES_WITH.iter().find(|(option, _)| option == name) {
                    Some((_, with)) => return Err(format!("{name} goes with {with}")),
                    None => continue,
                }
            };
            if mode.takes().contains(name) {
                continue;
            }
            return Err(match (mode, *name) {
                (Chosen::Profile(_), "a link") => {
                    "--profile takes its link itself: --profile LINK".to_owned()
                }
                (Chosen::Repair(..), "a link") => {
                    "--repair takes two files, the model to read and the GLB to write: no more"
                        .to_owned()
                }
                (Chosen::Sliders, "a link") => {
                    "--sliders moves every page's sliders itself: it takes no link".to_owned()
                }
                _ => format!(
                    "{name} does not go with {}, which takes {}",
                    mode.option(),
                    and_list(mode.takes())
                ),
            });
        }
        Ok(())
    }

    /// The command the options make.
    fn command(self) -> Result<Command, String> {
        let Self {
            chosen,
            options,
            csv,
            vertices,
            simd,
            frames,
            minutes,
            app,
            fixes,
            ..
        } = self;
        let csv_window = |mode| Command::Window {
            options: Options {
                mode,
                ..options.clone()
            },
            csv,
        };
        Ok(match chosen {
            None => csv_window(Mode::Run),
            Some(Chosen::List) => Command::ListPages,
            Some(Chosen::CheckDeck(path)) => Command::CheckDeck(path),
            Some(Chosen::Repair(input, Some(output))) => Command::Repair {
                input,
                output,
                fixes: fixes.unwrap_or_else(|| gltf::Fix::ALL.to_vec()),
            },
            Some(Chosen::Repair(_, None)) => return Err(REPAIR_NEEDS.to_owned()),
            Some(Chosen::Bench(Some(true))) => Command::BenchCpu {
                csv,
                vertices: vertices.unwrap_or_else(|| crate::bench::cpu::DEFAULT_VERTICES.to_vec()),
                simd: simd.unwrap_or_else(Simd::detect),
            },
            Some(Chosen::Bench(_)) => Command::Bench { csv },
            Some(Chosen::Screenshot(path)) => csv_window(Mode::Screenshot(path)),
            Some(Chosen::Export(dir)) => csv_window(Mode::Export { dir, app }),
            Some(Chosen::Sliders) => csv_window(Mode::Sliders),
            Some(Chosen::Profile(link)) => {
                let mode = match (frames, minutes) {
                    (Some(_), Some(_)) => {
                        return Err("--profile takes --frames or --minutes, not both".to_owned());
                    }
                    (_, Some(minutes)) => Mode::Soak { minutes },
                    (frames, None) => Mode::Profile {
                        frames: frames.unwrap_or(300),
                    },
                };
                Command::Window {
                    options: Options {
                        link: Some(link),
                        mode,
                        ..options
                    },
                    csv,
                }
            }
        })
    }
}

#[cfg(test)]
mod tests;
