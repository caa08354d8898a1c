//! The normals page driven like a user would: the method buttons, the scale, picking a
//! vertex, the tangent steps, the check cell and links.

mod kit;

use egui_kittest::kittest::Queryable as _;
use kit::{click_at, drag, page_harness, submit};
use skinlab::link::Link;
use skinlab::page::{Page, open};
use skinlab::pages::normals::{DEFAULT_VERTEX, NormalsPage, Show};
use skinlab::skin::normals::{NormalMethod, angle_degrees};
use skinlab::ui::check::field_label;

fn opened(link: &str) -> NormalsPage {
    let mut page = NormalsPage::default();
    open(&mut page, &Link::parse(link).expect("link parses")).expect("link opens");
    page
}

/// The largest angle between the two methods' normals over the arm.
fn apart(page: &NormalsPage) -> f32 {
    let right = page.skinned(NormalMethod::InverseTranspose);
    let naive = page.skinned(NormalMethod::Naive);
    right
        .iter()
        .zip(&naive)
        .map(|(a, b)| angle_degrees(a.normal, b.normal))
        .fold(0.0, f32::max)
}

#[test]
fn the_methods_agree_at_scale_one_and_part_under_non_uniform_scale() {
    assert!(apart(&opened("normals?scale=1&bend=0")) < 0.01);
    // Bent, the blend at the elbow is no rotation: a small error even at scale 1.
    let bent = apart(&opened("normals?scale=1&bend=1.2"));
    assert!(bent > 0.5 && bent < 20.0, "{bent}");
    assert!(apart(&opened("normals?scale=2.5")) > 30.0);
    assert!(apart(&opened("normals?scale=0.4")) > 30.0);
}

#[test]
fn the_method_buttons_choose_the_arms() {
    let mut harness = page_harness(NormalsPage::default(), &["compare"]);
    assert_eq!(harness.state().show, Show::Both);
    harness.get_by_label("M · n").click();
    harness.run_steps(2);
    assert_eq!(harness.state().show, Show::Naive);
    assert_eq!(harness.state().link().to_string(), "normals?method=naive");
    harness.get_by_label("(M⁻¹)^T · n").click();
    harness.run_steps(2);
    assert_eq!(harness.state().show, Show::InverseTranspose);
}

#[test]
fn dragging_the_view_turns_the_camera_and_keeps_the_state() {
    let mut harness = page_harness(opened("normals?method=inverse_transpose"), &["compare"]);
    let (link, camera) = (harness.state().link(), *harness.state().camera());
    let center = harness.state().viewport_rect.center();
    drag(&mut harness, center, center + egui::vec2(60.0, 0.0));
    assert_ne!(*harness.state().camera(), camera, "the view turned");
    assert_eq!(
        harness.state().link(),
        link,
        "turning the view is not state"
    );
}

#[test]
fn clicking_the_arm_picks_a_vertex_and_the_table_follows_it() {
    let mut harness = page_harness(
        opened("normals?method=inverse_transpose&bend=0"),
        &["tangent"],
    );
    let rect = harness.state().viewport_rect;
    // The forearm's muscle sits right of the centre of the view.
    click_at(
        &mut harness,
        rect.center() + egui::vec2(rect.width() * 0.12, 0.0),
    );
    harness.run_steps(2);
    let vertex = harness.state().vertex.expect("a vertex is picked");
    assert_ne!(vertex, DEFAULT_VERTEX, "the click picked another vertex");
    assert!(
        harness
            .query_by_label_contains("already perpendicular")
            .is_some(),
        "the inverse transpose leaves nothing to remove"
    );
}

#[test]
fn the_naive_tangent_needs_gram_schmidt() {
    let mut harness = page_harness(opened("normals?method=naive"), &["tangent"]);
    harness.run_steps(2);
    assert!(
        harness
            .query_by_label_contains("off perpendicular")
            .is_some()
    );
    assert!(harness.query_by_label_contains("T − (T · N) N").is_some());
}

#[test]
fn the_check_cell_accepts_the_right_answer_and_rejects_others() {
    let mut harness = page_harness(NormalsPage::default(), &["check"]);
    let [x, y, z] = ["x", "y", "z"].map(|l| field_label("normal", l));
    // diag(1, 1/2, 1) · (0.6, 0.8, 0) = (0.6, 0.4, 0), length 0.7211.
    submit(&mut harness, &[(&x, "0.832"), (&y, "0.555"), (&z, "0")]);
    assert!(harness.query_by_label("Right.").is_some());
    // The naive answer, normalised: (0.6, 1.6, 0) / 1.709.
    submit(&mut harness, &[(&x, "0.351"), (&y, "0.936")]);
    assert!(
        harness
            .query_by_label_contains("Not yet: check x, y")
            .is_some()
    );
    submit(&mut harness, &[(&z, "up")]);
    assert!(harness.query_by_label_contains("is not a number").is_some());
}

#[test]
fn links_round_trip_and_bad_values_are_refused() {
    let page = opened("normals?scale=0.5&method=naive&bend=-0.3&vertex=12&lines=false&question=3");
    let link = page.link();
    assert_eq!(opened(&link.to_string()).link(), link);
    assert_eq!(
        (page.scale, page.show, page.vertex),
        (0.5, Show::Naive, Some(12))
    );
    assert_eq!(page.exercise, 2);
    assert!(!page.show_lines);
    assert_eq!(NormalsPage::default().link().to_string(), "normals");
    kit::assert_refused::<NormalsPage>(&[
        "normals?scale=0",
        "normals?scale=nan",
        "normals?scale=9",
        "normals?method=both_ways",
        "normals?vertex=99999",
        "normals?bend=4",
        "normals?question=0",
        "normals?lines=maybe",
    ]);
    let err = open(
        &mut NormalsPage::default(),
        &Link::parse("normals?method=x").unwrap(),
    )
    .unwrap_err()
    .to_string();
    assert!(err.contains("naive, inverse_transpose, both"), "{err}");
}

#[test]
fn every_cell_draws_without_error() {
    let page = NormalsPage::default();
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
            .query_by_label_contains("the naive normals are off by up to")
            .is_some()
    );
}

#[test]
fn every_key_at_once_round_trips_and_each_kind_of_bad_value_is_named() {
    kit::assert_declared_params::<NormalsPage>(
        "normals?scale=0.5&method=inverse_transpose&bend=-1.6&vertex=1633&lines=false&question=3",
        &[
            ("scale", "0.2"),
            ("method", "both_ways"),
            ("vertex", "1634"),
            ("lines", "maybe"),
        ],
    );
}
