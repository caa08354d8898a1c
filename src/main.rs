//! The native app: `skinlab [LINK] [--screenshot PATH] [--presenter] [--list-pages] [--bench]`.

use skinlab::SkinlabApp;
use skinlab::app::STORAGE_KEY;
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
    let mut options = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_title("skinlab")
            .with_app_id("skinlab")
            .with_inner_size(args.size)
            .with_min_inner_size([640.0, 400.0]),
        depth_buffer: 24,
        ..Default::default()
    };
    // A screenshot shows exactly the link given: no saved state in, none kept.
    let scratch = args
        .screenshot
        .as_ref()
        .map(|_| std::env::temp_dir().join(format!("skinlab-screenshot-{}", std::process::id())));
    if let Some(dir) = &scratch {
        options.persist_window = false;
        options.persistence_path = Some(dir.clone());
    }
    let result = eframe::run_native(
        "skinlab",
        options,
        Box::new(move |cc| {
            let mut app = SkinlabApp::new();
            if args.screenshot.is_none()
                && let Some(text) = cc.storage.and_then(|s| s.get_string(STORAGE_KEY))
            {
                app.restore_state(&text);
            }
            if let Some(link) = &args.link
                && let Err(e) = app.open_link(link)
            {
                eprintln!("error: {e}");
                if args.screenshot.is_some() {
                    // A screenshot of the wrong state is worse than none.
                    std::process::exit(2);
                }
            }
            if args.presenter {
                app.set_presenter(true);
            }
            if let Some(path) = args.screenshot.clone() {
                app.screenshot_to(path);
            }
            Ok(Box::new(app))
        }),
    );
    if let Some(dir) = scratch {
        let _ = std::fs::remove_dir_all(dir);
    }
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: skinlab could not start: {e}");
            ExitCode::FAILURE
        }
    }
}
