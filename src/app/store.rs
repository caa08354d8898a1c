//! Persistence: the app's state as text (page, each page's link, zoom, split) in eframe's
//! storage, read back as far as it goes.

use super::*;

impl SkinlabApp {
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
        // Only a size the user chose to keep ([`SkinlabApp::keep_zoom`]) outlives the
        // session.
        if let Some([normal, presenter]) = self.zoom.stored() {
            lines.push(format!(
                "zoom {} {}",
                crate::link::number(normal),
                crate::link::number(presenter)
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
                    let restored = match zooms.as_deref() {
                        Some(&[normal, presenter]) => self.zoom.restore([normal, presenter]),
                        _ => None,
                    };
                    if restored.is_none() {
                        problems.push(format!("unreadable zoom `{rest}`"));
                    }
                }
                "split" => match crate::link::parse_number(rest) {
                    Some(share) if SPLIT_RANGE.contains(&share) => self.set_split(share),
                    _ => problems.push(format!("unreadable split `{rest}`")),
                },
                "current" => current = Some(rest.to_owned()),
                "page" => {
                    match Link::parse(rest)
                        .map(crate::pages::resolve)
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
