//! Repairing a student's skin: each problem the loader mends in memory (or refuses),
//! mended in the file itself and written as one GLB ([`crate::to_glb`]), so that any
//! engine loads what skinlab drew.
//!
//! The contract, once: a repair reads the file as leniently as it must (a joint past
//! the skin's list or a singular inverse bind refuses a load, but not a repair), changes
//! only what a fix asked for names, writes each changed attribute as a new accessor
//! (in the old one's place where nothing else reads it; beside it, the old one still
//! read there, where something does), and checks its own work: the written file must
//! open, or nothing is returned but the reason.

use super::accessor::{self, FLOAT, NORMALIZED};
use super::container::{Beside, Buffers};
use super::document::{Dimensions, Document, Interpolation, NodeTransform, Property};
use super::meshes::{self, InfluenceSet};
use super::nodes::{self, Hierarchy};
use super::skins::{FLATNESS, flatness};
use super::write::{Edit, NewAccessor, Place, write};
use super::{Model, ModelError, StoredInfluences, quoted};
use glam::{Mat4, Quat};
use skin::MAX_INFLUENCES;

/// A repair [`repair`] can make. [`Fix::ALL`] is what "repair all" makes; [`Fix::Rebind`]
/// and [`Fix::Unused`] change a file that is not wrong, and are made only when asked
/// for by name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fix {
    /// Each vertex's weights divided by their sum where it is not 1 (as closely as the
    /// loader asks: the blending page's sum of weights), as the loader does in memory.
    Renormalise,
    /// A vertex with more than four influences keeps its four largest, renormalised (the
    /// gpu page's budget), and the file keeps one set, `JOINTS_0`/`WEIGHTS_0`.
    KeepFour,
    /// A weight that is not a number or is negative, or a joint past the skin's list: the
    /// vertex follows its strongest valid joint alone. A vertex with no weight follows
    /// joint 0 (as the loader binds it), and a joint named twice gets both weights.
    Influences,
    /// A joint listed with weight 0 is written as joint 0, as glTF asks.
    ZeroWeights,
    /// An inverse bind that is missing, not finite or singular is recomputed from the
    /// rest pose: that joint's bind becomes its rest.
    InverseBinds,
    /// Every inverse bind that does not match the rest pose recomputed from it: the
    /// binding page's "bind at the current pose", for the whole skeleton.
    Rebind,
    /// A rotation of a node or of a clip's key that is not of length 1, divided by its
    /// length (the zero quaternion: no rotation).
    Rotations,
    /// A skin's joints that weigh no vertex left out of its list (the nodes stay in the
    /// skeleton): a smaller palette. Made only when asked for by name.
    Unused,
}

impl Fix {
    /// What "repair all" makes: every fix but [`Fix::Rebind`] and [`Fix::Unused`].
    pub const ALL: [Fix; 6] = [
        Fix::Renormalise,
        Fix::KeepFour,
        Fix::Influences,
        Fix::ZeroWeights,
        Fix::InverseBinds,
        Fix::Rotations,
    ];

    /// Every fix: [`Fix::ALL`], then [`Fix::Unused`] and [`Fix::Rebind`].
    pub const EVERY: [Fix; 8] = [
        Fix::Renormalise,
        Fix::KeepFour,
        Fix::Influences,
        Fix::ZeroWeights,
        Fix::InverseBinds,
        Fix::Rotations,
        Fix::Unused,
        Fix::Rebind,
    ];

    /// Its name on the command line (`--fix renormalise,four`).
    pub fn name(self) -> &'static str {
        match self {
            Fix::Renormalise => "renormalise",
            Fix::KeepFour => "four",
            Fix::Influences => "influences",
            Fix::ZeroWeights => "zeros",
            Fix::InverseBinds => "binds",
            Fix::Rebind => "rebind",
            Fix::Rotations => "rotations",
            Fix::Unused => "unused",
        }
    }

    /// The fix named `name`.
    pub fn named(name: &str) -> Option<Fix> {
        Fix::EVERY.into_iter().find(|f| f.name() == name)
    }

    /// What it does, in one line.
    pub fn what(self) -> &'static str {
        match self {
            Fix::Renormalise => "divide each vertex's weights by their sum",
            Fix::KeepFour => "keep each vertex's four largest weights, renormalised",
            Fix::Influences => {
                "a vertex with a weight that is not a number or negative, or a joint past \
                 the skin's list, follows its strongest valid joint alone"
            }
            Fix::ZeroWeights => "write a joint listed with weight 0 as joint 0",
            Fix::InverseBinds => {
                "recompute a missing, singular or not finite inverse bind from the rest pose"
            }
            Fix::Rebind => {
                "recompute every inverse bind from the rest pose: the bind becomes the rest"
            }
            Fix::Rotations => "divide each rotation by its length",
            Fix::Unused => "leave a joint that weighs no vertex out of its skin's list",
        }
    }
}

/// A file repaired and written as one GLB, the model it opens to, and a line for each
/// change made (none: the file needed none of the fixes asked for, and is written as it
/// was).
#[derive(Debug)]
pub struct Repaired {
    pub glb: Vec<u8>,
    pub model: Model,
    pub changes: Vec<Change>,
}

/// One change a fix made, in one line, and how many vertices, joints or keys it touched.
#[derive(Clone, Debug, PartialEq)]
pub struct Change {
    pub fix: Fix,
    pub touched: usize,
    pub line: String,
}

impl std::fmt::Display for Change {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.line)
    }
}

/// The file `bytes` (with what is `beside` it) with `fixes` made, written as one GLB.
/// Refused, with the reason, when the file cannot be read or the written file would
/// still not open (a problem no fix asked for mends).
pub fn repair(bytes: &[u8], beside: &Beside<'_>, fixes: &[Fix]) -> Result<Repaired, ModelError> {
    let mut changes = Vec::new();
    let glb = write(bytes, beside, |document, buffers| {
        let hierarchy = nodes::hierarchy(document, &mut Vec::new())?;
        let mut edits = Vec::new();
        let kept = influences(document, buffers, fixes, &mut edits, &mut changes);
        let skins = (document, buffers, &hierarchy);
        inverse_binds(skins, fixes, &kept, &mut edits, &mut changes);
        if fixes.contains(&Fix::Rotations) {
            rotations(document, buffers, &mut edits, &mut changes);
        }
        Ok(edits)
    })?;
    let model = crate::load_with(&glb, beside).map_err(|e| {
        ModelError::new(format!(
            "even with {} the file would not open: {e}",
            if changes.is_empty() {
                "the fixes asked for".to_owned()
            } else {
                format!("{} changes", changes.len())
            }
        ))
    })?;
    Ok(Repaired {
        glb,
        model,
        changes,
    })
}

/// How many vertices of one primitive each influence fix touched.
#[derive(Default)]
struct Touched {
    renormalised: usize,
    kept_four: usize,
    most_dropped: f32,
    invalid: usize,
    unweighted: usize,
    twice: usize,
    zeros: usize,
}

/// One skinned primitive's influences as the fixes leave them.
struct Mended {
    mesh: usize,
    primitive: usize,
    skin: usize,
    label: String,
    vertices: usize,
    /// How many sets of four the file had, and how many are written.
    sets_in: usize,
    sets_out: usize,
    /// Every vertex's `4 × sets_out` slots, joint and weight.
    slots: Vec<(u32, f32)>,
    changed: bool,
    touched: Touched,
}

/// The influence fixes, primitive by primitive: a new `JOINTS_n`/`WEIGHTS_n` for each
/// primitive with a vertex that changed, and the lines saying how many. With
/// [`Fix::Unused`], each skin's list loses the joints no vertex weighs: what each
/// skin keeps, by its old joint numbers (`None`: its list stays).
fn influences(
    document: &Document,
    buffers: &Buffers,
    fixes: &[Fix],
    edits: &mut Vec<Edit>,
    changes: &mut Vec<Change>,
) -> Vec<Option<Vec<usize>>> {
    let mut mended = Vec::new();
    // Skins whose weights are not all known here: their lists are kept whole.
    let mut unknown = Vec::new();
    let mut skin_of_mesh: Vec<(usize, usize)> = Vec::new();
    for node in &document.nodes {
        let (Some(mesh), Some(skin)) = (node.mesh, node.skin) else {
            continue;
        };
        // A mesh placed by several nodes is mended once; placed under two skins, its
        // joint numbers mean two lists, and neither loses a joint.
        if let Some(&(_, first)) = skin_of_mesh.iter().find(|(m, _)| *m == mesh) {
            if first != skin {
                unknown.extend([first, skin]);
            }
            continue;
        }
        skin_of_mesh.push((mesh, skin));
        let joint_count = document.skins[skin].joints.len();
        let mesh = &document.meshes[mesh];
        let mesh_label = match mesh.name.as_deref().filter(|s| !s.is_empty()) {
            Some(name) => format!("mesh {} {}", mesh.index, quoted(name)),
            None => format!("mesh {}", mesh.index),
        };
        for primitive in &mesh.primitives {
            let label = format!("{mesh_label} primitive {}", primitive.index);
            let vertices = match primitive.get("POSITION") {
                Some(Ok(position)) => position.count,
                _ => continue,
            };
            // A primitive whose sets cannot be read is left as it is; the check of the
            // written file names why.
            let Ok((sets, tolerance)) =
                meshes::influence_sets(buffers, primitive, &label, vertices, skin)
            else {
                unknown.push(skin);
                continue;
            };
            let sets_out = if fixes.contains(&Fix::KeepFour) {
                1
            } else {
                sets.len()
            };
            let mut touched = Touched::default();
            let mut slots = Vec::with_capacity(sets.len() * 4);
            let mut out = Vec::with_capacity(vertices * sets_out * 4);
            let mut changed = sets_out < sets.len();
            for v in 0..vertices {
                vertex_slots(&sets, v, &mut slots);
                let before = slots.clone();
                mend(&mut slots, joint_count, tolerance, fixes, &mut touched);
                changed |= slots != before;
                out.extend_from_slice(&slots[..sets_out * 4]);
            }
            mended.push(Mended {
                mesh: mesh.index,
                primitive: primitive.index,
                skin,
                label,
                vertices,
                sets_in: sets.len(),
                sets_out,
                slots: out,
                changed,
                touched,
            });
        }
    }
    let kept: Vec<Option<Vec<usize>>> = (document.skins.iter())
        .map(|skin| {
            let index = skin.index;
            let mine = mended.iter().filter(|m| m.skin == index);
            if !fixes.contains(&Fix::Unused)
                || unknown.contains(&index)
                || mine.clone().next().is_none()
            {
                return None;
            }
            let count = skin.joints.len();
            let mut used = vec![false; count];
            for &(j, w) in mine.flat_map(|m| &m.slots) {
                if w > 0.0 && (j as usize) < count {
                    used[j as usize] = true;
                }
            }
            let keep: Vec<usize> = (0..count).filter(|&j| used[j]).collect();
            (!keep.is_empty() && keep.len() < count).then_some(keep)
        })
        .collect();
    for (skin, keep) in kept.iter().enumerate() {
        let Some(keep) = keep else { continue };
        let mut new = vec![0u32; document.skins[skin].joints.len()];
        for (n, &old) in keep.iter().enumerate() {
            new[old] = n as u32;
        }
        for m in mended.iter_mut().filter(|m| m.skin == skin) {
            for (j, w) in &mut m.slots {
                *j = if *w > 0.0 { new[*j as usize] } else { 0 };
            }
            m.changed = true;
        }
        let joints = &document.skins[skin].joints;
        let label = match document.skins[skin]
            .name
            .as_deref()
            .filter(|s| !s.is_empty())
        {
            Some(name) => format!("skin {skin} {}", quoted(name)),
            None => format!("skin {skin}"),
        };
        changes.push(Change {
            fix: Fix::Unused,
            touched: joints.len() - keep.len(),
            line: format!(
                "{label}: {} of {} joints weigh no vertex; left out of its list",
                joints.len() - keep.len(),
                joints.len()
            ),
        });
        edits.push(Edit::SkinJoints {
            skin,
            joints: keep.iter().map(|&j| joints[j]).collect(),
        });
    }
    for m in mended.into_iter().filter(|m| m.changed) {
        let sets = (m.sets_out, m.sets_in);
        weight_edits((m.mesh, m.primitive), m.vertices, &m.slots, sets, edits);
        (m.touched).say(&m.label, m.vertices, m.sets_in, m.sets_out, changes);
    }
    kept
}

/// The edits that give primitive `(mesh, primitive)` the influences `slots` (every
/// vertex's `4 × sets_out` slots, joint and weight): a new `JOINTS_n`/`WEIGHTS_n` for
/// each set written, and the sets the file had past them (`sets_in`) left out.
fn weight_edits(
    (mesh, primitive): (usize, usize),
    vertices: usize,
    slots: &[(u32, f32)],
    (sets_out, sets_in): (usize, usize),
    edits: &mut Vec<Edit>,
) {
    let four = |v: usize, set: usize| &slots[(v * sets_out + set) * 4..][..4];
    for set in 0..sets_out {
        // A joint past a u16 is past any skin this loader opens.
        let joints: Vec<[u16; 4]> = (0..vertices)
            .map(|v| std::array::from_fn(|i| four(v, set)[i].0.min(0xFFFF) as u16))
            .collect();
        let weights: Vec<[f32; 4]> = (0..vertices)
            .map(|v| std::array::from_fn(|i| four(v, set)[i].1))
            .collect();
        for (attribute, data) in [
            (format!("JOINTS_{set}"), NewAccessor::joints(&joints)),
            (format!("WEIGHTS_{set}"), NewAccessor::vec4(&weights)),
        ] {
            let place = Place::Attribute {
                mesh,
                primitive,
                attribute,
            };
            edits.push(Edit::Accessor { place, data });
        }
    }
    for set in sets_out..sets_in {
        for attribute in [format!("JOINTS_{set}"), format!("WEIGHTS_{set}")] {
            edits.push(Edit::Drop {
                mesh,
                primitive,
                attribute,
            });
        }
    }
}

/// One skinned primitive's weights as a brush left them: for each of its vertices, four
/// joints (into its skin's list) and their weights.
#[derive(Clone, Debug, PartialEq)]
pub struct Painted {
    /// The mesh's index in the file.
    pub mesh: usize,
    /// The primitive's index in its mesh.
    pub primitive: usize,
    /// One set of four a vertex, in the primitive's vertex order.
    pub influences: Vec<StoredInfluences>,
}

/// The file `bytes` with each primitive of `painted` given its painted weights (one set
/// of four), written as one GLB, and the model it opens to. Refused, with the reason,
/// when a primitive is not in the file, its vertex count differs, it has a second set
/// of four (a vertex left unpainted would lose it), or the written file would not open
/// (a joint past its skin's list, say).
pub fn paint(
    bytes: &[u8],
    beside: &Beside<'_>,
    painted: &[Painted],
) -> Result<(Vec<u8>, Model), ModelError> {
    let glb = write(bytes, beside, |document, _| {
        let mut edits = Vec::new();
        for p in painted {
            let primitive = (document.meshes.get(p.mesh))
                .and_then(|mesh| mesh.primitives.get(p.primitive))
                .ok_or_else(|| {
                    ModelError::new(format!(
                        "the file has no primitive {} in mesh {}",
                        p.primitive, p.mesh
                    ))
                })?;
            let vertices = match primitive.get("POSITION") {
                Some(Ok(position)) => position.count,
                Some(Err(e)) => return Err(e),
                None => 0,
            };
            if vertices != p.influences.len() {
                return Err(ModelError::new(format!(
                    "mesh {} primitive {} has {vertices} vertices, and {} were painted",
                    p.mesh,
                    p.primitive,
                    p.influences.len()
                )));
            }
            let sets_in = (0..)
                .take_while(|n| primitive.get(&format!("JOINTS_{n}")).is_some())
                .count();
            // A vertex painted keeps four weights; one not painted would lose its
            // second set's.
            if sets_in > 1 {
                return Err(ModelError::new(format!(
                    "mesh {} primitive {} keeps {} influences a vertex (JOINTS_1): \
                     repair it to four (keep four) before painting",
                    p.mesh,
                    p.primitive,
                    4 * sets_in
                )));
            }
            let slots: Vec<(u32, f32)> = (p.influences.iter())
                .flat_map(|s| s.joints.into_iter().zip(s.weights))
                .collect();
            weight_edits(
                (p.mesh, p.primitive),
                vertices,
                &slots,
                (1, sets_in),
                &mut edits,
            );
        }
        Ok(edits)
    })?;
    let model = crate::load_with(&glb, beside)
        .map_err(|e| ModelError::new(format!("the painted file would not open: {e}")))?;
    Ok((glb, model))
}

/// Vertex `v`'s slots, joint and weight, set after set.
fn vertex_slots(sets: &[InfluenceSet], v: usize, slots: &mut Vec<(u32, f32)>) {
    slots.clear();
    for (joints, weights) in sets {
        slots.extend((v * 4..v * 4 + 4).map(|s| (joints[s], weights[s])));
    }
}

/// The influence fixes asked for, made on one vertex's slots.
fn mend(
    slots: &mut [(u32, f32)],
    joint_count: usize,
    tolerance: f32,
    fixes: &[Fix],
    touched: &mut Touched,
) {
    let valid =
        |(j, w): (u32, f32)| w.is_finite() && w >= 0.0 && (w == 0.0 || (j as usize) < joint_count);
    if fixes.contains(&Fix::Influences) {
        if !slots.iter().all(|&s| valid(s)) {
            touched.invalid += 1;
            let strongest = (slots.iter().copied())
                .filter(|&s| valid(s) && s.1 > 0.0)
                .max_by(|a, b| a.1.total_cmp(&b.1))
                .map_or(0, |(j, _)| j);
            slots.fill((0, 0.0));
            slots[0] = (strongest, 1.0);
        }
        // The same joint twice: one slot with both weights.
        let mut merged = false;
        for i in 0..slots.len() {
            for k in i + 1..slots.len() {
                if slots[k].1 > 0.0 && slots[i].1 > 0.0 && slots[k].0 == slots[i].0 {
                    slots[i].1 += slots[k].1;
                    slots[k] = (0, 0.0);
                    merged = true;
                }
            }
        }
        touched.twice += usize::from(merged);
        if slots.iter().all(|s| s.1 == 0.0) {
            touched.unweighted += 1;
            slots[0] = (0, 1.0);
        }
    }
    if !slots.iter().all(|&s| valid(s)) {
        return;
    }
    if fixes.contains(&Fix::KeepFour) {
        let used = slots.iter().filter(|s| s.1 > 0.0).count();
        if used > MAX_INFLUENCES {
            let sum: f32 = slots.iter().map(|s| s.1).sum();
            skin::influences::sort_by_weight(slots);
            let dropped: f32 = slots[MAX_INFLUENCES..].iter().map(|s| s.1).sum();
            slots[MAX_INFLUENCES..].fill((0, 0.0));
            let kept = sum - dropped;
            for s in &mut slots[..MAX_INFLUENCES] {
                s.1 /= kept;
            }
            touched.kept_four += 1;
            touched.most_dropped = touched.most_dropped.max(dropped / sum);
        } else if slots.len() > MAX_INFLUENCES {
            // Fewer than five used, spread over two sets: the used ones first, each group
            // in its own order (a used slot rotates in ahead of the unused ones before it).
            let mut next = 0;
            for i in 0..slots.len() {
                if slots[i].1 != 0.0 {
                    slots[next..=i].rotate_right(1);
                    next += 1;
                }
            }
        }
    }
    if fixes.contains(&Fix::Renormalise) {
        let sum: f32 = slots.iter().map(|s| s.1).sum();
        if sum.is_finite() && sum > 0.0 && (sum - 1.0).abs() > tolerance {
            touched.renormalised += 1;
            for s in slots.iter_mut() {
                s.1 /= sum;
            }
        }
    }
    if fixes.contains(&Fix::ZeroWeights) {
        let mut cleared = false;
        for s in slots.iter_mut().filter(|s| s.1 == 0.0 && s.0 != 0) {
            s.0 = 0;
            cleared = true;
        }
        touched.zeros += usize::from(cleared);
    }
}

impl Touched {
    /// A line for each fix that touched a vertex of the primitive `label`.
    fn say(
        &self,
        label: &str,
        vertices: usize,
        sets: usize,
        sets_out: usize,
        changes: &mut Vec<Change>,
    ) {
        let mut line = |fix, touched: usize, text: String| {
            if touched > 0 {
                changes.push(Change {
                    fix,
                    touched,
                    line: format!("{label}: {text}"),
                });
            }
        };
        line(
            Fix::Influences,
            self.invalid,
            format!(
                "{} of {vertices} vertices with a weight that is not a number or negative, or a \
                 joint past the skin's list, now follow their strongest valid joint alone",
                self.invalid
            ),
        );
        line(
            Fix::Influences,
            self.twice,
            format!(
                "{} of {vertices} vertices named a joint twice; its weights were added",
                self.twice
            ),
        );
        line(
            Fix::Influences,
            self.unweighted,
            format!(
                "{} of {vertices} vertices with no weight now follow joint 0",
                self.unweighted
            ),
        );
        line(
            Fix::KeepFour,
            self.kept_four,
            format!(
                "{} of {vertices} vertices kept their four largest weights, renormalised \
                 (at most {:.1}% of a vertex's weight dropped)",
                self.kept_four,
                self.most_dropped * 100.0
            ),
        );
        if sets_out < sets {
            line(
                Fix::KeepFour,
                sets - sets_out,
                format!(
                    "JOINTS_1 to JOINTS_{} and their weights are no longer read: one set of four",
                    sets - 1
                ),
            );
        }
        line(
            Fix::Renormalise,
            self.renormalised,
            format!(
                "the weights of {} of {vertices} vertices renormalised to sum to 1",
                self.renormalised
            ),
        );
        line(
            Fix::ZeroWeights,
            self.zeros,
            format!(
                "{} of {vertices} vertices listed a joint with weight 0; written as joint 0",
                self.zeros
            ),
        );
    }
}

/// [`Fix::InverseBinds`] and [`Fix::Rebind`]: a new list of inverse binds for each skin
/// with one recomputed from the rest pose, or with fewer joints (`kept`, by skin).
fn inverse_binds(
    (document, buffers, hierarchy): (&Document, &Buffers, &Hierarchy),
    fixes: &[Fix],
    kept: &[Option<Vec<usize>>],
    edits: &mut Vec<Edit>,
    changes: &mut Vec<Change>,
) {
    let rest = hierarchy.rest_world();
    let rebind = fixes.contains(&Fix::Rebind);
    for skin in &document.skins {
        let label = match skin.name.as_deref().filter(|s| !s.is_empty()) {
            Some(name) => format!("skin {} {}", skin.index, quoted(name)),
            None => format!("skin {}", skin.index),
        };
        let stored: Vec<Mat4> = match &skin.inverse_bind_matrices {
            Some(ibm) => {
                let what = format!("{label} inverse bind matrices");
                accessor::floats(buffers, ibm, &what, Dimensions::Mat4, FLOAT)
                    .map(|flat| flat.chunks_exact(16).map(Mat4::from_cols_slice).collect())
                    .unwrap_or_default()
            }
            // None stored: each is the identity, as glTF says.
            None => vec![Mat4::IDENTITY; skin.joints.len()],
        };
        let mut matrices = Vec::with_capacity(skin.joints.len());
        let (mut mended, mut rebound, mut flat_rest) = (0, 0, Vec::new());
        for (j, &node) in skin.joints.iter().enumerate() {
            let world = rest[hierarchy.joint_of_node[node]];
            // An inverse bind's last row is exactly 0, 0, 0, 1, as glTF asks.
            let mut rest_bind = world.inverse();
            (rest_bind.x_axis.w, rest_bind.y_axis.w, rest_bind.z_axis.w) = (0.0, 0.0, 0.0);
            rest_bind.w_axis.w = 1.0;
            let usable = (world.is_finite() && flatness(&world) >= FLATNESS).then_some(rest_bind);
            let old = stored.get(j).copied();
            let broken = old.is_none_or(|m| !m.is_finite() || flatness(&m) < FLATNESS);
            let off_rest = broken
                || old.is_some_and(|m| {
                    let size = m.to_cols_array().iter().fold(1.0f32, |a, v| a.max(v.abs()));
                    !(m * world).abs_diff_eq(Mat4::IDENTITY, 1e-4 * size)
                });
            let mend = broken && fixes.contains(&Fix::InverseBinds);
            let new = match (mend || (rebind && off_rest), usable) {
                (true, Some(m)) => {
                    if mend {
                        mended += 1;
                    } else {
                        rebound += 1;
                    }
                    m
                }
                (true, None) => {
                    flat_rest.push(hierarchy.node_label(node));
                    old.unwrap_or(Mat4::IDENTITY)
                }
                (false, _) => old.unwrap_or(Mat4::IDENTITY),
            };
            matrices.push(new);
        }
        let joints = skin.joints.len();
        if mended > 0 {
            changes.push(Change {
                fix: Fix::InverseBinds,
                touched: mended,
                line: format!(
                    "{label}: {mended} of {joints} inverse binds (missing, not finite or \
                     singular) recomputed at the rest pose"
                ),
            });
        }
        if rebound > 0 {
            changes.push(Change {
                fix: Fix::Rebind,
                touched: rebound,
                line: format!(
                    "{label}: {rebound} of {joints} inverse binds recomputed at the rest pose"
                ),
            });
        }
        if !flat_rest.is_empty() {
            changes.push(Change {
                fix: Fix::InverseBinds,
                touched: 0,
                line: format!(
                    "{label}: {} rests flat, with no inverse; left as it was",
                    flat_rest.join(", ")
                ),
            });
        }
        // A skin that lost joints keeps the inverse binds of those it kept.
        let kept = kept.get(skin.index).and_then(Option::as_ref);
        if let Some(kept) = kept {
            matrices = kept.iter().map(|&j| matrices[j]).collect();
        }
        if mended + rebound > 0 || kept.is_some() {
            edits.push(Edit::Accessor {
                place: Place::InverseBinds { skin: skin.index },
                data: NewAccessor::mat4(&matrices),
            });
        }
    }
}

/// How far from 1 a rotation's length may be and still count as a unit quaternion.
const UNIT: f32 = 1e-5;

/// A quaternion of length 1: divided by its length, the identity for the zero one;
/// `None` when it already has length 1.
fn unit(q: Quat) -> Option<Quat> {
    let length = q.length();
    if (length - 1.0).abs() <= UNIT {
        None
    } else if length < 1e-6 || !length.is_finite() {
        Some(Quat::IDENTITY)
    } else {
        Some(q / length)
    }
}

/// [`Fix::Rotations`]: each node's rotation, and each rotation key of a clip (a cubic
/// spline's tangents left as they are), of length 1.
fn rotations(
    document: &Document,
    buffers: &Buffers,
    edits: &mut Vec<Edit>,
    changes: &mut Vec<Change>,
) {
    let mut nodes = 0;
    for node in &document.nodes {
        if let NodeTransform::Decomposed { rotation, .. } = node.transform
            && let Some(q) = unit(Quat::from_array(rotation))
        {
            nodes += 1;
            edits.push(Edit::Rotation {
                node: node.index,
                rotation: q.to_array(),
            });
        }
    }
    if nodes > 0 {
        changes.push(Change {
            fix: Fix::Rotations,
            touched: nodes,
            line: format!(
                "the rotations of {nodes} of {} nodes divided by their length",
                document.nodes.len()
            ),
        });
    }
    for animation in document.animations.iter().filter(|a| a.broken.is_none()) {
        let label = match animation.name.as_deref().filter(|s| !s.is_empty()) {
            Some(name) => format!("animation {} {}", animation.index, quoted(name)),
            None => format!("animation {}", animation.index),
        };
        let mut done: Vec<usize> = Vec::new();
        let (mut keys, mut all) = (0, 0);
        for channel in &animation.channels {
            if channel.property != Property::Rotation || done.contains(&channel.sampler_index) {
                continue;
            }
            done.push(channel.sampler_index);
            let output = &channel.sampler.output;
            let Ok(flat) = accessor::floats(buffers, output, &label, Dimensions::Vec4, NORMALIZED)
            else {
                continue;
            };
            let mut values: Vec<[f32; 4]> = flat
                .chunks_exact(4)
                .map(|q| [q[0], q[1], q[2], q[3]])
                .collect();
            // A cubic spline stores an in-tangent, the value and an out-tangent a key.
            let (first, step) = match channel.sampler.interpolation {
                Interpolation::CubicSpline => (1, 3),
                _ => (0, 1),
            };
            let mut changed = 0;
            for value in values.iter_mut().skip(first).step_by(step) {
                all += 1;
                if let Some(q) = unit(Quat::from_array(*value)) {
                    *value = q.to_array();
                    changed += 1;
                }
            }
            if changed > 0 {
                keys += changed;
                edits.push(Edit::Accessor {
                    place: Place::Output {
                        animation: animation.index,
                        sampler: channel.sampler_index,
                    },
                    data: NewAccessor::vec4(&values),
                });
            }
        }
        if keys > 0 {
            changes.push(Change {
                fix: Fix::Rotations,
                touched: keys,
                line: format!("{label}: {keys} of {all} rotation keys divided by their length"),
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Fix, Touched, mend};

    #[test]
    fn keep_four_moves_the_used_slots_of_two_sets_ahead_each_group_in_order() {
        // Three joints used over two sets of four: nothing is dropped, but the used ones
        // must come first so that the first set holds them all.
        let mut slots = [
            (1, 0.0),
            (2, 0.5),
            (3, 0.0),
            (4, 0.0),
            (5, 0.25),
            (6, 0.0),
            (7, 0.25),
            (8, 0.0),
        ];
        let mut touched = Touched::default();
        mend(&mut slots, 9, 1e-3, &[Fix::KeepFour], &mut touched);
        assert_eq!(
            slots,
            [
                (2, 0.5),
                (5, 0.25),
                (7, 0.25),
                (1, 0.0),
                (3, 0.0),
                (4, 0.0),
                (6, 0.0),
                (8, 0.0),
            ]
        );
        assert_eq!(touched.kept_four, 0, "nothing was dropped");
    }

    #[test]
    fn every_fix_is_all_of_repair_all_then_the_two_asked_for_by_name() {
        assert_eq!(Fix::EVERY[..Fix::ALL.len()], Fix::ALL);
        assert_eq!(Fix::EVERY[Fix::ALL.len()..], [Fix::Unused, Fix::Rebind]);
        // Each name reads back as its fix.
        for fix in Fix::EVERY {
            assert_eq!(Fix::named(fix.name()), Some(fix));
        }
    }
}
