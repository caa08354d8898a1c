//! Keys that move the focus take effect before the keys after them.
//!
//! egui moves the focus (Tab, Shift+Tab) at the end of the frame that saw the key, so
//! text typed in the same frame still lands in the field being left. A slow frame (a
//! software renderer, a busy phone) gathers a Tab and the next characters into one
//! frame: `0.75`, Tab, `1.5` became `0.751` and `.5`. [`FocusFirst`] holds the events
//! after such a key back for the next frame, which sees the focus already moved.

use egui::{Event, Key, RawInput};

/// The events held back for the next frame.
#[derive(Default)]
pub struct FocusFirst {
    held: Vec<Event>,
}

/// Whether `event` moves the focus when pressed.
fn moves_focus(event: &Event) -> bool {
    matches!(
        event,
        Event::Key {
            key: Key::Tab,
            pressed: true,
            ..
        }
    )
}

impl FocusFirst {
    /// [`FocusFirst::split`], with another frame asked for while events are held.
    pub fn hold_back(&mut self, ctx: &egui::Context, raw: &mut RawInput) {
        if self.split(raw) {
            ctx.request_repaint();
        }
    }

    /// Puts the events held from the last frame before `raw`'s, then holds back those
    /// after the first key that moves the focus. Returns whether it holds any.
    pub fn split(&mut self, raw: &mut RawInput) -> bool {
        let mut events = std::mem::take(&mut self.held);
        events.append(&mut raw.events);
        // A key's release right after its press goes with it.
        let released = |e: Option<&Event>| {
            matches!(
                e,
                Some(Event::Key {
                    key: Key::Tab,
                    pressed: false,
                    ..
                })
            )
        };
        let cut = (events.iter().position(moves_focus))
            .map(|at| at + 1 + usize::from(released(events.get(at + 1))));
        if let Some(cut) = cut
            && events[cut..]
                .iter()
                .any(|e| !matches!(e, Event::PointerMoved(_)))
        {
            self.held = events.split_off(cut);
        }
        raw.events = events;
        !self.held.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(key: Key, pressed: bool) -> Event {
        Event::Key {
            key,
            physical_key: None,
            pressed,
            repeat: false,
            modifiers: egui::Modifiers::NONE,
        }
    }

    fn text(t: &str) -> Event {
        Event::Text(t.to_owned())
    }

    #[test]
    fn what_follows_a_tab_in_one_frame_waits_for_the_next() {
        let mut focus = FocusFirst::default();
        let mut raw = RawInput {
            events: vec![
                text("0.75"),
                key(Key::Tab, true),
                key(Key::Tab, false),
                text("1"),
                text(".5"),
            ],
            ..Default::default()
        };
        assert!(focus.split(&mut raw), "the rest is held");
        assert_eq!(
            raw.events,
            [text("0.75"), key(Key::Tab, true), key(Key::Tab, false)]
        );
        let mut next = RawInput::default();
        assert!(!focus.split(&mut next), "nothing more to hold");
        assert_eq!(next.events, [text("1"), text(".5")]);
        // Two Tabs in one frame: one a frame.
        let mut raw = RawInput {
            events: vec![
                key(Key::Tab, true),
                text("a"),
                key(Key::Tab, true),
                text("b"),
            ],
            ..Default::default()
        };
        assert!(focus.split(&mut raw));
        assert_eq!(raw.events, [key(Key::Tab, true)]);
        let mut next = RawInput::default();
        assert!(focus.split(&mut next));
        assert_eq!(next.events, [text("a"), key(Key::Tab, true)]);
        // A frame with no Tab passes as it came.
        let mut last = RawInput {
            events: vec![text("c")],
            ..Default::default()
        };
        assert!(!focus.split(&mut last));
        assert_eq!(last.events, [text("b"), text("c")]);
    }
}
