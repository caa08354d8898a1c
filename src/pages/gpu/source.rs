//! The shader listing: the files of the vertex shader in use, and beside one of them
//! another path's file with the lines that differ marked.

use super::GpuPage;
use crate::ui::error_ui;
use egui::text::LayoutJob;
use egui::{Color32, FontId, RichText, TextFormat, Ui};
use gl::{ShaderSource, shaders};

/// The colour of the skinning lines in the shader listing.
pub(super) const HIGHLIGHT: Color32 = Color32::from_rgb(200, 80, 20);

/// Every file a skinning path's vertex shader is joined from; any of them can be set
/// beside the one shown (`beside=` names it without its extension).
pub const FILES: [ShaderSource; 6] = [
    shaders::JOINTS_FLOAT,
    shaders::JOINTS_INT,
    shaders::BLEND_LBS,
    shaders::BLEND_TEXTURE,
    shaders::BLEND_DQS,
    shaders::SKIN_VERT,
];

/// [`FILES`] as `beside=` names them.
pub const FILE_NAMES: [&str; 6] = [
    "joints_float",
    "joints_int",
    "blend_lbs",
    "blend_texture",
    "blend_dqs",
    "skin_vert",
];

/// Which lines of a shader file the listing highlights: the code (not the comments)
/// inside ANCHOR regions (the blend function, the texel reads, the index attribute, what
/// becomes of `w`), and in the shared main the lines that call the blend or use its
/// matrix.
/// The anchor `whole` wraps a file the book shows whole; it marks no lines.
pub fn highlighted_lines(source: &str) -> Vec<bool> {
    let mut inside = 0usize;
    let whole = |line: &str| line.trim_end().ends_with(": whole");
    source
        .lines()
        .map(|line| {
            if whole(line) {
                false
            } else if line.contains("ANCHOR_END:") {
                inside = inside.saturating_sub(1);
                false
            } else if line.contains("ANCHOR:") {
                inside += 1;
                false
            } else {
                let code = !line.trim().starts_with("//");
                code && (inside > 0
                    || line.contains("skin_matrix(a_joints")
                    || line.contains("blended_matrix *"))
            }
        })
        .collect()
}

/// Whether a line is the book's include marker, which the listing leaves out.
fn marker(line: &str) -> bool {
    line.contains("ANCHOR:") || line.contains("ANCHOR_END:")
}

/// Whether a line is prose, not code: blank, or a comment.
fn prose(line: &str) -> bool {
    let line = line.trim();
    line.is_empty() || line.starts_with("//")
}

/// The lines two files share, as pairs of line numbers (from 0), in order: a longest
/// common subsequence of their lines compared with their spaces trimmed. Comments are
/// never shared: they say what each file is for, and a comment line held level with
/// its twin would open a gap in the middle of the comment around it.
fn shared_lines(a: &[&str], b: &[&str]) -> Vec<(usize, usize)> {
    let same = |i: usize, j: usize| a[i] == b[j] && !a[i].starts_with("//");
    // common[i][j]: the longest common subsequence of a[i..] and b[j..].
    let mut common = vec![vec![0u16; b.len() + 1]; a.len() + 1];
    for i in (0..a.len()).rev() {
        for j in (0..b.len()).rev() {
            common[i][j] = if same(i, j) {
                common[i + 1][j + 1] + 1
            } else {
                common[i + 1][j].max(common[i][j + 1])
            };
        }
    }
    let mut shared = Vec::new();
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        if same(i, j) {
            shared.push((i, j));
            (i, j) = (i + 1, j + 1);
        } else if common[i + 1][j] >= common[i][j + 1] {
            i += 1;
        } else {
            j += 1;
        }
    }
    shared
}

/// A file's lines without the book's include markers, trimmed, and where each sits in
/// the file (from 0).
fn unmarked_lines(text: &str) -> (Vec<usize>, Vec<&str>) {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !marker(l))
        .map(|(i, l)| (i, l.trim()))
        .unzip()
}

/// A window narrower than this, in points (a phone held upright), lists two files one
/// above the other: side by side each would have a column of about 25 characters.
const STACKED_BELOW: f32 = 500.0;

/// The rows of a file listed alone, one line each; the book's include markers take no
/// row.
fn alone_rows(text: &str) -> Vec<Row> {
    unmarked_lines(text)
        .0
        .into_iter()
        .map(|i| [Some(i), None])
        .collect()
}

/// One row of a listing, or of two set side by side: the line of each side on it
/// (from 0), or none where that side has nothing there.
pub type Row = [Option<usize>; 2];

/// Two files compared line by line, their spaces trimmed and the book's include
/// markers left out, through one longest common subsequence of their lines.
pub struct Comparison {
    /// Each line the two share on one row, and between two shared lines each side's
    /// own lines paired row by row, so that what matches sits level across the gap.
    /// The markers take no row.
    pub rows: Vec<Row>,
    /// Per line of each file, whether the other lacks it. Blank lines and comments
    /// never count as changed: comments say what each file is for and always differ.
    pub changed: [Vec<bool>; 2],
}

impl Comparison {
    /// Compares file `a` with file `b`.
    pub fn of(a: &str, b: &str) -> Self {
        let ((at_a, a_lines), (at_b, b_lines)) = (unmarked_lines(a), unmarked_lines(b));
        let shared = shared_lines(&a_lines, &b_lines);
        let mut rows = Vec::new();
        let (mut i, mut j) = (0, 0);
        let ends = std::iter::once((a_lines.len(), b_lines.len()));
        // Between two shared lines, each side's own comments (and blank lines) first,
        // level with the other's, then its own code, row by row: code beside code.
        for (si, sj) in shared.iter().copied().chain(ends) {
            let (pa, pb) = (
                a_lines[i..si].iter().take_while(|l| prose(l)).count(),
                b_lines[j..sj].iter().take_while(|l| prose(l)).count(),
            );
            for (from, to) in [((i, j), (i + pa, j + pb)), ((i + pa, j + pb), (si, sj))] {
                for k in 0..(to.0 - from.0).max(to.1 - from.1) {
                    let side = |from: usize, to: usize, at: &[usize]| {
                        (from + k < to).then(|| at[from + k])
                    };
                    rows.push([side(from.0, to.0, &at_a), side(from.1, to.1, &at_b)]);
                }
            }
            if si < a_lines.len() {
                rows.push([Some(at_a[si]), Some(at_b[sj])]);
            }
            (i, j) = (si + 1, sj + 1);
        }
        // Code lines outside the shared ones are changed; markers never are.
        let changed = |text: &str, at: &[usize], lines: &[&str], shared: Vec<bool>| {
            let mut changed = vec![false; text.lines().count()];
            for ((&line, text), shared) in at.iter().zip(lines).zip(shared) {
                changed[line] = !shared && !prose(text);
            }
            changed
        };
        let (mut in_a, mut in_b) = (vec![false; a_lines.len()], vec![false; b_lines.len()]);
        for (si, sj) in shared {
            (in_a[si], in_b[sj]) = (true, true);
        }
        Self {
            rows,
            changed: [
                changed(a, &at_a, &a_lines, in_a),
                changed(b, &at_b, &b_lines, in_b),
            ],
        }
    }
}

/// For two listings, which lines of each the other does not have
/// ([`Comparison::changed`]).
pub fn changed_lines(a: &str, b: &str) -> (Vec<bool>, Vec<bool>) {
    let [in_a, in_b] = Comparison::of(a, b).changed;
    (in_a, in_b)
}

/// The colours of a listing, chosen so every text colour reads at 4.5:1 or better on
/// every background it is drawn on (the contrast WCAG asks of body text).
#[derive(Clone, Copy, Debug)]
pub struct ListingColors {
    /// The listing's background.
    pub background: Color32,
    /// Plain lines.
    pub text: Color32,
    /// The skinning lines.
    pub skinning: Color32,
    /// The background of a line the file beside does not have.
    pub changed: Color32,
    /// The bar in the margin of such a line.
    pub changed_bar: Color32,
    /// The bar in the margin of the line a link points at (`line=`).
    pub pointed_bar: Color32,
}

impl ListingColors {
    /// The colours for a dark or a light theme.
    pub fn new(dark: bool) -> Self {
        if dark {
            Self {
                background: Color32::from_gray(24),
                text: crate::ui::code_text_color(true),
                skinning: Color32::from_rgb(255, 160, 90),
                changed: Color32::from_rgb(52, 44, 92),
                changed_bar: Color32::from_rgb(250, 200, 60),
                pointed_bar: Color32::from_rgb(90, 170, 255),
            }
        } else {
            Self {
                background: Color32::from_gray(248),
                text: crate::ui::code_text_color(false),
                skinning: Color32::from_rgb(160, 60, 0),
                changed: Color32::from_rgb(255, 236, 170),
                changed_bar: Color32::from_rgb(200, 120, 0),
                pointed_bar: Color32::from_rgb(0, 90, 200),
            }
        }
    }
}

/// How tall a listing may grow before it scrolls, in points (in the notebook).
pub const LISTING_HEIGHT: f32 = 480.0;
/// Lines of a listing kept above its first marked line when it scrolls there.
const CONTEXT_LINES: usize = 2;
/// The type size of a listing in the notebook, in points.
const NOTEBOOK_SIZE: f32 = 14.0;
/// The size of two listings side by side in the notebook.
const BESIDE_SIZE: f32 = 12.0;
/// The least type size of a focused listing, as a share of the window's height: text
/// a hall can read.
pub const FOCUSED_FLOOR: f32 = 0.025;
/// The width of the margin before each line, where a bar marks it.
const MARGIN: f32 = 8.0;

/// One side of a listing: its file and, per line, whether it is marked as changed.
struct Side<'a> {
    source: &'a ShaderSource,
    changed: Option<Vec<bool>>,
}

/// What a listing does besides drawing: where it scrolls and what it marks.
struct Listing<'a> {
    salt: &'a str,
    /// Scroll once to the first changed line (a new pair of files).
    to_first_change: bool,
    /// The line of the first side a link points at, and whether to scroll to it.
    pointed: Option<(usize, bool)>,
    /// Focused: the type fits the longest line to the width, down to a floor, and the
    /// opening comment folds away until `header_open`.
    focused: bool,
    header_open: &'a mut bool,
}

/// The rows before the first line of code of any side: the files' opening comments.
/// A comment of another side that runs on past them is not cut: the fold ends where it
/// starts, so it shows whole. No side's code is folded away (the file beside may
/// declare something on a row where the first has a blank line).
fn header_rows(rows: &[Row], lines: &[Vec<&str>]) -> usize {
    let comment = |side: usize, row: &Row| {
        row.get(side)
            .copied()
            .flatten()
            .is_some_and(|i| lines[side][i].trim().starts_with("//"))
    };
    let mut folded = rows
        .iter()
        .take_while(|row| {
            (0..lines.len()).all(|side| {
                row.get(side)
                    .copied()
                    .flatten()
                    .is_none_or(|i| prose(lines[side][i]))
            })
        })
        .count();
    while folded > 0
        && folded < rows.len()
        && (1..lines.len())
            .any(|side| comment(side, &rows[folded - 1]) && comment(side, &rows[folded]))
    {
        folded -= 1;
    }
    folded
}

/// The rows from `from` in groups drawn as one: a run of two or more rows that hold
/// only comments and blank lines on every side is one group, each other row a group
/// of its own.
fn prose_groups(rows: &[Row], lines: &[Vec<&str>], from: usize) -> Vec<std::ops::Range<usize>> {
    let all_prose =
        |row: &Row| (0..lines.len()).all(|side| row[side].is_none_or(|i| prose(lines[side][i])));
    let mut groups: Vec<std::ops::Range<usize>> = Vec::new();
    for r in from..rows.len() {
        match groups.last_mut() {
            Some(last)
                if all_prose(&rows[r]) && all_prose(&rows[last.start]) && lines.len() > 1 =>
            {
                last.end = r + 1;
            }
            _ => groups.push(r..r + 1),
        }
    }
    groups
}

/// One listing, or two side by side with their shared lines level, in a frame that
/// scrolls: the skinning lines in colour, changed lines on a marked background with a
/// bar in the margin. Returns whether it scrolled to the line pointed at.
fn listing_ui(ui: &mut Ui, sides: &[Side<'_>], rows: &[Row], listing: Listing<'_>) -> bool {
    let colors = ListingColors::new(ui.visuals().dark_mode);
    let lines: Vec<Vec<&str>> = sides
        .iter()
        .map(|s| s.source.text.lines().collect())
        .collect();
    let hot: Vec<Vec<bool>> = sides
        .iter()
        .map(|s| highlighted_lines(s.source.text))
        .collect();
    let gap = ui.spacing().item_spacing.x * 2.0;
    let n = sides.len().max(1) as f32;
    let column = ((ui.available_width() - 12.0 - gap * (n - 1.0)) / n).max(40.0);
    // Rows a focused listing folds: the first side's opening comment.
    let folded = if listing.focused && !*listing.header_open {
        header_rows(rows, &lines)
    } else {
        0
    };
    let size = if listing.focused {
        // The longest line shown, across the column, down to the floor.
        let longest = rows[folded..]
            .iter()
            .flat_map(|row| {
                row.iter()
                    .zip(&lines)
                    .filter_map(|(i, side)| Some(side[(*i)?]))
            })
            .map(|l| l.chars().count())
            .max()
            .unwrap_or(1)
            .max(20);
        let probe = FontId::monospace(10.0);
        let per_point = ui.fonts_mut(|f| f.glyph_width(&probe, '0')) / 10.0;
        let floor = FOCUSED_FLOOR * ui.ctx().content_rect().height();
        // A screen many points high (a 4K window before its zoom applies) may put the
        // floor above the ceiling: the floor wins.
        // On a narrow screen (a phone) the floor gives way where it would leave a
        // column fewer than 36 characters: a broken line is harder to read than a
        // small one.
        let floor = floor.min((column - MARGIN) / (36.0 * per_point));
        ((column - MARGIN) / (longest as f32 * per_point))
            .min(2.0 * NOTEBOOK_SIZE)
            .max(floor)
    } else if sides.len() > 1 {
        // Two files side by side in the notebook's column: a size smaller, so fewer
        // lines break.
        BESIDE_SIZE
    } else {
        NOTEBOOK_SIZE
    };
    let font = FontId::monospace(size);
    // The characters a column holds: a longer line breaks at a space and hangs under
    // its own start.
    let per_char = ui.fonts_mut(|f| f.glyph_width(&font, '0')).max(1.0);
    let fits = ((column - MARGIN) / per_char - 1.0).floor().max(8.0) as usize;
    let mut scrolled_to_line = false;
    egui::Frame::new()
        .fill(colors.background)
        .inner_margin(6.0)
        .show(ui, |ui| {
            ui.set_width(ui.available_width());
            // As tall as the file, up to LISTING_HEIGHT, wherever the notebook has
            // scrolled: left alone, a scroll area inside another gets only the room
            // left on the notebook's first screen, and deep in a page that is none.
            // Focused, the listing takes the rest of the screen.
            let clip = ui.clip_rect();
            let room = clip.bottom() - ui.cursor().top() - 12.0;
            let height = if listing.focused {
                room.max(0.5 * clip.height())
            } else {
                (room - 44.0).max(0.5 * clip.height()).min(LISTING_HEIGHT)
            };
            egui::ScrollArea::vertical()
                .id_salt((sides[0].source.path, listing.salt))
                .max_height(height)
                .min_scrolled_height(height)
                .show_viewport(ui, |ui, viewport| {
                    let visible = viewport.translate(ui.max_rect().min.to_vec2());
                    ui.spacing_mut().item_spacing.y = 0.0;
                    if folded > 0 {
                        let text =
                            format!("▸ the file's opening comment, {folded} lines (click to show)");
                        let label = RichText::new(text).font(font.clone()).color(colors.text);
                        if ui
                            .add(egui::Label::new(label).sense(egui::Sense::click()))
                            .clicked()
                        {
                            *listing.header_open = true;
                        }
                    }
                    let mut first_change = None;
                    let mut pointed_row = None;
                    // Draws line `line` of side `s` in its column; returns whether it
                    // is changed and whether a link points at it.
                    let line_ui = |ui: &mut Ui, s: usize, line: Option<usize>| {
                        let side = &sides[s];
                        let changed = line.is_some_and(|i| {
                            side.changed.as_ref().and_then(|c| c.get(i)) == Some(&true)
                        });
                        let pointed =
                            s == 0 && line.is_some() && listing.pointed.map(|(p, _)| p) == line;
                        let text = line.map_or(" ", |i| {
                            if lines[s][i].is_empty() {
                                " "
                            } else {
                                lines[s][i]
                            }
                        });
                        let color = if line.is_some_and(|i| hot[s][i]) {
                            colors.skinning
                        } else {
                            colors.text
                        };
                        let shown = crate::ui::listing::hung(text, fits);
                        let mut job = LayoutJob::default();
                        job.append(
                            &shown,
                            0.0,
                            TextFormat {
                                font_id: font.clone(),
                                color,
                                ..Default::default()
                            },
                        );
                        job.wrap.max_width = column - MARGIN;
                        // The line, wrapped within its column, over its background, with
                        // a bar in the margin when marked.
                        let galley = ui.fonts_mut(|f| f.layout_job(job));
                        let (rect, cell) = ui.allocate_exact_size(
                            egui::vec2(column, galley.size().y),
                            egui::Sense::hover(),
                        );
                        // The line is text to a screen reader (and to tests).
                        let said = text.to_owned();
                        cell.widget_info(|| {
                            egui::WidgetInfo::labeled(egui::Role::Label, true, &said)
                        });
                        let bar = egui::Rect::from_min_size(
                            rect.min,
                            egui::vec2(MARGIN * 0.5, rect.height()),
                        );
                        let painter = ui.painter();
                        if changed {
                            painter.rect_filled(rect, 0.0, colors.changed);
                            painter.rect_filled(bar, 0.0, colors.changed_bar);
                        }
                        if pointed {
                            painter.rect_filled(bar, 0.0, colors.pointed_bar);
                        }
                        painter.galley(rect.min + egui::vec2(MARGIN, 0.0), galley, colors.text);
                        (changed, pointed)
                    };
                    for group in prose_groups(rows, &lines, folded) {
                        let r = group.start;
                        let drawn = ui.horizontal_top(|ui| {
                            ui.spacing_mut().item_spacing.x = gap;
                            for s in 0..sides.len() {
                                // A run of comments and blank lines: each side's lines
                                // one under another, so a comment that wraps to more
                                // lines than the one beside it leaves no gap inside
                                // the other.
                                let marks = ui
                                    .allocate_ui_with_layout(
                                        egui::vec2(column, 0.0),
                                        egui::Layout::top_down(egui::Align::Min),
                                        |ui| {
                                            ui.set_width(column);
                                            let mut seen: Vec<(bool, bool)> = Vec::new();
                                            let shown: Vec<Option<usize>> = if group.len() == 1 {
                                                vec![rows[r][s]]
                                            } else {
                                                rows[group.clone()]
                                                    .iter()
                                                    .filter_map(|row| row[s])
                                                    .map(Some)
                                                    .collect()
                                            };
                                            for line in shown {
                                                seen.push(line_ui(ui, s, line));
                                            }
                                            seen
                                        },
                                    )
                                    .inner;
                                for (changed, pointed) in marks {
                                    if changed && first_change.is_none() {
                                        first_change = Some(r);
                                    }
                                    if pointed {
                                        pointed_row = Some(r);
                                    }
                                }
                            }
                        });
                        if first_change == Some(r) || pointed_row == Some(r) {
                            let rect = drawn.response.rect;
                            let in_view =
                                visible.top() <= rect.top() && rect.bottom() <= visible.bottom();
                            let above = egui::Rect::from_min_size(
                                rect.min - egui::vec2(0.0, CONTEXT_LINES as f32 * rect.height()),
                                rect.size(),
                            );
                            let wanted = (pointed_row == Some(r)
                                && listing.pointed.is_some_and(|(_, go)| go))
                                || (first_change == Some(r)
                                    && listing.to_first_change
                                    && listing.pointed.is_none());
                            if wanted && !in_view {
                                ui.scroll_to_rect_animation(
                                    above.union(rect),
                                    Some(egui::Align::TOP),
                                    egui::style::ScrollAnimation::none(),
                                );
                            }
                            if pointed_row == Some(r) {
                                scrolled_to_line = true;
                            }
                        }
                    }
                });
        });
    scrolled_to_line
}

/// How many frames a new pair of listings keeps its first difference in view.
const FIRST_CHANGE_FRAMES: u8 = 12;

impl GpuPage {
    /// The files of the vertex shader in use, in the order the loader joins them.
    pub fn shader_files(&self) -> [ShaderSource; 3] {
        let joints = match self.indices {
            scene::JointIndices::Float => shaders::JOINTS_FLOAT,
            scene::JointIndices::Int => shaders::JOINTS_INT,
        };
        let blend = match self.effective_storage() {
            super::Storage::Uniform => shaders::BLEND_LBS,
            super::Storage::Texture => shaders::BLEND_TEXTURE,
        };
        [joints, blend, shaders::SKIN_VERT]
    }

    /// The file set beside the one shown, if any and if it is another file.
    pub fn beside_file(&self) -> Option<ShaderSource> {
        let shown = self.shader_files()[self.file.min(2)];
        self.beside
            .and_then(|i| FILES.get(i).copied())
            .filter(|f| f.path != shown.path)
    }

    pub(super) fn source_cell_ui(&mut self, ui: &mut Ui) {
        let files = self.shader_files();
        self.file = self.file.min(files.len() - 1);
        ui.horizontal_wrapped(|ui| {
            for (i, file) in files.iter().enumerate() {
                let name = file.path.trim_start_matches("shaders/");
                if ui.selectable_label(self.file == i, name).clicked() {
                    self.file = i;
                }
            }
        });
        let shown = files[self.file].path;
        let name = |i: Option<usize>| {
            i.and_then(|i| FILES.get(i))
                .map_or("nothing", |f| f.path.trim_start_matches("shaders/"))
        };
        egui::ComboBox::from_label("set beside it")
            .selected_text(name(self.beside))
            .show_ui(ui, |ui| {
                ui.selectable_value(&mut self.beside, None, "nothing");
                for i in (0..FILES.len()).filter(|i| FILES[*i].path != shown) {
                    ui.selectable_value(&mut self.beside, Some(i), name(Some(i)));
                }
            });
        ui.label(RichText::new(format!(
            "The loader joins {} after the #version line. Skinning lines in colour; \
                 beside another file, the code lines the two do not share are marked \
                 (comments are not).",
            files.map(|f| f.path).join(" + ")
        )));
        let shown = files[self.file];
        let other = self.beside_file();
        // A new pair opens at its first difference (a link's too); the same pair is
        // left where the reader scrolled it.
        let pair = other.map(|other| (shown.path, other.path));
        if pair.is_some() && pair != self.listed_pair {
            self.first_change_frames = FIRST_CHANGE_FRAMES;
        }
        let to_first_change = self.first_change_frames > 0;
        self.first_change_frames = self.first_change_frames.saturating_sub(1);
        if to_first_change {
            ui.ctx().request_repaint();
        }
        self.listed_pair = pair;
        let count = shown.text.lines().count();
        if let Some(line) = self.line
            && line > count
        {
            error_ui(
                ui,
                format!(
                    "line={line} is past the end of {}, which has {count} lines.",
                    shown.path
                ),
            );
        }
        let focused = crate::ui::focused_cell(ui.ctx());
        let pointed = self.line.map(|l| (l - 1, !self.line_shown));
        let (sides, rows, salt) = match other {
            None => (
                vec![Side {
                    source: &shown,
                    changed: None,
                }],
                alone_rows(shown.text),
                "alone",
            ),
            Some(ref other) if ui.ctx().content_rect().width() < STACKED_BELOW => {
                // A phone's column is too narrow for two files: one above the other,
                // each whole, with the lines the other lacks marked.
                let Comparison {
                    changed: [left, right],
                    ..
                } = Comparison::of(shown.text, other.text);
                for (i, (file, changed)) in [(&shown, left), (other, right)].into_iter().enumerate()
                {
                    ui.label(RichText::new(file.path).monospace().strong());
                    let rows = alone_rows(file.text);
                    let side = Side {
                        source: file,
                        changed: Some(changed),
                    };
                    let first = i == 0;
                    let scrolled = listing_ui(
                        ui,
                        &[side],
                        &rows,
                        Listing {
                            salt: if first { "stacked" } else { "stacked_beside" },
                            to_first_change: to_first_change && first,
                            pointed: pointed.filter(|_| first),
                            focused,
                            header_open: &mut self.header_open,
                        },
                    );
                    self.line_shown |= scrolled;
                }
                return;
            }
            Some(ref other) => {
                // One comparison gives both the rows and the marks.
                let Comparison {
                    rows,
                    changed: [left, right],
                } = Comparison::of(shown.text, other.text);
                let files = [&shown, other];
                crate::ui::columns_ui(ui, 2, |i, ui| {
                    ui.label(RichText::new(files[i].path).monospace().strong());
                });
                (
                    vec![
                        Side {
                            source: &shown,
                            changed: Some(left),
                        },
                        Side {
                            source: other,
                            changed: Some(right),
                        },
                    ],
                    rows,
                    "beside",
                )
            }
        };
        let scrolled = listing_ui(
            ui,
            &sides,
            &rows,
            Listing {
                salt,
                to_first_change,
                pointed,
                focused,
                header_open: &mut self.header_open,
            },
        );
        self.line_shown |= scrolled;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ui::contrast;

    #[test]
    fn the_fold_keeps_every_sides_code_in_view() {
        // Side 0: two comment lines, a blank, code. Side 1: one comment line, then a
        // declaration on the row where side 0 is blank.
        let lines = vec![
            vec!["// one", "// two", "", "void main() {}"],
            vec!["// one", "uniform vec4 u_dq_real[4];", "void main() {}"],
        ];
        let rows: Vec<Row> = vec![
            [Some(0), Some(0)],
            [Some(1), None],
            [Some(2), Some(1)],
            [Some(3), Some(2)],
        ];
        assert_eq!(header_rows(&rows, &lines), 2, "the declaration's row stays");
        let alone = vec![lines[0].clone()];
        let rows: Vec<Row> = (0..4).map(|i| [Some(i), None]).collect();
        assert_eq!(
            header_rows(&rows, &alone),
            3,
            "one file: its comment and blank"
        );
    }

    #[test]
    fn every_listing_text_reads_at_four_and_a_half_to_one_on_every_background() {
        for dark in [true, false] {
            let c = ListingColors::new(dark);
            for text in [c.text, c.skinning] {
                for background in [c.background, c.changed] {
                    let ratio = contrast(text, background);
                    assert!(
                        ratio >= 4.5,
                        "dark {dark}: {text:?} on {background:?} is {ratio:.2}:1"
                    );
                }
            }
        }
        // The check can fail: the old orange on olive (a tint of (90, 70, 0) at 27%
        // over the code background, gray 64), about 1:1.
        let olive = Color32::from_rgb(136, 116, 46);
        assert!(contrast(HIGHLIGHT, olive) < 1.5);
    }

    #[test]
    fn shared_lines_sit_level_and_each_sides_own_lines_pair_up() {
        let a = "head\none\nx = 1;\ntail";
        let b = "head\ny = 2;\nz = 3;\n  tail\nmore";
        let n = None;
        assert_eq!(
            Comparison::of(a, b).rows,
            [
                [Some(0), Some(0)],
                [Some(1), Some(1)],
                [Some(2), Some(2)],
                [Some(3), Some(3)],
                [n, Some(4)],
            ]
        );
        // The LBS and DQS blends: every shared line of code level, each line once.
        let (lbs, dqs) = (shaders::BLEND_LBS.text, shaders::BLEND_DQS.text);
        let rows = Comparison::of(lbs, dqs).rows;
        let (l, d): (Vec<&str>, Vec<&str>) = (
            lbs.lines().map(str::trim).collect(),
            dqs.lines().map(str::trim).collect(),
        );
        for (side, text) in [lbs, dqs].into_iter().enumerate() {
            let seen: Vec<usize> = rows.iter().filter_map(|r| r[side]).collect();
            let (kept, _) = unmarked_lines(text);
            assert_eq!(
                seen, kept,
                "side {side}: each line but the markers once, in order"
            );
            assert!(kept.len() < text.lines().count(), "the file has markers");
        }
        assert!(
            rows.iter()
                .any(|r| matches!(r, [Some(i), Some(j)] if l[*i] == d[*j] && !l[*i].is_empty()))
        );
    }

    #[test]
    fn a_run_of_comments_beside_comments_is_drawn_as_one_group() {
        let lines = vec![
            vec!["// a", "// b", "code();", "// c"],
            vec!["// x", "", "// y", "code();", "other();"],
        ];
        let rows: Vec<Row> = vec![
            [Some(0), Some(0)],
            [Some(1), Some(1)],
            [None, Some(2)],
            [Some(2), Some(3)],
            [Some(3), Some(4)],
        ];
        assert_eq!(prose_groups(&rows, &lines, 0), [0..3, 3..4, 4..5]);
        assert_eq!(prose_groups(&rows, &lines, 1), [1..3, 3..4, 4..5]);
        let alone = vec![lines[0].clone()];
        let rows: Vec<Row> = (0..4).map(|i| [Some(i), None]).collect();
        assert_eq!(
            prose_groups(&rows, &alone, 0).len(),
            4,
            "one file: a row each"
        );
    }

    #[test]
    fn no_gap_splits_a_sides_comment() {
        // Every pair of shader files set side by side: where two lines of one side
        // that follow each other are both comments, no gap row falls between them.
        for a in shaders::ALL {
            for b in shaders::ALL {
                let rows = Comparison::of(a.text, b.text).rows;
                for (side, text) in [a.text, b.text].into_iter().enumerate() {
                    let lines: Vec<&str> = text.lines().map(str::trim).collect();
                    let mut last: Option<usize> = None;
                    let mut gap = false;
                    for row in &rows {
                        match row[side] {
                            None => gap = true,
                            Some(i) => {
                                if let Some(l) = last {
                                    assert!(
                                        !(gap
                                            && lines[l].starts_with("//")
                                            && lines[i].starts_with("//")),
                                        "{} beside {}: a gap splits side {side}'s comment at \
                                         line {}",
                                        a.path,
                                        b.path,
                                        i + 1
                                    );
                                }
                                (last, gap) = (Some(i), false);
                            }
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn only_the_lines_one_side_lacks_are_changed() {
        let a = "one\n  two\nthree\n\nfour\n// a note";
        let b = "one\ntwo\nTHREE\n\nfour\nfive\n// another";
        let (in_a, in_b) = changed_lines(a, b);
        assert_eq!(in_a, [false, false, true, false, false, false]);
        assert_eq!(in_b, [false, false, true, false, false, true, false]);
        let (same, _) = changed_lines(a, a);
        assert!(same.iter().all(|c| !c));
    }

    #[test]
    fn the_two_matrix_paths_differ_in_how_they_fetch_not_in_how_they_blend() {
        let (lbs, texture) = changed_lines(shaders::BLEND_LBS.text, shaders::BLEND_TEXTURE.text);
        let marked = |text: &str, changed: &[bool]| -> Vec<String> {
            text.lines()
                .zip(changed)
                .filter(|(_, c)| **c)
                .map(|(l, _)| l.trim().to_owned())
                .collect()
        };
        let texture_only = marked(shaders::BLEND_TEXTURE.text, &texture);
        assert!(
            texture_only.iter().any(|l| l.contains("texelFetch")),
            "{texture_only:?}"
        );
        assert!(lbs.iter().any(|c| *c) && !lbs.iter().all(|c| *c));
    }
}
