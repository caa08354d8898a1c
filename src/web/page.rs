//! The page around the app's canvas (`index.html`): its canvas, its status line, and the
//! marks of the start in the browser's performance timeline that the browser check reads
//! as the phases of a first visit. Only `web_sys` and `wasm_bindgen`: the empty app the
//! check times beside the app (`tests/browser/empty-app`) includes this file, so both
//! mark and show their start the same way.

use wasm_bindgen::JsCast as _;
use wasm_bindgen::prelude::*;

/// Shows `text` in the page's status line over the canvas (or hides it when `None`).
pub fn status(text: Option<&str>) {
    let Some(element) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id("status"))
    else {
        return;
    };
    match text {
        Some(text) => {
            element.set_text_content(Some(text));
            let _ = element.remove_attribute("hidden");
        }
        None => {
            let _ = element.set_attribute("hidden", "");
        }
    }
}

/// Marks a moment of the start in the browser's performance timeline as
/// `skinlab:NAME`: the browser check reads them as the phases of a first visit.
pub fn mark(name: &str) {
    if let Some(performance) = web_sys::window().and_then(|w| w.performance()) {
        let _ = performance.mark(&format!("skinlab:{name}"));
    }
}

/// Marks `skinlab:painted` at the next animation frame, and hides the status line: the
/// first frame's paint, which follows its `ui` in the same frame, is done by then, so
/// the line gives way to the page itself rather than to a blank canvas.
pub fn mark_painted() {
    let Some(window) = web_sys::window() else {
        return;
    };
    let painted = Closure::once_into_js(|| {
        mark("painted");
        // Unless the context went in the meantime: its own message stays.
        let lost = page_canvas().is_some_and(|canvas| canvas.has_attribute("data-lost"));
        if !lost {
            status(None);
        }
    });
    let _ = window.request_animation_frame(painted.unchecked_ref());
}

/// The page's canvas, `skinlab_canvas` (index.html).
pub fn page_canvas() -> Option<web_sys::HtmlCanvasElement> {
    web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id("skinlab_canvas"))
        .and_then(|e| e.dyn_into().ok())
}
