//! What the page measures on the live GL context: its limits, the largest CPU-GPU
//! difference of every path, and the CPU-versus-GPU sweep. The page asks from the UI
//! thread; the viewport's paint callback answers through a shared [`Report`]. Work that
//! grows with the mesh goes a slice per frame, so a mesh of a million vertices never
//! holds one frame up for long.

use super::{GpuPage, Storage};
use crate::ui::viewport::AfterPaint;
use gl::{self, Limits, SceneRenderer};
use glam::{Mat4, Vec3};
use rigs::chain::Chain;
use scene::{JointIndices, MeshData, Palette};
use skin::job::{JointWeights, SkinningJob, Stream, thread_count};
use skin::lbs::{SkinMesh, skin_vertices};
use std::sync::{Arc, Mutex, PoisonError};

/// Vertices the reference loop skins per frame during the sweep (some 7 ms at the
/// 70 ns a vertex it takes here), so the UI keeps moving.
const REFERENCE_CHUNK: usize = 100_000;
/// Timed runs of the fast kernel per size and thread count; the best is kept. One
/// untimed run goes first, to touch the output's memory.
const FAST_RUNS: usize = 3;
/// Vertices in a comparison's first slice, before the cost of one is known.
const DIFF_FIRST_SLICE: usize = 16_384;
/// The fewest and the most vertices the shader skins and reads back at once when it is
/// compared with the CPU.
const DIFF_SLICES: std::ops::RangeInclusive<usize> = 4_096..=262_144;
/// Seconds a frame may spend comparing: a quarter of the frame before it, within these
/// bounds. A mesh of a million vertices is then compared over many frames, each a
/// little longer than the page's own, and a small mesh in one or two.
const DIFF_SECONDS_PER_FRAME: std::ops::RangeInclusive<f64> = 0.001..=0.008;

/// The seconds a frame may spend comparing, given the seconds the frame before it took.
fn diff_budget(last_frame: f64) -> f64 {
    let (least, most) = DIFF_SECONDS_PER_FRAME.into_inner();
    if last_frame.is_nan() {
        least
    } else {
        (last_frame / 4.0).clamp(least, most)
    }
}

/// The vertices of the next slice: as many as the `left` seconds of the frame's budget
/// hold at the seconds a vertex took so far, or none when the budget is spent.
fn next_slice(left: f64, seconds_per_vertex: Option<f64>) -> usize {
    let (fewest, most) = DIFF_SLICES.into_inner();
    match seconds_per_vertex {
        _ if left <= 0.0 => 0,
        Some(per) if per > 0.0 => {
            let fits = left / per;
            if fits < fewest as f64 {
                0
            } else {
                (fits as usize).min(most)
            }
        }
        _ => DIFF_FIRST_SLICE,
    }
}

pub use rigs::chain::SWEEP;

/// Every path the page compares: the palette's storage and the index type.
pub const PATHS: [(Storage, JointIndices); 4] = [
    (Storage::Uniform, JointIndices::Float),
    (Storage::Uniform, JointIndices::Int),
    (Storage::Texture, JointIndices::Float),
    (Storage::Texture, JointIndices::Int),
];

/// What one path gave for the current pose.
#[derive(Clone, Debug, PartialEq)]
pub enum PathDiff {
    /// The largest distance between a GPU and a CPU position, world units.
    Measured(f32),
    /// The path cannot run this palette (or the capture failed): why.
    Failed(String),
}

/// How far the comparison of the current pose has got.
#[derive(Clone, Debug, PartialEq)]
pub struct DiffProgress {
    /// One entry per path of [`PATHS`]: its result once every vertex is compared.
    pub paths: Vec<Option<PathDiff>>,
    /// The path being compared now, and the fraction of its vertices done.
    pub current: Option<(usize, f32)>,
}

/// What the pose, mesh and palette of a difference measurement were.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DiffKey {
    joints: usize,
    spread: f32,
    vertices: usize,
    bend: f32,
    twist: f32,
}

/// One size of the sweep.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BenchPoint {
    /// Vertices in the mesh.
    pub vertices: usize,
    /// The readable reference loop (`skin::lbs::skin_vertices`) over positions, normals
    /// and tangents, one thread, milliseconds.
    pub reference_ms: f64,
    /// The fast kernel (`skin::job::SkinningJob`) over the same, one thread, best of
    /// three, milliseconds.
    pub fast_ms: f64,
    /// The fast kernel allowed every core: the threads it used (it keeps a small mesh
    /// on fewer) and its best of three in milliseconds. `None` where only one thread
    /// can run (the web build, a one-core machine).
    pub fast_threaded: Option<(usize, f64)>,
    /// Uploading the CPU's result, milliseconds (from the GL thread).
    pub upload_ms: Option<f64>,
    /// The skinning vertex shader over the mesh, milliseconds (from the GL thread).
    pub gpu_ms: Option<f64>,
}

impl BenchPoint {
    /// The fastest CPU skinning measured at this size: the fast kernel on one thread or
    /// on several.
    pub fn best_cpu_ms(&self) -> f64 {
        self.fast_threaded
            .map_or(self.fast_ms, |(_, ms)| ms.min(self.fast_ms))
    }

    /// A CPU-skinned frame: the fastest kernel, then the upload (once measured).
    pub fn cpu_total_ms(&self) -> Option<f64> {
        Some(self.best_cpu_ms() + self.upload_ms?)
    }

    /// Whether the GPU was timed at zero: a clock too coarse for the draw (a browser
    /// rounds its clock), or a glFinish that did not wait. No verdict comes of it, and
    /// the chart leaves it out.
    pub fn gpu_untimed(&self) -> bool {
        self.gpu_ms.is_some_and(|ms| ms <= 0.0)
    }
}

/// The threads the fast kernel may use on this machine (1 on the web build).
pub fn cpu_threads() -> usize {
    thread_count(0, usize::MAX)
}

/// Where the GPU's vertex stage overtakes CPU skinning plus its upload, over a
/// finished sweep.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Crossover {
    /// Not every size has its GPU timings.
    Unknown,
    /// The GPU was faster at every size.
    GpuEverywhere,
    /// The CPU was faster at every size.
    CpuEverywhere,
    /// The GPU was faster from this size on (the CPU below it).
    From(usize),
    /// The GPU won at some size, but not at every size above it.
    Mixed,
}

/// Where the GPU overtakes the fastest CPU kernel plus its upload, over `points`.
pub fn crossover(points: &[BenchPoint]) -> Crossover {
    let wins: Option<Vec<bool>> = points
        .iter()
        .map(|p| Some(p.gpu_ms? < p.cpu_total_ms()?))
        .collect();
    let Some(wins) = wins.filter(|w| !w.is_empty()) else {
        return Crossover::Unknown;
    };
    let first = wins.iter().position(|gpu| *gpu);
    match first {
        None => Crossover::CpuEverywhere,
        Some(0) if wins.iter().all(|gpu| *gpu) => Crossover::GpuEverywhere,
        Some(i) if wins[i..].iter().all(|gpu| *gpu) => Crossover::From(points[i].vertices),
        Some(_) => Crossover::Mixed,
    }
}

/// Upload and vertex-stage milliseconds of one sweep size, or why they are missing.
pub type Timing = Result<(f64, f64), String>;

/// The comparison of every path with the CPU for one pose, a slice per frame.
struct DiffRun {
    key: DiffKey,
    mesh: Arc<MeshData>,
    palette: Vec<Mat4>,
    /// The mesh's joint indices and weights as the fast kernel reads them.
    weights: Arc<JointWeights>,
    /// The CPU's positions (the fast kernel), or why they could not be skinned: worked
    /// out on the GL thread at the first slice, so a frame egui throws away costs
    /// nothing.
    cpu: Option<Result<Vec<Vec3>, String>>,
    /// One per path: the largest distance so far, or why the path failed.
    found: Vec<PathDiff>,
    /// Vertices compared so far, over every path in order.
    done: usize,
    /// Seconds a vertex took to capture and compare in the last slice.
    seconds_per_vertex: Option<f64>,
}

impl DiffRun {
    fn vertices(&self) -> usize {
        self.mesh.skin.positions.len()
    }

    fn total(&self) -> usize {
        self.vertices() * PATHS.len()
    }

    /// Paths whose every vertex has been compared.
    fn paths_done(&self) -> usize {
        match self.vertices() {
            0 => PATHS.len(),
            n => self.done / n,
        }
    }

    fn progress(&self) -> DiffProgress {
        let complete = self.paths_done();
        let n = self.vertices().max(1);
        DiffProgress {
            paths: (0..PATHS.len())
                .map(|k| (k < complete).then(|| self.found[k].clone()))
                .collect(),
            current: (complete < PATHS.len())
                .then(|| (complete, (self.done % n) as f32 / n as f32)),
        }
    }

    /// Compares more vertices for at most `budget` seconds: at least one slice, then
    /// slices sized by [`next_slice`] to what is left of it.
    fn advance(&mut self, gl: &glow::Context, renderer: &mut SceneRenderer, budget: f64) {
        let total = self.total();
        if self.done >= total {
            return;
        }
        let cpu = self.cpu.get_or_insert_with(|| {
            cpu_positions(&self.palette, &self.mesh.skin.positions, &self.weights)
        });
        let failed = match (&*cpu, renderer.mesh(gl, &self.mesh)) {
            (Err(e), _) => Some(e.clone()),
            (Ok(_), Err(e)) => Some(e),
            _ => None,
        };
        if let Some(why) = failed {
            self.found = vec![PathDiff::Failed(why); PATHS.len()];
            self.done = total;
            return;
        }
        let (Some(Ok(cpu)), Some(gpu)) = (&self.cpu, renderer.uploaded(&self.mesh)) else {
            self.found = vec![PathDiff::Failed("the mesh is not on the GPU".into()); PATHS.len()];
            self.done = total;
            return;
        };
        let n = self.vertices();
        let began = web_time::Instant::now();
        let mut slices = 0;
        while self.done < total {
            let left = budget - began.elapsed().as_secs_f64();
            let slice = match next_slice(left, self.seconds_per_vertex) {
                0 if slices == 0 => *DIFF_SLICES.start(),
                0 => break,
                slice => slice,
            };
            slices += 1;
            let (k, start) = (self.done / n, self.done % n);
            let end = (start + slice).min(n);
            let timed = web_time::Instant::now();
            let (storage, indices) = PATHS[k];
            let palette = match storage {
                Storage::Uniform => Palette::Matrices(self.palette.clone()),
                Storage::Texture => Palette::Texture(self.palette.clone()),
            };
            let switches = scene::Switches {
                indices,
                ..Default::default()
            };
            match gl::capture_skinned_range(gl, renderer, gpu, &palette, switches, start..end, &[])
            {
                Ok(captured) => {
                    let worst = max_distance(&captured, cpu.get(start..end).unwrap_or(&[]));
                    if let PathDiff::Measured(d) = &mut self.found[k] {
                        *d = d.max(worst);
                    }
                    self.done = k * n + end;
                    // The last slice sizes the next: a path's first slice, which
                    // links its program, is slower than those after it.
                    let per = timed.elapsed().as_secs_f64() / (end - start).max(1) as f64;
                    self.seconds_per_vertex = Some(per);
                }
                Err(e) => {
                    // This path is done: it cannot run.
                    self.found[k] = PathDiff::Failed(e);
                    self.done = (k + 1) * n;
                }
            }
        }
    }
}

/// What the GL thread has reported.
#[derive(Default)]
pub struct Report {
    /// The context's limits, once asked.
    pub limits: Option<Limits>,
    /// The comparison of the paths for the latest pose the page asked about.
    diff: Option<DiffRun>,
    /// GPU timings of the sweep: (vertices, upload ms, vertex stage ms) or an error.
    pub timings: Vec<(usize, Timing)>,
    /// What the GPU timings ran on and how they were taken, once the first arrives.
    pub timed_on: Option<String>,
    /// The clock that timed the vertex stage here, once the first timing arrives.
    pub clock: Option<gl::Clock>,
}

/// What a size of the sweep is doing this frame.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Stage {
    /// The reference loop, this many vertices in.
    Reference(usize),
    /// The fast kernel on one thread.
    Fast,
    /// The fast kernel on every core.
    FastThreaded,
    /// Waiting for the GL thread's timings.
    Gpu,
}

/// A size being measured: the mesh, its pose and how far the sweep has got.
struct Running {
    point: BenchPoint,
    skin: Arc<SkinMesh>,
    mesh: Arc<MeshData>,
    weights: JointWeights,
    palette: Vec<Mat4>,
    stage: Stage,
}

impl Running {
    /// Best of [`FAST_RUNS`] timed runs of the fast kernel on up to `threads` threads
    /// (0: every core), in milliseconds.
    fn time_fast(&self, threads: usize) -> f64 {
        let n = self.skin.positions.len();
        let mut out: [Vec<Vec3>; 3] = std::array::from_fn(|_| vec![Vec3::ZERO; n]);
        let mut best = f64::INFINITY;
        for run in 0..=FAST_RUNS {
            let [p, nn, t] = &mut out;
            let mut job = SkinningJob {
                palette: &self.palette,
                influences: &self.weights,
                positions: Stream::new(&self.skin.positions, p),
                normals: Some(Stream::new(&self.skin.normals, nn)),
                tangents: Some(Stream::new(&self.skin.tangents, t)),
            };
            let start = web_time::Instant::now();
            // The chain's streams all have one entry per vertex and its joints fit the
            // palette: the job cannot refuse them. Were it to, the time says nothing.
            if job.run_threaded(threads).is_err() {
                return f64::NAN;
            }
            let ms = start.elapsed().as_secs_f64() * 1e3;
            if run > 0 {
                best = best.min(ms);
            }
            std::hint::black_box(&mut out);
        }
        best
    }
}

/// The sweep over [`SWEEP`], one step per frame.
#[derive(Default)]
pub struct Bench {
    /// Finished sizes.
    pub points: Vec<BenchPoint>,
    /// Whether the points came in a link (`sweep=`): measured earlier, maybe on another
    /// machine, not here now. Measuring again clears it.
    pub from_link: bool,
    /// Whether the points are [`super::sweep::EXAMPLE`], shown by the student's choice.
    pub example: bool,
    running: Option<Running>,
    /// Sizes still to measure.
    queue: Vec<usize>,
}

impl Bench {
    /// Whether a sweep is under way.
    pub fn is_running(&self) -> bool {
        self.running.is_some() || !self.queue.is_empty()
    }

    /// Starts a sweep (dropping the last one, or the points a link brought).
    pub fn start(&mut self) {
        self.points.clear();
        self.from_link = false;
        self.example = false;
        self.queue = SWEEP.iter().rev().copied().collect();
        self.running = None;
    }

    /// Shows `points` that a link brought, as a finished sweep measured elsewhere; a
    /// sweep under way stops.
    /// Points that are [`super::sweep::EXAMPLE`]'s, in a link or not, are the example
    /// (its machine is named).
    pub fn load(&mut self, points: Vec<BenchPoint>) {
        self.example = super::sweep::read(super::sweep::EXAMPLE)
            .is_ok_and(|example| super::sweep::write(&example) == super::sweep::write(&points));
        self.points = points;
        self.from_link = true;
        self.queue.clear();
        self.running = None;
    }

    /// Shows [`super::sweep::EXAMPLE`], a sweep measured on another machine.
    pub fn load_example(&mut self) {
        // A constant, which a test reads.
        if let Ok(points) = super::sweep::read(super::sweep::EXAMPLE) {
            self.load(points);
        }
    }

    /// The finished sweep, for a link: `None` while a sweep runs or before any.
    pub fn finished(&self) -> Option<&[BenchPoint]> {
        (!self.is_running() && !self.points.is_empty()).then_some(&self.points[..])
    }

    /// The size being measured now.
    pub fn current(&self) -> Option<usize> {
        self.running.as_ref().map(|r| r.point.vertices)
    }

    /// The size being measured and what is known of it so far: the CPU's times come
    /// first, one step a frame, then the GPU's.
    pub fn measuring(&self) -> Option<&BenchPoint> {
        self.running.as_ref().map(|r| &r.point)
    }

    /// How far the sweep has got, 0 to 1.
    pub fn fraction(&self) -> f32 {
        let sizes = self.points.len() + self.queue.len() + self.running.is_some() as usize;
        if sizes == 0 {
            return 0.0;
        }
        let within = self.running.as_ref().map_or(0.0, |r| {
            let n = r.skin.positions.len().max(1) as f32;
            match r.stage {
                Stage::Reference(done) => 0.8 * done as f32 / n,
                Stage::Fast => 0.8,
                Stage::FastThreaded => 0.85,
                Stage::Gpu => 0.9,
            }
        });
        (self.points.len() as f32 + within) / sizes as f32
    }
}

/// Time one sweep size of `vertices` vertices.
struct BenchRequest {
    vertices: usize,
    mesh: Arc<MeshData>,
    palette: Palette,
    indices: JointIndices,
}

/// One step of work on the GL thread.
struct Request {
    limits: bool,
    /// A new comparison to start (the pose changed).
    diff: Mutex<Option<DiffRun>>,
    /// Seconds this frame may spend comparing ([`diff_budget`]).
    diff_budget: f64,
    bench: Option<BenchRequest>,
}

/// Positions `bind` skinned by `palette` on the CPU with the fast kernel (on every core):
/// what the shader's are compared with.
fn cpu_positions(
    palette: &[Mat4],
    bind: &[Vec3],
    weights: &JointWeights,
) -> Result<Vec<Vec3>, String> {
    let mut out = vec![Vec3::ZERO; bind.len()];
    SkinningJob {
        palette,
        influences: weights,
        positions: Stream::new(bind, &mut out),
        normals: None,
        tangents: None,
    }
    .run_threaded(0)
    .map_err(|e| e.to_string())?;
    Ok(out)
}

fn max_distance(gpu: &[(Vec3, Vec3)], cpu: &[Vec3]) -> f32 {
    gpu.iter()
        .zip(cpu)
        .map(|((g, _), c)| g.distance(*c))
        .fold(0.0, f32::max)
}

fn answer(
    request: &Request,
    gl: &glow::Context,
    renderer: &mut SceneRenderer,
    report: &Mutex<Report>,
) {
    let mut out = report.lock().unwrap_or_else(PoisonError::into_inner);
    if request.limits && out.limits.is_none() {
        out.limits = Some(gl::limits(gl));
    }
    if let Some(run) = request
        .diff
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .take()
    {
        out.diff = Some(run);
    }
    if let Some(run) = &mut out.diff {
        run.advance(gl, renderer, request.diff_budget);
    }
    if let Some(BenchRequest {
        vertices: n,
        mesh,
        palette,
        indices,
    }) = &request.bench
        && !out.timings.iter().any(|(m, _)| m == n)
    {
        let timed = gl::time_both_sides(gl, renderer, mesh, palette, *indices).map(|t| {
            out.timed_on = Some(format!(
                "Timed on {}: the vertex stage by {}, the upload by {}.",
                gl::renderer(gl),
                t.clock.name(),
                gl::Upload::chosen().name()
            ));
            out.clock = Some(t.clock);
            (t.upload * 1e3, t.vertex_stage * 1e3)
        });
        out.timings.push((*n, timed));
    }
}

impl GpuPage {
    fn diff_key(&self) -> DiffKey {
        DiffKey {
            joints: self.joints,
            spread: self.spread,
            vertices: self.vertices,
            bend: self.bend,
            twist: self.twist,
        }
    }

    /// How far the comparison of the current pose has got, if it has started.
    pub fn diff_progress(&self) -> Option<DiffProgress> {
        let report = self.report.lock().ok()?;
        let run = report.diff.as_ref()?;
        (run.key == self.diff_key()).then(|| run.progress())
    }

    /// The differences measured for the current pose, once every path is compared.
    pub fn diffs(&self) -> Option<Vec<PathDiff>> {
        self.diff_progress()?.paths.into_iter().collect()
    }

    /// The context's limits, if they have arrived.
    pub fn limits(&self) -> Option<Limits> {
        self.report.lock().ok()?.limits
    }

    /// Advances the sweep by one step (a slice of CPU work, or collecting the GPU's
    /// answer) and returns what the GL thread must measure this frame.
    fn bench_step(&mut self) -> Option<BenchRequest> {
        let storage = self.effective_storage();
        let Some(running) = &mut self.bench.running else {
            let n = self.bench.queue.pop()?;
            let chain = Chain::new(self.joints, self.spread, n);
            let palette = chain.palette(self.bend, self.twist);
            let mesh = MeshData::shared(
                chain.skin.clone(),
                chain.triangles,
                scene::Primitive::Triangles,
            );
            let weights = JointWeights::from_influences(&chain.skin.influences).unwrap_or_default();
            self.bench.running = Some(Running {
                point: BenchPoint {
                    vertices: chain.skin.positions.len(),
                    ..BenchPoint::default()
                },
                skin: chain.skin,
                mesh,
                weights,
                palette,
                stage: Stage::Reference(0),
            });
            return None;
        };
        let total = running.skin.positions.len();
        match running.stage {
            Stage::Reference(done) => {
                let range = done..(done + REFERENCE_CHUNK).min(total);
                let skin = &running.skin;
                let part = SkinMesh {
                    positions: skin.positions[range.clone()].to_vec(),
                    normals: skin.normals[range.clone()].to_vec(),
                    tangents: skin.tangents[range.clone()].to_vec(),
                    influences: skin.influences[range.clone()].to_vec(),
                };
                let start = web_time::Instant::now();
                let skinned = skin_vertices(&running.palette, &part);
                running.point.reference_ms += start.elapsed().as_secs_f64() * 1e3;
                std::hint::black_box(skinned);
                running.stage = if range.end < total {
                    Stage::Reference(range.end)
                } else {
                    Stage::Fast
                };
                None
            }
            Stage::Fast => {
                running.point.fast_ms = running.time_fast(1);
                running.stage = if cpu_threads() > 1 {
                    Stage::FastThreaded
                } else {
                    Stage::Gpu
                };
                None
            }
            Stage::FastThreaded => {
                let ms = running.time_fast(0);
                running.point.fast_threaded = Some((thread_count(0, total), ms));
                running.stage = Stage::Gpu;
                None
            }
            Stage::Gpu => {
                let n = running.point.vertices;
                let timing = self
                    .report
                    .lock()
                    .ok()
                    .and_then(|r| r.timings.iter().find(|(m, _)| *m == n).cloned());
                match timing {
                    Some((_, result)) => {
                        let mut point = running.point.clone();
                        if let Ok((upload, gpu)) = result {
                            point.upload_ms = Some(upload);
                            point.gpu_ms = Some(gpu);
                        }
                        self.bench.points.push(point);
                        self.bench.running = None;
                        None
                    }
                    None => {
                        let palette = match storage {
                            Storage::Uniform => Palette::Matrices(running.palette.clone()),
                            Storage::Texture => Palette::Texture(running.palette.clone()),
                        };
                        Some(BenchRequest {
                            vertices: n,
                            mesh: running.mesh.clone(),
                            palette,
                            indices: self.indices,
                        })
                    }
                }
            }
        }
    }

    /// Starts the sweep, forgetting the GPU timings of the last one.
    pub fn start_bench(&mut self) {
        self.bench.start();
        if let Ok(mut report) = self.report.lock() {
            report.timings.clear();
        }
    }

    /// The work for this frame's paint callback: limits once, a new comparison when
    /// the pose changed (then slices of it every frame, from the page's second frame
    /// on, for as long as [`diff_budget`] allows after a frame of `last_frame`
    /// seconds), a sweep step when one runs.
    pub(super) fn after_paint(&mut self, frame: u64, last_frame: f64) -> Option<AfterPaint> {
        // A frame egui lays out twice (a new grid) counts once.
        let first_frame = *self.first_frame.get_or_insert(frame) == frame;
        let key = self.diff_key();
        let started = self
            .report
            .lock()
            .ok()
            .and_then(|r| r.diff.as_ref().map(|run| run.key == key))
            .unwrap_or(false);
        let diff = (!started && !first_frame).then(|| DiffRun {
            key,
            mesh: self.mesh.clone(),
            palette: self.palette(),
            weights: self.weights.clone(),
            cpu: None,
            found: vec![PathDiff::Measured(0.0); PATHS.len()],
            done: 0,
            seconds_per_vertex: None,
        });
        let request = Request {
            limits: true,
            diff: Mutex::new(diff),
            diff_budget: diff_budget(last_frame),
            bench: self.bench_step(),
        };
        let report = self.report.clone();
        Some(Box::new(move |gl, renderer| {
            answer(&request, gl, renderer, &report);
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_comparison_takes_a_quarter_of_the_frame_before_within_its_bounds() {
        assert_eq!(diff_budget(0.020), 0.005);
        assert_eq!(diff_budget(0.002), 0.001, "at least a millisecond");
        assert_eq!(
            diff_budget(2.0),
            0.008,
            "at most eight, after an idle pause"
        );
        assert_eq!(diff_budget(f64::INFINITY), 0.008);
        assert_eq!(diff_budget(f64::NAN), 0.001);
    }

    #[test]
    fn slices_fit_what_is_left_of_the_frames_budget() {
        assert_eq!(
            next_slice(0.004, None),
            DIFF_FIRST_SLICE,
            "the cost not yet known"
        );
        assert_eq!(next_slice(0.0, None), 0, "the budget spent");
        assert_eq!(next_slice(-0.001, Some(1e-7)), 0);
        // Two milliseconds left at a tenth of a microsecond a vertex.
        assert!((19_999..=20_000).contains(&next_slice(0.002, Some(1e-7))));
        assert_eq!(
            next_slice(0.0001, Some(1e-7)),
            0,
            "room for fewer than the fewest"
        );
        assert_eq!(next_slice(0.008, Some(1e-10)), *DIFF_SLICES.end());
    }

    fn point(vertices: usize, fast: f64, upload: f64, gpu: f64) -> BenchPoint {
        BenchPoint {
            vertices,
            reference_ms: 10.0 * fast,
            fast_ms: fast,
            fast_threaded: Some((2, fast / 2.0)),
            upload_ms: Some(upload),
            gpu_ms: Some(gpu),
        }
    }

    #[test]
    fn a_sweep_is_for_a_link_only_once_it_has_finished() {
        let mut bench = Bench::default();
        assert_eq!(bench.finished(), None, "nothing measured");
        bench.start();
        bench.points.push(point(2_996, 1.0, 0.1, 1.0));
        assert_eq!(bench.finished(), None, "sizes still to measure");
        bench.queue.clear();
        assert_eq!(bench.finished().map(<[_]>::len), Some(1));
        bench.load(vec![point(9_984, 1.0, 0.1, 1.0)]);
        assert!(bench.from_link && bench.finished().is_some());
        bench.start();
        assert!(!bench.from_link && bench.points.is_empty());
    }

    #[test]
    fn the_example_sweep_reads_and_is_marked_as_measured_elsewhere() {
        let mut bench = Bench::default();
        bench.load_example();
        assert!(bench.example && bench.from_link);
        assert_eq!(bench.points.len(), SWEEP.len());
        assert_eq!(crossover(&bench.points), Crossover::GpuEverywhere);
        bench.start();
        assert!(!bench.example);
        // The same sweep reopened from a link is still the example, its machine named.
        bench.load(super::super::sweep::read(super::super::sweep::EXAMPLE).expect("reads"));
        assert!(bench.example && bench.from_link);
        bench.load(vec![point(9_984, 1.0, 0.1, 1.0)]);
        assert!(!bench.example, "another sweep is not the example");
    }

    #[test]
    fn the_crossover_is_where_the_gpu_stays_ahead_of_the_fastest_kernel_and_its_upload() {
        // CPU totals: 0.5 + 0.1, 5 + 1, 50 + 10 (the threaded run is the fastest).
        let sweep = [
            point(1_000, 1.0, 0.1, 1.0),
            point(10_000, 10.0, 1.0, 5.0),
            point(100_000, 100.0, 10.0, 20.0),
        ];
        assert_eq!(sweep[1].best_cpu_ms(), 5.0);
        assert_eq!(sweep[1].cpu_total_ms(), Some(6.0));
        assert_eq!(crossover(&sweep), Crossover::From(10_000));
        assert_eq!(crossover(&sweep[1..]), Crossover::GpuEverywhere);
        assert_eq!(crossover(&sweep[..1]), Crossover::CpuEverywhere);
        let mut back = sweep.clone();
        back[2].gpu_ms = Some(100.0);
        assert_eq!(crossover(&back), Crossover::Mixed);
        back[2].gpu_ms = None;
        assert_eq!(
            crossover(&back),
            Crossover::Unknown,
            "a size without its GPU time"
        );
        assert_eq!(crossover(&[]), Crossover::Unknown);
    }
}
