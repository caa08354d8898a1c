//! The viewport: the rig in the plane, the mesh drawn by the skinning shader with the
//! stage's palette, the head vertex of the binding example, and the pose sliders.

use super::data::{self, HEAD, HEAD_VERTEX, JOINT_COUNT, JOINT_NAMES};
use super::{BindingPage, Stage};
use crate::link::Named;
use crate::pages::predict::Predicts;
use crate::pages::predict::{Grab, grab, guess_marker_ui};
use crate::ui::pick::{PICK_RADIUS, nearest};
use crate::ui::viewport::{caption_ui, room_below};
use crate::ui::{Viewport, angle_slider_ui};
use egui::{Align2, Color32, FontId, Ui};
use glam::{Mat4, Vec3};
use scene::{Palette, Scene, SkinnedDraw};
use std::f32::consts::{FRAC_PI_2, PI};

/// One colour per joint: the joint's circle, and the vertices it moves.
pub const JOINT_COLORS: [Color32; JOINT_COUNT] = [
    Color32::from_rgb(225, 115, 20),
    Color32::from_rgb(20, 150, 170),
    Color32::from_rgb(165, 50, 200),
];
/// Where the mesh belongs.
const GHOST: [f32; 4] = [0.62, 0.62, 0.64, 1.0];
/// The stored numbers drawn with no skeleton: darker, as they sit inside the chest.
const STORED: [f32; 4] = [0.3, 0.3, 0.33, 1.0];
/// The bones of the bind pose, as the inverse binds remember it.
const BIND_BONES: [f32; 4] = [0.45, 0.45, 0.5, 1.0];
const BONES: [f32; 4] = [0.2, 0.2, 0.22, 1.0];
const WARN: Color32 = Color32::from_rgb(190, 30, 30);
const INK: Color32 = Color32::from_gray(30);
/// The head's bone, up its own y axis, for drawing only.
const HEAD_TIP: Vec3 = Vec3::new(0.0, 1.1, 0.0);

fn font(size: f32) -> FontId {
    FontId::proportional(size)
}

/// `(x, y)` with two decimals and no `-0.00`.
pub(super) fn point_text(p: Vec3) -> String {
    use crate::ui::matrix::fixed2;
    format!("({}, {})", fixed2(p.x), fixed2(p.y))
}

/// Each joint's bone, from its origin to the next joint (the head to its tip).
fn bones(world: &[Mat4]) -> Vec<(Vec3, Vec3)> {
    (0..world.len())
        .map(|j| {
            let from = world[j].transform_point3(Vec3::ZERO);
            let to = match world.get(j + 1) {
                Some(child) => child.transform_point3(Vec3::ZERO),
                None => world[j].transform_point3(HEAD_TIP),
            };
            (from, to)
        })
        .collect()
}

/// Draws the stage picker, the viewport, the pose sliders and a caption.
pub fn viewport_ui(page: &mut BindingPage, ui: &mut Ui) {
    // On a phone the picture keeps the room: the stages in a list that opens, and the
    // turn sliders (a finger turns the joints in the picture) behind a button, on one row.
    let phone = crate::ui::screen(ui.ctx()).compact;
    let turns_id = ui.scope_id().with("binding turns shown");
    let mut turns = phone && ui.data(|d| d.get_temp::<bool>(turns_id).unwrap_or(false));
    let mut chosen = None;
    let mut stages_ui = |ui: &mut Ui| {
        for &stage in Stage::ALL {
            if ui
                .selectable_label(page.stage == stage, stage.label())
                .clicked()
            {
                chosen = Some(stage);
            }
        }
    };
    ui.horizontal_wrapped(|ui| {
        let label = ui.label("Show:");
        if phone {
            egui::ComboBox::from_id_salt("binding stage")
                .selected_text(page.stage.short_label())
                .show_ui(ui, stages_ui)
                .response
                .labelled_by(label.id);
            if ui.toggle_value(&mut turns, "Turn sliders").changed() {
                ui.data_mut(|d| d.insert_temp(turns_id, turns));
            }
        } else {
            stages_ui(ui);
        }
    });
    if let Some(stage) = chosen {
        page.stage = stage;
        page.scroll_to(stage.first_cell());
    }
    // Read before the viewport, which leaves room for it: the sliders, the button and
    // the caption.
    let caption = match page.stage {
        Stage::JointSpace => {
            "Stage 1: each vertex follows one joint (its colour) and is stored in that joint's space; the shader gets the world matrices W. Drag a joint circle to turn it; click one to select it; drag elsewhere to pan, scroll to zoom."
        }
        Stage::BindSpace => {
            if page.answer_hidden() {
                "Stage 2, predicting: the mesh is hidden until you reveal, so it cannot give the answer away. Drag the blue ring to where the head vertex lands; drag a joint circle to turn it; drag elsewhere to pan."
            } else {
                "Stage 2: vertices stored in bind space, blended near the joints (mixed colours); the shader gets W · B⁻¹. Grey bones: the bind pose B remembers. Drag a joint circle to turn it; click one to select it; drag elsewhere to pan."
            }
        }
    };
    let rows = if phone && !turns { 0 } else { 4 };
    let height = ui.available_height() - room_below(ui, caption, rows);
    let vp = Viewport::new(ui, height, &page.camera);
    let world = page.world_from_joint();
    page.joint_screen = std::array::from_fn(|j| {
        vp.to_screen(world[j].transform_point3(Vec3::ZERO))
            .unwrap_or_default()
    });
    let guess_screen = |page: &BindingPage| {
        page.prediction
            .filter(|_| page.stage == Stage::BindSpace)
            .and_then(|p| vp.to_screen(p.guess.extend(0.0)))
    };
    page.guess_screen = guess_screen(page);
    handle_pointer(page, &vp, &world);
    page.settle_prediction();
    page.guess_screen = guess_screen(page);
    if page.dragging.is_none() {
        vp.camera_input(ui, &mut page.camera);
    }
    let world = page.world_from_joint();
    vp.paint(ui, scene(page, &world, vp.clip_from_world));
    overlay_ui(page, ui, &vp);
    if !phone || turns {
        pose_ui(page, ui);
    }
    caption_ui(ui, caption);
}

/// The three turn sliders and a button that straightens the rig.
fn pose_ui(page: &mut BindingPage, ui: &mut Ui) {
    for (j, name) in JOINT_NAMES.iter().enumerate() {
        let mut angle = page.angles[j];
        let label = format!("{name} turn");
        if angle_slider_ui(ui, &mut angle, -180.0..=180.0, &label, 0) {
            page.angles[j] = angle;
            page.joint = j;
        }
    }
    if ui.button("Straighten (turns to 0)").clicked() {
        page.angles = [0.0; JOINT_COUNT];
    }
}

/// The angle of a joint's y axis in the plane: where its bone points.
fn bone_angle(world: &Mat4) -> f32 {
    world.y_axis.y.atan2(world.y_axis.x)
}

fn handle_pointer(page: &mut BindingPage, vp: &Viewport, world: &[Mat4]) {
    let r = &vp.response;
    if r.drag_started()
        && let Some(origin) = r.ctx.input(|i| i.pointer.press_origin())
    {
        // The guess moves only while it is hidden.
        let guess = page.guess_screen.filter(|_| page.answer_hidden());
        page.dragging = grab(origin, guess, &page.joint_screen);
        if let Some(Grab::Joint(joint)) = page.dragging {
            page.joint = joint;
        }
    }
    if let (Some(Grab::Guess), Some(at)) = (page.dragging, r.interact_pointer_pos())
        && r.dragged()
    {
        page.prediction_mut().set_guess(vp.to_plane(at).truncate());
    }
    if let (Some(Grab::Joint(joint)), Some(at)) = (page.dragging, r.interact_pointer_pos())
        && r.dragged()
    {
        // Aim the joint's bone (its y axis) at the pointer: the turn is the pointer's
        // direction less the parent's, less the quarter turn from x to y.
        let d = vp.to_plane(at) - world[joint].transform_point3(Vec3::ZERO);
        if d.length() > 1e-3 {
            let parent = match joint.checked_sub(1) {
                Some(p) => bone_angle(&world[p]),
                None => FRAC_PI_2,
            };
            let local = d.y.atan2(d.x) - parent;
            page.angles[joint] = (local + PI).rem_euclid(2.0 * PI) - PI;
        }
    }
    if r.drag_stopped() {
        page.dragging = None;
    }
    if r.clicked()
        && let Some(at) = r.interact_pointer_pos()
        && let Some(joint) = nearest(page.joint_screen, at, PICK_RADIUS)
    {
        page.joint = joint;
    }
}

fn scene(page: &BindingPage, world: &[Mat4], clip_from_world: Mat4) -> Scene {
    let mut scene = Scene {
        clip_from_world,
        light_dir: Vec3::Z,
        background: [0.97, 0.97, 0.96, 1.0],
        ..Default::default()
    };
    // A unit grid, with the ground line y = 0 darker. The vertical line x = 0 is left
    // faint: the straight bind bones run along it.
    let faint = [0.87, 0.87, 0.85, 1.0];
    for i in -8..=8 {
        let t = i as f32;
        scene.backdrop_line(Vec3::new(t, -4.0, 0.0), Vec3::new(t, 9.0, 0.0), faint);
        let c = if i == -1 {
            [0.7, 0.7, 0.68, 1.0]
        } else {
            faint
        };
        scene.backdrop_line(
            Vec3::new(-8.0, t + 1.0, 0.0),
            Vec3::new(8.0, t + 1.0, 0.0),
            c,
        );
    }
    let mesh = page.mesh().clone();
    let plain = page.plain_mesh().clone();
    match page.stage {
        Stage::JointSpace => {
            if page.show_stored {
                let identity = vec![Mat4::IDENTITY; JOINT_COUNT];
                scene.skinned.push(SkinnedDraw::lines(
                    plain.clone(),
                    Palette::Matrices(identity),
                    STORED,
                    2.0,
                ));
            }
        }
        Stage::BindSpace => {
            // The bind pose the inverse binds remember: world_from_joint = inverse(B).
            let at_bind: Vec<Mat4> = page.joint_from_bind.iter().map(|b| b.inverse()).collect();
            for (from, to) in bones(&at_bind) {
                scene.line(from, to, BIND_BONES);
                scene.marker(from, 0.07, BIND_BONES);
            }
            if page.forget_inverse_bind && page.draws_mesh() {
                let correct = data::palette(world, &page.joint_from_bind, false);
                scene.skinned.push(SkinnedDraw::lines(
                    plain.clone(),
                    Palette::Matrices(correct),
                    GHOST,
                    2.0,
                ));
            }
        }
    }
    if page.draws_mesh() {
        scene.skinned.push(SkinnedDraw::lines(
            mesh,
            Palette::Matrices(page.uploaded()),
            [1.0, 1.0, 1.0, 1.0],
            3.0,
        ));
    }
    for (from, to) in bones(world) {
        scene.line(from, to, BONES);
    }
    for w in world {
        scene.axes(w, 0.4);
    }
    scene
}

fn overlay_ui(page: &BindingPage, ui: &Ui, vp: &Viewport) {
    // Notes first, marks next, then the labels, each placed clear of what came before.
    let banner = match page.stage {
        Stage::JointSpace => "Stage 1: palette = W".to_owned(),
        // While predicting, the mesh and its grey outline are hidden.
        Stage::BindSpace if page.forget_inverse_bind && page.answer_hidden() => {
            "Inverse bind forgotten:\npalette = W, not W · B⁻¹.".to_owned()
        }
        Stage::BindSpace if page.forget_inverse_bind => {
            "Inverse bind forgotten:\npalette = W, not W · B⁻¹.\nGrey: where the mesh belongs."
                .to_owned()
        }
        Stage::BindSpace => "Stage 2: palette = W · B⁻¹".to_owned(),
    };
    let color = if page.forget_inverse_bind && page.stage == Stage::BindSpace {
        WARN
    } else {
        INK
    };
    vp.note(ui, Align2::LEFT_TOP, banner, font(16.0), color);
    page.scrub_note_ui(ui, vp);
    let painter = ui.painter_at(vp.rect());
    for (j, at) in page.joint_screen.iter().enumerate() {
        let selected = j == page.joint;
        let stroke = egui::Stroke::new(if selected { 3.5 } else { 2.0 }, JOINT_COLORS[j]);
        painter.circle(*at, 10.0, Color32::from_white_alpha(210), stroke);
        vp.block(egui::Rect::from_center_size(*at, egui::Vec2::splat(22.0)));
    }
    let hidden = page.stage == Stage::BindSpace && page.answer_hidden();
    // Where the head vertex belongs, with the inverse bind forgotten: on the head
    // joint itself (the vertex is (0, 0) in head space), so the head's own name says
    // it rather than a second label crowding the same ring.
    let belongs = (page.stage == Stage::BindSpace && page.forget_inverse_bind && !hidden)
        .then(|| {
            let palette = data::palette(&page.world_from_joint(), &page.joint_from_bind, false);
            let skin = &page.assets.bind_space.skin;
            let home = skin::lbs::blended_matrix(&palette, &skin.influences[HEAD_VERTEX])
                .transform_point3(skin.positions[HEAD_VERTEX]);
            Some((home, vp.to_screen(home)?))
        })
        .flatten();
    let on_head = |at: egui::Pos2| {
        page.joint_screen
            .get(HEAD)
            .is_some_and(|head| head.distance(at) < 12.0)
    };
    if let Some((home, at)) = belongs {
        painter.circle_stroke(at, 5.0, egui::Stroke::new(2.0, INK));
        if !on_head(at) {
            let text = format!("belongs at {}", point_text(home));
            let grey = Color32::from_gray(90);
            vp.label(ui, at, text, font(15.0), grey, egui::vec2(1.0, 1.0));
        }
    }
    // Joint names at their rings, to the left first: the bones run up and to the
    // right. Off the body's lines, a leader joins a name to its ring.
    for (j, at) in page.joint_screen.iter().enumerate() {
        let size = if j == page.joint { 17.0 } else { 15.0 };
        let left = egui::vec2(-1.0, 0.0);
        let name = match belongs {
            Some((_, there)) if j == HEAD && on_head(there) => {
                format!("{}: vertex belongs here", JOINT_NAMES[j])
            }
            _ => JOINT_NAMES[j].to_owned(),
        };
        vp.label(ui, *at, name, font(size), JOINT_COLORS[j], left);
    }
    if page.stage == Stage::JointSpace && page.show_stored {
        // A key to the dark grey mesh, which has no one point to label.
        let text = "dark grey: the stored numbers, no skeleton";
        vp.note(ui, Align2::LEFT_BOTTOM, text, font(15.0), INK);
    }
    // Stage 1 marks the vertex its cell works through; stage 2 the head vertex (not
    // while predicting where it lands).
    let marked = match page.stage {
        Stage::JointSpace => {
            let v = data::sample_vertex(page.joint);
            Some((v, format!("vertex {v}")))
        }
        Stage::BindSpace => (!hidden).then(|| (HEAD_VERTEX, "head vertex".to_owned())),
    };
    if let Some((v, name)) = marked
        && let Some(&placed) = page.skinned().get(v)
        && let Some(at) = vp.to_screen(placed)
    {
        painter.circle_filled(at, 5.0, INK);
        vp.block(egui::Rect::from_center_size(at, egui::Vec2::splat(10.0)));
        let text = format!("{name} {}", point_text(placed));
        vp.label(ui, at, text, font(16.0), INK, egui::vec2(1.0, -1.0));
    }
    page.scrub_overlay_ui(ui, vp);
    if let (Some(guess), Some(_)) = (page.guess_screen, page.prediction) {
        let judged = page
            .judgement()
            .and_then(|(truth, j)| Some((vp.to_screen(truth.extend(0.0))?, j)));
        guess_marker_ui(ui, vp, guess, "your guess", judged, INK);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_bone_runs_from_its_joint_to_the_next() {
        let world = data::world_from_joint([0.0; JOINT_COUNT]);
        let b = bones(&world);
        assert_eq!(b[0], (Vec3::ZERO, Vec3::Y));
        assert_eq!(b[2].1, Vec3::new(0.0, 3.1, 0.0));
        assert!((bone_angle(&world[0]) - FRAC_PI_2).abs() < 1e-6);
    }
}
