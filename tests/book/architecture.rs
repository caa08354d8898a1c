//! What ARCHITECTURE.md claims about the code, checked: no shell file over 500 lines,
//! and only the two pages it names call GL themselves.

use std::path::{Path, PathBuf};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Every `.rs` file under `dir`, deepest included.
fn sources(dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir(dir).expect("a source folder") {
        let path = entry.expect("an entry").path();
        if path.is_dir() {
            found.extend(sources(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            found.push(path);
        }
    }
    found
}

#[test]
fn no_shell_file_passes_five_hundred_lines() {
    let shell = sources(&root().join("src/app"));
    assert!(shell.len() >= 8, "the shell's files: {shell:?}");
    let long: Vec<String> = shell
        .iter()
        .filter_map(|path| {
            let lines = std::fs::read_to_string(path)
                .expect("readable")
                .lines()
                .count();
            (lines > 500).then(|| format!("{} ({lines} lines)", path.display()))
        })
        .collect();
    assert!(long.is_empty(), "over 500 lines: {long:?}");
}

#[test]
fn only_the_gpu_measurements_and_the_model_readback_call_gl_from_a_page() {
    let pages = root().join("src/pages");
    let mut calling: Vec<String> = sources(&pages)
        .iter()
        .filter(|path| {
            let text = std::fs::read_to_string(path).expect("readable");
            // GL itself, the renderer, or a read back from the GPU.
            ["glow::", "SceneRenderer", "capture_skinned"]
                .iter()
                .any(|call| text.contains(call))
        })
        .map(|path| {
            path.strip_prefix(&pages)
                .expect("under pages")
                .to_string_lossy()
                .replace('\\', "/")
        })
        .collect();
    calling.sort();
    assert_eq!(calling, ["gpu/measure.rs", "model/view.rs"]);
    let doc = std::fs::read_to_string(root().join("ARCHITECTURE.md")).expect("ARCHITECTURE.md");
    for file in &calling {
        assert!(
            doc.contains(&format!("pages/{file}")),
            "ARCHITECTURE.md names {file}"
        );
    }
}
