//! `skinlab --bench`: skinning on the CPU against skinning in the vertex shader, over
//! the gpu page's sweep of mesh sizes, on a headless GL context. Prints what the
//! context is, then a Markdown table (the one in docs/measurements.md) or, with
//! `--csv`, rows `vertices,phase,ms`. `skinlab --bench cpu` is in [`cpu`].

pub mod cpu;

use gl::headless::{self, Api};
use gl::{SceneRenderer, time_both_sides};
use glam::{Mat4, Vec3};
use rigs::chain::{Chain, SWEEP};
use scene::{JointIndices, MeshData, Palette, Primitive};
use skin::job::{JointWeights, SkinningJob, Stream};
use skin::lbs::skin_vertices;

// The chain the gpu page opens with.
use crate::pages::gpu::{DEFAULT_JOINTS as JOINTS, DEFAULT_SPREAD as SPREAD};

/// The framebuffer `gpu_draw` fills: a viewport of the app in a 1280×800 window is
/// smaller, so this is an upper bound on the triangles' share.
const DRAWN_PX: [i32; 2] = [1280, 800];

/// The chain seen whole, as the gpu page first shows it: what `gpu_draw` paints.
fn drawn_scene(mesh: &std::sync::Arc<MeshData>, palette: Vec<Mat4>) -> scene::Scene {
    let aspect = DRAWN_PX[0] as f32 / DRAWN_PX[1] as f32;
    let camera = crate::pages::gpu::default_camera();
    let mut scene = scene::Scene {
        clip_from_world: camera.clip_from_world(aspect),
        ..Default::default()
    };
    let surface = scene::SkinnedDraw::surface(mesh.clone(), Palette::Matrices(palette), [0.5; 4]);
    scene.skinned.push(surface);
    scene
}

/// How many blend shapes the morph rows add in, each at weight 0.5.
pub const MORPH_TARGETS: usize = 8;

/// Whether a size of the sweep gets the morph rows: as many offsets as one primitive
/// of a file may have ([`gltf::MAX_MORPH_OFFSETS`]), no more.
pub fn morphed_size(vertices: usize) -> bool {
    vertices * MORPH_TARGETS <= gltf::MAX_MORPH_OFFSETS
}

/// [`MORPH_TARGETS`] blend shapes for the chain: target `k` pushes every vertex out
/// along its normal by `0.01 · (k + 1)` and tips the normal a little.
fn chain_targets(chain: &Chain) -> Vec<skin::morph::MorphTarget> {
    let skin = &chain.skin;
    (0..MORPH_TARGETS)
        .map(|k| skin::morph::MorphTarget {
            name: format!("shape {k}"),
            positions: skin
                .normals
                .iter()
                .map(|n| 0.01 * (k + 1) as f32 * *n)
                .collect(),
            normals: skin.tangents.iter().map(|t| 0.1 * *t).collect(),
            tangents: Vec::new(),
        })
        .collect()
}

/// Whether a size of the sweep gets the centres' rows: up to the most skinned vertices
/// the model page searches centres for ([`crate::pages::model::data::CENTRES_MAX_VERTICES`]),
/// at the sizes of the sweep below it.
pub fn searched_size(vertices: usize) -> bool {
    vertices <= crate::pages::model::data::CENTRES_MAX_VERTICES
}

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

/// One figure of the GPU benchmark: milliseconds for `phase` at `vertices`.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    pub vertices: usize,
    /// `reference`, `fast_1`, `fast_all`, `memcpy`, `upload` (and `upload_subdata`,
    /// `upload_orphan`, `upload_staged`: the other ways to stream), `gpu_vertex` (the
    /// skinning vertex stage alone), `morph_cpu` and `gpu_vertex_morph` ([`MORPH_TARGETS`]
    /// blend shapes added in on the CPU, and in the vertex stage before the skin; sizes
    /// of [`morphed_size`] only), `gpu_draw` (the whole mesh drawn at 1280×800), the
    /// other two ways to blend: `dqs_reference` and `gpu_vertex_dqs` (dual quaternions
    /// in two phases, the CPU reference loop and the vertex stage), `cor_search` (finding
    /// the centres of rotation once), `cor_reference` and `gpu_vertex_cor` (skinning
    /// about them; sizes of [`searched_size`] only).
    pub phase: &'static str,
    pub ms: f64,
}

/// What `skinlab --bench gpu` measured, and on what.
#[derive(Clone, Debug)]
pub struct Bench {
    /// `GL_VENDOR`, `GL_RENDERER` and `GL_VERSION` of the context.
    pub vendor: String,
    pub renderer: String,
    pub version: String,
    /// How the vertex stage was timed.
    pub clock: gl::Clock,
    pub rows: Vec<Row>,
}

/// Best of three copies of `bytes` into memory already written once: what the same
/// bytes cost to move within this machine's memory, beside which an upload is judged.
fn memcpy_ms(bytes: usize) -> f64 {
    let from = vec![1u8; bytes];
    let mut to = vec![0u8; bytes];
    to.copy_from_slice(&from);
    best_ms(3, || {
        to.copy_from_slice(std::hint::black_box(&from));
        std::hint::black_box(&mut to);
    })
}

/// The phase names of an upload by each method: `upload` for the one the app uses
/// ([`gl::Upload::chosen`]), the others by their method.
fn upload_phase(upload: gl::Upload) -> &'static str {
    if upload == gl::Upload::chosen() {
        return "upload";
    }
    upload.phase()
}

/// Runs the sweep; the error says what failed (no GL context, a shader that does not
/// build, a GL error).
pub fn run() -> Result<Bench, String> {
    let h = headless::create_sized(Api::GlCore33, DRAWN_PX)?;
    let (vendor, renderer_name, version) = headless::describe(&h.gl);
    let mut renderer = SceneRenderer::new(&h.gl)?;
    let mut rows = Vec::new();
    let mut clock = gl::Clock::of(&h.gl);
    for n in SWEEP {
        let chain = Chain::new(JOINTS, SPREAD, n);
        let vertices = chain.skin.positions.len();
        let mut row = |phase, ms| {
            rows.push(Row {
                vertices,
                phase,
                ms,
            })
        };
        let palette = chain.palette(2.5, 0.0);
        row(
            "reference",
            best_ms(3, || {
                std::hint::black_box(skin_vertices(&palette, &chain.skin));
            }),
        );
        row("fast_1", fast_ms(&chain, &palette, 1)?);
        row("fast_all", fast_ms(&chain, &palette, 0)?);
        let runs = gl::cpu_skinned_runs(vertices);
        let runs: Vec<&[u8]> = runs.iter().map(Vec::as_slice).collect();
        row("memcpy", memcpy_ms(runs.iter().map(|r| r.len()).sum()));
        let mesh = MeshData::shared(
            chain.skin.clone(),
            chain.triangles.clone(),
            Primitive::Triangles,
        );
        // The app's own way to upload is timed with the vertex stage; the others
        // beside it.
        let times = time_both_sides(
            &h.gl,
            &mut renderer,
            &mesh,
            &Palette::Matrices(palette),
            JointIndices::Float,
        )?;
        clock = times.clock;
        row(upload_phase(gl::Upload::chosen()), times.upload * 1e3);
        for upload in gl::Upload::OFFERED
            .iter()
            .filter(|&&u| u != gl::Upload::chosen())
        {
            row(
                upload_phase(*upload),
                gl::time_upload(&h.gl, &runs, *upload)? * 1e3,
            );
        }
        row("gpu_vertex", times.vertex_stage * 1e3);
        if morphed_size(vertices) {
            // The same mesh with its blend shapes added in first: on the CPU as the
            // model page does it each frame, and in the vertex stage.
            let targets = chain_targets(&chain);
            let weights = [0.5; MORPH_TARGETS];
            row(
                "morph_cpu",
                best_ms(3, || {
                    std::hint::black_box(skin::morph::morphed(&chain.skin, &targets, &weights));
                }),
            );
            let morphing = MeshData::with_targets(
                (*chain.skin).clone(),
                (*chain.triangles).clone(),
                Vec::new(),
                Vec::new(),
                std::sync::Arc::new(targets),
            );
            let seconds = gl::time_vertex_stage(
                &h.gl,
                &mut renderer,
                &morphing,
                &weights,
                &Palette::Matrices(chain.palette(2.5, 0.0)),
                JointIndices::Float,
            )?;
            row("gpu_vertex_morph", seconds * 1e3);
        }
        blend_rows(&h.gl, &mut renderer, &chain, &mut row)?;
        let drawn = gl::time_drawn(
            &h.gl,
            &mut renderer,
            &drawn_scene(&mesh, chain.palette(2.5, 0.0)),
            DRAWN_PX,
            clock,
        )?;
        row("gpu_draw", drawn * 1e3);
    }
    renderer.destroy(&h.gl);
    Ok(Bench {
        vendor,
        renderer: renderer_name,
        version,
        clock,
        rows,
    })
}

/// The rows of the two other ways to blend at one size of the chain: dual quaternions
/// in two phases, and about centres of rotation (found first, and timed) where
/// [`searched_size`] allows: each on the CPU's reference loop and in the vertex stage.
fn blend_rows(
    gl: &glow::Context,
    renderer: &mut SceneRenderer,
    chain: &Chain,
    row: &mut impl FnMut(&'static str, f64),
) -> Result<(), String> {
    let palette = chain.palette(2.5, 0.0);
    let dqs = skin::Blend::DualQuaternion {
        antipodal_check: true,
    };
    row(
        "dqs_reference",
        best_ms(3, || {
            std::hint::black_box(dqs.skin_vertices(&palette, &chain.skin, &[]));
        }),
    );
    let mesh = MeshData::shared(
        chain.skin.clone(),
        chain.triangles.clone(),
        Primitive::Triangles,
    );
    let time = |renderer: &mut SceneRenderer, mesh: &std::sync::Arc<MeshData>, blend| {
        let palette = Palette::new(palette.clone(), blend);
        gl::time_vertex_stage(gl, renderer, mesh, &[], &palette, JointIndices::Float)
    };
    row("gpu_vertex_dqs", time(renderer, &mesh, dqs)? * 1e3);
    if !searched_size(chain.skin.positions.len()) {
        return Ok(());
    }
    let mut centres = Vec::new();
    row(
        "cor_search",
        best_ms(3, || {
            centres = skin::cor::centres(&chain.skin, &chain.triangles);
        }),
    );
    let centres = skin::cor::placed(&centres, &chain.skin.positions);
    row(
        "cor_reference",
        best_ms(3, || {
            std::hint::black_box(skin::cor::skin_vertices_cor(
                &palette,
                &chain.skin,
                &centres,
            ));
        }),
    );
    let centred = mesh.with_centres(centres);
    row(
        "gpu_vertex_cor",
        time(renderer, &centred, skin::Blend::Centres)? * 1e3,
    );
    Ok(())
}

impl Bench {
    /// The lines that say what ran: the GL context, the clock, the upload methods.
    fn heading(&self) -> String {
        let uploads: Vec<String> = gl::Upload::OFFERED
            .iter()
            .map(|u| format!("{} = {}", upload_phase(*u), u.name()))
            .collect();
        format!(
            "GL vendor: {}\nGL renderer: {}\nGL version: {}\nvertex stage timed by: {}\nupload: {} bytes a vertex (positions, normals, tangents) into a buffer allocated once; {}\n",
            self.vendor,
            self.renderer,
            self.version,
            self.clock.name(),
            skin::gpu::CPU_BYTES_PER_VERTEX,
            uploads.join("; ")
        )
    }

    fn ms(&self, vertices: usize, phase: &str) -> Option<f64> {
        self.rows
            .iter()
            .find(|r| r.vertices == vertices && r.phase == phase)
            .map(|r| r.ms)
    }

    /// The heading, then a Markdown table: a row per size, a column per phase, the
    /// fastest CPU frame (fastest kernel plus upload), and the upload's rate.
    pub fn table(&self) -> String {
        let mut phases: Vec<&str> = Vec::new();
        let mut sizes: Vec<usize> = Vec::new();
        for row in &self.rows {
            if !phases.contains(&row.phase) {
                phases.push(row.phase);
            }
            if !sizes.contains(&row.vertices) {
                sizes.push(row.vertices);
            }
        }
        let mut out = self.heading();
        out += &format!(
            "\n| vertices | {} (ms) | fastest + upload (ms) | upload (GB/s) |\n|---:|{}---:|---:|\n",
            phases.join(" (ms) | "),
            "---:|".repeat(phases.len())
        );
        for n in sizes {
            let cells: Vec<String> = phases
                .iter()
                .map(|p| self.ms(n, p).map_or(String::new(), |ms| format!("{ms:.3}")))
                .collect();
            let fastest = [self.ms(n, "fast_1"), self.ms(n, "fast_all")]
                .into_iter()
                .flatten()
                .fold(f64::INFINITY, f64::min);
            let upload = self.ms(n, "upload").unwrap_or(f64::NAN);
            let rate = (n * skin::gpu::CPU_BYTES_PER_VERTEX) as f64 / (upload * 1e-3) / 1e9;
            out += &format!(
                "| {n} | {} | {:.3} | {rate:.1} |\n",
                cells.join(" | "),
                fastest + upload
            );
        }
        out
    }

    /// The heading as `#` comments, then CSV rows `vertices,phase,ms`.
    pub fn csv(&self) -> String {
        let mut out: String = self.heading().lines().map(|l| format!("# {l}\n")).collect();
        out += "vertices,phase,ms\n";
        for row in &self.rows {
            out += &format!("{},{},{:.4}\n", row.vertices, row.phase, row.ms);
        }
        out
    }
}
