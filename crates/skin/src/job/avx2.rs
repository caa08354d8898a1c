//! The job's loop with AVX2 and FMA: eight vertices at a time, one per lane.
//!
//! Blending reads whole matrices, so it is done a vertex at a time, two columns per
//! 256-bit register; the eight blended matrices are then transposed so that each
//! register holds one matrix entry of all eight vertices, and everything after (the
//! position, the cofactor normal in two cross products, the tangent, two
//! normalisations) is plain arithmetic on those registers, with no shuffling at all.
//! Positions, normals and tangents are read and written eight at a time as three
//! registers (24 floats) and reordered with the usual five-shuffle transposition.
//! The normalisations run in later passes over a group of blocks ([`blocks`]).
//!
//! Large outputs are written with streaming (non-temporal) stores, which skip reading
//! each cache line before overwriting it; that is where memory bandwidth goes at a
//! million vertices.
//!
//! The palette is read a matrix at a time as two 32-byte loads. A load that straddles
//! two cache lines costs the processor twice, so a palette that does not start on a
//! 32-byte boundary is first copied to one that does ([`Aligned`]).
//!
//! `unsafe` appears three times: the call into code compiled for AVX2 (after checking
//! the machine has it), the palette read without bounds checks (validation put every
//! index inside it), and the streaming stores, which take a raw pointer. The other
//! intrinsics are safe inside AVX2 code, and memory moves through `bytemuck` casts.

use super::{BLOCK, Parts};
use core::arch::x86_64::*;
use glam::{Mat4, Vec3};
use parallel::Split as _;

/// Skins `p` with AVX2 and FMA; falls back to the portable loop if the machine lacks
/// them (callers check first, so that is only a safety net).
pub(super) fn skin(p: Parts<'_>, normals: bool, tangents: bool) {
    if !(is_x86_feature_detected!("avx2") && is_x86_feature_detected!("fma")) {
        return match (normals, tangents) {
            (false, _) => super::portable::<false, false>(p),
            (true, false) => super::portable::<true, false>(p),
            (true, true) => super::portable::<true, true>(p),
        };
    }
    // SAFETY: the machine has AVX2 and FMA, checked just above; that is the only
    // requirement of a function compiled with `target_feature(enable = "avx2,fma")`.
    unsafe {
        match (normals, tangents) {
            (false, _) => run::<false, false>(p),
            (true, false) => run::<true, false>(p),
            (true, true) => run::<true, true>(p),
        }
    }
}

/// Eight vertices' x, y and z, each in one register (lanes in vertex order).
#[derive(Clone, Copy)]
struct V3 {
    x: __m256,
    y: __m256,
    z: __m256,
}

impl V3 {
    #[target_feature(enable = "avx2,fma")]
    #[inline]
    fn zero() -> Self {
        let zero = _mm256_setzero_ps();
        Self {
            x: zero,
            y: zero,
            z: zero,
        }
    }
}

/// Blocks of eight vertices of every stream (empty for attributes not skinned).
struct Blocks<'a> {
    joints: &'a [[[u16; 4]; BLOCK]],
    weights: &'a [[[f32; 4]; BLOCK]],
    input: [&'a [[Vec3; BLOCK]]; 3],
    output: [&'a mut [[Vec3; BLOCK]]; 3],
}

#[target_feature(enable = "avx2,fma")]
fn run<const NORMALS: bool, const TANGENTS: bool>(p: Parts<'_>) {
    let aligned;
    let p = if !(p.palette.as_ptr() as usize).is_multiple_of(32)
        && p.palette.len() <= Aligned::JOINTS
    {
        aligned = Aligned::copy(p.palette);
        Parts {
            palette: &aligned.0[..p.palette.len()],
            ..p
        }
    } else {
        p
    };
    let head = if p.large { stream_start(&p) } else { None };
    let Some(head) = head else {
        return whole_and_rest::<NORMALS, TANGENTS>(p, false);
    };
    // The few vertices before the outputs reach a 32-byte boundary go through the padded
    // path, which gives the same results, then every block's stores are aligned.
    let (head, body) = p.split_at(head);
    padded::<NORMALS, TANGENTS>(head);
    whole_and_rest::<NORMALS, TANGENTS>(body, true);
    // Non-temporal stores are weakly ordered: make them visible before returning.
    _mm_sfence();
}

/// A palette copied to a 64-byte boundary, so that no matrix straddles two cache lines
/// (measured: 7 to 10% slower at 30,000 vertices when the caller's palette sits 16 or
/// 48 bytes past one). Larger palettes than this are read where they are.
#[repr(C, align(64))]
struct Aligned([Mat4; Aligned::JOINTS]);

impl Aligned {
    /// 16 KB on the stack, which the kernel fills in a fraction of a microsecond.
    const JOINTS: usize = 256;

    fn copy(palette: &[Mat4]) -> Self {
        let mut aligned = Self([Mat4::ZERO; Self::JOINTS]);
        aligned.0[..palette.len()].copy_from_slice(palette);
        aligned
    }
}

/// How many vertices to skip so that every skinned output starts on a 32-byte boundary
/// (the alignment a streaming store needs), if one count suits them all.
pub(super) fn stream_start(p: &Parts<'_>) -> Option<usize> {
    let outputs = [&*p.out_positions, &*p.out_normals, &*p.out_tangents];
    let misalignment = |s: &[Vec3], skip: usize| (s.as_ptr() as usize + skip * 12) % 32;
    let skip = (0..BLOCK).find(|&k| misalignment(p.out_positions, k) == 0)?;
    outputs
        .iter()
        .all(|s| s.is_empty() || misalignment(s, skip) == 0)
        .then_some(skip.min(p.len()))
}

/// Whole blocks, then the rest padded.
#[target_feature(enable = "avx2,fma")]
fn whole_and_rest<const NORMALS: bool, const TANGENTS: bool>(p: Parts<'_>, stream: bool) {
    let whole = p.len() / BLOCK * BLOCK;
    let (p, rest) = p.split_at(whole);
    blocks::<NORMALS, TANGENTS>(
        p.palette,
        Blocks {
            joints: p.joints.as_chunks().0,
            weights: p.weights.as_chunks().0,
            input: [p.positions, p.normals, p.tangents].map(|s| s.as_chunks().0),
            output: [p.out_positions, p.out_normals, p.out_tangents].map(|s| s.as_chunks_mut().0),
        },
        stream,
    );
    padded::<NORMALS, TANGENTS>(rest);
}

/// Fewer than a block of vertices, through a zero-padded block: each lane's result
/// depends only on its own vertex, so they come out exactly as in a full block.
#[target_feature(enable = "avx2,fma")]
fn padded<const NORMALS: bool, const TANGENTS: bool>(p: Parts<'_>) {
    let rest = p.len();
    if rest == 0 {
        return;
    }
    let mut j = [[0u16; 4]; BLOCK];
    let mut w = [[0f32; 4]; BLOCK];
    let mut input = [[Vec3::ZERO; BLOCK]; 3];
    j[..rest].copy_from_slice(p.joints);
    w[..rest].copy_from_slice(p.weights);
    for (input, part) in input.iter_mut().zip([p.positions, p.normals, p.tangents]) {
        // Empty for an attribute not skinned.
        input[..part.len()].copy_from_slice(part);
    }
    let mut output = [[Vec3::ZERO; BLOCK]; 3];
    let [ip, inn, it] = &input;
    let [op, on, ot] = &mut output;
    blocks::<NORMALS, TANGENTS>(
        p.palette,
        Blocks {
            joints: std::slice::from_ref(&j),
            weights: std::slice::from_ref(&w),
            input: [ip, inn, it].map(std::slice::from_ref),
            output: [op, on, ot].map(std::slice::from_mut),
        },
        false,
    );
    for (part, out) in [p.out_positions, p.out_normals, p.out_tangents]
        .into_iter()
        .zip(&output)
    {
        let len = part.len();
        part.copy_from_slice(&out[..len]);
    }
}

/// Skins whole blocks, with streaming stores when `stream` (every output block then
/// starts on a 32-byte boundary), a group of blocks at a time in up to three passes.
///
/// The first pass blends and writes the positions, and carries each bind normal and
/// tangent as far as it goes without a square root: the cofactor normal and the tangent
/// the blended matrix gives. The second normalises the normals and writes them; the
/// third makes each tangent perpendicular to its unit normal, normalises it and writes
/// it. Each pass's chains of dependent instructions are short beside its length, so the
/// processor overlaps one block with the next; in one pass, the normalisations at the
/// end of each block waited on the whole of it (measured: 3 to 6% slower with normals,
/// 17% with tangents too, docs/measurements.md).
#[target_feature(enable = "avx2,fma")]
fn blocks<const NORMALS: bool, const TANGENTS: bool>(
    palette: &[Mat4],
    b: Blocks<'_>,
    stream: bool,
) {
    let Blocks {
        joints,
        weights,
        input: [positions, normals, tangents],
        output: [out_positions, out_normals, out_tangents],
    } = b;
    // Every stream skinned has one block per block of joints: cut to that length, so
    // that the compiler sees each index below is in range and checks none of them.
    let count = joints.len();
    let (weights, positions, out_positions) = (
        &weights[..count],
        &positions[..count],
        &mut out_positions[..count],
    );
    let (normals, out_normals) = if NORMALS {
        (&normals[..count], &mut out_normals[..count])
    } else {
        (normals, out_normals)
    };
    let (tangents, out_tangents) = if TANGENTS {
        (&tangents[..count], &mut out_tangents[..count])
    } else {
        (tangents, out_tangents)
    };
    // Attributes not skinned have no blocks: a zero block is read instead.
    let none = [Vec3::ZERO; BLOCK];
    let mut directions = [[V3::zero(); 2]; GROUP];
    let mut start = 0;
    while start < count {
        let end = (start + GROUP).min(count);
        for (i, skinned) in (start..end).zip(&mut directions) {
            *skinned = positions_and_directions::<NORMALS, TANGENTS>(
                blend8::<NORMALS, TANGENTS>(palette, &joints[i], &weights[i]),
                [
                    &positions[i],
                    if NORMALS { &normals[i] } else { &none },
                    if TANGENTS { &tangents[i] } else { &none },
                ],
                &mut out_positions[i],
                stream,
            );
        }
        if NORMALS {
            for (i, [normal, _]) in (start..end).zip(&mut directions) {
                *normal = normalize_or_zero(*normal);
                store(&mut out_normals[i], *normal, stream);
            }
        }
        if TANGENTS {
            for (i, &[normal, tangent]) in (start..end).zip(&directions) {
                // One Gram-Schmidt step: the tangent less its part along the unit
                // normal. Every product here stays near the joints' scale, within f32's
                // range for scales from 1e-6 to 1e6.
                let along = dot(tangent, normal);
                let tangent = V3 {
                    x: _mm256_fnmadd_ps(normal.x, along, tangent.x),
                    y: _mm256_fnmadd_ps(normal.y, along, tangent.y),
                    z: _mm256_fnmadd_ps(normal.z, along, tangent.z),
                };
                store(&mut out_tangents[i], normalize_or_zero(tangent), stream);
            }
        }
        start = end;
    }
}

/// Blocks in a group: enough to keep the processor busy between the passes, few enough
/// that what the first pass hands the others stays in the first-level cache (3 KB).
const GROUP: usize = 16;

/// Skins eight vertices' positions into `out_position`, and returns their normals and
/// tangents skinned but not yet normalised (zero where not asked for). `input` is the
/// bind positions, normals and tangents.
#[target_feature(enable = "avx2,fma")]
#[inline]
fn positions_and_directions<const NORMALS: bool, const TANGENTS: bool>(
    [a, b, c, t]: [V3; 4],
    input: [&[Vec3; BLOCK]; 3],
    out_position: &mut [Vec3; BLOCK],
    stream: bool,
) -> [V3; 2] {
    let p = load(input[0]);
    let position = V3 {
        x: fma(a.x, p.x, fma(b.x, p.y, fma(c.x, p.z, t.x))),
        y: fma(a.y, p.x, fma(b.y, p.y, fma(c.y, p.z, t.y))),
        z: fma(a.z, p.x, fma(b.z, p.y, fma(c.z, p.z, t.z))),
    };
    store(out_position, position, stream);
    if !NORMALS {
        return [V3::zero(); 2];
    }

    // The cofactor matrix times the normal (see `cofactor_normal` for why),
    // `n.x (b×c) + n.y (c×a) + n.z (a×b)`, with its first two terms gathered as
    // `c × (a n.y − b n.x)`: two cross products where there were three.
    let n = load(input[1]);
    let ab = cross(a, b);
    let u = V3 {
        x: _mm256_fmsub_ps(a.x, n.y, _mm256_mul_ps(b.x, n.x)),
        y: _mm256_fmsub_ps(a.y, n.y, _mm256_mul_ps(b.y, n.x)),
        z: _mm256_fmsub_ps(a.z, n.y, _mm256_mul_ps(b.z, n.x)),
    };
    // A negative determinant, `c · (a×b)`, is a mirror: it turns the normal inwards, so
    // the sign bits flip it back.
    let sign = _mm256_and_ps(dot(c, ab), _mm256_set1_ps(-0.0));
    let normal = V3 {
        x: fma(
            ab.x,
            n.z,
            _mm256_fmsub_ps(c.y, u.z, _mm256_mul_ps(c.z, u.y)),
        ),
        y: fma(
            ab.y,
            n.z,
            _mm256_fmsub_ps(c.z, u.x, _mm256_mul_ps(c.x, u.z)),
        ),
        z: fma(
            ab.z,
            n.z,
            _mm256_fmsub_ps(c.x, u.y, _mm256_mul_ps(c.y, u.x)),
        ),
    };
    let normal = V3 {
        x: _mm256_xor_ps(normal.x, sign),
        y: _mm256_xor_ps(normal.y, sign),
        z: _mm256_xor_ps(normal.z, sign),
    };
    if !TANGENTS {
        return [normal, V3::zero()];
    }
    let v = load(input[2]);
    let tangent = V3 {
        x: fma(a.x, v.x, fma(b.x, v.y, _mm256_mul_ps(c.x, v.z))),
        y: fma(a.y, v.x, fma(b.y, v.y, _mm256_mul_ps(c.y, v.z))),
        z: fma(a.z, v.x, fma(b.z, v.y, _mm256_mul_ps(c.z, v.z))),
    };
    [normal, tangent]
}

/// The blended matrices of eight vertices, transposed: the first three entries of each
/// column, one register per entry. (Generic only so that each copy has one caller and is
/// inlined: a call would send the twelve registers through memory.)
#[target_feature(enable = "avx2,fma")]
#[inline]
fn blend8<const NORMALS: bool, const TANGENTS: bool>(
    palette: &[Mat4],
    joints: &[[u16; 4]; BLOCK],
    weights: &[[f32; 4]; BLOCK],
) -> [V3; 4] {
    // Written out, and `pair` generic over the vertex, so that every copy of it has one
    // caller and is inlined (LLVM leaves closures and functions with many callers out of
    // line, and their results then go through memory).
    let p0 = pair::<NORMALS, TANGENTS, 0>(palette, joints, weights);
    let p1 = pair::<NORMALS, TANGENTS, 1>(palette, joints, weights);
    let p2 = pair::<NORMALS, TANGENTS, 2>(palette, joints, weights);
    let p3 = pair::<NORMALS, TANGENTS, 3>(palette, joints, weights);
    [
        transpose_xyz([p0[0], p1[0], p2[0], p3[0]]),
        transpose_xyz([p0[1], p1[1], p2[1], p3[1]]),
        transpose_xyz([p0[2], p1[2], p2[2], p3[2]]),
        transpose_xyz([p0[3], p1[3], p2[3], p3[3]]),
    ]
}

/// The blended matrices of vertices `L` and `L + 4`, column by column: vertex `L` in the
/// low half of each register, `L + 4` in the high half, which is the lane order the
/// in-lane transposition produces.
#[target_feature(enable = "avx2,fma")]
#[inline]
fn pair<const NORMALS: bool, const TANGENTS: bool, const L: usize>(
    palette: &[Mat4],
    joints: &[[u16; 4]; BLOCK],
    weights: &[[f32; 4]; BLOCK],
) -> [__m256; 4] {
    let [lo01, lo23] = blend1(palette, &joints[L], &weights[L]);
    let [hi01, hi23] = blend1(palette, &joints[L + 4], &weights[L + 4]);
    [
        _mm256_permute2f128_ps::<0x20>(lo01, hi01),
        _mm256_permute2f128_ps::<0x31>(lo01, hi01),
        _mm256_permute2f128_ps::<0x20>(lo23, hi23),
        _mm256_permute2f128_ps::<0x31>(lo23, hi23),
    ]
}

/// One vertex's blended matrix as two registers: columns 0 and 1, columns 2 and 3.
#[target_feature(enable = "avx2,fma")]
#[inline]
fn blend1(palette: &[Mat4], joints: &[u16; 4], weights: &[f32; 4]) -> [__m256; 2] {
    // No bounds check: it would cost two instructions a joint, 64 a block, in the loop's
    // busiest part (measured: 5 to 8% of the time with normals).
    let matrix = |j: u16| {
        let j = usize::from(j);
        debug_assert!(j < palette.len(), "joint {j} past the palette");
        // SAFETY: every index is inside the palette. `SkinningJob::validate` checked the
        // largest index of `JointWeights` (whose arrays cannot change once built)
        // against the palette before any `Parts` was made, and the padded path's extra
        // lanes name joint 0, which a palette long enough for any vertex has.
        matrix(unsafe { palette.get_unchecked(j) })
    };
    let [m01, m23] = matrix(joints[0]);
    // Broadcast from memory: a load, where a register broadcast would take a shuffle.
    let w = _mm256_broadcast_ss(&weights[0]);
    let (mut s01, mut s23) = (_mm256_mul_ps(m01, w), _mm256_mul_ps(m23, w));
    for i in 1..4 {
        let [m01, m23] = matrix(joints[i]);
        let w = _mm256_broadcast_ss(&weights[i]);
        s01 = fma(m01, w, s01);
        s23 = fma(m23, w, s23);
    }
    [s01, s23]
}

/// A matrix's columns as two registers.
#[target_feature(enable = "avx2,fma")]
#[inline]
fn matrix(m: &Mat4) -> [__m256; 2] {
    bytemuck::cast::<[[f32; 8]; 2], [__m256; 2]>(bytemuck::cast(*m))
}

/// Four registers `[v_l | v_{l+4}]` of 4-vectors to x, y and z of all eight.
#[target_feature(enable = "avx2,fma")]
#[inline]
fn transpose_xyz(v: [__m256; 4]) -> V3 {
    let xy01 = _mm256_unpacklo_ps(v[0], v[1]);
    let zw01 = _mm256_unpackhi_ps(v[0], v[1]);
    let xy23 = _mm256_unpacklo_ps(v[2], v[3]);
    let zw23 = _mm256_unpackhi_ps(v[2], v[3]);
    V3 {
        x: _mm256_shuffle_ps::<0b01_00_01_00>(xy01, xy23),
        y: _mm256_shuffle_ps::<0b11_10_11_10>(xy01, xy23),
        z: _mm256_shuffle_ps::<0b01_00_01_00>(zw01, zw23),
    }
}

/// Eight `Vec3`s (24 floats, three registers' worth) to x, y and z registers.
#[target_feature(enable = "avx2,fma")]
#[inline]
fn load(v: &[Vec3; BLOCK]) -> V3 {
    let [f0, f1, f2] = bytemuck::cast::<[Vec3; BLOCK], [[f32; 8]; 3]>(*v).map(bytemuck::cast);
    // Vertices 0-3 in the low halves, 4-7 in the high halves:
    // m03 = x0 y0 z0 x1 | x4 y4 z4 x5, m14 = y1 z1 x2 y2 | y5 z5 x6 y6,
    // m25 = z2 x3 y3 z3 | z6 x7 y7 z7.
    let m03 = _mm256_permute2f128_ps::<0x30>(f0, f1);
    let m14 = _mm256_permute2f128_ps::<0x21>(f0, f2);
    let m25 = _mm256_permute2f128_ps::<0x30>(f1, f2);
    let xy = _mm256_shuffle_ps::<0b10_01_11_10>(m14, m25); // x2 y2 x3 y3
    let yz = _mm256_shuffle_ps::<0b01_00_10_01>(m03, m14); // y0 z0 y1 z1
    V3 {
        x: _mm256_shuffle_ps::<0b10_00_11_00>(m03, xy),
        y: _mm256_shuffle_ps::<0b11_01_10_00>(yz, xy),
        z: _mm256_shuffle_ps::<0b11_00_11_01>(yz, m25),
    }
}

/// The inverse of [`load`]; with `stream`, non-temporal stores where `out` is aligned for
/// them.
#[target_feature(enable = "avx2,fma")]
#[inline]
fn store(out: &mut [Vec3; BLOCK], v: V3, stream: bool) {
    let xy = _mm256_shuffle_ps::<0b10_00_10_00>(v.x, v.y); // x0 x2 y0 y2
    let yz = _mm256_shuffle_ps::<0b11_01_11_01>(v.y, v.z); // y1 y3 z1 z3
    let zx = _mm256_shuffle_ps::<0b11_01_10_00>(v.z, v.x); // z0 z2 x1 x3
    let m03 = _mm256_shuffle_ps::<0b10_00_10_00>(xy, zx);
    let m14 = _mm256_shuffle_ps::<0b11_01_10_00>(yz, xy);
    let m25 = _mm256_shuffle_ps::<0b11_01_11_01>(zx, yz);
    let f = [
        _mm256_permute2f128_ps::<0x20>(m03, m14),
        _mm256_permute2f128_ps::<0x30>(m25, m03),
        _mm256_permute2f128_ps::<0x31>(m14, m25),
    ];
    let ptr = out.as_mut_ptr().cast::<f32>();
    if stream && (ptr as usize).is_multiple_of(32) {
        // SAFETY: `out` is 24 writable floats, so `ptr`, `ptr + 8` and `ptr + 16` each
        // start 8 of them, and the check above put all three on the 32-byte boundary a
        // streaming store requires.
        unsafe {
            _mm256_stream_ps(ptr, f[0]);
            _mm256_stream_ps(ptr.add(8), f[1]);
            _mm256_stream_ps(ptr.add(16), f[2]);
        }
    } else {
        *out = bytemuck::cast(f.map(bytemuck::cast::<__m256, [f32; 8]>));
    }
}

#[target_feature(enable = "avx2,fma")]
#[inline]
fn fma(a: __m256, b: __m256, c: __m256) -> __m256 {
    _mm256_fmadd_ps(a, b, c)
}

#[target_feature(enable = "avx2,fma")]
#[inline]
fn dot(a: V3, b: V3) -> __m256 {
    fma(a.x, b.x, fma(a.y, b.y, _mm256_mul_ps(a.z, b.z)))
}

#[target_feature(enable = "avx2,fma")]
#[inline]
fn cross(a: V3, b: V3) -> V3 {
    V3 {
        x: _mm256_fmsub_ps(a.y, b.z, _mm256_mul_ps(a.z, b.y)),
        y: _mm256_fmsub_ps(a.z, b.x, _mm256_mul_ps(a.x, b.z)),
        z: _mm256_fmsub_ps(a.x, b.y, _mm256_mul_ps(a.y, b.x)),
    }
}

/// `v / |v|`, or zero where `1 / |v|` is not a finite positive number (as glam's
/// `normalize_or_zero`).
///
/// `1 / |v|` is the hardware's estimate (12 bits) refined by one Newton step (about 22
/// bits): a square root and a division would keep the one divider busy for longer than
/// all the rest of the arithmetic of a normal.
#[target_feature(enable = "avx2,fma")]
#[inline]
fn normalize_or_zero(v: V3) -> V3 {
    let x = dot(v, v);
    let y = _mm256_rsqrt_ps(x);
    // y' = y (3 - x y²) / 2
    let three_minus = _mm256_fnmadd_ps(_mm256_mul_ps(x, y), y, _mm256_set1_ps(3.0));
    let recip = _mm256_mul_ps(_mm256_mul_ps(_mm256_set1_ps(0.5), y), three_minus);
    // NaN (from 0 · ∞) fails both ordered comparisons, so zero lengths give zero.
    let ok = _mm256_and_ps(
        _mm256_cmp_ps::<_CMP_LT_OQ>(recip, _mm256_set1_ps(f32::INFINITY)),
        _mm256_cmp_ps::<_CMP_GT_OQ>(recip, _mm256_setzero_ps()),
    );
    let recip = _mm256_and_ps(recip, ok);
    V3 {
        x: _mm256_mul_ps(v.x, recip),
        y: _mm256_mul_ps(v.y, recip),
        z: _mm256_mul_ps(v.z, recip),
    }
}
