//! What both of the viewport's drawings use: the page's colours, its font, the backdrop
//! scene and grid, the pointer's place on the plane and the corner note.

use super::{Drag, GradientPage};
use crate::ui::pick::{PICK_RADIUS, nearest};
use crate::ui::{Viewport, rgba};
use egui::{Color32, FontId, Pos2, Ui};
use glam::Vec3;
use scene::Scene;

/// The colour of every gradient: the vector `ab`, the matrix `ab`, the joints' arrows.
pub(super) const PINK: Color32 = Color32::from_rgb(255, 90, 190);

/// Point and frame `a`, and the bind pose.
pub(super) const A_COLOR: Color32 = Color32::from_rgb(150, 170, 200);

/// Point and frame `b`, and the target pose.
pub(super) const B_COLOR: Color32 = Color32::from_rgb(255, 200, 60);

pub(super) const TARGET_COLOR: [f32; 4] = [0.95, 0.6, 0.3, 1.0];

pub(super) const GHOST_COLOR: [f32; 4] = [0.5, 0.52, 0.58, 1.0];

const BACKGROUND: [f32; 4] = [0.09, 0.09, 0.11, 1.0];

pub(super) fn font() -> FontId {
    FontId::proportional(16.0)
}

pub(super) fn dim(c: Color32, k: f32) -> [f32; 4] {
    // Toward a middle grey, not toward black: a dimmed axis stays visible on the dark
    // background (darkened by half, the x axis read at 1.5:1 there).
    let [r, g, b, _] = rgba(c).map(|x| x * k + DIM_GREY * (1.0 - k));
    [r, g, b, 1.0]
}

/// The grey [`dim`] moves a colour toward.
const DIM_GREY: f32 = 0.55;

/// Starts, follows and ends a drag of one of `handles`; returns the handle being dragged
/// and the pointer, while a drag goes on. A click on a handle is returned with `clicked`.
pub(super) fn pointer(
    page: &mut GradientPage,
    vp: &Viewport,
    handles: &[Pos2],
    make: fn(usize) -> Drag,
) -> (Option<(Drag, Pos2)>, Option<usize>) {
    let r = &vp.response;
    if r.drag_started()
        && let Some(origin) = r.ctx.input(|i| i.pointer.press_origin())
    {
        page.dragging = nearest(handles.iter().copied(), origin, PICK_RADIUS).map(make);
    }
    let dragging = match (page.dragging, r.interact_pointer_pos()) {
        (Some(drag), Some(at)) if r.dragged() => Some((drag, at)),
        _ => None,
    };
    if r.drag_stopped() {
        page.dragging = None;
    }
    let clicked = r
        .clicked()
        .then(|| r.interact_pointer_pos())
        .flatten()
        .and_then(|at| nearest(handles.iter().copied(), at, PICK_RADIUS));
    (dragging, clicked)
}

/// The scene both drawings start from: the viewport's camera, its light and the dark
/// backdrop, with nothing drawn yet.
pub(super) fn backdrop(vp: &Viewport, light_dir: Vec3) -> Scene {
    Scene {
        clip_from_world: vp.clip_from_world,
        light_dir,
        background: BACKGROUND,
        ..Default::default()
    }
}

/// A grid of lines in the plane spanned by `u` and `v`, with the two axes brighter.
pub(super) fn grid(scene: &mut Scene, u: Vec3, v: Vec3, half: i32, step: f32) {
    for i in -half..=half {
        let t = i as f32 * step;
        let c = if i == 0 {
            [0.45, 0.45, 0.5, 1.0]
        } else {
            [0.22, 0.22, 0.26, 1.0]
        };
        let end = half as f32 * step;
        scene.backdrop_line(u * t - v * end, u * t + v * end, c);
        scene.backdrop_line(v * t - u * end, v * t + u * end, c);
    }
}

pub(super) fn corner_note(ui: &Ui, vp: &Viewport, text: &str) {
    let painter = ui.painter_at(vp.rect());
    // Broken to fit inside the viewport, however narrow, between words and never
    // after an operator.
    let font = FontId::monospace(15.0);
    let width = (vp.rect().width() - 28.0).max(60.0);
    let text = crate::ui::listing::fit_width(ui.ctx(), &font, width, text);
    let galley = painter.layout(text.into_owned(), font, Color32::from_gray(230), width);
    let at = vp.rect().left_top() + egui::vec2(10.0, 10.0);
    let back = egui::Rect::from_min_size(at, galley.size()).expand(4.0);
    // A dark backing keeps the note readable over grid lines and bones.
    painter.rect_filled(back, 4.0, Color32::from_black_alpha(215));
    vp.block_note(ui, back);
    painter.galley(at, galley, Color32::from_gray(230));
}
