//! egui widgets shared by pages. No GL calls here: the viewport hands a
//! [`scene::Scene`] to the renderer through a paint callback.

pub mod camera;
pub mod check;
pub mod ellipses;
pub mod file_dialog;
pub mod fonts;
pub mod inspect;
pub mod labels;
pub mod legend;
pub mod listing;
pub mod markdown;
pub mod marks;
pub mod matrix;
pub mod motion;
pub mod numbers;
pub mod pick;
pub mod scroll;
pub mod viewport;

pub use camera::{Camera, OrbitCamera, PlaneCamera};
pub use viewport::{Viewport, on_screen, project};

use egui::Color32;

/// Colours of the x, y and z axes ([`scene::AXIS_RGB`], the viewport's own) and of
/// the translation column.
pub const AXIS_COLORS: [Color32; 4] = {
    let [x, y, z] = scene::AXIS_RGB;
    [
        Color32::from_rgb(x[0], x[1], x[2]),
        Color32::from_rgb(y[0], y[1], y[2]),
        Color32::from_rgb(z[0], z[1], z[2]),
        Color32::from_rgb(170, 170, 170),
    ]
};

/// The background of code in the dark theme, inline in prose and in blocks: darker than
/// the page, so the body text's grey reads on it at 4.5:1 or better, the contrast WCAG
/// asks of body text (on egui's own, grey 64, it read at 3.1:1).
pub const DARK_CODE_BG: Color32 = Color32::from_gray(12);

/// Prose in the dark theme: brighter than egui's grey 140 (5.2:1 on the page), so that
/// hints can be quieter than prose and still read at 4.5:1.
pub const DARK_TEXT: Color32 = Color32::from_gray(185);

/// The colour of hints and captions (egui's weak text), for a dark or a light theme:
/// quieter than prose, and 4.5:1 or better on the page (egui's own read at 2.7:1 in the
/// dark theme).
pub fn weak_text_color(dark: bool) -> Color32 {
    if dark {
        Color32::from_gray(140)
    } else {
        Color32::from_gray(105)
    }
}

/// The colour of code in a block (the notebook's code, the gpu page's listings), for a
/// dark or a light theme: more than 4.5:1 on every code background.
pub fn code_text_color(dark: bool) -> Color32 {
    if dark {
        Color32::from_gray(220)
    } else {
        Color32::from_gray(25)
    }
}

/// `color` moved toward white on a dark page, toward black on a light one, as little as
/// makes it read at 4.5:1 on the page's background, the contrast WCAG asks of body
/// text: a lesson's colours, in text a hall can read. The viewport keeps the colours
/// as they are.
pub fn legible(ui: &egui::Ui, color: Color32) -> Color32 {
    legible_ink(ui)(color)
}

/// [`legible`] for `ui`'s page, kept apart from `ui`: for colours picked inside a
/// closure while `ui` is lent to a widget.
pub fn legible_ink(ui: &egui::Ui) -> impl Fn(Color32) -> Color32 + Copy + use<> {
    let (page, dark) = (ui.visuals().panel_fill, ui.visuals().dark_mode);
    move |color| legible_on(color, page, dark)
}

/// A selectable label in a lesson's colour ([`legible`]); once selected, in the
/// selection's own text colour, which reads on the selection's fill (a colour picked for
/// the page does not).
pub fn colored_choice(
    ui: &mut egui::Ui,
    selected: bool,
    text: egui::RichText,
    color: Color32,
) -> egui::Response {
    let text = if selected {
        text
    } else {
        text.color(legible(ui, color))
    };
    ui.selectable_label(selected, text)
}

/// [`legible`] on `background`, a dark one when `dark`.
pub fn legible_on(color: Color32, background: Color32, dark: bool) -> Color32 {
    let toward = if dark { Color32::WHITE } else { Color32::BLACK };
    (0..=STEPS)
        .map(|k| color.lerp_to_gamma(toward, k as f32 / STEPS as f32))
        .find(|c| contrast(*c, background) >= 4.5)
        .unwrap_or(toward)
}

/// How finely [`legible_on`] moves a colour: in twentieths of the way.
const STEPS: u8 = 20;

/// `color` darkened until it reads at 4.5:1 on a pale, part-clear `card` of a viewport
/// label, judged over the darkest viewport (grey 30) under it: the lesson's colour in
/// a label that keeps off the mesh.
pub fn card_ink(color: Color32, card: Color32) -> Color32 {
    legible_on(color, painted_over(card, Color32::from_gray(30)), false)
}

/// A plot as the lessons draw them: read, not moved (no drag, scroll or zoom: a drag
/// over it scrolls the notebook on a phone, and its axes stay where the chapter says).
/// egui_plot fades tick labels in as they move apart, and a label half faded reads at
/// 3:1 or less; here each label is drawn at full strength once its neighbours are far
/// enough away, and not at all before.
pub fn plot<'a>(id: impl std::hash::Hash + std::fmt::Debug) -> egui_plot::Plot<'a> {
    use egui_plot::AxisHints;
    // Points between labels from which they are drawn: egui_plot's own fading starts
    // there (it ends 20 points further apart along x, 10 along y).
    let sharp = |hints: AxisHints<'a>, from: f32| hints.label_spacing(from..=from + 0.01);
    egui_plot::Plot::new(id)
        .custom_x_axes(vec![sharp(AxisHints::new_x(), 60.0)])
        .custom_y_axes(vec![sharp(AxisHints::new_y(), 20.0)])
        .allow_drag(false)
        .allow_scroll(false)
        .allow_zoom(false)
}

/// `ink` painted over an opaque `background`, as egui blends (premultiplied alpha).
pub fn painted_over(ink: Color32, background: Color32) -> Color32 {
    let under = 1.0 - f32::from(ink.a()) / 255.0;
    let mix = |i: u8, b: u8| (f32::from(i) + f32::from(b) * under).round().min(255.0) as u8;
    Color32::from_rgb(
        mix(ink.r(), background.r()),
        mix(ink.g(), background.g()),
        mix(ink.b(), background.b()),
    )
}

/// The contrast ratio of two colours, 1 to 21, as WCAG defines it: what [`legible`]
/// reaches and the tests hold the app's text to.
pub fn contrast(a: Color32, b: Color32) -> f32 {
    let luminance = |c: Color32| {
        let channel = egui::ecolor::linear_f32_from_gamma_u8;
        0.2126 * channel(c.r()) + 0.7152 * channel(c.g()) + 0.0722 * channel(c.b())
    };
    let (la, lb) = (luminance(a), luminance(b));
    (la.max(lb) + 0.05) / (la.min(lb) + 0.05)
}

/// Names a plot for a screen reader, as a picture (AccessKit's image role): `what`
/// says what it draws against what (written only when a screen reader asks).
pub fn name_plot(response: &egui::Response, what: impl Fn() -> String) {
    // Not in the browser, which is handed no AccessKit tree ([`viewport::name_drawn`]).
    #[cfg(not(target_arch = "wasm32"))]
    response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Image, true, what()));
    #[cfg(target_arch = "wasm32")]
    let _ = (response, what);
}

/// An angle in radians as whole degrees, e.g. `90°`: how a viewport's name in words
/// gives its angles.
pub fn degrees(radians: f32) -> String {
    format!("{:.0}°", radians.to_degrees())
}

/// An egui colour as linear-ish RGBA floats for GL.
pub fn rgba(c: Color32) -> [f32; 4] {
    [
        c.r() as f32 / 255.0,
        c.g() as f32 / 255.0,
        c.b() as f32 / 255.0,
        c.a() as f32 / 255.0,
    ]
}

/// `count` columns side by side, each laid out top down from the left, as the notebook
/// is: `add(i, ui)` fills column `i`. egui's own columns are justified, which spreads a
/// wrapped sentence's letters apart to fill each row.
pub fn columns_ui(ui: &mut egui::Ui, count: usize, mut add: impl FnMut(usize, &mut egui::Ui)) {
    ui.columns(count, |columns| {
        for (i, column) in columns.iter_mut().enumerate() {
            column.with_layout(egui::Layout::top_down(egui::Align::LEFT), |ui| add(i, ui));
        }
    });
}

/// The colour of `[r, g, b, a]` in 0..=1, as egui writes it (the inverse of [`rgba`]).
pub fn color32([r, g, b, a]: [f32; 4]) -> Color32 {
    let byte = |x: f32| (x.clamp(0.0, 1.0) * 255.0).round() as u8;
    Color32::from_rgba_unmultiplied(byte(r), byte(g), byte(b), byte(a))
}

/// Content that may be wider than the notebook column (a matrix in presenter mode):
/// it scrolls sideways instead of widening the column and cutting the prose off.
/// Sentences inside still wrap at the column; what cannot wrap scrolls. How far it
/// reaches past the column is kept for [`take_sideways_overflow`].
pub fn sideways_ui<R>(
    ui: &mut egui::Ui,
    id_salt: impl std::hash::Hash + std::fmt::Debug,
    add: impl FnOnce(&mut egui::Ui) -> R,
) -> R {
    let width = ui.available_width();
    let shown = egui::ScrollArea::horizontal()
        .id_salt(id_salt)
        .show(ui, |ui| {
            ui.set_max_width(width);
            add(ui)
        });
    let over = shown.content_size.x - shown.inner_rect.width();
    if over > 0.0 {
        ui.ctx().data_mut(|d| {
            let most = d.get_temp_mut_or_default::<SidewaysOverflow>(egui::Id::NULL);
            most.0 = most.0.max(over);
        });
        // More to the right: a mark at the edge says so (egui's bar shows only under a
        // mouse, and a finger never hovers).
        if shown.state.clamped_offset().x < over - 1.0 {
            more_to_the_right(ui, shown.inner_rect);
        }
    }
    shown.inner
}

/// A round "›" at the middle of `rect`'s right edge: the content goes on past it.
fn more_to_the_right(ui: &egui::Ui, rect: egui::Rect) {
    let at = egui::pos2(rect.right() - 10.0, rect.center().y);
    let visuals = ui.visuals();
    let painter = ui.painter();
    painter.circle(
        at,
        9.0,
        visuals.widgets.inactive.weak_bg_fill,
        egui::Stroke::new(1.0, visuals.widgets.inactive.bg_stroke.color),
    );
    painter.text(
        at,
        egui::Align2::CENTER_CENTER,
        "›",
        egui::FontId::proportional(16.0),
        visuals.strong_text_color(),
    );
}

/// A table (a grid of short cells): each cell keeps to one line, and the table scrolls
/// sideways where the column is narrower than it (a phone), rather than breaking its
/// words a few letters a line.
pub fn table_ui<R>(
    ui: &mut egui::Ui,
    id_salt: impl std::hash::Hash + std::fmt::Debug,
    add: impl FnOnce(&mut egui::Ui) -> R,
) -> R {
    sideways_ui(ui, id_salt, |ui| {
        ui.style_mut().wrap_mode = Some(egui::TextWrapMode::Extend);
        add(ui)
    })
}

/// The most any [`sideways_ui`] reached past its column since the last call, in points.
#[derive(Clone, Copy, Default)]
struct SidewaysOverflow(f32);

/// How far the widest content drawn by [`sideways_ui`] since the last call reached past
/// its column, in points (0 if all fitted); the count starts again.
pub fn take_sideways_overflow(ctx: &egui::Context) -> f32 {
    ctx.data_mut(|d| d.remove_temp::<SidewaysOverflow>(egui::Id::NULL))
        .map_or(0.0, |o| o.0)
}

/// A link inside a lesson. On a touch screen it is as high as any control, in the
/// link's colour: a link a line of text high is too small a target for a finger.
pub fn link_ui(ui: &mut egui::Ui, text: egui::RichText) -> egui::Response {
    if touch(ui.ctx()) {
        let text = text.color(ui.visuals().hyperlink_color);
        text_button_ui(ui, text)
    } else {
        ui.link(text)
    }
}

/// Text that takes a click, wrapped as words are and as high as any control (on a
/// touch screen, a finger's target), with no frame.
fn text_button_ui(ui: &mut egui::Ui, text: impl Into<egui::WidgetText>) -> egui::Response {
    let height = ui.spacing().interact_size.y;
    ui.add(
        egui::Button::new(text)
            .frame(false)
            .wrap()
            .min_size(egui::vec2(0.0, height)),
    )
}

/// Small print is for a reader at a desk: in front of a hall (presenter mode, focus
/// mode), captions in `ui` are set at the size of the body text.
pub fn captions_at_body_size(ui: &mut egui::Ui) {
    if let Some(body) = ui.style().text_styles.get(&egui::TextStyle::Body).cloned() {
        ui.style_mut()
            .text_styles
            .insert(egui::TextStyle::Small, body);
    }
}

/// Marks whether the cell being drawn fills the window alone (focus mode): a cell may
/// then bring its own part in view (a scrubbed step), where on the whole page the
/// link's cell scroll has the say.
pub fn set_focused_cell(ctx: &egui::Context, focused: bool) {
    set_flag(ctx, FOCUSED_CELL, focused);
}

/// Whether the cell being drawn fills the window alone (see [`set_focused_cell`]).
pub fn focused_cell(ctx: &egui::Context) -> bool {
    flag(ctx, FOCUSED_CELL)
}

/// Notes that the notebook's column is being drawn (`true`), or no longer: a row wider
/// than the column widens the whole notebook past it, under the viewport.
pub fn set_in_notebook(ctx: &egui::Context, inside: bool) {
    set_flag(ctx, IN_NOTEBOOK, inside);
}

/// Whether the notebook's column is being drawn (see [`set_in_notebook`]).
pub fn in_notebook(ctx: &egui::Context) -> bool {
    flag(ctx, IN_NOTEBOOK)
}

const FOCUSED_CELL: &str = "skinlab focused cell";
const IN_NOTEBOOK: &str = "skinlab notebook column";

/// A yes or no the app notes for the widgets drawn after it this frame, by name.
fn set_flag(ctx: &egui::Context, name: &'static str, on: bool) {
    ctx.data_mut(|d| d.insert_temp(egui::Id::unique(name), on));
}

/// What [`set_flag`] last noted under `name` (no, if nothing).
fn flag(ctx: &egui::Context, name: &'static str) -> bool {
    ctx.data(|d| d.get_temp::<bool>(egui::Id::unique(name)))
        .unwrap_or(false)
}

/// The screen the app's style is set for (the app sets it each frame).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Screen {
    /// The pointer is a finger: words about the pointer say tap and pinch
    /// ([`pointer_words`]), and a pick reaches further.
    pub touch: bool,
    /// A phone's screen: a long name goes above its slider ([`slider_ui`]), and wraps
    /// beside its check box ([`checkbox_ui`]).
    pub compact: bool,
}

/// Marks the screen the app's style is set for.
pub fn set_screen(ctx: &egui::Context, screen: Screen) {
    ctx.data_mut(|d| d.insert_temp(screen_id(), screen));
    pick::set_finger(screen.touch);
}

/// The screen the app's style is set for (see [`set_screen`]).
pub fn screen(ctx: &egui::Context) -> Screen {
    ctx.data(|d| d.get_temp::<Screen>(screen_id()))
        .unwrap_or_default()
}

/// Whether the pointer is a finger (see [`Screen::touch`]).
pub fn touch(ctx: &egui::Context) -> bool {
    screen(ctx).touch
}

fn screen_id() -> egui::Id {
    egui::Id::unique("skinlab screen")
}

/// `text` (a caption telling what to do with the pointer) in the words of the pointer
/// in hand: with a finger a click is a tap and scrolling to zoom is a pinch.
pub fn pointer_words(text: &str, touch: bool) -> std::borrow::Cow<'_, str> {
    if !touch {
        return text.into();
    }
    text.replace("scroll to zoom", "pinch to zoom")
        .replace("Click ", "Tap ")
        .replace("click ", "tap ")
        .into()
}

/// `n` and the noun for that many: "1 skin", "2 skins", "0 skins".
pub fn counted(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// A block of monospace text (numbers, working): a line too wide for the column
/// breaks where a note or a second column begins, else at a space, and hangs under its
/// start ([`listing::lines_ui`]); nothing is cut off or scrolled away.
pub fn mono_ui(ui: &mut egui::Ui, text: impl Into<String>) {
    listing::lines_ui(ui, &text.into(), |text| text);
}

/// A line of parts that breaks only between them: a formula or a vector is never split
/// inside, and a part that does not fit moves whole to the next line. Each part brings
/// its own spaces. `name` reads it aloud (and lets tests find it) as the one line it
/// is, where no label around it does.
pub fn unbroken_ui(ui: &mut egui::Ui, parts: &[egui::WidgetText], name: bool) {
    let shown = ui.scope(|ui| {
        // Rows as high as the text, as a wrapped label's lines are: set before the row
        // is made, which takes its least height from here.
        ui.spacing_mut().interact_size.y = 0.0;
        ui.horizontal_wrapped(|ui| {
            ui.spacing_mut().item_spacing = egui::Vec2::ZERO;
            for part in parts {
                ui.add(egui::Label::new(part.clone()).extend());
            }
        });
    });
    if name {
        let line: String = parts.iter().map(egui::WidgetText::text).collect();
        shown.response.widget_info(|| {
            egui::WidgetInfo::labeled(egui::accesskit::Role::Label, true, line.as_str())
        });
    }
}

/// A number to drag or type, two decimals at most, named `name` for screen readers and
/// tests; kept within `range` when one is given. Returns whether it changed.
pub fn named_number_ui(
    ui: &mut egui::Ui,
    name: &str,
    value: &mut f32,
    prefix: &str,
    range: Option<std::ops::RangeInclusive<f32>>,
) -> bool {
    let current = f64::from(*value);
    let mut drag = egui::DragValue::new(value)
        .speed(0.02)
        .max_decimals(2)
        .custom_parser(move |text| numbers::typed_near(text, current, 2))
        .prefix(prefix);
    if let Some(range) = range {
        drag = drag.range(range);
    }
    let response = ui.add(drag);
    let label = name.to_owned();
    response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::SpinButton, true, label.clone()));
    response.changed()
}

/// A warning line in the error colour.
pub fn error_ui(ui: &mut egui::Ui, text: impl Into<String>) {
    error_line(ui, text);
}

/// [`error_ui`], answering with the line's place (to scroll it into view).
pub fn error_line(ui: &mut egui::Ui, text: impl Into<String>) -> egui::Response {
    ui.colored_label(ui.visuals().error_fg_color, format!("! {}", text.into()))
}

/// A button that points the viewport at a cell's part of the lesson; returns whether it
/// was pressed. It stays in place (greyed out) while the viewport shows that part: a
/// button that came and went would shift the widgets below it in the middle of a drag.
pub fn show_here_ui(ui: &mut egui::Ui, shown: bool) -> bool {
    let text = if shown {
        "Shown in the viewport"
    } else {
        "Show this in the viewport"
    };
    ui.add_enabled(!shown, egui::Button::new(text)).clicked()
}

/// An exercise's "Show this pose in the viewport" button; returns whether it was
/// pressed. A press also asks for the view to be framed if the new pose would reach
/// past its edges.
pub fn show_pose_ui(ui: &mut egui::Ui) -> bool {
    pose_button_ui(ui, "Show this pose in the viewport")
}

/// A Play button that reads Pause while `playing`, as wide either way: the controls
/// beside it stay under the pointer when it is pressed. Returns whether it was.
pub fn play_button_ui(ui: &mut egui::Ui, playing: &mut bool) -> bool {
    let label = if *playing { "Pause" } else { "Play" };
    let wide = text_width(ui, "Pause") + 2.0 * ui.spacing().button_padding.x;
    let pressed = ui
        .add(egui::Button::new(label).min_size(egui::vec2(wide, 0.0)))
        .clicked();
    if pressed {
        *playing = !*playing;
    }
    pressed
}

/// [`show_pose_ui`] for an exercise whose pose prints its answer on the page (the
/// quaternion of the sliders, say): the button works once the answer was checked or
/// the working opened; before, it is there greyed out, saying why it waits (a button
/// that came and went would move the answer fields under the pointer).
pub fn show_pose_after_ui(ui: &mut egui::Ui, check: &check::Check) -> bool {
    if check.verdict.is_some() || check.show_working {
        return show_pose_ui(ui);
    }
    ui.add_enabled(
        false,
        egui::Button::new("Show this pose in the viewport (after Check: it prints the answer)"),
    );
    false
}

/// [`show_pose_ui`] with words of its own, for a pose that changes more than the pose
/// (another model).
pub fn pose_button_ui(ui: &mut egui::Ui, text: &str) -> bool {
    let pressed = kept_in_view_button_ui(ui, text);
    if pressed {
        viewport::ask_to_frame(ui.ctx());
    }
    pressed
}

/// [`show_pose_ui`] for a page that sets its own camera for the pose (what it must
/// show reaches past the meshes a framing fits: an outline, a marked point).
pub fn show_pose_own_camera_ui(ui: &mut egui::Ui) -> bool {
    kept_in_view_button_ui(ui, "Show this pose in the viewport")
}

/// A button that, once pressed, keeps itself and what is under it in view for a few
/// frames.
fn kept_in_view_button_ui(ui: &mut egui::Ui, text: &str) -> bool {
    let response = ui.button(text);
    let pressed = response.clicked();
    // The pose may grow the cells above (a vertex picked shows its working), pushing
    // the exercise down: for a few frames the button, and the verdict under it, stay
    // in view.
    let id = response.id.with("kept in view");
    let frames: u8 = if pressed {
        POSE_KEPT_FRAMES
    } else {
        ui.ctx().data(|d| d.get_temp(id)).unwrap_or(0)
    };
    if frames > 0 {
        let below = egui::Rect::from_min_size(
            response.rect.min,
            egui::vec2(
                response.rect.width(),
                response.rect.height() + POSE_KEPT_BELOW,
            ),
        );
        ui.scroll_to_rect_animation(below, None, egui::style::ScrollAnimation::none());
        ui.ctx().data_mut(|d| d.insert_temp(id, frames - 1));
        ui.ctx().request_repaint();
    }
    pressed
}

/// How many frames a pose button keeps itself in view after a press.
const POSE_KEPT_FRAMES: u8 = 8;

/// How much below a pose button stays in view with it, in points: the answer fields
/// and the verdict.
const POSE_KEPT_BELOW: f32 = 140.0;

/// How wide `text` is set in the body font, in points, on one line.
pub fn text_width(ui: &egui::Ui, text: &str) -> f32 {
    let font = egui::TextStyle::Body.resolve(ui.style());
    ui.fonts_mut(|f| {
        f.layout_no_wrap(text.to_owned(), font, Color32::PLACEHOLDER)
            .size()
            .x
    })
}

/// A slider and its name: beside it, or where the row has no room for both on a phone
/// or in the notebook's column, a shorter slider, then the name on a line of its own
/// above it. egui sets a slider's name on one line, however long: in the notebook a
/// row too long widens the whole column past its edge, under the viewport. (Under the
/// viewport the panel grows to the row instead, which keeps the picture wide.)
pub fn slider_ui(ui: &mut egui::Ui, slider: egui::Slider<'_>, text: &str) -> egui::Response {
    if !screen(ui.ctx()).compact && !in_notebook(ui.ctx()) {
        return pressed_takes_keys(ui.add(slider.text(text)));
    }
    // Short of room, the slider gives some of its length first (down to
    // [`SLIDER_LEAST`]): a row more under a viewport takes the height of its picture.
    let slider_width = ui.spacing().slider_width;
    let fits = slider_room(ui, text, 1.5).min(slider_width);
    let response = if fits >= SLIDER_LEAST.min(slider_width) {
        ui.scope(|ui| {
            ui.spacing_mut().slider_width = fits;
            ui.add(slider.text(text))
        })
        .inner
    } else {
        ui.label(text);
        let response = ui.add(slider);
        response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Slider, true, text));
        response
    };
    pressed_takes_keys(response)
}

/// The room left in the row for a slider named `text`: the row's width less the name,
/// `numbers` widgets' widths for its number field, and the spaces between them.
fn slider_room(ui: &egui::Ui, text: &str, numbers: f32) -> f32 {
    let spacing = ui.spacing();
    ui.available_width()
        - text_width(ui, text)
        - numbers * spacing.interact_size.x
        - 3.0 * spacing.item_spacing.x
}

/// A slider pressed takes the keyboard: its arrows step it, and do not turn the page
/// (the app's arrows work only while nothing has the keyboard).
fn pressed_takes_keys(response: egui::Response) -> egui::Response {
    if response.clicked() || response.drag_started() {
        response.request_focus();
    }
    response
}

/// The shortest a slider is drawn beside its name, in points; shorter, the name goes
/// on a line of its own above it.
const SLIDER_LEAST: f32 = 60.0;

/// A check box and its name: egui sets the name on one line, however long; on a phone,
/// where the row has no room for it, the name wraps beside the box, and a tap on it
/// toggles the box as a tap on the box does.
pub fn checkbox_ui(ui: &mut egui::Ui, on: &mut bool, text: &str) -> egui::Response {
    let spacing = ui.spacing();
    let beside = spacing.icon_width + spacing.icon_spacing + text_width(ui, text);
    if !screen(ui.ctx()).compact || beside <= ui.available_width() {
        return ui.checkbox(on, text);
    }
    ui.horizontal(|ui| {
        let mut response = ui.checkbox(on, "");
        if text_button_ui(ui, text).clicked() {
            *on = !*on;
            response.mark_changed();
        }
        response.widget_info(|| egui::WidgetInfo::selected(egui::Role::CheckBox, true, *on, text));
        response
    })
    .inner
}

/// The widest an angle slider grows, in points: 360° at 1.6° a point.
const ANGLE_SLIDER_MOST: f32 = 220.0;

/// A slider that shows an angle in degrees and stores it in radians (`range` is in
/// degrees), with `decimals` decimals; an angle between them (a link's radians, a
/// drag, a typed 11.5) shows one decimal more, so the number beside the slider is the
/// angle the matrices use. Returns whether the user changed it.
pub fn angle_slider_ui(
    ui: &mut egui::Ui,
    radians: &mut f32,
    range: std::ops::RangeInclusive<f32>,
    label: &str,
    decimals: usize,
) -> bool {
    let mut degrees = radians.to_degrees();
    let current = f64::from(degrees);
    let step = 10f64.powi(-(decimals as i32));
    let (least, most) = (*range.start(), *range.end());
    let span = most - least;
    let slider = egui::Slider::new(&mut degrees, range)
        // A value from a link may lie outside the range: keep it until edited. A typed
        // one is brought in below.
        .clamping(egui::SliderClamping::Never)
        .suffix("°")
        .custom_formatter(move |v, _| {
            let on_step = ((v / step).round() * step - v).abs() < step * 1e-3;
            let shown = if on_step { decimals } else { decimals + 1 };
            format!("{v:.shown$}")
        })
        // Tab through the number: the angle as it was, not rounded to what it shows.
        .custom_parser(move |text| numbers::typed_near(text, current, decimals + 1));
    // Up to [`ANGLE_SLIDER_MOST`] points where the row has room, not egui's 100 points
    // for 360°: a drag then lands near the angle the reader aims at. The room is
    // counted with a number field to spare: a row that filled its column exactly would
    // widen a focused cell's pane, which would widen the slider again.
    let changed = ui
        .scope(|ui| {
            let width = span
                .min(ANGLE_SLIDER_MOST)
                .min(slider_room(ui, label, 2.5))
                .max(ui.spacing().slider_width);
            ui.spacing_mut().slider_width = width;
            slider_ui(ui, slider, label).changed()
        })
        .inner;
    if changed {
        *radians = into_range(degrees, least, most).to_radians();
    }
    changed
}

/// A typed angle brought into `least..=most` degrees: by whole turns where the range
/// spans one (270° is −90° on a ±180° slider, the same orientation), else to the
/// nearer end.
fn into_range(degrees: f32, least: f32, most: f32) -> f32 {
    let turns = if degrees > most {
        -((degrees - most) / 360.0).ceil()
    } else if degrees < least {
        ((least - degrees) / 360.0).ceil()
    } else {
        0.0
    };
    let turned = degrees + 360.0 * turns;
    if most - least >= 360.0 && (least..=most).contains(&turned) {
        turned
    } else {
        degrees.clamp(least, most)
    }
}

#[cfg(test)]
mod tests {
    use super::{Color32, contrast, legible_on};

    #[test]
    fn a_typed_angle_past_the_slider_comes_back_by_whole_turns_or_to_its_end() {
        use super::into_range;
        assert_eq!(into_range(270.0, -180.0, 180.0), -90.0);
        assert_eq!(into_range(-200.0, -180.0, 180.0), 160.0);
        assert_eq!(into_range(400.0, -360.0, 360.0), 40.0);
        assert_eq!(into_range(45.0, -180.0, 180.0), 45.0);
        // Less than a turn: the nearer end.
        assert_eq!(into_range(120.0, -90.0, 90.0), 90.0);
        assert_eq!(into_range(-400.0, -90.0, 90.0), -90.0);
    }

    #[test]
    fn a_colour_is_moved_only_as_far_as_it_must_to_read_on_the_page() {
        let (dark, light) = (Color32::from_gray(27), Color32::from_gray(248));
        let red = Color32::from_rgb(230, 70, 70);
        for (page, is_dark) in [(dark, true), (light, false)] {
            let ink = legible_on(red, page, is_dark);
            assert!(contrast(ink, page) >= 4.5, "{ink:?} on {page:?}");
            // Moved no further than a step past what it needs.
            assert!(
                contrast(ink, page) < 5.2,
                "{ink:?} on {page:?} moved too far"
            );
            // Redder than it is grey.
            assert!(ink.r() > ink.g() && ink.r() > ink.b(), "{ink:?}");
        }
        // A colour that reads already is kept.
        let white_on_dark = legible_on(Color32::from_gray(230), dark, true);
        assert_eq!(white_on_dark, Color32::from_gray(230));
    }

    /// Text in a column is set as in the notebook: a wrapped sentence keeps its letter
    /// spacing (a justified layout stretches it to fill each row).
    #[test]
    fn columns_do_not_justify_their_text() {
        let ctx = egui::Context::default();
        let mut layouts = Vec::new();
        let _ = ctx.run_ui(egui::RawInput::default(), |ui| {
            super::columns_ui(ui, 2, |_, ui| {
                layouts.push(ui.layout().horizontal_justify());
            });
        });
        assert_eq!(layouts, [false, false]);
    }

    #[test]
    fn one_of_a_thing_is_counted_in_the_singular() {
        assert_eq!(super::counted(1, "skin", "skins"), "1 skin");
        assert_eq!(super::counted(0, "skin", "skins"), "0 skins");
        assert_eq!(
            super::counted(2, "vertex has", "vertices have"),
            "2 vertices have"
        );
    }
}
