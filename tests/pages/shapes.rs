//! The shapes page driven like a user would: the muscle, the bend driving the
//! corrective, the area plot's readout, picking, the check cell and links.

use crate::kit;

use egui_kittest::kittest::Queryable as _;
use kit::{click_at, page_harness, submit};
use rigs::arm;
use skinlab::page::Page;
use skinlab::pages::shapes::exercise::EXERCISES;
use skinlab::pages::shapes::{Driver, Method, ShapesPage, data, default_vertex, driven_weight};
use skinlab::ui::check::{Worked as _, field_label};

fn opened(link: &str) -> ShapesPage {
    crate::opened(link)
}

/// The largest distance between two arms' vertices (infinite where one is not a
/// number).
fn apart(page: &mut ShapesPage, a: Method, b: Method) -> f32 {
    let (a, b) = (page.skinned(a), page.skinned(b));
    a.iter()
        .zip(&b)
        .map(|(a, b)| a.position.distance(b.position))
        .fold(0.0, |most, d| {
            if d.is_nan() {
                f32::INFINITY
            } else {
                most.max(d)
            }
        })
}

/// The elbow ring's area now, relative to the bind pose, for `method`.
fn elbow_area(page: &mut ShapesPage, method: Method) -> f32 {
    let p: Vec<_> = page.skinned(method).iter().map(|v| v.position).collect();
    let bind = arm::ring_area(&data::arm().skin.positions, arm::elbow_ring());
    arm::ring_area(&p, arm::elbow_ring()) / bind
}

#[test]
fn the_fix_puts_lbs_on_dqs_at_the_bend_it_was_made_for_and_nowhere_else() {
    // The page opens with the elbow at the bend the fix was made for.
    let mut page = opened("shapes");
    assert!((page.fix_weight() - 1.0).abs() < 1e-6);
    assert!(apart(&mut page, Method::Fixed, Method::Dqs) < 1e-4);
    assert!(apart(&mut page, Method::Lbs, Method::Dqs) > 0.1);
    assert!(elbow_area(&mut page, Method::Lbs) < 0.8);
    assert!((elbow_area(&mut page, Method::Fixed) - 1.0).abs() < 0.01);
    // Halfway, the cosine driver gives 1 − cos 45°, and the fix is only close.
    let mut half = opened("shapes?bend=0.785");
    let expected = 1.0 - 0.785f32.cos();
    assert!(
        (half.fix_weight() - expected).abs() < 1e-3,
        "{}",
        half.fix_weight()
    );
    assert!((opened("shapes?bend=0.785&driver=linear").fix_weight() - 0.5).abs() < 1e-3);
    let off = apart(&mut half, Method::Fixed, Method::Dqs);
    assert!(
        off > 1e-3 && off < apart(&mut half, Method::Lbs, Method::Dqs),
        "{off}"
    );
    // Straight, all three arms agree.
    let mut straight = opened("shapes?bend=0");
    assert!(apart(&mut straight, Method::Lbs, Method::Dqs) < 1e-5);
    assert!(apart(&mut straight, Method::Fixed, Method::Lbs) < 1e-5);
}

#[test]
fn the_area_plot_follows_lbs_down_and_meets_one_where_the_fix_was_made() {
    let mut page = opened("shapes?made_at=1.3");
    let areas = page.areas();
    let [lbs, fixed, dqs] = &areas.curves;
    let last = lbs.last().expect("a curve")[1];
    assert!(lbs[0][1] > 0.999 && last < 0.4, "LBS falls: {lbs:?}");
    assert!(
        dqs.iter().all(|p| (p[1] - 1.0).abs() < 0.01),
        "DQS turns each ring whole"
    );
    // The sample nearest 1.3 rad is close to 1, and the fix is never worse than LBS.
    let near = fixed
        .iter()
        .min_by(|a, b| {
            (a[0] - 1.3f64.to_degrees())
                .abs()
                .total_cmp(&(b[0] - 1.3f64.to_degrees()).abs())
        })
        .expect("a curve");
    assert!((near[1] - 1.0).abs() < 0.02, "{near:?}");
    for (f, l) in fixed.iter().zip(lbs) {
        assert!(
            f[1] >= l[1] - 1e-4,
            "at {}°: fix {} < LBS {}",
            f[0],
            f[1],
            l[1]
        );
    }
    // Driven in a straight line, the fix comes in too early and over-mends between.
    let most = |link: &str| {
        opened(link).areas().curves[1]
            .iter()
            .map(|p| p[1])
            .fold(0.0, f64::max)
    };
    let (cosine, linear) = (most("shapes"), most("shapes?driver=linear"));
    assert!(
        cosine < 1.06 && linear > cosine + 0.04,
        "cosine {cosine}, linear {linear}"
    );
    // A fix set by hand to 0 is plain LBS.
    let by_hand = opened("shapes?fix=0").areas();
    for (f, l) in by_hand.curves[1].iter().zip(&by_hand.curves[0]) {
        assert!((f[1] - l[1]).abs() < 1e-5);
    }
}

#[test]
fn the_cells_read_out_the_weight_and_the_areas_the_page_computes() {
    let mut harness = page_harness(opened("shapes?bend=0.6"), &["corrective", "area"]);
    let weight = driven_weight(Driver::Cosine, 0.6, std::f32::consts::FRAC_PI_2);
    assert!(
        harness
            .query_by_label_contains(&format!("0, 1) = {weight:.2}"))
            .is_some(),
        "the weight's working"
    );
    let mut page = opened("shapes?bend=0.6");
    let text = format!(
        "LBS {:.0}% of the bind pose, LBS + fix {:.0}%",
        elbow_area(&mut page, Method::Lbs) * 100.0,
        elbow_area(&mut page, Method::Fixed) * 100.0
    );
    assert!(harness.query_by_label_contains(&text).is_some(), "{text}");
    // Unticking "the bend drives the fix" keeps the weight and shows its slider.
    let before = (
        harness.state().bend,
        harness.state().made_at,
        harness.state().fix_weight(),
    );
    harness.get_by_label("The bend drives the fix").click();
    harness.run_steps(2);
    assert!(!harness.state().drive);
    let after = (
        harness.state().bend,
        harness.state().made_at,
        harness.state().fix_weight(),
    );
    assert_eq!((before.0, before.1), (after.0, after.1));
    assert!((before.2 - after.2).abs() < 0.005, "{before:?} {after:?}");
    assert!((harness.state().fix_weight() - weight).abs() < 0.005);
    assert!(harness.state().link().to_string().contains("fix="));
}

#[test]
fn the_vertex_cell_adds_the_offsets_before_the_skin_and_says_how_far_after_would_be() {
    // A vertex on the forearm's top, under the muscle.
    let top = (arm::RINGS_PER_BONE * 3 / 2 + 2) * arm::SEGMENTS;
    let mut harness = page_harness(opened(&format!("shapes?vertex={top}&muscle=1")), &["shape"]);
    harness.run_steps(2);
    // The muscle lifts it by its full height; bent 90°, the wrong order is that far
    // off twice over (the lift turned, against the lift not turned): 0.3 · √2.
    let off = data::MUSCLE_HEIGHT * std::f32::consts::SQRT_2;
    assert!(
        harness
            .query_by_label_contains(&format!("{off:.2} off"))
            .is_some(),
        "{off:.2} off"
    );
    let mut straight = page_harness(opened(&format!("shapes?vertex={top}&bend=0")), &["shape"]);
    straight.run_steps(2);
    assert!(straight.query_by_label_contains("0.00 off").is_some());
}

#[test]
fn clicking_an_arm_follows_the_vertex_under_the_pointer() {
    let mut harness = page_harness(ShapesPage::default(), &["shape"]);
    harness.run_steps(2);
    // Near the forearm's end, on the side that faces the camera.
    let tip = (arm::RING_COUNT - 2) * arm::SEGMENTS + arm::SEGMENTS / 4;
    let at = harness
        .state_mut()
        .drawn_at(Method::Fixed, tip)
        .expect("the forearm's tip is on screen");
    assert!(harness.state().viewport_rect.contains(at));
    click_at(&mut harness, at);
    harness.run_steps(2);
    let picked = harness.state().vertex;
    assert_ne!(picked, default_vertex());
    let mut page = opened("shapes");
    let drawn = page.skinned(Method::Fixed);
    assert!(
        drawn[picked].position.distance(drawn[tip].position) < 0.2,
        "picked {picked}, near the tip {tip}"
    );
    assert!(harness.state().link().to_string().contains("vertex="));
}

#[test]
fn the_check_cell_takes_the_hand_worked_answers_and_names_the_wrong_order() {
    let mut harness = page_harness(opened("shapes?question=2"), &["check"]);
    let field = |label: &str| field_label("shapes", label);
    let (x, y, z) = (field("x"), field("y"), field("z"));
    // The offset added after the skin: (1.5, 1, 0) + (0, 0.3, 0).
    submit(&mut harness, &[(&x, "1.5"), (&y, "1.3"), (&z, "0")]);
    assert!(harness.query_by_label_contains("after the skin").is_some());
    let answer = EXERCISES[1].answer();
    let typed: Vec<String> = answer.iter().map(|v| format!("{v:.2}")).collect();
    submit(
        &mut harness,
        &[(&x, &typed[0]), (&y, &typed[1]), (&z, &typed[2])],
    );
    assert!(harness.query_by_label_contains("Right").is_some());
}

#[test]
fn every_key_at_once_round_trips_and_each_kind_of_bad_value_is_named() {
    kit::assert_every_key_round_trips::<ShapesPage>(&[
        "shapes?bend=1.2&made_at=0.8&driver=linear&fix=1.5&show=fixed&muscle=-0.5&vertex=100&question=3",
    ]);
}
