//! Files brought to the window: a model opened on the page that opens it, the files
//! it names read beside it, and a lecture deck stepped through.

use super::SkinlabApp;
use crate::deck::Deck;
use crate::page;

/// Whether a file brought to the window is a lecture deck: a `.txt` of links.
fn is_deck(name: &str) -> bool {
    name.to_ascii_lowercase().ends_with(".txt")
}

impl SkinlabApp {
    /// Opens a file the user brought (`name` says what it is, by extension) on the page
    /// that opens such files, and shows that page. Returns the page's warnings about
    /// the file; on error every page keeps what it showed.
    pub fn open_file(&mut self, name: &str, bytes: &[u8]) -> Result<Vec<String>, String> {
        self.open_brought(&page::Brought::alone(name, bytes))
    }

    /// [`SkinlabApp::open_file`], with the files it names beside it.
    pub fn open_brought(&mut self, file: &page::Brought) -> Result<Vec<String>, String> {
        let index = crate::pages::page_for_file(file.name)?;
        let result = self.pages.page_at(index).open_file(file);
        if result.is_ok() {
            self.go_to(index);
            // A new model is framed afresh: that camera is the page's, not the user's.
            self.pages.settle_camera();
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
        let opened = |name: &str| crate::pages::page_for_file(name).is_ok() || is_deck(name);
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
}
