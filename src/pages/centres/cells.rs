//! The centres page's cells: the pose and the arms shown, how a centre is found, one
//! vertex through the method, the two measures against the sweep, and the cost.

use super::{Cell, CentresPage, MAX_BEND, MAX_STRETCH, MIN_STRETCH, Method, Mode, Sweep};
use crate::pages::blending::{BONE_NAMES, DQS_COLOR, LBS_COLOR};
use crate::ui::legend::{Mark, plot_key_ui};
use crate::ui::matrix::{quat_text, vec3_text};
use crate::ui::{angle_slider_ui, checkbox_ui, error_ui, mono_ui, slider_ui};
use egui::{Color32, RichText, Ui};
use egui_plot::{Line, VLine};
use glam::{Mat3, Quat, Vec3, Vec4};
use rigs::arm;
use skin::Influences;
use skin::cor::SIGMA;
use skin::dqs::{blend_dual_quats, blend_stretches, split_palette};

/// The colour of skinning about centres of rotation, in the plots and the labels.
pub(super) const COR_COLOR: Color32 = Color32::from_rgb(40, 150, 70);

/// The colour of plain dual quaternions, which drop a scale.
const PLAIN_COLOR: Color32 = Color32::from_rgb(150, 70, 180);

/// Each method's colour.
pub(super) fn color(method: Method) -> Color32 {
    match method {
        Method::Lbs => LBS_COLOR,
        Method::Dqs => DQS_COLOR,
        Method::Cor => COR_COLOR,
        Method::DqsPlain => PLAIN_COLOR,
    }
}

impl CentresPage {
    pub(super) fn page_cell_ui(&mut self, cell: Cell, ui: &mut Ui) {
        self.scroll_to.cell_ui(cell.into(), ui);
        match cell {
            Cell::Compare => self.compare_ui(ui),
            Cell::Centre => self.centre_ui(ui),
            Cell::Vertex => self.vertex_ui(ui),
            Cell::Measure => self.measure_ui(ui),
            Cell::Cost => self.cost_ui(ui),
            Cell::Scale => self.scale_ui(ui),
            Cell::Check => self.check_cell_ui(ui),
        }
    }

    /// The twist, the bend, which arms are drawn and whether the centres are.
    fn compare_ui(&mut self, ui: &mut Ui) {
        angle_slider_ui(ui, &mut self.twist, -180.0..=180.0, "twist", 0);
        let max = MAX_BEND.to_degrees();
        angle_slider_ui(ui, &mut self.bend, -max..=max, "bend", 0);
        ui.horizontal_wrapped(|ui| {
            ui.label("Show:");
            for (&mode, label) in [Mode::All, Mode::Lbs, Mode::Dqs, Mode::Cor, Mode::Scale]
                .iter()
                .zip(["all three", "LBS", "DQS", "centres", "plain DQS"])
            {
                ui.selectable_value(&mut self.mode, mode, label);
            }
        });
        checkbox_ui(ui, &mut self.show_centres, "Draw the centres");
    }

    /// The followed vertex's weights, the centre found for them, and what the search
    /// took.
    fn centre_ui(&mut self, ui: &mut Ui) {
        let Some((v, p, influences, _)) = self.followed_ui(ui) else {
            return;
        };
        let centred = self.centred.clone();
        let weights: Vec<String> = influences
            .used()
            .map(|(j, w)| format!("{} {w:.2}", BONE_NAMES.get(j).copied().unwrap_or("?")))
            .collect();
        let mut lines = vec![
            format!("vertex {v} at {}", vec3_text(p)),
            format!("weights: {}", weights.join(", ")),
        ];
        match centred.found.get(v).copied().flatten() {
            Some(c) => {
                lines.push(format!("p* = Σ s·a·c / Σ s·a = {}", vec3_text(c)));
                lines.push(format!(
                    "{:.2} from the vertex, {:.2} from the elbow's axis point",
                    c.distance(p),
                    c.distance(Vec3::X * arm::BONE_LENGTH)
                ));
            }
            None => lines.push(
                "one joint: no triangle is alike (s = 0), so no centre is needed; it turns with its bone".to_owned(),
            ),
        }
        mono_ui(ui, lines.join("\n"));
        let work = centred.work;
        mono_ui(
            ui,
            format!(
                "every vertex against every triangle: {} vertices × {} triangles = {} similarities\nonce per set of weights: {} sets\nonly triangles that blend a pair the set blends: {} similarities\nhere: {:.1} ms",
                centred.mesh.skin.positions.len(),
                centred.mesh.indices.len() / 3,
                work.every_pair,
                work.weight_sets,
                work.similarities,
                centred.millis
            ),
        );
        ui.label(
            RichText::new(format!(
                "s: how alike two sets of weights are (σ = {SIGMA}); a: a triangle's area; c: its centroid."
            ))
            .weak(),
        );
    }

    /// The vertex picker, then the followed vertex: its number, bind position,
    /// influences and centre; or a message, and `None`, where the arm has no such vertex.
    fn followed_ui(&mut self, ui: &mut Ui) -> Option<(usize, Vec3, Influences, Vec3)> {
        self.vertex_picker_ui(ui);
        let v = self.vertex;
        let mesh = &self.centred.mesh;
        match (
            mesh.skin.positions.get(v),
            mesh.skin.influences.get(v),
            mesh.centres.get(v),
        ) {
            (Some(&p), Some(&influences), Some(&centre)) => Some((v, p, influences, centre)),
            _ => {
                error_ui(ui, format!("the arm has no vertex {v}"));
                None
            }
        }
    }

    fn vertex_picker_ui(&mut self, ui: &mut Ui) {
        ui.horizontal_wrapped(|ui| {
            let label = ui.label("Vertex:");
            ui.add(egui::DragValue::new(&mut self.vertex).range(0..=arm::VERTEX_COUNT - 1))
                .labelled_by(label.id);
        });
    }

    /// The followed vertex through the method: the rotations blended, the centre
    /// moved, then the vertex turned about it.
    fn vertex_ui(&mut self, ui: &mut Ui) {
        let Some((v, p, influences, centre)) = self.followed_ui(ui) else {
            return;
        };
        let (dq, stretches) = split_palette(&self.palette());
        let used: Vec<(usize, f32)> = influences.used().collect();
        let Some(&(first, _)) = used.first() else {
            error_ui(ui, format!("vertex {v} has no weights"));
            return;
        };
        let pivot = Vec4::from(dq[first].real);
        let mut lines = Vec::new();
        let mut sum = Vec4::ZERO;
        let mut moved = Vec3::ZERO;
        for &(j, w) in &used {
            let q = Vec4::from(dq[j].real);
            let flip = q.dot(pivot) < 0.0;
            sum += q * if flip { -w } else { w };
            let to = dq[j].transform_point(stretches[j] * centre);
            moved += to * w;
            lines.push(format!(
                "{}: w = {w:.2}, q = {}{}, G·p* = {}",
                BONE_NAMES.get(j).copied().unwrap_or("?"),
                quat_text(dq[j].real),
                if flip { " (flipped)" } else { "" },
                vec3_text(to)
            ));
        }
        let r = Quat::from_vec4(sum.normalize_or_zero());
        lines.push(format!("R = normalize(Σ w·q) = {}", quat_text(r)));
        // A stretched forearm is stretched first, as the two-phase blend does.
        let s = blend_stretches(&stretches, &influences);
        let (turn, rs) = if s.abs_diff_eq(Mat3::IDENTITY, 1e-5) {
            (Mat3::from_quat(r), "R")
        } else {
            lines.push(format!("S = Σ w·S[j] / Σ w = {}", mat3_rows(&s)));
            (Mat3::from_quat(r) * s, "R·S")
        };
        let t = moved - turn * centre;
        let drawn = turn * p + t;
        lines.push(format!(
            "p* = {}, moved by linear blending: Σ w·G·p* = {}",
            vec3_text(centre),
            vec3_text(moved)
        ));
        lines.push(format!("t = Σ w·G·p* − {rs}·p* = {}", vec3_text(t)));
        lines.push(format!("v' = {rs}·v + t = {}", vec3_text(drawn)));
        for method in [Method::Lbs, Method::Dqs] {
            if let Some(other) = self.vertex_skinned(method, v) {
                lines.push(format!(
                    "{}: {}, {:.2} away",
                    method.label(),
                    vec3_text(other),
                    other.distance(drawn)
                ));
            }
        }
        mono_ui(ui, lines.join("\n"));
    }

    /// The elbow ring's area and the bulge against the sweep, three ways.
    fn measure_ui(&mut self, ui: &mut Ui) {
        ui.horizontal_wrapped(|ui| {
            ui.label("Sweep:");
            ui.selectable_value(&mut self.sweep, Sweep::Bend, "the bend");
            ui.selectable_value(&mut self.sweep, Sweep::Twist, "the twist");
        });
        let measures = self.measures_now();
        let text = |k: usize| {
            format!(
                "{} {:.0}% / {:.0}%",
                Method::ALL[k].label(),
                measures[k].0 * 100.0,
                measures[k].1 * 100.0
            )
        };
        ui.label(format!(
            "Now, elbow ring area / bulge: {}, {}, {}.",
            text(0),
            text(1),
            text(2)
        ));
        let curves = self.curves();
        let (now, axis) = match self.sweep {
            Sweep::Bend => (self.bend.abs(), "bend (degrees)"),
            Sweep::Twist => (self.twist.abs(), "twist (degrees)"),
        };
        let now = now.to_degrees() as f64;
        let marker = ui.visuals().strong_text_color();
        for (id, label, lines, low, high) in [
            ("elbow_area", "area / bind area", &curves.area, 0.0, 1.1),
            ("bulge", "bulge / radius", &curves.bulge, 0.9, 1.15),
        ] {
            let shown = crate::ui::plot(id)
                .height(140.0)
                .x_axis_label(axis)
                .y_axis_label(label)
                .include_y(low)
                .include_y(high)
                .show_x(false)
                .show_y(false)
                .show(ui, |plot| {
                    for (method, curve) in Method::ALL.iter().zip(lines) {
                        plot.line(
                            Line::new(method.label(), curve.clone())
                                .color(color(*method))
                                .width(2.0),
                        );
                    }
                    plot.vline(VLine::new("now", now).color(marker).width(2.5));
                });
            crate::ui::name_plot(&shown.response, || {
                format!("Plot: {label} against {axis}, LBS, DQS and centres of rotation")
            });
        }
        let mut key: Vec<(&str, Color32, Mark)> = Method::ALL
            .iter()
            .map(|m| (m.label(), color(*m), Mark::Line))
            .collect();
        key.push(("now", marker, Mark::Line));
        plot_key_ui(ui, &key);
    }

    /// What each method keeps for each vertex and joint, and does for each vertex.
    fn cost_ui(&mut self, ui: &mut Ui) {
        let n = self.centred.mesh.skin.positions.len();
        mono_ui(
            ui,
            format!(
                "for each joint, in the shader's uniforms:\n  LBS: a 4×4 matrix, 4 vectors\n  DQS and centres: a dual quaternion and a stretch, 2 + 2 vectors\nfor each vertex, beside its joints and weights:\n  LBS and DQS: nothing\n  centres: p*, 3 floats = 12 bytes ({n} vertices: {} bytes)\nfor each vertex, each frame, per joint:\n  LBS: add a matrix\n  DQS: add a dual quaternion\n  centres: add a quaternion and move p* by the joint\nonce, before the first frame: the search for the centres",
                n * 12
            ),
        );
    }

    /// A stretched forearm: the stretch, and the followed vertex through the two
    /// phases, against plain dual quaternions and linear blending.
    fn scale_ui(&mut self, ui: &mut Ui) {
        let stretch = egui::Slider::new(&mut self.stretch, MIN_STRETCH..=MAX_STRETCH);
        slider_ui(ui, stretch.fixed_decimals(2), "forearm stretch");
        ui.horizontal_wrapped(|ui| {
            ui.label("Show:");
            ui.selectable_value(&mut self.mode, Mode::Scale, "plain DQS above two phases");
            ui.selectable_value(&mut self.mode, Mode::All, "all three");
        });
        let Some((v, p, influences, _)) = self.followed_ui(ui) else {
            return;
        };
        let (rigid, stretches) = split_palette(&self.palette());
        let mut lines: Vec<String> = (stretches.iter().enumerate())
            .map(|(j, s)| {
                let name = BONE_NAMES.get(j).copied().unwrap_or("?");
                format!("S[{name}] = {}", mat3_rows(s))
            })
            .collect();
        let s = blend_stretches(&stretches, &influences);
        let moved = blend_dual_quats(&rigid, &influences, true);
        let stretched = s * p;
        let drawn = moved.transform_point(stretched);
        lines.push(format!("vertex {v}: v = {}", vec3_text(p)));
        lines.push("1. stretch: S = Σ w·S[j] / Σ w".to_owned());
        lines.push(format!("   = {}", mat3_rows(&s)));
        lines.push(format!("   S·v = {}", vec3_text(stretched)));
        lines.push("2. move by the rigid parts, blended as dual quaternions:".to_owned());
        lines.push(format!("   R = {}", quat_text(moved.real)));
        lines.push(format!("   t = {}", vec3_text(moved.translation())));
        lines.push(format!("   v' = R·(S·v) + t = {}", vec3_text(drawn)));
        for (method, what) in [
            (Method::DqsPlain, "plain DQS, no step 1"),
            (Method::Lbs, "LBS"),
        ] {
            if let Some(other) = self.vertex_skinned(method, v) {
                lines.push(format!(
                    "{what}: {}, {:.2} away",
                    vec3_text(other),
                    other.distance(drawn)
                ));
            }
        }
        mono_ui(ui, lines.join("\n"));
        let elbow = arm::world_from_joint(self.twist, self.bend)[1]
            .w_axis
            .truncate();
        let reach = |m: Method| self.hand(m).distance(elbow);
        mono_ui(
            ui,
            format!(
                "elbow to fingertips, {:.2} × {:.2} = {:.2} if kept:\n  two phases {:.2}, LBS {:.2}, plain DQS {:.2}",
                arm::BONE_LENGTH,
                self.stretch,
                arm::BONE_LENGTH * self.stretch,
                reach(Method::Dqs),
                reach(Method::Lbs),
                reach(Method::DqsPlain)
            ),
        );
    }
}

/// A 3×3 matrix to hundredths: `diag(a, b, c)` where only its diagonal shows, else
/// row by row, `[a b c; d e f; g h i]`.
fn mat3_rows(m: &Mat3) -> String {
    // Rounding's −0.00 reads as 0.00.
    let number = |x: f32| format!("{:.2}", if x.abs() < 0.005 { 0.0 } else { x });
    let diagonal = Mat3::from_diagonal(m.diagonal());
    if m.abs_diff_eq(diagonal, 0.005) {
        return format!("diag({})", m.diagonal().to_array().map(number).join(", "));
    }
    let rows = [0, 1, 2].map(|r| m.row(r).to_array().map(number).join(" "));
    format!("[{}]", rows.join("; "))
}
