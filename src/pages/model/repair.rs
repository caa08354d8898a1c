//! The repair cell: each problem of the model shown that a fix mends ([`gltf::repair`]),
//! made by a button and undone by another; the vertex and joint cells show the model
//! before the last repair beside it; and the model saved as one GLB (a file on the
//! desktop, a download in the browser). A file the loader refuses for a reason a fix
//! mends is offered repaired, from the file cell.

use super::{Asset, ModelPage, Opened};
use crate::ui::error_ui;
#[cfg(not(target_arch = "wasm32"))]
use crate::ui::file_dialog::{Choice, FileDialog};
use egui::{RichText, Ui};
use gltf::{Change, Fix, Model};
use std::sync::Arc;

/// Nothing lies beside a model kept as one GLB: it holds everything it names.
pub(super) const NOTHING: &gltf::Beside =
    &|_, _| Err("the model is one GLB: nothing is read beside it".to_owned());

/// The page's repairs: what the fixes would change in the model shown, what was shown
/// before each repair (to undo), and the last save.
#[derive(Default)]
pub struct Repairs {
    /// What every fix would change in the model shown, found once for that model.
    found: Option<(Arc<Model>, Found)>,
    /// Each repair, the last last: what was shown before it, and what it changed.
    undo: Vec<Undo>,
    /// A file the loader refused that the fixes of "repair all" open: its name, the
    /// reason it was refused, and the repair.
    pub refused: Option<(String, gltf::Repaired)>,
    /// Why the last repair or save failed, or where the last save went.
    pub(super) said: Option<Result<String, String>>,
    /// The save dialog, while it is open.
    #[cfg(not(target_arch = "wasm32"))]
    dialog: Option<FileDialog>,
    /// A file the save would write over, waiting for "replace it".
    #[cfg(not(target_arch = "wasm32"))]
    replace: Option<std::path::PathBuf>,
}

/// What every fix would change in a model, or why it cannot be read for repairs.
type Found = Result<Vec<Change>, String>;

/// One repair or brush stroke: what was shown before it, what it changed in words,
/// and whether it changed the model shown (a refused file repaired to open has no
/// model before it).
struct Undo {
    shown: Shown,
    what: String,
    same_model: bool,
}

/// What the page showed: a bundled model, or the file opened.
#[derive(Clone)]
struct Shown {
    asset: Asset,
    opened: Option<Opened>,
}

impl Shown {
    /// The model it showed.
    fn model(&self) -> Option<Arc<Model>> {
        match (self.asset, &self.opened) {
            (Asset::File, Some(opened)) => Some(opened.model.clone()),
            (Asset::File, None) => None,
            (asset, _) => super::data::loaded(asset).ok(),
        }
    }
}

/// The most lines the cell shows of one fix's changes.
const SHOWN: usize = 2;

/// The fixes the cell offers, each with its own button; "repair all" makes
/// [`Fix::ALL`].
const OFFERED: [Fix; 8] = Fix::EVERY;

impl ModelPage {
    /// The model shown as one GLB, what a repair reads and a save writes.
    pub(super) fn source(&self) -> Result<Arc<Vec<u8>>, String> {
        match (self.asset, &self.opened) {
            (Asset::File, Some(opened)) => opened.source.clone(),
            (Asset::File, None) => Err(super::NO_FILE.to_owned()),
            (asset, _) => crate::models::bytes(crate::link::Named::slug(asset))
                .map(|bytes| Arc::new(bytes.to_vec()))
                .ok_or_else(|| super::data::ON_ITS_WAY.to_owned()),
        }
    }

    /// The model shown before the last repair, if there was one.
    pub(super) fn before_repair(&self) -> Option<Arc<Model>> {
        (self.repairs.undo.last())
            .filter(|undo| undo.same_model)
            .and_then(|undo| undo.shown.model())
    }

    /// What every fix would change in the model shown.
    fn found(&mut self) -> Result<Vec<Change>, String> {
        // While a stroke lasts the model changes at every dab; the file, not yet.
        let fresh = self.painting_now()
            || matches!(&self.repairs.found, Some((m, _)) if Arc::ptr_eq(m, &self.model));
        if !fresh {
            let found = self.source().and_then(|source| {
                (gltf::repair(&source, NOTHING, &OFFERED))
                    .map(|r| r.changes)
                    .map_err(|e| e.to_string())
            });
            self.repairs.found = Some((self.model.clone(), found));
        }
        match &self.repairs.found {
            Some((_, found)) => found.clone(),
            None => Ok(Vec::new()),
        }
    }

    /// Repairs the model shown by `fixes`, and shows the repaired model in its place
    /// (the picks and the time kept); a repair that fails says why and changes nothing.
    pub fn repair(&mut self, fixes: &[Fix]) {
        let repaired = self.source().and_then(|source| {
            gltf::repair(&source, NOTHING, fixes).map_err(|e| format!("not repaired: {e}"))
        });
        match repaired {
            Ok(repaired) => {
                let name = self.model_name().to_owned();
                let what = format!("The last repair made {}", made(&repaired.changes));
                self.show_changed(&name, REPAIRED, (repaired.glb, repaired.model), what);
            }
            Err(e) => self.repairs.said = Some(Err(e)),
        }
    }

    /// Opens the file the loader refused, repaired ([`Repairs::refused`]).
    pub fn open_refused(&mut self) {
        if let Some((name, repaired)) = self.repairs.refused.take() {
            self.open_error = None;
            let what = format!(
                "The file was repaired to open, with {}.",
                made(&repaired.changes)
            );
            self.show_changed(&name, REPAIRED, (repaired.glb, repaired.model), what);
            if let Some(undo) = self.repairs.undo.last_mut() {
                undo.same_model = false;
            }
        }
    }

    /// Shows `(glb, model)`, the model called `name` changed (by a repair or a brush
    /// stroke, named `how`, as "repaired"), in place of the model shown, with `what`
    /// it changed for Undo.
    pub(super) fn show_changed(
        &mut self,
        name: &str,
        how: &str,
        (glb, model): (Vec<u8>, Model),
        what: String,
    ) {
        let shown = Shown {
            asset: self.asset,
            opened: self.opened.clone(),
        };
        self.repairs.undo.push(Undo {
            shown,
            what,
            same_model: true,
        });
        self.repairs.said = None;
        let opened = Opened {
            name: format!("{} ({how})", unchanged_name(name)),
            model: Arc::new(model),
            source: Ok(Arc::new(glb)),
        };
        self.show_keeping_picks(Asset::File, Some(opened));
    }

    /// Shows what was shown before the last repair.
    pub fn undo_repair(&mut self) {
        if let Some(undo) = self.repairs.undo.pop() {
            self.repairs.said = None;
            self.show_keeping_picks(undo.shown.asset, undo.shown.opened);
        }
    }

    /// Shows `asset` (with `opened` as the file open), the picked joint and vertex, the
    /// clip and its time kept where the model has them.
    pub(super) fn show_keeping_picks(&mut self, asset: Asset, opened: Option<Opened>) {
        let (joint, vertex, clip, time) = (self.joint, self.vertex, self.clip, self.time);
        let camera = self.camera;
        // The pose held by hand and the blend: the nodes are the same after a repair.
        let mut held = std::mem::take(&mut self.held);
        let mut inverse_binds = std::mem::take(&mut self.inverse_binds);
        let held_morphs = std::mem::take(&mut self.held_morphs);
        let (clip_b, mask) = (self.clip_b, self.mask);
        let skeleton: Vec<String> = self.model.joints.iter().map(|j| j.name.clone()).collect();
        self.opened = opened;
        self.set_asset(asset);
        let same = self
            .model
            .joints
            .iter()
            .map(|j| &j.name)
            .eq(skeleton.iter());
        // Another skeleton (a refused file's repair undone) keeps none of it.
        let joints = if same { self.model.joints.len() } else { 0 };
        held.retain(|&j, _| j < joints);
        inverse_binds.retain(|&j, _| j < joints);
        self.held = held;
        self.inverse_binds = inverse_binds;
        if same {
            self.held_morphs = held_morphs;
        }
        let clips = self.model.clips.len();
        self.clip_b = clip_b.filter(|&b| same && b < clips);
        self.mask = mask.filter(|&j| j < joints);
        // The same mesh mended: the view and the picks stay where they were.
        self.camera = camera;
        self.reframe = false;
        if clip < self.model.clips.len() {
            self.clip = clip;
            self.time = time;
        }
        self.joint = joint.filter(|&j| j < self.model.joints.len());
        let vertices: usize = (self.model.skinned_meshes.iter())
            .map(|m| m.part.vertices.positions.len())
            .sum();
        self.vertex = vertex.filter(|&v| v < vertices);
    }

    /// The repair cell.
    pub(super) fn repair_ui(&mut self, ui: &mut Ui) {
        // What there is to do first, then Save and Undo, then each fix: the list can
        // run long, and the buttons stay in one place above it.
        let found = self.found();
        match &found {
            Err(e) => error_ui(ui, format!("The model cannot be read for repairs: {e}")),
            Ok(changes) if changes.iter().any(|c| Fix::ALL.contains(&c.fix)) => {
                ui.label(format!(
                    "What each fix would change in {}. A button repairs the model shown; \
                     Undo brings it back.",
                    self.model_name()
                ));
            }
            Ok(_) => {
                ui.label(format!(
                    "Nothing to repair: no fix finds a problem in {}.",
                    self.model_name()
                ));
            }
        }
        self.save_ui(ui);
        if let Some(Err(e)) = &self.repairs.said {
            error_ui(ui, e.clone());
        }
        if let Some(Ok(done)) = &self.repairs.said {
            ui.label(done.clone());
        }
        self.undo_ui(ui);
        if let Ok(changes) = &found {
            self.fixes_ui(ui, changes);
        }
    }

    /// Each fix that would change the model, what it would change, and its button.
    fn fixes_ui(&mut self, ui: &mut Ui, changes: &[Change]) {
        let of = |fix: Fix| changes.iter().filter(move |c| c.fix == fix);
        let needed: Vec<Fix> = (Fix::ALL.into_iter())
            .filter(|&f| of(f).next().is_some())
            .collect();
        let mut asked = None;
        for fix in OFFERED {
            let lines: Vec<&Change> = of(fix).collect();
            if lines.is_empty() {
                continue;
            }
            ui.separator();
            ui.horizontal_wrapped(|ui| {
                ui.label(RichText::new(fix_title(fix)).strong());
                if ui
                    .button(fix_button(fix))
                    .on_hover_text(fix.what())
                    .clicked()
                {
                    asked = Some(vec![fix]);
                }
            });
            // The two that change a file that is not wrong say so, in place of what
            // they do (which their button's hover says).
            let note = match fix {
                Fix::Unused => {
                    "Not a problem: a skin may list joints it does not need. Left out, the \
                     palette is smaller."
                        .to_owned()
                }
                Fix::Rebind => {
                    "Not a problem: a file may bind its mesh in a pose other than its rest. \
                     Rebound, each vertex sits at the rest pose where the file stores it."
                        .to_owned()
                }
                _ => capitalised(fix.what()),
            };
            ui.label(RichText::new(note).small());
            // A long list (a skin a line on the robot) in its first lines and a count.
            for change in lines.iter().take(SHOWN) {
                ui.label(format!("• {}", change.line));
            }
            if lines.len() > SHOWN {
                ui.label(format!("• and {} more like these", lines.len() - SHOWN));
            }
        }
        if needed.len() > 1 {
            ui.separator();
            if ui
                .button("Repair all")
                .on_hover_text("every fix above but leaving joints out and rebinding")
                .clicked()
            {
                asked = Some(Fix::ALL.to_vec());
            }
        }
        if let Some(fixes) = asked {
            self.repair(&fixes);
        }
    }

    /// What the last repair changed, and the button that undoes it.
    pub(super) fn undo_ui(&mut self, ui: &mut Ui) {
        let Some(Undo {
            shown,
            what,
            same_model,
        }) = self.repairs.undo.last()
        else {
            return;
        };
        ui.separator();
        let before = super::shown_name(shown.asset, shown.opened.as_ref()).to_owned();
        // A refused file repaired to open has no model before it to show beside.
        ui.label(if *same_model {
            format!(
                "{what}; the vertex and joint cells show the model before it beside the \
                 model now."
            )
        } else {
            what.clone()
        });
        if *same_model {
            ui.checkbox(
                &mut self.repair_heat,
                "heat map: how much of each vertex's weight the repair moved",
            );
            if self.repair_heat {
                crate::ui::legend::weight_legend_ui(ui);
            }
        }
        if ui.button(format!("Undo: back to {before}")).clicked() {
            self.undo_repair();
        }
    }

    /// The model's file name for a save: its name, without an extension, as `.glb`,
    /// with "-repaired" or "-painted" after a change.
    fn save_name(&self) -> String {
        let shown = self.model_name();
        let name = unchanged_name(shown);
        let stem = name
            .rsplit_once('.')
            .filter(|(_, e)| e.eq_ignore_ascii_case("glb") || e.eq_ignore_ascii_case("gltf"))
            .map_or(name, |(stem, _)| stem);
        match shown[name.len()..].trim_matches([' ', '(', ')']) {
            "" => format!("{stem}.glb"),
            how => format!("{stem}-{how}.glb"),
        }
    }

    /// The model shown as one GLB, or why it cannot be written.
    fn glb(&self) -> Result<Vec<u8>, String> {
        let source = self.source()?;
        gltf::to_glb(&source, NOTHING).map_err(|e| format!("not saved: {e}"))
    }

    /// Save as .glb: a file dialog on the desktop (asking before it writes over a file),
    /// a download in the browser.
    pub(super) fn save_ui(&mut self, ui: &mut Ui) {
        ui.separator();
        ui.horizontal_wrapped(|ui| {
            if ui.button("Save as .glb…").clicked() {
                self.start_save();
            }
            ui.label("one file that holds all the model needs");
        });
        #[cfg(not(target_arch = "wasm32"))]
        self.replace_ui(ui);
    }

    #[cfg(not(target_arch = "wasm32"))]
    fn start_save(&mut self) {
        self.repairs.replace = None;
        self.repairs.dialog = Some(FileDialog::saving(
            "Save the model as one GLB",
            &["glb"],
            &self.save_name(),
        ));
    }

    #[cfg(target_arch = "wasm32")]
    fn start_save(&mut self) {
        let name = self.save_name();
        self.repairs.said = Some(
            self.glb()
                .and_then(|glb| crate::web::download(&name, &glb))
                .map(|()| format!("{name} handed to the browser's downloads.")),
        );
    }

    /// The save dialog, while it is open: drawn once a frame by the viewport, whichever
    /// cell's Save opened it.
    #[cfg(not(target_arch = "wasm32"))]
    pub(super) fn save_dialog_ui(&mut self, ctx: &egui::Context) {
        if let Some(dialog) = &mut self.repairs.dialog
            && let Some(choice) = dialog.show(ctx)
        {
            self.repairs.dialog = None;
            if let Choice::File(mut path) = choice {
                if !crate::ui::file_dialog::has_extension(&path.to_string_lossy(), &["glb"]) {
                    path.as_mut_os_string().push(".glb");
                }
                if path.exists() {
                    self.repairs.replace = Some(path);
                } else {
                    self.save_to(&path);
                }
            }
        }
    }

    /// The question before a save writes over a file.
    #[cfg(not(target_arch = "wasm32"))]
    fn replace_ui(&mut self, ui: &mut Ui) {
        let Some(path) = self.repairs.replace.clone() else {
            return;
        };
        ui.horizontal_wrapped(|ui| {
            ui.label(format!("`{}` is there already.", path.display()));
            if ui.button("Replace it").clicked() {
                self.repairs.replace = None;
                self.save_to(&path);
            }
            if ui.button("Cancel").clicked() {
                self.repairs.replace = None;
            }
        });
    }

    /// Writes the model shown to `path` as one GLB, whole or not at all.
    #[cfg(not(target_arch = "wasm32"))]
    pub fn save_to(&mut self, path: &std::path::Path) {
        self.repairs.said = Some(
            self.glb()
                .and_then(|glb| crate::files::write_whole(path, &glb))
                .map(|()| format!("Saved {}.", path.display())),
        );
    }

    /// How much of each vertex's weight the last repair moved, for skinned mesh `m`:
    /// `Σ |w_now[j] - w_before[j]|` over its joints, at most 1 (0 everywhere when there
    /// is no repair to compare with).
    pub fn weight_moved(&self, m: usize) -> Vec<f32> {
        let now = self
            .model
            .skinned_meshes
            .get(m)
            .map_or(&[][..], |mesh| &mesh.stored);
        let before = self.before_repair();
        let old = (before.as_ref())
            .and_then(|b| b.skinned_meshes.get(m))
            .map(|mesh| mesh.stored.as_slice())
            .filter(|old| old.len() == now.len());
        let Some(old) = old else {
            return vec![0.0; now.len()];
        };
        old.iter()
            .zip(now)
            .map(|(old, new)| {
                let mut moved = [(0u32, 0.0f32); 8];
                let pairs = (old.joints.iter().zip(old.weights.map(|w| -w)))
                    .chain(new.joints.iter().zip(new.weights));
                for (slot, (&j, w)) in pairs.enumerate() {
                    match moved[..slot].iter_mut().find(|(k, _)| *k == j) {
                        Some((_, sum)) => *sum += w,
                        None => moved[slot] = (j, w),
                    }
                }
                let total: f32 = moved.iter().map(|(_, w)| w.abs()).sum();
                if total.is_finite() {
                    total.min(1.0)
                } else {
                    1.0
                }
            })
            .collect()
    }

    /// The picked vertex's joints and weights before the last repair beside now, where
    /// the repair changed them (vertex `v` of skinned mesh `m`; `name` names a joint of
    /// its skin).
    pub(super) fn vertex_before_ui(
        &self,
        ui: &mut Ui,
        (m, v): (usize, usize),
        name: &dyn Fn(usize) -> String,
    ) {
        let Some(before) = self.before_repair() else {
            return;
        };
        let stored = |model: &Model| {
            (model.skinned_meshes.get(m))
                .and_then(|mesh| mesh.stored.get(v))
                .copied()
        };
        let (Some(old), Some(new)) = (stored(&before), stored(&self.model)) else {
            return;
        };
        if old == new {
            ui.label("The last repair left this vertex's joints and weights as they were.");
            return;
        }
        let listed = |s: &gltf::StoredInfluences| {
            let used: Vec<String> = (s.joints.iter().zip(&s.weights))
                .filter(|(_, w)| **w != 0.0)
                .map(|(j, w)| format!("{} {w:.3}", name(*j as usize)))
                .collect();
            let sum: f32 = s.weights.iter().sum();
            format!("{} (sum {sum:.3})", used.join(", "))
        };
        ui.label(format!("Before the last repair: {}.", listed(&old)));
        ui.label(format!("Now: {}.", listed(&new)));
    }

    /// Joint `i` of skin `s`'s inverse bind before the last repair, where the repair
    /// changed it.
    pub(super) fn bind_before_ui(&self, ui: &mut Ui, (s, i): (usize, usize)) {
        let Some(before) = self.before_repair() else {
            return;
        };
        let bind = |model: &Model| {
            (model.skins.get(s))
                .and_then(|skin| skin.joint_from_bind.get(i))
                .copied()
        };
        if let (Some(old), Some(new)) = (bind(&before), bind(&self.model))
            && old != new
        {
            ui.label("Before the last repair it was:");
            crate::ui::matrix::matrix_view_significant_ui(ui, "model bind before", &old);
        }
    }

    /// The file cell's offer for a file the loader refused that the fixes open.
    pub(super) fn refused_ui(&mut self, ui: &mut Ui) {
        let Some((name, repaired)) = &self.repairs.refused else {
            return;
        };
        ui.label(format!(
            "skinlab can repair `{name}` so that it opens, with {} change{}:",
            repaired.changes.len(),
            if repaired.changes.len() == 1 { "" } else { "s" }
        ));
        for change in &repaired.changes {
            ui.label(format!("• {}", change.line));
        }
        if ui.button("Repair it and open it").clicked() {
            self.open_refused();
        }
    }
}

/// How a repaired model's name says so.
const REPAIRED: &str = "repaired";

/// How a model's name says a brush painted it.
pub(super) const PAINTED: &str = "painted";

/// `name` without the "(repaired)" or "(painted)" a change added.
fn unchanged_name(name: &str) -> &str {
    [REPAIRED, PAINTED]
        .iter()
        .find_map(|how| name.strip_suffix(&format!(" ({how})")))
        .unwrap_or(name)
}

/// "N change(s)".
fn made(changes: &[Change]) -> String {
    crate::ui::counted(changes.len(), "change", "changes")
}

/// The problem a fix mends, as the cell titles it.
fn fix_title(fix: Fix) -> &'static str {
    match fix {
        Fix::Renormalise => "Weights that do not sum to 1",
        Fix::KeepFour => "More than four influences",
        Fix::Influences => "Influences that cannot be used",
        Fix::ZeroWeights => "Joints listed with weight 0",
        Fix::InverseBinds => "Inverse binds that cannot be undone",
        Fix::Rebind => "Inverse binds off the rest pose",
        Fix::Rotations => "Rotations not of length 1",
        Fix::Unused => "Joints that weigh no vertex",
    }
}

/// The button that makes a fix.
fn fix_button(fix: Fix) -> &'static str {
    match fix {
        Fix::Renormalise => "Renormalise",
        Fix::KeepFour => "Keep four",
        Fix::Influences => "Mend them",
        Fix::ZeroWeights => "Clean them",
        Fix::InverseBinds => "Recompute them",
        Fix::Rebind => "Rebind at the rest pose",
        Fix::Rotations => "Normalise",
        Fix::Unused => "Leave them out",
    }
}

/// `text` with its first letter capitalised.
fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map_or_else(String::new, |first| {
        first.to_uppercase().chain(chars).collect()
    })
}
