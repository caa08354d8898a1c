//! Builds the book's chapter sources from `chapters/`, so each sentence is written once.
//!
//! ```text
//! skinlab-book chapters DIR   write DIR/SUMMARY.md and DIR/<slug>.md for every page
//! skinlab-book figures        print `file<TAB>link` for every picture the chapters declare
//! skinlab-book params         print the table of link parameters in docs/links.md
//! ```

use skinlab::chapter;
use skinlab::pages::PAGES;
use std::path::Path;
use std::process::ExitCode;

fn write_chapters(dir: &Path) -> Result<(), String> {
    let mut contents = Vec::new();
    for entry in PAGES {
        let info = entry.info;
        let text = chapter::book_chapter(info.slug, info.chapter)
            .map_err(|e| format!("chapter of `{}`: {e}", info.slug))?;
        let path = dir.join(format!("{}.md", info.slug));
        std::fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))?;
        contents.push((info.slug, info.title()));
    }
    let path = dir.join("SUMMARY.md");
    std::fs::write(&path, chapter::book_summary(&contents))
        .map_err(|e| format!("{}: {e}", path.display()))
}

fn print_figures() -> Result<(), String> {
    for entry in PAGES {
        let info = entry.info;
        let figures = chapter::figures(info.slug, info.chapter)
            .map_err(|e| format!("chapter of `{}`: {e}", info.slug))?;
        for (file, link) in figures {
            println!("{file}\t{link}");
        }
    }
    Ok(())
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args
        .iter()
        .map(String::as_str)
        .collect::<Vec<_>>()
        .as_slice()
    {
        ["chapters", dir] => write_chapters(Path::new(dir)),
        ["figures"] => print_figures(),
        ["params"] => {
            print!("{}", skinlab::pages::params_table());
            Ok(())
        }
        _ => Err("usage: skinlab-book chapters DIR | figures | params".to_owned()),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}
