//! The app shell: page list, navigation, links, notices, presenter mode, persistence.

use crate::deck::Deck;
use crate::link::{Link, LinkError};
use crate::notebook::notebook_ui;
use crate::page::{self, PAGES, Page};
use egui::{Key, RichText, Ui};

mod chrome;
mod ink;
mod layout;
mod links;
mod store;

pub use ink::Tool;
pub use layout::TOUCH_TARGET;
use layout::{FOCUS_SPLIT, FOCUS_SPLIT_LEAST, Fit, FocusInView, Framing, Split, apply_style};
pub use links::Compare;

/// The key under which the app keeps its state in eframe's storage.
pub const STORAGE_KEY: &str = "skinlab";

/// How much larger than on a screen [`PRESENTER_HEIGHT`] points high presenter mode
/// draws on one `height` points high (the system's points, before the app's zoom).
pub fn presenter_scale(height: f32) -> f32 {
    let scale = height / PRESENTER_HEIGHT;
    if scale.is_finite() {
        scale.clamp(0.5, 4.0)
    } else {
        1.0
    }
}

/// Zoom in presenter mode on a screen [`PRESENTER_HEIGHT`] points high, until the
/// presenter changes it (Ctrl + and Ctrl −).
pub const PRESENTER_ZOOM: f32 = 1.75;

/// Presenter mode is laid out for a screen this many points high and scaled to the
/// screen it has, as slides are: a 1280×720 projector and a 3840×2160 one show what a
/// 1920×1080 one shows, each letter the same share of the height.
pub const PRESENTER_HEIGHT: f32 = 1080.0;

/// The zooms Ctrl + and Ctrl − step through, and `zoom=` accepts.
pub const ZOOM_RANGE: std::ops::RangeInclusive<f32> = 0.5..=4.0;

/// How much more focus mode magnifies than the page around it.
pub const FOCUS_MAGNIFY: f32 = 1.4;

/// The least focus mode magnifies a cell too tall for the screen: at presenter mode's
/// zoom, text of 13.5 points (matrices) stays above 3% of a 1080-pixel screen.
pub const FOCUS_MAGNIFY_LEAST: f32 = 1.375;

/// The share of the page's width the viewport takes until the user drags the divider.
pub const DEFAULT_SPLIT: f32 = 0.52;

/// The shares `split=` accepts (the divider stops at these too).
pub const SPLIT_RANGE: std::ops::RangeInclusive<f32> = 0.25..=0.75;

/// The whole app, the same on every target. [`SkinlabApp::app_ui`] draws it into any
/// `Ui`, so tests can drive it without a window; `native` and `web` wrap it in an
/// `eframe::App` with what only their target has.
pub struct SkinlabApp {
    /// The page on screen. Pages are built when first shown: opening the app builds
    /// one page, not every page's meshes.
    page: Box<dyn Page>,
    /// Every other page already built, by registry position (`None` for the current
    /// page and for pages not built yet).
    parked: Vec<Option<Box<dyn Page>>>,
    current: usize,
    presenter: bool,
    /// Zoom outside presenter mode, and in it.
    zoom: [f32; 2],
    /// The zooms the next session starts with: Ctrl + and Ctrl − change `zoom` for this
    /// session only, until "Keep this size" copies it here.
    kept_zoom: [f32; 2],
    /// What fills the window instead of the page: `viewport` or a cell's name.
    focus: Option<&'static str>,
    /// The lecture deck being stepped through, and the slide on screen (or the last
    /// one shown, when [`SkinlabApp::off_deck`]).
    deck: Option<(Deck, usize)>,
    /// A link from the link box left the deck's slides: the next slide is the one
    /// after the last shown, and the counter says so.
    off_deck: bool,
    /// The slide on screen could not be opened: the window says why instead of
    /// showing a picture the slide did not ask for.
    deck_failure: Option<String>,
    /// The screen is blanked (B or `.`, as in slide software): black until pressed
    /// again.
    pub blank: bool,
    /// The laser pointer or the pen, if one is in hand (L, D).
    tool: ink::Tool,
    /// The pen's lines, and the page and slide they were drawn on.
    ink: Vec<Vec<egui::Pos2>>,
    ink_at: (usize, Option<usize>),
    /// Two states of the page side by side, when a link asks (`compare=`).
    compare: Option<Compare>,
    /// Each page's camera as its last link (or reset) left it, by registry position:
    /// a camera that differs from it is the user's, and goes into the link.
    camera_base: Vec<Option<crate::ui::Camera>>,
    /// Embedded in another page (the book): no page list, the host page is the guide.
    embedded: bool,
    notices: Vec<String>,
    link_text: String,
    /// Where the app is served from, in the browser.
    web_address: Option<String>,
    /// When set, time stands still (screenshots, tests).
    pub paused: bool,
    /// The screen the style was last set for: none until the first frame (and again
    /// on a new context).
    styled: Option<Fit>,
    /// Whether the last frame laid out for a phone ([`Fit::compact`]).
    compact: bool,
    /// Whether the pointer is a finger (a touch screen): what must be hit grows.
    touch: bool,
    /// The focused field, kept in view as a phone's keyboard opens over it.
    focus_in_view: FocusInView,
    /// The camera being fitted to what the viewport shows, if it is.
    framing: Option<Framing>,
    /// The notebook cell the last link opened is about, until it is in view.
    scroll: crate::ui::scroll::ScrollTo,
    /// Whether the last frame was laid out narrow ([`NARROW`]).
    narrow: bool,
    /// The share of the page's width the viewport takes, beside the notebook.
    split: Split,
    /// The same beside a focused cell; it narrows when the cell is too wide.
    focus_split: Split,
    /// How much of [`FOCUS_MAGNIFY`] a focused cell gets: less when it is too tall.
    focus_fit: f32,
    /// How far the focused cell reached past its pane last frame, in points.
    focus_overflow: egui::Vec2,
    /// Whether the last frame changed the layout it will be drawn with (the zoom, a
    /// focused cell's fit): the next frame draws something else.
    adjusting: bool,
    /// How much larger presenter mode draws on this screen than on a 1080-point one,
    /// as last applied in presenter mode (see [`presenter_scale`]).
    screen_scale: f32,
    /// Whether the store refused the state (said once).
    storage_refused: bool,
    /// The reader's own text size against the system's default (a browser's font
    /// size setting): every zoom is multiplied by it.
    text_scale: f32,
}

/// Narrower than this, in points, the viewport sits above the notebook instead of
/// beside it and the page list is hidden: a small window, or the book's iframe.
const NARROW: f32 = 900.0;

/// The share of the width the viewport takes beside the cells on a phone held
/// sideways, at most: the cells keep at least [`SIDEWAYS_CELLS`].
const SIDEWAYS_VIEWPORT: f32 = 0.62;

/// The least width of the cells beside the viewport on a phone held sideways, in
/// points: an upright phone's (390), which every page's cells fit, and the panel's edge
/// between them.
const SIDEWAYS_CELLS: f32 = 400.0;

/// The share of the height the viewport takes above the cells in a narrow window (the
/// book's frame, a phone held upright)...
const NARROW_VIEWPORT: f32 = 0.75;

/// ...and on a phone while a field has the keyboard: the cell being typed in gets the
/// room.
const TYPING_VIEWPORT: f32 = 0.35;

impl Default for SkinlabApp {
    fn default() -> Self {
        Self::new()
    }
}

/// Whether a file brought to the window is a lecture deck: a `.txt` of links.
fn is_deck(name: &str) -> bool {
    name.to_ascii_lowercase().ends_with(".txt")
}

impl SkinlabApp {
    /// Every page at its defaults, on the first page.
    pub fn new() -> Self {
        let page = (PAGES[0].make)();
        let link_text = page.link().to_string();
        let mut camera_base = vec![None; PAGES.len()];
        camera_base[0] = page.camera();
        Self {
            page,
            parked: PAGES.iter().map(|_| None).collect(),
            current: 0,
            presenter: false,
            zoom: [1.0, PRESENTER_ZOOM],
            kept_zoom: [1.0, PRESENTER_ZOOM],
            focus: None,
            deck: None,
            off_deck: false,
            deck_failure: None,
            blank: false,
            tool: ink::Tool::None,
            ink: Vec::new(),
            ink_at: (0, None),
            compare: None,
            camera_base,
            embedded: false,
            notices: Vec::new(),
            link_text,
            web_address: None,
            paused: false,
            styled: None,
            compact: false,
            touch: false,
            focus_in_view: FocusInView::default(),
            framing: None,
            narrow: false,
            split: Split::default(),
            focus_split: Split::at(FOCUS_SPLIT, FOCUS_SPLIT_LEAST),
            focus_fit: 1.0,
            focus_overflow: egui::Vec2::ZERO,
            adjusting: false,
            screen_scale: 1.0,
            storage_refused: false,
            text_scale: 1.0,
            scroll: Default::default(),
        }
    }

    /// The page on screen.
    pub fn current_page(&self) -> &dyn Page {
        self.page.as_ref()
    }

    /// How many pages are built: the one on screen and those shown before.
    pub fn built_pages(&self) -> usize {
        1 + self.parked.iter().flatten().count()
    }

    /// Page `index`, built now if it was not yet.
    fn page_mut(&mut self, index: usize) -> &mut dyn Page {
        if index == self.current {
            return self.page.as_mut();
        }
        if self.parked[index].is_none() {
            let page = (PAGES[index].make)();
            self.camera_base[index] = page.camera();
            self.parked[index] = Some(page);
        }
        match &mut self.parked[index] {
            Some(page) => page.as_mut(),
            // Filled just above.
            None => unreachable!("page {index} was just built"),
        }
    }

    /// Messages waiting to be dismissed.
    pub fn notices(&self) -> &[String] {
        &self.notices
    }

    /// Whether presenter mode is on.
    pub fn presenter(&self) -> bool {
        self.presenter
    }

    /// Lays the app out larger (or smaller) by `scale`, the reader's own text size
    /// against the default; a scale that is not a positive number is ignored.
    pub fn set_text_scale(&mut self, scale: f32) {
        if scale.is_finite() && scale > 0.0 {
            self.text_scale = scale;
        }
    }

    /// Tells the app whether its pointer is a finger: on a touch screen every control
    /// is at least [`TOUCH_TARGET`] points tall.
    pub fn set_touch(&mut self, touch: bool) {
        self.touch = touch;
    }

    /// Whether the last frame was laid out for a phone: one compact bar, the viewport
    /// above the cells, larger text.
    pub fn compact(&self) -> bool {
        self.compact
    }

    /// Sets the style for `fit`, when it is not set for it already.
    fn set_style(&mut self, ctx: &egui::Context, fit: Fit) {
        if self.styled != Some(fit) {
            apply_style(ctx, fit);
            self.styled = Some(fit);
        }
    }

    /// Marks the app as embedded in another page (the book's iframes): the page list
    /// is hidden.
    pub fn set_embedded(&mut self, embedded: bool) {
        self.embedded = embedded;
    }

    /// Readies the app for a new egui context (the web app starts again on a WebGL
    /// context the browser lost and gave back): the style is set again on its first
    /// frame. Everything the user made stays.
    pub fn move_to_new_context(&mut self) {
        self.styled = None;
        // A new context may not know where the dividers were.
        self.split.moved = true;
        self.focus_split.moved = true;
    }

    /// Turns presenter mode on or off.
    pub fn set_presenter(&mut self, on: bool) {
        self.presenter = on;
    }

    /// Adds a message the user can dismiss.
    pub fn notify(&mut self, message: impl Into<String>) {
        self.notices.push(message.into());
    }

    fn find(&self, slug: &str) -> Result<usize, LinkError> {
        PAGES
            .iter()
            .position(|p| p.info.slug == slug)
            .ok_or_else(|| LinkError::UnknownPage {
                slug: slug.to_owned(),
                valid: page::slugs(),
            })
    }

    /// Opens a link: switches page, resets it and applies the parameters. A link whose
    /// keys moved to another page opens that page ([`page::resolve`]). An unknown page
    /// keeps the current one; a bad parameter is left at its default while every good
    /// one applies.
    /// The error is the caller's to report: [`SkinlabApp::follow_link`] shows it as a
    /// notice, the command line prints it.
    pub fn open_link(&mut self, text: &str) -> Result<(), LinkError> {
        let result = Link::parse(text).map(page::resolve).and_then(|mut link| {
            if let Some(value) = link.take("deck") {
                // A deck opens its slide: the rest of the link is the deck's to say.
                return self.open_deck_link(&value);
            }
            let index = self.find(&link.slug)?;
            self.go_to(index);
            let compare = link.take("compare");
            let camera = link.take("camera");
            let mut errors = self.apply_app_keys(&mut link);
            match page::open(self.page.as_mut(), &link) {
                Err(LinkError::Several(more)) => errors.extend(more),
                Err(e) => errors.push(e),
                Ok(()) => {}
            }
            if let Some(cell) = self.focus {
                self.page.focused(cell);
            }
            self.camera_base[self.current] = self.page.camera();
            self.scroll.set(self.page.cell_of_link(&link));
            // A link that names no camera is framed if its meshes leave the view.
            self.framing = camera.is_none().then_some(Framing::new(false, true));
            if let Some(text) = camera
                && let Err(e) = self.apply_camera(&text)
            {
                errors.push(e);
            }
            self.compare = None;
            if let Some(spec) = compare {
                match Self::compare(index, &link, &spec) {
                    Ok(compare) => self.compare = Some(compare),
                    Err(e) => errors.push(e),
                }
            }
            LinkError::from_list(errors)
        });
        self.link_text = self.current_link().to_string();
        result
    }

    /// Opens a link the user gave inside the app (the link field, the address bar, a
    /// link on the command line of a window): a refused link becomes a notice saying
    /// what is on screen instead.
    pub fn follow_link(&mut self, text: &str) {
        let result = self.open_link(text);
        self.follow_in_deck(text);
        if let Err(e) = result {
            let fallback = if e.is_about_the_page() {
                "the current page stays as it was"
            } else {
                "everything else in the link was applied"
            };
            self.notify(format!("Link `{text}`: {e}; {fallback}."));
        }
    }

    /// Opens a file the user brought (`name` says what it is, by extension) on the page
    /// that opens such files, and shows that page. Returns the page's warnings about
    /// the file; on error every page keeps what it showed.
    pub fn open_file(&mut self, name: &str, bytes: &[u8]) -> Result<Vec<String>, String> {
        self.open_brought(&page::Brought::alone(name, bytes))
    }

    /// [`SkinlabApp::open_file`], with the files it names beside it.
    pub fn open_brought(&mut self, file: &page::Brought) -> Result<Vec<String>, String> {
        let index = page::page_for_file(file.name)?;
        let result = self.page_mut(index).open_file(file);
        if result.is_ok() {
            self.go_to(index);
            // A new model is framed afresh: that camera is the page's, not the user's.
            self.camera_base[index] = self.page.camera();
        }
        self.link_text = self.current_link().to_string();
        result
    }

    /// Opens a file dropped on the window: its name and its bytes, or why they could
    /// not be read (the desktop and browser wrappers read them). Problems and repairs
    /// become notices.
    pub fn open_dropped(&mut self, name: &str, bytes: Result<Vec<u8>, String>) {
        self.open_dropped_beside(name, bytes, None);
    }

    /// Opens the files dropped on the window at once: each one a page opens, with the
    /// others read as the files it names beside it (a `.gltf` dropped with its `.bin`).
    /// The others are then its parts, not files to open; dropped alone, each is opened
    /// (and one no page opens says so). A part not dropped is read from `folder`, the
    /// dropped files' folder on the desktop.
    pub fn open_dropped_files(
        &mut self,
        files: Vec<(String, Result<Vec<u8>, String>)>,
        folder: Option<&std::path::Path>,
    ) {
        let opened = |name: &str| page::page_for_file(name).is_ok() || is_deck(name);
        let any_opened = files.iter().any(|(name, _)| opened(name));
        let beside = |wanted: &str, at_most: usize| {
            let found = files.iter().find(|(name, _)| {
                name == wanted || name.rsplit(['/', '\\']).next() == wanted.rsplit('/').next()
            });
            match (found, folder) {
                (Some((_, Ok(bytes))), _) => Ok(bytes[..bytes.len().min(at_most)].to_vec()),
                (Some((_, Err(e))), _) => Err(e.clone()),
                (None, Some(folder)) => crate::files::read_beside(folder, wanted, at_most),
                (None, None) => Err(format!(
                    "it was not among the files dropped; drop `{wanted}` together with it"
                )),
            }
        };
        for (name, bytes) in &files {
            if !any_opened || opened(name) {
                self.open_dropped_beside(name, bytes.clone(), Some(&beside));
            }
        }
    }

    /// [`SkinlabApp::open_dropped`], reading the files it names with `beside`.
    pub fn open_dropped_beside(
        &mut self,
        name: &str,
        bytes: Result<Vec<u8>, String>,
        beside: Option<&page::Beside<'_>>,
    ) {
        // A browser has read a dropped file whole before the app sees it: one larger
        // than the app opens is refused all the same.
        let bytes = bytes
            .and_then(|b| {
                if b.len() > gltf::MAX_FILE_BYTES {
                    Err(crate::files::too_large(b.len() as u64))
                } else {
                    Ok(b)
                }
            })
            .map_err(|e| format!("`{name}` could not be read: {e}"));
        if is_deck(name) {
            // A lecture deck: stepped through from its first slide, in the browser too.
            let deck = bytes.and_then(|bytes| {
                let text = String::from_utf8(bytes)
                    .map_err(|_| format!("`{name}` is not text: a deck is a text file of links"))?;
                Deck::parse(name, &text)
            });
            match deck {
                Ok(deck) => {
                    // A failed slide says so on screen (see `open_deck`).
                    let _ = self.open_deck(deck, 0);
                }
                Err(e) => self.notify(format!("{e}; nothing else changed.")),
            }
            return;
        }
        let opened = bytes.and_then(|bytes| {
            self.open_brought(&page::Brought {
                name,
                bytes: &bytes,
                beside,
            })
        });
        match opened {
            Ok(warnings) if !warnings.is_empty() => self.notify(format!(
                "Opened `{name}`; the loader repaired {} thing{} in it (listed on the page).",
                warnings.len(),
                if warnings.len() == 1 { "" } else { "s" }
            )),
            Ok(_) => {}
            Err(e) => self.notify(format!("{e}; nothing else changed.")),
        }
    }

    /// Shows page `index` (clamped to the registry).
    pub fn go_to(&mut self, index: usize) {
        let index = index.min(PAGES.len() - 1);
        if index == self.current {
            return;
        }
        // A focus names a part of one page, and a comparison shows one page; so does
        // a cell to scroll to.
        self.focus = None;
        self.scroll.set(None);
        self.compare = None;
        let next = match self.parked[index].take() {
            Some(page) => page,
            None => {
                let page = (PAGES[index].make)();
                self.camera_base[index] = page.camera();
                page
            }
        };
        let previous = std::mem::replace(&mut self.page, next);
        self.parked[self.current] = Some(previous);
        self.current = index;
    }

    /// Whether what the window shows has settled: no camera is being framed and the
    /// last frame did not change the zoom or a focused cell's fit. A screenshot waits
    /// for this, as a viewer's eye does; a window gets there within a few frames.
    pub fn settled(&self) -> bool {
        self.framing.is_none() && !self.adjusting
    }

    /// The next page in lesson order, if any.
    pub fn next(&mut self) {
        self.go_to(self.current + 1);
    }

    /// The previous page in lesson order, if any.
    pub fn previous(&mut self) {
        self.go_to(self.current.saturating_sub(1));
    }

    /// Resets the current page to its defaults.
    pub fn reset_page(&mut self) {
        self.page.reset();
        self.camera_base[self.current] = self.page.camera();
    }

    /// The address the app is served from (without a fragment), in the browser: the
    /// copy menu then offers a full web address.
    pub fn set_web_address(&mut self, address: impl Into<String>) {
        self.web_address = Some(address.into());
    }

    /// Draws the whole app into `ui` (the native and web wrappers give it the window's
    /// root `Ui`; tests give it a harness's).
    pub fn app_ui(&mut self, ui: &mut Ui) {
        if self.styled.is_none() {
            self.set_style(ui.ctx(), Fit::default());
        }
        self.keyboard(ui);
        if self.blank {
            egui::CentralPanel::default()
                .frame(egui::Frame::new().fill(egui::Color32::BLACK))
                .show(ui, |_| {});
            return;
        }
        if crate::ui::viewport::take_frame_ask(ui.ctx()) && self.framing.is_none() {
            // A button put a new pose in the view: framed if it reaches the edge.
            self.framing = Some(Framing::new(false, false));
        }
        self.framing_step(ui.ctx());
        self.tools_ui(ui);
        self.drop_hint_ui(ui);
        // Focus mode magnifies beyond the page's zoom: a focused cell's text, or the
        // notes and labels of a viewport that fills the window.
        // So does a comparison in presenter mode: two pictures for the back row.
        let magnify = if self.focus.is_some() {
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
        let dt = if self.paused {
            0.0
        } else {
            ui.input(|i| i.stable_dt).min(0.1)
        };
        let animating = self.page.tick(dt);
        egui::Panel::top("top_bar").show(ui, |ui| {
            ui.add_space(3.0);
            self.top_bar_ui(ui);
            ui.add_space(3.0);
        });
        if let Some(why) = &self.deck_failure {
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
        let page = self.page.as_mut();
        if narrow {
            // The viewport above the notebook, each as wide as the window. The viewport
            // takes the most: in the book, the prose is the page around it; on a
            // phone, the cells scroll under it, and while its keyboard is up they get
            // the room.
            let typing = self.compact && ui.ctx().text_edit_focused();
            let share = if typing {
                TYPING_VIEWPORT
            } else {
                NARROW_VIEWPORT
            };
            egui::Panel::top("viewport_narrow")
                .resizable(false)
                .exact_size(height * share)
                .show(ui, |ui| page.viewport_ui(ui));
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
            if self.compact {
                // Nothing wider than a phone: a long label beside others wraps rather
                // than running past the edge.
                ui.style_mut().wrap_mode = Some(egui::TextWrapMode::Wrap);
            }
            let shown = egui::ScrollArea::vertical()
                .id_salt(page.slug())
                .auto_shrink(false)
                .show(ui, |ui| {
                    let scroll = &mut self.scroll;
                    // A cell to scroll to must be found wherever it is.
                    let whole = scroll.target().is_some();
                    let (slug, text) = (page.slug(), page.notebook());
                    let prose = !self.embedded;
                    clicked = notebook_ui(ui, slug, text, whole, prose, |cell, ui| {
                        scroll.cell_ui(cell, ui);
                        page.cell_ui(cell, ui)
                    });
                    self.focus_in_view.step(ui);
                });
            let over = shown.content_size.x - shown.inner_rect.width();
            crate::ui::marks::notebook_laid_out(ui.ctx(), over);
            let bottom = shown.state.clamped_offset().y + shown.inner_rect.height();
            crate::ui::marks::notebook_scrolled(ui.ctx(), bottom >= shown.content_size.y - 2.0);
        });
        if let Some(link) = clicked {
            self.follow_link(&link);
        }
        if animating && !self.paused {
            ui.ctx().request_repaint();
        }
    }
}
