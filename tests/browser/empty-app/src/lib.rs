//! An empty eframe app, started the way the app starts (`src/web/mod.rs`) and drawn
//! with the app's fonts: what a first visit costs before any page of the app.

/// The app's own fonts, from the app's own source.
#[path = "../../../../src/ui/fonts.rs"]
#[allow(dead_code)]
mod fonts;
/// The app's own marks of its start, status line and canvas, from the app's own source.
#[path = "../../../../src/web/page.rs"]
mod page;

use page::{mark, mark_painted, page_canvas};
use wasm_bindgen::prelude::*;

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
            mark_painted();
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
    let Some(canvas) = page_canvas() else {
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
