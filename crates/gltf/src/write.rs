//! Writing a file back as one self-contained GLB: the file's own JSON, every member kept
//! in its order (the extensions and extras this loader does not read included), and
//! every buffer and image it names (a GLB's BIN chunk, a `.bin` beside a `.gltf`, a data
//! URI, an image file beside it) gathered into one BIN chunk. Only where the bytes live
//! changes: what loads from the written file is what loaded from the file read. The
//! repairs of a student's skin are written through this.

use super::container::{self, Beside, Buffers};
use super::document::{self, Document, ImageSource};
use super::json::{self, Value};
use super::{Model, ModelError, meshes, parse};
use std::borrow::Cow;

/// Where each gathered piece starts in the BIN chunk: on a multiple of 8 bytes, so an
/// accessor aligned within its own buffer stays aligned (glTF asks for its component
/// size, 4 at most).
const ALIGN: usize = 8;

/// The file `bytes` (with the files `beside` it, as [`crate::load_with`] reads them) as
/// one GLB holding everything it names. A buffer that cannot be read refuses the write,
/// saying which and why; an image file that cannot be read keeps its URI (the written
/// GLB then names it beside itself, as the file did).
pub fn to_glb(bytes: &[u8], beside: &Beside<'_>) -> Result<Vec<u8>, ModelError> {
    write(bytes, beside, |_| Vec::new())
}

/// A repair [`repair`] can make.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fix {
    /// Each vertex's `WEIGHTS_0` divided by their sum where it is not 1 (as closely as
    /// the loader asks: the blending page's sum of weights), as the loader does in
    /// memory. A primitive with a second set (`WEIGHTS_1`) is left whole.
    Renormalise,
}

/// A file repaired and written as one GLB, and a line for each change made (none: the
/// file needed none of the fixes asked for, and is written as it was).
#[derive(Debug)]
pub struct Repaired {
    pub glb: Vec<u8>,
    pub changes: Vec<String>,
}

/// The file `bytes` (with what is `beside` it) with `fixes` made, written as one GLB
/// ([`to_glb`]). A repaired attribute is written as a new accessor of floats, and the
/// primitive reads it instead; the old one stays in the file, unread.
pub fn repair(bytes: &[u8], beside: &Beside<'_>, fixes: &[Fix]) -> Result<Repaired, ModelError> {
    let model = crate::load_with(bytes, beside)?;
    let mut changes = Vec::new();
    let glb = write(bytes, beside, |document| {
        let mut edits = Vec::new();
        if fixes.contains(&Fix::Renormalise) {
            renormalise(&model, document, &mut edits, &mut changes);
        }
        edits
    })?;
    Ok(Repaired { glb, changes })
}

/// New values of one attribute of one mesh primitive: four floats a vertex.
struct Edit {
    mesh: usize,
    primitive: usize,
    attribute: &'static str,
    values: Vec<[f32; 4]>,
}

/// [`Fix::Renormalise`]: an edit for each primitive with a vertex whose weights sum
/// away from 1, and a line saying how many vertices changed.
fn renormalise(
    model: &Model,
    document: &Document,
    edits: &mut Vec<Edit>,
    changes: &mut Vec<String>,
) {
    for skinned in &model.skinned_meshes {
        let (mesh, primitive) = (skinned.part.mesh, skinned.part.primitive);
        // A mesh placed by several nodes is one primitive of the file.
        if edits
            .iter()
            .any(|e| (e.mesh, e.primitive) == (mesh, primitive))
        {
            continue;
        }
        let Some(found) = document
            .meshes
            .get(mesh)
            .and_then(|m| m.primitives.get(primitive))
        else {
            continue;
        };
        let (Some(Ok(weights)), None) = (found.get("WEIGHTS_0"), found.get("WEIGHTS_1")) else {
            continue;
        };
        let tolerance = meshes::sum_tolerance(weights);
        let mut changed = 0;
        let values: Vec<[f32; 4]> = (skinned.stored.iter())
            .map(|stored| {
                let sum: f32 = stored.weights.iter().sum();
                if sum.is_finite() && sum > 0.0 && (sum - 1.0).abs() > tolerance {
                    changed += 1;
                    stored.weights.map(|w| w / sum)
                } else {
                    stored.weights
                }
            })
            .collect();
        if changed == 0 {
            continue;
        }
        let name = &skinned.part.name;
        changes.push(format!(
            "{name} (mesh {mesh}, primitive {primitive}): the weights of {changed} of {} vertices renormalised to sum to 1",
            values.len()
        ));
        edits.push(Edit {
            mesh,
            primitive,
            attribute: "WEIGHTS_0",
            values,
        });
    }
}

/// [`to_glb`] with the edits `edits` gives for the file's document made.
fn write(
    bytes: &[u8],
    beside: &Beside<'_>,
    edits: impl FnOnce(&Document) -> Vec<Edit>,
) -> Result<Vec<u8>, ModelError> {
    let parts = container::split(bytes)?;
    let mut root = parse(parts.json)?;
    // The same checks as a load: a file that would not open is not written.
    let document = document::read(&root, &mut Vec::new())?;
    let edits = edits(&document);
    let buffers = container::buffers(&document, parts.bin, beside)?;
    let mut bin = Vec::new();
    let mut starts = Vec::with_capacity(document.buffers.len());
    for index in 0..document.buffers.len() {
        let data = buffers.bytes(index).map_err(|why| {
            ModelError::new(format!(
                "buffer {index} cannot be carried into the GLB: {why}"
            ))
        })?;
        starts.push(gather(&mut bin, data));
    }
    let embedded = embed_images(&document, &buffers, beside, &mut bin);
    let Value::Object(members) = &mut root else {
        return Err(ModelError::new("the file's JSON is not an object"));
    };
    rebase_views(members, &starts);
    add_views(members, &embedded);
    for edit in &edits {
        let bytes: Vec<u8> = edit
            .values
            .iter()
            .flatten()
            .flat_map(|v| v.to_le_bytes())
            .collect();
        let start = gather(&mut bin, &bytes);
        let view = append(members, "bufferViews", view(start, edit.values.len() * 16));
        let accessor = append(
            members,
            "accessors",
            Value::Object(vec![
                (Cow::Borrowed("bufferView"), number(view)),
                (Cow::Borrowed("componentType"), Value::Number(5126.0)),
                (Cow::Borrowed("count"), number(edit.values.len())),
                (Cow::Borrowed("type"), Value::String(Cow::Borrowed("VEC4"))),
            ]),
        );
        let attributes = (member(members, "meshes"))
            .and_then(|m| item(m, edit.mesh))
            .and_then(|m| field(m, "primitives"))
            .and_then(|p| item(p, edit.primitive))
            .and_then(|p| field(p, "attributes"));
        if let Some(Value::Object(attributes)) = attributes {
            set(attributes, edit.attribute, number(accessor));
        }
    }
    one_buffer(members, bin.len());
    let mut text = String::new();
    json::write(&root, &mut text);
    container::glb(text.as_bytes(), &bin)
        .ok_or_else(|| ModelError::new("the model's bytes pass the 4 GiB a GLB can hold"))
}

/// Appends `data` to `bin` at the next multiple of [`ALIGN`]; returns where it starts.
fn gather(bin: &mut Vec<u8>, data: &[u8]) -> usize {
    bin.resize(bin.len().next_multiple_of(ALIGN), 0);
    let start = bin.len();
    bin.extend_from_slice(data);
    start
}

/// An image moved into the BIN chunk: which image, where its bytes start, how many.
struct Embedded {
    image: usize,
    start: usize,
    length: usize,
    mime: &'static str,
}

/// Appends the bytes of every image named by a URI (a data URI or a file beside the
/// file) to `bin`, where they can be read; an image of a view is in its buffer already.
fn embed_images(
    document: &Document,
    buffers: &Buffers,
    beside: &Beside<'_>,
    bin: &mut Vec<u8>,
) -> Vec<Embedded> {
    let read = container::images(document, buffers, beside);
    let mut embedded = Vec::new();
    for (index, (image, bytes)) in document.images.iter().zip(read).enumerate() {
        let (Ok(ImageSource::Uri(_)), Ok(bytes)) = (&image.source, &bytes.bytes) else {
            continue;
        };
        // glTF names two kinds; a GLB's image must say which.
        let mime = if bytes.starts_with(b"\x89PNG") {
            "image/png"
        } else if bytes.starts_with(&[0xFF, 0xD8]) {
            "image/jpeg"
        } else {
            continue;
        };
        let start = gather(bin, bytes);
        embedded.push(Embedded {
            image: index,
            start,
            length: bytes.len(),
            mime,
        });
    }
    embedded
}

/// An object's members, in file order.
type Members<'t> = Vec<(Cow<'t, str>, Value<'t>)>;

/// The member `key` of an object's members.
fn member<'a, 't>(
    members: &'a mut [(Cow<'t, str>, Value<'t>)],
    key: &str,
) -> Option<&'a mut Value<'t>> {
    members.iter_mut().find(|(k, _)| k == key).map(|(_, v)| v)
}

/// Sets `key` to `value`, in place where it is, last where it is not.
fn set<'t>(members: &mut Members<'t>, key: &'static str, value: Value<'t>) {
    match member(members, key) {
        Some(v) => *v = value,
        None => members.push((Cow::Borrowed(key), value)),
    }
}

/// Every buffer view now reads buffer 0, shifted by where its own buffer was gathered.
fn rebase_views(root: &mut Members<'_>, starts: &[usize]) {
    let Some(Value::Array(views)) = member(root, "bufferViews") else {
        return;
    };
    for view in views {
        let Value::Object(view) = view else { continue };
        let buffer = match member(view, "buffer") {
            Some(Value::Number(n)) => *n as usize,
            _ => continue,
        };
        let offset = match member(view, "byteOffset") {
            Some(Value::Number(n)) => *n as usize,
            _ => 0,
        };
        let start = starts.get(buffer).copied().unwrap_or(0);
        set(view, "buffer", Value::Number(0.0));
        set(view, "byteOffset", Value::Number((start + offset) as f64));
    }
}

/// A whole number as JSON.
fn number<'t>(n: usize) -> Value<'t> {
    Value::Number(n as f64)
}

/// A buffer view of `length` bytes of the BIN chunk from `start`.
fn view<'t>(start: usize, length: usize) -> Value<'t> {
    Value::Object(vec![
        (Cow::Borrowed("buffer"), number(0)),
        (Cow::Borrowed("byteOffset"), number(start)),
        (Cow::Borrowed("byteLength"), number(length)),
    ])
}

/// The member `key` of an object, if it is one and has it.
fn field<'a, 't>(value: &'a mut Value<'t>, key: &str) -> Option<&'a mut Value<'t>> {
    match value {
        Value::Object(members) => member(members, key),
        _ => None,
    }
}

/// Item `index` of an array, if it is one and has it.
fn item<'a, 't>(value: &'a mut Value<'t>, index: usize) -> Option<&'a mut Value<'t>> {
    match value {
        Value::Array(items) => items.get_mut(index),
        _ => None,
    }
}

/// Appends `value` to the root's array `key` (made when there is none); its index.
fn append<'t>(root: &mut Members<'t>, key: &'static str, value: Value<'t>) -> usize {
    if !matches!(member(root, key), Some(Value::Array(_))) {
        set(root, key, Value::Array(Vec::new()));
    }
    let Some(Value::Array(items)) = member(root, key) else {
        unreachable!("made just above");
    };
    items.push(value);
    items.len() - 1
}

/// A buffer view for each embedded image, and the image reading it instead of its URI.
fn add_views(root: &mut Members<'_>, embedded: &[Embedded]) {
    for e in embedded {
        let view = append(root, "bufferViews", view(e.start, e.length));
        let image = member(root, "images").and_then(|images| item(images, e.image));
        let Some(Value::Object(image)) = image else {
            continue;
        };
        image.retain(|(key, _)| key != "uri");
        set(image, "bufferView", number(view));
        set(image, "mimeType", Value::String(Cow::Borrowed(e.mime)));
    }
}

/// One buffer, the BIN chunk, `length` bytes: buffer 0's other members (a name, extras)
/// kept, its URI dropped. No buffer at all where there are no bytes.
fn one_buffer(root: &mut Members<'_>, length: usize) {
    let first = match member(root, "buffers") {
        Some(Value::Array(buffers)) if !buffers.is_empty() => buffers.swap_remove(0),
        _ => Value::Object(Vec::new()),
    };
    if length == 0 {
        root.retain(|(key, _)| key != "buffers");
        return;
    }
    let Value::Object(mut buffer) = first else {
        return;
    };
    buffer.retain(|(key, _)| key != "uri");
    set(&mut buffer, "byteLength", Value::Number(length as f64));
    set(root, "buffers", Value::Array(vec![Value::Object(buffer)]));
}
