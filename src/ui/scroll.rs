//! Bringing a notebook cell into view: after a link or a click elsewhere names it.

use egui::Ui;

/// How many frames a scroll is repeated (the first frames still move the layout).
const FRAMES: u8 = 20;

/// How far below the notebook's top a cell brought into view starts, in points: the
/// prose that leads into it shows above.
pub const AIM_ABOVE: f32 = 120.0;

/// The cell to bring into view, if any, and how many more frames to try.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ScrollTo(Option<(&'static str, u8)>);

impl ScrollTo {
    /// Asks for `cell` to be scrolled into view over the next frames; `None` cancels.
    pub fn set(&mut self, cell: Option<&'static str>) {
        self.0 = cell.map(|c| (c, FRAMES));
    }

    /// The cell asked for and not yet brought into view, if any.
    pub fn target(&self) -> Option<&'static str> {
        self.0.map(|(cell, _)| cell)
    }

    /// Called at the top of each cell: scrolls there when `cell` is the one asked for.
    pub fn cell_ui(&mut self, cell: &str, ui: &Ui) {
        super::marks::cell_drawn(ui, cell);
        let Some((target, frames)) = self.0 else {
            return;
        };
        if target != cell {
            return;
        }
        // Once the reader types in a field, the field decides what is in view (a phone's
        // keyboard shrinks the window, and the field is scrolled to above it).
        if ui.ctx().text_edit_focused() {
            self.0 = None;
            return;
        }
        // Nor is a reader who scrolls, or presses anywhere, in the frames after the
        // first pulled back to the cell: the scroll is theirs now.
        // (A press elsewhere, on the bar's Presenter button, say, is not.)
        let notebook = ui.clip_rect();
        let moved = ui.input(|i| {
            let wheel = wheel_turned(i);
            let pressed_here = i.pointer.any_pressed()
                && i.pointer
                    .press_origin()
                    .is_some_and(|p| notebook.contains(p));
            wheel || (frames < FRAMES && pressed_here)
        });
        if moved {
            self.0 = None;
            return;
        }
        self.0 = frames
            .checked_sub(1)
            .filter(|f| *f > 0)
            .map(|f| (target, f));
        super::marks::cell_aimed_at(ui.ctx(), cell);
        // The frames come at once, not whenever the reader next moves.
        ui.ctx().request_repaint();
        // Aim a little above the cell, so the prose that leads into it shows too. At
        // once, not gliding: a screenshot, a deck's slide or a lecturer's link shows
        // the cell in its first frames, not on the way to it.
        let top = ui.cursor().top() - AIM_ABOVE;
        let left = ui.cursor().left();
        ui.scroll_to_rect_animation(
            egui::Rect::from_min_size(egui::pos2(left, top), egui::vec2(1.0, 1.0)),
            Some(egui::Align::TOP),
            egui::style::ScrollAnimation::none(),
        );
    }
}

/// Whether the reader turned a mouse wheel (or scrolled a touchpad) this frame.
pub fn wheel_turned(input: &egui::InputState) -> bool {
    (input.events.iter()).any(|e| matches!(e, egui::Event::MouseWheel { .. }))
}
