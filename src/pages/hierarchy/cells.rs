//! The notebook cells: the joint tree, the local transform, the chain of products and
//! the wrong order (the check-yourself cell is in `exercise`).

use super::scrub::SCRUB;
use super::text::{matrix_view_ui, wrapped};
use super::walk;
use super::{HierarchyPage, Pose};
use crate::pages::local_transform::{TrsEdit, trs_edit_ui};
use crate::ui::matrix::matrices_view_ui;
use crate::ui::{error_ui, legible};
use egui::{Color32, RichText, Ui};
use glam::{Mat4, Vec3};
use rigs::humanoid::{self, JOINTS};

/// The colour of everything that shows the wrong order.
pub const WRONG: Color32 = Color32::from_rgb(255, 110, 200);
/// The colour of the joints an edit moves.
pub const MOVED: Color32 = Color32::from_rgb(255, 200, 70);

fn name(joint: usize) -> &'static str {
    JOINTS[joint].name
}

/// The width of one column of the joint tree, in points: the deepest name with its
/// "edited" mark.
const TREE_COLUMN: f32 = 200.0;

/// For how many frames after a link (or a page's opening) brings the scrub to a chain
/// step the step is brought back into view: long enough for a focused cell's fit to
/// settle.
const CHAIN_SETTLE_FRAMES: u8 = 30;

impl HierarchyPage {
    fn joint_button_ui(&mut self, ui: &mut Ui, joint: usize, text: RichText) {
        if ui.selectable_label(self.selected == joint, text).clicked() {
            self.selected = joint;
        }
    }

    /// The joints as an indented tree; click one to select it.
    pub(super) fn tree_ui(&mut self, ui: &mut Ui) {
        ui.horizontal_wrapped(|ui| {
            if ui.button("Reset T-pose").clicked() {
                self.reset_pose();
            }
            let edited = (0..JOINTS.len()).filter(|j| self.is_edited(*j)).count();
            let plural = if edited == 1 { "" } else { "s" };
            ui.label(RichText::new(format!("{edited} joint{plural} edited")).weak());
        });
        let skeleton = humanoid::skeleton();
        let depth = |joint: usize| skeleton.path_from_root(joint).len() - 1;
        // Where the room allows, the legs (the root's branches past the middle of the
        // list) stand in a second column, so the whole tree fits a projector's height.
        let legs = (JOINTS.len() / 2..JOINTS.len())
            .find(|&j| depth(j) == 1)
            .unwrap_or(JOINTS.len());
        let two_columns = ui.available_width() >= 2.0 * TREE_COLUMN;
        let mut rows = |ui: &mut Ui, joints: std::ops::Range<usize>| {
            let moved = humanoid::subtree(self.selected);
            for joint in joints {
                // One row a joint: its "edited" mark never wraps under another's name.
                ui.horizontal(|ui| {
                    ui.add_space(14.0 * depth(joint) as f32);
                    let mut text = RichText::new(name(joint));
                    if moved.contains(&joint) && joint != self.selected {
                        text = text.color(legible(ui, MOVED));
                    }
                    self.joint_button_ui(ui, joint, text);
                    if self.is_edited(joint) {
                        ui.label(RichText::new("edited").small().weak());
                    }
                });
            }
        };
        if two_columns {
            ui.horizontal_top(|ui| {
                ui.vertical(|ui| {
                    ui.set_width(TREE_COLUMN);
                    rows(ui, 0..legs);
                });
                ui.vertical(|ui| rows(ui, legs..JOINTS.len()));
            });
        } else {
            rows(ui, 0..JOINTS.len());
        }
    }

    /// The selected joint's local transform: editable fields and the matrix they build.
    pub(super) fn local_ui(&mut self, ui: &mut Ui) {
        let joint = self.selected;
        ui.horizontal_wrapped(|ui| {
            ui.label(RichText::new(format!("local transform of {}", name(joint))).strong());
            if ui.button("Reset joint").clicked() {
                self.pose[joint] = self.assets.bind[joint];
                self.refused = None;
            }
        });
        match trs_edit_ui(ui, &mut self.pose[joint]) {
            TrsEdit::Unchanged => {}
            TrsEdit::Changed => self.refused = None,
            TrsEdit::Refused(problem) => {
                self.refused = Some(format!(
                    "Edit refused: {problem}. {} keeps its last valid value.",
                    name(joint)
                ))
            }
        }
        if let Some(reason) = &self.refused {
            error_ui(ui, reason);
        }
        wrapped(
            ui,
            "local = translate · rotate_x · rotate_y · rotate_z · scale:",
        );
        matrix_view_ui(ui, "local of selected", &self.pose[joint].to_mat4());
        let moved = humanoid::subtree(joint);
        let names: Vec<&str> = moved.iter().map(|j| name(*j)).collect();
        wrapped(
            ui,
            RichText::new(format!(
                "Editing {} moves {} joint{}: {}.",
                name(joint),
                moved.len(),
                if moved.len() == 1 { "" } else { "s" },
                names.join(", ")
            ))
            .color(legible(ui, MOVED)),
        );
    }

    /// The products from the root down to the selected joint.
    pub(super) fn chain_ui(&mut self, ui: &mut Ui) {
        let pose = self.pose();
        let steps = walk::chain(&humanoid::skeleton(), &pose.local, self.selected);
        self.scrub_ui(ui, &steps);
        // On a slide, while the scrub runs, only the step just applied shows its
        // matrices, the others one formula a line: the chain fits the screen, and the
        // hall looks at one step (Show the whole page has them all). At step 0 none is
        // applied yet: the product and the formulas alone.
        let folded = crate::ui::focused_cell(ui.ctx()) && self.scrub_step().is_some();
        let mut lines: Vec<String> = Vec::new();
        let flush = |ui: &mut Ui, lines: &mut Vec<String>| {
            if !lines.is_empty() {
                wrapped(ui, RichText::new(lines.join("\n")).strong());
                lines.clear();
            }
        };
        let mut parent: Option<&str> = None;
        for (i, step) in steps.iter().enumerate() {
            let joint = name(step.joint);
            let formula = match parent {
                Some(p) => format!("world({joint}) = world({p}) · local({joint})"),
                None => format!("world({joint}) = local({joint}), the root"),
            };
            parent = Some(joint);
            if folded && !self.just_applied(i, steps.len()) {
                lines.push(formula);
                continue;
            }
            flush(ui, &mut lines);
            let top = ui.cursor().top();
            if !folded {
                ui.separator();
            }
            // No ordinal: the scrub counts its steps from the other end, and two
            // numberings side by side misled.
            wrapped(ui, RichText::new(formula).strong());
            let local = if self.just_applied(i, steps.len()) {
                // The scrub counts its steps from the right, as the viewport does.
                let k = self.scrub_step().unwrap_or_default();
                RichText::new(format!("local({joint}), just applied: step {k}"))
                    .color(legible(ui, SCRUB))
                    .strong()
            } else {
                RichText::new(format!("local({joint})"))
            };
            matrices_view_ui(
                ui,
                [
                    (local, format!("local {joint}"), &step.parent_from_joint),
                    (
                        RichText::new(format!("world({joint})")),
                        format!("world {joint}"),
                        &step.world_from_joint,
                    ),
                ],
            );
            // Focused, the step the scrub just applied comes into view once, as the
            // scrub reaches it (the steps run from the root down; the scrub starts at
            // the bottom); then the reader may scroll freely.
            if let Some(k) = self.scrub_step()
                && self.just_applied(i, steps.len())
                && crate::ui::focused_cell(ui.ctx())
            {
                let now = (self.selected, k);
                // Not while the reader works the scrub's own controls (a drag, a focused
                // slider): the step would scroll them away.
                let handling = ui.input(|i| i.pointer.any_down())
                    || ui.ctx().memory(|m| m.focused().is_some());
                let frames = match self.chain_shown {
                    Some((shown, frames)) if shown == now => frames,
                    _ if handling => 0,
                    _ => CHAIN_SETTLE_FRAMES,
                };
                let x = ui.max_rect().x_range();
                let step_rect = egui::Rect::from_x_y_ranges(x, top..=ui.min_rect().bottom());
                if frames > 0 && !ui.clip_rect().contains_rect(step_rect) {
                    self.chain_scroll = Some(step_rect);
                }
                self.chain_shown = Some((now, frames.saturating_sub(1)));
            }
        }
        flush(ui, &mut lines);
    }

    /// The wrong-order toggle and the selected joint's two world matrices.
    pub(super) fn order_ui(&mut self, ui: &mut Ui) {
        ui.checkbox(&mut self.wrong_order, "wrong order: local · parent");
        if !self.wrong_order {
            wrapped(
                ui,
                RichText::new("Tick it: a pink ghost skeleton shows the wrong product.").weak(),
            );
            return;
        }
        let Pose { world, wrong, .. } = self.pose();
        let joint = self.selected;
        let (right_text, wrong_text) = match JOINTS[joint].parent.map(name) {
            Some(p) => {
                wrapped(ui, format!("{}, whose parent is {p}:", name(joint)));
                (
                    "right: world(parent) · local",
                    "wrong: local · world(parent)",
                )
            }
            None => {
                wrapped(
                    ui,
                    format!("{} is the root: it has no parent.", name(joint)),
                );
                ("right: world = local", "wrong: the same")
            }
        };
        matrices_view_ui(
            ui,
            [
                (
                    RichText::new(right_text),
                    "order right".to_owned(),
                    &world[joint],
                ),
                (
                    RichText::new(wrong_text).color(legible(ui, WRONG)),
                    "order wrong".to_owned(),
                    &wrong[joint],
                ),
            ],
        );
        let at = |m: &Mat4| m.transform_point3(Vec3::ZERO);
        let off = at(&wrong[joint]).distance(at(&world[joint]));
        let agree = world
            .iter()
            .zip(&wrong)
            .all(|(r, w)| r.abs_diff_eq(*w, 1e-5));
        if agree {
            wrapped(
                ui,
                "Both orders agree: every local is a pure move, and moves can be added in any order. Turn a joint to see them part.",
            );
        } else {
            wrapped(
                ui,
                RichText::new(format!(
                    "In the wrong order {} lands {off:.2} units from where it belongs.",
                    name(joint)
                ))
                .color(legible(ui, WRONG)),
            );
        }
    }
}
