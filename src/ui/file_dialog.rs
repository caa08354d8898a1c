//! A small file chooser drawn with egui (native only: the browser takes files by drag
//! and drop). It lists one folder's subfolders and the files with the wanted
//! extensions, and takes a typed path too. Nothing here opens the file: the caller
//! reads the path it returns.

use egui::{Context, RichText};
use std::path::{Path, PathBuf};

/// What the user did with the dialog this frame.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Choice {
    /// A file was chosen.
    File(PathBuf),
    /// The dialog was closed without a choice.
    Cancelled,
}

/// One folder's listing: subfolders first, then the files shown, each sorted by name.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Listing {
    /// Subfolder names (hidden ones left out).
    pub folders: Vec<String>,
    /// Names of the files with a wanted extension.
    pub files: Vec<String>,
}

/// Lists `dir`: its subfolders and the files whose extension (any case) is one of
/// `extensions`. Hidden entries (a leading `.`) are left out.
pub fn list(dir: &Path, extensions: &[&str]) -> std::io::Result<Listing> {
    let mut listing = Listing::default();
    for entry in std::fs::read_dir(dir)? {
        let Ok(entry) = entry else { continue };
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.starts_with('.') {
            continue;
        }
        // Follows symbolic links, so a linked folder opens like a folder.
        let is_dir = entry.path().is_dir();
        if is_dir {
            listing.folders.push(name);
        } else if has_extension(&name, extensions) {
            listing.files.push(name);
        }
    }
    listing.folders.sort_by_key(|n| n.to_lowercase());
    listing.files.sort_by_key(|n| n.to_lowercase());
    Ok(listing)
}

/// The last part of `path`, for messages (the whole path when it has none).
pub fn file_name(path: &Path) -> String {
    path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    )
}

/// Whether `name` ends in `.` and one of `extensions`, in any case.
pub fn has_extension(name: &str, extensions: &[&str]) -> bool {
    name.rsplit_once('.')
        .is_some_and(|(_, e)| extensions.iter().any(|x| x.eq_ignore_ascii_case(e)))
}

/// The dialog's state: the folder shown and the path being typed.
pub struct FileDialog {
    title: String,
    extensions: &'static [&'static str],
    dir: PathBuf,
    listing: Result<Listing, String>,
    typed: String,
    /// What its button does: "Open", or "Save" for a dialog that names a file to write.
    verb: &'static str,
}

impl FileDialog {
    /// A dialog titled `title` showing `dir`, offering files with `extensions`.
    pub fn new(
        title: impl Into<String>,
        dir: PathBuf,
        extensions: &'static [&'static str],
    ) -> Self {
        let mut dialog = Self {
            title: title.into(),
            extensions,
            dir: PathBuf::new(),
            listing: Ok(Listing::default()),
            typed: String::new(),
            verb: "Open",
        };
        dialog.go(dir);
        dialog
    }

    /// A dialog that names a file to write: `name` in the working folder to start with,
    /// and a Save button.
    pub fn saving(
        title: impl Into<String>,
        extensions: &'static [&'static str],
        name: &str,
    ) -> Self {
        let mut dialog = Self::in_working_dir(title, extensions);
        dialog.typed = dialog.dir.join(name).display().to_string();
        dialog.verb = "Save";
        dialog
    }

    /// Opens in the working folder (the home folder if it cannot be read).
    pub fn in_working_dir(title: impl Into<String>, extensions: &'static [&'static str]) -> Self {
        let dir = std::env::current_dir()
            .ok()
            .or_else(|| std::env::var_os("HOME").map(PathBuf::from))
            .unwrap_or_else(|| PathBuf::from("."));
        Self::new(title, dir, extensions)
    }

    /// The folder shown.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    fn go(&mut self, dir: PathBuf) {
        self.listing = list(&dir, self.extensions)
            .map_err(|e| format!("cannot read the folder {}: {e}", dir.display()));
        self.typed = dir.display().to_string();
        self.dir = dir;
    }

    /// Goes to a typed path: a folder is shown, a file is chosen.
    fn follow_typed(&mut self) -> Option<Choice> {
        let path = PathBuf::from(self.typed.trim());
        if path.is_dir() {
            self.go(path);
            None
        } else {
            Some(Choice::File(path))
        }
    }

    /// Draws the dialog as a window; returns what the user did, if anything.
    pub fn show(&mut self, ctx: &Context) -> Option<Choice> {
        let mut choice = None;
        let mut open = true;
        let mut go_to = None;
        egui::Window::new(self.title.clone())
            .open(&mut open)
            .collapsible(false)
            .default_width(480.0)
            .show(ctx, |ui| {
                ui.horizontal_wrapped(|ui| {
                    if ui.button("Up").clicked()
                        && let Some(parent) = self.dir.parent()
                    {
                        go_to = Some(parent.to_path_buf());
                    }
                    let field = ui.add(
                        egui::TextEdit::singleline(&mut self.typed)
                            .desired_width(f32::INFINITY)
                            .hint_text("a folder or a file"),
                    );
                    if field.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter)) {
                        choice = self.follow_typed();
                    }
                });
                ui.label(
                    RichText::new(format!(
                        "Folders, and files ending in {}",
                        self.extensions
                            .iter()
                            .map(|e| format!(".{e}"))
                            .collect::<Vec<_>>()
                            .join(" or ")
                    ))
                    .small(),
                );
                egui::ScrollArea::vertical()
                    .max_height(320.0)
                    .auto_shrink([false, true])
                    .show(ui, |ui| match &self.listing {
                        Err(e) => crate::ui::error_ui(ui, e.clone()),
                        Ok(listing) => {
                            for folder in &listing.folders {
                                if ui.selectable_label(false, format!("{folder}/")).clicked() {
                                    go_to = Some(self.dir.join(folder));
                                }
                            }
                            for file in &listing.files {
                                if ui.selectable_label(false, file).clicked() {
                                    choice = Some(Choice::File(self.dir.join(file)));
                                }
                            }
                            if listing.folders.is_empty() && listing.files.is_empty() {
                                ui.label("Nothing to open here.");
                            }
                        }
                    });
                ui.horizontal_wrapped(|ui| {
                    if ui.button(self.verb).clicked() {
                        choice = self.follow_typed();
                    }
                    if ui.button("Cancel").clicked() {
                        choice = Some(Choice::Cancelled);
                    }
                });
            });
        if let Some(dir) = go_to {
            self.go(dir);
        }
        if !open {
            choice = Some(Choice::Cancelled);
        }
        choice
    }
}
