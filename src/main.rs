//! The native app: `skinlab [LINK] [--screenshot PATH] [--presenter] [--list-pages] [--bench]`.

use skinlab::native::{self, Options};
use std::path::PathBuf;
use std::process::ExitCode;

const USAGE: &str = "\\
usage: skinlab [LINK] [--screenshot PATH] [--presenter] [--list-pages] [--bench]

  LINK               a page link: `grid` or `grid?angle=0.8&bone=2`
  --screenshot PATH  open LINK, draw a few frames with time paused, save a PNG, exit
  --presenter        start with big text for a projector (F5 toggles)
  --size WxH         window size in points (default 1280x800)
  --list-pages       print every page link name in lesson order, one a line
  --bench            time CPU against GPU skinning, 3k to 1M vertices, on a headless
                     GL context, and print a Markdown table";

struct Args {
    link: Option<String>,
    screenshot: Option<PathBuf>,
    presenter: bool,
    size: [f32; 2],
}

fn parse_size(text: &str) -> Option<[f32; 2]> {
    let (w, h) = text.split_once('x')?;
    let size = [w.parse().ok()?, h.parse().ok()?];
    size.iter()
        .all(|v: &f32| (200.0..=8000.0).contains(v))
        .then_some(size)
}

fn parse_args() -> Result<Option<Args>, String> {
    let mut args = Args {
        link: None,
        screenshot: None,
        presenter: false,
        size: [1280.0, 800.0],
    };
    let mut it = std::env::args().skip(1);
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--help" | "-h" => {
                println!("{USAGE}");
                return Ok(None);
            }
            "--list-pages" => {
                for slug in skinlab::page::slugs() {
                    println!("{slug}");
                }
                return Ok(None);
            }
            "--bench" => {
                return match skinlab::bench::run() {
                    Ok(table) => {
                        print!("{table}");
                        Ok(None)
                    }
                    Err(e) => Err(format!("--bench: {e}")),
                };
            }
            "--presenter" => args.presenter = true,
            "--size" => {
                let text = it.next().unwrap_or_default();
                args.size = parse_size(&text).ok_or(format!(
                    "--size needs WIDTHxHEIGHT between 200 and 8000, e.g. 1280x800, not `{text}`"
                ))?;
            }
            "--screenshot" => {
                let path = it
                    .next()
                    .ok_or("--screenshot needs a file name, e.g. --screenshot grid.png")?;
                args.screenshot = Some(PathBuf::from(path));
            }
            flag if flag.starts_with("--") => return Err(format!("unknown option `{flag}`")),
            link if args.link.is_none() => args.link = Some(link.to_owned()),
            extra => return Err(format!("unexpected argument `{extra}`: give one link")),
        }
    }
    Ok(Some(args))
}

fn main() -> ExitCode {
    let args = match parse_args() {
        Ok(Some(args)) => args,
        Ok(None) => return ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}\n\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    let screenshot = args.screenshot.clone();
    let options = Options {
        link: args.link,
        screenshot: args.screenshot,
        presenter: args.presenter,
        size: args.size,
    };
    if let Err(e) = native::run(options) {
        eprintln!("error: {e}");
        return ExitCode::from(e.exit_code());
    }
    if let Some(path) = screenshot {
        eprintln!("saved {}", path.display());
    }
    ExitCode::SUCCESS
}
