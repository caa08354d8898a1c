//! The GPU skinning page driven like a user would: paths, joints past the uniform
//! budget, the texel inspector, influence preparation, the CPU/GPU switch and sweep,
//! the check cell and links. (No GL here: what the GL thread measures shows as "not
//! measured yet"; tests/gpu_matches_cpu.rs runs the shaders.)

use crate::kit;

use egui::Vec2;
use egui_kittest::kittest::Queryable as _;
use kit::{drag, page_harness, press_check, submit, type_into};
use scene::JointIndices;
use skinlab::link::Link;
use skinlab::page::{Page, open};
use skinlab::pages::gpu::{GpuPage, MANY_JOINTS, Storage};
use skinlab::ui::check::field_label;

fn opened(link: &str) -> GpuPage {
    crate::opened(link)
}

#[test]
fn many_joints_switch_to_the_bone_texture_by_themselves() {
    let mut harness = page_harness(GpuPage::default(), &["controls", "source"]);
    assert_eq!(harness.state().effective_storage(), Storage::Uniform);
    assert!(harness.query_by_label("blend_lbs.glsl").is_some());
    harness
        .get_by_label(&format!("many joints ({MANY_JOINTS})"))
        .click();
    harness.run_steps(2);
    let page = harness.state();
    assert_eq!(page.joints, MANY_JOINTS);
    assert_eq!(page.chain().joints, MANY_JOINTS, "the chain was rebuilt");
    assert_eq!(page.storage, Storage::Uniform, "the choice is kept");
    assert_eq!(page.effective_storage(), Storage::Texture);
    assert!(
        harness
            .query_by_label_contains("switched to the bone texture by itself")
            .is_some()
    );
    assert!(
        harness.query_by_label("blend_texture.glsl").is_some(),
        "the listing shows the texture's blend file"
    );
}

#[test]
fn the_path_buttons_pick_the_program_and_its_files() {
    let mut harness = page_harness(GpuPage::default(), &["paths", "source"]);
    harness.get_by_label("bone texture").click();
    harness.run_steps(2);
    harness.get_by_label("integer ivec4").click();
    harness.run_steps(2);
    let page = harness.state();
    assert_eq!(page.storage, Storage::Texture);
    assert_eq!(page.indices, JointIndices::Int);
    let files = page.shader_files().map(|f| f.path);
    assert_eq!(
        files,
        [
            "shaders/joints_int.glsl",
            "shaders/blend_texture.glsl",
            "shaders/skin.vert"
        ]
    );
    assert!(harness.query_by_label("joints_int.glsl").is_some());
    // The listing shows the shader as the driver reads it, without the book's markers.
    for file in ["joints_int.glsl", "blend_texture.glsl", "skin.vert"] {
        harness.get_by_label(file).click();
        harness.run_steps(2);
        // One label a line: the texture's blend file reads several texels.
        assert!(
            harness
                .query_all_by_label_contains("texelFetch")
                .next()
                .is_some()
                || file != "blend_texture.glsl",
            "the texture's blend file is listed"
        );
        assert!(
            harness.query_by_label_contains("ANCHOR").is_none(),
            "{file}: no ANCHOR line in the listing"
        );
    }
    // Without a GL context nothing has been measured, and the page says so.
    assert_eq!(
        harness.query_all_by_label("not measured yet").count(),
        4,
        "one line per path"
    );
}

#[test]
fn the_listing_highlights_the_skinning_lines() {
    use gl::shaders;
    let lines = |text: &str| {
        let hot = skinlab::pages::gpu::highlighted_lines(text);
        text.lines()
            .zip(hot)
            .filter(|(_, h)| *h)
            .map(|(l, _)| l.trim().to_owned())
            .collect::<Vec<_>>()
    };
    let blend = lines(shaders::BLEND_TEXTURE.text);
    assert!(
        blend
            .iter()
            .any(|l| l.starts_with("texelFetch(u_bone_texture, ivec2(0, joint), 0)"))
    );
    assert!(
        blend
            .iter()
            .any(|l| l.contains("bone_matrix(joints[i]) * weights[i]"))
    );
    assert!(!blend.iter().any(|l| l.starts_with("uniform")));
    let main = lines(shaders::SKIN_VERT.text);
    // The blend call, the position it moves, what becomes of w, and the normal it
    // carries; no comments.
    assert!(!main.iter().any(|l| l.starts_with("//")), "{main:?}");
    assert_eq!(main.len(), 8, "{main:?}");
    assert!(main[0].contains("skin_matrix(a_joints, a_weights)"));
    assert!(main[1].contains("blended_matrix * vec4(position, 1.0)"));
    assert!(main[2].contains("u_position_w == 1"));
    assert!(main[5].contains("world.xyz / world.w"));
    assert!(main[7].contains("transpose(inverse(m)) * normal"));
}

#[test]
fn dragging_the_bend_slider_curls_the_chain() {
    let tip = |page: &GpuPage| {
        let world = page.chain().world_from_joint(page.bend, page.twist);
        world.last().unwrap().w_axis.truncate()
    };
    let mut harness = page_harness(GpuPage::default(), &["controls"]);
    let before = harness.state().bend;
    let tip_before = tip(harness.state());
    let slider = harness
        .get_all_by_label("bend")
        .map(|n| n.rect())
        .max_by(|a, b| a.width().total_cmp(&b.width()))
        .unwrap();
    drag(&mut harness, slider.center(), slider.left_center());
    let page = harness.state();
    assert!(
        page.bend < before - 1.0,
        "bend went down: {before} -> {}",
        page.bend
    );
    let now = tip(page);
    assert!(
        now.distance(tip_before) > 1.0,
        "the chain's tip moved: {tip_before} -> {now}"
    );
}

#[test]
fn dragging_the_viewport_turns_the_camera() {
    let mut harness = page_harness(GpuPage::default(), &["controls"]);
    let before = *harness.state().camera();
    let center = harness.state().viewport_rect.center();
    drag(&mut harness, center, center + Vec2::new(80.0, 0.0));
    assert_ne!(*harness.state().camera(), before);
}

#[test]
fn the_budget_shows_the_arithmetic_of_the_webgl2_minimum() {
    let harness = page_harness(GpuPage::default(), &["budget"]);
    assert!(harness.query_by_label("(256 - 8) / 4 = 62").is_some());
    // The array costs its declared size, whatever the joints in use (40 here).
    assert!(harness.query_by_label("60 × 4 = 240").is_some());
    assert!(
        harness
            .query_by_label("u_palette: 60 mat4, 40 in use")
            .is_some()
    );
    assert!(
        harness.query_by_label("not measured yet").is_some(),
        "the live limit arrives from the paint callback"
    );
}

#[test]
fn the_texel_inspector_shows_the_uploaded_floats() {
    let page = opened("gpu?bend=1&twist=0.5");
    let palette = page.palette();
    let first = page.texel_joint;
    let mut harness = page_harness(page, &["texels"]);
    let m = palette[first];
    // Texel (3, j) is column 3 of joint j: its translation, which the bend moves.
    assert!(harness.query_by_label(&format!("(3, {first})")).is_some());
    assert!(m.w_axis.truncate().length() > 0.1, "{m}");
    for v in m.w_axis.to_array() {
        let shown = format!("{v:.3}");
        assert!(harness.query_all_by_label(&shown).count() >= 1, "{shown}");
    }
    // Pick another joint with the keyboard: the rows follow.
    let slider = harness
        .get_all_by_label("joint j (row)")
        .max_by(|a, b| a.rect().width().total_cmp(&b.rect().width()))
        .unwrap()
        .rect();
    drag(&mut harness, slider.left_center(), slider.right_center());
    let j = harness.state().texel_joint;
    assert_eq!(j, harness.state().joints - 1);
    assert!(harness.query_by_label(&format!("(2, {j})")).is_some());
}

#[test]
fn the_influence_cell_prepares_a_busy_vertex_step_by_step() {
    let page = GpuPage::default();
    let ring = page.example_ring();
    assert!(
        page.chain().ring_influences[ring].len() > 4,
        "the example has more than four influences"
    );
    let harness = page_harness(page, &["influences"]);
    assert!(harness.query_by_label_contains("keep 4").is_some());
    assert!(
        harness
            .query_by_label_contains("the largest difference is")
            .is_some()
    );
    assert!(
        harness
            .query_by_label("crates/skin/src/influences.rs: prepare")
            .is_some()
    );
}

#[test]
fn skinning_on_the_cpu_is_a_switch_and_a_measured_frame() {
    let mut harness = page_harness(GpuPage::default(), &["cpu_gpu"]);
    assert!(harness.state().cpu_frame_ms.is_none());
    harness.get_by_label("skin on the CPU").click();
    harness.run_steps(2);
    assert!(harness.state().cpu_skinning);
    assert!(
        harness.state().cpu_frame_ms.is_some(),
        "the frame was timed"
    );
    assert!(
        harness
            .query_by_label_contains("skinning 11988 vertices on the CPU")
            .is_some()
    );
    assert_eq!(harness.state().link().to_string(), "gpu?cpu=true");
}

#[test]
fn measure_runs_the_sweep_a_step_per_frame() {
    let mut harness = page_harness(GpuPage::default(), &["cpu_gpu"]);
    assert!(
        harness
            .query_by_label_contains("No measurement yet")
            .is_some()
    );
    harness.get_by_label("Measure").click();
    harness.run_steps(4);
    let page = harness.state();
    assert!(page.bench.is_running());
    let n = page.bench.current().expect("a size is being measured");
    assert!(
        (2_500..3_500).contains(&n),
        "starts with about 3k vertices: {n}"
    );
    assert!(harness.query_by_label_contains("measuring").is_some());
}

#[test]
fn the_sweep_times_the_reference_loop_and_the_fast_kernel_on_one_thread_and_on_all() {
    let mut harness = page_harness(GpuPage::default(), &["cpu_gpu"]);
    harness.get_by_label("Measure").click();
    // Build the mesh, the reference loop, the fast kernel on one thread, then on all.
    harness.run_steps(8);
    let point = harness
        .state()
        .bench
        .measuring()
        .expect("the first size is still being measured: no GPU answers here")
        .clone();
    assert!((2_500..3_500).contains(&point.vertices), "{point:?}");
    assert!(
        point.reference_ms > 0.0,
        "the reference loop was timed: {point:?}"
    );
    assert!(point.fast_ms > 0.0, "the fast kernel was timed: {point:?}");
    assert_eq!(
        point.fast_threaded.is_some(),
        skinlab::pages::gpu::cpu_threads() > 1,
        "the fast kernel on every core, where there is more than one: {point:?}"
    );
    assert_eq!(point.gpu_ms, None, "no GL context, no GPU time");
    assert!(
        harness
            .query_by_role(egui::accesskit::Role::ProgressIndicator)
            .is_some(),
        "a progress bar shows how far the sweep has got"
    );
}

#[test]
fn the_check_cell_accepts_the_right_answer_and_rejects_others() {
    let mut harness = page_harness(GpuPage::default(), &["check"]);
    for (label, value) in [("vectors", "240"), ("column", "2"), ("row", "7")] {
        type_into(&mut harness, &field_label("gpu", label), value);
    }
    press_check(&mut harness);
    assert!(harness.query_by_label("Right.").is_some());

    submit(&mut harness, &[(&field_label("gpu", "column"), "7")]);
    assert!(
        harness
            .query_by_label_contains("Not yet: check column")
            .is_some()
    );
    // Column and row swapped: the verdict names the slip.
    submit(&mut harness, &[(&field_label("gpu", "row"), "2")]);
    assert!(
        harness
            .query_by_label_contains("column and row are swapped")
            .is_some()
    );
    submit(&mut harness, &[(&field_label("gpu", "row"), "7")]);

    submit(&mut harness, &[(&field_label("gpu", "vectors"), "sixty")]);
    assert!(harness.query_by_label_contains("is not a number").is_some());
}

#[test]
fn links_round_trip_and_bad_values_are_refused() {
    let page = opened(
        "gpu?path=texture&indices=int&joints=80&spread=3&vertices=20000&bend=1&twist=0.5&cpu=true&ring=5&question=2",
    );
    assert_eq!(page.storage, Storage::Texture);
    assert_eq!(page.indices, JointIndices::Int);
    assert_eq!(
        (page.joints, page.vertices, page.ring),
        (80, 20000, Some(5))
    );
    assert!(page.cpu_skinning);
    let link = page.link();
    let again = opened(&link.to_string());
    assert_eq!(again.link(), link);
    assert_eq!(
        again.chain().skin.positions.len(),
        page.chain().skin.positions.len()
    );

    let int = opened("gpu?path=int_index");
    assert_eq!(
        (int.storage, int.indices),
        (Storage::Uniform, JointIndices::Int)
    );
    assert_eq!(int.link().to_string(), "gpu?indices=int");
    let both = opened("gpu?indices=int&path=float_index");
    assert_eq!(
        both.indices,
        JointIndices::Int,
        "an explicit indices key wins"
    );

    for bad in [
        "gpu?path=buffer",
        "gpu?indices=byte",
        "gpu?joints=0",
        "gpu?joints=500",
        "gpu?vertices=10",
        "gpu?vertices=5000000",
        "gpu?spread=9",
        "gpu?bend=nan",
        "gpu?ring=999999",
        "gpu?cpu=maybe",
    ] {
        let mut page = GpuPage::default();
        let err = open(&mut page, &Link::parse(bad).unwrap());
        assert!(err.is_err(), "{bad} is refused");
        assert_eq!(
            page.link(),
            GpuPage::default().link(),
            "{bad}: defaults kept"
        );
        assert_eq!(page.joints, 40);
    }
}

#[test]
fn every_cell_draws_without_error() {
    let page = opened("gpu?joints=70&indices=int");
    let cells = page.cells();
    let mut harness = page_harness(page, cells);
    harness.run_steps(2);
    assert!(harness.query_by_label_contains("has no cell").is_none());
}

#[test]
fn every_key_at_once_writes_back_and_each_kind_refuses_its_bad_values() {
    let text = "gpu?path=texture&indices=int&joints=80&spread=3&vertices=20000&bend=1&twist=0.5&cpu=true&ring=5";
    let page = opened(text);
    assert_eq!(page.link().to_string(), text);
    assert_eq!((page.chain().joints, page.chain().spread), (80, 3.0));
    // The ring is checked against the chain the link's `vertices` builds (214 rings).
    assert_eq!(opened("gpu?vertices=3000&ring=200").ring, Some(200));

    for (bad, expected) in [
        (
            "gpu?path=buffer",
            "one of: uniform, texture, float_index, int_index",
        ),
        ("gpu?joints=0", "a whole number from 1 to 120"),
        ("gpu?spread=9", "a number from 0.5 to 4"),
        ("gpu?cpu=maybe", "true or false"),
        ("gpu?ring=444", "a whole number from 0 to 443"),
        ("gpu?vertices=3000&ring=300", "a whole number from 0 to 213"),
    ] {
        let mut page = GpuPage::default();
        let err = open(&mut page, &Link::parse(bad).unwrap())
            .expect_err(bad)
            .to_string();
        assert!(err.contains(expected), "{bad}: {err}");
        // The bad key stays at its default; a good one beside it applies.
        let kept = if bad.contains("vertices=3000") {
            "gpu?vertices=3000"
        } else {
            "gpu"
        };
        assert_eq!(page.link().to_string(), kept, "{bad}: only the good keys");
        assert_eq!(page.chain().joints, 40, "{bad}: the default chain is back");
    }
}

#[test]
fn the_second_exercise_prepares_five_influences_by_hand() {
    let mut harness = page_harness(opened("gpu?question=2"), &["check"]);
    assert_eq!(harness.state().exercise, 1);
    // Worked by hand: sorted 0.40 (joint 3), 0.25 (1), 0.15 (7), 0.12 (2), 0.08 (5);
    // the four kept sum to 0.92, and each is divided by it.
    let joints = [3, 1, 7, 2];
    let weights = [0.40f32, 0.25, 0.15, 0.12].map(|w| w / 0.92);
    let field = |label: &str| field_label("prepare", label);
    for (k, j) in joints.iter().enumerate() {
        type_into(
            &mut harness,
            &field(&format!("slot {}", k + 1)),
            &j.to_string(),
        );
    }
    for (k, w) in weights.iter().enumerate() {
        type_into(
            &mut harness,
            &field(&format!("weight {}", k + 1)),
            &format!("{w:.3}"),
        );
    }
    press_check(&mut harness);
    assert!(harness.query_by_label("Right.").is_some());
    // Forgetting to normalise keeps 0.40 as the first weight: not yet.
    submit(&mut harness, &[(&field("weight 1"), "0.40")]);
    assert!(
        harness
            .query_by_label_contains("Not yet: check weight 1")
            .is_some()
    );
    // All four left undivided: the cell names the slip.
    let undivided = [0.40f32, 0.25, 0.15, 0.12];
    let fields: Vec<String> = (1..=4).map(|k| field(&format!("weight {k}"))).collect();
    let texts: Vec<String> = undivided.iter().map(|w| format!("{w:.2}")).collect();
    let entries: Vec<(&str, &str)> = fields
        .iter()
        .zip(&texts)
        .map(|(f, t)| (f.as_str(), t.as_str()))
        .collect();
    submit(&mut harness, &entries);
    assert!(
        harness
            .query_by_label_contains("divide each by their sum")
            .is_some()
    );
}

#[test]
fn a_file_set_beside_the_blend_file_shows_both_and_the_link_keeps_them() {
    let link = "gpu?source=blend&beside=blend_dqs";
    let mut harness = page_harness(opened(link), &["source"]);
    harness.run_steps(2);
    for name in ["shaders/blend_lbs.glsl", "shaders/blend_dqs.glsl"] {
        assert!(
            harness.query_by_label(name).is_some(),
            "`{name}` heads a column"
        );
    }
    assert_eq!(harness.state().link().to_string(), "gpu?beside=blend_dqs");
    // Choosing "nothing" takes the second file away.
    harness.get_by_label("set beside it").click();
    harness.run_steps(2);
    harness.get_by_label("nothing").click();
    harness.run_steps(2);
    assert!(harness.query_by_label("shaders/blend_dqs.glsl").is_none());
    assert_eq!(harness.state().link().to_string(), "gpu");
}

/// A sweep measured earlier, as a link holds it: three sizes, the GPU ahead from the
/// second.
const SWEEP: &str = "2996:0.212,0.0312,0.0101@1,0.05,0.12;\
    9984:0.71,0.104,0.0533@2,0.161,0.13;29988:2.13,0.312,0.16@2,0.48,0.15";

#[test]
fn measuring_again_replaces_the_points_a_link_brought_and_their_note() {
    let link = format!("gpu?sweep={SWEEP}");
    let mut harness = page_harness(opened(&link), &["cpu_gpu"]);
    let note = "brought in by the link";
    assert!(harness.query_by_label_contains(note).is_some());
    assert_eq!(harness.state().link().to_string(), link);
    harness.get_by_label("Measure").click();
    harness.run_steps(4);
    let page = harness.state();
    assert!(page.bench.is_running() && !page.bench.from_link);
    assert!(page.bench.points.is_empty(), "the linked points are gone");
    assert!(harness.query_by_label_contains(note).is_none());
    assert_eq!(
        harness.state().link().to_string(),
        "gpu",
        "a sweep under way is not written"
    );
}

#[test]
fn a_bad_sweep_on_top_of_a_page_leaves_its_points_alone() {
    let mut page = opened(&format!("gpu?sweep={SWEEP}"));
    let before = page.bench.points.clone();
    for bad in [
        "gpu?sweep=2996:0.2,0.03,-,-,-;2996:0.2,0.03,-,-,-",
        "gpu?sweep=2996:0.2,0.03,-,-,-;9984:0.2,-1,-,-,-",
        "gpu?sweep=1:1,1,-,-,-;2:1,1,-,-,-;3:1,1,-,-,-;4:1,1,-,-,-;5:1,1,-,-,-;6:1,1,-,-,-;7:1,1,-,-,-",
    ] {
        let err = page
            .apply_link(&Link::parse(bad).unwrap())
            .expect_err(bad)
            .to_string();
        assert!(err.contains("sizes joined by `;`"), "{bad}: {err}");
        assert_eq!(page.bench.points, before, "{bad}: the points stay");
        assert!(page.bench.from_link);
    }
}

/// The texts painted in the frame `output` holds.
fn painted(output: &egui::FullOutput) -> Vec<String> {
    fn texts(shape: &egui::Shape, out: &mut Vec<String>) {
        match shape {
            egui::Shape::Vec(shapes) => shapes.iter().for_each(|s| texts(s, out)),
            egui::Shape::Text(t) => out.push(t.galley.text().to_owned()),
            _ => {}
        }
    }
    let mut out = Vec::new();
    output.shapes.iter().for_each(|c| texts(&c.shape, &mut out));
    out
}

#[test]
fn a_big_mesh_is_said_to_be_building_on_the_frame_before_it_is_built() {
    // The app's order: the viewport is drawn before the cells.
    let mut harness = egui_kittest::Harness::builder()
        .with_context_setup(skinlab::ui::fonts::install)
        .with_size(Vec2::new(1280.0, 900.0))
        .build_ui_state(
            |ui, page: &mut GpuPage| {
                ui.columns(2, |columns| {
                    columns[0].set_height(800.0);
                    page.viewport_ui(&mut columns[0]);
                    page.cell_ui("cpu_gpu", &mut columns[1]);
                });
            },
            opened("gpu?vertices=150000"),
        );
    harness.run_steps(2);
    let says = |output: &egui::FullOutput| {
        painted(output)
            .iter()
            .any(|t| t.starts_with("Building and uploading"))
    };
    assert!(!says(harness.output()));
    let built = harness.state().mesh().clone();
    harness
        .get_by_role_and_label(egui::accesskit::Role::Slider, "vertices asked for")
        .focus();
    harness.step();
    harness.key_press(egui::Key::ArrowRight);
    let mut frames = 0;
    while !says(harness.output()) {
        assert!(
            std::sync::Arc::ptr_eq(harness.state().mesh(), &built),
            "not built before it is said"
        );
        frames += 1;
        assert!(frames < 4, "a frame says it is building");
        harness.step();
    }
    assert!(std::sync::Arc::ptr_eq(harness.state().mesh(), &built));
    harness.step();
    assert!(!says(harness.output()), "built, and no longer said");
    assert!(
        !std::sync::Arc::ptr_eq(harness.state().mesh(), &built),
        "built"
    );
    assert_eq!(harness.state().vertices, 150_001);
}

#[test]
fn with_nothing_measured_the_chart_offers_a_run_measured_elsewhere_and_names_its_machine() {
    let mut harness = page_harness(opened("gpu"), &["cpu_gpu"]);
    assert!(
        harness
            .query_by_label_contains("No measurement yet")
            .is_some()
    );
    harness
        .get_by_label_contains("Show a run measured on")
        .click();
    harness.run_steps(2);
    assert!(harness.state().bench.example);
    assert!(harness.query_by_label_contains("NVIDIA H100").is_some());
    assert!(
        harness
            .query_by_label_contains(
                "On the machine that measured them, the GPU's vertex stage beat the fast kernel plus its upload at every size"
            )
            .is_some()
    );
    assert!(
        harness
            .query_by_label_contains("No measurement yet")
            .is_none()
    );
    // The link carries the run, as any finished sweep.
    assert!(
        harness
            .state()
            .link()
            .to_string()
            .starts_with("gpu?sweep=2996:")
    );
}
