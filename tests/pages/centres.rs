//! The centres page driven like a user would: the three methods on the arm, the
//! measures and their plots, the centres drawn, the cells' readouts, picking, the check
//! cell and links.

use crate::kit;

use egui_kittest::kittest::Queryable as _;
use kit::{click_at, page_harness, submit};
use rigs::arm;
use skinlab::page::Page;
use skinlab::pages::centres::exercise::EXERCISES;
use skinlab::pages::centres::{CentresPage, Method, default_vertex};
use skinlab::ui::check::{Worked as _, field_label};
use skinlab::ui::matrix::vec3_text;

fn opened(link: &str) -> CentresPage {
    crate::opened(link)
}

/// `(area, bulge)` now for `method`.
fn measures(page: &CentresPage, method: Method) -> (f32, f32) {
    let k = Method::ALL
        .iter()
        .position(|m| *m == method)
        .expect("a method");
    page.measures_now()[k]
}

#[test]
fn lbs_pinches_dqs_bulges_and_the_centres_keep_both() {
    let bent = opened("centres?bend=2");
    let (lbs, dqs, cor) = (
        measures(&bent, Method::Lbs),
        measures(&bent, Method::Dqs),
        measures(&bent, Method::Cor),
    );
    assert!(lbs.0 < 0.6, "LBS pinches the elbow: {lbs:?}");
    assert!((dqs.0 - 1.0).abs() < 0.01 && (cor.0 - 1.0).abs() < 0.01);
    assert!(dqs.1 > 1.08, "DQS bulges: {dqs:?}");
    assert!(
        cor.1 < 1.06 && cor.1 < dqs.1 - 0.04,
        "the centres bulge less: {cor:?}"
    );
    assert!((lbs.1 - 1.0).abs() < 0.02, "{lbs:?}");
    // Twisted half a turn, LBS collapses; the other two keep the ring.
    let twisted = opened("centres?twist=3.14159&bend=0");
    assert!(measures(&twisted, Method::Lbs).0 < 0.01);
    for m in [Method::Dqs, Method::Cor] {
        let (area, bulge) = measures(&twisted, m);
        assert!(
            (area - 1.0).abs() < 0.01 && (bulge - 1.0).abs() < 0.01,
            "{m:?}"
        );
    }
    // Straight, all three agree.
    let straight = opened("centres?bend=0");
    let [a, b, c] = Method::ALL.map(|m| straight.skinned(m));
    for ((a, b), c) in a.iter().zip(&b).zip(&c) {
        assert!(a.position.distance(b.position) < 1e-5 && a.position.distance(c.position) < 1e-5);
    }
}

#[test]
fn the_plots_sweep_the_bend_and_the_twist_three_ways() {
    let mut page = opened("centres");
    let curves = page.curves();
    let [lbs, dqs, cor] = &curves.area;
    assert!(
        lbs[0][1] > 0.999 && lbs.last().expect("a curve")[1] < 0.3,
        "{lbs:?}"
    );
    for curve in [dqs, cor] {
        assert!(curve.iter().all(|p| (p[1] - 1.0).abs() < 0.01));
    }
    let [_, dqs, cor] = &curves.bulge;
    let last = |c: &Vec<[f64; 2]>| c.last().expect("a curve")[1];
    assert!(
        last(dqs) > 1.08 && last(cor) < last(dqs) - 0.04,
        "{} {}",
        last(dqs),
        last(cor)
    );
    for (d, c) in dqs.iter().zip(cor) {
        assert!(
            c[1] <= d[1] + 1e-4,
            "at {}°: centres {} over DQS {}",
            c[0],
            c[1],
            d[1]
        );
    }
    let mut twist = opened("centres?sweep=twist&bend=0");
    let curves = twist.curves();
    let lbs = &curves.area[0];
    assert!((lbs.last().expect("a curve")[0] - 180.0).abs() < 1e-3);
    assert!(lbs.last().expect("a curve")[1] < 0.01);
}

#[test]
fn the_centres_lie_on_the_bone_inside_the_arm_and_move_with_it() {
    let page = opened("centres?bend=0");
    let centres = page.centres_now();
    assert!(centres.len() >= 10, "{}", centres.len());
    for c in &centres {
        assert!(c.y.abs() < 1e-3 && c.z.abs() < 1e-3, "on the axis: {c}");
    }
    // The arm drawn about them carries them in its mesh, and the shader draws it so.
    let centred = page.centred();
    assert_eq!(centred.mesh.centres.len(), arm::VERTEX_COUNT);
    let bent = opened("centres?bend=1.5");
    let moved = bent.centres_now();
    assert_eq!(moved.len(), centres.len());
    assert!(
        moved
            .iter()
            .zip(&centres)
            .any(|(m, c)| m.distance(*c) > 0.1)
    );
    let hidden = opened("centres?centres=false");
    assert!(!hidden.show_centres);
}

#[test]
fn the_cells_read_out_the_centre_the_search_and_the_vertex_the_page_skins() {
    let mut harness = page_harness(opened("centres?vertex=1560"), &["centre", "vertex"]);
    harness.run_steps(2);
    let page = opened("centres?vertex=1560");
    let centre = page.centred().mesh.centres[1560];
    assert!(
        harness
            .query_by_label_contains(&format!("p* = Σ s·a·c / Σ s·a = {}", vec3_text(centre)))
            .is_some(),
        "the centre"
    );
    let work = page.centred().work;
    assert!(work.similarities * 10 < work.every_pair, "{work:?}");
    assert!(
        harness
            .query_by_label_contains(&format!("{} similarities", work.similarities))
            .is_some()
    );
    let drawn = page.vertex_skinned(Method::Cor, 1560).expect("a vertex");
    assert!(
        harness
            .query_by_label_contains(&format!("v' = R·v + t = {}", vec3_text(drawn)))
            .is_some(),
        "v' = {drawn}"
    );
    // A vertex of one joint has no centre, and says so.
    let mut rigid = page_harness(opened("centres?vertex=0"), &["centre"]);
    rigid.run_steps(2);
    assert!(
        rigid
            .query_by_label_contains("no centre is needed")
            .is_some()
    );
}

#[test]
fn clicking_an_arm_follows_the_vertex_under_the_pointer() {
    let mut harness = page_harness(CentresPage::default(), &["vertex"]);
    harness.run_steps(2);
    // Near the forearm's end, on the side that faces the camera.
    let tip = (arm::RING_COUNT - 2) * arm::SEGMENTS + arm::SEGMENTS / 4;
    let at = harness
        .state()
        .drawn_at(Method::Cor, tip)
        .expect("the forearm's tip is on screen");
    assert!(harness.state().viewport_rect.contains(at));
    click_at(&mut harness, at);
    harness.run_steps(2);
    let picked = harness.state().vertex;
    assert_ne!(picked, default_vertex());
    let drawn = opened("centres").skinned(Method::Cor);
    assert!(
        drawn[picked].position.distance(drawn[tip].position) < 0.2,
        "picked {picked}, near the tip {tip}"
    );
    assert!(harness.state().link().to_string().contains("vertex="));
}

#[test]
fn the_check_cell_takes_the_hand_worked_answers_and_names_a_turn_about_the_origin() {
    let mut harness = page_harness(opened("centres?question=3"), &["check"]);
    let field = |label: &str| field_label("centres", label);
    let (x, y, z) = (field("x"), field("y"), field("z"));
    // (2, 0.5, 0) turned a quarter about the origin: (−0.5, 2, 0).
    submit(&mut harness, &[(&x, "-0.5"), (&y, "2"), (&z, "0")]);
    assert!(
        harness
            .query_by_label_contains("about the origin")
            .is_some()
    );
    let answer = EXERCISES[2].answer();
    let typed: Vec<String> = answer.iter().map(|v| format!("{v:.2}")).collect();
    submit(
        &mut harness,
        &[(&x, &typed[0]), (&y, &typed[1]), (&z, &typed[2])],
    );
    assert!(harness.query_by_label_contains("Right").is_some());
}

#[test]
fn every_key_at_once_round_trips_and_each_kind_of_bad_value_is_named() {
    kit::assert_every_key_round_trips::<CentresPage>(&[
        "centres?twist=1.2&bend=-1&mode=cor&centres=false&sweep=twist&vertex=100&stretch=1.5&question=3",
    ]);
}

#[test]
fn a_stretched_forearm_keeps_its_length_in_two_phases_and_plain_dqs_drops_it() {
    let straight = opened("centres?stretch=1.5&bend=0&mode=scale");
    let elbow = glam::Vec3::X * arm::BONE_LENGTH;
    let long = |page: &CentresPage, m: Method, elbow: glam::Vec3| page.hand(m).distance(elbow);
    // Two phases, linear blending and the centres carry the stretch: 2 × 1.5 = 3 long.
    for m in [Method::Dqs, Method::Lbs, Method::Cor] {
        let l = long(&straight, m, elbow);
        assert!((l - 3.0).abs() < 1e-3, "{m:?}: {l}");
    }
    // Plain DQS keeps the translation worked out with the scale, 2 − 1.5 · 2 = −1
    // along the bone, and drops the scale: the forearm slides back and keeps its 2.
    let plain = long(&straight, Method::DqsPlain, elbow);
    assert!((plain - 1.0).abs() < 1e-3, "{plain}");
    // Bent and twisted, the same.
    let bent = opened("centres?stretch=1.5&bend=1.2&twist=2");
    let elbow = arm::world_from_joint(2.0, 1.2)[1].w_axis.truncate();
    assert!((long(&bent, Method::Dqs, elbow) - 3.0).abs() < 1e-3);
    assert!((long(&bent, Method::DqsPlain, elbow) - 3.0).abs() > 0.5);
    // Twisted half a turn, the two phases keep the elbow as plain DQS does.
    let twisted = opened("centres?stretch=1.5&twist=3.14159&bend=0");
    assert!(measures(&twisted, Method::Dqs).0 > 0.95);
    assert!(measures(&twisted, Method::Lbs).0 < 0.1);

    // The scale cell: each joint's stretch, then the vertex through both steps.
    let link = "centres?stretch=1.5&bend=1.2&twist=2&mode=scale";
    let page = opened(link);
    let mut harness = page_harness(opened(link), &["scale", "vertex"]);
    harness.run_steps(2);
    let has = |text: &str| harness.query_by_label_contains(text).is_some();
    assert!(has("S[forearm] = diag(1.50, 1.00, 1.00)"));
    let v = default_vertex();
    let two = page.vertex_skinned(Method::Dqs, v).expect("a vertex");
    assert!(
        has(&format!("v' = R·(S·v) + t = {}", vec3_text(two))),
        "{two}"
    );
    let apart = page
        .vertex_skinned(Method::DqsPlain, v)
        .expect("a vertex")
        .distance(two);
    assert!(apart > 0.1, "{apart}");
    assert!(has("plain DQS, no step 1: ") && has(&format!("{apart:.2} away")));
    assert!(has("two phases 3.00, LBS 3.00, plain DQS"));
    // The vertex cell stretches first too, as the centres' shader does.
    let cor = page.vertex_skinned(Method::Cor, v).expect("a vertex");
    assert!(
        has(&format!("v' = R·S·v + t = {}", vec3_text(cor))),
        "{cor}"
    );
}
