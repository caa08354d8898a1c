//! The web build's cut fonts (`skinlab::ui::fonts`) against egui's full default fonts,
//! which the desktop app and the page tests use: every character the sources and the
//! chapters hold that a full font draws, the cut one draws too, in both families.

use egui::epaint::text::{Fonts, TextOptions};
use egui::{FontFamily, FontId};
use std::collections::BTreeSet;
use std::path::Path;

/// Every character of every file under `dir` (recursively) whose name ends in `ext`.
fn characters(dir: &Path, ext: &str, out: &mut BTreeSet<char>) {
    let entries = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{dir:?}: {e}"));
    for entry in entries {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            characters(&path, ext, out);
        } else if path.extension().is_some_and(|e| e == ext) {
            let text = std::fs::read_to_string(&path).expect("a text file");
            out.extend(text.chars().filter(|c| !c.is_control()));
        }
    }
}

#[test]
fn the_web_fonts_draw_every_character_the_full_fonts_draw() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut chars = BTreeSet::new();
    characters(&root.join("src"), "rs", &mut chars);
    characters(&root.join("crates"), "rs", &mut chars);
    characters(&root.join("chapters"), "md", &mut chars);
    for c in ['·', '×', '−', '°', '⁻', '¹', 'θ', '→', '⎡'] {
        assert!(chars.contains(&c), "the sources hold {c:?}");
    }

    let mut full = Fonts::new(TextOptions::default(), skinlab::ui::fonts::desktop_fonts());
    let mut web = Fonts::new(TextOptions::default(), skinlab::ui::fonts::web_fonts());
    let mut missing = Vec::new();
    for family in [FontFamily::Proportional, FontFamily::Monospace] {
        let font = FontId::new(14.0, family.clone());
        for &c in &chars {
            if full.has_glyph(&font, c) && !web.has_glyph(&font, c) {
                missing.push(format!("{c:?} (U+{:04X}) in {family:?}", c as u32));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "missing from the web fonts (run scripts/web-fonts):\n{}",
        missing.join("\n")
    );
}

#[test]
fn the_web_fonts_are_the_desktop_fonts_by_name_and_family() {
    let full = skinlab::ui::fonts::desktop_fonts();
    let web = skinlab::ui::fonts::web_fonts();
    assert_eq!(
        full.font_data.keys().collect::<Vec<_>>(),
        web.font_data.keys().collect::<Vec<_>>()
    );
    assert_eq!(full.families, web.families);
    for (name, data) in &full.font_data {
        // The same scale and offsets; the web draws its cut fonts unhinted and without
        // sub-pixel binning (src/ui/fonts.rs says why).
        let web = &web.font_data[name].tweak;
        assert_eq!(
            (web.hinting, web.subpixel_binning),
            (Some(false), Some(false)),
            "{name}"
        );
        let as_desktop = egui::FontTweak {
            hinting: data.tweak.hinting,
            subpixel_binning: data.tweak.subpixel_binning,
            ..web.clone()
        };
        assert_eq!(data.tweak, as_desktop, "{name}");
    }
}

/// The four-letter tags of a TrueType file's tables, from its table directory.
fn table_tags(font: &[u8]) -> Vec<String> {
    let count = u16::from_be_bytes([font[4], font[5]]) as usize;
    (0..count)
        .map(|i| String::from_utf8_lossy(&font[12 + 16 * i..16 + 16 * i]).into_owned())
        .collect()
}

#[test]
fn the_web_fonts_carry_no_layout_tables() {
    // Without GSUB, GPOS and GDEF egui shapes each label with no lookups, and the wasm
    // is 8 kB gzipped smaller (scripts/web-fonts).
    let web = skinlab::ui::fonts::web_fonts();
    let full = skinlab::ui::fonts::desktop_fonts();
    for (name, data) in &web.font_data {
        let tags = table_tags((*data.font).as_ref());
        assert!(tags.iter().any(|t| t == "glyf"), "{name}: {tags:?}");
        for layout in ["GSUB", "GPOS", "GDEF"] {
            assert!(!tags.iter().any(|t| t == layout), "{name} holds {layout}");
        }
    }
    // The check reads the table directory right: the desktop's Ubuntu Light kerns.
    assert!(
        table_tags((*full.font_data["Ubuntu-Light"].font).as_ref()).contains(&"GPOS".to_owned())
    );
}
