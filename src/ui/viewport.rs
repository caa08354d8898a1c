//! The live OpenGL viewport: a rectangle with a camera, drawn by a paint callback.

use super::camera::Camera;
use super::labels::Placer;
use egui::{Pos2, Rect, Sense, Ui};
use gl::SceneRenderer;
use glam::{Mat4, Vec2, Vec3, Vec4};
use scene::{Scene, SkinnedDraw};
use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// Inside another page (the book's pages embed the app), a plain wheel over a viewport
/// is that page's: it scrolls the book, as a wheel over a picture does, where a
/// viewport that zoomed would hold the reader in place. Ctrl + wheel, and a pinch,
/// zoom the view. The app says each frame whether it is embedded.
pub fn set_embedded(ctx: &egui::Context, embedded: bool) {
    ctx.data_mut(|d| d.insert_temp(embedded_id(), embedded));
    WHEEL_TO_PAGE.store(false, std::sync::atomic::Ordering::Relaxed);
}

/// Whether the app is inside another page (see [`set_embedded`]).
pub fn embedded(ctx: &egui::Context) -> bool {
    ctx.data(|d| d.get_temp::<bool>(embedded_id()))
        .unwrap_or(false)
}

fn embedded_id() -> egui::Id {
    egui::Id::unique("skinlab embedded")
}

/// Whether a plain wheel turned now belongs to the page around the app: the app is
/// embedded and the pointer was over a viewport in the last frame. The web runner asks
/// this before the browser acts on a wheel event.
pub fn wheel_to_page() -> bool {
    WHEEL_TO_PAGE.load(std::sync::atomic::Ordering::Relaxed)
}

static WHEEL_TO_PAGE: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// The renderer, built lazily on the GL thread, and what went wrong.
///
/// Each error is shown in one place: a renderer that could not be built (a shader that
/// does not compile, with the driver's log) in every viewport, since none can draw; a
/// failed draw only in the viewport whose scene failed, keyed by its id, so that a page
/// with several viewports neither shows one viewport's error in another nor has it
/// cleared by another's success.
#[derive(Default)]
struct GlState {
    renderer: Option<Result<SceneRenderer, String>>,
    paint_errors: HashMap<egui::Id, String>,
    /// Each viewport's last picture (native only), with the paint that last used it.
    #[cfg(not(target_arch = "wasm32"))]
    caches: HashMap<egui::Id, (gl::SceneCache, u64)>,
    /// Viewport paints so far, to find the cache used least recently.
    #[cfg(not(target_arch = "wasm32"))]
    paints: u64,
}

/// Viewports whose last picture is kept (a page shows one to three; the rest belong to
/// pages shown earlier).
#[cfg(not(target_arch = "wasm32"))]
const CACHED_VIEWPORTS: usize = 6;

/// Draws `scene` into viewport `id`, which egui has set up at `px`: through the viewport's
/// cache on native targets, so an unchanged scene is copied rather than drawn again;
/// straight into egui's framebuffer on the web, or where no cache can be made.
fn paint_scene(
    state: &mut GlState,
    gl: &glow::Context,
    id: egui::Id,
    scene: &Scene,
    px: egui::epaint::ViewportInPixels,
    target: Option<glow::Framebuffer>,
) -> Result<(), String> {
    let Some(Ok(renderer)) = &mut state.renderer else {
        return Ok(());
    };
    #[cfg(not(target_arch = "wasm32"))]
    {
        use std::collections::hash_map::Entry;
        state.paints += 1;
        let paints = state.paints;
        let cache = match state.caches.entry(id) {
            Entry::Occupied(entry) => Some(entry.into_mut()),
            Entry::Vacant(entry) => gl::SceneCache::new(gl)
                .ok()
                .map(|cache| entry.insert((cache, paints))),
        };
        if let Some((cache, used)) = cache {
            *used = paints;
            let viewport = [px.left_px, px.from_bottom_px, px.width_px, px.height_px];
            let result = cache
                .paint(gl, renderer, scene, viewport, target)
                .map(|_| ());
            while state.caches.len() > CACHED_VIEWPORTS {
                let oldest = state
                    .caches
                    .iter()
                    .min_by_key(|(_, (_, used))| *used)
                    .map(|(id, _)| *id);
                match oldest.and_then(|id| state.caches.remove(&id)) {
                    Some((cache, _)) => cache.destroy(gl),
                    None => break,
                }
            }
            return result;
        }
    }
    let _ = (id, target);
    renderer.paint(gl, scene, [px.width_px as f32, px.height_px as f32])
}

impl GlState {
    /// What viewport `id` shows instead of its scene, if anything.
    fn error(&self, id: egui::Id) -> Option<String> {
        match &self.renderer {
            Some(Err(e)) => Some(e.clone()),
            _ => self.paint_errors.get(&id).cloned(),
        }
    }
}

type SharedGl = Arc<Mutex<GlState>>;

/// Work run on the GL thread after a viewport's scene is drawn (see
/// [`Viewport::paint_then`]).
pub type AfterPaint = Box<dyn Fn(&glow::Context, &mut SceneRenderer) + Send + Sync>;

/// Where egui's memory keeps the renderer.
fn gl_id() -> egui::Id {
    egui::Id::unique("skinlab_gl")
}

/// One renderer for the whole app, kept in egui's memory.
fn shared_gl(ctx: &egui::Context) -> SharedGl {
    ctx.data_mut(|d| d.get_temp_mut_or_default::<SharedGl>(gl_id()).clone())
}

/// Forgets the renderer and everything it put on the GPU, for a context whose GL
/// objects are gone (the browser lost the WebGL context and gave a new one): the next
/// paint builds them again.
pub fn forget_gl(ctx: &egui::Context) {
    ctx.data_mut(|d| d.remove_temp::<SharedGl>(gl_id()));
}

/// Where each viewport last drew its meshes (skinned, and the lines and shapes drawn
/// with them), and its skinned draws themselves: for framing a view, and for checks
/// that a view frames what it shows and that the shader draws what the CPU computes.
/// Kept only once [`MeshBounds::record`] is called: skinning every mesh again on the
/// CPU costs what drawing it saves.
#[derive(Clone, Debug, Default)]
pub struct MeshBounds(HashMap<egui::Id, Drawn>);

/// What one viewport drew in one frame, as [`MeshBounds`] keeps it.
#[derive(Clone, Debug)]
pub struct Drawn {
    /// The frame (egui's pass number).
    pass: u64,
    /// The viewport's rectangle.
    pub viewport: Rect,
    /// The screen rectangle its meshes cover, `None` when it drew none.
    pub mesh: Option<Rect>,
    /// The notes written along its top and bottom edges.
    pub notes: Vec<Rect>,
    /// The labels placed over it, and the marks they keep off.
    pub labels: Vec<super::labels::Placed>,
    /// The marks drawn over it (joints' circles, dots) that were blocked for labels.
    pub marks: Vec<Rect>,
    /// The colour it is cleared to.
    pub background: egui::Color32,
    /// Its skinned draws, palettes and switches as the shader got them (the meshes are
    /// shared, not copied).
    pub skinned: Vec<SkinnedDraw>,
}

impl Drawn {
    /// The viewport less the bands its notes take along the top and the bottom: where
    /// a framed mesh may go without lying under a note.
    pub fn clear(&self) -> Rect {
        let mut clear = self.viewport;
        let middle = self.viewport.center().y;
        for note in &self.notes {
            if note.center().y < middle {
                clear.min.y = clear.min.y.max(note.bottom() + 4.0);
            } else {
                clear.max.y = clear.max.y.min(note.top() - 4.0);
            }
        }
        // Notes that leave less than half the height are written over the mesh anyway.
        if clear.height() < self.viewport.height() * 0.5 {
            self.viewport
        } else {
            clear
        }
    }
}

/// Asks the app to fit the viewport's camera over the next frames if what the view
/// shows reaches past its edges: a button has just put a new pose in it (a link's
/// pose is framed the same way).
pub fn ask_to_frame(ctx: &egui::Context) {
    ctx.data_mut(|d| d.insert_temp(frame_asked_id(), true));
}

/// Whether [`ask_to_frame`] was called since the last time this was; the ask is taken.
pub fn take_frame_ask(ctx: &egui::Context) -> bool {
    ctx.data_mut(|d| d.remove_temp::<bool>(frame_asked_id()))
        .unwrap_or(false)
}

fn frame_asked_id() -> egui::Id {
    egui::Id::unique("skinlab_frame_asked")
}

impl MeshBounds {
    fn id() -> egui::Id {
        egui::Id::unique("skinlab_mesh_bounds")
    }

    /// Starts keeping the bounds of what each viewport draws, from none.
    pub fn record(ctx: &egui::Context) {
        ctx.data_mut(|d| d.insert_temp(Self::id(), Self::default()));
    }

    /// Stops keeping them.
    pub fn stop(ctx: &egui::Context) {
        ctx.data_mut(|d| d.remove_temp::<Self>(Self::id()));
    }

    /// Whether they are being kept.
    pub fn recording(ctx: &egui::Context) -> bool {
        ctx.data(|d| d.get_temp::<Self>(Self::id()).is_some())
    }

    /// What each viewport drew in the last frame that drew any.
    pub fn of(ctx: &egui::Context) -> Vec<Drawn> {
        let all: Vec<Drawn> = ctx
            .data(|d| d.get_temp::<Self>(Self::id()))
            .map(|b| b.0.into_values().collect())
            .unwrap_or_default();
        let last = all.iter().map(|d| d.pass).max();
        all.into_iter().filter(|d| Some(d.pass) == last).collect()
    }

    fn keep(ctx: &egui::Context, id: egui::Id, viewport: Rect, scene: &Scene) {
        // The skinned meshes, and the lines and shapes drawn with them (bones, axes,
        // arrows); not the backdrop, which runs on past any view, but the points of it
        // the scene asks to hold.
        let size = [viewport.width(), viewport.height()];
        let seen = |p| project(scene.clip_from_world, size, p).map(|(_, _, at)| at);
        let corners = scene
            .skinned
            .iter()
            .filter_map(|d| d.bounds_seen(seen))
            .flat_map(|[left, top, right, bottom]| [[left, top], [right, bottom]]);
        let drawn = scene
            .lines
            .iter()
            .chain(&scene.triangles)
            .map(|v| v.position);
        let drawn = drawn.chain(scene.framed.iter().copied());
        let bounds = corners
            .chain(drawn.filter_map(seen))
            .fold(Rect::NOTHING, |mut r, [x, y]| {
                r.extend_with(viewport.min + egui::vec2(x, y));
                r
            });
        let drawn = Drawn {
            pass: ctx.cumulative_pass_nr(),
            viewport,
            mesh: (bounds.is_finite() && bounds.is_positive()).then_some(bounds),
            notes: Vec::new(),
            labels: Vec::new(),
            marks: Vec::new(),
            background: super::color32(scene.background),
            skinned: scene.skinned.clone(),
        };
        ctx.data_mut(|d| {
            d.get_temp_mut_or_default::<Self>(Self::id())
                .0
                .insert(id, drawn);
        });
    }

    /// Keeps the labels `placer` placed this frame over the viewport `id`.
    #[cfg(not(target_arch = "wasm32"))]
    fn labels(ctx: &egui::Context, id: egui::Id, placer: &Placer) {
        let pass = ctx.cumulative_pass_nr();
        ctx.data_mut(|d| {
            if let Some(drawn) = d.get_temp_mut_or_default::<Self>(Self::id()).0.get_mut(&id)
                && drawn.pass == pass
            {
                drawn.labels = placer.placed.clone();
                drawn.marks = placer.marks();
            }
        });
    }

    fn note(ctx: &egui::Context, id: egui::Id, rect: Rect) {
        if !Self::recording(ctx) {
            return;
        }
        ctx.data_mut(|d| {
            if let Some(drawn) = d.get_temp_mut_or_default::<Self>(Self::id()).0.get_mut(&id) {
                drawn.notes.push(rect);
            }
        });
    }
}

/// The room a viewport leaves below itself for `caption` (small print, wrapped to the
/// width of `ui`) and `rows` rows of controls: a viewport that takes the rest of the
/// height keeps its caption on screen however narrow the pane or large the text.
///
/// A caption that would leave the viewport less than [`FOLD_BELOW`] of the height (a
/// pane beside a focused cell, at presenter size; [`FOLD_BELOW_ON_A_PHONE`] on a phone)
/// folds behind one line the reader can open: the picture is what the pane is for.
pub fn room_below(ui: &Ui, caption: &str, rows: usize) -> f32 {
    let font = egui::TextStyle::Small.resolve(ui.style());
    let galley = ui.painter().layout(
        caption.to_owned(),
        font.clone(),
        egui::Color32::WHITE,
        ui.available_width(),
    );
    let spacing = ui.spacing();
    let row = spacing.interact_size.y + spacing.item_spacing.y;
    // The space before the caption, and a little under it; and what the estimate fell
    // short by last frame (a row of controls that wrapped, say).
    let mut below = Below::of(ui);
    let controls = 2.0 * spacing.item_spacing.y + rows as f32 * row + below.short_by;
    let open = galley.size().y + controls;
    let available = ui.available_height();
    // Folded below one share and opened again only above a larger one, so that the
    // few points a fold saves cannot flip it back and forth.
    let share = (available - open) / available.max(1.0);
    let least = if super::screen(ui.ctx()).compact {
        FOLD_BELOW_ON_A_PHONE
    } else {
        FOLD_BELOW
    };
    below.folded = share < if below.folded { least + 0.05 } else { least };
    ui.data_mut(|d| d.insert_temp(below_id(ui), below));
    if !below.folded {
        return open;
    }
    let header = row.max(font.size + spacing.item_spacing.y);
    if below.opened {
        header + open
    } else {
        header + controls
    }
}

/// The least share of its pane's height a viewport keeps before its caption folds.
pub const FOLD_BELOW: f32 = 0.55;

/// The same on a phone, where the pane is all the screen has beside a bar: the picture
/// keeps more of it (held sideways, at least half the screen's height).
pub const FOLD_BELOW_ON_A_PHONE: f32 = 0.85;

/// What [`room_below`] decided for the rows under a viewport, and what [`caption_ui`]
/// measured of them, for the `Ui` they share.
#[derive(Clone, Copy, Default)]
struct Below {
    /// How much more room than the estimate the rows took last frame.
    short_by: f32,
    /// Whether the caption is folded behind a line.
    folded: bool,
    /// Whether the reader opened the folded caption.
    opened: bool,
}

impl Below {
    fn of(ui: &Ui) -> Self {
        ui.data(|d| d.get_temp::<Self>(below_id(ui)))
            .unwrap_or_default()
    }
}

fn below_id(ui: &Ui) -> egui::Id {
    ui.scope_id().with("room below the viewport")
}

/// Shows the caption under a viewport (folded if [`room_below`] said so), and notes how
/// far the rows under the viewport ran past the bottom, so the next frame's estimate
/// leaves that much more room.
pub fn caption_ui(ui: &mut Ui, caption: &str) {
    let mut caption = super::pointer_words(caption, super::touch(ui.ctx()));
    if embedded(ui.ctx()) {
        caption = caption
            .replace("scroll to zoom", "Ctrl + scroll to zoom")
            .into();
    }
    let caption = &*caption;
    let mut below = Below::of(ui);
    let bottom = if below.folded {
        let toggle = if below.opened {
            "Hide the note"
        } else {
            "About this view"
        };
        // Drawn as a link, and as tall as any control (a finger's height on a touch
        // screen).
        let text = egui::RichText::new(toggle)
            .small()
            .color(ui.visuals().hyperlink_color);
        let mut bottom = ui.add(egui::Button::new(text).frame(false));
        if bottom.clicked() {
            below.opened = !below.opened;
            ui.data_mut(|d| d.insert_temp(below_id(ui), below));
        }
        if below.opened {
            bottom = ui.label(egui::RichText::new(caption).small());
        }
        bottom.rect.bottom()
    } else {
        ui.label(egui::RichText::new(caption).small()).rect.bottom()
    };
    let past = bottom + ui.spacing().item_spacing.y - ui.max_rect().bottom();
    let next = (below.short_by + past).max(0.0);
    if (next - below.short_by).abs() > 0.5 {
        below.short_by = next;
        ui.data_mut(|d| d.insert_temp(below_id(ui), below));
        ui.ctx().request_repaint();
    }
}

/// How far a note keeps from the viewport's edges, in points.
const NOTE_MARGIN: f32 = 10.0;

/// A viewport allocated for this frame: its rectangle, its input and its projection.
pub struct Viewport {
    /// Clicks and drags on the viewport.
    pub response: egui::Response,
    /// Clip space from world space, for this frame.
    pub clip_from_world: Mat4,
    /// What this frame's notes, labels and marks already cover, so that the next label
    /// is placed clear of them.
    labels: RefCell<Placer>,
    /// The meshes painted and not yet followed on screen for the labels to keep off.
    drawn: RefCell<Vec<SkinnedDraw>>,
    /// The unskinned lines (bones, axes) and shapes (arrows) painted, in world space,
    /// as pairs and triples: labels keep off them too.
    unskinned: RefCell<(Vec<Vec3>, Vec<Vec3>)>,
    /// The colour the scene painted clears to, once painted: labels written on it are
    /// darkened (or lightened) until they read there.
    background: std::cell::Cell<Option<egui::Color32>>,
    /// The labels asked for this frame, placed when it ends.
    pending: RefCell<Vec<Pending>>,
    /// The axes painted whose tips take their letter, and the font to write it in:
    /// written when the frame ends, after the labels ([`Viewport::letter_axes`]).
    axis_ends: RefCell<(Vec<scene::AxisEnd>, Option<egui::FontId>)>,
    /// Paints over the viewport, clipped to it.
    painter: egui::Painter,
    /// The ring drawn around the viewport while it has the keyboard's focus.
    focus_ring: Option<egui::Stroke>,
}

/// How far one press of an arrow key turns or pans the view: as far as a drag of this
/// many points (about 11° of an orbit).
pub const KEY_STEP: f32 = 20.0;

/// How near one press of `+` brings the view: as a wheel's notch of this many points.
const KEY_NOTCH: f32 = 100.0;

/// The least length on screen, in points, of an axis whose tip is lettered: the short
/// axes of a crowd of joints are left plain.
const LETTERED_AXIS: f32 = 24.0;

/// Where the viewport drawn last and not yet named keeps its id ([`name_drawn`]).
fn unnamed_viewport() -> egui::Id {
    egui::Id::unique("skinlab unnamed viewport")
}

/// `[` (−1) or `]` (+1) pressed while the viewport drawn last has the keyboard: the
/// page steps its picked vertex or joint; 0 otherwise.
pub fn pick_step(ctx: &egui::Context) -> isize {
    let drawn = ctx.data(|d| d.get_temp::<Option<egui::Id>>(unnamed_viewport()));
    let Some(id) = drawn.flatten() else {
        return 0;
    };
    if !ctx.memory(|m| m.has_focus(id)) {
        return 0;
    }
    ctx.input(|i| {
        isize::from(i.key_pressed(egui::Key::CloseBracket))
            - isize::from(i.key_pressed(egui::Key::OpenBracket))
    })
}

/// Names the viewport drawn last for a screen reader: a picture (AccessKit's image
/// role) whose name is `what` says, the page's view in words. `what` runs only while a
/// screen reader (or a test) reads the tree.
pub fn name_drawn(ctx: &egui::Context, what: impl FnOnce() -> String) {
    let taken = ctx.data_mut(|d| d.remove_temp::<Option<egui::Id>>(unnamed_viewport()));
    let Some(id) = taken.flatten() else {
        return;
    };
    // The browser is handed no AccessKit tree (eframe does not pass it on there): the
    // words are left out of the web build.
    #[cfg(not(target_arch = "wasm32"))]
    ctx.accesskit_node_builder(id, |node| {
        node.set_role(egui::accesskit::Role::Image);
        node.set_label(what());
    });
    #[cfg(target_arch = "wasm32")]
    let _ = (id, what);
}

/// A label asked for and not yet placed: see [`Viewport::label_galley`].
struct Pending {
    at: Pos2,
    galley: Arc<egui::Galley>,
    gap: f32,
    toward: egui::Vec2,
    card: Option<egui::Color32>,
}

impl Drop for Viewport {
    /// Ends the viewport's frame: its labels are placed and drawn.
    fn drop(&mut self) {
        self.place_labels();
        self.letter_axes();
        // Over the picture, inside its edge: the keyboard is here. In the selection's
        // colour, darkened (or lightened) until it reads on the picture's background,
        // which is light on most pages in either theme.
        if let Some(ring) = self.focus_ring {
            let ring = egui::Stroke::new(ring.width, self.ink(ring.color));
            self.painter
                .rect_stroke(self.rect().shrink(1.5), 2.0, ring, egui::StrokeKind::Inside);
        }
        // The labels are kept for the kittests only: the web app leaves them out.
        #[cfg(not(target_arch = "wasm32"))]
        if MeshBounds::recording(&self.response.ctx) {
            MeshBounds::labels(&self.response.ctx, self.response.id, &self.labels.borrow());
        }
    }
}

impl Viewport {
    /// Allocates a viewport of the available width and `height` points, seen through
    /// `camera` as it is now.
    pub fn new(ui: &mut Ui, height: f32, camera: &Camera) -> Self {
        let size = egui::vec2(ui.available_width(), height.max(50.0));
        // A second finger makes the touch a pinch: the first finger's drag (of a joint,
        // say) ends here, and egui starts no other until the fingers lift, so a pinch
        // that began on a joint zooms the view and leaves the joint where it was.
        if ui.input(|i| i.multi_touch().is_some()) {
            ui.ctx().stop_dragging();
        }
        let (rect, response) = ui.allocate_exact_size(size, Sense::click_and_drag());
        super::marks::viewport_drawn(ui.ctx(), rect);
        ui.ctx()
            .data_mut(|d| d.insert_temp(unnamed_viewport(), Some(response.id)));
        if response.hovered() && embedded(ui.ctx()) {
            WHEEL_TO_PAGE.store(true, std::sync::atomic::Ordering::Relaxed);
        }
        let clip_from_world = camera.clip_from_world(rect.width() / rect.height());
        let focus_ring = response
            .has_focus()
            .then(|| egui::Stroke::new(3.0, ui.visuals().selection.stroke.color));
        Self {
            response,
            clip_from_world,
            labels: RefCell::new(Placer::new(rect.shrink(2.0))),
            drawn: RefCell::new(Vec::new()),
            unskinned: RefCell::new((Vec::new(), Vec::new())),
            background: std::cell::Cell::new(None),
            pending: RefCell::new(Vec::new()),
            axis_ends: RefCell::new((Vec::new(), None)),
            painter: ui.painter_at(rect),
            focus_ring,
        }
    }

    /// Lets the camera follow a drag (orbit or pan) and scrolling over the viewport.
    /// Pages call this only when the drag is not theirs (a joint drag, say).
    /// Two fingers on the viewport pinch to zoom and move together to pan (the first
    /// finger's drag, which egui also reports, does not turn the view meanwhile); a
    /// trackpad's pinch zooms.
    pub fn camera_input(&self, ui: &Ui, camera: &mut Camera) {
        let height = self.rect().height();
        self.camera_keys(ui, camera, height);
        let fingers = ui.input(|i| i.multi_touch());
        if let Some(touch) = fingers {
            if self.rect().contains(touch.start_pos) {
                let shift = touch.translation_delta;
                let about = touch.center_pos - self.rect().center();
                camera.handle_gesture(
                    Vec2::new(shift.x, shift.y),
                    touch.zoom_delta,
                    Vec2::new(about.x, about.y),
                    height,
                );
            }
            return;
        }
        let pinch = ui.input(|i| i.zoom_delta());
        if self.response.hovered() && (pinch - 1.0).abs() > 1e-4 {
            let about = self
                .response
                .hover_pos()
                .map_or(egui::Vec2::ZERO, |p| p - self.rect().center());
            camera.handle_gesture(Vec2::ZERO, pinch, Vec2::new(about.x, about.y), height);
        }
        let drag = self.response.drag_delta();
        // Embedded, the plain wheel scrolls the page around (see [`set_embedded`]).
        let scroll = if self.response.hovered() && !embedded(ui.ctx()) {
            ui.input(|i| i.smooth_scroll_delta.y)
        } else {
            0.0
        };
        camera.handle_input(Vec2::new(drag.x, drag.y), scroll, height);
    }

    /// The keyboard, once Tab has brought the viewport the focus: the arrows turn the
    /// view (or pan a flat one) as a drag of [`KEY_STEP`] points would, `+` and `−`
    /// bring it nearer and further as a wheel's notch does. The arrows stay the
    /// viewport's while it has the focus; Tab moves on.
    fn camera_keys(&self, ui: &Ui, camera: &mut Camera, height: f32) {
        if !self.response.has_focus() {
            return;
        }
        ui.memory_mut(|m| {
            m.set_focus_lock_filter(
                self.response.id,
                egui::EventFilter {
                    horizontal_arrows: true,
                    vertical_arrows: true,
                    ..Default::default()
                },
            );
        });
        let (drag, scroll) = ui.input(|i| {
            use egui::Key;
            let pressed = |key| f32::from(u8::from(i.key_pressed(key)));
            let drag = Vec2::new(
                pressed(Key::ArrowRight) - pressed(Key::ArrowLeft),
                pressed(Key::ArrowDown) - pressed(Key::ArrowUp),
            ) * KEY_STEP;
            let nearer = if i.modifiers.command {
                0.0
            } else {
                pressed(Key::Plus).max(pressed(Key::Equals)) - pressed(Key::Minus)
            };
            (drag, nearer * KEY_NOTCH)
        });
        if drag != Vec2::ZERO || scroll != 0.0 {
            camera.handle_input(drag, scroll, height);
        }
    }

    /// The viewport's rectangle in points.
    pub fn rect(&self) -> Rect {
        self.response.rect
    }

    /// Where `draws` and the unskinned lines and shapes lie on screen, for labels to
    /// keep off: each line and triangle of the meshes small enough to follow (a
    /// million-vertex tail carries no labels).
    fn outline(&self, draws: &[SkinnedDraw]) -> super::labels::Outline {
        /// The most vertices a mesh may have to be followed.
        const MOST: usize = 20_000;
        let mut outline = super::labels::Outline::default();
        let (lines, triangles) = std::mem::take(&mut *self.unskinned.borrow_mut());
        let seen = |p: &Vec3| self.to_screen(*p);
        outline.strokes.extend(
            lines
                .chunks_exact(2)
                .filter_map(|l| Some([seen(&l[0])?, seen(&l[1])?])),
        );
        outline.triangles.extend(
            triangles
                .chunks_exact(3)
                .filter_map(|t| Some([seen(&t[0])?, seen(&t[1])?, seen(&t[2])?])),
        );
        for draw in draws {
            if draw.mesh.skin.positions.len() > MOST {
                continue;
            }
            let screen: Vec<Option<Pos2>> = draw
                .world_positions()
                .into_iter()
                .map(|p| self.to_screen(p))
                .collect();
            let at = |i: &u32| screen.get(*i as usize).copied().flatten();
            match draw.mesh.primitive {
                scene::Primitive::Lines => {
                    outline.segments.extend(
                        draw.mesh
                            .indices
                            .chunks_exact(2)
                            .filter_map(|l| Some([at(&l[0])?, at(&l[1])?])),
                    );
                }
                scene::Primitive::Triangles => {
                    outline.triangles.extend(
                        draw.mesh
                            .indices
                            .chunks_exact(3)
                            .filter_map(|t| Some([at(&t[0])?, at(&t[1])?, at(&t[2])?])),
                    );
                }
            }
        }
        outline
    }

    /// A note written in a corner of the viewport (`corner`: top or bottom, left),
    /// wrapped to the viewport's width so no word is cut off at its edge. Returns where
    /// it was drawn.
    pub fn note(
        &self,
        ui: &Ui,
        corner: egui::Align2,
        text: impl Into<String>,
        font: egui::FontId,
        color: egui::Color32,
    ) -> Rect {
        let rect = self.rect();
        let galley = self.note_galley(ui, rect.left() + NOTE_MARGIN, text, font, color);
        let at = if corner.y() == egui::Align::Max {
            rect.left_bottom() + egui::vec2(NOTE_MARGIN, -NOTE_MARGIN - galley.size().y)
        } else {
            rect.left_top() + egui::vec2(NOTE_MARGIN, NOTE_MARGIN)
        };
        let drawn = Rect::from_min_size(at, galley.size());
        ui.painter_at(rect).galley(at, galley, color);
        self.block_note(ui, drawn);
        drawn
    }

    /// A note whose top left corner is `at`, wrapped before the viewport's right edge;
    /// returns the y of its bottom, where the next note may start.
    pub fn note_at(
        &self,
        ui: &Ui,
        at: egui::Pos2,
        text: impl Into<String>,
        size: f32,
        color: egui::Color32,
    ) -> f32 {
        let font = egui::FontId::proportional(size);
        let galley = self.note_galley(ui, at.x, text, font, color);
        let bottom = at.y + galley.size().y;
        self.block_note(ui, Rect::from_min_size(at, galley.size()));
        ui.painter_at(self.rect()).galley(at, galley, color);
        bottom
    }

    /// Marks `rect` as taken by a note the page drew along the viewport's top or
    /// bottom edge (a key, a note on a card): labels keep off it even more than off
    /// marks, and framing keeps the meshes out of its band ([`Drawn::clear`]).
    pub fn block_note(&self, ui: &Ui, rect: Rect) {
        self.labels.borrow_mut().block_text(rect);
        MeshBounds::note(ui.ctx(), self.response.id, rect);
    }

    /// Marks `rect` (a mark drawn over the viewport: a joint's circle, a dot) as taken:
    /// no label of this frame is placed over it. Notes and labels take their own place.
    pub fn block(&self, rect: Rect) {
        self.labels.borrow_mut().block(rect);
    }

    /// Writes `text` beside the screen point `at`, `gap` points away, on the side
    /// `toward` points to if it is free, else wherever around `at` no note, label or
    /// blocked mark of this frame lies (see [`Placer`]). A colour too faint on the
    /// painted scene's background is moved toward black (or white) until it reads at
    /// 4.5:1, and the label is set on a card of that background. It is placed when the
    /// frame ends, clear of every mark of the frame ([`Viewport::label_galley`]).
    pub fn label(
        &self,
        ui: &Ui,
        at: Pos2,
        text: impl Into<String>,
        font: egui::FontId,
        color: egui::Color32,
        toward: egui::Vec2,
    ) {
        let under = self.background.get();
        let color = self.ink(color);
        // A card of the background's own colour lets the label lie over the mesh
        // beside its mark rather than off it far away.
        let card = under.map(|c| egui::Color32::from_rgb(c.r(), c.g(), c.b()).gamma_multiply(0.86));
        let galley = ui.painter().layout_no_wrap(text.into(), font, color);
        self.label_galley(at, galley, 8.0, toward, card);
    }

    /// `color` moved toward black (or white) until it reads at 4.5:1 on the painted
    /// scene's background; as it is before the scene is painted.
    fn ink(&self, color: egui::Color32) -> egui::Color32 {
        match self.background.get() {
            Some(under) => super::legible_on(
                color,
                under,
                super::contrast(under, egui::Color32::BLACK) < 4.5,
            ),
            None => color,
        }
    }

    /// Writes each painted axis's letter (x, y or z) just past its tip, in the axis's
    /// colour made legible on the background, where it has room: clear of the labels,
    /// notes and marks of the frame and inside the view. An axis shorter on screen than
    /// [`LETTERED_AXIS`], or whose letter would lie on a mesh, is left plain. Colour is not left to tell x from y alone.
    fn letter_axes(&self) {
        let (ends, font) = std::mem::take(&mut *self.axis_ends.borrow_mut());
        let Some(font) = font else {
            return;
        };
        let mut labels = self.labels.borrow_mut();
        self.avoid_meshes(&mut labels);
        for end in ends {
            let (Some(origin), Some(tip)) = (self.to_screen(end.origin), self.to_screen(end.tip))
            else {
                continue;
            };
            let along = tip - origin;
            if along.length() < LETTERED_AXIS {
                continue;
            }
            let axis = end.axis.min(2);
            let color = self.ink(super::AXIS_COLORS[axis]);
            let galley = self.painter.layout_no_wrap(
                scene::AXIS_NAMES[axis].to_owned(),
                font.clone(),
                color,
            );
            let size = galley.size();
            let center = tip + along.normalized() * (0.5 * size.length() + 2.0);
            let rect = Rect::from_center_size(center, size);
            // Just past a tip that lies on a mesh is most likely inside it too (a
            // joint's axes along a bone of the skin): the letter would name a line no
            // one sees.
            let on_mesh = labels.on_surface(Rect::from_center_size(center, egui::Vec2::splat(1.0)));
            if !on_mesh && labels.is_free(rect) {
                labels.block_text(rect);
                self.painter
                    .galley(rect.min, galley, egui::Color32::PLACEHOLDER);
            }
        }
    }

    /// Writes `text` anchored at `at` as [`egui::Painter::text`] would, but only if it
    /// stays inside the viewport and clear of this frame's notes and labels: for
    /// optional marks such as the numbers along an axis. Returns whether it was drawn.
    pub fn text_if_free(
        &self,
        ui: &Ui,
        at: Pos2,
        anchor: egui::Align2,
        text: impl Into<String>,
        font: egui::FontId,
        color: egui::Color32,
    ) -> bool {
        let galley = ui.painter().layout_no_wrap(text.into(), font, color);
        let rect = anchor.anchor_size(at, galley.size());
        let mut labels = self.labels.borrow_mut();
        if !labels.is_free(rect) {
            return false;
        }
        labels.block_text(rect);
        ui.painter_at(self.rect())
            .galley(rect.min, galley, egui::Color32::PLACEHOLDER);
        true
    }

    /// A laid-out label beside `at`, placed as [`Viewport::label`] places one; on a
    /// rounded card of colour `card`, if given, that keeps it readable over the mesh.
    /// Labels are placed and drawn once the viewport's frame ends ([`Viewport::drop`]),
    /// after every mark of the frame is blocked, whatever order the page drew them in:
    /// a label placed before a mark beside it would not know to keep nearer its own.
    /// A mark outside the view gets no label.
    pub fn label_galley(
        &self,
        at: Pos2,
        galley: Arc<egui::Galley>,
        gap: f32,
        toward: egui::Vec2,
        card: Option<egui::Color32>,
    ) {
        // A mark out of the view has no label: held at the view's edge, it would name
        // nothing there.
        if !self.rect().expand(1.0).contains(at) {
            return;
        }
        self.pending.borrow_mut().push(Pending {
            at,
            galley,
            gap,
            toward,
            card,
        });
    }

    /// Places and draws the labels asked for this frame, in the order they were asked.
    /// Keeps `labels` off the meshes and lines painted this frame, followed on screen
    /// now: once, by the first of the labels and the axes' letters that needs it.
    fn avoid_meshes(&self, labels: &mut Placer) {
        let drawn = std::mem::take(&mut *self.drawn.borrow_mut());
        let unskinned = self.unskinned.borrow();
        let nothing = drawn.is_empty() && unskinned.0.is_empty() && unskinned.1.is_empty();
        drop(unskinned);
        if !nothing {
            labels.avoid(self.outline(&drawn));
        }
    }

    fn place_labels(&self) {
        let pending = std::mem::take(&mut *self.pending.borrow_mut());
        if pending.is_empty() {
            return;
        }
        let mut labels = self.labels.borrow_mut();
        self.avoid_meshes(&mut labels);
        // What was placed is kept for the kittests only, which record the frame.
        let keep = cfg!(not(target_arch = "wasm32")) && MeshBounds::recording(&self.response.ctx);
        for Pending {
            at,
            galley,
            gap,
            toward,
            card,
        } in pending
        {
            let margin = if card.is_some() { 2.0 } else { 0.0 };
            let spot = labels.place_spot(
                at,
                galley.size() + egui::Vec2::splat(2.0 * margin),
                gap,
                toward,
                card.is_some(),
            );
            let color = galley
                .job
                .sections
                .first()
                .map_or(egui::Color32::GRAY, |s| s.format.color);
            if let Some(line) = spot.leader_line(at) {
                // A thin line in the label's colour from the mark's edge to the label.
                self.painter
                    .line_segment(line, egui::Stroke::new(1.5, color));
            }
            if let Some(card) = card {
                self.painter.rect_filled(spot.rect, 3.0, card);
            }
            if keep {
                labels.placed.push(super::labels::Placed {
                    text: galley.text().to_owned(),
                    at,
                    spot,
                    color,
                    card,
                });
            }
            let text = spot.rect.shrink(margin);
            self.painter
                .galley(text.min, galley, egui::Color32::PLACEHOLDER);
        }
    }

    fn note_galley(
        &self,
        ui: &Ui,
        left: f32,
        text: impl Into<String>,
        font: egui::FontId,
        color: egui::Color32,
    ) -> std::sync::Arc<egui::Galley> {
        let width = (self.rect().right() - left - NOTE_MARGIN).max(50.0);
        ui.painter().layout(text.into(), font, color, width)
    }

    /// Where a world point lands on screen; `None` when it is behind the camera.
    pub fn to_screen(&self, world: Vec3) -> Option<Pos2> {
        on_screen(self.clip_from_world, self.rect(), world)
    }

    /// The skinned vertices that face `eye` (a camera's [`Camera::eye`]), each moved by
    /// `offset` as its mesh is drawn, and where they land on screen, with their index.
    pub fn front_facing(
        &self,
        eye: Vec3,
        offset: Vec3,
        vertices: &[skin::lbs::SkinnedVertex],
    ) -> Vec<(usize, Pos2)> {
        vertices
            .iter()
            .enumerate()
            .filter_map(|(i, v)| {
                let p = v.position + offset;
                if v.normal.dot(eye - p) > 0.0 {
                    Some((i, self.to_screen(p)?))
                } else {
                    None
                }
            })
            .collect()
    }

    /// The vertex nearest `at`, within [`super::pick::PICK_RADIUS`], among the
    /// front-facing vertices of meshes each drawn moved by its offset (`drawn`: the
    /// offset and the skinned vertices); its index in its mesh.
    pub fn vertex_under<'a>(
        &self,
        eye: Vec3,
        drawn: impl IntoIterator<Item = (Vec3, &'a [skin::lbs::SkinnedVertex])>,
        at: Pos2,
    ) -> Option<usize> {
        let front: Vec<(usize, Pos2)> = (drawn.into_iter())
            .flat_map(|(offset, vertices)| self.front_facing(eye, offset, vertices))
            .collect();
        let screen = front.iter().map(|(_, s)| *s);
        super::pick::nearest(screen, at, super::pick::PICK_RADIUS).map(|k| front[k].0)
    }

    /// The world point under `screen` on the plane z = 0 (for a plane camera).
    pub fn to_plane(&self, screen: Pos2) -> Vec3 {
        let world = self
            .clip_from_world
            .inverse()
            .project_point3(self.to_ndc(screen, 0.0));
        Vec3::new(world.x, world.y, 0.0)
    }

    fn to_ndc(&self, screen: Pos2, depth: f32) -> Vec3 {
        let rect = self.rect();
        Vec3::new(
            (screen.x - rect.left()) / rect.width() * 2.0 - 1.0,
            1.0 - (screen.y - rect.top()) / rect.height() * 2.0,
            depth,
        )
    }

    /// The world-space ray under `screen`: a point on the near plane and a unit
    /// direction away from the camera.
    pub fn ray(&self, screen: Pos2) -> (Vec3, Vec3) {
        let world_from_clip = self.clip_from_world.inverse();
        let near = world_from_clip.project_point3(self.to_ndc(screen, -1.0));
        let far = world_from_clip.project_point3(self.to_ndc(screen, 1.0));
        (near, (far - near).normalize_or_zero())
    }

    /// The point under `screen` on the plane through `through` that faces the camera:
    /// where a point dragged in 3D goes.
    pub fn on_view_plane(&self, screen: Pos2, through: Vec3) -> Option<Vec3> {
        let (_, forward) = self.ray(self.rect().center());
        let (origin, dir) = self.ray(screen);
        let along = dir.dot(forward);
        if along.abs() < 1e-6 {
            return None;
        }
        let point = origin + dir * ((through - origin).dot(forward) / along);
        point.is_finite().then_some(point)
    }

    /// Draws `scene` with the real shaders, or shows why it cannot.
    pub fn paint(&self, ui: &Ui, scene: Scene) {
        self.paint_then(ui, scene, None);
    }

    /// Draws `scene`, then runs `after` on the GL thread with the app's renderer:
    /// for measurements that need the live context (limits, transform feedback,
    /// timings). `after` must leave the GL state as it found it.
    pub fn paint_then(&self, ui: &Ui, mut scene: Scene, after: Option<AfterPaint>) {
        scene.pixels_per_point = ui.ctx().pixels_per_point();
        // Followed on screen only if a label is placed: most frames place none.
        *self.drawn.borrow_mut() = scene.skinned.clone();
        *self.unskinned.borrow_mut() = (
            scene.lines.iter().map(|v| v.position).collect(),
            scene.triangles.iter().map(|v| v.position).collect(),
        );
        self.background.set(Some(super::color32(scene.background)));
        // The renderer draws no letters: the viewport writes them when its frame ends.
        *self.axis_ends.borrow_mut() = (
            std::mem::take(&mut scene.axis_ends),
            Some(egui::TextStyle::Body.resolve(ui.style())),
        );
        let rect = self.rect();
        let id = self.response.id;
        if MeshBounds::recording(ui.ctx()) {
            MeshBounds::keep(ui.ctx(), id, rect, &scene);
        }
        let gl_state = shared_gl(ui.ctx());
        let for_callback = gl_state.clone();
        let callback = egui_glow::CallbackFn::new(move |info, painter| {
            let px = info.viewport_in_pixels();
            let mut state = for_callback
                .lock()
                .unwrap_or_else(|poisoned| poisoned.into_inner());
            let gl = painter.gl();
            // A renderer that failed to build keeps its error, which every viewport shows.
            if state
                .renderer
                .get_or_insert_with(|| SceneRenderer::new(gl))
                .is_err()
            {
                return;
            }
            // Where egui paints: the window's framebuffer, or a headless run's own.
            #[cfg(not(target_arch = "wasm32"))]
            let target = painter
                .intermediate_fbo()
                .or_else(|| gl::headless::bound_framebuffer(gl));
            #[cfg(target_arch = "wasm32")]
            let target = painter.intermediate_fbo();
            let painted = paint_scene(&mut state, gl, id, &scene, px, target);
            match painted {
                Ok(()) => state.paint_errors.remove(&id),
                Err(e) => state.paint_errors.insert(id, e),
            };
            if let (Some(after), Some(Ok(renderer))) = (&after, &mut state.renderer) {
                after(gl, renderer);
            }
        });
        ui.painter_at(rect).add(egui::PaintCallback {
            rect,
            callback: Arc::new(callback),
        });
        let error = gl_state.lock().ok().and_then(|s| s.error(id));
        if let Some(error) = error {
            let painter = ui.painter_at(rect);
            painter.rect_filled(rect, 0.0, egui::Color32::from_gray(20));
            painter.text(
                rect.left_top() + egui::vec2(8.0, 8.0),
                egui::Align2::LEFT_TOP,
                format!("The viewport cannot draw:\n{error}"),
                egui::FontId::monospace(12.0),
                ui.visuals().error_fg_color,
            );
        }
    }
}

// ANCHOR: project
/// Where a world point lands in a viewport `size` units wide and high (pixels or
/// points) whose top left corner is `(0, 0)`: its clip coordinates `clip_from_world ·
/// (world, 1)`, then those divided by `w` (normalised device coordinates, −1 to 1 across
/// the viewport, y up), then the position in the viewport, y down. `None` behind the
/// camera.
pub fn project(
    clip_from_world: Mat4,
    size: [f32; 2],
    world: Vec3,
) -> Option<(Vec4, Vec3, [f32; 2])> {
    let clip = clip_from_world * world.extend(1.0);
    if clip.w <= scene::LEAST_W {
        return None;
    }
    let ndc = clip.truncate() / clip.w;
    let at = [(ndc.x + 1.0) * 0.5 * size[0], (1.0 - ndc.y) * 0.5 * size[1]];
    Some((clip, ndc, at))
}
// ANCHOR_END: project

/// Where a world point lands on screen in a viewport drawn in `rect` with
/// `clip_from_world` (a page's last drawn view, say); `None` behind the camera.
pub fn on_screen(clip_from_world: Mat4, rect: Rect, world: Vec3) -> Option<Pos2> {
    let (_, _, [x, y]) = project(clip_from_world, [rect.width(), rect.height()], world)?;
    Some(rect.min + egui::vec2(x, y))
}
