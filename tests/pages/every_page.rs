//! The app and its pages driven like a user would: clicks, keys, drags (egui_kittest,
//! no window, no GL).

use crate::kit;

use egui::Vec2;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use kit::drag;
use skinlab::SkinlabApp;
use skinlab::chapter::cell_names;
use skinlab::link::Link;
use skinlab::page::Page;
use skinlab::pages::{grid::GridPage, xray::XrayPage};
use skinlab::pages::{registry, slugs};
use std::collections::BTreeSet;

fn app_harness(app: SkinlabApp) -> Harness<'static, SkinlabApp> {
    let mut harness = harness_of(app, false);
    harness.run_steps(2);
    harness
}

/// The app at 1280×800 before its first frame; `recording` its marks (where each cell
/// was drawn, which one a link aimed at).
fn harness_of(app: SkinlabApp, recording: bool) -> Harness<'static, SkinlabApp> {
    Harness::builder()
        .with_context_setup(move |ctx| {
            skinlab::ui::fonts::install(ctx);
            skinlab::ui::marks::set_recording(ctx, recording);
        })
        .with_size(Vec2::new(1280.0, 800.0))
        .build_ui_state(|ui, app: &mut SkinlabApp| app.app_ui(ui), app)
}

/// Presenter mode's zoom in [`app_harness`]'s window, 800 points high: scaled from
/// that of a 1080-point screen.
fn presenter_zoom() -> f32 {
    skinlab::app::PRESENTER_ZOOM * skinlab::app::presenter_scale(800.0)
}

fn paused_app() -> SkinlabApp {
    let mut app = SkinlabApp::new();
    app.paused = true;
    app
}

/// The app with time paused, opened at `link` and drawn a few frames.
fn app_at(link: &str) -> Harness<'static, SkinlabApp> {
    let mut app = paused_app();
    app.open_link(link).unwrap();
    let mut harness = app_harness(app);
    harness.run_steps(4);
    harness
}

/// The control that has the keyboard: its AccessKit id (as text), its role and name.
fn focused(harness: &Harness<'_, SkinlabApp>) -> Option<(String, egui::accesskit::Role, String)> {
    use egui_kittest::kittest::NodeT as _;
    harness
        .root()
        .children_recursive()
        .map(|n| n.accesskit_node())
        .find(|a| a.is_focused())
        .map(|a| {
            (
                format!("{:?}", a.id()),
                a.role(),
                a.label().unwrap_or_default(),
            )
        })
}

/// Presses Tab until the control that has the keyboard is `wanted` (by its role and
/// name); fails after 400 presses.
fn tab_to(
    harness: &mut Harness<'_, SkinlabApp>,
    wanted: impl Fn(egui::accesskit::Role, &str) -> bool,
) {
    for _ in 0..400 {
        if focused(harness).is_some_and(|(_, role, name)| wanted(role, &name)) {
            return;
        }
        harness.key_press(egui::Key::Tab);
        harness.run_steps(1);
    }
    panic!("Tab never reached the control");
}

#[test]
fn every_page_opens_and_shows_its_title() {
    for (i, page) in registry().iter().enumerate() {
        let mut app = paused_app();
        app.go_to(i);
        let harness = app_harness(app);
        assert_eq!(harness.state().current_page().slug(), page.slug());
        let heading = skinlab::chapter::title(page.notebook()).expect("a title");
        assert!(
            harness.query_by_label(heading).is_some(),
            "page `{}` shows its heading `{heading}`",
            page.slug()
        );
    }
}

#[test]
fn next_and_previous_walk_every_page_in_lesson_order() {
    let order = slugs();
    assert!(order.len() >= 2, "at least the xray and grid pages");
    let mut harness = app_harness(paused_app());
    for expected in &order[1..] {
        harness.get_by_label("Next").click();
        harness.run_steps(2);
        assert_eq!(harness.state().current_page().slug(), *expected);
    }
    harness.get_by_label("Next").click();
    harness.run_steps(2);
    assert_eq!(
        harness.state().current_page().slug(),
        *order.last().unwrap(),
        "Next stops at the last page"
    );
    for expected in order[..order.len() - 1].iter().rev() {
        harness.get_by_label("Previous").click();
        harness.run_steps(2);
        assert_eq!(harness.state().current_page().slug(), *expected);
    }
}

#[test]
fn arrow_keys_turn_pages_and_f5_toggles_presenter_mode() {
    let mut harness = app_harness(paused_app());
    harness.key_press(egui::Key::ArrowRight);
    harness.run_steps(2);
    assert_eq!(harness.state().current_page().slug(), slugs()[1]);
    harness.key_press(egui::Key::ArrowLeft);
    harness.run_steps(2);
    assert_eq!(harness.state().current_page().slug(), slugs()[0]);
    harness.key_press(egui::Key::F5);
    harness.run_steps(2);
    assert!(harness.state().presenter());
    harness.key_press(egui::Key::P);
    harness.run_steps(2);
    assert!(
        !harness.state().presenter(),
        "P toggles presenter mode too (F5 reloads a browser page)"
    );
    harness.key_press(egui::Key::P);
    harness.run_steps(2);
    assert!((harness.ctx.zoom_factor() - presenter_zoom()).abs() < 1e-4);
}

#[test]
fn every_listed_link_opens_and_every_state_link_round_trips() {
    for slug in slugs() {
        let mut app = paused_app();
        app.open_link(slug)
            .unwrap_or_else(|e| panic!("`{slug}`: {e}"));
        assert_eq!(app.current_page().slug(), slug);
    }
    for link in [
        "xray?preset=shear",
        "xray?m=1,0,0,0,0,2,0,0,0,0,1,0,1,2,3,1&p=1,2,3&v=0,0,1",
        "grid?angle=0.8&bone=2&vertex=4&forget_inverse_bind=true",
        "grid?angles=0.1,-0.2,0.3",
    ] {
        let mut app = paused_app();
        app.open_link(link)
            .unwrap_or_else(|e| panic!("`{link}`: {e}"));
        let written = app.current_link().to_string();
        let mut again = paused_app();
        again
            .open_link(&written)
            .unwrap_or_else(|e| panic!("`{written}`: {e}"));
        assert_eq!(
            written, link,
            "`{link}` is already canonical, so it is written back as given"
        );
        assert_eq!(
            again.current_link().to_string(),
            written,
            "`{link}` reopens the same state"
        );
    }
}

#[test]
fn bad_links_explain_themselves_and_keep_the_app_running() {
    let mut app = paused_app();
    app.open_link("grid?angle=0.5").unwrap();
    let err = app.open_link("nowhere?x=1").unwrap_err().to_string();
    assert!(
        err.contains("nowhere") && err.contains("grid") && err.contains("xray"),
        "{err}"
    );
    assert_eq!(
        app.current_link().to_string(),
        "grid?angle=0.5",
        "an unknown page keeps the current one"
    );
    let err = app.open_link("grid?angle=fast").unwrap_err().to_string();
    assert!(
        err.contains("angle=fast") && err.contains("number"),
        "{err}"
    );
    assert_eq!(
        app.current_link().to_string(),
        GridPage::default().link().to_string(),
        "bad values fall back to the defaults"
    );
    let err = app.open_link("grid?wiggle=1").unwrap_err().to_string();
    assert!(err.contains("wiggle") && err.contains("angle"), "{err}");
    assert!(
        app.notices().is_empty(),
        "open_link leaves the reporting to its caller: {:?}",
        app.notices()
    );
}

#[test]
fn a_followed_bad_link_is_one_notice_and_says_what_is_on_screen() {
    let mut app = paused_app();
    app.follow_link("grid?angle=0.5");
    assert!(app.notices().is_empty());
    // Each bad link says what went wrong in one notice, which the next link replaces.
    let said = |app: &mut SkinlabApp, link: &str| {
        app.follow_link(link);
        let notices = app.notices().to_vec();
        assert_eq!(notices.len(), 1, "{link}: {notices:?}");
        notices[0].clone()
    };
    let notice = said(&mut app, "nowhere?x=1");
    assert!(
        notice.contains("no page called `nowhere`")
            && notice.contains("the current page stays as it was"),
        "{notice}"
    );
    let notice = said(&mut app, "grid?angle=fast");
    assert!(
        notice.contains("angle=fast") && notice.contains("everything else in the link was applied"),
        "{notice}"
    );
    let notice = said(&mut app, "grid?wiggle=1");
    assert!(notice.contains("wiggle"), "{notice}");

    // The link field reports the same way, once; × dismisses it.
    let mut harness = app_harness(app);
    kit::type_into(&mut harness, "Link:", "nowhere");
    harness.get_by_label("Open").click();
    harness.run_steps(2);
    assert_eq!(harness.state().notices().len(), 1);
    assert!(harness.state().notices()[0].contains("nowhere"));
    harness
        .get_all_by_label("×")
        .next()
        .expect("a dismiss button")
        .click();
    harness.run_steps(2);
    assert!(harness.state().notices().is_empty());
}

#[test]
fn a_split_in_a_focused_link_moves_the_divider_beside_the_cell() {
    use egui_kittest::kittest::NodeT as _;
    let splitter_x = |link: &str| {
        let mut app = paused_app();
        app.open_link(link).unwrap();
        let mut harness = app_harness(app);
        harness.run_steps(6);
        let x = harness
            .root()
            .children_recursive()
            .find(|n| n.accesskit_node().role() == egui::accesskit::Role::Splitter)
            .and_then(|n| n.accesskit_node().bounding_box())
            .map(|b| b.x0)
            .expect("a divider beside the focused cell");
        (x, harness.state().current_link().to_string())
    };
    let (wide, link) = splitter_x("pipeline?focus=pipeline&split=0.25");
    assert!(link.contains("split=0.25"), "{link}");
    let (narrow, link) = splitter_x("pipeline?focus=pipeline&split=0.6");
    assert!(link.contains("split=0.6"), "{link}");
    // The viewport is on the right: a larger share moves the divider left.
    assert!(narrow < wide - 200.0, "{narrow} and {wide}");
}

#[test]
fn saved_state_restores_and_corrupt_state_is_ignored_with_a_notice() {
    let mut app = paused_app();
    app.open_link("xray?preset=rotate_z").unwrap();
    app.open_link("grid?angle=0.3&bone=0&split=0.6").unwrap();
    let saved = app.save_state();
    let mut restored = paused_app();
    restored.restore_state(&saved);
    assert_eq!(
        restored.current_link().to_string(),
        "grid?angle=0.3&bone=0&split=0.6",
        "the page and the divider come back"
    );
    assert!(restored.notices().is_empty());
    // Other pages may sit between xray and grid in lesson order: go to xray by name.
    let xray = slugs().iter().position(|s| *s == "xray").unwrap();
    restored.go_to(xray);
    assert_eq!(
        restored.current_link().to_string(),
        "xray?preset=rotate_z&split=0.6"
    );

    let mut corrupt = paused_app();
    corrupt.restore_state(
        "current grid\npage grid?angle=banana\n\u{0}garbage\npage xray?preset=shear",
    );
    assert_eq!(corrupt.current_page().slug(), "grid");
    assert_eq!(
        corrupt.notices().len(),
        1,
        "one notice for everything unreadable"
    );
    corrupt.go_to(xray);
    assert_eq!(
        corrupt.current_link().to_string(),
        "xray?preset=shear",
        "readable lines are kept"
    );

    // A page's lines repeated (a cut and pasted state): each opens the page afresh, so
    // the last one is what the page shows.
    let mut repeated = paused_app();
    repeated.restore_state("current xray\npage xray?preset=shear\npage xray?preset=rotate_z");
    assert_eq!(
        repeated.current_link().to_string(),
        "xray?preset=rotate_z",
        "the last line of a page wins"
    );
    assert!(repeated.notices().is_empty());
}

#[test]
fn cell_markers_and_page_cells_match_both_ways() {
    for page in registry() {
        let placed: Vec<&str> = cell_names(page.notebook()).expect("the chapter parses");
        let placed_set: BTreeSet<&str> = placed.iter().copied().collect();
        let implemented: BTreeSet<&str> = page.cells().iter().copied().collect();
        assert_eq!(
            placed.len(),
            placed_set.len(),
            "page `{}` places a cell twice",
            page.slug()
        );
        assert_eq!(
            placed_set,
            implemented,
            "page `{}`: cells in the chapter vs cells the page draws",
            page.slug()
        );
    }
}

#[test]
fn dragging_an_xray_cell_changes_the_drawn_arrow() {
    let mut harness = Harness::builder()
        .with_context_setup(skinlab::ui::fonts::install)
        .with_size(Vec2::new(900.0, 700.0))
        .build_ui_state(
            |ui, page: &mut XrayPage| {
                page.cell_ui("matrix", ui);
                ui.allocate_ui(Vec2::new(600.0, 300.0), |ui| page.viewport_ui(ui));
            },
            XrayPage::default(),
        );
    harness.run_steps(2);
    let before = harness.state().arrows();
    let cell = harness
        .get_by_label(&skinlab::ui::matrix::cell_label("M", 0, 0))
        .rect()
        .center();
    drag(&mut harness, cell, cell + Vec2::new(60.0, 0.0));
    let after = harness.state().arrows();
    assert!(
        after[0].1.x > before[0].1.x + 0.1,
        "the x arrow grew: {:?} -> {:?}",
        before[0],
        after[0]
    );
    assert_eq!(after[1], before[1], "other arrows stay");
}

#[test]
fn a_typed_nan_is_refused_and_the_matrix_is_kept() {
    let mut harness = Harness::builder()
        .with_context_setup(skinlab::ui::fonts::install)
        .with_size(Vec2::new(900.0, 700.0))
        .build_ui_state(
            |ui, page: &mut XrayPage| page.cell_ui("matrix", ui),
            XrayPage::default(),
        );
    harness.run_steps(2);
    let label = skinlab::ui::matrix::cell_label("M", 1, 2);
    harness.get_by_label(&label).click();
    harness.run_steps(2);
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
    harness.get_by_label(&label).type_text("nan");
    harness.key_press(egui::Key::Enter);
    harness.run_steps(3);
    assert!(
        harness.state().matrix.is_finite(),
        "the matrix stays finite"
    );
    assert_eq!(harness.state().matrix, XrayPage::default().matrix);
    assert!(
        harness
            .query_by_label_contains("not a finite number")
            .is_some(),
        "the refusal is shown"
    );
}

#[test]
fn dragging_a_grid_joint_rotates_it_and_pauses_the_animation() {
    let mut page = GridPage::default();
    page.angles = [0.0; 3];
    let mut harness = Harness::builder()
        .with_context_setup(skinlab::ui::fonts::install)
        .with_size(Vec2::new(700.0, 600.0))
        .build_ui_state(|ui, page: &mut GridPage| page.viewport_ui(ui), page);
    harness.state_mut().playing = false;
    harness.run_steps(2);
    let joint = harness.state().joint_screen[1];
    let tip = harness.state().joint_screen[2];
    // Grab b1 and pull up, off its x axis: b1 turns counter-clockwise.
    harness.state_mut().playing = true;
    drag(
        &mut harness,
        joint,
        joint + (tip - joint) * 0.5 + Vec2::new(0.0, -120.0),
    );
    let state = harness.state();
    assert!(!state.playing, "dragging a joint pauses the animation");
    assert!(state.angles[1] > 0.3, "b1 turned: {:?}", state.angles);
    assert_eq!(state.bone, 1, "the dragged bone is selected");
}

#[test]
fn clicking_a_vertex_selects_it() {
    let mut harness = Harness::builder()
        .with_context_setup(skinlab::ui::fonts::install)
        .with_size(Vec2::new(700.0, 600.0))
        .build_ui_state(
            |ui, page: &mut GridPage| page.viewport_ui(ui),
            GridPage::default(),
        );
    harness.state_mut().playing = false;
    harness.run_steps(2);
    // At angle 0 vertex 4 sits at (4, 1), right above joint b1 at (4, 0).
    let b0 = harness.state().joint_screen[0];
    let b1 = harness.state().joint_screen[1];
    let units = b0.distance(b1) / 4.0;
    let vertex4 = b1 + Vec2::new(0.0, -units);
    harness.hover_at(vertex4);
    harness.step();
    harness.drag_at(vertex4);
    harness.step();
    harness.drop_at(vertex4);
    harness.run_steps(2);
    assert_eq!(harness.state().vertex, Some(4));
}

#[test]
fn every_page_ends_with_a_check_yourself_cell() {
    for page in registry() {
        let placed = cell_names(page.notebook()).expect("the chapter parses");
        assert_eq!(
            placed.last(),
            Some(&"check"),
            "page `{}` closes with a check-yourself cell",
            page.slug()
        );
    }
}

#[test]
fn the_quaternion_checks_hold_the_pose_back_and_name_yaw_plus_roll() {
    use skinlab::pages::quaternions::QuaternionsPage;
    use skinlab::ui::check::field_label;
    // quaternions, exercise 1: its pose would print the answer in the turn cell, so
    // the button waits for a checked answer.
    let mut harness = kit::page_harness(QuaternionsPage::default(), &["check"]);
    let pose = "Show this pose in the viewport";
    assert!(
        harness.query_by_label(pose).is_none(),
        "no pose before an answer"
    );
    let [x, y, z, w] = ["x", "y", "z", "w"].map(|l| field_label("quaternion", l));
    kit::submit(&mut harness, &[(&x, "0"), (&y, "1"), (&z, "0"), (&w, "0")]);
    assert!(
        harness.query_by_label(pose).is_some(),
        "the pose once checked"
    );
    // The gimbal: yaw 50, roll 20; yaw + roll is the slip.
    harness.get_by_label("4").click();
    harness.run_steps(2);
    let yaw = field_label("gimbal", "yaw");
    kit::submit(&mut harness, &[(&yaw, "70")]);
    assert!(
        harness
            .query_by_label_contains("that is yaw + roll")
            .is_some()
    );
    kit::submit(&mut harness, &[(&yaw, "30")]);
    assert!(harness.query_by_label("Right.").is_some());
}

#[test]
fn the_xray_and_grid_check_cells_judge_answers() {
    use skinlab::ui::check::field_label;
    // xray, exercise 2: turn 90° about z, move by (2, 0, 0): (1, 0, 0) as a point.
    let mut harness = kit::page_harness(XrayPage::default(), &["check"]);
    harness.get_by_label("2").click();
    harness.run_steps(2);
    let [x, y, z] = ["x", "y", "z"].map(|l| field_label("product", l));
    kit::submit(&mut harness, &[(&x, "2"), (&y, "1"), (&z, "0")]);
    assert!(harness.query_by_label("Right.").is_some());
    // Enter in a field checks too: an edit took the verdict away, Enter brings one.
    kit::type_into(&mut harness, &z, "1");
    assert!(harness.query_by_label("Right.").is_none());
    kit::type_into(&mut harness, &z, "0");
    harness.key_press(egui::Key::Enter);
    harness.run_steps(2);
    assert!(
        harness.query_by_label("Right.").is_some(),
        "Enter checked the answer"
    );
    // The vector answer to the point question: the move was forgotten, and the
    // verdict says so.
    kit::submit(&mut harness, &[(&x, "0")]);
    assert!(
        harness
            .query_by_label_contains("Not yet: a point has w = 1")
            .is_some()
    );
    // Moved first, then turned: (1 + 2, 0, 0) turned 90° is (0, 3, 0). The verdict
    // names the order.
    kit::submit(&mut harness, &[(&x, "0"), (&y, "3"), (&z, "0")]);
    assert!(
        harness
            .query_by_label_contains("moved first and turned after")
            .is_some()
    );
    // Another wrong answer names its fields.
    kit::submit(&mut harness, &[(&x, "5"), (&y, "1"), (&z, "0")]);
    assert!(
        harness
            .query_by_label_contains("Not yet: check x")
            .is_some()
    );

    // grid, exercise 1: b1 turned 90°, vertex 4 at (4, 1) lands at (3, 0).
    let mut harness = kit::page_harness(GridPage::default(), &["check"]);
    let [x, y] = ["x", "y"].map(|l| field_label("skinned vertex", l));
    kit::submit(&mut harness, &[(&x, "3"), (&y, "0")]);
    assert!(harness.query_by_label("Right.").is_some());
    // Turned about the origin instead of the joint.
    kit::submit(&mut harness, &[(&x, "-1"), (&y, "4")]);
    assert!(
        harness
            .query_by_label_contains("Not yet: check x, y")
            .is_some()
    );
    harness
        .get_by_label("Show this pose in the viewport")
        .click();
    harness.run_steps(2);
    let page = harness.state();
    assert!(!page.playing && page.vertex == Some(4));
    assert!((page.angles[1] - std::f32::consts::FRAC_PI_2).abs() < 1e-6);
}

#[test]
fn the_grid_shows_no_time_for_angles_set_by_hand() {
    let mut page = GridPage::default();
    skinlab::page::open(
        &mut page,
        &skinlab::link::Link::parse("grid?angle=0.8").unwrap(),
    )
    .unwrap();
    let harness = kit::page_harness(page, &["controls"]);
    assert!(
        harness
            .query_all_by_label_contains("angles set by hand")
            .next()
            .is_some()
    );

    let mut page = GridPage::default();
    skinlab::page::open(&mut page, &skinlab::link::Link::parse("grid?t=1").unwrap()).unwrap();
    let harness = kit::page_harness(page, &["controls"]);
    assert!(
        harness
            .query_all_by_label_contains("angles set by hand")
            .next()
            .is_none(),
        "at a time of the animation the time is the truth"
    );
}

#[test]
fn pages_are_built_when_first_shown_and_keep_their_state() {
    let mut app = paused_app();
    assert_eq!(app.built_pages(), 1, "opening the app builds one page");
    app.open_link("grid?angle=0.5").unwrap();
    app.next();
    assert_eq!(app.built_pages(), 3);
    app.previous();
    assert_eq!(
        app.current_link().to_string(),
        "grid?angle=0.5",
        "kept while away"
    );
    let saved = app.save_state();
    assert_eq!(saved.lines().filter(|l| l.starts_with("page ")).count(), 3);
    let mut restored = paused_app();
    restored.restore_state(&saved);
    assert_eq!(restored.current_link().to_string(), "grid?angle=0.5");
}

/// What the app asked the platform to copy in the last frame.
fn copied(harness: &Harness<'_, SkinlabApp>) -> Vec<String> {
    harness
        .output()
        .platform_output
        .commands
        .iter()
        .filter_map(|c| match c {
            egui::OutputCommand::CopyText(text) => Some(text.clone()),
            _ => None,
        })
        .collect()
}

#[test]
fn copy_link_offers_the_link_a_web_address_and_a_command() {
    let mut app = paused_app();
    app.open_link("grid?angle=0.5").expect("opens");
    app.set_web_address("https://example.org/skinlab/app/index.html");
    let mut harness = app_harness(app);
    for (item, expected) in [
        ("Copy the link", "grid?angle=0.5"),
        (
            "Copy the web address",
            "https://example.org/skinlab/app/index.html#grid?angle=0.5",
        ),
        ("Copy a command", "skinlab 'grid?angle=0.5'"),
    ] {
        harness.get_by_label("Copy link").click();
        harness.run_steps(2);
        harness
            .get_all_by_label_contains(item)
            .next()
            .unwrap_or_else(|| panic!("`{item}` offered"))
            .click();
        harness.step();
        assert_eq!(copied(&harness), [expected], "{item}");
        harness.run_steps(2);
        // What was copied opens the same view again.
        let mut again = paused_app();
        again.open_link(expected).expect("the copy opens");
        assert_eq!(again.current_link().to_string(), "grid?angle=0.5");
    }
}

#[test]
fn a_link_with_one_bad_key_keeps_the_good_ones_and_names_the_bad_one() {
    let mut app = paused_app();
    app.follow_link("Blending?TWIST=3.1416&vertex=99999&mode=DQS");
    let link = app.current_link().to_string();
    assert!(
        link.starts_with("blending?") && link.contains("twist=3.1416") && link.contains("mode=dqs"),
        "{link}"
    );
    assert!(!link.contains("vertex"), "{link}");
    let notice = app.notices().last().cloned().unwrap_or_default();
    assert!(
        notice.contains("vertex=99999")
            && notice.contains("everything else in the link was applied"),
        "{notice}"
    );
}

#[test]
fn focus_shows_one_part_and_the_link_holds_it() {
    let mut app = paused_app();
    app.open_link("blending?twist=3.1416&focus=viewport")
        .expect("opens");
    assert_eq!(app.focus(), Some("viewport"));
    assert_eq!(
        app.current_link().to_string(),
        "blending?twist=3.1416&focus=viewport"
    );
    // A cell by name, any case; a name the page lacks lists the valid ones, and the
    // rest of the link still applies.
    app.open_link("grid?vertex=6&focus=VERTEX").expect("opens");
    assert_eq!(app.focus(), Some("vertex"));
    let err = app
        .open_link("grid?angle=0.5&focus=nothing")
        .expect_err("no such cell")
        .to_string();
    assert!(
        err.contains("viewport or one of this page's cells") && err.contains("vertex"),
        "{err}"
    );
    assert_eq!(app.focus(), None);
    assert_eq!(app.current_link().to_string(), "grid?angle=0.5");

    // F focuses the viewport and Esc leaves; in focus the prose is gone.
    let mut harness = app_harness(app);
    harness.key_press(egui::Key::F);
    harness.run_steps(2);
    assert_eq!(harness.state().focus(), Some("viewport"));
    assert!(harness.query_by_label("Show the whole page").is_some());
    assert!(
        harness
            .query_all_by_label_contains("smallest skinned mesh")
            .next()
            .is_none(),
        "no prose in focus"
    );
    harness.key_press(egui::Key::Escape);
    harness.run_steps(2);
    assert_eq!(harness.state().focus(), None);
    // Another page has other cells: moving on leaves focus.
    harness
        .state_mut()
        .open_link("grid?focus=vertex")
        .expect("opens");
    harness.state_mut().next();
    assert_eq!(harness.state().focus(), None);
}

#[test]
fn zoom_keys_change_the_zoom_of_the_mode_on_screen_for_the_session_unless_kept() {
    let mut harness = app_harness(paused_app());
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Plus);
    harness.run_steps(2);
    let zoomed = harness.state().zoom();
    assert!((zoomed - 1.1).abs() < 1e-5, "{zoomed}");
    assert!((harness.ctx.zoom_factor() - zoomed).abs() < 1e-5);
    assert!(
        harness
            .state()
            .current_link()
            .to_string()
            .contains("zoom=1.1")
    );
    // Presenter mode keeps its own zoom.
    harness.state_mut().set_presenter(true);
    harness.run_steps(2);
    assert!((harness.ctx.zoom_factor() - presenter_zoom()).abs() < 1e-4);
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Minus);
    harness.run_steps(2);
    let presenter = harness.state().zoom();
    assert!(presenter < skinlab::app::PRESENTER_ZOOM);
    // Neither outlives the session unless kept: the row under the bar offers it.
    let mut restored = SkinlabApp::new();
    restored.restore_state(&harness.state().save_state());
    assert_eq!(restored.zoom(), skinlab::app::PRESENTER_ZOOM);
    restored.set_presenter(false);
    assert_eq!(restored.zoom(), 1.0);
    harness.get_by_label("Keep this size").click();
    harness.run_steps(2);
    assert!(harness.query_by_label("Keep this size").is_none());
    harness.state_mut().set_presenter(false);
    harness.run_steps(2);
    harness.get_by_label("Keep this size").click();
    harness.run_steps(2);
    // Both kept survive a restart, and a link can set one.
    let saved = harness.state().save_state();
    let mut restored = SkinlabApp::new();
    restored.restore_state(&saved);
    assert!(restored.notices().is_empty(), "{:?}", restored.notices());
    assert!((restored.zoom() - zoomed).abs() < 1e-5);
    restored.set_presenter(true);
    assert_eq!(restored.zoom(), presenter);
    restored.set_presenter(false);
    restored.open_link("grid?zoom=2").expect("zoom in a link");
    assert_eq!(restored.zoom(), 2.0);
    let err = restored
        .open_link("grid?zoom=40")
        .expect_err("too big")
        .to_string();
    assert!(err.contains("a zoom from 0.5 to 4"), "{err}");
}

/// A lesson that was split keeps its old links working: a link to a key that moved
/// opens the page that has it now, with that key; links to the keys that stayed are
/// untouched.
#[test]
fn links_to_moved_keys_open_the_page_that_has_them_now() {
    for (old, now) in [
        ("quaternions?show=keyframes&time=1.2", "keyframes?time=1.2"),
        (
            "quaternions?show=keyframes&yaw=0.3&time=2.5&speed=0.5&joint=elbow&question=2",
            "keyframes?time=2.5&speed=0.5&joint=elbow",
        ),
        ("quaternions?play=true", "keyframes?play=true"),
        ("quaternions?show=keyframes", "keyframes"),
        ("quaternions?yaw=0.3", "quaternions?yaw=0.3"),
        // The interpolation had its own page since: its keys and its section go there.
        ("quaternions?show=gimbal&t=0.25", "interpolation?t=0.25"),
        (
            "quaternions?method=lerp&t=0.5&predict=true",
            "interpolation?method=lerp&predict=true",
        ),
        (
            "quaternions?show=interpolate&flip=true&shortest=false",
            "interpolation?flip=true&shortest=false",
        ),
        ("quaternions?show=interpolate", "interpolation"),
        (
            "quaternions?circle=0.7,4.4&focus=half_angle",
            "interpolation?circle=0.7,4.4&focus=half_angle",
        ),
    ] {
        let mut app = paused_app();
        app.open_link(old)
            .unwrap_or_else(|e| panic!("`{old}`: {e}"));
        assert_eq!(app.current_link().to_string(), now, "`{old}`");
    }
    // A bad value of a moved key is explained by the page that has it now.
    let err = paused_app()
        .open_link("quaternions?time=9")
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("time=9") && err.contains("from 0 to 4"),
        "{err}"
    );

    // Saved state from before the split restores onto the new page, with no notice.
    let mut app = paused_app();
    app.restore_state(
        "current quaternions?show=keyframes&time=1\npage quaternions?show=keyframes&time=1",
    );
    assert!(app.notices().is_empty(), "{:?}", app.notices());
    assert_eq!(app.current_link().to_string(), "keyframes?time=1");
}

/// The table of moved keys stays true: each moved key (and each value that showed what
/// moved) is refused by the old page and taken by the new one.
#[test]
fn moved_keys_left_their_old_page_for_a_page_that_declares_them() {
    use skinlab::pages::{MOVED, PAGES};
    assert!(!MOVED.is_empty());
    let declared = |slug: &str| -> Vec<&'static str> {
        let entry = PAGES.iter().find(|e| e.info.slug == slug);
        let entry = entry.unwrap_or_else(|| panic!("`{slug}` is a page"));
        (entry.params)().iter().map(|p| p.key).collect()
    };
    for moved in MOVED {
        let (from, to) = (declared(moved.from), declared(moved.to));
        for key in moved.keys {
            assert!(!from.contains(key), "`{key}` left `{}`", moved.from);
            assert!(to.contains(key), "`{}` declares `{key}`", moved.to);
        }
        for (key, value) in moved.shows {
            let mut page = registry()
                .into_iter()
                .find(|p| p.slug() == moved.from)
                .expect("a page");
            let link = skinlab::link::Link::parse(&format!("{}?{key}={value}", moved.from))
                .expect("parses");
            assert!(
                skinlab::page::open(page.as_mut(), &link).is_err(),
                "`{}` no longer takes `{key}={value}`",
                moved.from
            );
        }
    }
}

#[test]
fn a_deck_steps_through_its_slides_and_its_link_reopens_the_slide() {
    let mut app = paused_app();
    app.open_link("pipeline?deck=lecture")
        .expect("the bundled deck opens");
    let (deck, slide) = app.deck().expect("a deck");
    let count = deck.slides.len();
    assert_eq!(slide, 0);
    assert!(count >= 10, "{count} moments");
    let mut harness = app_harness(app);
    assert!(
        harness
            .query_all_by_label_contains(&format!("lecture 1/{count}"))
            .next()
            .is_some(),
        "the counter shows where the deck is"
    );
    harness.key_press(egui::Key::PageDown);
    harness.run_steps(2);
    harness.key_press(egui::Key::PageDown);
    harness.run_steps(2);
    let app = harness.state();
    let (deck, slide) = app.deck().expect("still a deck");
    assert_eq!(slide, 2);
    let shown = Link::parse(&deck.slides[2].link).expect("a link");
    assert_eq!(app.current_page().slug(), shown.slug);
    let link = app.current_link().to_string();
    assert!(link.ends_with("deck=lecture:3"), "{link}");
    // The link reopens slide 3; PageUp steps back; the ends hold.
    let mut again = paused_app();
    again.open_link(&link).expect("reopens");
    assert_eq!(again.deck().map(|(_, s)| s), Some(2));
    again.step_deck(-5);
    assert_eq!(again.deck().map(|(_, s)| s), Some(0));
    again.step_deck(100);
    assert_eq!(again.deck().map(|(_, s)| s), Some(count - 1));
    for (bad, says) in [
        ("grid?deck=nowhere", "the decks are: lecture"),
        ("grid?deck=lecture:99", "a slide number from 1 to"),
    ] {
        let err = paused_app().open_link(bad).expect_err(bad).to_string();
        assert!(err.contains(says), "{bad}: {err}");
    }
}

#[test]
fn a_clicker_steps_slides_with_any_of_its_keys_and_cannot_leave_the_slide() {
    let mut app = paused_app();
    app.open_link("pipeline?deck=lecture").expect("opens");
    let mut harness = app_harness(app);
    let slide = |h: &Harness<'_, SkinlabApp>| h.state().deck().map(|(_, s)| s);
    for (key, expected) in [
        (egui::Key::PageDown, 1),
        (egui::Key::ArrowRight, 2),
        (egui::Key::Space, 3),
        (egui::Key::Enter, 4),
        (egui::Key::PageUp, 3),
        (egui::Key::ArrowLeft, 2),
    ] {
        harness.key_press(key);
        harness.run_steps(2);
        assert_eq!(slide(&harness), Some(expected), "after {key:?}");
    }
    // Start and stop: F5 leaves presenter mode on, Esc keeps a slide's focus.
    harness
        .state_mut()
        .open_deck(
            skinlab::deck::Deck::parse("t", "grid?focus=viewport  Focused\n").unwrap(),
            0,
        )
        .unwrap();
    harness.state_mut().set_presenter(true);
    for key in [egui::Key::F5, egui::Key::Escape, egui::Key::F5] {
        harness.key_press(key);
        harness.run_steps(2);
    }
    assert!(harness.state().presenter());
    assert_eq!(harness.state().focus(), Some("viewport"));
    // B blanks the screen, and brings it back.
    harness.key_press(egui::Key::B);
    harness.run_steps(2);
    assert!(harness.state().slides.blank);
    assert!(
        harness
            .query_by_label_contains("Show the whole page")
            .is_none()
    );
    harness.key_press(egui::Key::B);
    harness.run_steps(2);
    assert!(!harness.state().slides.blank);
}

#[test]
fn stepping_a_blanked_deck_shows_the_new_slide_and_the_page_bar_leaves_the_deck() {
    let mut app = paused_app();
    let deck = "xray?preset=shear  A shear\ngrid?angle=0.8  The grid\nnormals  Normals\n";
    app.open_deck(skinlab::deck::Deck::parse("t", deck).unwrap(), 0)
        .expect("opens");
    let mut harness = app_harness(app);
    harness.key_press(egui::Key::B);
    harness.run_steps(2);
    assert!(harness.state().slides.blank);
    harness.key_press(egui::Key::PageDown);
    harness.run_steps(2);
    assert!(!harness.state().slides.blank, "the room sees the new slide");
    assert_eq!(harness.state().deck().map(|(_, s)| s), Some(1));
    // The page bar's Next turns the page: the counter says it left the deck, and
    // PageDown goes on from the slide it left.
    harness.get_by_label("Next").click();
    harness.run_steps(2);
    assert!(harness.state().off_deck());
    assert!(
        harness
            .query_by_label_contains("off the deck after slide 2")
            .is_some()
    );
}

#[test]
fn a_deck_dropped_on_the_window_opens_at_its_first_slide() {
    let mut app = paused_app();
    let deck = b"xray?preset=shear  A shear\n> Ask what the y column says.\ngrid  The grid\n";
    app.open_dropped_files(vec![("week3.txt".to_owned(), Ok(deck.to_vec()))], None);
    let (deck, slide) = app.deck().expect("the deck opened");
    assert_eq!(
        (deck.name.as_str(), slide, deck.slides.len()),
        ("week3.txt", 0, 2)
    );
    assert_eq!(app.current_page().slug(), "xray");
    assert!(app.notices().is_empty(), "{:?}", app.notices());
    // Not text, or no links: a notice, and the screen as it was.
    let mut app = paused_app();
    app.open_dropped("notes.txt", Ok(vec![0xff, 0xfe, 0x00]));
    app.open_dropped("empty.txt", Ok(b"# nothing here\n".to_vec()));
    assert!(app.deck().is_none());
    let said = app.notices().join(" | ");
    assert!(
        said.contains("is not text") && said.contains("has no links"),
        "{said}"
    );
}

#[test]
fn a_failed_slide_says_so_on_screen_and_notices_clear_at_the_next() {
    let deck = skinlab::deck::Deck::parse(
        "t",
        "grid?angle=0.8  Fine\ngird?angle=0.8  A typo\nxray  Fine again\n",
    )
    .unwrap();
    let mut app = paused_app();
    app.open_deck(deck, 0).unwrap();
    app.notify("a message from the first slide");
    let mut harness = app_harness(app);
    harness.key_press(egui::Key::PageDown);
    harness.run_steps(2);
    let failure = harness
        .state()
        .deck_failure()
        .expect("the slide failed")
        .to_owned();
    assert!(
        failure.contains("Slide 2 failed") && failure.contains("did you mean `grid`"),
        "{failure}"
    );
    assert!(
        harness.query_by_label_contains("Slide 2 failed").is_some(),
        "on screen"
    );
    assert!(
        harness.state().notices().is_empty(),
        "the first slide's notice went"
    );
    harness.key_press(egui::Key::PageDown);
    harness.run_steps(2);
    assert_eq!(harness.state().deck_failure(), None);
    assert_eq!(harness.state().current_page().slug(), "xray");
}

#[test]
fn the_counter_follows_the_link_box_and_the_deck_goes_on_from_where_it_was() {
    let mut app = paused_app();
    app.open_link("pipeline?deck=lecture:3").expect("opens");
    let (deck, _) = app.deck().unwrap();
    let fifth = deck.slides[4].link.clone();
    // A link of the deck's own moves the counter there.
    app.follow_link(&fifth);
    assert_eq!(app.deck().map(|(_, s)| s), Some(4));
    assert!(!app.off_deck());
    // Any other leaves the deck; PageDown then goes on to slide 6, not back.
    app.follow_link("normals?scale=2");
    assert!(app.off_deck());
    let harness = app_harness(app);
    assert!(
        harness
            .query_by_label_contains("off the deck after slide 5")
            .is_some()
    );
    let mut app = harness.into_state();
    app.step_deck(1);
    assert_eq!(app.deck().map(|(_, s)| s), Some(5));
    assert!(!app.off_deck());
}

#[test]
fn a_link_can_ask_for_presenter_mode_and_its_zoom() {
    let mut app = paused_app();
    app.open_link("grid?presenter=1&zoom=2").expect("opens");
    assert!(app.presenter());
    assert_eq!(app.zoom(), 2.0);
    let err = paused_app()
        .open_link("grid?presenter=maybe")
        .expect_err("refused")
        .to_string();
    assert!(err.contains("true or false"), "{err}");
}

#[test]
fn every_slide_of_every_bundled_deck_opens_cleanly() {
    for (name, text) in skinlab::deck::BUNDLED {
        let deck = skinlab::deck::Deck::parse(name, text).expect("a deck");
        for (i, slide) in deck.slides.iter().enumerate() {
            let mut app = paused_app();
            app.open_link(&slide.link)
                .unwrap_or_else(|e| panic!("{name} slide {}: `{}`: {e}", i + 1, slide.link));
            assert_ne!(
                slide.title,
                slide.link,
                "{name} slide {} has a title",
                i + 1
            );
        }
    }
}

#[test]
fn a_comparison_in_presenter_mode_is_set_as_large_as_focus() {
    let mut app = paused_app();
    app.set_presenter(true);
    app.open_link("blending?twist=3.1416&compare=mode:lbs|mode:dqs")
        .expect("opens");
    let harness = app_harness(app);
    let expected = presenter_zoom() * skinlab::app::FOCUS_MAGNIFY;
    assert!((harness.ctx.zoom_factor() - expected).abs() < 1e-4);
    // A `zoom=` in the link is presenter mode's, and the comparison obeys it.
    let mut app = harness.into_state();
    app.open_link("blending?twist=3.1416&compare=mode:lbs|mode:dqs&zoom=1.3")
        .expect("opens");
    let harness = app_harness(app);
    let zoomed = presenter_zoom() / skinlab::app::PRESENTER_ZOOM * 1.3;
    assert!(
        (harness.ctx.zoom_factor() - zoomed * skinlab::app::FOCUS_MAGNIFY).abs() < 1e-3,
        "{}",
        harness.ctx.zoom_factor()
    );
    let mut app = harness.into_state();
    app.set_presenter(false);
    let harness = app_harness(app);
    assert_eq!(
        harness.ctx.zoom_factor(),
        1.0,
        "at a desk, the page's own size"
    );
}

#[test]
fn compare_shows_two_states_of_a_page_each_with_its_own_link() {
    let mut app = paused_app();
    let link = "blending?twist=3.1416&compare=mode:lbs|mode:dqs";
    app.open_link(link).expect("opens");
    assert_eq!(
        app.current_link().to_string(),
        link,
        "the link holds the comparison"
    );
    let sides = app.comparing().expect("comparing").links();
    assert_eq!(
        sides,
        [
            "blending?twist=3.1416&mode=lbs",
            "blending?twist=3.1416&mode=dqs"
        ]
    );
    // Each caption names what its side compares, and opens it on its own.
    assert_eq!(
        app.comparing().unwrap().captions(),
        ["mode: lbs", "mode: dqs"]
    );
    assert_eq!(app.comparing().unwrap().heading(), "mode: lbs | dqs");
    let mut harness = app_harness(app);
    assert!(
        harness
            .query_by_label("Comparing mode: lbs | dqs")
            .is_some()
    );
    harness.get_by_label("mode: dqs").click();
    harness.run_steps(2);
    assert!(harness.state().comparing().is_none());
    assert_eq!(harness.state().current_link().to_string(), sides[1]);
    for (bad, says) in [
        ("blending?compare=mode:lbs", "joined by `|`"),
        (
            "blending?compare=mode:lbs|mode:sideways",
            "one of: lbs, dqs",
        ),
        ("blending?compare=mode|mode:dqs", "is not key:value"),
    ] {
        let mut app = paused_app();
        let err = app.open_link(bad).expect_err(bad).to_string();
        assert!(err.contains(says), "{bad}: {err}");
        assert!(app.comparing().is_none(), "{bad}");
    }
}

#[test]
fn a_moved_camera_goes_into_the_link_and_the_link_puts_it_back() {
    let mut app = paused_app();
    app.open_link("grid?angle=0.8").expect("opens");
    assert_eq!(
        app.current_link().to_string(),
        "grid?angle=0.8",
        "an untouched camera is left out"
    );
    let mut harness = app_harness(app);
    // Drag empty space in the grid's viewport: it pans.
    kit::drag(
        &mut harness,
        egui::pos2(1150.0, 650.0),
        egui::pos2(1050.0, 600.0),
    );
    harness.run_steps(2);
    let link = harness.state().current_link().to_string();
    assert!(link.starts_with("grid?angle=0.8&camera="), "{link}");
    let mut again = paused_app();
    again.open_link(&link).expect("reopens");
    assert_eq!(again.current_link().to_string(), link);

    let orbit = "hierarchy?camera=0.1,0.2,5,0,1,0";
    let mut app = paused_app();
    app.open_link(orbit).expect("an orbit camera");
    assert_eq!(app.current_link().to_string(), orbit);
    app.reset_page();
    assert_eq!(
        app.current_link().to_string(),
        "hierarchy",
        "reset puts the camera back"
    );
    for (bad, says) in [
        ("grid?camera=1,2", "3 numbers"),
        ("hierarchy?camera=0,3,5,0,0,0", "pitch within"),
    ] {
        let err = paused_app().open_link(bad).expect_err(bad).to_string();
        assert!(err.contains(says), "{bad}: {err}");
    }
}

#[test]
fn every_link_cell_names_a_key_and_a_cell_of_its_page() {
    for entry in skinlab::pages::PAGES {
        let page = (entry.make)();
        let keys: Vec<&str> = (entry.params)().iter().map(|p| p.key).collect();
        for (key, cell) in page.link_cells() {
            assert!(keys.contains(&key), "{}: `{key}` is no key", page.slug());
            assert!(
                page.cells().contains(&cell),
                "{}: `{cell}` is no cell",
                page.slug()
            );
        }
    }
}

/// The top of each widget whose text starts with `text`, in the harness's window.
fn tops_of(harness: &Harness<'_, SkinlabApp>, text: &str) -> Vec<f64> {
    use egui_kittest::kittest::NodeT as _;
    harness
        .root()
        .children_recursive()
        .filter(|n| {
            let a = n.accesskit_node();
            a.label().or(a.value()).is_some_and(|l| l.starts_with(text))
        })
        .filter_map(|n| n.accesskit_node().bounding_box())
        .map(|b| b.y0)
        .collect()
}

#[test]
fn a_link_opens_with_the_cell_it_is_about_in_view() {
    // Each link, and text that only the cell it is about shows.
    for (link, text) in [
        ("blending?vertex=3119", "bind position"),
        ("blending?weight_scale=1.25&w=one", "every weight ×"),
        ("xray?question=2", "M turns"),
        (
            "hierarchy?joint=hand.L&rot=upper_arm.L:0,0,1.2&scrub=1",
            "scrub the joint's origin",
        ),
        ("gpu?spread=4&bend=4&twist=3", "weights reach"),
        ("quaternions?method=lerp&t=0.5&predict=true", "your guess"),
        (
            "quaternions?show=interpolate&flip=true&shortest=false",
            "Store B as −q",
        ),
        (
            "interpolation?circle=0.7,4.4&shortest=false",
            "half-angle circle",
        ),
        (
            "quaternions?show=quaternion&yaw=0.8",
            "The same matrix as Ry",
        ),
        ("gradient?pose=bind", "Target pose:"),
        ("grid?angles=0,0.9,0&vertex=6", "Vertex:"),
        ("model?clip=Walking&t=0.4", "loop"),
    ] {
        let mut app = paused_app();
        app.open_link(link).unwrap();
        let mut harness = app_harness(app);
        harness.run_steps(20);
        let tops = tops_of(&harness, text);
        assert!(!tops.is_empty(), "`{link}`: no `{text}`");
        assert!(
            tops.iter().any(|y| (0.0..760.0).contains(y)),
            "`{link}`: `{text}` at {tops:?}, out of view"
        );
    }
}

#[test]
fn every_documented_link_opens_with_the_cell_of_its_most_specific_key_near_the_top() {
    // `LINKS_PAGE=grid` walks one page's links only, while fixing it.
    let only = std::env::var("LINKS_PAGE").ok();
    let mut found = Vec::new();
    let mut walked = 0;
    for link in crate::common::documented_links() {
        let parsed = Link::parse(&link).expect("a documented link parses");
        if only.as_ref().is_some_and(|only| parsed.slug != *only) {
            continue;
        }
        // A focused link shows its one cell whole; one without a key of its page opens
        // at the top.
        let keys: Vec<&str> = parsed.params.iter().map(|(k, _)| k.as_str()).collect();
        let page_keys = skinlab::pages::PAGES
            .iter()
            .find(|e| e.info.slug == parsed.slug)
            .map(|e| (e.params)().iter().map(|p| p.key).collect::<Vec<_>>())
            .unwrap_or_default();
        if keys.contains(&"focus") || !keys.iter().any(|k| page_keys.contains(k)) {
            continue;
        }
        walked += 1;
        let mut app = paused_app();
        app.open_link(&link).unwrap();
        let expected = skinlab::app::cell_of_link(app.current_page(), &parsed);
        let mut harness = harness_of(app, true);
        harness.run_steps(24);
        match skinlab::ui::marks::aimed_cell(&harness.ctx) {
            None => found.push(format!("{link}: opens at no cell")),
            // The page's own scrolling may not pull the notebook past the cell the
            // link names.
            Some((cell, ..)) if expected.is_some_and(|e| e != cell) => found.push(format!(
                "{link}: opens at `{cell}`, not at `{}`",
                expected.unwrap_or_default()
            )),
            Some((cell, top, shown, at_end)) => {
                // Near the top; or, for a cell near the page's end, in view with the
                // notebook scrolled as far as it goes.
                let lowest = if at_end { 0.85 } else { 0.6 };
                let near = shown.top() - 2.0..=shown.top() + lowest * shown.height();
                if !near.contains(&top) {
                    found.push(format!(
                        "{link}: its cell `{cell}` starts at {top:.0}, not near the top of {:.0}..{:.0}",
                        shown.top(),
                        shown.bottom()
                    ));
                }
            }
        }
    }
    assert!(walked > 50, "only {walked} links walked");
    assert!(
        found.is_empty(),
        "{} links:\n{}",
        found.len(),
        found.join("\n")
    );
}

#[test]
fn a_pressed_slider_takes_the_arrow_keys_from_the_page_turner() {
    use egui_kittest::kittest::NodeT as _;
    let mut app = paused_app();
    app.open_link("hierarchy?joint=hand.L&rot=upper_arm.L:0,0,1.2&scrub=1")
        .unwrap();
    let mut harness = app_harness(app);
    harness.run_steps(4);
    // The slider's track (the name beside it is a label of its own).
    let slider = harness
        .get_all_by_label("factors applied, from the right")
        .find(|n| n.accesskit_node().role() == egui::accesskit::Role::Slider)
        .expect("the scrub slider")
        .rect()
        .center();
    kit::click_at(&mut harness, slider);
    harness.run_steps(2);
    let before = harness.state().current_link().to_string();
    harness.key_press(egui::Key::ArrowRight);
    harness.run_steps(2);
    let after = harness.state().current_link().to_string();
    assert!(
        after.starts_with("hierarchy?"),
        "the arrow turned the page: {after}"
    );
    assert_ne!(after, before, "the arrow stepped the slider");
}

#[test]
fn a_refused_links_notice_goes_when_the_next_link_opens() {
    let mut app = paused_app();
    app.follow_link("hierarchy?joint=elbow.L");
    assert_eq!(app.notices().len(), 1, "{:?}", app.notices());
    assert!(app.notices()[0].contains("elbow.L"));
    app.follow_link("hierarchy?joint=hand.L");
    assert!(app.notices().is_empty(), "{:?}", app.notices());
}

#[test]
fn a_reader_who_scrolls_while_a_link_settles_keeps_the_scroll() {
    // A link aims its cell for some frames (the layout still moves); the wheel in
    // those frames is the reader's, and the notebook is not pulled back.
    let mut app = paused_app();
    app.open_link("blending?bend=2.1").unwrap();
    let mut harness = harness_of(app, true);
    harness.run_steps(3);
    let (cell, aimed, ..) = skinlab::ui::marks::aimed_cell(&harness.ctx).expect("a cell aimed at");
    harness.hover_at(egui::pos2(400.0, 400.0));
    crate::common::wheel(&mut harness, -600.0);
    harness.run_steps(30);
    let marks = skinlab::ui::marks::aimed_cell(&harness.ctx).expect("still drawn");
    assert_eq!(marks.0, cell);
    assert!(
        marks.1 < aimed - 300.0,
        "`{cell}` went back to {:.0} from {aimed:.0}: the reader's scroll was undone",
        marks.1
    );
}

/// A store that keeps writes, or, when `refusing`, drops them (a browser's full or
/// blocked storage).
#[derive(Default)]
struct Store {
    kept: std::collections::HashMap<String, String>,
    refusing: bool,
}

impl eframe::Storage for Store {
    fn get_string(&self, key: &str) -> Option<String> {
        self.kept.get(key).cloned()
    }
    fn set_string(&mut self, key: &str, value: String) {
        if !self.refusing {
            self.kept.insert(key.to_owned(), value);
        }
    }
    fn remove_string(&mut self, key: &str) {
        self.kept.remove(key);
    }
    fn flush(&mut self) {}
}

#[test]
fn a_store_that_refuses_the_state_gets_one_notice_and_the_app_runs_on() {
    let mut app = paused_app();
    app.open_link("grid?angle=0.5").unwrap();
    let mut good = Store::default();
    app.save_to(&mut good);
    assert!(app.notices().is_empty(), "{:?}", app.notices());
    let mut full = Store {
        refusing: true,
        ..Store::default()
    };
    app.save_to(&mut full);
    app.save_to(&mut full);
    let said: Vec<_> = app
        .notices()
        .iter()
        .filter(|n| n.contains("did not keep"))
        .collect();
    assert_eq!(said.len(), 1, "once: {:?}", app.notices());
    // The app still opens links and draws.
    app.open_link("xray?preset=shear").unwrap();
    let harness = app_harness(app);
    assert_eq!(
        harness.state().current_link().to_string(),
        "xray?preset=shear"
    );
}

/// The width of the viewport drawn last frame, in points: its paint callback's.
fn viewport_width(harness: &Harness<'_, SkinlabApp>) -> f32 {
    harness
        .output()
        .shapes
        .iter()
        .find_map(|clipped| match &clipped.shape {
            egui::Shape::Callback(callback) => Some(callback.rect.width()),
            _ => None,
        })
        .expect("a viewport was drawn")
}

#[test]
fn the_split_between_notebook_and_viewport_goes_into_the_link() {
    let page_width = |h: &Harness<'_, SkinlabApp>| h.ctx.content_rect().width() - 190.0;
    let mut harness = app_harness(paused_app());
    harness.state_mut().follow_link("blending?twist=1");
    harness.run_steps(2);
    assert!(
        !harness.state().current_link().to_string().contains("split"),
        "the split a page opens with is not written"
    );
    // The viewport fills its panel but for the panel's margins.
    let margins = 0.52 * page_width(&harness) - viewport_width(&harness);
    assert!((0.0..40.0).contains(&margins), "{margins}");
    let share = |h: &Harness<'_, SkinlabApp>| (viewport_width(h) + margins) / page_width(h);
    harness
        .state_mut()
        .follow_link("blending?twist=1&split=0.7");
    harness.run_steps(2);
    assert!((share(&harness) - 0.7).abs() < 0.005, "{}", share(&harness));
    assert!(
        harness
            .state()
            .current_link()
            .to_string()
            .contains("split=0.7")
    );
    // A narrower window keeps the share.
    harness.set_size(Vec2::new(1100.0, 800.0));
    harness.run_steps(2);
    assert!(
        (share(&harness) - 0.7).abs() < 0.005,
        "after a resize: {}",
        share(&harness)
    );
    let link = harness.state().current_link().to_string();
    assert!(link.contains("split=0.7"), "{link}");
    // Dragging the divider 91 points to the right gives the viewport 0.1 less. The
    // handle is grabbed on the viewport's side of the line: on the other side the
    // notebook's scrolling wins.
    let divider = 1100.0 - 0.7 * page_width(&harness) + 4.5;
    drag(
        &mut harness,
        egui::pos2(divider, 400.0),
        egui::pos2(divider + 91.0, 400.0),
    );
    harness.run_steps(2);
    let link = harness.state().current_link().to_string();
    assert!(link.contains("split=0.6"), "{link}");
    // Out of range: named, and the rest applies.
    harness
        .state_mut()
        .follow_link("blending?twist=2&split=0.9");
    harness.run_steps(1);
    let notice = harness
        .state()
        .notices()
        .last()
        .cloned()
        .unwrap_or_default();
    assert!(
        notice.contains("split=0.9") && notice.contains("0.25 to 0.75"),
        "{notice}"
    );
    assert!(
        harness
            .state()
            .current_link()
            .to_string()
            .contains("twist=2")
    );
}

/// The box of each label (not its runs of text) whose text contains `text`.
fn label_boxes(harness: &Harness<'_, SkinlabApp>, text: &str) -> Vec<egui::Rect> {
    use egui_kittest::kittest::NodeT as _;
    harness
        .root()
        .children_recursive()
        .filter(|n| {
            let a = n.accesskit_node();
            a.role() == egui::accesskit::Role::Label
                && a.label().or(a.value()).is_some_and(|l| l.contains(text))
        })
        .filter_map(|n| n.accesskit_node().bounding_box())
        .map(|b| {
            egui::Rect::from_min_max(
                egui::pos2(b.x0 as f32, b.y0 as f32),
                egui::pos2(b.x1 as f32, b.y1 as f32),
            )
        })
        .collect()
}

/// A sweep measured before class on another machine, as the page writes it: three
/// sizes, the largest on 8 threads, the smaller on fewer. CPU totals (fastest kernel +
/// upload) 0.0601, 0.2143 and 0.64 ms against the GPU's 0.12, 0.13 and 0.15: the GPU
/// wins from the second size up.
const SWEEP_LINK: &str = "gpu?sweep=2996:0.212,0.0312,0.0101@1,0.05,0.12;\
    9984:0.71,0.104,0.0533@2,0.161,0.13;29988:2.13,0.312,0.16@8,0.48,0.15";

#[test]
fn a_linked_sweep_fills_the_table_and_the_crossover_and_its_link_reopens_the_same_points() {
    use skinlab::pages::gpu::GpuPage;
    let mut app = paused_app();
    app.open_link(SWEEP_LINK).expect("opens");
    let mut harness = app_harness(app);
    harness.run_steps(20);
    // The link opens at the chart and its table, read back from the screen.
    let in_view = |text: &str| {
        let boxes = label_boxes(&harness, text);
        assert!(!boxes.is_empty(), "no `{text}` on the page");
        assert!(
            boxes.iter().any(|b| (0.0..800.0).contains(&b.top())),
            "`{text}` at {boxes:?}, out of view"
        );
    };
    in_view("from 9984 vertices up");
    in_view("On the machine that measured them");
    in_view("brought in by the link, not measured on this machine now");
    for cell in [
        "fast, 8 threads",
        "2996",
        "0.212 ms",
        "0.010 ms*",
        "0.160 ms",
        "29988",
        "0.150 ms",
    ] {
        assert!(
            harness.query_all_by_label(cell).next().is_some(),
            "the table shows `{cell}`"
        );
    }
    assert!(
        harness
            .query_all_by_label_contains("No measurement yet")
            .next()
            .is_none()
    );

    // The page writes the link back as given, and the link reopens the same points.
    let written = harness.state().current_link().to_string();
    assert_eq!(written, SWEEP_LINK);
    let points = |link: &str| {
        let mut page = GpuPage::default();
        skinlab::page::open(&mut page, &Link::parse(link).unwrap()).expect("opens");
        assert!(page.bench.from_link);
        page.bench.points
    };
    let (given, again) = (points(SWEEP_LINK), points(&written));
    assert_eq!(given, again);
    assert_eq!(given.len(), 3);
    assert_eq!(given[0].fast_threaded, Some((1, 0.0101)));
    assert_eq!(given[2].gpu_ms, Some(0.15));
}

#[test]
fn a_bad_sweep_is_reported_and_the_rest_of_the_link_applies() {
    let mut app = paused_app();
    app.follow_link("gpu?bend=1&sweep=2996:0.2,nan,-,-,-");
    assert_eq!(
        app.current_link().to_string(),
        "gpu?bend=1",
        "the good key applied, no sweep"
    );
    let notices = app.notices().to_vec();
    assert_eq!(notices.len(), 1, "{notices:?}");
    for part in [
        "`sweep=2996:0.2,nan,-,-,-` is not valid",
        "`nan` is not a time",
        "everything else in the link was applied",
    ] {
        assert!(notices[0].contains(part), "{part}: {}", notices[0]);
    }
    let harness = app_harness(app);
    assert!(
        harness
            .query_all_by_label_contains("No measurement yet")
            .next()
            .is_some()
    );
}

/// skin.vert opens with nine lines of comments, which wrap in the notebook's column:
/// the first line it does not share with the dual quaternion blend is line 11, below
/// the listing's fold. Opening the pair scrolls it into view, once: the reader can
/// scroll back.
#[test]
fn a_file_set_beside_another_opens_at_the_first_line_they_do_not_share() {
    use gl::shaders;
    use skinlab::pages::gpu::{LISTING_HEIGHT, changed_lines};
    let (marked, _) = changed_lines(shaders::SKIN_VERT.text, shaders::BLEND_DQS.text);
    let first = shaders::SKIN_VERT
        .text
        .lines()
        .zip(marked)
        .find_map(|(line, marked)| marked.then_some(line))
        .expect("a marked line");
    assert_eq!(first, "uniform mat4 u_clip_from_world;");
    let opening = "// The skinning vertex shader";

    let mut app = paused_app();
    app.open_link("gpu?source=main&beside=blend_dqs").unwrap();
    let mut harness = app_harness(app);
    // A laptop's narrower window: the comments wrap to more lines.
    harness.set_size(Vec2::new(1024.0, 768.0));
    harness.run_steps(30);
    let line = label_boxes(&harness, first)[0];
    let top = label_boxes(&harness, opening)[0].top();
    assert!(
        line.top() - top > LISTING_HEIGHT,
        "the line is below the fold of an unscrolled listing: {} below the first",
        line.top() - top
    );
    // The column's heading: the nearest label naming the file above `y`.
    let heading_above = |harness: &Harness<'_, SkinlabApp>, y: f32| {
        label_boxes(harness, "shaders/skin.vert")
            .into_iter()
            .map(|b| b.bottom())
            .filter(|bottom| *bottom <= y)
            .fold(f32::NEG_INFINITY, f32::max)
    };
    let heading = heading_above(&harness, line.top());
    let fold = heading + LISTING_HEIGHT + 12.0;
    assert!(
        line.bottom() <= fold && line.bottom() <= 768.0,
        "`{first}` at {line:?}: in view between {heading} and {fold}"
    );
    assert!(
        top < heading,
        "the listing scrolled: its first line went up"
    );

    // Only once: the wheel scrolls the listing back to its first line, which stays.
    harness.hover_at(line.center());
    harness.run_steps(2);
    crate::common::wheel(&mut harness, 2000.0);
    harness.run_steps(30);
    let back = label_boxes(&harness, opening)[0].top();
    let under = back - heading_above(&harness, back + 1.0);
    assert!(
        (0.0..20.0).contains(&under),
        "the first line is back under the heading: {under} below it"
    );
}

#[test]
fn the_laser_and_the_pen_draw_over_the_slide_and_the_next_slide_starts_clean() {
    use skinlab::app::Tool;
    let mut harness = app_harness(paused_app());
    harness
        .state_mut()
        .open_link("pipeline?deck=lecture:9")
        .expect("a slide");
    harness.run_steps(3);
    let camera = harness
        .state()
        .current_link()
        .get("camera")
        .map(str::to_owned);
    // Each tool says it is on, in the window's corner, wherever the pointer is.
    let says = |harness: &Harness<'_, SkinlabApp>, text: &str| {
        harness.output().shapes.iter().any(|c| match &c.shape {
            egui::Shape::Text(t) => t.galley.job.text.starts_with(text),
            _ => false,
        })
    };
    assert!(!says(&harness, "Laser on") && !says(&harness, "Pen on"));
    harness.key_press(egui::Key::L);
    harness.run_steps(1);
    assert_eq!(harness.state().ink().tool(), Tool::Laser);
    assert!(says(&harness, "Laser on"));
    harness.key_press(egui::Key::D);
    harness.run_steps(1);
    assert_eq!(harness.state().ink().tool(), Tool::Pen);
    assert!(says(&harness, "Pen on"));
    // A drag across the viewport draws, and turns nothing.
    harness.drag_at(egui::pos2(900.0, 300.0));
    for x in [920.0, 960.0, 1000.0] {
        harness.hover_at(egui::pos2(x, 320.0));
        harness.run_steps(1);
    }
    harness.drop_at(egui::pos2(1010.0, 330.0));
    harness.run_steps(1);
    assert_eq!(harness.state().ink().lines().len(), 1);
    assert!(
        harness.state().ink().lines()[0].len() >= 3,
        "{:?}",
        harness.state().ink()
    );
    assert_eq!(
        harness
            .state()
            .current_link()
            .get("camera")
            .map(str::to_owned),
        camera,
        "drawing turns no view"
    );
    harness.key_press(egui::Key::E);
    harness.run_steps(1);
    assert!(harness.state().ink().lines().is_empty(), "E wipes the ink");
    // Ink on a slide goes with it.
    harness.drag_at(egui::pos2(900.0, 300.0));
    harness.hover_at(egui::pos2(950.0, 300.0));
    harness.run_steps(1);
    harness.drop_at(egui::pos2(960.0, 310.0));
    harness.run_steps(1);
    assert_eq!(harness.state().ink().lines().len(), 1);
    harness.key_press(egui::Key::PageDown);
    harness.run_steps(2);
    assert!(
        harness.state().ink().lines().is_empty(),
        "the next slide starts clean"
    );
    harness.key_press(egui::Key::D);
    harness.run_steps(1);
    assert_eq!(
        harness.state().ink().tool(),
        Tool::None,
        "D again puts the pen away"
    );
}

/// Every key of every page, at each value its slider or switch reaches, opens and
/// reopens the same state from the link written back; each value it refuses (one of
/// each way to be wrong) is refused with the values it takes, and the page keeps its
/// defaults. The per-page tests keep only what this one cannot say: the exact form a
/// link is written in, and refusals that depend on another key.
#[test]
fn every_key_of_every_page_takes_its_samples_and_refuses_its_bad_values() {
    let mut tried = 0;
    for entry in skinlab::pages::PAGES {
        let slug = entry.info.slug;
        let mut page = (entry.make)();
        let defaults = page.link().to_string();
        // The link written back after opening `link`, or why it was refused with the
        // link the page is left at.
        let mut open = |link: &str| {
            let parsed = Link::parse(link).unwrap_or_else(|e| panic!("`{link}` parses: {e}"));
            let opened = skinlab::page::open(&mut *page, &parsed);
            let written = page.link().to_string();
            opened.map(|()| written.clone()).map_err(|e| (e, written))
        };
        for param in (entry.params)() {
            for value in &param.samples {
                let link = format!("{slug}?{}={value}", param.key);
                let written = open(&link).unwrap_or_else(|(e, _)| panic!("`{link}`: {e}"));
                let again = open(&written).unwrap_or_else(|(e, _)| panic!("`{written}`: {e}"));
                assert_eq!(again, written, "`{link}` reopens from its written link");
                tried += 1;
            }
            for value in &param.refused {
                let link = format!("{slug}?{}={value}", param.key);
                let (err, left_at) = open(&link).expect_err(&link);
                let err = err.to_string();
                assert!(
                    err.contains(param.key) && err.contains(&param.values),
                    "`{link}` names its key and what it takes: {err}"
                );
                assert_eq!(left_at, defaults, "{link}: defaults kept");
                tried += 1;
            }
        }
    }
    assert!(tried > 300, "only {tried} values tried");
}

/// A link in a section of a chapter opens the notebook at one of that section's cells
/// (its prose may lead into a cell, follow it, or name the next). Its keys pick that
/// cell, or `at=` names it: a student who follows it from the book or the notebook
/// lands on the text that sent them.
#[test]
fn a_link_opens_at_the_cell_of_the_section_that_holds_it() {
    let mut wrong = Vec::new();
    for entry in skinlab::pages::PAGES {
        let mut page = (entry.make)();
        let slug = page.slug();
        let chapter = page.notebook();
        let mut check = |link: &str, cells: &[&str]| {
            let parsed = Link::parse(link).expect("a chapter link parses");
            let mut opened = parsed.clone();
            let focus = opened.take("focus");
            for key in skinlab::link::APP_KEYS {
                opened.take(key);
            }
            skinlab::page::open(page.as_mut(), &opened).expect("a chapter link opens");
            // A focused cell is the one on screen.
            let opens = match focus
                .as_deref()
                .and_then(|f| page.cells().iter().find(|c| **c == f))
            {
                Some(focused) => Some(*focused),
                None => skinlab::app::cell_of_link(page.as_ref(), &parsed),
            };
            // A link to an exercise opens the check cell; one to a cell as wide as the
            // page (a shader listing) opens that cell.
            let jump = opens.is_some_and(|c| c == "check" || page.full_width(c));
            if !opens.is_some_and(|c| cells.contains(&c)) && !jump {
                wrong.push(format!(
                    "{link}: in the section of {cells:?}, opens {opens:?}"
                ));
            }
        };
        for (link, cells) in section_links(slug, chapter) {
            check(&link, &cells);
        }
    }
    assert!(
        wrong.is_empty(),
        "{} links:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}

/// Each link to `slug` in `chapter` (a cell's own `link:` and the links in the prose),
/// with the cells it may be about: the cells of its section (between headings). Links
/// in a section with no cell are left out.
fn section_links<'a>(slug: &str, chapter: &'a str) -> Vec<(String, Vec<&'a str>)> {
    // Per section, in order: a cell (its name) or a link (its text).
    enum Event<'a> {
        Cell(&'a str),
        Link(String),
    }
    let mut sections: Vec<Vec<Event<'a>>> = vec![Vec::new()];
    let prefix = format!("(skinlab:{slug}?");
    let mut lines = chapter.lines();
    let mut fenced = false;
    while let Some(line) = lines.next() {
        if line.starts_with("```") {
            if line.trim() == "```cell" {
                let name = lines.next().unwrap_or_default().trim();
                sections.last_mut().unwrap().push(Event::Cell(name));
                for inner in lines.by_ref() {
                    if inner.starts_with("```") {
                        break;
                    }
                    if let Some(query) = inner.strip_prefix("link: ") {
                        let own = (format!("{slug}?{}", query.trim()), name);
                        sections.last_mut().unwrap().push(Event::Link(own.0));
                    }
                }
                continue;
            }
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        if line.starts_with('#') {
            sections.push(Vec::new());
        }
        for (at, _) in line.match_indices(&prefix) {
            let rest = &line[at + "(skinlab:".len()..];
            let link = &rest[..rest.find(')').unwrap_or(rest.len())];
            sections
                .last_mut()
                .unwrap()
                .push(Event::Link(link.to_owned()));
        }
    }
    let mut out = Vec::new();
    for section in &sections {
        for event in section {
            let Event::Link(link) = event else { continue };
            let cell_of = |e: &Event<'a>| match e {
                Event::Cell(name) => Some(*name),
                Event::Link(_) => None,
            };
            // Any cell of the section: its prose may lead into one cell and name
            // the one after it ("the product cell below ... scrub the product").
            let cells: Vec<&'a str> = section.iter().filter_map(cell_of).collect();
            if !cells.is_empty() {
                out.push((link.clone(), cells));
            }
        }
    }
    out
}

/// Editing a judged answer takes the verdict away but keeps its line, saying what to do:
/// the fields below do not jump while the student types.
#[test]
fn an_edited_answer_keeps_the_verdicts_line_until_checked_again() {
    use skinlab::ui::check::field_label;
    let mut harness = kit::page_harness(GridPage::default(), &["check"]);
    let [x, y] = ["x", "y"].map(|l| field_label("skinned vertex", l));
    kit::submit(&mut harness, &[(&x, "-1"), (&y, "4")]);
    assert!(harness.query_by_label_contains("Not yet").is_some());
    kit::type_into(&mut harness, &x, "3");
    assert!(harness.query_by_label_contains("Not yet").is_none());
    assert!(
        harness
            .query_by_label_contains("Changed: press Check")
            .is_some()
    );
    kit::type_into(&mut harness, &y, "0");
    kit::press_check(&mut harness);
    assert!(harness.query_by_label("Right.").is_some());
    assert!(
        harness
            .query_by_label_contains("Changed: press Check")
            .is_none()
    );
}

/// A Check clicked with the mouse keeps the keyboard: Tab then goes on to "Show
/// working", and Enter there opens it (Tab from nothing went to the window's first
/// button, and Enter turned the page).
#[test]
fn after_a_clicked_check_tab_and_enter_open_the_working() {
    use skinlab::pages::gpu::GpuPage;
    let mut harness = kit::page_harness(GpuPage::default(), &["check"]);
    harness.get_by_label("Check").click();
    harness.run_steps(2);
    assert!(
        harness.ctx.memory(|m| m.focused()).is_some(),
        "Check has the keyboard"
    );
    harness.key_press(egui::Key::Tab);
    harness.run_steps(2);
    harness.key_press(egui::Key::Enter);
    harness.run_steps(2);
    assert!(
        harness
            .query_by_label_contains("A mat4 is four columns")
            .is_some(),
        "the working is open"
    );
}

/// A hint two lines long gives way to the one-line "Changed" as the student corrects
/// the answer: the room stays, so what follows (the working, and at the notebook's end
/// the fields above) does not move under the pointer.
#[test]
fn a_long_hint_keeps_its_room_while_the_answer_is_corrected() {
    use egui_kittest::kittest::NodeT as _;
    use skinlab::pages::gpu::GpuPage;
    use skinlab::ui::check::field_label;
    let mut harness = kit::page_harness(GpuPage::default(), &["check"]);
    harness.get_by_label("Show working").click();
    harness.run_steps(2);
    let working_top = |harness: &Harness<'_, GpuPage>| {
        let node = harness.get_by_label_contains("A mat4 is four columns");
        node.accesskit_node().bounding_box().expect("laid out").y0
    };
    let [vectors, column, row] = ["vectors", "column", "row"].map(|l| field_label("gpu", l));
    // Column and row swapped: the hint names the slip, over two lines.
    kit::submit(
        &mut harness,
        &[(&vectors, "240"), (&column, "7"), (&row, "2")],
    );
    assert!(harness.query_by_label_contains("are swapped").is_some());
    let judged = working_top(&harness);
    kit::type_into(&mut harness, &column, "2");
    assert!(
        harness
            .query_by_label_contains("Changed: press Check")
            .is_some()
    );
    let editing = working_top(&harness);
    assert!(
        (editing - judged).abs() < 1.0,
        "the working moved from {judged} to {editing}"
    );
}

/// A full stop outside a field blanks the screen only for a lecture: a student whose
/// click missed a field and typed `0.866` keeps the page.
#[test]
fn the_blank_keys_blank_only_in_presenter_mode_or_a_deck() {
    let mut harness = app_harness(paused_app());
    harness.key_press(egui::Key::Period);
    harness.key_press(egui::Key::B);
    harness.run_steps(2);
    assert!(
        !harness.state().slides.blank,
        "the page stays for a student"
    );
    harness.state_mut().set_presenter(true);
    harness.key_press(egui::Key::Period);
    harness.run_steps(2);
    assert!(
        harness.state().slides.blank,
        "a lecturer's clicker blanks it"
    );
    assert!(harness.query_by_label_contains("Screen blanked").is_some());
}

#[test]
fn the_link_on_screen_names_the_cell_the_reader_is_at_and_reopens_there() {
    // At the top of the notebook the link names no cell.
    let mut harness = app_harness(paused_app());
    harness.run_steps(10);
    assert!(harness.state().current_link().get("at").is_none());

    // Scrolled to a cell, by a link here, the link on screen names where the reader is;
    // copied, it opens the same place. A cell in the middle is named as the link named
    // it; near the end, where the notebook stops scrolling, a cell that scrolls as far.
    let shown_after = |link: &str| {
        let mut app = paused_app();
        app.open_link(link).unwrap();
        let mut harness = app_harness(app);
        harness.run_steps(24);
        let shown = harness.state().current_link();
        (shown, harness)
    };
    for link in [
        "normals?scale=1&bend=1.2&at=error",
        "xray?at=check",
        "grid?at=check",
        "quaternions?show=quaternion&at=turn",
    ] {
        let (shown, mut harness) = shown_after(link);
        assert!(shown.get("at").is_some(), "{link} shows as {shown}");
        let (again, _) = shown_after(&shown.to_string());
        assert_eq!(
            again.to_string(),
            shown.to_string(),
            "{link}: the copy reopens there"
        );
        // Where several cells scroll as far (the end), the one the link named stays.
        if !link.starts_with("xray") {
            assert_eq!(shown.to_string(), link, "written back as given");
        }

        // The reader scrolls back to the top: the link names no cell again.
        harness.hover_at(egui::pos2(500.0, 400.0));
        for _ in 0..40 {
            crate::common::wheel(&mut harness, 400.0);
            harness.step();
        }
        harness.run_steps(4);
        let top = harness.state().current_link();
        assert!(
            top.get("at").is_none(),
            "{link} scrolled to the top shows as {top}"
        );
    }

    // A link whose keys open the cell anyway does not name it twice, also where the
    // page picks the cell as the keys apply and has forgotten it once scrolled there.
    for (link, shown) in [
        ("grid?angle=0.8&at=controls", "grid?angle=0.8"),
        (
            "binding?stage=bind_space&angles=0,0.5,-0.3&rebind=0,0.5,-0.3",
            "binding?stage=bind_space&angles=0,0.5,-0.3&rebind=0,0.5,-0.3",
        ),
        (
            "gradient?show=poses&pose=bind",
            "gradient?show=poses&pose=bind",
        ),
        // A key at its default is left out, and then says nowhere: the cell is named.
        ("quaternions?question=1", "quaternions?at=check"),
    ] {
        let mut app = paused_app();
        app.open_link(link).unwrap();
        let mut harness = app_harness(app);
        harness.run_steps(24);
        assert_eq!(harness.state().current_link().to_string(), shown, "{link}");
    }
}

#[test]
fn a_figures_show_it_link_changes_the_view_and_keeps_the_place() {
    // What the notebook appends to a figure's link is a valid key and value.
    let figure = format!("xray?preset=perspective&{}", skinlab::notebook::KEEP_PLACE);
    assert!(Link::parse(&figure).is_ok(), "{figure}");
    let mut app = paused_app();
    app.open_link("xray?at=multiply").unwrap();
    let mut harness = app_harness(app);
    harness.run_steps(24);
    let at = |harness: &Harness<'static, SkinlabApp>| {
        let shown = harness.state().current_link();
        skinlab::app::cell_of_link(harness.state().current_page(), &shown)
    };
    let before = at(&harness);
    harness.state_mut().follow_link(&figure);
    harness.run_steps(24);
    let state = harness.state();
    assert!(state.notices().is_empty(), "{:?}", state.notices());
    assert_eq!(
        state.current_link().get("preset"),
        Some("perspective"),
        "the view changed"
    );
    assert_eq!(at(&harness), before, "the notebook stayed where it was");
}

#[test]
fn show_working_brings_the_working_into_view() {
    let mut app = paused_app();
    app.open_link("gpu?question=1").unwrap();
    let mut harness = app_harness(app);
    harness.run_steps(24);
    harness.get_by_label("Show working").click();
    harness.run_steps(24);
    let working = harness.get_by_label_contains("A mat4 is four columns");
    let rect = working.rect();
    assert!(
        rect.bottom() <= 800.0 && rect.top() >= 0.0,
        "the working is on screen: {rect:?}"
    );
}

#[test]
fn the_cell_on_screen_stays_on_screen_as_presenter_mode_and_the_zoom_change() {
    // What the reader sees: the cell a link brought up is still in view after presenter mode turns on, after a zoom, and after presenter mode
    // turns off, on a laptop and on a projector. A link opened at the notebook's end
    // (the order cell) is the case where "the nearest link" names the last cell.
    let links = [
        "hierarchy?joint=forearm.L&rot=upper_arm.L:0,0,1.5707964&order=wrong",
        "blending?bend=1.2&vertex=1536&at=vertex",
        "normals?bend=1.2&scale=1&at=error",
        "xray?at=multiply",
        // Readers found these jump back a cell: the cell opened sits low, at the end.
        "blending?twist=3.1416",
        "model?clip=Walking&clip_b=Wave&sign_check=false&joint=LowerArmL&t=0.4&at=blend",
        "gpu?at=cpu_gpu",
        "normals?at=tangent",
        "quaternions?show=quaternion&yaw=0.8&pitch=0.4&roll=0.3&at=turn",
    ];
    for size in [Vec2::new(1280.0, 800.0), Vec2::new(1920.0, 1080.0)] {
        for link in links {
            let mut app = paused_app();
            app.open_link(link).unwrap();
            let cell = skinlab::app::cell_of_link(app.current_page(), &Link::parse(link).unwrap())
                .expect("the link names its cell");
            let mut harness = harness_of(app, true);
            harness.set_size(size);
            harness.run_steps(24);
            let on_screen = |harness: &Harness<'static, SkinlabApp>, when: &str| {
                let (top, shown) = skinlab::ui::marks::drawn_cell(&harness.ctx, cell)
                    .unwrap_or_else(|| panic!("{link} at {size:?}, {when}: {cell} drawn"));
                // In view, with room under it for its first lines (a cell at the
                // notebook's end cannot come higher than the end allows).
                assert!(
                    top >= shown.top() && top <= shown.bottom() - 0.2 * shown.height(),
                    "{link} at {size:?}, {when}: {cell} starts at {top}, the notebook shows {shown:?}"
                );
            };
            on_screen(&harness, "as opened");
            harness.state_mut().set_presenter(true);
            harness.run_steps(24);
            on_screen(&harness, "presenter mode on");
            harness.state_mut().set_presenter(false);
            harness.run_steps(24);
            on_screen(&harness, "presenter mode off");
            harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Plus);
            harness.run_steps(24);
            on_screen(&harness, "zoomed in");
        }
    }
}

#[test]
fn switching_presenter_mode_keeps_the_readers_place() {
    // Larger text moves every cell down; the cell being read comes back into view.
    for link in ["xray?at=multiply", "model?clip=Wave&t=0.5&at=vertex"] {
        let mut app = paused_app();
        app.open_link(link).unwrap();
        let mut harness = app_harness(app);
        harness.run_steps(24);
        let cell = |harness: &Harness<'static, SkinlabApp>| {
            let shown = harness.state().current_link();
            skinlab::app::cell_of_link(harness.state().current_page(), &shown)
        };
        let before = cell(&harness);
        assert!(before.is_some(), "{link} names its cell");
        for on in [true, false] {
            harness.state_mut().set_presenter(on);
            harness.run_steps(24);
            assert_eq!(cell(&harness), before, "{link}, presenter mode {on}");
        }
    }
}

#[test]
fn checking_an_answer_keeps_the_link_at_the_check_cell() {
    // The verdict grows the last cell, so the notebook is no longer at its end: the link
    // still names the check cell, not the cell above it.
    for link in [
        "blending?at=check",
        "normals?at=check",
        "keyframes?question=2",
    ] {
        let mut app = paused_app();
        app.open_link(link).unwrap();
        let mut harness = app_harness(app);
        harness.run_steps(24);
        harness.get_by_label("Check").click();
        harness.run_steps(6);
        let shown = harness.state().current_link();
        let at = skinlab::app::cell_of_link(harness.state().current_page(), &shown);
        assert_eq!(at, Some("check"), "{link} after Check shows as {shown}");
    }
}

#[test]
fn a_checkbox_in_a_cell_shows_in_the_link_field_at_once() {
    // The field is drawn above the cells, so the frame that ticks a box drew the old
    // link; the next frame comes by itself, not at the reader's next move.
    let mut app = paused_app();
    app.open_link("hierarchy?joint=forearm.L&rot=upper_arm.L:0,0,1.5707964")
        .unwrap();
    let mut harness = app_harness(app);
    harness.run_steps(8);
    let field = |h: &Harness<'static, SkinlabApp>| {
        use egui_kittest::kittest::NodeT as _;
        let node = h.get_by_label("Link:");
        let node = node.accesskit_node();
        node.value().unwrap_or_default().to_owned()
    };
    assert!(
        !field(&harness).contains("order=wrong"),
        "{}",
        field(&harness)
    );
    harness
        .get_all_by_label("wrong order: local · parent")
        .next()
        .expect("the order box")
        .click();
    harness.run();
    assert!(
        field(&harness).contains("order=wrong"),
        "the field shows {}",
        field(&harness)
    );
}

#[test]
fn at_the_notebooks_end_a_control_stays_under_the_pointer_when_a_cell_grows_shorter() {
    // The model's blend readout loses a line as the sign check comes on: at the end of
    // the notebook the scroll was pulled back and the controls dropped under a reader's
    // next click (the check box, 8 points). The notebook keeps its height instead.
    let link = "model?clip=Walking&clip_b=Wave&sign_check=false&joint=LowerArmL&t=0.4&at=blend";
    let label = "sign check: flip q_b when q_a · q_b < 0";
    let mut app = paused_app();
    app.open_link(link).unwrap();
    let mut harness = harness_of(app, true);
    harness.run_steps(24);
    let (_, _, _, at_end) = skinlab::ui::marks::aimed_cell(&harness.ctx).expect("aimed");
    assert!(at_end, "the case is the notebook's end");
    let at = |h: &Harness<'static, SkinlabApp>| h.get_by_label(label).rect();
    let before = at(&harness);
    harness.hover_at(before.center());
    harness.run_steps(2);
    harness.get_by_label(label).click();
    harness.run_steps(12);
    assert!(
        harness.state().current_link().get("sign_check").is_none(),
        "checked"
    );
    let after = at(&harness);
    assert!(
        (after.top() - before.top()).abs() < 1.0,
        "{label} moved from {before:?} to {after:?}"
    );
}

#[test]
fn a_control_stays_under_the_pointer_when_a_cell_above_it_grows() {
    // The gpu page's longer listing above the paths cell, and the blending page's
    // twist plot and notes above the twist bone box, grew after a click and moved the
    // control away from the pointer (80 and 133 points): the notebook holds it.
    for (link, label) in [
        ("gpu?at=paths", "bone texture"),
        ("blending?twist=3.1416&bend=2.1&at=compare", "Twist bone"),
    ] {
        let mut app = paused_app();
        app.open_link(link).unwrap();
        let mut harness = harness_of(app, true);
        harness.run_steps(24);
        let at = |h: &Harness<'static, SkinlabApp>| {
            h.get_all_by_label(label)
                .next()
                .expect("the control")
                .rect()
        };
        let before = at(&harness);
        harness.hover_at(before.center());
        harness.run_steps(2);
        harness.get_all_by_label(label).next().unwrap().click();
        harness.run_steps(12);
        let after = at(&harness);
        assert!(
            (after.top() - before.top()).abs() < 4.0,
            "{link}: {label} moved from {before:?} to {after:?}"
        );
    }
}

/// A reader who asked for less motion: the pages that play by themselves (the grid's
/// chain, the model's clip) open still, and nothing moves until Play is pressed; egui's
/// own animations jump to their end. The setting is the drawing thread's, so no other
/// test sees it.
#[test]
fn with_reduced_motion_pages_open_still_and_play_when_asked() {
    skinlab::ui::motion::set_reduced(true);
    let buttons =
        |harness: &Harness<'_, SkinlabApp>, label: &str| harness.query_all_by_label(label).count();
    for link in ["grid", "model"] {
        let mut app = SkinlabApp::new();
        app.open_link(link).expect("opens");
        let mut harness = app_harness(app);
        harness.run_steps(5);
        assert!(
            buttons(&harness, "Play") > 0 && buttons(&harness, "Pause") == 0,
            "{link} plays on its own"
        );
    }
    assert_eq!(harness_ctx_animation_time(), 0.0);
    // Play starts the chain; paused again, it rests where it had moved to.
    let mut app = SkinlabApp::new();
    app.open_link("grid").expect("opens");
    let mut harness = app_harness(app);
    harness
        .query_all_by_label("Play")
        .next()
        .expect("Play")
        .click();
    harness.run_steps(20);
    harness
        .query_all_by_label("Pause")
        .next()
        .expect("Pause")
        .click();
    harness.run_steps(2);
    let angle = harness
        .state()
        .current_link()
        .get("angle")
        .map(str::to_owned);
    assert!(
        angle.as_deref().is_some_and(|a| a != "0"),
        "the chain did not move: {angle:?}"
    );
    // A link that asks to play, plays.
    let mut app = SkinlabApp::new();
    app.open_link("keyframes?play=true").expect("opens");
    let harness = app_harness(app);
    assert_eq!(harness.state().current_link().get("play"), Some("true"));
    skinlab::ui::motion::set_reduced(false);
}

/// egui's animation time in the app's style, on this thread's setting.
fn harness_ctx_animation_time() -> f32 {
    let harness = app_harness(SkinlabApp::new());
    harness.ctx.global_style().animation_time
}

/// Every control on every page has a name a screen reader can read: each node that
/// takes focus or a click is labelled (a label's text is its name; egui's own scroll
/// bars, which screen readers scroll with their own keys, are the exception). Each
/// page's viewport is a picture whose name says what it shows.
#[test]
fn every_control_on_every_page_has_a_name_for_a_screen_reader() {
    use egui::accesskit::{Action, Role};
    use egui_kittest::kittest::NodeT as _;
    let mut unnamed = Vec::new();
    for slug in slugs() {
        let harness = app_at(slug);
        let mut pictures = Vec::new();
        for node in harness.root().children_recursive() {
            let a = node.accesskit_node();
            let data = a.data();
            let named = a.label().is_some_and(|l| !l.trim().is_empty());
            if a.role() == Role::Image && named {
                pictures.push(a.label().unwrap_or_default());
            }
            let control =
                data.supports_action(Action::Focus) || data.supports_action(Action::Click);
            if control && !named && !matches!(a.role(), Role::Label | Role::ScrollBar) {
                unnamed.push(format!(
                    "{slug}: a {:?} at {:?}",
                    a.role(),
                    a.bounding_box()
                ));
            }
        }
        // The viewport: the picture on the right half, named in a sentence.
        assert!(
            pictures.iter().any(|p| p.split_whitespace().count() >= 8),
            "{slug}: no viewport named in words among {pictures:?}"
        );
    }
    assert!(
        unnamed.is_empty(),
        "unnamed controls:\n{}",
        unnamed.join("\n")
    );
}

/// The viewport's name follows what it shows: the blending page's arms, their twist
/// and the elbow ring's area, as the plot under them reads it.
#[test]
fn the_viewports_name_says_what_it_shows_now() {
    use egui::accesskit::Role;
    use egui_kittest::kittest::NodeT as _;
    let name = |link: &str| {
        app_at(link)
            .root()
            .children_recursive()
            .map(|n| n.accesskit_node())
            .filter(|a| a.role() == Role::Image)
            .filter_map(|a| a.label())
            .find(|l| l.contains("arm"))
            .unwrap_or_default()
    };
    let straight = name("blending?mode=both&twist=0");
    let twisted = name("blending?mode=both&twist=3.14159");
    assert!(
        straight.starts_with("LBS and DQS arms, twist 0°"),
        "{straight}"
    );
    assert!(
        twisted.contains("twist 180°") && twisted.contains("DQS 100%"),
        "{twisted}"
    );
    let lbs = twisted
        .split("area LBS ")
        .nth(1)
        .and_then(|s| s.split('%').next())
        .and_then(|s| s.parse::<f32>().ok());
    assert!(
        lbs.is_some_and(|a| a < 10.0),
        "LBS's ring should collapse: {twisted}"
    );
}

/// The viewport from the keyboard alone: Tab brings it the keyboard, the arrows turn
/// the view, `+` brings it nearer, `]` and `[` step the picked vertex; `?` lists the
/// keys, and Esc closes the list.
#[test]
fn the_viewport_works_from_the_keyboard_alone() {
    use egui::Key;
    use egui::accesskit::Role;
    let mut harness = app_at("grid?angle=0.3");
    let viewport_focused =
        |h: &Harness<'_, SkinlabApp>| focused(h).is_some_and(|(_, role, _)| role == Role::Image);
    tab_to(&mut harness, |role, _| role == Role::Image);
    let camera =
        |h: &Harness<'_, SkinlabApp>| h.state().current_link().get("camera").map(str::to_owned);
    assert_eq!(camera(&harness), None);
    harness.key_press(Key::ArrowRight);
    harness.run_steps(2);
    let turned = camera(&harness).expect("the arrow turned the view");
    assert!(
        viewport_focused(&harness),
        "the arrow moved the keyboard away"
    );
    harness.key_press(Key::Plus);
    harness.run_steps(2);
    assert_ne!(
        camera(&harness).as_deref(),
        Some(turned.as_str()),
        "+ did not zoom"
    );
    let vertex =
        |h: &Harness<'_, SkinlabApp>| h.state().current_link().get("vertex").map(str::to_owned);
    harness.key_press(Key::CloseBracket);
    harness.run_steps(2);
    assert_eq!(vertex(&harness).as_deref(), Some("0"));
    harness.key_press(Key::CloseBracket);
    harness.run_steps(2);
    assert_eq!(vertex(&harness).as_deref(), Some("1"));
    harness.key_press(Key::OpenBracket);
    harness.key_press(Key::OpenBracket);
    harness.run_steps(2);
    assert_eq!(
        vertex(&harness).as_deref(),
        Some("9"),
        "[ wraps round to the last"
    );
    // The page stayed: the arrows were the viewport's, not the pages'.
    assert_eq!(harness.state().current_link().slug, "grid");
    harness.key_press(Key::Questionmark);
    harness.run_steps(2);
    assert!(
        harness.query_by_label("Keys").is_some(),
        "? shows no list of keys"
    );
    assert!(harness.query_by_label_contains("turn the view").is_some());
    harness.key_press(Key::Escape);
    harness.run_steps(2);
    assert!(
        harness.query_by_label("Keys").is_none(),
        "Esc left the list open"
    );
}

/// A walk with Tab through every page: it reaches every control that is enabled (and
/// none that is greyed out), comes back round to where it began (nothing holds the
/// keyboard), and leaves the page as it was: passing through a number field does not
/// round its value to the digits it shows.
#[test]
fn tab_walks_through_every_control_of_every_page_and_changes_nothing() {
    use egui::Key;
    use egui::accesskit::Action;
    use egui_kittest::kittest::NodeT as _;
    let mut problems = Vec::new();
    for slug in slugs() {
        let mut harness = app_at(slug);
        let before = harness.state().current_link().to_string();
        let controls: Vec<(String, String)> = harness
            .root()
            .children_recursive()
            .map(|n| n.accesskit_node())
            .filter(|a| a.data().supports_action(Action::Focus) && !a.is_disabled())
            .map(|a| {
                let name = a.label().or(a.value()).unwrap_or_default();
                (format!("{:?}", a.id()), format!("{:?} `{name}`", a.role()))
            })
            .collect();
        let mut reached = std::collections::BTreeSet::new();
        let mut first = None;
        let mut round = false;
        for _ in 0..(3 * controls.len() + 20) {
            harness.key_press(Key::Tab);
            harness.run_steps(1);
            let Some((focused, _, _)) = focused(&harness) else {
                continue;
            };
            if first.as_ref() == Some(&focused) {
                round = true;
                break;
            }
            first.get_or_insert(focused.clone());
            reached.insert(focused);
        }
        let missed: Vec<&str> = (controls.iter())
            .filter(|(id, _)| !reached.contains(id))
            .map(|(_, what)| what.as_str())
            .collect();
        if !round {
            problems.push(format!("{slug}: Tab never came back round"));
        }
        if !missed.is_empty() {
            problems.push(format!("{slug}: Tab never reached {missed:?}"));
        }
        // The gradient page's viewport follows the part being read: the walk reads
        // on into the matrices, and the view (`show`, with its camera) follows.
        let mut after = harness.state().current_link();
        if slug == "gradient" {
            after.take("show");
            after.take("camera");
        }
        let after = after.to_string();
        if after != before {
            problems.push(format!(
                "{slug}: the walk changed `{before}` into `{after}`"
            ));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The page list, the link box and a typed answer without a mouse: Tab to a page's name
/// and Enter opens it; Tab to the link box, type a link and Enter opens it; Tab to an
/// answer's field, type and Enter checks it.
#[test]
fn the_page_list_the_link_box_and_an_answer_work_from_the_keyboard() {
    use egui::Key;
    use egui::accesskit::Role;
    use egui_kittest::kittest::NodeT as _;
    let mut harness = app_harness(paused_app());
    tab_to(&mut harness, |_, label| {
        label == "3. The transformation hierarchy"
    });
    harness.key_press(Key::Enter);
    harness.run_steps(3);
    assert_eq!(harness.state().current_link().slug, "hierarchy");
    tab_to(&mut harness, |role, label| {
        role == Role::TextInput && label == "Link:"
    });
    harness.key_press_modifiers(egui::Modifiers::COMMAND, Key::A);
    harness
        .get_by_label("Link:")
        .type_text("xray?preset=identity");
    harness.key_press(Key::Enter);
    harness.run_steps(3);
    assert_eq!(harness.state().current_link().slug, "xray");
    assert!(!kit::shows(&harness, "Not yet"));
    tab_to(&mut harness, |role, label| {
        role == Role::TextInput && label != "Link:"
    });
    let field = harness
        .root()
        .children_recursive()
        .find(|n| n.accesskit_node().is_focused())
        .expect("a field has the keyboard");
    field.type_text("7");
    harness.run_steps(1);
    harness.key_press(Key::Enter);
    harness.run_steps(3);
    assert!(
        kit::shows(&harness, "y is empty: type a number"),
        "Enter in the answer's field did not check it"
    );
}

/// In a lecture deck, in presenter mode, the deck's counter and every other control
/// has a name too.
#[test]
fn a_decks_controls_have_names_for_a_screen_reader() {
    use egui::accesskit::{Action, Role};
    use egui_kittest::kittest::NodeT as _;
    let mut app = paused_app();
    app.set_presenter(true);
    app.open_link("grid?deck=lecture:2")
        .expect("the bundled deck opens");
    let mut harness = app_harness(app);
    harness.run_steps(6);
    assert!(harness.state().deck().is_some());
    let unnamed: Vec<String> = harness
        .root()
        .children_recursive()
        .map(|n| n.accesskit_node())
        .filter(|a| {
            let control =
                a.data().supports_action(Action::Focus) || a.data().supports_action(Action::Click);
            let named = a.label().is_some_and(|l| !l.trim().is_empty());
            control && !named && !matches!(a.role(), Role::Label | Role::ScrollBar)
        })
        .map(|a| format!("a {:?} at {:?}", a.role(), a.bounding_box()))
        .collect();
    assert!(unnamed.is_empty(), "unnamed in a deck: {unnamed:?}");
    // The counter says where the lecture is, in words a screen reader reads.
    assert!(kit::shows(&harness, "2"), "no counter");
}
