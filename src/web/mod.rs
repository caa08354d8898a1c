//! The web app: [`SkinlabApp`] on the page's canvas, embedded or not, with the address
//! bar's fragment (`index.html#grid?angle=0.8`) and the page on screen kept in step.

mod density;
mod page;

use crate::SkinlabApp;
use page::{mark, mark_painted, page_canvas, status};
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::JsCast as _;
use wasm_bindgen::prelude::*;

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

/// Hands `bytes` to the browser as a download called `name` (it saves it where the
/// visitor's downloads go, or asks where), or says why it could not.
pub(crate) fn download(name: &str, bytes: &[u8]) -> Result<(), String> {
    let failed = |e: JsValue| format!("the browser refused the download: {e:?}");
    let parts = js_sys::Array::of1(&js_sys::Uint8Array::from(bytes));
    let blob = web_sys::Blob::new_with_u8_array_sequence(&parts).map_err(failed)?;
    let url = web_sys::Url::create_object_url_with_blob(&blob).map_err(failed)?;
    let window = web_sys::window().ok_or("the page has no window")?;
    let document = window.document().ok_or("the page has no document")?;
    let link: web_sys::HtmlAnchorElement = document
        .create_element("a")
        .map_err(failed)?
        .dyn_into()
        .map_err(|_| "the page could not make a link".to_owned())?;
    link.set_href(&url);
    link.set_download(name);
    link.click();
    // The bytes go back once the browser has surely started the download.
    let revoke = Closure::once_into_js(move || {
        let _ = web_sys::Url::revoke_object_url(&url);
    });
    let _ = window
        .set_timeout_with_callback_and_timeout_and_arguments_0(revoke.unchecked_ref(), 60_000);
    Ok(())
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

/// What the status line says while the browser holds the WebGL context back.
const CONTEXT_LOST: &str = "The browser took the graphics (WebGL) context away, as it does when the GPU \
     resets or too many tabs draw at once. skinlab keeps this page as it was, and draws it \
     again as soon as the browser gives the context back.";

/// Runs when the wasm module loads.
#[wasm_bindgen(start)]
pub fn start() {
    // The module is downloaded, compiled and instantiated.
    mark("start");
    reserve_heap();
    let Some(canvas) = page_canvas() else {
        status(Some("skinlab could not find its canvas on this page."));
        return;
    };
    let runner = Runner::default();
    runner.watch_context(&canvas);
    wasm_bindgen_futures::spawn_local(async move {
        let hash = web_sys::window()
            .and_then(|w| w.location().hash().ok())
            .unwrap_or_default();
        // The chapters hold every page's title and cells: the app starts with them.
        let chapters = fetch("chapters.txt")
            .await
            .map_err(described)
            .and_then(|bytes| String::from_utf8(bytes).map_err(|_| "it is not text".to_owned()));
        crate::page::fetched_chapters(chapters, &crate::pages::slugs());
        if crate::models::awaited_by(&hash, {
            use crate::page::Lesson as _;
            crate::pages::model::ModelPage::INFO.slug
        }) {
            fetch_models().await;
        } else {
            wasm_bindgen_futures::spawn_local(fetch_models());
        }
        mark("models");
        // A deck file the link names is fetched from beside the app before it opens.
        if let Some(name) = crate::deck::file_in_link(&hash) {
            fetch_deck(name).await;
        }
        runner.launch(canvas, None).await;
    });
}

/// Fetches the models the web app does not hold ([`crate::models::FETCHED`]) from
/// beside its page.
async fn fetch_models() {
    // Every request goes out before the first is awaited: they download side by side.
    let requests: Vec<_> = crate::models::FETCHED
        .iter()
        .map(|(name, path)| (name, request(path)))
        .collect();
    for (name, request) in requests {
        let fetched = bytes(request).await.map_err(described);
        crate::models::arrived(name, fetched);
    }
}

/// Fetches the deck file `name` from beside the app into [`crate::deck::FETCHED`], or
/// why it could not be read.
async fn fetch_deck(name: String) {
    let text = fetch(&name)
        .await
        .map_err(described)
        .and_then(|bytes| String::from_utf8(bytes).map_err(|_| "it is not text".to_owned()));
    if let Ok(mut fetched) = crate::deck::FETCHED.lock() {
        fetched.push((name, text));
    }
}

/// Why a fetch failed, in words: the HTTP status, or the browser's reason.
fn described(e: JsValue) -> String {
    e.as_string()
        .or_else(|| e.as_f64().map(|status| format!("HTTP {status}")))
        .unwrap_or_else(|| "the request failed".to_owned())
}

/// The bytes at `path`, relative to the page.
async fn fetch(path: &str) -> Result<Vec<u8>, JsValue> {
    bytes(request(path)).await
}

/// A request for `path`, relative to the page, sent now.
fn request(path: &str) -> Result<js_sys::Promise, JsValue> {
    Ok(web_sys::window().ok_or(JsValue::NULL)?.fetch_with_str(path))
}

/// What `request` asked for, as bytes, or the HTTP status it failed with.
async fn bytes(request: Result<js_sys::Promise, JsValue>) -> Result<Vec<u8>, JsValue> {
    use wasm_bindgen_futures::JsFuture;
    let response: web_sys::Response = JsFuture::from(request?).await?.dyn_into()?;
    if !response.ok() {
        return Err(JsValue::from(response.status()));
    }
    let body = JsFuture::from(response.array_buffer()?).await?;
    Ok(js_sys::Uint8Array::new(&body).to_vec())
}

/// The eframe runner on the canvas. When the browser takes the WebGL context away
/// (`webglcontextlost`), the runner stops and hands back the app, which waits here;
/// when the context comes back (`webglcontextrestored`), a new runner starts on it with
/// the same app, so the page, its settings and any file the user opened are as they
/// were.
#[derive(Clone, Default)]
struct Runner {
    running: Rc<RefCell<Option<eframe::WebRunner>>>,
    waiting: Rc<RefCell<Option<Kept>>>,
}

/// What a stopped runner hands to the next: the app, and egui's memory (where each
/// panel, scroll and fold was).
type Kept = (SkinlabApp, egui::Memory);

impl Runner {
    /// Starts eframe on `canvas` with `kept`, or with a new app restored from the
    /// browser's storage.
    async fn launch(self, canvas: web_sys::HtmlCanvasElement, kept: Option<Kept>) {
        let options = eframe::WebOptions {
            webgl_context_option: eframe::WebGlContextOption::WebGl2,
            // A plain wheel over a viewport of an embedded app scrolls the page around
            // it (crate::ui::viewport::set_embedded): the browser keeps that event.
            should_prevent_default: Box::new(|event| {
                !matches!(event, egui::Event::MouseWheel { modifiers, .. }
                    if !modifiers.ctrl && !modifiers.command
                        && crate::ui::viewport::wheel_to_page())
            }),
            ..Default::default()
        };
        let web_runner = eframe::WebRunner::new();
        let readout = Readout {
            canvas: canvas.clone(),
            shown: None,
            layout: String::new(),
        };
        let result = web_runner
            .start(
                canvas,
                options,
                Box::new(|cc| {
                    let app = match kept {
                        Some((mut app, memory)) => {
                            // Before the fonts, which wait in memory for the first frame.
                            cc.egui_ctx.memory_mut(|m| *m = memory);
                            // The old renderer's GL objects went with the old context.
                            crate::ui::viewport::forget_gl(&cc.egui_ctx);
                            app.move_to_new_context();
                            app
                        }
                        None => new_app(cc.storage),
                    };
                    crate::ui::fonts::install(&cc.egui_ctx);
                    Ok(Box::new(WebApp {
                        app,
                        fragment: Fragment::default(),
                        dropped: Dropped::default(),
                        dropping: std::cell::Cell::new(0),
                        ctx: cc.egui_ctx.clone(),
                        readout,
                        marked: false,
                        finger_lifted: density::FingerLifted::default(),
                        typing: Default::default(),
                        screen: density::Screen::new(),
                    }))
                }),
            )
            .await;
        match result {
            Ok(()) => {
                // The status line stays until the first frame is painted.
                mark("started");
                *self.running.borrow_mut() = Some(web_runner);
            }
            Err(e) => status(Some(&format!(
                "skinlab needs WebGL2, and this browser could not give it: {e:?}. Try a current Firefox, Chrome or Safari."
            ))),
        }
    }

    /// Listens for the browser taking the canvas's WebGL context away and giving it
    /// back.
    fn watch_context(&self, canvas: &web_sys::HtmlCanvasElement) {
        let lost = {
            let (runner, canvas) = (self.clone(), canvas.clone());
            Closure::<dyn FnMut(web_sys::Event)>::new(move |event: web_sys::Event| {
                // Without this the browser never gives the context back.
                event.prevent_default();
                // A lost canvas shows blank (index.html hides it): the message instead.
                let _ = canvas.set_attribute("data-lost", "");
                status(Some(CONTEXT_LOST));
                runner.stop();
            })
        };
        let restored = {
            let (runner, canvas) = (self.clone(), canvas.clone());
            Closure::<dyn FnMut(web_sys::Event)>::new(move |_: web_sys::Event| {
                let kept = runner.waiting.borrow_mut().take();
                let _ = canvas.remove_attribute("data-lost");
                let (runner, canvas) = (runner.clone(), canvas.clone());
                wasm_bindgen_futures::spawn_local(async move { runner.launch(canvas, kept).await });
            })
        };
        for (name, listener) in [
            ("webglcontextlost", lost),
            ("webglcontextrestored", restored),
        ] {
            let _ =
                canvas.add_event_listener_with_callback(name, listener.as_ref().unchecked_ref());
            // The listeners live as long as the page.
            listener.forget();
        }
    }

    /// Stops the runner and keeps its app for the next one.
    fn stop(&self) {
        let Some(web_runner) = self.running.borrow_mut().take() else {
            return;
        };
        let kept = web_runner.app_mut::<WebApp>().map(|mut web_app| {
            let memory = web_app.ctx.memory(|m| m.clone());
            (std::mem::take(&mut web_app.app), memory)
        });
        web_runner.destroy();
        // A runner that panicked gives no app back; the address bar still holds the
        // link of what was shown, which a new app opens.
        *self.waiting.borrow_mut() = kept;
    }
}

/// A new app for this page: embedded or not, told its address, and restored from the
/// browser's storage (the address bar's link, read on the first frame, comes first).
fn new_app(storage: Option<&dyn eframe::Storage>) -> SkinlabApp {
    // Before the first page is built: pages open paused for a reader whose system asks
    // for less motion (`prefers-reduced-motion: reduce`).
    crate::ui::motion::set_reduced(
        web_sys::window()
            .and_then(|w| {
                w.match_media("(prefers-reduced-motion: reduce)")
                    .ok()
                    .flatten()
            })
            .is_some_and(|query| query.matches()),
    );
    let mut app = SkinlabApp::new();
    app.set_embedded(is_embedded());
    if let Some(location) = web_sys::window().map(|w| w.location())
        && let (Ok(origin), Ok(path)) = (location.origin(), location.pathname())
    {
        app.set_web_address(format!("{origin}{path}"));
    }
    if let Some(storage) = storage {
        app.restore_from(storage);
    }
    app
}

/// [`SkinlabApp`] in a browser tab or in the book's iframes.
struct WebApp {
    app: SkinlabApp,
    fragment: Fragment,
    /// Dropped files read so far: the browser reads them asynchronously.
    dropped: Dropped,
    /// How many files were dropped and not yet opened: a batch opens once all of them
    /// have been read.
    dropping: std::cell::Cell<usize>,
    /// The context it draws in: its memory goes to the next runner when the browser
    /// takes the WebGL context away.
    ctx: egui::Context,
    /// What the page measured, as last put on the canvas.
    readout: Readout,
    /// Whether the first frame was marked (see [`mark`]).
    marked: bool,
    /// The end of a touch, held back a frame.
    finger_lifted: density::FingerLifted,
    /// Typing after a Tab, held back a frame.
    typing: crate::app::typing::FocusFirst,
    /// The reader's text size and pointer, as the browser says.
    screen: density::Screen,
}

/// The page's [`crate::page::Page::readout`] on the canvas as `data-readout`, for
/// scripts (the browser check).
struct Readout {
    canvas: web_sys::HtmlCanvasElement,
    /// What the canvas holds now.
    shown: Option<String>,
    /// The layout the canvas's `data-layout` holds now ([`density::layout_attribute`]).
    layout: String,
}

impl Readout {
    fn show(&mut self, readout: Option<String>) {
        if readout == self.shown {
            return;
        }
        let _ = match &readout {
            Some(text) => self.canvas.set_attribute("data-readout", text),
            None => self.canvas.remove_attribute("data-readout"),
        };
        self.shown = readout;
    }

    fn show_layout(&mut self, layout: String) {
        if layout != self.layout {
            let _ = self.canvas.set_attribute("data-layout", &layout);
            self.layout = layout;
        }
    }
}

/// Files whose bytes have arrived: name and contents, or why they could not be read.
type Dropped = Rc<RefCell<Vec<(String, Result<Vec<u8>, String>)>>>;

impl eframe::App for WebApp {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        let first = !self.marked;
        if first {
            self.marked = true;
            mark("first-ui");
            mark_painted();
            crate::ui::marks::set_recording(ui.ctx(), density::automated());
        }
        self.fragment.sync(&mut self.app, ui.ctx());
        for file in ui.input(|i| i.raw.dropped_files.clone()) {
            self.dropping.set(self.dropping.get() + 1);
            let (arrived, ctx) = (self.dropped.clone(), ui.ctx().clone());
            wasm_bindgen_futures::spawn_local(async move {
                let name = file.path().display().to_string();
                let bytes = file.bytes_async().await;
                arrived.borrow_mut().push((name, bytes));
                ctx.request_repaint();
            });
        }
        // Files dropped together arrive one by one: they are opened together once all
        // have, so a .gltf finds the .bin dropped with it.
        let all_arrived = self.dropped.borrow().len() >= self.dropping.get();
        if all_arrived && self.dropping.get() > 0 {
            self.dropping.set(0);
            let arrived: Vec<_> = self.dropped.borrow_mut().drain(..).collect();
            self.app.open_dropped_files(arrived, None);
        }
        self.app.set_text_scale(self.screen.text_scale());
        self.app.set_touch(self.screen.coarse_pointer());
        self.app.app_ui(ui);
        self.readout.show(self.app.current_page().readout());
        // Only a script reads it, and only a script's frames pay for it.
        if crate::ui::marks::recording(ui.ctx()) {
            self.readout
                .show_layout(density::layout_attribute(ui.ctx()));
        }
        if first {
            // The first frame's layout is done; its tessellation and paint follow.
            mark("first-ui-done");
        }
    }

    fn raw_input_hook(&mut self, ctx: &egui::Context, raw_input: &mut egui::RawInput) {
        density::fit_canvas(&self.readout.canvas, ctx, raw_input);
        self.finger_lifted.hold_back(ctx, raw_input);
        self.typing.hold_back(ctx, raw_input);
    }

    fn save(&mut self, storage: &mut dyn eframe::Storage) {
        self.app.save_to(storage);
    }

    fn as_any_mut(&mut self) -> Option<&mut dyn std::any::Any> {
        Some(&mut *self)
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
    /// The deck file being fetched for a link in the address bar.
    fetching: Option<String>,
}

/// The least time between two writes of the address bar while a state changes (a drag):
/// browsers throttle faster updates.
const MIN_WRITE_INTERVAL: f64 = 0.25;

impl Fragment {
    /// Whether `link` names a deck file beside the app that is on its way: the first
    /// time, its fetch starts, and a repaint follows its arrival (or its failure,
    /// which the link then reports).
    fn deck_arriving(&mut self, link: &str, ctx: &egui::Context) -> bool {
        let Some(name) = crate::deck::file_in_link(link) else {
            return false;
        };
        if crate::deck::fetched(&name).is_some() {
            return false;
        }
        if self.fetching.as_deref() != Some(name.as_str()) {
            self.fetching = Some(name.clone());
            let ctx = ctx.clone();
            wasm_bindgen_futures::spawn_local(async move {
                fetch_deck(name).await;
                ctx.request_repaint();
            });
        }
        true
    }

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
        let navigated = !text.is_empty() && text != self.written;
        if navigated && self.deck_arriving(&text, ctx) {
            // The link names a deck file not fetched yet: it opens once it arrives.
            return;
        }
        if navigated {
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
