//! The timed modes without a window: `--profile LINK --headless` and `--sliders
//! --headless` (chosen by themselves where no display opens). The app's frames run
//! through egui and egui_glow's painter, as in the window, into a framebuffer of the
//! size asked on a surfaceless EGL context, so a GPU server with no display measures
//! the same phases. The first lines printed name the GL vendor, renderer and version.
//!
//! A frame's CPU work (what eframe reports as `cpu_usage`) is the update, the
//! tessellation and the painter's GL calls; then `glFinish` stands where the window
//! swaps its buffers, so the wait for the GPU lands in `gpu_wait` as it does there.

use super::Job;
use crate::SkinlabApp;
use gl::headless::{self, Api};
use std::time::{Duration, Instant};

/// The most frames a run may take before it is called stuck (a profile of 100 000
/// frames takes some 200 000).
const MOST_FRAMES: usize = 1_000_000;

/// Runs `job` over `app` in a framebuffer of `size` points until the job closes the
/// viewport; the error says what could not start or why it stopped.
pub(super) fn run(app: &mut SkinlabApp, job: &mut Job, size: [f32; 2]) -> Result<(), String> {
    let px = [size[0].round() as i32, size[1].round() as i32];
    let h = headless::create_sized(Api::GlCore33, px)
        .map_err(|e| format!("no headless OpenGL context: {e}"))?;
    let (vendor, renderer, version) = headless::describe(&h.gl);
    println!("# GL vendor: {vendor}\n# GL renderer: {renderer}\n# GL version: {version}");
    let mut painter = egui_glow::Painter::new(h.gl.clone(), "", None, false)
        .map_err(|e| format!("egui's painter could not start: {e}"))?;
    let ctx = egui::Context::default();
    crate::ui::fonts::install(&ctx);
    let began = Instant::now();
    let mut previous_cpu: Option<Duration> = None;
    let mut last_start = began;
    let mut result = Err(format!("the run did not end within {MOST_FRAMES} frames"));
    for _ in 0..MOST_FRAMES {
        let start = Instant::now();
        let zoom = ctx.zoom_factor();
        let input = egui::RawInput {
            screen_rect: Some(egui::Rect::from_min_size(
                egui::Pos2::ZERO,
                egui::vec2(size[0], size[1]) / zoom,
            )),
            time: Some(began.elapsed().as_secs_f64()),
            predicted_dt: (start - last_start).as_secs_f32().clamp(1e-4, 0.1),
            focused: true,
            ..Default::default()
        };
        last_start = start;
        let mut output = ctx.run_ui(input, |ui| {
            if !job.frame(app, ui, previous_cpu) {
                // Only the timed modes run headless.
                ui.ctx().send_viewport_cmd(egui::ViewportCommand::Close);
            }
        });
        let primitives =
            ctx.tessellate(std::mem::take(&mut output.shapes), output.pixels_per_point);
        h.bind_framebuffer();
        painter.clear([px[0] as u32, px[1] as u32], [0.0, 0.0, 0.0, 1.0]);
        painter.paint_and_update_textures(
            [px[0] as u32, px[1] as u32],
            output.pixels_per_point,
            &primitives,
            &mut output.textures_delta,
        );
        previous_cpu = Some(start.elapsed());
        // Where the window would swap its buffers.
        h.finish();
        let closed = output.viewport_output.values().any(|viewport| {
            viewport
                .commands
                .iter()
                .any(|c| matches!(c, egui::ViewportCommand::Close))
        });
        if closed {
            result = Ok(());
            break;
        }
    }
    let error = h.error();
    painter.destroy();
    match (result, error) {
        (Ok(()), None) => Ok(()),
        (Ok(()), Some(error)) => Err(format!("the frames left GL error 0x{error:x}")),
        (Err(e), _) => Err(e),
    }
}
