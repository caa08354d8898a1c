//! GPU timings for the CPU-against-GPU comparison (the gpu page and `skinlab --bench`):
//! the skinning vertex stage alone, and the upload a CPU-skinned mesh costs.

use super::draw::SceneRenderer;
use super::mesh::SkinnedMeshGpu;
use super::stream::{StreamBuffer, Upload};
use glow::HasContext as _;
use scene::{JointIndices, MeshData, Palette};
use std::sync::Arc;

/// How a span of GPU work was timed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Clock {
    /// A `GL_TIME_ELAPSED` timer query around the draw call alone: the GPU's own time,
    /// with no finish or readback inside it (desktop GL).
    TimerQuery,
    /// Wall time from one `glFinish` to the next around the draw: it holds the driver's
    /// overhead and the round trip too (where timer queries are hidden, as on WebGL2).
    Finish,
}

impl Clock {
    /// The clock this context offers. Desktop GL has timer queries; WebGL2 often
    /// hides them. A software renderer (Mesa's llvmpipe, SwiftShader) times only its
    /// rasteriser threads, which a draw with rasterisation off never reaches, so its
    /// queries read 0: there the wall clock is the honest one.
    pub fn of(gl: &glow::Context) -> Self {
        let renderer = super::renderer(gl).to_ascii_lowercase();
        let software = ["llvmpipe", "softpipe", "swiftshader", "software"]
            .iter()
            .any(|name| renderer.contains(name));
        if gl.version().is_embedded || software {
            Self::Finish
        } else {
            Self::TimerQuery
        }
    }

    /// How the benchmark and the gpu page name it.
    pub fn name(self) -> &'static str {
        match self {
            Self::TimerQuery => "GL timer query around the draw",
            Self::Finish => "wall clock between two glFinish",
        }
    }
}

/// Seconds `work` keeps the GPU busy, by `clock`. `work` issues GL commands only.
fn gpu_seconds(gl: &glow::Context, clock: Clock, work: impl FnOnce()) -> Result<f64, String> {
    // SAFETY: plain GL calls on the current context; the query is created and deleted here.
    unsafe {
        match clock {
            Clock::TimerQuery => {
                let query = gl.create_query()?;
                gl.begin_query(glow::TIME_ELAPSED, query);
                work();
                gl.end_query(glow::TIME_ELAPSED);
                // Waits for the result: the wait is outside the timed span.
                let nanoseconds = gl.get_query_parameter_u64(query, glow::QUERY_RESULT);
                gl.delete_query(query);
                Ok(nanoseconds as f64 * 1e-9)
            }
            Clock::Finish => {
                gl.finish();
                let start = web_time::Instant::now();
                work();
                gl.finish();
                Ok(start.elapsed().as_secs_f64())
            }
        }
    }
}

/// Seconds the GPU takes to run the skinning vertex shader over every vertex of
/// `mesh`, its blend shapes added in at `weights` first (none when empty),
/// rasterisation off, timed by `clock` around the draw call alone.
pub fn time_skinning(
    gl: &glow::Context,
    renderer: &SceneRenderer,
    mesh: &SkinnedMeshGpu,
    weights: &[f32],
    palette: &Palette,
    indices: JointIndices,
    clock: Clock,
) -> Result<f64, String> {
    renderer.check_palette(palette, mesh.layout.centres)?;
    let program = renderer.program_for(gl, palette, indices)?;
    super::clear_errors(gl);
    // SAFETY: the program and the mesh's buffers belong to this renderer and context.
    unsafe {
        gl.use_program(Some(program));
        renderer.upload_palette(gl, program, palette);
        mesh.bind(gl, program, false, weights);
        gl.enable(glow::RASTERIZER_DISCARD);
        let seconds = gpu_seconds(gl, clock, || {
            gl.draw_arrays(glow::POINTS, 0, mesh.vertex_count as i32);
        });
        gl.disable(glow::RASTERIZER_DISCARD);
        gl.bind_vertex_array(None);
        gl.bind_texture(glow::TEXTURE_2D, None);
        gl.use_program(None);
        match gl.get_error() {
            glow::NO_ERROR => seconds,
            error => Err(format!(
                "timing the skinning failed with GL error 0x{error:x}"
            )),
        }
    }
}

/// Seconds the GPU takes to draw `scene` whole (every mesh skinned, its triangles
/// rasterised and shaded with depth testing) into the bound framebuffer of
/// `viewport_px` pixels, timed by `clock`; best of three after one that uploads and
/// warms. What the vertex stage alone leaves out: the triangles a CPU-skinned mesh
/// costs the GPU too.
pub fn time_drawn(
    gl: &glow::Context,
    renderer: &mut SceneRenderer,
    scene: &scene::Scene,
    viewport_px: [i32; 2],
    clock: Clock,
) -> Result<f64, String> {
    super::clear_errors(gl);
    // SAFETY: a plain GL call on the current context.
    unsafe { gl.viewport(0, 0, viewport_px[0], viewport_px[1]) };
    let size = viewport_px.map(|v| v as f32);
    renderer.paint(gl, scene, size)?;
    let mut best = f64::INFINITY;
    for _ in 0..3 {
        let mut painted = Ok(());
        let seconds = gpu_seconds(gl, clock, || painted = renderer.paint(gl, scene, size))?;
        painted?;
        best = best.min(seconds);
    }
    // SAFETY: a plain GL call on the current context.
    match unsafe { gl.get_error() } {
        glow::NO_ERROR => Ok(best),
        error => Err(format!("timing the draw failed with GL error 0x{error:x}")),
    }
}

/// Seconds to stream `runs` into a preallocated [`StreamBuffer`] by `upload` and have
/// GL done with them (`glFinish`): what a CPU-skinned mesh costs each frame on top of
/// the skinning. Best of three, after one untimed write that warms the buffer.
pub fn time_upload(gl: &glow::Context, runs: &[&[u8]], upload: Upload) -> Result<f64, String> {
    let bytes = runs.iter().map(|r| r.len()).sum();
    let buffer = StreamBuffer::new(gl, bytes, upload)?;
    let mut best = f64::INFINITY;
    let mut result = Ok(());
    for round in 0..4 {
        // SAFETY: a plain GL call on the current context.
        unsafe { gl.finish() };
        let start = web_time::Instant::now();
        result = buffer.write(gl, runs);
        // SAFETY: a plain GL call on the current context.
        unsafe { gl.finish() };
        if result.is_err() {
            break;
        }
        if round > 0 {
            best = best.min(start.elapsed().as_secs_f64());
        }
    }
    buffer.destroy(gl);
    result.map(|()| best)
}

/// The GPU's side of one size of the CPU-against-GPU comparison.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GpuTimes {
    /// Seconds to stream what a CPU-skinned mesh sends each frame (positions, normals
    /// and tangents, [`skin::gpu::CPU_BYTES_PER_VERTEX`] a vertex) by the app's method
    /// ([`Upload::chosen`]).
    pub upload: f64,
    /// Seconds of the skinning vertex stage, best of three.
    pub vertex_stage: f64,
    /// How the vertex stage was timed.
    pub clock: Clock,
}

/// The bytes a CPU-skinned mesh of `vertices` streams each frame, as the runs it sends
/// them in: positions, normals and tangents, one packed run each. Written, not zeroed:
/// untouched zeroed memory is one shared page, which a copy reads from cache.
pub fn cpu_skinned_runs(vertices: usize) -> [Vec<u8>; 3] {
    std::array::from_fn(|run| vec![run as u8 + 1; vertices * skin::gpu::CPU_BYTES_PER_VERTEX / 3])
}

/// Times both sides for `mesh`: the upload a CPU-skinned copy would send each frame,
/// and the best of three runs of the skinning vertex stage over it (after one that
/// warms caches).
pub fn time_both_sides(
    gl: &glow::Context,
    renderer: &mut SceneRenderer,
    mesh: &Arc<MeshData>,
    palette: &Palette,
    indices: JointIndices,
) -> Result<GpuTimes, String> {
    let vertex_stage = time_vertex_stage(gl, renderer, mesh, &[], palette, indices)?;
    let runs = cpu_skinned_runs(mesh.skin.positions.len());
    let runs: Vec<&[u8]> = runs.iter().map(Vec::as_slice).collect();
    Ok(GpuTimes {
        upload: time_upload(gl, &runs, Upload::chosen())?,
        vertex_stage,
        clock: Clock::of(gl),
    })
}

/// Seconds of the skinning vertex stage over `mesh` (uploaded first if it is not),
/// its blend shapes added in at `weights`: best of three runs, after one that warms
/// caches.
pub fn time_vertex_stage(
    gl: &glow::Context,
    renderer: &mut SceneRenderer,
    mesh: &Arc<MeshData>,
    weights: &[f32],
    palette: &Palette,
    indices: JointIndices,
) -> Result<f64, String> {
    renderer.mesh(gl, mesh)?;
    let gpu = renderer
        .uploaded(mesh)
        .ok_or("the mesh is not on the GPU")?;
    let clock = Clock::of(gl);
    time_skinning(gl, renderer, gpu, weights, palette, indices, clock)?;
    let mut best = f64::INFINITY;
    for _ in 0..3 {
        best = best.min(time_skinning(
            gl, renderer, gpu, weights, palette, indices, clock,
        )?);
    }
    Ok(best)
}
