//! The GPU page's viewport: the chain drawn by the path in use, or skinned on the CPU.

use super::{GpuPage, Storage};
use crate::ui::viewport::{caption_ui, room_below};
use crate::ui::{Viewport, rgba};
use egui::{Color32, Ui};
use glam::{Mat4, Vec3};
use scene::{Palette, Scene, SkinnedDraw, Streamed};
use skin::job::{SkinningJob, Stream, thread_count};
use std::sync::Arc;

/// What the viewport shows and how to handle it, under it.
const CAPTION: &str = "Drawn by the skinning shaders. Drag to turn the view, scroll to zoom.";

const SKIN: Color32 = Color32::from_rgb(120, 170, 215);
const CPU_SKIN: Color32 = Color32::from_rgb(225, 170, 110);

impl GpuPage {
    /// The chain skinned on the CPU by the fast kernel (on every core): positions and
    /// normals the viewport streams into the mesh's stream buffer and draws with one
    /// identity matrix, as an engine without GPU skinning sends its vertices each frame.
    /// The tangents are skinned too (an engine would send them for normal maps), but
    /// the shader reads none.
    fn cpu_skinned(&mut self, palette: &[Mat4]) -> Arc<Streamed> {
        let skin = &self.chain.skin;
        let n = skin.positions.len();
        // Last frame's vectors, once the viewport has let go of them, so the timing
        // below does not include fresh memory.
        if let Some(last) = self.streamed.take()
            && let Ok(last) = Arc::try_unwrap(last)
        {
            self.cpu_out[0] = last.positions;
            self.cpu_out[1] = last.normals;
        }
        for out in &mut self.cpu_out {
            out.resize(n, Vec3::ZERO);
        }
        let [p, normals, t] = &mut self.cpu_out;
        let mut job = SkinningJob {
            palette,
            influences: &self.weights,
            positions: Stream::new(&skin.positions, p),
            normals: Some(Stream::new(&skin.normals, normals)),
            tangents: Some(Stream::new(&skin.tangents, t)),
        };
        let start = web_time::Instant::now();
        let result = job.run_threaded(0);
        let ms = start.elapsed().as_secs_f64() * 1e3;
        match result {
            Ok(()) => {
                self.cpu_frame_ms = Some(ms);
                self.cpu_frame_threads = thread_count(0, n);
                self.cpu_error = None;
            }
            Err(e) => {
                self.cpu_frame_ms = None;
                self.cpu_error = Some(e.to_string());
            }
        }
        let streamed = Streamed::new(
            std::mem::take(&mut self.cpu_out[0]),
            std::mem::take(&mut self.cpu_out[1]),
        );
        self.streamed = Some(streamed.clone());
        streamed
    }

    fn scene(&mut self, clip_from_world: Mat4) -> Scene {
        let mut scene = Scene {
            clip_from_world,
            light_dir: self.camera.light_dir(),
            background: [0.95, 0.95, 0.94, 1.0],
            ..Default::default()
        };
        let palette = self.palette();
        let draw = if self.cpu_skinning {
            let streamed = self.cpu_skinned(&palette);
            // Every joint the identity: the influences blend to it, and the shader
            // passes the CPU's vertices through.
            let identity = vec![Mat4::IDENTITY; palette.len()];
            let identity = match self.effective_storage() {
                Storage::Uniform => Palette::Matrices(identity),
                Storage::Texture => Palette::Texture(identity),
            };
            let mut draw = SkinnedDraw::surface(self.mesh.clone(), identity, rgba(CPU_SKIN));
            draw.streamed = Some(streamed);
            draw
        } else {
            self.cpu_frame_ms = None;
            self.cpu_error = None;
            if !self.cpu_out[2].is_empty() || self.streamed.is_some() {
                self.cpu_out = Default::default();
                self.streamed = None;
            }
            let palette = match self.effective_storage() {
                Storage::Uniform => Palette::Matrices(palette),
                Storage::Texture => Palette::Texture(palette),
            };
            let mut draw = SkinnedDraw::surface(self.mesh.clone(), palette, rgba(SKIN));
            draw.joint_indices = self.indices;
            draw
        };
        scene.skinned.push(draw);
        // The joints as a dark polyline through their origins, with small axes.
        let world = self.chain.world_from_joint(self.bend, self.twist);
        let origins: Vec<Vec3> = world
            .iter()
            .map(|w| w.transform_point3(Vec3::ZERO))
            .collect();
        for pair in origins.windows(2) {
            scene.line(pair[0], pair[1], [0.15, 0.15, 0.15, 1.0]);
        }
        for w in world.iter().step_by((self.joints / 10).max(1)) {
            scene.axes(w, 0.5);
        }
        // A grid in the plane the chain bends in.
        let grid = [0.82, 0.82, 0.82, 1.0];
        for i in -4..=10 {
            let t = i as f32;
            scene.backdrop_line(Vec3::new(t, -4.0, 0.0), Vec3::new(t, 10.0, 0.0), grid);
            scene.backdrop_line(Vec3::new(-4.0, t, 0.0), Vec3::new(10.0, t, 0.0), grid);
        }
        scene
    }

    pub(super) fn page_viewport_ui(&mut self, ui: &mut Ui) {
        self.advance_build(ui.ctx());
        let height = ui.available_height() - room_below(ui, CAPTION, 0);
        let vp = Viewport::new(ui, height, &self.camera);
        self.viewport_rect = vp.rect();
        vp.camera_input(ui, &mut self.camera);
        let scene = self.scene(vp.clip_from_world);
        let (frame, last_frame) = (ui.ctx().cumulative_frame_nr(), ui.input(|i| i.unstable_dt));
        let after = self.after_paint(frame, f64::from(last_frame));
        vp.paint_then(ui, scene, after);
        if self.diffs().is_none() || self.bench.is_running() || self.cpu_skinning {
            ui.ctx().request_repaint();
        }
        let what = if self.cpu_skinning {
            "skinned on the CPU, streamed this frame".to_owned()
        } else {
            format!(
                "skinned in the shader: {}, {} indices",
                match self.effective_storage() {
                    Storage::Uniform => "uniform array",
                    Storage::Texture => "bone texture",
                },
                super::indices_slug(self.indices)
            )
        };
        vp.note(
            ui,
            egui::Align2::LEFT_TOP,
            format!(
                "{}, {}, {what}",
                crate::ui::counted(self.joints, "joint", "joints"),
                crate::ui::counted(self.chain.skin.positions.len(), "vertex", "vertices")
            ),
            egui::FontId::proportional(16.0),
            Color32::from_gray(30),
        );
        if self.build != super::Build::Idle {
            vp.note(
                ui,
                egui::Align2::LEFT_BOTTOM,
                format!("Building and uploading {} vertices…", self.vertices),
                egui::FontId::proportional(20.0),
                Color32::from_gray(30),
            );
        }
        caption_ui(ui, CAPTION);
    }
}
