//! The canvas at the screen's density: one CSS pixel is one point (times the reader's
//! text size), the canvas holds a pixel for every device pixel, and a pointer lands on
//! the point it is aimed at, at every device pixel ratio and browser zoom.
//!
//! eframe's web runner takes its pixels per point from `window.devicePixelRatio`, but
//! sizes the canvas from the ResizeObserver's `devicePixelContentBoxSize`
//! (`get_display_size` in eframe's `web/events.rs`, since egui#4536). Where the two
//! disagree (Chromium's device emulation reports the box in CSS pixels at a ratio of 2;
//! `--force-device-scale-factor` the other way round), the app laid out on half or twice
//! the window while pointers came in CSS pixels, so drags missed what they aimed at.
//! Before each frame the canvas is sized here from its CSS box and the same ratio
//! eframe divides by, so both agree, whatever the browser reports.

use crate::ui::marks::Target;

/// The canvas's size in device pixels from its CSS box and `devicePixelRatio`, set when
/// it is more than a pixel off (within one, the browser's own snapping of the box is
/// kept), and the screen in points told to egui to match.
pub fn fit_canvas(
    canvas: &web_sys::HtmlCanvasElement,
    ctx: &egui::Context,
    raw_input: &mut egui::RawInput,
) {
    let Some(window) = web_sys::window() else {
        return;
    };
    let ratio = window.device_pixel_ratio() as f32;
    if !(ratio.is_finite() && ratio > 0.0) {
        return;
    }
    let css = canvas.get_bounding_client_rect();
    let wanted = |css: f64| (css as f32 * ratio).round().max(1.0) as u32;
    let (width, height) = (wanted(css.width()), wanted(css.height()));
    if canvas.width().abs_diff(width) > 1 {
        canvas.set_width(width);
    }
    if canvas.height().abs_diff(height) > 1 {
        canvas.set_height(height);
    }
    let pixels_per_point = ratio * ctx.zoom_factor();
    raw_input.screen_rect = Some(egui::Rect::from_min_size(
        egui::Pos2::ZERO,
        egui::vec2(
            canvas.width() as f32 / pixels_per_point,
            canvas.height() as f32 / pixels_per_point,
        ),
    ));
}

/// The reader's screen as the browser describes it: the root's computed style and the
/// `pointer: coarse` query, looked up once and read live each frame (a reader who
/// changes the browser's text size, or plugs in a touch screen, is followed).
pub struct Screen {
    root_style: Option<web_sys::CssStyleDeclaration>,
    coarse: Option<web_sys::MediaQueryList>,
}

impl Screen {
    /// Looks up the page's root style and the coarse-pointer query.
    pub fn new() -> Self {
        let window = web_sys::window();
        let root = window
            .as_ref()
            .and_then(|w| w.document()?.document_element());
        Self {
            root_style: window
                .as_ref()
                .zip(root)
                .and_then(|(window, root)| window.get_computed_style(&root).ok().flatten()),
            coarse: window.and_then(|w| w.match_media("(pointer: coarse)").ok().flatten()),
        }
    }

    /// The reader's own text size against the browser's default of 16 CSS pixels (the
    /// font size the browser gives the page's root): a reader who asked for larger
    /// text in the browser's settings gets the app larger by as much.
    pub fn text_scale(&self) -> f32 {
        let size = self
            .root_style
            .as_ref()
            .and_then(|style| style.get_property_value("font-size").ok())
            .and_then(|px| px.trim_end_matches("px").parse::<f32>().ok());
        match size {
            Some(px) if px.is_finite() && px > 0.0 => (px / 16.0).clamp(0.5, 4.0),
            _ => 1.0,
        }
    }

    /// Whether the page's pointer is a finger (`pointer: coarse`): touch targets then
    /// grow.
    pub fn coarse_pointer(&self) -> bool {
        self.coarse.as_ref().is_some_and(|m| m.matches())
    }
}

/// What the app lays out on, for scripts (the browser check; drawn only while
/// [`crate::ui::marks::recording`]): the screen in points and
/// the pixels per point (`1440x900@2`); the largest viewport in CSS pixels
/// (`viewport=x,y,w,h`); and how many controls a finger must hit are shorter than
/// [`crate::app::TOUCH_TARGET`] and where the first is (`small=0`, `small=2,x,y,w,h`);
/// where a joint, a vertex and a field to type in are clear to aim at (`joint=x,y`,
/// `vertex=x,y`, `field=x,y`); the field that has the keyboard (`focus=x,y,w,h`):
/// space-separated, as `data-layout` on the canvas.
pub fn layout_attribute(ctx: &egui::Context) -> String {
    use crate::ui::marks;
    let screen = ctx.content_rect();
    let css = ctx.zoom_factor();
    let rect = |r: egui::Rect| {
        let (min, size) = (r.min * css, r.size() * css);
        format!(
            "{},{},{},{}",
            min.x.round(),
            min.y.round(),
            size.x.round(),
            size.y.round()
        )
    };
    let point = |p: egui::Pos2| format!("{},{}", (p.x * css).round(), (p.y * css).round());
    let mut fields = String::new();
    if let Some(r) = marks::largest_viewport(ctx) {
        fields += &format!(" viewport={}", rect(r));
    }
    // How many, then where the first is (`small=N,x,y,w,h`), to say which one.
    let small = marks::small_controls(ctx, crate::app::TOUCH_TARGET);
    fields += &format!(" small={}", small.len());
    if let Some(r) = small.first() {
        fields += &format!(",{}", rect(*r));
    }
    // Where a script aims to drag a joint or tap a vertex: clear of the other kind by
    // more than a finger's reach; or, where all are crowded, where to pinch them apart.
    for (name, target) in [("joint", Target::Joint), ("vertex", Target::Vertex)] {
        match marks::aim_at(ctx, target, marks::CLEARANCE) {
            Some((p, clear)) if clear > marks::CLEARANCE => {
                fields += &format!(" {name}={}", point(p))
            }
            Some((p, _)) => fields += &format!(" crowded-{name}={}", point(p)),
            None => {}
        }
    }
    // The compact bar's menu, the link box when it is shown, and a field to type in;
    // then the field that has the keyboard.
    for name in ["menu", "link", "field"] {
        if let Some(r) = marks::shown_control(ctx, name) {
            fields += &format!(" {name}={}", point(r.center()));
        }
    }
    let focused = ctx
        .memory(|m| m.focused())
        .and_then(|id| ctx.read_response(id));
    if let Some(focused) = focused.filter(|_| ctx.text_edit_focused()) {
        fields += &format!(" focus={}", rect(focused.rect));
    }
    format!(
        "{}x{}@{}{fields}",
        screen.width().round(),
        screen.height().round(),
        crate::ui::numbers::rounded(ctx.pixels_per_point(), 3)
    )
}

/// Whether a script drives the browser (`navigator.webdriver`, as Playwright sets it):
/// only then do pages note where their joints and vertices are for it.
pub fn automated() -> bool {
    web_sys::window()
        .and_then(|w| js_sys::Reflect::get(&w.navigator(), &"webdriver".into()).ok())
        .and_then(|v| v.as_bool())
        .unwrap_or(false)
}

/// eframe ends a touch with the button's release and `PointerGone` in the same frame,
/// so in the frame where a tap is a click egui no longer knows where the pointer is, and
/// a viewport asking where it was tapped (`interact_pointer_pos`) hears nothing: a tap
/// picked no vertex. The `PointerGone` after a release is held back to the next frame.
#[derive(Default)]
pub struct FingerLifted {
    held: bool,
}

impl FingerLifted {
    /// Delivers a `PointerGone` held from the last frame first, and holds back this
    /// frame's if it follows a release.
    pub fn hold_back(&mut self, ctx: &egui::Context, raw_input: &mut egui::RawInput) {
        use egui::Event;
        let events = &mut raw_input.events;
        let released = events
            .iter()
            .rposition(|e| matches!(e, Event::PointerButton { pressed: false, .. }));
        let gone = events.iter().rposition(|e| matches!(e, Event::PointerGone));
        let hold = matches!((released, gone), (Some(r), Some(g)) if g > r);
        if let (true, Some(g)) = (hold, gone) {
            events.remove(g);
        }
        if std::mem::replace(&mut self.held, hold) {
            events.insert(0, Event::PointerGone);
        }
        if hold {
            ctx.request_repaint();
        }
    }
}
