//! Scrubbing the product: the selected joint's origin carried through the chain one
//! factor at a time, from the right, with the readout in the chain cell and the path in
//! the viewport.

use super::HierarchyPage;
use super::text::{decimals_of, vec_text_with, wrapped};
use super::walk::{self, ChainStep};
use crate::ui::labels::step_path_ui;
use crate::ui::{Viewport, legible};
use egui::text::{LayoutJob, TextFormat};
use egui::{Align2, Color32, FontId, RichText, Stroke, Ui};
use glam::Vec3;
use rigs::humanoid::{self, JOINTS};

/// The colour of the scrubbed point and of the factor just applied.
pub const SCRUB: Color32 = Color32::from_rgb(80, 215, 255);
/// The point scrubbed through the product: the selected joint's own origin.
pub const SCRUB_POINT: Vec3 = Vec3::ZERO;
/// The most factors any chain of the figure has (root to hand: 7), the largest `scrub=`.
pub const MOST_FACTORS: usize = 7;

fn name(joint: usize) -> &'static str {
    JOINTS[joint].name
}

/// Where the point is after `applied` factors of `steps`, in words.
fn frame_words(steps: &[ChainStep], applied: usize) -> String {
    match walk::frame_after(steps, applied) {
        Some(joint) => format!("in {}'s frame", name(joint)),
        None => "in the world".to_owned(),
    }
}

impl HierarchyPage {
    /// How many factors the selected joint's world matrix has: one local per joint from
    /// the root down.
    pub fn factors(&self) -> usize {
        humanoid::skeleton().path_from_root(self.selected).len()
    }

    /// The scrub step shown, at most [`factors`](Self::factors); `None` when not
    /// scrubbing.
    pub fn scrub_step(&self) -> Option<usize> {
        self.scrub.map(|k| k.min(self.factors()))
    }

    /// The point after each step so far, step 0 first; empty when not scrubbing.
    pub fn scrub_path(&self) -> Vec<Vec3> {
        let Some(k) = self.scrub_step() else {
            return Vec::new();
        };
        let steps = walk::chain(&humanoid::skeleton(), &self.pose().local, self.selected);
        let mut points = walk::scrub(&steps, SCRUB_POINT);
        points.truncate(k + 1);
        points
    }

    /// The scrubbed point now (the large dot), `None` when not scrubbing.
    pub fn scrub_point(&self) -> Option<Vec3> {
        self.scrub_path().last().copied()
    }

    /// What step `k` of the scrub means, in words.
    fn scrub_sentence(&self, steps: &[ChainStep], k: usize) -> String {
        let n = steps.len();
        let points = walk::scrub(steps, SCRUB_POINT);
        let at = vec_text_with(points[k], decimals_of(&points));
        let joint = name(self.selected);
        match k {
            0 => format!(
                "Step 0 of {n}: no factor applied yet. The point is {joint}'s own origin, {at} in its own frame."
            ),
            _ if k == n => format!(
                "Step {k} of {n}: after local({}): the point is in the world, at {at}, where {joint} stands.",
                name(steps[0].joint)
            ),
            _ => format!(
                "Step {k} of {n}: after local({}): the point is {}, at {at}.",
                name(steps[n - k].joint),
                frame_words(steps, k)
            ),
        }
    }

    /// The product written out, the factors applied so far in the scrub colour and the
    /// one just applied underlined. A long chain breaks between factors, never inside
    /// one, and never after a dot.
    fn product_ui(&self, ui: &mut Ui, steps: &[ChainStep]) {
        let font = egui::TextStyle::Monospace.resolve(ui.style());
        let plain = TextFormat::simple(font, ui.visuals().text_color());
        let n = steps.len();
        let applied = self.scrub_step().unwrap_or(0);
        let scrub = legible(ui, SCRUB);
        let mut parts: Vec<egui::WidgetText> = vec![
            RichText::new(format!("world({}) = ", name(self.selected)))
                .monospace()
                .into(),
        ];
        for (i, step) in steps.iter().enumerate() {
            let mut format = plain.clone();
            if i >= n - applied {
                format.color = scrub;
            }
            // Each factor brings the dot before it; only the factor is underlined.
            let mut part = LayoutJob::default();
            if i > 0 {
                part.append(" · ", 0.0, format.clone());
            }
            if applied > 0 && i == n - applied {
                format.underline = Stroke::new(1.5, scrub);
            }
            part.append(&format!("local({})", name(step.joint)), 0.0, format);
            parts.push(part.into());
        }
        crate::ui::unbroken_ui(ui, &parts, true);
    }

    /// The product of the chain cell, and the scrub control under it.
    pub(super) fn scrub_ui(&mut self, ui: &mut Ui, steps: &[ChainStep]) {
        self.scrub = self.scrub_step();
        self.product_ui(ui, steps);
        let mut on = self.scrub.is_some();
        if ui
            .checkbox(&mut on, "scrub the joint's origin through the product")
            .changed()
        {
            self.scrub = on.then_some(0);
        }
        let Some(mut k) = self.scrub else {
            return;
        };
        let n = steps.len();
        let slider = egui::Slider::new(&mut k, 0..=n).step_by(1.0);
        crate::ui::slider_ui(ui, slider, "factors applied, from the right");
        self.scrub = Some(k);
        wrapped(
            ui,
            RichText::new(self.scrub_sentence(steps, k)).color(legible(ui, SCRUB)),
        );
    }

    /// The step at which chain step `i` (root first) has its local applied, if scrubbing
    /// has just applied it.
    pub(super) fn just_applied(&self, i: usize, n: usize) -> bool {
        self.scrub_step().is_some_and(|k| k > 0 && i + k == n)
    }

    /// The scrubbed point's path in the viewport: a dot per step so far, joined, the
    /// current one larger and labelled.
    pub(super) fn scrub_overlay_ui(&mut self, ui: &Ui, vp: &Viewport) {
        self.scrub_screen = None;
        let Some(k) = self.scrub_step() else {
            return;
        };
        // The note first: the step labels keep off it.
        let steps = walk::chain(&humanoid::skeleton(), &self.pose().local, self.selected);
        let note = match k {
            0 => "Cyan: the point's numbers after each step, drawn as if its frame were the world. Step 0: the joint's own origin.".to_owned(),
            _ => format!(
                "Cyan: the point's numbers after each step, drawn as if its frame were the world. Step {k}: after local({}), {}.",
                name(steps[steps.len() - k].joint),
                frame_words(&steps, k)
            ),
        };
        vp.note(
            ui,
            Align2::LEFT_BOTTOM,
            note,
            FontId::proportional(15.0),
            SCRUB,
        );
        let labels: Vec<String> = (0..=k)
            .map(|i| {
                if i == k {
                    format!("step {i}")
                } else {
                    i.to_string()
                }
            })
            .collect();
        let screen = step_path_ui(
            ui,
            vp,
            &self.scrub_path(),
            &labels,
            egui::FontFamily::Proportional,
            SCRUB,
        );
        self.scrub_screen = screen.get(k).copied().flatten();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rigs::humanoid::JOINT_COUNT;

    #[test]
    fn the_largest_scrub_is_the_longest_chain() {
        let skeleton = humanoid::skeleton();
        let longest = (0..JOINT_COUNT)
            .map(|j| skeleton.path_from_root(j).len())
            .max();
        assert_eq!(longest, Some(MOST_FACTORS));
    }
}
