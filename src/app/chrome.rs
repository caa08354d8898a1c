//! The window around the page: keys, the top bar (link box, copy, deck counter, presenter),
//! the page list and the drop hint.

use super::*;

impl SkinlabApp {
    pub(super) fn keyboard(&mut self, ui: &Ui) {
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
        let in_deck = self.slides.is_on();
        // B, or the full stop a clicker's blank button sends, blanks the screen as
        // slide software does; the same key brings it back. Only for a lecture
        // (presenter mode or a deck): a student typing a decimal point into a field
        // that lost the keyboard would otherwise black the window out.
        let blank = ui.input(|i| i.key_pressed(Key::B) || i.key_pressed(Key::Period));
        if blank && !typing && (self.presenter || in_deck || self.slides.blank) {
            self.slides.blank = !self.slides.blank;
        }
        self.ink.keys(ui, typing);
        // `?` is for the list of keys unless text is being typed (a viewport or a
        // button with the keyboard leaves it free).
        self.keys_ui(ui, ui.ctx().text_edit_focused());
        // A clicker's start and stop buttons send F5 and Esc: in a deck, F5 only ever
        // starts presenter mode and Esc leaves nothing, so neither undoes the slide.
        if f5 && in_deck {
            self.presenter = true;
        } else if f5 || (p && !typing) {
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
        if escape && self.focus.is_some() && !in_deck {
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
        // The text changed size, and so did the viewport: frame it again.
        if bigger || smaller || reset {
            self.frame_view();
        }
        // In a deck every key a clicker may send for "next" or "back" steps a slide:
        // PageDown and PageUp unless text is being typed; Space, Enter and the arrows
        // unless a control has the keyboard (a focused slider takes its arrows).
        // Outside a deck the arrows turn pages.
        let (page_down, page_up, space, enter) = ui.input(|i| {
            (
                i.key_pressed(Key::PageDown),
                i.key_pressed(Key::PageUp),
                i.key_pressed(Key::Space),
                i.key_pressed(Key::Enter),
            )
        });
        if in_deck {
            let editing = ui.ctx().text_edit_focused();
            let free = !typing;
            let forward = (page_down && !editing) || (free && (space || enter || right));
            let back = (page_up && !editing) || (free && left);
            if forward {
                self.step_deck(1);
            }
            if back {
                self.step_deck(-1);
            }
            // A step brings a blanked screen back on the new slide, as slide software
            // does: the lecturer moving on wants the room to see it.
            if forward || back {
                self.slides.blank = false;
            }
        } else if !typing {
            if left {
                self.previous();
            }
            if right {
                self.next();
            }
        }
    }

    /// The page bar's Previous or Next: the page before or after in lesson order. In a
    /// deck that leaves the slides, and the deck's counter says "off the deck" (unless
    /// the page opens as a slide does); PageDown and PageUp step the deck.
    fn turn_page(&mut self, forward: bool) {
        if forward {
            self.next();
        } else {
            self.previous();
        }
        if self.slides.is_on() {
            let link = self.current_link().to_string();
            self.follow_in_deck(&link);
        }
    }

    pub(super) fn top_bar_ui(&mut self, ui: &mut Ui) {
        if self.focus.is_none() && (self.compact || self.embedded) {
            self.compact_bar_ui(ui);
        } else {
            self.full_bar_ui(ui);
        }
        // A focused slide has the deck's counter in its one row (see full_bar_ui).
        if self.slides.is_on() && self.focus.is_none() {
            ui.horizontal_wrapped(|ui| self.deck_counter_ui(ui));
        }
        self.zoom_row_ui(ui);
        let mut dismissed = None;
        for (i, notice) in self.notices.iter().enumerate() {
            // Wrapped: a long message stays on the screen.
            ui.horizontal_top(|ui| {
                if ui.small_button("×").on_hover_text("Dismiss").clicked() {
                    dismissed = Some(i);
                }
                let text = RichText::new(notice).color(ui.visuals().warn_fg_color);
                ui.add(egui::Label::new(text).wrap());
            });
        }
        if let Some(i) = dismissed {
            self.notices.remove(i);
        }
    }

    /// One row for a phone or the book's frame: the page menu, previous and next, the
    /// page's title, and a menu for the rest (reset, frame, presenter, the link).
    /// Inside the book the chapter is the guide: no page menu, previous or next.
    fn compact_bar_ui(&mut self, ui: &mut Ui) {
        let target = egui::vec2(ui.spacing().interact_size.y, ui.spacing().interact_size.y);
        ui.horizontal(|ui| {
            if !self.embedded {
                let pages = ui.menu_button("Pages", |ui| {
                    if let Some(i) = self.pages.list_ui(ui) {
                        self.go_to(i);
                        ui.close();
                    }
                });
                pages.response.on_hover_text("Every page, in lesson order");
                let last = PAGES.len() - 1;
                let back = egui::Button::new("<").min_size(target);
                if ui
                    .add_enabled(self.pages.current() > 0, back)
                    .on_hover_text("Previous page")
                    .clicked()
                {
                    self.turn_page(false);
                }
                let on = egui::Button::new(">").min_size(target);
                if ui
                    .add_enabled(self.pages.current() < last, on)
                    .on_hover_text("Next page")
                    .clicked()
                {
                    self.turn_page(true);
                }
            }
            ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                // A tap in the menu's link box is for typing there: only a tap outside
                // the menu, or one of its buttons, closes it.
                let config = egui::containers::menu::MenuConfig::new()
                    .close_behavior(egui::PopupCloseBehavior::CloseOnClickOutside);
                let (more, _) = egui::containers::menu::MenuButton::new("More")
                    .config(config)
                    .ui(ui, |ui| self.more_menu_ui(ui));
                crate::ui::marks::control_drawn(&more, "menu");
                more.on_hover_text("Reset, frame, presenter mode and this view's link");
                if self.embedded
                    && ui
                        .button("Reset")
                        .on_hover_text("Back to this page's defaults")
                        .clicked()
                {
                    self.reset_page();
                }
                let title = RichText::new(self.pages.page().title()).strong();
                ui.add(egui::Label::new(title).truncate());
            });
        });
    }

    /// The compact bar's menu: what the full bar holds beside the page buttons. The
    /// link box goes first, nearest the top of the screen, where a phone's keyboard
    /// leaves it in view even when the phone lies on its side.
    fn more_menu_ui(&mut self, ui: &mut Ui) {
        let label = ui.label("This view's link:");
        let enter = self.link_box_ui(ui, ui.available_width().max(200.0), label.id);
        if ui.button("Open this link").clicked() || enter {
            let text = self.link_text.clone();
            self.follow_link(&text);
            ui.close();
        }
        self.copy_menu_ui(ui);
        if self.embedded
            && let Some(address) = &self.web_address
        {
            let link = self.current_link().to_string();
            if ui
                .hyperlink_to("Open in a tab of its own", format!("{address}#{link}"))
                .clicked()
            {
                ui.close();
            }
        }
        ui.separator();
        if ui.button("Reset page").clicked() {
            self.reset_page();
            ui.close();
        }
        if ui
            .add_enabled(
                self.pages.page().camera().is_some(),
                egui::Button::new("Frame the view"),
            )
            .clicked()
        {
            self.frame_view();
            ui.close();
        }
        if !self.embedded
            && ui
                .toggle_value(&mut self.presenter, "Presenter mode")
                .clicked()
        {
            ui.close();
        }
    }

    /// The full top bar, on one row or wrapped: the page buttons, reset, frame,
    /// presenter, the link box and copy.
    fn full_bar_ui(&mut self, ui: &mut Ui) {
        ui.horizontal_wrapped(|ui| {
            if self.focus.is_some() && self.slides.is_on() {
                // A focused slide keeps one row of bar for the screen's height: the
                // deck's counter, which steps the slides, takes the page buttons' place.
                self.deck_counter_ui(ui);
            } else {
                let last = PAGES.len() - 1;
                if ui
                    .add_enabled(self.pages.current() > 0, egui::Button::new("Previous"))
                    .on_hover_text("Previous page (left arrow key)")
                    .clicked()
                {
                    self.turn_page(false);
                }
                if ui
                    .add_enabled(self.pages.current() < last, egui::Button::new("Next"))
                    .on_hover_text("Next page (right arrow key)")
                    .clicked()
                {
                    self.turn_page(true);
                }
            }
            ui.separator();
            if let Some(target) = self.focus {
                // Focus mode keeps one row of controls, for the screen's height. In a
                // deck the slide's title says what is shown.
                if !self.slides.is_on() {
                    ui.label(
                        RichText::new(format!("{}: {target}", self.pages.page().title())).strong(),
                    );
                }
                if ui
                    .button("Show the whole page")
                    .on_hover_text("Leave focus (Esc or F)")
                    .clicked()
                {
                    self.focus = None;
                }
                self.frame_button_ui(ui);
                // A slide's bar keeps to one row: its link is copied from the page.
                if !self.slides.is_on() {
                    self.copy_button_ui(ui);
                }
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
            // Wide enough for long links, leaving room for the buttons.
            let width = (ui.available_size_before_wrap().x - 200.0).clamp(120.0, 900.0);
            let enter = self.link_box_ui(ui, width, label.id);
            if ui.button("Open").clicked() || enter {
                let text = self.link_text.clone();
                self.follow_link(&text);
            }
            self.copy_button_ui(ui);
        });
    }

    /// The link box, `width` points wide and labelled by `label`: it shows the link of
    /// what is on screen unless it is being typed in. Whether Enter was pressed in it.
    fn link_box_ui(&mut self, ui: &mut Ui, width: f32, label: egui::Id) -> bool {
        let edit = ui
            .add(
                egui::TextEdit::singleline(&mut self.link_text)
                    .desired_width(width)
                    .font(egui::TextStyle::Monospace)
                    .align(egui::Align2::LEFT_CENTER)
                    .hint_text("page link, e.g. grid?angle=0.8"),
            )
            .labelled_by(label)
            .on_hover_text("This page's link. Paste a link and press Enter to open it.");
        crate::ui::marks::control_drawn(&edit, "link");
        self.link_field_drawn = Some(edit.has_focus() || edit.lost_focus());
        if !edit.has_focus() && !edit.lost_focus() {
            self.link_text = self.current_link().to_string();
        }
        edit.lost_focus() && ui.input(|i| i.key_pressed(Key::Enter))
    }

    /// After Ctrl + or Ctrl −: the size is for this session, unless kept.
    fn zoom_row_ui(&mut self, ui: &mut Ui) {
        match self.zoom.row_ui(ui, self.presenter) {
            Some(layout::ZoomChoice::Keep) => self.keep_zoom(),
            Some(layout::ZoomChoice::Back(kept)) => {
                self.set_zoom(kept);
                self.frame_view();
            }
            None => {}
        }
    }

    pub(super) fn frame_button_ui(&mut self, ui: &mut Ui) {
        if ui
            .add_enabled(
                self.pages.page().camera().is_some(),
                egui::Button::new("Frame"),
            )
            .on_hover_text("Fit the view to what the viewport shows (Home key)")
            .clicked()
        {
            self.frame_view();
        }
    }

    pub(super) fn copy_button_ui(&mut self, ui: &mut Ui) {
        ui.menu_button("Copy link", |ui| self.copy_menu_ui(ui))
            .response
            .on_hover_text("Copy this view as a link, a web address or a command");
    }

    /// Where the deck is, with buttons to step ([`slides::Slides::counter_ui`]).
    pub(super) fn deck_counter_ui(&mut self, ui: &mut Ui) {
        match self.slides.counter_ui(ui) {
            Some(slides::Step::By(by)) => self.step_deck(by),
            Some(slides::Step::Close) => self.close_deck(),
            None => {}
        }
    }

    /// The ways to copy the view: the link itself, the web address that opens it (in
    /// the browser) and the command that opens it (on the desktop).
    pub(super) fn copy_menu_ui(&mut self, ui: &mut Ui) {
        let link = self.current_link().to_string();
        let mut choices = vec![("the link", link.clone())];
        if let Some(address) = &self.web_address {
            choices.push(("the web address", format!("{address}#{link}")));
        }
        choices.push(("a command", format!("skinlab '{link}'")));
        for (what, text) in choices {
            let shown = crate::ui::labels::shortened(&text, 48);
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

    pub(super) fn page_list_ui(&mut self, ui: &mut Ui) {
        ui.add_space(6.0);
        ui.label(RichText::new("skinlab").size(22.0).strong());
        ui.label(RichText::new("mesh skinning, live").weak());
        ui.separator();
        if let Some(i) = self.pages.list_ui(ui) {
            self.go_to(i);
        }
    }

    /// Files held over the window: a hint where they go (the wrappers open them).
    pub(super) fn drop_hint_ui(&self, ui: &Ui) {
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
                "Drop a .glb or .gltf file to open it on the model page,\nor a deck (.txt) to step through it",
                egui::FontId::proportional(26.0),
                egui::Color32::WHITE,
            );
        }
    }
}
