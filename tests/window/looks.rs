//! Looks: every page, and every link the chapters document, drawn at the sizes a class
//! sees (1280×800, 1920×1080 in presenter mode, and the book's 750×760 iframe): no
//! text runs past the window's
//! sides, no text painted over a viewport is cut by its edge or lies on other text,
//! and no mesh leaves its viewport. Framing (on open and by the Frame button) too.

use egui::Vec2;
use egui_kittest::Harness;
use egui_kittest::kittest::NodeT as _;
use egui_kittest::kittest::Queryable as _;
use skinlab::SkinlabApp;
use skinlab::app::PRESENTER_ZOOM;
use skinlab::pages::registry;
use skinlab::ui::viewport::MeshBounds;

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

/// Every shape painted, each with the clip rectangle it is drawn in: notebook text
/// scrolled out of sight is clipped by the notebook, not by a viewport, whatever lies
/// under it.
fn shapes_of(output: &egui::FullOutput) -> Vec<(egui::Rect, &egui::Shape)> {
    fn flatten<'a>(
        shape: &'a egui::Shape,
        clip: egui::Rect,
        out: &mut Vec<(egui::Rect, &'a egui::Shape)>,
    ) {
        match shape {
            egui::Shape::Vec(shapes) => shapes.iter().for_each(|s| flatten(s, clip, out)),
            s => out.push((clip, s)),
        }
    }
    let mut shapes = Vec::new();
    for clipped in &output.shapes {
        flatten(&clipped.shape, clipped.clip_rect, &mut shapes);
    }
    shapes
}

/// The size of the text most of the visible characters below `top` are set in, in
/// points: half the characters are at least this big.
fn body_text_size(output: &egui::FullOutput, top: f32) -> f32 {
    let mut sizes = Vec::new();
    for (clip, shape) in shapes_of(output) {
        let egui::Shape::Text(text) = shape else {
            continue;
        };
        let rect = text.visual_bounding_rect();
        if rect.min.y < top || !clip.intersects(rect) || text.galley.job.text.trim().is_empty() {
            continue;
        }
        let job = &text.galley.job;
        for section in &job.sections {
            let range = section.byte_range.start.0..section.byte_range.end.0;
            let chars = job.text[range]
                .chars()
                .filter(|c| !c.is_whitespace())
                .count();
            sizes.extend(std::iter::repeat_n(section.format.font_id.size, chars));
        }
    }
    sizes.sort_by(f32::total_cmp);
    sizes.get(sizes.len() / 2).copied().unwrap_or(0.0)
}

/// Where the viewports are among `shapes`: a viewport is known by its paint callback,
/// whose rectangle is the viewport's.
fn viewports_in(shapes: &[(egui::Rect, &egui::Shape)]) -> Vec<egui::Rect> {
    shapes
        .iter()
        .filter_map(|(_, s)| match s {
            egui::Shape::Callback(c) => Some(c.rect),
            _ => None,
        })
        .collect()
}

/// Text painted into a viewport (labels, notes, banners) that the viewport's edge cuts,
/// or that lies over other text painted there: `what: text`. A viewport is known by
/// its paint callback, whose rectangle is the viewport's.
fn painted_text_problems(output: &egui::FullOutput) -> Vec<String> {
    let shapes = shapes_of(output);
    let viewports = viewports_in(&shapes);
    let short = |t: &str| t.chars().take(40).collect::<String>().replace('\n', " ");
    let mut found = Vec::new();
    for vp in viewports {
        let texts: Vec<(egui::Rect, String)> = shapes
            .iter()
            .filter(|(clip, _)| vp.expand(1.0).contains_rect(*clip))
            .filter_map(|(_, s)| match s {
                egui::Shape::Text(t) if !t.galley.is_empty() => {
                    Some((t.visual_bounding_rect(), t.galley.text().to_owned()))
                }
                _ => None,
            })
            .filter(|(r, _)| vp.contains(r.center()))
            .collect();
        for (i, (r, text)) in texts.iter().enumerate() {
            if !vp.expand(1.0).contains_rect(*r) {
                found.push(format!(
                    "cut by the viewport's edge ({:.0},{:.0}..{:.0},{:.0} in {:.0},{:.0}..{:.0},{:.0}): {}",
                    r.left(),
                    r.top(),
                    r.right(),
                    r.bottom(),
                    vp.left(),
                    vp.top(),
                    vp.right(),
                    vp.bottom(),
                    short(text)
                ));
            }
            for (other, other_text) in &texts[i + 1..] {
                let overlap = r.intersect(*other);
                let smaller = r.area().min(other.area());
                if overlap.is_positive() && overlap.area() > 0.15 * smaller {
                    found.push(format!(
                        "over each other: {} / {}",
                        short(text),
                        short(other_text)
                    ));
                }
            }
        }
    }
    found
}

/// Monospaced text (a formula, a vector, a row of numbers) that egui wrapped inside:
/// after an operator (`v' = Σ w · G ·` with its last `v` on the next line), inside
/// brackets (a vector cut between its coordinates) or inside a word. Words of a
/// sentence may wrap between them, and lines broken on purpose (at a newline) are
/// fine. `breaks inside: the line up to the break`.
fn broken_inside(output: &egui::FullOutput) -> Vec<String> {
    use skinlab::ui::listing::OPERATORS;
    shapes_of(output)
        .into_iter()
        .filter_map(|(clip, s)| match s {
            egui::Shape::Text(t) => Some((clip, t)),
            _ => None,
        })
        .filter(|(clip, t)| {
            let job = &t.galley.job;
            !job.sections.is_empty()
                && job
                    .sections
                    .iter()
                    .all(|s| s.format.font_id.family == egui::FontFamily::Monospace)
                && clip.intersects(t.visual_bounding_rect())
        })
        .flat_map(|(_, t)| {
            let rows = &t.galley.rows;
            let mut found = Vec::new();
            let mut line = String::new();
            for (i, row) in rows.iter().enumerate() {
                let before = line.len();
                line.extend(row.row.glyphs.iter().map(|g| g.chr));
                let Some(next) = rows.get(i + 1) else { break };
                if row.ends_with_newline {
                    line.clear();
                    continue;
                }
                // A row left empty (the first word did not fit at all) splits nothing.
                if line[before..].trim().is_empty() {
                    continue;
                }
                let depth = line.chars().fold(0i32, |d, c| match c {
                    '(' | '[' => d + 1,
                    ')' | ']' => d - 1,
                    _ => d,
                });
                let last = line.split_whitespace().last().unwrap_or("");
                let mid_word = !line.ends_with(char::is_whitespace)
                    && next
                        .row
                        .glyphs
                        .first()
                        .is_some_and(|g| !g.chr.is_whitespace());
                if depth > 0 || OPERATORS.contains(&last) || mid_word {
                    found.push(format!("breaks inside: {}", line.trim()));
                }
            }
            found
        })
        .collect()
}

/// Text that egui cut short to fit its place, ending it with an ellipsis: a label a
/// reader cannot read whole. `cut to an ellipsis: text`.
fn elided_text(output: &egui::FullOutput) -> Vec<String> {
    shapes_of(output)
        .into_iter()
        .filter_map(|(_, s)| match s {
            egui::Shape::Text(t) if t.galley.elided => Some(format!(
                "cut to an ellipsis: {}",
                t.galley.text().chars().take(40).collect::<String>()
            )),
            _ => None,
        })
        .collect()
}

/// Text painted on the page (anything outside a viewport, whose scene sets its own
/// colours) that reads below WCAG's 4.5:1 on what is under it, or below 3:1 for large
/// text (24 points or more): a hint or caption a hall cannot read. Under it is the
/// section's own background (inline code), else the last filled rectangle painted
/// under its middle (a button, a selected label, a code block), else the page,
/// `page`. Text on a widget in `disabled` is greyed out on purpose, and left alone, as
/// WCAG leaves it. `reads at R:1: text`.
fn faint_text(
    output: &egui::FullOutput,
    page: egui::Color32,
    disabled: &[egui::Rect],
) -> Vec<String> {
    use skinlab::ui::painted_over;
    let shapes = shapes_of(output);
    let viewports = viewports_in(&shapes);
    let mut found = Vec::new();
    for (i, (clip, shape)) in shapes.iter().enumerate() {
        let egui::Shape::Text(t) = shape else {
            continue;
        };
        let rect = t.visual_bounding_rect();
        if !clip.intersects(rect)
            || t.opacity_factor <= 0.0
            || viewports.iter().any(|vp| vp.intersect(rect).is_positive())
            || disabled.iter().any(|d| d.contains(rect.center()))
        {
            continue;
        }
        let under = shapes[..i]
            .iter()
            .rev()
            .find_map(|(_, s)| match s {
                egui::Shape::Rect(r) if r.fill.a() > 0 && r.rect.contains(rect.center()) => {
                    Some(painted_over(r.fill, page))
                }
                _ => None,
            })
            .unwrap_or(page);
        let job = &t.galley.job;
        for section in &job.sections {
            let text = &job.text[section.byte_range.start.0..section.byte_range.end.0];
            if text.trim().is_empty() {
                continue;
            }
            let ink = t.override_text_color.unwrap_or(
                if section.format.color == egui::Color32::PLACEHOLDER {
                    t.fallback_color
                } else {
                    section.format.color
                },
            );
            let back = painted_over(section.format.background, under);
            let ink = painted_over(ink.gamma_multiply(t.opacity_factor), back);
            let ratio = skinlab::ui::contrast(ink, back);
            let least = if section.format.font_id.size >= 24.0 {
                3.0
            } else {
                4.5
            };
            if ratio < least {
                found.push(format!(
                    "reads at {ratio:.1}:1 ({ink:?} on {back:?}): {}",
                    text.chars().take(40).collect::<String>().replace('\n', " ")
                ));
            }
        }
    }
    found
}

/// Text that runs past the right edge of the area it is clipped to (a table cell, a
/// panel): its end is hidden, though nothing leaves the window. A text field in
/// `fields` scrolls its text, as fields do, and is left alone. `cut at the right:
/// text`.
fn clipped_text(output: &egui::FullOutput, fields: &[egui::Rect]) -> Vec<String> {
    shapes_of(output)
        .into_iter()
        .filter(|(clip, _)| !fields.iter().any(|f| f.expand(2.0).contains(clip.center())))
        .filter_map(|(clip, s)| match s {
            egui::Shape::Text(t) => {
                let r = t.visual_bounding_rect();
                let cut = r.right() > clip.right() + 2.0 && r.left() < clip.right();
                let seen = r.bottom() > clip.top() && r.top() < clip.bottom();
                (cut && seen && !t.galley.is_empty()).then(|| {
                    format!(
                        "cut at the right ({:.0} past {:.0}): {}",
                        r.right(),
                        clip.right(),
                        t.galley.text().chars().take(40).collect::<String>()
                    )
                })
            }
            _ => None,
        })
        .collect()
}

/// Each viewport whose skinned meshes reach past its edges, with by how much.
fn meshes_out_of_frame(ctx: &egui::Context) -> Vec<String> {
    MeshBounds::of(ctx)
        .into_iter()
        .filter_map(|drawn| {
            let (vp, mesh) = (drawn.viewport, drawn.mesh?);
            let past = [
                vp.left() - mesh.left(),
                mesh.right() - vp.right(),
                vp.top() - mesh.top(),
                mesh.bottom() - vp.bottom(),
            ];
            (past.iter().any(|p| *p > 2.0)).then(|| {
                format!(
                    "the mesh leaves its viewport by {:.0} left, {:.0} right, {:.0} up, {:.0} down",
                    past[0].max(0.0),
                    past[1].max(0.0),
                    past[2].max(0.0),
                    past[3].max(0.0)
                )
            })
        })
        .collect()
}

/// Each viewport label that a reader could pair with the wrong mark or cannot read:
/// one nearer another mark than its own with no leader line to say which is its own,
/// a leader that crosses another mark, one over another mark, one that neither
/// touches its mark nor has a leader line to it, and one whose text reads at under
/// 4.5:1 on what is under it (its card, or the viewport's background; a label on a
/// mesh with no card has no background it can be sure of).
fn label_problems(ctx: &egui::Context) -> Vec<String> {
    MeshBounds::of(ctx)
        .iter()
        .flat_map(|drawn| {
            labels_wrong(
                drawn.viewport,
                &drawn.labels,
                &drawn.marks,
                drawn.background,
            )
        })
        .collect()
}

/// [`label_problems`] of one viewport: its rectangle, labels, marks and background. A
/// label of a point off the view is wrong too: held at the view's edge, it names
/// nothing there.
fn labels_wrong(
    viewport: egui::Rect,
    labels: &[skinlab::ui::labels::Placed],
    marks: &[egui::Rect],
    background: egui::Color32,
) -> Vec<String> {
    use skinlab::ui::labels::{distance, mark_distance};
    let mut found = Vec::new();
    {
        for label in labels {
            let (rect, own) = (label.spot.rect, label.spot.mark);
            let mine = mark_distance(rect, own);
            let text: String = label.text.chars().take(30).collect();
            let leader = label.spot.leader_line(label.at);
            let others = marks.iter();
            for other in others.filter(|m| !m.contains(label.at) && !own.contains_rect(**m)) {
                // A leader line names the mark, so long as it passes no other.
                if let Some(line) = leader {
                    if skinlab::ui::labels::crosses(line, other.shrink(1.0)) {
                        found.push(format!(
                            "`{text}`'s leader crosses a mark at {:.0?}",
                            other.center()
                        ));
                        break;
                    }
                } else if mark_distance(rect, *other) + 0.5 < mine {
                    found.push(format!(
                        "`{text}` is {:.0} pt from a mark at {:.0?} and {mine:.0} pt from its own at {:.0?}",
                        mark_distance(rect, *other),
                        other.center(),
                        own.center()
                    ));
                    break;
                }
                if other.intersects(rect.shrink(1.0)) {
                    found.push(format!(
                        "`{text}` lies over a mark at {:.0?}",
                        other.center()
                    ));
                    break;
                }
            }
            if !viewport.expand(1.0).contains(label.at) {
                found.push(format!(
                    "`{text}` names a mark outside the view, at {:.0?}",
                    label.at
                ));
            } else if !label.spot.leader
                && distance(rect, own) > skinlab::ui::labels::touching(10.0)
            {
                found.push(format!(
                    "`{text}` is {mine:.0} pt from its mark, with no leader"
                ));
            }
            let under = match label.card {
                Some(card) => Some(skinlab::ui::painted_over(card, background)),
                None => (!label.spot.on_mesh).then_some(background),
            };
            match under {
                Some(under) if skinlab::ui::contrast(label.color, under) < 4.5 => {
                    found.push(format!(
                        "`{text}` reads at {:.1}:1",
                        skinlab::ui::contrast(label.color, under)
                    ))
                }
                Some(_) => {}
                None => found.push(format!("`{text}` lies on a mesh with no card under it")),
            }
        }
    }
    found
}

/// What runs past its pane when `link` is drawn in a window of `size` pixels, in
/// presenter mode or not, and what painted text a viewport cuts or stacks; `None`
/// when the link does not open.
fn overflow_of(link: &str, size: Vec2, mode: Mode) -> Option<Vec<String>> {
    let presenter = mode == Mode::Presenter;
    let mut app = SkinlabApp::new();
    app.paused = true;
    app.open_link(link).ok()?;
    app.set_presenter(presenter);
    app.set_embedded(mode == Mode::Book);
    // A window of `size` pixels. Its first frame is laid out at zoom 1, as a window's
    // is, and sets the zoom; from then on the window is `size / zoom` points, which
    // the harness, keeping its size in points, is told. (A focused cell zooms again,
    // which the harness does not follow the way a window does: focus is judged from
    // screenshots, not here.)
    let zoom = if presenter { PRESENTER_ZOOM } else { 1.0 };
    // The desktop app under a dark system theme, the book in mdBook's light one.
    let theme = if mode == Mode::Book {
        egui::Theme::Light
    } else {
        egui::Theme::Dark
    };
    let mut harness = Harness::builder()
        .with_context_setup(|ctx| {
            skinlab::ui::fonts::install(ctx);
            MeshBounds::record(ctx);
        })
        .with_theme(theme)
        .with_size(size)
        .build_ui_state(|ui, app: &mut SkinlabApp| app.app_ui(ui), app);
    harness.set_size(size / zoom);
    harness.run_steps(3);
    let width = harness.ctx.content_rect().width() * harness.ctx.pixels_per_point();
    let mut found = overflowing(&harness, width);
    found.extend(painted_text_problems(harness.output()));
    found.extend(elided_text(harness.output()));
    found.extend(faint_text(
        harness.output(),
        harness.ctx.global_style().visuals.panel_fill,
        &disabled_widgets(&harness),
    ));
    let fields = text_fields(&harness);
    found.extend(clipped_text(harness.output(), &fields));
    found.extend(broken_inside(harness.output()));
    found.extend(meshes_out_of_frame(&harness.ctx));
    found.extend(label_problems(&harness.ctx));
    Some(found)
}

/// Where the disabled widgets are: greyed out on purpose.
fn disabled_widgets<S>(harness: &Harness<'_, S>) -> Vec<egui::Rect> {
    harness
        .root()
        .children_recursive()
        .filter(|n| n.accesskit_node().is_disabled())
        .map(|n| n.rect())
        .collect()
}

/// Where the text fields are: they scroll their text, as fields do.
fn text_fields<S>(harness: &Harness<'_, S>) -> Vec<egui::Rect> {
    harness
        .root()
        .children_recursive()
        .filter(|n| n.accesskit_node().role() == egui::accesskit::Role::TextInput)
        .map(|n| n.rect())
        .collect()
}

/// How the app is shown.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Mode {
    /// A window on a laptop.
    Window,
    /// A projector, in presenter mode.
    Presenter,
    /// Embedded in a page of the book: an iframe as wide as the book's text column
    /// (mdBook's 750 pixels) and 760 high, as the book writes it.
    Book,
}

/// The sizes a class sees: a laptop, a projector in presenter mode, and the book.
const SIZES: [(f32, f32, Mode); 3] = [
    (1280.0, 800.0, Mode::Window),
    (1920.0, 1080.0, Mode::Presenter),
    (750.0, 760.0, Mode::Book),
];

#[test]
fn no_text_runs_past_the_window_on_any_documented_link() {
    // `LOOKS_PAGE=grid` checks one page's links only, while fixing it.
    let only = std::env::var("LOOKS_PAGE").ok();
    let mut found = Vec::new();
    for page in registry() {
        if only.as_ref().is_some_and(|only| only != page.slug()) {
            continue;
        }
        for link in chapter_links(page.slug(), page.notebook()) {
            for (w, h, mode) in SIZES {
                for o in overflow_of(&link, Vec2::new(w, h), mode).unwrap_or_default() {
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
fn every_label_sits_on_its_mark_on_every_documented_link_after_ctrl_plus_three_times() {
    // At 1280×800, 1920×1080 in presenter mode and in the book, the test above checks
    // the labels with the rest; here the laptop's text is made larger three times, which
    // once scattered the grid's labels from their dots.
    let only = std::env::var("LOOKS_PAGE").ok();
    let mut found = Vec::new();
    for link in crate::common::documented_links() {
        if only
            .as_ref()
            .is_some_and(|only| !link.starts_with(only.as_str()))
        {
            continue;
        }
        let size = Vec2::new(1280.0, 800.0);
        let mut harness = app_on(&link, 2);
        for _ in 0..3 {
            harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Plus);
            harness.set_size(size / harness.ctx.zoom_factor());
            harness.run_steps(2);
        }
        assert!(
            harness.ctx.zoom_factor() > 1.2,
            "{link}: Ctrl + did not zoom"
        );
        for problem in label_problems(&harness.ctx) {
            found.push(format!("{link} at Ctrl + ×3: {problem}"));
        }
    }
    assert!(
        found.is_empty(),
        "{} labels:\n{}",
        found.len(),
        found.join("\n")
    );
}

#[test]
fn an_arrow_that_runs_out_of_the_view_loses_its_label() {
    // The wheel brings the view near the origin: the arrows' tips leave it.
    let mut harness = app_on("xray", 3);
    let view = MeshBounds::of(&harness.ctx)[0].viewport;
    harness.hover_at(view.center());
    harness.run_steps(2);
    for _ in 0..4 {
        crate::common::wheel(&mut harness, 600.0);
        harness.run_steps(10);
    }
    let problems = label_problems(&harness.ctx);
    assert!(problems.is_empty(), "{problems:?}");
    let drawn = MeshBounds::of(&harness.ctx);
    assert!(
        drawn[0].labels.len() < 3,
        "the view did not come near enough to lose an arrowhead"
    );
}

#[test]
fn the_label_check_sees_a_label_nearer_another_mark_one_far_one_too_faint_and_one_of_no_mark() {
    use skinlab::ui::labels::{Placed, Spot};
    let dot = |x: f32| egui::Rect::from_center_size(egui::pos2(x, 100.0), Vec2::splat(10.0));
    let label = |text: &str, at: f32, left: f32, leader: bool, color: egui::Color32| Placed {
        text: text.to_owned(),
        at: egui::pos2(at, 100.0),
        spot: Spot {
            rect: egui::Rect::from_min_size(egui::pos2(left, 92.0), egui::vec2(40.0, 16.0)),
            mark: dot(at),
            leader,
            on_mesh: false,
        },
        color,
        card: None,
    };
    let paper = egui::Color32::from_gray(245);
    let view = egui::Rect::from_min_size(egui::Pos2::ZERO, Vec2::new(400.0, 300.0));
    let ink = egui::Color32::from_gray(20);
    let marks = [dot(100.0), dot(160.0), dot(300.0)];
    // Right beside its own dot, in dark ink: nothing wrong.
    assert!(labels_wrong(view, &[label("a", 100.0, 60.0, false, ink)], &marks, paper).is_empty());
    // Written hard against the next dot.
    let near = labels_wrong(view, &[label("a", 100.0, 112.0, false, ink)], &marks, paper);
    assert!(near.iter().any(|f| f.contains("from a mark")), "{near:?}");
    // Far from its dot with no leader; with one, fine.
    let far = labels_wrong(view, &[label("c", 300.0, 220.0, false, ink)], &marks, paper);
    assert!(far.iter().any(|f| f.contains("no leader")), "{far:?}");
    assert!(labels_wrong(view, &[label("c", 300.0, 220.0, true, ink)], &marks, paper).is_empty());
    // A leader from the first dot past the second to a label beyond it.
    let past = labels_wrong(view, &[label("a", 100.0, 180.0, true, ink)], &marks, paper);
    assert!(
        past.iter().any(|f| f.contains("leader crosses")),
        "{past:?}"
    );
    // The mark gone past the view's edge, its label held inside.
    let gone = labels_wrong(view, &[label("z", 430.0, 350.0, false, ink)], &marks, paper);
    assert!(
        gone.iter().any(|f| f.contains("outside the view")),
        "{gone:?}"
    );
    // Pale grey on paper.
    let faint = egui::Color32::from_gray(190);
    let pale = labels_wrong(
        view,
        &[label("a", 100.0, 60.0, false, faint)],
        &marks,
        paper,
    );
    assert!(pale.iter().any(|f| f.contains("reads at")), "{pale:?}");
}

#[test]
fn the_overflow_check_sees_a_line_too_long_for_its_panel() {
    let mut harness = Harness::builder()
        .with_context_setup(skinlab::ui::fonts::install)
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

/// A 600×400 window in the app's fonts that draws `ui` once: what a check of the
/// painted text is tried on.
fn drawn_once(ui: impl FnMut(&mut egui::Ui) + 'static) -> Harness<'static> {
    let mut harness = Harness::builder()
        .with_context_setup(skinlab::ui::fonts::install)
        .with_size(Vec2::new(600.0, 400.0))
        .build_ui(ui);
    harness.run_steps(1);
    harness
}

#[test]
fn the_painted_text_check_sees_a_cut_label_and_two_labels_on_each_other() {
    let harness = drawn_once(|ui| {
        // A stand-in viewport: a paint callback's rectangle, as a real one has.
        let rect = egui::Rect::from_min_size(egui::pos2(100.0, 100.0), Vec2::splat(200.0));
        ui.painter().add(egui::PaintCallback {
            rect,
            callback: std::sync::Arc::new(()),
        });
        // Drawn as a viewport's labels are: clipped to it.
        let painter = ui.painter_at(rect);
        let font = egui::FontId::proportional(16.0);
        let ink = egui::Color32::BLACK;
        let text = |at: egui::Pos2, s: &str| {
            painter.text(at, egui::Align2::LEFT_TOP, s, font.clone(), ink);
        };
        text(egui::pos2(120.0, 120.0), "alone");
        text(egui::pos2(235.0, 200.0), "past the edge");
        text(egui::pos2(120.0, 250.0), "first");
        text(egui::pos2(124.0, 252.0), "second");
    });
    let found = painted_text_problems(harness.output());
    assert!(
        found
            .iter()
            .any(|f| f.contains("edge") && f.ends_with("past the edge")),
        "{found:?}"
    );
    assert!(
        found.iter().any(|f| f.contains("first / second")),
        "{found:?}"
    );
    assert!(!found.iter().any(|f| f.contains("alone")), "{found:?}");
}

#[test]
fn the_ellipsis_check_sees_a_label_cut_short() {
    let harness = drawn_once(|ui| {
        ui.label("whole");
        ui.add_sized(
            [40.0, 20.0],
            egui::Label::new("a label far too long for forty points").truncate(),
        );
    });
    let found = elided_text(harness.output());
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].contains("a label far too long"), "{found:?}");
}

#[test]
fn the_faint_text_check_sees_a_grey_hint_a_bare_red_and_colour_on_a_selection_but_not_a_greyed_out_button()
 {
    // egui's own dark theme: a hint reads at 2.7:1, a red label at 4.3:1.
    let harness = drawn_once(|ui| {
        ui.label("prose");
        ui.label(egui::RichText::new("a quiet hint").weak());
        ui.colored_label(egui::Color32::RED, "a red warning");
        let red = skinlab::ui::legible(ui, egui::Color32::RED);
        ui.colored_label(red, "a red made legible");
        ui.add_enabled(false, egui::Button::new("greyed out"));
        // Purple that reads on the page, not on the selection's blue under it.
        let purple = egui::RichText::new("picked").color(egui::Color32::from_rgb(190, 100, 215));
        let _ = ui.selectable_label(true, purple);
        let _ = ui.selectable_label(true, "picked in the selection's own colour");
    });
    let page = harness.ctx.global_style().visuals.panel_fill;
    let found = faint_text(harness.output(), page, &disabled_widgets(&harness));
    assert_eq!(found.len(), 3, "{found:?}");
    assert!(found[0].contains("a quiet hint"), "{found:?}");
    assert!(found[1].contains("a red warning"), "{found:?}");
    assert!(found[2].contains("picked"), "{found:?}");
}

/// The app on `link` in a 1280×800 window, its meshes' bounds kept, after `frames`.
fn app_on(link: &str, frames: usize) -> Harness<'static, SkinlabApp> {
    let mut app = SkinlabApp::new();
    app.paused = true;
    app.open_link(link).unwrap();
    let mut harness = Harness::builder()
        .with_context_setup(|ctx| {
            skinlab::ui::fonts::install(ctx);
            MeshBounds::record(ctx);
        })
        .with_size(Vec2::new(1280.0, 800.0))
        .build_ui_state(|ui, app: &mut SkinlabApp| app.app_ui(ui), app);
    harness.run_steps(frames);
    harness
}

/// The viewport and its meshes' bounds in the last frame.
fn framed(harness: &Harness<'_, SkinlabApp>) -> (egui::Rect, egui::Rect) {
    MeshBounds::of(&harness.ctx)
        .into_iter()
        .find_map(|d| Some((d.viewport, d.mesh?)))
        .expect("a viewport drew a mesh")
}

#[test]
fn a_link_whose_mesh_leaves_the_view_opens_framed_and_keeps_its_link() {
    let link = "grid?angle=0&forget_inverse_bind=true";
    let harness = app_on(link, 4);
    let (vp, mesh) = framed(&harness);
    assert!(vp.contains_rect(mesh), "{mesh:?} in {vp:?}");
    assert_eq!(harness.state().current_link().to_string(), link);
}

#[test]
fn the_frame_button_fits_a_far_camera_to_the_mesh() {
    // The blending arm from far away: a speck in the middle of the view.
    let mut harness = app_on("blending?camera=0.6,0.45,120,0.9,0.6,0.4", 3);
    let (vp, before) = framed(&harness);
    assert!(before.width() < vp.width() * 0.2, "{before:?} in {vp:?}");
    harness.get_by_label("Frame").click();
    harness.run_steps(5);
    let (vp, after) = framed(&harness);
    assert!(vp.expand(2.0).contains_rect(after), "{after:?} in {vp:?}");
    let fill = (after.width() / vp.width()).max(after.height() / vp.height());
    assert!(fill > 0.6, "the mesh fills {fill:.2} of the view");
}

/// A projector's screen, in pixels.
const PROJECTOR: Vec2 = Vec2::new(1920.0, 1080.0);

/// `link` in a 1920×1080 window in presenter mode, with the meshes' places recorded,
/// stepped the way a window follows the zoom (after each frame the window is as many
/// points as its pixels at the app's zoom: focus mode zooms beyond presenter mode's)
/// and, as `--screenshot` does, a few frames and then on until the layout settles (a
/// focused cell's fit, the framing), as a viewer's eye waits for it.
fn on_projector(link: &str) -> Result<Harness<'static, SkinlabApp>, skinlab::link::LinkError> {
    on_screen(link, PROJECTOR)
}

/// [`on_projector`] on a screen of `size` pixels.
fn on_screen(
    link: &str,
    size: Vec2,
) -> Result<Harness<'static, SkinlabApp>, skinlab::link::LinkError> {
    let mut app = SkinlabApp::new();
    app.paused = true;
    app.set_presenter(true);
    app.open_link(link)?;
    let mut harness = Harness::builder()
        .with_context_setup(|ctx| {
            skinlab::ui::fonts::install(ctx);
            MeshBounds::record(ctx);
        })
        .with_size(size)
        .build_ui_state(|ui, app: &mut SkinlabApp| app.app_ui(ui), app);
    for frame in 0..60 {
        harness.set_size(size / harness.ctx.zoom_factor());
        harness.run_steps(1);
        if frame >= 4 && harness.state().settled() {
            break;
        }
    }
    Ok(harness)
}

/// What is wrong with `link` drawn [`on_projector`].
fn projector_problems(link: &str, whole: bool) -> Vec<String> {
    screen_problems(link, whole, PROJECTOR)
}

/// What is wrong with `link` drawn [`on_screen`] of `size`.
fn screen_problems(link: &str, whole: bool, size: Vec2) -> Vec<String> {
    let harness = match on_screen(link, size) {
        Ok(harness) => harness,
        Err(e) => return vec![format!("does not open: {e}")],
    };
    let ppp = harness.ctx.pixels_per_point();
    let width = harness.ctx.content_rect().width() * ppp;
    let mut problems = overflowing(&harness, width);
    problems.extend(painted_text_problems(harness.output()));
    problems.extend(faint_text(
        harness.output(),
        harness.ctx.global_style().visuals.panel_fill,
        &disabled_widgets(&harness),
    ));
    let fields = text_fields(&harness);
    problems.extend(clipped_text(harness.output(), &fields));
    problems.extend(broken_inside(harness.output()));
    problems.extend(meshes_out_of_frame(&harness.ctx));
    // Focus mode is for the back row: most of what it shows, below the top bar, is set
    // at 3% of the screen's height or more, and nothing beside the focused cell (the
    // viewport, its caption) is below the screen. A tall cell may scroll; a moment of
    // the lecture deck may not (`whole`). A listing that scrolls within the cell does.
    if harness.state().focus().is_some() {
        let splitter = harness
            .root()
            .children_recursive()
            .find(|n| n.accesskit_node().role() == egui::accesskit::Role::Splitter)
            .and_then(|n| n.accesskit_node().bounding_box())
            // A cell with the whole width (code) has nothing beside it.
            .map_or(f64::INFINITY, |s| s.x1);
        // Code is set to fit its longest line, down to 2.5% of the height; the rest
        // down to 3%.
        let app = harness.state();
        let code = app
            .focus()
            .is_some_and(|cell| app.current_page().full_width(cell));
        let floor = if code { 0.025 } else { 0.03 };
        let body = body_text_size(harness.output(), 0.1 * size.y / ppp) * ppp;
        if body < floor * size.y - 0.5 {
            problems.push(format!(
                "body text is {body:.1} px, {:.1}% of the screen's height",
                100.0 * body / size.y
            ));
        }
        let below: Vec<String> = harness
            .root()
            .children_recursive()
            .filter_map(|n| {
                let b = n.accesskit_node().bounding_box()?;
                let text = n.accesskit_node().label().or(n.accesskit_node().value())?;
                (b.y1 > f64::from(size.y) + 1.0 && b.x0 >= splitter && !text.trim().is_empty())
                    .then(|| text.chars().take(40).collect())
            })
            .collect();
        let overflow = harness.state().focus_overflow();
        if whole && overflow.y > 1.0 {
            problems.push(format!(
                "the focused cell is {:.0} points taller than its pane: the lecturer would scroll",
                overflow.y
            ));
        }
        if let Some(first) = below.first() {
            problems.push(format!(
                "{} pieces of text are below the screen, from `{first}`: the lecturer would scroll",
                below.len()
            ));
        }
    }
    problems
        .into_iter()
        .map(|p| format!("{link} at {}x{}: {p}", size.x, size.y))
        .collect()
}

/// Fails with every problem [`projector_problems`] finds on `links` (`whole`: a
/// focused cell may not scroll).
fn assert_fit_on_projector(links: &[&str], whole: bool) {
    let found: Vec<String> = (links.iter())
        .flat_map(|link| projector_problems(link, whole))
        .collect();
    assert!(found.is_empty(), "{}", found.join("\n"));
}

#[test]
fn in_presenter_mode_a_viewport_caption_is_set_at_body_size() {
    let harness = on_projector("blending").expect("opens");
    let size_of = |start: &str| {
        shapes_of(harness.output())
            .into_iter()
            .find_map(|(_, shape)| match shape {
                egui::Shape::Text(t) if t.galley.job.text.starts_with(start) => {
                    Some(t.galley.job.sections[0].format.font_id.size)
                }
                _ => None,
            })
            .unwrap_or_else(|| panic!("no `{start}`"))
    };
    let caption = size_of("Drawn by the skinning shaders");
    let body = size_of("A vertex near the elbow");
    assert!(caption >= body, "caption {caption}, body {body}");
}

#[test]
fn the_moments_a_lecturer_found_cut_fit_the_projector_once_settled() {
    // Each was cut at the right or the bottom in a window, though laid out whole here
    // after four frames: the window had not settled.
    assert_fit_on_projector(
        &[
            "grid?angle=0.8&bone=1&focus=bone",
            "binding?stage=bind_space&focus=bind_space",
            "hierarchy?focus=tree",
        ],
        true,
    );
}

#[test]
fn focused_formulas_and_vectors_never_break_inside_on_a_projector() {
    // Each broke inside once: a formula before its last `v`, a quaternion's row before
    // its last angle, a vertex row before its last coordinate.
    assert_fit_on_projector(
        &[
            "pipeline?focus=pipeline",
            "interpolation?circle=0.7,4.4&shortest=false&focus=half_angle",
            "model?clip=Wave&t=0.5&vertex=100&focus=vertex",
        ],
        false,
    );
}

#[test]
fn a_focused_slide_fits_with_the_deck_bar_shown() {
    // Two moments a lecturer found scrolling once their deck's bar took a row.
    let deck = std::env::temp_dir().join(format!("skinlab-looks-{}.txt", std::process::id()));
    std::fs::write(
        &deck,
        "binding?stage=bind_space&focus=bind_space  Bind space\n\
         hierarchy?joint=hand.L&rot=upper_arm.L:0,0,1.2&scrub=1&focus=chain  The chain\n",
    )
    .expect("a deck written");
    // The chain is seven steps long: on a slide, while it is scrubbed, only the step
    // just applied shows its matrices, and it fits too.
    let found: Vec<String> = (1..=2)
        .flat_map(|n| projector_problems(&format!("pipeline?deck={}:{n}", deck.display()), true))
        .collect();
    let _ = std::fs::remove_file(&deck);
    assert!(found.is_empty(), "{}", found.join("\n"));
}

#[test]
fn presenter_mode_fits_a_720p_and_a_4k_projector_as_it_fits_1080p() {
    // Presenter mode scales to the screen's height, as slides do: the moments cut
    // once and every slide of the lecture fit the small projector and the large one,
    // text at the same share of the height.
    let deck = skinlab::deck::Deck::bundled("lecture").expect("the bundled deck");
    let links = [
        "grid?angle=0.8&bone=1&focus=bone",
        "binding?stage=bind_space&focus=bind_space",
        "hierarchy?focus=tree",
        "binding?focus=forget",
    ]
    .into_iter()
    .map(str::to_owned)
    .chain(deck.slides.iter().map(|s| s.link.clone()));
    let mut found = Vec::new();
    for link in links {
        for size in [Vec2::new(1280.0, 720.0), Vec2::new(3840.0, 2160.0)] {
            found.extend(screen_problems(&link, true, size));
        }
    }
    assert!(found.is_empty(), "{}", found.join("\n"));
    // The same layout in points on each: the 1080p checks speak for all three.
    let points = |size: Vec2| {
        let harness = on_screen("grid?angle=0.8&bone=1&focus=bone", size).expect("opens");
        harness.ctx.content_rect().size()
    };
    let full_hd = points(PROJECTOR);
    for size in [Vec2::new(1280.0, 720.0), Vec2::new(3840.0, 2160.0)] {
        let here = points(size);
        assert!(
            (here - full_hd).length() < 2.0,
            "{size:?} lays out {here:?} points, 1920x1080 {full_hd:?}"
        );
    }
}

#[test]
fn a_focused_cell_leaves_the_viewport_beside_it_most_of_the_height() {
    // The forgotten-inverse-bind cell is short; the pane beside it carries the stage
    // picker, three sliders and a long caption. The caption folds, so the picture is
    // not a strip.
    let harness = on_projector("binding?focus=forget").expect("the link opens");
    let screen = harness.ctx.content_rect();
    let drawn = MeshBounds::of(&harness.ctx);
    let view = drawn
        .iter()
        .map(|d| d.viewport)
        .max_by(|a, b| a.area().total_cmp(&b.area()))
        .expect("a viewport is drawn");
    // It was a fifth of the screen's height; the top bar, the stage picker and the
    // three sliders keep it from much more than two fifths.
    assert!(
        view.height() > 0.4 * screen.height(),
        "the viewport is {:.0} of {:.0} points high",
        view.height(),
        screen.height()
    );
    harness.get_by_label("About this view");
}

#[test]
fn a_scrubbed_chain_opens_on_the_step_just_applied() {
    let link = "hierarchy?joint=hand.L&rot=upper_arm.L:0,0,1.2&scrub=1&focus=chain";
    assert_eq!(projector_problems(link, false), Vec::<String>::new());
    let harness = on_projector(link).expect("the link opens");
    let step = harness.get_by_label_contains("just applied").rect();
    let screen = harness.ctx.content_rect();
    assert!(
        screen.contains_rect(step),
        "the step just applied, {step:?}, is on the screen {screen:?}"
    );
}

#[test]
fn focused_code_takes_the_whole_screen_in_type_a_hall_can_read() {
    let link = "gpu?source=blend&beside=blend_dqs&focus=source";
    assert_eq!(projector_problems(link, false), Vec::<String>::new());
    let harness = on_projector(link).expect("the link opens");
    let screen = harness.ctx.content_rect();
    // No viewport beside the code: no divider, no picture.
    let splitters = harness
        .root()
        .children_recursive()
        .filter(|n| n.accesskit_node().role() == egui::accesskit::Role::Splitter)
        .count();
    assert_eq!(splitters, 0, "the code has the whole width");
    // It opens on the code, the files' opening comments folded away.
    assert!(harness.query_by_label_contains("opening comment").is_some());
    let code = harness
        .get_by_label_contains("blended_matrix += u_palette")
        .rect();
    assert!(
        screen.contains_rect(code),
        "the blend loop is on screen: {code:?}"
    );
    // A line both files share sits level, one in each half of the screen.
    let shared: Vec<egui::Rect> = harness
        .query_all_by_label_contains("for (int i = 0; i < 4; ++i) {")
        .map(|n| n.rect())
        .collect();
    assert_eq!(shared.len(), 2, "{shared:?}");
    assert!(
        (shared[0].top() - shared[1].top()).abs() < 1.0,
        "level: {shared:?}"
    );
    let middle = screen.center().x;
    assert!(
        shared[0].right() <= middle && shared[1].left() >= middle - 8.0,
        "{shared:?}"
    );
    // The type: at least 2.5% of the screen's height, in pixels.
    let ppp = harness.ctx.pixels_per_point();
    let size = body_text_size(harness.output(), 0.0) * ppp;
    assert!(
        size >= 0.025 * 1080.0 - 0.5,
        "the listing is set at {size:.1} px"
    );
}

#[test]
fn a_link_can_point_at_a_line_of_the_shader() {
    let harness = on_projector("gpu?source=main&line=40&focus=source").expect("opens");
    let screen = harness.ctx.content_rect();
    let line = harness
        .get_by_label_contains("if (u_position_w == 1)")
        .rect();
    assert!(screen.contains_rect(line), "line 40 is on screen: {line:?}");
    let harness = on_projector("gpu?source=blend&line=999&focus=source").expect("opens");
    assert!(harness.query_by_label_contains("past the end").is_some());
}

#[test]
fn every_moment_of_the_lecture_deck_fits_a_projector() {
    // Opened as a deck opens them, with the deck's bar in the top bar.
    let deck = skinlab::deck::Deck::bundled("lecture").expect("the bundled deck");
    let found: Vec<String> = (1..=deck.slides.len())
        .flat_map(|n| projector_problems(&format!("pipeline?deck=lecture:{n}"), true))
        .collect();
    assert!(found.is_empty(), "{}", found.join("\n"));
}

/// The focused cells that may scroll on a projector, each a list as long as what it
/// lists: a step per joint of the chain (the lecture focuses it on one step with
/// `scrub`), two frames with their sliders and matrices, a file's every part.
const SCROLLS: [&str; 3] = [
    "hierarchy?focus=chain",
    "gradient?focus=matrices",
    "model?focus=file",
];

#[test]
fn every_cell_of_every_page_focused_fits_a_projector() {
    let only = std::env::var("LOOKS_PAGE").ok();
    let mut found = Vec::new();
    for page in registry() {
        if only.as_deref().is_some_and(|o| o != page.slug()) {
            continue;
        }
        for target in std::iter::once("viewport").chain(page.cells().iter().copied()) {
            let link = format!("{}?focus={target}", page.slug());
            found.extend(projector_problems(&link, !SCROLLS.contains(&link.as_str())));
        }
    }
    assert!(
        found.is_empty(),
        "{} problems:\n{}",
        found.len(),
        found.join("\n")
    );
}

#[test]
fn the_clipped_text_check_sees_a_table_cell_cut_at_the_right() {
    let harness = drawn_once(|ui| {
        ui.label("whole");
        // A cell that clips what it holds, as a table's column does.
        let rect = egui::Rect::from_min_size(egui::pos2(10.0, 100.0), Vec2::new(60.0, 30.0));
        ui.painter_at(rect).text(
            rect.left_top(),
            egui::Align2::LEFT_TOP,
            "a cell far wider than its column",
            egui::FontId::proportional(16.0),
            egui::Color32::WHITE,
        );
    });
    let found = clipped_text(harness.output(), &[]);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].contains("a cell far wider"), "{found:?}");
}

#[test]
fn the_broken_inside_check_sees_a_formula_wrapped_but_not_lines_set_apart() {
    let harness = drawn_once(|ui| {
        // Room for 21 and a half characters: the formula's 22 break after its last `·`.
        let mono = egui::TextStyle::Monospace.resolve(ui.style());
        let per_char = ui.fonts_mut(|f| f.glyph_width(&mono, '0'));
        ui.set_width(21.5 * per_char);
        ui.add(egui::Label::new(egui::RichText::new("v' = Σ w[j] · G[j] · v").monospace()).wrap());
        ui.add(egui::Label::new(egui::RichText::new("A = 1\nB = 2").monospace()).wrap());
        ui.add(
            egui::Label::new(
                egui::RichText::new("a sentence in monospace wraps between words").monospace(),
            )
            .wrap(),
        );
        ui.add(egui::Label::new("prose wraps as it likes, and that is fine").wrap());
    });
    let found = broken_inside(harness.output());
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].starts_with("breaks inside: v' ="), "{found:?}");
}

/// SimpleSkin with its root joint scaled by `scale` (the pose draws it `scale` times
/// its bind size), and, when `tail` is more than 0, that many joints more hanging two
/// units apart below the root: a small mesh on a long skeleton.
fn simple_skin_variant(scale: f32, tail: usize) -> Vec<u8> {
    let bytes = skinlab::models::bytes("simple_skin").expect("bundled");
    let mut json: serde_json::Value = serde_json::from_slice(bytes).expect("its JSON");
    let root = json["skins"][0]["joints"][0]
        .as_u64()
        .expect("a root joint") as usize;
    json["nodes"][root]["scale"] = serde_json::json!([scale, scale, scale]);
    let nodes = json["nodes"].as_array_mut().expect("nodes");
    let first = nodes.len();
    for k in 0..tail {
        let mut node =
            serde_json::json!({"name": format!("tail {k}"), "translation": [0.0, -2.0, 0.0]});
        if k + 1 < tail {
            node["children"] = serde_json::json!([first + k + 1]);
        }
        nodes.push(node);
    }
    if tail > 0 {
        let children = json["nodes"][root]["children"]
            .as_array_mut()
            .expect("children");
        children.push(first.into());
    }
    serde_json::to_vec(&json).expect("json")
}

/// The app on the model page with `file` opened, then `link` applied, after a few frames.
fn app_with_file(file: Vec<u8>, link: &str) -> Harness<'static, SkinlabApp> {
    let mut harness = app_on("model", 1);
    harness
        .state_mut()
        .open_dropped_files(vec![("variant.gltf".to_owned(), Ok(file))], None);
    harness.state_mut().open_link(link).expect("the link opens");
    harness.run_steps(4);
    harness
}

/// The mesh lies inside the viewport and fills at least a quarter of it one way.
fn assert_framed(what: &str, harness: &Harness<'_, SkinlabApp>, fill_at_least: f32) {
    let (vp, mesh) = framed(harness);
    assert!(
        vp.expand(2.0).contains_rect(mesh),
        "{what}: {mesh:?} in {vp:?}"
    );
    let fill = (mesh.width() / vp.width()).max(mesh.height() / vp.height());
    assert!(
        fill >= fill_at_least,
        "{what}: the mesh fills {fill:.2} of the view"
    );
}

#[test]
fn a_model_at_any_scale_opens_framed_at_its_start_and_mid_clip() {
    for scale in [1e-3, 1.0, 1e3] {
        for link in ["model?asset=file", "model?asset=file&t=2.75"] {
            let harness = app_with_file(simple_skin_variant(scale, 0), link);
            assert_framed(&format!("scale {scale}, {link}"), &harness, 0.25);
        }
    }
    for link in [
        "model?asset=fox",
        "model?asset=fox&clip=Run&t=0.4",
        "model?asset=fox&clip=Walk&t=0.5",
    ] {
        assert_framed(link, &app_on(link, 5), 0.25);
    }
}

#[test]
fn the_fox_beside_its_focused_file_cell_on_a_projector_is_framed() {
    // A long model seen in perspective in a tall pane: two fitting steps left its nose
    // past the left edge.
    let harness = on_projector("model?asset=fox&focus=file").expect("opens");
    assert_framed("model?asset=fox&focus=file on a projector", &harness, 0.25);
}

#[test]
fn a_small_mesh_on_a_long_skeleton_opens_with_the_whole_skeleton_in_view() {
    let harness = app_with_file(simple_skin_variant(1.0, 8), "model?asset=file");
    // The mesh is two units of a skeleton eighteen tall: inside the view, and small.
    let (vp, mesh) = framed(&harness);
    assert!(vp.contains_rect(mesh), "{mesh:?} in {vp:?}");
    assert!(mesh.height() < 0.3 * vp.height(), "{mesh:?} in {vp:?}");
}

#[test]
fn ctrl_plus_makes_the_text_bigger_and_frames_the_view_again() {
    let mut harness = app_on("blending", 6);
    let fill = |harness: &Harness<'_, SkinlabApp>| {
        let (vp, mesh) = framed(harness);
        assert!(vp.expand(2.0).contains_rect(mesh), "{mesh:?} in {vp:?}");
        (mesh.width() / vp.width()).max(mesh.height() / vp.height())
    };
    let before = fill(&harness);
    for _ in 0..4 {
        harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Plus);
        harness.run_steps(2);
    }
    harness.run_steps(6);
    assert!(harness.state().zoom() > 1.4, "{}", harness.state().zoom());
    let after = fill(&harness);
    assert!(
        after > 0.9 * before,
        "the mesh fills {before:.2} of the view, then {after:.2}"
    );
}

#[test]
fn each_side_of_a_comparison_is_framed_on_its_own() {
    let link = "grid?angle=0.8&compare=forget_inverse_bind:false|forget_inverse_bind:true";
    let harness = app_on(link, 8);
    let mut sides: Vec<_> = MeshBounds::of(&harness.ctx)
        .into_iter()
        .filter_map(|d| Some((d.mesh?, d)))
        .collect();
    sides.sort_by(|a, b| a.1.viewport.left().total_cmp(&b.1.viewport.left()));
    assert_eq!(sides.len(), 2, "two viewports drew meshes");
    for (i, (mesh, drawn)) in sides.iter().enumerate() {
        // Inside the part of its view no note covers, and filling it one way.
        let clear = drawn.clear();
        assert!(
            clear.expand(2.0).contains_rect(*mesh),
            "side {i}: {mesh:?} in {clear:?}"
        );
        let fill = (mesh.width() / clear.width()).max(mesh.height() / clear.height());
        assert!(fill > 0.6, "side {i}: the mesh fills {fill:.2} of its view");
    }
    assert_eq!(harness.state().current_link().to_string(), link);
}

#[test]
fn comparing_a_code_cell_shows_the_two_listings_not_two_views() {
    let harness = app_on("gpu?compare=source:blend|source:main", 4);
    let compare = harness.state().comparing().expect("comparing");
    assert_eq!(compare.cell(), Some("source"));
    assert!(
        MeshBounds::of(&harness.ctx)
            .iter()
            .all(|d| d.mesh.is_none()),
        "no viewport is drawn"
    );
    // Keys that change the view still compare two views.
    let harness = app_on("gpu?compare=path:uniform|path:texture", 4);
    assert_eq!(harness.state().comparing().expect("comparing").cell(), None);
    assert_eq!(
        MeshBounds::of(&harness.ctx)
            .iter()
            .filter(|d| d.mesh.is_some())
            .count(),
        2
    );
}
