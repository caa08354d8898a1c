//! The book and the app agree: one chapter per page in lesson order, every link inside
//! the book resolves, every app link opens through the app's own link parser, and every
//! code include names a file and anchor that exist.

use skinlab::SkinlabApp;
use skinlab::page::slugs;
use std::path::{Path, PathBuf};

fn book_src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("book/src")
}

fn chapters() -> Vec<String> {
    let summary =
        std::fs::read_to_string(book_src().join("SUMMARY.md")).expect("book/src/SUMMARY.md");
    summary
        .lines()
        .filter_map(|line| {
            line.split_once("](")
                .map(|(_, rest)| rest.split(')').next().unwrap_or_default().to_owned())
        })
        .collect()
}

/// Every `](target)` and `src="target"` in a Markdown file.
fn links(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    for (marker, end) in [("](", ')'), ("src=\"", '"'), ("href=\"", '"')] {
        let mut rest = text;
        while let Some(start) = rest.find(marker) {
            rest = &rest[start + marker.len()..];
            if let Some(stop) = rest.find(end) {
                found.push(rest[..stop].to_owned());
            }
        }
    }
    found
}

#[test]
fn the_book_has_one_chapter_per_page_in_lesson_order() {
    let pages: Vec<String> = chapters()
        .into_iter()
        .filter(|c| c != "introduction.md")
        .collect();
    let expected: Vec<String> = slugs().iter().map(|s| format!("{s}.md")).collect();
    assert_eq!(
        pages, expected,
        "book/src/SUMMARY.md and the page registry disagree"
    );
    for slug in slugs() {
        let text = std::fs::read_to_string(book_src().join(format!("{slug}.md"))).expect("chapter");
        assert!(
            text.contains(&format!(
                "<iframe class=\"skinlab-live\" src=\"app/index.html#{slug}"
            )),
            "chapter `{slug}` embeds its live page"
        );
        assert!(
            text.contains(&format!("`skinlab {slug}"))
                || text.contains(&format!("`skinlab \"{slug}")),
            "chapter `{slug}` gives the desktop command"
        );
    }
}

#[test]
fn every_link_in_the_book_resolves() {
    let mut checked = 0;
    for chapter in chapters() {
        let text = std::fs::read_to_string(book_src().join(&chapter)).expect("chapter");
        for target in links(&text) {
            checked += 1;
            if let Some(fragment) = target.strip_prefix("app/index.html#") {
                let fragment = fragment.replace("&amp;", "&");
                let mut app = SkinlabApp::new();
                app.open_link(&fragment)
                    .unwrap_or_else(|e| panic!("{chapter}: app link `{target}`: {e}"));
                assert_eq!(
                    app.current_page().slug(),
                    fragment.split('?').next().unwrap_or_default()
                );
            } else if target == "app/index.html" {
                continue;
            } else {
                assert!(
                    !target.contains("://"),
                    "{chapter}: `{target}`: the book reads offline, no web links"
                );
                let path = target.split('#').next().unwrap_or_default();
                assert!(
                    book_src().join(path).is_file(),
                    "{chapter}: `{target}` names no file in book/src"
                );
            }
        }
    }
    assert!(checked > 10, "the link reader found the links ({checked})");
}

#[test]
fn every_code_include_names_an_existing_anchor() {
    let mut checked = 0;
    for chapter in chapters() {
        let text = std::fs::read_to_string(book_src().join(&chapter)).expect("chapter");
        for include in text.split("{{#include ").skip(1) {
            let spec = include.split("}}").next().unwrap_or_default();
            let (path, anchor) = match spec.rsplit_once(':') {
                Some((path, anchor)) => (path, Some(anchor)),
                None => (spec, None),
            };
            let file = book_src().join(path);
            let source = std::fs::read_to_string(&file)
                .unwrap_or_else(|_| panic!("{chapter}: include `{path}` names no file"));
            if let Some(anchor) = anchor {
                assert!(
                    skinlab::notebook::anchor(&source, anchor).is_some_and(|code| !code.is_empty()),
                    "{chapter}: `{path}` has no anchor `{anchor}` (or does not end it)"
                );
            }
            checked += 1;
        }
    }
    assert!(checked >= 5, "includes found ({checked})");
}
