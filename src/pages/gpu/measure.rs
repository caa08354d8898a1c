//! What the page measures on the live GL context: its limits, the largest CPU-GPU
//! difference of every path, and the CPU-versus-GPU sweep. The page asks from the UI
//! thread; the viewport's paint callback answers through a shared [`Report`].

use super::{GpuPage, Storage};
use crate::gl::{
    self, JointIndices, Limits, MAX_JOINTS, MeshData, Palette, Primitive, SceneRenderer,
};
use crate::rigs::chain::Chain;
use crate::skin::lbs::skin_vertices;
use crate::ui::viewport::AfterPaint;
use glam::{Mat4, Vec3};
use std::sync::{Arc, Mutex};

/// Vertices skinned on the CPU per frame during the sweep, so the UI keeps moving.
const CPU_CHUNK: usize = 50_000;
pub use crate::rigs::chain::SWEEP;
pub use crate::skin::gpu::CPU_BYTES_PER_VERTEX;

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
    /// Skinning positions, normals and tangents on the CPU, milliseconds.
    pub cpu_ms: f64,
    /// Uploading the CPU's result, milliseconds (from the GL thread).
    pub upload_ms: Option<f64>,
    /// The skinning vertex shader over the mesh, milliseconds (from the GL thread).
    pub gpu_ms: Option<f64>,
}

/// Upload and vertex-stage milliseconds of one sweep size, or why they are missing.
pub type Timing = Result<(f64, f64), String>;

/// What the GL thread has reported.
#[derive(Debug, Default)]
pub struct Report {
    /// The context's limits, once asked.
    pub limits: Option<Limits>,
    /// The pose the differences belong to, and one per entry of [`PATHS`].
    pub diffs: Option<(DiffKey, Vec<PathDiff>)>,
    /// GPU timings of the sweep: (vertices, upload ms, vertex stage ms) or an error.
    pub timings: Vec<(usize, Timing)>,
}

/// A size being measured: the mesh and how far the CPU has got.
struct Running {
    point: BenchPoint,
    chain: Arc<Chain>,
    mesh: Arc<MeshData>,
    cpu_done: usize,
}

/// The sweep over [`SWEEP`], one step per frame.
#[derive(Default)]
pub struct Bench {
    /// Finished sizes.
    pub points: Vec<BenchPoint>,
    running: Option<Running>,
    /// Sizes still to measure.
    queue: Vec<usize>,
}

impl Bench {
    /// Whether a sweep is under way.
    pub fn is_running(&self) -> bool {
        self.running.is_some() || !self.queue.is_empty()
    }

    /// Starts a sweep (dropping the last one).
    pub fn start(&mut self) {
        self.points.clear();
        self.queue = SWEEP.iter().rev().copied().collect();
        self.running = None;
    }

    /// The size being measured now.
    pub fn current(&self) -> Option<usize> {
        self.running.as_ref().map(|r| r.point.vertices)
    }
}

/// Run every path over `mesh` with `palette` and compare with `cpu`.
struct DiffRequest {
    key: DiffKey,
    mesh: Arc<MeshData>,
    palette: Vec<Mat4>,
    cpu: Arc<Vec<Vec3>>,
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
    diff: Option<DiffRequest>,
    bench: Option<BenchRequest>,
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
    let mut out = report.lock().unwrap_or_else(|p| p.into_inner());
    if request.limits && out.limits.is_none() {
        out.limits = Some(gl::limits(gl));
    }
    if let Some(DiffRequest {
        key,
        mesh,
        palette,
        cpu,
    }) = &request.diff
    {
        let diffs = match renderer.mesh(gl, mesh).map(|_| ()) {
            Err(e) => vec![PathDiff::Failed(e); PATHS.len()],
            Ok(()) => PATHS
                .iter()
                .map(|(storage, indices)| {
                    let Some(gpu) = renderer.uploaded(mesh) else {
                        return PathDiff::Failed("the mesh is not on the GPU".into());
                    };
                    let palette = match storage {
                        Storage::Uniform => Palette::Matrices(palette.clone()),
                        Storage::Texture => Palette::Texture(palette.clone()),
                    };
                    match gl::capture_skinned_with(gl, renderer, gpu, &palette, *indices) {
                        Ok(captured) => PathDiff::Measured(max_distance(&captured, cpu)),
                        Err(e) => PathDiff::Failed(e),
                    }
                })
                .collect(),
        };
        out.diffs = Some((*key, diffs));
    }
    if let Some(BenchRequest {
        vertices: n,
        mesh,
        palette,
        indices,
    }) = &request.bench
        && !out.timings.iter().any(|(m, _)| m == n)
    {
        let timed = gl::time_both_sides(gl, renderer, mesh, palette, *indices)
            .map(|(upload, vertex_stage)| (upload * 1e3, vertex_stage * 1e3));
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

    /// The differences measured for the current pose, if they have arrived.
    pub fn diffs(&self) -> Option<Vec<PathDiff>> {
        let report = self.report.lock().ok()?;
        let (key, diffs) = report.diffs.as_ref()?;
        (*key == self.diff_key()).then(|| diffs.clone())
    }

    /// The context's limits, if they have arrived.
    pub fn limits(&self) -> Option<Limits> {
        self.report.lock().ok()?.limits
    }

    /// Advances the sweep by one step (a slice of CPU work, or collecting the GPU's
    /// answer) and returns what the GL thread must measure this frame.
    fn bench_step(&mut self) -> Option<BenchRequest> {
        let storage = self.effective_storage();
        let bench = &mut self.bench;
        if bench.running.is_none() {
            let n = bench.queue.pop()?;
            let chain = Chain::new(self.joints, self.spread, n);
            let mesh = MeshData::new(
                chain.skin.clone(),
                chain.triangles.clone(),
                Primitive::Triangles,
            );
            bench.running = Some(Running {
                point: BenchPoint {
                    vertices: chain.skin.positions.len(),
                    ..BenchPoint::default()
                },
                chain: Arc::new(chain),
                mesh,
                cpu_done: 0,
            });
            return None;
        }
        let running = bench.running.as_mut()?;
        let total = running.chain.skin.positions.len();
        let palette = running.chain.palette(self.bend, self.twist);
        if running.cpu_done < total {
            let range = running.cpu_done..(running.cpu_done + CPU_CHUNK).min(total);
            let skin = &running.chain.skin;
            let part = crate::skin::lbs::SkinMesh {
                positions: skin.positions[range.clone()].to_vec(),
                normals: skin.normals[range.clone()].to_vec(),
                tangents: skin.tangents[range.clone()].to_vec(),
                influences: skin.influences[range.clone()].to_vec(),
            };
            let start = web_time::Instant::now();
            let skinned = skin_vertices(&palette, &part);
            running.point.cpu_ms += start.elapsed().as_secs_f64() * 1e3;
            std::hint::black_box(skinned);
            running.cpu_done = range.end;
            return None;
        }
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
                    Storage::Uniform => Palette::Matrices(palette),
                    Storage::Texture => Palette::Texture(palette),
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

    /// Starts the sweep, forgetting the GPU timings of the last one.
    pub fn start_bench(&mut self) {
        self.bench.start();
        if let Ok(mut report) = self.report.lock() {
            report.timings.clear();
        }
    }

    /// The work for this frame's paint callback: limits once, the differences when
    /// the pose changed, a sweep step when one runs.
    pub(super) fn after_paint(&mut self) -> Option<AfterPaint> {
        let key = self.diff_key();
        let measured = self
            .report
            .lock()
            .ok()
            .and_then(|r| r.diffs.as_ref().map(|(k, _)| *k == key))
            .unwrap_or(false);
        let diff = (!measured).then(|| {
            let palette = self.palette();
            let cpu: Vec<Vec3> = skin_vertices(&palette, &self.chain.skin)
                .iter()
                .map(|v| v.position)
                .collect();
            DiffRequest {
                key,
                mesh: self.mesh.clone(),
                palette,
                cpu: Arc::new(cpu),
            }
        });
        let request = Request {
            limits: true,
            diff,
            bench: self.bench_step(),
        };
        let report = self.report.clone();
        Some(Box::new(move |gl, renderer| {
            answer(&request, gl, renderer, &report);
        }))
    }

    /// Whether the uniform array can hold the palette (for the paths table).
    pub fn path_runs(storage: Storage, joints: usize) -> bool {
        storage == Storage::Texture || joints <= MAX_JOINTS
    }
}
