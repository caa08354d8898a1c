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

/// Whether some widget's label contains `text`.
pub fn shows<S>(harness: &Harness<'_, S>, text: &str) -> bool {
    harness.query_all_by_label_contains(text).next().is_some()
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
        .with_context_setup(skinlab::ui::fonts::install)
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
    press_check(harness);
}

/// Presses a self-check's Check button and lets the verdict show.
pub fn press_check<S>(harness: &mut Harness<'_, S>) {
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
    assert_every_key_round_trips::<L>(&[link]);
    let queries: Vec<String> = bad.iter().map(|(k, v)| format!("{k}={v}")).collect();
    let queries: Vec<&str> = queries.iter().map(String::as_str).collect();
    assert_refused_as_declared::<L>(&queries);
}

/// `page` with every cell of its chapter drawn, after two frames: none is refused as a
/// cell the page does not have. The harness, to look for what the cells show.
pub fn every_cell_drawn<P: Page + 'static>(page: P) -> Harness<'static, P> {
    let cells = page.cells();
    let mut harness = page_harness(page, cells);
    harness.run_steps(2);
    assert!(
        harness
            .query_by_label_contains("this page has no cell")
            .is_none()
    );
    harness
}

/// Every link in `links` opens and is written back as given, and together they set
/// every key `L` declares.
pub fn assert_every_key_round_trips<L: skinlab::page::Lesson>(links: &[&str]) {
    let mut keys = std::collections::BTreeSet::new();
    for link in links {
        let parsed = skinlab::link::Link::parse(link).expect("the link parses");
        keys.extend(parsed.params.iter().map(|(key, _)| key.clone()));
        let mut page = L::default();
        skinlab::page::open(&mut page, &parsed).unwrap_or_else(|e| panic!("`{link}`: {e}"));
        assert_eq!(page.link().to_string(), *link, "written back as given");
    }
    let declared = L::PARAMS.iter().map(|p| p.key.to_owned()).collect();
    assert_eq!(keys, declared, "the links set every declared key");
}

/// Each `key=value` in `bad` is refused with what `L` declares the key expects, and the
/// page keeps its defaults.
pub fn assert_refused_as_declared<L: skinlab::page::Lesson>(bad: &[&str]) {
    for query in bad {
        let key = query.split_once('=').map_or(*query, |(key, _)| key);
        let param = L::PARAMS
            .iter()
            .find(|p| p.key == key)
            .unwrap_or_else(|| panic!("`{key}` is declared"));
        let link = format!("{}?{query}", L::INFO.slug);
        let mut page = L::default();
        let parsed = skinlab::link::Link::parse(&link).expect("the link parses");
        let err = skinlab::page::open(&mut page, &parsed)
            .expect_err(&link)
            .to_string();
        assert!(err.contains(&param.expected()), "`{link}`: {err}");
        assert_eq!(page.link(), L::default().link(), "{link}: defaults kept");
    }
}
