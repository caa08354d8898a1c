//! The lecture deck on screen: which slide, whether the screen left the deck's slides,
//! why a slide failed, and whether the screen is blanked. The app opens the slides'
//! links; this keeps the lecture's place.

use crate::deck::{BUNDLED, Deck};
use egui::{RichText, Ui};

/// What the deck counter's buttons ask for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// Step this many slides (−1 back, 1 on).
    By(isize),
    /// Close the deck.
    Close,
}

/// Where a lecture stands.
#[derive(Debug, Default)]
pub struct Slides {
    /// The deck being stepped through, and the slide on screen (or the last one shown,
    /// when [`Slides::off_deck`]).
    on: Option<(Deck, usize)>,
    /// A link from the link box left the deck's slides: the next slide is the one
    /// after the last shown, and back shows that one again.
    off_deck: bool,
    /// Why the slide on screen could not be opened, said in place of the page.
    failure: Option<String>,
    /// The screen is blanked (B or `.`, as in slide software): black until pressed
    /// again or the slide moves on.
    pub blank: bool,
}

impl Slides {
    /// The deck and the slide on screen (counted from 0).
    pub fn deck(&self) -> Option<(&Deck, usize)> {
        self.on.as_ref().map(|(deck, slide)| (deck, *slide))
    }

    /// Whether a deck is being stepped through.
    pub fn is_on(&self) -> bool {
        self.on.is_some()
    }

    /// Why the slide on screen failed, if it did.
    pub fn failure(&self) -> Option<&str> {
        self.failure.as_deref()
    }

    /// Whether a link the user opened left the deck's slides.
    pub fn off_deck(&self) -> bool {
        self.off_deck
    }

    /// Slide `slide` of `deck` is on screen; `failure` says why its link was refused.
    pub fn show(&mut self, deck: Deck, slide: usize, failure: Option<String>) {
        self.on = Some((deck, slide));
        self.failure = failure;
        self.off_deck = false;
    }

    /// Takes the deck off, for the app to open one of its slides; `show` puts it back.
    pub fn take(&mut self) -> Option<(Deck, usize)> {
        self.on.take()
    }

    /// The user opened `link` themselves: the counter moves to the slide with that link,
    /// or the screen is off the deck.
    pub fn follow(&mut self, link: &str) {
        self.failure = None;
        if let Some((deck, slide)) = &mut self.on {
            match deck.slides.iter().position(|s| s.link == link.trim()) {
                Some(found) => {
                    *slide = found;
                    self.off_deck = false;
                }
                None => self.off_deck = true,
            }
        }
    }

    /// The slide `by` slides on (clamped to the deck's ends), taking the deck off to
    /// open it. Off the deck, forward is the slide after the last one shown and back is
    /// that slide again.
    pub fn step(&mut self, by: isize) -> Option<(Deck, usize)> {
        let (deck, slide) = self.on.take()?;
        let last = deck.slides.len() - 1;
        let by = if self.off_deck { by.max(0) } else { by };
        let next = slide.saturating_add_signed(by).min(last);
        Some((deck, next))
    }

    /// Stops stepping through the deck.
    pub fn close(&mut self) {
        *self = Self {
            blank: self.blank,
            ..Self::default()
        };
    }

    /// The `deck` key of the link on screen: a bundled deck's name and slide (from 1).
    /// A deck from a file has none: a link cannot carry the file.
    pub fn link_value(&self) -> Option<String> {
        let (deck, slide) = self.deck()?;
        BUNDLED
            .iter()
            .any(|(name, _)| *name == deck.name)
            .then(|| format!("{}:{}", deck.name, slide + 1))
    }
}

impl Slides {
    /// The deck's name, the slide's number and title (or that the screen left the
    /// deck), and buttons to step and close; what was pressed. Nothing without a deck.
    pub fn counter_ui(&self, ui: &mut Ui) -> Option<Step> {
        let (deck, slide) = self.deck()?;
        let text = if self.off_deck {
            format!(
                "{}: off the deck after slide {}/{} (PageDown goes on, PageUp goes back)",
                deck.name,
                slide + 1,
                deck.slides.len()
            )
        } else {
            format!(
                "{} {}/{}: {}",
                deck.name,
                slide + 1,
                deck.slides.len(),
                deck.slides[slide].title
            )
        };
        let (first, last) = (slide == 0, slide + 1 == deck.slides.len());
        let mut step = None;
        if ui
            .add_enabled(!first, egui::Button::new("<"))
            .on_hover_text("Previous slide (PageUp)")
            .clicked()
        {
            step = Some(Step::By(-1));
        }
        ui.label(RichText::new(text).strong());
        if ui
            .add_enabled(!last, egui::Button::new(">"))
            .on_hover_text("Next slide (PageDown)")
            .clicked()
        {
            step = Some(Step::By(1));
        }
        if ui
            .small_button("×")
            .on_hover_text("Close the deck")
            .clicked()
        {
            step = Some(Step::Close);
        }
        step
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use egui_kittest::kittest::Queryable as _;

    #[test]
    fn the_counter_names_the_slide_and_says_which_button_was_pressed() {
        let slides = lecture();
        let (deck, _) = slides.deck().expect("a deck is on");
        let title = format!(
            "{} 2/{}: {}",
            deck.name,
            deck.slides.len(),
            deck.slides[1].title
        );
        for (button, step) in [("<", Step::By(-1)), (">", Step::By(1)), ("×", Step::Close)] {
            let mut harness = egui_kittest::Harness::builder()
                .with_size(egui::vec2(1200.0, 100.0))
                .build_ui_state(
                    |ui, pressed: &mut Option<Step>| {
                        ui.horizontal_wrapped(|ui| {
                            if let Some(step) = slides.counter_ui(ui) {
                                *pressed = Some(step);
                            }
                        });
                    },
                    None,
                );
            harness.run();
            assert!(harness.query_by_label(&title).is_some(), "`{title}` shown");
            harness.get_by_label(button).click();
            harness.run();
            assert_eq!(*harness.state(), Some(step), "{button}");
        }
        let mut none = egui_kittest::Harness::new_ui(|ui| {
            assert_eq!(Slides::default().counter_ui(ui), None);
        });
        none.run();
    }

    fn lecture() -> Slides {
        let (name, text) = BUNDLED[0];
        let deck = Deck::parse(name, text).expect("a bundled deck parses");
        let mut slides = Slides::default();
        slides.show(deck, 1, None);
        slides
    }

    #[test]
    fn a_link_off_the_deck_steps_on_from_the_last_slide_shown() {
        let mut slides = lecture();
        assert_eq!(slides.link_value(), Some(format!("{}:2", BUNDLED[0].0)));
        slides.follow("xray?preset=nowhere_in_a_deck");
        assert!(slides.off_deck());
        let (deck, back) = slides.step(-1).expect("a deck is on");
        assert_eq!(back, 1, "back off the deck shows the last slide again");
        slides.show(deck, back, None);
        let (deck, next) = slides.step(1).expect("a deck is on");
        assert_eq!(next, 2);
        let first = deck.slides[0].link.clone();
        slides.show(deck, next, None);
        slides.follow(&first);
        assert_eq!(
            slides.deck().map(|(_, s)| s),
            Some(0),
            "a slide's link finds it"
        );
        slides.blank = true;
        slides.close();
        assert!(
            !slides.is_on() && slides.blank,
            "closing keeps the screen as it is"
        );
    }
}
