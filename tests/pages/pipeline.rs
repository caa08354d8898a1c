//! The pipeline page driven like a user would: the stages' numbers, the pixel the
//! vertex lands on, picking another vertex, the check cell and links.

use crate::kit;

use egui_kittest::kittest::Queryable as _;
use glam::{Mat4, Vec3};
use kit::{click_at, page_harness, submit};
use rigs::arm;
use skinlab::page::Page;
use skinlab::pages::pipeline::{PipelinePage, Stages, default_vertex, exercise::EXERCISES};
use skinlab::ui::check::field_label;

fn opened(link: &str) -> PipelinePage {
    crate::opened(link)
}

#[test]
fn each_stage_follows_from_the_one_before() {
    let skin = arm::mesh(arm::Falloff::Linear, arm::DEFAULT_BLEND_WIDTH)
        .expect("arm")
        .skin;
    for bend in [0.0f32, 0.9, -1.7] {
        for joint in 0..arm::BONE_COUNT {
            let s = Stages::new(&skin, bend, joint, default_vertex()).expect("stages");
            assert!(
                (s.bind * s.inverse_bind).abs_diff_eq(Mat4::IDENTITY, 1e-6),
                "the inverse bind undoes the bind pose"
            );
            assert!(
                s.palette[joint].abs_diff_eq(s.pose * s.inverse_bind, 1e-6),
                "palette = pose · inverse bind"
            );
            // The vertex: the weighted sum of what each joint's gradient does to it.
            let by_parts: Vec3 = s
                .influences
                .used()
                .map(|(j, w)| s.palette[j].transform_point3(s.vertex) * w)
                .sum();
            assert!(by_parts.abs_diff_eq(s.skinned, 1e-5));
            if bend == 0.0 {
                assert!(
                    s.skinned.abs_diff_eq(s.vertex, 1e-6),
                    "unbent: drawn where stored"
                );
            } else {
                assert!(
                    s.skinned.distance(s.vertex) > 0.05,
                    "bent: the vertex moves"
                );
            }
        }
    }
    assert!(
        Stages::new(&skin, 0.0, arm::BONE_COUNT, 0).is_none(),
        "no such joint"
    );
    assert!(
        Stages::new(&skin, 0.0, 0, arm::VERTEX_COUNT).is_none(),
        "no such vertex"
    );
}

#[test]
fn the_default_vertex_belongs_to_both_bones() {
    let page = PipelinePage::default();
    let s = page.stages().expect("stages");
    let weights: Vec<(usize, f32)> = s.influences.used().collect();
    assert_eq!(weights.len(), 2, "two bones: {weights:?}");
    assert!(
        s.vertex.z > 0.4,
        "on the front of the arm, facing the camera"
    );
}

#[test]
fn the_pixel_shown_is_where_the_vertex_is_drawn_and_clicking_picks_vertices() {
    let mut harness = page_harness(PipelinePage::default(), &["pipeline"]);
    harness.run_steps(2);
    let rect = harness.state().viewport_rect;
    let [x, y] = harness.state().pixel().expect("the vertex is on screen");
    assert!(
        harness
            .query_by_label_contains(&format!("pixel ({x:.0}, {y:.0})"))
            .is_some(),
        "the cell reads out the pixel"
    );
    // The kittest harness draws one pixel per point.
    let at = rect.min + egui::vec2(x, y);
    assert!(rect.contains(at));
    // Clicking exactly there picks the same vertex, or a neighbour drawn on top of it.
    click_at(&mut harness, at);
    harness.run_steps(2);
    let picked = harness.state().stages().expect("stages").skinned;
    let was = PipelinePage::default().stages().expect("stages").skinned;
    assert!(picked.distance(was) < 0.1, "picked {picked}, was {was}");
    // Clicking the upper arm, near the shoulder, follows a vertex of the upper arm alone.
    let shoulder = rect.min + egui::vec2(x, y) - egui::vec2(120.0, 0.0);
    click_at(&mut harness, shoulder);
    harness.run_steps(2);
    let s = harness.state().stages().expect("stages");
    assert_ne!(harness.state().vertex, default_vertex(), "another vertex");
    assert_eq!(
        s.influences.used().map(|(j, _)| j).collect::<Vec<_>>(),
        vec![0],
        "near the shoulder only the upper arm moves it (at {})",
        s.vertex
    );
    assert!(harness.state().link().to_string().contains("vertex="));
}

#[test]
fn the_check_cell_takes_the_hand_worked_answers() {
    let mut harness = page_harness(opened("pipeline?question=3"), &["check"]);
    let answer = EXERCISES[2].answer();
    let field = |label: &str| field_label("pipeline", label);
    let (x, y, z) = (field("x"), field("y"), field("z"));
    submit(&mut harness, &[(&x, "2"), (&y, "0"), (&z, "0")]);
    assert!(harness.query_by_label_contains("Not yet").is_some());
    let typed = answer.to_array().map(|v| format!("{v:.2}"));
    submit(
        &mut harness,
        &[(&x, &typed[0]), (&y, &typed[1]), (&z, &typed[2])],
    );
    assert!(harness.query_by_label_contains("Right").is_some());
}

#[test]
fn every_key_at_once_round_trips_and_each_kind_of_bad_value_is_named() {
    kit::assert_every_key_round_trips::<PipelinePage>(&[
        "pipeline?bend=-1&joint=upper_arm&vertex=100&question=2",
    ]);
}
