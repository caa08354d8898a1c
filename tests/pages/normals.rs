//! The normals page driven like a user would: the method buttons, the scale, picking a
//! vertex, the tangent steps, the check cell and links.

use crate::kit;

use egui_kittest::kittest::{NodeT as _, Queryable as _};
use kit::{click_at, drag, page_harness, submit};
use skin::normals::{NormalMethod, angle_degrees};
use skinlab::page::Page;
use skinlab::pages::normals::{DEFAULT_VERTEX, NormalsPage, Show, data};
use skinlab::ui::check::field_label;

fn opened(link: &str) -> NormalsPage {
    crate::opened(link)
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
fn with_the_elbow_straight_and_scale_one_every_method_is_the_true_normal() {
    let errors = opened("normals?scale=1&bend=0").normal_errors();
    assert_eq!(errors.skipped, 0);
    assert!(errors.naive.max < 0.01, "{errors:?}");
    assert!(errors.inverse_transpose.max < 0.01, "{errors:?}");
}

#[test]
fn where_one_bone_rules_the_inverse_transpose_is_the_true_normal_at_any_scale() {
    let limb = data::limb().expect("the limb builds");
    // Tube vertices with a single weight of 1, and the bone that moves each.
    let rigid: Vec<(usize, u32)> = limb.skin.influences[..data::TUBE_VERTICES]
        .iter()
        .enumerate()
        .filter(|(_, i)| i.weights[0] == 1.0)
        .map(|(v, i)| (v, i.joints[0]))
        .collect();
    assert!(rigid.iter().any(|(_, j)| *j == 0) && rigid.iter().any(|(_, j)| *j == 1));
    for bend in [0.0f32, 1.2, -1.6] {
        for scale in [0.25f32, 0.4, 2.5, 3.0] {
            let page = opened(&format!("normals?bend={bend}&scale={scale}"));
            let (mut right, mut naive) = (0.0f32, 0.0f32);
            for &(v, joint) in &rigid {
                let [truth, n, r] = page.vertex_normals(v).expect("a rigid vertex has normals");
                right = right.max(angle_degrees(r, truth));
                if joint == 1 {
                    naive = naive.max(angle_degrees(n, truth));
                }
            }
            // Within the difference's own error: on the blend's edge it reaches 0.05°.
            assert!(right < 0.1, "bend {bend} scale {scale}: {right}°");
            // diag(1, s, 1) tilts a normal at 45° in y most: atan(s) against atan(1/s).
            let tilt = (scale.atan() - (1.0 / scale).atan()).abs().to_degrees();
            assert!(
                naive > 0.9 * tilt,
                "bend {bend} scale {scale}: {naive}° < {tilt}°"
            );
        }
    }
}

#[test]
fn near_the_bent_elbow_neither_method_is_the_true_normal() {
    let page = opened("normals?bend=1.2&scale=1");
    let errors = page.normal_errors();
    assert_eq!(errors.skipped, 0);
    for spread in [errors.naive, errors.inverse_transpose] {
        assert!(spread.max > 20.0, "{errors:?}");
    }
    // Each is further from the truth than from the other method.
    assert!(
        errors.inverse_transpose.max > 2.0 * errors.between.max,
        "{errors:?}"
    );
    // The worst vertex is a blended one: two bones move it.
    let limb = data::limb().expect("the limb builds");
    let worst = (0..data::TUBE_VERTICES)
        .max_by(|a, b| {
            let off = |v: usize| {
                page.vertex_normals(v)
                    .map_or(0.0, |[truth, _, r]| angle_degrees(r, truth))
            };
            off(*a).total_cmp(&off(*b))
        })
        .expect("the tube has vertices");
    assert_eq!(
        limb.skin.influences[worst].used().count(),
        2,
        "vertex {worst}"
    );
    // Straighten the elbow and the error there is gone.
    let straight = opened("normals?bend=0&scale=1");
    let [truth, _, r] = straight.vertex_normals(worst).expect("normals");
    assert!(angle_degrees(r, truth) < 0.01);
}

#[test]
fn the_chapter_quotes_the_angles_the_page_computes_at_bend_1_2() {
    let errors = opened("normals?bend=1.2&scale=1").normal_errors();
    let chapter = <NormalsPage as skinlab::page::Lesson>::INFO.chapter;
    assert!(chapter.contains("(skinlab:normals?bend=1.2&scale=1&at=error)"));
    for angle in [
        errors.naive.max,
        errors.inverse_transpose.max,
        errors.between.max,
    ] {
        let quoted = format!("about {angle:.0}°");
        assert!(chapter.contains(&quoted), "the chapter says {quoted}");
    }
}

#[test]
fn the_error_cell_reads_out_the_angles_at_the_vertical_line() {
    let mut harness = page_harness(opened("normals?bend=1.2&scale=1"), &["error"]);
    harness.run_steps(2);
    let errors = harness.state().normal_errors();
    for spread in [errors.naive, errors.inverse_transpose, errors.between] {
        for value in [spread.max, spread.mean] {
            let text = format!("{value:.1}°");
            assert!(
                harness.query_all_by_label(&text).next().is_some(),
                "the table shows {text}"
            );
        }
    }
    assert!(harness.query_by_label_contains("left out").is_none());
}

#[test]
fn the_error_cell_rings_the_vertex_where_a_method_is_furthest_off() {
    // "About 37° off at the crease inside the elbow": the button picks that vertex,
    // and the tangent cell then gives the same angle for it.
    let mut harness = page_harness(opened("normals?bend=1.2&scale=1"), &["error"]);
    harness.run_steps(2);
    let errors = harness.state().normal_errors();
    let worst = errors.inverse_transpose.worst.expect("angles measured");
    harness
        .get_by_label(&format!("(M⁻¹)^T · n, vertex {worst}"))
        .click();
    harness.run_steps(2);
    assert_eq!(harness.state().vertex, Some(worst));
    let [truth, _, right] = harness.state().vertex_normals(worst).expect("normals");
    let angle = angle_degrees(right, truth);
    assert!(
        (angle - errors.inverse_transpose.max).abs() < 1e-3,
        "vertex {worst} is {angle}° off, the table's largest {}°",
        errors.inverse_transpose.max
    );
}

#[test]
fn the_tangent_table_gives_each_normal_s_angle_from_the_true_normal() {
    // The default vertex is on the forearm, which alone moves it.
    let mut harness = page_harness(NormalsPage::default(), &["tangent"]);
    harness.run_steps(2);
    assert!(
        harness
            .query_by_label_contains("true normal of the skinned surface")
            .is_some()
    );
    let [truth, naive, _] = harness
        .state()
        .vertex_normals(DEFAULT_VERTEX)
        .expect("normals");
    // The row's name, then one angle per arm: the naive one off, the other on it.
    let off = format!("{:.2}°", angle_degrees(naive, truth));
    let table = harness
        .query_by_label_contains("   N's angle to the true normal\n")
        .expect("the table has the row");
    let node = table.accesskit_node();
    let text = node.label().or(node.value()).unwrap_or_default();
    let row = text
        .split("   N's angle to the true normal\n")
        .nth(1)
        .and_then(|rest| rest.lines().next())
        .unwrap_or_default()
        .to_owned();
    assert!(row.contains(&off), "{row} in {text:?}");
    assert!(row.contains("0.00°"), "{row}");
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
        harness.query_by_label_contains("already at 90°").is_some(),
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
    // diag(1, 1/2, 1) · (0.8, 0.6, 0) = (0.8, 0.3, 0), length 0.8544.
    submit(&mut harness, &[(&x, "0.936"), (&y, "0.351"), (&z, "0")]);
    assert!(harness.query_by_label("Right.").is_some());
    // The naive answer, normalised: (0.8, 1.2, 0) / 1.442. The verdict names it.
    submit(&mut harness, &[(&x, "0.555"), (&y, "0.832")]);
    assert!(harness.query_by_label_contains("the naive M · n").is_some());
    // (M⁻¹)^T · n = (0.8, 0.3, 0), not divided by its length.
    submit(&mut harness, &[(&x, "0.8"), (&y, "0.3")]);
    assert!(
        harness
            .query_by_label_contains("before normalising")
            .is_some()
    );
    // Any other wrong answer names its fields.
    submit(&mut harness, &[(&x, "0.5"), (&y, "0.5")]);
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
}

#[test]
fn every_cell_draws_without_error() {
    let page = NormalsPage::default();
    let harness = kit::every_cell_drawn(page);
    assert!(
        harness
            .query_all_by_label_contains("M · n vs true")
            .next()
            .is_some()
    );
}

#[test]
fn every_key_at_once_round_trips_and_each_kind_of_bad_value_is_named() {
    kit::assert_every_key_round_trips::<NormalsPage>(&[
        "normals?scale=0.5&method=inverse_transpose&bend=-1.6&vertex=1633&lines=false&ellipses=true&question=3",
    ]);
}

#[test]
fn ellipses_show_the_stretch_that_normals_must_undo() {
    // Straight elbow: the upper arm is rigid, so its circles stay circles; the forearm
    // is scaled across the bone by s, so its circles stretch by up to s one way.
    for scale in [2.5f32, 0.4] {
        let page = opened(&format!(
            "normals?scale={scale}&bend=0&method=inverse_transpose&ellipses=true"
        ));
        assert!(page.ellipses);
        let vertices = page.skinned(NormalMethod::InverseTranspose);
        let glyphs = page.ellipse_glyphs(&vertices, glam::Vec3::ZERO);
        assert!(glyphs.len() > 20, "{} ellipses drawn", glyphs.len());
        let (upper, fore): (Vec<_>, Vec<_>) = glyphs.iter().partition(|(c, _)| c.x < 1.0);
        assert!(!upper.is_empty() && !fore.is_empty());
        for (c, e) in &upper {
            assert!(
                (e.sigma[0] - 1.0).abs() < 1e-3 && (e.sigma[1] - 1.0).abs() < 1e-3,
                "{c}: {:?}",
                e.sigma
            );
        }
        let far: Vec<_> = fore.iter().filter(|(c, _)| c.x > 3.2).collect();
        assert!(!far.is_empty());
        let most = far
            .iter()
            .map(|(_, e)| e.sigma[0] / e.sigma[1])
            .fold(1.0f32, f32::max);
        let expected = scale.max(1.0 / scale);
        assert!(
            (most - expected).abs() < 0.1 * expected,
            "scale {scale}: most stretch {most}"
        );
    }
}
