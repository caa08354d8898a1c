//! Persistence: the app's state as text (page, each page's link, zoom, split) in eframe's
//! storage, read back as far as it goes.

use super::*;

/// The app's state as kept between sessions, one line per fact. Reading it back takes
/// every line it can and names each one it cannot.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Stored {
    /// The link on screen.
    pub current: Option<String>,
    /// Each built page's link.
    pub pages: Vec<String>,
    /// Whether presenter mode was on.
    pub presenter: bool,
    /// The zooms kept (page, presenter mode), if the user kept them.
    pub zoom: Option<[f32; 2]>,
    /// Where the divider was, if it was moved.
    pub split: Option<f32>,
}

impl Stored {
    /// The text kept: one line each.
    pub fn to_text(&self) -> String {
        let number = crate::link::number;
        let mut lines: Vec<String> = self
            .current
            .iter()
            .map(|l| format!("current {l}"))
            .collect();
        lines.extend(self.pages.iter().map(|l| format!("page {l}")));
        if self.presenter {
            lines.push("presenter".to_owned());
        }
        if let Some([normal, presenter]) = self.zoom {
            lines.push(format!("zoom {} {}", number(normal), number(presenter)));
        }
        if let Some(share) = self.split {
            lines.push(format!("split {}", number(share)));
        }
        lines.join("\n")
    }

    /// Reads what [`Stored::to_text`] wrote: every readable line, and a few words for
    /// each one that is not. Links are read later, by the pages they open.
    pub fn parse(text: &str) -> (Self, Vec<String>) {
        let mut stored = Self::default();
        let mut problems = Vec::new();
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            let (kind, rest) = line.split_once(' ').unwrap_or((line, ""));
            match kind {
                "presenter" => stored.presenter = true,
                "zoom" => {
                    let zooms: Option<Vec<f32>> =
                        rest.split(' ').map(crate::link::parse_number).collect();
                    match zooms.as_deref() {
                        Some(&[normal, presenter]) => stored.zoom = Some([normal, presenter]),
                        _ => problems.push(format!("unreadable zoom `{rest}`")),
                    }
                }
                "split" => match crate::link::parse_number(rest) {
                    Some(share) if SPLIT_RANGE.contains(&share) => stored.split = Some(share),
                    _ => problems.push(format!("unreadable split `{rest}`")),
                },
                "current" => stored.current = Some(rest.to_owned()),
                "page" => stored.pages.push(rest.to_owned()),
                _ => problems.push(format!("unreadable line `{line}`")),
            }
        }
        (stored, problems)
    }
}

impl SkinlabApp {
    /// Every built page's link, current page first: what persistence stores (a page
    /// never shown is at its defaults).
    pub fn save_state(&self) -> String {
        Stored {
            current: Some(self.current_link().to_string()),
            pages: self
                .pages
                .built_pages()
                .map(|p| p.link().to_string())
                .collect(),
            presenter: self.presenter,
            // Only a size the user chose to keep ([`SkinlabApp::keep_zoom`]) outlives
            // the session.
            zoom: self.zoom.stored(),
            split: (self.split.share != DEFAULT_SPLIT).then_some(self.split.share),
        }
        .to_text()
    }

    /// Restores what [`SkinlabApp::save_state`] wrote. Unreadable lines are skipped
    /// with a notice; everything readable is kept.
    pub fn restore_state(&mut self, text: &str) {
        let (stored, mut problems) = Stored::parse(text);
        self.presenter |= stored.presenter;
        if let Some(zooms) = stored.zoom
            && self.zoom.restore(zooms).is_none()
        {
            let [normal, presenter] = zooms.map(crate::link::number);
            problems.push(format!("unreadable zoom `{normal} {presenter}`"));
        }
        if let Some(share) = stored.split {
            self.set_split(share);
        }
        let mut pages = Vec::new();
        for rest in &stored.pages {
            match Link::parse(rest)
                .map(crate::pages::resolve)
                .and_then(|link| Ok((self.find(&link.slug)?, link)))
            {
                // A page opens afresh from its line, so only its last line counts: it
                // opens once, below.
                Ok((index, link)) => {
                    pages.retain(|(other, _, _)| *other != index);
                    pages.push((index, link, rest));
                }
                Err(e) => problems.push(format!("`{rest}`: {e}")),
            }
        }
        for (index, link, rest) in pages {
            let opened = page::open(self.pages.page_at(index), &link);
            self.pages.settle_camera_of(index);
            if let Err(e) = opened {
                problems.push(format!("`{rest}`: {e}"));
            }
        }
        if let Some(current) = stored.current {
            match Link::parse(&current)
                .map(crate::pages::resolve)
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
}

#[cfg(test)]
mod tests {
    use super::Stored;

    #[test]
    fn stored_state_reads_back_what_it_wrote() {
        let stored = Stored {
            current: Some("grid?angle=0.8".to_owned()),
            pages: vec!["pipeline".to_owned(), "grid?angle=0.8".to_owned()],
            presenter: true,
            zoom: Some([1.25, 2.0]),
            split: Some(0.4),
        };
        assert_eq!(Stored::parse(&stored.to_text()), (stored, vec![]));
        assert_eq!(Stored::parse(""), (Stored::default(), vec![]));
    }

    #[test]
    fn an_unreadable_line_is_named_and_the_rest_kept() {
        let text = "current gpu\nzoom 1.5 x\nsplit 0.9\nsplit 0.3\nweather fine\npage gpu";
        let (stored, problems) = Stored::parse(text);
        assert_eq!(
            stored,
            Stored {
                current: Some("gpu".to_owned()),
                pages: vec!["gpu".to_owned()],
                split: Some(0.3),
                ..Stored::default()
            }
        );
        assert_eq!(
            problems,
            [
                "unreadable zoom `1.5 x`",
                "unreadable split `0.9`",
                "unreadable line `weather fine`"
            ]
        );
    }
}
