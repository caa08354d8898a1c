//! The desktop app: reads the command line ([`skinlab::cli`]) and carries it out.

use skinlab::cli::{Command, OPTIONS, SYNOPSIS, parse};
use skinlab::native::{self, Mode};
use skinlab::profile::{self, Report};
use std::process::ExitCode;

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
        Command::CheckDeck(path) => {
            let name = path.display();
            let deck = std::fs::read_to_string(&path)
                .map_err(|e| format!("`{name}` could not be read: {e}"))
                .and_then(|text| skinlab::deck::Deck::parse(&name.to_string(), &text));
            let deck = match deck {
                Ok(deck) => deck,
                Err(e) => {
                    eprintln!("error: --check-deck: {e}");
                    return ExitCode::FAILURE;
                }
            };
            let bad = skinlab::SkinlabApp::check_deck(&deck);
            for problem in &bad {
                println!("{name}: {problem}");
            }
            if !bad.is_empty() {
                eprintln!(
                    "error: {} of {} slides in `{name}` do not open",
                    bad.len(),
                    deck.slides.len()
                );
                return ExitCode::FAILURE;
            }
            println!("{name}: all {} slides open", deck.slides.len());
        }
        Command::Repair {
            input,
            output,
            fixes,
        } => match skinlab::files::repair(&input, &output, &fixes) {
            Ok(changes) => {
                for change in &changes {
                    println!("{change}");
                }
                if changes.is_empty() {
                    println!("nothing to repair: the model written as it was, as one GLB");
                }
                eprintln!("saved {}", output.display());
            }
            Err(e) => {
                eprintln!("error: --repair: {e}");
                return ExitCode::from(2);
            }
        },
        Command::ListPages => {
            for slug in skinlab::pages::slugs() {
                println!("{slug}");
            }
        }
        Command::Bench { csv } => match skinlab::bench::run() {
            Ok(bench) if csv => print!("{}", bench.csv()),
            Ok(bench) => print!("{}", bench.table()),
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
        Command::Window { options, csv } => {
            let saved = match &options.mode {
                Mode::Screenshot(path) => Some(path.clone()),
                Mode::Export { dir, .. } => Some(dir.join("index.html")),
                _ => None,
            };
            match native::run(options) {
                Ok(Some(Report::Frames(rows))) if csv => print!("{}", profile::csv(&rows)),
                Ok(Some(Report::Frames(rows))) => print!("{}", profile::table(&rows)),
                Ok(Some(Report::Sliders(sweep))) if csv => print!("{}", sweep.csv()),
                Ok(Some(Report::Sliders(sweep))) => print!("{}", sweep.table()),
                Ok(None) => {
                    if let Some(path) = saved {
                        eprintln!("saved {}", path.display());
                    }
                }
                Err(e) => {
                    eprintln!("error: {e}");
                    return ExitCode::from(e.exit_code());
                }
            }
        }
    }
    ExitCode::SUCCESS
}
