//! The model page driven like a user would: the robot and its clips, scrubbing, picking
//! joints and vertices, blending, the check cell and links.

mod kit;

use egui_kittest::kittest::Queryable as _;
use kit::{click_at, page_harness, submit};
use skinlab::link::Link;
use skinlab::page::{Page, open};
use skinlab::pages::model::{Asset, ModelPage};
use skinlab::ui::check::field_label;

fn opened(link: &str) -> ModelPage {
    let mut page = ModelPage::default();
    open(&mut page, &Link::parse(link).expect("link parses")).expect("link opens");
    page
}

const ROBOT_CLIPS: [&str; 14] = [
    "Dance", "Death", "Idle", "Jump", "No", "Punch", "Running", "Sitting", "Standing", "ThumbsUp",
    "Walking", "WalkJump", "Wave", "Yes",
];

#[test]
fn the_page_opens_on_the_robot_with_its_clips_listed() {
    let harness = page_harness(ModelPage::default(), &["file", "clips"]);
    let page = harness.state();
    assert_eq!(page.asset, Asset::Robot);
    assert!(page.load_error.is_none(), "{:?}", page.load_error);
    assert_eq!(page.clip_names(), ROBOT_CLIPS);
    for name in ROBOT_CLIPS {
        assert!(
            harness.query_by_label(name).is_some(),
            "clip `{name}` listed"
        );
    }
    // The loader's repairs are shown.
    assert!(
        harness
            .query_all_by_label_contains("that transform is ignored")
            .next()
            .is_some()
    );
}

#[test]
fn the_clip_plays_while_its_time_slider_is_drawn() {
    // The slider rounds the time it shows: that must not count as a scrub and pause.
    let mut harness = page_harness(ModelPage::default(), &["clips"]);
    for _ in 0..20 {
        harness.state_mut().tick(0.016);
        harness.run_steps(1);
    }
    let page = harness.state();
    assert!(page.playing, "still playing at {} s", page.time);
    assert!(page.time > 0.3, "time moved on: {} s", page.time);
}

#[test]
fn scrubbing_changes_the_pose() {
    let mut page = opened("model?clip=Walking&t=0.1");
    let before = page.frame().world;
    page.time = 0.5;
    let after = page.frame().world;
    let moved = before
        .iter()
        .zip(&after)
        .filter(|(a, b)| !a.abs_diff_eq(**b, 1e-4))
        .count();
    assert!(moved > 10, "only {moved} joints moved");
    // Playing moves time on; a negative speed moves it back.
    page.playing = true;
    page.speed = -1.0;
    page.tick(0.1);
    assert!((page.time - 0.4).abs() < 1e-5, "{}", page.time);
}

#[test]
fn every_key_round_trips() {
    kit::assert_declared_params::<ModelPage>(
        "model?asset=simple_skin&clip=0&clip_b=0&blend=0.25&mask=1&sign_check=false&t=1&speed=-2&joint=2&vertex=3&heat=true&forget_inverse_bind=true",
        &[
            ("asset", "horse"),
            ("blend", "2"),
            ("t", "99"),
            ("speed", "9"),
            ("vertex", "99999"),
            ("heat", "yes"),
        ],
    );
    // The robot's names read and write back; its default asset is left out.
    let link = "model?clip=Walking&clip_b=Running&blend=0.75&mask=ShoulderR&t=0.4&speed=0.5&joint=Head&vertex=1107&heat=true";
    assert_eq!(opened(link).link().to_string(), link);
    assert_eq!(
        opened("model?asset=robot&clip=Walking&t=0.4")
            .link()
            .to_string(),
        "model?clip=Walking&t=0.4"
    );
}

#[test]
fn a_bad_clip_name_is_refused_naming_the_valid_ones() {
    for key in ["clip", "clip_b"] {
        let err = open(
            &mut ModelPage::default(),
            &Link::parse(&format!("model?{key}=Moonwalk")).unwrap(),
        )
        .unwrap_err()
        .to_string();
        for name in ROBOT_CLIPS {
            assert!(err.contains(name), "{key}: {err}");
        }
    }
    let err = open(
        &mut ModelPage::default(),
        &Link::parse("model?joint=Tail").unwrap(),
    )
    .unwrap_err()
    .to_string();
    assert!(err.contains("Hips") && err.contains("ShoulderR"), "{err}");
}

#[test]
fn picking_a_joint_in_the_tree_shows_its_name_and_matrices() {
    let mut harness = page_harness(opened("model?clip=Walking&t=0.4"), &["skeleton", "joint"]);
    harness.get_by_label("Hips").click();
    harness.run_steps(2);
    let page = harness.state();
    assert_eq!(page.joint, page.model.joint_named("Hips"));
    assert!(harness.query_by_label("joint `Hips`").is_some());
    assert!(
        harness
            .query_all_by_label_contains("joint_from_bind")
            .next()
            .is_some()
    );
}

#[test]
fn clicking_the_viewport_picks_a_vertex_or_a_joint() {
    let page = opened("model?asset=simple_skin&t=0");
    let mut harness = page_harness(page, &["vertex"]);
    let rect = harness.state().viewport_rect;
    // SimpleSkin stands in the middle of the view: a click there lands on it.
    click_at(&mut harness, rect.center());
    harness.run_steps(2);
    let page = harness.state();
    assert!(
        page.vertex.is_some() || page.joint.is_some(),
        "a click on the model picks something"
    );
}

#[test]
fn a_vertex_shows_its_joints_weights_and_skinned_position() {
    let harness = page_harness(opened("model?clip=Walking&t=0.4&vertex=10"), &["vertex"]);
    assert!(harness.query_by_label_contains("weighted sum").is_some());
}

#[test]
fn forgetting_the_inverse_bind_moves_the_mesh_away() {
    let page = opened("model?clip=Walking&t=0.4");
    let kept = page.frame().skinned;
    let forgot = opened("model?clip=Walking&t=0.4&forget_inverse_bind=true")
        .frame()
        .skinned;
    let far = kept[0]
        .iter()
        .zip(&forgot[0])
        .map(|(a, b)| a.position.distance(b.position))
        .fold(0.0f32, f32::max);
    assert!(far > 0.5, "the hand moved only {far}");
}

#[test]
fn blending_takes_b_only_below_the_mask() {
    let a = opened("model?clip=Walking&t=0.4").sample_pose();
    let masked = opened("model?clip=Walking&clip_b=Wave&blend=1&mask=ShoulderR&t=0.4");
    let pose = masked.sample_pose();
    let model = &masked.model;
    let hips = model.joint_named("Hips").expect("Hips");
    let arm = model.joint_named("UpperArmR").expect("UpperArmR");
    assert_eq!(pose[hips], a[hips], "the legs keep walking");
    assert_ne!(pose[arm], a[arm], "the right arm waves");
}

#[test]
fn the_sign_check_keeps_blends_on_the_short_arc() {
    // Halfway on the short arc, each joint's rotation is no further from A's than B's is.
    let page = opened("model?clip=Walking&clip_b=Running&t=0.3");
    let model = &page.model;
    let (walk, run) = (
        model.clip("Walking").unwrap(),
        model.clip("Running").unwrap(),
    );
    let tb = page.time_b().expect("clip B's time");
    let (pa, pb) = (model.sample(walk, 0.3), model.sample(run, tb));
    for ((blended, a), b) in page.sample_pose().iter().zip(&pa).zip(&pb) {
        let ab = a.rotation.angle_between(b.rotation);
        let blended_a = blended.rotation.angle_between(a.rotation);
        assert!(blended_a <= ab + 1e-3, "{blended_a} > {ab}");
    }
}

#[test]
fn the_check_cell_takes_simple_skins_top_vertex() {
    let mut harness = page_harness(ModelPage::default(), &["check"]);
    submit(
        &mut harness,
        &[
            (&field_label("top", "x"), "-1"),
            (&field_label("top", "y"), "0.5"),
        ],
    );
    assert!(harness.query_by_label("Right.").is_some());
    submit(&mut harness, &[(&field_label("top", "y"), "2")]);
    assert!(harness.query_by_label_contains("Not yet").is_some());
}
