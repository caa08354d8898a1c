//! The chapter format's tests: blocks, markers, audiences and the book's chapter.

use super::*;

const TEXT: &str = "# Title\n<!-- live: angle=0.8 -->\n\nSome *text*,\n[a link](skinlab:grid?angle=0).\n\n```cell\nmatrix\nlink: vertex=2\nfigure: grid.png\ncaption: Two copies.\n```\n\n<!-- book -->\nDepth.\n\n```rust\n{{#include ../crates/skin/src/lbs.rs:blend}}\n```\n<!-- /book -->\n<!-- app -->\nDrag it.\n<!-- /app -->\n\n```text\nb = ab * a\n```\n\n```figure\ngrid-forget.png\nlink: forget_inverse_bind=true\n```\n";

#[test]
fn splits_prose_cells_figures_and_audiences() {
    let blocks = parse(TEXT).expect("parses");
    assert!(matches!(blocks[0], Block::Prose(Audience::Both, ref p) if p.starts_with("# Title")));
    assert_eq!(blocks[1], Block::Live("angle=0.8"));
    assert_eq!(
        blocks[3],
        Block::Cell(Marker {
            name: "matrix",
            link: Some("vertex=2"),
            figure: Some("grid.png"),
            caption: Some("Two copies."),
        })
    );
    assert_eq!(blocks[4], Block::Prose(Audience::Book, "Depth.\n\n".into()));
    assert_eq!(
        blocks[5],
        Block::Code(
            Audience::Book,
            "rust",
            "{{#include ../crates/skin/src/lbs.rs:blend}}".into()
        )
    );
    assert_eq!(blocks[6], Block::Prose(Audience::App, "Drag it.\n".into()));
    assert_eq!(
        blocks[7],
        Block::Code(Audience::Both, "text", "b = ab * a".into())
    );
    assert!(matches!(blocks[8], Block::Figure(m) if m.name == "grid-forget.png"));
    assert_eq!(cell_names(TEXT).expect("parses"), vec!["matrix"]);
    assert_eq!(title(TEXT), Some("Title"));
}

#[test]
fn fences_close_only_on_their_own_kind() {
    let text = "# T\n````text\n```cell\nx\n```\n````\n~~~\n```figure\n~~~\n";
    let blocks = parse(text).expect("parses");
    assert_eq!(
        blocks[1],
        Block::Code(Audience::Both, "text", "```cell\nx\n```".into())
    );
    assert_eq!(
        blocks[2],
        Block::Code(Audience::Both, "", "```figure".into())
    );
    assert!(
        cell_names(text).expect("parses").is_empty(),
        "markers inside code are code"
    );
    assert_eq!(title("```text\n# not a title\n```\n# Real\n"), Some("Real"));
}

#[test]
fn comments_are_notes_nobody_sees() {
    let text = "a <!-- note --> b <!-- other -->\nc <!-- across\nlines --> d\n";
    assert_eq!(
        parse(text).expect("parses"),
        vec![Block::Prose(Audience::Both, "a  b \nc \n d\n".into())]
    );
    assert!(parse("<!-- never closed\n").is_err());
}

#[test]
fn the_book_gets_depth_pictures_and_live_links_but_not_app_directions() {
    let book = book_chapter("grid", TEXT).expect("builds");
    assert!(book.contains("<iframe class=\"skinlab-live\" src=\"app/index.html#grid?angle=0.8\""));
    assert!(book.contains("[a link](app/index.html#grid?angle=0)"));
    assert!(book.contains("{{#include ../../crates/skin/src/lbs.rs:blend}}"));
    assert!(book.contains("![Two copies.](images/grid.png)"));
    assert!(book.contains("[grid?vertex=2](app/index.html#grid?vertex=2)"));
    assert!(book.contains("`skinlab \"grid?forget_inverse_bind=true\"`"));
    assert!(!book.contains("Drag it."));
    assert!(!book.contains("```cell"));
    assert_eq!(
        figures("grid", TEXT).expect("parses"),
        vec![
            ("grid.png", "grid?vertex=2".to_owned()),
            (
                "grid-forget.png",
                "grid?forget_inverse_bind=true".to_owned()
            )
        ]
    );
}

#[test]
fn malformed_chapters_name_the_line() {
    let cases = [
        ("<!-- book -->\ntext\n", 1, "never closed"),
        ("<!-- book -->\n<!-- app -->\n", 2, "do not nest"),
        ("text\n<!-- /book -->\n", 2, "do not nest"),
        ("```cell\n```\n", 1, "needs a name"),
        ("```cell\nx\nsize: 3\n```\n", 3, "unknown key `size`"),
        ("```figure\nx.png\n```\n", 1, "needs `link:`"),
        ("```rust\nfn f() {}\n", 1, "never closed"),
        (
            "<!-- book -->\n```cell\nx\n```\n<!-- /book -->\n",
            2,
            "app and the book",
        ),
    ];
    for (text, line, message) in cases {
        let error = parse(text).expect_err(text);
        assert_eq!(error.line, line, "{text:?}: {error}");
        assert!(error.message.contains(message), "{text:?}: {error}");
    }
    assert!(book_chapter("grid", "# T\n").is_err(), "no live line");
}

/// The blocks of `text` the app shows: all but the book's prose and code.
fn book_less(text: &str) -> Vec<Block<'_>> {
    let blocks = parse(text).expect("parses").into_iter();
    blocks
        .filter(|b| {
            !matches!(
                b,
                Block::Prose(Audience::Book, _) | Block::Code(Audience::Book, ..)
            )
        })
        .collect()
}

#[test]
fn the_apps_text_of_every_chapter_has_its_blocks_less_the_books() {
    for entry in crate::pages::PAGES {
        let text = entry.info.chapter;
        let whole = std::fs::read_to_string(format!(
            "{}/chapters/{}.md",
            env!("CARGO_MANIFEST_DIR"),
            entry.info.slug
        ))
        .expect("the chapter file");
        let app = app_text(&whole);
        assert_eq!(
            parse(&app).expect("the app's text parses"),
            book_less(&whole),
            "{}",
            entry.info.slug
        );
        // The app compiled for this target carries the whole chapter or the app's text.
        assert!(text == whole || text == app, "{}", entry.info.slug);
    }
}

#[test]
fn markers_inside_a_book_block_quoted_or_commented_leave_with_it() {
    for text in [
        "a\n<!-- book -->\n```text\n<!-- book -->\n```\n<!-- /book -->\nb\n",
        "a\n<!-- book -->\n<!--\n<!-- book -->\n-->\n<!-- /book -->\nb\n",
    ] {
        let app = app_text(text);
        assert_eq!(app, "a\n<!-- book -->\n<!-- /book -->\nb\n", "{text:?}");
        assert_eq!(parse(&app).expect("parses"), book_less(text), "{text:?}");
    }
}

#[test]
fn the_apps_text_keeps_fenced_and_commented_book_markers_as_they_are() {
    let text = "a\n<!-- book -->\nb\n```text\n<!-- /book -->\n```\nc\n<!-- /book -->\nd\n```text\n<!-- book -->\n```\n<!--\n<!-- book -->\n-->\ne\n";
    assert_eq!(
        app_text(text),
        "a\n<!-- book -->\n<!-- /book -->\nd\n```text\n<!-- book -->\n```\n<!--\n<!-- book -->\n-->\ne\n"
    );
}
