//! The app shell: page list, navigation, links, notices, presenter mode, persistence.

use crate::deck::Deck;
use crate::link::{Link, LinkError};
use crate::notebook::notebook_ui;
use crate::page::{self, PAGES, Page};
use egui::{Key, RichText, Ui};

/// The key under which the app keeps its state in eframe's storage.
pub const STORAGE_KEY: &str = "skinlab";

/// Zoom in presenter mode, until the presenter changes it (Ctrl + and Ctrl −).
pub const PRESENTER_ZOOM: f32 = 1.75;

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

/// The link keys the app reads itself, before the page sees the link.
pub const APP_KEYS: [&str; 6] = ["focus", "zoom", "split", "deck", "compare", "camera"];

/// Takes `key` out of `link`: its number if within `range`, `None` if absent, or why
/// not, saying it must be `what` from one end of the range to the other.
fn take_in_range(
    link: &mut Link,
    key: &str,
    range: std::ops::RangeInclusive<f32>,
    what: &str,
) -> Result<Option<f32>, LinkError> {
    let Some(value) = link.take(key) else {
        return Ok(None);
    };
    match crate::link::parse_number(&value).filter(|v| range.contains(v)) {
        Some(v) => Ok(Some(v)),
        None => Err(LinkError::BadValue {
            key: key.to_owned(),
            value,
            expected: format!("{what} from {} to {}", range.start(), range.end()),
        }),
    }
}

/// The divider between the notebook and the viewport.
struct Split {
    /// The viewport's share of the page's width.
    share: f32,
    /// A link or the app moved the divider: it goes there on the next frame.
    moved: bool,
    /// The page's width in points when the divider was last placed.
    width: f32,
    /// The least share the divider can be dragged or pushed to.
    least: f32,
}

impl Default for Split {
    fn default() -> Self {
        Self::at(DEFAULT_SPLIT, *SPLIT_RANGE.start())
    }
}

/// The share of the width a focused cell leaves the viewport beside it, at first: the
/// cell gets the larger share, as magnified its tables are wide.
const FOCUS_SPLIT: f32 = 0.38;

/// The least a focused cell too wide for its pane leaves the viewport.
const FOCUS_SPLIT_LEAST: f32 = 0.2;

impl Split {
    /// The viewport takes `share` of the width from the next frame, and never less
    /// than `least`.
    fn at(share: f32, least: f32) -> Self {
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
    fn show(
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

/// Two states of one page side by side: the page's link plus each side's own keys.
pub struct Compare {
    /// The `compare=` value, written back into the link.
    spec: String,
    /// Each side's page, built and opened on its own.
    sides: [Box<dyn Page>; 2],
}

impl Compare {
    /// Each side's link (what clicking its caption opens).
    pub fn links(&self) -> [String; 2] {
        [0, 1].map(|i| self.sides[i].link().to_string())
    }
}

/// Text a little larger than egui's defaults: this is a reading app.
fn apply_style(ctx: &egui::Context) {
    use egui::{FontFamily, FontId, TextStyle};
    // The app keeps a zoom per mode and handles Ctrl + and Ctrl − itself.
    ctx.options_mut(|o| o.zoom_with_keyboard = false);
    ctx.all_styles_mut(|style| {
        style.text_styles = [
            (
                TextStyle::Small,
                FontId::new(11.5, FontFamily::Proportional),
            ),
            (TextStyle::Body, FontId::new(15.0, FontFamily::Proportional)),
            (
                TextStyle::Button,
                FontId::new(14.5, FontFamily::Proportional),
            ),
            (
                TextStyle::Monospace,
                FontId::new(13.5, FontFamily::Monospace),
            ),
            (
                TextStyle::Heading,
                FontId::new(22.0, FontFamily::Proportional),
            ),
        ]
        .into();
    });
}

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
    /// What fills the window instead of the page: `viewport` or a cell's name.
    focus: Option<&'static str>,
    /// The lecture deck being stepped through, and the slide on screen.
    deck: Option<(Deck, usize)>,
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
    styled: bool,
    /// Rendered Markdown of the chapters (egui_commonmark keeps its state here).
    markdown: egui_commonmark::CommonMarkCache,
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
    /// Whether the store refused the state (said once).
    storage_refused: bool,
}

/// Narrower than this, in points, the viewport sits above the notebook instead of
/// beside it and the page list is hidden: a small window, or the book's iframe.
const NARROW: f32 = 900.0;

/// Fitting the page's camera to what its viewport shows: the meshes' place on screen is
/// measured while a frame is drawn, and the camera moved before the next.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Framing {
    /// Fit even when everything is in view already (the Frame button); otherwise
    /// only when a mesh reaches past the viewport's edge (a link just opened), or
    /// when the layout is narrow or in focus mode, where a page's own camera was not
    /// chosen for the viewport's shape.
    always: bool,
    /// Whether the fit follows from the link alone, so the link need not name it.
    from_link: bool,
    /// Measurements still to make (an orbit camera's fit takes two).
    passes: u8,
    /// Whether the app started the measuring, and so stops it.
    owns_recording: bool,
    /// Whether the frame just drawn was measured.
    measuring: bool,
}

impl Default for SkinlabApp {
    fn default() -> Self {
        Self::new()
    }
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
            focus: None,
            deck: None,
            compare: None,
            camera_base,
            embedded: false,
            notices: Vec::new(),
            link_text,
            web_address: None,
            paused: false,
            styled: false,
            markdown: Default::default(),
            framing: None,
            narrow: false,
            split: Split::default(),
            focus_split: Split::at(FOCUS_SPLIT, FOCUS_SPLIT_LEAST),
            focus_fit: 1.0,
            focus_overflow: egui::Vec2::ZERO,
            storage_refused: false,
            scroll: Default::default(),
        }
    }

    /// Fits the camera to what the viewport shows over the next frames (the Frame
    /// button, the Home key).
    pub fn frame_view(&mut self) {
        self.framing = Some(Framing {
            always: true,
            from_link: false,
            passes: 2,
            owns_recording: false,
            measuring: false,
        });
    }

    /// One step of [`Framing`], before a frame is drawn: the camera moved by what the
    /// last frame measured, and the next measurement started.
    fn framing_step(&mut self, ctx: &egui::Context) {
        use crate::ui::viewport::MeshBounds;
        let Some(mut f) = self.framing.take() else {
            return;
        };
        if !f.measuring {
            f.owns_recording = !MeshBounds::recording(ctx);
            MeshBounds::record(ctx);
            f.measuring = true;
            self.framing = Some(f);
            ctx.request_repaint();
            return;
        }
        // The largest viewport that drew a mesh is the one the page's camera looks
        // through.
        let seen = MeshBounds::of(ctx)
            .into_iter()
            .filter(|d| d.mesh.is_some())
            .max_by(|a, b| a.viewport.area().total_cmp(&b.viewport.area()));
        // A page's own camera was chosen for its viewport beside the notebook: in a
        // narrow window, or in focus mode, a link is framed anew.
        let reshaped = self.narrow || self.focus.is_some();
        let always = f.always || (f.from_link && reshaped);
        let fit = seen.and_then(|d| {
            let mesh = d.mesh?;
            (always || !d.viewport.expand(2.0).contains_rect(mesh)).then_some((d, mesh))
        });
        if let (Some((drawn, mesh)), Some(camera)) = (fit, self.page.camera()) {
            let v = |p: egui::Pos2| glam::Vec2::new(p.x, p.y);
            let rect = |r: egui::Rect| [v(r.center()), glam::Vec2::new(r.width(), r.height())];
            // Into the part of the view no note covers.
            self.page.set_camera(camera.framing(
                rect(drawn.viewport),
                rect(drawn.clear()),
                rect(mesh),
            ));
            if f.from_link {
                // Framed because of the link and the layout: the link still says it all.
                self.camera_base[self.current] = self.page.camera();
            }
            f.passes = f.passes.saturating_sub(1);
            if f.passes > 0 {
                MeshBounds::record(ctx);
                self.framing = Some(f);
                ctx.request_repaint();
                return;
            }
        }
        if f.owns_recording {
            MeshBounds::stop(ctx);
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

    /// The link that reopens what is on screen: the page's state, then what fills the
    /// window (`focus`) and a zoom other than the mode's default (`zoom`).
    pub fn current_link(&self) -> Link {
        let mut link = self.current_page().link();
        if let (Some(camera), Some(base)) = (self.page.camera(), self.camera_base[self.current])
            && camera.to_link() != base.to_link()
        {
            link = link.with("camera", camera.to_link());
        }
        if let Some(focus) = self.focus {
            link = link.with("focus", focus);
        }
        let default = if self.presenter { PRESENTER_ZOOM } else { 1.0 };
        if self.zoom() != default {
            link = link.with("zoom", crate::link::number(self.zoom()));
        }
        if (self.split.share - DEFAULT_SPLIT).abs() >= 0.005 {
            let share = (self.split.share * 100.0).round() / 100.0;
            link = link.with("split", crate::link::number(share));
        }
        if let Some(compare) = &self.compare {
            link = link.with("compare", &compare.spec);
        }
        if let Some((deck, slide)) = &self.deck
            && crate::deck::BUNDLED
                .iter()
                .any(|(name, _)| *name == deck.name)
        {
            link = link.with("deck", format!("{}:{}", deck.name, slide + 1));
        }
        link
    }

    /// The deck being stepped through and the slide on screen (counted from 0).
    pub fn deck(&self) -> Option<(&Deck, usize)> {
        self.deck.as_ref().map(|(deck, slide)| (deck, *slide))
    }

    /// Starts `deck` at slide `slide` (counted from 0, clamped) and opens it. The
    /// slide's link is reported like any link; the deck stays either way.
    pub fn open_deck(&mut self, deck: Deck, slide: usize) -> Result<(), LinkError> {
        let slide = slide.min(deck.slides.len() - 1);
        let link = deck.slides[slide].link.clone();
        self.deck = None;
        let result = self.open_link(&link);
        self.deck = Some((deck, slide));
        self.link_text = self.current_link().to_string();
        result
    }

    /// Moves `by` slides through the deck (clamped to its ends) and opens the slide; a
    /// refused link becomes a notice.
    pub fn step_deck(&mut self, by: isize) {
        let Some((deck, slide)) = self.deck.take() else {
            return;
        };
        let last = deck.slides.len() - 1;
        let next = slide.saturating_add_signed(by).min(last);
        let text = deck.slides[next].link.clone();
        if let Err(e) = self.open_deck(deck, next) {
            self.notify(format!("Deck slide {} `{text}`: {e}.", next + 1));
        }
    }

    /// `camera=…`: the viewport's camera, in the form of the page's kind of camera.
    fn apply_camera(&mut self, text: &str) -> Result<(), LinkError> {
        let Some(camera) = self.page.camera() else {
            return Err(LinkError::BadValue {
                key: "camera".to_owned(),
                value: text.to_owned(),
                expected: "nothing: this page has no camera".to_owned(),
            });
        };
        let set = camera
            .from_link(text)
            .map_err(|expected| LinkError::BadValue {
                key: "camera".to_owned(),
                value: text.to_owned(),
                expected,
            })?;
        self.page.set_camera(set);
        Ok(())
    }

    /// The two sides of `compare=A|B` on page `index`: each side is `link` with its own
    /// `key:value` pairs (joined by `+`) on top, e.g. `mode:lbs|mode:dqs`.
    fn compare(index: usize, link: &Link, spec: &str) -> Result<Compare, LinkError> {
        let bad = |why: String| LinkError::BadValue {
            key: "compare".to_owned(),
            value: spec.to_owned(),
            expected: why,
        };
        let Some((a, b)) = spec.split_once('|') else {
            return Err(bad(
                "two sets of page keys joined by `|`, each `key:value` (joined by `+`), \
                 e.g. mode:lbs|mode:dqs"
                    .to_owned(),
            ));
        };
        let side = |text: &str| -> Result<Box<dyn Page>, LinkError> {
            let mut side = link.clone();
            for pair in text.split('+').filter(|p| !p.is_empty()) {
                let (key, value) = pair
                    .split_once(':')
                    .ok_or_else(|| bad(format!("`{pair}` is not key:value")))?;
                side.params.retain(|(k, _)| k != key);
                side.params
                    .push((key.to_ascii_lowercase(), value.to_owned()));
            }
            let mut page = (PAGES[index].make)();
            page::open(page.as_mut(), &side)
                .map_err(|e| bad(format!("two states this page can show ({e})")))?;
            Ok(page)
        };
        Ok(Compare {
            spec: spec.to_owned(),
            sides: [side(a)?, side(b)?],
        })
    }

    /// The two states compared, if any.
    pub fn comparing(&self) -> Option<&Compare> {
        self.compare.as_ref()
    }

    /// Two viewports side by side, each under its own link (click one to open it).
    fn compare_ui(&mut self, ui: &mut Ui) -> Option<String> {
        let compare = self.compare.as_mut()?;
        let links = compare.links();
        let mut clicked = None;
        egui::CentralPanel::default().show(ui, |ui| {
            ui.horizontal(|ui| {
                ui.label(RichText::new(format!("Comparing {}", compare.spec)).strong());
                if ui.button("Stop comparing").clicked() {
                    clicked = Some(String::new());
                }
            });
            ui.columns(2, |columns| {
                for (i, column) in columns.iter_mut().enumerate() {
                    column.push_id(("compare", i), |ui| {
                        if ui
                            .link(RichText::new(&links[i]).monospace())
                            .on_hover_text("Open this side on its own")
                            .clicked()
                        {
                            clicked = Some(links[i].clone());
                        }
                        compare.sides[i].viewport_ui(ui);
                    });
                }
            });
        });
        clicked
    }

    /// `deck=NAME` or `deck=NAME:N` (slide N, counted from 1): a bundled deck.
    fn open_deck_link(&mut self, value: &str) -> Result<(), LinkError> {
        let (name, slide) = value.split_once(':').unwrap_or((value, "1"));
        let bad = |why: String| LinkError::BadValue {
            key: "deck".to_owned(),
            value: value.to_owned(),
            expected: why,
        };
        let deck = Deck::bundled(name).map_err(bad)?;
        let count = deck.slides.len();
        let slide = slide
            .parse::<usize>()
            .ok()
            .filter(|n| (1..=count).contains(n))
            .ok_or_else(|| bad(format!("a slide number from 1 to {count} after `{name}:`")))?;
        self.open_deck(deck, slide - 1)
    }

    /// Stops stepping through the deck (the page on screen stays).
    pub fn close_deck(&mut self) {
        self.deck = None;
    }

    /// The zoom of the mode on screen (presenter or not).
    pub fn zoom(&self) -> f32 {
        self.zoom[usize::from(self.presenter)]
    }

    /// Sets the zoom of the mode on screen, within [`ZOOM_RANGE`].
    pub fn set_zoom(&mut self, zoom: f32) {
        if zoom.is_finite() {
            self.zoom[usize::from(self.presenter)] =
                zoom.clamp(*ZOOM_RANGE.start(), *ZOOM_RANGE.end());
        }
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
        let cells = self.page.cells();
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

    /// Takes the app's own keys (`focus`, `zoom`, `split`) out of `link` and applies
    /// them; the problems are returned, for the caller to report with the page's.
    fn apply_app_keys(&mut self, link: &mut Link) -> Vec<LinkError> {
        let mut errors = Vec::new();
        match take_in_range(link, "zoom", ZOOM_RANGE, "a zoom") {
            Ok(Some(zoom)) => self.set_zoom(zoom),
            Ok(None) => {}
            Err(e) => errors.push(e),
        }
        match take_in_range(
            link,
            "split",
            SPLIT_RANGE,
            "the viewport's share of the width",
        ) {
            Ok(Some(share)) => self.set_split(share),
            Ok(None) => {}
            Err(e) => errors.push(e),
        }
        let focus = link.take("focus");
        // A refused focus shows the whole page.
        self.focus = None;
        if let Err(e) = self.set_focus(focus.as_deref()) {
            errors.push(e);
        }
        errors
    }

    /// Messages waiting to be dismissed.
    pub fn notices(&self) -> &[String] {
        &self.notices
    }

    /// Whether presenter mode is on.
    pub fn presenter(&self) -> bool {
        self.presenter
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
        self.styled = false;
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
            self.camera_base[self.current] = self.page.camera();
            self.scroll.set(self.page.cell_of_link(&link));
            // A link that names no camera is framed if its meshes leave the view.
            self.framing = camera.is_none().then_some(Framing {
                always: false,
                from_link: true,
                passes: 2,
                owns_recording: false,
                measuring: false,
            });
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
        if let Err(e) = self.open_link(text) {
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
        let index = page::page_for_file(name)?;
        let result = self.page_mut(index).open_file(name, bytes);
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
        let bytes = bytes.map_err(|e| format!("`{name}` could not be read: {e}"));
        match bytes.and_then(|bytes| self.open_file(name, &bytes)) {
            Ok(warnings) if !warnings.is_empty() => self.notify(format!(
                "Opened `{name}`; the loader repaired {} thing{} in it (listed on the page).",
                warnings.len(),
                if warnings.len() == 1 { "" } else { "s" }
            )),
            Ok(_) => {}
            Err(e) => self.notify(format!("{e}; nothing else changed.")),
        }
    }

    /// Files held over the window: a hint where they go (the wrappers open them).
    fn drop_hint_ui(&self, ui: &Ui) {
        if ui.input(|i| !i.raw.hovered_files.is_empty()) {
            let rect = ui.ctx().content_rect();
            let painter = ui.ctx().layer_painter(egui::LayerId::new(
                egui::Order::Foreground,
                egui::Id::unique("drop hint"),
            ));
            painter.rect_filled(rect, 0.0, egui::Color32::from_black_alpha(170));
            painter.text(
                rect.center(),
                egui::Align2::CENTER_CENTER,
                "Drop a .glb or .gltf file to open it on the model page",
                egui::FontId::proportional(26.0),
                egui::Color32::WHITE,
            );
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

    /// Every built page's link, current page first: what persistence stores (a page
    /// never shown is at its defaults).
    pub fn save_state(&self) -> String {
        let mut lines = vec![format!("current {}", self.current_link())];
        let built = self.parked.iter().enumerate().filter_map(|(i, parked)| {
            if i == self.current {
                Some(self.page.as_ref())
            } else {
                parked.as_deref()
            }
        });
        lines.extend(built.map(|p| format!("page {}", p.link())));
        if self.presenter {
            lines.push("presenter".to_owned());
        }
        if self.zoom != [1.0, PRESENTER_ZOOM] {
            lines.push(format!(
                "zoom {} {}",
                crate::link::number(self.zoom[0]),
                crate::link::number(self.zoom[1])
            ));
        }
        if self.split.share != DEFAULT_SPLIT {
            lines.push(format!("split {}", crate::link::number(self.split.share)));
        }
        lines.join("\n")
    }

    /// Restores what [`SkinlabApp::save_state`] wrote. Unreadable lines are skipped
    /// with a notice; everything readable is kept.
    pub fn restore_state(&mut self, text: &str) {
        let mut current = None;
        let mut problems = Vec::new();
        let mut pages = Vec::new();
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            let (kind, rest) = line.split_once(' ').unwrap_or((line, ""));
            match kind {
                "presenter" => self.presenter = true,
                "zoom" => {
                    let zooms: Option<Vec<f32>> =
                        rest.split(' ').map(crate::link::parse_number).collect();
                    match zooms.as_deref() {
                        Some(&[normal, presenter])
                            if ZOOM_RANGE.contains(&normal) && ZOOM_RANGE.contains(&presenter) =>
                        {
                            self.zoom = [normal, presenter];
                        }
                        _ => problems.push(format!("unreadable zoom `{rest}`")),
                    }
                }
                "split" => match crate::link::parse_number(rest) {
                    Some(share) if SPLIT_RANGE.contains(&share) => self.set_split(share),
                    _ => problems.push(format!("unreadable split `{rest}`")),
                },
                "current" => current = Some(rest.to_owned()),
                "page" => {
                    match Link::parse(rest)
                        .map(page::resolve)
                        .and_then(|link| Ok((self.find(&link.slug)?, link)))
                    {
                        // A page opens afresh from its line, so only its last line
                        // counts: it opens once, below.
                        Ok((index, link)) => {
                            pages.retain(|(other, _, _)| *other != index);
                            pages.push((index, link, rest));
                        }
                        Err(e) => problems.push(format!("`{rest}`: {e}")),
                    }
                }
                _ => problems.push(format!("unreadable line `{line}`")),
            }
        }
        for (index, link, rest) in pages {
            let opened = page::open(self.page_mut(index), &link);
            self.camera_base[index] = self.page_mut(index).camera();
            if let Err(e) = opened {
                problems.push(format!("`{rest}`: {e}"));
            }
        }
        if let Some(current) = current {
            match Link::parse(&current)
                .map(page::resolve)
                .and_then(|link| self.find(&link.slug))
            {
                Ok(index) => self.go_to(index),
                Err(e) => problems.push(format!("`{current}`: {e}")),
            }
        }
        self.link_text = self.current_link().to_string();
        if !problems.is_empty() {
            self.notify(format!(
                "Some saved state could not be read and was ignored ({}).",
                problems.join("; ")
            ));
        }
    }

    /// Restores the state kept in eframe's `storage`, if any (see
    /// [`SkinlabApp::restore_state`]).
    pub fn restore_from(&mut self, storage: &dyn eframe::Storage) {
        if let Some(text) = storage.get_string(STORAGE_KEY) {
            self.restore_state(&text);
        }
    }

    /// Keeps [`SkinlabApp::save_state`] in eframe's `storage`. A store that does not
    /// keep it (a browser's storage full, or blocked in a private window) gets one
    /// notice; the app runs on, and links still hold every view.
    pub fn save_to(&mut self, storage: &mut dyn eframe::Storage) {
        let state = self.save_state();
        storage.set_string(STORAGE_KEY, state.clone());
        let kept = storage.get_string(STORAGE_KEY).is_some_and(|s| s == state);
        if !kept && !self.storage_refused {
            self.storage_refused = true;
            self.notify(
                "This browser did not keep the app's state (its storage is full or blocked), \
                 so the next visit starts afresh. Everything works meanwhile; copy a link to \
                 keep a view.",
            );
        }
    }

    fn keyboard(&mut self, ui: &Ui) {
        let typing = ui.ctx().memory(|m| m.focused().is_some());
        // F5 on the desktop; P too, because a browser reloads the page on F5.
        if !typing && ui.input(|i| i.key_pressed(Key::Home)) {
            self.frame_view();
        }
        let (f5, p, f, escape, left, right) = ui.input(|i| {
            (
                i.key_pressed(Key::F5),
                i.key_pressed(Key::P),
                i.key_pressed(Key::F),
                i.key_pressed(Key::Escape),
                i.key_pressed(Key::ArrowLeft),
                i.key_pressed(Key::ArrowRight),
            )
        });
        if f5 || (p && !typing) {
            self.presenter = !self.presenter;
        }
        if f && !typing {
            let next = if self.focus.is_some() {
                None
            } else {
                Some("viewport")
            };
            // "viewport" is always a valid focus.
            let _ = self.set_focus(next);
        }
        if escape && self.focus.is_some() {
            self.focus = None;
        }
        // Ctrl + and Ctrl − (Cmd on a Mac) zoom the mode on screen; Ctrl 0 resets it.
        let command = egui::Modifiers::COMMAND;
        let (bigger, smaller, reset) = ui.ctx().input_mut(|i| {
            (
                i.consume_key(command, Key::Plus) || i.consume_key(command, Key::Equals),
                i.consume_key(command, Key::Minus),
                i.consume_key(command, Key::Num0),
            )
        });
        if bigger {
            self.set_zoom(self.zoom() * 1.1);
        }
        if smaller {
            self.set_zoom(self.zoom() / 1.1);
        }
        if reset {
            self.set_zoom(if self.presenter { PRESENTER_ZOOM } else { 1.0 });
        }
        let (page_down, page_up) =
            ui.input(|i| (i.key_pressed(Key::PageDown), i.key_pressed(Key::PageUp)));
        if self.deck.is_some() && !typing {
            if page_down {
                self.step_deck(1);
            }
            if page_up {
                self.step_deck(-1);
            }
        }
        if !typing && left {
            self.previous();
        }
        if !typing && right {
            self.next();
        }
    }

    fn top_bar_ui(&mut self, ui: &mut Ui) {
        ui.horizontal_wrapped(|ui| {
            let last = PAGES.len() - 1;
            if ui
                .add_enabled(self.current > 0, egui::Button::new("Previous"))
                .on_hover_text("Previous page (left arrow key)")
                .clicked()
            {
                self.previous();
            }
            if ui
                .add_enabled(self.current < last, egui::Button::new("Next"))
                .on_hover_text("Next page (right arrow key)")
                .clicked()
            {
                self.next();
            }
            ui.separator();
            if let Some(target) = self.focus {
                // Focus mode keeps one row of controls, for the screen's height.
                ui.label(RichText::new(format!("{}: {target}", self.page.title())).strong());
                if ui
                    .button("Show the whole page")
                    .on_hover_text("Leave focus (Esc or F)")
                    .clicked()
                {
                    self.focus = None;
                }
                self.frame_button_ui(ui);
                self.copy_button_ui(ui);
                return;
            }
            if ui
                .button("Reset page")
                .on_hover_text("Back to this page's defaults")
                .clicked()
            {
                self.reset_page();
            }
            self.frame_button_ui(ui);
            ui.toggle_value(&mut self.presenter, "Presenter")
                .on_hover_text("Big text for a projector (F5 or P)");
            ui.separator();
            let label = ui.label("Link:");
            let edit = ui
                .add(
                    egui::TextEdit::singleline(&mut self.link_text)
                        // Wide enough for long links, leaving room for the buttons.
                        .desired_width(
                            (ui.available_size_before_wrap().x - 200.0).clamp(220.0, 900.0),
                        )
                        .font(egui::TextStyle::Monospace)
                        .hint_text("page link, e.g. grid?angle=0.8"),
                )
                .labelled_by(label.id)
                .on_hover_text("This page's link. Paste a link and press Enter to open it.");
            if !edit.has_focus() && !edit.lost_focus() {
                self.link_text = self.current_link().to_string();
            }
            let enter = edit.lost_focus() && ui.input(|i| i.key_pressed(Key::Enter));
            if ui.button("Open").clicked() || enter {
                let text = self.link_text.clone();
                self.follow_link(&text);
            }
            self.copy_button_ui(ui);
        });
        if self.deck.is_some() {
            ui.horizontal_wrapped(|ui| self.deck_counter_ui(ui));
        }
        let mut dismissed = None;
        for (i, notice) in self.notices.iter().enumerate() {
            ui.horizontal(|ui| {
                if ui.small_button("×").on_hover_text("Dismiss").clicked() {
                    dismissed = Some(i);
                }
                ui.colored_label(ui.visuals().warn_fg_color, notice);
            });
        }
        if let Some(i) = dismissed {
            self.notices.remove(i);
        }
    }

    fn frame_button_ui(&mut self, ui: &mut Ui) {
        if ui
            .add_enabled(self.page.camera().is_some(), egui::Button::new("Frame"))
            .on_hover_text("Fit the view to what the viewport shows (Home key)")
            .clicked()
        {
            self.frame_view();
        }
    }

    fn copy_button_ui(&mut self, ui: &mut Ui) {
        ui.menu_button("Copy link", |ui| self.copy_menu_ui(ui))
            .response
            .on_hover_text("Copy this view as a link, a web address or a command");
    }

    /// Where the deck is: its name, the slide's number and title, and buttons to step.
    fn deck_counter_ui(&mut self, ui: &mut Ui) {
        let Some((deck, slide)) = self.deck() else {
            return;
        };
        let text = format!(
            "{} {}/{}: {}",
            deck.name,
            slide + 1,
            deck.slides.len(),
            deck.slides[slide].title
        );
        let (first, last) = (slide == 0, slide + 1 == deck.slides.len());
        if ui
            .add_enabled(!first, egui::Button::new("<"))
            .on_hover_text("Previous slide (PageUp)")
            .clicked()
        {
            self.step_deck(-1);
        }
        ui.label(RichText::new(text).strong());
        if ui
            .add_enabled(!last, egui::Button::new(">"))
            .on_hover_text("Next slide (PageDown)")
            .clicked()
        {
            self.step_deck(1);
        }
        if ui
            .small_button("×")
            .on_hover_text("Close the deck")
            .clicked()
        {
            self.close_deck();
        }
    }

    /// The ways to copy the view: the link itself, the web address that opens it (in
    /// the browser) and the command that opens it (on the desktop).
    fn copy_menu_ui(&mut self, ui: &mut Ui) {
        let link = self.current_link().to_string();
        let mut choices = vec![("the link", link.clone())];
        if let Some(address) = &self.web_address {
            choices.push(("the web address", format!("{address}#{link}")));
        }
        choices.push(("a command", format!("skinlab '{link}'")));
        for (what, text) in choices {
            let shown = if text.chars().count() > 48 {
                format!("{}…", text.chars().take(47).collect::<String>())
            } else {
                text.clone()
            };
            if ui
                .button(format!("Copy {what}: {shown}"))
                .on_hover_text(text.clone())
                .clicked()
            {
                ui.ctx().copy_text(text);
                ui.close();
            }
        }
    }

    /// The address the app is served from (without a fragment), in the browser: the
    /// copy menu then offers a full web address.
    pub fn set_web_address(&mut self, address: impl Into<String>) {
        self.web_address = Some(address.into());
    }

    fn page_list_ui(&mut self, ui: &mut Ui) {
        ui.add_space(6.0);
        ui.label(RichText::new("skinlab").size(22.0).strong());
        ui.label(RichText::new("mesh skinning, live").weak());
        ui.separator();
        let mut chosen = None;
        for (i, entry) in PAGES.iter().enumerate() {
            let text = format!("{}. {}", i + 1, entry.info.title());
            if ui.selectable_label(i == self.current, text).clicked() {
                chosen = Some(i);
            }
        }
        if let Some(i) = chosen {
            self.go_to(i);
        }
    }

    /// Focus mode: the viewport fills the window below the top bar, or one cell,
    /// magnified, sits beside the viewport with no prose around it.
    fn focus_ui(&mut self, ui: &mut Ui, target: &'static str, zoom: f32) {
        // Small print is for a reader at a desk: in front of a hall, captions are set
        // at the size of the body text.
        if let Some(body) = ui.style().text_styles.get(&egui::TextStyle::Body).cloned() {
            ui.style_mut()
                .text_styles
                .insert(egui::TextStyle::Small, body);
        }
        let page = self.page.as_mut();
        // In points at the zoom being asked for (see the page layout below).
        let scale = ui.ctx().zoom_factor() / zoom;
        let width = ui.available_width() * scale;
        if target != "viewport" {
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
                    .show(ui, |ui| page.cell_ui(target, ui));
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
        if too_tall > 1.001 && self.focus_fit > least {
            self.focus_fit = (self.focus_fit / too_tall).max(least);
            ui.ctx().request_repaint();
        }
        // A cell wider than its pane takes room from the viewport, down to a least
        // share, so a lecturer need not scroll sideways.
        let too_wide = self.focus_overflow.x;
        let split = &mut self.focus_split;
        if too_wide > 1.0 && split.share > split.least {
            split.share = (split.share - (too_wide + 8.0) / width.max(1.0)).max(split.least);
            split.moved = true;
            ui.ctx().request_repaint();
        }
    }

    /// Draws the whole app into `ui` (the native and web wrappers give it the window's
    /// root `Ui`; tests give it a harness's).
    pub fn app_ui(&mut self, ui: &mut Ui) {
        if !self.styled {
            apply_style(ui.ctx());
            self.styled = true;
        }
        self.keyboard(ui);
        self.framing_step(ui.ctx());
        self.drop_hint_ui(ui);
        // Focus mode magnifies beyond the page's zoom: a focused cell's text, or the
        // notes and labels of a viewport that fills the window.
        let magnify = if self.focus.is_some() {
            FOCUS_MAGNIFY * self.focus_fit
        } else {
            1.0
        };
        let zoom = self.zoom() * magnify;
        if ui.ctx().zoom_factor() != zoom {
            ui.ctx().set_zoom_factor(zoom);
        }
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
        // In points at the zoom being asked for: a new zoom applies from the next frame,
        // and the panels' first sizes would otherwise be measured at the old one.
        let scale = ui.ctx().zoom_factor() / zoom;
        let (width, height) = (ui.available_width() * scale, ui.available_height() * scale);
        let narrow = width < NARROW;
        self.narrow = narrow;
        // A projector needs the room: presenter mode hides the page list (Previous and
        // Next stay). So does an embedded app, inside a page that is the guide, and a
        // narrow window.
        if !self.presenter && !self.embedded && !narrow {
            egui::Panel::left("pages")
                .resizable(false)
                .exact_size(190.0)
                .show(ui, |ui| self.page_list_ui(ui));
        }
        let mut clicked = None;
        let page = self.page.as_mut();
        if narrow {
            // The viewport above the notebook, each as wide as the window. The viewport
            // takes the most: in the book, the prose is the page around it.
            egui::Panel::top("viewport_narrow")
                .resizable(false)
                .exact_size(height * 0.75)
                .show(ui, |ui| page.viewport_ui(ui));
        } else {
            // One panel per mode, each placed by the share.
            let panel = if self.presenter {
                "viewport_presenter"
            } else {
                "viewport"
            };
            let width = width
                - if self.presenter || self.embedded {
                    0.0
                } else {
                    190.0
                };
            self.split
                .show(ui, panel, width, scale, |ui| page.viewport_ui(ui));
        }
        egui::CentralPanel::default().show(ui, |ui| {
            egui::ScrollArea::vertical()
                .id_salt(page.slug())
                .auto_shrink(false)
                .show(ui, |ui| {
                    let markdown = &mut self.markdown;
                    let scroll = &mut self.scroll;
                    clicked =
                        notebook_ui(ui, markdown, page.slug(), page.notebook(), |cell, ui| {
                            scroll.cell_ui(cell, ui);
                            page.cell_ui(cell, ui)
                        });
                });
        });
        if let Some(link) = clicked {
            self.follow_link(&link);
        }
        if animating && !self.paused {
            ui.ctx().request_repaint();
        }
    }
}
