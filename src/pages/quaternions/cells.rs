//! The quaternions page's notebook cells.

use super::Cell;
use super::{QuaternionsPage, Section};
use crate::ui::matrix::{fixed2, mat3_rows, quat_text, two_mat3_text, vec3_text, vec3_text3};
use crate::ui::{angle_slider_ui, legible, mono_ui, show_here_ui, sideways_ui};
use egui::{Color32, Ui};
use glam::{Mat3, Quat, Vec3};
use skin::explain::rotation::{
    self, axis_angle, euler_matrix, euler_quat, lock_closeness, quat_matrix,
};

/// The vector the turn cell turns: one unit along x.
const TURNED: Vec3 = Vec3::X;

/// Yaw, pitch and roll sliders (degrees); returns whether one moved.
pub(crate) fn euler_ui(ui: &mut Ui, euler: &mut [f32; 3], name: &str) -> bool {
    let mut changed = false;
    for (i, (axis, range)) in [("yaw (y)", 180.0), ("pitch (x)", 90.0), ("roll (z)", 180.0)]
        .into_iter()
        .enumerate()
    {
        let label = format!("{name}{axis}");
        changed |= angle_slider_ui(ui, &mut euler[i], -range..=range, &label, 0);
    }
    changed
}

impl QuaternionsPage {
    pub(super) fn page_cell_ui(&mut self, cell: Cell, ui: &mut Ui) {
        self.scroll_to.cell_ui(cell.into(), ui);
        match cell {
            Cell::Gimbal => self.gimbal_ui(ui),
            Cell::Quaternion => self.quaternion_ui(ui),
            Cell::Multiply => self.multiply_ui(ui),
            Cell::Turn => self.turn_ui(ui),
            Cell::Check => self.check_cell_ui(ui),
        }
    }

    fn show_here(&mut self, ui: &mut Ui, section: Section) {
        if show_here_ui(ui, self.section == section) {
            self.show(section);
        }
    }

    fn gimbal_ui(&mut self, ui: &mut Ui) {
        self.show_here(ui, Section::Gimbal);
        if euler_ui(ui, &mut self.euler, "") && self.section != Section::Quaternion {
            self.show(Section::Gimbal);
        }
        ui.horizontal_wrapped(|ui| {
            if ui.button("Pitch to 90°").clicked() {
                self.euler[1] = rotation::LOCK_PITCH;
                self.show(Section::Gimbal);
            }
            if ui.button("Pitch to 0°").clicked() {
                self.euler[1] = 0.0;
            }
        });
        let m = Mat3::from_mat4(euler_matrix(self.euler));
        let rows = mat3_rows(&m);
        mono_ui(ui, format!("R = Ry · Rx · Rz =\n{}", rows.join("\n")));
        if lock_closeness(self.euler[1]) > 0.999 {
            let sign = if self.euler[1] > 0.0 { "−" } else { "+" };
            ui.colored_label(
                legible(ui, Color32::from_rgb(200, 40, 40)),
                format!(
                    "Gimbal lock. R depends only on yaw {sign} roll = {:.0}°. Move yaw, then roll: both turn the glider about the same vertical axis. One degree of freedom is gone.",
                    rotation::locked_angle(self.euler).to_degrees()
                ),
            );
        } else {
            ui.label(format!(
                "Pitch {:.0}°: the roll ring's axis is {:.0}° from the yaw ring's axis.",
                self.euler[1].to_degrees(),
                90.0 - self.euler[1].to_degrees().abs()
            ));
        }
    }

    fn quaternion_ui(&mut self, ui: &mut Ui) {
        self.show_here(ui, Section::Quaternion);
        if euler_ui(ui, &mut self.euler, "") {
            self.show(Section::Quaternion);
        }
        let q = euler_quat(self.euler);
        let (axis, angle) = axis_angle(q);
        mono_ui(
            ui,
            format!(
                "q = (x, y, z, w) = {}\n|q| = {:.4}\naxis {}, angle {:.1}°\nq = (sin(θ/2) · axis, cos(θ/2))",
                quat_text(q),
                q.length(),
                vec3_text(axis),
                angle.to_degrees()
            ),
        );
        let (x, y, z, w) = (q.x, q.y, q.z, q.w);
        let entry = |formula: &str, value: f32| format!("{formula:<11}={:>6}", fixed2(value));
        let rows = [
            [
                entry("1−2(y²+z²)", 1.0 - 2.0 * (y * y + z * z)),
                entry("2(xy−wz)", 2.0 * (x * y - w * z)),
                entry("2(xz+wy)", 2.0 * (x * z + w * y)),
            ],
            [
                entry("2(xy+wz)", 2.0 * (x * y + w * z)),
                entry("1−2(x²+z²)", 1.0 - 2.0 * (x * x + z * z)),
                entry("2(yz−wx)", 2.0 * (y * z - w * x)),
            ],
            [
                entry("2(xz−wy)", 2.0 * (x * z - w * y)),
                entry("2(yz+wx)", 2.0 * (y * z + w * x)),
                entry("1−2(x²+y²)", 1.0 - 2.0 * (x * x + y * y)),
            ],
        ];
        // Three entries a row where they fit; on a phone one a line, each whole: a
        // formula is never broken from its value.
        let font = egui::TextStyle::Monospace.resolve(ui.style());
        let entry_width = ui.fonts_mut(|f| f.glyph_width(&font, '0')) * 18.0;
        let columns = if ui.available_width() >= 3.0 * entry_width + 28.0 {
            3
        } else {
            1
        };
        sideways_ui(ui, "quat_matrix", |ui| {
            egui::Grid::new("quat_matrix")
                .striped(true)
                .spacing([14.0, 3.0])
                .show(ui, |ui| {
                    for (i, e) in rows.iter().flatten().enumerate() {
                        ui.add(egui::Label::new(egui::RichText::new(e).monospace()).extend());
                        if (i + 1) % columns == 0 {
                            ui.end_row();
                        }
                    }
                });
        });
        let diff = (quat_matrix(q) - Mat3::from_mat4(euler_matrix(self.euler)))
            .to_cols_array()
            .iter()
            .fold(0.0f32, |m, v| m.max(v.abs()));
        ui.label(if diff == 0.0 {
            "The same matrix as Ry · Rx · Rz from the angles, exactly.".to_owned()
        } else {
            format!(
                "The same matrix as Ry · Rx · Rz from the angles: they differ by at most {diff:.1e}."
            )
        });
    }

    fn multiply_ui(&mut self, ui: &mut Ui) {
        let [yaw, pitch, roll] = self.euler;
        let half = |axis: Vec3, a: f32| Quat::from_axis_angle(axis, a);
        let (qy, qx, qz) = (
            half(Vec3::Y, yaw),
            half(Vec3::X, pitch),
            half(Vec3::Z, roll),
        );
        // One product worked term by term: q1 · q2 = (s1 v2 + s2 v1 + v1 × v2, s1 s2 − v1 · v2).
        let worked = |names: &str, q1: Quat, q2: Quat| {
            let (s1, v1) = (q1.w, Vec3::new(q1.x, q1.y, q1.z));
            let (s2, v2) = (q2.w, Vec3::new(q2.x, q2.y, q2.z));
            format!(
                "{names}:\n  s = s1 s2 − v1 · v2            = {:.3}\n  v = s1 v2 + s2 v1 + v1 × v2    = {}\n  = {}",
                s1 * s2 - v1.dot(v2) + 0.0,
                vec3_text3(s1 * v2 + s2 * v1 + v1.cross(v2)),
                quat_text(q1 * q2),
            )
        };
        let product = qy * qx;
        let text = format!(
            "q_yaw   = {}\nq_pitch = {}\nq_roll  = {}\n\n{}\n\n{}\n\nq = q_yaw · q_pitch · q_roll = {}",
            quat_text(qy),
            quat_text(qx),
            quat_text(qz),
            worked("q1 = q_yaw, q2 = q_pitch", qy, qx),
            worked("q1 = q_yaw · q_pitch, q2 = q_roll", product, qz),
            quat_text(product * qz),
        );
        mono_ui(ui, text);
        let composed = quat_matrix(qy) * quat_matrix(qx) * quat_matrix(qz);
        mono_ui(
            ui,
            two_mat3_text(
                ("R(q_yaw)·R(q_pitch)·R(q_roll)", &composed),
                ("R(q)", &quat_matrix(product * qz)),
            ),
        );
    }

    /// A point turned by `q · (p, 0) · q*`, product by product, beside the matrix's `R(q) · p`.
    fn turn_ui(&mut self, ui: &mut Ui) {
        let q = euler_quat(self.euler);
        let p = TURNED;
        let pure = Quat::from_vec4(p.extend(0.0));
        let left = skin::quat::product(q, pure);
        let turned = skin::quat::product(left, q.conjugate());
        mono_ui(
            ui,
            format!(
                "q          = {}   the sliders\nq*         = {}   its conjugate\n(p, 0)     = {}   the point p\nq·(p,0)    = {}\nq·(p,0)·q* = {}   = (p', 0)\nR(q)·p     = {}",
                quat_text(q),
                quat_text(q.conjugate()),
                quat_text(pure),
                quat_text(left),
                quat_text(turned),
                vec3_text3(quat_matrix(q) * p),
            ),
        );
    }
}
