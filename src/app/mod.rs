//! The app shell: page list, navigation, links, notices, presenter mode, persistence.

use crate::deck::Deck;
use crate::link::{Link, LinkError};
use crate::notebook::notebook_ui;
use crate::page::{self, Page};
use crate::pages::PAGES;
use egui::{Key, RichText, Ui};

mod chrome;
mod frame;
mod framing;
mod ink;
mod keys;
mod layout;
mod links;
mod navigation;
mod opening;
mod slides;
mod store;
mod style;
pub mod typing;

pub use frame::GRIP_LABEL;
use framing::Framing;
pub use ink::{Ink, Tool};
use layout::{FOCUS_SPLIT, FOCUS_SPLIT_LEAST, FocusInView, Split};
pub use links::Compare;
pub use style::TOUCH_TARGET;
use style::{Fit, apply_style};

/// The key under which the app keeps its state in eframe's storage.
pub const STORAGE_KEY: &str = "skinlab";

/// The cell of `page` named `name`, for `at=`: a link's way to open the notebook at
/// the cell whose prose holds it, where its keys belong to another.
fn cell_named(page: &dyn Page, name: &str) -> Result<&'static str, LinkError> {
    let cells = page.cells();
    cells
        .iter()
        .copied()
        .find(|c| *c == name)
        .ok_or_else(|| LinkError::BadValue {
            key: "at".to_owned(),
            value: name.to_owned(),
            expected: format!("a cell of this page: {}", cells.join(", ")),
        })
}

/// The cell a link opens `page`'s notebook at: the one its `at=` names, else the cell
/// of its most specific key ([`Page::cell_of_link`]).
pub fn cell_of_link(page: &dyn Page, link: &Link) -> Option<&'static str> {
    link.get("at")
        .and_then(|name| cell_named(page, name).ok())
        .or_else(|| page.cell_of_link(link))
}

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
    /// The page on screen, the pages shown before, and each one's camera as its link
    /// set it.
    pages: navigation::Navigation,
    presenter: bool,
    /// Presenter mode as the last frame drew it: a switch keeps the reader's place.
    presenter_drawn: bool,
    /// The text size of each mode, and the sizes kept for the next session.
    zoom: layout::Zoom,
    /// What fills the window instead of the page: `viewport` or a cell's name.
    focus: Option<&'static str>,
    /// The lecture deck and the place in it, and whether the screen is blanked.
    pub slides: slides::Slides,
    /// The presenter's laser and pen, and what the pen drew.
    ink: ink::Ink,
    /// Two states of the page side by side, when a link asks (`compare=`).
    compare: Option<Compare>,
    /// Embedded in another page (the book): no page list, the host page is the guide.
    embedded: bool,
    notices: Vec<String>,
    link_text: String,
    /// Whether the link field was drawn this frame, and if so whether it has the
    /// keyboard (then its text is the reader's, not the link's).
    link_field_drawn: Option<bool>,
    /// Where the app is served from, in the browser.
    web_address: Option<String>,
    /// When set, time stands still (screenshots, tests).
    pub paused: bool,
    /// Whether the list of keys is open over the page (`?`).
    keys_shown: bool,
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
    /// The cell nearest where a link's cell would sit, once the notebook is scrolled:
    /// the link on screen names it (`at=`), so a copied link reopens the same place.
    reading: Option<String>,
    /// The cell held in place while cells above it change height.
    anchor: frame::Anchor,
    /// The cell at the notebook's aim line, once scrolled: where larger text (presenter
    /// mode, a zoom) brings the notebook back to.
    place: Option<String>,
    /// The cell the last link opened at: where several cells would scroll the notebook
    /// to the same place (its end), the link keeps naming this one.
    last_aim: Option<&'static str>,
    /// The page's link as the last link left it, with the cell that link's keys
    /// opened: a page that picks its cell as the keys apply (binding, gradient, model)
    /// no longer knows it once the scroll is done, and the link on screen must not
    /// name with `at=` the cell its keys open anyway.
    opened: Option<(String, &'static str)>,
    /// Whether the last frame was laid out narrow ([`NARROW`]).
    narrow: bool,
    /// The share of the page's width the viewport takes, beside the notebook.
    split: Split,
    /// The share of a narrow window's height the reader gave the viewport with the grip
    /// under it, if they moved it.
    narrow_share: Option<f32>,
    /// The same beside a focused cell; it narrows when the cell is too wide.
    focus_split: Split,
    /// How much of [`FOCUS_MAGNIFY`] a focused cell gets: less when it is too tall.
    focus_fit: f32,
    /// Whether a focused cell sits under the viewport rather than beside it: in a window
    /// too narrow for both side by side (a phone held upright), as the last frame found.
    focus_stacked: bool,
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

/// How a notice about a refused link starts.
const LINK_NOTICE: &str = "Link `";

/// The share of the height the viewport takes above the cells in the book's frame, where
/// the prose is the page around it, and the cell it embeds still shows its controls and
/// a matrix whole...
const EMBEDDED_VIEWPORT: f32 = 0.58;

/// ...in another narrow window (a phone held upright), where the cells under it carry
/// the prose: enough for a finger to tell joints apart (a viewport near half the
/// height, under the controls some pages keep below it), and room for ten lines...
const NARROW_VIEWPORT: f32 = 0.66;

/// ...and on a phone while a field has the keyboard: the cell being typed in gets the
/// room.
const TYPING_VIEWPORT: f32 = 0.35;

impl Default for SkinlabApp {
    fn default() -> Self {
        Self::new()
    }
}

impl SkinlabApp {
    /// The presenter's laser and pen, and the ink on screen.
    pub fn ink(&self) -> &Ink {
        &self.ink
    }

    /// Every page at its defaults, on the first page.
    pub fn new() -> Self {
        let pages = navigation::Navigation::new();
        let link_text = pages.page().link().to_string();
        Self {
            pages,
            presenter: false,
            presenter_drawn: false,
            zoom: layout::Zoom::default(),
            focus: None,
            slides: slides::Slides::default(),
            ink: ink::Ink::default(),
            compare: None,
            embedded: false,
            notices: Vec::new(),
            link_text,
            link_field_drawn: None,
            web_address: None,
            paused: false,
            keys_shown: false,
            styled: None,
            compact: false,
            touch: false,
            focus_in_view: FocusInView::default(),
            framing: None,
            narrow: false,
            split: Split::default(),
            narrow_share: None,
            focus_split: Split::at(FOCUS_SPLIT, FOCUS_SPLIT_LEAST),
            focus_fit: 1.0,
            focus_stacked: false,
            focus_overflow: egui::Vec2::ZERO,
            adjusting: false,
            screen_scale: 1.0,
            storage_refused: false,
            text_scale: 1.0,
            scroll: Default::default(),
            reading: None,
            place: None,
            anchor: Default::default(),
            last_aim: None,
            opened: None,
        }
    }

    /// The page on screen.
    pub fn current_page(&self) -> &dyn Page {
        self.pages.page()
    }

    /// How many pages are built: the one on screen and those shown before.
    pub fn built_pages(&self) -> usize {
        self.pages.built()
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
                valid: crate::pages::slugs(),
            })
    }

    /// Opens a link: switches page, resets it and applies the parameters. A link whose
    /// keys moved to another page opens that page ([`crate::pages::resolve`]). An unknown page
    /// keeps the current one; a bad parameter is left at its default while every good
    /// one applies.
    /// The error is the caller's to report: [`SkinlabApp::follow_link`] shows it as a
    /// notice, the command line prints it.
    pub fn open_link(&mut self, text: &str) -> Result<(), LinkError> {
        let result = Link::parse(text)
            .map(crate::pages::resolve)
            .and_then(|mut link| {
                if let Some(value) = link.take("deck") {
                    // A deck opens its slide: the rest of the link is the deck's to say.
                    return self.open_deck_link(&value);
                }
                let index = self.find(&link.slug)?;
                self.go_to(index);
                let compare = link.take("compare");
                let camera = link.take("camera");
                let at = link.take("at");
                let mut errors = self.apply_app_keys(&mut link);
                match page::open(self.pages.page_mut(), &link) {
                    Err(LinkError::Several(more)) => errors.extend(more),
                    Err(e) => errors.push(e),
                    Ok(()) => {}
                }
                if let Some(cell) = self.focus {
                    self.pages.page_mut().focused(cell);
                }
                self.pages.settle_camera();
                // `at=here` keeps the notebook where it is (a figure's "Show it").
                let keep_place = at.as_deref() == Some(crate::notebook::HERE);
                let at = match at
                    .filter(|_| !keep_place)
                    .map(|name| cell_named(self.pages.page(), &name))
                {
                    Some(Ok(cell)) => Some(cell),
                    Some(Err(e)) => {
                        errors.push(e);
                        None
                    }
                    None => None,
                };
                let aim = if keep_place {
                    None
                } else {
                    self.reading = None;
                    let keys_open = self.pages.page().cell_of_link(&link);
                    // The link on screen leaves out keys at their defaults
                    // (`quaternions?question=1` is `quaternions`): remembered only where
                    // it still opens the same cell, else it names the cell with `at=`.
                    let tidied = self.current_page().link();
                    let reopens = self.pages.page().cell_of_link(&tidied);
                    self.opened = keys_open
                        .filter(|cell| reopens == Some(*cell))
                        .map(|cell| (tidied.to_string(), cell));
                    self.last_aim = at.or(keys_open);
                    self.last_aim
                };
                self.scroll.set(aim);
                self.pages.page_mut().aim(aim);
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
        // The last link's complaint goes with the next link: it is about a view no
        // longer shown, and it would push the page down under the reader's pointer.
        self.notices.retain(|n| !n.starts_with(LINK_NOTICE));
        if let Err(e) = result {
            let fallback = if e.is_about_the_page() {
                "the current page stays as it was"
            } else {
                "everything else in the link was applied"
            };
            self.notify(format!("{LINK_NOTICE}{text}`: {e}; {fallback}."));
        }
    }

    /// Shows page `index` (clamped to the registry).
    pub fn go_to(&mut self, index: usize) {
        if self.pages.show(index) {
            // A focus names a part of one page, and a comparison shows one page; so
            // does a cell to scroll to, and the place the reader was at.
            self.focus = None;
            self.scroll.set(None);
            self.reading = None;
            self.place = None;
            self.last_aim = None;
            self.opened = None;
            self.compare = None;
        }
    }

    /// Whether what the window shows has settled: no camera is being framed and the
    /// last frame did not change the zoom or a focused cell's fit. A screenshot waits
    /// for this, as a viewer's eye does; a window gets there within a few frames.
    pub fn settled(&self) -> bool {
        self.framing.is_none() && !self.adjusting
    }

    /// The next page in lesson order, if any.
    pub fn next(&mut self) {
        self.go_to(self.pages.current() + 1);
    }

    /// The previous page in lesson order, if any.
    pub fn previous(&mut self) {
        self.go_to(self.pages.current().saturating_sub(1));
    }

    /// Resets the current page to its defaults.
    pub fn reset_page(&mut self) {
        self.pages.page_mut().reset();
        self.pages.settle_camera();
    }

    /// The address the app is served from (without a fragment), in the browser: the
    /// copy menu then offers a full web address.
    pub fn set_web_address(&mut self, address: impl Into<String>) {
        self.web_address = Some(address.into());
    }
}
