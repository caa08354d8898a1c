//! Navigation: the page on screen, the pages shown before (kept as the student left
//! them), and the camera each one's last link or reset set, so a camera the student
//! moved can be told from it.

use crate::page::Page;
use crate::pages::PAGES;
use crate::ui::Camera;

/// The pages by registry position. Pages are built when first shown: opening the app
/// builds one page, not every page's meshes.
///
/// Invariant: exactly one page is on screen; `parked` holds `None` at its position.
pub struct Navigation {
    page: Box<dyn Page>,
    /// Every other page already built (`None` for the current page and for pages not
    /// built yet).
    parked: Vec<Option<Box<dyn Page>>>,
    current: usize,
    /// Each page's camera as its last link (or reset) left it: a camera that differs
    /// from it is the user's, and goes into the link.
    camera_base: Vec<Option<Camera>>,
}

impl Default for Navigation {
    fn default() -> Self {
        Self::new()
    }
}

impl Navigation {
    /// The first page, at its defaults, and no other built.
    pub fn new() -> Self {
        let page = (PAGES[0].make)();
        let mut camera_base = vec![None; PAGES.len()];
        camera_base[0] = page.camera();
        Self {
            page,
            parked: PAGES.iter().map(|_| None).collect(),
            current: 0,
            camera_base,
        }
    }

    /// The registry position of the page on screen.
    pub fn current(&self) -> usize {
        self.current
    }

    /// The page on screen.
    pub fn page(&self) -> &dyn Page {
        self.page.as_ref()
    }

    /// The page on screen, to change.
    pub fn page_mut(&mut self) -> &mut dyn Page {
        self.page.as_mut()
    }

    /// Page `index`, built now if it was not yet.
    pub fn page_at(&mut self, index: usize) -> &mut dyn Page {
        if index == self.current {
            return self.page.as_mut();
        }
        let parked = &mut self.parked[index];
        let base = &mut self.camera_base[index];
        parked
            .get_or_insert_with(|| {
                let page = (PAGES[index].make)();
                *base = page.camera();
                page
            })
            .as_mut()
    }

    /// How many pages are built: the one on screen and those shown before.
    pub fn built(&self) -> usize {
        1 + self.parked.iter().flatten().count()
    }

    /// Every built page in registry order, the one on screen among them.
    pub fn built_pages(&self) -> impl Iterator<Item = &dyn Page> {
        self.parked.iter().enumerate().filter_map(|(i, parked)| {
            if i == self.current {
                Some(self.page.as_ref())
            } else {
                parked.as_deref()
            }
        })
    }

    /// Shows page `index` (clamped to the registry), building it if needed; the page
    /// it replaces is kept as it is. Returns whether the page on screen changed.
    pub fn show(&mut self, index: usize) -> bool {
        let index = index.min(PAGES.len() - 1);
        if index == self.current {
            return false;
        }
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
        true
    }

    /// Takes the current page's camera as the one its link set (after a link, a reset,
    /// a framing).
    pub fn settle_camera(&mut self) {
        self.camera_base[self.current] = self.page.camera();
    }

    /// The same for page `index`, built if needed.
    pub fn settle_camera_of(&mut self, index: usize) {
        let camera = self.page_at(index).camera();
        self.camera_base[index] = camera;
    }

    /// The camera the current page's last link or reset set.
    pub fn camera_base(&self) -> Option<Camera> {
        self.camera_base[self.current]
    }

    /// Every page by number and title, the one on screen selected; the one clicked.
    pub fn list_ui(&self, ui: &mut egui::Ui) -> Option<usize> {
        let mut chosen = None;
        for (i, entry) in PAGES.iter().enumerate() {
            let text = format!("{}. {}", i + 1, entry.info.title());
            if ui.selectable_label(i == self.current, text).clicked() {
                chosen = Some(i);
            }
        }
        chosen
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use egui_kittest::kittest::Queryable as _;

    #[test]
    fn the_list_shows_every_page_and_says_which_was_clicked() {
        let nav = Navigation::new();
        let mut harness = egui_kittest::Harness::builder()
            .with_size(egui::vec2(300.0, 900.0))
            .build_ui_state(
                |ui, clicked: &mut Option<usize>| {
                    if let Some(i) = nav.list_ui(ui) {
                        *clicked = Some(i);
                    }
                },
                None,
            );
        harness.run();
        for (i, entry) in PAGES.iter().enumerate() {
            let title = format!("{}. {}", i + 1, entry.info.title());
            assert!(
                harness.query_by_label(&title).is_some(),
                "{title} is listed"
            );
        }
        let last = PAGES.len() - 1;
        let title = format!("{}. {}", last + 1, PAGES[last].info.title());
        harness.get_by_label(&title).click();
        harness.run();
        assert_eq!(*harness.state(), Some(last));
    }

    #[test]
    fn pages_are_built_when_first_shown_and_kept_as_left() {
        let mut nav = Navigation::new();
        assert_eq!((nav.current(), nav.built()), (0, 1));
        assert!(!nav.show(0), "the page on screen stays");
        let last = PAGES.len() - 1;
        assert!(nav.show(usize::MAX), "clamped to the last page");
        assert_eq!((nav.current(), nav.built()), (last, 2));
        assert_eq!(nav.page().info().slug, PAGES[last].info.slug);

        // A page shown again is the one left, not a new one.
        let before = nav.page_at(0).link().to_string();
        nav.page_at(0).reset();
        assert!(nav.show(0));
        assert_eq!(nav.page().link().to_string(), before);
        assert_eq!(nav.built(), 2);
        let slugs: Vec<_> = nav.built_pages().map(|p| p.info().slug).collect();
        assert_eq!(slugs, [PAGES[0].info.slug, PAGES[last].info.slug]);
    }

    #[test]
    fn each_page_keeps_the_camera_its_link_set() {
        let mut nav = Navigation::new();
        let gpu = PAGES
            .iter()
            .position(|p| p.info.slug == "gpu")
            .expect("the gpu page is registered");
        nav.show(gpu);
        let base = nav.camera_base().expect("the gpu page has a camera");
        assert_eq!(Some(base), nav.page().camera());
        nav.show(0);
        assert_eq!(nav.camera_base(), nav.page().camera());
        nav.show(gpu);
        assert_eq!(nav.camera_base(), Some(base));
    }
}
