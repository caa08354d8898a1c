//! The quaternions page driven like a user would: the gimbal's lock, the method
//! buttons and t, the shortest-path check, the check cell and links.

use crate::kit;

use egui_kittest::kittest::Queryable as _;
use kit::{drag, page_harness, submit};
use skin::rotation::{Interp, LOCK_PITCH, euler_matrix, rotation_between};
use skinlab::link::Link;
use skinlab::page::{Page, open};
use skinlab::pages::quaternions::circle::{Blend, point_of, turn_at};
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
fn the_method_buttons_and_t_move_the_glider() {
    let mut harness = page_harness(opened("quaternions?show=interpolate"), &["interpolate"]);
    harness.get_by_label("LERP").click();
    harness.run_steps(2);
    assert_eq!(harness.state().method, Interp::Lerp);
    assert!(
        harness
            .query_by_label_contains("LERP left the unit sphere")
            .is_some()
    );
    harness.get_by_label("SLERP").click();
    harness.run_steps(2);
    assert!(
        harness
            .query_by_label_contains("LERP left the unit sphere")
            .is_none()
    );
    assert_eq!(
        harness.state().link().to_string(),
        "quaternions?show=interpolate"
    );
}

#[test]
fn slerp_turns_at_an_even_pace_on_the_page() {
    let page = opened("quaternions?show=interpolate");
    let (a, _) = page.endpoints();
    let total = rotation_between(a, page.interpolated(Interp::Slerp, 1.0));
    for t in [0.25, 0.5, 0.75] {
        let turned = rotation_between(a, page.interpolated(Interp::Slerp, t));
        assert!((turned - t * total).abs() < 1e-3, "t = {t}");
    }
    let nlerp = rotation_between(a, page.interpolated(Interp::Nlerp, 0.25));
    assert!(
        (nlerp - 0.25 * total).abs() > 0.02,
        "NLERP runs ahead or behind"
    );
}

#[test]
fn without_the_shortest_path_a_flipped_b_goes_the_long_way() {
    let short = opened("quaternions?flip=true");
    let long = opened("quaternions?flip=true&shortest=false");
    let (a, _) = short.endpoints();
    let half_short = rotation_between(a, short.interpolated(Interp::Slerp, 0.5));
    let half_long = rotation_between(a, long.interpolated(Interp::Slerp, 0.5));
    assert!(half_long > half_short + 0.5, "{half_short} vs {half_long}");
    assert_eq!(
        long.section,
        Section::Gimbal,
        "flip alone does not pick a section"
    );
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
            .query_by_label_contains("Not yet: check y, w")
            .is_some()
    );
    submit(&mut harness, &[(&x, "zero")]);
    assert!(harness.query_by_label_contains("is not a number").is_some());
}

#[test]
fn links_round_trip_and_bad_values_are_refused() {
    let text = "quaternions?show=quaternion&yaw=0.3&pitch=-1&roll=2&b=1,0.5,-0.5&method=nlerp&t=0.25&flip=true&shortest=false&circle=0.5,-2&question=2";
    let page = opened(text);
    assert_eq!(page.link().to_string(), text);
    assert_eq!(page.exercise, 1);
    assert_eq!(opened("quaternions?t=0.2").section, Section::Interpolate);
    assert_eq!(QuaternionsPage::default().link().to_string(), "quaternions");
    // State to link to state: the gimbal shown with LERP chosen (LERP alone would open
    // the interpolation), and the quaternion shown with t moved.
    let mut page = QuaternionsPage::default();
    page.method = skin::rotation::Interp::Lerp;
    page.show(Section::Gimbal);
    assert_eq!(
        opened(&page.link().to_string()).section,
        Section::Gimbal,
        "{}",
        page.link()
    );
    let mut page = QuaternionsPage::default();
    page.show(Section::Quaternion);
    page.t = 0.25;
    assert_eq!(
        opened(&page.link().to_string()).section,
        Section::Quaternion,
        "{}",
        page.link()
    );
    kit::assert_refused::<QuaternionsPage>(&[
        "quaternions?pitch=2",
        "quaternions?yaw=nan",
        "quaternions?b=1,2",
        "quaternions?b=1,2,9",
        "quaternions?method=squad",
        "quaternions?t=1.5",
        "quaternions?show=everything",
        "quaternions?question=5",
        "quaternions?circle=1",
        "quaternions?circle=1,7",
        "quaternions?circle=nan,1",
    ]);
}

#[test]
fn every_cell_draws_without_error() {
    let page = opened("quaternions?pitch=1.5707964");
    let cells = page.cells();
    let mut harness = page_harness(page, cells);
    harness.run_steps(2);
    assert!(
        harness
            .query_by_label_contains("this page has no cell")
            .is_none()
    );
    assert!(
        harness
            .query_by_label_contains("they differ by at most")
            .is_some()
    );
}

#[test]
fn every_key_at_once_writes_back_and_each_kind_refuses_its_bad_values() {
    let all = "quaternions?show=gimbal&yaw=0.3&pitch=-1&roll=2&b=1,0.5,-0.5&method=lerp&t=0.25&flip=true&shortest=false&circle=-6,6&predict=true&guess=42.5&reveal=true&question=3";
    let page = opened(all);
    assert_eq!(page.section, Section::Gimbal, "`show` wins");
    assert_eq!(page.exercise, 2);
    assert_eq!(page.link().to_string(), all);
    assert_eq!(page.prediction.map(|p| p.guess), Some(42.5));
    assert!(!page.answer_hidden());
    let declared: std::collections::BTreeSet<_> =
        <QuaternionsPage as skinlab::page::Lesson>::PARAMS
            .iter()
            .map(|p| p.key.to_owned())
            .collect();
    let set: std::collections::BTreeSet<_> = Link::parse(all)
        .unwrap()
        .params
        .into_iter()
        .map(|(k, _)| k)
        .collect();
    assert_eq!(set, declared, "the link sets every declared key");
    assert_eq!(
        <QuaternionsPage as skinlab::page::Lesson>::PARAMS
            .last()
            .map(|p| p.key),
        Some("question"),
        "`question` scrolls to the check cell, so it comes last"
    );

    // A section implied by keys; `show` wins whatever the order in the link.
    assert_eq!(
        opened("quaternions?t=0.2&show=quaternion").section,
        Section::Quaternion
    );
    assert_eq!(opened("quaternions?b=1,0,0").section, Section::Interpolate);

    for (bad, expected) in [
        ("quaternions?method=squad", "one of: lerp, nlerp, slerp"),
        ("quaternions?pitch=2", "a number from -1.5708 to 1.5708"),
        (
            "quaternions?b=1,2",
            "3 numbers separated by commas, each from -3.1416 to 3.1416",
        ),
        ("quaternions?flip=often", "true or false"),
        (
            "quaternions?show=keys",
            "one of: gimbal, quaternion, interpolate",
        ),
        ("quaternions?question=5", "a whole number from 1 to 4"),
        (
            "quaternions?circle=1,2,3",
            "2 numbers separated by commas, each from -6.2832 to 6.2832",
        ),
        ("quaternions?predict=maybe", "true or false"),
        ("quaternions?guess=200", "a number from 0 to 180"),
        ("quaternions?guess=-1", "a number from 0 to 180"),
        ("quaternions?guess=nan", "a number from 0 to 180"),
        ("quaternions?reveal=soon", "true or false"),
    ] {
        let mut page = QuaternionsPage::default();
        let err = open(&mut page, &Link::parse(bad).unwrap())
            .expect_err(bad)
            .to_string();
        assert!(err.contains(expected), "{bad}: {err}");
        assert_eq!(
            page.link().to_string(),
            "quaternions",
            "{bad}: defaults kept"
        );
    }
}

/// The readout's last line names the turn of the highlighted point.
fn turn_label(page: &QuaternionsPage) -> String {
    let blend = page.circle_blend();
    let theta = blend.turn_along(blend.at(page.method, page.t));
    format!("turns the object by θ = {:.0}°", theta.to_degrees() + 0.0)
}

#[test]
fn the_half_angle_circle_follows_its_link_and_t() {
    let early = opened("quaternions?circle=0.5,3&t=0.2");
    let late = opened("quaternions?circle=0.5,3&t=0.8");
    assert_eq!(early.circle, [0.5, 3.0]);
    let (early_label, late_label) = (turn_label(&early), turn_label(&late));
    assert_ne!(early_label, late_label, "t moves the highlighted point");
    let harness = page_harness(early, &["half_angle"]);
    assert!(harness.query_by_label("half-angle circle").is_some());
    assert!(
        harness.query_by_label_contains(&early_label).is_some(),
        "{early_label}"
    );
    let mut harness = page_harness(late, &["half_angle"]);
    assert!(
        harness.query_by_label_contains(&late_label).is_some(),
        "{late_label}"
    );
    // The short-way check is the page's own.
    harness.get_by_label_contains("Short way").click();
    harness.run_steps(2);
    assert!(!harness.state().shortest);
}

#[test]
fn dragging_on_the_circle_moves_a_b_and_t() {
    let mut harness = page_harness(opened("quaternions?circle=0.5,3&t=0.2"), &["half_angle"]);
    let frame = harness.state().circle_frame;
    assert!(frame.radius > 50.0, "{frame:?}");

    // B to the point at 2 radians on the circle: a turn of 4 radians.
    let b = point_of(3.0);
    drag(
        &mut harness,
        frame.to_screen(b),
        frame.to_screen(point_of(4.0)),
    );
    let [a, b] = harness.state().circle;
    assert_eq!(a, 0.5, "A stays");
    assert!((b - 4.0).abs() < 0.05, "B moved to {b}");

    // −A dragged: A goes to the opposite point.
    let target = point_of(2.0);
    drag(
        &mut harness,
        frame.to_screen(-point_of(0.5)),
        frame.to_screen(target),
    );
    let a = harness.state().circle[0];
    let expected = turn_at(-target);
    assert!(
        (a - expected).abs() < 0.05,
        "A moved to {a}, not {expected}"
    );

    // The highlighted point dragged along the path: t follows.
    let page = harness.state();
    let blend: Blend = page.circle_blend();
    let (from, to) = (blend.at(page.method, page.t), blend.at(page.method, 0.9));
    drag(&mut harness, frame.to_screen(from), frame.to_screen(to));
    let t = harness.state().t;
    assert!((t - 0.9).abs() < 0.03, "t = {t}");
    assert!(
        harness.state().link().to_string().contains("circle="),
        "{}",
        harness.state().link()
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
    submit(&mut harness, &[(&yaw, &format!("{:.1}", gimbal_answer()))]);
    assert!(harness.query_by_label("Right.").is_some());
}

/// The nose's turn from A at `t`, in degrees, worked from the page's own math: the
/// interpolated quaternion's raw matrix applied to A's nose, +z.
fn nose_truth(page: &QuaternionsPage) -> f32 {
    let q = page.interpolated(page.method, page.t);
    let nose = skin::rotation::object_matrix(q).transform_vector3(glam::Vec3::Z);
    nose.angle_between(glam::Vec3::Z).to_degrees()
}

fn shows<S>(harness: &egui_kittest::Harness<'_, S>, text: &str) -> bool {
    harness.query_all_by_label_contains(text).next().is_some()
}

#[test]
fn predicting_hides_the_turn_until_reveal_then_judges_the_guess() {
    use skinlab::pages::quaternions::predict::{CLOSE, RIGHT_ON};
    let link = "quaternions?method=lerp&t=0.5&predict=true";
    let mut harness = page_harness(opened(link), &["interpolate"]);
    let page = harness.state();
    assert_eq!(
        page.section,
        Section::Interpolate,
        "predict opens the sphere"
    );
    assert!(page.answer_hidden() && page.judgement().is_none());
    let hidden_truth = format!("{:.1}°", nose_truth(page));
    for readout in [
        "° from A; the nose",
        "q(t) = (",
        "det of its matrix",
        "off by",
        &hidden_truth,
    ] {
        assert!(!shows(&harness, readout), "`{readout}` is hidden");
    }
    assert!(shows(&harness, "hidden until you reveal"));

    kit::type_into(&mut harness, "guess degrees", "30");
    harness.key_press(egui::Key::Enter);
    harness.run_steps(2);
    assert_eq!(harness.state().prediction.map(|p| p.guess), Some(30.0));
    assert!(harness.state().answer_hidden(), "typing does not reveal");
    harness.get_by_label("Reveal").click();
    harness.run_steps(2);

    let page = harness.state();
    let truth = nose_truth(page);
    // The LERP glider is squashed: its nose lags NLERP's.
    let mut nlerp = opened("quaternions?method=nlerp&t=0.5");
    assert!(nose_truth(&nlerp) - truth > 10.0, "{truth}");
    let difference = (30.0 - truth).abs();
    let (shown, judged) = page.judgement().expect("revealed");
    assert!((shown - truth).abs() < 1e-3, "{shown} vs {truth}");
    assert!((judged.distance - difference).abs() < 1e-3);
    let verdict = if difference <= RIGHT_ON {
        "right on"
    } else if difference <= CLOSE {
        "close"
    } else {
        "far"
    };
    let text = format!("off by {difference:.1}°, {verdict}");
    assert!(shows(&harness, &text), "`{text}` is shown");
    assert!(shows(&harness, &format!("the nose {truth:.1}° from A's")));
    assert_eq!(
        page.link().to_string(),
        "quaternions?method=lerp&predict=true&guess=30&reveal=true"
    );

    // A new t is a new question: hidden again, the guess kept.
    harness.state_mut().t = 0.7;
    harness.run_steps(2);
    let page = harness.state();
    assert!(page.answer_hidden() && !shows(&harness, "off by"));
    assert_eq!(page.prediction.map(|p| p.guess), Some(30.0));
    // Back to t = 0.5 stays hidden; so does another method.
    harness.state_mut().t = 0.5;
    harness.run_steps(2);
    assert!(harness.state().answer_hidden());
    harness.get_by_label("Reveal").click();
    harness.run_steps(2);
    assert!(!harness.state().answer_hidden());
    harness.get_by_label("SLERP").click();
    harness.run_steps(2);
    assert!(harness.state().answer_hidden() && !shows(&harness, "off by"));

    // A guess right at the truth is right on.
    nlerp.prediction = None;
    let mut page = opened(&format!(
        "quaternions?method=nlerp&t=0.5&predict=true&guess={:.2}&reveal=true",
        nose_truth(&nlerp)
    ));
    let (_, judged) = page.judgement().expect("revealed by the link");
    assert_eq!(judged.verdict.text(), "right on");
    page.target[0] += 0.1;
    assert!(page.judgement().is_none(), "a new B hides the answer");
}

#[test]
fn bad_prediction_keys_are_named_and_the_good_ones_still_apply() {
    let mut page = QuaternionsPage::default();
    let link =
        Link::parse("quaternions?method=lerp&t=0.3&predict=yes&guess=400&reveal=true").unwrap();
    let error = open(&mut page, &link).unwrap_err().to_string();
    for part in ["`predict=yes`", "`guess=400`"] {
        assert!(error.contains(part), "{part}: {error}");
    }
    assert_eq!((page.method, page.t), (Interp::Lerp, 0.3));
    let p = page.prediction.expect("reveal alone starts a prediction");
    assert_eq!(p.guess, 0.0);
    assert!(!page.answer_hidden());
    assert_eq!(
        opened("quaternions?predict=false").link().to_string(),
        "quaternions"
    );
}

#[test]
fn the_turn_cell_gives_what_the_matrix_gives() {
    let page = opened("quaternions?show=quaternion&yaw=0.8&pitch=0.4&roll=0.3");
    let q = skin::rotation::euler_quat(page.euler);
    let by_matrix = skin::rotation::quat_matrix(q) * glam::Vec3::X;
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
