//! `skinlab --bench cpu`: the skinning job against the readable reference, a plain glam
//! loop and the memory floor, on the gpu page's chain (40 joints, four influences).
//!
//! Kernels, each over the same arrays:
//! - `reference`: [`skin_vertices_with`], the readable loop the tests compare against;
//! - `plain`: what one writes first with glam: blend four `Mat4`, transform the point and
//!   the directions, normalise (no inverse transpose, no Gram-Schmidt);
//! - `fast`: [`SkinningJob`] (validation included), on one thread and on all, with the
//!   best instructions this machine has unless told otherwise;
//! - `memory`: no arithmetic, only the traffic skinning cannot avoid: copy positions,
//!   normals and tangents once, read joint indices and weights once;
//! - `memcpy`: the floor any machine has, a plain memcpy of the same bytes (the indices,
//!   the weights and each skinned attribute, 24 + 12 bytes an attribute per vertex), on
//!   as many threads as the job.
//!
//! Each row is also given as a ratio to the plain loop, to `memory` and to `memcpy`
//! measured in the same run, so a slower kernel shows as a ratio on any machine.
//!
//! Timings are the best of several rounds; the kernels take turns within a round, so a
//! burst of load from elsewhere on the machine touches all of them alike and the ratios
//! within one run hold better than the absolute numbers.

use glam::{Mat4, Vec3};
use rigs::chain::Chain;
use skin::job::{JobError, JointWeights, Simd, SkinningJob, Stream, thread_count};
use skin::lbs::{SkinMesh, skin_vertices_with};
use skin::normals::NormalMethod;
use std::hint::black_box;
use std::sync::{Mutex, PoisonError};

/// The sizes measured unless others are asked for.
pub const DEFAULT_VERTICES: [usize; 2] = [30_000, 1_000_000];

/// The chain the gpu page opens with: 40 joints, weights reaching 2.5 bones.
const JOINTS: usize = 40;
const SPREAD: f32 = 2.5;

/// Rounds of every kernel; the best of them is kept.
const ROUNDS: usize = 11;

/// One sample lasts at least this long, so timer resolution and thread start-up
/// average out at small sizes.
const MIN_SAMPLE_SECONDS: f64 = 0.004;

/// Which attributes are skinned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Attributes {
    /// Positions only.
    P,
    /// Positions and normals.
    Pn,
    /// Positions, normals and tangents.
    Pnt,
}

impl Attributes {
    /// All three, fewest first.
    pub const ALL: [Self; 3] = [Self::P, Self::Pn, Self::Pnt];

    /// The name in the table: `p`, `pn`, `pnt`.
    pub fn name(self) -> &'static str {
        match self {
            Self::P => "p",
            Self::Pn => "pn",
            Self::Pnt => "pnt",
        }
    }

    fn normals(self) -> bool {
        self != Self::P
    }

    fn tangents(self) -> bool {
        self == Self::Pnt
    }

    /// The 4-byte words the kernel reads per vertex: four joint indices (two words),
    /// four weights, three per attribute.
    fn words(self) -> usize {
        6 + 3 * (1 + self.normals() as usize + self.tangents() as usize)
    }
}

/// The kernels measured.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kernel {
    /// The readable reference loop.
    Reference,
    /// A plain glam loop.
    Plain,
    /// The skinning job.
    Fast,
    /// Copying the attributes and reading the influences, nothing else.
    Memory,
    /// A plain memcpy of as many bytes as the kernel reads.
    Memcpy,
}

impl Kernel {
    /// The name in the table.
    pub fn name(self) -> &'static str {
        match self {
            Self::Reference => "reference",
            Self::Plain => "plain",
            Self::Fast => "fast",
            Self::Memory => "memory",
            Self::Memcpy => "memcpy",
        }
    }
}

/// One measurement.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// What ran.
    pub kernel: Kernel,
    /// What it skinned.
    pub attributes: Attributes,
    /// On how many threads it was asked to run (the job and the floor use fewer for a
    /// small mesh: [`thread_count`]).
    pub threads: usize,
    /// Over how many vertices.
    pub vertices: usize,
    /// Nanoseconds per vertex, best of the rounds.
    pub ns_per_vertex: f64,
}

/// The bind mesh at one size and everything the kernels read and write.
struct Bench {
    /// The instructions the fast kernel uses.
    simd: Simd,
    palette: Vec<Mat4>,
    /// Positions, normals and tangents, with prepared influences.
    mesh: SkinMesh,
    /// The same mesh without tangents, and without normals, for the reference.
    mesh_pn: SkinMesh,
    mesh_p: SkinMesh,
    influences: JointWeights,
    out: [Vec<Vec3>; 3],
    /// What `memcpy` copies from and into, for every attribute (words of 4 bytes).
    copy_from: Vec<u32>,
    copy_to: Vec<u32>,
}

impl Bench {
    fn new(vertices: usize, simd: Simd) -> Result<Self, String> {
        // The chain rounds its size down to whole rings: ask for one ring more, then cut.
        let chain = Chain::new(JOINTS, SPREAD, vertices + 128);
        let palette = chain.palette(2.5, 1.0);
        let mut mesh = std::sync::Arc::unwrap_or_clone(chain.skin);
        if mesh.positions.len() < vertices {
            return Err(format!("the chain has fewer than {vertices} vertices"));
        }
        mesh.positions.truncate(vertices);
        mesh.normals.truncate(vertices);
        mesh.tangents.truncate(vertices);
        mesh.influences.truncate(vertices);
        let influences =
            JointWeights::from_influences(&mesh.influences).map_err(|e| e.to_string())?;
        let mesh_pn = SkinMesh {
            tangents: vec![],
            ..mesh.clone()
        };
        let mesh_p = SkinMesh {
            normals: vec![],
            ..mesh_pn.clone()
        };
        Ok(Self {
            simd,
            palette,
            mesh,
            mesh_pn,
            mesh_p,
            influences,
            out: std::array::from_fn(|_| vec![Vec3::ZERO; vertices]),
            // Both written once already, as the kernels' outputs are.
            copy_from: vec![1; vertices * Attributes::Pnt.words()],
            copy_to: vec![0; vertices * Attributes::Pnt.words()],
        })
    }

    fn run(
        &mut self,
        kernel: Kernel,
        attributes: Attributes,
        threads: usize,
    ) -> Result<(), String> {
        let [op, on, ot] = &mut self.out;
        let mesh = &self.mesh;
        match kernel {
            Kernel::Reference => {
                let mesh = match attributes {
                    Attributes::P => &self.mesh_p,
                    Attributes::Pn => &self.mesh_pn,
                    Attributes::Pnt => &self.mesh,
                };
                black_box(skin_vertices_with(
                    &self.palette,
                    mesh,
                    NormalMethod::InverseTranspose,
                ));
            }
            Kernel::Plain => plain(
                &self.palette,
                &self.influences,
                mesh,
                attributes,
                [op, on, ot],
            ),
            Kernel::Fast => {
                let mut job = SkinningJob {
                    palette: &self.palette,
                    influences: &self.influences,
                    positions: Stream::new(&mesh.positions, op),
                    normals: attributes.normals().then(|| Stream::new(&mesh.normals, on)),
                    tangents: attributes
                        .tangents()
                        .then(|| Stream::new(&mesh.tangents, ot)),
                };
                job.run_with(self.simd, threads)
                    .map_err(|e| e.to_string())?;
            }
            Kernel::Memory => memory(&self.influences, mesh, attributes, [op, on, ot], threads),
            Kernel::Memcpy => {
                let words = self.influences.len() * attributes.words();
                let threads = thread_count(threads, self.influences.len());
                let (from, to) = (&self.copy_from[..words], &mut self.copy_to[..words]);
                parallel::run_on((from, to), threads, 1, |(from, to)| {
                    to.copy_from_slice(from);
                });
                black_box(&mut self.copy_to);
            }
        }
        black_box(&mut self.out);
        Ok(())
    }
}

/// The loop one writes first with glam: blend four `Mat4`, transform the point and the
/// directions, normalise.
fn plain(
    palette: &[Mat4],
    influences: &JointWeights,
    mesh: &SkinMesh,
    attributes: Attributes,
    [op, on, ot]: [&mut Vec<Vec3>; 3],
) {
    let blend = |j: &[u16; 4], w: &[f32; 4]| {
        palette[j[0] as usize] * w[0]
            + palette[j[1] as usize] * w[1]
            + palette[j[2] as usize] * w[2]
            + palette[j[3] as usize] * w[3]
    };
    let vertices = influences.joints().iter().zip(influences.weights());
    match attributes {
        Attributes::P => {
            for ((j, w), (p, out)) in vertices.zip(mesh.positions.iter().zip(op.iter_mut())) {
                *out = blend(j, w).transform_point3(*p);
            }
        }
        Attributes::Pn => {
            let bind = mesh.positions.iter().zip(&mesh.normals);
            let out = op.iter_mut().zip(on.iter_mut());
            for ((j, w), ((p, n), (op, on))) in vertices.zip(bind.zip(out)) {
                let m = blend(j, w);
                *op = m.transform_point3(*p);
                *on = m.transform_vector3(*n).normalize();
            }
        }
        Attributes::Pnt => {
            let bind = mesh.positions.iter().zip(&mesh.normals).zip(&mesh.tangents);
            let out = op.iter_mut().zip(on.iter_mut()).zip(ot.iter_mut());
            for ((j, w), (((p, n), t), ((op, on), ot))) in vertices.zip(bind.zip(out)) {
                let m = blend(j, w);
                *op = m.transform_point3(*p);
                *on = m.transform_vector3(*n).normalize();
                *ot = m.transform_vector3(*t).normalize();
            }
        }
    }
}

/// The memory floor: copy each skinned attribute's bind values to its output and read
/// every joint index and weight once, on as many threads as the job uses, which take
/// pieces of the mesh the way the job's threads do.
fn memory(
    influences: &JointWeights,
    mesh: &SkinMesh,
    attributes: Attributes,
    [op, on, ot]: [&mut Vec<Vec3>; 3],
    threads: usize,
) {
    let n = influences.len();
    let threads = thread_count(threads, n);
    let inputs = [
        &mesh.positions[..],
        if attributes.normals() {
            &mesh.normals
        } else {
            &[]
        },
        if attributes.tangents() {
            &mesh.tangents
        } else {
            &[]
        },
    ];
    // Outputs of attributes not asked for stay out of it (empty).
    let outputs: [&mut [Vec3]; 3] = [
        op,
        if attributes.normals() { on } else { &mut [] },
        if attributes.tangents() { ot } else { &mut [] },
    ];
    // Copies vertices `start..start + len` of every attribute asked for, and reads their
    // indices and weights.
    let copy = |start: usize, outputs: [&mut [Vec3]; 3]| {
        let end = start + outputs[0].len();
        for (input, output) in inputs.iter().zip(outputs) {
            if !input.is_empty() {
                output.copy_from_slice(&input[start..end]);
            }
        }
        let joints: &[u32] = bytemuck::cast_slice(&influences.joints()[start..end]);
        let weights: &[u32] = bytemuck::cast_slice(&influences.weights()[start..end]);
        // Integer xor folds in any order, so the compiler reads at full width.
        black_box(joints.iter().chain(weights).fold(0, |a, b| a ^ b));
    };
    if threads <= 1 {
        return copy(0, outputs);
    }
    let piece = (n / (threads * 8)).max(1024);
    let rest = Mutex::new((0, outputs));
    let work = || {
        loop {
            let (start, next) = {
                let mut rest = rest.lock().unwrap_or_else(PoisonError::into_inner);
                let (start, outputs) = &mut *rest;
                let len = piece.min(outputs[0].len());
                if len == 0 {
                    break;
                }
                let [p, n, t] = std::mem::take(outputs).map(|o| o.split_at_mut(len.min(o.len())));
                *outputs = [p.1, n.1, t.1];
                let next = [p.0, n.0, t.0];
                let begun = *start;
                *start += len;
                (begun, next)
            };
            copy(start, next);
        }
    };
    std::thread::scope(|scope| {
        for _ in 1..threads {
            scope.spawn(work);
        }
        work();
    });
}

/// Times every kernel at every size in `vertices` and returns the rows, in the order
/// the table prints them.
pub fn measure(vertices: &[usize], simd: Simd) -> Result<Vec<Row>, String> {
    if !simd.available() {
        return Err(JobError::SimdUnavailable(simd).to_string());
    }
    let all = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut thread_counts = vec![1];
    if all > 1 {
        thread_counts.push(all);
    }
    let mut rows = vec![];
    for &n in vertices {
        let mut bench = Bench::new(n, simd)?;
        let mut cases = vec![];
        for attributes in Attributes::ALL {
            cases.push((Kernel::Reference, attributes, 1));
            cases.push((Kernel::Plain, attributes, 1));
            for &threads in &thread_counts {
                cases.push((Kernel::Fast, attributes, threads));
                cases.push((Kernel::Memory, attributes, threads));
                cases.push((Kernel::Memcpy, attributes, threads));
            }
        }
        // How many calls make one sample: from one call's time, after a warm-up call.
        let mut repeats = vec![];
        for &(kernel, attributes, threads) in &cases {
            bench.run(kernel, attributes, threads)?;
            let start = web_time::Instant::now();
            bench.run(kernel, attributes, threads)?;
            let once = start.elapsed().as_secs_f64().max(1e-9);
            repeats.push(((MIN_SAMPLE_SECONDS / once).ceil() as usize).clamp(1, 10_000));
        }
        let mut best = vec![f64::INFINITY; cases.len()];
        for _ in 0..ROUNDS {
            for (i, &(kernel, attributes, threads)) in cases.iter().enumerate() {
                let start = web_time::Instant::now();
                for _ in 0..repeats[i] {
                    bench.run(kernel, attributes, threads)?;
                }
                let seconds = start.elapsed().as_secs_f64() / repeats[i] as f64;
                best[i] = best[i].min(seconds);
            }
        }
        for (&(kernel, attributes, threads), seconds) in cases.iter().zip(best) {
            rows.push(Row {
                kernel,
                attributes,
                threads,
                vertices: n,
                ns_per_vertex: seconds * 1e9 / n.max(1) as f64,
            });
        }
    }
    Ok(rows)
}

/// The rows as CSV: a header, then `kernel,attributes,threads,vertices,ns_per_vertex`.
pub fn csv(rows: &[Row]) -> String {
    let mut out = String::from("kernel,attributes,threads,vertices,ns_per_vertex\n");
    for r in rows {
        out += &format!(
            "{},{},{},{},{:.3}\n",
            r.kernel.name(),
            r.attributes.name(),
            r.threads,
            r.vertices,
            r.ns_per_vertex
        );
    }
    out
}

/// The rows as a Markdown table, with each row's time against the plain loop's, and
/// against the memory floor's and memcpy's on as many threads.
pub fn table(rows: &[Row]) -> String {
    let find = |kernel: Kernel, r: &Row| {
        rows.iter()
            .find(|o| {
                o.kernel == kernel
                    && o.attributes == r.attributes
                    && o.vertices == r.vertices
                    && (kernel == Kernel::Plain || o.threads == r.threads)
            })
            .map(|o| o.ns_per_vertex)
    };
    let ratio =
        |ns: f64, of: Option<f64>| of.map_or(String::new(), |of| format!("{:.2}×", ns / of));
    let mut out = String::from(
        "| kernel | attributes | threads | vertices | ns per vertex | against plain | against memory | against memcpy |\n\
         |---|---|---:|---:|---:|---:|---:|---:|\n",
    );
    for r in rows {
        // The job keeps a small mesh on fewer threads than asked: say so.
        let used = thread_count(r.threads, r.vertices);
        let threads = if used < r.threads {
            format!("{} (uses {used})", r.threads)
        } else {
            r.threads.to_string()
        };
        out += &format!(
            "| {} | {} | {} | {} | {:.2} | {} | {} | {} |\n",
            r.kernel.name(),
            r.attributes.name(),
            threads,
            r.vertices,
            r.ns_per_vertex,
            ratio(r.ns_per_vertex, find(Kernel::Plain, r)),
            ratio(r.ns_per_vertex, find(Kernel::Memory, r)),
            ratio(r.ns_per_vertex, find(Kernel::Memcpy, r)),
        );
    }
    out
}
