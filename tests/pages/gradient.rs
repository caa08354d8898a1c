//! The gradient page driven like a user would: drag points, frames and joints, edit
//! matrices, pick poses and joints, answer the exercise, follow links.

use crate::kit;

use egui::Vec2;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use glam::{Mat4, Vec3};
use kit::{drag, page_harness, press_check, submit, type_into};
use rigs::humanoid::JOINTS;
use rigs::poses::PRESETS;
use skin::matrix::max_difference;
use skinlab::link::Link;
use skinlab::page::{Page, open};
use skinlab::pages::gradient::{GradientPage, Section};
use skinlab::ui::matrix::cell_label;

fn joint(name: &str) -> usize {
    JOINTS.iter().position(|j| j.name == name).unwrap()
}

fn showing(section: Section) -> GradientPage {
    let mut page = GradientPage::default();
    page.section = section;
    page
}

fn opened(link: &str) -> GradientPage {
    crate::opened(link)
}

fn type_and_enter(harness: &mut Harness<'_, GradientPage>, label: &str, text: &str) {
    type_into(harness, label, text);
    harness.key_press(egui::Key::Enter);
    harness.run_steps(2);
}

fn is_identity(m: &Mat4) -> bool {
    m.abs_diff_eq(Mat4::IDENTITY, 1e-5)
}

#[test]
fn dragging_point_b_changes_the_vector_ab() {
    let mut harness = page_harness(showing(Section::Points), &["points"]);
    let a = harness.state().points[0];
    let b = harness.state().handle_screen[1];
    assert!(
        harness
            .query_by_label("ab = b − a = (4.00, 3.00) − (1.00, 1.00) = (3.00, 2.00)")
            .is_some()
    );
    drag(&mut harness, b, b + Vec2::new(80.0, -60.0));
    let page = harness.state();
    let moved = page.points[1];
    assert!(
        moved.x > 4.3 && moved.y > 3.3,
        "b moved right and up: {moved}"
    );
    assert_eq!(page.points[0], a, "a stays");
    let text = format!(
        "ab = b − a = ({:.2}, {:.2}) − (1.00, 1.00) = ({:.2}, {:.2})",
        moved.x,
        moved.y,
        moved.x - 1.0,
        moved.y - 1.0
    );
    assert!(
        harness.query_by_label(&text).is_some(),
        "the cell reads {text}"
    );
}

#[test]
fn dragging_a_number_of_point_a_moves_it_and_shows_the_points() {
    let mut harness = page_harness(GradientPage::default(), &["points"]);
    assert_eq!(
        harness.state().section,
        Section::Points,
        "it opens on the points"
    );
    // Picked by hand, another part stays while the reader stays where they are.
    harness.state_mut().section = Section::Poses;
    harness.run_steps(2);
    assert_eq!(harness.state().section, Section::Poses);
    let field = harness.get_by_label("a x").rect().center();
    drag(&mut harness, field, field + Vec2::new(50.0, 0.0));
    let page = harness.state();
    assert!(page.points[0].x > 1.1, "a.x grew: {}", page.points[0]);
    assert_eq!(
        page.section,
        Section::Points,
        "the viewport follows the cell"
    );
}

#[test]
fn a_typed_nan_point_is_refused_and_kept() {
    let mut harness = page_harness(GradientPage::default(), &["points"]);
    type_and_enter(&mut harness, "b y", "nan");
    assert_eq!(harness.state().points[1].y, 3.0);
    assert!(harness.query_by_label_contains("finite").is_some());
}

#[test]
fn editing_frame_a_changes_the_gradient_and_ab_times_a_stays_b() {
    let mut harness = page_harness(showing(Section::Matrices), &["matrices", "product"]);
    let before = harness.state().frame_gradient();
    let b = harness.state().frames[1];
    let cell = harness.get_by_label(&cell_label("a", 0, 3)).rect().center();
    drag(&mut harness, cell, cell + Vec2::new(-80.0, 0.0));
    let page = harness.state();
    assert!(
        page.frames[0].w_axis.x < -2.3,
        "a moved left: {}",
        page.frames[0]
    );
    let after = page.frame_gradient();
    assert!(
        max_difference(&before, &after) > 0.2,
        "the gradient changed"
    );
    assert!(max_difference(&(after * page.frames[0]), &b) < 1e-5);
    assert_eq!(page.frames[1], b);
    assert!(harness.query_by_label_contains("ab · a = b").is_some());
}

#[test]
fn the_turn_slider_sets_frame_b_to_a_plain_turn() {
    let mut harness = page_harness(GradientPage::default(), &["matrices"]);
    // The slider and its number box share the label: the slider is the wider one.
    let slider = harness
        .get_all_by_label("b: turn about z")
        .map(|n| n.rect())
        .max_by(|a, b| a.width().total_cmp(&b.width()))
        .unwrap();
    drag(&mut harness, slider.center(), slider.left_center());
    let page = harness.state();
    let x = page.frames[1].x_axis;
    assert!(
        x.x < -0.95,
        "b turned half way round, to -180°: x column {x}"
    );
    assert_eq!(
        page.frames[1].w_axis.truncate(),
        Vec3::new(0.5, 2.2, 0.0),
        "and did not move"
    );
    assert_eq!(page.section, Section::Matrices);
}

#[test]
fn a_singular_frame_a_is_refused_and_a_keeps_its_value() {
    let mut harness = page_harness(opened("gradient?show=matrices&ma=0,0,0"), &["matrices"]);
    // Frame a is the identity: a zero in its top-left cell leaves the x column empty.
    type_and_enter(&mut harness, &cell_label("a", 0, 0), "0");
    assert_eq!(harness.state().frames[0], Mat4::IDENTITY, "refused");
    assert!(harness.query_by_label_contains("no inverse").is_some());
    assert!(
        harness
            .query_by_label_contains("Frame a keeps its last valid value")
            .is_some()
    );
    // b may be anything finite: the gradient only needs a's inverse.
    type_and_enter(&mut harness, &cell_label("b", 0, 0), "0");
    assert_eq!(harness.state().frames[1].x_axis.x, 0.0, "accepted");
}

#[test]
fn dragging_a_frame_origin_moves_it() {
    let mut harness = page_harness(showing(Section::Matrices), &[]);
    let b = harness.state().handle_screen[1];
    let before = harness.state().frames[1];
    drag(&mut harness, b, b + Vec2::new(-70.0, 40.0));
    let after = harness.state().frames[1];
    assert!(
        after.w_axis.x < before.w_axis.x - 0.2,
        "{before} -> {after}"
    );
    assert!(
        after.w_axis.y < before.w_axis.y - 0.1,
        "{before} -> {after}"
    );
    assert_eq!(after.x_axis, before.x_axis, "a move, not a turn");
}

#[test]
fn dragging_a_hand_turns_the_forearm_and_the_gradients_follow() {
    let mut harness = page_harness(showing(Section::Poses), &["joint"]);
    let hand = joint("hand.R");
    let forearm = joint("forearm.R");
    let before = harness.state().target.clone();
    let gradient_before = harness.state().gradients()[hand];
    let at = harness.state().joint_screen[hand];
    drag(&mut harness, at, at + Vec2::new(0.0, -90.0));
    let page = harness.state();
    assert_eq!(page.joint, hand, "the dragged joint is selected");
    assert_ne!(page.target[forearm].rotation, before[forearm].rotation);
    for j in 0..JOINTS.len() {
        if j != forearm {
            assert_eq!(page.target[j], before[j], "{} stays", JOINTS[j].name);
        }
    }
    let world = page.world_from_joint();
    let elbow = world[forearm].w_axis.truncate();
    let was = opened("gradient").world_from_joint()[hand]
        .w_axis
        .truncate();
    let now = world[hand].w_axis.truncate();
    assert!(now.y > was.y + 0.05, "the hand went up: {was} -> {now}");
    assert!(
        (now.distance(elbow) - 0.26).abs() < 1e-4,
        "the forearm kept its length"
    );
    assert!(max_difference(&page.gradients()[hand], &gradient_before) > 0.05);
    assert!(
        harness
            .query_by_label_contains("gradient · bind = target")
            .is_some()
    );
}

#[test]
fn dragging_the_hips_moves_every_joint() {
    let mut harness = page_harness(showing(Section::Poses), &[]);
    let at = harness.state().joint_screen[0];
    drag(&mut harness, at, at + Vec2::new(60.0, 0.0));
    let page = harness.state();
    assert!(page.target[0].translation.distance(Vec3::Y) > 0.1);
    assert!(
        page.gradients().iter().all(|g| !is_identity(g)),
        "every joint moved with the hips"
    );
}

#[test]
fn clicking_a_joint_or_its_name_selects_it() {
    let mut harness = page_harness(showing(Section::Poses), &["joint"]);
    let at = harness.state().joint_screen[joint("shin.L")];
    harness.hover_at(at);
    harness.step();
    harness.drag_at(at);
    harness.step();
    harness.drop_at(at);
    harness.run_steps(2);
    assert_eq!(harness.state().joint, joint("shin.L"));
    harness.get_by_label("Joint:").click();
    harness.run_steps(2);
    harness.get_by_label("head").click();
    harness.run_steps(2);
    assert_eq!(harness.state().joint, joint("head"));
    assert!(
        harness
            .query_all_by_label("head local turn about x")
            .next()
            .is_some(),
        "the sliders turn the selected joint"
    );
}

#[test]
fn presets_set_the_target_and_bind_gives_identity_gradients() {
    let mut harness = page_harness(showing(Section::Poses), &["poses"]);
    harness.get_by_label("crouch").click();
    harness.run_steps(2);
    assert_eq!(harness.state().target, PRESETS[3].local());
    assert!(
        harness.state().gradients()[0].w_axis.y < -0.3,
        "the hips went down"
    );
    harness.get_by_label("bind").click();
    harness.run_steps(2);
    assert!(harness.state().gradients().iter().all(is_identity));
}

#[test]
fn the_check_cell_judges_the_gradient() {
    let mut harness = page_harness(GradientPage::default(), &["check"]);
    let answer = ["0", "-1", "3", "1", "0", "-1"];
    let labels = ["x.x", "y.x", "t.x", "x.y", "y.y", "t.y"];
    for (label, value) in labels.iter().zip(answer) {
        type_into(&mut harness, &format!("gradient {label}"), value);
    }
    press_check(&mut harness);
    assert!(harness.query_by_label("Right.").is_some());

    submit(&mut harness, &[("gradient t.y", "1")]);
    assert!(harness.query_by_label("Right.").is_none());
    assert!(
        harness
            .query_by_label_contains("Not yet: check t.y")
            .is_some()
    );

    submit(&mut harness, &[("gradient x.x", "zero")]);
    assert!(harness.query_by_label_contains("is not a number").is_some());

    harness.get_by_label("Show working").click();
    harness.run_steps(2);
    assert!(harness.query_by_label_contains("W, the target").is_some());
    // The working ends on the carried vertex, its sign kept with it.
    assert!(harness.query_by_label("= (3.0, 3.0).").is_some());

    harness.get_by_label("2").click();
    harness.run_steps(2);
    assert_eq!(harness.state().exercise, 1);
    assert!(harness.query_by_label_contains("turned 180°").is_some());
}

#[test]
fn links_reopen_the_exact_state() {
    for link in [
        "gradient?a=0,0&b=2.5,-1",
        "gradient?show=matrices&ma=0.5,1,2&mb=1,0,0,0,0,2,0,0,0,0,1,0,1,2,3,1",
        "gradient?show=poses&pose=walk&rot=forearm.L:0,0,1.2&pos=hips:0,0.9,0&joint=hand.L&question=2",
        "gradient?show=poses&pose=bind&joint=hips",
        "gradient?show=poses&rot=upper_arm.L:0,0,0",
        "gradient?show=matrices&ma=0.5,1,2",
        "gradient?show=poses&pose=walk&rot=forearm.L:0,0,1.2&joint=hand.L&question=2",
        "gradient?show=matrices&ma=0,0,0&mb=0,0,0",
        "gradient?show=poses&pose=bind&rot=upper_arm.R:0,0,1.2;forearm.R:0,0.9,0&joint=hand.R",
    ] {
        let page = opened(link);
        assert_eq!(
            page.link().to_string(),
            link,
            "`{link}` is written back as given"
        );
        let again = opened(&page.link().to_string());
        assert_eq!(again.target, page.target);
        assert_eq!(again.frames, page.frames);
        assert_eq!(again.points, page.points);
    }
    let page = opened("gradient?pose=walk&rot=forearm.L:0,0,1.2&joint=hand.L");
    assert_eq!(page.preset, 2);
    assert_eq!(
        page.target[joint("forearm.L")].rotation,
        Vec3::new(0.0, 0.0, 1.2)
    );
    assert_eq!(page.joint, joint("hand.L"));
    assert_eq!(GradientPage::default().link().to_string(), "gradient");
}

#[test]
fn a_dragged_pose_round_trips_through_its_link() {
    let mut harness = page_harness(showing(Section::Poses), &[]);
    let at = harness.state().joint_screen[joint("foot.L")];
    drag(&mut harness, at, at + Vec2::new(50.0, -70.0));
    let link = harness.state().link().to_string();
    assert!(link.contains("rot=shin.L:"), "{link}");
    let again = opened(&link);
    assert_eq!(again.target, harness.state().target);
    assert_eq!(again.joint, joint("foot.L"));
    assert_eq!(again.link().to_string(), link);
}

#[test]
fn bad_link_values_are_refused_and_the_page_stays_at_its_defaults() {
    for (link, words) in [
        (
            "gradient?pose=dance",
            &["dance", "bind", "wave", "walk", "crouch"][..],
        ),
        ("gradient?joint=elbow", &["elbow", "forearm.L", "hips"]),
        (
            "gradient?ma=0,0,0,0,0,1,0,0,0,0,1,0,0,0,0,1",
            &["inverse", "singular"],
        ),
        ("gradient?mb=1,2", &["3 numbers", "16 numbers"]),
        ("gradient?rot=forearm.L:1,2", &["three finite numbers"]),
        ("gradient?rot=elbow:1,2,3", &["elbow", "hand.R"]),
        ("gradient?pos=hips:0,1,0;hips:0,2,0", &["twice"]),
        ("gradient?zoom=2", &["zoom", "pose", "joint"]),
    ] {
        let mut page = opened("gradient?show=points&a=3,3&pose=crouch");
        let err = open(&mut page, &Link::parse(link).unwrap())
            .expect_err(link)
            .to_string();
        for word in words {
            assert!(
                err.contains(word),
                "`{link}`: `{err}` should mention `{word}`"
            );
        }
        assert_eq!(
            page.link().to_string(),
            "gradient",
            "`{link}` leaves the defaults"
        );
    }
}

#[test]
fn reset_restores_the_defaults() {
    let mut page = opened("gradient?show=matrices&a=0,0&ma=1,1,1&pose=walk&joint=head&question=3");
    assert_ne!(page.link().to_string(), "gradient");
    page.reset();
    assert_eq!(page.link().to_string(), "gradient");
    assert_eq!(page.target, PRESETS[1].local());
}

#[test]
fn a_link_scrolls_the_notebook_to_what_it_shows() {
    let all = &["points", "matrices", "product", "poses", "joint", "check"];
    let visible = |harness: &Harness<'_, GradientPage>, label: &str| {
        let rect = harness.get_by_label(label).rect();
        rect.top() >= 0.0 && rect.bottom() <= 900.0
    };
    let harness = page_harness(GradientPage::default(), all);
    assert!(!visible(&harness, "Check"), "the exercise starts far below");
    let mut harness = page_harness(opened("gradient?question=2"), all);
    harness.run_steps(3);
    assert!(
        visible(&harness, "Check"),
        "the link brought the exercise into view"
    );
}

#[test]
fn a_frame_linked_past_the_slider_range_keeps_its_place_when_drawn() {
    // The sliders reach ±4; a link (or a drag) may put an origin further out, and
    // drawing the slider must not pull it back.
    let mut harness = page_harness(opened("gradient?show=matrices&ma=0.5,6,-5"), &["matrices"]);
    harness.run_steps(3);
    let origin = harness.state().frames[0].w_axis;
    assert_eq!(
        (origin.x, origin.y),
        (6.0, -5.0),
        "the linked origin is kept"
    );
    assert_eq!(
        harness.state().link().to_string(),
        "gradient?show=matrices&ma=0.5,6,-5"
    );
}

#[test]
fn every_key_at_once_round_trips_and_each_kind_of_bad_value_is_refused() {
    kit::assert_every_key_round_trips::<GradientPage>(&[
        "gradient?show=matrices&a=0,0&b=2.5,-1&ma=0.5,1,2&mb=1,0,0,0,0,2,0,0,0,0,1,0,1,2,3,1&pose=walk&rot=forearm.L:0,0,1.2&pos=hips:0,0.9,0&joint=hand.L&scrub=1&question=2",
    ]);
    kit::assert_refused_as_declared::<GradientPage>(&["mb=0.5,1,200"]);
}

#[test]
fn scrub_links_step_the_tip_of_a_s_f_through_b_times_a_inverse() {
    let all = &["matrices", "product"];
    for (k, words) in [
        (0, "Step 0: p = "),
        (1, "Step 1: a⁻¹ · p = (0.75, 1.00)"),
        (2, "Step 2: b · a⁻¹ · p = "),
    ] {
        let link = format!("gradient?show=matrices&scrub={k}");
        let mut harness = page_harness(opened(&link), all);
        harness.run_steps(2);
        let page = harness.state();
        assert_eq!(page.scrub, Some(k), "{link}");
        assert!(
            harness.query_by_label_contains(words).is_some(),
            "{link}: the readout says `{words}`"
        );
        assert_eq!(page.link().to_string(), link, "{link} round-trips");
        // The viewport's dots are the pure function's stages so far.
        let [a, b] = page.frames;
        let p = a.transform_point3(skinlab::pages::gradient::frames::SCRUB_LOCAL);
        let stages = skinlab::pages::gradient::frames::scrub(&a, &b, p).unwrap();
        assert_eq!(page.scrub_dots(), stages[..=k].to_vec(), "{link}");
    }
    // The last stage lands where the yellow F's tip is: the gradient applied at once.
    let page = opened("gradient?show=matrices&scrub=2");
    let dots = page.scrub_dots();
    let tip = page.frame_gradient().transform_point3(dots[0]);
    assert!(dots[2].abs_diff_eq(tip, 1e-5), "{dots:?}");
    // Not scrubbing, or another section: no dots; a bad scrub keeps the good keys.
    assert!(opened("gradient?show=matrices").scrub_dots().is_empty());
    assert!(
        opened("gradient?show=points&scrub=1")
            .scrub_dots()
            .is_empty()
    );
    // A scrub alone shows the matrices, where its dots are.
    assert_eq!(opened("gradient?scrub=1").scrub_dots().len(), 2);
    let mut page = GradientPage::default();
    let err = open(
        &mut page,
        &Link::parse("gradient?show=matrices&scrub=9&ma=0.5,1,2").unwrap(),
    )
    .expect_err("scrub=9 is refused")
    .to_string();
    assert!(err.contains("scrub"), "{err}");
    assert_eq!(page.scrub, None);
    assert_eq!(page.section, Section::Matrices, "good keys still apply");
}

#[test]
fn the_scrub_box_and_slider_step_the_point_in_the_product_cell() {
    let mut harness = page_harness(GradientPage::default(), &["product"]);
    harness
        .get_by_label("Scrub the F's tip through ab, one factor at a time")
        .click();
    harness.run_steps(2);
    assert_eq!(harness.state().scrub, Some(0));
    assert_eq!(harness.state().section, Section::Matrices);
    assert_eq!(harness.state().scrub_dots().len(), 1);
    assert!(harness.query_by_label_contains("Step 0: p = ").is_some());
}

/// The page with one cell in its notebook, the one named in the state: the reader
/// "moves on" when the test names another.
fn reading_harness(
    page: GradientPage,
) -> egui_kittest::Harness<'static, (GradientPage, &'static str)> {
    let mut harness = egui_kittest::Harness::builder()
        .with_context_setup(skinlab::ui::fonts::install)
        .with_size(Vec2::new(1280.0, 900.0))
        .build_ui_state(
            |ui, (page, cell): &mut (GradientPage, &'static str)| {
                ui.columns(2, |columns| {
                    page.cell_ui(cell, &mut columns[0]);
                    columns[1].set_height(800.0);
                    page.viewport_ui(&mut columns[1]);
                });
            },
            (page, "points"),
        );
    harness.run_steps(2);
    harness
}

#[test]
fn the_viewport_follows_the_reader_but_not_what_a_link_scrolls_past() {
    let mut harness = reading_harness(GradientPage::default());
    assert_eq!(harness.state().0.section, Section::Points);
    // The reader moves on to the matrices: the viewport follows.
    harness.state_mut().1 = "matrices";
    harness.run_steps(3);
    assert_eq!(harness.state().0.section, Section::Matrices);
    // A link to the poses, while the notebook still shows the matrices (its scroll has
    // not brought the poses up yet): the link's part stays.
    let link = Link::parse("gradient?pose=crouch&joint=hips").unwrap();
    open(&mut harness.state_mut().0, &link).unwrap();
    harness.run_steps(6);
    assert_eq!(harness.state().0.section, Section::Poses);
    // The notebook reaches the link's cell (the joint's); then the reader moves on
    // again, and the
    // viewport follows once more.
    harness.state_mut().1 = "joint";
    harness.run_steps(25);
    assert_eq!(harness.state().0.section, Section::Poses);
    harness.state_mut().1 = "points";
    harness.run_steps(3);
    assert_eq!(harness.state().0.section, Section::Points);
}
