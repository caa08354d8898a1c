//! The predict cell: pick a vertex, place a guess, reveal, try again.

use super::predict::{Judgement, judge};
use super::*;
use crate::pages::predict::{guess_fields_ui, verdict_ui};

impl GridPage {
    /// The predicted vertex judged: where it lands and how far the guess is from it,
    /// `None` while hidden.
    pub fn judgement(&self) -> Option<(Vec2, Judgement)> {
        let p = self.prediction.filter(|_| self.revealed())?;
        let truth = self.pose().skinned.get(p.vertex())?.truncate();
        Some((truth, judge(p.guess, truth)))
    }

    pub(super) fn predict_cell_ui(&mut self, ui: &mut Ui) {
        let Some(mut p) = self.prediction else {
            if ui
                .button(format!("Predict vertex {DEFAULT_PREDICT}"))
                .clicked()
            {
                self.start_prediction(DEFAULT_PREDICT);
            }
            return;
        };
        ui.horizontal_wrapped(|ui| {
            ui.label("Predict vertex:");
            for i in 0..data::POSITIONS.len() {
                if ui
                    .selectable_label(p.vertex() == i, i.to_string())
                    .clicked()
                    && p.vertex() != i
                {
                    self.start_prediction(i);
                }
            }
        });
        if let Some(started) = self.prediction {
            p = started;
        }
        let v = p.vertex();
        let [x, y] = data::POSITIONS[v];
        let bones: Vec<String> = data::WEIGHTS[v]
            .iter()
            .map(|(bone, w)| format!("b{bone} × {w}"))
            .collect();
        ui.label(format!(
            "Vertex {v} sits at ({x}, {y}) in the bind pose and follows {}. Where does it land now?",
            bones.join(" + ")
        ));
        let revealed = self.revealed();
        if let Some(guess) = guess_fields_ui(ui, p.guess, GUESS_LIMIT, revealed)
            && let Some(p) = &mut self.prediction
        {
            p.set_guess(guess);
        }
        if !revealed {
            ui.label(
                RichText::new("Drag the blue ring in the viewport, or type the numbers.").weak(),
            );
            if ui.button("Reveal").clicked() {
                self.reveal();
            }
        } else if let Some((truth, j)) = self.judgement() {
            let style = self.inspect_style();
            ui.label(format!(
                "vertex {v} lands at {}; your guess {}",
                style.point(truth.extend(0.0)),
                style.point(p.guess.extend(0.0)),
            ));
            verdict_ui(ui, &j);
            let pose = self.pose();
            if let Some(b) = VertexBreakdown::new(&pose.uploaded, &self.mesh.skin, v) {
                breakdown_ui(ui, &b, &style);
            }
            if ui.button("Try again").clicked()
                && let Some(p) = &mut self.prediction
            {
                p.revealed.hide();
            }
        }
        if ui.button("Stop predicting").clicked() {
            self.prediction = None;
        }
    }
}
