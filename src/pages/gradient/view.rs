//! The viewport: two points, two frames, or two poses, and the gradient between them.

use super::draw::{A_COLOR, B_COLOR, PINK, backdrop, corner_note, dim, font, grid, pointer};
use super::frames::{Frame2, vector_between};
use super::link_values::LIMIT;
use super::{Drag, GradientPage, Section};
use crate::link::Named;
use crate::ui::viewport::{caption_ui, room_below};
use crate::ui::{AXIS_COLORS, Viewport, rgba};
use egui::{Align2, Color32, FontId, Pos2, Ui};
use glam::{Vec2, Vec3};
use scene::{Palette, SkinnedDraw};

pub(super) fn section_index(section: Section) -> usize {
    Section::ALL.iter().position(|s| *s == section).unwrap_or(0)
}

/// Where the pointer ray meets the plane `z = z`: frames live in the xy plane.
fn on_plane_z(vp: &Viewport, screen: Pos2, z: f32) -> Option<Vec3> {
    let (origin, dir) = vp.ray(screen);
    if dir.z.abs() < 1e-4 {
        return None;
    }
    let point = origin + dir * ((z - origin.z) / dir.z);
    point.is_finite().then_some(point)
}

/// How near, in points, a dragged point snaps onto the other.
const SNAP: f32 = 10.0;

/// Rounds to hundredths, so dragged numbers read cleanly and links stay short, and
/// keeps within ±[`LIMIT`], as far as a link goes.
fn tidy(v: f32) -> f32 {
    crate::ui::numbers::rounded(v.clamp(-LIMIT, LIMIT), 2)
}

/// Draws the section picker, the viewport for the current section, and its caption.
pub fn viewport_ui(page: &mut GradientPage, ui: &mut Ui) {
    ui.horizontal_wrapped(|ui| {
        ui.label("Show:");
        for &section in Section::ALL {
            if ui
                .selectable_label(page.section == section, section.label())
                .clicked()
            {
                page.section = section;
                page.dragging = None;
                page.scroll_to.set(Some(section.first_cell().into()));
            }
        }
    });
    let index = section_index(page.section);
    let caption = match page.section {
        Section::Points => {
            "Drag a or b. The pink arrow is ab = b − a. Drag elsewhere to pan, scroll to zoom."
        }
        Section::Matrices => {
            "Dim arrows, grey F: frame a. Bright arrows, yellow F: frame b, drawn by the skinning shader as ab · a. Pink: the gradient ab carries a's origin and axes onto b's. Drag an origin to move its frame; drag elsewhere to pan, scroll to zoom."
        }
        Section::Poses => {
            "Grey: the bind pose (palette = identity). Orange: the target pose (palette = gradients). Pink arrows: each gradient carries its joint from the bind pose to the target pose. Drag a joint to turn its parent (drag the hips to move the figure); click a joint to select it; drag elsewhere to orbit."
        }
    };
    // The scrub's step, when one is shown, heads the caption: under the scene, not on it.
    let caption = match (page.section, page.scrub_note()) {
        (Section::Matrices, Some(note)) => {
            format!("{note} Grey F: frame a. Yellow F: frame b, drawn as ab · a. Pink: ab.")
        }
        _ => caption.to_owned(),
    };
    let caption = caption.as_str();
    let height = ui.available_height() - room_below(ui, caption, 0);
    let vp = Viewport::new(ui, height, &page.cameras[index]);
    match page.section {
        Section::Points => points_ui(page, ui, &vp),
        Section::Matrices => frames_ui(page, ui, &vp),
        Section::Poses => super::pose_view::poses_ui(page, ui, &vp),
    }
    if page.dragging.is_none() {
        vp.camera_input(ui, &mut page.cameras[index]);
    }
    caption_ui(ui, caption);
}

/// Text beside `at`, pushed out in direction `away` (screen space) when that side is
/// free, else where it keeps clear of the viewport's other labels.
fn away_label(ui: &Ui, vp: &Viewport, at: Pos2, away: egui::Vec2, text: &str, color: Color32) {
    vp.label(ui, at, text, font(), color, away);
}

/// Whole numbers along the x and y axes of the plane, to read positions by; a number
/// that would sit under a label or past the edge is left out.
fn axis_numbers_ui(ui: &Ui, vp: &Viewport) {
    let color = Color32::from_gray(140);
    for i in -12..=12 {
        if i == 0 {
            continue;
        }
        let t = i as f32;
        if let Some(p) = vp.to_screen(Vec3::new(t, 0.0, 0.0)) {
            vp.text_if_free(
                ui,
                p + egui::vec2(3.0, 3.0),
                Align2::LEFT_TOP,
                i.to_string(),
                FontId::proportional(13.0),
                color,
            );
        }
        if let Some(p) = vp.to_screen(Vec3::new(0.0, t, 0.0)) {
            vp.text_if_free(
                ui,
                p + egui::vec2(-4.0, 2.0),
                Align2::RIGHT_TOP,
                i.to_string(),
                FontId::proportional(13.0),
                color,
            );
        }
    }
}

fn points_ui(page: &mut GradientPage, ui: &Ui, vp: &Viewport) {
    let at = |p: Vec2| p.extend(0.0);
    page.handle_screen = page.points.map(|p| vp.to_screen(at(p)).unwrap_or_default());
    let (drag, _) = pointer(page, vp, &page.handle_screen.clone(), Drag::Point);
    if let Some((Drag::Point(i), screen)) = drag {
        // Dropped within a few points of the other point, a point lands on it exactly:
        // "drag a onto b" leaves the vector (0, 0), not (0.01, 0.01).
        let other = 1 - i;
        page.points[i] = if screen.distance(page.handle_screen[other]) < SNAP {
            page.points[other]
        } else {
            let p = vp.to_plane(screen);
            Vec2::new(tidy(p.x), tidy(p.y))
        };
    }
    let [a, b] = page.points;
    let ab = vector_between(a, b);
    let mut s = backdrop(vp, Vec3::Z);
    grid(&mut s, Vec3::X, Vec3::Y, 12, 1.0);
    s.arrow(at(a), at(b), 0.035, rgba(PINK));
    s.marker(at(a), 0.12, rgba(A_COLOR));
    s.marker(at(b), 0.12, rgba(B_COLOR));
    vp.paint(ui, s);
    corner_note(
        ui,
        vp,
        &format!(
            "ab = b − a = ({:.2}, {:.2})\nb  = a + ab = ({:.2}, {:.2})",
            ab.x,
            ab.y,
            (a + ab).x,
            (a + ab).y
        ),
    );
    // Each point's label sits straight above or below it, on the side away from the
    // other point, off the arrow (elsewhere when that side is taken); then `ab`
    // beside the arrow; then the axes' numbers where nothing is written.
    let [sa, sb] = page.handle_screen;
    let away = (sa - sb).normalized();
    let text = |name: &str, p: Vec2| format!("{name} ({:.2}, {:.2})", p.x, p.y);
    let vertical = |y: f32| egui::vec2(0.0, if y >= 0.0 { 1.0 } else { -1.0 });
    for (at, dir, name, p, color) in [
        (sa, away.y, "a", a, A_COLOR),
        (sb, -away.y, "b", b, B_COLOR),
    ] {
        vp.block(egui::Rect::from_center_size(at, egui::Vec2::splat(12.0)));
        away_label(ui, vp, at, vertical(dir), &text(name, p), color);
    }
    let side = egui::vec2(away.y, -away.x);
    let side = if side.y < 0.0 { -side } else { side };
    if let Some(middle) = vp.to_screen(at(a + ab * 0.5)) {
        away_label(ui, vp, middle, side, &text("ab", ab), PINK);
    }
    axis_numbers_ui(ui, vp);
}

fn frames_ui(page: &mut GradientPage, ui: &Ui, vp: &Viewport) {
    page.handle_screen = page
        .frames
        .map(|m| vp.to_screen(m.w_axis.truncate()).unwrap_or_default());
    let (drag, _) = pointer(page, vp, &page.handle_screen.clone(), Drag::Frame);
    if let Some((Drag::Frame(i), screen)) = drag
        && let Some(p) = on_plane_z(vp, screen, page.frames[i].w_axis.z)
    {
        let (x, y) = (tidy(p.x), tidy(p.y));
        if page.frames[i] == page.turns[i].to_mat4() {
            let turn = Frame2 {
                origin: Vec2::new(x, y),
                ..page.turns[i]
            };
            page.set_turn(i, turn);
        } else {
            let mut m = page.frames[i];
            m.w_axis.x = x;
            m.w_axis.y = y;
            page.set_frame(i, m);
        }
    }
    let [a, b] = page.frames;
    let ab = page.frame_gradient();
    let light = page.cameras[1].light_dir();
    let mut s = backdrop(vp, light);
    grid(&mut s, Vec3::X, Vec3::Y, 6, 1.0);
    for (m, k, radius) in [(a, 0.5, 0.025), (b, 1.0, 0.035)] {
        let origin = m.w_axis.truncate();
        for (axis, color) in AXIS_COLORS[..3].iter().enumerate() {
            let tip = origin + m.col(axis).truncate();
            // The frames turn in the xy plane: z, pointing out of it, is a thin line
            // that does not hide the rest.
            if axis < 2 {
                s.arrow(origin, tip, radius, dim(*color, k));
            } else {
                s.line(origin, tip, dim(*color, k));
            }
            s.letter_axis(origin, tip, axis);
        }
    }
    // The letter is modelled in a frame's own space: the palette places it. Frame b's
    // copy is drawn with `ab · a`, the gradient applied on top of a.
    s.skinned.push(SkinnedDraw::lines(
        page.assets.letter.clone(),
        Palette::Matrices(vec![a]),
        dim(A_COLOR, 0.9),
        3.0,
    ));
    s.skinned.push(SkinnedDraw::lines(
        page.assets.letter.clone(),
        Palette::Matrices(vec![ab * a]),
        rgba(B_COLOR),
        3.0,
    ));
    let pink = rgba(PINK);
    s.arrow(a.w_axis.truncate(), b.w_axis.truncate(), 0.03, pink);
    for axis in [Vec3::X, Vec3::Y] {
        s.line(a.transform_point3(axis), b.transform_point3(axis), pink);
    }
    vp.paint(ui, s);
    // While the scrub runs, its steps name the factors instead, in the caption.
    if page.scrub_step().is_none() {
        corner_note(
            ui,
            vp,
            "ab = b · a⁻¹ carries frame a onto frame b\nb  = ab · a",
        );
    }
    // Each frame's name sits opposite its x and y arrows; `ab` beside the pink arrow.
    for (m, name, color) in [(a, "a", A_COLOR), (b, "b", B_COLOR)] {
        let origin = m.w_axis.truncate();
        let screen = |p: Vec3| vp.to_screen(p).unwrap_or_default();
        let o = screen(origin);
        let away = -((screen(m.transform_point3(Vec3::X)) - o).normalized()
            + (screen(m.transform_point3(Vec3::Y)) - o).normalized());
        away_label(ui, vp, o, away.normalized(), name, color);
    }
    let (sa, sb) = (page.handle_screen[0], page.handle_screen[1]);
    let along = (sb - sa).normalized();
    let side = egui::vec2(along.y, -along.x);
    let side = if side.y < 0.0 { -side } else { side };
    away_label(ui, vp, sa + (sb - sa) * 0.5, side, "ab", PINK);
    page.scrub_overlay_ui(ui, vp);
}
