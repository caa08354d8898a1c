//! Scrubbing the head vertex through the head's palette `W · B⁻¹`, one factor at a time
//! from the right: the slider and readout in the head example's cell, the dots in the
//! viewport.

use super::data::{self, HEAD, HEAD_VERTEX, JOINT_NAMES};
use super::view::point_text;
use super::{BindingPage, Stage};
use crate::pages::predict::Predicts;
use crate::ui::labels::step_path_ui;
use crate::ui::{Viewport, legible};
use egui::{Align2, Color32, FontId, RichText, Stroke, Ui};
use glam::Vec3;

/// The colour of the scrubbed point, its path and its readout.
pub const SCRUB: Color32 = Color32::from_rgb(25, 95, 215);
/// The faint axis cross of the head's frame, moved to the world origin.
const CROSS: Color32 = Color32::from_rgba_premultiplied(25, 95, 215, 110);
/// The scrub's steps: `v`, `B⁻¹ · v`, `W · B⁻¹ · v`. The largest `scrub=` is one less.
pub const STEPS: usize = 3;
/// Each step's dot label in the viewport.
const LABELS: [&str; STEPS] = [
    "0: v, bind pose",
    "1: B⁻¹ · v, head's frame",
    "2: W · B⁻¹ · v, world",
];

impl BindingPage {
    /// The scrub step shown, at most 2; `None` when not scrubbing.
    pub fn scrub_step(&self) -> Option<usize> {
        self.scrub.map(|k| k.min(STEPS - 1))
    }

    /// The head vertex after 0, 1 and 2 factors of the head's `W · B⁻¹`, from the right.
    pub fn scrub_points(&self) -> [Vec3; STEPS] {
        data::scrub(
            self.world_from_joint()[HEAD],
            self.joint_from_bind[HEAD],
            self.assets.bind_space.skin.positions[HEAD_VERTEX],
        )
    }

    /// Where the viewport draws the scrub's dots, one per step so far, step 0 first;
    /// empty when not scrubbing or when the viewport shows stage one. Step 1 is drawn at
    /// its numbers in the head's frame, as if that frame sat at the world origin.
    pub fn scrub_dots(&self) -> Vec<Vec3> {
        match self.scrub_step() {
            // While predicting, the last step (where the vertex lands) waits.
            Some(k) if self.stage == Stage::BindSpace => {
                let k = if self.answer_hidden() {
                    k.min(STEPS - 2)
                } else {
                    k
                };
                self.scrub_points()[..=k].to_vec()
            }
            _ => Vec::new(),
        }
    }

    /// Where the point is after step `k`, in words.
    fn scrub_sentence(&self, k: usize) -> String {
        let points = self.scrub_points();
        let at = point_text(points[k]);
        match k {
            0 => format!(
                "Step 0: v = {at}. No factor yet: the head vertex as stored, where it sat in the bind pose."
            ),
            1 => format!(
                "Step 1: B⁻¹ · v = {at}. The same point in the head's own frame: its numbers as the head sees them. The viewport draws them from the world origin, as if the head's frame sat there."
            ),
            _ if self.answer_hidden() => {
                "Step 2 is hidden until you reveal your prediction.".to_owned()
            }
            _ if self.forget_inverse_bind => format!(
                "Step 2: W · B⁻¹ · v = {at}. In the world, where the vertex belongs. With B⁻¹ forgotten, the shader draws W · v = {} instead.",
                point_text(self.world_from_joint()[HEAD].transform_point3(points[0]))
            ),
            _ => format!("Step 2: W · B⁻¹ · v = {at}. In the world, where the shader draws it."),
        }
    }

    /// The scrub's box, slider and readout, in the head example's cell.
    pub(super) fn scrub_ui(&mut self, ui: &mut Ui) {
        let mut on = self.scrub.is_some();
        if crate::ui::checkbox_ui(
            ui,
            &mut on,
            "Scrub the head vertex through W · B⁻¹, from the right",
        )
        .changed()
        {
            self.scrub = on.then_some(0);
            self.stage = Stage::BindSpace;
        }
        let Some(mut k) = self.scrub_step() else {
            return;
        };
        let slider = egui::Slider::new(&mut k, 0..=STEPS - 1)
            .step_by(1.0)
            .text("factors applied");
        if ui.add(slider).changed() {
            self.stage = Stage::BindSpace;
        }
        self.scrub = Some(k);
        // The notebook may be dark: a lighter blue there.
        let color = if ui.visuals().dark_mode {
            Color32::from_rgb(120, 175, 255)
        } else {
            SCRUB
        };
        ui.add(
            egui::Label::new(RichText::new(self.scrub_sentence(k)).color(legible(ui, color)))
                .wrap(),
        );
    }

    /// The scrub's note at the viewport's foot, written before the labels so they keep
    /// off it.
    pub(super) fn scrub_note_ui(&self, ui: &Ui, vp: &Viewport) {
        if !self.scrub_dots().is_empty() {
            vp.note(
                ui,
                Align2::LEFT_BOTTOM,
                "Blue: the head vertex after each factor of W · B⁻¹, from the right. Step 1 is drawn at its numbers in the head's frame, as if that frame sat at the world origin.",
                FontId::proportional(15.0),
                SCRUB,
            );
        }
    }

    /// The scrubbed point in the viewport: a dot per step so far, joined and labelled,
    /// the current one larger; from step 1 on, the head's frame drawn at the origin.
    pub(super) fn scrub_overlay_ui(&self, ui: &Ui, vp: &Viewport) {
        let dots = self.scrub_dots();
        let Some(k) = dots.len().checked_sub(1) else {
            return;
        };
        if k >= 1 {
            let painter = ui.painter_at(vp.rect());
            let arm = |a: Vec3, b: Vec3| {
                if let (Some(a), Some(b)) = (vp.to_screen(a), vp.to_screen(b)) {
                    painter.line_segment([a, b], Stroke::new(1.5, CROSS));
                }
            };
            arm(Vec3::new(-0.5, 0.0, 0.0), Vec3::new(0.8, 0.0, 0.0));
            arm(Vec3::new(0.0, -0.5, 0.0), Vec3::new(0.0, 0.8, 0.0));
            if let Some(tip) = vp.to_screen(Vec3::new(0.8, 0.0, 0.0)) {
                vp.label(
                    ui,
                    tip,
                    format!("{}'s frame, at the origin", JOINT_NAMES[HEAD]),
                    FontId::proportional(14.0),
                    SCRUB,
                    egui::vec2(1.0, -1.0),
                );
            }
        }
        let labels: Vec<String> = LABELS[..=k].iter().map(|l| (*l).to_owned()).collect();
        step_path_ui(
            ui,
            vp,
            &dots,
            &labels,
            egui::FontFamily::Proportional,
            SCRUB,
        );
    }
}
