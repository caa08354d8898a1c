//! The cells about poses: the named target poses, and one joint's three matrices.

use super::draw::PINK;
use super::widgets::{GOOD, show_here_ui, titled_matrices_ui, titled_matrix_ui};
use super::{GradientPage, Section};
use crate::ui::{angle_slider_ui, legible};
use egui::{RichText, Ui};
use rigs::humanoid::{JOINT_COUNT, JOINTS};
use rigs::poses::PRESETS;
use skin::matrix::max_difference;

/// The named target poses.
pub(super) fn poses_ui(page: &mut GradientPage, ui: &mut Ui) {
    show_here_ui(page, ui, Section::Poses);
    ui.horizontal_wrapped(|ui| {
        ui.label("Target pose:");
        for (i, preset) in PRESETS.iter().enumerate() {
            let current = page.preset == i && page.target == preset.local();
            if ui.selectable_label(current, preset.name).clicked() {
                page.set_preset(i);
                page.section = Section::Poses;
            }
        }
    });
    let base = PRESETS[page.preset].local();
    let edited: Vec<&str> = (0..JOINT_COUNT)
        .filter(|j| page.target[*j] != base[*j])
        .map(|j| JOINTS[j].name)
        .collect();
    if !edited.is_empty() {
        ui.label(
            RichText::new(format!(
                "Changed by hand from `{}`: {}",
                PRESETS[page.preset].name,
                edited.join(", ")
            ))
            .weak(),
        );
    }
}

/// One joint: pick it, turn it, read its three matrices.
pub(super) fn joint_ui(page: &mut GradientPage, ui: &mut Ui) {
    // A list that opens, not 20 buttons: the cell stays short on a projector and a
    // phone. A click on a joint in the viewport picks it too.
    ui.horizontal_wrapped(|ui| {
        let label = ui.label("Joint:");
        egui::ComboBox::from_id_salt("gradient joint")
            .selected_text(JOINTS[page.joint.min(JOINT_COUNT - 1)].name)
            .show_ui(ui, |ui| {
                for (j, def) in JOINTS.iter().enumerate() {
                    if ui.selectable_label(page.joint == j, def.name).clicked() {
                        page.joint = j;
                        page.section = Section::Poses;
                    }
                }
            })
            .response
            .labelled_by(label.id);
        ui.label(RichText::new("(or click one in the viewport)").weak());
    });
    let j = page.joint.min(JOINT_COUNT - 1);
    let mut rotation = page.target[j].rotation;
    let mut changed = false;
    for (axis, name) in ["x", "y", "z"].iter().enumerate() {
        changed |= angle_slider_ui(
            ui,
            &mut rotation[axis],
            -180.0..=180.0,
            &format!("{} local turn about {name}", JOINTS[j].name),
            0,
        );
    }
    if changed {
        page.target[j].rotation = rotation;
        page.section = Section::Poses;
    }
    let world = page.world_from_joint();
    let gradient = page.gradients()[j];
    let bind = page.assets.world_at_bind[j];
    let joint_from_bind = page.assets.joint_from_bind[j];
    titled_matrices_ui(
        ui,
        [
            ("target: world_from_joint", "target", &world[j]),
            (
                "inverse bind: joint_from_bind",
                "inverse bind",
                &joint_from_bind,
            ),
        ],
    );
    crate::ui::matrix::side_by_side_ui(
        ui,
        [
            Box::new(|ui: &mut Ui| {
                titled_matrix_ui(ui, "gradient: world_from_bind", "gradient", &gradient)
            }) as Box<dyn FnOnce(&mut Ui)>,
            Box::new(|ui: &mut Ui| {
                crate::ui::mono_ui(ui, "gradient =\ntarget · inverse bind");
                let diff = max_difference(&(gradient * bind), &world[j]);
                let ink = legible(ui, GOOD);
                crate::ui::listing::lines_ui(
                    ui,
                    &format!(
                        "gradient · bind = target\n({})",
                        crate::ui::matrix::agreement_text(diff)
                    ),
                    |t| t.color(ink),
                );
                let from = bind.w_axis.truncate();
                let to = gradient.transform_point3(from);
                ui.label(
                    RichText::new(format!(
                        "carries the joint\nfrom ({:.2}, {:.2}, {:.2})\nto   ({:.2}, {:.2}, {:.2})",
                        from.x + 0.0,
                        from.y + 0.0,
                        from.z + 0.0,
                        to.x + 0.0,
                        to.y + 0.0,
                        to.z + 0.0
                    ))
                    .monospace()
                    .color(legible(ui, PINK)),
                );
            }),
        ],
    );
}
