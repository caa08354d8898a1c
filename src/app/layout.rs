//! Focus, zoom and the divider: how much of the window the viewport, the notebook and a
//! focused cell take.

use super::*;

/// The divider between the notebook and the viewport.
pub(super) struct Split {
    /// The viewport's share of the page's width.
    pub(super) share: f32,
    /// A link or the app moved the divider: it goes there on the next frame.
    pub(super) moved: bool,
    /// The page's width in points when the divider was last placed.
    pub(super) width: f32,
    /// The least share the divider can be dragged or pushed to.
    pub(super) least: f32,
}

impl Default for Split {
    fn default() -> Self {
        Self::at(DEFAULT_SPLIT, *SPLIT_RANGE.start())
    }
}

/// The share of the width a focused cell leaves the viewport beside it, at first: the
/// cell gets the larger share, as magnified its tables are wide.
pub(super) const FOCUS_SPLIT: f32 = 0.38;

/// The least a focused cell too wide for its pane leaves the viewport.
pub(super) const FOCUS_SPLIT_LEAST: f32 = 0.2;

/// The share of the height the viewport takes above a focused cell in a window too
/// narrow for the two side by side.
const FOCUS_STACKED_VIEWPORT: f32 = 0.45;

impl Split {
    /// The viewport takes `share` of the width from the next frame, and never less
    /// than `least`.
    pub(super) fn at(share: f32, least: f32) -> Self {
        Self {
            share,
            moved: true,
            width: 0.0,
            least,
        }
    }

    /// Shows `viewport` in a panel on the right, `share` of `width` points wide (at the
    /// zoom asked for; `scale` converts from the zoom of this frame). The share holds
    /// while the window or the zoom changes; a drag of the divider changes it.
    pub(super) fn show(
        &mut self,
        ui: &mut Ui,
        id: &'static str,
        width: f32,
        scale: f32,
        viewport: impl FnOnce(&mut Ui),
    ) {
        let panel = egui::Panel::right(id)
            .resizable(true)
            .size_range(width * self.least..=width * SPLIT_RANGE.end());
        let imposed = self.moved || (width - self.width).abs() > 0.5;
        let panel = if imposed {
            panel.exact_size(width * self.share)
        } else {
            panel
        };
        let shown = panel.show(ui, viewport);
        let dragged = shown.response.rect.width() * scale;
        if !imposed && (dragged - width * self.share).abs() > 0.5 {
            self.share = (dragged / width.max(1.0)).clamp(self.least, *SPLIT_RANGE.end());
        }
        self.moved = false;
        self.width = width;
    }
}

/// Keeps the focused field in view while the window changes size under it: on a
/// phone, the on-screen keyboard opening over the page (`index.html` asks the browser
/// to shrink the page for it, `interactive-widget=resizes-content`).
#[derive(Debug, Default)]
pub(super) struct FocusInView {
    /// The window's size last frame, in points.
    window: Option<egui::Vec2>,
    /// Frames left in which to bring the field into view again.
    frames: u8,
    /// Where the field was when it was last scrolled to: the field's place is the last
    /// frame's, so until it changes, the scroll asked for is not laid out yet (asking
    /// again would scroll as far again, past the field).
    asked: Option<egui::Rect>,
}

impl FocusInView {
    /// Frames after a change of size in which the field is brought into view again,
    /// while the panels settle at the new size.
    const SETTLE: u8 = 8;

    /// Last thing inside the notebook's scroll area (a scroll target set before the
    /// cells would be taken by the first scroll area among them, and one set before the
    /// notebook's by none): when the window changed size (lately) and a field of the
    /// notebook has the keyboard, scrolls it into view, as little as it takes, at once.
    pub(super) fn step(&mut self, ui: &egui::Ui) {
        let ctx = ui.ctx();
        let window = ctx.content_rect().size();
        if self.window.is_some_and(|w| w != window) {
            self.frames = Self::SETTLE;
        }
        self.window = Some(window);
        if self.frames == 0 {
            return;
        }
        self.frames -= 1;
        let field = ctx
            .memory(|m| m.focused())
            .and_then(|id| ctx.read_response(id));
        if let Some(field) = field.filter(|f| f.layer_id == ui.layer_id()) {
            let shown = ui.clip_rect().contains_rect(field.rect);
            ctx.request_repaint();
            if !shown && self.asked != Some(field.rect) {
                field.scroll_to_me_animation(None, egui::style::ScrollAnimation::none());
                self.asked = Some(field.rect);
            }
        }
    }
}

/// The zoom of each mode (the page, presenter mode), for this session and kept for the
/// next: Ctrl + and Ctrl − change this session's; keeping it makes it the next one's.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Zoom {
    now: [f32; 2],
    kept: [f32; 2],
}

impl Default for Zoom {
    fn default() -> Self {
        let start = [1.0, PRESENTER_ZOOM];
        Self {
            now: start,
            kept: start,
        }
    }
}

impl Zoom {
    /// This session's zoom of the mode (`presenter` or not).
    pub fn of(&self, presenter: bool) -> f32 {
        self.now[usize::from(presenter)]
    }

    /// Sets this session's zoom of the mode, within [`ZOOM_RANGE`]; a value that is not
    /// a number changes nothing.
    pub fn set(&mut self, presenter: bool, zoom: f32) {
        if zoom.is_finite() {
            self.now[usize::from(presenter)] = zoom.clamp(*ZOOM_RANGE.start(), *ZOOM_RANGE.end());
        }
    }

    /// Keeps this session's zoom of the mode for the next sessions.
    pub fn keep(&mut self, presenter: bool) {
        let mode = usize::from(presenter);
        self.kept[mode] = self.now[mode];
    }

    /// The zoom the next session starts the mode with.
    pub fn kept(&self, presenter: bool) -> f32 {
        self.kept[usize::from(presenter)]
    }

    /// The kept zooms (page, presenter) as stored text's numbers: `None` at the
    /// defaults, which need no line.
    pub fn stored(&self) -> Option<[f32; 2]> {
        (self.kept != Self::default().kept).then_some(self.kept)
    }

    /// Restores stored zooms for both modes, now and kept; `None` (and no change) unless
    /// both lie in [`ZOOM_RANGE`].
    pub fn restore(&mut self, zooms: [f32; 2]) -> Option<()> {
        zooms.iter().all(|z| ZOOM_RANGE.contains(z)).then(|| {
            self.now = zooms;
            self.kept = zooms;
        })
    }
}

impl SkinlabApp {
    /// The zoom of the mode on screen (presenter or not).
    pub fn zoom(&self) -> f32 {
        self.zoom.of(self.presenter)
    }

    /// Sets the zoom of the mode on screen, within [`ZOOM_RANGE`].
    pub fn set_zoom(&mut self, zoom: f32) {
        self.zoom.set(self.presenter, zoom);
    }

    /// Keeps the zoom of the mode on screen for the next sessions too (Ctrl + and
    /// Ctrl − change it for this one only).
    pub fn keep_zoom(&mut self) {
        self.zoom.keep(self.presenter);
    }

    /// The zoom the next session starts the mode on screen with.
    pub fn kept_zoom(&self) -> f32 {
        self.zoom.kept(self.presenter)
    }

    /// The share of the page's width the viewport takes beside the notebook.
    pub fn split(&self) -> f32 {
        self.split.share
    }

    /// Moves the divider between notebook and viewport so the viewport takes `share`
    /// of the width (within [`SPLIT_RANGE`]), from the next frame.
    pub fn set_split(&mut self, share: f32) {
        if share.is_finite() {
            self.split.share = share.clamp(*SPLIT_RANGE.start(), *SPLIT_RANGE.end());
            self.split.moved = true;
        }
    }

    /// How far the focused cell reached past its pane last frame (right, down), in
    /// points at the zoom asked for: zero when it is seen whole.
    pub fn focus_overflow(&self) -> egui::Vec2 {
        self.focus_overflow
    }

    /// What fills the window instead of the page, if anything: `viewport` or a cell.
    pub fn focus(&self) -> Option<&'static str> {
        self.focus
    }

    /// Shows only `target` (`viewport` or one of the page's cells), magnified; `None`
    /// shows the whole page again. A name the page does not have is refused with the
    /// valid ones.
    pub fn set_focus(&mut self, target: Option<&str>) -> Result<(), LinkError> {
        let Some(target) = target else {
            self.focus = None;
            return Ok(());
        };
        let cells = self.pages.page().cells();
        let found = std::iter::once("viewport")
            .chain(cells.iter().copied())
            .find(|c| c.eq_ignore_ascii_case(target));
        match found {
            Some(name) => {
                if self.focus != Some(name) {
                    self.focus_split = Split::at(FOCUS_SPLIT, FOCUS_SPLIT_LEAST);
                    self.focus_fit = 1.0;
                }
                self.focus = Some(name);
                Ok(())
            }
            None => Err(LinkError::BadValue {
                key: "focus".to_owned(),
                value: target.to_owned(),
                expected: format!("viewport or one of this page's cells: {}", cells.join(", ")),
            }),
        }
    }

    /// Focus mode: the viewport fills the window below the top bar, or one cell,
    /// magnified, sits beside the viewport with no prose around it.
    pub(super) fn focus_ui(&mut self, ui: &mut Ui, target: &'static str, zoom: f32) {
        crate::ui::captions_at_body_size(ui);
        let page = self.pages.page_mut();
        // In points at the zoom being asked for (see the page layout below).
        let scale = ui.ctx().zoom_factor() / zoom;
        let width = ui.available_width() * scale;
        let beside = target != "viewport" && !page.full_width(target);
        if beside && self.focus_stacked {
            // Too narrow for both side by side: the viewport above, the cell under it.
            egui::Panel::top("viewport_focus_stacked")
                .resizable(false)
                .exact_size(ui.available_height() * scale * FOCUS_STACKED_VIEWPORT)
                .show(ui, |ui| page.viewport_ui(ui));
        } else if beside {
            self.focus_split
                .show(ui, "viewport_focus", width, scale, |ui| {
                    page.viewport_ui(ui)
                });
        }
        let mut too_tall = 1.0;
        self.focus_overflow = egui::Vec2::ZERO;
        egui::CentralPanel::default().show(ui, |ui| {
            if target == "viewport" {
                page.viewport_ui(ui);
            } else {
                crate::ui::take_sideways_overflow(ui.ctx());
                let shown = egui::ScrollArea::both()
                    .id_salt(("focus", page.slug()))
                    .auto_shrink(false)
                    .show(ui, |ui| {
                        crate::ui::set_focused_cell(ui.ctx(), true);
                        page.cell_ui(target, ui);
                        crate::ui::set_focused_cell(ui.ctx(), false);
                    });
                let sideways = crate::ui::take_sideways_overflow(ui.ctx());
                too_tall = shown.content_size.y / shown.inner_rect.height().max(1.0);
                self.focus_overflow = egui::vec2(
                    (shown.content_size.x - shown.inner_rect.width()).max(sideways),
                    shown.content_size.y - shown.inner_rect.height(),
                ) * scale;
            }
        });
        // A cell taller than its pane is magnified less, down to a least magnification,
        // so a lecturer need not scroll.
        let least = FOCUS_MAGNIFY_LEAST / FOCUS_MAGNIFY;
        if too_tall > 1.001 && self.focus_fit > least && !self.focus_stacked {
            self.focus_fit = (self.focus_fit / too_tall).max(least);
            self.adjusting = true;
            ui.ctx().request_repaint();
        }
        // A cell wider than its pane takes room from the viewport, down to a least
        // share, so a lecturer need not scroll sideways.
        let too_wide = self.focus_overflow.x;
        let split = &mut self.focus_split;
        if too_wide > 1.0 && split.share > split.least && !self.focus_stacked {
            split.share = (split.share - (too_wide + 8.0) / width.max(1.0)).max(split.least);
            split.moved = true;
            self.adjusting = true;
            ui.ctx().request_repaint();
        }
    }
}

/// What the zoom row's buttons ask for.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ZoomChoice {
    /// Keep this session's zoom for the next sessions.
    Keep,
    /// Go back to the kept zoom.
    Back(f32),
}

impl Zoom {
    /// While this session's zoom of the mode on screen differs from the kept one: what
    /// it is, and buttons to keep it or go back; what was pressed.
    pub fn row_ui(&self, ui: &mut Ui, presenter: bool) -> Option<ZoomChoice> {
        let (zoom, kept) = (self.of(presenter), self.kept(presenter));
        if (zoom - kept).abs() < 1e-4 {
            return None;
        }
        let mut choice = None;
        ui.horizontal_wrapped(|ui| {
            ui.label(format!(
                "Text at {:.0}% for this session (Ctrl + and Ctrl − change it).",
                zoom * 100.0
            ));
            if ui
                .button("Keep this size")
                .on_hover_text("Start at this size next time too")
                .clicked()
            {
                choice = Some(ZoomChoice::Keep);
            }
            if ui.button(format!("Back to {:.0}%", kept * 100.0)).clicked() {
                choice = Some(ZoomChoice::Back(kept));
            }
        });
        choice
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn each_mode_keeps_its_own_zoom_and_only_a_kept_one_is_stored() {
        let mut zoom = super::Zoom::default();
        assert_eq!(zoom.stored(), None, "the defaults need no line");
        zoom.set(true, 2.5);
        zoom.set(false, f32::NAN);
        zoom.set(false, 99.0);
        assert_eq!(
            (zoom.of(false), zoom.of(true)),
            (4.0, 2.5),
            "clamped; NaN ignored"
        );
        assert_eq!(zoom.stored(), None, "Ctrl + is for this session");
        zoom.keep(true);
        assert_eq!(zoom.stored(), Some([1.0, 2.5]));
        assert_eq!(zoom.restore([0.1, 2.0]), None, "out of range: unchanged");
        assert_eq!(zoom.of(true), 2.5);
        assert_eq!(zoom.restore([1.5, 2.0]), Some(()));
        assert_eq!((zoom.kept(false), zoom.of(true)), (1.5, 2.0));
    }

    #[test]
    fn the_zoom_row_shows_only_while_the_zoom_is_not_kept_and_offers_both_ways() {
        use egui_kittest::kittest::Queryable as _;
        let mut zoom = super::Zoom::default();
        let shown = |zoom: super::Zoom, press: Option<&str>| {
            let mut harness = egui_kittest::Harness::builder()
                .with_size(egui::vec2(900.0, 100.0))
                .build_ui_state(
                    move |ui, chosen: &mut Option<super::ZoomChoice>| {
                        if let Some(choice) = zoom.row_ui(ui, false) {
                            *chosen = Some(choice);
                        }
                    },
                    None,
                );
            harness.run();
            let row = harness
                .query_by_label_contains("for this session")
                .is_some();
            if let Some(button) = press {
                harness.get_by_label(button).click();
                harness.run();
            }
            (row, *harness.state())
        };
        assert_eq!(
            shown(zoom, None),
            (false, None),
            "nothing to say at the kept zoom"
        );
        zoom.set(false, 1.5);
        assert_eq!(
            shown(zoom, Some("Keep this size")),
            (true, Some(super::ZoomChoice::Keep))
        );
        assert_eq!(
            shown(zoom, Some("Back to 100%")),
            (true, Some(super::ZoomChoice::Back(1.0)))
        );
    }
}
