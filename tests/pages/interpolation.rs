//! The interpolation page driven like a user would: the method buttons and t, the
//! length and speed of each method, the shortest-path check, the half-angle circle,
//! the prediction, the check cell and links.

use crate::kit;
use skinlab::pages::predict::Predicts;

use egui_kittest::kittest::Queryable as _;
use kit::{drag, page_harness, shows, submit};
use skin::explain::rotation::{Interp, rotation_between};
use skinlab::link::Link;
use skinlab::page::{Page, open};
use skinlab::pages::interpolation::InterpolationPage;
use skinlab::pages::interpolation::circle::{Blend, point_of, turn_at};
use skinlab::ui::check::field_label;

fn opened(link: &str) -> InterpolationPage {
    crate::opened(link)
}

#[test]
fn the_method_buttons_and_t_move_the_glider() {
    let mut harness = page_harness(opened("interpolation"), &["interpolate"]);
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
    assert_eq!(harness.state().link().to_string(), "interpolation");
}

#[test]
fn slerp_turns_at_an_even_pace_on_the_page() {
    let page = opened("interpolation");
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
    let short = opened("interpolation?flip=true");
    let long = opened("interpolation?flip=true&shortest=false");
    let (a, _) = short.endpoints();
    let half_short = rotation_between(a, short.interpolated(Interp::Slerp, 0.5));
    let half_long = rotation_between(a, long.interpolated(Interp::Slerp, 0.5));
    assert!(half_long > half_short + 0.5, "{half_short} vs {half_long}");
}

/// The readout's last line names the turn of the highlighted point.
fn turn_label(page: &InterpolationPage) -> String {
    let blend = page.circle_blend();
    let theta = blend.turn_along(blend.at(page.method, page.t));
    // One decimal where a whole number would round, as the page writes it.
    let tenths = (theta.to_degrees() * 10.0).round() / 10.0 + 0.0;
    let degrees = if tenths.fract() == 0.0 {
        format!("{tenths:.0}")
    } else {
        format!("{tenths:.1}")
    };
    format!("turns the object by θ = {degrees}°")
}

#[test]
fn the_half_angle_circle_follows_its_link_and_t() {
    let early = opened("interpolation?circle=0.5,3&t=0.2");
    let late = opened("interpolation?circle=0.5,3&t=0.8");
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
    let mut harness = page_harness(opened("interpolation?circle=0.5,3&t=0.2"), &["half_angle"]);
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

/// The nose's turn from A at `t`, in degrees, worked from the page's own math: the
/// interpolated quaternion's raw matrix applied to A's nose, +z.
fn nose_truth(page: &InterpolationPage) -> f32 {
    let q = page.interpolated(page.method, page.t);
    let nose = skin::explain::rotation::object_matrix(q).transform_vector3(glam::Vec3::Z);
    nose.angle_between(glam::Vec3::Z).to_degrees()
}

#[test]
fn predicting_hides_the_turn_until_reveal_then_judges_the_guess() {
    use skinlab::pages::interpolation::predict::{CLOSE, RIGHT_ON};
    let link = "interpolation?method=lerp&t=0.5&predict=true";
    let mut harness = page_harness(opened(link), &["interpolate", "length"]);
    let page = harness.state();
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
    let mut nlerp = opened("interpolation?method=nlerp&t=0.5");
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
        "interpolation?method=lerp&predict=true&guess=30&reveal=true"
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
    // The method buttons come first; the length plot's legend names SLERP too.
    harness
        .query_all_by_label("SLERP")
        .next()
        .expect("the SLERP button")
        .click();
    harness.run_steps(2);
    assert!(harness.state().answer_hidden() && !shows(&harness, "off by"));

    // A guess right at the truth is right on.
    nlerp.prediction = None;
    let mut page = opened(&format!(
        "interpolation?method=nlerp&t=0.5&predict=true&guess={:.2}&reveal=true",
        nose_truth(&nlerp)
    ));
    let (_, judged) = page.judgement().expect("revealed by the link");
    assert_eq!(judged.verdict.text(), "right on");
    page.target[0] += 0.1;
    assert!(page.judgement().is_none(), "a new B hides the answer");
}

#[test]
fn bad_prediction_keys_are_named_and_the_good_ones_still_apply() {
    let mut page = InterpolationPage::default();
    let link =
        Link::parse("interpolation?method=lerp&t=0.3&predict=yes&guess=400&reveal=true").unwrap();
    let error = open(&mut page, &link).unwrap_err().to_string();
    for part in ["`predict=yes`", "`guess=400`"] {
        assert!(error.contains(part), "{part}: {error}");
    }
    assert_eq!((page.method, page.t), (Interp::Lerp, 0.3));
    let p = page.prediction.expect("reveal alone starts a prediction");
    assert_eq!(p.guess, 0.0);
    assert!(!page.answer_hidden());
    assert_eq!(
        opened("interpolation?predict=false").link().to_string(),
        "interpolation"
    );
}

#[test]
fn the_length_plot_shows_lerp_inside_the_sphere_and_the_others_on_it() {
    let page = opened("interpolation?method=lerp&t=0.5");
    let lerp = page.interpolated(Interp::Lerp, 0.5).length();
    assert!(lerp < 0.9, "{lerp}");
    let harness = page_harness(page, &["length"]);
    let shown = format!("LERP's q has length {lerp:.3}");
    assert!(harness.query_by_label_contains(&shown).is_some(), "{shown}");
    for key in ["|q| = 1, the unit sphere", "LERP", "NLERP", "SLERP"] {
        assert!(harness.query_by_label(key).is_some(), "the key names {key}");
    }
}

#[test]
fn the_check_cell_takes_the_blend_worked_by_hand() {
    let [x, y, z, w] = ["x", "y", "z", "w"].map(|l| field_label("quaternion", l));
    let mut harness = page_harness(InterpolationPage::default(), &["check"]);
    // SLERP halfway to 90° about z: 45°, so (0, 0, sin 22.5°, cos 22.5°).
    submit(
        &mut harness,
        &[(&x, "0"), (&y, "0"), (&z, "0.383"), (&w, "0.924")],
    );
    assert!(harness.query_by_label("Right.").is_some());
    // The same numbers are wrong for LERP, which does not normalise.
    let mut harness = page_harness(opened("interpolation?question=2"), &["check"]);
    submit(
        &mut harness,
        &[(&x, "0"), (&y, "0"), (&z, "0.383"), (&w, "0.924")],
    );
    assert!(harness.query_by_label_contains("Not yet").is_some());
    submit(&mut harness, &[(&z, "0.354"), (&w, "0.854")]);
    assert!(harness.query_by_label("Right.").is_some());
    // Past half a turn the short way heads for −B: −30°, not 150°.
    let mut harness = page_harness(opened("interpolation?question=3"), &["check"]);
    submit(
        &mut harness,
        &[(&x, "0"), (&y, "0"), (&z, "0.966"), (&w, "-0.259")],
    );
    assert!(
        harness.query_by_label_contains("Not yet").is_some(),
        "the long way"
    );
    submit(&mut harness, &[(&z, "-0.259"), (&w, "0.966")]);
    assert!(harness.query_by_label("Right.").is_some());
}

#[test]
fn links_round_trip_and_bad_values_are_refused() {
    let text = "interpolation?b=1,0.5,-0.5&method=nlerp&t=0.25&flip=true&shortest=false&circle=0.5,-2&question=2";
    let page = opened(text);
    assert_eq!(page.link().to_string(), text);
    assert_eq!(page.exercise, 1);
    assert_eq!(
        InterpolationPage::default().link().to_string(),
        "interpolation"
    );
}

#[test]
fn every_key_at_once_writes_back() {
    let all = "interpolation?b=1,0.5,-0.5&method=lerp&t=0.25&flip=true&shortest=false&circle=-6,6&predict=true&guess=42.5&reveal=true&question=3";
    kit::assert_every_key_round_trips::<InterpolationPage>(&[all]);
    let page = opened(all);
    assert_eq!(page.exercise, 2);
    assert_eq!(page.prediction.map(|p| p.guess), Some(42.5));
    assert!(!page.answer_hidden());
}

#[test]
fn every_cell_draws_without_error() {
    let page = opened("interpolation?method=lerp&t=0.5");
    let harness = kit::every_cell_drawn(page);
    assert!(shows(&harness, "LERP left the unit sphere"));
}

#[test]
fn the_circle_offers_its_pair_to_the_glider_until_the_glider_flies_it() {
    // The circle's A at 40°, B at 200°: the glider still flies the first cell's pair.
    let page = crate::opened::<InterpolationPage>("interpolation?circle=0.7,3.5&t=0.3");
    let mut harness = page_harness(page, &["half_angle"]);
    harness.run_steps(2);
    let fly = skinlab::pages::interpolation::FLY_CIRCLE;
    harness.get_by_label(fly).click();
    harness.run_steps(2);
    let page = harness.state();
    assert_eq!(page.circle, [0.0, 3.5 - 0.7]);
    assert!(
        (page.target[2] - 2.8).abs() < 1e-6 && !page.flip,
        "{:?}",
        page.target
    );
    assert!(
        harness.query_by_label(fly).is_none(),
        "the button goes once they agree"
    );
    // Past half a turn, B is stored as −q of the roll the other way, as on the circle.
    let page = crate::opened::<InterpolationPage>("interpolation?circle=0,4.4");
    let mut harness = page_harness(page, &["half_angle"]);
    harness.run_steps(2);
    harness.get_by_label(fly).click();
    harness.run_steps(2);
    let page = harness.state();
    assert!(page.flip && (page.target[2] - (4.4 - std::f32::consts::TAU)).abs() < 1e-5);
}
