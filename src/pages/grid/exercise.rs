//! The "check yourself" cell: skin one grid vertex by hand.

use super::GridPage;
use crate::skin::grid::{self, EXERCISES, Exercise};
use crate::ui::check::{Question, check_ui, exercise_picker_ui, hundredths as r};
use crate::ui::mono_ui;
use egui::Ui;
use glam::Vec3;

/// The working: each bone's gradient applied to the vertex, then the weighted sum.
pub fn working(e: &Exercise) -> String {
    let palette = grid::palette(e.angles());
    let [x, y] = grid::POSITIONS[e.vertex];
    let mut text = format!("vertex {} in bind space: ({x}, {y})\n", e.vertex);
    for (bone, w) in grid::WEIGHTS[e.vertex] {
        let g = palette[*bone];
        let p = g.transform_point3(Vec3::new(x, y, 0.0));
        text += &format!(
            "b{bone}: gradient = world · inverse bind: turn {}°, then t = ({}, {})\n    gradient · v = ({}, {}), weight {w}\n",
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
    exercise_picker_ui(ui, &mut page.exercise, EXERCISES.len(), &mut page.check);
    let e = EXERCISES[page.exercise.min(EXERCISES.len() - 1)];
    let [x, y] = grid::POSITIONS[e.vertex];
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
    if ui.button("Show this pose in the viewport").clicked() {
        page.pause_at(e.angles());
        page.vertex = Some(e.vertex);
    }
    let expected = e.answer().truncate().to_array();
    let question = Question {
        name: "skinned vertex",
        labels: &["x", "y"],
        columns: 2,
        expected: &expected,
        tolerance: 0.01,
    };
    check_ui(ui, &mut page.check, &question, |ui| {
        mono_ui(ui, working(&e))
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
}
