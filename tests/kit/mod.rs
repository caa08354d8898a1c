//! Shared helpers for driving pages like a user would (egui_kittest, no window, no GL).
#![allow(dead_code)]

use egui::{Pos2, Vec2};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use skinlab::page::Page;

/// Presses at `from`, moves in a few steps to `to`, and releases.
pub fn drag<S>(harness: &mut Harness<'_, S>, from: Pos2, to: Pos2) {
    harness.hover_at(from);
    harness.step();
    harness.drag_at(from);
    harness.step();
    for i in 1..=4 {
        harness.hover_at(from + (to - from) * (i as f32 / 4.0));
        harness.step();
    }
    harness.drop_at(to);
    harness.step();
}

/// Presses and releases at `at` without moving: a click.
pub fn click_at<S>(harness: &mut Harness<'_, S>, at: Pos2) {
    harness.hover_at(at);
    harness.step();
    harness.drag_at(at);
    harness.step();
    harness.drop_at(at);
    harness.step();
}

/// Replaces the text of the field labelled `label` with `text`.
pub fn type_into<S>(harness: &mut Harness<'_, S>, label: &str, text: &str) {
    harness.get_by_label(label).click();
    harness.run_steps(2);
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
    harness.get_by_label(label).type_text(text);
    harness.run_steps(2);
}

/// A harness showing `cells` of `page` in a left column and its viewport on the right,
/// the way the app lays a page out.
pub fn page_harness<P: Page + 'static>(
    page: P,
    cells: &'static [&'static str],
) -> Harness<'static, P> {
    let mut harness = Harness::builder()
        .with_size(Vec2::new(1280.0, 900.0))
        .build_ui_state(
            move |ui, page: &mut P| {
                ui.columns(2, |columns| {
                    egui::ScrollArea::vertical().show(&mut columns[0], |ui| {
                        for cell in cells {
                            page.cell_ui(cell, ui);
                        }
                    });
                    columns[1].set_height(800.0);
                    page.viewport_ui(&mut columns[1]);
                });
            },
            page,
        );
    harness.run_steps(2);
    harness
}

/// Types each `(field label, text)` into its field, then presses Check.
pub fn submit<S>(harness: &mut Harness<'_, S>, fields: &[(&str, &str)]) {
    for (label, text) in fields {
        type_into(harness, label, text);
    }
    harness.get_by_label("Check").click();
    harness.run_steps(2);
}

/// Each link in `bad` is refused, and the page it was opened on keeps its defaults.
pub fn assert_refused<P: Page + Default>(bad: &[&str]) {
    for link in bad {
        let mut page = P::default();
        let parsed = skinlab::link::Link::parse(link).expect("the link parses");
        assert!(
            skinlab::page::open(&mut page, &parsed).is_err(),
            "{link} is refused"
        );
        assert_eq!(page.link(), P::default().link(), "{link}: defaults kept");
    }
}

/// `link` names every key of lesson `L` at once: it opens, and is written back exactly
/// as given. Then each `(key, value)` in `bad` is refused with the message its declared
/// parameter gives, and the page keeps its defaults.
pub fn assert_declared_params<L: skinlab::page::Lesson>(link: &str, bad: &[(&str, &str)]) {
    use skinlab::link::{Link, LinkError};
    let parsed = Link::parse(link).expect("the link parses");
    let mut keys: Vec<&str> = parsed.params.iter().map(|(k, _)| k.as_str()).collect();
    keys.sort_unstable();
    let mut declared: Vec<&str> = L::PARAMS.iter().map(|p| p.key).collect();
    declared.sort_unstable();
    assert_eq!(keys, declared, "`{link}` names every key");
    let mut page = L::default();
    skinlab::page::open(&mut page, &parsed).unwrap_or_else(|e| panic!("`{link}`: {e}"));
    assert_eq!(page.link().to_string(), link, "written back as given");
    for (key, value) in bad {
        let Some(param) = L::PARAMS.iter().find(|p| p.key == *key) else {
            panic!("no parameter `{key}`");
        };
        let bad_link = format!("{}?{key}={value}", L::INFO.slug);
        let mut page = L::default();
        let err = skinlab::page::open(&mut page, &Link::parse(&bad_link).expect("parses"));
        assert_eq!(
            err,
            Err(LinkError::BadValue {
                key: (*key).to_owned(),
                value: (*value).to_owned(),
                expected: param.expected(),
            }),
            "`{bad_link}`"
        );
        assert_eq!(
            page.link(),
            L::default().link(),
            "`{bad_link}`: defaults kept"
        );
    }
}
