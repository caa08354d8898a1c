//! Presenter tools, as in slide software: a laser pointer (L), a large red dot that
//! follows the pointer, and a pen (D) that draws over the whole window. E wipes the ink;
//! the next slide, and another page, start clean. Either key again puts the tool away.

use egui::{Key, Ui};

/// What the pointer does besides pointing.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Tool {
    /// Nothing: the app as usual.
    #[default]
    None,
    /// A red dot for the back row.
    Laser,
    /// Drags draw lines over the window (and turn nothing).
    Pen,
}

/// The laser's dot and the pen's line, in points.
const LASER_RADIUS: f32 = 12.0;
const INK_WIDTH: f32 = 4.0;
const LASER: egui::Color32 = egui::Color32::from_rgb(235, 25, 25);
const INK: egui::Color32 = egui::Color32::from_rgb(220, 20, 90);

/// The presenter's tools and what the pen drew: a concern of its own, which the app
/// holds and asks to draw over each frame.
#[derive(Debug, Default)]
pub struct Ink {
    tool: Tool,
    /// The pen's lines, each a list of points.
    lines: Vec<Vec<egui::Pos2>>,
    /// The page and slide the lines were drawn on: another one starts clean.
    at: (usize, Option<usize>),
}

impl Ink {
    /// The tool in hand.
    pub fn tool(&self) -> Tool {
        self.tool
    }

    /// The pen's lines on screen, each a list of points.
    pub fn lines(&self) -> &[Vec<egui::Pos2>] {
        &self.lines
    }

    /// L, D and E (not while typing): the laser, the pen, wipe.
    pub fn keys(&mut self, ui: &Ui, typing: bool) {
        if typing {
            return;
        }
        let (laser, pen, wipe) = ui.input(|i| {
            let plain = !i.modifiers.command && !i.modifiers.alt;
            (
                plain && i.key_pressed(Key::L),
                plain && i.key_pressed(Key::D),
                plain && i.key_pressed(Key::E),
            )
        });
        self.press(laser, pen, wipe);
    }

    /// What the keys do: L or D takes that tool, or puts it away if it is in hand; E
    /// wipes the ink.
    fn press(&mut self, laser: bool, pen: bool, wipe: bool) {
        let toggle = |now: Tool, tool: Tool| if now == tool { Tool::None } else { tool };
        if laser {
            self.tool = toggle(self.tool, Tool::Laser);
        }
        if pen {
            self.tool = toggle(self.tool, Tool::Pen);
        }
        if wipe {
            self.lines.clear();
        }
    }

    /// The ink belongs to page `at.0` (slide `at.1` of a deck): another page or slide
    /// wipes it.
    fn follow(&mut self, at: (usize, Option<usize>)) {
        if self.at != at {
            self.lines.clear();
            self.at = at;
        }
    }

    /// The laser's dot or the pen's surface, and the ink, over everything else, on page
    /// `at.0` (slide `at.1`).
    pub fn ui(&mut self, ui: &Ui, at: (usize, Option<usize>)) {
        self.follow(at);
        let ctx = ui.ctx();
        let layer = egui::LayerId::new(egui::Order::Foreground, egui::Id::unique("presenter_ink"));
        let painter = ctx.layer_painter(layer);
        match self.tool {
            Tool::None => {}
            Tool::Laser => {
                if let Some(pos) = ctx.pointer_hover_pos() {
                    painter.circle_filled(pos, LASER_RADIUS * 1.8, LASER.gamma_multiply(0.25));
                    painter.circle_filled(pos, LASER_RADIUS, LASER);
                    ctx.set_cursor_icon(egui::CursorIcon::None);
                }
            }
            Tool::Pen => {
                // A surface over the whole window takes every drag, so drawing turns
                // no view and moves no slider.
                let screen = ctx.content_rect();
                egui::Area::new(egui::Id::unique("presenter_pen"))
                    .order(egui::Order::Foreground)
                    .fixed_pos(screen.min)
                    .show(ctx, |ui| {
                        let response = ui.allocate_response(screen.size(), egui::Sense::drag());
                        if response.drag_started() {
                            self.lines.push(Vec::new());
                        }
                        if response.dragged()
                            && let (Some(pos), Some(line)) =
                                (response.interact_pointer_pos(), self.lines.last_mut())
                            && line.last().is_none_or(|last| last.distance(pos) > 1.0)
                        {
                            line.push(pos);
                        }
                    })
                    .response
                    .on_hover_cursor(egui::CursorIcon::Crosshair);
            }
        }
        // A tool that is on says so, in a corner, whether or not the pointer is over
        // the window: a lecturer who pressed L or D by chance sees why clicks draw.
        let on = match self.tool {
            Tool::None => None,
            Tool::Laser => Some("Laser on: L turns it off"),
            Tool::Pen => Some("Pen on: D turns it off, E wipes"),
        };
        if let Some(text) = on {
            let color = egui::Color32::from_rgb(255, 120, 110);
            let galley =
                painter.layout_no_wrap(text.to_owned(), egui::FontId::proportional(15.0), color);
            let corner = ctx.content_rect().right_bottom() - egui::vec2(18.0, 18.0);
            let rect = egui::Align2::RIGHT_BOTTOM.anchor_size(corner, galley.size());
            painter.rect_filled(rect.expand(6.0), 4.0, egui::Color32::from_black_alpha(200));
            painter.galley(rect.min, galley, color);
        }
        for line in &self.lines {
            painter.add(egui::Shape::line(
                line.clone(),
                egui::Stroke::new(INK_WIDTH, INK),
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_takes_its_tool_or_puts_it_away_and_another_slide_starts_clean() {
        let mut ink = Ink::default();
        ink.press(true, false, false);
        assert_eq!(ink.tool(), Tool::Laser);
        ink.press(false, true, false);
        assert_eq!(ink.tool(), Tool::Pen, "D swaps the laser for the pen");
        ink.press(false, true, false);
        assert_eq!(ink.tool(), Tool::None, "D again puts the pen away");
        ink.lines.push(vec![egui::pos2(1.0, 2.0)]);
        ink.follow((0, None));
        assert_eq!(ink.lines().len(), 1, "the same page keeps its ink");
        ink.follow((0, Some(1)));
        assert!(ink.lines().is_empty(), "the next slide starts clean");
        ink.lines.push(vec![egui::pos2(1.0, 2.0)]);
        ink.press(false, false, true);
        assert!(ink.lines().is_empty(), "E wipes");
    }
}
