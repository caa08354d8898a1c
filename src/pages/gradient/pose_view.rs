//! The viewport's poses section: the bind pose and the target pose overlapped, drawn by
//! the skinning shader, with each joint's gradient as an arrow.

use super::draw::{
    B_COLOR, GHOST_COLOR, PINK, TARGET_COLOR, backdrop, corner_note, font, grid, pointer,
};
use super::{Drag, GradientPage};
use crate::ui::{Viewport, rgba};
use egui::{Color32, Stroke, Ui};
use glam::{Mat4, Vec3};
use rigs::humanoid::{JOINT_COUNT, JOINTS};
use scene::{Palette, SkinnedDraw};

/// Draws the poses, follows joint drags and clicks, and labels the selected joint.
pub(super) fn poses_ui(page: &mut GradientPage, ui: &Ui, vp: &Viewport) {
    let world = page.world_from_joint();
    let position = |m: &Mat4| m.w_axis.truncate();
    page.joint_screen =
        std::array::from_fn(|j| vp.to_screen(position(&world[j])).unwrap_or_default());
    let (drag, clicked) = pointer(page, vp, &page.joint_screen.clone(), Drag::Joint);
    if let Some(j) = clicked {
        page.joint = j;
    }
    if let Some((Drag::Joint(j), screen)) = drag
        && let Some(to) = vp.on_view_plane(screen, position(&world[j]))
    {
        page.joint = j;
        drag_joint(page, &world, j, to);
    }
    let world = page.world_from_joint();
    let gradients = page.gradients();
    let bind = &page.assets.world_at_bind;
    let camera = page.cameras[2];
    let mut s = backdrop(vp, camera.light_dir());
    grid(&mut s, Vec3::X, Vec3::Z, 8, 0.25);
    // The bind pose's palette is the identity. It is drawn 5 mm further from the camera
    // so that wherever the target still coincides with it, the target shows, not a
    // flicker of both.
    let away = -camera.light_dir() * 0.005;
    s.skinned.push(SkinnedDraw::surface(
        page.assets.bones.clone(),
        Palette::Matrices(vec![Mat4::from_translation(away); JOINT_COUNT]),
        GHOST_COLOR,
    ));
    s.skinned.push(SkinnedDraw::surface(
        page.assets.bones.clone(),
        Palette::Matrices(gradients.clone()),
        TARGET_COLOR,
    ));
    for (g, b) in gradients.iter().zip(bind) {
        let from = position(b);
        let to = g.transform_point3(from);
        // The head stops short of the joint, whose ring and bones would hide it.
        let length = from.distance(to);
        if length > 1e-3 {
            let short = to - (to - from) / length * (0.3 * length).min(0.05);
            s.arrow(from, short, 0.012, rgba(PINK));
        }
    }
    let j = page.joint.min(JOINT_COUNT - 1);
    s.axes(&bind[j], 0.12);
    s.axes(&world[j], 0.18);
    vp.paint(ui, s);
    corner_note(
        ui,
        vp,
        &format!(
            "{}: gradient · bind = target\npink: the gradients",
            JOINTS[j].name
        ),
    );
    // After the note, which the joints' labels keep off.
    joints_overlay_ui(page, ui, vp);
}

/// Turns the dragged joint's parent so the joint points at `to`; the hips, which have
/// no parent, move instead.
fn drag_joint(page: &mut GradientPage, world: &[Mat4], joint: usize, to: Vec3) {
    let Some(parent) = JOINTS[joint].parent else {
        page.target[joint].translation = to;
        return;
    };
    let world_from_grandparent = JOINTS[parent].parent.map_or(Mat4::IDENTITY, |g| world[g]);
    let pivot = world[parent].w_axis.truncate();
    let from = world[joint].w_axis.truncate() - pivot;
    page.target[parent].aim(&world_from_grandparent, from, to - pivot);
}

fn joints_overlay_ui(page: &GradientPage, ui: &Ui, vp: &Viewport) {
    let painter = ui.painter_at(vp.rect());
    for (j, at) in page.joint_screen.iter().enumerate() {
        let selected = j == page.joint;
        let stroke = if selected {
            Stroke::new(3.0, B_COLOR)
        } else {
            Stroke::new(1.5, Color32::from_white_alpha(170))
        };
        let radius = if selected { 9.0 } else { 6.0 };
        painter.circle_stroke(*at, radius, stroke);
        // The ring as drawn, its stroke included.
        let across = 2.0 * radius + stroke.width;
        vp.block(egui::Rect::from_center_size(*at, egui::Vec2::splat(across)));
    }
    let at = page.joint_screen[page.joint];
    vp.label(
        ui,
        at,
        JOINTS[page.joint].name,
        font(),
        B_COLOR,
        egui::vec2(1.0, -1.0),
    );
}
