//! The page trait and the registry of pages in lesson order.

use crate::link::{Link, LinkError};

/// One lesson: a notebook (prose with live cells) beside a viewport.
///
/// A page's state is its own `Default`; the app never reaches into it except through
/// this trait.
pub trait Page {
    /// The link name, e.g. `grid`.
    fn slug(&self) -> &'static str;

    /// The title shown in the page list.
    fn title(&self) -> &'static str;

    /// The chapter text: Markdown with ```` ```cell ```` blocks naming live cells.
    fn notebook(&self) -> &'static str;

    /// The cells this page can draw; every one must be placed in the notebook.
    fn cells(&self) -> &'static [&'static str];

    /// The link parameters this page understands.
    fn link_keys(&self) -> &'static [&'static str];

    /// Back to the page's defaults.
    fn reset(&mut self);

    /// Applies link parameters on top of the current state, all or nothing: on error
    /// the state is unchanged. Keys were checked against [`Page::link_keys`].
    fn apply_link(&mut self, link: &Link) -> Result<(), LinkError>;

    /// The link that reopens the current state.
    fn link(&self) -> Link;

    /// Advances animation by `dt` seconds (zero while the app is paused); returns
    /// whether the page is animating and wants another frame.
    fn tick(&mut self, dt: f32) -> bool {
        let _ = dt;
        false
    }

    /// Draws one named cell of the notebook.
    fn cell_ui(&mut self, cell: &str, ui: &mut egui::Ui);

    /// Draws the viewport column, which stays visible while the notebook scrolls.
    fn viewport_ui(&mut self, ui: &mut egui::Ui);
}

/// Every page, in lesson order. Adding a page is one module and one line here.
pub fn registry() -> Vec<Box<dyn Page>> {
    vec![
        Box::<crate::pages::hierarchy::HierarchyPage>::default(),
        Box::<crate::pages::xray::XrayPage>::default(),
        Box::<crate::pages::gradient::GradientPage>::default(),
        Box::<crate::pages::binding::BindingPage>::default(),
        Box::<crate::pages::grid::GridPage>::default(),
        Box::<crate::pages::blending::BlendingPage>::default(),
        Box::<crate::pages::normals::NormalsPage>::default(),
        Box::<crate::pages::gpu::GpuPage>::default(),
        Box::<crate::pages::quaternions::QuaternionsPage>::default(),
    ]
}

/// The slugs of every page, in lesson order.
pub fn slugs() -> Vec<&'static str> {
    registry().iter().map(|p| p.slug()).collect()
}

/// Resets `page` and applies `link` to it. A bad link leaves the page at its defaults
/// and says why.
pub fn open(page: &mut dyn Page, link: &Link) -> Result<(), LinkError> {
    page.reset();
    link.check_keys(page.link_keys())?;
    page.apply_link(link)
}
