//! The check-yourself cell: a parent's world matrix, a child's offset, and the working
//! written out with the exercise's numbers.

use super::HierarchyPage;
use super::cells::{matrix_view_ui, num, vec_text, wrapped};
use crate::skin::hierarchy::EXERCISES;
use crate::ui::check::{Question, check_ui};
use egui::{RichText, Ui};
use glam::Vec3;

impl HierarchyPage {
    /// The check-yourself exercise: a parent's world matrix and a child's offset.
    pub(super) fn check_ui(&mut self, ui: &mut Ui) {
        let exercise = EXERCISES[self.exercise.min(EXERCISES.len() - 1)];
        ui.horizontal(|ui| {
            ui.label(
                RichText::new(format!(
                    "Exercise {} of {}",
                    self.exercise + 1,
                    EXERCISES.len()
                ))
                .strong(),
            );
            if ui.button("Another exercise").clicked() {
                self.exercise = (self.exercise + 1) % EXERCISES.len();
                self.check = Default::default();
            }
        });
        let parent = exercise.world_from_parent();
        let local = exercise.parent_from_child();
        ui.horizontal_wrapped(|ui| {
            ui.vertical(|ui| {
                ui.label("world(parent)");
                matrix_view_ui(ui, "exercise parent", &parent);
            });
            ui.add_space(12.0);
            ui.vertical(|ui| {
                ui.label("local(child)");
                matrix_view_ui(ui, "exercise local", &local);
            });
        });
        wrapped(ui, "Where is the child in the world? Type x, y and z.");
        let answer = exercise.world_from_child().transform_point3(Vec3::ZERO);
        let expected = answer.to_array();
        let question = Question {
            name: "child",
            labels: &["x", "y", "z"],
            columns: 3,
            expected: &expected,
            tolerance: 0.01,
        };
        check_ui(ui, &mut self.check, &question, |ui| {
            let t = exercise.child_offset;
            let col = |i: usize| vec_text(parent.col(i).truncate());
            let wrong = exercise
                .world_from_child_wrong_order()
                .transform_point3(Vec3::ZERO);
            let (x, y, z) = (num(t.x), num(t.y), num(t.z));
            let text = format!(
                "world(child) = world(parent) · local(child)\n\
                 The child's origin (0, 0, 0, 1) goes to local's\n\
                 t column: ({x}, {y}, {z}, 1). So its world position is\n\
                 \x20 world(parent) · ({x}, {y}, {z}, 1)\n\
                 \x20 = {x}·x + {y}·y + {z}·z + t   (columns of world(parent))\n\
                 \x20 = {x}·{} + {y}·{} + {z}·{}\n\
                 \x20   + {}\n\
                 \x20 = {}\n\n\
                 Wrong order, local(child) · world(parent):\n\
                 {}. The offset is added, never turned.",
                col(0),
                col(1),
                col(2),
                col(3),
                vec_text(answer),
                vec_text(wrong),
            );
            ui.label(RichText::new(text).monospace());
        });
    }
}
