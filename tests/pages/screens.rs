//! The app on a phone and a tablet: one compact bar, the viewport first, controls a
//! finger can hit, two-finger gestures, and the book's frame without the prose the
//! chapter around it holds.

use egui::Vec2;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use skinlab::SkinlabApp;
use skinlab::app::TOUCH_TARGET;
use skinlab::page::slugs;
use skinlab::ui::marks;

/// The app opened on `link` in a window of `size` points, touched by a finger or not.
fn on_screen(link: &str, size: Vec2, touch: bool, embedded: bool) -> Harness<'static, SkinlabApp> {
    let mut app = SkinlabApp::new();
    app.paused = true;
    app.set_touch(touch);
    app.set_embedded(embedded);
    app.open_link(link).expect("a documented link opens");
    let mut harness = Harness::builder()
        .with_context_setup(skinlab::ui::fonts::install)
        .with_size(size)
        .build_ui_state(|ui, app: &mut SkinlabApp| app.app_ui(ui), app);
    harness.run_steps(4);
    harness
}

const PHONE: Vec2 = Vec2::new(390.0, 844.0);
const PHONE_SIDEWAYS: Vec2 = Vec2::new(844.0, 390.0);

#[test]
fn a_phone_gets_one_compact_bar_and_the_viewport_first() {
    let harness = on_screen("blending?twist=3.1416", PHONE, true, false);
    assert!(harness.state().compact(), "390 points wide is a phone");
    for shown in ["Pages", "More", "<", ">"] {
        assert!(
            harness.query_by_label(shown).is_some(),
            "the compact bar has {shown}"
        );
    }
    for gone in ["Presenter", "Reset page", "Copy link"] {
        assert!(
            harness.query_by_label(gone).is_none(),
            "{gone} waits in the menu"
        );
    }
    let view = marks::largest_viewport(&harness.ctx).expect("a viewport is drawn");
    assert!(view.top() < 80.0, "the viewport comes first: {view:?}");
    assert!(
        view.height() >= PHONE.y * 0.5,
        "the viewport holds half the height: {view:?}"
    );
}

#[test]
fn a_desktop_window_keeps_the_full_bar() {
    let harness = on_screen("blending", Vec2::new(1280.0, 800.0), false, false);
    assert!(!harness.state().compact());
    for shown in ["Previous", "Next", "Reset page", "Presenter", "Copy link"] {
        assert!(
            harness.query_by_label(shown).is_some(),
            "the full bar has {shown}"
        );
    }
}

#[test]
fn on_a_touch_phone_every_control_of_every_page_is_a_finger_high() {
    let mut found = Vec::new();
    for size in [PHONE, PHONE_SIDEWAYS] {
        for slug in slugs() {
            let harness = on_screen(slug, size, true, false);
            let small = marks::small_controls(&harness.ctx, TOUCH_TARGET);
            if !small.is_empty() {
                found.push(format!("{slug} at {size:?}: {small:?}"));
            }
        }
    }
    assert!(
        found.is_empty(),
        "controls under {TOUCH_TARGET} points:\n{}",
        found.join("\n")
    );
}

#[test]
fn the_small_controls_check_can_fail_without_touch() {
    let harness = on_screen("blending", PHONE, false, false);
    assert!(!marks::small_controls(&harness.ctx, TOUCH_TARGET).is_empty());
}

#[test]
fn the_book_frame_shows_the_cells_without_the_chapter_prose() {
    // A sentence of the grid chapter's prose, and a control of one of its cells.
    let sentence = "This is the smallest skinned mesh";
    let alone = on_screen("grid", Vec2::new(700.0, 760.0), false, false);
    assert!(
        alone.query_by_label_contains(sentence).is_some(),
        "the app alone shows the prose"
    );
    let framed = on_screen("grid", Vec2::new(700.0, 760.0), false, true);
    assert!(
        framed.query_by_label_contains(sentence).is_none(),
        "the book's frame leaves the prose to the chapter"
    );
    assert!(
        framed.query_by_label("Pages").is_none(),
        "no page menu inside a chapter"
    );
    assert!(
        framed.query_by_label("More").is_some(),
        "the link and reset are in the menu"
    );
}

#[test]
fn on_a_touch_screen_the_captions_say_tap_and_pinch() {
    let mouse = on_screen("grid", Vec2::new(1280.0, 800.0), false, false);
    assert!(
        mouse
            .query_by_label_contains("click a vertex to inspect it")
            .is_some()
    );
    let finger = on_screen("grid", PHONE, true, false);
    assert!(
        finger
            .query_by_label_contains("tap a vertex to inspect it")
            .is_some()
    );
    assert!(finger.query_by_label_contains("click a vertex").is_none());
}
