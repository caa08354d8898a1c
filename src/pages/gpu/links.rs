//! The gpu page's link parameters, declared once.

use super::*;
use crate::link::param;
use crate::link::{Exercises, question};

// Written every frame: each `get` compares with the default values, not a default
// page (which would build a mesh). `joints`, `spread` and `vertices` rebuild the
// chain, so `ring` comes after them and is checked against the chain they asked for.
/// Every link parameter of the page, applied and written in this order.
#[rustfmt::skip]
pub(super) const PARAMS: &[Param<GpuPage>] = &[
    param! { "path", "where the palette goes; `float_index` and `int_index` also pick the \
              index type, with the uniform array", @"paths",
        names(&["uniform", "texture", "float_index", "int_index"]),
        set: |s, i| match i {
            0 => s.storage = Storage::Uniform,
            1 => s.storage = Storage::Texture,
            2 => (s.storage, s.indices) = (Storage::Uniform, JointIndices::Float),
            3 => (s.storage, s.indices) = (Storage::Uniform, JointIndices::Int),
            _ => {}
        },
        get: |s| {
            Storage::ALL
                .iter()
                .position(|x| *x == s.storage)
                .filter(|i| *i != 0)
        } },
    // After `path`, so an explicit `indices` wins over the one a path implies.
    param! { "indices", "how joint indices reach the shader", @"paths",
        names(&[indices_slug(INDICES[0]), indices_slug(INDICES[1])]),
        set: |s, i| {
            if let Some(indices) = INDICES.get(i) {
                s.indices = *indices;
            }
        },
        get: |s| {
            INDICES
                .iter()
                .position(|x| *x == s.indices)
                .filter(|i| *i != 0)
        } },
    param! { "joints", "joints in the chain", @"controls", whole(1, MAX_CHAIN_JOINTS), s.joints },
    param! { "spread", "how far the weights reach, in bones either side", @"influences",
        number(0.5, 4.0), s.spread },
    param! { "vertices", "about how many vertices the tail has", @"cpu_gpu",
        whole(*VERTEX_RANGE.start(), *VERTEX_RANGE.end()), s.vertices },
    param! { "bend", "the curl of the whole chain, radians", number(-TAU, TAU), s.bend },
    param! { "twist", "the twist of the whole chain about its length, radians",
        number(-TAU, TAU), s.twist },
    param! { "cpu", "skin on the CPU", @"cpu_gpu", bool, s.cpu_skinning },
    param! { "ring", "the ring of the tail whose influences are prepared", @"influences",
        text("a whole number from 0 to the tail's last ring (how many rings \
                       follows `vertices`)"),
        set: |s, text| {
            // Against the chain this link's `joints`, `spread` and `vertices` build.
            s.rebuild();
            let last = s.chain.rings.saturating_sub(1);
            let ring = text
                .parse::<usize>()
                .ok()
                .filter(|r| *r <= last)
                .ok_or_else(|| format!("a whole number from 0 to {last}"))?;
            s.ring = Some(ring);
            Ok(())
        },
        get: |s| s.ring.map(|r| r.to_string()) },
    param! { "source", "the shader file the source cell shows: the joints file, the blend file or the main file", @"source",
        names(&["joints", "blend", "main"]), s.file },
    param! { "line", "a line of the shown shader file (from 1): marked in the margin and scrolled to", @"source",
        whole(1, 999),
        set: |s, line| s.line = Some(line),
        get: |s| s.line },
    param! { "beside", "a shader file set beside it, the lines the two do not share marked", @"source",
        names(&super::source::FILE_NAMES),
        set: |s, i| s.beside = Some(i),
        get: |s| s.beside },
    // Written once a sweep has finished, never while one runs. Before `question`, so a
    // link with both still opens at the check.
    param! { "sweep", "a finished CPU-against-GPU sweep, measured earlier: the chart and the \
              table reopen with its times, marked as brought in by the link", @"cpu_gpu",
        text(super::sweep::FORM),
        set: |s, text| {
            s.bench.load(super::sweep::read(text)?);
            Ok(())
        },
        get: |s| s.bench.finished().map(super::sweep::write) },
    question(),
];

impl Exercises for GpuPage {
    const COUNT: usize = EXERCISE_COUNT;

    fn exercise(&self) -> usize {
        self.exercise
    }

    fn show_exercise(&mut self, index: usize) {
        self.exercise = index;
        self.check = Check::default();
    }
}
