//! The shader listing: the files of the vertex shader in use, and beside one of them
//! another path's file with the lines that differ marked.

use super::GpuPage;
use egui::text::LayoutJob;
use egui::{Color32, FontId, RichText, TextFormat, Ui};
use gl::{ShaderSource, shaders};

/// The colour of the skinning lines in the shader listing.
pub(super) const HIGHLIGHT: Color32 = Color32::from_rgb(200, 80, 20);
/// The background of a line that the file beside does not have.
const CHANGED: Color32 = Color32::from_rgba_premultiplied(90, 70, 0, 70);

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
                    || line.contains("world_from_bind *"))
            }
        })
        .collect()
}

/// Whether a line is the book's include marker, which the listing leaves out.
fn marker(line: &str) -> bool {
    line.contains("ANCHOR:") || line.contains("ANCHOR_END:")
}

/// For two listings, which lines of each the other does not have: the lines outside a
/// longest common subsequence of the two, compared with their spaces trimmed. Blank
/// lines and comments never count as changed.
pub fn changed_lines(a: &str, b: &str) -> (Vec<bool>, Vec<bool>) {
    let a: Vec<&str> = a.lines().map(str::trim).collect();
    let b: Vec<&str> = b.lines().map(str::trim).collect();
    // common[i][j]: the longest common subsequence of a[i..] and b[j..].
    let mut common = vec![vec![0u16; b.len() + 1]; a.len() + 1];
    for i in (0..a.len()).rev() {
        for j in (0..b.len()).rev() {
            common[i][j] = if a[i] == b[j] {
                common[i + 1][j + 1] + 1
            } else {
                common[i + 1][j].max(common[i][j + 1])
            };
        }
    }
    let (mut in_a, mut in_b) = (vec![true; a.len()], vec![true; b.len()]);
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        if a[i] == b[j] {
            (in_a[i], in_b[j]) = (false, false);
            (i, j) = (i + 1, j + 1);
        } else if common[i + 1][j] >= common[i][j + 1] {
            i += 1;
        } else {
            j += 1;
        }
    }
    // Comments say what each file is for and always differ: only code is marked.
    let blank = |lines: &[&str], changed: Vec<bool>| {
        changed
            .into_iter()
            .zip(lines)
            .map(|(c, l)| c && !l.is_empty() && !l.starts_with("//"))
            .collect()
    };
    (blank(&a, in_a), blank(&b, in_b))
}

/// How tall a listing may grow before it scrolls, in points.
pub const LISTING_HEIGHT: f32 = 480.0;
/// Lines of a listing kept above its first marked line when it scrolls there.
const CONTEXT_LINES: usize = 2;

/// One listing in a frame that scrolls: the skinning lines in colour, and the lines in
/// `changed` (one flag per line of `source`) on a marked background. Each line is its
/// own label. With `to_first_change`, a first marked line out of view is scrolled to,
/// a couple of lines below the listing's top; it is asked for once when the pair of
/// files changes, so the reader can scroll away afterwards.
fn listing_ui(
    ui: &mut Ui,
    source: &ShaderSource,
    changed: Option<&[bool]>,
    salt: &str,
    to_first_change: bool,
) {
    let font = FontId::monospace(14.0);
    let plain = ui.visuals().text_color();
    let hot = highlighted_lines(source.text);
    egui::Frame::new()
        .fill(ui.visuals().code_bg_color)
        .inner_margin(6.0)
        .show(ui, |ui| {
            ui.set_width(ui.available_width());
            // As tall as the file, up to LISTING_HEIGHT, wherever the notebook has
            // scrolled: left alone, a scroll area inside another gets only the room
            // left on the notebook's first screen, and deep in a page that is none.
            // Where the rest of the screen is shorter (a focused cell on a projector),
            // the listing ends above the screen's bottom, with room for the note
            // under it, but is never less than half the screen.
            let clip = ui.clip_rect();
            let room = clip.bottom() - ui.cursor().top() - 56.0;
            let height = room.max(0.5 * clip.height()).min(LISTING_HEIGHT);
            egui::ScrollArea::vertical()
                .id_salt((source.path, salt))
                .max_height(height)
                .min_scrolled_height(height)
                .show_viewport(ui, |ui, viewport| {
                    // What the listing shows now, where the lines are drawn.
                    let visible = viewport.translate(ui.max_rect().min.to_vec2());
                    // Left-aligned even in a column, which would justify the lines.
                    ui.with_layout(egui::Layout::top_down(egui::Align::Min), |ui| {
                        // The lines sit as close as in one block of text.
                        ui.spacing_mut().item_spacing.y = 0.0;
                        // Where each line shown was drawn, and the first marked one.
                        let mut rows: Vec<egui::Rect> = Vec::new();
                        let mut first_change = None;
                        for (i, line) in source.text.lines().enumerate() {
                            // The book's include markers are for the book, not the
                            // reader of the shader.
                            if marker(line) {
                                continue;
                            }
                            let marked = changed.and_then(|c| c.get(i)) == Some(&true);
                            let format = TextFormat {
                                font_id: font.clone(),
                                color: if hot[i] { HIGHLIGHT } else { plain },
                                background: if marked {
                                    CHANGED
                                } else {
                                    Color32::TRANSPARENT
                                },
                                ..Default::default()
                            };
                            // A blank line keeps its height.
                            let text = if line.is_empty() { " " } else { line };
                            let mut job = LayoutJob::default();
                            job.append(text, 0.0, format);
                            // Long comment lines wrap: nothing is cut off on the right,
                            // on a projector either.
                            let response = ui.add(egui::Label::new(job).wrap());
                            if marked && first_change.is_none() {
                                first_change = Some(rows.len());
                            }
                            rows.push(response.rect);
                        }
                        // Already in view, it stays put: the file's opening lines
                        // say what the file is for.
                        let in_view = |row: egui::Rect| {
                            visible.top() <= row.top() && row.bottom() <= visible.bottom()
                        };
                        if to_first_change
                            && let Some(k) = first_change
                            && !in_view(rows[k])
                        {
                            let top = rows[k.saturating_sub(CONTEXT_LINES)];
                            ui.scroll_to_rect(top.union(rows[k]), Some(egui::Align::TOP));
                        }
                    })
                });
        });
}

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
        ui.label(
            RichText::new(format!(
                "The loader joins {} after the #version line. Skinning lines in colour; \
                 beside another file, the lines the two do not share are marked.",
                files.map(|f| f.path).join(" + ")
            ))
            .small(),
        );
        let shown = files[self.file];
        let other = self.beside_file();
        // A new pair opens at its first difference (a link's too); the same pair is
        // left where the reader scrolled it.
        let pair = other.map(|other| (shown.path, other.path));
        let to_first_change = pair.is_some() && pair != self.listed_pair;
        self.listed_pair = pair;
        match other {
            None => listing_ui(ui, &shown, None, "alone", false),
            Some(other) => {
                let (left, right) = changed_lines(shown.text, other.text);
                ui.columns(2, |columns| {
                    let sides = [(shown, left), (other, right)];
                    for (ui, (file, changed)) in columns.iter_mut().zip(sides) {
                        ui.label(RichText::new(file.path).monospace().strong());
                        listing_ui(ui, &file, Some(&changed), "beside", to_first_change);
                    }
                });
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
