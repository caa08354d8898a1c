//! The quaternions page driven like a user would: the gimbal's lock, the quaternion's
//! matrix and turn, the check cell and links.

use crate::kit;

use egui_kittest::kittest::Queryable as _;
use kit::{drag, page_harness, submit};
use skin::explain::rotation::{LOCK_PITCH, euler_matrix};
use skinlab::link::Link;
use skinlab::page::{Page, open};
use skinlab::pages::quaternions::{QuaternionsPage, Section};
use skinlab::ui::check::field_label;

fn opened(link: &str) -> QuaternionsPage {
    crate::opened(link)
}

#[test]
fn the_lock_button_aligns_the_rings_and_says_so() {
    let mut harness = page_harness(QuaternionsPage::default(), &["gimbal"]);
    assert!(harness.query_by_label_contains("Gimbal lock").is_none());
    harness.get_by_label("Pitch to 90°").click();
    harness.run_steps(2);
    let page = harness.state();
    assert_eq!(page.euler[1], LOCK_PITCH);
    assert!(
        harness
            .query_by_label_contains("depends only on yaw − roll")
            .is_some()
    );
    // Locked, the same change of yaw and roll leaves the matrix alone.
    let [y, p, r] = harness.state().euler;
    assert!(euler_matrix([y, p, r]).abs_diff_eq(euler_matrix([y + 0.4, p, r + 0.4]), 1e-5));
}

#[test]
fn dragging_the_view_turns_the_camera_only() {
    let mut harness = page_harness(QuaternionsPage::default(), &["gimbal"]);
    let (link, camera) = (harness.state().link(), *harness.state().camera());
    let center = harness.state().viewport_rect.center();
    drag(&mut harness, center, center + egui::vec2(-50.0, 20.0));
    assert_ne!(*harness.state().camera(), camera);
    assert_eq!(harness.state().link(), link);
}

#[test]
fn the_check_cell_accepts_the_right_answer_and_rejects_others() {
    let mut harness = page_harness(QuaternionsPage::default(), &["check"]);
    let [x, y, z, w] = ["x", "y", "z", "w"].map(|l| field_label("quaternion", l));
    // 90° about y: (0, sin 45°, 0, cos 45°).
    submit(
        &mut harness,
        &[(&x, "0"), (&y, "0.707"), (&z, "0"), (&w, "0.707")],
    );
    assert!(harness.query_by_label("Right.").is_some());
    // −q is the same rotation, and counts too.
    submit(
        &mut harness,
        &[(&x, "0"), (&y, "-0.707"), (&z, "0"), (&w, "-0.707")],
    );
    assert!(harness.query_by_label("Right.").is_some(), "−q is right");
    assert!(
        harness.query_by_label_contains("That is −q").is_some(),
        "and is said to be −q at once"
    );
    // Half of it negated is neither q nor −q.
    submit(&mut harness, &[(&y, "0.707")]);
    assert!(
        harness.query_by_label("Right.").is_none(),
        "(0, q_y, 0, −q_w)"
    );
    // The whole angle instead of half of it.
    submit(&mut harness, &[(&y, "1"), (&w, "0")]);
    assert!(
        harness
            .query_by_label_contains("Not yet: a quaternion holds half the angle")
            .is_some()
    );
    submit(&mut harness, &[(&y, "0.5")]);
    assert!(
        harness
            .query_by_label_contains("Not yet: check y, w")
            .is_some()
    );
    submit(&mut harness, &[(&x, "zero")]);
    assert!(harness.query_by_label_contains("is not a number").is_some());
    // The scalar written first.
    submit(
        &mut harness,
        &[(&x, "0.707"), (&y, "0"), (&z, "0.707"), (&w, "0")],
    );
    assert!(harness.query_by_label_contains("that is w first").is_some());
}

#[test]
fn links_round_trip_and_bad_values_are_refused() {
    let text = "quaternions?show=quaternion&yaw=0.3&pitch=-1&roll=2&question=2";
    let page = opened(text);
    assert_eq!(page.link().to_string(), text);
    assert_eq!(page.exercise, 1);
    assert_eq!(page.section, Section::Quaternion);
    assert_eq!(opened("quaternions?yaw=0.2").section, Section::Gimbal);
    assert_eq!(QuaternionsPage::default().link().to_string(), "quaternions");
}

#[test]
fn every_cell_draws_without_error() {
    let page = opened("quaternions?pitch=1.5707964");
    let harness = kit::every_cell_drawn(page);
    assert!(
        harness
            .query_by_label_contains("they differ by at most")
            .is_some()
    );
}

#[test]
fn every_key_at_once_writes_back() {
    let all = "quaternions?show=quaternion&yaw=0.3&pitch=-1&roll=2&question=3";
    kit::assert_every_key_round_trips::<QuaternionsPage>(&[all]);
    let page = opened(all);
    assert_eq!(page.section, Section::Quaternion);
    assert_eq!(page.exercise, 2);
    assert_eq!(
        <QuaternionsPage as skinlab::page::Lesson>::PARAMS
            .last()
            .map(|p| p.key),
        Some("question"),
        "`question` scrolls to the check cell, so it comes last"
    );
}

#[test]
fn the_gimbal_exercise_takes_yaw_minus_roll() {
    use skinlab::pages::quaternions::exercise::{GIMBAL_EXERCISE, gimbal_answer};
    let mut page = QuaternionsPage::default();
    open(
        &mut page,
        &Link::parse("quaternions?question=4").expect("parses"),
    )
    .expect("opens");
    let mut harness = page_harness(page, &["check"]);
    let yaw = field_label("gimbal", "yaw");
    // Typing the yaw as given is the mistake gimbal lock invites.
    submit(&mut harness, &[(&yaw, &GIMBAL_EXERCISE[0].to_string())]);
    assert!(harness.query_by_label_contains("Not yet").is_some());
    // The same orientation a whole turn away is named, not just refused.
    submit(
        &mut harness,
        &[(&yaw, &format!("{:.1}", gimbal_answer() + 360.0))],
    );
    assert!(
        harness
            .query_by_label_contains("the same orientation, a whole turn away")
            .is_some()
    );
    submit(&mut harness, &[(&yaw, &format!("{:.1}", gimbal_answer()))]);
    assert!(harness.query_by_label("Right.").is_some());
}

#[test]
fn a_link_to_a_turn_looks_toward_its_axis_so_the_nose_s_arc_shows() {
    // From the usual camera the arc of this turn is seen nearly edge-on.
    for link in [
        "quaternions?show=quaternion&yaw=0.8&pitch=0.4&roll=0.3",
        "quaternions?show=quaternion",
    ] {
        let page = opened(link);
        let q = skin::explain::rotation::euler_quat(page.euler);
        let (axis, _) = skin::explain::rotation::axis_angle(q);
        let skinlab::ui::Camera::Orbit(camera) = page.camera() else {
            panic!("an orbit camera");
        };
        let toward = (camera.eye() - camera.target).normalize();
        // Off the axis enough to show it as an arrow, near enough to open the arc.
        let off = toward.dot(axis).abs().acos().to_degrees();
        assert!(
            (20.0..=70.0).contains(&off),
            "the view is {off:.0}° off the axis"
        );
        // p and p' seen along their length, not end-on.
        for v in [glam::Vec3::X, q * glam::Vec3::X] {
            let side = toward.cross(v).length();
            assert!(side > 0.5, "{link}: {v} is seen nearly end-on: {side}");
        }
    }
    // The gimbal keeps the usual view.
    let gimbal = opened("quaternions?yaw=0.8&pitch=0.4&roll=0.3");
    assert_eq!(gimbal.camera(), QuaternionsPage::default().camera());
}

#[test]
fn the_turn_cell_gives_what_the_matrix_gives() {
    let page = opened("quaternions?show=quaternion&yaw=0.8&pitch=0.4&roll=0.3");
    let q = skin::explain::rotation::euler_quat(page.euler);
    let by_matrix = skin::explain::rotation::quat_matrix(q) * glam::Vec3::X;
    let harness = page_harness(page, &["turn"]);
    let numbers = skinlab::ui::matrix::vec3_text3(by_matrix);
    let sandwich = format!("q·(p,0)·q* = {}, 0.000)", numbers.trim_end_matches(')'));
    assert!(
        harness.query_by_label_contains(&sandwich).is_some(),
        "the cell shows {sandwich}"
    );
    assert!(
        harness
            .query_by_label_contains(&format!("R(q)·p     = {numbers}"))
            .is_some()
    );
}
