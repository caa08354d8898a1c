//! The crate's layers, read from the source text: `skin` is mathematics with glam only
//! (no lesson, no GL, no egui), `rigs` builds on `skin` alone, `model` (the glTF
//! reader) on `skin` and the `base64` leaf, `gl` knows `skin` and nothing above it, and `skin`'s own modules import one another without a cycle.
//! The compiler accepts all of these mistakes, so only a test like this catches them.

use std::collections::BTreeMap;
use std::path::Path;

/// Every `.rs` file under `src/<dir>`, as (path inside `src`, code without comments).
fn sources(dir: &str) -> Vec<(String, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut out = Vec::new();
    let mut pending = vec![root.join(dir)];
    while let Some(dir) = pending.pop() {
        let entries = std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{dir:?}: {e}"));
        for entry in entries {
            let path = entry.expect("a directory entry").path();
            if path.is_dir() {
                pending.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let text = std::fs::read_to_string(&path).expect("a source file");
                let name = path.strip_prefix(&root).unwrap_or(&path);
                out.push((name.display().to_string(), strip_comments(&text)));
            }
        }
    }
    out.sort();
    assert!(!out.is_empty(), "no sources under src/{dir}");
    out
}

/// `text` without its comments (doc comments included) and with its string and
/// character literals emptied: prose and messages may name another layer, code may not.
fn strip_comments(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            let mut depth = 0;
            while i < chars.len() {
                if chars[i] == '/' && chars.get(i + 1) == Some(&'*') {
                    depth += 1;
                    i += 2;
                } else if chars[i] == '*' && chars.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
        } else if c == 'r'
            && !out.chars().next_back().is_some_and(is_ident)
            && matches!(next, Some('"' | '#'))
        {
            // A raw string: r"…" or r#"…"#, whose quotes inside do not end it.
            let hashes = chars[i + 1..].iter().take_while(|c| **c == '#').count();
            let open = i + 1 + hashes;
            if chars.get(open) != Some(&'"') {
                out.push(c);
                i += 1;
                continue;
            }
            let close: Vec<char> = std::iter::once('"')
                .chain(std::iter::repeat_n('#', hashes))
                .collect();
            let end = (open + 1..chars.len())
                .find(|&j| chars[j..].starts_with(&close))
                .map_or(chars.len(), |j| j + close.len());
            out.push_str("r\"\"");
            i = end;
        } else if c == '"' {
            i += 1;
            while i < chars.len() && chars[i] != '"' {
                // An escaped character, a quote among them, does not end the string.
                i += if chars[i] == '\\' { 2 } else { 1 };
            }
            out.push_str("\"\"");
            i += 1;
        } else if c == '\'' && (next == Some('\\') || chars.get(i + 2) == Some(&'\'')) {
            // A character literal such as '"' or '\n'; a lifetime has no closing quote.
            let from = if next == Some('\\') { i + 3 } else { i + 2 };
            let end = (from..chars.len())
                .find(|&j| chars[j] == '\'')
                .unwrap_or(chars.len() - 1);
            out.push_str("' '");
            i = end + 1;
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

fn is_ident(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// The first segment of every path that follows `prefix` in `code`: `prefix::a::b` gives
/// `a`, and a group `prefix::{a, b::c}` gives `a` and `b`.
fn names_after(code: &str, prefix: &str) -> Vec<String> {
    let mut names = Vec::new();
    for (at, _) in code.match_indices(prefix) {
        // `xcrate::` or `my_super::` is another path.
        if code[..at].chars().next_back().is_some_and(is_ident) {
            continue;
        }
        let rest = code[at + prefix.len()..].trim_start();
        if let Some(group) = rest.strip_prefix('{') {
            let mut depth = 0;
            let mut item = String::new();
            let mut items = Vec::new();
            for c in group.chars() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => break,
                    '}' => depth -= 1,
                    ',' if depth == 0 => items.push(std::mem::take(&mut item)),
                    _ => {}
                }
                if depth == 0 && c != ',' {
                    item.push(c);
                }
            }
            items.push(item);
            for item in items {
                let name: String = item.trim().chars().take_while(|c| is_ident(*c)).collect();
                if !name.is_empty() {
                    names.push(name);
                }
            }
        } else {
            let name: String = rest.chars().take_while(|c| is_ident(*c)).collect();
            if !name.is_empty() {
                names.push(name);
            }
        }
    }
    names
}

/// The crate-level modules `code` names: through `crate::`, and through
/// `super::super::` (from a file one level down, that is the crate too).
fn crate_modules(code: &str) -> Vec<String> {
    let mut names = names_after(code, "crate::");
    names.extend(names_after(code, "super::super::"));
    names
}

/// Identifiers of `code` that name egui or glow (or their companion crates).
fn ui_or_gl_crates(code: &str) -> Vec<String> {
    code.split(|c: char| !is_ident(c))
        .filter(|w| {
            ["egui", "glow"]
                .iter()
                .any(|k| *w == *k || w.strip_prefix(k).is_some_and(|r| r.starts_with('_')))
        })
        .map(str::to_owned)
        .collect()
}

/// Which crate-level names a layer may use.
enum May<'a> {
    /// These and nothing else.
    Only(&'a [&'a str]),
    /// Anything but these.
    AllBut(&'a [&'a str]),
}

/// What each file names that it must not: crate-level names its layer may not use, and
/// egui or glow unless `ui_allowed`.
fn forbidden(files: &[(String, String)], may: May, ui_allowed: bool) -> Vec<String> {
    let mut found = Vec::new();
    for (path, code) in files {
        for name in crate_modules(code) {
            let allowed = match may {
                May::Only(names) => names.contains(&name.as_str()),
                May::AllBut(names) => !names.contains(&name.as_str()),
            };
            if !allowed {
                found.push(format!("{path} uses crate::{name}"));
            }
        }
        if !ui_allowed {
            for word in ui_or_gl_crates(code) {
                found.push(format!("{path} uses {word}"));
            }
        }
    }
    found
}

/// Module `m` -> the sibling modules it names through `super::` or `crate::<dir>::`.
fn import_graph(files: &[(String, String)], dir: &str) -> BTreeMap<String, Vec<String>> {
    let module = |path: &str| {
        Path::new(path)
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default()
    };
    let siblings: Vec<String> = files
        .iter()
        .map(|(p, _)| module(p))
        .filter(|m| m != "mod")
        .collect();
    let mut graph = BTreeMap::new();
    for (path, code) in files {
        let from = module(path);
        if from == "mod" {
            continue;
        }
        let mut to: Vec<String> = names_after(code, "super::")
            .into_iter()
            .chain(names_after(code, &format!("crate::{dir}::")))
            .filter(|n| *n != from && siblings.contains(n))
            .collect();
        to.sort();
        to.dedup();
        graph.insert(from, to);
    }
    graph
}

/// A cycle in `graph` as the modules along it (first repeated at the end), if any.
fn find_cycle(graph: &BTreeMap<String, Vec<String>>) -> Option<Vec<String>> {
    fn visit(
        node: &str,
        graph: &BTreeMap<String, Vec<String>>,
        path: &mut Vec<String>,
        done: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        if let Some(start) = path.iter().position(|n| n == node) {
            let mut cycle = path[start..].to_vec();
            cycle.push(node.to_owned());
            return Some(cycle);
        }
        if done.iter().any(|n| n == node) {
            return None;
        }
        path.push(node.to_owned());
        for next in graph.get(node).into_iter().flatten() {
            if let Some(cycle) = visit(next, graph, path, done) {
                return Some(cycle);
            }
        }
        path.pop();
        done.push(node.to_owned());
        None
    }
    let mut done = Vec::new();
    graph
        .keys()
        .find_map(|node| visit(node, graph, &mut Vec::new(), &mut done))
}

#[test]
fn skin_imports_no_lesson_no_gl_and_no_ui() {
    let found = forbidden(&sources("skin"), May::Only(&["skin"]), false);
    assert!(
        found.is_empty(),
        "skin must stay glam-only:\n{}",
        found.join("\n")
    );
}

#[test]
fn rigs_build_on_skin_alone() {
    let found = forbidden(&sources("rigs"), May::Only(&["skin", "rigs"]), false);
    assert!(
        found.is_empty(),
        "rigs depend on skin only:\n{}",
        found.join("\n")
    );
}

#[test]
fn the_gltf_boundary_hands_out_skin_types_only() {
    // `base64` is a leaf: it reads and writes bytes and imports nothing of the crate.
    let found = forbidden(
        &sources("model"),
        May::Only(&["skin", "model", "base64"]),
        false,
    );
    assert!(
        found.is_empty(),
        "model depends on skin only:\n{}",
        found.join("\n")
    );
}

#[test]
fn gl_knows_skin_and_nothing_above_it() {
    let found = forbidden(
        &sources("gl"),
        May::AllBut(&["rigs", "pages", "ui", "app"]),
        true,
    );
    assert!(
        found.is_empty(),
        "gl must not reach up:\n{}",
        found.join("\n")
    );
}

#[test]
fn skin_modules_import_one_another_without_a_cycle() {
    let graph = import_graph(&sources("skin"), "skin");
    assert!(graph.len() >= 8, "the skin modules were read: {graph:?}");
    assert!(
        graph.values().any(|to| !to.is_empty()),
        "the reader found skin's own imports: {graph:?}"
    );
    if let Some(cycle) = find_cycle(&graph) {
        panic!("skin modules import in a circle: {}", cycle.join(" -> "));
    }
}

/// The checks themselves catch what they are for.
#[test]
fn the_checks_catch_bad_imports_and_cycles() {
    let file = |name: &str, code: &str| (format!("skin/{name}.rs"), strip_comments(code));
    let bad = [
        file("a", "use crate::rigs::arm;"),
        file("b", "use crate::{gl::Scene, skin::lbs};"),
        file("c", "fn f(ui: &mut egui::Ui) {}"),
        file("d", "use egui_glow::Painter;"),
        file("e", "let x = super::super::pages::grid::data::LINES;"),
    ];
    let found = forbidden(&bad, May::Only(&["skin"]), false);
    assert_eq!(found.len(), 5, "{found:?}");
    let fine = [
        file(
            "f",
            "//! Nothing here uses crate::rigs or egui.\nuse crate::skin::lbs;",
        ),
        file(
            "g",
            "let s = \"// not a comment\"; let q = '\"'; use super::lbs; // crate::gl",
        ),
        file(
            "h",
            "fn glowing() {} /* crate::ui */ use crate::skin::{Influences, lbs};",
        ),
        file(
            "i",
            "let s = r#\"a \" // crate::gl\"#; let l: &'static str = s;",
        ),
    ];
    assert_eq!(
        forbidden(&fine, May::Only(&["skin"]), false),
        Vec::<String>::new()
    );
    let gl = [file(
        "renderer",
        "use crate::skin::lbs; use crate::ui::Viewport;",
    )];
    assert_eq!(
        forbidden(&gl, May::AllBut(&["rigs", "pages", "ui", "app"]), true).len(),
        1
    );

    let cyclic = [
        file("lbs", "use super::normals::transform_normal;"),
        file(
            "normals",
            "use super::influences::Influences;\nuse crate::skin::{lbs::SkinMesh};",
        ),
        file("influences", "use std::fmt;"),
    ];
    let graph = import_graph(&cyclic, "skin");
    assert_eq!(
        find_cycle(&graph),
        Some(vec![
            "lbs".to_owned(),
            "normals".to_owned(),
            "lbs".to_owned()
        ])
    );
    let acyclic = [
        file(
            "lbs",
            "use super::normals::transform_normal;\nuse super::influences::*;",
        ),
        file("normals", "//! See [`super::lbs`].\nuse glam::Vec3;"),
        file("influences", "mod tests { use super::*; }"),
    ];
    assert_eq!(find_cycle(&import_graph(&acyclic, "skin")), None);
}
