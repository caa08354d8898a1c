//! `skinlab --bench`: skinning on the CPU against skinning in the vertex shader, over
//! the gpu page's sweep of mesh sizes, on a headless GL context. Prints a Markdown
//! table (the one in README). `skinlab --bench cpu` is in [`cpu`].

pub mod cpu;

use crate::gl::headless::{self, Api};
use crate::gl::{JointIndices, MeshData, Palette, Primitive, SceneRenderer, time_both_sides};
use crate::rigs::chain::{Chain, SWEEP};
use crate::skin::lbs::skin_vertices;

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

/// Runs the sweep and returns the table; the error says what failed (no GL context,
/// a shader that does not build, a GL error).
pub fn run() -> Result<String, String> {
    let h = headless::create(Api::GlCore33)?;
    let mut renderer = SceneRenderer::new(&h.gl)?;
    let mut table = String::from(
        "| vertices | CPU skinning (ms) | upload (ms) | CPU total (ms) | GPU vertex stage (ms) |\n|---:|---:|---:|---:|---:|\n",
    );
    for n in SWEEP {
        let chain = Chain::new(JOINTS, SPREAD, n);
        let palette = chain.palette(2.5, 0.0);
        let cpu = best_ms(3, || {
            std::hint::black_box(skin_vertices(&palette, &chain.skin));
        });
        let mesh = MeshData::new(
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
            "| {} | {cpu:.2} | {upload:.2} | {:.2} | {gpu:.2} |\n",
            chain.skin.positions.len(),
            cpu + upload
        );
    }
    renderer.destroy(&h.gl);
    Ok(table)
}
