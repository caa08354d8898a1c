//! One frame of the app: the page list, the notebook and the viewport, or what fills
//! the window instead (a focused cell, presenter mode, a comparison, a blank screen).

use super::*;

impl SkinlabApp {
    /// Draws the whole app into `ui` (the native and web wrappers give it the window's
    /// root `Ui`; tests give it a harness's).
    pub fn app_ui(&mut self, ui: &mut Ui) {
        self.link_field_drawn = None;
        self.frame_ui(ui);
        // The link field is drawn above the cells: a cell that changed the state this
        // frame (a checkbox) shows in the field at the next frame, which must come now,
        // not at the reader's next move.
        if self.link_field_drawn == Some(false) && self.link_text != self.current_link().to_string()
        {
            ui.ctx().request_repaint();
        }
    }

    fn frame_ui(&mut self, ui: &mut Ui) {
        if self.styled.is_none() {
            self.set_style(ui.ctx(), Fit::default());
        }
        self.keyboard(ui);
        crate::ui::viewport::set_embedded(ui.ctx(), self.embedded);
        if self.slides.blank {
            egui::CentralPanel::default()
                .frame(egui::Frame::new().fill(egui::Color32::BLACK))
                .show(ui, |ui| {
                    // Dim enough for a hall, there for whoever wonders what happened.
                    ui.with_layout(egui::Layout::bottom_up(egui::Align::Min), |ui| {
                        let hint = "Screen blanked: B or . brings it back";
                        ui.label(egui::RichText::new(hint).color(egui::Color32::from_gray(70)));
                    });
                });
            return;
        }
        if crate::ui::viewport::take_frame_ask(ui.ctx()) && self.framing.is_none() {
            // A button put a new pose in the view: framed, as the Frame button frames,
            // so the pose fills the view rather than a corner of it.
            self.framing = Some(Framing::new(true, false));
        }
        self.framing_step(ui.ctx());
        let at = (
            self.pages.current(),
            self.slides.deck().map(|(_, slide)| slide),
        );
        self.ink.ui(ui, at);
        self.drop_hint_ui(ui);
        // Focus mode magnifies beyond the page's zoom: a focused cell's text, or the
        // notes and labels of a viewport that fills the window.
        // So does a comparison in presenter mode: two pictures for the back row.
        // A phone held upright has no room to magnify: the cell sits under the view.
        let magnify = if self.focus.is_some() && !self.focus_stacked {
            FOCUS_MAGNIFY * self.focus_fit
        } else if self.compare.is_some() && self.presenter {
            FOCUS_MAGNIFY
        } else {
            1.0
        };
        // Presenter mode scales to the window's height in the system's points (whatever
        // the app's zoom). A new scale applies only when it moves by more than a fifth
        // of a percent: the height, rounded to the window's pixels, wavers by less as
        // the zoom changes, and the zoom must not chase it.
        let screen = if self.presenter {
            let ctx = ui.ctx();
            let scale = presenter_scale(ctx.content_rect().height() * ctx.zoom_factor());
            if (scale - self.screen_scale).abs() > 0.002 * self.screen_scale {
                self.screen_scale = scale;
            }
            self.screen_scale
        } else {
            1.0
        };
        let zoom = self.zoom() * magnify * screen * self.text_scale;
        self.adjusting = (ui.ctx().zoom_factor() - zoom).abs() > 1e-4;
        if self.adjusting {
            ui.ctx().set_zoom_factor(zoom);
        }
        // Larger text (presenter mode, a new zoom) moves every cell: the notebook brings
        // back the cell the reader was at, as a link to it would.
        let relaid = self.presenter != self.presenter_drawn || self.adjusting;
        self.presenter_drawn = self.presenter;
        // A link's scroll still under way starts again, its frames counted afresh: on a
        // slow machine presenter mode can come on before it is done.
        if relaid
            && self.focus.is_none()
            && let Some(cell) = self.scroll.target().or_else(|| {
                (self.place.as_deref()).and_then(|name| cell_named(self.pages.page(), name).ok())
            })
        {
            self.scroll.set(Some(cell));
            self.last_aim = Some(cell);
        }
        // The window in points at the reader's zoom, before focus or presenter mode
        // magnify it: a projector or a focused cell is never a phone.
        let window =
            ui.available_size() * (ui.ctx().zoom_factor() / (self.zoom() * self.text_scale));
        // A finger: what the browser says of its pointer, or a touch already seen.
        let touch = self.touch || ui.input(|i| i.has_touch_screen());
        let mut fit = Fit::of(window, touch);
        fit.compact &= !self.presenter && self.focus.is_none() && self.compare.is_none();
        self.compact = fit.compact;
        self.set_style(ui.ctx(), fit);
        let sideways = fit.sideways(window);
        // A projector is never a phone, whatever its width in points.
        let stacked = self.focus.is_some() && !self.presenter && window.x < NARROW && !sideways;
        if stacked != self.focus_stacked {
            self.focus_stacked = stacked;
            ui.ctx().request_repaint();
        }
        let dt = if self.paused {
            0.0
        } else {
            ui.input(|i| i.stable_dt).min(0.1)
        };
        let animating = self.pages.page_mut().tick(dt);
        egui::Panel::top("top_bar").show(ui, |ui| {
            ui.add_space(3.0);
            self.top_bar_ui(ui);
            ui.add_space(3.0);
        });
        if let Some(why) = self.slides.failure() {
            egui::CentralPanel::default().show(ui, |ui| {
                ui.vertical_centered(|ui| {
                    ui.add_space(ui.available_height() * 0.3);
                    ui.label(
                        RichText::new(why)
                            .heading()
                            .color(ui.visuals().warn_fg_color),
                    );
                    ui.label("PageDown or PageUp moves on; the link box opens any page.");
                });
            });
            return;
        }
        if self.compare.is_some() {
            let dt_sides = dt;
            let mut animating = animating;
            if let Some(compare) = &mut self.compare {
                for side in &mut compare.sides {
                    animating |= side.tick(dt_sides);
                }
            }
            match self.compare_ui(ui).as_deref() {
                Some("") => self.compare = None,
                Some(link) => {
                    let link = link.to_owned();
                    self.follow_link(&link);
                }
                None => {}
            }
            if animating && !self.paused {
                ui.ctx().request_repaint();
            }
            return;
        }
        if let Some(target) = self.focus {
            self.focus_ui(ui, target, zoom);
            if animating && !self.paused {
                ui.ctx().request_repaint();
            }
            return;
        }
        // A hall reads the whole page's captions at body size, as a focused cell's.
        if self.presenter {
            crate::ui::captions_at_body_size(ui);
        }
        // In points at the zoom being asked for: a new zoom applies from the next frame,
        // and the panels' first sizes would otherwise be measured at the old one.
        let scale = ui.ctx().zoom_factor() / zoom;
        let (width, height) = (ui.available_width() * scale, ui.available_height() * scale);
        // A phone held sideways keeps the viewport beside the cells, the whole height.
        let narrow = width < NARROW && !sideways;
        self.narrow = narrow;
        // A projector needs the room: presenter mode hides the page list (Previous and
        // Next stay). So does an embedded app, inside a page that is the guide, and a
        // narrow window.
        let page_list = !self.presenter && !self.embedded && !narrow && !self.compact;
        if page_list {
            egui::Panel::left("pages")
                .resizable(false)
                .exact_size(190.0)
                .show(ui, |ui| self.page_list_ui(ui));
        }
        let mut clicked = None;
        let page = self.pages.page_mut();
        if narrow {
            // The viewport above the notebook, each as wide as the window: in the book
            // it leaves its one cell room for a matrix; on a phone the cells scroll
            // under it, and while its keyboard is up they get the room.
            let typing = self.compact && ui.ctx().text_edit_focused();
            let share = if typing {
                TYPING_VIEWPORT
            } else if self.embedded {
                EMBEDDED_VIEWPORT
            } else {
                self.narrow_share.unwrap_or(NARROW_VIEWPORT)
            };
            egui::Panel::top("viewport_narrow")
                .resizable(false)
                .exact_size(height * share)
                .show(ui, |ui| page.viewport_ui(ui));
            if !self.embedded {
                // A grip under the viewport: drag it up for more of the cells (a phone's
                // screen is short), down for more of the view.
                egui::Panel::top("viewport_grip")
                    .resizable(false)
                    .exact_size(GRIP_HEIGHT)
                    .frame(egui::Frame::new())
                    .show(ui, |ui| {
                        if let Some(moved) = grip_ui(ui).filter(|_| !typing) {
                            let share = (share + moved / height).clamp(GRIP_LEAST, GRIP_MOST);
                            self.narrow_share = Some(share);
                        }
                    });
            }
        } else if sideways {
            // A phone held sideways: the viewport the whole height, and wide enough
            // that the controls under it keep to one row.
            egui::Panel::right("viewport_sideways")
                .resizable(false)
                .exact_size((width - SIDEWAYS_CELLS).min(width * SIDEWAYS_VIEWPORT))
                .show(ui, |ui| page.viewport_ui(ui));
        } else {
            // One panel per mode, each placed by the share.
            let panel = if self.presenter {
                "viewport_presenter"
            } else {
                "viewport"
            };
            let width = width - if page_list { 190.0 } else { 0.0 };
            self.split
                .show(ui, panel, width, scale, |ui| page.viewport_ui(ui));
        }
        egui::CentralPanel::default().show(ui, |ui| {
            // Each cell drawn, and how far its top lies below the line a link aims at.
            let mut cells: Vec<(String, f32)> = Vec::new();
            if self.compact {
                // Nothing wider than a phone: a long label beside others wraps rather
                // than running past the edge.
                ui.style_mut().wrap_mode = Some(egui::TextWrapMode::Wrap);
            }
            let mut area = egui::ScrollArea::vertical()
                .id_salt(page.slug())
                .auto_shrink(false);
            if let Some(offset) = self.anchor.fix.take() {
                area = area.vertical_scroll_offset(offset);
            }
            let shown = area.show(ui, |ui| {
                let scroll = &mut self.scroll;
                // A cell to scroll to must be found wherever it is.
                let whole = scroll.target().is_some();
                let (slug, text) = (page.slug(), page.notebook());
                let prose = !self.embedded;
                let aim = ui.clip_rect().top() + crate::ui::scroll::AIM_ABOVE;
                crate::ui::set_in_notebook(ui.ctx(), true);
                clicked = notebook_ui(ui, slug, text, whole, prose, |cell, ui| {
                    cells.push((cell.to_owned(), ui.cursor().top() - aim));
                    scroll.cell_ui(cell, ui);
                    page.cell_ui(cell, ui)
                });
                crate::ui::set_in_notebook(ui.ctx(), false);
                // Room kept at the end where a cell near it grew shorter (see
                // `Anchor::hold_end`).
                ui.add_space(self.anchor.pad);
                self.focus_in_view.step(ui);
            });
            // The cell the reader works in stays where it is when a cell above it
            // changes height (a line that appears, a longer listing), as a browser
            // anchors its scroll.
            let held = self.scroll.target().is_none() && !relaid;
            let pointer = ui.input(|i| i.pointer.hover_pos());
            self.anchor.step(&shown, &cells, pointer, held);
            let wheel = ui.input(|i| crate::ui::scroll::wheel_turned(i) || i.pointer.any_down());
            self.anchor.hold_end(&shown, held, wheel);
            if self.anchor.fix.is_some() {
                ui.ctx().request_repaint();
            }
            let over = shown.content_size.x - shown.inner_rect.width();
            crate::ui::marks::notebook_laid_out(ui.ctx(), over);
            let bottom = shown.state.clamped_offset().y + shown.inner_rect.height();
            let at_end = bottom >= shown.content_size.y - 2.0;
            crate::ui::marks::notebook_scrolled(ui.ctx(), at_end);
            // Where the reader is: the cell whose link would scroll the notebook nearest
            // to where it is now (a link puts its cell's top on the aim line, or scrolls
            // as far down as the notebook goes), once it is scrolled and no link's scroll
            // is under way.
            let room_below = (shown.content_size.y - bottom).max(0.0);
            let moves = |below_aim: f32| {
                if below_aim > 0.0 {
                    below_aim.min(room_below)
                } else {
                    below_aim
                }
            };
            let scrolled = shown.state.clamped_offset().y > READING_SCROLLED;
            let settled = self.scroll.target().is_none();
            // What is on screen, where a larger text must bring the notebook back: the
            // cell the last link opened, while its top is in view; else the cell whose
            // top in view is nearest the aim line; else the cell the view is inside.
            if settled {
                let view = shown.inner_rect.height();
                let above = crate::ui::scroll::AIM_ABOVE;
                let in_view = |below_aim: f32| (-above..=view - above).contains(&below_aim);
                let visible = || cells.iter().filter(|(_, b)| in_view(*b));
                let opened = visible().find(|(cell, _)| Some(cell.as_str()) == self.last_aim);
                let nearest = || visible().min_by(|(_, a), (_, b)| a.abs().total_cmp(&b.abs()));
                let inside = || cells.iter().rfind(|(_, b)| *b < -above);
                self.place = scrolled
                    .then(|| opened.or_else(nearest).or_else(inside))
                    .flatten()
                    .map(|(cell, _)| cell.clone());
            }
            self.reading = (scrolled && settled)
                .then(|| {
                    let aimed = |cell: &str| Some(cell) != self.last_aim;
                    cells
                        .into_iter()
                        .min_by(|(x, a), (y, b)| {
                            (moves(*a).abs().total_cmp(&moves(*b).abs()))
                                .then(aimed(x).cmp(&aimed(y)))
                        })
                        .map(|(cell, _)| cell)
                })
                .flatten();
        });
        if let Some(link) = clicked {
            self.follow_link(&link);
        }
        // A model picked in a cell is fitted as a link's would be, where it reaches past
        // the view's edge (the fox's nose in a tall pane).
        if self.pages.page_mut().take_reframe() && self.framing.is_none() {
            self.framing = Some(Framing::new(false, true));
        }
        if animating && !self.paused {
            ui.ctx().request_repaint();
        }
    }
}

/// Scrolled less than this, in points, the notebook is at its top: a link names no cell.
const READING_SCROLLED: f32 = 40.0;

/// The notebook's scroll anchor: the cell under the pointer (or across the middle of
/// the view), held at its place on screen while the cells above it change height.
#[derive(Debug, Default)]
pub(super) struct Anchor {
    /// The cell held and where its top sat in the notebook's content, in points, and
    /// the scroll offset then.
    cell: Option<(String, f32, f32)>,
    /// The scroll offset that puts it back, for the next frame.
    fix: Option<f32>,
    /// Blank room drawn under the last cell, in points: what the cells lost in height
    /// while the reader sat at the notebook's end.
    pad: f32,
    /// The notebook's height to keep at its end, as of the last frame.
    end: Option<EndHold>,
}

/// The notebook at its end, as [`Anchor::hold_end`] keeps it.
#[derive(Clone, Copy, Debug)]
struct EndHold {
    /// The height kept, with the room, in points.
    kept: f32,
    /// The scroll offset then.
    offset: f32,
}

impl Anchor {
    /// After the notebook is drawn: where the held cell moved in the content, the
    /// offset that undoes it (when `held`: no link's scroll or new text size under
    /// way), and the cell to hold next. `cells` are each cell's top below the aim line.
    fn step(
        &mut self,
        shown: &egui::scroll_area::ScrollAreaOutput<()>,
        cells: &[(String, f32)],
        pointer: Option<egui::Pos2>,
        held: bool,
    ) {
        let view = shown.inner_rect;
        let offset = shown.state.clamped_offset().y;
        let above = crate::ui::scroll::AIM_ABOVE;
        let content_top = |below_aim: f32| below_aim + above + offset;
        // Only a notebook the reader scrolled, and not in a frame that scrolled it
        // (the wheel, a field or a working brought into view): the top of a chapter
        // stays its top while the first frames lay it out.
        if held
            && offset > 0.0
            && let Some((name, was, then)) = &self.cell
            && *then == offset
            && let Some((_, below_aim)) = cells.iter().find(|(c, _)| c == name)
        {
            // Pushed down by what grew above it: a cell pulled up is where the
            // notebook's end or a cell brought into view put it.
            let moved = content_top(*below_aim) - was;
            if moved > 0.5 {
                self.fix = Some((offset + moved).max(0.0));
            }
        }
        let line = pointer
            .filter(|p| view.contains(*p))
            .map_or(view.center().y, |p| p.y);
        self.cell = cells
            .iter()
            .rfind(|(_, below_aim)| view.top() + above + below_aim <= line)
            .map(|(name, below_aim)| (name.clone(), content_top(*below_aim), offset));
    }

    /// After the notebook is drawn: where a cell at the notebook's end grows shorter
    /// (a two-line readout that becomes one), the notebook keeps its height with blank
    /// room under the last cell, and the scroll its place, so the controls stay under
    /// the pointer. The room goes once the reader scrolls, a link scrolls (not `held`),
    /// or the cells grow back.
    fn hold_end(
        &mut self,
        shown: &egui::scroll_area::ScrollAreaOutput<()>,
        held: bool,
        wheel: bool,
    ) {
        let offset = shown.state.clamped_offset().y;
        let natural = shown.content_size.y - self.pad;
        let view = shown.inner_rect.height();
        let reset = EndHold {
            kept: natural,
            offset,
        };
        let (pad, end) = match self.end {
            Some(was)
                if held && !wheel && was.offset > 0.0 && was.offset + view >= was.kept - 2.0 =>
            {
                if natural < was.kept - 0.5 {
                    // Shorter than kept: the scroll the end pulls back goes back.
                    if offset < was.offset - 0.5 {
                        self.fix = Some(was.offset);
                    }
                    (was.kept - natural, was)
                } else {
                    (0.0, reset)
                }
            }
            _ => (0.0, reset),
        };
        self.pad = pad;
        self.end = Some(end);
    }
}

/// The height of the grip between a narrow window's viewport and its cells, in points:
/// a finger's.
const GRIP_HEIGHT: f32 = 24.0;

/// The least and the most of a narrow window's height the grip gives the viewport.
const GRIP_LEAST: f32 = 0.35;
const GRIP_MOST: f32 = 0.8;

/// The label the grip reads as, to a screen reader and to tests.
pub const GRIP_LABEL: &str = "Drag to share the screen between the view and the cells";

/// A bar across the window with a handle drawn in its middle; how far it was dragged
/// down this frame, in points, if it was.
fn grip_ui(ui: &mut Ui) -> Option<f32> {
    let (rect, response) = ui.allocate_exact_size(ui.available_size(), egui::Sense::drag());
    response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Slider, true, GRIP_LABEL));
    let response = response.on_hover_cursor(egui::CursorIcon::ResizeVertical);
    let ink = if response.dragged() || response.hovered() {
        ui.visuals().strong_text_color()
    } else {
        ui.visuals().weak_text_color()
    };
    let handle = egui::Rect::from_center_size(rect.center(), egui::vec2(48.0, 5.0));
    ui.painter().rect_filled(handle, 2.5, ink);
    let moved = response.drag_delta().y;
    (response.dragged() && moved != 0.0).then_some(moved)
}
