//! The keys the app answers to, listed once: the overlay `?` opens shows them, and a
//! test holds README's table of keys to the same list.

use super::*;

/// Each key (as README's table names it) and what it does, in a few words.
pub const KEYS: &[(&str, &str)] = &[
    (
        "Tab / Shift Tab",
        "the next / previous control, the viewport among them",
    ),
    (
        "Space or Enter",
        "press the button or tick the box that has the keyboard",
    ),
    (
        "Left / Right arrow",
        "previous / next page, when no control has the keyboard",
    ),
    ("arrows, in a viewport", "turn the view (pan a flat one)"),
    ("+ / −, in a viewport", "bring the view nearer / further"),
    (
        "[ / ], in a viewport",
        "the previous / next vertex, or joint, picked",
    ),
    ("F / Esc", "the viewport alone / back to the page"),
    ("Home", "frame the view"),
    ("F5 or P", "presenter mode"),
    ("Ctrl + / Ctrl − / Ctrl 0", "larger / smaller / as it was"),
    ("PageDown / PageUp", "the next / previous slide of a deck"),
    ("B or .", "blank the screen, in presenter mode or a deck"),
    ("L / D / E", "laser pointer / pen / wipe the ink"),
    ("?", "this list"),
];

impl SkinlabApp {
    /// `?` opens the list of keys over the page; `?` again, Esc or a click outside
    /// closes it.
    pub(super) fn keys_ui(&mut self, ui: &Ui, typing: bool) {
        if !typing && ui.input(|i| i.key_pressed(Key::Questionmark)) {
            self.keys_shown = !self.keys_shown;
        }
        if !self.keys_shown {
            return;
        }
        let shown = egui::Modal::new(egui::Id::unique("skinlab keys")).show(ui.ctx(), |ui| {
            ui.heading("Keys");
            egui::Grid::new("skinlab keys grid")
                .num_columns(2)
                .spacing([18.0, 6.0])
                .show(ui, |ui| {
                    for (key, does) in KEYS {
                        ui.label(RichText::new(*key).strong());
                        ui.label(*does);
                        ui.end_row();
                    }
                });
            ui.add_space(6.0);
            ui.button("Close").clicked()
        });
        if shown.inner || shown.should_close() {
            self.keys_shown = false;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::KEYS;

    /// README's table of keys names every key the overlay lists.
    #[test]
    fn readme_lists_every_key_the_overlay_does() {
        let readme = include_str!("../../README.md");
        let table = readme
            .split("## Keys")
            .nth(1)
            .and_then(|rest| rest.split("\n## ").next())
            .expect("README has a Keys section");
        for (key, _) in KEYS {
            assert!(
                table.contains(&format!("| {key}")),
                "README's Keys table has no row for `{key}`"
            );
        }
    }
}
