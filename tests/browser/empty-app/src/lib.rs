//! An empty eframe app, started the way the app starts (`src/web/mod.rs`) and drawn
//! with the app's fonts: what a first visit costs before any page of the app.

use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;

/// The app's own fonts, from the app's own source.
#[path = "../../../../src/ui/fonts.rs"]
#[allow(dead_code)]
mod fonts;

/// Marks `skinlab:NAME` in the browser's performance timeline, as the app does.
fn mark(name: &str) {
    if let Some(performance) = web_sys::window().and_then(|w| w.performance()) {
        let _ = performance.mark(&format!("skinlab:{name}"));
    }
}

/// One heading and one line of text, and the marks around the first frame.
struct EmptyApp {
    marked: bool,
}

impl eframe::App for EmptyApp {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        let first = !self.marked;
        if first {
            self.marked = true;
            mark("first-ui");
            let painted = Closure::once_into_js(|| {
                mark("painted");
                let status = web_sys::window()
                    .and_then(|w| w.document())
                    .and_then(|d| d.get_element_by_id("status"));
                if let Some(status) = status {
                    let _ = status.set_attribute("hidden", "");
                }
            });
            if let Some(window) = web_sys::window() {
                let _ = window.request_animation_frame(painted.unchecked_ref());
            }
        }
        egui::CentralPanel::default().show(ui, |ui| {
            ui.heading("An empty app");
            ui.label("One heading and one line of text.");
        });
        if first {
            mark("first-ui-done");
        }
    }
}

#[wasm_bindgen(start)]
pub fn start() {
    mark("start");
    // No models to wait for: the phase is empty, as on the app's links that need none.
    mark("models");
    let canvas = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id("skinlab_canvas"))
        .and_then(|e| e.dyn_into::<web_sys::HtmlCanvasElement>().ok());
    let Some(canvas) = canvas else {
        return;
    };
    wasm_bindgen_futures::spawn_local(async move {
        let options = eframe::WebOptions {
            webgl_context_option: eframe::WebGlContextOption::WebGl2,
            ..Default::default()
        };
        let runner = eframe::WebRunner::new();
        let started = runner
            .start(
                canvas,
                options,
                Box::new(|cc| {
                    fonts::install(&cc.egui_ctx);
                    Ok(Box::new(EmptyApp { marked: false }))
                }),
            )
            .await;
        if started.is_ok() {
            mark("started");
            // The runner lives as long as the page.
            std::mem::forget(runner);
        }
    });
}
