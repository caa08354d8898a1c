//! `skinlab --bench`: skinning on the CPU against skinning in the vertex shader, over
//! the gpu page's sweep of mesh sizes, on a headless GL context. Prints a Markdown
//! table (the one in docs/measurements.md). `skinlab --bench cpu` is in [`cpu`].

pub mod cpu;

use gl::headless::{self, Api};
use gl::{SceneRenderer, time_both_sides};
use glam::{Mat4, Vec3};
use rigs::chain::{Chain, SWEEP};
use scene::{JointIndices, MeshData, Palette, Primitive};
use skin::job::{JointWeights, SkinningJob, Stream, thread_count};
use skin::lbs::skin_vertices;

/// The chain the gpu page opens with: 40 joints, weights reaching 2.5 bones.
const JOINTS: usize = 40;
const SPREAD: f32 = 2.5;

/// Best of `runs` timings of `f`, in milliseconds.
fn best_ms(runs: usize, mut f: impl FnMut()) -> f64 {
    (0..runs)
        .map(|_| {
            let start = web_time::Instant::now();
            f();
            start.elapsed().as_secs_f64() * 1e3
        })
        .fold(f64::INFINITY, f64::min)
}

/// Best of three runs of the fast kernel over the chain's positions, normals and
/// tangents on up to `threads` threads (0: every core), after one untimed run.
fn fast_ms(chain: &Chain, palette: &[Mat4], threads: usize) -> Result<f64, String> {
    let skin = &chain.skin;
    let weights = JointWeights::from_influences(&skin.influences).map_err(|e| e.to_string())?;
    let n = skin.positions.len();
    let mut out: [Vec<Vec3>; 3] = std::array::from_fn(|_| vec![Vec3::ZERO; n]);
    let mut run = || {
        let [p, normals, t] = &mut out;
        SkinningJob {
            palette,
            influences: &weights,
            positions: Stream::new(&skin.positions, p),
            normals: Some(Stream::new(&skin.normals, normals)),
            tangents: Some(Stream::new(&skin.tangents, t)),
        }
        .run_threaded(threads)
        .map_err(|e| e.to_string())
    };
    run()?;
    let mut result = Ok(());
    let best = best_ms(3, || {
        if let Err(e) = run() {
            result = Err(e);
        }
    });
    result.map(|()| best)
}

/// Runs the sweep and returns the table; the error says what failed (no GL context,
/// a shader that does not build, a GL error).
pub fn run() -> Result<String, String> {
    let h = headless::create(Api::GlCore33)?;
    let mut renderer = SceneRenderer::new(&h.gl)?;
    let cores = thread_count(0, usize::MAX);
    let threaded = if cores > 1 {
        format!(" fast, {cores} threads (ms) |")
    } else {
        String::new()
    };
    let mut table = format!(
        "| vertices | reference (ms) | fast, 1 thread (ms) |{threaded} upload (ms) | fastest + upload (ms) | GPU vertex stage (ms) |\n|---:|---:|---:|{}---:|---:|---:|\n",
        if cores > 1 { "---:|" } else { "" }
    );
    for n in SWEEP {
        let chain = Chain::new(JOINTS, SPREAD, n);
        let palette = chain.palette(2.5, 0.0);
        let reference = best_ms(3, || {
            std::hint::black_box(skin_vertices(&palette, &chain.skin));
        });
        let fast = fast_ms(&chain, &palette, 1)?;
        let mut best = fast;
        let mut columns = format!("{reference:.2} | {fast:.2} |");
        if cores > 1 {
            let all = fast_ms(&chain, &palette, 0)?;
            best = best.min(all);
            columns += &format!(" {all:.2} |");
        }
        let mesh = MeshData::shared(
            chain.skin.clone(),
            chain.triangles.clone(),
            Primitive::Triangles,
        );
        let (upload, gpu) = time_both_sides(
            &h.gl,
            &mut renderer,
            &mesh,
            &Palette::Matrices(palette),
            JointIndices::Float,
        )?;
        let (upload, gpu) = (upload * 1e3, gpu * 1e3);
        table += &format!(
            "| {} | {columns} {upload:.2} | {:.2} | {gpu:.2} |\n",
            chain.skin.positions.len(),
            best + upload
        );
    }
    renderer.destroy(&h.gl);
    Ok(table)
}
