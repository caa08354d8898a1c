//! The desktop app's command line: `skinlab --help` lists it.

use skin::job::Simd;
use skinlab::native::{self, Options};
use skinlab::profile::{self, Report};
use std::ffi::OsString;
use std::process::ExitCode;

const SYNOPSIS: &str = "\
usage: skinlab [LINK] [--open FILE] [--deck FILE] [--presenter] [--size WxH] [--screenshot PATH]
       skinlab --bench [gpu | cpu [--csv] [--vertices N,...] [--simd NAME]]
       skinlab --profile LINK [--frames N | --minutes M] [--csv] [--presenter] [--size WxH]
       skinlab --sliders [--csv] [--presenter] [--size WxH]
       skinlab --list-pages | --help";

const OPTIONS: &str = "\
Opens skinlab, the interactive mesh-skinning tutorial, in a window.

  LINK               a page link: `grid` or `grid?angle=0.8&bone=2`
                     (without one, the pages as they were left)
  --open FILE        open a glTF model (.glb, or a .gltf with its buffers
                     embedded) on the model page; LINK then applies to it
                     (`model?clip=Walking&t=0.4`). A file the page cannot use is
                     an error: the reason is printed and no window opens
  --deck FILE        step through a lecture deck: a text file of links, one per
                     line with its title (PageDown / PageUp); starts on its first
  --presenter        start with big text for a projector (F5 toggles)
  --size WxH         window size in points, each side 200 to 8000 (default 1280x800)
  --screenshot PATH  open LINK, draw a few frames with time paused, save a PNG, exit
  --list-pages       print every page link name in lesson order, one a line
  --bench [gpu]      time CPU against GPU skinning, 3k to 1M vertices, on a headless
                     GL context, and print a Markdown table
  --bench cpu        time the CPU skinning kernels (reference, plain, fast, memory
                     floor) on one thread and on all, and print a Markdown table
  --csv              with --bench cpu: print CSV rows instead
                     (kernel,attributes,threads,vertices,ns_per_vertex);
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
  --frames N         with --profile: frames to time, 10 to 100000 (default 300)
  --minutes M        with --profile: a soak instead: play LINK for M minutes (1 to
                     1440), printing a CSV row as each ends: minute,frames,fps,
                     app_median_ms,app_p95_ms,app_max_ms,resident_mib
  --vertices N,...   with --bench cpu: the mesh sizes, each 1 to 10000000
                     (default 30000,1000000)
  --simd NAME        with --bench cpu: the fast kernel's instructions, `avx2` or
                     `portable` (default: the best this machine has)
  -h, --help         print this help";

/// What the command line asks for.
#[derive(Debug, PartialEq)]
enum Command {
    Help,
    ListPages,
    /// `--bench` or `--bench gpu`.
    Bench,
    /// `--bench cpu`.
    BenchCpu {
        csv: bool,
        vertices: Vec<usize>,
        simd: Simd,
    },
    Window(Options),
    /// `--profile LINK`: the window's options (with `profile` set) and whether to
    /// print CSV.
    Profile {
        options: Options,
        csv: bool,
    },
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

/// The value of `option`, a whole number within `range`.
fn count(
    parser: &mut lexopt::Parser,
    option: &str,
    range: std::ops::RangeInclusive<usize>,
) -> Result<usize, String> {
    use lexopt::ValueExt as _;
    let text = parser
        .value()
        .map_err(describe)?
        .string()
        .map_err(describe)?;
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
            "--profile" => "--profile needs a link, e.g. --profile grid".to_owned(),
            "--frames" => "--frames needs a count, e.g. --frames 300".to_owned(),
            "--minutes" => "--minutes needs a count, e.g. --minutes 60".to_owned(),
            _ => format!("{option} needs a value"),
        },
        other => other.to_string(),
    }
}

fn parse(args: impl IntoIterator<Item = OsString>) -> Result<Command, String> {
    use lexopt::prelude::*;
    let mut parser = lexopt::Parser::from_args(args);
    let mut options = Options::default();
    let (mut help, mut list_pages, mut bench) = (false, false, false);
    // What `--bench` measures (`None`: not named, the GPU sweep); CPU options.
    let (mut bench_cpu, mut csv, mut vertices, mut simd) = (None, false, None, None);
    // `--profile LINK` and its frame count; `--sliders`.
    let (mut profile, mut frames, mut minutes, mut sliders) = (None, None, None, false);
    while let Some(arg) = parser.next().map_err(describe)? {
        match arg {
            Short('h') | Long("help") => help = true,
            Long("list-pages") => list_pages = true,
            Long("bench") => bench = true,
            Long("presenter") => options.presenter = true,
            Long("csv") => csv = true,
            Long("vertices") => {
                let text = parser
                    .value()
                    .map_err(describe)?
                    .string()
                    .map_err(describe)?;
                vertices = Some(parse_vertices(&text).ok_or_else(|| {
                    format!(
                        "--vertices needs sizes from 1 to 10000000, separated by commas, \
                         e.g. 30000,1000000, not `{text}`"
                    )
                })?);
            }
            Long("simd") => {
                let text = parser
                    .value()
                    .map_err(describe)?
                    .string()
                    .map_err(describe)?;
                simd = Some(match text.as_str() {
                    "avx2" => Simd::Avx2Fma,
                    "portable" => Simd::Portable,
                    _ => return Err(format!("--simd needs `avx2` or `portable`, not `{text}`")),
                });
            }
            // The word after --bench says what it measures.
            Value(what) if bench && bench_cpu.is_none() && (what == "cpu" || what == "gpu") => {
                bench_cpu = Some(what == "cpu");
            }
            Long("size") => {
                let text = parser
                    .value()
                    .map_err(describe)?
                    .string()
                    .map_err(describe)?;
                options.size = parse_size(&text).ok_or_else(|| {
                    format!("--size needs WIDTHxHEIGHT, each side 200 to 8000, e.g. 1280x800, not `{text}`")
                })?;
            }
            Long("deck") => {
                options.deck = Some(parser.value().map_err(describe)?.into());
            }
            Long("open") => {
                options.open = Some(parser.value().map_err(describe)?.into());
            }
            Long("screenshot") => {
                options.screenshot = Some(parser.value().map_err(describe)?.into());
            }
            Long("profile") => {
                profile = Some(
                    parser
                        .value()
                        .map_err(describe)?
                        .string()
                        .map_err(describe)?,
                );
            }
            Long("sliders") => sliders = true,
            Long("frames") => frames = Some(count(&mut parser, "--frames", 10..=100_000)?),
            Long("minutes") => minutes = Some(count(&mut parser, "--minutes", 1..=1440)?),
            Value(link) if options.link.is_none() => {
                options.link = Some(link.string().map_err(describe)?);
            }
            other => return Err(describe(other.unexpected())),
        }
    }
    Ok(if help {
        Command::Help
    } else if list_pages {
        Command::ListPages
    } else if bench && bench_cpu == Some(true) {
        Command::BenchCpu {
            csv,
            vertices: vertices.unwrap_or_else(|| skinlab::bench::cpu::DEFAULT_VERTICES.to_vec()),
            simd: simd.unwrap_or_else(Simd::detect),
        }
    } else if sliders {
        if profile.is_some() || options.link.is_some() || options.screenshot.is_some() {
            return Err("--sliders moves every page's sliders itself: it takes no link".to_owned());
        }
        if frames.is_some() || minutes.is_some() || bench || vertices.is_some() || simd.is_some() {
            return Err("--sliders takes only --csv, --presenter and --size".to_owned());
        }
        options.sliders = true;
        Command::Profile { options, csv }
    } else if let Some(link) = profile {
        if options.link.is_some() || options.screenshot.is_some() {
            return Err("--profile takes its link itself and saves no screenshot".to_owned());
        }
        if vertices.is_some() || simd.is_some() || bench {
            return Err("--profile times a link in the window, not the --bench kernels".to_owned());
        }
        if frames.is_some() && minutes.is_some() {
            return Err("--profile takes --frames or --minutes, not both".to_owned());
        }
        options.link = Some(link);
        if minutes.is_some() {
            options.soak = minutes;
        } else {
            options.profile = Some(frames.unwrap_or(300));
        }
        Command::Profile { options, csv }
    } else if frames.is_some() || minutes.is_some() {
        return Err("--frames and --minutes go with --profile".to_owned());
    } else if csv || vertices.is_some() || simd.is_some() {
        return Err(
            "--csv goes with --bench cpu, --profile or --sliders; --vertices and --simd with \
             --bench cpu"
                .to_owned(),
        );
    } else if bench {
        Command::Bench
    } else {
        Command::Window(options)
    })
}

fn main() -> ExitCode {
    let command = match parse(std::env::args_os().skip(1)) {
        Ok(command) => command,
        Err(e) => {
            eprintln!("error: {e}\n\n{SYNOPSIS}\nMore: skinlab --help");
            return ExitCode::from(2);
        }
    };
    match command {
        Command::Help => println!("{SYNOPSIS}\n\n{OPTIONS}"),
        Command::ListPages => {
            for slug in skinlab::page::slugs() {
                println!("{slug}");
            }
        }
        Command::Bench => match skinlab::bench::run() {
            Ok(table) => print!("{table}"),
            Err(e) => {
                eprintln!("error: --bench: {e}");
                return ExitCode::FAILURE;
            }
        },
        Command::BenchCpu {
            csv,
            vertices,
            simd,
        } => {
            use skinlab::bench::cpu;
            match cpu::measure(&vertices, simd) {
                Ok(rows) if csv => print!("{}", cpu::csv(&rows)),
                Ok(rows) => print!("{}", cpu::table(&rows)),
                Err(e) => {
                    eprintln!("error: --bench cpu: {e}");
                    return ExitCode::FAILURE;
                }
            }
        }
        Command::Profile { options, csv } => match native::run(options) {
            Ok(Some(Report::Frames(rows))) if csv => print!("{}", profile::csv(&rows)),
            Ok(Some(Report::Frames(rows))) => print!("{}", profile::table(&rows)),
            Ok(Some(Report::Sliders(sweep))) if csv => print!("{}", sweep.csv()),
            Ok(Some(Report::Sliders(sweep))) => print!("{}", sweep.table()),
            Ok(None) => {}
            Err(e) => {
                eprintln!("error: --profile: {e}");
                return ExitCode::from(e.exit_code());
            }
        },
        Command::Window(options) => {
            let screenshot = options.screenshot.clone();
            if let Err(e) = native::run(options) {
                eprintln!("error: {e}");
                return ExitCode::from(e.exit_code());
            }
            if let Some(path) = screenshot {
                eprintln!("saved {}", path.display());
            }
        }
    }
    ExitCode::SUCCESS
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_strs(args: &[&str]) -> Result<Command, String> {
        parse(args.iter().map(OsString::from))
    }

    #[test]
    fn every_option_reaches_the_window() {
        let parsed = parse_strs(&[
            "grid?angle=0.8",
            "--presenter",
            "--size",
            "1024x700",
            "--screenshot=out.png",
            "--open",
            "robot.glb",
        ]);
        assert_eq!(
            parsed,
            Ok(Command::Window(Options {
                link: Some("grid?angle=0.8".into()),
                open: Some("robot.glb".into()),
                deck: None,
                screenshot: Some("out.png".into()),
                profile: None,
                soak: None,
                sliders: false,
                presenter: true,
                size: [1024.0, 700.0],
            }))
        );
        assert_eq!(parse_strs(&[]), Ok(Command::Window(Options::default())));
    }

    #[test]
    fn refusals_say_what_was_wrong() {
        let err = |args: &[&str]| parse_strs(args).err().unwrap_or_default();
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
    fn bench_names_what_it_measures() {
        assert_eq!(parse_strs(&["--bench"]), Ok(Command::Bench));
        assert_eq!(parse_strs(&["--bench", "gpu"]), Ok(Command::Bench));
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
        const WITH_BENCH: &str = "--csv goes with --bench cpu, --profile or --sliders; \
                                  --vertices and --simd with --bench cpu";
        let err = |args: &[&str]| parse_strs(args).err().unwrap_or_default();
        assert_eq!(err(&["--csv"]), WITH_BENCH);
        assert_eq!(err(&["--bench", "gpu", "--vertices", "10"]), WITH_BENCH);
        assert!(err(&["--bench", "cpu", "--vertices", "0"]).contains("not `0`"));
        assert!(err(&["--bench", "cpu", "--vertices", "1,x"]).contains("not `1,x`"));
        assert!(err(&["--bench", "cpu", "--vertices"]).contains("e.g. --vertices"));
        assert_eq!(
            err(&["--bench", "cpu", "--simd", "sse9"]),
            "--simd needs `avx2` or `portable`, not `sse9`"
        );
        assert_eq!(err(&["--simd", "avx2"]), WITH_BENCH);
    }

    #[test]
    fn sliders_take_only_csv_and_the_window_options() {
        let Ok(Command::Profile { options, csv }) = parse_strs(&["--sliders", "--csv"]) else {
            panic!("a sweep");
        };
        assert!(options.sliders && csv && options.link.is_none());
        for bad in [
            &["--sliders", "grid"][..],
            &["--sliders", "--profile", "grid"],
            &["--sliders", "--frames", "40"],
            &["--sliders", "--bench"],
        ] {
            assert!(parse_strs(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn profile_takes_a_link_a_frame_count_and_csv() {
        let Ok(Command::Profile { options, csv }) =
            parse_strs(&["--profile", "grid?angle=0.8", "--frames", "40", "--csv"])
        else {
            panic!("a profile");
        };
        assert!(csv);
        assert_eq!(options.link.as_deref(), Some("grid?angle=0.8"));
        assert_eq!(options.profile, Some(40));
        let Ok(Command::Profile { options, .. }) = parse_strs(&["--profile", "gpu"]) else {
            panic!("a profile");
        };
        assert_eq!(options.profile, Some(300), "the default count");
        let err = |args: &[&str]| parse_strs(args).err().unwrap_or_default();
        assert!(err(&["--profile"]).contains("needs a link"));
        assert!(err(&["--profile", "grid", "--frames", "5"]).contains("not `5`"));
        assert_eq!(
            err(&["--frames", "50"]),
            "--frames and --minutes go with --profile"
        );
        assert!(err(&["--profile", "grid", "gpu"]).contains("takes its link itself"));
        let Ok(Command::Profile { options, .. }) =
            parse_strs(&["--profile", "model?clip=Walking", "--minutes", "60"])
        else {
            panic!("a soak");
        };
        assert_eq!(options.soak, Some(60));
        assert!(err(&["--profile", "grid", "--minutes", "0"]).contains("from 1 to 1440"));
        assert!(
            err(&["--profile", "grid", "--minutes", "5", "--frames", "50"]).contains("not both")
        );
        assert_eq!(
            err(&["--minutes", "5"]),
            "--frames and --minutes go with --profile"
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
            "--frames",
            "--minutes",
            "--help",
        ] {
            assert!(OPTIONS.contains(option), "{option} is in the help");
            assert!(!parse_strs(&[option, "1x1"]).is_err_and(|e| e.contains("unknown")));
        }
    }
}
