//! Linear blend skinning as a job, the way animation runtimes do it: the caller lends
//! input and output slices, the job checks them once, then runs a lean loop that
//! allocates nothing.
//!
//! [`lbs::skin_vertices_with`](super::lbs::skin_vertices_with) stays the readable
//! reference; this is the same mathematics arranged for the machine:
//! - joint indices are `u16` and weights `f32`, four of each per vertex, checked once
//!   when [`JointWeights`] is built (the part of a mesh that never changes);
//! - normals use the cofactor of the blended 3×3 ([`cofactor_normal`]): no inverse, no
//!   division;
//! - on x86-64 with AVX2 and FMA (detected at run time) eight vertices go through at
//!   once, one per SIMD lane, and outputs too large for the caches are streamed out;
//!   elsewhere (including the web build) a portable loop of glam's vector types does one
//!   vertex at a time;
//! - [`SkinningJob::run_threaded`] shares the vertices out between threads on native
//!   targets, in pieces that start at multiples of eight. Every vertex is computed by the
//!   same instructions wherever it falls, so the threaded result equals the
//!   single-threaded one bit for bit.
//!
//! The crate's `examples/skin_gltf.rs` runs it on a glTF file's mesh.

// The SIMD kernel is the one place of this crate that may use unsafe code: its
// intrinsics need it. Every block says why it is sound. (The only other unsafe line is
// `Influences`' `Zeroable`, a promise that all zeroes is a value, beside the type.)
#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)]
mod avx2;

use super::influences::Influences;
use glam::{Mat4, Vec3, Vec3A, Vec4};
pub use parallel::thread_count;
use parallel::{self, Split};
use std::fmt;

/// Why a skinning job (or the weights it reads) was refused.
#[derive(Clone, Debug, PartialEq)]
pub enum JobError {
    /// Two slices that must have one entry per vertex differ in length.
    LengthMismatch {
        /// The slice that has the wrong length.
        what: &'static str,
        /// Its length.
        len: usize,
        /// The number of vertices (one joint index array each).
        vertices: usize,
    },
    /// A vertex names a joint the palette does not have.
    JointOutOfRange {
        /// The vertex.
        vertex: usize,
        /// The joint index it names.
        joint: usize,
        /// The palette's length.
        palette: usize,
    },
    /// A joint index does not fit the job's 16-bit indices.
    JointTooLarge {
        /// The vertex.
        vertex: usize,
        /// The joint index it names.
        joint: usize,
    },
    /// A weight is NaN or infinite.
    BadWeight {
        /// The vertex.
        vertex: usize,
        /// Which of its four weights.
        slot: usize,
        /// The weight.
        weight: f32,
    },
    /// Tangents were given without normals: a tangent is made perpendicular to the
    /// skinned normal, so it needs one.
    TangentsNeedNormals,
    /// The instruction set asked for is not available on this machine.
    SimdUnavailable(Simd),
}

impl fmt::Display for JobError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::LengthMismatch {
                what,
                len,
                vertices,
            } => write!(
                f,
                "{what}: {len} entries, but there are {vertices} vertices (one joint index array each)"
            ),
            Self::JointOutOfRange {
                vertex,
                joint,
                palette,
            } => write!(
                f,
                "vertex {vertex} names joint {joint}, but the palette has {palette} matrices \
                 (joints 0 to {})",
                palette.saturating_sub(1)
            ),
            Self::JointTooLarge { vertex, joint } => write!(
                f,
                "vertex {vertex} names joint {joint}: joint indices must be at most {}",
                u16::MAX
            ),
            Self::BadWeight {
                vertex,
                slot,
                weight,
            } => write!(
                f,
                "vertex {vertex}: weight {slot} is {weight}, not a finite number"
            ),
            Self::TangentsNeedNormals => write!(
                f,
                "tangents need normals: each tangent is made perpendicular to its skinned normal"
            ),
            Self::SimdUnavailable(simd) => {
                write!(f, "{} is not available on this machine", simd.name())
            }
        }
    }
}

impl std::error::Error for JobError {}

/// Four joint indices and four weights per vertex, checked once when built: every
/// weight finite, both arrays one entry per vertex. The largest joint index is kept, so
/// a job checks it against its palette without reading the arrays again.
///
/// Weights are used as they are (not renormalised), like the reference's.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct JointWeights {
    joints: Vec<[u16; 4]>,
    weights: Vec<[f32; 4]>,
    /// (vertex, joint) of the largest joint index, for the palette check and its message.
    largest: Option<(usize, usize)>,
}

impl JointWeights {
    /// Checks and keeps `joints` and `weights`, one entry of each per vertex.
    pub fn new(joints: Vec<[u16; 4]>, weights: Vec<[f32; 4]>) -> Result<Self, JobError> {
        if weights.len() != joints.len() {
            return Err(JobError::LengthMismatch {
                what: "weights",
                len: weights.len(),
                vertices: joints.len(),
            });
        }
        /// What a piece of the vertices found: its first bad weight (vertex, slot) and
        /// its first vertex with its largest joint index (vertex, joint).
        #[derive(Default)]
        struct Found {
            bad: Option<(usize, usize)>,
            largest: Option<(usize, usize)>,
        }
        let all = (0..joints.len(), joints.as_slice(), weights.as_slice());
        let piece =
            |(range, joints, weights): (std::ops::Range<usize>, &[[u16; 4]], &[[f32; 4]])| {
                let mut piece = Found::default();
                for ((vertex, j), w) in range.zip(joints).zip(weights) {
                    if piece.bad.is_none()
                        && let Some(slot) = w.iter().position(|w| !w.is_finite())
                    {
                        piece.bad = Some((vertex, slot));
                    }
                    let joint = j.iter().copied().max().unwrap_or(0) as usize;
                    if piece.largest.is_none_or(|(_, most)| joint > most) {
                        piece.largest = Some((vertex, joint));
                    }
                }
                piece
            };
        // The first vertex wins, so the message names the first.
        let merge = |a: Found, b: Found| Found {
            bad: a.bad.into_iter().chain(b.bad).min(),
            largest: (a.largest.into_iter().chain(b.largest))
                .min_by_key(|&(vertex, joint)| (std::cmp::Reverse(joint), vertex)),
        };
        let found = parallel::reduce(all, piece, merge).unwrap_or_default();
        if let Some((vertex, slot)) = found.bad {
            return Err(JobError::BadWeight {
                vertex,
                slot,
                weight: weights[vertex][slot],
            });
        }
        Ok(Self {
            joints,
            weights,
            largest: found.largest,
        })
    }

    /// From the reference's prepared influences (one per vertex).
    pub fn from_influences(influences: &[Influences]) -> Result<Self, JobError> {
        let mut joints = vec![[0u16; 4]; influences.len()];
        let mut weights = vec![[0.0f32; 4]; influences.len()];
        let all = (
            0..influences.len(),
            influences,
            &mut joints[..],
            &mut weights[..],
        );
        // The first vertex with a joint index past u16 (vertex, joint).
        let too_large = parallel::least(all, |(range, influences, joints, weights)| {
            let mut first = None;
            for (((vertex, inf), j), w) in range.zip(influences).zip(joints).zip(weights) {
                *w = inf.weights;
                for (slot, &joint) in j.iter_mut().zip(&inf.joints) {
                    match u16::try_from(joint) {
                        Ok(joint) => *slot = joint,
                        Err(_) => first = first.or(Some((vertex, joint as usize))),
                    }
                }
            }
            first
        });
        if let Some((vertex, joint)) = too_large {
            return Err(JobError::JointTooLarge { vertex, joint });
        }
        Self::new(joints, weights)
    }

    /// The joint indices, four per vertex.
    pub fn joints(&self) -> &[[u16; 4]] {
        &self.joints
    }

    /// The weights, four per vertex.
    pub fn weights(&self) -> &[[f32; 4]] {
        &self.weights
    }

    /// The number of vertices.
    pub fn len(&self) -> usize {
        self.joints.len()
    }

    /// Whether there are no vertices.
    pub fn is_empty(&self) -> bool {
        self.joints.is_empty()
    }

    /// The shortest palette these indices fit (the largest index plus one).
    pub fn joints_needed(&self) -> usize {
        self.largest.map_or(0, |(_, joint)| joint + 1)
    }
}

/// One attribute: bind-space values in, skinned values out, one per vertex.
#[derive(Debug)]
pub struct Stream<'a> {
    /// Bind-space values.
    pub input: &'a [Vec3],
    /// Where the skinned values go (the caller's storage).
    pub output: &'a mut [Vec3],
}

impl<'a> Stream<'a> {
    /// Reads `input`, writes `output`.
    pub fn new(input: &'a [Vec3], output: &'a mut [Vec3]) -> Self {
        Self { input, output }
    }
}

/// Which instructions the job's loop uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Simd {
    /// glam's vector types, one vertex at a time: SSE2 on x86-64, plain floats on the
    /// web build. Runs everywhere.
    Portable,
    /// AVX2 and FMA, eight vertices at a time (x86-64, detected at run time).
    Avx2Fma,
}

impl Simd {
    /// The fastest this machine offers.
    pub fn detect() -> Self {
        if Self::Avx2Fma.available() {
            Self::Avx2Fma
        } else {
            Self::Portable
        }
    }

    /// Whether this machine can run it.
    pub fn available(self) -> bool {
        match self {
            Self::Portable => true,
            #[cfg(target_arch = "x86_64")]
            Self::Avx2Fma => {
                std::is_x86_feature_detected!("avx2") && std::is_x86_feature_detected!("fma")
            }
            #[cfg(not(target_arch = "x86_64"))]
            Self::Avx2Fma => false,
        }
    }

    /// Its name in messages and tables.
    pub fn name(self) -> &'static str {
        match self {
            Self::Portable => "portable",
            Self::Avx2Fma => "avx2+fma",
        }
    }
}

/// Skins vertices with a palette: positions, and optionally normals, and tangents with
/// them.
///
/// Contract (checked by [`SkinningJob::validate`], which every `run` calls first): every
/// stream has one entry per vertex (`influences.len()`), in and out; the palette holds
/// every joint the influences name; tangents come with normals. The influences' weights
/// were checked when [`JointWeights`] was built.
///
/// Results match [`skin_vertices_with`](super::lbs::skin_vertices_with) with
/// [`NormalMethod::InverseTranspose`](super::normals::NormalMethod): a position is the
/// blended matrix times the bind position, a normal is carried by the cofactor of the
/// blended 3×3 and renormalised, a tangent by the blended 3×3, made perpendicular to the
/// skinned normal and renormalised. A direction that skins to zero stays zero. Where a
/// blend is singular (flattened) the reference's inverse does not exist and its normal is
/// zero, while the cofactor still gives the flattened surface's normal; flattened to a
/// line, the cofactor is zero too, and the tangent is renormalised as it is.
///
/// # Skinning three vertices into the caller's buffers
///
/// The weights are checked once, when [`JointWeights`] is built; the output buffers are
/// the caller's, allocated once and reused every frame.
///
/// ```
/// use glam::{Mat4, Vec3};
/// use skinlab_skin::job::{JointWeights, SkinningJob, Stream};
///
/// // Joint 0 stays put; joint 1 moves everything one unit up.
/// let palette = [Mat4::IDENTITY, Mat4::from_translation(Vec3::Y)];
/// let influences = JointWeights::new(
///     vec![[0, 0, 0, 0], [0, 1, 0, 0], [1, 0, 0, 0]],
///     vec![[1.0, 0.0, 0.0, 0.0], [0.5, 0.5, 0.0, 0.0], [1.0, 0.0, 0.0, 0.0]],
/// )?;
/// let bind = [Vec3::ZERO, Vec3::X, Vec3::new(2.0, 0.0, 0.0)];
/// let mut skinned = [Vec3::ZERO; 3];
///
/// SkinningJob {
///     palette: &palette,
///     influences: &influences,
///     positions: Stream::new(&bind, &mut skinned),
///     normals: None,
///     tangents: None,
/// }
/// .run()?;
///
/// // Half of joint 1 lifts the middle vertex half a unit; all of it lifts the last.
/// assert_eq!(skinned, [Vec3::ZERO, Vec3::new(1.0, 0.5, 0.0), Vec3::new(2.0, 1.0, 0.0)]);
/// # Ok::<(), skinlab_skin::job::JobError>(())
/// ```
#[derive(Debug)]
pub struct SkinningJob<'a> {
    /// The skinning palette, `world_from_bind` for each joint.
    pub palette: &'a [Mat4],
    /// Four joint indices and weights per vertex.
    pub influences: &'a JointWeights,
    /// Positions: always skinned.
    pub positions: Stream<'a>,
    /// Normals, when the mesh has them and the caller wants them skinned.
    pub normals: Option<Stream<'a>>,
    /// Tangents (they need normals).
    pub tangents: Option<Stream<'a>>,
}

impl SkinningJob<'_> {
    /// Checks the contract in constant time: lengths, the largest joint index against the
    /// palette, tangents with normals.
    pub fn validate(&self) -> Result<(), JobError> {
        let vertices = self.influences.len();
        let streams = [
            Some(("bind positions", self.positions.input.len())),
            Some(("skinned positions", self.positions.output.len())),
            self.normals
                .as_ref()
                .map(|n| ("bind normals", n.input.len())),
            self.normals
                .as_ref()
                .map(|n| ("skinned normals", n.output.len())),
            self.tangents
                .as_ref()
                .map(|t| ("bind tangents", t.input.len())),
            self.tangents
                .as_ref()
                .map(|t| ("skinned tangents", t.output.len())),
        ];
        if let Some((what, len)) = streams
            .into_iter()
            .flatten()
            .find(|(_, len)| *len != vertices)
        {
            return Err(JobError::LengthMismatch {
                what,
                len,
                vertices,
            });
        }
        if self.tangents.is_some() && self.normals.is_none() {
            return Err(JobError::TangentsNeedNormals);
        }
        if let Some((vertex, joint)) = self.influences.largest
            && joint >= self.palette.len()
        {
            return Err(JobError::JointOutOfRange {
                vertex,
                joint,
                palette: self.palette.len(),
            });
        }
        Ok(())
    }

    /// Validates, then skins on this thread with the fastest instructions available.
    pub fn run(&mut self) -> Result<(), JobError> {
        self.run_with(Simd::detect(), 1)
    }

    /// Validates, then skins with the fastest instructions available on up to `threads`
    /// threads (0: one per core). Small jobs use fewer threads than asked, since
    /// starting a thread costs more than skinning a few thousand vertices; the web build
    /// always uses one.
    pub fn run_threaded(&mut self, threads: usize) -> Result<(), JobError> {
        self.run_with(Simd::detect(), threads)
    }

    /// Validates, then skins with `simd` on up to `threads` threads (0: one per core).
    pub fn run_with(&mut self, simd: Simd, threads: usize) -> Result<(), JobError> {
        self.validate()?;
        if !simd.available() {
            return Err(JobError::SimdUnavailable(simd));
        }
        let vertices = self.influences.len();
        let attributes = 1 + self.normals.is_some() as usize + self.tangents.is_some() as usize;
        let traffic = vertices * (8 + 16 + 2 * 12 * attributes);
        let parts = Parts {
            large: traffic > STREAM_TRAFFIC,
            palette: self.palette,
            joints: self.influences.joints(),
            weights: self.influences.weights(),
            positions: self.positions.input,
            normals: self.normals.as_ref().map_or(&[], |s| s.input),
            tangents: self.tangents.as_ref().map_or(&[], |s| s.input),
            out_positions: &mut *self.positions.output,
            out_normals: self.normals.as_mut().map_or(&mut [], |s| &mut *s.output),
            out_tangents: self.tangents.as_mut().map_or(&mut [], |s| &mut *s.output),
        };
        run_parts(parts, simd, thread_count(threads, vertices));
        Ok(())
    }
}

/// A job that moves more bytes than this (indices, weights, attributes in and out) has
/// outgrown the caches: its output will not be there for the next reader anyway, so the
/// SIMD loop streams it out with non-temporal stores, which skip reading each cache line
/// before overwriting it.
const STREAM_TRAFFIC: usize = 32 << 20;

/// The job's slices after validation: every stream one entry per vertex, or empty when
/// the attribute is not skinned.
struct Parts<'a> {
    /// Whether the whole job moves more than [`STREAM_TRAFFIC`] bytes.
    large: bool,
    palette: &'a [Mat4],
    joints: &'a [[u16; 4]],
    weights: &'a [[f32; 4]],
    positions: &'a [Vec3],
    normals: &'a [Vec3],
    tangents: &'a [Vec3],
    out_positions: &'a mut [Vec3],
    out_normals: &'a mut [Vec3],
    out_tangents: &'a mut [Vec3],
}

impl<'a> Split for Parts<'a> {
    fn len(&self) -> usize {
        self.joints.len()
    }

    /// Splits at vertex `mid`; empty streams stay empty on both sides.
    fn split_at(self, mid: usize) -> (Parts<'a>, Parts<'a>) {
        fn split<T>(s: &[T], mid: usize) -> (&[T], &[T]) {
            s.split_at(mid.min(s.len()))
        }
        fn split_mut<T>(s: &mut [T], mid: usize) -> (&mut [T], &mut [T]) {
            let mid = mid.min(s.len());
            s.split_at_mut(mid)
        }
        let (j0, j1) = split(self.joints, mid);
        let (w0, w1) = split(self.weights, mid);
        let (p0, p1) = split(self.positions, mid);
        let (n0, n1) = split(self.normals, mid);
        let (t0, t1) = split(self.tangents, mid);
        let (op0, op1) = split_mut(self.out_positions, mid);
        let (on0, on1) = split_mut(self.out_normals, mid);
        let (ot0, ot1) = split_mut(self.out_tangents, mid);
        (
            Parts {
                large: self.large,
                palette: self.palette,
                joints: j0,
                weights: w0,
                positions: p0,
                normals: n0,
                tangents: t0,
                out_positions: op0,
                out_normals: on0,
                out_tangents: ot0,
            },
            Parts {
                large: self.large,
                palette: self.palette,
                joints: j1,
                weights: w1,
                positions: p1,
                normals: n1,
                tangents: t1,
                out_positions: op1,
                out_normals: on1,
                out_tangents: ot1,
            },
        )
    }
}

/// Vertices the SIMD loop takes at once; thread chunks start at multiples of it, so no
/// vertex moves between the full-width loop and the padded tail when threads change.
#[cfg_attr(target_arch = "wasm32", allow(dead_code))]
const BLOCK: usize = 8;

fn run_parts(parts: Parts<'_>, simd: Simd, threads: usize) {
    parallel::run_on(parts, threads, BLOCK, |piece| run_chunk(piece, simd));
}

fn run_chunk(parts: Parts<'_>, simd: Simd) {
    let normals = !parts.out_normals.is_empty();
    let tangents = !parts.out_tangents.is_empty();
    match simd {
        #[cfg(target_arch = "x86_64")]
        Simd::Avx2Fma => avx2::skin(parts, normals, tangents),
        _ => match (normals, tangents) {
            (false, _) => portable::<false, false>(parts),
            (true, false) => portable::<true, false>(parts),
            (true, true) => portable::<true, true>(parts),
        },
    }
}

// ANCHOR: cofactor
/// The skinned normal of bind-space `normal` under `blended`, by the cofactor of its 3×3
/// part, renormalised (zero when that is zero).
///
/// A normal must stay perpendicular to every direction along the surface. Directions are
/// carried by `M` (the 3×3 part), and `(M⁻ᵀn)·(Mt) = nᵀM⁻¹Mt = n·t`, so `M⁻ᵀn` stays
/// perpendicular whatever `M` is, non-uniform scale and shear included, where `Mn` leans
/// towards the stretched axis. The cofactor matrix is `det(M)·M⁻ᵀ`: the same directions
/// scaled by the determinant, and its columns are three cross products of `M`'s columns
/// (`b×c`, `c×a`, `a×b`), with no division. Since the result is renormalised, only the
/// sign of `det(M)` matters: a mirrored blend (negative determinant) would turn the
/// normal inwards, so it is flipped back to point out, the way `M⁻ᵀn` points. Unlike the
/// inverse, the cofactor exists for a flattened (singular) blend too.
pub fn cofactor_normal(blended: &Mat4, normal: Vec3) -> Vec3 {
    let a = Vec3A::from_vec4(blended.x_axis);
    let b = Vec3A::from_vec4(blended.y_axis);
    let c = Vec3A::from_vec4(blended.z_axis);
    let bc = b.cross(c);
    let n = bc * normal.x + c.cross(a) * normal.y + a.cross(b) * normal.z;
    let n = if a.dot(bc) < 0.0 { -n } else { n };
    n.normalize_or_zero().into()
}
// ANCHOR_END: cofactor

/// The blended matrix's four columns for one vertex.
#[inline(always)]
fn blend_columns(palette: &[Mat4], joints: [u16; 4], weights: [f32; 4]) -> [Vec4; 4] {
    let columns = |j: u16, w: f32| {
        let m = &palette[j as usize];
        [m.x_axis * w, m.y_axis * w, m.z_axis * w, m.w_axis * w]
    };
    // Starting from the first product rather than from zero saves four additions.
    let mut sum = columns(joints[0], weights[0]);
    for i in 1..4 {
        let more = columns(joints[i], weights[i]);
        for (s, m) in sum.iter_mut().zip(more) {
            *s += m;
        }
    }
    sum
}

/// `1 / x`, or zero where that is not a finite positive number.
#[inline(always)]
fn recip_or_zero(x: f32) -> f32 {
    let recip = x.recip();
    if recip.is_finite() && recip > 0.0 {
        recip
    } else {
        0.0
    }
}

/// `1 / |v|`, or zero where that is not a finite positive number (as glam's
/// `normalize_or_zero` decides): the same `1 / sqrt(v·v)` as glam's `length_recip`.
fn length_recip_or_zero(v: Vec3A) -> f32 {
    recip_or_zero(v.length())
}

/// One vertex at a time with glam's vector types (SSE2 on x86-64).
///
/// The tangent is made perpendicular to the normal before either is normalised:
/// `t·|n|² − n (t·n)` points where `t − n̂ (t·n̂)` does. Normalising the normal first
/// would chain two square roots and two divisions one after the other in every vertex,
/// longer than the processor can look ahead to overlap vertices (measured: twice the
/// plain loop's time); this way they run side by side. The normal is first divided by
/// the columns' squared lengths, which keeps those products near the joints' scale.
fn portable<const NORMALS: bool, const TANGENTS: bool>(p: Parts<'_>) {
    for (i, ((joints, weights), (bind, out))) in p
        .joints
        .iter()
        .zip(p.weights)
        .zip(p.positions.iter().zip(p.out_positions.iter_mut()))
        .enumerate()
    {
        let [a, b, c, t] = blend_columns(p.palette, *joints, *weights).map(Vec3A::from_vec4);
        let bind = Vec3A::from(*bind);
        *out = (a * bind.x + b * bind.y + c * bind.z + t).into();
        if NORMALS {
            let bc = b.cross(c);
            let n = Vec3A::from(p.normals[i]);
            let n = bc * n.x + c.cross(a) * n.y + a.cross(b) * n.z;
            // A negative determinant (a mirror) flips the normal inwards: flip it back.
            let n = if a.dot(bc) < 0.0 { -n } else { n };
            p.out_normals[i] = (n * length_recip_or_zero(n)).into();
            if TANGENTS {
                // The normal's size goes with the square of the joints' scale: brought
                // near 1 first, the tangent's products stay within f32's range for
                // scales from 1e-6 to 1e6.
                let n = n * recip_or_zero(a.dot(a) + b.dot(b) + c.dot(c));
                let t = Vec3A::from(p.tangents[i]);
                let t = a * t.x + b * t.y + c * t.z;
                // A flattened blend has no normal: its tangent is kept as it is.
                let nn = n.dot(n);
                let t = if nn > 0.0 { t * nn - n * t.dot(n) } else { t };
                p.out_tangents[i] = (t * length_recip_or_zero(t)).into();
            }
        }
    }
}

#[cfg(test)]
mod tests;
