//! The book and the app agree because the book is built from the app's chapters: one
//! chapter per page in lesson order, every sentence written once, every link inside the
//! book resolves and opens through the app's own link parser, every code include names a
//! file and anchor that exist, and every declared picture exists.

use skinlab::SkinlabApp;
use skinlab::chapter::{self, book_chapter, book_summary};
use skinlab::pages::{PAGES, slugs};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn book_src() -> PathBuf {
    root().join("book/src")
}

/// The book's chapters as `scripts/book` writes them, plus the hand-written pages.
fn book_pages() -> Vec<(String, String)> {
    let mut pages: Vec<(String, String)> = PAGES
        .iter()
        .map(|entry| {
            let text = book_chapter(entry.info.slug, entry.info.chapter)
                .unwrap_or_else(|e| panic!("chapter of `{}`: {e}", entry.info.slug));
            (format!("{}.md", entry.info.slug), text)
        })
        .collect();
    for name in hand_written_book_pages() {
        let text = std::fs::read_to_string(book_src().join(&name)).expect("readable");
        pages.push((name, text));
    }
    pages
}

/// Markdown files kept in `book/src` by hand: book-only pages such as the introduction.
/// Everything else there is written by `scripts/book`, so `.gitignore` ignores
/// `book/src/*.md` and names the hand-written pages as exceptions (`!/book/src/x.md`).
fn hand_written_book_pages() -> Vec<String> {
    let ignore = std::fs::read_to_string(root().join(".gitignore")).expect(".gitignore");
    assert!(
        ignore.lines().any(|l| l == "/book/src/*.md"),
        "the generated chapters are ignored"
    );
    ignore
        .lines()
        .filter_map(|l| l.strip_prefix("!/book/src/"))
        .filter(|name| name.ends_with(".md"))
        .map(str::to_owned)
        .collect()
}

/// Every `](target)`, `src="target"` and `href="target"` in a Markdown file.
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
    let contents: Vec<(&str, &str)> = PAGES
        .iter()
        .map(|e| (e.info.slug, e.info.title()))
        .collect();
    let summary = book_summary(&contents);
    let listed: Vec<String> = links(&summary)
        .into_iter()
        .filter(|c| c != "introduction.md")
        .collect();
    let expected: Vec<String> = slugs().iter().map(|s| format!("{s}.md")).collect();
    assert_eq!(listed, expected, "the summary follows the page registry");
    assert!(
        hand_written_book_pages().contains(&"introduction.md".to_owned()),
        "the introduction is written by hand"
    );
    for (name, text) in book_pages().iter().take(PAGES.len()) {
        let slug = name.trim_end_matches(".md");
        assert!(
            text.contains(&format!(
                "<iframe class=\"skinlab-live\" src=\"app/index.html#{slug}"
            )),
            "chapter `{slug}` embeds its live page"
        );
        assert!(
            text.contains(&format!("`skinlab \"{slug}")),
            "chapter `{slug}` gives the desktop command"
        );
    }
}

#[test]
fn chapter_files_are_named_by_slug_and_titled() {
    for entry in PAGES {
        let path = root().join(format!("chapters/{}.md", entry.info.slug));
        let text = std::fs::read_to_string(&path)
            .unwrap_or_else(|_| panic!("page `{}` has {}", entry.info.slug, path.display()));
        assert_eq!(
            text,
            entry.info.chapter,
            "page `{}` shows {}",
            entry.info.slug,
            path.display()
        );
        assert!(
            chapter::title(&text).is_some(),
            "{} has a `# ` title, the page's title",
            path.display()
        );
    }
    let files = std::fs::read_dir(root().join("chapters"))
        .expect("chapters/")
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().ends_with(".md"))
        .filter(|e| e.file_name() != "README.md")
        .count();
    assert_eq!(files, PAGES.len(), "every chapter file belongs to a page");
}

#[test]
fn every_link_in_the_book_resolves() {
    let mut checked = 0;
    for (chapter, text) in book_pages() {
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
    for (chapter, text) in book_pages() {
        for include in text.split("{{#include ").skip(1) {
            let spec = include.split("}}").next().unwrap_or_default();
            let (path, anchor) = match spec.rsplit_once(':') {
                Some((path, anchor)) => (path, Some(anchor)),
                None => (spec, None),
            };
            let file = book_src().join(path);
            let source = std::fs::read_to_string(&file)
                .unwrap_or_else(|_| panic!("{chapter}: include `{path}` names no file"));
            // A whole file would print its anchor lines: a file shown whole wraps
            // itself in an anchor (`whole`), whose inner anchor lines mdBook drops.
            let anchor = anchor.unwrap_or_else(|| {
                panic!("{chapter}: `{path}` is included without an anchor, so its ANCHOR lines would print")
            });
            let code = skinlab::notebook::anchor(&source, anchor).unwrap_or_default();
            assert!(
                !code.is_empty(),
                "{chapter}: `{path}` has no anchor `{anchor}` (or does not end it)"
            );
            assert!(
                !code.contains("ANCHOR"),
                "{chapter}: `{path}:{anchor}` would print an ANCHOR line"
            );
            checked += 1;
        }
    }
    assert!(checked >= 5, "includes found ({checked})");
}

/// How many lines of code a chapter shows open; a longer listing folds away.
const OPEN_LISTING_LINES: usize = 15;

/// Each included listing longer than [`OPEN_LISTING_LINES`], as `chapter: include`,
/// that is not folded inside `<details>`.
fn unfolded_long_listings(chapter: &str, text: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut folded = false;
    for line in text.lines() {
        if line.starts_with("<details>") {
            folded = true;
        } else if line.starts_with("</details>") {
            folded = false;
        }
        let Some(spec) = line
            .strip_prefix("{{#include ")
            .and_then(|rest| rest.strip_suffix("}}"))
        else {
            continue;
        };
        let (path, anchor) = match spec.rsplit_once(':') {
            Some((path, anchor)) => (path, Some(anchor)),
            None => (spec, None),
        };
        let Ok(source) = std::fs::read_to_string(book_src().join(path)) else {
            continue;
        };
        let code = match anchor {
            Some(anchor) => skinlab::notebook::anchor(&source, anchor).unwrap_or_default(),
            None => source,
        };
        if code.lines().count() > OPEN_LISTING_LINES && !folded {
            found.push(format!("{chapter}: {spec}"));
        }
    }
    found
}

#[test]
fn long_listings_fold_away_so_the_ideas_come_first() {
    let mut found = Vec::new();
    for (chapter, text) in book_pages() {
        found.extend(unfolded_long_listings(&chapter, &text));
    }
    assert!(
        found.is_empty(),
        "listings over {OPEN_LISTING_LINES} lines, not inside <details>:\n{}",
        found.join("\n")
    );
    // The check sees a long listing left open.
    let open = "```rust\n{{#include ../../crates/skin/src/influences.rs:prepare}}\n```";
    assert_eq!(unfolded_long_listings("test", open).len(), 1);
}

#[test]
fn every_declared_picture_exists_and_opens() {
    let mut count = 0;
    for entry in PAGES {
        for (file, link) in chapter::figures(entry.info.slug, entry.info.chapter).expect("parses") {
            assert!(
                book_src().join("images").join(file).is_file(),
                "`{}` declares `{file}`: run scripts/screenshots",
                entry.info.slug
            );
            let mut app = SkinlabApp::new();
            app.open_link(&link)
                .unwrap_or_else(|e| panic!("`{file}` is made from `{link}`: {e}"));
            count += 1;
        }
    }
    assert!(count >= PAGES.len(), "pictures found ({count})");
}

/// The sentences of a Markdown text: prose only (code blocks, includes, markers and
/// HTML left out), split at `.`, `?`, `!` and `:`, lower-cased, spaces folded.
fn sentences(text: &str) -> Vec<String> {
    let mut prose = String::new();
    let mut in_fence = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            in_fence = !in_fence;
            continue;
        }
        if in_fence || line.trim_start().starts_with('<') || line.contains("{{#") {
            continue;
        }
        prose.push_str(line.trim_start_matches(['#', '-', '>', '*', ' ']));
        prose.push(' ');
    }
    prose
        .split(['.', '?', '!', ':'])
        .map(|s| {
            s.split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
                .to_lowercase()
        })
        .filter(|s| s.split(' ').count() >= 6)
        .collect()
}

#[test]
fn each_sentence_is_written_once() {
    let mut sources: Vec<(String, String)> = PAGES
        .iter()
        .map(|e| (e.info.slug.to_owned(), e.info.chapter.to_owned()))
        .collect();
    for name in hand_written_book_pages() {
        let text = std::fs::read_to_string(book_src().join(&name)).expect("readable");
        sources.push((format!("book/src/{name}"), text));
    }
    let mut seen: BTreeMap<String, String> = BTreeMap::new();
    let mut repeated = Vec::new();
    let mut total = 0;
    for (source, text) in &sources {
        for sentence in sentences(text) {
            total += 1;
            if let Some(first) = seen.insert(sentence.clone(), source.clone()) {
                repeated.push(format!("`{sentence}` ({first} and {source})"));
            }
        }
    }
    assert!(total > 200, "the sentence reader found the prose ({total})");
    assert!(
        repeated.is_empty(),
        "written twice:\n{}",
        repeated.join("\n")
    );
}

#[test]
fn the_sentence_check_can_fail() {
    let twice =
        "One sentence of more than six words here. One sentence of more than six words here.";
    let found = sentences(twice);
    assert_eq!(found.len(), 2);
    assert_eq!(found[0], found[1]);
    assert!(sentences("```text\nA formula line with many words in it\n```\n").is_empty());
}

/// Whether `word` stands in `line` as a whole word (not inside `gridline`).
fn names_word(line: &str, word: &str) -> bool {
    line.match_indices(word).any(|(i, _)| {
        let before = line[..i].chars().next_back();
        let after = line[i + word.len()..].chars().next();
        let edge = |c: Option<char>| !c.is_some_and(|c| c.is_alphanumeric() || c == '_');
        edge(before) && edge(after)
    })
}

/// Pages are listed in one place: no other source names every page, so adding one
/// touches its module, its registry line and its chapter, and nothing else.
#[test]
fn only_the_registry_lists_every_page() {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
            let path = entry.path();
            // Build outputs (the web app, an mdBook build) are not sources.
            if path.ends_with("book/src/app") || path.ends_with("book/book") {
                continue;
            }
            if path.is_dir() {
                walk(&path, out);
            } else {
                out.push(path);
            }
        }
    }
    let mut files = Vec::new();
    for dir in ["src", "crates", "scripts", "tests", "book"] {
        walk(&root().join(dir), &mut files);
    }
    let generated: Vec<PathBuf> = slugs()
        .iter()
        .map(|s| book_src().join(format!("{s}.md")))
        .chain([book_src().join("SUMMARY.md")])
        .collect();
    let own = [root().join("src/page/mod.rs"), root().join(file!())];
    let titles: Vec<&str> = PAGES.iter().map(|e| e.info.title()).collect();
    let mut checked = 0;
    for file in files {
        if generated.contains(&file)
            || own
                .iter()
                .any(|o| file.ends_with(o.strip_prefix(root()).unwrap_or(o)))
        {
            continue;
        }
        let Ok(text) = std::fs::read_to_string(&file) else {
            continue;
        };
        checked += 1;
        let named = titles.iter().filter(|t| text.contains(**t)).count();
        assert!(
            named < titles.len(),
            "{} names every page: derive the list from `skinlab::pages::PAGES`",
            file.display()
        );
        // The registry itself; lecture decks: a deck is a lecturer's plan, whose moments
        // may visit every page in the order the lecture needs; and the page tests' list
        // of modules, one a page that has tests of its own (a new page needs none there).
        if file.ends_with("src/pages/mod.rs")
            || file.ends_with("tests/pages/main.rs")
            || file.parent().is_some_and(|d| d.ends_with("book/src/decks"))
        {
            continue;
        }
        // A list of slugs: every page's slug, as a word, within a few lines.
        let lines: Vec<&str> = text.lines().collect();
        for window in lines.windows(15.min(lines.len()).max(1)) {
            let listed = slugs()
                .iter()
                .filter(|slug| window.iter().any(|line| names_word(line, slug)))
                .count();
            assert!(
                listed < slugs().len(),
                "{} lists every page's slug: derive the list from `skinlab::pages::PAGES`",
                file.display()
            );
        }
    }
    assert!(checked > 50, "files read ({checked})");
}

#[test]
fn the_links_doc_holds_the_declared_parameter_table() {
    let readme = std::fs::read_to_string(root().join("docs/links.md")).expect("docs/links.md");
    let table = skinlab::pages::params_table();
    assert!(
        table.lines().count() > 2 + PAGES.len(),
        "a row per parameter:\n{table}"
    );
    assert!(
        readme.contains(&table),
        "docs/links.md's parameter table differs from the declarations: paste `skinlab-book params`"
    );
}

/// The page that draws the whole pipeline first. It may use a term before the page that
/// teaches it, if it defines the term itself.
const OVERVIEW: &str = "pipeline";

/// Terms a chapter may use only if it comes at or after the page that teaches them, in
/// lesson order. The teaching page defines each one, in bold or in a heading.
/// Quaternion products, `q` against `−q` and unit length are taught on `quaternions`,
/// so every chapter that says "quaternion" (dual quaternions included) comes after it.
const TAUGHT_IN: &[(&str, &str)] = &[
    ("gradient", "gradient"),
    ("bind pose", "gradient"),
    ("inverse bind", "gradient"),
    ("palette", "binding"),
    ("gimbal lock", "quaternions"),
    ("quaternion", "quaternions"),
    ("nlerp", "interpolation"),
    ("slerp", "interpolation"),
    ("conjugate", "quaternions"),
    ("linear blend skinning", "blending"),
    ("lbs", "blending"),
    ("dual quaternion", "blending"),
    ("dqs", "blending"),
    ("screw", "blending"),
    ("twist bone", "blending"),
    ("corrective shape", "blending"),
    ("inverse transpose", "normals"),
    ("bone texture", "gpu"),
    ("keyframe", "keyframes"),
    ("perspective divide", "xray"),
    ("t-pose", "hierarchy"),
    ("pad", "grid"),
    ("glam", "quaternions"),
    ("singular value", "blending"),
    ("normal map", "normals"),
    ("simd", "gpu"),
    ("cofactor", "gpu"),
    ("centre of rotation", "centres"),
    ("centres of rotation", "centres"),
    ("morph target", "shapes"),
    ("blend shape", "shapes"),
    ("material", "model"),
];

/// What a reader of a chapter reads, lower-cased: its prose for the app and the book,
/// its formulas (`text` blocks) and its captions; not code includes, markers or the
/// targets of links.
fn read_text(chapter: &str) -> String {
    let mut out = String::new();
    for block in chapter::parse(chapter).expect("the chapter parses") {
        match block {
            chapter::Block::Prose(_, text) => {
                let mut rest = text.as_str();
                while let Some(start) = rest.find("](skinlab:") {
                    out.push_str(&rest[..start]);
                    rest = rest[start..].split_once(')').map_or("", |(_, after)| after);
                }
                out.push_str(rest);
            }
            chapter::Block::Code(_, "text", text) => out.push_str(&text),
            chapter::Block::Cell(m) | chapter::Block::Figure(m) => {
                out.push_str(m.caption.unwrap_or_default())
            }
            _ => {}
        }
        out.push('\n');
    }
    out.to_lowercase()
}

/// Whether `text` (lower case) has a word starting with `term`: `quaternions` uses
/// `quaternion`, `blend_dqs` does not use `dqs`.
fn uses(text: &str, term: &str) -> bool {
    first_use(text, term).is_some()
}

/// Where [`uses`] first finds `term` in `text`.
fn first_use(text: &str, term: &str) -> Option<usize> {
    text.match_indices(term).map(|(i, _)| i).find(|&i| {
        !text[..i]
            .chars()
            .next_back()
            .is_some_and(|c| c.is_alphanumeric() || c == '_')
    })
}

/// Where `text` (a [`read_text`]) first defines `term`: in bold, or in a heading.
fn first_definition(text: &str, term: &str) -> Option<usize> {
    let mut found = Vec::new();
    let mut at = 0;
    for (k, span) in text.split("**").enumerate() {
        if k % 2 == 1 {
            found.extend(first_use(span, term).map(|i| at + i));
        }
        at += span.len() + 2;
    }
    at = 0;
    for line in text.split_inclusive('\n') {
        if line.starts_with('#') {
            found.extend(first_use(line, term).map(|i| at + i));
        }
        at += line.len();
    }
    found.into_iter().min()
}

/// Every [`TAUGHT_IN`] term its teaching page uses before the place that defines it, as
/// `page: term`.
fn used_before_defined(order: &[(&str, &str)]) -> Vec<String> {
    let mut found = Vec::new();
    for (term, teacher) in TAUGHT_IN {
        let Some((_, chapter)) = order.iter().find(|(slug, _)| slug == teacher) else {
            continue;
        };
        let text = read_text(chapter);
        if let (Some(used), Some(defined)) = (first_use(&text, term), first_definition(&text, term))
            && used < defined
        {
            let line = text[..used].lines().count();
            found.push(format!(
                "{teacher}: `{term}` at line {line} of its text, before it is defined"
            ));
        }
    }
    found
}

/// Whether the chapter defines `term`: in bold, or in a heading.
fn defines(chapter: &str, term: &str) -> bool {
    let lower = chapter.to_lowercase();
    let bold = lower
        .split("**")
        .skip(1)
        .step_by(2)
        .any(|span| uses(span, term));
    let heading = lower.lines().any(|l| l.starts_with('#') && uses(l, term));
    bold || heading
}

/// Every use of a [`TAUGHT_IN`] term by a chapter that comes before its teaching page
/// in `order` (slug, chapter text), as `chapter: term (taught on page)`.
fn untaught_uses(order: &[(&str, &str)]) -> Vec<String> {
    let position = |slug: &str| order.iter().position(|(s, _)| *s == slug);
    let mut found = Vec::new();
    for (i, (slug, chapter)) in order.iter().enumerate() {
        let text = read_text(chapter);
        for (term, teacher) in TAUGHT_IN {
            let taught = position(teacher).expect("the teaching page is in the order");
            // The overview names each stage once, defining it there; later pages teach it.
            let overview = *slug == OVERVIEW && defines(chapter, term);
            if uses(&text, term) && i < taught && !overview {
                found.push(format!("{slug}: `{term}` (taught on `{teacher}`)"));
            }
        }
    }
    found
}

#[test]
fn every_term_is_taught_before_it_is_used() {
    let order: Vec<(&str, &str)> = PAGES
        .iter()
        .map(|e| (e.info.slug, e.info.chapter))
        .collect();
    for (term, teacher) in TAUGHT_IN {
        let (_, text) = order
            .iter()
            .find(|(slug, _)| slug == teacher)
            .unwrap_or_else(|| panic!("`{teacher}` is a page"));
        assert!(
            defines(text, term),
            "`{teacher}` teaches `{term}`: it defines it in bold or in a heading"
        );
        assert!(
            uses(&read_text(text), term),
            "the reader finds `{term}` in `{teacher}`"
        );
    }
    let found = untaught_uses(&order);
    assert!(
        found.is_empty(),
        "used before it is taught, in lesson order:\n{}",
        found.join("\n")
    );
    let early = used_before_defined(&order);
    assert!(
        early.is_empty(),
        "used on its own page before it is taught there:\n{}",
        early.join("\n")
    );
    let quaternions = slugs().iter().position(|s| *s == "quaternions");
    let blending = slugs().iter().position(|s| *s == "blending");
    assert!(
        quaternions < blending,
        "quaternion products, q against −q and unit length come before dual quaternions"
    );
}

#[test]
fn the_taught_before_used_check_can_fail() {
    // The order before quaternions moved: after the gpu page, so blending's dual
    // quaternions came first.
    let mut order: Vec<(&str, &str)> = PAGES
        .iter()
        .map(|e| (e.info.slug, e.info.chapter))
        .collect();
    let at = order.iter().position(|(s, _)| *s == "quaternions").unwrap();
    let quaternions = order.remove(at);
    let gpu = order.iter().position(|(s, _)| *s == "gpu").unwrap();
    order.insert(gpu + 1, quaternions);
    let found = untaught_uses(&order);
    assert!(
        found
            .iter()
            .any(|f| f.starts_with("blending: `quaternion`")),
        "{found:?}"
    );
    assert!(uses("dual quaternions", "quaternion"));
    assert!(!uses("shaders/blend_dqs.glsl", "dqs"));
    assert!(defines("A **dual quaternion** stores", "dual quaternion"));
    let early = [(
        "blending",
        "The DQS arm.\n\n## Dual\n\nA **dual quaternion** (**DQS**) stores",
    )];
    assert_eq!(
        used_before_defined(&early),
        ["blending: `dqs` at line 1 of its text, before it is defined"]
    );
    assert_eq!(first_definition("# dqs\nthe dqs", "dqs"), Some(2));
    assert!(!defines("a dual quaternion", "dual quaternion"));
}

/// The notation of `chapters/README.md`, where a test can hold it: the inverse bind is
/// always written `B⁻¹`, so no chapter, cell or caption writes the palette `W · B` with
/// a bare `B` (the letter of the bind pose).
#[test]
fn the_inverse_bind_is_always_written_as_an_inverse() {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "md" || e == "rs") {
                out.push(path);
            }
        }
    }
    let mut files = Vec::new();
    walk(&root().join("chapters"), &mut files);
    walk(&root().join("src/pages"), &mut files);
    let bare = |line: &str| {
        ["W · B", "W·B", "W[j] · B[j]", "W_head · B_head"]
            .iter()
            .any(|product| {
                line.match_indices(product).any(|(at, _)| {
                    let rest = &line[at + product.len()..];
                    !rest.starts_with('⁻')
                        && !rest.starts_with("[j]⁻")
                        && !rest.starts_with(char::is_alphanumeric)
                })
            })
    };
    let mut found = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).expect("a text file");
        for (i, line) in text.lines().enumerate() {
            if bare(line) {
                found.push(format!("{}:{}: {}", file.display(), i + 1, line.trim()));
            }
        }
    }
    assert!(files.len() > 12, "files read: {}", files.len());
    assert!(
        found.is_empty(),
        "the inverse bind written as a bare B (write B⁻¹):\n{}",
        found.join("\n")
    );
}
