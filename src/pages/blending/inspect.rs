//! The blending page's vertex cells: one vertex taken apart, and the algorithm with its
//! numbers.

use super::cells::{DQS_COLOR, bone_color};
use super::paint::SUM_TOLERANCE;
use super::{BONE_NAMES, BlendingPage, WEIGHT_SCALE};
use crate::notebook::anchor;
use crate::ui::inspect::breakdown_ui;
use crate::ui::listing::code_ui;
use crate::ui::matrix::{matrices_view_ui, matrix_view_ui, quat_text, vec3_text3};
use crate::ui::{error_ui, legible};
use egui::{RichText, Ui};
use gl::shaders;
use rigs::arm;
use skin::MAX_INFLUENCES;
use skin::explain::steps::DqsBreakdown;
use skin::explain::steps::VertexBreakdown;
use skin::lbs::{PositionW, blended_matrix};

impl BlendingPage {
    /// Weights that do not sum to 1, and the two things a shader can do with `w`.
    pub(super) fn sum_ui(&mut self, ui: &mut Ui) {
        ui.add(egui::Slider::new(&mut self.weight_scale, WEIGHT_SCALE).text("every weight ×"));
        ui.horizontal_wrapped(|ui| {
            ui.label("w:");
            ui.selectable_value(
                &mut self.position_w,
                PositionW::Divide,
                "keep it, divide by it (GPU default)",
            );
            ui.selectable_value(
                &mut self.position_w,
                PositionW::One,
                "set it to 1 (3×4 palette, CPU)",
            );
        });
        match anchor(shaders::SKIN_VERT.text, "position_w") {
            Some(code) => code_ui(ui, &code),
            None => error_ui(ui, "skin.vert has no anchor `position_w`"),
        }
        // The picked vertex, or the tip of the hand: the farthest from the shoulder.
        let v = self
            .vertex
            .unwrap_or(arm::VERTEX_COUNT - 1)
            .min(arm::VERTEX_COUNT - 1);
        let skin = self.skin();
        let pose = self.skinned();
        let (Some(influences), Some(drawn)) = (skin.influences.get(v), pose.lbs.get(v)) else {
            return;
        };
        let sum = influences.sum();
        let normalised = PositionW::Divide.drawn(
            &blended_matrix(&pose.palette, influences),
            skin.positions[v],
        );
        let style = self.inspect_style();
        // What the shader does with w: divides by the sum it carries, or sets it to 1.
        let w = match self.position_w {
            PositionW::Divide => format!("so w = {sum:.2}, and the divide by w undoes the sum"),
            PositionW::One => "but the shader sets w = 1, so nothing undoes the sum".to_owned(),
        };
        crate::ui::mono_ui(
            ui,
            format!(
                "vertex {v}: weights sum to {sum:.2}, {w}\n\
                 drawn at {}, {:.2} from the shoulder\n\
                 weights that sum to 1 put it at {}, {:.2} from the shoulder",
                style.point(drawn.position),
                drawn.position.length(),
                style.point(normalised),
                normalised.length(),
            ),
        );
    }

    pub(super) fn vertex_ui(&mut self, ui: &mut Ui) {
        let count = self.arm.skin.positions.len();
        ui.horizontal_wrapped(|ui| {
            let label = ui.label("Vertex:");
            // No number until one is picked: a number beside "click a vertex" read as
            // one already picked.
            match self.vertex {
                Some(mut v) => {
                    if ui
                        .add(egui::DragValue::new(&mut v).range(0..=count - 1))
                        .labelled_by(label.id)
                        .changed()
                    {
                        self.vertex = Some(v.min(count - 1));
                    }
                }
                None => {
                    ui.label("none picked");
                    if ui.button("Pick one at the elbow").clicked() {
                        self.vertex = Some((arm::elbow_ring() * arm::SEGMENTS).min(count - 1));
                    }
                }
            }
        });
        let Some(v) = self.vertex else {
            let hint = "Click a vertex on the arm, or pick one above.";
            let touch = crate::ui::touch(ui.ctx());
            ui.label(RichText::new(crate::ui::pointer_words(hint, touch)).weak());
            return;
        };
        let pose = self.skinned();
        let skin = self.skin();
        let influences = skin.influences[v];
        ui.label(format!(
            "bind position {}   weights: {}   (sum {:.3})",
            self.inspect_style().point(skin.positions[v]),
            influences
                .used()
                .map(|(j, w)| format!("{} {w:.2}", BONE_NAMES[j]))
                .collect::<Vec<_>>()
                .join(", "),
            influences.sum()
        ));
        let ink = crate::ui::legible_ink(ui);
        matrices_view_ui(
            ui,
            influences.used().filter_map(|(j, _)| {
                let label = RichText::new(format!("gradient, {}", BONE_NAMES[j]))
                    .color(ink(bone_color(j)))
                    .strong();
                Some((label, format!("gradient {j}"), pose.palette.get(j)?))
            }),
        );
        ui.label(RichText::new("blended = w0 · gradient0 + w1 · gradient1").strong());
        matrix_view_ui(ui, "blended", &blended_matrix(&pose.palette, &influences));
        if let Some(b) = VertexBreakdown::new(&pose.palette, &skin, v) {
            breakdown_ui(ui, &b, &self.inspect_style());
            let sum = influences.sum();
            if (sum - 1.0).abs() > SUM_TOLERANCE {
                ui.label(RichText::new(format!(
                    "The weights sum to {sum:.2}, so this point has w = {sum:.2}. {}",
                    match self.position_w {
                        PositionW::Divide => format!(
                            "The shader divides by w and draws it at {}.",
                            self.inspect_style().point(pose.lbs[v].position)
                        ),
                        PositionW::One => "The shader sets w = 1 and draws it there.".to_owned(),
                    }
                )));
            }
        }
        let dqs = pose.dqs[v].position;
        let ink = legible(ui, DQS_COLOR);
        crate::ui::listing::lines_ui(
            ui,
            &format!(
                "dual quaternions put it at {}   (LBS and DQS {:.3} apart)",
                self.inspect_style().point(dqs),
                dqs.distance(pose.lbs[v].position)
            ),
            |t| t.color(ink),
        );
    }

    pub(super) fn algorithm_ui(&mut self, ui: &mut Ui) {
        // Each step as a line of pseudo-code, with the Rust that runs it folded under.
        let step = |ui: &mut Ui, pseudo: &str, name: &str| {
            crate::ui::mono_ui(ui, pseudo);
            egui::CollapsingHeader::new(format!("The Rust: crates/skin/src/lbs.rs, {name}"))
                .id_salt(("blending algorithm", name))
                .show(ui, |ui| {
                    match anchor(source_text!("crates/skin/src/lbs.rs"), name) {
                        Some(code) => code_ui(ui, &code),
                        None => error_ui(ui, format!("the source has no anchor `{name}`")),
                    }
                });
        };
        let v = self.vertex;
        let pose = self.skinned();
        let skin = self.skin();
        ui.label(RichText::new("1. Once per frame, a gradient matrix per bone:").strong());
        step(ui, "for each bone j:   G[j] = W[j] · B[j]⁻¹", "palette");
        let ink = crate::ui::legible_ink(ui);
        matrices_view_ui(
            ui,
            pose.palette.iter().enumerate().map(|(j, m)| {
                let label = RichText::new(BONE_NAMES[j]).color(ink(bone_color(j)));
                (label, format!("algorithm gradient {j}"), m)
            }),
        );
        ui.label(
            RichText::new("2. Per vertex, the weighted sum of its bones' gradients:").strong(),
        );
        step(
            ui,
            "for each vertex:   M = w[0]·G[joint[0]] + … + w[3]·G[joint[3]]",
            "blend",
        );
        let Some(v) = v else {
            ui.label(RichText::new("Pick a vertex to see its numbers here.").weak());
            return;
        };
        let influences = skin.influences[v];
        let blended = blended_matrix(&pose.palette, &influences);
        crate::ui::mono_ui(
            ui,
            format!(
                "vertex {v}: joints {:?}, weights {:?}",
                &influences.joints[..MAX_INFLUENCES],
                influences
                    .weights
                    .map(|w| crate::ui::numbers::rounded(w, 3))
            ),
        );
        matrix_view_ui(ui, "algorithm blended", &blended);
        ui.label(RichText::new("3. The blended matrix moves the vertex:").strong());
        step(
            ui,
            "then:              v' = M · v,   n' = normalize((M⁻¹)^T · n)",
            "skin_vertices",
        );
        crate::ui::listing::lines_ui(
            ui,
            &format!(
                "{} -> {}",
                self.inspect_style().point(skin.positions[v]),
                self.inspect_style().point(pose.lbs[v].position)
            ),
            |t| t.strong(),
        );
    }

    /// The picked vertex through dual quaternion skinning, one step a line: each bone's
    /// dual quaternion and weight, their sum, the sum made unit, the point turned and
    /// moved, and the screw the blend makes.
    pub(super) fn dq_point_ui(&mut self, ui: &mut Ui) {
        let Some(v) = self.vertex else {
            ui.label(
                RichText::new("Pick a vertex on the arm to see it skinned by DQS here.").weak(),
            );
            return;
        };
        let pose = self.skinned();
        let skin = self.skin();
        let Some(b) = DqsBreakdown::new(&pose.dual_quats, &skin, v, self.antipodal_check) else {
            return;
        };
        let point = vec3_text3;
        let mut text = format!("vertex {v}, v = {}\n", point(b.bind));
        for (joint, weight, sign, q) in &b.parts {
            let name = BONE_NAMES.get(*joint).copied().unwrap_or("?");
            let flipped = if *sign < 0.0 { ", flipped (−q)" } else { "" };
            text += &format!(
                "{name:<9} w = {weight:.2}{flipped}\n  r = {}\n  d = {}\n",
                quat_text(q.real),
                quat_text(q.dual)
            );
        }
        let s = b.sum;
        text += &format!(
            "sum       r = {}\n          d = {}\n",
            quat_text(s.real),
            quat_text(s.dual)
        );
        text += &format!(
            "unit      ÷ |r| = {:.3}:\n          r = {}\n          d = {}\n",
            b.length,
            quat_text(b.unit.real),
            quat_text(b.unit.dual)
        );
        text += &format!(
            "T  = 2·d·r*           = {}\nr·(v, 0)·r*          = {}\nv' = r·(v, 0)·r* + T = {}",
            point(b.unit.translation()),
            point(b.turned),
            point(b.moved)
        );
        crate::ui::mono_ui(ui, text);
        let screw = b.unit.screw();
        ui.label(format!(
            "The screw: a turn of {:.1}° about the axis {} through {}, and a slide of {:.3} along it.",
            screw.angle.to_degrees(),
            point(screw.axis),
            point(screw.point),
            screw.slide
        ));
    }
}
