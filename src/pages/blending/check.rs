//! The blending page's check-yourself cell: one elbow vertex, blended both ways by hand.

use super::BlendingPage;
use crate::ui::check::{Question, check_ui};
use crate::ui::matrix::matrix_view_ui;
use egui::Ui;
use glam::Vec3;
use rigs::arm;
use skin::Influences;
use skin::dqs::{blend_dual_quats, dual_quat_palette};
use skin::lbs::blended_matrix;

/// The check question: an elbow vertex, half on each bone, with the elbow bent 90°.
pub const CHECK_VERTEX: Vec3 = Vec3::new(2.0, 0.5, 0.0);
/// The bend of the check question, radians.
pub const CHECK_BEND: f32 = std::f32::consts::FRAC_PI_2;

/// Where LBS and DQS put [`CHECK_VERTEX`] at [`CHECK_BEND`]: `[lbs x, lbs y, dqs x, dqs y]`.
pub fn check_answer() -> [f32; 4] {
    let palette = arm::palette(0.0, CHECK_BEND);
    let half =
        Influences::prepare(&[(0, 0.5), (1, 0.5)], arm::BONE_COUNT).unwrap_or(Influences::rigid(0));
    let lbs = blended_matrix(&palette, &half).transform_point3(CHECK_VERTEX);
    let dqs =
        blend_dual_quats(&dual_quat_palette(&palette), &half, true).transform_point(CHECK_VERTEX);
    [lbs.x, lbs.y, dqs.x, dqs.y]
}

impl BlendingPage {
    pub(super) fn check_cell_ui(&mut self, ui: &mut Ui) {
        ui.label(
            "Bend the elbow 90° (no twist). Vertex v = (2, 0.5, 0) sits on the elbow with weight 0.5 on each bone. \
             The upper arm does not move; the forearm turns 90° about z around the elbow at (2, 0, 0). \
             Where does each method put v?"
        );
        if crate::ui::show_pose_ui(ui) {
            self.twist = 0.0;
            self.bend = CHECK_BEND;
            // The elbow's vertex ringed once answered (its cells above print both
            // answers), or if one is inspected already.
            if self.vertex.is_some() || self.check.verdict.is_some() {
                self.vertex = Some(arm::elbow_ring() * arm::SEGMENTS);
            }
        }
        let expected = check_answer();
        let question = Question {
            name: "blend",
            labels: &["LBS x", "LBS y", "DQS x", "DQS y"],
            columns: 2,
            expected: &expected,
            tolerance: 0.01,
            mistakes: &[],
        };
        let palette = arm::palette(0.0, CHECK_BEND);
        let moved = self
            .inspect_style()
            .point(palette[1].transform_point3(CHECK_VERTEX));
        check_ui(ui, &mut self.check, &question, |ui| {
            ui.label("Forearm gradient (upper arm: identity):");
            matrix_view_ui(ui, "check gradient", &palette[1]);
            crate::ui::check::working_ui(
                ui,
                &format!(
                    "forearm · v = {}\nLBS: 0.5 · v + 0.5 · (forearm · v) = ({:.3}, {:.3})\n\
                 DQS: half the rotation, 45° about the elbow: (2, 0) + 0.5 · (−sin(45°), cos(45°)) = ({:.3}, {:.3})\n\
                 LBS pulls the vertex to {:.3} from the elbow; DQS keeps it at 0.5.",
                    moved,
                    expected[0],
                    expected[1],
                    expected[2],
                    expected[3],
                    Vec3::new(expected[0] - 2.0, expected[1], 0.0).length()
                ),
            );
        });
    }
}
