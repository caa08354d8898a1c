//! Looks: every page, and every link the chapters document, drawn at the sizes a class
//! sees (1280×800, and 1920×1080 in presenter mode): no text runs past the window's
//! sides.

use egui::Vec2;
use egui_kittest::Harness;
use egui_kittest::kittest::NodeT as _;
use skinlab::SkinlabApp;
use skinlab::app::PRESENTER_ZOOM;
use skinlab::page::registry;

/// Every `skinlab:` link in a chapter, as `slug?query`.
fn chapter_links(slug: &str, chapter: &str) -> Vec<String> {
    let mut links = vec![slug.to_owned()];
    for part in chapter.split("](skinlab:").skip(1) {
        if let Some(link) = part.split(')').next() {
            links.push(link.to_owned());
        }
    }
    links
}

/// Every widget with text that reaches past the side of the pane it is drawn in (the
/// notebook left of the splitter, the viewport right of it, or the window), as
/// `left..right: text`. Bounds are in pixels.
fn overflowing<S>(harness: &Harness<'_, S>, width: f32) -> Vec<String> {
    use egui::accesskit::Role;
    let root = harness.root();
    let splitter = root
        .children_recursive()
        .find(|n| n.accesskit_node().role() == Role::Splitter)
        .and_then(|n| n.accesskit_node().bounding_box());
    let mut found = Vec::new();
    for pane in root
        .children_recursive()
        .filter(|n| n.accesskit_node().role() == Role::Pane)
    {
        let nodes: Vec<_> = pane.children_recursive().collect();
        let Some(first) = nodes.iter().find_map(|n| n.accesskit_node().bounding_box()) else {
            continue;
        };
        // Which side of the splitter the pane lies on.
        let (left, right) = match splitter {
            Some(s) if first.x0 < s.x0 && first.y0 >= s.y0 => (0.0, s.x0),
            Some(s) if first.x0 >= s.x1 && first.y0 >= s.y0 => (s.x1, width as f64),
            _ => (0.0, width as f64),
        };
        for n in nodes {
            let a = n.accesskit_node();
            let texty = matches!(
                a.role(),
                Role::Label | Role::Button | Role::CheckBox | Role::TextInput | Role::RadioButton
            );
            let Some(b) = a.bounding_box() else { continue };
            if texty && (b.x1 > right + 1.0 || b.x0 < left - 1.0) {
                let text = a.label().or(a.value()).unwrap_or_default();
                found.push(format!(
                    "{:.0}..{:.0} (pane {left:.0}..{right:.0}): {}",
                    b.x0,
                    b.x1,
                    text.chars().take(50).collect::<String>()
                ));
            }
        }
    }
    found
}

/// What runs past its pane when `link` is drawn in a window of `size` pixels, in
/// presenter mode or not; `None` when the link does not open.
fn overflow_of(link: &str, size: Vec2, presenter: bool) -> Option<Vec<String>> {
    let mut app = SkinlabApp::new();
    app.paused = true;
    app.open_link(link).ok()?;
    app.set_presenter(presenter);
    // A window of `size` pixels: in presenter mode its points are larger. The harness
    // keeps its size in points, so it is given the size the window has at that zoom.
    // (A focused cell zooms again after the first frames, which the harness does not
    // follow the way a window does: focus is judged from screenshots, not here.)
    let zoom = if presenter { PRESENTER_ZOOM } else { 1.0 };
    let mut harness = Harness::builder()
        .with_size(size / zoom)
        .build_ui_state(|ui, app: &mut SkinlabApp| app.app_ui(ui), app);
    harness.run_steps(3);
    let width = harness.ctx.content_rect().width() * harness.ctx.pixels_per_point();
    Some(overflowing(&harness, width))
}

/// The sizes a class sees: a laptop, and a projector in presenter mode.
const SIZES: [(f32, f32, bool); 2] = [(1280.0, 800.0, false), (1920.0, 1080.0, true)];

#[test]
fn no_text_runs_past_the_window_on_any_documented_link() {
    let mut found = Vec::new();
    for page in registry() {
        for link in chapter_links(page.slug(), page.notebook()) {
            for (w, h, presenter) in SIZES {
                for o in overflow_of(&link, Vec2::new(w, h), presenter).unwrap_or_default() {
                    found.push(format!("{link} at {w}x{h}: {o}"));
                }
            }
        }
    }
    assert!(
        found.is_empty(),
        "{} labels past the window:\n{}",
        found.len(),
        found.join("\n")
    );
}

#[test]
fn the_overflow_check_sees_a_line_too_long_for_its_panel() {
    let mut harness = Harness::builder()
        .with_size(Vec2::new(800.0, 400.0))
        .build_ui(|ui| {
            egui::Panel::left("notebook")
                .resizable(true)
                .default_size(300.0)
                .show(ui, |ui| {
                    ui.label("fits");
                    ui.add(egui::Label::new("far too long for this panel ".repeat(8)).extend());
                });
            egui::CentralPanel::default().show(ui, |ui| ui.label("viewport"));
        });
    harness.run_steps(2);
    let found = overflowing(&harness, 800.0);
    assert!(
        found.iter().any(|f| f.contains("far too long")),
        "{found:?}"
    );
    assert!(!found.iter().any(|f| f.ends_with(": fits")), "{found:?}");
}
