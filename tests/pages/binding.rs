//! The binding page driven like a user would: turn joints by dragging and with the
//! sliders, forget the inverse bind, bind at the current pose, edit an inverse bind
//! matrix, answer the exercise, follow links.

use crate::kit;
use skinlab::pages::predict::Predicts;

use egui::Vec2;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use glam::{Mat4, Vec3};
use kit::{drag, page_harness, press_check, shows, submit, type_into};
use skinlab::link::Link;
use skinlab::page::{Page, open};
use skinlab::pages::binding::data::{self as binding, HEAD, HEAD_VERTEX};
use skinlab::pages::binding::{BindingPage, Stage};
use skinlab::ui::check::field_label;
use skinlab::ui::matrix::{cell_label, fixed2};

fn opened(link: &str) -> BindingPage {
    crate::opened(link)
}

fn type_and_enter(harness: &mut Harness<'_, BindingPage>, label: &str, text: &str) {
    type_into(harness, label, text);
    harness.key_press(egui::Key::Enter);
    harness.run_steps(2);
}

fn close(a: &[Vec3], b: &[Vec3]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(p, q)| p.abs_diff_eq(*q, 1e-4))
}

#[test]
fn dragging_the_head_joint_to_the_right_turns_the_head_clockwise() {
    let mut harness = page_harness(BindingPage::default(), &[]);
    let before = harness.state().skinned()[HEAD_VERTEX + 3 * 3];
    let head = harness.state().joint_screen[HEAD];
    drag(&mut harness, head, head + Vec2::new(120.0, -40.0));
    let page = harness.state();
    assert!(page.angles[HEAD] < -0.8, "turned: {:?}", page.angles);
    assert_eq!(page.angles[0], 0.0, "the chest stays");
    assert_eq!(page.joint, HEAD, "the dragged joint is selected");
    let after = page.skinned()[HEAD_VERTEX + 3 * 3];
    assert!(
        after.x > before.x + 0.3,
        "the head's vertices moved right: {after}"
    );
}

#[test]
fn the_neck_slider_turns_the_neck_and_carries_the_head() {
    let mut harness = page_harness(BindingPage::default(), &[]);
    let slider = harness
        .get_all_by_label("neck turn")
        .map(|n| n.rect())
        .max_by(|a, b| a.width().total_cmp(&b.width()))
        .unwrap();
    drag(&mut harness, slider.center(), slider.left_center());
    let page = harness.state();
    assert!(page.angles[1] < -2.5, "neck at -180°: {:?}", page.angles);
    let head = page.world_from_joint()[HEAD].transform_point3(Vec3::ZERO);
    assert!(head.y < 1.1, "the head hangs below the neck now: {head}");
}

#[test]
fn forgetting_the_inverse_bind_puts_the_head_vertex_four_units_up() {
    let mut harness = page_harness(BindingPage::default(), &["forget"]);
    assert!(harness.query_by_label_contains("(0.00, 4.00)").is_some());
    harness
        .get_by_label("Forget the inverse bind (upload W instead of W · B⁻¹)")
        .click();
    harness.run_steps(2);
    let page = harness.state();
    assert!(page.forget_inverse_bind);
    assert_eq!(page.stage, Stage::BindSpace, "the viewport shows stage two");
    assert!(
        page.skinned()[HEAD_VERTEX].abs_diff_eq(Vec3::new(0.0, 4.0, 0.0), 1e-5),
        "{}",
        page.skinned()[HEAD_VERTEX]
    );
    assert!(
        harness
            .query_by_label_contains("lands at (0.00, 4.00), not (0.00, 2.00)")
            .is_some()
    );
}

#[test]
fn binding_at_the_current_pose_snaps_the_mesh_back_to_its_rest_shape() {
    let mut page = BindingPage::default();
    page.stage = Stage::BindSpace;
    page.angles = [0.3, -0.6, 0.9];
    let mut harness = page_harness(page, &["rebind"]);
    assert!(!close(
        &harness.state().skinned(),
        &binding::bind_positions()
    ));
    assert!(
        harness
            .query_by_label_contains("is not the identity")
            .is_some()
    );
    harness.get_by_label("Bind at the current pose").click();
    harness.run_steps(2);
    let page = harness.state();
    assert_eq!(page.rebind, [0.3, -0.6, 0.9]);
    assert!(close(&page.skinned(), &binding::bind_positions()));
    assert!(
        harness
            .query_by_label_contains("Every W · B⁻¹ is the identity")
            .is_some()
    );
    // The link names the bind pose, and reopens the rebound mesh exactly.
    let link = harness.state().link().to_string();
    assert!(link.contains("rebind=0.3,-0.6,0.9"), "{link}");
    let again = opened(&link);
    assert_eq!(again.joint_from_bind, harness.state().joint_from_bind);
    assert_eq!(again.skinned(), harness.state().skinned());
}

#[test]
fn editing_an_inverse_bind_moves_the_mesh_and_the_link_keeps_the_edit() {
    let mut page = BindingPage::default();
    page.stage = Stage::BindSpace;
    let mut harness = page_harness(page, &["bind_space"]);
    let before = harness.state().skinned();
    let cell = harness
        .get_by_label(&cell_label("B⁻¹", 0, 3))
        .rect()
        .center();
    drag(&mut harness, cell, cell + Vec2::new(60.0, 0.0));
    let page = harness.state();
    let t = page.joint_from_bind[HEAD].w_axis.x;
    assert!(t > 0.2, "B's t.x grew: {t}");
    let after = page.skinned();
    assert!(
        after[HEAD_VERTEX].x > before[HEAD_VERTEX].x + 0.2,
        "the head follows B"
    );
    assert_eq!(after[0], before[0], "the chest does not");
    assert!(harness.query_by_label("Restore the captured B⁻¹").is_some());
    let link = harness.state().link().to_string();
    assert!(link.contains("inverse_bind=head:"), "{link}");
    assert_eq!(
        opened(&link).joint_from_bind,
        harness.state().joint_from_bind
    );
    harness.get_by_label("Restore the captured B⁻¹").click();
    harness.run_steps(2);
    assert_eq!(
        harness.state().joint_from_bind,
        binding::capture_inverse_bind([0.0; 3])
    );
}

#[test]
fn a_singular_or_nan_inverse_bind_is_refused_and_kept() {
    let mut harness = page_harness(BindingPage::default(), &["bind_space"]);
    let kept = harness.state().joint_from_bind;
    type_and_enter(&mut harness, &cell_label("B⁻¹", 0, 0), "0");
    assert_eq!(harness.state().joint_from_bind, kept);
    assert!(
        harness
            .query_by_label_contains("B⁻¹ must have an inverse")
            .is_some()
    );
    type_and_enter(&mut harness, &cell_label("B⁻¹", 1, 3), "nan");
    assert_eq!(harness.state().joint_from_bind, kept);
    assert!(
        harness
            .query_by_label_contains("not a finite number")
            .is_some()
    );
    // Text that is no number is refused aloud too, not dropped in silence.
    type_and_enter(&mut harness, &cell_label("B⁻¹", 0, 3), "abc");
    assert_eq!(harness.state().joint_from_bind, kept);
    assert!(
        harness
            .query_by_label_contains("`abc` is not a number")
            .is_some()
    );
    // A number typed with the minus sign of print is read.
    type_and_enter(&mut harness, &cell_label("B⁻¹", 0, 3), "−1.5");
    assert_eq!(harness.state().joint_from_bind[HEAD].w_axis.x, -1.5);
    assert!(harness.query_by_label_contains("is not a number").is_none());
}

#[test]
fn stage_one_places_vertices_with_world_matrices_alone() {
    let mut page = BindingPage::default();
    page.angles = [0.2, 0.5, -0.4];
    let world = page.world_from_joint();
    let harness = page_harness(page, &["joint_space"]);
    let page = harness.state();
    assert_eq!(page.uploaded(), world, "the shader gets W");
    let v = binding::sample_vertex(HEAD);
    let placed = world[HEAD].transform_point3(Vec3::new(0.6, 0.5, 0.0));
    assert!(page.skinned()[v].abs_diff_eq(placed, 1e-5));
    assert!(
        harness
            .query_by_label_contains("stored in head space: v_joint = (0.60, 0.50)")
            .is_some()
    );
}

#[test]
fn the_check_cell_accepts_the_right_answer_and_explains_a_wrong_one() {
    let mut harness = page_harness(BindingPage::default(), &["check"]);
    let right = ["0", "1", "-1", "-1", "0", "2", "0", "-1"];
    for (label, text) in skinlab::pages::binding::exercise::LABELS.iter().zip(right) {
        type_into(&mut harness, &field_label("inverse bind", label), text);
    }
    press_check(&mut harness);
    assert!(harness.query_by_label("Right.").is_some());
    // Forgetting to turn the move back: t = (-2, -1).
    submit(
        &mut harness,
        &[
            (&field_label("inverse bind", "t.x"), "-2"),
            (&field_label("inverse bind", "t.y"), "-1"),
        ],
    );
    assert!(
        harness
            .query_by_label("! Not yet: check t.x, t.y.")
            .is_some()
    );
    submit(
        &mut harness,
        &[(&field_label("inverse bind", "v_joint.y"), "down")],
    );
    assert!(harness.query_by_label_contains("is not a number").is_some());
    harness.get_by_label("Show working").click();
    harness.run_steps(2);
    assert!(
        harness
            .query_by_label_contains("B⁻¹ · (3, 1) = (0.0, -1.0)")
            .is_some()
    );
}

#[test]
fn links_round_trip() {
    let head_edit = "head:1,0,0,0,0,1,0,0,0,0,1,0,0.5,-2,0,1";
    for link in [
        "binding",
        "binding?stage=bind_space",
        "binding?angles=0.1,-0.2,0.3&stored=true",
        "binding?stage=bind_space&angles=0,0.4,-0.6&forget_inverse_bind=true",
        "binding?stage=bind_space&angles=0.3,-0.6,0.9&rebind=0.3,-0.6,0.9&joint=neck",
        &format!("binding?stage=bind_space&inverse_bind={head_edit}"),
        &format!("binding?stage=bind_space&inverse_bind={head_edit}&joint=neck"),
        "binding?angles=0.2,0.4,-0.6&stored=true&question=2",
        &format!("binding?angles=0,0.5,0&rebind=0,0.5,0&inverse_bind={head_edit}&question=3"),
    ] {
        let page = opened(link);
        assert_eq!(
            page.link().to_string(),
            link,
            "`{link}` is written back as given"
        );
        let again = opened(&page.link().to_string());
        assert_eq!(again.joint_from_bind, page.joint_from_bind);
        assert_eq!(again.skinned(), page.skinned());
    }
    let page = opened("binding?stage=bind_space&angles=0.3,-0.6,0.9&rebind=0.3,-0.6,0.9");
    assert!(close(&page.skinned(), &binding::bind_positions()));
    let page = opened(&format!(
        "binding?stage=bind_space&inverse_bind={head_edit}"
    ));
    assert_eq!(page.joint_from_bind[HEAD].w_axis.x, 0.5);
}

#[test]
fn bad_links_are_refused_and_leave_the_page_at_its_defaults() {
    let defaults = BindingPage::default().link().to_string();
    for (link, says) in [
        (
            "binding?inverse_bind=tail:1,0,0,0,0,1,0,0,0,0,1,0,0,0,0,1",
            "not a joint",
        ),
        ("binding?inverse_bind=head:1,0,0", "16 finite numbers"),
        (
            "binding?inverse_bind=head:0,0,0,0,0,1,0,0,0,0,1,0,0,0,0,1",
            "singular",
        ),
        (
            "binding?inverse_bind=head:1,0,0,0,0,1,0,0,0,0,1,0,0,0,0,1;head:1,0,0,0,0,1,0,0,0,0,1,0,0,0,0,1",
            "twice",
        ),
    ] {
        let mut page = opened("binding?stage=bind_space&angles=0.5,0,0&joint=chest");
        let err = open(&mut page, &Link::parse(link).unwrap())
            .unwrap_err()
            .to_string();
        assert!(err.contains(says), "`{link}`: {err}");
        assert_eq!(
            page.link().to_string(),
            defaults,
            "`{link}` leaves the defaults"
        );
        assert_eq!(
            page.joint_from_bind,
            binding::capture_inverse_bind([0.0; 3])
        );
        assert!(page.joint_from_bind.iter().all(|m| *m != Mat4::ZERO));
    }
}

#[test]
fn every_key_at_once_round_trips_and_each_kind_of_bad_value_is_named() {
    let head_edit = "head:1,0,0,0,0,1,0,0,0,0,1,0,0.5,-2,0,1";
    kit::assert_declared_params::<BindingPage>(
        &format!(
            "binding?stage=bind_space&angles=0.1,-0.2,0.3&rebind=0,0.5,0&inverse_bind={head_edit}&joint=neck&forget_inverse_bind=true&stored=true&scrub=1&predict=true&guess=1.5,3&reveal=true&question=2"
        ),
        &[("inverse_bind", "head")],
    );
}

fn point(p: Vec3) -> String {
    format!("({}, {})", fixed2(p.x), fixed2(p.y))
}

/// The head vertex after `k` factors of the head's `W · B⁻¹`, worked out here from the
/// page's matrices with the pure function.
fn scrubbed(page: &BindingPage, k: usize) -> Vec3 {
    let v = binding::bind_positions()[HEAD_VERTEX];
    binding::scrub(page.world_from_joint()[HEAD], page.joint_from_bind[HEAD], v)[k]
}

#[test]
fn scrub_links_step_the_head_vertex_through_w_times_b() {
    assert_eq!(BindingPage::default().scrub_step(), None);
    assert!(BindingPage::default().scrub_dots().is_empty());
    let base = "binding?stage=bind_space&angles=0.3,-0.5,0.2&rebind=0.4,0,0";
    let says = [
        "Step 0: v = ",
        "Step 1: B⁻¹ · v = ",
        "Step 2: W · B⁻¹ · v = ",
    ];
    for (k, says) in says.iter().enumerate() {
        let link = format!("{base}&scrub={k}");
        let harness = page_harness(opened(&link), &["forget"]);
        let page = harness.state();
        assert_eq!(page.scrub, Some(k), "`{link}`");
        assert_eq!(page.link().to_string(), link, "written back as given");
        let readout = format!("{says}{}", point(scrubbed(page, k)));
        assert!(
            harness.query_by_label_contains(&readout).is_some(),
            "`{link}`: the cell reads `{readout}`"
        );
        let dots = page.scrub_dots();
        assert_eq!(dots.len(), k + 1, "a dot per step so far");
        for (i, dot) in dots.iter().enumerate() {
            assert!(dot.abs_diff_eq(scrubbed(page, i), 1e-6), "`{link}` dot {i}");
        }
    }
    // The last step is where the skinning puts the head vertex; the bind matrix takes
    // the middle one back to bind space.
    let page = opened(&format!("{base}&scrub=2"));
    assert!(scrubbed(&page, 2).abs_diff_eq(page.skinned()[HEAD_VERTEX], 1e-5));
    let bind = page.joint_from_bind[HEAD].inverse();
    assert!(
        bind.transform_point3(scrubbed(&page, 1))
            .abs_diff_eq(scrubbed(&page, 0), 1e-5)
    );
    // In the straight pose: 2 units up, then the head's 2 units taken away.
    let page = opened("binding?stage=bind_space&scrub=1");
    assert_eq!(page.scrub_dots(), [Vec3::Y * 2.0, Vec3::ZERO]);
    // Stage one shows no scrub; a bad value is named while the good keys apply.
    assert!(opened("binding?scrub=2").scrub_dots().is_empty());
    let mut page = BindingPage::default();
    let err = open(
        &mut page,
        &Link::parse("binding?stage=bind_space&scrub=5").unwrap(),
    )
    .unwrap_err()
    .to_string();
    assert!(err.contains("scrub") && err.contains("0 to 2"), "{err}");
    assert_eq!(page.stage, Stage::BindSpace);
    assert_eq!(page.scrub, None);
}

#[test]
fn the_scrub_box_shows_the_bind_space_stage_and_starts_at_step_0() {
    let mut harness = page_harness(BindingPage::default(), &["forget"]);
    assert!(harness.query_by_label_contains("Step 0").is_none());
    harness
        .get_by_label("Scrub the head vertex through W · B⁻¹, from the right")
        .click();
    harness.run_steps(2);
    let page = harness.state();
    assert_eq!(page.scrub, Some(0));
    assert_eq!(page.stage, Stage::BindSpace);
    assert_eq!(page.scrub_dots(), [binding::bind_positions()[HEAD_VERTEX]]);
    assert!(
        harness
            .query_by_label_contains("Step 0: v = (0.00, 2.00)")
            .is_some()
    );
}

#[test]
fn predicting_hides_where_the_head_vertex_lands() {
    for link in [
        "binding?stage=bind_space&forget_inverse_bind=true",
        "binding?stage=bind_space&angles=0.3,-0.5,0.2",
        "binding?stage=bind_space&angles=0.3,-0.5,0.2&forget_inverse_bind=true&scrub=2",
    ] {
        // Without predicting, the cell says where the head vertex lands.
        let plain = page_harness(opened(link), &["forget"]);
        let truth = point(plain.state().skinned()[HEAD_VERTEX]);
        assert!(shows(&plain, &truth), "`{link}` shows {truth}");
        let predicting = format!("{link}&predict=true");
        let harness = page_harness(opened(&predicting), &["forget"]);
        let page = harness.state();
        assert!(page.answer_hidden(), "`{predicting}`");
        assert!(!shows(&harness, &truth), "`{predicting}` hides {truth}");
        assert!(!shows(&harness, "distance"), "`{predicting}`");
        assert!(shows(&harness, "hidden until you reveal"), "`{predicting}`");
        assert!(page.judgement().is_none());
        assert!(page.scrub_dots().len() <= 2, "the last scrub step waits");
    }
}

#[test]
fn reveal_shows_the_distance_from_the_guess_to_the_skinned_head_vertex() {
    for (setting, guess) in [
        ("forget_inverse_bind=true", [0.5, 3.0]),
        ("angles=0.3,-0.5,0.2", [-1.0, 2.5]),
        ("angles=-0.4,0.9,0.6&forget_inverse_bind=true", [2.0, -1.5]),
    ] {
        let link = format!("binding?stage=bind_space&{setting}&predict=true");
        let mut harness = page_harness(opened(&link), &["forget"]);
        type_into(&mut harness, "guess x", &guess[0].to_string());
        type_into(&mut harness, "guess y", &guess[1].to_string());
        harness.key_press(egui::Key::Enter);
        harness.run_steps(2);
        assert!(!shows(&harness, "distance"), "`{link}`");
        harness.get_by_label("Reveal").click();
        harness.run_steps(2);
        let page = harness.state();
        let truth = page.skinned()[HEAD_VERTEX];
        let want = (glam::Vec2::from(guess) - truth.truncate()).length();
        let (at, judged) = page.judgement().expect("revealed");
        assert!(at.abs_diff_eq(truth.truncate(), 1e-5), "`{link}`: {at}");
        assert!(
            (judged.distance - want).abs() < 1e-4,
            "`{link}`: {judged:?}"
        );
        assert!(shows(&harness, &truth_line(truth)), "`{link}`");
        assert!(
            shows(&harness, &format!("distance {want:.2}: ")),
            "`{link}`"
        );
        let written = page.link().to_string();
        assert!(
            written.ends_with(&format!(
                "&predict=true&guess={},{}&reveal=true",
                guess[0], guess[1]
            )),
            "`{written}`"
        );
        // The link reveals the same judgement.
        assert_eq!(opened(&written).judgement(), page.judgement());
    }
}

fn truth_line(truth: Vec3) -> String {
    format!("the head vertex lands at {}", point(truth))
}

#[test]
fn turning_a_joint_or_the_switch_hides_the_answer_again() {
    let link = "binding?stage=bind_space&angles=0.3,-0.5,0.2&predict=true&guess=1,3&reveal=true";
    let mut harness = page_harness(opened(link), &["forget"]);
    let truth = harness.state().skinned()[HEAD_VERTEX];
    assert!(harness.state().revealed());
    assert!(shows(&harness, &truth_line(truth)));
    harness.state_mut().angles[HEAD] += 0.2;
    harness.run_steps(2);
    assert!(!harness.state().revealed(), "a new pose is a new question");
    assert!(!shows(&harness, "the head vertex lands at"));
    assert!(!shows(&harness, "distance"));
    // Back to the old pose: still hidden.
    harness.state_mut().angles[HEAD] -= 0.2;
    harness.run_steps(2);
    assert!(!harness.state().revealed());
    // Reveal again, then forget the inverse bind: hidden again.
    harness.get_by_label("Reveal").click();
    harness.run_steps(2);
    assert!(harness.state().revealed());
    harness
        .get_by_label("Forget the inverse bind (upload W instead of W · B⁻¹)")
        .click();
    harness.run_steps(2);
    assert!(harness.state().forget_inverse_bind);
    assert!(!harness.state().revealed());
    assert!(!shows(&harness, "distance"));
}

#[test]
fn a_bad_guess_is_named_and_the_good_keys_still_apply() {
    let mut page = BindingPage::default();
    let err = open(
        &mut page,
        &Link::parse("binding?stage=bind_space&predict=true&guess=1,nan&reveal=true").unwrap(),
    )
    .unwrap_err()
    .to_string();
    assert!(err.contains("guess"), "{err}");
    assert_eq!(page.stage, Stage::BindSpace);
    assert!(page.prediction.is_some() && page.revealed());
    assert_eq!(
        page.prediction.unwrap().guess,
        skinlab::pages::binding::predict::Prediction::START
    );
}

#[test]
fn the_guess_ring_drags_and_the_mesh_waits_for_the_reveal() {
    let link = "binding?stage=bind_space&angles=0,0.5,0&forget_inverse_bind=true&predict=true";
    let mut harness = page_harness(opened(link), &["forget"]);
    let page = harness.state();
    assert!(!page.draws_mesh(), "the mesh would give the answer away");
    let before = page.prediction.expect("predicting").guess;
    let angles = page.angles;
    let ring = page.guess_screen.expect("the ring is on screen");
    // Points per world unit: the chest and neck joints stand one unit apart.
    let units = page.joint_screen[0].distance(page.joint_screen[1]);
    drag(&mut harness, ring, ring + Vec2::new(50.0, -30.0));
    let page = harness.state();
    let moved = page.prediction.expect("still predicting").guess - before;
    let expected = glam::Vec2::new(50.0, 30.0) / units;
    assert!(
        (moved - expected).length() < 0.05,
        "moved {moved}, expected {expected}"
    );
    assert_eq!(page.angles, angles, "the ring is not a joint");
    assert!(!page.revealed() && !page.draws_mesh());
    harness.state_mut().reveal();
    harness.run_steps(1);
    assert!(harness.state().draws_mesh(), "revealed: the mesh is back");
}
