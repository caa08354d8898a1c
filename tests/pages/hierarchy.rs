//! The hierarchy page driven like a user would: pick joints, type local transforms,
//! drag joints and the camera, flip the product order, answer the exercise, follow links.

use crate::kit;

use egui::Vec2;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use glam::Vec3;
use kit::{drag, page_harness, submit, type_into};
use rigs::humanoid;
use rigs::humanoid::JOINTS;
use skinlab::link::Link;
use skinlab::page::{Page, open};
use skinlab::pages::hierarchy::{DEFAULT_JOINT, HierarchyPage, SCRUB_POINT, walk};

fn joint(name: &str) -> usize {
    JOINTS.iter().position(|j| j.name == name).unwrap()
}

fn type_and_enter(harness: &mut Harness<'_, HierarchyPage>, label: &str, text: &str) {
    type_into(harness, label, text);
    harness.key_press(egui::Key::Enter);
    harness.run_steps(2);
}

fn opened(link: &str) -> HierarchyPage {
    crate::opened(link)
}

#[test]
fn clicking_a_name_in_the_tree_selects_the_joint_and_shows_its_chain() {
    let mut harness = page_harness(HierarchyPage::default(), &["tree", "chain"]);
    assert_eq!(harness.state().selected, DEFAULT_JOINT);
    harness.get_by_label("hand.L").click();
    harness.run_steps(2);
    assert_eq!(harness.state().selected, joint("hand.L"));
    assert!(
        harness
            .query_by_label("world(hand.L) = world(forearm.L) · local(hand.L)")
            .is_some(),
        "the chain ends at the hand"
    );
    // It starts at the root.
    assert!(
        harness
            .query_by_label("world(hips) = local(hips), the root")
            .is_some()
    );
    assert!(
        harness.query_by_label("1.").is_none(),
        "the chain is not numbered beside the scrub's steps"
    );
}

#[test]
fn typing_a_rotation_turns_the_joint_and_carries_its_children() {
    let mut harness = page_harness(HierarchyPage::default(), &["local"]);
    let hand_before = harness.state().joint_position(joint("hand.L"));
    let shoulder = harness.state().joint_position(joint("upper_arm.L"));
    assert!(
        harness
            .query_by_label_contains("moves 3 joints: upper_arm.L, forearm.L, hand.L")
            .is_some()
    );
    type_and_enter(&mut harness, "rotation z", "90");
    let page = harness.state();
    assert!((page.pose[joint("upper_arm.L")].rotation.z - 90f32.to_radians()).abs() < 1e-5);
    let hand = page.joint_position(joint("hand.L"));
    assert!(
        hand.abs_diff_eq(shoulder + Vec3::new(0.0, 0.54, 0.0), 1e-4),
        "the hand swung up above the shoulder: {hand_before} -> {hand}"
    );
    assert_eq!(page.joint_position(joint("upper_arm.L")), shoulder);
    assert!(page.is_edited(joint("upper_arm.L")));
}

#[test]
fn nan_and_zero_scale_are_refused_and_the_last_value_kept() {
    let mut harness = page_harness(HierarchyPage::default(), &["local"]);
    let before = harness.state().pose;
    type_and_enter(&mut harness, "translation x", "nan");
    assert_eq!(harness.state().pose, before);
    assert!(harness.query_by_label_contains("finite").is_some());
    type_and_enter(&mut harness, "scale y", "0");
    assert_eq!(harness.state().pose, before);
    assert!(harness.query_by_label_contains("scale of 0").is_some());
    type_and_enter(&mut harness, "scale y", "2");
    assert_eq!(harness.state().pose[DEFAULT_JOINT].scale.y, 2.0);
    assert!(
        harness.state().refused.is_none(),
        "a good edit clears the refusal"
    );
}

#[test]
fn clicking_a_joint_in_the_viewport_selects_it() {
    let mut harness = page_harness(HierarchyPage::default(), &[]);
    let at = harness.state().joint_screen[joint("shin.R")];
    harness.hover_at(at);
    harness.step();
    harness.drag_at(at);
    harness.step();
    harness.drop_at(at);
    harness.run_steps(2);
    assert_eq!(harness.state().selected, joint("shin.R"));
}

#[test]
fn dragging_a_joint_turns_its_parent_so_the_joint_follows() {
    let mut harness = page_harness(HierarchyPage::default(), &[]);
    let elbow = joint("forearm.L");
    let from = harness.state().joint_screen[elbow];
    let shoulder = harness.state().joint_position(joint("upper_arm.L"));
    let y_before = harness.state().joint_position(elbow).y;
    drag(&mut harness, from, from + Vec2::new(-10.0, -80.0));
    let page = harness.state();
    assert_eq!(
        page.selected,
        joint("upper_arm.L"),
        "the turned parent is selected"
    );
    assert!(page.is_edited(joint("upper_arm.L")));
    assert!(
        !page.is_edited(elbow),
        "the dragged joint's own local is untouched"
    );
    assert!(
        page.joint_position(elbow).y > y_before + 0.1,
        "the elbow went up: {y_before} -> {}",
        page.joint_position(elbow).y
    );
    assert!(
        page.joint_position(joint("upper_arm.L"))
            .abs_diff_eq(shoulder, 1e-5),
        "the parent turned in place"
    );
    // The bone keeps its length, so the joint points at the pointer from the shoulder.
    let pivot = page.joint_screen[joint("upper_arm.L")];
    let towards = (page.joint_screen[elbow] - pivot).normalized();
    let wanted = (from + Vec2::new(-10.0, -80.0) - pivot).normalized();
    assert!(
        towards.dot(wanted) > 0.99,
        "the joint points at the pointer: {towards:?} vs {wanted:?}"
    );
}

#[test]
fn dragging_the_root_moves_the_whole_figure() {
    let mut harness = page_harness(HierarchyPage::default(), &[]);
    let from = harness.state().joint_screen[0];
    let head = harness.state().joint_position(joint("head"));
    drag(&mut harness, from, from + Vec2::new(0.0, -60.0));
    let page = harness.state();
    assert_eq!(page.selected, 0);
    let lift = page.joint_position(joint("head")) - head;
    assert!(lift.y > 0.1, "the head went up with the hips: {lift}");
    assert_eq!(page.pose[0].rotation, Vec3::ZERO);
}

#[test]
fn dragging_empty_space_orbits_the_camera_and_leaves_the_pose() {
    let mut harness = page_harness(HierarchyPage::default(), &[]);
    let before = harness.state().joint_screen;
    let pose = harness.state().pose;
    let empty = before[0] + Vec2::new(-170.0, 160.0);
    drag(&mut harness, empty, empty + Vec2::new(120.0, 0.0));
    harness.run_steps(2);
    let page = harness.state();
    assert_eq!(page.pose, pose);
    let hand = joint("hand.L");
    assert!(
        page.joint_screen[hand].distance(before[hand]) > 20.0,
        "the view turned: {:?} -> {:?}",
        before[hand],
        page.joint_screen[hand]
    );
}

#[test]
fn the_wrong_order_toggle_shows_both_world_matrices_and_the_ghost() {
    let mut page = HierarchyPage::default();
    page.pose[joint("upper_arm.L")].rotation.z = std::f32::consts::FRAC_PI_2;
    page.selected = joint("forearm.L");
    let mut harness = page_harness(page, &["order"]);
    assert!(harness.query_by_label_contains("right: world").is_none());
    // The cell's checkbox comes first; the viewport has one too.
    harness
        .get_all_by_label("wrong order: local · parent")
        .next()
        .unwrap()
        .click();
    harness.run_steps(2);
    assert!(harness.state().wrong_order);
    assert!(
        harness
            .query_by_label("forearm.L, whose parent is upper_arm.L:")
            .is_some()
    );
    assert!(
        harness
            .query_by_label_contains("lands 2.28 units")
            .is_some()
    );
    assert!(harness.state().link().to_string().contains("order=wrong"));
    let pose = harness.state().pose();
    let f = joint("forearm.L");
    assert!(!pose.wrong[f].abs_diff_eq(pose.world[f], 0.1));
}

#[test]
fn reset_restores_the_t_pose() {
    let page = opened("hierarchy?rot=upper_arm.L:0,0,1&pos=hips:0,1.2,0&joint=head");
    let mut harness = page_harness(page, &["tree"]);
    assert!(harness.query_by_label("2 joints edited").is_some());
    harness
        .get_all_by_label("Reset T-pose")
        .next()
        .unwrap()
        .click();
    harness.run_steps(2);
    assert_eq!(harness.state().link().to_string(), "hierarchy?joint=head");
    assert!(harness.query_by_label("0 joints edited").is_some());
}

#[test]
fn the_exercise_accepts_the_right_answer_and_explains_a_wrong_one() {
    let mut harness = page_harness(HierarchyPage::default(), &["check"]);
    submit(
        &mut harness,
        &[("child x", "1"), ("child y", "5"), ("child z", "0")],
    );
    assert!(harness.query_by_label("Right.").is_some());
    // The wrong order's answer: the offset added without being turned.
    submit(&mut harness, &[("child x", "4"), ("child y", "2")]);
    assert!(
        harness
            .query_by_label_contains(
                "Not yet: that is local(child) · world(parent), the wrong order"
            )
            .is_some()
    );
    // The offset turned by the rows: (3, 0, 0) read along (0, -1, 0) gives (0, -3, 0).
    submit(&mut harness, &[("child x", "1"), ("child y", "-1")]);
    assert!(
        harness
            .query_by_label_contains("Not yet: that turns the offset by world(parent)'s rows")
            .is_some()
    );
    submit(&mut harness, &[("child x", "7"), ("child y", "2")]);
    assert!(
        harness
            .query_by_label_contains("Not yet: check x, y")
            .is_some()
    );
    submit(&mut harness, &[("child x", "four")]);
    assert!(
        harness
            .query_by_label_contains("\"four\" is not a number")
            .is_some()
    );
    harness.get_by_label("Show working").click();
    harness.run_steps(2);
    assert!(
        harness
            .query_by_label_contains(
                "= 3·(0, 1, 0) + 0·(-1, 0, 0) + 0·(0, 0, 1)\n    + (1, 2, 0)\n  = (1, 5, 0)"
            )
            .is_some(),
        "the working writes the product out with the numbers"
    );
    assert!(
        harness
            .query_by_label_contains("(4, 2, 0). The offset is added, never turned.")
            .is_some()
    );
    harness.get_by_label("2").click();
    harness.run_steps(2);
    assert_eq!(harness.state().exercise, 1);
    assert!(harness.query_by_label("Show working").is_some());
    assert_eq!(harness.state().link().to_string(), "hierarchy?question=2");
}

#[test]
fn links_round_trip() {
    for link in [
        "hierarchy",
        "hierarchy?joint=forearm.L",
        "hierarchy?joint=hand.R&rot=upper_arm.L:0,0,1.2;forearm.L:0.3,-0.25,0&order=wrong",
        "hierarchy?rot=hips:0,0.5,0&pos=hips:0.2,1.1,0&scale=head:1.5,1.5,1.5&question=3",
    ] {
        let page = opened(link);
        assert_eq!(
            page.link().to_string(),
            link,
            "canonical links are written back as given"
        );
        let again = opened(&page.link().to_string());
        assert_eq!(again.pose, page.pose);
        assert_eq!(again.selected, page.selected);
        assert_eq!(again.wrong_order, page.wrong_order);
        assert_eq!(again.exercise, page.exercise);
    }
    // A dragged pose, with whatever angles the drag left, reopens exactly.
    let mut harness = page_harness(HierarchyPage::default(), &[]);
    let from = harness.state().joint_screen[joint("hand.L")];
    drag(&mut harness, from, from + Vec2::new(-30.0, 70.0));
    let link = harness.state().link().to_string();
    assert!(link.contains("rot=forearm.L:"), "{link}");
    assert!(link.len() < 72, "four decimals keep the link short: {link}");
    assert_eq!(opened(&link).pose, harness.state().pose);
}

#[test]
fn bad_keys_are_refused_and_left_at_their_defaults() {
    let defaults = HierarchyPage::default().link().to_string();
    for (link, says) in [
        ("hierarchy?joint=elbow", "forearm.L"),
        ("hierarchy?rot=elbow:0,0,1", "upper_arm.R"),
        ("hierarchy?rot=head:0,0", "three finite numbers"),
        ("hierarchy?rot=head:0,0,1;head:0,1,0", "twice"),
        ("hierarchy?scale=head:1,0,1", "scale of 0"),
        ("hierarchy?joint=head&rot=neck:1,x,0", "neck"),
    ] {
        let mut page = opened("hierarchy?rot=spine:0,0,0.4&order=wrong");
        let err = open(&mut page, &Link::parse(link).unwrap())
            .expect_err(link)
            .to_string();
        assert!(err.contains(says), "`{link}`: {err}");
        // The bad key stays at its default; a good one beside it applies.
        let kept = if link.contains("joint=head") {
            "hierarchy?joint=head"
        } else {
            &defaults
        };
        assert_eq!(
            page.link().to_string(),
            kept,
            "`{link}`: only the good keys"
        );
    }
}

#[test]
fn every_key_at_once_round_trips_and_each_kind_of_bad_value_is_refused() {
    kit::assert_every_key_round_trips::<HierarchyPage>(&[
        "hierarchy?joint=hand.R&rot=upper_arm.L:0,0,1.2;forearm.L:0.3,0,0&pos=hips:0,1.1,0&scale=head:1.5,1.5,1.5&order=wrong&scrub=3&question=3",
    ]);
    kit::assert_refused_as_declared::<HierarchyPage>(&["scale=head:1,0,1", "pos=hips:0,101,0"]);
}

/// The point after `k` factors, from the pure function, for `page`'s selected joint.
fn scrubbed(page: &HierarchyPage, k: usize) -> Vec3 {
    let steps = walk::chain(&humanoid::skeleton(), &page.pose().local, page.selected);
    walk::scrub(&steps, SCRUB_POINT)[k]
}

#[test]
fn scrub_links_step_the_joints_origin_through_the_product() {
    let base = "hierarchy?joint=hand.L&rot=upper_arm.L:0,0,1.2";
    let hand = joint("hand.L");
    let factors = humanoid::skeleton().path_from_root(hand).len();
    assert_eq!(
        HierarchyPage::default().scrub_point(),
        None,
        "off by default"
    );
    for (k, says) in [
        (0, "Step 0 of 7: no factor applied yet".to_owned()),
        (
            1,
            "after local(hand.L): the point is in forearm.L's frame".to_owned(),
        ),
        (
            3,
            "after local(upper_arm.L): the point is in clavicle.L's frame".to_owned(),
        ),
        (
            factors,
            format!("Step {factors} of {factors}: after local(hips): the point is in the world"),
        ),
    ] {
        let link = format!("{base}&scrub={k}");
        let mut harness = page_harness(opened(&link), &["chain"]);
        harness.run_steps(2);
        let page = harness.state();
        assert_eq!(page.scrub_step(), Some(k), "`{link}`");
        assert_eq!(page.link().to_string(), link, "written back as given");
        assert!(
            harness.query_by_label_contains(&says).is_some(),
            "`{link}`: {says}"
        );
        let dot = page.scrub_point().unwrap();
        assert!(dot.abs_diff_eq(scrubbed(page, k), 1e-6), "`{link}`: {dot}");
        assert_eq!(page.scrub_path().len(), k + 1, "a dot per step so far");
        // The factor just applied is the one marked in the chain.
        let marked = (1..=factors).filter(|i| {
            let name = JOINTS[humanoid::skeleton().path_from_root(hand)[factors - i]].name;
            harness
                .query_by_label(&format!("local({name}), just applied: step {i}"))
                .is_some()
        });
        assert_eq!(
            marked.collect::<Vec<_>>(),
            if k == 0 { vec![] } else { vec![k] }
        );
    }
    // Step 0 is the point itself; the last step is the hand in the world, drawn on it.
    let start = opened(&format!("{base}&scrub=0"));
    assert_eq!(start.scrub_point(), Some(SCRUB_POINT));
    let harness = page_harness(opened(&format!("{base}&scrub={factors}")), &[]);
    let page = harness.state();
    assert!(
        page.scrub_point()
            .unwrap()
            .abs_diff_eq(page.joint_position(hand), 1e-5)
    );
    let drawn = page.scrub_screen.expect("the dot is drawn");
    assert!(drawn.distance(page.joint_screen[hand]) < 0.5, "{drawn:?}");
}

#[test]
fn the_scrub_box_and_slider_step_the_point() {
    let mut harness = page_harness(opened("hierarchy?joint=forearm.L"), &["chain"]);
    assert!(harness.query_by_label_contains("Step 0").is_none());
    harness
        .get_by_label("scrub the joint's origin through the product")
        .click();
    harness.run_steps(2);
    assert_eq!(harness.state().scrub_step(), Some(0));
    assert!(harness.state().link().to_string().ends_with("&scrub=0"));
    // The slider, moved from the keyboard, one factor a press.
    for _ in 0..2 {
        harness
            .get_by_role_and_label(
                egui::accesskit::Role::Slider,
                "factors applied, from the right",
            )
            .focus();
        harness.run_steps(1);
        harness.key_press(egui::Key::ArrowRight);
        harness.run_steps(2);
    }
    assert_eq!(harness.state().scrub_step(), Some(2));
    assert!(
        harness
            .query_by_label_contains("after local(upper_arm.L): the point is in clavicle.L's frame")
            .is_some()
    );
    // A joint with a shorter chain keeps the step within its chain.
    harness.state_mut().scrub = Some(6);
    harness.state_mut().selected = joint("spine");
    harness.run_steps(2);
    assert_eq!(harness.state().scrub, Some(2));
    assert!(
        harness
            .query_by_label_contains("Step 2 of 2: after local(hips)")
            .is_some()
    );
}
