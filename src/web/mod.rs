//! The web app: [`SkinlabApp`] on the page's canvas, embedded or not, with the address
//! bar's fragment (`index.html#grid?angle=0.8`) and the page on screen kept in step.

use crate::SkinlabApp;
use wasm_bindgen::JsCast as _;
use wasm_bindgen::prelude::*;

/// Shows `text` in the page's status line (or hides it when `None`).
fn status(text: Option<&str>) {
    let Some(element) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id("status"))
    else {
        return;
    };
    match text {
        Some(text) => element.set_text_content(Some(text)),
        None => {
            let _ = element.set_attribute("hidden", "");
        }
    }
}

/// Whether this page runs inside another one (an iframe of the book).
fn is_embedded() -> bool {
    let Some(window) = web_sys::window() else {
        return false;
    };
    match window.parent() {
        Ok(Some(parent)) => !js_sys::Object::is(&parent, &window),
        _ => false,
    }
}

/// What the first frames of a page allocate, about (the gpu page's is the largest).
const FIRST_FRAMES_HEAP: usize = 16 << 20;

/// Grows the wasm memory by [`FIRST_FRAMES_HEAP`] in one step: left to the allocator it
/// grows about seventy times during the first frame. The block goes back to the
/// allocator, which hands it out again.
fn reserve_heap() {
    drop(std::hint::black_box(Vec::<u8>::with_capacity(
        FIRST_FRAMES_HEAP,
    )));
}

/// Runs when the wasm module loads.
#[wasm_bindgen(start)]
pub fn start() {
    reserve_heap();
    wasm_bindgen_futures::spawn_local(async {
        let canvas = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.get_element_by_id("skinlab_canvas"))
            .and_then(|e| e.dyn_into::<web_sys::HtmlCanvasElement>().ok());
        let Some(canvas) = canvas else {
            status(Some("skinlab could not find its canvas on this page."));
            return;
        };
        let options = eframe::WebOptions {
            webgl_context_option: eframe::WebGlContextOption::WebGl2,
            ..Default::default()
        };
        let result = eframe::WebRunner::new()
            .start(
                canvas,
                options,
                Box::new(|cc| {
                    cc.egui_ctx.set_fonts(crate::ui::fonts::web_fonts());
                    let mut app = SkinlabApp::new();
                    app.set_embedded(is_embedded());
                    if let Some(location) = web_sys::window().map(|w| w.location())
                        && let (Ok(origin), Ok(path)) = (location.origin(), location.pathname())
                    {
                        app.set_web_address(format!("{origin}{path}"));
                    }
                    if let Some(storage) = cc.storage {
                        app.restore_from(storage);
                    }
                    Ok(Box::new(WebApp {
                        app,
                        fragment: Fragment::default(),
                        dropped: Dropped::default(),
                    }))
                }),
            )
            .await;
        match result {
            Ok(()) => status(None),
            Err(e) => status(Some(&format!(
                "skinlab needs WebGL2, and this browser could not give it: {e:?}. Try a current Firefox, Chrome or Safari."
            ))),
        }
    });
}

/// [`SkinlabApp`] in a browser tab or in the book's iframes.
struct WebApp {
    app: SkinlabApp,
    fragment: Fragment,
    /// Dropped files read so far: the browser reads them asynchronously.
    dropped: Dropped,
}

/// Files whose bytes have arrived: name and contents, or why they could not be read.
type Dropped = std::rc::Rc<std::cell::RefCell<Vec<(String, Result<Vec<u8>, String>)>>>;

impl eframe::App for WebApp {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        self.fragment.sync(&mut self.app, ui.ctx());
        for file in ui.input(|i| i.raw.dropped_files.clone()) {
            let (arrived, ctx) = (self.dropped.clone(), ui.ctx().clone());
            wasm_bindgen_futures::spawn_local(async move {
                let name = file.path().display().to_string();
                let bytes = file.bytes_async().await;
                arrived.borrow_mut().push((name, bytes));
                ctx.request_repaint();
            });
        }
        let arrived: Vec<_> = self.dropped.borrow_mut().drain(..).collect();
        for (name, bytes) in arrived {
            self.app.open_dropped(&name, bytes);
        }
        self.app.app_ui(ui);
    }

    fn save(&mut self, storage: &mut dyn eframe::Storage) {
        self.app.save_to(storage);
    }
}

/// Reads and writes the URL fragment.
#[derive(Default)]
struct Fragment {
    /// The link last written to (or read from) the address bar. The address bar showing
    /// anything else means the user (or the book, or the back button) navigated.
    written: String,
    /// When it was written (egui time, seconds).
    written_at: f64,
}

/// The least time between two writes of the address bar while a state changes (a drag):
/// browsers throttle faster updates.
const MIN_WRITE_INTERVAL: f64 = 0.25;

impl Fragment {
    /// Opens a fragment the user navigated to, then writes the current link back.
    fn sync(&mut self, app: &mut SkinlabApp, ctx: &egui::Context) {
        let Some(window) = web_sys::window() else {
            return;
        };
        let hash = window.location().hash().unwrap_or_default();
        let raw = hash.trim_start_matches('#');
        let text = js_sys::decode_uri_component(raw)
            .ok()
            .and_then(|s| s.as_string())
            .unwrap_or_else(|| raw.to_owned());
        let mut correcting = false;
        if !text.is_empty() && text != self.written {
            if text != app.current_link().to_string() {
                // A refused link shows as a notice; the address bar is corrected below.
                app.follow_link(&text);
            }
            // What the address bar shows now; a refused or tidied link is replaced below.
            self.written = text;
            correcting = true;
        }
        let current = app.current_link().to_string();
        if current != self.written {
            let same_page = self.written.split('?').next() == current.split('?').next();
            let now = ctx.input(|i| i.time);
            if same_page && !correcting && now - self.written_at < MIN_WRITE_INTERVAL {
                ctx.request_repaint_after(std::time::Duration::from_secs_f64(MIN_WRITE_INTERVAL));
                return;
            }
            self.written_at = now;
            // A new page is a new history entry (the back button returns); a change of
            // state on the same page, a correction, or the first write replaces the entry.
            if same_page || correcting || self.written.is_empty() {
                if let Ok(history) = window.history() {
                    let _ = history.replace_state_with_url(
                        &JsValue::NULL,
                        "",
                        Some(&format!("#{current}")),
                    );
                }
            } else {
                let _ = window.location().set_hash(&current);
            }
            self.written = current;
        }
    }
}
