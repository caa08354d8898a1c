//! The check-yourself cell: a parent's world matrix, a child's offset, and the working
//! written out with the exercise's numbers; small hand-sized exercises on one parent and
//! one child.

use super::HierarchyPage;
use super::text::{num, tidy, vec_text, wrapped};
use crate::ui::check::{Question, check_ui};
use egui::Ui;
use glam::{Mat4, Vec3};

/// A check-yourself exercise: a parent's world matrix (a turn about z, then a move)
/// and a child's local translation. Small numbers, so it can be done by hand.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Exercise {
    /// The parent's turn about z, in whole degrees.
    pub parent_turn_degrees: f32,
    /// Where the parent sits in the world.
    pub parent_position: Vec3,
    /// The child's local translation (no local turn, no scale).
    pub child_offset: Vec3,
}

/// The exercises, easiest first.
pub const EXERCISES: [Exercise; 4] = [
    Exercise {
        parent_turn_degrees: 90.0,
        parent_position: Vec3::new(1.0, 2.0, 0.0),
        child_offset: Vec3::new(3.0, 0.0, 0.0),
    },
    Exercise {
        parent_turn_degrees: 90.0,
        parent_position: Vec3::new(0.0, 1.0, 0.0),
        child_offset: Vec3::new(0.0, 2.0, 0.0),
    },
    Exercise {
        parent_turn_degrees: 180.0,
        parent_position: Vec3::new(2.0, 0.0, 1.0),
        child_offset: Vec3::new(1.0, 1.0, 0.0),
    },
    Exercise {
        parent_turn_degrees: -90.0,
        parent_position: Vec3::new(0.0, 0.0, 2.0),
        child_offset: Vec3::new(2.0, 0.0, 1.0),
    },
];

impl Exercise {
    /// The parent's world matrix, `translate(position) · rotate_z(turn)`.
    pub fn world_from_parent(&self) -> Mat4 {
        tidy(
            Mat4::from_translation(self.parent_position)
                * Mat4::from_rotation_z(self.parent_turn_degrees.to_radians()),
        )
    }

    /// The child's local matrix, `translate(offset)`.
    pub fn parent_from_child(&self) -> Mat4 {
        Mat4::from_translation(self.child_offset)
    }

    /// The answer: the child's world matrix, `world_from_parent · parent_from_child`.
    pub fn world_from_child(&self) -> Mat4 {
        tidy(self.world_from_parent() * self.parent_from_child())
    }

    /// The answer with the product reversed, `parent_from_child · world_from_parent`.
    pub fn world_from_child_wrong_order(&self) -> Mat4 {
        tidy(self.parent_from_child() * self.world_from_parent())
    }
}

impl HierarchyPage {
    /// The check-yourself exercise: a parent's world matrix and a child's offset.
    pub(super) fn check_ui(&mut self, ui: &mut Ui) {
        let exercise = EXERCISES[self.exercise.min(EXERCISES.len() - 1)];
        crate::ui::check::exercise_picker_ui(
            ui,
            &mut self.exercise,
            EXERCISES.len(),
            &mut self.check,
        );
        let parent = exercise.world_from_parent();
        let local = exercise.parent_from_child();
        crate::ui::matrix::matrices_view_ui(
            ui,
            [
                (
                    "world(parent)".into(),
                    "exercise parent".to_owned(),
                    &tidy(parent),
                ),
                (
                    "local(child)".into(),
                    "exercise local".to_owned(),
                    &tidy(local),
                ),
            ],
        );
        wrapped(ui, "Where is the child in the world? Type x, y and z.");
        let answer = exercise.world_from_child().transform_point3(Vec3::ZERO);
        let expected = answer.to_array();
        let wrong_order = exercise
            .world_from_child_wrong_order()
            .transform_point3(Vec3::ZERO)
            .to_array();
        // The offset turned by world(parent)'s rows instead of its columns: the likeliest
        // slip with matrices printed row by row (where the turn is its own transpose, the
        // same as the answer, and then no mistake).
        let by_rows = (parent.transpose().transform_vector3(exercise.child_offset)
            + parent.col(3).truncate())
        .to_array();
        let mistakes: [(&[f32], &str); 2] = [
            (
                &wrong_order,
                "that is local(child) · world(parent), the wrong order: the parent's turn never reaches the child's offset",
            ),
            (
                &by_rows,
                "that turns the offset by world(parent)'s rows; the turn's axes are its columns (x, y, z), read downwards",
            ),
        ];
        let question = Question {
            name: "child",
            labels: &["x", "y", "z"],
            columns: 3,
            expected: &expected,
            tolerance: 0.01,
            mistakes: &mistakes,
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
            crate::ui::check::working_ui(ui, &text);
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn position(m: &Mat4) -> Vec3 {
        m.transform_point3(Vec3::ZERO)
    }

    #[test]
    fn exercises_have_small_exact_answers() {
        let expected = [
            Vec3::new(1.0, 5.0, 0.0),
            Vec3::new(-2.0, 1.0, 0.0),
            Vec3::new(1.0, -1.0, 1.0),
            Vec3::new(0.0, -2.0, 3.0),
        ];
        for (exercise, answer) in EXERCISES.iter().zip(expected) {
            assert_eq!(position(&exercise.world_from_child()), answer);
            assert_eq!(
                position(&exercise.world_from_child_wrong_order()),
                exercise.parent_position + exercise.child_offset,
                "the wrong order adds the offset without turning it"
            );
        }
    }
}
