//! The style and the screen it is set for ([`Fit`]): a phone gets text of 16 points or
//! more, a finger controls 44 points high, and every text reads at 4.5:1 or better.

/// Narrower than this, or lower than [`COMPACT_HEIGHT`], in points, the app is laid
/// out for a phone ([`Fit::compact`]).
pub const COMPACT_WIDTH: f32 = 600.0;

/// Lower than this, in points, the app is laid out for a phone held sideways: one bar,
/// and the viewport the whole height beside the cells.
pub const COMPACT_HEIGHT: f32 = 500.0;

/// The least height, in points, of anything a finger must hit on a touch screen (one
/// point is one CSS pixel in the browser).
pub const TOUCH_TARGET: f32 = 44.0;

/// How long a finger may rest on the screen and still tap or start a drag: for ever.
/// egui's own limit (0.8 s) makes a finger held still a "long touch" that ends the press,
/// so a student who rests a finger on a joint before moving it dragged nothing, and on a
/// slow device (a frame of half a second) a plain drag often did the same.
const TOUCH_HOLD_SECONDS: f64 = f64::INFINITY;

/// The least size of text on a phone, in points: smaller text is made up to it.
pub const COMPACT_TEXT: f32 = 16.0;

/// The screen the style is set for.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Fit {
    /// A phone: narrower than [`COMPACT_WIDTH`] or lower than [`COMPACT_HEIGHT`]. Text
    /// is at least [`COMPACT_TEXT`] points and the top bar is one compact row.
    pub compact: bool,
    /// A finger: every control is at least [`TOUCH_TARGET`] points tall.
    pub touch: bool,
}

impl Fit {
    /// The fit for a window of `size` points, touched by a finger or not.
    pub fn of(size: egui::Vec2, touch: bool) -> Self {
        Self {
            compact: size.x < COMPACT_WIDTH || size.y < COMPACT_HEIGHT,
            touch,
        }
    }

    /// Whether the window of `size` points is a phone held sideways: the viewport then
    /// takes the whole height beside the cells.
    pub fn sideways(self, size: egui::Vec2) -> bool {
        self.compact && size.x > size.y && size.x >= COMPACT_WIDTH
    }
}

/// Text a little larger than egui's defaults: this is a reading app (on a phone, no
/// text under [`COMPACT_TEXT`]; on a touch screen, controls a finger can hit). Code on a
/// darker background in the dark theme, so that it reads as well as the prose.
pub(super) fn apply_style(ctx: &egui::Context, fit: Fit) {
    use egui::{FontFamily, FontId, TextStyle};
    // The app keeps a zoom per mode and handles Ctrl + and Ctrl − itself.
    ctx.options_mut(|o| {
        o.zoom_with_keyboard = false;
        o.input_options.max_click_duration = if fit.touch {
            TOUCH_HOLD_SECONDS
        } else {
            egui::InputOptions::default().max_click_duration
        };
    });
    crate::ui::set_screen(
        ctx,
        crate::ui::Screen {
            touch: fit.touch,
            compact: fit.compact,
        },
    );
    let least = if fit.compact { COMPACT_TEXT } else { 0.0 };
    // Prose stays a point larger than the smallest text on a phone.
    let body = if fit.compact {
        COMPACT_TEXT + 1.0
    } else {
        15.0
    };
    ctx.all_styles_mut(|style| {
        let size = |points: f32| points.max(least);
        style.text_styles = [
            (
                TextStyle::Small,
                FontId::new(size(11.5), FontFamily::Proportional),
            ),
            (TextStyle::Body, FontId::new(body, FontFamily::Proportional)),
            (
                TextStyle::Button,
                FontId::new(size(14.5), FontFamily::Proportional),
            ),
            (
                TextStyle::Monospace,
                FontId::new(size(13.5), FontFamily::Monospace),
            ),
            (
                TextStyle::Heading,
                FontId::new(size(22.0), FontFamily::Proportional),
            ),
        ]
        .into();
        // A finger on text scrolls; it does not select (nor take a tap as a click).
        style.interaction.selectable_labels = !fit.touch;
        // A reader who asked for less motion: folds, switches and scrolls jump to
        // their end instead of gliding there.
        let egui_own = egui::Style::default();
        (style.animation_time, style.scroll_animation) = if crate::ui::motion::reduced() {
            (0.0, egui::style::ScrollAnimation::none())
        } else {
            (egui_own.animation_time, egui_own.scroll_animation)
        };
        let spacing = &mut style.spacing;
        let default = egui::style::Spacing::default();
        if fit.touch {
            spacing.interact_size = egui::vec2(TOUCH_TARGET, TOUCH_TARGET);
            spacing.button_padding = egui::vec2(10.0, 6.0);
            spacing.icon_width = 24.0;
            spacing.icon_width_inner = 12.0;
            spacing.item_spacing = egui::vec2(10.0, 6.0);
            // A fold's toggle is as wide as the indent (see the model page's joint tree).
            spacing.indent = 26.0;
        } else {
            spacing.interact_size = default.interact_size;
            spacing.button_padding = default.button_padding;
            spacing.icon_width = default.icon_width;
            spacing.icon_width_inner = default.icon_width_inner;
            spacing.item_spacing = default.item_spacing;
            spacing.indent = default.indent;
        }
    });
    ctx.style_mut_of(egui::Theme::Dark, |style| {
        let visuals = &mut style.visuals;
        visuals.code_bg_color = crate::ui::DARK_CODE_BG;
        visuals.widgets.noninteractive.fg_stroke.color = crate::ui::DARK_TEXT;
    });
    for theme in [egui::Theme::Dark, egui::Theme::Light] {
        ctx.style_mut_of(theme, |style| {
            let visuals = &mut style.visuals;
            let readable = |c| crate::ui::legible_on(c, visuals.panel_fill, visuals.dark_mode);
            visuals.weak_text_color = Some(crate::ui::weak_text_color(visuals.dark_mode));
            visuals.error_fg_color = readable(visuals.error_fg_color);
            visuals.warn_fg_color = readable(visuals.warn_fg_color);
            visuals.hyperlink_color = readable(visuals.hyperlink_color);
        });
    }
}

#[cfg(test)]
mod tests {
    use crate::ui::{code_text_color, contrast};

    #[test]
    fn prose_hints_links_and_code_read_at_four_and_a_half_to_one_in_both_themes() {
        let ctx = egui::Context::default();
        super::apply_style(&ctx, super::Fit::default());
        for theme in [egui::Theme::Dark, egui::Theme::Light] {
            let visuals = ctx.style_of(theme).visuals.clone();
            let code = code_text_color(visuals.dark_mode);
            let striped = crate::ui::painted_over(visuals.faint_bg_color, visuals.panel_fill);
            for (what, text, background) in [
                ("prose", visuals.text_color(), visuals.panel_fill),
                ("a hint", visuals.weak_text_color(), visuals.panel_fill),
                (
                    "a hint in a striped row",
                    visuals.weak_text_color(),
                    striped,
                ),
                ("an error", visuals.error_fg_color, visuals.panel_fill),
                ("a warning", visuals.warn_fg_color, visuals.panel_fill),
                ("a link", visuals.hyperlink_color, visuals.panel_fill),
                ("inline code", visuals.text_color(), visuals.code_bg_color),
                ("a code block", code, visuals.code_bg_color),
                (
                    "a button's label",
                    visuals.widgets.inactive.fg_stroke.color,
                    visuals.widgets.inactive.weak_bg_fill,
                ),
                (
                    "a button's label under the pointer",
                    visuals.widgets.hovered.fg_stroke.color,
                    visuals.widgets.hovered.weak_bg_fill,
                ),
                (
                    "the page on screen in the page list",
                    visuals.selection.stroke.color,
                    visuals.selection.bg_fill,
                ),
            ] {
                let ratio = contrast(text, background);
                assert!(
                    ratio >= 4.5,
                    "{theme:?}: {what}, {text:?} on {background:?}, reads at {ratio:.2}:1"
                );
            }
            // The ring of the control that has the keyboard (egui draws it with the
            // active widgets' edge): 3:1 on the page, as WCAG asks of a focus mark.
            let ring = contrast(visuals.widgets.active.bg_stroke.color, visuals.panel_fill);
            assert!(
                ring >= 3.0,
                "{theme:?}: the focus ring reads at {ring:.2}:1"
            );
            // A hint still reads as quieter than prose.
            let page = visuals.panel_fill;
            assert!(
                contrast(visuals.weak_text_color(), page) < contrast(visuals.text_color(), page),
                "{theme:?}: a hint as loud as prose"
            );
        }
        // The check can fail: egui's own code background and hints in the dark theme.
        let dark = egui::Visuals::dark();
        assert!(contrast(dark.text_color(), dark.code_bg_color) < 4.5);
        assert!(contrast(dark.weak_text_color(), dark.panel_fill) < 4.5);
    }
}
