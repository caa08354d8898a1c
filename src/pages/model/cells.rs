//! The model page's cells: the file, its clips, one joint, one vertex and the blend of
//! two clips (the key timeline and the skeleton tree have files of their own).

use super::textures::Decoded;
use super::view::Readback;
use super::{Asset, Cell, MAX_SPEED, ModelPage};
use crate::link::Named;
use crate::pages::centres::Method;
use crate::pages::local_transform::{TrsEdit, trs_edit_ui};
#[cfg(not(target_arch = "wasm32"))]
use crate::ui::file_dialog::{Choice, FileDialog};
use crate::ui::inspect::{InspectStyle, breakdown_ui};
use crate::ui::legend::weight_legend_ui;
use crate::ui::matrix::{
    MatrixEdit, decimals_for, fixed, fixed_point, matrix_decimals, matrix_edit_decimals_ui,
    matrix_view_significant_ui,
};
use crate::ui::{counted, error_ui, legible, mono_ui};
use egui::{Color32, RichText, Ui};
use glam::Mat4;
use skin::clip::Transform;
use skin::explain::steps::VertexBreakdown;
use skin::explain::trs::Trs;
use skin::matrix::column_lengths;

impl ModelPage {
    pub(super) fn cell(&mut self, cell: Cell, ui: &mut Ui) {
        self.scroll_to.cell_ui(cell.into(), ui);
        match cell {
            Cell::File => self.file_ui(ui),
            Cell::Clips => self.clips_ui(ui),
            Cell::Keys => self.keys_ui(ui),
            Cell::Skeleton => self.skeleton_ui(ui),
            Cell::Joint => self.joint_ui(ui),
            Cell::Vertex => self.vertex_ui(ui),
            Cell::Blend => self.blend_ui(ui),
            Cell::Repair => self.repair_ui(ui),
            Cell::Paint => self.paint_ui(ui),
            Cell::Check => self.check_cell_ui(ui),
        }
    }

    fn file_ui(&mut self, ui: &mut Ui) {
        ui.horizontal_wrapped(|ui| {
            ui.label("Model:");
            for asset in Asset::ALL {
                let name = match (asset, &self.opened) {
                    (Asset::File, Some(opened)) => opened.name.clone(),
                    (Asset::File, None) => continue,
                    _ => asset.slug().to_owned(),
                };
                if ui.selectable_label(self.asset == *asset, name).clicked() && self.asset != *asset
                {
                    self.set_asset(*asset);
                }
            }
        });
        self.open_file_ui(ui);
        if let Some(error) = &self.load_error {
            error_ui(ui, error.clone());
        }
        let model = self.model.clone();
        let rigid: usize = model.rigid_meshes.len();
        mono_ui(
            ui,
            format!(
                "{}, all of them joints; {}\n{} ({}), {}\n{}",
                counted(model.joints.len(), "node", "nodes"),
                counted(model.skins.len(), "skin", "skins"),
                counted(model.skinned_meshes.len(), "skinned mesh", "skinned meshes"),
                counted(self.vertex_count(), "vertex", "vertices"),
                counted(rigid, "rigid mesh", "rigid meshes"),
                counted(model.clips.len(), "clip", "clips")
            ),
        );
        for (i, skin) in model.skins.iter().enumerate() {
            let path = if skin.joints.len() <= scene::MAX_JOINTS {
                "uniform array"
            } else {
                "bone texture"
            };
            mono_ui(
                ui,
                format!(
                    "skin {i} `{}`: {}, drawn from the {path}",
                    skin.name,
                    counted(skin.joints.len(), "joint", "joints")
                ),
            );
        }
        self.method_ui(ui);
        self.materials_ui(ui);
        if rigid > 0 {
            ui.label(
                "Hard pieces (meshes with no skin) each ride on their node. The page draws one as a skin \
                 of one joint with weight 1, palette [world_from_joint of its node].",
            );
        }
        for note in &model.notes {
            ui.label(format!("note: {note}"));
        }
        for warning in &model.warnings {
            ui.label(
                RichText::new(format!("warning: {warning}"))
                    .color(legible(ui, Color32::from_rgb(170, 90, 0))),
            );
        }
        if model.warnings.is_empty() {
            ui.label("The loader repaired nothing in this file.");
        }
    }

    /// How the skinned meshes blend, and what finding their centres of rotation took.
    fn method_ui(&mut self, ui: &mut Ui) {
        ui.horizontal_wrapped(|ui| {
            ui.label("Blend:");
            for (method, label) in [
                (Method::Lbs, "linear"),
                (Method::Dqs, "dual quaternions"),
                (Method::Cor, "centres of rotation"),
                (Method::DqsPlain, "plain dual quaternions"),
            ] {
                ui.selectable_value(&mut self.method, method, label);
            }
        });
        let centres = self.centres.clone();
        let text = match &centres.refused {
            Some(why) => format!("centres of rotation: not searched ({why})"),
            None => {
                let found: usize = centres.meshes.iter().map(Vec::len).sum();
                format!(
                    "centres of rotation: {} searched when the model opened, in {:.1} ms",
                    counted(found, "vertex", "vertices"),
                    centres.millis
                )
            }
        };
        mono_ui(ui, text);
        if self.method == Method::Lbs {
            return;
        }
        let world = self.model.world_from_joint(&self.sample_pose());
        // The meshes blended linearly after all, by the reason; and those whose palette
        // scales, which plain dual quaternions drop.
        let mut fallen: Vec<(&str, Vec<String>)> = Vec::new();
        let mut scaled: Vec<String> = Vec::new();
        for (m, mesh) in self.model.skinned_meshes.iter().enumerate() {
            let palette = self.palette(mesh.skin, &world);
            if let (_, Some(why)) = self.mesh_method(m, &palette) {
                match fallen.iter_mut().find(|(w, _)| *w == why) {
                    Some((_, meshes)) => meshes.push(m.to_string()),
                    None => fallen.push((why, vec![m.to_string()])),
                }
            }
            if !palette.iter().all(|g| skin::matrix::is_rigid(g, 1e-3)) {
                scaled.push(m.to_string());
            }
        }
        for (why, meshes) in fallen {
            let (which, are) = match meshes.len() {
                1 => ("skinned mesh", "is"),
                _ => ("skinned meshes", "are"),
            };
            ui.label(format!(
                "{which} {} {are} blended linearly: {why}.",
                meshes.join(", ")
            ));
        }
        if self.method == Method::DqsPlain && !scaled.is_empty() {
            let (whose, does) = match scaled.len() {
                1 => ("the palette of skinned mesh", "scales"),
                _ => ("the palettes of skinned meshes", "scale"),
            };
            ui.label(format!(
                "Drawn wrong on purpose: {whose} {} {does}, and plain dual quaternions drop the scale. Dual quaternions carry it, in two phases.",
                scaled.join(", ")
            ));
        }
    }

    /// Whether the file's materials paint the meshes, and what became of each texture.
    fn materials_ui(&mut self, ui: &mut Ui) {
        let materials = self.model.materials.len();
        if materials == 0 {
            ui.label("The file has no materials: each mesh gets a tint of its own.");
            return;
        }
        ui.checkbox(
            &mut self.materials,
            format!(
                "paint with the file's {materials} material{} (colours and textures); off: one tint a mesh",
                if materials == 1 { "" } else { "s" }
            ),
        );
        for (m, material) in self.model.materials.iter().enumerate() {
            let Some(texture) = material.texture else {
                continue;
            };
            let name = material
                .name
                .clone()
                .unwrap_or_else(|| format!("material {m}"));
            let text = match self.texture(m) {
                Some(Decoded::Ready(t)) => format!(
                    "texture of `{name}`: {}×{} pixels, read at TEXCOORD_{}",
                    t.size[0], t.size[1], texture.uv_set
                ),
                Some(Decoded::Failed(why)) => {
                    format!("texture of `{name}` not drawn: {why}")
                }
                _ => format!("texture of `{name}`: decoding…"),
            };
            ui.label(text);
        }
    }

    /// Open a file (native), and what went wrong with the last one tried.
    fn open_file_ui(&mut self, ui: &mut Ui) {
        ui.horizontal_wrapped(|ui| {
            #[cfg(not(target_arch = "wasm32"))]
            if ui.button("Open a file…").clicked() {
                self.show_file_dialog(None);
            }
            ui.label("or drop a .glb, or a .gltf with its .bin and images, on the window");
        });
        #[cfg(not(target_arch = "wasm32"))]
        if let Some(dialog) = &mut self.dialog
            && let Some(choice) = dialog.show(ui.ctx())
        {
            self.dialog = None;
            if let Choice::File(path) = choice {
                self.open_path(&path);
            }
        }
        if let Some(error) = &self.open_error {
            error_ui(
                ui,
                format!("{error}. The page still shows {}.", self.model_name()),
            );
        }
        self.refused_ui(ui);
    }

    /// Opens the file chooser on `dir` (the working folder when `None`).
    #[cfg(not(target_arch = "wasm32"))]
    pub fn show_file_dialog(&mut self, dir: Option<std::path::PathBuf>) {
        const TITLE: &str = "Open a glTF model";
        let opens = <Self as crate::page::Lesson>::OPENS;
        self.dialog = Some(match dir {
            Some(dir) => FileDialog::new(TITLE, dir, opens),
            None => FileDialog::in_working_dir(TITLE, opens),
        });
    }

    fn clips_ui(&mut self, ui: &mut Ui) {
        let names: Vec<String> = self.clip_names().iter().map(|n| n.to_string()).collect();
        if names.is_empty() {
            ui.label("This file has no animations.");
            self.morphs_ui(ui);
            return;
        }
        ui.horizontal_wrapped(|ui| {
            for (i, name) in names.iter().enumerate() {
                if ui.selectable_label(self.clip == i, name).clicked() && self.clip != i {
                    self.set_clip(i);
                }
            }
        });
        ui.horizontal_wrapped(|ui| {
            crate::ui::play_button_ui(ui, &mut self.playing);
            ui.checkbox(&mut self.looping, "loop");
        });
        let (start, end) = self.time_range();
        // A copy: the slider rounds what it shows, and that must not stop the clock.
        // Only the user's hand on it scrubs (and pauses).
        let mut time = self.time;
        let scrub = ui.add(
            egui::Slider::new(&mut time, start..=end)
                .text("time (s)")
                .max_decimals(2),
        );
        if scrub.changed() && (scrub.dragged() || scrub.clicked() || scrub.has_focus()) {
            self.time = time;
            self.playing = false;
        }
        ui.add(egui::Slider::new(&mut self.speed, -MAX_SPEED..=MAX_SPEED).text("speed"));
        if let Some(clip) = self.model.clips.get(self.clip) {
            let weights = clip.weights_channels().len();
            let shapes = if weights > 0 {
                format!(
                    " and {}",
                    counted(weights, "blend-shape channel", "blend-shape channels")
                )
            } else {
                String::new()
            };
            mono_ui(
                ui,
                format!(
                    "{}: {}{shapes}, keys from {:.2} s to {:.2} s",
                    clip.name(),
                    counted(clip.channels().len(), "channel", "channels"),
                    clip.start(),
                    clip.end()
                ),
            );
        }
        self.morphs_ui(ui);
    }

    fn joint_ui(&mut self, ui: &mut Ui) {
        ui.horizontal_wrapped(|ui| {
            ui.checkbox(&mut self.heat, "heat map of its weights");
            ui.checkbox(&mut self.forget_inverse_bind, "forget the inverse bind");
        });
        if self.heat {
            weight_legend_ui(ui);
        }
        let Some(j) = self.joint.filter(|j| *j < self.model.joints.len()) else {
            ui.label("Pick a joint in the tree or click one in the viewport.");
            return;
        };
        let frame = self.frame();
        let model = self.model.clone();
        ui.label(RichText::new(format!("joint `{}`", model.joints[j].name)).strong());
        if let Some(local) = frame.pose.get(j).copied() {
            self.local_ui(ui, j, local);
        }
        // Up the chain one step: the parent's world matrix, which the local transform
        // is read in.
        let parent = model.skeleton.parent(j).filter(|p| *p < model.joints.len());
        if let Some((p, world)) = parent.and_then(|p| Some((p, frame.world.get(p)?))) {
            ui.label(format!(
                "world_from_joint of its parent `{}`:",
                model.joints[p].name
            ));
            matrix_view_significant_ui(ui, "model parent world", world);
        }
        if let Some(world) = frame.world.get(j) {
            ui.label(match parent {
                Some(p) => format!(
                    "world_from_joint = world_from_joint of `{}` · local:",
                    model.joints[p].name
                ),
                None => "world_from_joint = local (the root):".to_owned(),
            });
            matrix_view_significant_ui(ui, "model world", world);
        }
        if parent.is_some() {
            chain_ui(ui, &model, &frame, j);
        }
        let in_skins: Vec<(usize, usize)> = model
            .skins
            .iter()
            .enumerate()
            .filter_map(|(s, skin)| skin.joints.iter().position(|&k| k == j).map(|i| (s, i)))
            .collect();
        let Some(&(s, i)) = in_skins.first() else {
            // A hard part rides on its node whole: the heat map paints it at weight 1.
            let hard: Vec<&str> = model
                .rigid_meshes
                .iter()
                .filter(|m| m.joint == j)
                .map(|m| m.part.name.as_str())
                .collect();
            ui.label(if hard.is_empty() {
                "No skin lists this node: it has no inverse bind and weighs no skinned vertex."
                    .to_owned()
            } else {
                format!(
                    "No skin lists this node: it has no inverse bind. It carries the hard \
                     {} {}, which follow it whole (weight 1, lit by the heat map); its \
                     palette is world_from_joint alone.",
                    if hard.len() == 1 { "mesh" } else { "meshes" },
                    hard.join(", ")
                )
            });
            return;
        };
        let world = frame.world.get(j).copied().unwrap_or(Mat4::IDENTITY);
        self.inverse_bind_ui(ui, j, (s, i), in_skins.len(), world);
        ui.label(if self.forget_inverse_bind {
            "palette matrix (the inverse bind left out):"
        } else {
            "palette matrix = world_from_joint · joint_from_bind:"
        });
        // Worked out again: an edit above changes it this frame.
        if let Some(m) = self.palette(s, &frame.world).get(i) {
            matrix_view_significant_ui(ui, "model palette", m);
        }
        if let Some(reason) = &self.edit_refused {
            error_ui(ui, reason.clone());
        }
    }

    /// The picked joint's local transform, editable: an edit holds the joint there,
    /// whatever the clips say, until it is given back.
    fn local_ui(&mut self, ui: &mut Ui, j: usize, local: Transform) {
        let held = self.held.contains_key(&j);
        ui.label(if held {
            "local transform, held by hand (the clips no longer move this joint):"
        } else {
            "local transform from the clips (drag a number to hold the joint by hand):"
        });
        let mut trs = Trs {
            translation: local.translation,
            scale: local.scale,
            ..Trs::default()
        };
        trs.set_quat(local.rotation);
        match trs_edit_ui(ui, &mut trs) {
            TrsEdit::Unchanged => {}
            TrsEdit::Changed => {
                self.held.insert(
                    j,
                    Transform {
                        translation: trs.translation,
                        rotation: trs.quat(),
                        scale: trs.scale,
                    },
                );
                self.edit_refused = None;
            }
            TrsEdit::Refused(problem) => {
                self.edit_refused = Some(format!(
                    "Edit refused: {problem}. The joint keeps its last valid transform."
                ));
            }
        }
        mono_ui(
            ui,
            format!(
                "as stored: R = ({:.3}, {:.3}, {:.3}, {:.3})  (x, y, z, w)",
                local.rotation.x, local.rotation.y, local.rotation.z, local.rotation.w
            ),
        );
        if held && ui.button("Give the joint back to the clips").clicked() {
            self.held.remove(&j);
        }
    }

    /// The picked joint's inverse bind, editable, with the two ways back: recompute it
    /// from the pose on screen, or take the file's again.
    fn inverse_bind_ui(
        &mut self,
        ui: &mut Ui,
        j: usize,
        (s, i): (usize, usize),
        skins: usize,
        world: Mat4,
    ) {
        let edited = self.inverse_binds.contains_key(&j);
        let place = if skins > 1 {
            format!("skin {s} joint {i}; {skins} skins list this joint and an edit changes all")
        } else {
            format!("skin {s}, joint {i}")
        };
        let source = if edited {
            "edited by hand"
        } else {
            "from the file"
        };
        ui.label(format!("joint_from_bind ({place}), {source}:"));
        let mut bind = self.joint_from_bind(s, i, j);
        let invertible = |m: &Mat4| {
            skin::matrix::checked_inverse(m)
                .map(|_| ())
                .map_err(|e| e.to_string())
        };
        // Four significant digits: a skin scaled to a hundredth has numbers such as
        // 0.03124, which two decimals print as 0.03.
        let decimals = matrix_decimals(&bind);
        match matrix_edit_decimals_ui(ui, "model inverse bind", &mut bind, decimals, invertible) {
            MatrixEdit::Unchanged => {}
            MatrixEdit::Changed => {
                self.inverse_binds.insert(j, bind);
                self.edit_refused = None;
            }
            MatrixEdit::Refused(reason) => {
                self.edit_refused = Some(format!(
                    "Edit refused: {reason}. The inverse bind keeps its last valid value."
                ));
            }
        }
        ui.horizontal_wrapped(|ui| {
            if ui
                .button("Recompute from the current pose")
                .on_hover_text(
                    "joint_from_bind = inverse(world_from_joint) as the joint stands now",
                )
                .clicked()
            {
                match skin::matrix::checked_inverse(&world) {
                    Ok(inverse) => {
                        self.inverse_binds.insert(j, inverse);
                        self.edit_refused = None;
                    }
                    Err(e) => {
                        self.edit_refused =
                            Some(format!("The current pose has no inverse here: {e}."))
                    }
                }
            }
            if edited && ui.button("Back to the file's").clicked() {
                self.inverse_binds.remove(&j);
            }
        });
        self.bind_before_ui(ui, (s, i));
    }

    fn vertex_ui(&mut self, ui: &mut Ui) {
        let Some((m, v)) = self.vertex.and_then(|v| self.vertex_in_mesh(v)) else {
            match self
                .rigid_clicked
                .and_then(|r| self.model.rigid_meshes.get(r))
            {
                Some(hard) => {
                    let node = self
                        .model
                        .joints
                        .get(hard.joint)
                        .map_or("?", |j| j.name.as_str());
                    ui.label(format!(
                        "That is {}, a hard mesh on node `{node}`: it has no skin, so every \
                         vertex weighs 1 on `{node}` and its palette is that node's \
                         world_from_joint alone. Only a skinned mesh's vertices are picked \
                         here (on the robot: a hand or a forearm).",
                        hard.part.name
                    ));
                }
                None => {
                    ui.label("Click the model in the viewport to pick a vertex.");
                }
            }
            return;
        };
        let frame = self.frame();
        let model = self.model.clone();
        let mesh = &model.skinned_meshes[m];
        let Some(skin) = model.skins.get(mesh.skin) else {
            return;
        };
        // The frame the GPU last drew and read back, once there is one: its sum, its
        // CPU position and its shader's position side by side.
        // A read-back of another model's vertex of that number (one just opened) has
        // another palette: it is not used.
        let current = frame.palettes.get(mesh.skin).cloned().unwrap_or_default();
        let readback = self.readback().filter(|r| r.palette.len() == current.len());
        let (palette, weights) = match &readback {
            Some(r) => (r.palette.clone(), r.morph_weights.clone()),
            None => (
                current,
                frame.morph_weights.get(m).cloned().unwrap_or_default(),
            ),
        };
        ui.label(format!(
            "vertex {} (vertex {v} of mesh `{}`, skin {})",
            self.vertex.unwrap_or(0),
            mesh.part.name,
            mesh.skin
        ));
        let name = |i: usize| {
            skin.joints
                .get(i)
                .and_then(|j| model.joints.get(*j))
                .map_or_else(|| format!("joint {i}"), |j| j.name.clone())
        };
        self.vertex_before_ui(ui, (m, v), &name);
        let text = ui.visuals().strong_text_color();
        let style = InspectStyle {
            matrix_name: if self.forget_inverse_bind {
                "world"
            } else {
                "palette"
            },
            bone_name: &name,
            // The model's joints have no colours of their own: body text, readable on
            // the dark and the light theme.
            bone_color: &|_| text,
            dims: 3,
            decimals: 2,
        };
        // The vertex as the skin receives it: its blend shapes added in first.
        let morphed = skin::morph::morphed(&mesh.part.vertices, &mesh.part.targets, &weights);
        let Some(b) = VertexBreakdown::new(&palette, &morphed, v) else {
            error_ui(ui, "this vertex is not in the mesh");
            return;
        };
        // Each number to about four significant digits at the model's size, whatever
        // the model's size; the same count all through a clip, so the columns hold
        // still while it plays.
        let style = InspectStyle {
            decimals: decimals_for(self.drawn_size),
            ..style
        };
        // v to as many decimals as the palette needs to give the rows below their
        // last decimal by hand: a palette that scales by 100 (the robot's armature)
        // multiplies v's rounding by up to 300, so v takes three decimals more.
        let gain = (b.parts.iter())
            .filter_map(|(slot, _, _)| palette.get(*slot))
            .flat_map(|m| (0..3).map(move |r| (0..3).map(|c| m.col(c)[r].abs()).sum::<f32>()))
            .fold(1.0_f32, f32::max);
        let v_decimals = decimals_for(size3(b.bind))
            .max(style.decimals + gain.log10().ceil() as usize)
            .min(7);
        let bind = fixed_point(b.bind, v_decimals);
        let mut file = match (&morphed, mesh.part.vertices.positions.get(v)) {
            (std::borrow::Cow::Owned(_), Some(&v0)) => {
                let shapes: Vec<String> = (mesh.part.targets.iter().zip(&weights))
                    .filter(|(_, w)| **w != 0.0)
                    .map(|(t, w)| format!("{} {}", t.name, fixed(*w, 2)))
                    .collect();
                format!(
                    "the file's POSITION  v0 = {}\nblend shapes  Σ m[i]·Δ[i] = {}  ({})\nso  v = v0 + Σ m[i]·Δ[i] = {bind}",
                    fixed_point(v0, v_decimals),
                    fixed_point(b.bind - v0, v_decimals),
                    shapes.join(", ")
                )
            }
            _ => format!("the file's POSITION  v = {bind}"),
        };
        if let Some(stored) = mesh.stored.get(v) {
            // Four decimals: at three, weights summing to 1 can print a sum of 1.001.
            let weights = stored.weights.map(|w| fixed(w, 4));
            // Each joint number indexes the skin's joint list, which names a node.
            let nodes: Vec<&str> = stored
                .joints
                .iter()
                .map(|&joint| {
                    skin.joints
                        .get(joint as usize)
                        .and_then(|j| model.joints.get(*j))
                        .map_or("?", |n| n.name.as_str())
                })
                .collect();
            file += &format!(
                "\nthe file's JOINTS_0    = {:?}\nthe file's WEIGHTS_0   = [{}]\nthose skin joints name = {}",
                stored.joints,
                weights.join(", "),
                nodes.join(", ")
            );
            // Their sum; weights that do not sum to 1 are divided by it before use: say
            // so, with the weights the palette blends.
            let sum: f32 = stored.weights.iter().sum();
            file += &format!("\ntheir sum              = {}", fixed(sum, 4));
            if fixed(sum, 4) != "1.0000" {
                let used = mesh.part.vertices.influences.get(v).map(|i| i.weights);
                let used = used.map_or(Vec::new(), |w| w.map(|w| fixed(w, 4)).to_vec());
                file += &format!("\nused, each / that sum  = [{}]", used.join(", "));
            }
        }
        mono_ui(ui, file);
        if let Some(note) = self.scale_note(skin, &palette, &b) {
            ui.label(note);
        }
        breakdown_ui(ui, &b, &style);
        // The sum above is linear blending's; the other ways put the vertex elsewhere.
        let method = self.mesh_method(m, &palette).0;
        let one = morphed.range(v..v + 1);
        let centre = self.mesh_centres(m).get(v..v + 1).unwrap_or(&[]);
        let drawn = match method {
            Method::Lbs => b.sum,
            _ => method
                .skin(&palette, &one, centre)
                .first()
                .map_or(b.sum, |s| s.position),
        };
        if method != Method::Lbs {
            mono_ui(
                ui,
                format!(
                    "blended by {} instead: v' = {}, {} from the sum above",
                    method.label(),
                    fixed_point(drawn, style.decimals),
                    fixed(drawn.distance(b.sum), style.decimals)
                ),
            );
        }
        // Then on to the pixel, the walk's last step, before the side checks: on a
        // projector's slide it is above the fold.
        self.pixel_ui(ui, drawn, style.decimals);
        // The matrices the rows above multiply by, to check them by hand.
        egui::CollapsingHeader::new("each joint's palette matrix")
            .id_salt("model vertex palettes")
            .show(ui, |ui| {
                for &(slot, _, _) in &b.parts {
                    if let Some(m) = palette.get(slot) {
                        ui.label(format!("{} {}:", style.matrix_name, name(slot)));
                        let id = format!("model vertex palette {slot}");
                        matrix_view_significant_ui(ui, &id, m);
                    }
                }
            });
        readback_ui(ui, readback, style.decimals);
    }

    /// The last stages, from the skinned position to the pixel where the viewport's
    /// ring is drawn: the camera's view `V`, its projection `P`, the divide by `clip.w`
    /// and the viewport.
    fn pixel_ui(&self, ui: &mut Ui, skinned: glam::Vec3, decimals: usize) {
        let Some((view, projection, size)) = self.seen else {
            return;
        };
        ui.label(
            "To the pixel where the ring is drawn, from v', the skinned position above: \
             V is the camera's view, P its projection.",
        );
        let eye = view.transform_point3(skinned);
        let text = match crate::ui::project(projection * view, size, skinned) {
            Some((clip, ndc, [x, y])) => format!(
                "V · v'       = {}\n\
                 P · V · v'   = {}, clip.w = {}\n\
                 xyz / clip.w = {}, pixel ({x:.0}, {y:.0})",
                fixed_point(eye, decimals),
                fixed_point(clip.truncate(), decimals),
                fixed(clip.w, decimals),
                fixed_point(ndc, 3),
            ),
            None => "behind the camera: no pixel".to_owned(),
        };
        mono_ui(ui, text);
        // The two matrices the rows multiply by, and the viewport's size, so that each
        // row can be rebuilt by hand (not on a slide, which has no row to spare).
        if crate::ui::focused_cell(ui.ctx()) {
            return;
        }
        egui::CollapsingHeader::new("the camera's V and P, and the pixel's rule")
            .id_salt("model vertex camera")
            .show(ui, |ui| {
                ui.label("V, the camera's view (world to eye):");
                matrix_view_significant_ui(ui, "model view", &view);
                ui.label("P, its projection (eye to clip):");
                matrix_view_significant_ui(ui, "model projection", &projection);
                mono_ui(
                    ui,
                    format!(
                        "pixel = ((x + 1) / 2 · {w:.0}, (1 − y) / 2 · {h:.0}),\n\
                         in a view {w:.0} × {h:.0} points, from its top left corner",
                        w = size[0],
                        h = size[1]
                    ),
                );
            });
    }

    /// Why a vertex's numbers grow between the file and the screen, when its first
    /// palette matrix scales: by how much, and which nodes above the joint scale.
    fn scale_note(
        &self,
        skin: &gltf::Skin,
        palette: &[Mat4],
        b: &VertexBreakdown,
    ) -> Option<String> {
        let &(slot, _, _) = b.parts.first()?;
        let scale = column_lengths(palette.get(slot)?);
        if scale.iter().all(|s| (s - 1.0).abs() < 0.01) {
            return None;
        }
        let model = &self.model;
        let mut scaling = Vec::new();
        let mut node = skin.joints.get(slot).copied();
        while let Some(j) = node {
            let s = model.rest_pose.get(j).map_or(glam::Vec3::ONE, |t| t.scale);
            if (s - glam::Vec3::ONE).abs().max_element() > 0.01 {
                let name = model.joints.get(j).map_or("?", |n| n.name.as_str());
                scaling.push(format!(
                    "`{name}` scales by {}",
                    fixed_point(s, decimals_for(size3(s)))
                ));
            }
            node = model.skeleton.parent(j);
        }
        let lengths = scale.map(|s| fixed(s, decimals_for(s)));
        let mut note = format!("The palette scales v by {}", lengths.join(", "));
        if !scaling.is_empty() {
            note += &format!(
                ": node {}, and the inverse binds do not undo it",
                scaling.join(", node ")
            );
        }
        Some(note + ".")
    }

    fn blend_ui(&mut self, ui: &mut Ui) {
        let names: Vec<String> = self.clip_names().iter().map(|n| n.to_string()).collect();
        ui.horizontal_wrapped(|ui| {
            ui.label("clip B:");
            if ui.selectable_label(self.clip_b.is_none(), "none").clicked() {
                self.clip_b = None;
            }
            for (i, name) in names.iter().enumerate() {
                if ui.selectable_label(self.clip_b == Some(i), name).clicked() {
                    self.clip_b = Some(i);
                }
            }
        });
        ui.add(egui::Slider::new(&mut self.blend, 0.0..=1.0).text("blend"));
        ui.checkbox(
            &mut self.sign_check,
            "sign check: flip q_b when q_a · q_b < 0",
        );
        let mask = self
            .mask
            .and_then(|j| self.model.joints.get(j))
            .map_or("every joint".to_owned(), |j| {
                format!("the subtree of `{}`", j.name)
            });
        ui.horizontal_wrapped(|ui| {
            ui.label(format!("Clip B drives {mask}."));
            if let Some(j) = self.joint
                && ui.button("only below the picked joint").clicked()
            {
                self.mask = Some(j);
            }
            if ui.button("every joint").clicked() {
                self.mask = None;
            }
        });
        if let (Some(b), Some(tb)) = (self.clip_b, self.time_b()) {
            mono_ui(
                ui,
                format!(
                    "clip A at {:.2} s, clip B `{}` at {tb:.2} s: the same fraction of each clip",
                    self.time,
                    names.get(b).map_or("", String::as_str)
                ),
            );
        }
        self.blend_rotation_ui(ui);
    }

    /// The picked joint's local rotation from clip A, from clip B and blended; with no
    /// joint picked, the joint the blend is limited to, if any.
    fn blend_rotation_ui(&self, ui: &mut Ui) {
        let model = &self.model;
        let (Some(j), Some(a), Some(b), Some(tb)) = (
            self.joint.or(self.mask),
            model.clips.get(self.clip),
            self.clip_b.and_then(|b| model.clips.get(b)),
            self.time_b(),
        ) else {
            ui.label("Pick a joint and a clip B to see its rotation from each clip and blended.");
            return;
        };
        let (Some(qa), Some(qb), Some(blended)) = (
            model.sample(a, self.time).get(j).map(|t| t.rotation),
            model.sample(b, tb).get(j).map(|t| t.rotation),
            self.clip_pose().get(j).map(|t| t.rotation),
        ) else {
            return;
        };
        let q = |q: glam::Quat| format!("({:6.3}, {:6.3}, {:6.3}, {:6.3})", q.x, q.y, q.z, q.w);
        let dot = qa.dot(qb);
        let sign = match (dot < 0.0, self.sign_check) {
            (false, _) => "q_a · q_b >= 0: no flip needed".to_owned(),
            (true, true) => format!("q_a · q_b = {dot:.3} < 0: q_b is flipped first"),
            (true, false) => {
                format!("q_a · q_b = {dot:.3} < 0, and the check is off: the long way round")
            }
        };
        let name = model.joints.get(j).map_or("", |joint| joint.name.as_str());
        let which = if self.joint.is_some() {
            "joint"
        } else {
            "the joint the blend is limited to,"
        };
        mono_ui(
            ui,
            format!(
                "{which} `{name}`, local rotation (x, y, z, w)\nfrom clip A  {}\nfrom clip B  {}\nblended      {}\n{sign}",
                q(qa),
                q(qb),
                q(blended)
            ),
        );
    }
}

/// The largest of a vector's sizes: what [`decimals_for`] reads.
fn size3(v: glam::Vec3) -> f32 {
    v.abs().max_element()
}

/// The CPU's skinned position beside what the vertex shader wrote for it, with
/// `decimals` decimals.
fn readback_ui(ui: &mut Ui, readback: Option<Readback>, decimals: usize) {
    let Some(readback) = readback else {
        ui.label("Reading the vertex back from the GPU…");
        return;
    };
    let cpu = format!(
        "{:<22} = {}",
        "skinned on the CPU",
        fixed_point(readback.cpu, decimals)
    );
    // Two lines, the difference beside the shader's: the cell fits a projector.
    match readback.gpu {
        Ok(gpu) => mono_ui(
            ui,
            format!(
                "{cpu}\n{:<22} = {}{}",
                "read back from the GPU",
                fixed_point(gpu, decimals),
                match (gpu - readback.cpu).abs().max_element() {
                    0.0 => ", the same".to_owned(),
                    apart => format!(", {apart:.1e} apart"),
                }
            ),
        ),
        Err(e) => {
            mono_ui(ui, cpu);
            error_ui(ui, format!("the GPU value could not be read back: {e}"));
        }
    }
}

/// The picked joint's whole chain, folded: `world_from_joint = local(root) · … ·
/// local(joint)`, written out, and each local matrix from the root down, printed so
/// that multiplying them by hand gives the joint's world matrix above.
fn chain_ui(ui: &mut Ui, model: &gltf::Model, frame: &super::data::Frame, j: usize) {
    let chain = model.skeleton.path_from_root(j);
    egui::CollapsingHeader::new(format!(
        "the whole chain, root to this joint ({} local matrices)",
        chain.len()
    ))
    .id_salt("model joint chain")
    .show(ui, |ui| {
        let mut parts: Vec<egui::WidgetText> =
            vec![RichText::new("world_from_joint = ").monospace().into()];
        for (k, &c) in chain.iter().enumerate() {
            let dot = if k > 0 { " · " } else { "" };
            let name = &model.joints[c].name;
            parts.push(
                RichText::new(format!("{dot}local(`{name}`)"))
                    .monospace()
                    .into(),
            );
        }
        crate::ui::unbroken_ui(ui, &parts, true);
        for &c in &chain {
            let local = model.parent_from_joint(&frame.pose, c);
            ui.label(format!("local(`{}`):", model.joints[c].name));
            matrix_view_significant_ui(ui, &format!("model chain {c}"), &local);
        }
    });
}
