//! Writes each chapter as the web app carries it: without the blocks only the book shows
//! (`chapter::app_text`, the same code the app is built with). The desktop app keeps the
//! whole chapters, since `skinlab-book` builds the book from them.

#[allow(dead_code)]
#[path = "src/chapter/mod.rs"]
mod chapter;

use std::{env, fs, path::PathBuf};

fn main() {
    println!("cargo:rerun-if-changed=chapters");
    println!("cargo:rerun-if-changed=src/chapter/mod.rs");
    let out = PathBuf::from(env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("chapters");
    fs::create_dir_all(&out).expect("the build's own folder can be written");
    for entry in fs::read_dir("chapters").expect("the chapters folder") {
        let path = entry.expect("a chapter file").path();
        if path.extension().is_some_and(|e| e == "md") {
            let text = fs::read_to_string(&path).expect("a chapter is UTF-8 text");
            let name = path.file_name().expect("a file name");
            fs::write(out.join(name), chapter::app_text(&text)).expect("written");
        }
    }
}
