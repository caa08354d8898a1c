//! A lesson's chapter file, written once: the app shows it beside the live page and
//! the book is built from it (`chapters/README.md` describes the format).
//!
//! This module only reads text: [`parse`] splits a chapter into blocks, and
//! [`book_chapter`] writes the Markdown of the book's chapter. Drawing lives in
//! [`crate::notebook`].

use std::fmt;

/// Who reads a stretch of prose.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Audience {
    /// The app and the book.
    Both,
    /// Only the book: depth, listings, going further.
    Book,
    /// Only the app: directions that need the live viewport.
    App,
}

/// A cell or figure marker: a fenced block with info string `cell` or `figure`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Marker<'a> {
    /// The cell's name, or the figure's image file (in `book/src/images`).
    pub name: &'a str,
    /// The page state this marker stands for: the query after `slug?`.
    pub link: Option<&'a str>,
    /// An image of that state, in `book/src/images`.
    pub figure: Option<&'a str>,
    /// The figure's caption.
    pub caption: Option<&'a str>,
}

/// One piece of a chapter.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Block<'a> {
    /// Markdown prose, for the given readers (no fenced blocks, no HTML comments).
    Prose(Audience, String),
    /// A fenced block of code or formulas, for the given readers: its info string
    /// (`text`, `rust`, `glsl`, …) and its lines.
    Code(Audience, &'a str, String),
    /// A live cell of the page.
    Cell(Marker<'a>),
    /// A picture of a page state (the book shows it; the app links to the state).
    Figure(Marker<'a>),
    /// The state the book's live frame opens at (the query after `slug?`).
    Live(&'a str),
}

/// What is wrong with a chapter file, with the line it is on (1-based).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChapterError {
    /// The line of the problem.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for ChapterError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for ChapterError {}

/// A fence line: its character (`` ` `` or `~`), its length (3 or more) and its info
/// string.
fn fence(line: &str) -> Option<(char, usize, &str)> {
    let trimmed = line.trim_start();
    let c = trimmed.chars().next().filter(|c| *c == '`' || *c == '~')?;
    let length = trimmed.chars().take_while(|x| *x == c).count();
    (length >= 3).then(|| (c, length, trimmed[length..].trim()))
}

/// Whether `line` closes a fence opened with `length` of `c`.
fn closes(line: &str, c: char, length: usize) -> bool {
    fence(line).is_some_and(|(d, n, info)| d == c && n >= length && info.is_empty())
}

/// The text of a line that is one HTML comment and nothing else.
fn comment(line: &str) -> Option<&str> {
    let inner = line.trim().strip_prefix("<!--")?.strip_suffix("-->")?;
    (!inner.contains("-->")).then(|| inner.trim())
}

/// Prose without HTML comments (inline, or across lines): notes to writers, which
/// neither the app nor the book shows. `open` carries an unclosed comment to the next
/// line.
fn strip_comments(line: &str, open: &mut bool) -> String {
    let mut out = String::new();
    let mut rest = line;
    loop {
        if *open {
            match rest.find("-->") {
                Some(end) => {
                    rest = &rest[end + 3..];
                    *open = false;
                }
                None => return out,
            }
        }
        match rest.find("<!--") {
            Some(start) => {
                out.push_str(&rest[..start]);
                rest = &rest[start + 4..];
                *open = true;
            }
            None => {
                out.push_str(rest);
                return out;
            }
        }
    }
}

/// Reads a marker's body: its name, then `key: value` lines.
fn marker<'a>(body: &[(usize, &'a str)], start: usize) -> Result<Marker<'a>, ChapterError> {
    let mut lines = body.iter().filter(|(_, l)| !l.trim().is_empty());
    let Some((_, name)) = lines.next() else {
        return Err(ChapterError {
            line: start,
            message: "a marker needs a name on its first line".into(),
        });
    };
    let mut marker = Marker {
        name: name.trim(),
        ..Marker::default()
    };
    for &(line, text) in lines {
        let (key, value) = text.split_once(':').ok_or_else(|| ChapterError {
            line,
            message: format!("`{}` is not `key: value`", text.trim()),
        })?;
        let slot = match key.trim() {
            "link" => &mut marker.link,
            "figure" => &mut marker.figure,
            "caption" => &mut marker.caption,
            other => {
                return Err(ChapterError {
                    line,
                    message: format!("unknown key `{other}`: use link, figure or caption"),
                });
            }
        };
        *slot = Some(value.trim());
    }
    Ok(marker)
}

/// Splits a chapter into blocks, in order. Adjacent prose lines for the same readers
/// form one block.
pub fn parse(text: &str) -> Result<Vec<Block<'_>>, ChapterError> {
    let mut blocks = Vec::new();
    let mut prose = String::new();
    let mut audience = Audience::Both;
    let mut opened_at = 0;
    let mut in_comment = false;
    let mut live_at = None;
    let error = |line: usize, message: String| Err(ChapterError { line, message });
    let flush = |prose: &mut String, blocks: &mut Vec<Block<'_>>, audience| {
        if !prose.trim().is_empty() {
            blocks.push(Block::Prose(audience, std::mem::take(prose)));
        }
        prose.clear();
    };
    let mut lines = text.lines().enumerate().map(|(i, l)| (i + 1, l));
    while let Some((number, line)) = lines.next() {
        if let Some((c, length, info)) = fence(line).filter(|_| !in_comment) {
            let mut body = Vec::new();
            let mut closed = false;
            for (n, l) in lines.by_ref() {
                if closes(l, c, length) {
                    closed = true;
                    break;
                }
                body.push((n, l));
            }
            if !closed {
                return error(number, "this fenced block is never closed".into());
            }
            flush(&mut prose, &mut blocks, audience);
            if info == "cell" || info == "figure" {
                if audience != Audience::Both {
                    return error(
                        number,
                        format!("a {info} marker belongs to the app and the book"),
                    );
                }
                let marker = marker(&body, number)?;
                if info == "figure" && marker.link.is_none() {
                    return error(number, "a figure needs `link:`, the state it shows".into());
                }
                blocks.push(if info == "cell" {
                    Block::Cell(marker)
                } else {
                    Block::Figure(marker)
                });
            } else {
                let code: Vec<&str> = body.iter().map(|(_, l)| *l).collect();
                blocks.push(Block::Code(audience, info, code.join("\n")));
            }
            continue;
        }
        let Some(inner) = comment(line).filter(|_| !in_comment) else {
            prose.push_str(&strip_comments(line, &mut in_comment));
            prose.push('\n');
            continue;
        };
        let switch = match inner {
            "book" => Some((Audience::Both, Audience::Book)),
            "app" => Some((Audience::Both, Audience::App)),
            "/book" => Some((Audience::Book, Audience::Both)),
            "/app" => Some((Audience::App, Audience::Both)),
            _ => None,
        };
        if let Some((from, to)) = switch {
            if audience != from {
                return error(
                    number,
                    format!("`<!-- {inner} -->` does not fit here: blocks do not nest"),
                );
            }
            flush(&mut prose, &mut blocks, audience);
            audience = to;
            opened_at = number;
        } else if let Some(query) = inner.strip_prefix("live:") {
            if let Some(first) = live_at {
                return error(
                    number,
                    format!("a second `live:` line (the first is on line {first})"),
                );
            }
            if audience != Audience::Both {
                return error(
                    number,
                    "the `live:` line belongs outside book and app blocks".into(),
                );
            }
            live_at = Some(number);
            flush(&mut prose, &mut blocks, audience);
            blocks.push(Block::Live(query.trim()));
        }
        // Any other comment is a note to writers: nobody reads it.
    }
    if audience != Audience::Both {
        return error(opened_at, "this block is never closed".into());
    }
    if in_comment {
        return error(
            text.lines().count(),
            "an HTML comment is never closed".into(),
        );
    }
    flush(&mut prose, &mut blocks, audience);
    Ok(blocks)
}

/// The chapter as the app shows it: every book-only block emptied, its two marker lines
/// kept so the blocks on either side stay apart. [`parse`] of it gives the chapter's
/// blocks less the book's. The web app carries this, not the whole chapter (`build.rs`):
/// the book's depth is a third of the text, and the app never shows it.
pub fn app_text(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut in_book = false;
    let mut in_comment = false;
    let mut fenced: Option<(char, usize)> = None;
    for line in text.lines() {
        // A book block's own markers stay; what is between them goes.
        let mut marker = false;
        if let Some((c, length)) = fenced {
            if closes(line, c, length) {
                fenced = None;
            }
        } else if let Some((c, length, _)) = fence(line).filter(|_| !in_comment) {
            fenced = Some((c, length));
        } else if let Some(inner) = comment(line).filter(|_| !in_comment) {
            match inner {
                "book" => (in_book, marker) = (true, true),
                "/book" => (in_book, marker) = (false, true),
                _ => {}
            }
        } else {
            strip_comments(line, &mut in_comment);
        }
        if !in_book || marker {
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}

/// The title: the first `# ` heading outside fenced blocks.
pub fn title(text: &str) -> Option<&str> {
    let mut fenced: Option<(char, usize)> = None;
    for line in text.lines() {
        match fenced {
            Some((c, length)) if closes(line, c, length) => fenced = None,
            Some(_) => {}
            None => {
                if let Some((c, length, _)) = fence(line) {
                    fenced = Some((c, length));
                } else if let Some(title) = line.strip_prefix("# ") {
                    return Some(title.trim());
                }
            }
        }
    }
    None
}

/// The names of the cells a chapter places, in order.
pub fn cell_names(text: &str) -> Result<Vec<&str>, ChapterError> {
    Ok(parse(text)?
        .into_iter()
        .filter_map(|b| match b {
            Block::Cell(m) => Some(m.name),
            _ => None,
        })
        .collect())
}

/// A page link `slug?query` (just `slug` when the query is empty).
pub fn page_link(slug: &str, query: &str) -> String {
    if query.is_empty() {
        slug.to_owned()
    } else {
        format!("{slug}?{query}")
    }
}

/// Prefix of links into the app written in a chapter: `[text](skinlab:grid?angle=0)`.
pub const APP_LINK: &str = "skinlab:";

/// Where the book's pages find the web app.
const BOOK_APP: &str = "app/index.html#";

/// Rewrites a chapter's prose for the book: links into the app point at the web app,
/// and includes (written relative to `chapters/`) are made relative to `book/src/`.
fn prose_for_book(text: &str) -> String {
    text.replace(&format!("]({APP_LINK}"), &format!("]({BOOK_APP}"))
        .replace("{{#include ../", "{{#include ../../")
}

/// A line that opens `link` live, in the browser and on the desktop.
fn live_line(label: &str, link: &str) -> String {
    format!("> {label}: [{link}]({BOOK_APP}{link}) · desktop: `skinlab \"{link}\"`\n")
}

fn figure_for_book(marker: &Marker<'_>, file: &str, slug: &str) -> String {
    let link = page_link(slug, marker.link.unwrap_or_default());
    let caption = marker.caption.unwrap_or_default();
    let caption_line = if caption.is_empty() {
        String::new()
    } else {
        format!("*{caption}*\n\n")
    };
    format!(
        "![{caption}](images/{file})\n\n{caption_line}{}",
        live_line("Live", &link)
    )
}

/// The book's chapter for the page `slug`: the same prose, book-only depth included,
/// app-only directions left out, the live page embedded after the title, and each cell
/// or figure as its picture with a link that opens it live.
pub fn book_chapter(slug: &str, text: &str) -> Result<String, ChapterError> {
    let blocks = parse(text)?;
    let title = title(text).unwrap_or(slug);
    let mut out = String::new();
    let mut live_done = false;
    for block in &blocks {
        match block {
            Block::Prose(Audience::App, _) | Block::Code(Audience::App, ..) => {}
            Block::Prose(_, prose) => {
                out.push_str(&prose_for_book(prose));
                out.push('\n');
            }
            Block::Code(_, info, code) => {
                out.push_str(&format!("```{info}\n{}\n```\n\n", prose_for_book(code)));
            }
            Block::Live(query) => {
                let link = page_link(slug, query);
                out.push_str(&live_line("Live page", &link));
                out.push_str(&format!(
                    "\n<iframe class=\"skinlab-live\" src=\"{BOOK_APP}{link}\" title=\"{title}, live\" width=\"100%\" height=\"760\" loading=\"lazy\"></iframe>\n\n"
                ));
                live_done = true;
            }
            Block::Cell(marker) => {
                match marker.figure {
                    Some(file) => out.push_str(&figure_for_book(marker, file, slug)),
                    None => {
                        // A cell with no state of its own opens the page at that cell.
                        let at = format!("at={}", marker.name);
                        let link = page_link(slug, marker.link.unwrap_or(&at));
                        out.push_str(&live_line("Try it live", &link));
                    }
                }
                out.push('\n');
            }
            Block::Figure(marker) => {
                out.push_str(&figure_for_book(marker, marker.name, slug));
                out.push('\n');
            }
        }
    }
    if !live_done {
        return Err(ChapterError {
            line: 1,
            message: "no `<!-- live: ... -->` line: the book needs the state to embed".into(),
        });
    }
    Ok(out)
}

/// Every picture a chapter declares, as `(file, link)`.
pub fn figures<'a>(slug: &str, text: &'a str) -> Result<Vec<(&'a str, String)>, ChapterError> {
    Ok(parse(text)?
        .into_iter()
        .filter_map(|b| match b {
            Block::Cell(m) => m
                .figure
                .map(|f| (f, page_link(slug, m.link.unwrap_or_default()))),
            Block::Figure(m) => Some((m.name, page_link(slug, m.link.unwrap_or_default()))),
            _ => None,
        })
        .collect())
}

/// The book's table of contents: the introduction, then one chapter per page, as
/// `(slug, title)` in lesson order.
pub fn book_summary(pages: &[(&str, &str)]) -> String {
    let mut out = String::from("# Summary\n\n[Introduction](introduction.md)\n\n");
    for (slug, title) in pages {
        out.push_str(&format!("- [{title}]({slug}.md)\n"));
    }
    out
}

#[cfg(test)]
mod tests;
