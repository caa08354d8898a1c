//! The "check yourself" cell: skin one grid vertex by hand.

use super::GridPage;
use super::data::{self, BONE_COUNT, POSITIONS, WEIGHTS};
use crate::ui::check::{Question, check_ui, exercise_picker_ui, hundredths as r};
use egui::Ui;
use glam::Vec3;

/// A check-yourself exercise: bend the bones to `degrees` and skin vertex `vertex`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Exercise {
    /// Each bone's turn about z, degrees.
    pub degrees: [f32; BONE_COUNT],
    /// The grid vertex to skin.
    pub vertex: usize,
}

/// The exercises, easiest first: one bone, then a half-and-half vertex, then a turn
/// that carries the whole chain.
pub const EXERCISES: [Exercise; 3] = [
    Exercise {
        degrees: [0.0, 90.0, 0.0],
        vertex: 4,
    },
    Exercise {
        degrees: [0.0, 90.0, 0.0],
        vertex: 2,
    },
    Exercise {
        degrees: [90.0, 0.0, 0.0],
        vertex: 9,
    },
];

impl Exercise {
    /// The bone angles in radians.
    pub fn angles(&self) -> [f32; BONE_COUNT] {
        self.degrees.map(f32::to_radians)
    }

    /// Where the vertex lands: the weighted sum of its bones' gradients times it.
    pub fn answer(&self) -> Vec3 {
        let palette = data::palette(self.angles());
        let p = POSITIONS[self.vertex];
        WEIGHTS[self.vertex]
            .iter()
            .map(|(bone, w)| palette[*bone].transform_point3(Vec3::new(p[0], p[1], 0.0)) * *w)
            .sum()
    }
}

/// The working: each bone's gradient applied to the vertex, then the weighted sum.
pub fn working(e: &Exercise) -> String {
    let palette = data::palette(e.angles());
    let [x, y] = POSITIONS[e.vertex];
    let mut text = format!("vertex {} in bind space: ({x}, {y})\n", e.vertex);
    for (bone, w) in WEIGHTS[e.vertex] {
        let g = palette[*bone];
        let p = g.transform_point3(Vec3::new(x, y, 0.0));
        text += &format!(
            "b{bone}: gradient = world · inverse bind: turn {}°, then move by ({}, {})\n    gradient · v = ({}, {}), weight {w}\n",
            e.degrees[..=*bone].iter().sum::<f32>(),
            r(g.w_axis.x),
            r(g.w_axis.y),
            r(p.x),
            r(p.y),
        );
    }
    let a = e.answer();
    text += &format!("weighted sum: ({}, {})", r(a.x), r(a.y));
    text
}

/// The exercise picker, the question, the answer fields and the working.
pub(super) fn check_cell_ui(page: &mut GridPage, ui: &mut Ui) {
    let before = page.exercise;
    exercise_picker_ui(ui, &mut page.exercise, EXERCISES.len(), &mut page.check);
    // The last exercise's pose may already show this one's answer (two turn b1 by
    // 90°): the grid goes back to straight, and the vertex to none, until asked.
    if page.exercise != before
        && let Some(shown) = EXERCISES.get(before)
        && page.angles == shown.angles()
    {
        page.pause_at([0.0; super::BONE_COUNT]);
        page.vertex = None;
    }
    let e = EXERCISES[page.exercise.min(EXERCISES.len() - 1)];
    let [x, y] = POSITIONS[e.vertex];
    let bent: Vec<String> = e
        .degrees
        .iter()
        .enumerate()
        .filter(|(_, d)| **d != 0.0)
        .map(|(b, d)| format!("b{b} by {d}°"))
        .collect();
    ui.label(format!(
        "Turn {} (the others stay at 0). Where does vertex {} at ({x}, {y}) land? Use its weights from the data above.",
        bent.join(" and "),
        e.vertex
    ));
    if crate::ui::show_pose_ui(ui) {
        page.pause_at(e.angles());
        // Once answered, the vertex is inspected too, its working in the vertex cell;
        // before, the pose only: the inspected vertex would print the answer.
        if page.check.verdict.is_some() {
            page.vertex = Some(e.vertex);
        } else if page.vertex == Some(e.vertex) {
            page.vertex = None;
        }
    }
    let expected = e.answer().truncate().to_array();
    let question = Question {
        name: "skinned vertex",
        labels: &["x", "y"],
        columns: 2,
        expected: &expected,
        tolerance: 0.01,
        mistakes: &[],
    };
    check_ui(ui, &mut page.check, &question, |ui| {
        crate::ui::check::working_ui(ui, &working(&e))
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_working_ends_at_the_answer() {
        let text = working(&EXERCISES[1]);
        assert!(text.contains("weighted sum: (2.5, -0.5)"), "{text}");
        assert!(text.contains("weight 0.5"), "{text}");
    }

    #[test]
    fn exercise_answers_worked_by_hand() {
        // b1 turned 90° about its joint at (4, 0): (4, 1) goes to (3, 0).
        assert!(
            EXERCISES[0]
                .answer()
                .abs_diff_eq(Vec3::new(3.0, 0.0, 0.0), 1e-5)
        );
        // Half of (2, 1) unmoved and half of (3, -2).
        assert!(
            EXERCISES[1]
                .answer()
                .abs_diff_eq(Vec3::new(2.5, -0.5, 0.0), 1e-5)
        );
        // b0 turned 90° at the origin carries (8, -1) to (1, 8).
        assert!(
            EXERCISES[2]
                .answer()
                .abs_diff_eq(Vec3::new(1.0, 8.0, 0.0), 1e-5)
        );
    }
}
