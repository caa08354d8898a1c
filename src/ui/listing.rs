//! A block of code in the notebook: on the code background, its lines broken to fit the
//! column where a note or a second column begins, and hanging under their start.

use egui::{RichText, Ui};

/// A block of code on the code background, full width, in [`crate::ui::code_text_color`].
/// A line too wide for the column breaks where a note or a second column begins
/// ([`fit_columns`]); what is still too wide wraps.
pub fn code_ui(ui: &mut Ui, code: &str) {
    egui::Frame::new()
        .fill(ui.visuals().code_bg_color)
        .inner_margin(6.0)
        .corner_radius(4.0)
        .show(ui, |ui| {
            ui.set_width(ui.available_width());
            let color = crate::ui::code_text_color(ui.visuals().dark_mode);
            lines_ui(ui, code, |text| text.color(color));
        });
}

/// Lines of monospaced text (readouts, working) at the column's width: a line too wide
/// breaks as [`code_ui`] breaks it, with no code background. `style` colours it.
pub fn lines_ui(ui: &mut Ui, text: &str, style: impl FnOnce(RichText) -> RichText) {
    let mono = egui::TextStyle::Monospace.resolve(ui.style());
    let fitted = fit_width(ui.ctx(), &mono, ui.available_width(), text);
    let shown = ui.add(egui::Label::new(style(RichText::new(fitted.as_ref()).monospace())).wrap());
    // Read aloud (and found by tests) as written, not as broken to fit.
    if fitted != text {
        shown.widget_info(|| egui::WidgetInfo::labeled(egui::accesskit::Role::Label, true, text));
    }
}

/// `text` in the monospaced `font`, broken as [`lines_ui`] breaks it to fit `width`
/// points: for text painted in a viewport.
pub fn fit_width<'a>(
    ctx: &egui::Context,
    font: &egui::FontId,
    width: f32,
    text: &'a str,
) -> std::borrow::Cow<'a, str> {
    let per_char = ctx.fonts_mut(|f| f.glyph_width(font, '0')).max(1.0);
    // Half a character spare: a line that fills the column to within a hair was seen
    // wrapped by the label before its last character.
    let columns = (width / per_char - 0.5).floor().max(1.0) as usize;
    fit_columns(text, columns)
}

/// Signs a line of formulas does not break after: `v − (0, 1, 0)` breaks before the
/// `−`, if at all, never between it and what it takes.
pub const OPERATORS: [&str; 7] = ["−", "-", "+", "×", "·", "=", "→"];

/// The signs between a sum's terms: a line breaks before one of these rather than
/// inside a product, so `+ 2.00 × 1.00` goes to the next line together.
const SUM_SIGNS: [&str; 4] = ["+", "−", "-", "→"];

/// How a character changes the depth of brackets: a break inside them would cut a
/// vector, a bracketed product or `sin(45°)`.
pub fn bracket_step(c: char) -> i32 {
    match c {
        '(' | '[' | '{' => 1,
        ')' | ']' | '}' => -1,
        _ => 0,
    }
}

/// Whether a line of formulas may break after `before`, at brackets' depth `depth`:
/// outside brackets, and not after a lone operator.
pub fn may_break_after(before: &str, depth: i32) -> bool {
    depth <= 0 && !OPERATORS.contains(&before.split_whitespace().next_back().unwrap_or(""))
}

/// `indent`, shorter where the longest word of `line` after its first would not fit
/// after it: the word would otherwise be left to wrap inside itself. Only an indent of
/// plain spaces shrinks (a comment's `// ` keeps its marks).
fn hang<'a>(indent: &'a str, line: &str, columns: usize) -> &'a str {
    let longest = (line.split_whitespace().skip(1).map(width))
        .max()
        .unwrap_or(0);
    if indent.bytes().all(|b| b == b' ') && width(indent) + longest > columns {
        &indent[..columns.saturating_sub(longest).min(indent.len())]
    } else {
        indent
    }
}

/// How far in the rest of a broken line starts, past the line's own indent.
const BROKEN_INDENT: usize = 4;

/// `code` with every line longer than `columns` characters broken at a gap of three
/// spaces or more ([`break_at`]): where a note beside the code, or a second column,
/// begins. The rest goes on the next line, [`BROKEN_INDENT`] further in than the line,
/// and breaks again if it is still too long. A line that fits breaks too where another
/// line broke at the same column, so that the block's columns stay alike. A table
/// row's short label (a first gap at most a third of the way in) stays beside its
/// values, which break hanging under each other. A line with no gap breaks at spaces
/// ([`spaced`]).
fn fit_columns(code: &str, columns: usize) -> std::borrow::Cow<'_, str> {
    if code.lines().all(|line| width(line) <= columns) {
        return code.into();
    }
    // A table row's label: a first gap that leaves at most a third of the row before
    // what follows it. A row too long breaks among its values, hanging under them,
    // and keeps its label beside them.
    let label_gap = |line: &str, at: usize| {
        let column = note_column(line, at);
        gaps(line).next().map(|first| note_column(line, first)) == Some(column)
            && column * 3 <= columns
    };
    // The columns where the broken lines' notes began.
    let broken: Vec<usize> = code
        .lines()
        .filter_map(|line| Some((line, break_at(line, columns)?)))
        .filter(|&(line, at)| !label_gap(line, at))
        .map(|(line, at)| note_column(line, at))
        .collect();
    let mut out = Vec::new();
    for line in code.lines() {
        if let Some(at) = break_at(line, columns).filter(|&at| label_gap(line, at)) {
            let column = note_column(line, at);
            out.extend(spaced(line, columns, &" ".repeat(column), column));
            continue;
        }
        let indent = " ".repeat(width(line) - width(line.trim_start()) + BROKEN_INDENT);
        let indent = hang(&indent, line, columns);
        let mut rest = line.to_owned();
        let mut at = break_at(&rest, columns)
            .or_else(|| gaps(line).find(|&at| broken.contains(&note_column(line, at))));
        // Each break uses up one of the line's gaps, so this ends.
        while let Some(here) = at {
            out.extend(spaced(rest[..here].trim_end(), columns, indent, 0));
            rest = format!("{indent}{}", rest[here..].trim_start());
            at = break_at(&rest, columns);
        }
        out.extend(spaced(&rest, columns, indent, 0));
    }
    out.join("\n").into()
}

/// One line of a source listing broken at spaces to fit `columns` characters, each part
/// after the first hanging [`BROKEN_INDENT`] further in than the line starts, so a call
/// that wraps stays under its own code; a comment line's parts each start `// `.
pub fn hung(line: &str, columns: usize) -> String {
    // Less indent where the first word would not fit after it: a word pushed whole to
    // the next row would leave a row of spaces and start at the first column.
    let code = line.trim_start();
    let first = width(code.split(' ').next().unwrap_or(""));
    let lead = (width(line) - width(code)).min(columns.saturating_sub(first));
    let line = &format!("{}{code}", " ".repeat(lead));
    // A comment's rest stays a comment: it goes on after `// ` at the same indent.
    let indent = if line.trim_start().starts_with("//") {
        format!("{}// ", " ".repeat(lead))
    } else {
        " ".repeat(lead + BROKEN_INDENT)
    };
    spaced(line, columns, &indent, 0).join("\n")
}

/// `line` broken at spaces so that each part fits `columns`, as a last resort where it
/// has no gap left: the rest starts at `indent` ([`hang`]), so a wrapped line hangs
/// under its start rather than running back to the first column. No break comes
/// before character `from` (a table row's label stays beside its values). A word
/// longer than the column is left to wrap.
fn spaced(line: &str, columns: usize, indent: &str, from: usize) -> Vec<String> {
    let indent = hang(indent, line, columns);
    let indent_width = width(indent);
    let mut out = Vec::new();
    let mut rest = line.to_owned();
    let mut from = from;
    while width(rest.trim_end()) > columns {
        let lead = rest.len() - rest.trim_start().len();
        // Each space that fits and leaves more than the indent before it (so the
        // line gets shorter), with whether a break there is a good one
        // ([`may_break_after`]).
        let mut depth = 0i32;
        let spaces: Vec<(usize, usize, bool)> = (rest.char_indices().take(columns + 1))
            .enumerate()
            .filter_map(|(n, (at, c))| {
                depth += bracket_step(c);
                let fits = c == ' ' && at > lead && n >= from && n > indent_width;
                fits.then(|| (n, at, may_break_after(&rest[..at], depth)))
            })
            .collect();
        // In this order: the last good space that leaves the row at least a quarter
        // full and ends a value (two spaces: where one value of a row ends and the
        // next begins; not those that line up an `=`); then one before a sum's sign;
        // then any good one that leaves the row a quarter full; else the last space.
        let double =
            |at: usize| rest[..at].ends_with(' ') && !rest[at..].trim_start().starts_with('=');
        let before_sign = |at: usize| {
            let next = rest[at..].trim_start();
            (SUM_SIGNS.iter()).any(|s| next.strip_prefix(s).is_some_and(|r| r.starts_with(' ')))
        };
        let good = |(n, _, ok): &&(usize, usize, bool)| *ok && *n * 4 >= columns;
        let space = (spaces.iter().rev())
            .filter(good)
            .find(|(_, at, _)| double(*at))
            .or_else(|| (spaces.iter().rev().filter(good)).find(|(_, at, _)| before_sign(*at)))
            .or_else(|| spaces.iter().rev().find(good))
            .or(spaces.last())
            .map(|(_, at, _)| *at);
        let Some(at) = space.filter(|&at| !rest[..at].trim().is_empty()) else {
            break;
        };
        out.push(rest[..at].trim_end().to_owned());
        rest = format!("{indent}{}", rest[at..].trim_start());
        from = 0;
    }
    out.push(rest);
    out
}

/// How many characters `text` takes in a monospace font.
fn width(text: &str) -> usize {
    text.chars().count()
}

/// Where [`fit_columns`] breaks `line`: its right-most gap that leaves the part
/// before it within `columns`, else its first gap (the columns then stand apart, each
/// wrapping); `None` when the line fits or has no gap.
fn break_at(line: &str, columns: usize) -> Option<usize> {
    if width(line) <= columns {
        return None;
    }
    let fitting = gaps(line)
        .filter(|&at| width(line[..at].trim_end()) <= columns)
        .last();
    fitting.or_else(|| gaps(line).next())
}

/// Where each gap of three spaces or more after `line`'s first word starts, in bytes:
/// a gap with nothing after it, or with an `=` after it (the spaces that line up a
/// table's equations), is not one to break at.
fn gaps(line: &str) -> impl Iterator<Item = usize> + '_ {
    let start = line.len() - line.trim_start().len();
    line[start..]
        .match_indices("   ")
        .map(move |(at, _)| start + at)
        .filter(|&at| {
            let after = line[at..].trim_start();
            !after.is_empty() && !after.starts_with('=')
        })
}

/// The column where what follows the gap at `at` begins.
fn note_column(line: &str, at: usize) -> usize {
    width(line) - width(line[at..].trim_start())
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_line_breaks_outside_brackets_where_it_can() {
        let line = "from clip A  (-0.012,  0.053,  0.973,  0.225)";
        let parts = spaced(line, 40, "    ", 0);
        assert_eq!(
            parts,
            ["from clip A", "    (-0.012,  0.053,  0.973,  0.225)"]
        );
        // A vector alone longer than the row still breaks inside.
        let parts = spaced("(-0.012,  0.053,  0.973,  0.225)", 20, "  ", 0);
        assert!(parts.len() > 1, "{parts:?}");
    }

    use super::hung;

    #[test]
    fn a_listing_line_hangs_under_its_code_and_a_comment_stays_a_comment() {
        assert_eq!(
            hung("    return mat4(texelFetch(u_bone_texture, a), b);", 40),
            "    return\n        mat4(texelFetch(u_bone_texture,\n        a), b);"
        );
        assert_eq!(
            hung("// round them first, then read", 20),
            "// round them first,\n// then read"
        );
        // A first word that would not fit after its indent takes less of it.
        assert_eq!(
            hung(
                "        texelFetch(u_bone_texture, ivec2(0, joint), 0),",
                33
            ),
            "       texelFetch(u_bone_texture,\n           ivec2(0, joint), 0),"
        );
    }

    use super::*;

    #[test]
    fn a_note_beside_code_too_wide_for_the_column_goes_under_it() {
        let dqs = "q' = normalise( w[0] · q[0] + w[1] · q[1] )     q' = r + ε·d\n\
                   t  = vector part of 2 · d · r*                 the translation it carries";
        assert_eq!(fit_columns(dqs, 80), dqs, "it fits: left as it is");
        assert_eq!(
            fit_columns(dqs, 50),
            "q' = normalise( w[0] · q[0] + w[1] · q[1] )\n    q' = r + ε·d\n\
             t  = vector part of 2 · d · r*\n    the translation it carries"
        );
        // The right-most gap that leaves the first part short enough; an indented line
        // keeps its indent, and the rest goes four further in.
        let table = "  B[j]       = W[j] at bind time      the joint in the bind pose";
        assert_eq!(
            fit_columns(table, 40),
            "  B[j]       = W[j] at bind time\n      the joint in the bind pose"
        );
        assert_eq!(
            fit_columns(table, 20),
            "  B[j]       = W[j]\n      at bind time\n      the joint in\n      the bind pose",
            "the spaces that line up an `=` are not a gap: that part breaks at a space"
        );
        let three = "a   b   c   d";
        assert_eq!(
            fit_columns(three, 6),
            "a   b\n    c\n    d",
            "and again while the rest is too long"
        );
        // Trailing spaces are not a gap, nor do they make a line too long.
        assert_eq!(
            fit_columns("a = b + c + d      ", 14),
            "a = b + c + d      "
        );
        // A line that fits breaks where another broke at the same column: where their
        // notes begin, however long the parts before them.
        let pair = "point  p = (x, y, z, 1)   →  moved\nvector v = (x, y, z, 0)   →  never moved";
        assert_eq!(
            fit_columns(pair, 36),
            "point  p = (x, y, z, 1)\n    →  moved\nvector v = (x, y, z, 0)\n    →  never moved"
        );
        let table = "area = a · b       a note\nlonger left part   another note that is long";
        assert_eq!(
            fit_columns(table, 30),
            "area = a · b\n    a note\nlonger left part\n    another note that is long"
        );
        // A table row with a short label: its values break, hanging under them.
        let rows =
            "given      0:0.184  1:0.554  2:0.874\npad        joints [3, 4]  weights [0.3, 0.7]";
        assert_eq!(
            fit_columns(rows, 34),
            "given      0:0.184  1:0.554\n           2:0.874\npad        joints [3, 4]\n           weights [0.3, 0.7]"
        );
        // A narrow column: the hang shrinks so the longest word fits, and the formula
        // breaks before its operators.
        assert_eq!(
            fit_columns("forearm.L: gradient · bind = target", 11),
            "forearm.L:\n   gradient\n   · bind\n   = target"
        );
        // A sum breaks before a term, never inside a product.
        assert_eq!(
            fit_columns("= 0.54 × -2.00 + 0.00 × 0.00 + 2.00 × 1.00", 36),
            "= 0.54 × -2.00 + 0.00 × 0.00\n    + 2.00 × 1.00"
        );
        // A label's row whose values have no gap that fits still breaks among them,
        // never right after the label.
        assert_eq!(
            fit_columns(
                "pad        joints [3, 4, 5, 6, 7, 8, 9]  weights [0.3, 0.7]",
                40
            ),
            "pad        joints [3, 4, 5, 6, 7, 8, 9]\n           weights [0.3, 0.7]"
        );
        // Not after an operator, however many spaces follow it.
        assert_eq!(
            fit_columns("x =   (1.00, 2.00) + (3.00, 4.00)", 20),
            "x =   (1.00, 2.00)\n      + (3.00, 4.00)"
        );
        // No gap to break at: broken at spaces, the rest hanging four in. Characters,
        // not bytes, are counted.
        let formula = "σ1 · σ2 = the area of the ellipse over the area of the circle";
        assert_eq!(
            fit_columns(formula, 30),
            "σ1 · σ2 = the area of the\n    ellipse over the area of\n    the circle"
        );
        assert_eq!(fit_columns("σσσσσσ   ε", 10), "σσσσσσ   ε");
        // A word longer than the column is left to wrap.
        assert_eq!(fit_columns("abcdefghijkl", 5), "abcdefghijkl");
    }
}
