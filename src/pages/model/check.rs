//! The model page's check-yourself cell: SimpleSkin's top vertex at one second.

use super::{Asset, ModelPage};
use crate::ui::check::{Question, check_ui};
use egui::Ui;
use glam::Vec3;

/// The vertex the question asks about, in SimpleSkin's bind pose.
pub const CHECK_VERTEX: Vec3 = Vec3::new(-0.5, 2.0, 0.0);
/// The clip time of the question, seconds.
pub const CHECK_TIME: f32 = 1.0;

/// Where SimpleSkin puts [`CHECK_VERTEX`] at [`CHECK_TIME`], skinned from the file: the
/// answer (`None` if the bundled file lost that vertex).
pub fn check_answer() -> Option<Vec3> {
    // Worked out once: the cell asks every frame it is drawn.
    static ANSWER: std::sync::OnceLock<Option<Vec3>> = std::sync::OnceLock::new();
    *ANSWER.get_or_init(|| skin_check_vertex(false))
}

/// Where the vertex lands with the inverse bind left out: the slip the cell names.
fn without_inverse_bind() -> Option<Vec3> {
    static SLIP: std::sync::OnceLock<Option<Vec3>> = std::sync::OnceLock::new();
    *SLIP.get_or_init(|| skin_check_vertex(true))
}

fn skin_check_vertex(forget_inverse_bind: bool) -> Option<Vec3> {
    let mut page = ModelPage::default();
    page.set_asset(Asset::SimpleSkin);
    page.time = CHECK_TIME;
    page.forget_inverse_bind = forget_inverse_bind;
    let v = check_vertex_index(&page)?;
    page.frame().skinned.first()?.get(v).map(|s| s.position)
}

/// Where the exercise's vertex stands in SimpleSkin's mesh (open on `page`).
fn check_vertex_index(page: &ModelPage) -> Option<usize> {
    let mesh = page.model.skinned_meshes.first()?;
    mesh.part
        .vertices
        .positions
        .iter()
        .position(|p| p.abs_diff_eq(CHECK_VERTEX, 1e-5))
}

impl ModelPage {
    pub(super) fn check_cell_ui(&mut self, ui: &mut Ui) {
        ui.label(
            "SimpleSkin at τ = 1 s: node 2 (its skin's joint 1) was bound at (0, 1, 0), not \
             turned; now it still sits there and has turned 90° about z. Node 1 (the skin's \
             joint 0) has not moved. The top vertex v = (-0.5, 2, 0) has weight 1 on node 2. \
             Where does it land?",
        );
        // The exercise is on another model: the button says so.
        let show = if self.asset == Asset::SimpleSkin {
            crate::ui::show_pose_ui(ui)
        } else {
            crate::ui::pose_button_ui(ui, "Open SimpleSkin at τ = 1 s in the viewport")
        };
        if show {
            self.set_asset(Asset::SimpleSkin);
            self.time = CHECK_TIME;
            // Its joints drawn, to read the turn off the screen.
            self.show_skeleton = true;
            self.playing = false;
            // The vertex ringed, where the file puts it and where it lands, once
            // answered: its cell above prints where it lands.
            self.vertex = if self.check.verdict.is_some() {
                check_vertex_index(self)
            } else {
                None
            };
        }
        let Some(answer) = check_answer() else {
            crate::ui::error_ui(ui, "SimpleSkin has no vertex at (-0.5, 2, 0)");
            return;
        };
        let expected = [answer.x, answer.y];
        let slip = without_inverse_bind().map(|v| [v.x, v.y]);
        // Turned the other way round: x comes out with the wrong sign.
        let clockwise = [-answer.x, answer.y];
        // The vertex where the file puts it: the joint's turn not applied at all.
        let unmoved = [-0.5, 2.0];
        let mut mistakes: Vec<(&[f32], &str)> = vec![
            (
                &clockwise,
                "x has the wrong sign: a positive turn about z is counter-clockwise, it sends \
                 (x, y) to (−y, x)",
            ),
            (
                &unmoved,
                "that is v where the file puts it: node 2 has turned 90° by τ = 1 s, and the \
                 vertex, weighted to it, turns with it",
            ),
        ];
        if let Some(slip) = &slip {
            mistakes.push((
                slip,
                "that is where the vertex lands with no inverse bind: first bring it into \
                 node 2's own frame with joint_from_bind, then turn and place it",
            ));
        }
        let question = Question {
            name: "top",
            labels: &["x", "y"],
            columns: 2,
            expected: &expected,
            tolerance: 0.01,
            mistakes: &mistakes,
        };
        check_ui(ui, &mut self.check, &question, |ui| {
            crate::ui::check::working_ui(
                ui,
                &format!(
                    "joint_from_bind moves v into node 2's bind frame: v − (0, 1, 0) = (−0.5, 1, 0)\n\
                     turned 90° about z: (x, y) → (−y, x) = (−1, −0.5, 0)\n\
                     world_from_joint adds (0, 1, 0) back: ({:.2}, {:.2}, 0)",
                    answer.x, answer.y
                ),
            );
        });
    }
}
