//! Scrubbing the gradient `ab = b · a⁻¹` one factor at a time from the right: the tip of
//! the grey F goes out of the world into frame a's own coordinates, then back into the
//! world at frame b. The slider and readout sit in the product cell, the dots in the
//! viewport.

use super::frames::{self, SCRUB_LOCAL};
use super::{GradientPage, Section};
use crate::ui::labels::step_path_ui;
use crate::ui::{Viewport, legible};
use egui::{Color32, FontId, Stroke, Ui};
use glam::Vec3;

/// The colour of the scrubbed point, its path and its readout.
pub const SCRUB: Color32 = Color32::from_rgb(80, 215, 255);
/// The faint cross at the world origin, where step 1's numbers are drawn from.
const CROSS: Color32 = Color32::from_rgba_premultiplied(56, 150, 178, 180);
/// The scrub's steps: `p`, `a⁻¹ · p`, `b · a⁻¹ · p`. The largest `scrub=` is one less.
pub const STEPS: usize = 3;
/// Each step's dot label in the viewport (monospace: the proportional font has no `⁻`).
const LABELS: [&str; STEPS] = ["0: p, world", "1: a⁻¹ · p, in a", "2: b · a⁻¹ · p, world"];

fn xy(p: Vec3) -> String {
    format!("({:.2}, {:.2})", p.x + 0.0, p.y + 0.0)
}

impl GradientPage {
    /// The scrub step shown, at most 2; `None` when not scrubbing.
    pub fn scrub_step(&self) -> Option<usize> {
        self.scrub.map(|k| k.min(STEPS - 1))
    }

    /// The tip of the grey F (placed by `a`) after 0, 1 and 2 factors of `b · a⁻¹`.
    pub fn scrub_points(&self) -> [Vec3; STEPS] {
        let [a, b] = self.frames;
        let p = a.transform_point3(SCRUB_LOCAL);
        // `a` is kept invertible; were it not, its own numbers are still SCRUB_LOCAL.
        frames::scrub(&a, &b, p).unwrap_or([p, SCRUB_LOCAL, b.transform_point3(SCRUB_LOCAL)])
    }

    /// Where the viewport draws the scrub's dots, one per step so far, step 0 first;
    /// empty when not scrubbing or when the viewport shows another section. Step 1 is
    /// drawn at its own numbers, as if frame a sat at the world origin.
    pub fn scrub_dots(&self) -> Vec<Vec3> {
        match self.scrub_step() {
            Some(k) if self.section == Section::Matrices => self.scrub_points()[..=k].to_vec(),
            _ => Vec::new(),
        }
    }

    /// Where the point is after step `k`, in words.
    fn scrub_sentence(&self, k: usize) -> String {
        let at = xy(self.scrub_points()[k]);
        match k {
            0 => format!(
                "Step 0: p = {at}, the tip of the grey F in the world. No factor applied yet."
            ),
            1 => format!(
                "Step 1: a⁻¹ · p = {at}. Out of the world: the tip's numbers in frame a's own coordinates, drawn from the world origin."
            ),
            _ => format!(
                "Step 2: b · a⁻¹ · p = {at}. Back in the world, at frame b: the tip of the yellow F, the same as ab · p."
            ),
        }
    }

    /// The scrub's box, slider and readout, under the product.
    pub(super) fn scrub_ui(&mut self, ui: &mut Ui) {
        let mut on = self.scrub.is_some();
        if ui
            .checkbox(
                &mut on,
                "Scrub the F's tip through ab, one factor at a time",
            )
            .changed()
        {
            self.scrub = on.then_some(0);
            self.section = Section::Matrices;
        }
        let Some(mut k) = self.scrub_step() else {
            return;
        };
        let slider = egui::Slider::new(&mut k, 0..=STEPS - 1).step_by(1.0);
        if crate::ui::slider_ui(ui, slider, "factors applied, from the right").changed() {
            self.section = Section::Matrices;
        }
        self.scrub = Some(k);
        let ink = legible(ui, SCRUB);
        crate::ui::listing::lines_ui(ui, &self.scrub_sentence(k), |t| t.color(ink));
    }

    /// The scrub's dots in the viewport, joined, the current one larger; a faint cross at
    /// the origin once the point is in frame a's coordinates.
    pub(super) fn scrub_overlay_ui(&self, ui: &Ui, vp: &Viewport) {
        let Some(k) = self.scrub_step() else {
            return;
        };
        let painter = ui.painter_at(vp.rect());
        if k >= 1 {
            let cross = Stroke::new(1.5, CROSS);
            for axis in [Vec3::X, Vec3::Y] {
                if let (Some(from), Some(to)) = (vp.to_screen(-axis), vp.to_screen(axis * 1.5)) {
                    painter.line_segment([from, to], cross);
                }
            }
            if let Some(o) = vp.to_screen(Vec3::ZERO) {
                vp.label(
                    ui,
                    o,
                    "frame a's own coordinates",
                    FontId::proportional(14.0),
                    CROSS,
                    egui::vec2(-1.0, 1.0),
                );
            }
        }
        // Monospace: the proportional font has no superscript minus.
        let labels: Vec<String> = LABELS.iter().map(|l| (*l).to_owned()).collect();
        step_path_ui(
            ui,
            vp,
            &self.scrub_dots(),
            &labels,
            egui::FontFamily::Monospace,
            SCRUB,
        );
    }

    /// What the cyan dot is at the scrub's step, for the viewport's caption.
    pub(super) fn scrub_note(&self) -> Option<&'static str> {
        Some(match self.scrub_step()? {
            0 => "Cyan: p, the tip of the grey F, before any factor.",
            1 => "Cyan: after a⁻¹, the tip's numbers in frame a, drawn from the world origin.",
            _ => "Cyan: after b, back in the world, on the tip of the yellow F.",
        })
    }
}
