//! The gpu page's link parameters, declared once.

use super::*;
use crate::link::{Exercises, question};

// Written every frame: each `get` compares with the default values, not a default
// page (which would build a mesh). `joints`, `spread` and `vertices` rebuild the
// chain, so `ring` comes after them and is checked against the chain they asked for.
/// Every link parameter of the page, applied and written in this order.
pub(super) const PARAMS: &[Param<GpuPage>] = &[
    Param {
        key: "path",
        doc: "where the palette goes; `float_index` and `int_index` also pick the \
              index type, with the uniform array",
        cell: Some("paths"),
        access: Access::Choice {
            names: &["uniform", "texture", "float_index", "int_index"],
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
            },
        },
    },
    // After `path`, so an explicit `indices` wins over the one a path implies.
    Param {
        key: "indices",
        doc: "how joint indices reach the shader",
        cell: Some("paths"),
        access: Access::Choice {
            names: &[indices_slug(INDICES[0]), indices_slug(INDICES[1])],
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
            },
        },
    },
    Param {
        key: "joints",
        doc: "joints in the chain",
        cell: Some("budget"),
        access: Access::Whole {
            min: 1,
            max: MAX_CHAIN_JOINTS,
            set: |s, joints| s.joints = joints,
            get: |s| (s.joints != DEFAULT_JOINTS).then_some(s.joints),
        },
    },
    Param {
        key: "spread",
        doc: "how far the weights reach, in bones either side",
        cell: Some("influences"),
        access: Access::Number {
            min: 0.5,
            max: 4.0,
            set: |s, spread| s.spread = spread,
            get: |s| (s.spread != DEFAULT_SPREAD).then_some(s.spread),
        },
    },
    Param {
        key: "vertices",
        doc: "about how many vertices the tail has",
        cell: Some("cpu_gpu"),
        access: Access::Whole {
            min: *VERTEX_RANGE.start(),
            max: *VERTEX_RANGE.end(),
            set: |s, vertices| s.vertices = vertices,
            get: |s| (s.vertices != DEFAULT_VERTICES).then_some(s.vertices),
        },
    },
    Param {
        key: "bend",
        doc: "the curl of the whole chain, radians",
        cell: None,
        access: Access::Number {
            min: -TAU,
            max: TAU,
            set: |s, bend| s.bend = bend,
            get: |s| (s.bend != DEFAULT_BEND).then_some(s.bend),
        },
    },
    Param {
        key: "twist",
        doc: "the twist of the whole chain about its length, radians",
        cell: None,
        access: Access::Number {
            min: -TAU,
            max: TAU,
            set: |s, twist| s.twist = twist,
            get: |s| Some(s.twist),
        },
    },
    Param {
        key: "cpu",
        doc: "skin on the CPU",
        cell: Some("cpu_gpu"),
        access: Access::Bool {
            set: |s, on| s.cpu_skinning = on,
            get: |s| s.cpu_skinning.then_some(true),
        },
    },
    Param {
        key: "ring",
        doc: "the ring of the tail whose influences are prepared",
        cell: Some("influences"),
        access: Access::Text {
            expected: "a whole number from 0 to the tail's last ring (how many rings \
                       follows `vertices`)",
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
            get: |s| s.ring.map(|r| r.to_string()),
        },
    },
    Param {
        key: "source",
        doc: "the shader file the source cell shows: the joints file, the blend file or the main file",
        cell: Some("source"),
        access: Access::Choice {
            names: &["joints", "blend", "main"],
            set: |s, i| s.file = i,
            get: |s| Some(s.file),
        },
    },
    Param {
        key: "line",
        doc: "a line of the shown shader file (from 1): marked in the margin and scrolled to",
        cell: Some("source"),
        access: Access::Whole {
            min: 1,
            max: 999,
            set: |s, line| s.line = Some(line),
            get: |s| s.line,
        },
    },
    Param {
        key: "beside",
        doc: "a shader file set beside it, the lines the two do not share marked",
        cell: Some("source"),
        access: Access::Choice {
            names: &super::source::FILE_NAMES,
            set: |s, i| s.beside = Some(i),
            get: |s| s.beside,
        },
    },
    // Written once a sweep has finished, never while one runs. Before `question`, so a
    // link with both still opens at the check.
    Param {
        key: "sweep",
        doc: "a finished CPU-against-GPU sweep, measured earlier: the chart and the \
              table reopen with its times, marked as brought in by the link",
        cell: Some("cpu_gpu"),
        access: Access::Text {
            expected: super::sweep::FORM,
            set: |s, text| {
                s.bench.load(super::sweep::read(text)?);
                Ok(())
            },
            get: |s| s.bench.finished().map(super::sweep::write),
        },
    },
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
