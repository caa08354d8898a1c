//! The grid page's "predict, then reveal" driven like a user would: the guess marker,
//! Reveal, Try again, a new question when the pose changes, and its links.

use crate::kit;
use skinlab::pages::predict::Predicts;

use egui::Vec2;
use egui_kittest::kittest::Queryable as _;
use kit::{click_at, drag, page_harness, shows};
use skinlab::link::Link;
use skinlab::page::{Page, open};
use skinlab::pages::grid::GridPage;
use skinlab::pages::grid::data::{self, BONE_COUNT, POSITIONS, WEIGHTS};
use skinlab::pages::grid::predict::{CLOSE, RIGHT_ON};

fn opened(link: &str) -> GridPage {
    crate::opened(link)
}

/// Where `vertex` lands at `angles`, worked from the grid's data: each bone's gradient
/// applied to the bind position, weighted.
fn truth(angles: [f32; BONE_COUNT], vertex: usize) -> glam::Vec2 {
    let palette = data::palette(angles);
    let [x, y] = POSITIONS[vertex];
    let bind = glam::Vec3::new(x, y, 0.0);
    WEIGHTS[vertex]
        .iter()
        .map(|(bone, w)| palette[*bone].transform_point3(bind) * *w)
        .sum::<glam::Vec3>()
        .truncate()
}

fn verdict(distance: f32) -> &'static str {
    if distance <= RIGHT_ON {
        "right on"
    } else if distance <= CLOSE {
        "close"
    } else {
        "far"
    }
}

#[test]
fn the_predict_button_hides_the_vertex_and_pauses() {
    let mut harness = page_harness(GridPage::default(), &["predict"]);
    assert!(harness.state().prediction.is_none());
    harness.get_by_label("Predict vertex 2").click();
    harness.run_steps(2);
    let page = harness.state();
    assert_eq!(page.prediction.map(|p| p.vertex()), Some(2));
    assert_eq!(page.hidden_vertex(), Some(2));
    assert!(
        !page.playing,
        "a question about a moving chain has no answer"
    );
    assert!(shows(&harness, "Drag the blue ring"));
}

#[test]
fn while_predicting_the_inspector_keeps_the_answer_back() {
    let link = "grid?angle=0.8&vertex=2&predict=2";
    let mut harness = page_harness(opened(link), &["predict", "vertex"]);
    assert!(!harness.state().revealed());
    assert!(
        shows(&harness, "stays hidden until you reveal"),
        "the inspector says why it shows no working"
    );
    for answer in ["weighted sum", "blended matrix", "distance", "lands at"] {
        assert!(!shows(&harness, answer), "`{answer}` is not shown yet");
    }
    // The bind position and the weights are the question, not the answer.
    assert!(shows(&harness, "bind position (2.00, 1.00)"));

    harness.get_by_label("Reveal").click();
    harness.run_steps(2);
    assert!(harness.state().revealed());
    for answer in ["weighted sum", "blended matrix", "distance", "lands at"] {
        assert!(shows(&harness, answer), "`{answer}` is shown once revealed");
    }
    assert!(!shows(&harness, "stays hidden"));
}

#[test]
fn a_hidden_vertex_cannot_be_found_by_clicking() {
    let mut harness = page_harness(opened("grid?angle=0.8&predict=2"), &["predict"]);
    let page = harness.state();
    let b0 = page.joint_screen[0];
    let units = b0.distance(page.joint_screen[1]) / 4.0;
    let at = truth([0.8; BONE_COUNT], 2);
    let on_screen = b0 + Vec2::new(at.x, -at.y) * units;
    click_at(&mut harness, on_screen);
    harness.run_steps(1);
    assert_eq!(harness.state().vertex, None);
}

#[test]
fn dragging_the_guess_marker_moves_the_guess() {
    let mut harness = page_harness(opened("grid?angle=0.8&predict=2"), &["predict"]);
    let page = harness.state();
    let before = page.prediction.expect("predicting").guess;
    assert_eq!(
        before,
        glam::Vec2::new(2.0, 1.0),
        "the guess starts at bind"
    );
    let angles = page.angles;
    let marker = page.guess_screen.expect("the marker is on screen");
    let units = page.joint_screen[0].distance(page.joint_screen[1]) / 4.0;
    drag(&mut harness, marker, marker + Vec2::new(60.0, -40.0));
    let page = harness.state();
    let after = page.prediction.expect("still predicting").guess;
    let moved = after - before;
    let expected = glam::Vec2::new(60.0, 40.0) / units;
    assert!(
        (moved - expected).length() < 0.1,
        "moved {moved}, expected {expected}"
    );
    assert_eq!(page.angles, angles, "the guess is not a joint");
    assert!(!page.revealed(), "dragging does not reveal");
    assert_eq!(
        page.link().to_string(),
        format!("grid?angle=0.8&predict=2&guess={},{}", after.x, after.y),
        "the link carries the dragged guess"
    );
}

#[test]
fn typing_the_guess_moves_it() {
    let mut harness = page_harness(opened("grid?angle=0.8&predict=2"), &["predict"]);
    kit::type_into(&mut harness, "guess x", "3.5");
    kit::type_into(&mut harness, "guess y", "-1.25");
    harness.key_press(egui::Key::Enter);
    harness.run_steps(2);
    let guess = harness.state().prediction.expect("predicting").guess;
    assert_eq!(guess, glam::Vec2::new(3.5, -1.25));
}

#[test]
fn reveal_shows_the_distance_from_the_guess_to_the_skinned_vertex() {
    for (angles, vertex, guess) in [
        ("angle=0.8", 2, [3.0, 2.0]),
        ("angles=0,0.9,0", 6, [5.5, 2.0]),
        ("angles=-0.5,1.2,0.4", 7, [2.0, 4.5]),
    ] {
        let link = format!(
            "grid?{angles}&predict={vertex}&guess={},{}",
            guess[0], guess[1]
        );
        let mut harness = page_harness(opened(&link), &["predict"]);
        assert!(!shows(&harness, "distance"), "{link}");
        harness.get_by_label("Reveal").click();
        harness.run_steps(2);
        let page = harness.state();
        let want = truth(page.angles, vertex);
        let skinned = page.skinned_positions()[vertex].truncate();
        assert!(
            skinned.abs_diff_eq(want, 1e-5),
            "{link}: the page skins {skinned}, the data gives {want}"
        );
        let distance = glam::Vec2::from(guess).distance(want);
        let (at, judged) = page.judgement().expect("revealed");
        assert!(at.abs_diff_eq(want, 1e-5), "{link}: {at}");
        assert!((judged.distance - distance).abs() < 1e-5, "{link}");
        let text = format!("distance {distance:.2}: {}", verdict(distance));
        assert!(shows(&harness, &text), "{link}: `{text}` is shown");
        assert_eq!(page.link().to_string(), format!("{link}&reveal=true"));
    }
}

#[test]
fn a_new_pose_or_vertex_hides_the_truth_again() {
    let link = "grid?angle=0.8&predict=2&guess=3,2&reveal=true";
    let mut harness = page_harness(opened(link), &["predict"]);
    assert!(harness.state().revealed() && shows(&harness, "distance"));

    // Bend b2 by hand in the viewport: a new question.
    let (b1, b2) = (
        harness.state().joint_screen[1],
        harness.state().joint_screen[2],
    );
    drag(&mut harness, b2, b2 + (b2 - b1).rot90() * 0.5);
    let page = harness.state();
    assert_ne!(page.angles, [0.8; BONE_COUNT], "b2 turned");
    assert!(!page.revealed() && page.hidden_vertex() == Some(2));
    assert!(!shows(&harness, "distance"));
    assert_eq!(
        page.prediction.map(|p| p.guess),
        Some(glam::Vec2::new(3.0, 2.0)),
        "the guess stays for the new question"
    );

    // Reveal, then Try again: hidden, and the guess can move again.
    harness.get_by_label("Reveal").click();
    harness.run_steps(2);
    assert!(harness.state().revealed());
    harness.get_by_label("Try again").click();
    harness.run_steps(2);
    assert!(!harness.state().revealed());

    // Reveal, then pick another vertex: hidden, the guess back at its bind position.
    harness.get_by_label("Reveal").click();
    harness.run_steps(2);
    harness.get_by_label("5").click();
    harness.run_steps(2);
    let page = harness.state();
    assert_eq!(page.hidden_vertex(), Some(5));
    assert_eq!(
        page.prediction.map(|p| p.guess),
        Some(glam::Vec2::from(POSITIONS[5]))
    );

    // The link names a reveal; an animation frame after it is a new pose.
    let mut page = opened(link);
    page.playing = true;
    skinlab::page::Page::tick(&mut page, 0.5);
    assert!(!page.revealed());
}

#[test]
fn every_key_round_trips_and_each_bad_value_is_named() {
    let links = [
        "grid?angle=0.8&bone=2&vertex=4&forget_inverse_bind=true&predict=5&guess=3.5,-1.25&reveal=true&question=2",
        "grid?angles=0.1,-0.2,0.3&predict=2",
    ];
    let mut keys = std::collections::BTreeSet::from(["t".to_owned()]);
    for link in links {
        let page = opened(link);
        assert_eq!(page.link().to_string(), link, "written back as given");
        keys.extend(
            Link::parse(link)
                .unwrap()
                .params
                .into_iter()
                .map(|(k, _)| k),
        );
    }
    // `t` pauses at a time of the animation and is written as the angle it gives.
    let page = opened("grid?t=1");
    assert_eq!(page.angles, [data::animated_angle(1.0); BONE_COUNT]);
    let declared = <GridPage as skinlab::page::Lesson>::PARAMS
        .iter()
        .map(|p| p.key.to_owned())
        .collect();
    assert_eq!(keys, declared, "the links set every declared key");

    // Bad values are named, and the good keys beside them still apply.
    let mut page = GridPage::default();
    let link = Link::parse("grid?angle=0.8&predict=12&guess=1,2&reveal=perhaps").unwrap();
    let error = open(&mut page, &link).unwrap_err().to_string();
    for part in ["`predict=12`", "`reveal=perhaps`"] {
        assert!(error.contains(part), "{part}: {error}");
    }
    assert_eq!(page.angles, [0.8; BONE_COUNT]);
    let p = page.prediction.expect("a guess starts predicting vertex 2");
    assert_eq!((p.vertex(), p.guess), (2, glam::Vec2::new(1.0, 2.0)));
    assert!(!page.revealed());
}

/// Each bone's x and y axis is lettered at its tip in the viewport, in the axis's own
/// colour: a reader who tells red from green poorly reads the letter instead.
#[test]
fn each_bones_axes_are_lettered_at_their_tips() {
    let harness = page_harness(opened("grid?angle=0"), &[]);
    let letters = |name: &str| -> Vec<egui::Color32> {
        harness
            .output()
            .shapes
            .iter()
            .filter_map(|c| match &c.shape {
                egui::Shape::Text(t) if t.galley.job.text == name => {
                    t.galley.job.sections.first().map(|s| s.format.color)
                }
                _ => None,
            })
            .collect()
    };
    let (x, y) = (letters("x"), letters("y"));
    assert_eq!((x.len(), y.len()), (BONE_COUNT, BONE_COUNT), "{x:?} {y:?}");
    assert!(x.iter().all(|c| c.r() > c.g() && c.r() > c.b()), "x: {x:?}");
    assert!(y.iter().all(|c| c.g() > c.r() && c.g() > c.b()), "y: {y:?}");
}
