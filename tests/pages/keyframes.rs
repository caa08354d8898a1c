//! The keyframes page driven like a user would: the player and its timeline, the
//! sample of two keys, the check cell and links.

use crate::kit;

use egui_kittest::kittest::{NodeT as _, Queryable as _};
use kit::{page_harness, submit};
use skinlab::page::Page;
use skinlab::pages::keyframes::KeyframesPage;
use skinlab::ui::check::field_label;

fn opened(link: &str) -> KeyframesPage {
    crate::opened(link)
}

#[test]
fn play_runs_the_clock_and_scrubbing_pauses_it() {
    let mut page = opened("keyframes?time=1");
    assert!(!page.tick(0.5), "paused");
    assert_eq!(page.time, 1.0);
    page.playing = true;
    assert!(page.tick(0.5));
    assert!((page.time - 1.5).abs() < 1e-6);
    page.speed = -2.0;
    page.tick(1.0);
    assert!(
        (page.time - 3.5).abs() < 1e-5,
        "backwards, wrapping: {}",
        page.time
    );
    // While playing, the time changes every frame: the link says `play` instead.
    assert_eq!(page.link().to_string(), "keyframes?play=true&speed=-2");

    let mut harness = page_harness(KeyframesPage::default(), &["player"]);
    harness.get_by_label("Play").click();
    harness.run_steps(2);
    assert!(harness.state().playing);
    let before = harness.state().arm_palette();
    harness.state_mut().tick(0.7);
    harness.run_steps(1);
    assert_ne!(harness.state().arm_palette(), before, "the arm moves");
    harness.get_by_label("Pause").click();
    harness.run_steps(2);
    assert!(!harness.state().playing);
}

#[test]
fn a_click_on_the_timeline_scrubs_and_pauses() {
    let mut page = KeyframesPage::default();
    page.playing = true;
    let mut harness = page_harness(page, &["player"]);
    let rect = harness
        .get_by_role_and_label(egui::accesskit::Role::Slider, "timeline")
        .rect();
    kit::click_at(&mut harness, rect.center());
    harness.run_steps(2);
    let page = harness.state();
    assert!(!page.playing, "scrubbing pauses");
    assert!(
        (page.time - 2.0).abs() < 0.1,
        "the middle of the timeline is 2 s ({})",
        page.time
    );
}

#[test]
fn the_sample_cell_names_the_two_keys_and_the_factor() {
    // The elbow's rotation keys sit at 0 s and 1.5 s: at 0.75 s it is halfway.
    let harness = page_harness(opened("keyframes?time=0.75&joint=elbow"), &["sample"]);
    assert!(
        harness
            .query_by_label_contains("factor u = (τ − t0) / (t1 − t0) = 0.500")
            .is_some()
    );
    assert!(
        harness
            .query_by_label_contains("elbow at τ = 0.75 s")
            .is_some()
    );
}

#[test]
fn the_check_cell_accepts_the_right_answer_and_rejects_others() {
    let mut harness = page_harness(KeyframesPage::default(), &["check"]);
    let [u, x, y, z] = ["u", "x", "y", "z"].map(|l| field_label("keyframe", l));
    // Keys (0, 0, 0) at 1 s and (2, 4, 0) at 3 s, sampled at 1.5 s.
    submit(
        &mut harness,
        &[(&u, "0.25"), (&x, "0.5"), (&y, "1"), (&z, "0")],
    );
    assert!(harness.query_by_label("Right.").is_some());
    // The factor measured from 0 s instead of the first key.
    submit(&mut harness, &[(&u, "0.5"), (&x, "1"), (&y, "2")]);
    assert!(
        harness
            .query_by_label_contains("Not yet: check u, x, y")
            .is_some()
    );

    // The rotation exercise asks for the factor and an angle.
    let mut harness = page_harness(opened("keyframes?question=2"), &["check"]);
    let angle = field_label("keyframe", "angle");
    submit(&mut harness, &[(&u, "0.75"), (&angle, "75")]);
    assert!(harness.query_by_label("Right.").is_some());
}

#[test]
fn links_round_trip_and_bad_values_are_refused() {
    // `play=true` writes no `time` (it changes every frame): two links set every key.
    kit::assert_every_key_round_trips::<KeyframesPage>(&[
        "keyframes?time=2.5&speed=0.5&joint=elbow&interpolation=step&question=3",
        "keyframes?play=true&interpolation=cubicspline",
    ]);
    let page = opened("keyframes?joint=elbow&question=3");
    assert_eq!((page.joint, page.exercise), (1, 2));
    assert_eq!(KeyframesPage::default().link().to_string(), "keyframes");
    kit::assert_refused::<KeyframesPage>(&["keyframes?show=keyframes"]);
}

#[test]
fn every_cell_draws_without_error() {
    let page = opened("keyframes?time=1.2");
    let harness = kit::every_cell_drawn(page);
    assert!(harness.query_by_label_contains("Local matrix").is_some());
}

#[test]
fn the_curves_cell_switches_the_interpolation_the_arm_plays() {
    let mut harness = page_harness(opened("keyframes?time=1.99"), &["curves", "sample"]);
    let linear = harness.state().samples()[0].translation.y;
    // The button, drawn before the plot's legend of the same name.
    let click_first = |h: &egui_kittest::Harness<'_, KeyframesPage>, label: &str| {
        h.get_all_by_label(label).next().expect(label).click();
    };
    click_first(&harness, "STEP");
    harness.run_steps(2);
    assert_eq!(
        harness.state().link().to_string(),
        "keyframes?time=1.99&interpolation=step"
    );
    // STEP holds the key before 2 s: the shoulder has not risen yet.
    assert_eq!(harness.state().samples()[0].translation.y, 0.0);
    assert!(linear > 0.9, "LINEAR had nearly reached the key: {linear}");
    assert!(
        harness
            .query_by_label_contains("STEP holds key 0")
            .is_some()
    );
    click_first(&harness, "CUBICSPLINE");
    harness.run_steps(2);
    assert!(
        harness
            .query_by_label_contains("Hermite (h00, h10, h01, h11) = (")
            .is_some()
    );
}

#[test]
fn a_cubic_sample_prints_every_number_its_sum_needs() {
    // The elbow's rotation between its keys at 0 s and 1.5 s, on the cubic spline.
    let harness = page_harness(
        opened("keyframes?time=0.6&joint=elbow&interpolation=cubicspline"),
        &["sample"],
    );
    let node = harness
        .query_by_label_contains("Δt · out0")
        .expect("the sample shows the scaled tangents")
        .accesskit_node();
    let text = node.label().or(node.value()).expect("a text").to_string();
    // The numbers of the first line that starts with `start`, after it.
    let numbers = |start: &str| -> Vec<f32> {
        let line = text
            .lines()
            .find_map(|l| l.trim_start().strip_prefix(start))
            .unwrap_or_else(|| panic!("a line `{start}` in {text}"));
        line.split(|c: char| !(c.is_ascii_digit() || c == '.' || c == '-'))
            .filter_map(|n| n.parse().ok())
            .collect()
    };
    let keys: Vec<Vec<f32>> = text
        .lines()
        .filter(|l| l.contains(" s  ("))
        .take(2)
        .map(|l| {
            let (_, value) = l.split_once(" s  ").unwrap();
            value
                .split(|c: char| !(c.is_ascii_digit() || c == '.' || c == '-'))
                .filter_map(|n| n.parse().ok())
                .collect()
        })
        .collect();
    let h = numbers("Hermite (h00, h10, h01, h11) = ");
    let (out0, in1) = (numbers("Δt · out0 = "), numbers("Δt · in1  = "));
    let rotation = numbers("rotation         ");
    let sum: Vec<f32> = (0..4)
        .map(|i| h[0] * keys[0][i] + h[1] * out0[i] + h[2] * keys[1][i] + h[3] * in1[i])
        .collect();
    let length = sum.iter().map(|x| x * x).sum::<f32>().sqrt();
    for i in 0..4 {
        assert!(
            (sum[i] / length - rotation[i]).abs() < 0.005,
            "the printed numbers give {sum:?} / {length}, the cell prints {rotation:?}"
        );
    }
}

#[test]
fn play_and_pause_are_one_width_so_the_speed_slider_stays_put() {
    let mut harness = page_harness(KeyframesPage::default(), &["player"]);
    let slider_x = |harness: &egui_kittest::Harness<'_, KeyframesPage>| {
        let speed = harness.get_all_by_label("speed");
        speed.map(|n| n.rect().left()).fold(f32::MAX, f32::min)
    };
    let before = slider_x(&harness);
    harness.get_by_label("Play").click();
    harness.run_steps(2);
    assert!(harness.state().playing, "Play started the clip");
    assert!(harness.query_by_label("Pause").is_some());
    assert_eq!(
        slider_x(&harness),
        before,
        "the slider moved when Play became Pause"
    );
}
