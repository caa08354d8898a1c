//! The web build's fonts: egui's default fonts cut down to ASCII, punctuation,
//! super- and subscripts and the other characters the sources and chapters hold, without
//! TrueType hinting and without OpenType layout tables (no kerning, no ligatures: text looks
//! the same, the wasm is 8 kB gzipped smaller, and egui shapes each label with no lookups;
//! `scripts/web-fonts` writes them to `assets/fonts`), under the names
//! and in the families egui's defaults use. The desktop app keeps egui's full default
//! fonts. Both keep Hack behind the proportional font, for the characters Ubuntu Light
//! lacks (the superscript minus of `B⁻¹`). The browser draws any character these lack
//! (eframe's canvas glyph fallback);
//! `tests/book/web_fonts.rs` checks that the app's own text never needs it.

use egui::{FontData, FontDefinitions, FontFamily, FontTweak};
use std::sync::Arc;

/// The fonts, by the names egui's defaults give them.
const FONTS: [(&str, &[u8], f32); 3] = [
    (
        "Hack",
        include_bytes!("../../assets/fonts/Hack-Regular.ttf"),
        1.0,
    ),
    (
        "Ubuntu-Light",
        include_bytes!("../../assets/fonts/Ubuntu-Light.ttf"),
        1.0,
    ),
    // egui's own few icons (`egui::special_emojis`), smaller as in its defaults.
    (
        "egui-icons",
        include_bytes!("../../assets/fonts/egui-icons.ttf"),
        0.9,
    ),
];

/// egui's default font definitions, made of the cut fonts.
pub fn web_fonts() -> FontDefinitions {
    let mut fonts = FontDefinitions::empty();
    for (name, bytes, scale) in FONTS {
        let data = FontData::from_static(bytes).tweak(FontTweak {
            scale,
            // Drawn as they are: with their hinting cut, egui would hint them itself
            // (skrifa's autohinter), and with sub-pixel binning draw each letter at up to
            // four offsets. Together that was 95 ms of the web app's first frame, for
            // text that looks the same (docs/measurements.md).
            hinting: Some(false),
            subpixel_binning: Some(false),
            ..Default::default()
        });
        fonts.font_data.insert(name.to_owned(), Arc::new(data));
    }
    let family = |names: &[&str]| names.iter().map(|n| (*n).to_owned()).collect();
    fonts.families.insert(
        FontFamily::Monospace,
        family(&["Hack", "Ubuntu-Light", "egui-icons"]),
    );
    fonts.families.insert(
        FontFamily::Proportional,
        family(&["Ubuntu-Light", "egui-icons", "Hack"]),
    );
    fonts
}

/// egui's full default fonts, as the desktop app draws with them, with Hack behind the
/// proportional font: Ubuntu Light has no superscript minus, and `B⁻¹` is written in
/// labels as well as in code.
pub fn desktop_fonts() -> FontDefinitions {
    let mut fonts = FontDefinitions::default();
    if let Some(proportional) = fonts.families.get_mut(&FontFamily::Proportional)
        && !proportional.iter().any(|name| name == "Hack")
    {
        proportional.push("Hack".to_owned());
    }
    fonts
}

/// Gives `ctx` the app's fonts before its first frame: the cut fonts in the browser,
/// the full ones on the desktop (and in tests).
pub fn install(ctx: &egui::Context) {
    if cfg!(target_arch = "wasm32") {
        ctx.set_fonts(web_fonts());
    } else {
        ctx.set_fonts(desktop_fonts());
    }
}
