//! A chapter file as a notebook: Markdown prose with live cells.
//!
//! A cell is a fenced block whose info string is `cell` and whose one line is the
//! cell's name:
//!
//! ````text
//! ```cell
//! matrix
//! ```
//! ````

use egui::{RichText, Ui};

/// One piece of a chapter.
#[derive(Clone, Debug, PartialEq)]
pub enum Block<'a> {
    /// A heading of the given level (1 = `#`).
    Heading(usize, &'a str),
    /// A paragraph (lines joined).
    Paragraph(String),
    /// A bullet list item.
    Bullet(String),
    /// A fenced code or formula block (not a cell).
    Code(String),
    /// A live cell, by name.
    Cell(&'a str),
}

/// Splits a chapter into blocks.
pub fn parse(text: &str) -> Vec<Block<'_>> {
    let mut blocks = Vec::new();
    let mut paragraph: Vec<&str> = Vec::new();
    let mut lines = text.lines();
    let flush = |paragraph: &mut Vec<&str>, blocks: &mut Vec<Block<'_>>| {
        if !paragraph.is_empty() {
            blocks.push(Block::Paragraph(paragraph.join(" ")));
            paragraph.clear();
        }
    };
    while let Some(line) = lines.next() {
        let trimmed = line.trim();
        if let Some(info) = trimmed.strip_prefix("```") {
            flush(&mut paragraph, &mut blocks);
            let body: Vec<&str> = lines
                .by_ref()
                .take_while(|l| !l.trim().starts_with("```"))
                .collect();
            if info.trim() == "cell" {
                blocks.extend(
                    body.iter()
                        .map(|l| l.trim())
                        .filter(|l| !l.is_empty())
                        .map(Block::Cell),
                );
            } else {
                blocks.push(Block::Code(body.join("\n")));
            }
        } else if trimmed.starts_with('#') {
            flush(&mut paragraph, &mut blocks);
            let level = trimmed.chars().take_while(|c| *c == '#').count();
            blocks.push(Block::Heading(level, trimmed[level..].trim()));
        } else if let Some(item) = trimmed.strip_prefix("- ") {
            flush(&mut paragraph, &mut blocks);
            blocks.push(Block::Bullet(item.to_owned()));
        } else if trimmed.is_empty() {
            flush(&mut paragraph, &mut blocks);
        } else if let (Some(Block::Bullet(item)), true) = (
            blocks.last_mut(),
            paragraph.is_empty() && line.starts_with("  "),
        ) {
            item.push(' ');
            item.push_str(trimmed);
        } else {
            paragraph.push(trimmed);
        }
    }
    flush(&mut paragraph, &mut blocks);
    blocks
}

/// The names of the cells a chapter places, in order.
pub fn cell_names(text: &str) -> Vec<&str> {
    parse(text)
        .into_iter()
        .filter_map(|b| {
            if let Block::Cell(name) = b {
                Some(name)
            } else {
                None
            }
        })
        .collect()
}

/// Lays out inline `code` and **bold** spans.
fn inline_ui(ui: &mut Ui, text: &str) {
    let style = ui.style().clone();
    let mut job = egui::text::LayoutJob::default();
    let body = egui::TextStyle::Body.resolve(&style);
    let mono = egui::TextStyle::Monospace.resolve(&style);
    let color = ui.visuals().text_color();
    let strong = ui.visuals().strong_text_color();
    let code_bg = ui.visuals().code_bg_color;
    let mut rest = text;
    while !rest.is_empty() {
        let next_code = rest.find('`');
        let next_bold = rest.find("**");
        let (start, is_code) = match (next_code, next_bold) {
            (Some(c), Some(b)) if b < c => (b, false),
            (Some(c), _) => (c, true),
            (None, Some(b)) => (b, false),
            (None, None) => (rest.len(), false),
        };
        job.append(
            &rest[..start],
            0.0,
            egui::TextFormat::simple(body.clone(), color),
        );
        rest = &rest[start..];
        if rest.is_empty() {
            break;
        }
        let marker = if is_code { "`" } else { "**" };
        let inner = &rest[marker.len()..];
        let Some(end) = inner.find(marker) else {
            job.append(rest, 0.0, egui::TextFormat::simple(body.clone(), color));
            break;
        };
        let format = if is_code {
            egui::TextFormat {
                background: code_bg,
                ..egui::TextFormat::simple(mono.clone(), color)
            }
        } else {
            egui::TextFormat::simple(body.clone(), strong)
        };
        job.append(&inner[..end], 0.0, format);
        rest = &inner[end + marker.len()..];
    }
    ui.add(egui::Label::new(job).wrap());
}

/// Shows a chapter, asking `cell_ui` to draw each cell where it is placed.
pub fn notebook_ui(ui: &mut Ui, text: &str, mut cell_ui: impl FnMut(&str, &mut Ui)) {
    for block in parse(text) {
        match block {
            Block::Heading(level, title) => {
                ui.add_space(if level == 1 { 4.0 } else { 10.0 });
                let size = match level {
                    1 => 26.0,
                    2 => 20.0,
                    _ => 17.0,
                };
                ui.label(RichText::new(title).size(size).strong());
            }
            Block::Paragraph(text) => {
                inline_ui(ui, &text);
                ui.add_space(4.0);
            }
            Block::Bullet(text) => {
                ui.horizontal_top(|ui| {
                    ui.label("•");
                    inline_ui(ui, &text);
                });
            }
            Block::Code(code) => {
                code_ui(ui, &code);
                ui.add_space(4.0);
            }
            Block::Cell(name) => {
                egui::Frame::group(ui.style()).show(ui, |ui| {
                    ui.set_width(ui.available_width());
                    cell_ui(name, ui);
                });
                ui.add_space(6.0);
            }
        }
    }
}

/// A block of code on a tinted background, full width, wrapped.
pub fn code_ui(ui: &mut Ui, code: &str) {
    egui::Frame::new()
        .fill(ui.visuals().code_bg_color)
        .inner_margin(6.0)
        .corner_radius(4.0)
        .show(ui, |ui| {
            ui.set_width(ui.available_width());
            ui.add(egui::Label::new(RichText::new(code).monospace()).wrap());
        });
}

/// The lines of `source` between `ANCHOR: name` and `ANCHOR_END: name`, as mdBook's
/// `{{#include file:name}}` reads them (other anchor lines dropped, common indent
/// removed), so the app can show the same code the book includes. `None` when the
/// anchor is missing or not closed.
pub fn anchor(source: &str, name: &str) -> Option<String> {
    let is_marker = |line: &str, kind: &str| {
        line.split_once(kind)
            .is_some_and(|(_, rest)| rest.trim() == name)
    };
    let mut lines = source.lines();
    lines.find(|l| is_marker(l, "ANCHOR: "))?;
    let mut body = Vec::new();
    for line in lines {
        if is_marker(line, "ANCHOR_END: ") {
            let indent = body
                .iter()
                .filter(|l: &&&str| !l.trim().is_empty())
                .map(|l| l.len() - l.trim_start().len())
                .min()
                .unwrap_or(0);
            let text: Vec<&str> = body.iter().map(|l| l.get(indent..).unwrap_or("")).collect();
            return Some(text.join("\n"));
        }
        if !line.contains("ANCHOR: ") && !line.contains("ANCHOR_END: ") {
            body.push(line);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_cells_and_prose() {
        let text = "# Title\n\nSome *text*\nmore.\n\n```cell\nmatrix\n```\n\n- a\n- b\n\n```text\nb = ab * a\n```\n";
        let blocks = parse(text);
        assert_eq!(blocks[0], Block::Heading(1, "Title"));
        assert_eq!(blocks[1], Block::Paragraph("Some *text* more.".into()));
        assert_eq!(blocks[2], Block::Cell("matrix"));
        assert_eq!(blocks[3], Block::Bullet("a".into()));
        assert_eq!(blocks[5], Block::Code("b = ab * a".into()));
        assert_eq!(cell_names(text), vec!["matrix"]);
    }

    #[test]
    fn anchor_reads_like_mdbook_include() {
        let source = "a\n    // ANCHOR: f\n    fn f() {\n        // ANCHOR: g\n        1\n        // ANCHOR_END: g\n    }\n    // ANCHOR_END: f\nb\n";
        assert_eq!(anchor(source, "f").as_deref(), Some("fn f() {\n    1\n}"));
        assert_eq!(anchor(source, "g").as_deref(), Some("1"));
        assert_eq!(anchor(source, "h"), None);
        assert_eq!(anchor("// ANCHOR: open\nx", "open"), None);
    }
}
