//! The paint cell: the blending page's brush on the open model's weights for the picked
//! joint, by mouse or by finger. The weights change on screen while a stroke lasts;
//! when it ends the stroke is written into the file ([`gltf::paint`]), so it is undone
//! with the repairs and saved as they are.

use super::ModelPage;
use super::data::Frame;
use super::repair::{NOTHING, PAINTED};
use crate::pages::blending::paint::{paint_row, weighted_mean};
use crate::ui::Viewport;
use egui::Ui;
use gltf::{Model, StoredInfluences};
use skin::Influences;
use std::sync::Arc;

/// The brush's radius on screen, in points: the smallest, the largest and the first.
pub const RADIUS: (f32, f32, f32) = (8.0, 160.0, 40.0);

/// A stroke under way: the model before it, and the vertices it has changed so far
/// (numbered across the skinned meshes).
pub struct Stroke {
    before: Arc<Model>,
    changed: std::collections::BTreeSet<usize>,
}

/// What the brush does with the pointer: paints, or waits for fingers to lift.
#[derive(Default)]
pub enum Brushing {
    #[default]
    Ready,
    /// A stroke under way.
    Painting(Stroke),
    /// Two fingers came down: nothing paints until every finger lifts.
    Waiting,
}

impl ModelPage {
    /// Whether a drag on the viewport paints: the brush is on and a joint is picked.
    pub fn painting(&self) -> bool {
        self.brush.on && self.joint.is_some()
    }

    /// Whether a stroke is under way.
    pub fn painting_now(&self) -> bool {
        matches!(self.stroke, Brushing::Painting(_))
    }

    /// The brush on the viewport: a drag or a tap with one finger paints where it is,
    /// and its end writes the stroke into the file. Two fingers, the wheel and a pinch
    /// still move the camera, and two fingers drop what the first one painted.
    pub(super) fn brush_input(&mut self, ui: &Ui, vp: &Viewport, frame: &Frame) {
        let r = &vp.response;
        self.brush_at = r.hover_pos().or(r.interact_pointer_pos());
        if ui.input(|i| i.multi_touch()).is_some() {
            if let Brushing::Painting(stroke) =
                std::mem::replace(&mut self.stroke, Brushing::Waiting)
            {
                self.model = stroke.before;
                self.drawn = None;
            }
            vp.camera_input(ui, &mut self.camera);
            return;
        }
        if matches!(self.stroke, Brushing::Waiting) {
            if !ui.input(|i| i.pointer.any_down()) {
                self.stroke = Brushing::Ready;
            }
            return;
        }
        if !(r.dragged() || r.clicked()) {
            vp.camera_input(ui, &mut self.camera);
        } else if let Some(at) = r.interact_pointer_pos() {
            let dt = if r.clicked() {
                0.1
            } else {
                ui.input(|i| i.stable_dt).min(0.1)
            };
            self.dab(vp, frame, at, dt);
        }
        if r.drag_stopped() || r.clicked() {
            self.end_stroke();
        }
    }

    /// One dab of the brush at `at` on screen, lasting `dt` seconds: each front-facing
    /// skinned vertex under it moves its weight for the picked joint towards the
    /// brush's target, by how near the centre it is.
    pub fn dab(&mut self, vp: &Viewport, frame: &Frame, at: egui::Pos2, dt: f32) {
        let Some(joint) = self.joint else {
            return;
        };
        // Each vertex under the brush, where it is, and the picked joint's place in the
        // list of its mesh's skin (a mesh whose skin lacks it is left alone).
        let brushed: Vec<(usize, (usize, usize), usize, f32)> = (self
            .vertices_on_screen(vp, frame))
        .into_iter()
        .filter_map(|(g, on_screen)| {
            let amount = self.brush.amount(on_screen.distance(at), dt)?;
            let (m, v) = self.vertex_in_mesh(g)?;
            let skin = self.model.skins.get(self.model.skinned_meshes[m].skin)?;
            let local = skin.joints.iter().position(|&k| k == joint)?;
            Some((g, (m, v), local, amount))
        })
        .collect();
        if brushed.is_empty() {
            return;
        }
        let weight = |model: &Model, (m, v): (usize, usize), local: usize| {
            model.skinned_meshes[m].part.vertices.influences[v].weight(local)
        };
        let mean = weighted_mean(
            (brushed.iter())
                .map(|&(_, at, local, amount)| (weight(&self.model, at, local), amount)),
        );
        let target = self.brush.target(mean);
        if !self.painting_now() {
            self.stroke = Brushing::Painting(Stroke {
                before: self.model.clone(),
                changed: Default::default(),
            });
        }
        let Brushing::Painting(stroke) = &mut self.stroke else {
            return;
        };
        let model = Arc::make_mut(&mut self.model);
        for (g, (m, v), local, amount) in brushed {
            let mesh = &mut model.skinned_meshes[m];
            let joints = model.skins[mesh.skin].joints.len();
            let old = mesh.part.vertices.influences[v];
            if let Some(new) = painted(old, local, joints, target, amount, self.auto_normalise)
                && new != old
            {
                mesh.part.vertices.influences[v] = new;
                mesh.stored[v] = StoredInfluences {
                    joints: new.joints,
                    weights: new.weights,
                };
                stroke.changed.insert(g);
            }
        }
        // The meshes are built again with the new weights.
        self.drawn = None;
    }

    /// Writes the stroke under way into the file and shows the file as painted, to undo
    /// or save; a stroke that changed nothing, or that the file refuses, leaves the
    /// model as it was before it (and says why).
    pub fn end_stroke(&mut self) {
        let Brushing::Painting(stroke) = std::mem::take(&mut self.stroke) else {
            return;
        };
        let changed = stroke.changed.len();
        let painted = (changed > 0).then(|| painted_primitives(&self.model, &stroke.before));
        let joint = (self.joint)
            .and_then(|j| self.model.joints.get(j))
            .map_or("the joint", |j| j.name.as_str());
        let what = format!(
            "The last stroke changed {joint}'s weight on {}",
            crate::ui::counted(changed, "vertex", "vertices")
        );
        // The model as it was: what Undo goes back to, or what stays when refused.
        self.model = stroke.before;
        self.drawn = None;
        let written = match painted {
            None => return,
            Some(painted) => painted.and_then(|painted| {
                let source = self.source()?;
                gltf::paint(&source, NOTHING, &painted).map_err(|e| e.to_string())
            }),
        };
        match written {
            Ok(written) => {
                let name = self.model_name().to_owned();
                self.show_changed(&name, PAINTED, written, what);
            }
            Err(e) => self.repairs.said = Some(Err(format!("not painted: {e}"))),
        }
    }

    /// The paint cell.
    pub(super) fn paint_ui(&mut self, ui: &mut Ui) {
        let (least, most, _) = RADIUS;
        self.brush.controls_ui(ui, least..=most, "radius (points)");
        ui.checkbox(&mut self.auto_normalise, "Auto normalise");
        if !self.auto_normalise {
            ui.label(
                "Without it the file keeps the sums you paint. The loader, like any engine, \
                 normalises them when it opens the file, so the stroke's end shows what an \
                 engine draws; the repair cell offers to renormalise.",
            );
        }
        match self.joint.and_then(|j| self.model.joints.get(j)) {
            None => {
                ui.label("Pick a joint first (in the skeleton cell, or click its dot): the brush paints its weight.");
            }
            Some(joint) if self.brush.on => {
                ui.label(format!(
                    "Drag over a skinned mesh to {} {}'s weight; the heat map shows it. \
                     A hard piece rides one node and has no weights to paint. Two fingers, \
                     or the brush off, turn the view.",
                    self.brush.verb(),
                    joint.name
                ));
            }
            Some(joint) => {
                ui.label(format!(
                    "Switch the brush on to paint {}'s weight.",
                    joint.name
                ));
            }
        }
        if let Some(Err(e)) = &self.repairs.said {
            crate::ui::error_ui(ui, e.clone());
        }
        self.undo_ui(ui);
        self.save_ui(ui);
    }
}

/// Each primitive whose weights differ in `now` from `before`, with its weights as they
/// are now; a primitive placed by several nodes gets every node's changes. Refused
/// when those nodes skin it with different skins (their joint numbers differ).
fn painted_primitives(now: &Model, before: &Model) -> Result<Vec<gltf::Painted>, String> {
    let mut painted: Vec<(gltf::Painted, usize)> = Vec::new();
    for (mesh, was) in now.skinned_meshes.iter().zip(&before.skinned_meshes) {
        let key = (mesh.part.mesh, mesh.part.primitive);
        if mesh.stored == was.stored {
            continue;
        }
        match painted
            .iter_mut()
            .find(|(p, _)| (p.mesh, p.primitive) == key)
        {
            Some((_, skin)) if *skin != mesh.skin => {
                return Err(format!(
                    "mesh {} is skinned by two skins, and the brush painted both",
                    key.0
                ));
            }
            Some((p, _)) => {
                for ((into, new), old) in p.influences.iter_mut().zip(&mesh.stored).zip(&was.stored)
                {
                    if new != old {
                        *into = *new;
                    }
                }
            }
            None => painted.push((
                gltf::Painted {
                    mesh: key.0,
                    primitive: key.1,
                    influences: mesh.stored.clone(),
                },
                mesh.skin,
            )),
        }
    }
    Ok(painted.into_iter().map(|(p, _)| p).collect())
}

/// `old` with `local`'s weight moved a fraction `amount` of the way to `target` (the
/// blending page's [`paint_row`] on the joints the vertex uses and `local`), keeping
/// the four largest; `None` where no weight would be left to normalise.
fn painted(
    old: Influences,
    local: usize,
    joints: usize,
    target: f32,
    amount: f32,
    normalise: bool,
) -> Option<Influences> {
    let mut used: Vec<(usize, f32)> = Vec::with_capacity(5);
    for (j, w) in old.used() {
        match used.iter_mut().find(|(k, _)| *k == j) {
            Some((_, sum)) => *sum += w,
            None => used.push((j, w)),
        }
    }
    if !used.iter().any(|&(j, _)| j == local) {
        used.push((local, 0.0));
    }
    let bone = used.iter().position(|&(j, _)| j == local)?;
    let mut row: Vec<f32> = used.iter().map(|&(_, w)| w).collect();
    paint_row(&mut row, bone, target, amount, normalise);
    let list: Vec<(usize, f32)> = (used.iter().zip(row))
        .map(|(&(j, _), w)| (j, w))
        .filter(|&(j, w)| w > 0.0 || j == local)
        .collect();
    if normalise {
        Influences::prepare(&list, joints).ok()
    } else {
        // Weights that sum to 0 leave the vertex nowhere: the brush stops short of it.
        (list.iter().map(|(_, w)| w).sum::<f32>() > 1e-4)
            .then(|| Influences::unnormalised(&list, joints).ok())
            .flatten()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_dab_moves_the_joint_and_keeps_the_sum_with_auto_normalise() {
        let old = Influences::prepare(&[(0, 0.75), (1, 0.25)], 3).unwrap();
        let new = painted(old, 1, 3, 1.0, 0.5, true).unwrap();
        assert!((new.weight(1) - 0.625).abs() < 1e-6);
        assert!((new.sum() - 1.0).abs() < 1e-6);
        // A joint the vertex did not have joins it; without auto normalise the sum drifts.
        let added = painted(old, 2, 3, 1.0, 0.5, false).unwrap();
        assert!((added.weight(2) - 0.5).abs() < 1e-6);
        assert!((added.sum() - 1.5).abs() < 1e-6);
        // The only joint cannot be emptied with auto normalise: there is no other; and
        // without it, a vertex is not left with no weight at all.
        let rigid = Influences::rigid(0);
        assert_eq!(painted(rigid, 0, 3, 0.0, 1.0, true), Some(rigid));
        assert_eq!(painted(rigid, 0, 3, 0.0, 1.0, false), None);
    }

    #[test]
    fn a_fifth_joint_pushes_out_the_smallest() {
        let old = Influences::prepare(&[(0, 0.4), (1, 0.3), (2, 0.2), (3, 0.1)], 5).unwrap();
        let new = painted(old, 4, 5, 1.0, 0.5, true).unwrap();
        let joints: Vec<usize> = new.used().map(|(j, _)| j).collect();
        assert_eq!(joints.len(), 4);
        assert!(joints.contains(&4) && !joints.contains(&3), "{joints:?}");
        assert!((new.sum() - 1.0).abs() < 1e-6);
    }
}
