//! A chapter on screen: its prose drawn by [`crate::ui::markdown`], its cells drawn live
//! where the chapter places them (see [`crate::chapter`] for the format).

use crate::chapter::{self, APP_LINK, Audience, Block};
use crate::ui::listing::code_ui;
use egui::{RichText, Ui};

/// What a link a figure's "Show it" opens ends with: the app opens it and leaves the
/// notebook where it is (the reader is at the figure, not at the cell its keys name).
pub const KEEP_PLACE: &str = "at=here";

/// The value of `at` that keeps the notebook where it is ([`KEEP_PLACE`]); no cell is
/// named so.
pub const HERE: &str = "here";

/// Shows the chapter of page `slug`, asking `cell_ui` to draw each cell where it is
/// placed. Returns the page link the reader clicked in the prose, if any.
///
/// The first frame of a chapter lays out only what shows (unless `whole`, when a cell
/// below must be found), and stands in for the rest with its guessed height: laying
/// out a chapter's text, and drawing its letters for the first time, is most of an
/// app's first frame. The next frame lays out all of it. From then on a block of prose,
/// code or a figure's link that is scrolled out of sight keeps the height it last had
/// and is not laid out again (see [`Heights`]), unless a widget has the keyboard's
/// focus; cells are always drawn. Without `prose`, only the cells are drawn (the book's
/// frame: the chapter around it holds the prose).
pub fn notebook_ui(
    ui: &mut Ui,
    slug: &str,
    text: &'static str,
    whole: bool,
    prose: bool,
    mut cell_ui: impl FnMut(&str, &mut Ui),
) -> Option<String> {
    let blocks = match parsed(text) {
        Ok(blocks) => blocks,
        Err(e) => {
            crate::ui::error_ui(ui, format!("This chapter cannot be read: {e}"));
            return None;
        }
    };
    let kept = Heights::kept(ui, slug);
    // From the second frame of a chapter on (its heights kept), all of it.
    let whole = whole || kept.is_some();
    let fold = ui.clip_rect().bottom();
    let mut heights = Heights::measured_as(ui, kept, blocks.len());
    // While a widget has the keyboard's focus (a field being typed in, or after Tab),
    // every block is laid out: Tab then steps through every link of the prose, and a
    // focused link scrolled out of sight keeps its focus.
    let skipping = ui.memory(|m| m.focused().is_none());
    let mut clicked = None;
    // Two paragraphs drawn one after the other (a block for the book only was between
    // them) keep a paragraph's gap, instead of running together.
    let mut after_prose = false;
    for (i, block) in blocks.iter().enumerate() {
        if !whole && ui.cursor().top() > fold {
            ui.add_space(guessed_height(ui, &blocks[i..]));
            ui.ctx().request_repaint();
            break;
        }
        match block {
            Block::Prose(Audience::Book, _) | Block::Code(Audience::Book, ..) | Block::Live(_) => {
                continue;
            }
            // Only the cells: the page around the app holds the prose.
            Block::Prose(..) | Block::Code(..) if !prose => continue,
            Block::Prose(..) if after_prose => {
                ui.add_space(ui.text_style_height(&egui::TextStyle::Body) * 0.75);
            }
            _ => {}
        }
        if skipping && !matches!(block, Block::Cell(_)) && heights.skipped(ui, i) {
            after_prose = matches!(block, Block::Prose(..));
            continue;
        }
        let top = ui.cursor().top();
        match block {
            // Passed over above.
            Block::Prose(Audience::Book, _) | Block::Code(Audience::Book, ..) | Block::Live(_) => {}
            Block::Prose(_, prose) => {
                let shown = crate::ui::markdown::markdown_ui(ui, prose);
                crate::ui::marks::prose_drawn(ui.ctx(), shown.response.rect);
                if let Some(link) = shown
                    .inner
                    .as_deref()
                    .and_then(|l| l.strip_prefix(APP_LINK))
                {
                    clicked = Some(link.to_owned());
                }
            }
            Block::Code(_, _, code) => {
                // In a scope, which takes one automatic id as a skipped block does:
                // the cells below keep their widgets' ids (and a field its focus)
                // whether or not the code above is laid out.
                ui.scope(|ui| code_ui(ui, code));
                ui.add_space(4.0);
            }
            Block::Cell(marker) => {
                egui::Frame::group(ui.style()).show(ui, |ui| {
                    ui.set_width(ui.available_width());
                    cell_ui(marker.name, ui);
                });
                ui.add_space(6.0);
            }
            Block::Figure(marker) => {
                let link = chapter::page_link(slug, marker.link.unwrap_or_default());
                let caption = marker.caption.unwrap_or(marker.name);
                if crate::ui::link_ui(ui, RichText::new(format!("Show it: {caption}")))
                    .on_hover_text(&link)
                    .clicked()
                {
                    // The reader is at the figure: the viewport changes, the notebook
                    // stays where it is.
                    let joint = if link.contains('?') { '&' } else { '?' };
                    clicked = Some(format!("{link}{joint}{KEEP_PLACE}"));
                }
                ui.add_space(6.0);
            }
        }
        if !matches!(block, Block::Cell(_)) {
            let to = |y: f32| y - top;
            heights.laid_out(i, [to(ui.cursor().top()), to(ui.min_rect().bottom())]);
        }
        after_prose = matches!(block, Block::Prose(..));
    }
    heights.keep(ui, slug);
    clicked
}

/// How tall each block of one chapter was when last laid out, at one width, size of
/// text and pixels per point (a change of any lays everything out again). A block whose height is
/// known and that lies wholly outside the visible part of the chapter takes that height
/// and is not laid out: laying out the prose every frame was most of a page's own work
/// per frame, and most of it is scrolled out of sight.
#[derive(Clone, Default)]
struct Heights {
    /// The width, body row height and pixels per point the heights were measured at
    /// (text wraps on the pixel grid).
    at: [f32; 3],
    /// Each block's height: how far it moved the cursor (the spacing after it
    /// included), and how far down it reached (a block ending in a widget stops short
    /// of the spacing, one ending in a space does not), both from where it began.
    of: Vec<Option<[f32; 2]>>,
}

impl Heights {
    fn id(slug: &str) -> egui::Id {
        egui::Id::unique("skinlab notebook heights").with(slug)
    }

    /// The heights kept for chapter `slug` by the frame before, if it was drawn.
    fn kept(ui: &Ui, slug: &str) -> Option<Self> {
        ui.ctx().data(|d| d.get_temp::<Self>(Self::id(slug)))
    }

    /// `kept`, for a chapter of `blocks` blocks, if they were measured as `ui` lays it
    /// out now; else none known.
    fn measured_as(ui: &Ui, kept: Option<Self>, blocks: usize) -> Self {
        let at = [
            ui.available_width(),
            ui.text_style_height(&egui::TextStyle::Body),
            ui.ctx().pixels_per_point(),
        ];
        match kept {
            Some(kept) if kept.at == at && kept.of.len() == blocks => kept,
            _ => Self {
                at,
                of: vec![None; blocks],
            },
        }
    }

    /// Takes the known height of block `i`, exactly as laying it out would (the
    /// cursor, and the extent a scroll area measures), and returns true, when the
    /// block would not be seen: it lies wholly above or below what the view shows.
    fn skipped(&self, ui: &mut Ui, i: usize) -> bool {
        let Some(&Some([moved, reached])) = self.of.get(i) else {
            return false;
        };
        let top = ui.cursor().top();
        let seen = ui.clip_rect();
        if top + moved >= seen.top() && top <= seen.bottom() {
            return false;
        }
        // One automatic id, as every block laid out takes (see `notebook_ui`).
        let size = egui::vec2(ui.available_width(), reached.max(0.0));
        ui.advance_cursor_after_rect(egui::Rect::from_min_size(ui.cursor().min, size));
        // Back or on to where the block left the cursor: the rectangle added the
        // spacing after it.
        let cursor = ui.cursor().top();
        ui.add_space(top + moved - cursor);
        true
    }

    fn laid_out(&mut self, i: usize, height: [f32; 2]) {
        if let Some(slot) = self.of.get_mut(i) {
            *slot = Some(height);
        }
    }

    fn keep(self, ui: &Ui, slug: &str) {
        ui.ctx().data_mut(|d| d.insert_temp(Self::id(slug), self));
    }
}

/// About how tall `blocks` will be once laid out: a row of body text for every line's
/// worth of prose or code, and a cell's frame for each cell. Stands in for the part of
/// a chapter below the first frame's fold, for one frame.
fn guessed_height(ui: &Ui, blocks: &[Block<'_>]) -> f32 {
    let row = ui.text_style_height(&egui::TextStyle::Body);
    let letters_a_line = (ui.available_width() / (row * 0.5)).max(20.0);
    blocks
        .iter()
        .map(|block| match block {
            Block::Prose(Audience::Book, _) | Block::Code(Audience::Book, ..) | Block::Live(_) => {
                0.0
            }
            Block::Prose(_, prose) => (prose.len() as f32 / letters_a_line).ceil() * row * 1.3,
            Block::Code(_, _, code) => code.lines().count() as f32 * row + 8.0,
            Block::Cell(_) => row * 16.0,
            Block::Figure(_) => row * 1.5,
        })
        .sum()
}

/// The blocks of a chapter, parsed the first time it is drawn and kept: chapters are
/// compiled into the app, so a dozen parses are kept instead of one every frame.
fn parsed(text: &'static str) -> &'static Result<Vec<Block<'static>>, chapter::ChapterError> {
    type Parsed = &'static Result<Vec<Block<'static>>, chapter::ChapterError>;
    static PARSED: std::sync::Mutex<Vec<((usize, usize), Parsed)>> =
        std::sync::Mutex::new(Vec::new());
    let key = (text.as_ptr() as usize, text.len());
    let mut parsed = PARSED
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some((_, blocks)) = parsed.iter().find(|(k, _)| *k == key) {
        return blocks;
    }
    let blocks: Parsed = Box::leak(Box::new(chapter::parse(text)));
    parsed.push((key, blocks));
    blocks
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
    use egui_kittest::Harness;
    use egui_kittest::kittest::Queryable as _;

    /// Thirty paragraphs, each followed by a block of code.
    fn long_chapter() -> &'static str {
        let text: String = (0..30)
            .map(|i| {
                format!(
                    "Paragraph {i} says something long enough to wrap onto a second line \
                     in a narrow column.\n\n```text\nline one of code {i}\nline two\n```\n\n"
                )
            })
            .collect();
        Box::leak(text.into_boxed_str())
    }

    /// The chapter shown in a scroll area of `size`, scrolled to `offset`: the harness,
    /// the height of everything the scroll area holds, as it measured it, and the id the
    /// next widget after the chapter would get.
    fn shown(
        text: &'static str,
        size: egui::Vec2,
        offset: Option<f32>,
    ) -> (Harness<'static, (f32, egui::Id)>, f32, egui::Id) {
        let mut harness = Harness::builder().with_size(size).build_ui_state(
            move |ui, (content, next): &mut (f32, egui::Id)| {
                let mut area = egui::ScrollArea::vertical().auto_shrink(false);
                if let Some(offset) = offset {
                    area = area.vertical_scroll_offset(offset);
                }
                let out = area.show(ui, |ui| {
                    notebook_ui(ui, "long", text, false, true, |_, _| {});
                    ui.next_auto_id()
                });
                *content = out.content_size.y;
                *next = out.inner;
            },
            (0.0, egui::Id::NULL),
        );
        harness.run_steps(4);
        let (content, next) = *harness.state();
        (harness, content, next)
    }

    #[test]
    fn prose_out_of_sight_is_not_laid_out_and_keeps_its_height() {
        let text = long_chapter();
        let (all, whole_height, all_next) = shown(text, egui::vec2(400.0, 20_000.0), None);
        assert!(all.query_by_label_contains("Paragraph 29").is_some());
        assert!(whole_height > 1000.0, "{whole_height}");

        let (top, height, top_next) = shown(text, egui::vec2(400.0, 300.0), None);
        assert!(top.query_by_label_contains("Paragraph 0 ").is_some());
        assert!(
            top.query_by_label_contains("Paragraph 29").is_none(),
            "a paragraph far below the view was laid out"
        );
        assert!(
            (height - whole_height).abs() < 0.5,
            "the chapter is {height} tall with blocks skipped, {whole_height} laid out"
        );

        // Widgets after skipped blocks get the ids they get after blocks laid out, so
        // a cell's field keeps its focus as the blocks above it scroll out of sight.
        assert_eq!(top_next, all_next, "ids shift when blocks are skipped");
        let (bottom, height, bottom_next) =
            shown(text, egui::vec2(400.0, 300.0), Some(whole_height - 250.0));
        assert_eq!(bottom_next, all_next);
        assert!(bottom.query_by_label_contains("Paragraph 29").is_some());
        assert!(bottom.query_by_label_contains("Paragraph 0 ").is_none());
        assert!(
            (height - whole_height).abs() < 0.5,
            "{height} against {whole_height}"
        );
    }

    #[test]
    fn while_a_field_has_the_keyboard_every_block_is_laid_out() {
        let text = long_chapter();
        let mut harness = Harness::builder()
            .with_size(egui::vec2(400.0, 300.0))
            .build_ui_state(
                move |ui, typed: &mut String| {
                    let label = ui.label("Answer");
                    ui.text_edit_singleline(typed).labelled_by(label.id);
                    egui::ScrollArea::vertical()
                        .auto_shrink(false)
                        .show(ui, |ui| {
                            notebook_ui(ui, "typed", text, false, true, |_, _| {});
                        });
                },
                String::new(),
            );
        harness.run_steps(4);
        assert!(harness.query_by_label_contains("Paragraph 29").is_none());
        harness
            .get_by_role(egui::accesskit::Role::TextInput)
            .focus();
        harness.run_steps(2);
        assert!(
            harness.query_by_label_contains("Paragraph 29").is_some(),
            "a link far below could not be reached with Tab"
        );
        harness.key_press(egui::Key::Escape);
        harness.run_steps(2);
        assert!(harness.query_by_label_contains("Paragraph 29").is_none());
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
