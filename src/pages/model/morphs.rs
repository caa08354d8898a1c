//! The model page's blend shapes (morph targets): each target's weight this frame,
//! from the file's defaults, the clips' `weights` channels and the sliders, and the
//! `morph` link key that holds them.

use super::ModelPage;
use super::link_values::{find_name, link_name};
use crate::link::{number, parse_number};
use egui::Ui;
use skin::clip::subtree_mask;
use std::ops::RangeInclusive;

/// The weights a slider or a link may set: past 1 pushes a shape further, below 0 the
/// other way (glTF sets no bounds; these keep a face a face).
pub const MORPH_WEIGHTS: RangeInclusive<f32> = -1.0..=2.0;

/// What `morph` holds.
pub(super) const MORPH_FORM: &str = "entries like `Surprised:1` (a blend shape's name, then its \
     weight from -1 to 2) joined by `,`";

impl ModelPage {
    /// The names of the model's blend shapes, each once, in the order its meshes
    /// (skinned, then rigid) list them.
    pub fn target_names(&self) -> Vec<&str> {
        let mut names: Vec<&str> = Vec::new();
        for part in self.parts() {
            for target in &part.targets {
                if !names.contains(&target.name.as_str()) {
                    names.push(&target.name);
                }
            }
        }
        names
    }

    /// Every mesh of the model, skinned first, then rigid: the order the viewport
    /// uploads them in.
    pub(super) fn parts(&self) -> impl Iterator<Item = &gltf::MeshPart> {
        let skinned = self.model.skinned_meshes.iter().map(|m| &m.part);
        skinned.chain(self.model.rigid_meshes.iter().map(|m| &m.part))
    }

    /// Each mesh's blend-shape weights this frame, in [`Self::parts`]' order: clip A's
    /// `weights` channel for its node, blended toward clip B's as the pose is, else the
    /// file's; a weight held by hand (by its target's name) over both.
    pub fn morph_weights(&self) -> Vec<Vec<f32>> {
        let model = &self.model;
        let clip_a = model.clips.get(self.clip);
        let clip_b = self.clip_b.and_then(|b| model.clips.get(b));
        let time_b = self.time_b();
        let mask = self
            .mask
            .filter(|root| *root < model.skeleton.len())
            .map(|root| subtree_mask(&model.skeleton, root));
        self.parts()
            .map(|part| {
                // Most meshes have no shapes: no search for their node's joint.
                if part.targets.is_empty() {
                    return Vec::new();
                }
                let joint = model.joints.iter().position(|j| j.node == part.node);
                let sampled = |clip: Option<&skin::clip::Clip>, t: f32| {
                    let weights = clip.and_then(|c| c.sample_weights(joint?, t));
                    weights.filter(|w| w.len() == part.targets.len())
                };
                let defaults = || part.morph_weights.clone();
                let a = sampled(clip_a, self.time).unwrap_or_else(defaults);
                let mut weights = match (clip_b, time_b) {
                    (Some(b), Some(t)) => {
                        let b = sampled(Some(b), t).unwrap_or_else(defaults);
                        let m = match (&mask, joint) {
                            (Some(mask), Some(j)) => mask.get(j).copied().unwrap_or(0.0),
                            _ => 1.0,
                        };
                        let k = self.blend * m;
                        a.iter().zip(&b).map(|(a, b)| a + (b - a) * k).collect()
                    }
                    _ => a,
                };
                for (w, target) in weights.iter_mut().zip(&part.targets) {
                    if let Some(held) = self.held_morphs.get(&target.name) {
                        *w = *held;
                    }
                }
                weights
            })
            .collect()
    }

    /// A slider for each blend shape of the model: dragging one holds its weight over
    /// the clip's, in every mesh that has a shape of that name.
    pub(super) fn morphs_ui(&mut self, ui: &mut Ui) {
        let names: Vec<String> = self.target_names().into_iter().map(str::to_owned).collect();
        if names.is_empty() {
            return;
        }
        ui.label(format!(
            "Blend shapes (morph targets): {} of them. A slider holds a shape's weight; the \
             clip drives the rest.",
            names.len()
        ));
        let now = self.morph_weights();
        for name in &names {
            // The weight the first mesh with this shape has now.
            let current = (self.parts().zip(&now))
                .find_map(|(part, w)| {
                    let t = part.targets.iter().position(|t| t.name == *name)?;
                    w.get(t).copied()
                })
                .unwrap_or(0.0);
            let mut weight = current;
            let held = self.held_morphs.contains_key(name);
            let slider = egui::Slider::new(&mut weight, MORPH_WEIGHTS)
                .text(if held {
                    format!("{name} (held)")
                } else {
                    name.clone()
                })
                .max_decimals(2);
            if ui.add(slider).changed() {
                self.held_morphs.insert(name.clone(), weight);
            }
        }
        if !self.held_morphs.is_empty() && ui.button("Let the clip drive every shape").clicked() {
            self.held_morphs.clear();
        }
    }

    /// `morph=`: blend-shape weights held by hand, by name.
    pub(super) fn set_morph_text(&mut self, text: &str) -> Result<(), String> {
        let names: Vec<String> = self.target_names().into_iter().map(str::to_owned).collect();
        let bad = |why: String| format!("{MORPH_FORM}; {why}");
        let mut held = std::collections::BTreeMap::new();
        for entry in text.split(',') {
            let Some((name, value)) = entry.split_once(':') else {
                return Err(MORPH_FORM.to_owned());
            };
            let Some(t) = find_name(names.iter().map(String::as_str), name) else {
                let known = if names.is_empty() {
                    "this model has no blend shapes".to_owned()
                } else {
                    format!("this model's are {}", names.join(", "))
                };
                return Err(bad(format!("no blend shape is called `{name}`: {known}")));
            };
            let weight = parse_number(value)
                .filter(|w| MORPH_WEIGHTS.contains(w))
                .ok_or_else(|| {
                    bad(format!(
                        "the weight of `{name}` must be a number from -1 to 2"
                    ))
                })?;
            held.insert(names[t].clone(), weight);
        }
        self.held_morphs = held;
        Ok(())
    }

    /// The weights held by hand in a link, in the model's order of its shapes.
    pub(super) fn morph_text(&self) -> Option<String> {
        let names = self.target_names();
        let entries: Vec<String> = (names.iter().enumerate())
            .filter_map(|(i, name)| {
                let weight = self.held_morphs.get(*name)?;
                // A name holding the link's own separators goes by its number.
                let named = match name.contains([':', ',']) {
                    true => i.to_string(),
                    false => link_name(names.iter().copied(), i)?,
                };
                Some(format!("{named}:{}", number(*weight)))
            })
            .collect();
        (!entries.is_empty()).then(|| entries.join(","))
    }
}
