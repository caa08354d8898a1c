//! The model page driven like a user would: the robot and its clips, scrubbing, picking
//! joints and vertices, blending, the check cell and links.

use crate::kit;

use egui_kittest::kittest::Queryable as _;
use kit::{click_at, drag, page_harness, shows, submit};
use skin::clip::Property;
use skinlab::link::Link;
use skinlab::page::{Page, open};
use skinlab::pages::model::{Asset, ModelPage};
use skinlab::ui::check::field_label;
use skinlab::ui::matrix::cell_label;

fn opened(link: &str) -> ModelPage {
    crate::opened(link)
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
    assert!(shows(&harness, "that transform is ignored"));
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
    // SimpleSkin by numbers; the robot's names, and its face, read and write back (its
    // default asset is left out).
    kit::assert_every_key_round_trips::<ModelPage>(&[
        "model?asset=simple_skin&clip=0&clip_b=0&blend=0.25&mask=1&sign_check=false&t=1&speed=-2&joint=2&vertex=3&heat=true&brush=true&method=dqs&materials=false&skeleton=false&forget_inverse_bind=true&local=1:0,1,0,0,0,0.5,1,1,1&inverse_bind=1:1,0,0,0,0,1,0,0,0,0,1,0,0,-1,0,1",
        "model?clip=Walking&clip_b=Running&blend=0.75&mask=ShoulderR&morph=Angry:1,Sad:-0.5&t=0.4&speed=0.5&joint=Head&vertex=1107&heat=true&method=cor",
    ]);
    kit::assert_refused_as_declared::<ModelPage>(&[
        "asset=horse",
        "local=1:0,0,0,0,0,0,0,1,1",
        "local=1:0,0,0",
        "inverse_bind=1:0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,1",
        "inverse_bind=Elbow:1,0,0,0,0,1,0,0,0,0,1,0,0,0,0,1",
        "morph=Grumpy:1",
        "morph=Angry:3",
        "morph=Angry:NaN",
        "morph=Angry",
    ]);
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
    assert!(shows(&harness, "joint_from_bind"));
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

/// Where a world point lies on the page's last drawn viewport, in the harness's
/// points (`None` behind the eye).
fn on_screen(page: &ModelPage) -> impl Fn(glam::Vec3) -> Option<egui::Pos2> {
    let (v, p, size) = page.seen.expect("the viewport was drawn");
    let rect = page.viewport_rect;
    let scale = rect.width() / size[0];
    move |world| {
        skinlab::ui::viewport::project(p * v, size, world)
            .map(|(_, _, [x, y])| rect.min + egui::vec2(x, y) * scale)
    }
}

#[test]
fn a_click_on_a_vertex_beside_a_joint_dot_picks_the_vertex_and_one_on_the_dot_the_joint() {
    // The robot's hands: finger joints sit a few points from the vertices around them.
    let page = opened("model?clip=Idle&t=0");
    let mut harness = page_harness(page, &["vertex"]);
    harness.run_steps(2);
    let (vertex_at, joint_at) = {
        let page = harness.state();
        let (v, _, _) = page.seen.expect("the viewport was drawn");
        let screen = on_screen(page);
        let rect = page.viewport_rect;
        let eye = v.inverse().transform_point3(glam::Vec3::ZERO);
        let frame = page.frame();
        let skeletal = page.model.skeletal();
        let joints: Vec<egui::Pos2> = (0..frame.world.len())
            .filter(|j| skeletal[*j])
            .filter_map(|j| screen(frame.world[j].transform_point3(glam::Vec3::ZERO)))
            .filter(|s| rect.contains(*s))
            .collect();
        let vertices: Vec<egui::Pos2> = frame
            .skinned
            .iter()
            .flatten()
            .filter(|v| v.normal.dot(eye - v.position) > 0.0)
            .filter_map(|v| screen(v.position))
            .filter(|s| rect.contains(*s))
            .collect();
        let near = |at: egui::Pos2| {
            joints
                .iter()
                .map(|j| j.distance(at))
                .fold(f32::MAX, f32::min)
        };
        // A vertex 5–8 points from a joint's dot: inside the joint's old reach.
        let vertex_at = *vertices
            .iter()
            .find(|s| (5.0..8.0).contains(&near(**s)))
            .expect("a vertex lies a few points from a joint");
        // A joint's dot with a vertex nearer the click than the dot is wide.
        let joint_at = *joints
            .iter()
            .find(|j| vertices.iter().any(|s| s.distance(**j) < 3.0))
            .expect("a joint's dot lies on the mesh");
        (vertex_at, joint_at)
    };
    click_at(&mut harness, vertex_at);
    harness.run_steps(2);
    assert_eq!(
        harness.state().joint,
        None,
        "the click beside the dot picked a joint"
    );
    assert!(
        harness.state().vertex.is_some(),
        "the click on the vertex picked it"
    );
    click_at(&mut harness, joint_at);
    harness.run_steps(2);
    assert!(
        harness.state().joint.is_some(),
        "the click on the dot picked its joint"
    );
}

#[test]
fn clicking_a_hard_part_says_it_has_no_skin() {
    // With a vertex picked before: the click on the head still says what it hit (it
    // left the old vertex's numbers, and seemed to do nothing).
    let page = opened("model?clip=Idle&t=0&skeleton=false&vertex=100");
    let mut harness = page_harness(page, &["vertex"]);
    harness.run_steps(2);
    // The robot's head: the hard mesh on the node named Head_… ; its middle on screen.
    let (at, name) = {
        let page = harness.state();
        let frame = page.frame();
        let hard = page
            .model
            .rigid_meshes
            .iter()
            .find(|m| page.model.joints[m.joint].name.starts_with("Head"))
            .expect("the robot's head is a hard mesh");
        let positions = &hard.part.vertices.positions;
        let middle = positions.iter().copied().sum::<glam::Vec3>() / positions.len() as f32;
        let world = frame.world[hard.joint].transform_point3(middle);
        let at = on_screen(page)(world).expect("in view");
        (at, hard.part.name.clone())
    };
    click_at(&mut harness, at);
    harness.run_steps(2);
    assert!(
        harness.state().vertex.is_none(),
        "no skinned vertex under the head"
    );
    // The head, or a part of it in front (its goggles): a hard mesh on a head node.
    let clicked = harness.state().rigid_clicked.expect("a hard mesh was hit");
    let hit = &harness.state().model.rigid_meshes[clicked];
    assert!(
        harness.state().model.joints[hit.joint]
            .name
            .starts_with("Head"),
        "{} is not on the head ({name} is)",
        hit.part.name
    );
    assert!(
        harness
            .query_by_label_contains(&format!("That is {}, a hard mesh", hit.part.name))
            .is_some(),
        "the vertex cell names the hard mesh clicked"
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
    // Turned clockwise, x comes out as +1: the cell says which way a turn goes.
    submit(
        &mut harness,
        &[
            (&field_label("top", "x"), "1"),
            (&field_label("top", "y"), "0.5"),
        ],
    );
    assert!(
        harness
            .query_by_label_contains("a positive turn about z is counter-clockwise")
            .is_some()
    );
    // Left out, the inverse bind throws the vertex to (-2, 0.5): the cell names the slip.
    submit(
        &mut harness,
        &[
            (&field_label("top", "x"), "-2"),
            (&field_label("top", "y"), "0.5"),
        ],
    );
    assert!(
        harness
            .query_by_label_contains("with no inverse bind")
            .is_some()
    );
}

/// The key timeline's value line for `joint`'s rotation at `t`, worked out from the
/// pose the clip samples (three decimals, as printed).
fn rotation_line(page: &ModelPage, joint: usize, t: f32) -> String {
    let clip = &page.model.clips[page.clip];
    let q = page.model.sample(clip, t)[joint].rotation;
    format!(
        "rotation at {t:.2} s = ({:.3}, {:.3}, {:.3}, {:.3})",
        q.x, q.y, q.z, q.w
    )
}

#[test]
fn the_key_timeline_prints_the_sampled_value_of_the_picked_joint() {
    // SimpleSkin's one channel turns one joint; pick it by number through a link.
    let simple = opened("model?asset=simple_skin");
    let channel = &simple.model.clips[0].channels()[0];
    let (joint, keys) = (channel.joint, channel.key_count());
    for (link, joint, t, interpolation) in [
        (
            format!("model?asset=simple_skin&joint={joint}&t=1.3"),
            joint,
            1.3,
            format!("LINEAR, {keys} keys"),
        ),
        (
            "model?clip=Walking&joint=UpperArmR&t=0.4".to_owned(),
            simple_or_robot_joint("UpperArmR"),
            0.4,
            "LINEAR".to_owned(),
        ),
    ] {
        let page = opened(&link);
        let expected = rotation_line(&page, joint, t);
        let harness = page_harness(page, &["keys"]);
        assert!(shows(&harness, &expected), "{link}: `{expected}` shown");
        let title = format!("rotation (x, y, z, w): {interpolation}");
        assert!(shows(&harness, &title), "{link}: `{title}` shown");
        assert!(
            harness
                .state()
                .key_plots
                .iter()
                .any(|(p, _)| *p == Property::Rotation),
            "{link}: a rotation plot"
        );
    }
}

/// A joint of the robot by name.
fn simple_or_robot_joint(name: &str) -> usize {
    ModelPage::default()
        .model
        .joint_named(name)
        .unwrap_or_else(|| panic!("the robot has `{name}`"))
}

#[test]
fn the_key_timeline_says_when_there_is_nothing_to_plot() {
    let harness = page_harness(opened("model?clip=Walking&t=0.4"), &["keys"]);
    assert!(shows(&harness, "Pick a joint"));
    assert!(harness.state().key_plots.is_empty());
    // A joint no channel of Walking drives.
    let page = ModelPage::default();
    let walking = page.model.clip("Walking").expect("Walking");
    let still = (0..page.model.joints.len())
        .find(|j| {
            Property::ALL
                .iter()
                .all(|p| walking.channel(*j, *p).is_none())
        })
        .expect("a joint Walking leaves alone");
    let name = page.model.joints[still].name.clone();
    let harness = page_harness(
        opened(&format!("model?clip=Walking&t=0.4&joint={still}")),
        &["keys"],
    );
    assert!(
        shows(&harness, &format!("`{name}` has no channel in Walking")),
        "{name}"
    );
    assert!(harness.state().key_plots.is_empty());
}

#[test]
fn clicking_and_dragging_in_a_key_plot_sets_the_time_and_pauses() {
    // No time in the link: the clip plays.
    let mut harness = page_harness(opened("model?clip=Walking&joint=UpperArmR"), &["keys"]);
    assert!(harness.state().playing);
    let (start, end) = harness.state().time_range();
    let rect = harness
        .state()
        .key_plots
        .iter()
        .find(|(p, _)| *p == Property::Rotation)
        .map(|(_, r)| *r)
        .expect("a rotation plot");
    let at = |f: f32| egui::pos2(rect.left() + f * rect.width(), rect.center().y);
    let near = |t: f32, f: f32| (t - (start + f * (end - start))).abs() < 0.06 * (end - start);
    click_at(&mut harness, at(0.75));
    harness.run_steps(2);
    let page = harness.state();
    assert!(!page.playing, "a click pauses");
    assert!(near(page.time, 0.75), "a click at 3/4 sets {}", page.time);
    drag(&mut harness, at(0.7), at(0.2));
    harness.run_steps(2);
    let t = harness.state().time;
    assert!(near(t, 0.2), "a drag to 1/5 sets {t}");
    // The readout follows the time.
    let expected = rotation_line(harness.state(), simple_or_robot_joint("UpperArmR"), t);
    assert!(shows(&harness, &expected), "`{expected}` shown");
}

#[test]
fn collapsing_a_joint_hides_its_children() {
    let mut harness = page_harness(opened("model?clip=Walking&t=0.4"), &["skeleton"]);
    let model = harness.state().model.clone();
    let hips = model.joint_named("Hips").expect("Hips");
    let parent = model.skeleton.parent(hips).expect("Hips has a parent");
    let parent = model.joints[parent].name.clone();
    assert!(harness.query_by_label("Hips").is_some(), "open by default");
    harness
        .get_by_label(&format!("{parent}: hide children"))
        .click();
    harness.run_steps(4);
    assert!(harness.query_by_label("Hips").is_none(), "folded away");
    assert!(
        harness.query_by_label(&parent).is_some(),
        "the parent stays"
    );
    harness
        .get_by_label(&format!("{parent}: show children"))
        .click();
    harness.run_steps(4);
    assert!(harness.query_by_label("Hips").is_some(), "open again");
}

#[test]
fn picking_a_deep_joint_opens_its_ancestors_and_scrolls_to_it() {
    let deep = "Index2R";
    let model = ModelPage::default().model;
    let j = model.joint_named(deep).expect(deep);
    let path = model.skeleton.path_from_root(j);
    assert!(path.len() > 8, "{deep} sits deep in the tree");
    let hand = &model.joints[path[path.len() - 3]].name;

    // Folded at first: the hand's fingers are out of sight.
    let mut harness = page_harness(opened("model?clip=Walking&t=0.4"), &["skeleton"]);
    assert!(harness.query_by_label(deep).is_none(), "folded by default");

    // Picked in the viewport (the page's state), then by a link: either way the tree
    // opens down to it and shows its row.
    harness.state_mut().joint = Some(j);
    harness.run_steps(6);
    assert_tree_shows(&harness, deep, hand);
    let mut linked = page_harness(
        opened(&format!("model?clip=Walking&t=0.4&joint={deep}")),
        &["skeleton"],
    );
    linked.run_steps(6);
    assert_tree_shows(&linked, deep, hand);
}

/// `joint`'s row is drawn with its ancestor `opened` unfolded, and the tree has
/// scrolled to it: it lies within the tree's visible height, under the checkbox above.
fn assert_tree_shows(harness: &egui_kittest::Harness<'_, ModelPage>, joint: &str, opened: &str) {
    let row = harness
        .query_by_label(joint)
        .unwrap_or_else(|| panic!("{joint} shown"));
    assert!(
        harness
            .query_by_label(&format!("{opened}: hide children"))
            .is_some(),
        "{opened} opened"
    );
    let top = harness
        .get_by_label("draw the skeleton over the model")
        .rect()
        .bottom();
    let rect = row.rect();
    assert!(
        rect.top() >= top && rect.bottom() <= top + 370.0,
        "{joint} at {rect:?}, the tree from {top}"
    );
}

/// Where SimpleSkin's top vertex lands in `page`'s frame. Its skin's joint 1 is the
/// model's joint 2 (node 0 holds the mesh).
fn top_vertex(page: &ModelPage) -> glam::Vec3 {
    let v = page.model.skinned_meshes[0]
        .part
        .vertices
        .positions
        .iter()
        .position(|p| p.abs_diff_eq(glam::Vec3::new(-0.5, 2.0, 0.0), 1e-6))
        .expect("SimpleSkin's top vertex");
    page.frame().skinned[0][v].position
}

const BENT: glam::Vec3 = glam::Vec3::new(-1.0, 0.5, 0.0);
const BIND: glam::Vec3 = glam::Vec3::new(-0.5, 2.0, 0.0);

#[test]
fn holding_a_joint_by_hand_moves_the_mesh_until_it_is_given_back() {
    let mut harness = page_harness(opened("model?asset=simple_skin&t=1&joint=2"), &["joint"]);
    assert!(top_vertex(harness.state()).abs_diff_eq(BENT, 1e-5));
    // The clip turned joint 2 by 90° about z: typing 0 holds it straight.
    kit::type_into(&mut harness, "rotation z", "0");
    harness.key_press(egui::Key::Enter);
    harness.run_steps(2);
    let page = harness.state();
    assert!(page.held.contains_key(&2), "joint 2 is held");
    assert!(
        top_vertex(page).abs_diff_eq(BIND, 1e-4),
        "{}",
        top_vertex(page)
    );
    let link = page.link().to_string();
    assert!(link.contains("local=2:0,1,0,0,0,0,1,1,1"), "{link}");
    assert!(
        top_vertex(&opened(&link)).abs_diff_eq(BIND, 1e-4),
        "the link reopens it"
    );
    // A scale of 0 is refused and the joint keeps its last valid transform.
    kit::type_into(&mut harness, "scale y", "0");
    harness.key_press(egui::Key::Enter);
    harness.run_steps(2);
    assert!(shows(&harness, "scale of 0"));
    assert!(top_vertex(harness.state()).abs_diff_eq(BIND, 1e-4));
    harness
        .get_by_label("Give the joint back to the clips")
        .click();
    harness.run_steps(2);
    assert!(harness.state().held.is_empty());
    assert!(top_vertex(harness.state()).abs_diff_eq(BENT, 1e-5));
}

#[test]
fn an_inverse_bind_recomputed_from_the_pose_puts_the_vertex_back_at_bind() {
    let mut harness = page_harness(opened("model?asset=simple_skin&t=1&joint=2"), &["joint"]);
    harness
        .get_by_label("Recompute from the current pose")
        .click();
    harness.run_steps(2);
    // palette = world_from_joint · inverse(world_from_joint) = I: the pose is still bent,
    // but joint 2's vertices stay where the file put them.
    let page = harness.state();
    assert!(page.inverse_binds.contains_key(&2));
    assert!(
        top_vertex(page).abs_diff_eq(BIND, 1e-4),
        "{}",
        top_vertex(page)
    );
    assert!(page.link().to_string().contains("inverse_bind=2:"));
    // A singular or NaN edit is refused; the value stays (as the field showed it when
    // clicked: a click rounds to the two decimals shown).
    for (cell, text, reason) in [((2, 2), "0", "inverse"), ((2, 2), "nan", "finite")] {
        let label = cell_label("model inverse bind", cell.0, cell.1);
        harness.get_by_label(&label).click();
        harness.run_steps(2);
        let kept = harness.state().inverse_binds[&2];
        kit::type_into(&mut harness, &label, text);
        harness.key_press(egui::Key::Enter);
        harness.run_steps(2);
        assert_eq!(harness.state().inverse_binds[&2], kept, "{text} refused");
        assert!(shows(&harness, reason), "{text}: the reason is shown");
    }
    harness.get_by_label("Back to the file's").click();
    harness.run_steps(2);
    assert!(harness.state().inverse_binds.is_empty());
    assert!(top_vertex(harness.state()).abs_diff_eq(BENT, 1e-5));
}

#[test]
fn the_blend_cell_shows_the_picked_joints_rotation_from_a_from_b_and_blended() {
    let link = "model?clip=Walking&clip_b=Running&blend=0.5&joint=Head&t=0.4";
    let harness = page_harness(opened(link), &["blend"]);
    let page = harness.state();
    let j = page.joint.expect("Head");
    let model = page.model.clone();
    let a = model.sample(&model.clips[page.clip], page.time)[j].rotation;
    let b = model.sample(&model.clips[page.clip_b.unwrap()], page.time_b().unwrap())[j].rotation;
    let blended = page.clip_pose()[j].rotation;
    // Half of each, on the short arc: the blend sits between A and B.
    let (ab, half) = (a.angle_between(b), a.angle_between(blended));
    assert!(
        ab > 1e-3 && (half - ab / 2.0).abs() < 0.02 * ab.max(0.01),
        "{ab} {half}"
    );
    let text = |q: glam::Quat| format!("({:6.3}, {:6.3}, {:6.3}, {:6.3})", q.x, q.y, q.z, q.w);
    for (row, q) in [("from clip A", a), ("from clip B", b), ("blended", blended)] {
        let line = format!("{row:<13}{}", text(q));
        assert!(shows(&harness, &line), "`{line}` shown");
    }
}

#[test]
fn the_vertex_cell_shows_the_file_s_numbers_and_why_they_grow() {
    let page = opened("model?clip=Wave&t=0.5&vertex=100");
    let mesh = &page.model.skinned_meshes[0];
    let stored = mesh.stored[100];
    // The loader's influences come from these stored ones: the same joints, the
    // largest weight first.
    let prepared = mesh.part.vertices.influences[100];
    assert!(stored.joints.contains(&prepared.joints[0]));
    let harness = page_harness(page, &["vertex"]);
    for expected in [
        format!("JOINTS_0    = {:?}", stored.joints),
        "those skin joints name = ThumbR, Thumb2R".to_owned(),
        "POSITION  v = (-0.026449,".to_owned(),
        "node `RobotArmature` scales by (100.00, 100.00, 100.00), and the inverse binds".to_owned(),
        "The palette scales v by 100.00, 100.00, 100.00".to_owned(),
        // Four decimals, and their sum: at three they printed a sum of 1.001.
        "WEIGHTS_0   = [0.6507, 0.1548, 0.1177, 0.0768]".to_owned(),
        "their sum              = 1.0000".to_owned(),
    ] {
        assert!(
            harness.query_by_label_contains(&expected).is_some(),
            "the cell shows {expected}"
        );
    }
    // SimpleSkin's palette does not scale: no note.
    let simple = page_harness(opened("model?asset=simple_skin&vertex=3"), &["vertex"]);
    assert!(simple.query_by_label_contains("JOINTS_0").is_some());
    assert!(simple.query_by_label_contains("palette scales").is_none());
    // Weights that do not sum to 1 are shown as used, each divided by the sum.
    assert!(
        harness
            .query_by_label_contains("used, each / that sum")
            .is_none()
    );
    let mut page = opened("model?clip=Wave&t=0.5&vertex=100");
    let mut model = (*page.model).clone();
    model.skinned_meshes[0].stored[100].weights = [0.5, 0.3, 0.2, 0.2];
    page.model = std::sync::Arc::new(model);
    let uneven = page_harness(page, &["vertex"]);
    for expected in [
        "their sum              = 1.2000",
        "used, each / that sum  = [",
    ] {
        assert!(
            uneven.query_by_label_contains(expected).is_some(),
            "the cell shows {expected}"
        );
    }
}

#[test]
fn a_leaf_joint_shows_its_turn_with_a_tail() {
    use glam::{Mat4, Vec3};
    // SimpleSkin's shape: a root, and a leaf one unit above it.
    let root = Mat4::IDENTITY;
    let leaf = Mat4::from_translation(Vec3::Y);
    let tail = skinlab::pages::model::leaf_tail(&[root, leaf], Some(0), 1).expect("a tail");
    assert!(tail.abs_diff_eq(Vec3::new(0.0, 1.5, 0.0), 1e-6));
    // Turned 90° about z, the tail points along −x: the turn shows.
    let turned = leaf * Mat4::from_rotation_z(std::f32::consts::FRAC_PI_2);
    let tail = skinlab::pages::model::leaf_tail(&[root, turned], Some(0), 1).expect("a tail");
    assert!(tail.abs_diff_eq(Vec3::new(-0.5, 1.0, 0.0), 1e-6), "{tail}");
    assert_eq!(skinlab::pages::model::leaf_tail(&[root], None, 0), None);
}

#[test]
fn a_clip_named_with_a_space_is_linked_by_its_name() {
    for link in [
        "model?asset=simple_skin&clip=animation%200&t=1",
        "model?asset=simple_skin&clip=animation+0&t=1",
    ] {
        let page = opened(link);
        assert_eq!(page.clip_names()[page.clip], "animation 0", "{link}");
        assert!(page.link().to_string().contains("t=1"), "{link}");
    }
    // A time past the clip names the clip it is past.
    let mut page = ModelPage::default();
    let err = open(&mut page, &Link::parse("model?clip=Wave&t=99").unwrap())
        .expect_err("past the clip")
        .to_string();
    assert!(err.contains("within the clip `Wave`, from 0 to"), "{err}");
}

/// The JSON and the BIN chunk of a GLB of one triangle on one node, whose clip `late`
/// moves it from 0.5 s to 1 s: its first key a while after 0, as most exporters write
/// it.
fn late_clip() -> (serde_json::Value, Vec<u8>) {
    let floats = |v: &[f32]| v.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>();
    let mut bin = floats(&[0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0]);
    bin.extend(floats(&[0.5, 1.0]));
    bin.extend(floats(&[0.0, 0.0, 0.0, 1.0, 0.0, 0.0]));
    let json = serde_json::json!({
        "asset": {"version": "2.0"},
        "scene": 0,
        "scenes": [{"nodes": [0]}],
        "nodes": [{"mesh": 0}],
        "meshes": [{"primitives": [{"attributes": {"POSITION": 0}}]}],
        "buffers": [{"byteLength": bin.len()}],
        "bufferViews": [
            {"buffer": 0, "byteLength": 36},
            {"buffer": 0, "byteOffset": 36, "byteLength": 8},
            {"buffer": 0, "byteOffset": 44, "byteLength": 24}
        ],
        "accessors": [
            {"bufferView": 0, "componentType": 5126, "type": "VEC3", "count": 3,
             "min": [0, 0, 0], "max": [1, 1, 0]},
            {"bufferView": 1, "componentType": 5126, "type": "SCALAR", "count": 2,
             "min": [0.5], "max": [1.0]},
            {"bufferView": 2, "componentType": 5126, "type": "VEC3", "count": 2}
        ],
        "animations": [{
            "name": "late",
            "channels": [{"sampler": 0, "target": {"node": 0, "path": "translation"}}],
            "samplers": [{"input": 1, "output": 2}]
        }]
    });
    (json, bin)
}

/// A GLB of `json` and `bin`.
fn glb((json, bin): (serde_json::Value, Vec<u8>)) -> Vec<u8> {
    crate::mutate::glb(&serde_json::to_vec(&json).expect("json"), &bin)
}

#[test]
fn a_link_may_hold_a_clip_at_0_before_its_first_key() {
    let mut page = ModelPage::default();
    page.open_bytes("late.glb", &glb(late_clip()))
        .expect("the file loads");
    assert_eq!(page.time_range(), (0.5, 1.0));
    open(&mut page, &Link::parse("model?asset=file&t=0").unwrap()).expect("t=0 is in the clip");
    assert_eq!(page.time, 0.0);
    // Past its end, still refused, naming the range from 0.
    let err = open(&mut page, &Link::parse("model?asset=file&t=2").unwrap())
        .expect_err("past the end")
        .to_string();
    assert!(err.contains("within the clip `late`, from 0 to 1"), "{err}");
}

#[test]
fn a_node_far_from_the_mesh_that_no_skin_uses_is_not_framed() {
    // The triangle of `late_clip`, and beside it a camera node 50 units away, as a
    // modelling tool exports a scene.
    let (mut json, bin) = late_clip();
    json["nodes"]
        .as_array_mut()
        .unwrap()
        .push(serde_json::json!({"camera": 0, "translation": [0, 0, 50]}));
    json["cameras"] = serde_json::json!([{"type": "perspective",
        "perspective": {"yfov": 0.8, "znear": 0.1}}]);
    json["scenes"][0]["nodes"] = serde_json::json!([0, 1]);
    let model = gltf::load(&glb((json, bin))).expect("loads");
    let camera = skinlab::pages::model::data::framing(&model);
    assert!(
        camera.target.z.abs() < 1.0 && camera.distance < 10.0,
        "framed on the triangle, not the camera: {camera:?}"
    );
}

#[test]
fn a_tree_of_a_hundred_thousand_nodes_lists_ten_thousand_and_lays_out_those_in_view() {
    // The triangle of `late_clip` and 99,999 empty nodes beside it, named so their rows
    // can be counted.
    let (mut json, bin) = late_clip();
    let nodes = json["nodes"].as_array_mut().unwrap();
    nodes.extend((1..100_000).map(|i| serde_json::json!({"name": format!("empty {i}")})));
    let mut page = ModelPage::default();
    page.open_bytes("many.glb", &glb((json, bin)))
        .expect("the file loads");
    let mut harness = page_harness(page, &["skeleton"]);
    let rows = harness.query_all_by_label_contains("empty ").count();
    assert!(
        (5..100).contains(&rows),
        "{rows} rows laid out: a screenful, not a hundred thousand"
    );
    // The tree lists ten thousand and says so; a joint far down them, picked
    // elsewhere, is laid out and scrolled into the tree's view.
    assert!(
        harness
            .query_by_label_contains("The tree lists the first 10000 of 100000 nodes")
            .is_some()
    );
    let far = 9_999;
    assert_eq!(harness.state().model.joints[far].name, "empty 9999");
    harness.state_mut().joint = Some(far);
    harness.run_steps(6);
    let row = harness
        .query_by_label("empty 9999")
        .expect("the picked row is laid out")
        .rect();
    let top = harness
        .get_by_label("draw the skeleton over the model")
        .rect()
        .bottom();
    assert!(
        row.top() >= top && row.bottom() <= top + 370.0,
        "the picked row at {row:?}, the tree from {top}"
    );
}

#[test]
fn cameras_lights_and_empty_nodes_are_not_bones() {
    // SimpleSkin: node 0 holds the skinned mesh, nodes 1 and 2 are its skin's joints.
    // Under joint 2 a camera and a light; at the root an empty node.
    let mut json: serde_json::Value =
        serde_json::from_slice(include_bytes!("../../assets/models/SimpleSkin.gltf"))
            .expect("SimpleSkin is JSON");
    let nodes = json["nodes"].as_array_mut().unwrap();
    nodes.push(serde_json::json!({"camera": 0}));
    nodes.push(serde_json::json!({"extensions": {"KHR_lights_punctual": {"light": 0}}}));
    nodes.push(serde_json::json!({"name": "empty"}));
    nodes[2]["children"] = serde_json::json!([3, 4]);
    json["cameras"] = serde_json::json!([{"type": "perspective",
        "perspective": {"yfov": 0.8, "znear": 0.1}}]);
    let model = gltf::load(&serde_json::to_vec(&json).unwrap()).expect("loads");
    let bones: Vec<(usize, bool)> = (model.joints.iter().map(|j| j.node))
        .zip(model.skeletal())
        .collect();
    let mut by_node = bones.clone();
    by_node.sort();
    assert_eq!(
        by_node,
        [
            (0, false),
            (1, true),
            (2, true),
            (3, false),
            (4, false),
            (5, false)
        ],
        "the skin's joints are bones; the mesh's node, the camera, the light and the \
         empty are not"
    );
}

#[test]
fn a_fox_scaled_from_a_hundred_thousandth_to_a_million_times_is_framed_alike() {
    // Fox under one more root node that scales it, as a file exported in other units.
    let fox = include_bytes!("../../assets/models/Fox.glb");
    let (json, bin) = crate::mutate::glb_chunks(fox);
    let framed = |scale: f32| {
        let mut json: serde_json::Value = serde_json::from_slice(json).expect("Fox's JSON");
        let roots = json["scenes"][0]["nodes"].take();
        let nodes = json["nodes"].as_array_mut().unwrap();
        nodes.push(serde_json::json!({"scale": [scale, scale, scale], "children": roots}));
        json["scenes"][0]["nodes"] = serde_json::json!([nodes.len() - 1]);
        let model = gltf::load(&glb((json, bin.to_vec()))).expect("the scaled fox loads");
        skinlab::pages::model::data::framing(&model)
    };
    let plain = framed(1.0);
    for scale in [1e-5, 1e4, 1e6] {
        let camera = framed(scale);
        let (distance, target) = (camera.distance / scale, camera.target / scale);
        assert!(
            (distance / plain.distance - 1.0).abs() < 1e-3
                && target.abs_diff_eq(plain.target, 1e-3 * plain.distance),
            "×{scale}: {camera:?} is not {plain:?} scaled"
        );
        assert_eq!((camera.yaw, camera.pitch), (plain.yaw, plain.pitch));
    }
}

/// The vertex cell of `link` beside its viewport, in a window `width` points wide (the
/// cell takes half), after three frames: the viewport records the camera the cell's
/// last stages follow.
fn vertex_cell(link: &str, width: f32) -> egui_kittest::Harness<'static, ModelPage> {
    let mut harness = egui_kittest::Harness::builder()
        .with_context_setup(skinlab::ui::fonts::install)
        .with_size(egui::Vec2::new(width, 1400.0))
        .build_ui_state(
            |ui, page: &mut ModelPage| {
                ui.columns(2, |columns| {
                    page.cell_ui("vertex", &mut columns[0]);
                    columns[1].set_height(800.0);
                    page.viewport_ui(&mut columns[1]);
                });
            },
            opened(link),
        );
    harness.run_steps(3);
    harness
}

#[test]
fn the_vertex_rows_break_between_parts_never_inside_a_point_and_keep_their_decimals() {
    use egui_kittest::kittest::NodeT as _;
    // A column too narrow for a whole row: each row breaks after its "=".
    let rows_at = |t: f32| {
        let harness = vertex_cell(&format!("model?clip=Wave&t={t}&vertex=100"), 820.0);
        let style = harness.ctx.global_style();
        let font = egui::TextStyle::Monospace.resolve(&style);
        let line = harness.ctx.fonts_mut(|f| f.row_height(&font));
        let mut points: Vec<(String, f64)> = harness
            .root()
            .children_recursive()
            .filter_map(|n| {
                let a = n.accesskit_node();
                let text = a.label().or(a.value())?.to_string();
                let b = n.accesskit_node().bounding_box()?;
                (text.contains(" × (") && !text.contains("palette")).then(|| (text, b.height()))
            })
            .collect();
        // A label's text shows on its node and again on its text run.
        points.dedup_by(|a, b| a.0 == b.0);
        assert_eq!(
            points.len(),
            4,
            "the robot's vertex 100 has four joints: {points:?}"
        );
        for (text, height) in &points {
            assert!(
                *height < 1.5 * f64::from(line),
                "`{text}` is {height:.0} high: broken inside"
            );
        }
        points.into_iter().map(|(text, _)| text).collect::<Vec<_>>()
    };
    // The same number of decimals at every time of the clip.
    let decimals = |text: &str| -> Vec<usize> {
        let inner = &text[text.find('(').unwrap() + 1..text.find(')').unwrap()];
        inner
            .split(", ")
            .map(|c| c.len() - c.find('.').unwrap() - 1)
            .collect()
    };
    let early = rows_at(0.1);
    let late = rows_at(1.3);
    for (a, b) in early.iter().zip(&late) {
        assert_eq!(decimals(a), decimals(b), "`{a}` and `{b}`");
    }
}

/// The numbers in a text: `(-2.140, 3.317, 0.682)` gives three.
fn numbers_in(text: &str) -> Vec<f64> {
    text.split(|c: char| !(c.is_ascii_digit() || c == '.' || c == '-'))
        .filter_map(|t| t.parse().ok())
        .collect()
}

/// Half a unit in the last printed decimal of `text`'s numbers.
fn half_unit(text: &str) -> f64 {
    let decimals = text
        .split(|c: char| !(c.is_ascii_digit() || c == '.'))
        .filter_map(|t| t.split_once('.').map(|(_, d)| d.len()))
        .max()
        .unwrap_or(0);
    0.5 * 10f64.powi(-(decimals as i32))
}

/// Every text shown, in order, each once: a label's text is on its node and again on
/// its text run, which is left out (two equal cells of a matrix stay two).
fn shown_texts<S>(harness: &egui_kittest::Harness<'_, S>) -> Vec<String> {
    use egui_kittest::kittest::NodeT as _;
    harness
        .root()
        .children_recursive()
        .filter(|n| n.accesskit_node().role() != egui::accesskit::Role::TextRun)
        .filter_map(|n| {
            let a = n.accesskit_node();
            a.label().or(a.value()).map(|t| t.to_string())
        })
        .collect()
}

#[test]
fn the_robots_printed_numbers_multiply_out_to_its_printed_vertex_and_pixel() {
    let mut harness = vertex_cell("model?clip=Wave&t=0.5&vertex=100", 1600.0);
    harness.get_by_label("each joint's palette matrix").click();
    harness.run_steps(3);
    let texts = shown_texts(&harness);
    let find = |start: &str| {
        texts
            .iter()
            .position(|t| t.contains(start))
            .unwrap_or_else(|| panic!("no `{start}` in {texts:#?}"))
    };
    let file = &texts[find("the file's POSITION")];
    let v = numbers_in(file.lines().next().unwrap());
    let v_err = half_unit(file.lines().next().unwrap());
    assert_eq!(v.len(), 3, "{file}");
    let weights = numbers_in(file.lines().nth(2).unwrap().split_once('=').unwrap().1);
    let names = ["ThumbR", "Thumb2R", "Palm1R", "Palm3R"];
    let mut sum = [0.0_f64; 3];
    let mut sum_err = 0.0;
    for (k, name) in names.iter().enumerate() {
        // The palette matrix, as printed: a header of x y z t, then four rows.
        let at = find(&format!("palette {name}:"));
        // Each cell with half a unit in its own last decimal: a column is printed to
        // four significant digits of its own size.
        let (cells, cell_err) = printed_matrix(&texts, at);
        // G · v, from the printed numbers, and how far printing may have moved it.
        let mut gv = [0.0_f64; 3];
        let mut err = 0.0_f64;
        for (row, out) in gv.iter_mut().enumerate() {
            let (g, ge) = (&cells[row], &cell_err[row]);
            *out = g[0] * v[0] + g[1] * v[1] + g[2] * v[2] + g[3];
            let e = ge[0] * v[0].abs()
                + ge[1] * v[1].abs()
                + ge[2] * v[2].abs()
                + ge[3]
                + v_err * (g[0].abs() + g[1].abs() + g[2].abs());
            err = err.max(e);
        }
        // The row's printed partial position.
        let row = texts
            .iter()
            .find(|t| t.starts_with(&format!("{:.4} × (", weights[k])) && !t.contains("palette"))
            .unwrap_or_else(|| panic!("no partial for {name}"));
        let partial = numbers_in(row.split_once('(').unwrap().1);
        let row_err = half_unit(row.split_once('(').unwrap().1);
        // The printed matrix is precise enough to check the row by hand: what its
        // rounding may move G · v by is no more than the row's own last decimal.
        assert!(
            err <= 2.0 * row_err,
            "{name}: the printed palette may move G · v by {err}, past the row's {row_err}"
        );
        for c in 0..3 {
            assert!(
                (gv[c] - partial[c]).abs() <= err + row_err + 1e-9,
                "{name}: G · v = {gv:?} from the printed numbers, printed {partial:?}"
            );
            sum[c] += weights[k] * partial[c];
        }
        sum_err +=
            weights[k] * row_err + 0.5e-4 * partial.iter().map(|p| p.abs()).fold(0.0, f64::max);
    }
    let printed = &texts[find("weighted sum = (")];
    let total = numbers_in(printed.split_once('(').unwrap().1);
    for c in 0..3 {
        assert!(
            (sum[c] - total[c]).abs() <= sum_err + half_unit(printed) + 1e-9,
            "Σ w · (G · v) = {sum:?} from the printed numbers, printed {total:?}"
        );
    }
    // Then to the pixel: the printed clip coordinate divided by its printed w, and the
    // viewport's size, give the printed NDC and pixel.
    let stages = &texts[find("P · V · v'")];
    let line = |start: &str| {
        stages
            .lines()
            .find(|l| l.trim_start().starts_with(start))
            .unwrap_or_else(|| panic!("no `{start}` in {stages}"))
    };
    let clip_line = line("P · V · v'");
    let (xyz, w) = clip_line.split_once("clip.w =").unwrap();
    let xyz = numbers_in(xyz.split_once('(').unwrap().1);
    let w = numbers_in(w)[0];
    let (ndc_part, pixel_part) = line("xyz / clip.w").split_once("pixel").unwrap();
    let ndc = numbers_in(ndc_part.split_once('(').unwrap().1);
    for c in 0..3 {
        assert!(
            (xyz[c] / w - ndc[c]).abs() <= 2e-3,
            "{xyz:?} / {w} is not {ndc:?}"
        );
    }
    let pixel = numbers_in(pixel_part);
    let rect = harness.state().viewport_rect;
    let ppp = f64::from(harness.ctx.pixels_per_point());
    let (width, height) = (
        f64::from(rect.width()) * ppp,
        f64::from(rect.height()) * ppp,
    );
    let expected = [(ndc[0] + 1.0) * 0.5 * width, (1.0 - ndc[1]) * 0.5 * height];
    for c in 0..2 {
        assert!(
            (expected[c] - pixel[c]).abs() <= 1.0,
            "the NDC {ndc:?} in a view {width}x{height} is pixel {expected:?}, printed {pixel:?}"
        );
    }
    // And V · v': the camera's printed V times the printed v' gives the printed row.
    harness
        .get_by_label("the camera's V and P, and the pixel's rule")
        .click();
    harness.run_steps(3);
    let shown = shown_texts(&harness);
    let at = (shown.iter())
        .position(|t| t.starts_with("V, the camera's view"))
        .expect("V is printed");
    // V's sixteen numbers.
    let (view, view_err) = printed_matrix(&shown, at);
    let eye = numbers_in(line("V · v'").split_once('(').unwrap().1);
    for (row, eye) in eye.iter().enumerate() {
        let m = &view[row];
        let by_hand = m[0] * total[0] + m[1] * total[1] + m[2] * total[2] + m[3];
        let err: f64 = (0..3)
            .map(|c| view_err[row][c] * total[c].abs() + m[c].abs() * half_unit(printed))
            .sum::<f64>()
            + view_err[row][3]
            + half_unit(stages);
        assert!(
            (by_hand - eye).abs() <= err + 1e-9,
            "row {row} of V · v' = {by_hand} from the printed numbers, printed {eye}"
        );
    }
}

/// Sixteen numbers of a printed matrix, row by row, after the text at `at`, each with
/// half a unit in its own last decimal.
fn printed_matrix(texts: &[String], at: usize) -> ([[f64; 4]; 4], [[f64; 4]; 4]) {
    let (cells, errs): (Vec<f64>, Vec<f64>) = texts[at + 1..]
        .iter()
        .filter_map(|t| Some((t.trim().parse::<f64>().ok()?, half_unit(t))))
        .take(16)
        .unzip();
    assert_eq!(cells.len(), 16, "sixteen numbers after {}", texts[at]);
    let rows = |v: &[f64]| std::array::from_fn(|r| std::array::from_fn(|c| v[r * 4 + c]));
    (rows(&cells), rows(&errs))
}

fn times(a: &[[f64; 4]; 4], b: &[[f64; 4]; 4]) -> [[f64; 4]; 4] {
    std::array::from_fn(|r| std::array::from_fn(|c| (0..4).map(|k| a[r][k] * b[k][c]).sum()))
}

#[test]
fn the_picked_joints_printed_chain_multiplies_out_to_its_printed_world_matrix() {
    let mut harness = egui_kittest::Harness::builder()
        .with_context_setup(skinlab::ui::fonts::install)
        .with_size(egui::Vec2::new(900.0, 4000.0))
        .build_ui_state(
            |ui, page: &mut ModelPage| page.cell_ui("joint", ui),
            opened("model?clip=Wave&t=0.5&joint=ThumbR"),
        );
    harness.run_steps(3);
    harness
        .get_by_label_contains("the whole chain, root to this joint")
        .click();
    harness.run_steps(3);
    let texts = shown_texts(&harness);
    let find = |start: &str| {
        texts
            .iter()
            .position(|t| t.starts_with(start))
            .unwrap_or_else(|| panic!("no `{start}` in {texts:#?}"))
    };
    let product = &texts[find("world_from_joint = local(")];
    let names: Vec<&str> = product.split('`').skip(1).step_by(2).collect();
    assert!(names.len() >= 5, "the thumb hangs deep: {product}");
    assert_eq!(names.last(), Some(&"ThumbR"), "{product}");
    // The product from the printed locals, and how far their rounding may move it.
    let mut p = [[0.0; 4]; 4];
    let mut p_err = [[0.0; 4]; 4];
    for (k, name) in names.iter().enumerate() {
        let (m, e) = printed_matrix(&texts, find(&format!("local(`{name}`):")));
        if k == 0 {
            (p, p_err) = (m, e);
            continue;
        }
        let abs = |x: &[[f64; 4]; 4]| x.map(|r| r.map(f64::abs));
        let grown = times(&p_err, &abs(&m));
        let moved = times(&abs(&p), &e);
        let both = times(&p_err, &e);
        p = times(&p, &m);
        p_err = std::array::from_fn(|r| {
            std::array::from_fn(|c| grown[r][c] + moved[r][c] + both[r][c])
        });
    }
    let (world, world_err) = printed_matrix(&texts, find("world_from_joint = world_from_joint of"));
    for r in 0..3 {
        for c in 0..4 {
            let allowed = p_err[r][c] + world_err[r][c] + 1e-9;
            assert!(
                (p[r][c] - world[r][c]).abs() <= allowed,
                "row {r}, column {c}: the printed chain gives {}, the world matrix prints {} \
                 (rounding allows {allowed})",
                p[r][c],
                world[r][c]
            );
        }
    }
}

#[test]
fn the_robots_face_rests_through_its_clips_and_a_held_shape_stays_put() {
    // Every robot clip carries the face's weights, all at 0 (a file whose clips move
    // a face is in the inputs tests); a shape held by hand keeps its weight on every
    // mesh that has it through any clip, and the other shapes follow the clip.
    for name in ROBOT_CLIPS {
        let mut page = opened(&format!("model?clip={name}&morph=Surprised:1.5"));
        for phase in [0.0, 0.3, 0.7] {
            page.time = page.model.clips[page.clip].time_at(phase);
            let weights = page.morph_weights();
            let parts = page.model.skinned_meshes.iter().map(|m| &m.part);
            let parts = parts.chain(page.model.rigid_meshes.iter().map(|m| &m.part));
            let mut held = 0;
            for (part, w) in parts.zip(&weights) {
                for (target, w) in part.targets.iter().zip(w) {
                    let expected = if target.name == "Surprised" { 1.5 } else { 0.0 };
                    assert_eq!(*w, expected, "{name} at {phase}: {}", target.name);
                    held += usize::from(target.name == "Surprised");
                }
            }
            assert_eq!(held, 3, "the head's three parts");
        }
    }
}

#[test]
fn the_fox_blends_about_its_centres_and_the_robots_scaled_hands_keep_their_scale_in_two_phases() {
    let fox = opened("model?asset=fox&method=cor&t=0.6");
    let centres = &fox.centres;
    assert!(centres.refused.is_none());
    assert_eq!(centres.meshes.len(), 1);
    assert_eq!(
        centres.meshes[0].len(),
        fox.model.skinned_meshes[0].part.vertices.positions.len()
    );
    let frame = fox.frame();
    let palette = &frame.palettes[fox.model.skinned_meshes[0].skin];
    assert_eq!(
        fox.mesh_method(0, palette),
        (skinlab::pages::centres::Method::Cor, None)
    );
    // The frame's CPU vertices are the centres' own, not linear blending's.
    let linear = opened("model?asset=fox&t=0.6").frame();
    let apart = frame.skinned[0]
        .iter()
        .zip(&linear.skinned[0])
        .map(|(a, b)| a.position.distance(b.position))
        .fold(0.0f32, f32::max);
    // The fox stands some 80 units tall: the centres move its joints' skin a little,
    // and nothing flies off.
    assert!(apart > 0.01 && apart < 5.0, "{apart}");
    // The robot's palette scales its hands a hundredfold: dual quaternions and the
    // centres carry it in two phases, near where linear blending puts them; plain dual
    // quaternions drop it, the hands fly off, and the file cell says so.
    let linear = opened("model?t=1.2").frame();
    let hand: &[skin::lbs::SkinnedVertex] = &linear.skinned[0];
    let (low, high) = hand
        .iter()
        .fold((glam::Vec3::MAX, glam::Vec3::MIN), |(l, h), v| {
            (l.min(v.position), h.max(v.position))
        });
    let size = low.distance(high);
    for (link, flies) in [
        ("model?method=dqs&t=1.2", false),
        ("model?method=cor&t=1.2", false),
        ("model?method=dqs_plain&t=1.2", true),
    ] {
        let page = opened(link);
        let frame = page.frame();
        let palette = &frame.palettes[page.model.skinned_meshes[0].skin];
        assert!(
            !skin::matrix::is_rigid(&palette[0], 1e-3),
            "the hand's palette scales"
        );
        assert_eq!(page.mesh_method(0, palette).1, None, "{link}");
        let apart = frame.skinned[0]
            .iter()
            .zip(hand)
            .map(|(a, b)| a.position.distance(b.position))
            .fold(0.0f32, f32::max);
        if flies {
            assert!(apart > size, "{link}: {apart} against a hand {size} across");
        } else {
            assert!(
                apart < 0.1 * size,
                "{link}: {apart} against a hand {size} across"
            );
        }
    }
    let mut harness = page_harness(opened("model?method=dqs_plain&t=1.2"), &["file"]);
    harness.run_steps(2);
    assert!(
        harness
            .query_by_label_contains("Drawn wrong on purpose")
            .is_some()
    );
}

/// Skinned mesh 0's weight for model joint `joint` at vertex `v`.
fn joint_weight(model: &gltf::Model, joint: usize, v: usize) -> f32 {
    let mesh = &model.skinned_meshes[0];
    let local = model.skins[mesh.skin]
        .joints
        .iter()
        .position(|&k| k == joint);
    local.map_or(0.0, |local| mesh.part.vertices.influences[v].weight(local))
}

#[test]
fn the_brush_paints_the_picked_joints_weight_and_the_stroke_is_undone_and_saved() {
    let page =
        opened("model?asset=simple_skin&clip=0&t=1&joint=2&brush=true&local=1:0,1,0,0,0,0.5,1,1,1");
    let mut harness = page_harness(page, &["paint"]);
    harness.run_steps(2);
    let original = harness.state().model.clone();
    let held = harness.state().held.clone();
    assert_eq!(held.len(), 1);
    // The vertex with the least of joint 2's weight, under the brush's centre.
    let page = harness.state();
    let vertices = page.model.skinned_meshes[0].stored.len();
    let v = (0..vertices)
        .min_by(|&a, &b| joint_weight(&original, 2, a).total_cmp(&joint_weight(&original, 2, b)))
        .expect("vertices");
    let at = on_screen(page)(page.frame().skinned[0][v].position).expect("on screen");
    drag(&mut harness, at, at + egui::vec2(4.0, 0.0));
    harness.run_steps(2);
    let page = harness.state();
    assert_eq!(page.model_name(), "simple_skin (painted)");
    assert_eq!(
        page.held, held,
        "the pose held by hand stays through the stroke"
    );
    let (before, now) = (
        joint_weight(&original, 2, v),
        joint_weight(&page.model, 2, v),
    );
    assert!(now > before + 0.1, "joint 2's weight {before} became {now}");
    for influences in &page.model.skinned_meshes[0].part.vertices.influences {
        assert!(
            (influences.sum() - 1.0).abs() < 1e-5,
            "auto normalise keeps the sum"
        );
    }
    assert!(shows(
        &harness,
        "The last stroke changed node 2's weight on"
    ));
    // Saved, the painted file opens as the model shown.
    let saved = saved_and_opened(&mut harness, "painted-simple-skin.glb");
    assert_eq!(saved.skinned_meshes, harness.state().model.skinned_meshes);
    // Undone: the bundled model again.
    harness.get_by_label("Undo: back to simple_skin").click();
    harness.run_steps(2);
    let page = harness.state();
    assert_eq!(page.asset, Asset::SimpleSkin);
    assert!(std::sync::Arc::ptr_eq(&page.model, &original));
}

#[test]
fn with_no_joint_picked_the_brush_paints_nothing_and_a_drag_turns_the_view() {
    let page = opened("model?asset=simple_skin&clip=0&t=1&brush=true");
    let mut harness = page_harness(page, &["paint"]);
    harness.run_steps(2);
    assert!(shows(&harness, "Pick a joint first"));
    let original = harness.state().model.clone();
    let seen = harness.state().seen;
    let center = harness.state().viewport_rect.center();
    drag(&mut harness, center, center + egui::vec2(60.0, 0.0));
    harness.run_steps(2);
    let page = harness.state();
    assert!(std::sync::Arc::ptr_eq(&page.model, &original));
    assert_ne!(page.seen, seen, "the camera turned");
}

/// Saves the model shown as `file` in the tests' folder, as Save as .glb does, and
/// opens what was written.
fn saved_and_opened(harness: &mut egui_kittest::Harness<'_, ModelPage>, file: &str) -> gltf::Model {
    let path = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(file);
    let _ = std::fs::remove_file(&path);
    harness.state_mut().save_to(&path);
    harness.run_steps(2);
    gltf::load(&std::fs::read(&path).expect("saved")).expect("it opens")
}

#[test]
fn the_repair_cell_repairs_undoes_and_saves_the_model_shown() {
    let mut harness = page_harness(opened("model?asset=simple_skin"), &["repair", "vertex"]);
    let found = "mesh 0 primitive 0: 2 of 10 vertices listed a joint with weight 0";
    assert!(shows(&harness, found));
    let original = harness.state().model.clone();
    harness.get_by_label("Repair all").click();
    harness.run_steps(2);
    let page = harness.state();
    assert_eq!(page.asset, Asset::File);
    assert_eq!(page.model_name(), "simple_skin (repaired)");
    assert!(shows(&harness, "Nothing to repair"));
    // A vertex the repair changed shows its joints before and now.
    let stored = |m: &gltf::Model| m.skinned_meshes[0].stored.clone();
    let changed = (stored(&original).iter())
        .zip(&stored(&harness.state().model))
        .position(|(a, b)| a != b)
        .expect("a vertex the repair changed");
    harness.state_mut().vertex = Some(changed);
    harness.run_steps(2);
    assert!(shows(&harness, "Before the last repair:"));
    // Saved, it opens as the model shown.
    let saved = saved_and_opened(&mut harness, "repaired-simple-skin.glb");
    assert!(shows(&harness, "Saved "));
    assert_eq!(saved.skinned_meshes, harness.state().model.skinned_meshes);
    assert_eq!(saved.clips, harness.state().model.clips);
    // Undone: the bundled model again, the pick kept.
    harness.get_by_label("Undo: back to simple_skin").click();
    harness.run_steps(2);
    let page = harness.state();
    assert_eq!(page.asset, Asset::SimpleSkin);
    assert_eq!(page.vertex, Some(changed));
    assert!(std::sync::Arc::ptr_eq(&page.model, &original));
}

#[test]
fn a_file_refused_for_a_reason_a_fix_mends_is_offered_repaired() {
    let bytes = skinlab::models::bytes("simple_skin").expect("bundled");
    let mut json: serde_json::Value = serde_json::from_slice(bytes).expect("JSON");
    // One joint of the two: the vertices weighted to the second name a joint past it.
    json["skins"][0]["joints"] = serde_json::json!([json["skins"][0]["joints"][0]]);
    let broken = serde_json::to_vec(&json).expect("JSON");
    let mut page = ModelPage::default();
    let err = page
        .open_bytes("broken.gltf", &broken)
        .expect_err("refused");
    assert!(err.contains("but skin 0 has 1 joints"), "{err}");
    assert_eq!(page.asset, Asset::Robot, "the model shown stays");
    let mut harness = page_harness(page, &["file"]);
    assert!(shows(
        &harness,
        "now follow their strongest valid joint alone"
    ));
    harness.get_by_label("Repair it and open it").click();
    harness.run_steps(2);
    let page = harness.state();
    assert_eq!(page.model_name(), "broken.gltf (repaired)");
    assert!(page.open_error.is_none());
    assert_eq!(page.model.skins[0].joints.len(), 1);
}

#[test]
fn the_repair_heat_map_shows_how_much_weight_each_vertex_moved() {
    // The fox with the first 100 vertices' weights scaled to 0.8 of their sum.
    let glb = skinlab::models::bytes("fox").expect("bundled");
    let word = |at: usize| u32::from_le_bytes(glb[at..at + 4].try_into().unwrap()) as usize;
    let (json_len, bin_at) = (word(12), 20 + word(12));
    let mut bin = glb[bin_at + 8..bin_at + 8 + word(bin_at)].to_vec();
    let json: serde_json::Value = serde_json::from_slice(&glb[20..20 + json_len]).expect("JSON");
    let weights = &json["accessors"][json["meshes"][0]["primitives"][0]["attributes"]["WEIGHTS_0"]
        .as_u64()
        .expect("WEIGHTS_0") as usize];
    assert_eq!(weights["componentType"], 5126, "float weights");
    let view = &json["bufferViews"][weights["bufferView"].as_u64().expect("view") as usize];
    let start =
        view["byteOffset"].as_u64().unwrap_or(0) + weights["byteOffset"].as_u64().unwrap_or(0);
    let stride = view["byteStride"].as_u64().unwrap_or(16) as usize;
    for v in 0..100 {
        for c in 0..4 {
            let at = start as usize + v * stride + c * 4;
            let w = f32::from_le_bytes(bin[at..at + 4].try_into().unwrap()) * 0.8;
            bin[at..at + 4].copy_from_slice(&w.to_le_bytes());
        }
    }
    let file = crate::mutate::glb(&serde_json::to_vec(&json).expect("JSON"), &bin);
    let mut page = ModelPage::default();
    page.open_bytes("light.glb", &file)
        .expect("opens, renormalised in memory");
    assert!(
        page.weight_moved(0).iter().all(|&m| m == 0.0),
        "no repair yet"
    );
    page.repair(&[gltf::Fix::Renormalise]);
    let moved = page.weight_moved(0);
    for (v, m) in moved.iter().enumerate() {
        let expected = if v < 100 { 0.2 } else { 0.0 };
        assert!((m - expected).abs() < 1e-3, "vertex {v}: moved {m}");
    }
    let mut harness = page_harness(page, &["repair"]);
    harness
        .get_by_label("heat map: how much of each vertex's weight the repair moved")
        .click();
    harness.run_steps(2);
    assert!(harness.state().repair_heat);
    assert!(shows(&harness, "weight 0"));
}

/// `]` and `[` in the viewport step the picked joint round the model's joints (the
/// model's joint key is a name, which the link keys' own stepping does not reach).
#[test]
fn brackets_step_the_picked_joint_round_the_model() {
    use skinlab::page::Lesson as _;
    let mut page = opened("model");
    let count = page.joint_names().len();
    assert!(count > 2);
    assert_eq!(page.joint, None);
    assert!(page.step_pick(1));
    assert_eq!(page.joint, Some(0));
    assert!(page.step_pick(-1));
    assert_eq!(
        page.joint,
        Some(count - 1),
        "[ wraps round to the last joint"
    );
    assert!(page.step_pick(1));
    assert_eq!(page.joint, Some(0));
}
