//! The interpolate cell's prediction: guess the nose's turn, reveal, try again.

use super::InterpolationPage;
use super::predict::{GUESS_LIMIT, Judgement};
use crate::link::Named;
use crate::pages::predict::Predicts;
use crate::pages::predict::verdict_color;
use crate::ui::mono_ui;
use egui::{RichText, Ui, WidgetInfo};
use skin::explain::rotation::Interp;

/// The true turn, the guess, the difference and the verdict, as the page writes them.
pub(super) fn judgement_text(truth: f32, guess: f32, j: &Judgement) -> String {
    format!(
        "the nose turned {truth:.1}°; your guess {guess:.1}°: off by {:.1}°, {}",
        j.distance,
        j.verdict.text()
    )
}

impl InterpolationPage {
    pub(super) fn predict_ui(&mut self, ui: &mut Ui) {
        let Some(p) = self.prediction else {
            if ui.button("Predict the nose's turn").clicked() {
                self.start_prediction();
            }
            return;
        };
        let method = self.method.slug().to_ascii_uppercase();
        ui.label(format!(
            "Predict: how many degrees is the glider's nose from A's nose (straight along +z) at t = {:.2} by {method}? B's nose is {:.1}° from A's.",
            self.t,
            self.nose_turn(self.method, 1.0),
        ));
        if self.method == Interp::Lerp {
            // What the squashed matrix mixes: A's nose and NLERP's, by the length.
            let length = self.interpolated(Interp::Lerp, self.t).length();
            let alpha = self.nose_turn(Interp::Nlerp, self.t);
            ui.label(
                "LERP's q(t) is shorter than 1, by its length ℓ. With α, NLERP's nose angle at the same t, the nose's angle θ from A is:",
            );
            mono_ui(
                ui,
                // Two lines: the chapter derives the formula, the cell gives its numbers.
                format!(
                    "ℓ = |q(t)| = {length:.3}, ℓ² = {:.3}; NLERP's nose: α = {alpha:.1}°\ntan θ = ℓ² sin α / (1 − ℓ² + ℓ² cos α)",
                    length * length,
                ),
            );
        }
        let hidden = self.answer_hidden();
        let mut guess = p.guess;
        let edited = ui
            .add_enabled_ui(hidden, |ui| {
                ui.horizontal_wrapped(|ui| {
                    ui.label("your guess");
                    let current = f64::from(guess);
                    let response = ui.add(
                        egui::DragValue::new(&mut guess)
                            .speed(0.5)
                            .max_decimals(1)
                            .custom_parser(move |text| {
                                crate::ui::numbers::typed_near(text, current, 1)
                            })
                            .range(0.0..=GUESS_LIMIT)
                            .suffix("°"),
                    );
                    response.widget_info(|| {
                        WidgetInfo::labeled(egui::Role::SpinButton, true, "guess degrees")
                    });
                    response.changed()
                })
                .inner
            })
            .inner;
        if edited && let Some(p) = &mut self.prediction {
            p.set_guess(guess);
        }
        ui.horizontal_wrapped(|ui| {
            if hidden {
                if ui.button("Reveal").clicked() {
                    self.reveal();
                }
            } else if ui.button("Try again").clicked()
                && let Some(p) = &mut self.prediction
            {
                p.revealed.hide();
            }
            if ui.button("Stop predicting").clicked() {
                self.prediction = None;
            }
        });
        if let Some((truth, j)) = self.judgement() {
            ui.label(
                RichText::new(judgement_text(truth, p.guess, &j))
                    .strong()
                    .color(crate::ui::legible(ui, verdict_color(j.verdict))),
            );
        } else if hidden {
            ui.label(
                RichText::new("The glider and its reading stay hidden until you reveal.").weak(),
            );
        }
    }
}
