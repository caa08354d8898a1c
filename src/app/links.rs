//! Links, decks and comparisons: the keys the app reads itself before the page sees a link,
//! the link of what is on screen, the lecture deck, and two states side by side.

use super::*;

/// Takes `key` out of `link`: its number if within `range`, `None` if absent, or why
/// not, saying it must be `what` from one end of the range to the other.
pub(super) fn take_in_range(
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

/// A deck file named in a link, on the desktop: `None` when no such file is there
/// (the name is then taken for a bundled deck's), its problem when it cannot be used.
#[cfg(not(target_arch = "wasm32"))]
fn deck_file(name: &str) -> Option<Result<Deck, String>> {
    let path = std::path::Path::new(name);
    if !path.is_file() {
        return None;
    }
    Some(
        std::fs::read_to_string(path)
            .map_err(|e| format!("deck file `{name}` could not be read: {e}"))
            .and_then(|text| Deck::parse(name, &text)),
    )
}

/// In the browser a link names a deck file the app fetched from beside itself
/// (`crate::deck::FETCHED`: at the start, or when the address bar named it).
#[cfg(target_arch = "wasm32")]
fn deck_file(name: &str) -> Option<Result<Deck, String>> {
    let text = crate::deck::fetched(name)?;
    Some(
        text.map_err(|why| format!("deck file `{name}` could not be fetched: {why}"))
            .and_then(|text| Deck::parse(name, &text)),
    )
}

/// Two states of one page side by side: the page's link plus each side's own keys.
pub struct Compare {
    /// The `compare=` value, written back into the link.
    pub(super) spec: String,
    /// Each side's page, built and opened on its own.
    pub(super) sides: [Box<dyn Page>; 2],
    /// The cell each side shows instead of its viewport: a whole-width cell (a shader
    /// listing) when every compared key belongs to it.
    pub(super) cell: Option<&'static str>,
}

impl Compare {
    /// The cell each side shows instead of its viewport, if any.
    pub fn cell(&self) -> Option<&'static str> {
        self.cell
    }

    /// Each side's link (what clicking its caption opens).
    pub fn links(&self) -> [String; 2] {
        [0, 1].map(|i| self.sides[i].link().to_string())
    }

    /// Each side's caption: the values it compares, `key: value`, joined by commas
    /// (`method: lerp`), not its whole link.
    pub fn captions(&self) -> [String; 2] {
        let mut sides = self.spec.splitn(2, '|').map(|side| {
            side.split('+')
                .map(|pair| match pair.split_once(':') {
                    Some((key, value)) => format!("{key}: {value}"),
                    None => pair.to_owned(),
                })
                .collect::<Vec<_>>()
                .join(", ")
        });
        [0, 1].map(|_| sides.next().unwrap_or_default())
    }

    /// What is compared, in a few words: `method: lerp | slerp` when each side sets
    /// one key, the same; else the two captions, `|` between them.
    pub fn heading(&self) -> String {
        let [a, b] = self.captions();
        match (a.split_once(": "), b.split_once(": ")) {
            (Some((ka, va)), Some((kb, vb)))
                if ka == kb && !a.contains(", ") && !b.contains(", ") =>
            {
                format!("{ka}: {va} | {vb}")
            }
            _ => format!("{a} | {b}"),
        }
    }
}

impl SkinlabApp {
    /// The link that reopens what is on screen: the page's state, then what fills the
    /// window (`focus`) and a zoom other than the mode's default (`zoom`).
    pub fn current_link(&self) -> Link {
        let mut link = self.current_page().link();
        // The cell this link's keys open: as the last link opened it while the page
        // still says what that link said, else as the keys declare.
        let keys_open = match &self.opened {
            Some((opened, cell)) if *opened == link.to_string() => Some(*cell),
            _ => super::cell_of_link(self.current_page(), &link),
        };
        if let (Some(camera), Some(base)) = (self.pages.page().camera(), self.pages.camera_base())
            && camera.to_link() != base.to_link()
        {
            link = link.with("camera", camera.to_link());
        }
        if let Some(focus) = self.focus {
            link = link.with("focus", focus);
        } else if let Some(cell) = self.reading.as_ref().filter(|_| self.compare.is_none())
            && keys_open != Some(cell.as_str())
        {
            // Where the reader is in the notebook, so the link reopens there (unless
            // its keys open that cell anyway).
            link = link.with("at", cell.as_str());
        }
        let default = if self.presenter { PRESENTER_ZOOM } else { 1.0 };
        if self.zoom() != default {
            link = link.with("zoom", crate::link::number(self.zoom()));
        }
        // The divider on screen: beside a focused cell, or on the whole page.
        let (share, default) = match self.focus {
            Some(_) => (self.focus_split.share, FOCUS_SPLIT),
            None => (self.split.share, DEFAULT_SPLIT),
        };
        if (share - default).abs() >= 0.005 {
            let share = crate::ui::numbers::rounded(share, 2);
            link = link.with("split", crate::link::number(share));
        }
        if let Some(compare) = &self.compare {
            link = link.with("compare", &compare.spec);
        }
        if let Some(deck) = self.slides.link_value() {
            link = link.with("deck", deck);
        }
        link
    }

    /// Takes the app's own keys (`focus`, `zoom`, `split`) out of `link` and applies
    /// them; the problems are returned, for the caller to report with the page's.
    pub(super) fn apply_app_keys(&mut self, link: &mut Link) -> Vec<LinkError> {
        let mut errors = Vec::new();
        // First: a zoom in the same link is the zoom of the mode it names.
        if let Some(value) = link.take("presenter") {
            match crate::link::parse_bool(&value) {
                Some(on) => self.presenter = on,
                None => errors.push(LinkError::BadValue {
                    key: "presenter".to_owned(),
                    value,
                    expected: "true or false (1 or 0): presenter mode, big text for a projector"
                        .to_owned(),
                }),
            }
        }
        match take_in_range(link, "zoom", ZOOM_RANGE, "a zoom") {
            Ok(Some(zoom)) => self.set_zoom(zoom),
            Ok(None) => {}
            Err(e) => errors.push(e),
        }
        let split = match take_in_range(
            link,
            "split",
            SPLIT_RANGE,
            "the viewport's share of the width",
        ) {
            Ok(share) => share,
            Err(e) => {
                errors.push(e);
                None
            }
        };
        let focus = link.take("focus");
        // A refused focus shows the whole page.
        self.focus = None;
        if let Err(e) = self.set_focus(focus.as_deref()) {
            errors.push(e);
        }
        // The divider of the mode the link opens in: beside a focused cell, or on the
        // whole page.
        if let Some(share) = split {
            if self.focus.is_some() {
                self.focus_split = Split::at(share, FOCUS_SPLIT_LEAST.min(share));
            } else {
                self.set_split(share);
            }
        }
        errors
    }

    /// `camera=…`: the viewport's camera, in the form of the page's kind of camera.
    pub(super) fn apply_camera(&mut self, text: &str) -> Result<(), LinkError> {
        let Some(camera) = self.pages.page().camera() else {
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
        self.pages.page_mut().set_camera(set);
        Ok(())
    }

    /// The two sides of `compare=A|B` on page `index`: each side is `link` with its own
    /// `key:value` pairs (joined by `+`) on top, e.g. `mode:lbs|mode:dqs`.
    pub(super) fn compare(index: usize, link: &Link, spec: &str) -> Result<Compare, LinkError> {
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
        let sides = [side(a)?, side(b)?];
        // Keys that all belong to one whole-width cell (`source` on the gpu page)
        // compare that cell: two listings, not two views that do not change.
        let cells = sides[0].link_cells();
        let mut owners = spec
            .split(['|', '+'])
            .filter_map(|pair| pair.split_once(':'))
            .map(|(key, _)| {
                let key = key.to_ascii_lowercase();
                cells.iter().find(|(k, _)| *k == key).map(|(_, cell)| *cell)
            });
        let first = owners.next().flatten();
        let cell = first.filter(|c| owners.all(|o| o == Some(c)) && sides[0].full_width(c));
        Ok(Compare {
            spec: spec.to_owned(),
            sides,
            cell,
        })
    }

    /// The two states compared, if any.
    pub fn comparing(&self) -> Option<&Compare> {
        self.compare.as_ref()
    }

    /// Two viewports side by side, each under its own link (click one to open it).
    pub(super) fn compare_ui(&mut self, ui: &mut Ui) -> Option<String> {
        let compare = self.compare.as_mut()?;
        let links = compare.links();
        let captions = compare.captions();
        let heading = compare.heading();
        let mut clicked = None;
        let presenter = self.presenter;
        egui::CentralPanel::default().show(ui, |ui| {
            if presenter {
                crate::ui::captions_at_body_size(ui);
            }
            ui.horizontal_wrapped(|ui| {
                ui.label(RichText::new(format!("Comparing {heading}")).strong());
                if ui.button("Stop comparing").clicked() {
                    clicked = Some(String::new());
                }
            });
            crate::ui::columns_ui(ui, 2, |i, column| {
                column.push_id(("compare", i), |ui| {
                    if crate::ui::link_ui(ui, RichText::new(&captions[i]).monospace())
                        .on_hover_text(format!("Open this side on its own: {}", links[i]))
                        .clicked()
                    {
                        clicked = Some(links[i].clone());
                    }
                    match compare.cell {
                        Some(cell) => {
                            egui::ScrollArea::both()
                                .id_salt(("compare_cell", i))
                                .auto_shrink(false)
                                .show(ui, |ui| {
                                    // Laid out as a focused cell is: for the screen.
                                    crate::ui::set_focused_cell(ui.ctx(), true);
                                    compare.sides[i].cell_ui(cell, ui);
                                    crate::ui::set_focused_cell(ui.ctx(), false);
                                });
                        }
                        None => compare.sides[i].viewport_ui(ui),
                    }
                });
            });
        });
        clicked
    }

    /// The deck being stepped through and the slide on screen (counted from 0).
    pub fn deck(&self) -> Option<(&Deck, usize)> {
        self.slides.deck()
    }

    /// Starts `deck` at slide `slide` (counted from 0, clamped) and opens it. The
    /// slide's link is reported like any link; the deck stays either way.
    /// Each slide starts clean: the last slide's notices go, and a slide that fails
    /// fills the window with why ([`SkinlabApp::deck_failure`]) instead of showing the
    /// page as far as the link got.
    pub fn open_deck(&mut self, deck: Deck, slide: usize) -> Result<(), LinkError> {
        let slide = slide.min(deck.slides.len() - 1);
        let link = deck.slides[slide].link.clone();
        self.slides.close();
        self.notices.clear();
        let result = self.open_link(&link);
        let failure = result
            .as_ref()
            .err()
            .map(|e| format!("Slide {} failed: `{link}`: {e}.", slide + 1));
        self.slides.show(deck, slide, failure);
        self.link_text = self.current_link().to_string();
        result
    }

    /// Why the slide on screen could not be opened, if it could not.
    pub fn deck_failure(&self) -> Option<&str> {
        self.slides.failure()
    }

    /// Whether a link from the link box (or the notebook) left the deck's slides.
    pub fn off_deck(&self) -> bool {
        self.slides.off_deck()
    }

    /// After the user opened `text` themselves while a deck is on: the counter moves to
    /// the slide with that link, or says the screen is off the deck.
    pub(super) fn follow_in_deck(&mut self, text: &str) {
        self.slides.follow(text);
    }

    /// `deck=NAME` or `deck=NAME:N` (slide N, counted from 1): a bundled deck, or a
    /// deck file (`deck=week3.txt:5`): on the desktop a path, in the browser an address
    /// beside the app, fetched when the app starts on the link.
    pub(super) fn open_deck_link(&mut self, value: &str) -> Result<(), LinkError> {
        let (name, slide) = match value.rsplit_once(':') {
            Some((name, n)) if !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) => (name, n),
            _ => (value, "1"),
        };
        let bad = |why: String| LinkError::BadValue {
            key: "deck".to_owned(),
            value: value.to_owned(),
            expected: why,
        };
        let deck = Deck::bundled(name)
            .or_else(|why| deck_file(name).ok_or(why)?)
            .map_err(bad)?;
        let count = deck.slides.len();
        let slide = slide
            .parse::<usize>()
            .ok()
            .filter(|n| (1..=count).contains(n))
            .ok_or_else(|| bad(format!("a slide number from 1 to {count} after `{name}:`")))?;
        self.open_deck(deck, slide - 1)
    }

    /// Moves `by` slides through the deck (clamped to its ends) and opens the slide; a
    /// refused link becomes a notice.
    /// Off the deck, forward is the slide after the last one shown and back is that
    /// slide again.
    pub fn step_deck(&mut self, by: isize) {
        if let Some((deck, next)) = self.slides.step(by) {
            // A failed slide says so on screen (see `open_deck`).
            let _ = self.open_deck(deck, next);
        }
    }

    /// Opens every slide of `deck` as a lecture would, each on a fresh app: what is
    /// wrong with each slide that fails, as `line N: `link`: why`. Empty when every
    /// slide opens.
    pub fn check_deck(deck: &Deck) -> Vec<String> {
        deck.slides
            .iter()
            .filter_map(|slide| {
                let mut app = Self::new();
                app.paused = true;
                app.open_link(&slide.link)
                    .err()
                    .map(|e| format!("line {}: `{}`: {e}", slide.line, slide.link))
            })
            .collect()
    }

    /// Stops stepping through the deck (the page on screen stays).
    pub fn close_deck(&mut self) {
        self.slides.close();
    }
}
