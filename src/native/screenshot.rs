//! `--screenshot`: let a few frames settle, ask for the image, save it as a PNG, quit.

use super::Outcome;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

/// A pending `--screenshot`: let a few frames settle, ask for the image, save it, quit.
pub(super) struct Screenshot {
    pub(super) path: PathBuf,
    /// Frames to draw before the picture at least; then it waits for the app to
    /// settle, up to [`PATIENCE`] frames more.
    pub(super) frames_left: u32,
    /// Frames drawn since `frames_left` ran out, waiting for the app to settle.
    pub(super) waited: u32,
    pub(super) image: Arc<Mutex<Option<Arc<egui::ColorImage>>>>,
    pub(super) outcome: Outcome,
}

/// The most frames a screenshot waits for the app to settle (framing, a focused cell's
/// fit) after its first few: a state that never settles is taken as it is then.
pub(super) const PATIENCE: u32 = 60;

impl Screenshot {
    /// Advances one frame, `settled` saying whether the app's layout has settled;
    /// returns whether the job is over (saved, or failed).
    pub(super) fn step(&mut self, ctx: &egui::Context, settled: bool) -> bool {
        let image = self.image.lock().ok().and_then(|mut slot| slot.take());
        if let Some(image) = image {
            let saved = save_png(&image, &self.path)
                .map_err(|e| format!("could not save {}: {e}", self.path.display()));
            if let Ok(mut outcome) = self.outcome.lock() {
                *outcome = Some(saved);
            }
            ctx.send_viewport_cmd(egui::ViewportCommand::Close);
            return true;
        }
        if self.frames_left == 1 && !settled && self.waited < PATIENCE {
            self.waited += 1;
        } else if self.frames_left > 0 {
            self.frames_left -= 1;
            if self.frames_left == 0 {
                let slot = self.image.clone();
                let repaint = ctx.clone();
                let callback = egui::ScreenshotCallback::new(move |image| {
                    if let Ok(mut slot) = slot.lock() {
                        *slot = Some(image);
                    }
                    repaint.request_repaint();
                });
                ctx.send_viewport_cmd(egui::ViewportCommand::Screenshot(callback));
            }
        }
        ctx.request_repaint();
        false
    }
}

fn save_png(image: &egui::ColorImage, path: &std::path::Path) -> Result<(), String> {
    let [w, h] = image.size;
    let bytes: Vec<u8> = image
        .pixels
        .iter()
        .flat_map(|c| c.to_srgba_unmultiplied())
        .collect();
    let png = image::RgbaImage::from_raw(w as u32, h as u32, bytes)
        .ok_or("the screenshot has the wrong size")?;
    png.save(path).map_err(|e| e.to_string())
}
