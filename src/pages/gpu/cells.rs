//! The GPU page's notebook cells.

use super::Cell;
use super::measure::{BenchPoint, Crossover, PATHS, PathDiff, cpu_threads, crossover};
use super::{
    EXERCISE_COUNT, GpuPage, MANY_JOINTS, MAX_CHAIN_JOINTS, PREPARE_EXERCISE, Storage,
    VERTEX_RANGE, indices_slug,
};
use crate::link::Named;
use crate::notebook::anchor;
use crate::ui::check::{Question, check_ui, exercise_picker_ui};
use crate::ui::listing::code_ui;
use crate::ui::{angle_slider_ui, error_ui, legible};
use egui::{Color32, RichText, Ui};
use egui_plot::{Line, VLine};
use gl::shaders;
use gl::{UniformCost, uniform_costs};
use rigs::chain::{CHAIN_LENGTH, truncation_error};
use scene::{JointIndices, MAX_JOINTS};
use skin::gpu::{WEBGL2_MIN_VERTEX_UNIFORM_VECTORS, bone_texels, joints_that_fit, prepare_steps};

use super::source::HIGHLIGHT;
// ANCHOR: exercise
/// The check question's joint and column: which texel holds the z column (column 2,
/// counting from 0) of joint 7?
const CHECK_JOINT: usize = 7;
const CHECK_COLUMN: usize = 2;
// ANCHOR_END: exercise

/// The fast kernel on one thread, and on several.
const FAST_COLOR: Color32 = Color32::from_rgb(230, 140, 30);
const THREADED_COLOR: Color32 = Color32::from_rgb(200, 60, 120);
/// The readable reference loop (dashed), the fastest kernel plus its upload, the GPU.
const REFERENCE_COLOR: Color32 = Color32::from_gray(140);
const TOTAL_COLOR: Color32 = Color32::from_rgb(150, 50, 20);
const GPU_COLOR: Color32 = Color32::from_rgb(40, 110, 220);

fn threads(n: usize) -> String {
    if n == 1 {
        "1 thread".to_owned()
    } else {
        format!("{n} threads")
    }
}

/// A slider that rebuilds the mesh. Rebuilding a big mesh on every step of a drag would
/// stall it, so while `dragging` the value waits in `pending`; it returns the value to
/// apply once the drag ends (typed and keyboard changes apply at once).
fn settle<T: Copy + PartialEq>(
    pending: &mut Option<T>,
    value: T,
    current: T,
    dragging: bool,
) -> Option<T> {
    *pending = Some(value).filter(|v| *v != current);
    if dragging { None } else { pending.take() }
}

fn ms(x: f64) -> String {
    if x < 1.0 {
        format!("{x:.3} ms")
    } else {
        format!("{x:.1} ms")
    }
}

impl GpuPage {
    pub(super) fn page_cell_ui(&mut self, cell: Cell, ui: &mut Ui) {
        self.advance_build(ui.ctx());
        match cell {
            Cell::Controls => self.controls_ui(ui),
            Cell::Source => self.source_cell_ui(ui),
            Cell::Paths => self.paths_ui(ui),
            Cell::Budget => self.budget_ui(ui),
            Cell::Texels => self.texels_ui(ui),
            Cell::Influences => self.influences_ui(ui),
            Cell::CpuGpu => self.cpu_gpu_ui(ui),
            Cell::Check => self.check_ui(ui),
        }
    }

    fn controls_ui(&mut self, ui: &mut Ui) {
        self.joints_ui(ui);
        angle_slider_ui(ui, &mut self.bend, -360.0..=360.0, "bend", 0);
        angle_slider_ui(ui, &mut self.twist, -360.0..=360.0, "twist", 0);
        self.fit_note_ui(ui);
    }

    fn fit_note_ui(&self, ui: &mut Ui) {
        if !self.fits_uniforms() {
            ui.colored_label(
                crate::ui::legible(ui, HIGHLIGHT),
                format!(
                    "{} joints need {} uniform vectors; the array holds {MAX_JOINTS} matrices. \
                     The page switched to the bone texture by itself.",
                    self.joints,
                    self.joints * 4
                ),
            );
        }
    }

    fn path_picker_ui(&mut self, ui: &mut Ui) {
        ui.horizontal_wrapped(|ui| {
            ui.label("Palette in:");
            // The storage in use is the one lit: past MAX_JOINTS the page has moved to
            // the texture, and the uniform array cannot be chosen until the joints fit.
            let used = self.effective_storage();
            for &storage in Storage::ALL {
                let name = match storage {
                    Storage::Uniform => "uniform array",
                    Storage::Texture => "bone texture",
                };
                let possible = storage == Storage::Texture || self.fits_uniforms();
                let button = egui::Button::selectable(used == storage, name);
                if ui.add_enabled(possible, button).clicked() {
                    self.storage = storage;
                }
            }
        });
        ui.horizontal_wrapped(|ui| {
            ui.label("Joint indices:");
            ui.selectable_value(&mut self.indices, JointIndices::Float, "float vec4");
            ui.selectable_value(&mut self.indices, JointIndices::Int, "integer ivec4");
        });
    }

    fn paths_ui(&mut self, ui: &mut Ui) {
        self.path_picker_ui(ui);
        self.fit_note_ui(ui);
        ui.label(
            "Largest distance between a vertex skinned by the shader and by the CPU, this pose:",
        );
        let progress = self.diff_progress();
        crate::ui::table_ui(ui, "gpu_paths", |ui| {
            egui::Grid::new("gpu_paths").striped(true).show(ui, |ui| {
                ui.strong("palette");
                ui.strong("indices");
                ui.strong("max |GPU - CPU|");
                ui.end_row();
                for (k, (storage, indices)) in PATHS.iter().enumerate() {
                    let current = (*storage, *indices) == (self.effective_storage(), self.indices);
                    let name = |s: &str| {
                        if current {
                            RichText::new(s).strong()
                        } else {
                            RichText::new(s)
                        }
                    };
                    ui.label(name(storage.slug()));
                    ui.label(name(indices_slug(*indices)));
                    let result = progress
                        .as_ref()
                        .and_then(|p| p.paths.get(k).cloned().flatten());
                    let measuring = progress
                        .as_ref()
                        .and_then(|p| p.current)
                        .filter(|(path, _)| *path == k);
                    match result.as_ref() {
                        None => match measuring {
                            Some((_, done)) => ui.label(format!("measuring, {:.0}%", done * 100.0)),
                            // Queued behind the path being measured.
                            None if progress.is_some() => ui.label("waiting"),
                            None => ui.label("not measured yet"),
                        },
                        Some(PathDiff::Measured(d)) if *d == 0.0 => {
                            ui.label(RichText::new("0 (bit for bit)").monospace())
                        }
                        Some(PathDiff::Measured(d)) => {
                            ui.label(RichText::new(format!("{d:.2e}")).monospace())
                        }
                        Some(PathDiff::Failed(why)) => ui.label(RichText::new(why).small()),
                    };
                    ui.end_row();
                }
            });
        });
        self.scale_note_ui(ui);
    }

    /// What "big" means for a distance on this page: a point on screen, in world units.
    fn scale_note_ui(&self, ui: &mut Ui) {
        let point = self.camera.world_per_point(self.viewport_rect.height());
        ui.label(
            RichText::new(format!(
                "For scale: the tail is {CHAIN_LENGTH} units long, and one point on screen is \
                 about {point:.3} units at this zoom. A difference far below that cannot be seen; \
                 float rounding is about 1e-6."
            ))
            .weak(),
        );
    }

    /// The joint count: a slider and the "many joints" button. In the controls cell,
    /// and again in the budget cell, whose text asks for it.
    fn joints_ui(&mut self, ui: &mut Ui) {
        let mut joints = self.pending_joints.unwrap_or(self.joints);
        ui.horizontal_wrapped(|ui| {
            let slider =
                ui.add(egui::Slider::new(&mut joints, 1..=MAX_CHAIN_JOINTS).text("joints"));
            let dragging = slider.dragged() && self.is_big();
            let settled = settle(&mut self.pending_joints, joints, self.joints, dragging);
            let many = ui.button(format!("many joints ({MANY_JOINTS})")).clicked();
            if let Some(joints) = settled.or(many.then_some(MANY_JOINTS)) {
                self.joints = joints.clamp(1, MAX_CHAIN_JOINTS);
                self.rebuild_from_ui(ui.ctx());
            }
        });
    }

    fn budget_ui(&mut self, ui: &mut Ui) {
        self.joints_ui(ui);
        let main = main_uniforms();
        let other = other_vectors(main);
        crate::ui::table_ui(ui, "gpu_budget", |ui| {
            egui::Grid::new("gpu_budget").striped(true).show(ui, |ui| {
                ui.strong("uniform (skin.vert)");
                ui.strong("vectors");
                ui.end_row();
                for c in main {
                    ui.label(RichText::new(format!("{} {}", c.ty, c.name)).monospace());
                    ui.label(c.vectors.to_string());
                    ui.end_row();
                }
                // The array is declared whole: it costs its size, not the joints in use.
                ui.label(if self.fits_uniforms() {
                    format!("u_palette: {MAX_JOINTS} mat4, {} in use", self.joints)
                } else {
                    format!(
                        "u_palette: {MAX_JOINTS} mat4, not used ({} would need {})",
                        self.joints,
                        self.joints * 4
                    )
                });
                ui.label(format!("{MAX_JOINTS} × 4 = {}", MAX_JOINTS * 4));
                ui.end_row();
            });
        });
        let live = self.limits().map(|l| l.max_vertex_uniform_vectors);
        // A phone's column has room for the answer, not the sum: the sum is the
        // formula above the cell.
        let compact = crate::ui::screen(ui.ctx()).compact;
        let row = |ui: &mut Ui, name: &str, max: Option<usize>| {
            ui.label(name);
            match max {
                Some(max) => {
                    let fit = joints_that_fit(max, other);
                    ui.label(max.to_string());
                    ui.label(if compact {
                        fit.to_string()
                    } else {
                        format!("({max} - {other}) / 4 = {fit}")
                    });
                }
                None => {
                    ui.label("not measured yet");
                    ui.label("");
                }
            }
            ui.end_row();
        };
        crate::ui::table_ui(ui, "gpu_limits", |ui| {
            egui::Grid::new("gpu_limits").striped(true).show(ui, |ui| {
                ui.strong("");
                ui.strong("vertex uniform vectors");
                ui.strong("joints that fit");
                ui.end_row();
                row(
                    ui,
                    "WebGL2 minimum",
                    Some(WEBGL2_MIN_VERTEX_UNIFORM_VECTORS),
                );
                row(ui, "this context", live);
            });
        });
        // Why 60 and not the 62 the minimum allows: said once, beside the sum.
        let spare = joints_that_fit(WEBGL2_MIN_VERTEX_UNIFORM_VECTORS, other);
        ui.label(format!(
            "The array holds {MAX_JOINTS}, {} under the {spare} that fit at the minimum: a \
             uniform added to the shader later still fits without changing the limit.",
            spare.saturating_sub(MAX_JOINTS)
        ));
        let verdict = if self.fits_uniforms() {
            format!(
                "{} the shader's array of MAX_JOINTS = {MAX_JOINTS} matrices.",
                crate::ui::counted(self.joints, "joint fits", "joints fit")
            )
        } else {
            format!(
                "{} joints do not fit the array of {MAX_JOINTS}: the page draws with the bone texture.",
                self.joints
            )
        };
        ui.label(verdict);
        if let Some(l) = self.limits() {
            ui.label(format!(
                "The bone texture holds up to GL_MAX_TEXTURE_SIZE = {} joints here.",
                l.max_texture_size
            ));
        }
    }

    fn texels_ui(&mut self, ui: &mut Ui) {
        let palette = self.palette();
        let texels = bone_texels(&palette);
        ui.label(format!(
            "A texture 4 texels wide and {} tall: {} RGBA32F texels, {} floats, {} bytes.",
            self.joints,
            texels.len(),
            texels.len() * 4,
            texels.len() * 16
        ));
        ui.add(egui::Slider::new(&mut self.texel_joint, 0..=self.joints - 1).text("joint j (row)"));
        let j = self.texel_joint.min(self.joints - 1);
        crate::ui::table_ui(ui, "gpu_texels", |ui| {
            egui::Grid::new("gpu_texels").striped(true).show(ui, |ui| {
                for h in ["texel", "R", "G", "B", "A", "floats at"] {
                    ui.strong(h);
                }
                ui.end_row();
                for c in 0..4 {
                    ui.label(RichText::new(format!("({c}, {j})")).monospace());
                    for v in texels[j * 4 + c] {
                        ui.label(RichText::new(format!("{v:.3}")).monospace());
                    }
                    ui.label(RichText::new(format!("{}", (j * 4 + c) * 4)).monospace());
                    ui.end_row();
                }
            });
        });
        ui.label(
            RichText::new(
                "Texel (c, j) is column c of joint j's world_from_bind: its R, G, B and A hold that column's four numbers, top to bottom.",
            )
            .small(),
        );
    }

    fn influences_ui(&mut self, ui: &mut Ui) {
        let mut spread = self.pending_spread.unwrap_or(self.spread);
        let slider = crate::ui::slider_ui(
            ui,
            egui::Slider::new(&mut spread, 0.5..=4.0),
            "weights reach (bones either side)",
        );
        let dragging = slider.dragged() && self.is_big();
        if let Some(spread) = settle(&mut self.pending_spread, spread, self.spread, dragging) {
            self.spread = spread;
            self.rebuild_from_ui(ui.ctx());
        }
        let mut ring = self.example_ring();
        if ui
            .add(egui::Slider::new(&mut ring, 0..=self.chain.rings - 1).text("example ring"))
            .changed()
        {
            self.ring = Some(ring);
        }
        let list = self
            .chain
            .ring_influences
            .get(ring)
            .cloned()
            .unwrap_or_default();
        let pairs = |l: &[(usize, f32)]| {
            l.iter()
                .map(|(j, w)| format!("{j}:{w:.3}"))
                .collect::<Vec<_>>()
                .join("  ")
        };
        match prepare_steps(&list, self.joints) {
            Ok(steps) => {
                let p = steps.prepared;
                let text = format!(
                    "given      {}\nsorted     {}\nkeep 4     {}\nnormalise  {}\npad        joints {:?}  weights [{:.3}, {:.3}, {:.3}, {:.3}]",
                    pairs(&steps.given),
                    pairs(&steps.sorted),
                    pairs(&steps.kept),
                    pairs(&steps.normalised),
                    p.joints,
                    p.weights[0],
                    p.weights[1],
                    p.weights[2],
                    p.weights[3]
                );
                crate::ui::mono_ui(ui, text);
            }
            Err(e) => error_ui(ui, e.to_string()),
        }
        let (worst, at) = truncation_error(&self.chain, &self.palette());
        let points = worst / self.camera.world_per_point(self.viewport_rect.height());
        let seen = if points < 0.5 {
            "too small to see"
        } else if points < 2.0 {
            "just visible"
        } else {
            "plainly visible"
        };
        if worst < 5e-5 {
            ui.label(
                "Skinned with every influence versus the four kept, this pose: no vertex \
                 moves (under 0.0001 units): no vertex had more than four to drop.",
            );
        } else {
            ui.label(format!(
                "Skinned with every influence versus the four kept, this pose: the largest \
                 difference is {worst:.4} units (at ring {at} of the tail; the tail is \
                 {CHAIN_LENGTH} units long), about {points:.1} points on screen at this zoom: \
                 {seen}."
            ));
        }
        if let Some(code) = anchor(source_text!("crates/skin/src/influences.rs"), "prepare") {
            ui.collapsing("crates/skin/src/influences.rs: prepare", |ui| {
                code_ui(ui, &code)
            });
        }
    }

    fn cpu_gpu_ui(&mut self, ui: &mut Ui) {
        ui.horizontal_wrapped(|ui| {
            ui.selectable_value(&mut self.cpu_skinning, false, "skin in the shader");
            ui.selectable_value(&mut self.cpu_skinning, true, "skin on the CPU");
        });
        let mut vertices = self.pending_vertices.unwrap_or(self.vertices);
        // Its name on a line of its own on a phone, where the row has no room for both.
        let slider = crate::ui::slider_ui(
            ui,
            egui::Slider::new(&mut vertices, VERTEX_RANGE).logarithmic(true),
            "vertices asked for",
        );
        if let Some(vertices) = settle(
            &mut self.pending_vertices,
            vertices,
            self.vertices,
            slider.dragged(),
        ) {
            self.vertices = vertices;
            self.rebuild_from_ui(ui.ctx());
        }
        match (&self.cpu_error, self.cpu_frame_ms) {
            (Some(why), _) => error_ui(ui, format!("The CPU could not skin the tail: {why}")),
            (None, Some(t)) => {
                ui.label(format!(
                    "This frame: {} skinning {} vertices on the CPU (fast kernel, {}), then {} KB of positions and normals streamed.",
                    ms(t),
                    self.chain.skin.positions.len(),
                    threads(self.cpu_frame_threads),
                    self.chain.skin.positions.len() * scene::Streamed::BYTES_PER_VERTEX / 1024
                ));
            }
            (None, None) => {
                ui.label(format!(
                    "This frame: {} matrices uploaded, 64 bytes each ({} bytes); the shader \
                     skins the vertices.",
                    self.joints,
                    self.joints * 64
                ));
            }
        }
        ui.horizontal_wrapped(|ui| {
            let running = self.bench.is_running();
            if ui
                .add_enabled(!running, egui::Button::new("Measure"))
                .clicked()
            {
                self.start_bench();
            }
            match self.bench.current() {
                Some(n) => {
                    ui.label(format!("measuring {n} vertices..."));
                }
                None if running => {
                    ui.label("starting...");
                }
                None => {
                    ui.label("sizes 3k to 1M, one step a frame");
                }
            };
        });
        if self.bench.is_running() {
            ui.add(egui::ProgressBar::new(self.bench.fraction()).show_percentage());
        }
        self.bench_plot_ui(ui);
    }

    /// Whether this sweep's GPU times come from a clock that cannot see the GPU: one
    /// measured here in a browser, where `finish()` does not wait for the draw.
    fn gpu_unclocked(&self) -> bool {
        cfg!(target_arch = "wasm32") && !self.bench.from_link
    }

    /// The threads of the sweep's threaded column, `None` for no column: this
    /// machine's cores for a sweep measured here, the most any size used for points a
    /// link brought (another machine's).
    fn sweep_threads(&self) -> Option<usize> {
        if self.bench.from_link {
            let used = self.bench.points.iter().filter_map(|p| p.fast_threaded);
            used.map(|(threads, _)| threads).max()
        } else {
            let cores = cpu_threads();
            (cores > 1).then_some(cores)
        }
    }

    fn bench_plot_ui(&mut self, ui: &mut Ui) {
        let points = &self.bench.points;
        if points.is_empty() {
            ui.label(
                "No measurement yet. Measure skins the tail at six sizes, from 3k to 1M \
                 vertices, on the CPU and in the shader, and charts the time of each way.",
            );
            if ui
                .button(format!(
                    "Show a run measured on {}",
                    super::sweep::EXAMPLE_MACHINE
                ))
                .clicked()
            {
                self.bench.load_example();
            }
            return;
        }
        if self.bench.example {
            ui.label(
                RichText::new(format!(
                    "These times were measured earlier on {}, not on this machine. \
                     Press Measure to time this one.",
                    super::sweep::EXAMPLE_MACHINE
                ))
                .weak(),
            );
        } else if self.bench.from_link {
            ui.label(
                RichText::new(
                    "These times were measured earlier and brought in by the link, \
                     not measured on this machine now. Press Measure to time this machine.",
                )
                .weak(),
            );
        } else if let Some(on) = self.report.lock().ok().and_then(|r| r.timed_on.clone()) {
            ui.label(RichText::new(&on).weak());
            if software_renderer(&on) {
                ui.label(RichText::new(SOFTWARE_NOTE).strong());
            }
        }
        // Both axes logarithmic: the sizes span three decades and so do the times.
        let x = |n: usize| (n as f64).log10();
        let line = |f: &dyn Fn(&BenchPoint) -> Option<f64>| -> Vec<[f64; 2]> {
            points
                .iter()
                .filter_map(|p| {
                    let ms = f(p).filter(|ms| ms.is_finite())?;
                    Some([x(p.vertices), ms.max(1e-4).log10()])
                })
                .collect()
        };
        let fast = line(&|p| Some(p.fast_ms));
        let threaded = line(&|p| p.fast_threaded.map(|(_, ms)| ms));
        let reference = line(&|p| Some(p.reference_ms));
        let total = line(&|p| p.cpu_total_ms());
        // Not drawn at the chart's floor as if the GPU took no time, nor where no clock
        // could time it: a clock that saw 0 at one size (a browser's, in a sweep a link
        // brought) saw only its own ticks at the others.
        let no_gpu_line = self.gpu_unclocked() || points.iter().any(BenchPoint::gpu_untimed);
        let gpu = line(&|p| p.gpu_ms.filter(|_| !no_gpu_line));
        let cores = self.sweep_threads();
        // (name, colour, dashed, points), in the order of the legend.
        let mut lines = vec![(
            "CPU: reference loop".to_owned(),
            REFERENCE_COLOR,
            true,
            reference,
        )];
        lines.push((
            "CPU: fast kernel, 1 thread".to_owned(),
            FAST_COLOR,
            false,
            fast,
        ));
        if let Some(cores) = cores {
            lines.push((
                format!("CPU: fast kernel, up to {cores} threads"),
                THREADED_COLOR,
                false,
                threaded,
            ));
        }
        lines.push((
            "CPU: fastest kernel + upload".to_owned(),
            TOTAL_COLOR,
            false,
            total,
        ));
        lines.push(("GPU: vertex stage".to_owned(), GPU_COLOR, false, gpu));
        let legend: Vec<(String, Color32, bool)> = lines
            .iter()
            .map(|(name, color, dashed, _)| (name.clone(), *color, *dashed))
            .collect();
        let shown = crate::ui::plot("cpu_gpu_sweep")
            .height(220.0)
            .x_axis_label("vertices")
            .y_axis_label("ms per frame")
            .y_axis_formatter(|mark, _| {
                // Label the powers of ten only: 0.01, 0.1, 1, 10, 100.
                let power = mark.value.round();
                if (mark.value - power).abs() > 1e-6 {
                    return String::new();
                }
                let ms = 10f64.powf(power);
                if ms >= 1.0 {
                    format!("{ms:.0}")
                } else {
                    format!("{ms}")
                }
            })
            .x_axis_formatter(|mark, _| {
                let n = 10f64.powf(mark.value);
                if n >= 1e6 {
                    format!("{:.0}M", n / 1e6)
                } else {
                    format!("{:.0}k", n / 1e3)
                }
            })
            .show(ui, |plot| {
                for (name, color, dashed, points) in lines {
                    let mut line = Line::new(name, points).color(color).width(2.0);
                    if dashed {
                        line = line.style(egui_plot::LineStyle::dashed_dense()).width(1.5);
                    }
                    plot.line(line);
                }
                plot.vline(VLine::new("this mesh", x(self.vertices)).color(Color32::GRAY));
            });
        crate::ui::name_plot(&shown.response, || {
            "Plot: milliseconds per frame against vertices, CPU kernels and GPU skinning".to_owned()
        });
        // The legend under the plot, where it hides no line.
        ui.horizontal_wrapped(|ui| {
            for (name, color, dashed) in legend {
                let mark = if dashed { "- - -" } else { "━━━" };
                ui.label(
                    RichText::new(mark)
                        .color(legible(ui, color))
                        .strong()
                        .monospace(),
                );
                ui.label(RichText::new(name).small());
                ui.add_space(6.0);
            }
        });
        if cores.is_none() {
            let who = if self.bench.from_link {
                "The machine that measured these ran"
            } else {
                "This build runs"
            };
            ui.label(
                RichText::new(format!(
                    "{who} the fast kernel on one thread only (a web page gets no threads of \
                     its own, or the machine has one core): the plot has no every-core line."
                ))
                .small(),
            );
        }
        self.bench_table_ui(ui, cores);
    }

    /// The sweep's table and where the GPU overtakes; `cores` are the threads of the
    /// threaded column, `None` for no such column.
    fn bench_table_ui(&self, ui: &mut Ui, cores: Option<usize>) {
        let points = &self.bench.points;
        let unclocked = self.gpu_unclocked();
        let cell = |ui: &mut Ui, text: String| {
            ui.label(RichText::new(text).monospace());
        };
        crate::ui::table_ui(ui, "cpu_gpu_table", |ui| {
            egui::Grid::new("cpu_gpu_table")
                .striped(true)
                .num_columns(if cores.is_some() { 6 } else { 5 })
                .show(ui, |ui| {
                    ui.strong("vertices");
                    ui.strong("reference");
                    ui.strong("fast, 1 thread");
                    if let Some(cores) = cores {
                        ui.strong(format!("fast, {cores} threads"));
                    }
                    ui.strong("upload");
                    ui.strong("GPU");
                    ui.end_row();
                    for p in points {
                        cell(ui, p.vertices.to_string());
                        cell(ui, ms(p.reference_ms));
                        cell(ui, ms(p.fast_ms));
                        if let Some(cores) = cores {
                            cell(
                                ui,
                                p.fast_threaded.map_or("-".into(), |(used, t)| {
                                    let fewer = if used < cores { "*" } else { "" };
                                    format!("{}{fewer}", ms(t))
                                }),
                            );
                        }
                        cell(
                            ui,
                            match p.upload_ms {
                                None => "not measured".into(),
                                Some(t) if t <= 0.0 => "under the clock".into(),
                                Some(t) => ms(t),
                            },
                        );
                        cell(
                            ui,
                            match p.gpu_ms {
                                None => "not measured".into(),
                                Some(_) if unclocked => "no clock here".into(),
                                Some(_) if p.gpu_untimed() => "under the clock".into(),
                                Some(t) => ms(t),
                            },
                        );
                        ui.end_row();
                    }
                });
        });
        // Points a link brought were measured on another machine, maybe: say so.
        let (place, close) = if self.bench.from_link {
            (
                "On the machine that measured them, the",
                "the two were close there.",
            )
        } else {
            (
                "Here the",
                "the two are close on this machine. Measure again to see which way it goes.",
            )
        };
        let untimed = points.iter().filter(|p| p.gpu_untimed()).count();
        // The most the clock saw where it saw anything: a tick or two of a coarse clock.
        let seen = (points.iter())
            .filter_map(|p| p.gpu_ms.filter(|ms| *ms > 0.0))
            .reduce(f64::max);
        // A renderer that draws on the CPU, timed here: it may skip a draw that puts
        // nothing on screen, which no clock can time.
        let software = !self.bench.from_link
            && (self.report.lock().ok())
                .and_then(|r| r.timed_on.clone())
                .is_some_and(|on| software_renderer(&on));
        let why = if software {
            "this renderer draws on the CPU, and with rasterisation off it may skip a draw \
             that puts nothing on screen, so there was nothing to time"
        } else {
            "which only says that this clock could not see it (a browser rounds its clock \
             to a tenth of a millisecond or coarser)"
        };
        let verdict = match crossover(points) {
            _ if unclocked => Some(
                "No verdict in a browser: WebGL's finish() returns before the GPU has drawn \
                 (Chromium makes it a flush), so no clock a web page has can time the vertex \
                 stage; the GPU column is left empty. The desktop app times it with a timer \
                 query; so did the run on a server with an NVIDIA H100 that this chapter shows."
                    .to_owned(),
            ),
            _ if untimed > 0 => Some(format!(
                "No verdict: the GPU's vertex stage timed at 0 ms at {untimed} of {} sizes {}{}: \
                 {why}. The desktop app on a graphics card times it; so did the run on a \
                 server with an NVIDIA H100 that this chapter shows.",
                points.len(),
                if self.bench.from_link {
                    "on that machine"
                } else {
                    "here"
                },
                seen.map_or(String::new(), |most| format!(
                    ", and at no more than {} at the others, a tick or two of the clock",
                    ms(most)
                )),
            )),
            Crossover::Unknown => None,
            Crossover::GpuEverywhere => Some(format!(
                "{place} GPU's vertex stage beat the fast kernel plus its upload at every size."
            )),
            Crossover::CpuEverywhere => Some(format!(
                "{place} fast kernel plus its upload beat the GPU's vertex stage at every size."
            )),
            Crossover::From(n) => Some(format!(
                "{place} GPU's vertex stage beat the fast kernel plus its upload from {n} vertices up."
            )),
            Crossover::Mixed => Some(format!(
                "{place} GPU's vertex stage won at some sizes but not at every larger one: {close}"
            )),
        };
        if let Some(verdict) = verdict {
            ui.label(RichText::new(verdict).strong());
        }
        if let Some(slower) = kernel_slower(points) {
            ui.label(slower);
        }
        let machine = if self.bench.from_link {
            "on the machine that measured them"
        } else {
            "this build of the app, on this machine"
        };
        // The clock that timed the GPU: this machine's, the example's (desktop GL on a
        // server: a timer query), or unknown for a sweep a link brought.
        let here = self.report.lock().ok().and_then(|r| r.clock);
        let clock = if self.bench.example {
            gl::Clock::TimerQuery.name().to_owned()
        } else if self.bench.from_link {
            format!(
                "that machine's clock ({} on desktop GL, else the {})",
                gl::Clock::TimerQuery.name(),
                gl::Clock::Finish.name()
            )
        } else {
            here.map_or(gl::Clock::Finish.name(), gl::Clock::name)
                .to_owned()
        };
        let fewer = cores.is_some_and(|cores| {
            points
                .iter()
                .any(|p| p.fast_threaded.is_some_and(|(used, _)| used < cores))
        });
        let footnote = if fewer {
            " * The fast kernel kept this mesh on fewer threads: starting one costs more than it saves."
        } else {
            ""
        };
        ui.label(
            RichText::new(format!(
                "GPU time: {clock} (rasterisation off), best of three. \
                 CPU times: positions, normals and tangents, {machine}.{footnote}"
            ))
            .small(),
        );
    }

    fn check_ui(&mut self, ui: &mut Ui) {
        exercise_picker_ui(ui, &mut self.exercise, EXERCISE_COUNT, &mut self.check);
        if self.exercise == 1 {
            self.prepare_check_ui(ui);
            return;
        }
        ui.label(format!(
            "The uniform array holds MAX_JOINTS = {MAX_JOINTS} matrices. How many vec4 uniform \
             vectors does it take? And in the bone texture, which texel (column, row) holds the {} \
             column of joint {CHECK_JOINT}'s matrix? Texels and rows count from 0.",
            ["x", "y", "z", "t"][CHECK_COLUMN]
        ));
        let expected = [
            (MAX_JOINTS * 4) as f32,
            CHECK_COLUMN as f32,
            CHECK_JOINT as f32,
        ];
        // Column and row swapped: the slip of reading a joint as a column of texels.
        let swapped = [expected[0], expected[2], expected[1]];
        // A vector per matrix, or a vector per float: the texel right either way.
        let per_matrix = [MAX_JOINTS as f32, expected[1], expected[2]];
        let per_float = [(MAX_JOINTS * 16) as f32, expected[1], expected[2]];
        // The array with the other uniforms (the budget cell's sum) added.
        let with_others = [
            (MAX_JOINTS * 4 + other_vectors(main_uniforms())) as f32,
            expected[1],
            expected[2],
        ];
        let question = Question {
            name: "gpu",
            labels: &["vectors", "column", "row"],
            columns: 3,
            expected: &expected,
            tolerance: 0.01,
            mistakes: &[
                (
                    &swapped,
                    "column and row are swapped: each joint is a row of the texture, and its \
                     matrix's columns are the texels along that row",
                ),
                (
                    &per_matrix,
                    "that is one vector per matrix: a vec4 holds four floats, one column of \
                     a mat4, so each matrix takes four",
                ),
                (
                    &per_float,
                    "that counts floats: a uniform vector is a vec4 of four floats, so divide by four",
                ),
                (
                    &with_others,
                    "that adds the shader's other uniforms: the question asks for the array alone",
                ),
            ],
        };
        check_ui(ui, &mut self.check, &question, |ui| {
            crate::ui::check::working_ui(
                ui,
                &format!(
                    "A mat4 is four columns, one vec4 each: {MAX_JOINTS} × 4 = {} vectors \
                     (of the 256 WebGL2 promises).\n\
                     Joint j is row j; the matrix's column c is texel c of it: ({CHECK_COLUMN}, {CHECK_JOINT}).\n\
                     Flat, that is texel 4 × {CHECK_JOINT} + {CHECK_COLUMN} = {}, floats {} to {}.",
                    MAX_JOINTS * 4,
                    CHECK_JOINT * 4 + CHECK_COLUMN,
                    (CHECK_JOINT * 4 + CHECK_COLUMN) * 4,
                    (CHECK_JOINT * 4 + CHECK_COLUMN) * 4 + 3
                ),
            );
        });
    }

    /// The second exercise: prepare five influences for the GPU by hand.
    fn prepare_check_ui(&mut self, ui: &mut Ui) {
        let given: Vec<String> = PREPARE_EXERCISE
            .iter()
            .map(|(j, w)| format!("joint {j}: {w}"))
            .collect();
        ui.label(format!(
            "A vertex has five influences: {}. Prepare them for the GPU: which four joints \
             does it keep, largest weight first, and with what weights? Write the joints in \
             slots 1 to 4, then their weights in the same order.",
            given.join(", ")
        ));
        // Every exercise joint is below 8: the steps cannot fail.
        let Ok(steps) = prepare_steps(&PREPARE_EXERCISE, 8) else {
            return;
        };
        let p = steps.prepared;
        let expected: Vec<f32> = p
            .joints
            .iter()
            .map(|j| *j as f32)
            .chain(p.weights)
            .collect();
        // The four kept as they were, not divided by their sum: a slip worth naming.
        let sum: f32 = steps.kept.iter().map(|(_, w)| w).sum();
        let undivided: Vec<f32> = expected[..4]
            .iter()
            .copied()
            .chain(p.weights.iter().map(|w| w * sum))
            .collect();
        let question = Question {
            name: "prepare",
            labels: &[
                "slot 1", "slot 2", "slot 3", "slot 4", "weight 1", "weight 2", "weight 3",
                "weight 4",
            ],
            columns: 4,
            expected: &expected,
            tolerance: 0.01,
            mistakes: &[(
                &undivided,
                "the four weights kept still sum to less than 1: divide each by their sum",
            )],
        };
        check_ui(ui, &mut self.check, &question, |ui| {
            let pairs = |list: &[(usize, f32)]| {
                list.iter()
                    .map(|(j, w)| format!("{j}:{w:.3}"))
                    .collect::<Vec<_>>()
                    .join("  ")
            };
            crate::ui::check::working_ui(
                ui,
                &format!(
                    "sort       {}\nkeep 4     {}\nsum        {sum:.2}\nnormalise  {}  (each weight / {sum:.2})",
                    pairs(&steps.sorted),
                    pairs(&steps.kept),
                    pairs(&steps.normalised)
                ),
            );
        });
    }
}

/// The uniforms skin.vert declares besides the palette, with their costs: read from
/// the shader once, not every frame.
fn main_uniforms() -> &'static [UniformCost] {
    static COSTS: std::sync::OnceLock<Vec<UniformCost>> = std::sync::OnceLock::new();
    COSTS.get_or_init(|| uniform_costs(shaders::SKIN_VERT.text, MAX_JOINTS))
}

/// The uniform vectors those take: what the palette's array must leave.
fn other_vectors(main: &[UniformCost]) -> usize {
    main.iter().map(|c| c.vectors).sum()
}

/// What to say where the fast kernel timed slower than the reference loop it should
/// beat: at a size so small that the two differ by less than a coarse clock can tell
/// apart, or on a machine busy with something else while it timed.
fn kernel_slower(points: &[BenchPoint]) -> Option<String> {
    let slower: Vec<&BenchPoint> = (points.iter())
        .filter(|p| p.best_cpu_ms() > p.reference_ms)
        .collect();
    let sizes = (slower.iter())
        .map(|p| p.vertices.to_string())
        .collect::<Vec<_>>()
        .join(", ");
    // Within two tenths of a millisecond (a tick or two of a browser's clock), or of a
    // third of the time: too close to rank on one run.
    let close = (slower.iter())
        .all(|p| p.best_cpu_ms() - p.reference_ms < 0.2_f64.max(0.3 * p.reference_ms));
    let why = if close {
        "the two ran too close to rank on one run (where the kernel cannot use its SIMD \
         lanes, a browser's build say, it is not much faster than the loop); press Measure \
         again"
    } else {
        "the machine was busy with something else while the kernel ran; press Measure again"
    };
    (!slower.is_empty()).then(|| {
        format!("At {sizes} vertices the fast kernel timed slower than the reference loop: {why}.")
    })
}

/// Whether a renderer's name is one that draws on the CPU (Mesa's llvmpipe and
/// softpipe, SwiftShader in a browser, Microsoft's WARP).
fn software_renderer(name: &str) -> bool {
    ["llvmpipe", "softpipe", "SwiftShader", "Software", "WARP"]
        .iter()
        .any(|s| name.contains(s))
}

/// What a sweep on a software renderer says beside its chart.
const SOFTWARE_NOTE: &str = "This renderer draws on the CPU: the \"GPU\" here is the CPU \
    pretending to be one, so its times say nothing about a graphics card. The run on a \
    server with an NVIDIA H100 shows what a real GPU does.";

#[cfg(test)]
mod tests {
    use super::{BenchPoint, kernel_slower};

    fn point(vertices: usize, reference_ms: f64, fast_ms: f64) -> BenchPoint {
        BenchPoint {
            vertices,
            reference_ms,
            fast_ms,
            ..BenchPoint::default()
        }
    }

    #[test]
    fn a_fast_kernel_slower_than_the_reference_is_named_with_why() {
        assert_eq!(kernel_slower(&[point(3000, 0.5, 0.1)]), None);
        let close = kernel_slower(&[point(3000, 0.1, 0.2), point(10_000, 1.0, 0.3)]).unwrap();
        assert!(close.starts_with("At 3000 vertices"), "{close}");
        assert!(close.contains("too close to rank"), "{close}");
        let busy = kernel_slower(&[point(1_000_000, 40.0, 90.0)]).unwrap();
        assert!(busy.contains("busy"), "{busy}");
    }
}
