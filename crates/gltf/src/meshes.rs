//! Mesh primitives: positions, normals, tangents and triangles, and for a skinned mesh
//! four influences per vertex.

use super::accessor::{self, NORMALIZED, QUANTIZED, UNIT_VECTOR};
use super::container::{
    Buffers, MAX_DECODED, MAX_MESH_PARTS, MAX_MORPH_OFFSETS, MAX_MORPH_TARGETS, MAX_VERTICES,
};
use super::document::{self, Accessor, DataType, Dimensions, Document, Mode};
use super::nodes::Hierarchy;
use super::{MeshPart, ModelError, RigidMesh, Skin, SkinnedMesh, StoredInfluences, quoted};
use glam::{Mat4, Vec3};
use skin::lbs::SkinMesh;
use skin::morph::MorphTarget;
use skin::{Influences, MAX_INFLUENCES};

/// Every mesh the nodes place, split into skinned and rigid.
pub(super) struct Meshes {
    pub skinned: Vec<SkinnedMesh>,
    pub rigid: Vec<RigidMesh>,
}

/// How many numbers reading every node's mesh would decode, counted from the accessors'
/// declared sizes before any is read: each primitive's indices and the attributes the
/// loader reads, once for every node that places the mesh.
fn planned_numbers(document: &Document) -> usize {
    let read = |name: &str| {
        matches!(name, "POSITION" | "NORMAL" | "TANGENT")
            || name.starts_with("JOINTS_")
            || name.starts_with("WEIGHTS_")
            || name.starts_with("TEXCOORD_")
            || name == "COLOR_0"
    };
    // An accessor past the budget on its own is refused by its own read, with a
    // sharper reason; here only what many reads add up to counts.
    let numbers = |a: &Accessor| {
        let n = a.count.saturating_mul(accessor::dims_count(a.dimensions));
        if n > MAX_DECODED { 0 } else { n }
    };
    document
        .nodes
        .iter()
        .filter_map(|node| document.meshes.get(node.mesh?))
        .flat_map(|mesh| &mesh.primitives)
        .flat_map(|p| {
            let attributes = p.attributes.iter().filter(|(name, _)| read(name));
            let targets = p.targets.iter().filter_map(|t| t.as_ref().ok()).flatten();
            let attributes = attributes
                .chain(targets)
                .filter_map(|(_, a)| a.as_ref().ok());
            attributes.chain(&p.indices).map(numbers)
        })
        .fold(0, usize::saturating_add)
}

/// How many vertices the meshes every node places have, counted from the POSITION
/// accessors' declared sizes before any is read. One accessor past the limit on its own
/// is refused by its own read, with a sharper reason; here only what many add up to
/// counts.
fn planned_vertices(document: &Document) -> usize {
    document
        .nodes
        .iter()
        .filter_map(|node| document.meshes.get(node.mesh?))
        .flat_map(|mesh| &mesh.primitives)
        .filter_map(|p| Some(p.get("POSITION")?.ok()?.count))
        .filter(|&count| count <= MAX_VERTICES)
        .fold(0, usize::saturating_add)
}

/// Reads the meshes of every node that has one.
pub(super) fn meshes(
    document: &Document,
    buffers: &Buffers,
    hierarchy: &Hierarchy,
    skins: &[Skin],
    warnings: &mut Vec<String>,
    notes: &mut Vec<String>,
) -> Result<Meshes, ModelError> {
    let parts: usize = (document.nodes.iter())
        .filter_map(|node| document.meshes.get(node.mesh?))
        .map(|mesh| mesh.primitives.len())
        .sum();
    if parts > MAX_MESH_PARTS {
        return Err(ModelError::new(format!(
            "the nodes place {parts} mesh primitives in all (a mesh placed by several nodes \
             counts once for each), more than the page draws ({MAX_MESH_PARTS})"
        )));
    }
    let vertices = planned_vertices(document);
    if vertices > MAX_VERTICES {
        return Err(ModelError::new(format!(
            "the meshes the nodes place have {vertices} vertices in all (a mesh placed by \
             several nodes counts once for each), more than the page draws ({MAX_VERTICES})"
        )));
    }
    let most_targets = (document.meshes.iter())
        .flat_map(|mesh| mesh.primitives.iter().map(move |p| (mesh.index, p)))
        .max_by_key(|(_, p)| p.targets.len());
    if let Some((mesh, p)) = most_targets.filter(|(_, p)| p.targets.len() > MAX_MORPH_TARGETS) {
        return Err(ModelError::new(format!(
            "mesh {mesh} primitive {} has {} morph targets, more than the page applies \
             ({MAX_MORPH_TARGETS})",
            p.index,
            p.targets.len()
        )));
    }
    let planned = planned_numbers(document);
    if planned > MAX_DECODED {
        return Err(ModelError::new(format!(
            "the meshes the nodes place would decode to {planned} numbers (a mesh placed by \
             several nodes, or an accessor shared by several primitives, counts once for \
             each), more than this loader reads ({MAX_DECODED})"
        )));
    }
    let rest_world = hierarchy.rest_world();
    let mut out = Meshes {
        skinned: Vec::new(),
        rigid: Vec::new(),
    };
    // Each mesh with morph targets, and their names.
    let mut morphed: Vec<(String, String)> = Vec::new();
    let mut unlit: Vec<String> = Vec::new();
    let mut users: Vec<String> = Vec::new();
    for node in &document.nodes {
        let Some(mesh) = node.mesh.map(|m| &document.meshes[m]) else {
            continue;
        };
        let joint = hierarchy.joint_of_node[node.index];
        let skin = node.skin;
        if let Some(skin) = skin {
            users.push(format!(
                "mesh {} on {} uses skin {skin}",
                mesh.index,
                hierarchy.node_label(node.index)
            ));
            if !rest_world[joint].abs_diff_eq(Mat4::IDENTITY, 1e-5) {
                notes.push(ignored_transform(hierarchy, joint, mesh.index, skin));
            }
        }
        let mesh_name = mesh.name.as_deref().filter(|s| !s.is_empty());
        let mesh_label = match mesh_name {
            Some(name) => format!("mesh {} {}", mesh.index, quoted(name)),
            None => format!("mesh {}", mesh.index),
        };
        let primitive_count = mesh.primitives.len();
        for primitive in &mesh.primitives {
            let label = format!("{mesh_label} primitive {}", primitive.index);
            if !primitive.targets.is_empty() && !morphed.iter().any(|(l, _)| *l == mesh_label) {
                let names = (0..primitive.targets.len()).map(|t| target_name(mesh, t));
                morphed.push((mesh_label.clone(), names.collect::<Vec<_>>().join(", ")));
            }
            let Some(mut part) = geometry(buffers, primitive, &label, warnings)? else {
                continue;
            };
            if part.vertices.normals.is_empty() {
                part.vertices.normals =
                    skin::normals::smooth_normals(&part.vertices.positions, &part.indices);
                if !unlit.contains(&mesh_label) {
                    unlit.push(mesh_label.clone());
                }
            }
            part.material = primitive.material;
            let texture = primitive
                .material
                .and_then(|m| document.materials.get(m)?.texture);
            if let Some(texture) = texture {
                part.uvs = uvs(buffers, primitive, &label, texture.uv_set, &part, warnings);
                for uv in &mut part.uvs {
                    *uv = texture.transform.transform_point2((*uv).into()).into();
                }
            }
            part.colors = colors(buffers, primitive, &label, &part, warnings);
            (part.targets, part.morph_weights) =
                morph_targets(buffers, primitive, mesh, node, &label, &part, warnings);
            part.name = mesh_name
                .or(node.name.as_deref().filter(|s| !s.is_empty()))
                .map_or_else(|| format!("mesh {}", mesh.index), str::to_owned);
            if primitive_count > 1 {
                part.name = format!("{} #{}", part.name, primitive.index);
            }
            part.mesh = mesh.index;
            part.primitive = primitive.index;
            part.node = node.index;
            match skin {
                Some(skin) => {
                    let joint_count = skins.get(skin).map_or(0, |s| s.joints.len());
                    let (prepared, stored) = influences(
                        buffers,
                        primitive,
                        &label,
                        part.vertices.positions.len(),
                        skin,
                        joint_count,
                        warnings,
                    )?;
                    part.vertices.influences = prepared;
                    out.skinned.push(SkinnedMesh { part, skin, stored });
                }
                None => {
                    part.vertices.influences =
                        vec![Influences::rigid(0); part.vertices.positions.len()];
                    out.rigid.push(RigidMesh { part, joint });
                }
            }
        }
    }
    for (mesh, names) in morphed {
        notes.push(format!("{mesh} has morph targets: {names}"));
    }
    if !unlit.is_empty() {
        notes.push(format!(
            "{} {} no normals; each vertex's normal is computed from the triangles around it",
            unlit.join(", "),
            if unlit.len() == 1 { "has" } else { "have" }
        ));
    }
    if skins.len() > 1 {
        // Which mesh uses which skin: the first few, then how many more.
        let shown = 5;
        let mut listed = users
            .iter()
            .take(shown)
            .cloned()
            .collect::<Vec<_>>()
            .join("; ");
        if users.len() > shown {
            listed += &format!("; and {} more", users.len() - shown);
        }
        notes.push(format!("{} skins: {listed}", skins.len()));
    }
    Ok(out)
}

/// The note for a skinned mesh whose node is moved by its own or its parents'
/// transforms, which glTF says to ignore.
fn ignored_transform(hierarchy: &Hierarchy, joint: usize, mesh: usize, skin: usize) -> String {
    let node = hierarchy.joints[joint].node;
    let movers: Vec<String> = hierarchy
        .skeleton
        .path_from_root(joint)
        .into_iter()
        .filter(|&j| {
            !hierarchy.rest[j]
                .to_mat4()
                .abs_diff_eq(Mat4::IDENTITY, 1e-6)
        })
        .map(|j| hierarchy.node_label(hierarchy.joints[j].node))
        .collect();
    format!(
        "{} carries mesh {mesh}, skinned by skin {skin}, under a transform (from {}); as the \
         glTF spec says, that transform is ignored: the joints alone place a skinned mesh",
        hierarchy.node_label(node),
        movers.join(", ")
    )
}

/// Morph target `t`'s name: the mesh's `extras.targetNames` entry, or `target t`.
fn target_name(mesh: &document::Mesh, t: usize) -> String {
    (mesh.target_names.get(t))
        .filter(|name| !name.is_empty())
        .cloned()
        .unwrap_or_else(|| format!("target {t}"))
}

/// A primitive's morph targets and the weights it rests at (the node's `weights`, else
/// the mesh's, else zeros). A target that cannot be read is kept empty, so the weights
/// still line up with the targets, and a weights list of the wrong length is passed
/// over: each with a warning naming it.
fn morph_targets(
    buffers: &Buffers,
    primitive: &document::Primitive,
    mesh: &document::Mesh,
    node: &document::Node,
    label: &str,
    part: &MeshPart,
    warnings: &mut Vec<String>,
) -> (Vec<MorphTarget>, Vec<f32>) {
    let count = primitive.targets.len();
    let vertices = part.vertices.positions.len();
    let mut targets = Vec::with_capacity(count);
    // Too many to draw: the names and weights stay, the offsets are left out.
    let fits = vertices.saturating_mul(count) <= MAX_MORPH_OFFSETS;
    if !fits {
        warnings.push(format!(
            "{label}: its {count} morph targets of {vertices} vertices make more offsets than \
             a GPU is sure to hold ({MAX_MORPH_OFFSETS}); they were left out"
        ));
    }
    let first_count = mesh.primitives.first().map_or(0, |p| p.targets.len());
    if count != first_count {
        warnings.push(format!(
            "{label} has {count} morph targets, but primitive 0 of its mesh has {first_count} \
             (glTF asks the same of every primitive); the clips' weights pass it by"
        ));
    }
    for (t, target) in primitive.targets.iter().enumerate() {
        let name = target_name(mesh, t);
        if !fits {
            targets.push(MorphTarget {
                name,
                ..Default::default()
            });
            continue;
        }
        let read = |attributes: &document::Attributes| {
            let mut out = MorphTarget {
                name: name.clone(),
                ..Default::default()
            };
            for (attribute, accessor) in attributes {
                let (list, formats) = match attribute.as_str() {
                    "POSITION" => (&mut out.positions, QUANTIZED),
                    "NORMAL" => (&mut out.normals, UNIT_VECTOR),
                    "TANGENT" => (&mut out.tangents, UNIT_VECTOR),
                    _ => continue,
                };
                let accessor = accessor.as_ref().map_err(|e| e.message().to_owned())?;
                let what = format!("{attribute} offsets");
                let flat = accessor::floats(buffers, accessor, &what, Dimensions::Vec3, formats)
                    .map_err(|e| e.message().to_owned())?;
                let got = flat.len() / 3;
                if got != vertices {
                    return Err(format!(
                        "{attribute} has {got} offsets, but the mesh has {vertices} vertices"
                    ));
                }
                if let Some(at) = flat.iter().position(|v| !v.is_finite()) {
                    return Err(format!(
                        "{attribute} offset {} is not a finite number",
                        at / 3
                    ));
                }
                *list = vec3s(&flat);
            }
            Ok(out)
        };
        match target.as_ref().map_err(Clone::clone).and_then(read) {
            Ok(target) => targets.push(target),
            Err(why) => {
                warnings.push(format!(
                    "{label} morph target {t} {} was left out: {why}",
                    quoted(&name)
                ));
                targets.push(MorphTarget {
                    name,
                    ..Default::default()
                });
            }
        }
    }
    // The node's weights, else the mesh's, else zeros; a list that cannot serve is
    // named, and the next one tried.
    let given = [("node", &node.weights), ("mesh", &mesh.weights)];
    for (whose, list) in given
        .into_iter()
        .filter_map(|(w, l)| Some((w, l.as_ref()?)))
    {
        match list {
            Ok(list) if list.len() == count => return (targets, list.clone()),
            Ok(list) => warnings.push(format!(
                "{label}: the {whose}'s weights list {} numbers for {count} morph targets; \
                 it was passed over",
                list.len()
            )),
            Err(why) => warnings.push(format!("{label}: {why}; it was passed over")),
        }
    }
    (targets, vec![0.0; count])
}

fn vec3s(flat: &[f32]) -> Vec<Vec3> {
    flat.chunks_exact(3).map(Vec3::from_slice).collect()
}

fn check_count(label: &str, name: &str, got: usize, vertices: usize) -> Result<(), ModelError> {
    if got == vertices {
        return Ok(());
    }
    Err(ModelError::new(format!(
        "{label}: {name} has {got} elements, but POSITION has {vertices}"
    )))
}

fn check_finite(label: &str, name: &str, values: &[f32], dims: usize) -> Result<(), ModelError> {
    match values.iter().position(|v| !v.is_finite()) {
        None => Ok(()),
        Some(at) => Err(ModelError::new(format!(
            "{label} {name}: vertex {} holds a number that is not finite",
            at / dims
        ))),
    }
}

/// Positions, normals, tangents and triangles; `None` for a primitive that draws no
/// triangles (points and lines), with a warning.
fn geometry(
    buffers: &Buffers,
    primitive: &document::Primitive,
    label: &str,
    warnings: &mut Vec<String>,
) -> Result<Option<MeshPart>, ModelError> {
    let mode = primitive.mode;
    if !matches!(
        mode,
        Mode::Triangles | Mode::TriangleStrip | Mode::TriangleFan
    ) {
        warnings.push(format!(
            "{label} draws {mode:?}, not triangles; it was left out"
        ));
        return Ok(None);
    }
    let Some(position) = primitive.get("POSITION") else {
        return Err(ModelError::new(format!("{label} has no POSITION")));
    };
    let position = position?;
    let what = format!("{label} POSITION");
    let flat = accessor::floats(buffers, position, &what, Dimensions::Vec3, QUANTIZED)?;
    check_finite(label, "POSITION", &flat, 3)?;
    let positions = vec3s(&flat);
    let vertex_count = positions.len();
    if vertex_count > MAX_VERTICES {
        return Err(ModelError::new(format!(
            "{label} has {vertex_count} vertices, more than the page draws ({MAX_VERTICES})"
        )));
    }
    let mut normals = Vec::new();
    if let Some(normal) = primitive.get("NORMAL") {
        let normal = normal?;
        let what = format!("{label} NORMAL");
        let flat = accessor::floats(buffers, normal, &what, Dimensions::Vec3, UNIT_VECTOR)?;
        check_count(label, "NORMAL", flat.len() / 3, vertex_count)?;
        check_finite(label, "NORMAL", &flat, 3)?;
        normals = vec3s(&flat)
            .into_iter()
            .map(Vec3::normalize_or_zero)
            .collect();
    }
    let (mut tangents, mut bitangent_signs) = (Vec::new(), Vec::new());
    if let Some(tangent) = primitive.get("TANGENT") {
        let tangent = tangent?;
        let what = format!("{label} TANGENT");
        let flat = accessor::floats(buffers, tangent, &what, Dimensions::Vec4, UNIT_VECTOR)?;
        check_count(label, "TANGENT", flat.len() / 4, vertex_count)?;
        check_finite(label, "TANGENT", &flat, 4)?;
        for t in flat.chunks_exact(4) {
            tangents.push(Vec3::from_slice(t).normalize_or_zero());
            bitangent_signs.push(if t[3] < 0.0 { -1.0 } else { 1.0 });
        }
    }
    let listed: Vec<u32> = match &primitive.indices {
        Some(indices) => {
            let what = format!("{label} indices");
            let list = accessor::integers(
                buffers,
                indices,
                &what,
                Dimensions::Scalar,
                &[DataType::U8, DataType::U16, DataType::U32],
            )?;
            if let Some((entry, &index)) = list
                .iter()
                .enumerate()
                .find(|(_, i)| **i as usize >= vertex_count)
            {
                return Err(ModelError::new(format!(
                    "{label}: index {index} (entry {entry}) is past the last vertex (there are \
                     {vertex_count})"
                )));
            }
            list
        }
        None => (0..vertex_count as u32).collect(),
    };
    let indices = triangles(&listed, mode, label, warnings);
    Ok(Some(MeshPart {
        name: String::new(),
        mesh: 0,
        primitive: 0,
        node: 0,
        vertices: SkinMesh {
            positions,
            normals,
            tangents,
            influences: Vec::new(),
        },
        bitangent_signs,
        indices,
        material: None,
        uvs: Vec::new(),
        colors: Vec::new(),
        targets: Vec::new(),
        morph_weights: Vec::new(),
    }))
}

/// The texture coordinates `TEXCOORD_{set}` of a primitive whose material has a
/// texture; empty, with a warning, when they are missing or cannot be read (the mesh is
/// then drawn untextured, never refused).
fn uvs(
    buffers: &Buffers,
    primitive: &document::Primitive,
    label: &str,
    set: usize,
    part: &MeshPart,
    warnings: &mut Vec<String>,
) -> Vec<[f32; 2]> {
    let name = format!("TEXCOORD_{set}");
    const FORMATS: &[accessor::Format] = &[
        accessor::Format::Float,
        accessor::Format::Normalized(DataType::U8),
        accessor::Format::Normalized(DataType::U16),
    ];
    let read = || -> Result<Vec<[f32; 2]>, ModelError> {
        let Some(accessor) = primitive.get(&name) else {
            return Err(ModelError::new(format!(
                "{label}: its material's texture reads {name}, which it does not have"
            )));
        };
        let flat = accessor::floats(
            buffers,
            accessor?,
            &format!("{label} {name}"),
            Dimensions::Vec2,
            FORMATS,
        )?;
        check_count(label, &name, flat.len() / 2, part.vertices.positions.len())?;
        check_finite(label, &name, &flat, 2)?;
        Ok(flat.chunks_exact(2).map(|uv| [uv[0], uv[1]]).collect())
    };
    read().unwrap_or_else(|e| {
        warnings.push(format!("{e}; it is drawn without its texture"));
        Vec::new()
    })
}

/// A primitive's vertex colours (`COLOR_0`: three or four numbers a vertex, floats or
/// normalised integers), alpha 1 where there are three; empty when it has none, or,
/// with a warning, when they cannot be read (the mesh is then drawn in its material's
/// colour, never refused).
fn colors(
    buffers: &Buffers,
    primitive: &document::Primitive,
    label: &str,
    part: &MeshPart,
    warnings: &mut Vec<String>,
) -> Vec<[f32; 4]> {
    const FORMATS: &[accessor::Format] = &[
        accessor::Format::Float,
        accessor::Format::Normalized(DataType::U8),
        accessor::Format::Normalized(DataType::U16),
    ];
    let Some(accessor) = primitive.get("COLOR_0") else {
        return Vec::new();
    };
    let read = || -> Result<Vec<[f32; 4]>, ModelError> {
        let accessor = accessor?;
        let what = format!("{label} COLOR_0");
        let three = accessor.dimensions == Dimensions::Vec3;
        let dims = if three {
            Dimensions::Vec3
        } else {
            Dimensions::Vec4
        };
        let flat = accessor::floats(buffers, accessor, &what, dims, FORMATS)?;
        let n = if three { 3 } else { 4 };
        check_count(
            label,
            "COLOR_0",
            flat.len() / n,
            part.vertices.positions.len(),
        )?;
        check_finite(label, "COLOR_0", &flat, n)?;
        Ok(flat
            .chunks_exact(n)
            .map(|c| [c[0], c[1], c[2], c.get(3).copied().unwrap_or(1.0)])
            .collect())
    };
    read().unwrap_or_else(|e| {
        warnings.push(format!("{e}; it is drawn without its vertex colours"));
        Vec::new()
    })
}

/// A triangle list from a list, strip or fan (glTF's vertex order for each).
fn triangles(listed: &[u32], mode: Mode, label: &str, warnings: &mut Vec<String>) -> Vec<u32> {
    match mode {
        Mode::TriangleStrip => (0..listed.len().saturating_sub(2))
            .flat_map(|i| [listed[i], listed[i + 1 + i % 2], listed[i + 2 - i % 2]])
            .collect(),
        Mode::TriangleFan => (1..listed.len().saturating_sub(1))
            .flat_map(|i| [listed[i], listed[i + 1], listed[0]])
            .collect(),
        _ => {
            let whole = listed.len() / 3 * 3;
            if whole < listed.len() {
                warnings.push(format!(
                    "{label}: {} indices are not a whole number of triangles; the last {} \
                     were dropped",
                    listed.len(),
                    listed.len() - whole
                ));
            }
            listed[..whole].to_vec()
        }
    }
}

/// The tolerance on a weight sum: float weights must sum to 1 closely; normalised bytes
/// can only get within a few 1/255 steps.
pub(super) fn sum_tolerance(accessor: &Accessor) -> f32 {
    match accessor.data_type {
        DataType::U8 | DataType::I8 => 0.02,
        _ => 1e-3,
    }
}

/// A sum printed with just enough digits to show it is not 1.
fn sum_text(x: f32) -> String {
    (2..=6)
        .map(|digits| format!("{x:.digits$}"))
        .find(|text| text.parse::<f32>().is_ok_and(|v| v != 1.0))
        .unwrap_or_else(|| format!("{x}"))
}

/// Four influences per vertex from JOINTS_n / WEIGHTS_n, with every repair reported,
/// and set 0 as the file stores it.
fn influences(
    buffers: &Buffers,
    primitive: &document::Primitive,
    label: &str,
    vertex_count: usize,
    skin: usize,
    joint_count: usize,
    warnings: &mut Vec<String>,
) -> Result<(Vec<Influences>, Vec<StoredInfluences>), ModelError> {
    let (sets, tolerance) = influence_sets(buffers, primitive, label, vertex_count, skin)?;
    let mut out = Vec::with_capacity(vertex_count);
    let mut list: Vec<(usize, f32)> = Vec::new();
    let mut repairs = Repairs::default();
    for v in 0..vertex_count {
        vertex_list(&sets, v, label, skin, joint_count, &mut list)?;
        let sum: f32 = list.iter().map(|(_, w)| w).sum();
        if list.is_empty() {
            repairs.unweighted += 1;
            out.push(Influences::rigid(0));
            continue;
        }
        if (sum - 1.0).abs() > tolerance {
            repairs.off_sum += 1;
            repairs.low = repairs.low.min(sum);
            repairs.high = repairs.high.max(sum);
        }
        if list.len() > MAX_INFLUENCES {
            skin::influences::sort_by_weight(&mut list);
            let dropped: f32 = list[MAX_INFLUENCES..].iter().map(|(_, w)| w).sum();
            repairs.truncated += 1;
            repairs.most_dropped = repairs.most_dropped.max(dropped / sum);
        }
        let prepared = Influences::prepare(&list, joint_count)
            .map_err(|e| ModelError::new(format!("{label}: vertex {v}: {e}")))?;
        out.push(prepared);
    }
    repairs.warn(label, sets.len() - 1, skin, warnings);
    let (joints, weights) = &sets[0];
    let stored = joints
        .chunks_exact(4)
        .zip(weights.chunks_exact(4))
        .map(|(j, w)| StoredInfluences {
            joints: [j[0], j[1], j[2], j[3]],
            weights: [w[0], w[1], w[2], w[3]],
        })
        .collect();
    Ok((out, stored))
}

/// One `JOINTS_n` list and its `WEIGHTS_n`, four a vertex.
pub(super) type InfluenceSet = (Vec<u32>, Vec<f32>);

/// Every `JOINTS_n`/`WEIGHTS_n` pair of the primitive, read and counted, and how far
/// from 1 a sum may be for the precision they are stored in.
pub(super) fn influence_sets(
    buffers: &Buffers,
    primitive: &document::Primitive,
    label: &str,
    vertex_count: usize,
    skin: usize,
) -> Result<(Vec<InfluenceSet>, f32), ModelError> {
    let mut sets = Vec::new();
    let mut tolerance = 0.0f32;
    for set in 0u32.. {
        let joints = primitive.get(&format!("JOINTS_{set}"));
        let weights = primitive.get(&format!("WEIGHTS_{set}"));
        let (joints, weights) = match (joints, weights) {
            (None, None) => break,
            (Some(j), Some(w)) => (j?, w?),
            (Some(_), None) | (None, Some(_)) => {
                return Err(ModelError::new(format!(
                    "{label}: JOINTS_{set} and WEIGHTS_{set} must come together, but only one \
                     is there"
                )));
            }
        };
        let joint_list = accessor::integers(
            buffers,
            joints,
            &format!("{label} JOINTS_{set}"),
            Dimensions::Vec4,
            &[DataType::U8, DataType::U16],
        )?;
        let weight_list = accessor::floats(
            buffers,
            weights,
            &format!("{label} WEIGHTS_{set}"),
            Dimensions::Vec4,
            NORMALIZED,
        )?;
        check_count(
            label,
            &format!("JOINTS_{set}"),
            joint_list.len() / 4,
            vertex_count,
        )?;
        check_count(
            label,
            &format!("WEIGHTS_{set}"),
            weight_list.len() / 4,
            vertex_count,
        )?;
        tolerance = tolerance.max(sum_tolerance(weights));
        sets.push((joint_list, weight_list));
    }
    if sets.is_empty() {
        return Err(ModelError::new(format!(
            "{label} is skinned by skin {skin}, but has no JOINTS_0 and WEIGHTS_0"
        )));
    }
    Ok((sets, tolerance))
}

/// Vertex `v`'s influences from every set into `list`: zero weights left out, the same
/// joint twice one influence with both weights. A weight that is not finite or is
/// negative, or a joint past the skin's list, refuses the file.
fn vertex_list(
    sets: &[InfluenceSet],
    v: usize,
    label: &str,
    skin: usize,
    joint_count: usize,
    list: &mut Vec<(usize, f32)>,
) -> Result<(), ModelError> {
    list.clear();
    for (set, (joints, weights)) in sets.iter().enumerate() {
        for slot in v * 4..v * 4 + 4 {
            let (joint, weight) = (joints[slot] as usize, weights[slot]);
            if !weight.is_finite() || weight < 0.0 {
                return Err(ModelError::new(format!(
                    "{label} WEIGHTS_{set}: vertex {v} has weight {weight}; weights must be \
                     finite and not negative"
                )));
            }
            if weight == 0.0 {
                continue;
            }
            if joint >= joint_count {
                return Err(ModelError::new(format!(
                    "{label} JOINTS_{set}: vertex {v} uses joint {joint}, but skin {skin} \
                     has {joint_count} joints (0 to {})",
                    joint_count.saturating_sub(1)
                )));
            }
            match list.iter_mut().find(|(j, _)| *j == joint) {
                Some((_, w)) => *w += weight,
                None => list.push((joint, weight)),
            }
        }
    }
    Ok(())
}

/// What the loader repaired in a primitive's influences, for its warnings.
struct Repairs {
    /// Vertices whose weights did not sum to 1, and the least and greatest sum.
    off_sum: usize,
    low: f32,
    high: f32,
    /// Vertices with more than four influences, and the largest share of a vertex's
    /// weight dropped.
    truncated: usize,
    most_dropped: f32,
    /// Vertices with no weight at all.
    unweighted: usize,
}

impl Default for Repairs {
    fn default() -> Self {
        Self {
            off_sum: 0,
            low: f32::INFINITY,
            high: f32::NEG_INFINITY,
            truncated: 0,
            most_dropped: 0.0,
            unweighted: 0,
        }
    }
}

impl Repairs {
    /// One warning per kind of repair made (`last` is the last set's number).
    fn warn(&self, label: &str, last: usize, skin: usize, warnings: &mut Vec<String>) {
        let vertices = |n: usize| {
            if n == 1 {
                "vertex has"
            } else {
                "vertices have"
            }
        };
        if self.off_sum > 0 {
            let range = if sum_text(self.low) == sum_text(self.high) {
                sum_text(self.low)
            } else {
                format!("{}–{}", sum_text(self.low), sum_text(self.high))
            };
            warnings.push(format!(
                "{label}: {} {} weights that sum to {range}, not 1; they were renormalised",
                self.off_sum,
                vertices(self.off_sum)
            ));
        }
        if self.truncated > 0 {
            warnings.push(format!(
                "{label}: {} {} more than four influences (JOINTS_{last}/WEIGHTS_{last}); \
                 the four largest were kept and renormalised, dropping at most {:.1}% of a \
                 vertex's weight",
                self.truncated,
                vertices(self.truncated),
                self.most_dropped * 100.0
            ));
        }
        if self.unweighted > 0 {
            warnings.push(format!(
                "{label}: {} {} no weight on any joint; bound to joint 0 of skin {skin}",
                self.unweighted,
                vertices(self.unweighted)
            ));
        }
    }
}
