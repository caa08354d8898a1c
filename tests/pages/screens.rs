//! The app on a phone and a tablet: one compact bar, the viewport first, controls a
//! finger can hit, two-finger gestures, and the book's frame without the prose the
//! chapter around it holds.

use egui::{Pos2, Vec2};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use skinlab::SkinlabApp;
use skinlab::app::TOUCH_TARGET;
use skinlab::pages::slugs;
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
const TABLET: Vec2 = Vec2::new(1180.0, 820.0);
/// The book's live frame on a tablet and on a phone (book/skinlab.css).
const TABLET_FRAME: Vec2 = Vec2::new(750.0, 760.0);
const PHONE_FRAME: Vec2 = Vec2::new(360.0, 760.0);

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
    // Room for a finger among the joints, and for ten lines of the cells under it.
    let notebook = PHONE.y - view.bottom();
    assert!(
        view.height() >= PHONE.y * 0.45 && notebook >= PHONE.y * 0.3,
        "the viewport holds about half the height, the cells a third: {view:?}"
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

/// Turns the wheel over `at` by `down` points, and lets the app draw.
fn wheel(harness: &mut Harness<'_, SkinlabApp>, at: egui::Pos2, down: f32) {
    harness.hover_at(at);
    crate::common::wheel(harness, -down);
    harness.run_steps(3);
}

/// Scrolls the notebook through, by the wheel over `cells`, until it moves no more,
/// calling `look` on each screenful.
fn scroll_through(
    harness: &mut Harness<'_, SkinlabApp>,
    cells: egui::Pos2,
    mut look: impl FnMut(&Harness<'_, SkinlabApp>),
) {
    let mut last = None;
    for _ in 0..100 {
        look(harness);
        // Where every widget lies: unchanged after a turn of the wheel, the end is reached.
        let laid_out: Vec<egui::Rect> = harness.ctx.viewport(|v| {
            v.prev_pass
                .widgets
                .layers()
                .flat_map(|(_, w)| w.iter())
                .map(|w| w.rect)
                .collect()
        });
        if last.as_ref() == Some(&laid_out) {
            break;
        }
        last = Some(laid_out);
        wheel(harness, cells, 400.0);
    }
}

/// The controls under [`TOUCH_TARGET`] on the whole page, not only its first screen.
fn small_controls_scrolled_through(
    harness: &mut Harness<'_, SkinlabApp>,
    cells: egui::Pos2,
) -> Vec<egui::Rect> {
    let mut found = Vec::new();
    scroll_through(harness, cells, |h| {
        found.extend(marks::small_controls(&h.ctx, TOUCH_TARGET));
    });
    found
}

#[test]
fn on_a_touch_screen_every_control_of_every_page_is_a_finger_high() {
    let mut found = Vec::new();
    // Each screen, and a point over its cells (under the viewport, or beside it).
    let screens = [
        (PHONE, false, egui::pos2(195.0, 800.0)),
        (PHONE_SIDEWAYS, false, egui::pos2(700.0, 300.0)),
        (TABLET, false, egui::pos2(400.0, 600.0)),
        (TABLET_FRAME, true, egui::pos2(375.0, 720.0)),
        (PHONE_FRAME, true, egui::pos2(180.0, 720.0)),
    ];
    for (size, embedded, cells) in screens {
        for slug in slugs() {
            let mut harness = on_screen(slug, size, true, embedded);
            let small = small_controls_scrolled_through(&mut harness, cells);
            if !small.is_empty() {
                let frame = if embedded { " in a chapter" } else { "" };
                found.push(format!("{slug} at {size:?}{frame}: {small:?}"));
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
fn on_a_phone_or_a_small_window_no_page_is_wider_than_its_column() {
    let mut found = Vec::new();
    for (size, touch, embedded, cells) in [
        (PHONE, true, false, egui::pos2(195.0, 800.0)),
        (PHONE_SIDEWAYS, true, false, egui::pos2(150.0, 350.0)),
        (PHONE_FRAME, true, true, egui::pos2(180.0, 720.0)),
        // The book's figures, and a small laptop window: the notebook beside the view
        // is narrowest here (a slider's long name beside it once pushed three pages
        // under the viewport).
        (
            Vec2::new(960.0, 640.0),
            false,
            false,
            egui::pos2(350.0, 400.0),
        ),
    ] {
        for slug in slugs() {
            let mut harness = on_screen(slug, size, touch, embedded);
            let mut widest = 0.0_f32;
            scroll_through(&mut harness, cells, |h| {
                widest = widest.max(marks::notebook_overflow(&h.ctx));
            });
            // Under a point and a half (pipeline on its side reaches 0.8 past, from the
            // edge of a frame; blending reaches 1.3 at 960 wide) is about a CSS
            // pixel: nothing a reader can see cut off. A slider's name beside it reached
            // 48 points past.
            if widest > 1.5 {
                found.push(format!("{slug} at {size:?}: {widest} points too wide"));
            }
        }
    }
    assert!(
        found.is_empty(),
        "cut off at the edge:\n{}",
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
    // A tablet: on a phone the caption folds behind "About this view".
    let finger = on_screen("grid", TABLET, true, false);
    assert!(
        finger
            .query_by_label_contains("tap a vertex to inspect it")
            .is_some()
    );
    assert!(finger.query_by_label_contains("click a vertex").is_none());
}

#[test]
fn on_a_phone_a_long_check_box_name_wraps_and_a_tap_on_it_toggles_the_box() {
    let name = "Forget the inverse bind (upload world matrices)";
    let mut harness = on_screen("grid?forget_inverse_bind=1", PHONE, true, false);
    assert_eq!(marks::notebook_overflow(&harness.ctx), 0.0);
    // Down the notebook to the cell.
    for _ in 0..60 {
        use egui_kittest::kittest::NodeT as _;
        let node = harness.get_by_role_and_label(egui::accesskit::Role::Button, name);
        let shown = node.accesskit_node().bounding_box();
        if shown.is_some_and(|b| b.y0 > 600.0 && b.y1 < PHONE.y as f64) {
            break;
        }
        wheel(&mut harness, egui::pos2(195.0, 800.0), 150.0);
    }
    harness
        .get_by_role_and_label(egui::accesskit::Role::Button, name)
        .click();
    harness.run_steps(2);
    let link = harness.state().current_link().to_string();
    assert!(
        !link.contains("forget_inverse_bind"),
        "a tap on the name unticks the box: {link}"
    );
}

/// On a phone of `size` whose keyboard takes `keyboard` points of its height: a field
/// near the foot of the screen gets the room when it takes the keys (where the viewport
/// is above the cells, `stacked`, the viewport shrinks), and stays in view above the
/// keyboard, as it comes up and as one types.
fn typed_above_the_keyboard(size: Vec2, keyboard: f32, stacked: bool) {
    use egui_kittest::kittest::NodeT as _;
    let field = "quaternion x";
    let mut harness = on_screen("quaternions?question=1", size, true, false);
    let viewport = |h: &Harness<'_, SkinlabApp>| {
        marks::largest_viewport(&h.ctx)
            .expect("a viewport is drawn")
            .height()
    };
    // The field near the foot of the screen, where the keyboard will come up.
    for _ in 0..40 {
        let shown = harness.get_by_label(field).accesskit_node().bounding_box();
        if shown.is_some_and(|b| b.y1 < size.y as f64 - 10.0) {
            break;
        }
        wheel(&mut harness, egui::pos2(size.x * 0.2, size.y - 40.0), 20.0);
    }
    let before = viewport(&harness);
    harness.get_by_label(field).focus();
    harness.run_steps(4);
    let typing = viewport(&harness);
    assert!(
        !stacked || typing < before * 0.6,
        "the viewport makes room: {before} -> {typing} points"
    );
    // The keyboard comes up: the page shrinks under it.
    let above = size.y - keyboard;
    harness.set_size(Vec2::new(size.x, above));
    harness.run_steps(12);
    let in_view = |harness: &Harness<'_, SkinlabApp>, when: &str| {
        let shown = harness.get_by_label(field).accesskit_node().bounding_box();
        assert!(
            shown.is_some_and(|b| b.y0 >= 0.0 && b.y1 <= above as f64),
            "{when}, the field is in view above the keyboard: {shown:?} in {above} points"
        );
    };
    in_view(&harness, "once the keyboard is up");
    for typed in ["0", ".", "5"] {
        harness.event(egui::Event::Text(typed.into()));
        harness.run_steps(1);
    }
    harness.run_steps(4);
    in_view(&harness, "after typing");
}

#[test]
fn on_a_phone_the_field_being_typed_in_gets_the_room_and_stays_above_the_keyboard() {
    typed_above_the_keyboard(PHONE, 336.0, true);
}

#[test]
fn on_a_phone_on_its_side_the_field_being_typed_in_stays_above_the_keyboard() {
    typed_above_the_keyboard(PHONE_SIDEWAYS, 210.0, false);
}

/// Fingers as the browser reports them: the first finger is also the pointer (its
/// press, moves and release), and every finger is a touch of its own.
struct Fingers<'h, 'a> {
    harness: &'h mut Harness<'a, SkinlabApp>,
}

impl Fingers<'_, '_> {
    fn touch(&mut self, phase: egui::TouchPhase, at: &[egui::Pos2]) {
        for (i, pos) in at.iter().enumerate() {
            self.harness.event(egui::Event::Touch {
                device_id: egui::TouchDeviceId(1),
                id: egui::TouchId(i as u64),
                phase,
                pos: *pos,
                force: None,
            });
        }
    }

    fn down(&mut self, at: &[egui::Pos2]) {
        self.harness.event(egui::Event::PointerMoved(at[0]));
        self.harness.event(egui::Event::PointerButton {
            pos: at[0],
            button: egui::PointerButton::Primary,
            pressed: true,
            modifiers: egui::Modifiers::NONE,
        });
        self.touch(egui::TouchPhase::Start, at);
        self.harness.run_steps(1);
    }

    fn slide(&mut self, at: &[egui::Pos2]) {
        self.harness.event(egui::Event::PointerMoved(at[0]));
        self.touch(egui::TouchPhase::Move, at);
        self.harness.run_steps(1);
    }

    fn up(&mut self, at: &[egui::Pos2]) {
        self.harness.event(egui::Event::PointerButton {
            pos: at[0],
            button: egui::PointerButton::Primary,
            pressed: false,
            modifiers: egui::Modifiers::NONE,
        });
        self.harness.event(egui::Event::PointerGone);
        self.touch(egui::TouchPhase::End, at);
        self.harness.run_steps(4);
    }
}

/// Where a grid joint lies clear of the vertices, on screen.
fn clear_joint(harness: &Harness<'_, SkinlabApp>) -> egui::Pos2 {
    match marks::aim_at(&harness.ctx, marks::Target::Joint, marks::CLEARANCE) {
        Some((at, clear)) if clear > marks::CLEARANCE => at,
        other => panic!("no joint clear of the vertices: {other:?}"),
    }
}

/// The grid on a tablet, its pages noting where joints and vertices are, and where a
/// joint lies clear of the vertices.
fn grid_by_finger() -> (Harness<'static, SkinlabApp>, egui::Pos2) {
    let mut harness = on_screen("grid?angle=0.8", TABLET, true, false);
    marks::set_recording(&harness.ctx, true);
    harness.run_steps(2);
    let joint = clear_joint(&harness);
    (harness, joint)
}

#[test]
fn a_finger_resting_on_a_joint_before_it_moves_still_drags_it() {
    let (mut harness, joint) = grid_by_finger();
    let mut finger = Fingers {
        harness: &mut harness,
    };
    finger.down(&[joint]);
    // A second and a half still (egui would call that a long touch, and end the press).
    for _ in 0..6 {
        finger.slide(&[joint]);
    }
    let mut at = joint;
    for _ in 0..8 {
        at += Vec2::new(-12.0, -4.0);
        finger.slide(&[at]);
    }
    finger.up(&[at]);
    let link = harness.state().current_link().to_string();
    assert!(
        link.contains("angles="),
        "the joint followed the finger: {link}"
    );
}

#[test]
fn a_pinch_that_begins_on_a_joint_zooms_and_leaves_the_joint() {
    let (mut harness, joint) = grid_by_finger();
    let mut fingers = Fingers {
        harness: &mut harness,
    };
    let apart = |gap: f32| [joint, joint + Vec2::new(gap, 0.0)];
    fingers.down(&apart(40.0));
    // The first finger stays on the joint's side and moves off it; the second parts.
    let mut gap = 40.0;
    for step in 1..=8 {
        gap += 15.0;
        let [first, second] = apart(gap);
        fingers.slide(&[first - Vec2::new(3.0 * step as f32, 0.0), second]);
    }
    fingers.up(&apart(gap));
    let link = harness.state().current_link().to_string();
    assert!(
        !link.contains("angles="),
        "the joint stayed where it was: {link}"
    );
    assert!(link.contains("camera="), "the view came nearer: {link}");
}

/// Where the node of `role` named `name` is on screen.
fn centre_of(
    harness: &Harness<'_, SkinlabApp>,
    role: egui::accesskit::Role,
    name: &str,
) -> egui::Pos2 {
    use egui_kittest::kittest::NodeT as _;
    let b = harness
        .get_by_role_and_label(role, name)
        .accesskit_node()
        .bounding_box()
        .unwrap_or_else(|| panic!("{name} is on screen"));
    egui::pos2(((b.x0 + b.x1) / 2.0) as f32, ((b.y0 + b.y1) / 2.0) as f32)
}

#[test]
fn on_a_phone_a_link_typed_in_the_menu_opens() {
    use egui::accesskit::Role;
    let mut harness = on_screen("grid?angle=0.8", PHONE, true, false);
    let mut finger = Fingers {
        harness: &mut harness,
    };
    let more = centre_of(finger.harness, Role::Button, "More");
    finger.down(&[more]);
    finger.up(&[more]);
    // A tap in the link box gives it the keys, and the menu stays open.
    let field = centre_of(finger.harness, Role::TextInput, "This view's link:");
    finger.down(&[field]);
    finger.up(&[field]);
    assert!(
        harness.ctx.text_edit_focused(),
        "the link box has the keyboard"
    );
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
    harness.event(egui::Event::Text("blending?twist=1".into()));
    harness.run_steps(1);
    harness.key_press(egui::Key::Enter);
    harness.run_steps(2);
    let link = harness.state().current_link().to_string();
    assert_eq!(link, "blending?twist=1", "the typed link opened");
}

#[test]
fn on_a_phone_upright_or_on_its_side_every_viewport_holds_nearly_half_the_height() {
    // Upright, room for a finger among the joints and ten lines of cells under it;
    // sideways, the viewport takes the whole height beside the cells.
    let mut found = Vec::new();
    for (size, least) in [(PHONE, 0.45), (PHONE_SIDEWAYS, 0.5)] {
        for slug in slugs() {
            let mut harness = on_screen(slug, size, true, false);
            harness.run_steps(4);
            let view = marks::largest_viewport(&harness.ctx).map_or(0.0, |r| r.height());
            if view < size.y * least {
                found.push(format!("{slug} at {size:?}: {view} points high"));
            }
        }
    }
    assert!(found.is_empty(), "viewports too low:\n{}", found.join("\n"));
}

#[test]
fn on_a_phone_a_focused_cell_sits_under_a_viewport_as_wide_as_the_screen() {
    // Upright, the cell goes under the viewport; on a desktop it stays beside it.
    for (size, stacked) in [(PHONE, true), (TABLET, false)] {
        let harness = on_screen("gpu?focus=cpu_gpu", size, true, false);
        let view = marks::largest_viewport(&harness.ctx).expect("a viewport is drawn");
        if stacked {
            assert!(
                view.width() >= size.x * 0.9 && view.height() >= size.y * 0.3,
                "{size:?}: the viewport spans the screen above the cell: {view:?}"
            );
        } else {
            assert!(
                view.width() < size.x * 0.75,
                "{size:?}: the viewport stays beside the cell: {view:?}"
            );
        }
        assert!(
            harness.query_by_label("Measure").is_some(),
            "{size:?}: the cell is drawn"
        );
    }
}

#[test]
fn on_a_phone_the_grip_under_the_viewport_gives_the_cells_more_room() {
    let mut harness = on_screen("hierarchy?at=check", PHONE, true, false);
    let view = |h: &Harness<'static, SkinlabApp>| {
        marks::largest_viewport(&h.ctx)
            .expect("a viewport is drawn")
            .height()
    };
    let before = view(&harness);
    let grip = harness
        .get_by_label(skinlab::app::GRIP_LABEL)
        .rect()
        .center();
    crate::kit::drag(&mut harness, grip, grip - Vec2::new(0.0, 250.0));
    harness.run_steps(4);
    let after = view(&harness);
    assert!(
        after < before - 200.0,
        "the viewport went from {before} to {after} points high"
    );
    // Not past the least share: the view stays a view.
    let grip = harness
        .get_by_label(skinlab::app::GRIP_LABEL)
        .rect()
        .center();
    crate::kit::drag(&mut harness, grip, Pos2::new(grip.x, 0.0));
    harness.run_steps(4);
    assert!(view(&harness) > PHONE.y * 0.15, "{}", view(&harness));
}
