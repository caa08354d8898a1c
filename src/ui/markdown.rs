//! The chapters' prose on screen: the Markdown they are written in (chapters/README.md),
//! read and drawn here. Blocks: `#` headings, paragraphs, `-` and `1.` lists, and `|`
//! tables; inside them `**strong**`, `*emphasis*` (or `_emphasis_`), `` `code` `` and
//! `[links](target)`, with `\` before a character that would mean something else. The
//! chapters' code blocks, cells and figures are drawn by the notebook, not here.
//!
//! A small reader of its own rather than a general one: a general Markdown renderer
//! was the largest part of the web app that the app did not need.

use egui::{RichText, TextStyle, Ui};

/// Draws `text` and returns the target of the link clicked in it, if any.
pub fn markdown_ui(ui: &mut Ui, text: &str) -> egui::InnerResponse<Option<String>> {
    ui.vertical(|ui| {
        let mut clicked = None;
        let gap = ui.text_style_height(&TextStyle::Body) * 0.6;
        for (i, block) in blocks(text).iter().enumerate() {
            if i > 0 {
                ui.add_space(gap);
            }
            let hit = match block {
                Block::Heading(level, line) => heading_ui(ui, *level, line),
                Block::Paragraph(line) => wrapped_spans_ui(ui, line, &|t| t),
                Block::List(items) => list_ui(ui, items),
                Block::Table(rows) => table_ui(ui, rows, i),
            };
            clicked = clicked.or(hit);
        }
        clicked
    })
}

/// A block of prose.
#[derive(Debug, PartialEq)]
enum Block {
    /// A heading of level 1 to 6, and its text.
    Heading(usize, String),
    /// A paragraph, its lines joined.
    Paragraph(String),
    /// A list: each item's number (`None` for a bullet) and text.
    List(Vec<(Option<u32>, String)>),
    /// A table: its rows of cells, the header first.
    Table(Vec<Vec<String>>),
}

/// The blocks of `text`: a blank line ends one; a heading is one line; a table is its
/// `|` lines (the `|---|` line under the header left out); an item runs on until the
/// next item, a blank line or another kind of block.
fn blocks(text: &str) -> Vec<Block> {
    let mut blocks = Vec::new();
    let mut open: Option<Block> = None;
    for line in text.lines() {
        let trimmed = line.trim();
        if trimmed.is_empty() {
            blocks.extend(open.take());
            continue;
        }
        if let Some(heading) = heading(trimmed) {
            blocks.extend(open.take());
            blocks.push(heading);
            continue;
        }
        if trimmed.starts_with('|') {
            let cells = table_row(trimmed);
            let rule = cells
                .iter()
                .all(|c| !c.is_empty() && c.chars().all(|c| "-: ".contains(c)));
            match &mut open {
                Some(Block::Table(rows)) => {
                    if !rule {
                        rows.push(cells);
                    }
                }
                _ => {
                    blocks.extend(open.take());
                    open = Some(Block::Table(vec![cells]));
                }
            }
            continue;
        }
        if let Some((number, rest)) = item(trimmed) {
            match &mut open {
                Some(Block::List(items)) => items.push((number, rest.to_owned())),
                _ => {
                    blocks.extend(open.take());
                    open = Some(Block::List(vec![(number, rest.to_owned())]));
                }
            }
            continue;
        }
        match &mut open {
            Some(Block::Paragraph(text)) => join(text, trimmed),
            Some(Block::List(items)) => {
                if let Some((_, text)) = items.last_mut() {
                    join(text, trimmed);
                }
            }
            _ => {
                blocks.extend(open.take());
                open = Some(Block::Paragraph(trimmed.to_owned()));
            }
        }
    }
    blocks.extend(open);
    blocks
}

/// Adds `line` to `text`, the line break read as a space.
fn join(text: &mut String, line: &str) {
    text.push(' ');
    text.push_str(line);
}

/// `# Title` … `###### Title`.
fn heading(line: &str) -> Option<Block> {
    let level = line.chars().take_while(|c| *c == '#').count();
    let rest = line[level..].strip_prefix(' ')?;
    (1..=6)
        .contains(&level)
        .then(|| Block::Heading(level, rest.trim().to_owned()))
}

/// `- item`, `* item`, `+ item` or `12. item`: the number, if any, and the text.
fn item(line: &str) -> Option<(Option<u32>, &str)> {
    if let Some(rest) = ["- ", "* ", "+ "].iter().find_map(|m| line.strip_prefix(m)) {
        return Some((None, rest));
    }
    let digits = line.chars().take_while(char::is_ascii_digit).count();
    let rest = line[digits..].strip_prefix(". ")?;
    Some((Some(line[..digits].parse().ok()?), rest))
}

/// The cells of `| a | b |`, trimmed (a `\|` stays in its cell).
fn table_row(line: &str) -> Vec<String> {
    let inner = line.strip_prefix('|').unwrap_or(line);
    let inner = inner.strip_suffix('|').unwrap_or(inner);
    let mut cells = vec![String::new()];
    let mut chars = inner.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' if chars.peek() == Some(&'|') => {
                cells.last_mut().into_iter().for_each(|cell| cell.push('|'));
                chars.next();
            }
            '|' => cells.push(String::new()),
            c => cells.last_mut().into_iter().for_each(|cell| cell.push(c)),
        }
    }
    cells.iter().map(|c| c.trim().to_owned()).collect()
}

/// A run of text in one style.
#[derive(Debug, Default, PartialEq)]
struct Span {
    text: String,
    strong: bool,
    emphasis: bool,
    code: bool,
    /// The target of the link the run is the text of.
    link: Option<String>,
}

impl Span {
    /// Whether the run is plain text: no style, no link.
    fn is_plain(&self) -> bool {
        !(self.strong || self.emphasis || self.code || self.link.is_some())
    }
}

/// The runs of `text`, by style.
fn spans(text: &str) -> Vec<Span> {
    let mut out = Vec::new();
    inline(text, None, &mut out);
    out
}

/// Reads `text` into `out`, each run the text of the link `link` when there is one.
fn inline(text: &str, link: Option<&str>, out: &mut Vec<Span>) {
    let chars: Vec<char> = text.chars().collect();
    let (mut strong, mut emphasis) = (false, false);
    let mut run = String::new();
    let flush = |run: &mut String, out: &mut Vec<Span>, strong, emphasis, code| {
        if !run.is_empty() {
            out.push(Span {
                text: std::mem::take(run),
                strong,
                emphasis,
                code,
                link: link.map(str::to_owned),
            });
        }
    };
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let prev = i.checked_sub(1).map(|p| chars[p]);
        let next = chars.get(i + 1).copied();
        match c {
            '\\' if next.is_some_and(|n| n.is_ascii_punctuation()) => {
                run.extend(next);
                i += 2;
            }
            '`' => {
                // The span runs to the next `ticks` backticks in a row.
                let ticks = chars[i..].iter().take_while(|c| **c == '`').count();
                let start = i + ticks;
                let end = chars[start..]
                    .windows(ticks)
                    .position(|w| w.iter().all(|c| *c == '`'));
                match end {
                    Some(len) => {
                        flush(&mut run, out, strong, emphasis, false);
                        let inside: String = chars[start..start + len].iter().collect();
                        let code = inside.trim();
                        run.push_str(if code.is_empty() { &inside } else { code });
                        flush(&mut run, out, strong, emphasis, true);
                        i = start + len + ticks;
                    }
                    None => {
                        run.extend(&chars[i..start]);
                        i = start;
                    }
                }
            }
            '*' | '_' if next == Some(c) => {
                flush(&mut run, out, strong, emphasis, false);
                strong = !strong;
                i += 2;
            }
            '*' | '_' if flanks(c, prev, next, emphasis) => {
                flush(&mut run, out, strong, emphasis, false);
                emphasis = !emphasis;
                i += 1;
            }
            '[' if link.is_none() => match link_at(&chars[i..]) {
                Some((label, target, used)) => {
                    flush(&mut run, out, strong, emphasis, false);
                    let first = out.len();
                    inline(&label, Some(&target), out);
                    for span in &mut out[first..] {
                        span.strong |= strong;
                        span.emphasis |= emphasis;
                    }
                    i += used;
                }
                None => {
                    run.push(c);
                    i += 1;
                }
            },
            c => {
                run.push(c);
                i += 1;
            }
        }
    }
    flush(&mut run, out, strong, emphasis, false);
}

/// Whether a single `*` or `_` closes emphasis here (`closing`: emphasis is on) or opens
/// it (off): it opens before a letter and closes after one; `_` inside a word
/// (`snake_case`) is a letter.
fn flanks(c: char, prev: Option<char>, next: Option<char>, closing: bool) -> bool {
    let word = |x: Option<char>| x.is_some_and(char::is_alphanumeric);
    let space = |x: Option<char>| x.is_none_or(char::is_whitespace);
    if c == '_' && word(prev) && word(next) {
        return false;
    }
    if closing { !space(prev) } else { !space(next) }
}

/// `[label](target)` at the start of `chars`: the label, the target and how many
/// characters the link took.
fn link_at(chars: &[char]) -> Option<(String, String, usize)> {
    let mut depth = 0;
    let close = chars.iter().position(|c| {
        depth += match c {
            '[' => 1,
            ']' => -1,
            _ => 0,
        };
        depth == 0
    })?;
    if chars.get(close + 1) != Some(&'(') {
        return None;
    }
    let end = close + 2 + chars[close + 2..].iter().position(|c| *c == ')')?;
    let label = chars[1..close].iter().collect();
    let target = chars[close + 2..end]
        .iter()
        .collect::<String>()
        .trim()
        .to_owned();
    Some((label, target, end + 1))
}

/// [`spans_ui`] in lines that wrap, each as high as its text: on a touch screen a
/// row's least height is a control's, which would open a gap under a first line.
fn wrapped_spans_ui(
    ui: &mut Ui,
    text: &str,
    style: &dyn Fn(RichText) -> RichText,
) -> Option<String> {
    ui.scope(|ui| {
        // Set before the row is made, which takes its least height from here.
        ui.spacing_mut().interact_size.y = 0.0;
        ui.horizontal_wrapped(|ui| spans_ui(ui, text, style)).inner
    })
    .inner
}

/// Draws the runs of `text` one after the other, each styled by `style` after its own
/// marks; returns the target of a clicked link.
fn spans_ui(ui: &mut Ui, text: &str, style: &dyn Fn(RichText) -> RichText) -> Option<String> {
    ui.spacing_mut().item_spacing.x = 0.0;
    let mut clicked = None;
    let mut spans = spans(text);
    for k in 0..spans.len() {
        let mut span = std::mem::take(&mut spans[k]);
        // A plain run whose text all went with the run before it draws nothing.
        if span.text.is_empty() {
            continue;
        }
        // Punctuation right after a styled run (`M · v`.) goes with it: a full stop
        // alone at the start of a line reads as a stray.
        let mut tail = String::new();
        if !span.is_plain()
            && let Some(next) = spans.get_mut(k + 1)
            && next.is_plain()
        {
            let cut = next
                .text
                .find(|c: char| !matches!(c, '.' | ',' | ';' | ':' | '!' | '?' | ')'))
                .unwrap_or(next.text.len());
            tail = next.text.drain(..cut).collect();
        }
        let mut rich = RichText::new(std::mem::take(&mut span.text));
        if span.strong {
            rich = rich.strong();
        }
        if span.emphasis {
            rich = rich.italics();
        }
        if span.code {
            rich = rich.code();
        }
        let rich = style(rich);
        // A link is whole on one line, and the punctuation after it starts that line
        // with it: a comma alone at the start of one reads as a stray, and a link
        // broken over two lines is two controls, the second without a name for a
        // screen reader. The punctuation is drawn after the link, not as part of it.
        let mut whole = false;
        if span.link.is_some() {
            let width = |text: &RichText| {
                let mut job = egui::text::LayoutJob::default();
                let font = egui::FontSelection::Default;
                text.clone()
                    .append_to(&mut job, ui.style(), font, egui::Align::Center);
                ui.fonts_mut(|f| f.layout_job(job)).size().x
            };
            let together = width(&rich) + width(&style(RichText::new(tail.as_str())));
            let left = ui.available_size_before_wrap().x;
            whole = together <= ui.max_rect().width();
            if together > left && whole {
                ui.end_row();
            }
        }
        match span.link {
            Some(target) => {
                // The app's own links the notebook opens; others, the browser.
                let app = target.starts_with(crate::chapter::APP_LINK);
                // egui's links wrap as their Ui does: the Ui does not, for one kept whole.
                let wrap = ui.style().wrap_mode;
                if whole {
                    ui.style_mut().wrap_mode = Some(egui::TextWrapMode::Extend);
                }
                let response = if app {
                    ui.link(rich)
                } else {
                    ui.hyperlink_to(rich, &target)
                };
                if whole {
                    ui.style_mut().wrap_mode = wrap;
                }
                if app && response.clicked() {
                    clicked = Some(target);
                }
                if !tail.is_empty() {
                    ui.label(style(RichText::new(tail)));
                }
            }
            // Prose wraps where it likes.
            None if tail.is_empty() && !span.code => {
                ui.label(rich);
            }
            // A formula (code), or a run with the punctuation after it.
            None => {
                let mut job = egui::text::LayoutJob::default();
                let font = egui::FontSelection::Default;
                rich.append_to(&mut job, ui.style(), font.clone(), egui::Align::Center);
                style(RichText::new(tail)).append_to(
                    &mut job,
                    ui.style(),
                    font,
                    egui::Align::Center,
                );
                // Whole on one line, moved to the next if need be, unless it is wider
                // than the column itself: `v' = Σ w · G · v` never loses its last `v`
                // to the next line.
                let width = ui.fonts_mut(|f| f.layout_job(job.clone())).size().x;
                let whole = width <= ui.max_rect().width();
                let label = egui::Label::new(job);
                ui.add(if whole { label.extend() } else { label });
            }
        }
    }
    clicked
}

/// A heading: level 1 as egui's heading, the rest between it and the body's size.
fn heading_ui(ui: &mut Ui, level: usize, text: &str) -> Option<String> {
    let size_of = |style| ui.style().text_styles.get(&style).map(|f| f.size);
    let body = size_of(TextStyle::Body).unwrap_or(14.0);
    let top = size_of(TextStyle::Heading).unwrap_or(32.0);
    let share = [1.0, 0.835, 0.668, 0.501, 0.334, 0.167][level.clamp(1, 6) - 1];
    let size = body + (top - body) * share;
    let strong = level <= 4;
    wrapped_spans_ui(ui, text, &|rich| {
        let rich = rich.size(size);
        if strong { rich.strong() } else { rich }
    })
}

/// A list: a bullet or the item's number in a column of its own, the text beside it.
fn list_ui(ui: &mut Ui, items: &[(Option<u32>, String)]) -> Option<String> {
    let mut clicked = None;
    let row = ui.text_style_height(&TextStyle::Body);
    for (number, text) in items {
        ui.horizontal_top(|ui| {
            let (rect, _) =
                ui.allocate_exact_size(egui::vec2(row * 1.6, row), egui::Sense::hover());
            let ink = ui.visuals().strong_text_color();
            match number {
                Some(n) => {
                    let font = TextStyle::Body.resolve(ui.style());
                    let at = rect.right_center() - egui::vec2(row * 0.35, 0.0);
                    ui.painter()
                        .text(at, egui::Align2::RIGHT_CENTER, format!("{n}."), font, ink);
                }
                None => {
                    ui.painter().circle_filled(rect.center(), row / 6.0, ink);
                }
            }
            let hit = ui.vertical(|ui| wrapped_spans_ui(ui, text, &|t| t)).inner;
            clicked = clicked.take().or(hit);
        });
    }
    clicked
}

/// A table in a frame, its header row strong, scrolled sideways when it is wider than
/// the column.
fn table_ui(ui: &mut Ui, rows: &[Vec<String>], index: usize) -> Option<String> {
    let id = ui.auto_id_with(("markdown table", index));
    let mut clicked = None;
    egui::Frame::group(ui.style()).show(ui, |ui| {
        egui::ScrollArea::horizontal().id_salt(id).show(ui, |ui| {
            egui::Grid::new(id).striped(true).show(ui, |ui| {
                for (r, row) in rows.iter().enumerate() {
                    for cell in row {
                        let strong = &|t: RichText| if r == 0 { t.strong() } else { t };
                        let hit = ui.horizontal(|ui| spans_ui(ui, cell, strong)).inner;
                        clicked = clicked.take().or(hit);
                    }
                    ui.end_row();
                }
            });
        });
    });
    clicked
}

#[cfg(test)]
mod tests {
    use super::*;

    fn span(text: &str) -> Span {
        Span {
            text: text.to_owned(),
            ..Default::default()
        }
    }

    #[test]
    fn blocks_are_split_at_blank_lines_headings_tables_and_items() {
        let text = "# Title\n\nOne line\nand the next.\n\n- a\n  b\n- c\n1. one\n\n| x | y |\n|---|:-:|\n| 1 | `a \\| b` |\nAfter.";
        assert_eq!(
            blocks(text),
            vec![
                Block::Heading(1, "Title".into()),
                Block::Paragraph("One line and the next.".into()),
                Block::List(vec![
                    (None, "a b".into()),
                    (None, "c".into()),
                    (Some(1), "one".into())
                ]),
                Block::Table(vec![
                    vec!["x".into(), "y".into()],
                    vec!["1".into(), "`a | b`".into()]
                ]),
                Block::Paragraph("After.".into()),
            ]
        );
        assert_eq!(
            blocks("#hashtag"),
            vec![Block::Paragraph("#hashtag".into())]
        );
    }

    #[test]
    fn runs_carry_their_marks() {
        let s = spans("a **b** *c* `d*e` [f `g`](skinlab:grid) snake_case_name \\*h\\* 2 * 3");
        let strong = Span {
            strong: true,
            ..span("b")
        };
        let emphasis = Span {
            emphasis: true,
            ..span("c")
        };
        let code = Span {
            code: true,
            ..span("d*e")
        };
        let link = |text: &str, code| Span {
            code,
            link: Some("skinlab:grid".into()),
            ..span(text)
        };
        assert_eq!(
            s,
            vec![
                span("a "),
                strong,
                span(" "),
                emphasis,
                span(" "),
                code,
                span(" "),
                link("f ", false),
                link("g", true),
                span(" snake_case_name *h* 2 * 3"),
            ]
        );
    }

    #[test]
    fn a_code_span_runs_to_as_many_backticks_as_opened_it() {
        let code = |text: &str| Span {
            code: true,
            ..span(text)
        };
        assert_eq!(spans("``a`b`` c"), vec![code("a`b"), span(" c")]);
        assert_eq!(spans("`` ` ``"), vec![code("`")]);
    }

    #[test]
    fn unclosed_marks_stay_text() {
        assert_eq!(spans("a `b and [c](d"), vec![span("a `b and [c](d")]);
        assert_eq!(spans("[c] (d)"), vec![span("[c] (d)")]);
    }

    #[test]
    fn a_clicked_app_link_is_returned_and_text_is_readable() {
        use egui_kittest::kittest::Queryable as _;
        let text = "Some prose with [a link](skinlab:grid?angle=0.8) in it.\n\n- an item";
        let mut harness = egui_kittest::Harness::builder().build_ui_state(
            |ui, clicked: &mut Option<String>| {
                if let Some(link) = markdown_ui(ui, text).inner {
                    *clicked = Some(link);
                }
            },
            None,
        );
        harness.run();
        assert!(harness.query_by_label_contains("Some prose with").is_some());
        assert!(harness.query_by_label_contains("an item").is_some());
        assert_eq!(*harness.state(), None);
        harness.get_by_label("a link").click();
        harness.run();
        assert_eq!(harness.state().as_deref(), Some("skinlab:grid?angle=0.8"));
    }

    #[test]
    fn a_paragraph_is_as_high_as_its_lines_even_where_controls_are_tall() {
        // A touch screen's controls are tall; a paragraph's rows are not controls.
        let text = "A paragraph long enough to run over several lines in a narrow \
                    column, with `code` and **strong** runs in it, as prose has.";
        let mut harness = egui_kittest::Harness::builder()
            .with_size(egui::vec2(220.0, 900.0))
            .build_ui_state(
                |ui, heights: &mut [f32; 2]| {
                    for (control, height) in [0.0, 44.0].into_iter().zip(heights.iter_mut()) {
                        ui.scope(|ui| {
                            ui.spacing_mut().interact_size.y = control;
                            *height = markdown_ui(ui, text).response.rect.height();
                        });
                    }
                },
                [0.0; 2],
            );
        harness.run();
        let [low, tall] = *harness.state();
        assert!(low > 40.0, "several lines: {low}");
        assert!(
            (tall - low).abs() < 1.0,
            "{tall} with tall controls, {low} without"
        );
    }

    #[test]
    fn every_chapter_is_written_in_the_markdown_read_here() {
        use crate::chapter::{Audience, Block as Part};
        // What this reader does not read: a quote, an image, a nested list, a Setext
        // heading, HTML, a list straight after a paragraph's line.
        let unread = |line: &str, prev: &str| {
            let t = line.trim_start();
            let nested = line.len() - t.len() >= 2 && item(t).is_some();
            let setext =
                !t.is_empty() && (t.chars().all(|c| c == '=') || t.chars().all(|c| c == '-'));
            let after_text = item(t).is_some()
                && !prev.trim().is_empty()
                && item(prev.trim()).is_none()
                && !prev.starts_with("  ");
            t.starts_with('>')
                || t.contains("![")
                || nested
                || setext
                || t.starts_with('<')
                || after_text
        };
        let mut found = Vec::new();
        for entry in crate::pages::PAGES {
            let parts = crate::chapter::parse(entry.info.chapter).expect("every chapter reads");
            for part in parts {
                if let Part::Prose(Audience::App | Audience::Both, prose) = part {
                    let mut prev = "";
                    for line in prose.lines() {
                        if unread(line, prev) {
                            found.push(format!("{}: {line}", entry.info.slug));
                        }
                        prev = line;
                    }
                }
            }
        }
        assert!(found.is_empty(), "prose the app cannot read: {found:#?}");
        // The check sees each fault.
        for bad in [
            "> a quote",
            "![x](y.png)",
            "- a\n  - b",
            "Title\n=====",
            "<b>x</b>",
            "text\n- item",
        ] {
            let mut prev = "";
            assert!(
                bad.lines().any(|l| {
                    let u = unread(l, prev);
                    prev = l;
                    u
                }),
                "{bad}"
            );
        }
    }
}
