//! The runtime stands without the explanations: outside their tests, the crate's
//! runtime modules never name `explain`, so a project can take the runtime alone.

use std::path::Path;

#[test]
fn the_runtime_never_uses_the_explanations() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut runtime = vec![src.join("job/avx2.rs")];
    for entry in std::fs::read_dir(&src).expect("src is readable") {
        let path = entry.expect("an entry").path();
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default();
        if name.ends_with(".rs") && name != "lib.rs" {
            runtime.push(path);
        }
    }
    assert!(runtime.len() >= 10, "the runtime's modules: {runtime:?}");
    for path in runtime {
        let text = std::fs::read_to_string(&path).expect("a module is readable");
        // What comes before a module's tests is what a user of the crate compiles;
        // comments may point a reader there.
        let code = text.split("#[cfg(test)]").next().unwrap_or_default();
        let uses = code
            .lines()
            .filter(|line| !line.trim_start().starts_with("//"))
            .any(|line| line.contains("explain"));
        assert!(
            !uses,
            "{} names `explain` outside its tests",
            path.display()
        );
    }
}
