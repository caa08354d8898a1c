//! What a frame put where, for the scripts and tests that check the app on other
//! screens: the largest viewport, and the controls a finger must hit that are smaller
//! than it can. Kept per frame in egui's memory; reading them costs nothing when no one
//! asks.

use egui::{Context, Id, Pos2, Rect};

/// What the current frame drew, by egui's pass number.
#[derive(Clone, Default)]
struct Marks {
    pass: u64,
    /// The largest viewport, in points.
    viewport: Option<Rect>,
    /// Blocks of prose: a link inside one is a word in a sentence, sized by its text
    /// (WCAG 2.5.8 leaves such inline targets out of its target size).
    prose: Vec<Rect>,
    /// What a tap or a drag in a viewport takes, where it is on screen (only while
    /// [`recording`]).
    targets: Vec<(Target, Pos2)>,
    /// Controls a script looks for by name, such as the compact bar's menu or a field
    /// that takes typed text (only while [`recording`]).
    controls: Vec<(&'static str, Rect)>,
    /// How far the notebook's content reached past its column, in points.
    notebook_overflow: f32,
    /// Each notebook cell drawn: its name, the top of its content and the notebook's
    /// visible rectangle (only while [`recording`]).
    cells: Vec<(String, f32, Rect)>,
    /// Whether the notebook is scrolled as far down as it goes.
    notebook_at_end: bool,
}

/// What a tap or a drag in a viewport can take.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// A joint: a drag turns it (the grid's circles), a tap picks it.
    Joint,
    /// A vertex: a tap picks it.
    Vertex,
}

fn recording_id() -> Id {
    Id::unique("skinlab marks recording")
}

/// Whether pages note their [`Target`]s: only for a script that asks (the browser
/// check), so a reader's frames do not pay for it.
pub fn recording(ctx: &Context) -> bool {
    ctx.data(|d| d.get_temp::<bool>(recording_id()))
        .unwrap_or(false)
}

/// Has pages note their [`Target`]s from now on, or not.
pub fn set_recording(ctx: &Context, on: bool) {
    ctx.data_mut(|d| d.insert_temp(recording_id(), on));
}

/// Notes `points`, the screen positions of things of kind `target` (while
/// [`recording`]).
pub fn targets_drawn(ctx: &Context, target: Target, points: impl IntoIterator<Item = Pos2>) {
    if recording(ctx) {
        with_marks(ctx, |m| {
            m.targets.extend(
                points
                    .into_iter()
                    .map(|p| (target, p))
                    .filter(|(_, p)| p.is_finite()),
            );
        });
    }
}

/// How far apart, in points, a joint and a vertex must be for a finger to take the one
/// it aims at (a script's, that checks the app by touch).
pub const CLEARANCE: f32 = 24.0;

/// Where to aim at a `target` in the last frame's largest viewport: of those noted at
/// least `margin` points inside the viewport, the one farthest from anything of another
/// kind (so that a tap takes it and not its neighbour), with how far that is. Clear of
/// the others when the distance is over `margin`; crowded otherwise, and then the place
/// to spread two fingers over, to bring the marks apart.
pub fn aim_at(ctx: &Context, target: Target, margin: f32) -> Option<(Pos2, f32)> {
    let marks = ctx.data(|d| d.get_temp::<Marks>(id()))?;
    let view = marks.viewport?.shrink(margin);
    let others: Vec<Pos2> = marks
        .targets
        .iter()
        .filter(|(kind, _)| *kind != target)
        .map(|(_, p)| *p)
        .collect();
    let clearance = |p: Pos2| {
        others
            .iter()
            .map(|o| o.distance(p))
            .fold(f32::INFINITY, f32::min)
    };
    marks
        .targets
        .iter()
        .filter(|(kind, p)| *kind == target && view.contains(*p))
        .map(|(_, p)| (*p, clearance(*p)))
        .max_by(|a, b| a.1.min(4.0 * margin).total_cmp(&b.1.min(4.0 * margin)))
}

fn id() -> Id {
    Id::unique("skinlab marks")
}

/// This frame's marks, begun afresh on a new frame.
fn with_marks<R>(ctx: &Context, f: impl FnOnce(&mut Marks) -> R) -> R {
    let pass = ctx.cumulative_pass_nr();
    ctx.data_mut(|d| {
        let marks = d.get_temp_mut_or_default::<Marks>(id());
        if marks.pass != pass {
            *marks = Marks {
                pass,
                ..Marks::default()
            };
        }
        f(marks)
    })
}

/// Notes a field that takes typed text (while [`recording`]), if it is wholly shown,
/// as the control named `field`.
pub fn field_drawn(response: &egui::Response) {
    if response.interact_rect == response.rect {
        control_drawn(response, "field");
    }
}

/// Notes a control a script looks for by `name` (while [`recording`]).
pub fn control_drawn(response: &egui::Response, name: &'static str) {
    if recording(&response.ctx) {
        with_marks(&response.ctx, |m| m.controls.push((name, response.rect)));
    }
}

/// Where the first control noted as `name` in the last frame is, if it lies wholly on
/// screen.
pub fn shown_control(ctx: &Context, name: &str) -> Option<Rect> {
    let screen = ctx.content_rect();
    let marks = ctx.data(|d| d.get_temp::<Marks>(id()))?;
    marks
        .controls
        .into_iter()
        .find(|(n, r)| *n == name && screen.contains_rect(*r))
        .map(|(_, r)| r)
}

/// Notes how far the notebook's content reached past its column, in points (0 when it
/// fits): anything wider than a phone's screen is cut off at its edge.
pub fn notebook_laid_out(ctx: &Context, overflow: f32) {
    with_marks(ctx, |m| m.notebook_overflow = overflow.max(0.0));
}

/// Notes whether the notebook is scrolled as far down as it goes.
pub fn notebook_scrolled(ctx: &Context, at_end: bool) {
    with_marks(ctx, |m| m.notebook_at_end = at_end);
}

/// How far the notebook's content reached past its column in the last frame, in
/// points.
pub fn notebook_overflow(ctx: &Context) -> f32 {
    ctx.data(|d| d.get_temp::<Marks>(id()))
        .map_or(0.0, |m| m.notebook_overflow)
}

/// Notes a viewport drawn at `rect`.
pub fn viewport_drawn(ctx: &Context, rect: Rect) {
    with_marks(ctx, |m| {
        if m.viewport.is_none_or(|v| v.area() < rect.area()) {
            m.viewport = Some(rect);
        }
    });
}

/// Notes a block of prose drawn at `rect`.
pub fn prose_drawn(ctx: &Context, rect: Rect) {
    with_marks(ctx, |m| m.prose.push(rect));
}

/// The largest viewport the last frame drew, in points.
pub fn largest_viewport(ctx: &Context) -> Option<Rect> {
    let pass = ctx.cumulative_pass_nr();
    ctx.data(|d| d.get_temp::<Marks>(id()))
        .filter(|m| m.pass + 1 >= pass)
        .and_then(|m| m.viewport)
}

/// The controls of the last frame that take a click and are shorter than `least`
/// points, wholly shown, neither disabled, nor a link inside prose, nor a scroll bar (a
/// finger scrolls the area itself): their rectangles, in points.
pub fn small_controls(ctx: &Context, least: f32) -> Vec<Rect> {
    let screen = ctx.content_rect();
    let scroll = ctx.global_style().spacing.scroll;
    let bar = scroll.bar_width.max(scroll.floating_width) + scroll.bar_inner_margin;
    let scroll_bar = |r: &Rect| {
        let (thin, long) = (r.width().min(r.height()), r.width().max(r.height()));
        thin <= bar + 0.5 && long > 2.0 * thin
    };
    let prose = ctx
        .data(|d| d.get_temp::<Marks>(id()))
        .map(|m| m.prose)
        .unwrap_or_default();
    ctx.viewport(|v| {
        v.prev_pass
            .widgets
            .layers()
            .flat_map(|(_, widgets)| widgets.iter())
            // Wholly shown: one cut by the edge of a scrolled area is not there yet.
            .filter(|w| w.enabled && w.visible && w.sense.senses_click())
            .filter(|w| w.interact_rect == w.rect)
            .map(|w| w.rect)
            .filter(|r| r.height() < least - 0.5 && screen.contains_rect(*r) && !scroll_bar(r))
            .filter(|r| !prose.iter().any(|p| p.contains_rect(*r)))
            .collect()
    })
}

/// Notes a notebook cell drawn whose content starts at the top of `ui` (while
/// [`recording`]).
#[cfg_attr(target_arch = "wasm32", allow(unused_variables))]
pub fn cell_drawn(ui: &egui::Ui, cell: &str) {
    // Read by the kittests only: the web app leaves it out.
    #[cfg(not(target_arch = "wasm32"))]
    if recording(ui.ctx()) {
        let at = (cell.to_owned(), ui.cursor().top(), ui.clip_rect());
        with_marks(ui.ctx(), |m| m.cells.push(at));
    }
}

fn aimed_id() -> Id {
    Id::unique("skinlab marks aimed at")
}

/// Notes that the notebook scrolled to `cell`, as a link asked (while [`recording`]).
/// Kept until the next such scroll.
#[cfg_attr(target_arch = "wasm32", allow(unused_variables))]
pub fn cell_aimed_at(ctx: &Context, cell: &str) {
    // Read by the kittests only: the web app leaves it out.
    #[cfg(not(target_arch = "wasm32"))]
    if recording(ctx) {
        ctx.data_mut(|d| d.insert_temp(aimed_id(), cell.to_owned()));
    }
}

/// The cell the notebook last scrolled to for a link, with where its content started
/// in the last frame, the notebook's visible rectangle, and whether the notebook was
/// scrolled as far down as it goes (a last cell cannot come higher).
pub fn aimed_cell(ctx: &Context) -> Option<(String, f32, Rect, bool)> {
    let cell = ctx.data(|d| d.get_temp::<String>(aimed_id()))?;
    let at_end = ctx.data(|d| d.get_temp::<Marks>(id()))?.notebook_at_end;
    let (top, shown) = drawn_cell(ctx, &cell)?;
    Some((cell, top, shown, at_end))
}

/// Where `cell`'s content started in the last frame, and the notebook's visible
/// rectangle, if the cell was drawn (while [`recording`]).
pub fn drawn_cell(ctx: &Context, cell: &str) -> Option<(f32, Rect)> {
    let marks = ctx.data(|d| d.get_temp::<Marks>(id()))?;
    let (_, top, shown) = marks.cells.into_iter().find(|(c, _, _)| c == cell)?;
    Some((top, shown))
}

/// Forgets the cell last scrolled to.
pub fn forget_aim(ctx: &Context) {
    ctx.data_mut(|d| d.remove_temp::<String>(aimed_id()));
}
