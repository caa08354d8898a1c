//! The page trait and the registry of pages in lesson order.
//!
//! A page is written as a [`Lesson`]: its declaration ([`PageInfo`]), its link
//! parameters ([`Param`]), its cells (an enum) and its state (a `Default`). The app
//! sees every lesson through the object-safe [`Page`], implemented once for all of them.

mod brought;
mod registry;

use crate::link::{Link, LinkError, Param, apply_params, write_params};
pub use brought::{Beside, Brought};
use egui::Ui;
use registry::defaults_of;
pub use registry::*;

/// One lesson: a notebook (prose with live cells) beside a viewport.
///
/// A page's state is its own `Default`; the app never reaches into it except through
/// this trait.
pub trait Page {
    /// What the page declares about itself: slug, title, chapter, cells.
    fn info(&self) -> &'static PageInfo;

    /// The link name, e.g. `grid`.
    fn slug(&self) -> &'static str {
        self.info().slug
    }

    /// The title shown in the page list.
    fn title(&self) -> &'static str {
        self.info().title()
    }

    /// The chapter text (`chapters/<slug>.md`).
    fn notebook(&self) -> &'static str {
        self.info().text()
    }

    /// The cells this page can draw; every one must be placed in the notebook.
    fn cells(&self) -> &'static [&'static str];

    /// Back to the page's defaults.
    fn reset(&mut self);

    /// The camera of the viewport on screen, if any ([`Lesson::camera`]).
    fn camera(&self) -> Option<crate::ui::Camera>;

    /// Sets the camera of the viewport on screen ([`Lesson::set_camera`]).
    fn set_camera(&mut self, camera: crate::ui::Camera);

    /// Opens a file the user brought. Returns what the page had to repair in the file
    /// (warnings to show); on error the page keeps what it showed.
    fn open_file(&mut self, file: &Brought) -> Result<Vec<String>, String>;

    /// Applies link parameters on top of the current state: every good one, and the
    /// error names each bad one.
    fn apply_link(&mut self, link: &Link) -> Result<(), LinkError>;

    /// The link that reopens the current state.
    fn link(&self) -> Link;

    /// The notebook cell `link` is about, which the notebook brings into view when the
    /// link opens: the cell of the last key it holds that names one ([`Param::cell`]).
    fn cell_of_link(&self, link: &Link) -> Option<&'static str>;

    /// Each link key that names a cell, with its cell ([`Param::cell`]).
    fn link_cells(&self) -> Vec<(&'static str, &'static str)>;

    /// Advances animation by `dt` seconds (zero while the app is paused); returns
    /// whether the page is animating and wants another frame.
    fn tick(&mut self, dt: f32) -> bool {
        let _ = dt;
        false
    }

    /// What the page has measured on the live GPU, as one line for scripts
    /// ([`Lesson::readout`]).
    fn readout(&self) -> Option<String>;

    /// Draws one named cell of the notebook.
    fn cell_ui(&mut self, cell: &str, ui: &mut egui::Ui);

    /// Draws the viewport column, which stays visible while the notebook scrolls.
    fn viewport_ui(&mut self, ui: &mut egui::Ui);

    /// Whether `cell`, focused, takes the whole window, with no viewport beside it
    /// ([`Lesson::FULL_WIDTH`]).
    fn full_width(&self, cell: &str) -> bool;

    /// `cell` now fills the notebook's side alone ([`Lesson::focused`]).
    fn focused(&mut self, cell: &str);

    /// The app brings `cell` into view after a link (its `at=`, or the cell its keys
    /// name): a page that scrolls by itself ([`Lesson::scroll_to`]) aims there too, so
    /// its own aim does not pull the notebook elsewhere.
    fn aim(&mut self, cell: Option<&'static str>);

    /// Whether the page put a new model in its viewport since asked ([`Lesson::take_reframe`]).
    fn take_reframe(&mut self) -> bool;
}

/// A lesson page as it is written: declared once, drawn by its cells and viewport.
/// Every `Lesson` is a [`Page`].
pub trait Lesson: Default + 'static {
    /// Slug and chapter.
    const INFO: &'static PageInfo;

    /// The link parameters, applied in this order.
    const PARAMS: &'static [Param<Self>];

    /// The cells, named once: their snake_case names are the chapter's cell markers.
    type Cell: std::str::FromStr + strum::VariantNames;

    /// Draws one cell of the notebook.
    fn cell_ui(&mut self, cell: Self::Cell, ui: &mut Ui);

    /// Draws the viewport column, which stays visible while the notebook scrolls.
    fn viewport_ui(&mut self, ui: &mut Ui);

    /// Steps the picked vertex or joint by `by` (`[` and `]` in the viewport), for a
    /// page whose pick no whole-number `vertex` or choice `joint` link key holds;
    /// returns whether it did. Those keys step by themselves ([`Param::step`]).
    fn step_pick(&mut self, by: isize) -> bool {
        let _ = by;
        false
    }

    /// What the viewport shows, in words, for a screen reader: the meshes, the pose and
    /// the numbers the picture makes plain (e.g. "LBS and DQS arms, twist 180°; elbow
    /// ring area LBS 0%, DQS 100%"). It is the viewport's name in the AccessKit tree.
    fn view_in_words(&mut self) -> String;

    /// Brings state that answers for what is on screen up to date: runs before and
    /// after each cell and the viewport are drawn, and after each tick (a prediction
    /// hides a truth shown for a question no longer asked; see
    /// [`crate::pages::predict::Predicts`]).
    fn settle(&mut self) {}

    /// Advances animation by `dt` seconds (zero while the app is paused); returns
    /// whether the page is animating and wants another frame.
    fn tick(&mut self, dt: f32) -> bool {
        let _ = dt;
        false
    }

    /// The camera of the viewport on screen, if the page has one (the app writes it
    /// into the link once the user has moved it).
    fn camera(&self) -> Option<crate::ui::Camera> {
        None
    }

    /// Sets the camera of the viewport on screen (one of the same kind as
    /// [`Lesson::camera`] gives).
    fn set_camera(&mut self, camera: crate::ui::Camera) {
        let _ = camera;
    }

    /// The file extensions the page opens, lower case without the dot (none by
    /// default). A dropped file goes to the first page that opens its extension.
    const OPENS: &'static [&'static str] = &[];

    /// The cells that, focused, take the whole window with no viewport beside them: a
    /// code listing, which needs the width more than a picture.
    const FULL_WIDTH: &'static [&'static str] = &[];

    /// Opens a file the user brought; see [`Page::open_file`]. Only called for a name
    /// ending in one of [`Lesson::OPENS`].
    fn open_file(&mut self, file: &Brought) -> Result<Vec<String>, String> {
        Err(format!(
            "this page opens no files, so `{}` was not opened",
            file.name
        ))
    }

    /// What the page has measured on the live GPU, as one line for scripts: the web
    /// app puts it on its canvas as `data-readout`, where the browser check reads the
    /// gpu page's GPU-against-CPU differences. `None` (the default) for nothing.
    fn readout(&self) -> Option<String> {
        None
    }

    /// Runs once a link's parameters have been applied: for work a page does once for
    /// several of them (the gpu page builds its mesh once for `joints`, `spread` and
    /// `vertices`).
    fn link_applied(&mut self) {}

    /// The cell `link`, just applied, is about when a key's value picks it (the
    /// quaternions page's `show`), ahead of the cells its keys declare; `None` leaves
    /// it to them.
    fn linked_cell(&self, _link: &Link) -> Option<&'static str> {
        None
    }

    /// Whether the page put a new model in its viewport since asked (a model picked in
    /// a cell): the app then fits the camera to it, as it does when a link opens one,
    /// where the page's own first view would cut it off.
    fn take_reframe(&mut self) -> bool {
        false
    }

    /// The page's own scroller, for a page that brings a cell into view by itself (a
    /// click on a joint opens the joint's cell); `None` for a page that leaves
    /// scrolling to the app.
    fn scroll_to(&mut self) -> Option<&mut crate::ui::scroll::ScrollTo> {
        None
    }

    /// A link focused `cell`: it fills the notebook's side alone. A page whose viewport
    /// shows one part of the lesson at a time shows that cell's part beside it.
    fn focused(&mut self, _cell: Self::Cell) {}

    /// Back to the defaults. A page that holds something no link can name (a file the
    /// user opened) keeps it here.
    fn reset(&mut self) {
        *self = Self::default();
    }
}

impl<L: Lesson> Page for L {
    fn info(&self) -> &'static PageInfo {
        L::INFO
    }

    fn cells(&self) -> &'static [&'static str] {
        <L::Cell as strum::VariantNames>::VARIANTS
    }

    fn reset(&mut self) {
        Lesson::reset(self);
    }

    fn camera(&self) -> Option<crate::ui::Camera> {
        Lesson::camera(self)
    }

    fn set_camera(&mut self, camera: crate::ui::Camera) {
        Lesson::set_camera(self, camera);
    }

    fn open_file(&mut self, file: &Brought) -> Result<Vec<String>, String> {
        Lesson::open_file(self, file)
    }

    fn apply_link(&mut self, link: &Link) -> Result<(), LinkError> {
        let applied = apply_params(self, L::PARAMS, link);
        Lesson::link_applied(self);
        applied
    }

    fn link(&self) -> Link {
        write_params(L::INFO.slug, self, L::PARAMS, &defaults_of::<L>())
    }

    fn link_cells(&self) -> Vec<(&'static str, &'static str)> {
        L::PARAMS
            .iter()
            .filter_map(|p| Some((p.key, p.cell?)))
            .collect()
    }

    fn cell_of_link(&self, link: &Link) -> Option<&'static str> {
        Lesson::linked_cell(self, link).or_else(|| {
            L::PARAMS
                .iter()
                .filter(|p| link.get(p.key).is_some())
                .filter_map(|p| p.cell)
                .next_back()
        })
    }

    fn tick(&mut self, dt: f32) -> bool {
        let animating = Lesson::tick(self, dt);
        Lesson::settle(self);
        animating
    }

    fn readout(&self) -> Option<String> {
        Lesson::readout(self)
    }

    fn cell_ui(&mut self, cell: &str, ui: &mut Ui) {
        match cell.parse::<L::Cell>() {
            Ok(cell) => {
                Lesson::settle(self);
                Lesson::cell_ui(self, cell, ui);
                Lesson::settle(self);
            }
            Err(_) => crate::ui::error_ui(ui, format!("this page has no cell `{cell}`")),
        }
    }

    fn viewport_ui(&mut self, ui: &mut Ui) {
        Lesson::settle(self);
        Lesson::viewport_ui(self, ui);
        Lesson::settle(self);
        // `[` and `]` in the viewport: the picked vertex, or else the picked joint.
        let by = crate::ui::viewport::pick_step(ui.ctx());
        if by != 0 && !Lesson::step_pick(self, by) {
            let _ = ["vertex", "joint"]
                .iter()
                .filter_map(|key| L::PARAMS.iter().find(|p| p.key == *key))
                .any(|p| p.step(self, by));
        }
        crate::ui::viewport::name_drawn(ui.ctx(), || Lesson::view_in_words(self));
    }

    fn full_width(&self, cell: &str) -> bool {
        L::FULL_WIDTH.contains(&cell)
    }

    fn focused(&mut self, cell: &str) {
        if let Ok(cell) = cell.parse::<L::Cell>() {
            Lesson::focused(self, cell);
        }
    }

    fn aim(&mut self, cell: Option<&'static str>) {
        if let Some(scroll) = Lesson::scroll_to(self) {
            scroll.set(cell);
        }
    }

    fn take_reframe(&mut self) -> bool {
        Lesson::take_reframe(self)
    }
}

/// What a page declares once, readable without building the page (its meshes and
/// state): the page list, `--list-pages`, links and the book read this.
#[derive(Debug)]
pub struct PageInfo {
    /// The link name, e.g. `grid`: lower-case letters, digits and `_`.
    pub slug: &'static str,
    /// The chapter text, `include_str!` of `chapters/<slug>.md` (in the web build,
    /// empty: the text is fetched, see [`PageInfo::text`]).
    pub chapter: &'static str,
}

impl PageInfo {
    /// The title: the chapter's `# ` heading (the slug if it has none, which a test
    /// forbids).
    pub fn title(&self) -> &'static str {
        crate::chapter::title(self.text()).unwrap_or(self.slug)
    }

    /// The chapter text: the one compiled in, or in the web build the one fetched from
    /// beside the app ([`fetched_chapters`]).
    pub fn text(&self) -> &'static str {
        #[cfg(target_arch = "wasm32")]
        if let Some(text) = fetched_text(self.slug) {
            return text;
        }
        self.chapter
    }
}

/// The chapters the web app fetched, by slug: `chapters.txt` beside it holds each
/// chapter as the app shows it, after a NUL and its slug on a line of its own
/// (`scripts/build-web` writes it), then the source files code cells show, each after a
/// NUL and its path (`source_text!`). The web app carries no chapter text and no
/// listing itself, so they do not count against the wasm's budget.
#[cfg(target_arch = "wasm32")]
static FETCHED_CHAPTERS: std::sync::OnceLock<Vec<(&'static str, &'static str)>> =
    std::sync::OnceLock::new();

/// Keeps the chapters fetched as `chapters.txt` (see [`FETCHED_CHAPTERS`]), or, when
/// they could not be fetched, a chapter for every page saying so.
#[cfg(target_arch = "wasm32")]
pub fn fetched_chapters(fetched: Result<String, String>, slugs: &[&str]) {
    let text: &'static str = Box::leak(
        fetched
            .unwrap_or_else(|why| {
                let said = format!("This chapter could not be fetched from beside the app: {why}.");
                slugs
                    .iter()
                    .map(|slug| format!("\0{slug}\n# {slug}\n\n{said}\n"))
                    .collect()
            })
            .into_boxed_str(),
    );
    let chapters = text
        .split('\0')
        .filter_map(|part| part.split_once('\n'))
        .collect();
    let _ = FETCHED_CHAPTERS.set(chapters);
}

/// The fetched text of a chapter (by its slug) or of a source file (by its path), once
/// `chapters.txt` has arrived.
#[cfg(target_arch = "wasm32")]
pub fn fetched_text(key: &str) -> Option<&'static str> {
    FETCHED_CHAPTERS
        .get()?
        .iter()
        .find(|(k, _)| *k == key)
        .map(|(_, text)| *text)
}

/// Resets `page` and applies `link` to it: every good parameter is applied, and the
/// error names each one that was not (the page keeps its defaults there).
pub fn open(page: &mut dyn Page, link: &Link) -> Result<(), LinkError> {
    page.reset();
    page.apply_link(link)
}
