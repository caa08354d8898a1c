//! The blending page driven like a user would: falloffs, the brush, picking, the check
//! cell and links.

use crate::kit;

use egui::Vec2;
use egui_kittest::kittest::Queryable as _;
use kit::{click_at, drag, page_harness, press_check, submit, type_into};
use rigs::arm::{self, Falloff};
use skin::lbs::PositionW;
use skinlab::link::Link;
use skinlab::page::{Page, open};
use skinlab::pages::blending::{BlendingPage, MAX_BEND, Mode};
use skinlab::ui::check::field_label;

fn opened(link: &str) -> BlendingPage {
    crate::opened(link)
}

fn elbow_area(positions: &[skin::lbs::SkinnedVertex]) -> f32 {
    let p: Vec<_> = positions.iter().map(|v| v.position).collect();
    arm::ring_area(&p, arm::elbow_ring())
}

#[test]
fn half_a_turn_collapses_lbs_and_not_dqs() {
    let rest = BlendingPage::default().pose();
    let page = opened("blending?twist=3.1416");
    let pose = page.pose();
    let bind = elbow_area(&rest.lbs);
    assert!(elbow_area(&pose.lbs) < 0.05 * bind, "LBS pinches the elbow");
    assert!(elbow_area(&pose.dqs) > 0.9 * bind, "DQS keeps it");
}

#[test]
fn the_rigid_falloff_button_gives_single_weights() {
    let mut harness = page_harness(BlendingPage::default(), &["weights"]);
    harness.get_by_label("rigid").click();
    harness.run_steps(2);
    let page = harness.state();
    assert_eq!(page.falloff, Falloff::Rigid);
    for v in 0..page.weights.len() {
        let w = page.weights.get(v, 1);
        assert!(w == 0.0 || w == 1.0, "vertex {v} has forearm weight {w}");
    }
}

fn brush_page(auto_normalise: bool) -> BlendingPage {
    let mut page = opened("blending?mode=lbs");
    page.brush.on = true;
    page.bone = 0;
    page.auto_normalise = auto_normalise;
    page
}

#[test]
fn dragging_the_brush_paints_and_auto_normalise_keeps_sums_at_one() {
    let mut harness = page_harness(brush_page(true), &["paint"]);
    let before = harness.state().weights.clone();
    let center = harness.state().viewport_rect.center();
    drag(&mut harness, center, center + Vec2::new(30.0, 0.0));
    let page = harness.state();
    assert!(page.painted, "the brush painted");
    assert_ne!(page.weights, before, "weights changed under the brush");
    assert!(page.weights.unnormalised().is_empty(), "sums stay 1");
}

#[test]
fn the_smooth_brush_narrows_the_spread_of_weights_under_it() {
    let mut page = brush_page(true);
    page.brush.stroke = skinlab::pages::blending::Stroke::Smooth;
    let mut harness = page_harness(page, &["paint"]);
    let before = harness.state().weights.clone();
    let center = harness.state().viewport_rect.center();
    drag(&mut harness, center, center + Vec2::new(2.0, 0.0));
    let page = harness.state();
    assert!(page.painted, "the brush smoothed");
    // The upper arm's weights of the vertices the brush moved: closer together after.
    let moved: Vec<usize> = (0..before.len())
        .filter(|&v| page.weights.get(v, 0) != before.get(v, 0))
        .collect();
    assert!(moved.len() > 10, "{} vertices moved", moved.len());
    let spread = |weights: &skinlab::pages::blending::paint::WeightMap| {
        let w: Vec<f32> = moved.iter().map(|&v| weights.get(v, 0)).collect();
        let mean = w.iter().sum::<f32>() / w.len() as f32;
        w.iter().map(|w| (w - mean).powi(2)).sum::<f32>()
    };
    assert!(
        spread(&page.weights) < spread(&before),
        "{} against {}",
        spread(&page.weights),
        spread(&before)
    );
    assert!(page.weights.unnormalised().is_empty(), "sums stay 1");
}

#[test]
fn without_auto_normalise_painting_is_flagged() {
    let mut harness = page_harness(brush_page(false), &["paint"]);
    let center = harness.state().viewport_rect.center();
    drag(&mut harness, center, center + Vec2::new(30.0, 0.0));
    harness.run_steps(2);
    assert!(!harness.state().weights.unnormalised().is_empty());
    assert!(
        harness.query_by_label_contains("do not sum to 1").is_some(),
        "the page says so"
    );
}

#[test]
fn clicking_the_arm_picks_a_vertex_and_shows_its_working() {
    let mut harness = page_harness(opened("blending?mode=lbs"), &["vertex"]);
    let center = harness.state().viewport_rect.center();
    click_at(&mut harness, center);
    harness.run_steps(2);
    let vertex = harness.state().vertex.expect("a vertex is picked");
    let x = harness.state().skin().positions[vertex].x;
    assert!(
        (x - 2.0).abs() < 0.3,
        "the picked vertex is at the elbow (x = {x})"
    );
    assert!(harness.query_by_label_contains("weighted sum").is_some());
}

#[test]
fn the_check_cell_accepts_the_right_answer_and_rejects_others() {
    let mut harness = page_harness(BlendingPage::default(), &["check"]);
    // Worked by hand: LBS averages (2, 0.5) and (1.5, 0); DQS turns (0, 0.5) by 45°
    // about the elbow at (2, 0).
    let half = 0.5 * std::f32::consts::FRAC_1_SQRT_2;
    let right = [1.75, 0.25, 2.0 - half, half];
    for (label, value) in ["LBS x", "LBS y", "DQS x", "DQS y"].iter().zip(right) {
        type_into(
            &mut harness,
            &field_label("blend", label),
            &format!("{value:.3}"),
        );
    }
    press_check(&mut harness);
    assert!(harness.query_by_label("Right.").is_some());

    submit(&mut harness, &[(&field_label("blend", "DQS y"), "0.5")]);
    assert!(
        harness
            .query_by_label_contains("Not yet: check DQS y")
            .is_some()
    );

    submit(&mut harness, &[(&field_label("blend", "LBS x"), "elbow")]);
    assert!(harness.query_by_label_contains("is not a number").is_some());
}

#[test]
fn links_round_trip_and_bad_values_are_refused() {
    let page = opened(
        "blending?twist=2&bend=-0.5&mode=dqs&bone=0&falloff=smooth&width=1.5&vertex=7&antipodal_check=false&negate_forearm=true",
    );
    assert_eq!(page.mode, Mode::Dqs);
    let link = page.link();
    let again = opened(&link.to_string());
    assert_eq!(again.link(), link);
    assert_eq!(again.twist, 2.0);
    assert_eq!(again.falloff, Falloff::Smooth);
    assert!(again.negate_forearm && !again.antipodal_check);
}

#[test]
fn negating_the_forearm_matters_only_without_the_check() {
    let bent = |extra: &str| {
        opened(&format!("blending?mode=dqs&bend=1{extra}"))
            .pose()
            .dqs
    };
    let plain = bent("");
    let with_check = bent("&negate_forearm=true");
    let without = bent("&negate_forearm=true&antipodal_check=false");
    let largest = |a: &[skin::lbs::SkinnedVertex], b: &[skin::lbs::SkinnedVertex]| {
        a.iter()
            .zip(b)
            .map(|(p, q)| p.position.distance(q.position))
            .fold(0.0f32, f32::max)
    };
    assert!(
        largest(&plain, &with_check) < 1e-4,
        "-q is the same rotation"
    );
    assert!(
        largest(&plain, &without) > 0.5,
        "without the check the elbow swings the long way round"
    );
}

#[test]
fn every_cell_draws_without_error() {
    let page = opened("blending?vertex=1500&twist=1");
    let harness = kit::every_cell_drawn(page);
    assert!(harness.query_by_label_contains("Elbow ring area").is_some());
}

#[test]
fn the_compare_cell_twists_switches_and_checks_from_the_ui() {
    let mut harness = page_harness(BlendingPage::default(), &["compare", "antipodal"]);
    // The twist slider, moved from the keyboard as a user without a mouse would.
    harness
        .get_by_role_and_label(egui::accesskit::Role::Slider, "twist")
        .focus();
    harness.run_steps(1);
    for _ in 0..5 {
        harness.key_press(egui::Key::ArrowRight);
    }
    harness.run_steps(2);
    let twist = harness.state().twist;
    assert!(twist > 0.0, "the slider turned the forearm ({twist})");
    assert!(
        harness
            .query_by_label_contains(&format!(
                "Elbow ring area at {:.0}° twist",
                twist.to_degrees()
            ))
            .is_some(),
        "the readout follows"
    );
    // The mode button, not the plot's legend entry of the same name.
    harness
        .get_by_role_and_label(egui::accesskit::Role::Button, "LBS")
        .click();
    harness.run_steps(2);
    assert_eq!(harness.state().mode, Mode::Lbs);
    harness.get_by_label("Antipodal check").click();
    harness.run_steps(2);
    assert!(!harness.state().antipodal_check);
    assert!(harness.state().link().to_string().contains("mode=lbs"));
}

#[test]
fn a_twist_bone_from_the_checkbox_shares_the_turn_and_keeps_half_the_elbow() {
    let mut harness = page_harness(opened("blending?twist=3.1416&mode=lbs"), &["compare"]);
    let plain = harness.state().pose();
    harness.get_by_label("Twist bone").click();
    harness.run_steps(2);
    let page = harness.state();
    assert!(page.twist_bone);
    assert_eq!(page.pose().palette.len(), 3, "a third gradient");
    assert!(page.link().to_string().contains("twist_bone=true"));
    // The plain arm pinches the elbow to a point; with the twist bone each of the two
    // blends spans 90°, which keeps cos²(45°) = half of the ring.
    let bind = elbow_area(&BlendingPage::default().pose().lbs);
    let shared = elbow_area(&page.pose().lbs) / bind;
    assert!(elbow_area(&plain.lbs) / bind < 0.05);
    assert!((shared - 0.5).abs() < 0.02, "{shared}");
    assert!(
        harness
            .query_by_label_contains("LBS 50% of the bind pose")
            .is_some(),
        "the readout says so"
    );
    // The hand ends where the plain arm put it.
    let tip = |p: &skinlab::pages::blending::Pose| p.lbs[arm::VERTEX_COUNT - 1].position;
    assert!(tip(&page.pose()).abs_diff_eq(tip(&plain), 1e-4));
}

#[test]
fn the_twist_bones_weights_are_linked_and_a_wide_blend_is_narrowed() {
    // Asking for the twist bone's weights adds it.
    let page = opened("blending?bone=2");
    assert!(page.twist_bone);
    assert_eq!(page.bone, 2);
    // Two regions 1 apart: a wider blend would overlap, so it is narrowed to 1.
    let page = opened("blending?twist_bone=true&width=1.8");
    assert_eq!(page.blend_width, 1.0);
    assert_eq!(opened(&page.link().to_string()).blend_width, 1.0);
    // Taking the twist bone away leaves a bone the arm still has.
    let mut page = opened("blending?bone=2");
    page.set_twist_bone(false);
    assert_eq!((page.bone, page.pose().palette.len()), (1, 2));
}

#[test]
fn every_key_at_once_round_trips_and_each_kind_of_bad_value_is_named() {
    // Painted over the smooth falloff, without normalising.
    let mut painter =
        opened("blending?twist_bone=true&bone=0&falloff=smooth&width=0.8&normalise=false");
    painter.paint_around(1500, 0.1);
    let painted = painter.painted_link().expect("the brush changed weights");
    kit::assert_declared_params::<BlendingPage>(
        &format!(
            "blending?twist=2&bend=-0.5&mode=dqs&twist_bone=true&bone=0&falloff=smooth&width=0.8&heat=false&normalise=false&painted={painted}&w=one&weight_scale=0.5&vertex=3119&antipodal_check=false&negate_forearm=true&ellipses=true"
        ),
        // A key's range, choices and truths are every page's test; `painted` is text.
        &[("painted", "a+b"), ("painted", "_____w")],
    );
}

#[test]
fn a_painted_arm_survives_its_link() {
    let mut harness = page_harness(brush_page(true), &["paint"]);
    let center = harness.state().viewport_rect.center();
    drag(&mut harness, center, center + Vec2::new(40.0, 0.0));
    harness.run_steps(2);
    assert!(harness.query_by_label_contains("Copy link keeps").is_some());
    let painted = harness.state().weights.clone();
    let link = harness.state().link().to_string();
    assert!(link.contains("painted="), "{link}");
    // A stroke across the elbow stays short enough to paste.
    assert!(link.len() < 1500, "{} characters: {link}", link.len());
    println!("a painted stroke's link: {} characters", link.len());
    let again = opened(&link);
    assert!(again.painted);
    for v in 0..painted.len() {
        for bone in 0..arm::MAX_JOINTS {
            let (a, b) = (again.weights.get(v, bone), painted.get(v, bone));
            assert!(
                (a - b).abs() <= 1.0 / 65535.0,
                "vertex {v}: {a} against {b}"
            );
        }
    }
    assert_eq!(
        again.link().to_string(),
        link,
        "the reopened arm writes the same link"
    );
    // What the shader draws follows the weights, once the elbow bends (at rest every
    // gradient is the identity, and weights that sum to 1 move nothing).
    let bent = opened(&format!("{link}&bend=1.2"));
    let mut unpainted = opened(&format!("{link}&bend=1.2"));
    unpainted.use_falloff(Falloff::Linear, arm::DEFAULT_BLEND_WIDTH);
    assert!(!unpainted.painted);
    assert_ne!(bent.pose().lbs, unpainted.pose().lbs);
    // Back to the falloff, and the link drops them.
    harness
        .state_mut()
        .use_falloff(Falloff::Linear, arm::DEFAULT_BLEND_WIDTH);
    assert!(!harness.state().link().to_string().contains("painted"));
}

#[test]
fn a_bad_painted_value_keeps_the_falloff_and_the_other_keys() {
    let mut page = BlendingPage::default();
    let err = open(
        &mut page,
        &Link::parse("blending?twist=1&painted=_____w").unwrap(),
    )
    .unwrap_err()
    .to_string();
    assert!(err.contains("packed weights"), "{err}");
    assert_eq!(page.twist, 1.0, "the good key applies");
    assert!(!page.painted);
    assert_eq!(page.weights, BlendingPage::default().weights);
}

#[test]
fn every_state_the_controls_reach_can_be_linked() {
    // The sliders' ends, in degrees and back, stay within the links' ranges.
    let tau = std::f32::consts::TAU;
    assert!(MAX_BEND.to_degrees().to_radians() <= MAX_BEND);
    assert!(360f32.to_radians() <= tau);
    let mut page = BlendingPage::default();
    (page.twist, page.bend) = (360f32.to_radians(), -MAX_BEND);
    let again = opened(&page.link().to_string());
    assert_eq!(again.bend, -MAX_BEND);
    assert_eq!(again.twist, 0.0, "a whole turn is no twist");
    let turned_back = opened("blending?twist=-1");
    assert!(
        (turned_back.twist - (tau - 1.0)).abs() < 1e-6,
        "a negative twist turns the other way"
    );
}

#[test]
fn a_frame_skins_the_arm_once_for_the_viewport_and_every_cell() {
    // A vertex picked, so the inspector, the algorithm and the overlay all read the pose.
    let page = opened("blending?vertex=1500&twist=1");
    let cells = page.cells();
    let mut harness = page_harness(page, cells);
    assert_eq!(
        harness.state().skinnings(),
        1,
        "the first frames skinned the arm once between them"
    );
    harness.run_steps(3);
    assert_eq!(
        harness.state().skinnings(),
        1,
        "nothing changed, so nothing was skinned again"
    );
    harness.state_mut().twist = 2.0;
    harness.run_steps(2);
    assert_eq!(
        harness.state().skinnings(),
        2,
        "a new twist is skinned once, for everything on the page"
    );
    let pose = harness.state().pose();
    let mut fresh = BlendingPage::default();
    (fresh.twist, fresh.vertex) = (2.0, Some(1500));
    assert_eq!(
        pose.lbs,
        fresh.pose().lbs,
        "what is shared is the current pose"
    );
    harness.state_mut().auto_normalise = false;
    harness.run_steps(2);
    assert_eq!(
        harness.state().skinnings(),
        3,
        "a change of weights is skinned once too"
    );
}

#[test]
fn a_wrong_sum_swells_the_arm_only_where_w_is_set_to_one() {
    let unit = opened("blending?mode=lbs&bend=0.8").pose().lbs;
    let hidden = opened("blending?mode=lbs&bend=0.8&weight_scale=1.25");
    assert_eq!(hidden.off_sum().len(), unit.len(), "every sum is 1.25");
    // Every vertex is off, so the dots thin out to one in several, and still show.
    let (dotted, stride) = hidden.dotted();
    assert!(
        stride > 1 && !dotted.is_empty(),
        "{stride}, {}",
        dotted.len()
    );
    assert!(dotted.len() * 8 <= unit.len() + 8, "{} dots", dotted.len());
    let few = opened("blending?mode=lbs&normalise=false&weight_scale=1");
    assert_eq!(
        few.dotted(),
        (Vec::new(), 1),
        "weights that sum to 1 get no dot"
    );
    let swollen = opened("blending?mode=lbs&bend=0.8&weight_scale=1.25&w=one");
    let (hidden, swollen) = (hidden.pose().lbs, swollen.pose().lbs);
    for (v, ((u, h), s)) in unit.iter().zip(&hidden).zip(&swollen).enumerate() {
        assert!(
            h.position.abs_diff_eq(u.position, 1e-4),
            "vertex {v}: the divide gives back the normalised point"
        );
        assert!(
            s.position.abs_diff_eq(u.position * 1.25, 1e-4),
            "vertex {v}: w = 1 leaves it 1.25 times as far from the shoulder"
        );
    }
    // The DQS arm scales its blend back to unit length: no swelling either way.
    let dqs = |link: &str| opened(link).pose().dqs;
    let (a, b) = (
        dqs("blending?bend=0.8"),
        dqs("blending?bend=0.8&weight_scale=1.25&w=one"),
    );
    assert!(
        a.iter()
            .zip(&b)
            .all(|(a, b)| a.position.abs_diff_eq(b.position, 1e-4))
    );
}

#[test]
fn the_sum_cell_switches_w_and_says_where_the_vertex_is_drawn() {
    let page = opened("blending?mode=lbs&weight_scale=1.25&vertex=1500");
    let mut harness = page_harness(page, &["sum", "vertex"]);
    assert!(
        harness
            .query_by_label_contains("The shader divides by w")
            .is_some(),
        "the vertex cell names the divide"
    );
    harness
        .get_by_role_and_label(
            egui::accesskit::Role::Button,
            "set it to 1 (3×4 palette, CPU)",
        )
        .click();
    harness.run_steps(2);
    assert_eq!(harness.state().position_w, PositionW::One);
    assert!(harness.state().link().to_string().contains("w=one"));
    assert!(
        harness
            .query_by_label_contains("The shader sets w = 1")
            .is_some(),
        "the vertex cell follows the switch"
    );
    assert!(
        harness
            .query_by_label_contains(
                "weights sum to 1.25, but the shader sets w = 1, so nothing undoes the sum"
            )
            .is_some(),
        "the sum cell shows the sum, and that w = 1 leaves it"
    );
}

#[test]
fn the_ellipses_checkbox_toggles_them_and_the_link_keeps_them() {
    let mut harness = page_harness(opened("blending?twist=3.1416"), &["ellipses"]);
    assert!(!harness.state().ellipses, "off unless asked for");
    harness.get_by_label("Deformation ellipses").click();
    harness.run_steps(2);
    assert!(harness.state().ellipses, "the checkbox switched them on");
    let link = harness.state().link().to_string();
    assert!(link.contains("ellipses=true"), "{link}");
    let again = opened(&link);
    assert!(again.ellipses);
    assert_eq!(again.link().to_string(), link, "written back as given");
    // The cell reads out the thinnest ellipse of each arm.
    assert!(
        harness
            .query_by_label_contains("LBS: thinnest aspect 0.00")
            .is_some()
    );
    harness.get_by_label("Deformation ellipses").click();
    harness.run_steps(2);
    assert!(!harness.state().ellipses);
    assert!(!harness.state().link().to_string().contains("ellipses"));
}

#[test]
fn at_the_candy_wrapper_lbs_ellipses_collapse_and_dqs_ones_stay_round() {
    let page = opened("blending?twist=3.1416&ellipses=true");
    let pose = page.pose();
    let [lbs, dqs] = page.ellipse_ranges(&pose).map(|r| r.expect("ellipses"));
    let x = |v: usize| page.skin().positions[v].x;
    assert!(lbs.thinnest.0 < 0.01, "LBS collapses: {lbs:?}");
    assert!(lbs.least_area < 0.01, "{lbs:?}");
    assert!(
        (x(lbs.thinnest.1) - 2.0).abs() < 1e-3,
        "the flattest is on the elbow ring"
    );
    assert!(dqs.thinnest.0 > 0.999, "DQS keeps circles: {dqs:?}");
    assert!((dqs.least_area - 1.0).abs() < 1e-3 && (dqs.most_area - 1.0).abs() < 1e-3);
    // Far from the elbow one bone rules: a circle of the same size.
    let rigid = page
        .ellipse(&pose, false, 0)
        .expect("the shoulder's ellipse");
    assert!((rigid.sigma[0] - 1.0).abs() < 1e-5 && (rigid.sigma[1] - 1.0).abs() < 1e-5);
    assert_eq!(page.ellipse(&pose, false, arm::VERTEX_COUNT), None);
}

#[test]
fn the_cells_ellipse_extremes_follow_the_current_pose() {
    let mut page = opened("blending?twist=3.1416&ellipses=true");
    let twisted = page.current_ellipse_ranges();
    assert_eq!(twisted, page.ellipse_ranges(&page.pose()));
    assert_eq!(
        page.current_ellipse_ranges(),
        twisted,
        "the same pose, kept"
    );
    page.twist = 0.0;
    let straight = page.current_ellipse_ranges();
    assert_eq!(
        straight,
        page.ellipse_ranges(&page.pose()),
        "a new pose, found anew"
    );
    assert_ne!(straight, twisted);
    page.antipodal_check = !page.antipodal_check;
    assert_eq!(
        page.current_ellipse_ranges(),
        page.ellipse_ranges(&page.pose())
    );
}

#[test]
fn a_bend_shrinks_the_lbs_elbow_by_the_cosine_of_half_the_bend() {
    let bend = 1.2f32;
    let page = opened(&format!("blending?bend={bend}&ellipses=true"));
    let pose = page.pose();
    let ring = arm::elbow_ring() * arm::SEGMENTS;
    let weights: Vec<f32> = page.skin().influences[ring]
        .used()
        .map(|(_, w)| w)
        .collect();
    assert_eq!(weights, [0.5, 0.5], "the elbow ring is half on each bone");
    // 0.5 · (I + rotate_z(β)) = cos(β/2) · rotate_z(β/2) in the plane of the bend, and
    // 1 across it.
    let c = (bend / 2.0).cos();
    let normal_y = page.ellipse(&pose, false, ring).expect("top of the ring");
    let normal_z = page
        .ellipse(&pose, false, ring + arm::SEGMENTS / 4)
        .expect("side of the ring");
    assert!((normal_y.area_ratio() - c).abs() < 1e-5, "{normal_y:?}");
    assert!(
        (normal_y.aspect() - c).abs() < 1e-5,
        "squashed along the arm"
    );
    assert!((normal_z.area_ratio() - c * c).abs() < 1e-5, "{normal_z:?}");
    assert!((normal_z.aspect() - 1.0).abs() < 1e-5, "round but smaller");
    for v in [ring, ring + arm::SEGMENTS / 4] {
        let e = page.ellipse(&pose, true, v).expect("DQS ellipse");
        assert!((e.area_ratio() - 1.0).abs() < 1e-5 && (e.aspect() - 1.0).abs() < 1e-5);
    }
}

#[test]
fn each_ellipse_sits_where_its_arm_draws_its_vertex() {
    let page = opened("blending?bend=0.8&ellipses=true");
    let pose = page.pose();
    let glyphs = page.ellipse_glyphs(&pose);
    for dqs in [false, true] {
        let on_arm: Vec<_> = glyphs.iter().filter(|g| g.dqs == dqs).collect();
        assert!(!on_arm.is_empty(), "both arms carry ellipses");
        assert!(on_arm.len() < arm::VERTEX_COUNT / 8, "a sparse few");
        let vertices = if dqs { &pose.dqs } else { &pose.lbs };
        // One offset per arm: the arm's row.
        let offset = on_arm[0].center - vertices[on_arm[0].vertex].position;
        for g in on_arm {
            assert!((g.center - vertices[g.vertex].position).abs_diff_eq(offset, 1e-5));
        }
    }
    // A sum of 1.25 with w = 1 swells the LBS arm: its ellipses sit on the swollen
    // skin and grow by 1.25 each way; dividing by w gives the sizes back.
    let swollen = opened("blending?mode=lbs&weight_scale=1.25&w=one&ellipses=true");
    let pose = swollen.pose();
    let glyphs = swollen.ellipse_glyphs(&pose);
    assert!(!glyphs.is_empty());
    for g in &glyphs {
        assert!(g.center.abs_diff_eq(pose.lbs[g.vertex].position, 1e-5));
        assert!((g.ellipse.area_ratio() - 1.25 * 1.25).abs() < 1e-4);
    }
    let hidden = opened("blending?mode=lbs&weight_scale=1.25&ellipses=true");
    let glyphs = hidden.ellipse_glyphs(&hidden.pose());
    assert!(!glyphs.is_empty());
    for g in glyphs {
        assert!((g.ellipse.area_ratio() - 1.0).abs() < 1e-4);
    }
}

#[test]
fn the_dual_quaternion_cell_lands_where_the_dqs_arm_draws_the_vertex() {
    let page = opened("blending?bend=1.2&vertex=1536");
    let drawn = page.pose().dqs[1536].position;
    let harness = page_harness(page, &["dq_point"]);
    let landed = format!(
        "v' = r·(v, 0)·r* + T = {}",
        skinlab::ui::matrix::vec3_text3(drawn)
    );
    assert!(
        harness.query_by_label_contains(&landed).is_some(),
        "the cell ends at {landed}"
    );
    // Half of no turn and half of 1.2 about the elbow: 0.6 rad (34.4°) about z there.
    assert!(
        harness
            .query_by_label_contains(
                "a turn of 34.4° about the axis (0.000, 0.000, 1.000) through (2.000, 0.000, 0.000)"
            )
            .is_some()
    );
    let none = page_harness(opened("blending?bend=1.2"), &["dq_point"]);
    assert!(none.query_by_label_contains("Pick a vertex").is_some());
}
