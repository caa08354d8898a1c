//! A real glTF character: the file's skins and clips drawn by the skinning shaders,
//! its skeleton and weights inspected, and two clips blended.

mod cells;
mod check;
pub mod data;
mod keys;
mod link_values;
mod links;
mod morphs;
mod paint;
mod repair;
pub mod textures;
mod tree;
mod view;
pub use view::leaf_tail;

use crate::link::Param;
use crate::page::{Brought, Lesson, PageInfo};
use crate::pages::centres::Method;
use crate::ui::Camera;
use crate::ui::check::Check;
pub use data::{Asset, NO_FILE};
use glam::Mat4;
use gltf::Model;
pub use morphs::MORPH_WEIGHTS;
use scene::MeshData;
use skin::clip::Property;
use skin::clip::Transform;
use std::collections::BTreeMap;
use std::sync::Arc;
pub use view::{MESH_TINTS, Readback};

/// The page's cells, in chapter order; their snake_case names are the chapter's cell
/// markers.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, strum::EnumString, strum::VariantNames, strum::IntoStaticStr,
)]
#[strum(serialize_all = "snake_case")]
pub enum Cell {
    File,
    Clips,
    Keys,
    Skeleton,
    Joint,
    Vertex,
    Repair,
    Paint,
    Blend,
    Check,
}

/// The fastest playback either way, times real time.
pub const MAX_SPEED: f32 = 4.0;

/// A file the user opened: its name and the model it holds.
#[derive(Clone)]
pub struct Opened {
    /// The file's name, for the page and for messages.
    pub name: String,
    /// What loaded from it.
    pub model: Arc<Model>,
    /// The file as one self-contained GLB (what a repair reads and a save writes), or
    /// why it cannot be made.
    pub source: Result<Arc<Vec<u8>>, String>,
}

/// The page's state.
pub struct ModelPage {
    /// The model shown: a bundled one, or the file opened.
    pub asset: Asset,
    /// The file the user opened last; it stays through resets and links until another
    /// file is opened.
    pub opened: Option<Opened>,
    /// The loaded model (empty when it failed to load: `load_error` says why).
    pub model: Arc<Model>,
    /// How wide the model is as first drawn: its numbers get the decimals that give
    /// about four significant digits at that size, the same however a clip moves it.
    pub drawn_size: f32,
    /// Why the bundled model could not be loaded.
    pub load_error: Option<String>,
    /// Clip A, an index into the model's clips.
    pub clip: usize,
    /// Clip A's time, seconds on its own clock.
    pub time: f32,
    /// Playback speed, times real time; negative plays backwards.
    pub speed: f32,
    /// Whether time moves.
    pub playing: bool,
    /// Start again at the end (otherwise stop there).
    pub looping: bool,
    /// Clip B, blended in by `blend`.
    pub clip_b: Option<usize>,
    /// How much of clip B: 0 is all A, 1 all B.
    pub blend: f32,
    /// The joint whose subtree takes clip B (every joint when `None`).
    pub mask: Option<usize>,
    /// Flip a quaternion that is more than half a turn from the other before blending.
    pub sign_check: bool,
    /// The joint picked (a joint of the model, not of a skin).
    pub joint: Option<usize>,
    /// The vertex picked, counted across every skinned mesh.
    pub vertex: Option<usize>,
    /// The hard mesh (an index into the model's rigid meshes) the last click landed on,
    /// where it hit no skinned vertex: the vertex cell says what such a mesh is.
    pub rigid_clicked: Option<usize>,
    /// Colour the meshes by the picked joint's weights.
    pub heat: bool,
    /// Colour the meshes by how much of each vertex's weight the last repair moved
    /// (over `heat`, while there is a repair to undo).
    pub repair_heat: bool,
    /// How the skinned meshes blend their joints.
    pub method: Method,
    /// The centres of rotation of the model's skinned meshes, found when it opened.
    pub centres: Arc<data::ModelCentres>,
    /// Leave the inverse bind matrices out of the palette.
    pub forget_inverse_bind: bool,
    /// Draw the skeleton over the meshes.
    pub show_skeleton: bool,
    /// Paint the meshes with the file's materials (colours and textures) rather than
    /// one tint a mesh.
    pub materials: bool,
    /// The model whose textures are decoded, and each material's texture.
    textures: Option<(Arc<Model>, textures::Slots)>,
    /// Joints held by hand, by joint: this local transform replaces the clips'.
    pub held: BTreeMap<usize, Transform>,
    /// Inverse binds edited by hand, by joint: each replaces the file's in every skin
    /// that lists the joint.
    pub inverse_binds: BTreeMap<usize, Mat4>,
    /// Blend-shape weights held by hand, by the shape's name: each replaces the clip's
    /// in every mesh that has a shape of that name.
    pub held_morphs: BTreeMap<String, f32>,
    /// Why the last hand edit was refused (the value kept its last valid state).
    pub edit_refused: Option<String>,
    /// The file chooser, while it is open (the desktop's: the browser takes files by
    /// drag and drop).
    #[cfg(not(target_arch = "wasm32"))]
    dialog: Option<crate::ui::file_dialog::FileDialog>,
    /// Why the last file the user tried could not be opened (the page kept its model).
    pub open_error: Option<String>,
    /// The repair cell's state: what the fixes would change, undo, the last save.
    pub repairs: repair::Repairs,
    /// The weight brush of the paint cell, on the picked joint.
    pub brush: crate::pages::blending::Brush,
    /// Keep each vertex's weights summing to 1 while painting.
    pub auto_normalise: bool,
    /// The brush stroke under way, or a wait for two fingers to lift.
    stroke: paint::Brushing,
    /// Where the brush is over the viewport.
    brush_at: Option<egui::Pos2>,
    check: Check,
    /// The cell a link asked to show.
    pub scroll_to: crate::ui::scroll::ScrollTo,
    camera: Camera,
    /// Meshes as drawn, and what they were built for.
    drawn: Option<(DrawnFor, DrawnMeshes)>,
    /// The picked vertex as the GPU skinned it (written by the paint callback).
    readback: view::ReadbackSlot,
    /// A model was put in the viewport: the app fits the camera to it ([`Lesson::take_reframe`]).
    reframe: bool,
    /// Where the viewport was drawn last frame (for tests).
    pub viewport_rect: egui::Rect,
    /// The viewport as last drawn: its camera's view `V` and projection `P`, and its
    /// size in pixels; the vertex cell follows the picked vertex through them.
    pub seen: Option<(Mat4, Mat4, [f32; 2])>,
    /// Where each key plot was drawn last frame, by the property it shows (for tests).
    pub key_plots: Vec<(Property, egui::Rect)>,
    /// The pick the joint tree last saw: a different pick was made elsewhere.
    tree_pick: Option<usize>,
    /// Bring the picked joint's row into view in the tree.
    tree_scroll: bool,
}

/// The meshes as uploaded: skinned meshes first, then rigid ones.
type DrawnMeshes = Arc<Vec<Arc<MeshData>>>;

/// What the drawn meshes were built for: the heat map, the materials switch, and
/// whether they carry their centres of rotation.
type DrawnFor = (Option<Heat>, bool, bool);

/// What a heat map paints: the picked joint's weights, or how much of each vertex's
/// weight the last repair moved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Heat {
    Joint(usize),
    Repair,
}

/// The name of the model shown with `asset` (and `opened`, the file open): the bundled
/// model's link name or the file's name.
fn shown_name(asset: Asset, opened: Option<&Opened>) -> &str {
    match (asset, opened) {
        (Asset::File, Some(opened)) => &opened.name,
        (asset, _) => crate::link::Named::slug(asset),
    }
}

/// The model the page opens with.
pub(super) const DEFAULT_ASSET: Asset = Asset::Robot;

impl Default for ModelPage {
    fn default() -> Self {
        let mut page = Self {
            asset: DEFAULT_ASSET,
            opened: None,
            model: data::empty_model(),
            drawn_size: 1.0,
            load_error: None,
            clip: 0,
            time: 0.0,
            speed: 1.0,
            playing: crate::ui::motion::plays_on_open(),
            looping: true,
            clip_b: None,
            blend: 0.5,
            mask: None,
            sign_check: true,
            joint: None,
            vertex: None,
            rigid_clicked: None,
            heat: false,
            repair_heat: false,
            method: Method::Lbs,
            centres: Arc::default(),
            forget_inverse_bind: false,
            show_skeleton: true,
            materials: true,
            textures: None,
            held: BTreeMap::new(),
            inverse_binds: BTreeMap::new(),
            held_morphs: BTreeMap::new(),
            edit_refused: None,
            #[cfg(not(target_arch = "wasm32"))]
            dialog: None,
            open_error: None,
            repairs: Default::default(),
            brush: crate::pages::blending::Brush::new(paint::RADIUS.2),
            auto_normalise: true,
            stroke: Default::default(),
            brush_at: None,
            check: Check::default(),
            scroll_to: Default::default(),
            camera: Camera::Orbit(crate::ui::OrbitCamera::default()),
            drawn: None,
            readback: Default::default(),
            reframe: false,
            viewport_rect: egui::Rect::NOTHING,
            seen: None,
            key_plots: Vec::new(),
            tree_pick: None,
            tree_scroll: false,
        };
        page.set_asset(DEFAULT_ASSET);
        page
    }
}

impl ModelPage {
    /// Shows model `asset` from its start: first clip at its first key, no blend,
    /// nothing picked, the camera framing it. `Asset::File` with no file open shows an
    /// empty model and says why.
    pub fn set_asset(&mut self, asset: Asset) {
        self.asset = asset;
        let loaded = match (asset, &self.opened) {
            (Asset::File, Some(opened)) => Ok(opened.model.clone()),
            _ => data::loaded(asset),
        };
        let (model, error) = match loaded {
            Ok(model) => (model, None),
            Err(e) => (data::empty_model(), Some(e)),
        };
        self.camera = Camera::Orbit(data::framing(&model));
        self.reframe = true;
        self.drawn_size = data::drawn_sphere(&model).map_or(1.0, |(_, r)| 2.0 * r);
        // A repaired or painted model has the same images: its textures stay decoded.
        let same_images = |decoded: &Arc<Model>| {
            Arc::ptr_eq(decoded, &model)
                || (decoded.materials == model.materials && decoded.images == model.images)
        };
        self.textures = match self.textures.take() {
            Some((decoded, slots)) if same_images(&decoded) => Some((model.clone(), slots)),
            _ => Some((model.clone(), textures::decode(&model))),
        };
        self.stroke = paint::Brushing::Ready;
        self.centres = Arc::new(data::find_centres(&model));
        self.model = model;
        self.load_error = error;
        self.drawn = None;
        self.clip_b = None;
        self.mask = None;
        self.held.clear();
        self.inverse_binds.clear();
        self.held_morphs.clear();
        self.edit_refused = None;
        self.joint = None;
        self.tree_pick = None;
        self.vertex = None;
        self.set_clip(0);
    }

    /// Loads `bytes` (a GLB, or a `.gltf` whose buffers are inside it, called `name`)
    /// and shows it.
    /// Returns the loader's warnings (what it repaired); on error the page keeps what
    /// it showed.
    pub fn open_bytes(&mut self, name: &str, bytes: &[u8]) -> Result<Vec<String>, String> {
        self.open_brought(&Brought::alone(name, bytes))
    }

    /// Loads a file the user brought, with the buffers it names beside it, and shows
    /// it; see [`ModelPage::open_bytes`].
    pub fn open_brought(&mut self, file: &Brought) -> Result<Vec<String>, String> {
        let name = file.name;
        // Whether the file read anything beside it: only then is it written as one GLB
        // for a repair or a save to read alone (a second read of the file at its open).
        let read_beside = std::cell::Cell::new(false);
        let watched = |part: &str, at_most: usize| {
            read_beside.set(true);
            file.beside.map_or_else(
                || Err(gltf::SELF_CONTAINED.to_owned()),
                |beside| beside(part, at_most),
            )
        };
        let loaded = gltf::load_with(file.bytes, &watched).map_err(|e| format!("`{name}`: {e}"));
        self.open_error = loaded.as_ref().err().cloned();
        // A file refused for a reason a fix mends is offered repaired.
        self.repairs.refused = match &loaded {
            Err(_) => gltf::repair(file.bytes, &watched, &gltf::Fix::ALL)
                .ok()
                .filter(|r| !r.changes.is_empty())
                .map(|r| (name.to_owned(), r)),
            Ok(_) => None,
        };
        let model = loaded?;
        let warnings = model.warnings.clone();
        let source = if read_beside.get() {
            gltf::to_glb(file.bytes, &watched).map(Arc::new)
        } else {
            Ok(Arc::new(file.bytes.to_vec()))
        };
        self.opened = Some(Opened {
            name: name.to_owned(),
            model: Arc::new(model),
            source: source.map_err(|e| e.to_string()),
        });
        self.set_asset(Asset::File);
        Ok(warnings)
    }

    /// Reads the file at `path` and shows it; a file that cannot be read or loaded
    /// leaves the page as it was, with the reason in `open_error`.
    pub fn open_path(&mut self, path: &std::path::Path) {
        let name = crate::ui::file_dialog::file_name(path);
        let folder = path.parent().unwrap_or(std::path::Path::new("")).to_owned();
        let beside = |file: &str, at_most| crate::files::read_beside(&folder, file, at_most);
        match crate::files::read_brought(path) {
            Ok(bytes) => {
                // The reason is kept in `open_error`; the warnings are shown in the cell.
                let _ = self.open_brought(&Brought::from_folder(&name, &bytes, &beside));
            }
            Err(e) => self.open_error = Some(format!("`{}`: {e}", path.display())),
        }
    }

    /// The name shown for the model: the bundled model's link name or the file's name.
    pub fn model_name(&self) -> &str {
        shown_name(self.asset, self.opened.as_ref())
    }

    /// Plays clip `clip` from its start.
    pub fn set_clip(&mut self, clip: usize) {
        self.clip = clip;
        self.time = self.model.clips.get(clip).map_or(0.0, |c| c.start());
    }

    /// The names of the model's clips, in file order.
    pub fn clip_names(&self) -> Vec<&str> {
        self.model.clips.iter().map(|c| c.name()).collect()
    }

    /// The names of the model's joints, in joint order.
    pub fn joint_names(&self) -> Vec<&str> {
        self.model.joints.iter().map(|j| j.name.as_str()).collect()
    }

    /// Clip A's first and last key times.
    pub fn time_range(&self) -> (f32, f32) {
        self.model
            .clips
            .get(self.clip)
            .map_or((0.0, 0.0), |c| (c.start(), c.end()))
    }

    /// Moves time on by `dt` seconds of real time, at the page's speed.
    pub fn advance(&mut self, dt: f32) {
        let (start, end) = self.time_range();
        let duration = end - start;
        let step = dt * self.speed;
        if duration <= 0.0 || !step.is_finite() {
            return;
        }
        let t = self.time + step;
        self.time = if self.looping {
            start + (t - start).rem_euclid(duration)
        } else {
            if !(start..=end).contains(&t) {
                self.playing = false;
            }
            t.clamp(start, end)
        };
    }
}

impl Lesson for ModelPage {
    // The keys a link sets pick the cell as they are applied (`joint`, `vertex`,
    // `clip_b`): the cell scrolled to is the one they picked, ahead of `clip`'s.
    fn linked_cell(&self, _link: &crate::link::Link) -> Option<&'static str> {
        self.scroll_to.target()
    }

    fn scroll_to(&mut self) -> Option<&mut crate::ui::scroll::ScrollTo> {
        Some(&mut self.scroll_to)
    }

    fn take_reframe(&mut self) -> bool {
        std::mem::take(&mut self.reframe)
    }

    fn camera(&self) -> Option<Camera> {
        Some(self.camera)
    }

    fn set_camera(&mut self, camera: Camera) {
        self.camera = camera;
    }

    const INFO: &'static PageInfo = &PageInfo {
        slug: "model",
        chapter: chapter_text!("model"),
    };

    const PARAMS: &'static [Param<Self>] = links::PARAMS;

    type Cell = Cell;

    fn cell_ui(&mut self, cell: Cell, ui: &mut egui::Ui) {
        self.cell(cell, ui);
    }

    fn step_pick(&mut self, by: isize) -> bool {
        let count = self.model.joints.len() as isize;
        if count == 0 {
            return false;
        }
        let next = match self.joint {
            Some(j) => (j as isize + by).rem_euclid(count),
            None if by > 0 => 0,
            None => count - 1,
        };
        self.joint = Some(next as usize);
        true
    }

    fn view_in_words(&mut self) -> String {
        let clip = self.clip_names().get(self.clip).map(|c| c.to_string());
        let joint = self
            .joint
            .and_then(|j| Some(self.joint_names().get(j)?.to_string()));
        let mut words = format!("The model {}", self.model_name());
        if let Some(clip) = clip {
            let doing = if self.playing { "playing" } else { "holding" };
            words += &format!(", {doing} the clip {clip} at {:.2} s", self.time);
        }
        if let Some(joint) = joint {
            words += &format!("; the joint {joint} picked");
            if self.heat {
                words += ", its weights as a heat map";
            }
        }
        words + "."
    }

    fn viewport_ui(&mut self, ui: &mut egui::Ui) {
        self.viewport(ui);
    }

    fn tick(&mut self, dt: f32) -> bool {
        // A model the web app is still fetching: shown once it arrives (or the reason
        // it did not); frames keep coming meanwhile.
        if self.load_error.as_deref() == Some(data::ON_ITS_WAY) {
            if crate::models::awaited(crate::link::Named::slug(self.asset)) == Some(Ok(())) {
                return true;
            }
            self.set_asset(self.asset);
        }
        if self.playing {
            self.advance(dt);
        }
        self.playing
    }

    const OPENS: &'static [&'static str] = &["glb", "gltf"];

    fn open_file(&mut self, file: &Brought) -> Result<Vec<String>, String> {
        self.open_brought(file)
    }

    /// Back to the defaults, but an opened file stays open and is shown.
    fn reset(&mut self) {
        let opened = self.opened.take();
        *self = Self::default();
        if opened.is_some() {
            self.opened = opened;
            self.set_asset(Asset::File);
        }
    }
}
