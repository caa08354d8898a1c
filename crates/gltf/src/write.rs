//! Writing a file back as one self-contained GLB: the file's own JSON, every member kept
//! in its order (the extensions and extras this loader does not read included), and
//! every buffer and image it names (a GLB's BIN chunk, a `.bin` beside a `.gltf`, a data
//! URI, an image file beside it) gathered into one BIN chunk. Only where the bytes live
//! changes: what loads from the written file is what loaded from the file read. The
//! repairs of a student's skin are written through this.

use super::container::{self, Beside, Buffers};
use super::document::{self, Document, ImageSource};
use super::json::{self, Value};
use super::{ModelError, parse};
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
    write(bytes, beside, |_, _| Ok(Vec::new()))
}

/// A change to the file's JSON, made as it is written ([`write`]).
pub(super) enum Edit {
    /// A new accessor, read where `place` says instead of the one named there.
    Accessor { place: Place, data: NewAccessor },
    /// A mesh primitive's attribute, no longer named (the accessor stays, unread).
    Drop {
        mesh: usize,
        primitive: usize,
        attribute: String,
    },
    /// A node's rotation, x, y, z, w.
    Rotation { node: usize, rotation: [f32; 4] },
    /// A skin's list of joints, by node.
    SkinJoints { skin: usize, joints: Vec<usize> },
}

/// Where an [`Edit::Accessor`] is read.
pub(super) enum Place {
    Attribute {
        mesh: usize,
        primitive: usize,
        attribute: String,
    },
    InverseBinds {
        skin: usize,
    },
    /// The values of an animation's sampler.
    Output {
        animation: usize,
        sampler: usize,
    },
}

/// An accessor's elements, little-endian, tightly packed.
pub(super) struct NewAccessor {
    bytes: Vec<u8>,
    count: usize,
    /// glTF's component type: 5126 for floats, 5123 for unsigned shorts.
    component: u32,
    kind: &'static str,
}

impl NewAccessor {
    /// Four floats an element.
    pub fn vec4(values: &[[f32; 4]]) -> Self {
        let bytes = packed(values.iter().flatten().map(|v| v.to_le_bytes()));
        Self {
            bytes,
            count: values.len(),
            component: 5126,
            kind: "VEC4",
        }
    }

    /// Four unsigned shorts an element: joint indices.
    pub fn joints(values: &[[u16; 4]]) -> Self {
        let bytes = packed(values.iter().flatten().map(|v| v.to_le_bytes()));
        Self {
            bytes,
            count: values.len(),
            component: 5123,
            kind: "VEC4",
        }
    }

    /// A column-major 4×4 float matrix an element.
    pub fn mat4(values: &[glam::Mat4]) -> Self {
        let floats = values.iter().flat_map(glam::Mat4::to_cols_array);
        Self {
            bytes: packed(floats.map(f32::to_le_bytes)),
            count: values.len(),
            component: 5126,
            kind: "MAT4",
        }
    }
}

/// Components, each little-endian, one after another.
fn packed<const B: usize>(components: impl Iterator<Item = [u8; B]>) -> Vec<u8> {
    components.flatten().collect()
}

/// [`to_glb`] with the edits `edits` gives for the file's document (and its buffers)
/// made.
pub(super) fn write(
    bytes: &[u8],
    beside: &Beside<'_>,
    edits: impl FnOnce(&Document, &Buffers) -> Result<Vec<Edit>, ModelError>,
) -> Result<Vec<u8>, ModelError> {
    let parts = container::split(bytes)?;
    let mut root = parse(parts.json)?;
    // The same checks as a load: a file that would not open is not written.
    let document = document::read(&root, &mut Vec::new())?;
    let buffers = container::buffers(&document, parts.bin, beside)?;
    let edits = edits(&document, &buffers)?;
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
    for edit in edits {
        apply(members, edit, &mut bin);
    }
    one_buffer(members, bin.len());
    let mut text = String::new();
    json::write(&root, &mut text);
    container::glb(text.as_bytes(), &bin)
        .ok_or_else(|| ModelError::new("the model's bytes pass the 4 GiB a GLB can hold"))
}

/// Makes `edit` in the root's members, gathering a new accessor's bytes into `bin`. A
/// new accessor takes the place of the one it replaces where nothing else reads that
/// one (so the old values, perhaps not finite, are left in no accessor), and is added
/// where something does.
fn apply<'t>(members: &mut Members<'t>, edit: Edit, bin: &mut Vec<u8>) {
    let (place, data) = match edit {
        Edit::Accessor { place, data } => (place, data),
        Edit::Drop {
            mesh,
            primitive,
            attribute,
        } => {
            if let Some(Value::Object(attributes)) = attributes(members, mesh, primitive) {
                attributes.retain(|(key, _)| *key != attribute);
            }
            return;
        }
        Edit::Rotation { node, rotation } => {
            let node = member(members, "nodes").and_then(|n| item(n, node));
            if let Some(Value::Object(node)) = node {
                let xyzw = rotation.iter().map(|&c| Value::Number(f64::from(c)));
                set(node, "rotation", Value::Array(xyzw.collect()));
            }
            return;
        }
        Edit::SkinJoints { skin, joints } => {
            let skin = member(members, "skins").and_then(|s| item(s, skin));
            if let Some(Value::Object(skin)) = skin {
                set(
                    skin,
                    "joints",
                    Value::Array(joints.into_iter().map(number).collect()),
                );
            }
            return;
        }
    };
    let start = gather(bin, &data.bytes);
    let view = append(members, "bufferViews", view(start, data.bytes.len()));
    let mut accessor = vec![
        (Cow::Borrowed("bufferView"), number(view)),
        (
            Cow::Borrowed("componentType"),
            number(data.component as usize),
        ),
        (Cow::Borrowed("count"), number(data.count)),
        (
            Cow::Borrowed("type"),
            Value::String(Cow::Borrowed(data.kind)),
        ),
    ];
    let old = match reference(members, &place) {
        Some(Value::Number(n)) => Some(*n as usize),
        _ => None,
    };
    let only_reader = old.filter(|&old| readers(members, old) == 1);
    let index = match only_reader {
        Some(old) => {
            let Some(Value::Object(slot)) = member(members, "accessors").and_then(|a| item(a, old))
            else {
                return;
            };
            // Its name stays with it.
            accessor.extend(slot.iter().filter(|(k, _)| k == "name").cloned());
            *slot = accessor;
            old
        }
        None => append(members, "accessors", Value::Object(accessor)),
    };
    if let (Some(Value::Object(object)), key) = holder(members, &place) {
        set(object, key.to_owned(), number(index));
    }
}

/// The object holding `place`'s accessor index, and the member's name.
fn holder<'a, 't, 'p>(
    members: &'a mut [(Cow<'t, str>, Value<'t>)],
    place: &'p Place,
) -> (Option<&'a mut Value<'t>>, &'p str) {
    match place {
        Place::Attribute {
            mesh,
            primitive,
            attribute,
        } => (attributes(members, *mesh, *primitive), attribute),
        Place::InverseBinds { skin } => (
            member(members, "skins").and_then(|s| item(s, *skin)),
            "inverseBindMatrices",
        ),
        Place::Output { animation, sampler } => (
            (member(members, "animations"))
                .and_then(|a| item(a, *animation))
                .and_then(|a| field(a, "samplers"))
                .and_then(|s| item(s, *sampler)),
            "output",
        ),
    }
}

/// The accessor index at `place`, where there is one.
fn reference<'a, 't>(
    members: &'a mut [(Cow<'t, str>, Value<'t>)],
    place: &Place,
) -> Option<&'a mut Value<'t>> {
    match holder(members, place) {
        (Some(object), key) => field(object, key),
        (None, _) => None,
    }
}

/// How many places of the file read accessor `index`: mesh attributes, indices and
/// morph targets, skins' inverse binds, clips' samplers. (An extension this writer does
/// not read could name one too; none names a skin's or a clip's.)
fn readers(members: &[(Cow<'_, str>, Value<'_>)], index: usize) -> usize {
    fn get<'a, 't>(value: &'a Value<'t>, key: &str) -> Option<&'a Value<'t>> {
        match value {
            Value::Object(m) => m.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }
    fn items<'a, 't>(value: Option<&'a Value<'t>>) -> &'a [Value<'t>] {
        match value {
            Some(Value::Array(items)) => items,
            _ => &[],
        }
    }
    fn values<'a, 't>(value: Option<&'a Value<'t>>) -> impl Iterator<Item = &'a Value<'t>> {
        let members = match value {
            Some(Value::Object(m)) => m.as_slice(),
            _ => &[],
        };
        members.iter().map(|(_, v)| v)
    }
    let root = |key: &str| members.iter().find(|(k, _)| k == key).map(|(_, v)| v);
    let mut read: Vec<&Value<'_>> = Vec::new();
    for mesh in items(root("meshes")) {
        for primitive in items(get(mesh, "primitives")) {
            read.extend(values(get(primitive, "attributes")));
            read.extend(get(primitive, "indices"));
            for target in items(get(primitive, "targets")) {
                read.extend(values(Some(target)));
            }
        }
    }
    for skin in items(root("skins")) {
        read.extend(get(skin, "inverseBindMatrices"));
    }
    for animation in items(root("animations")) {
        for sampler in items(get(animation, "samplers")) {
            read.extend(get(sampler, "input"));
            read.extend(get(sampler, "output"));
        }
    }
    read.iter()
        .filter(|v| matches!(v, Value::Number(n) if *n == index as f64))
        .count()
}

/// The attributes of primitive `primitive` of mesh `mesh`.
fn attributes<'a, 't>(
    members: &'a mut [(Cow<'t, str>, Value<'t>)],
    mesh: usize,
    primitive: usize,
) -> Option<&'a mut Value<'t>> {
    (member(members, "meshes"))
        .and_then(|m| item(m, mesh))
        .and_then(|m| field(m, "primitives"))
        .and_then(|p| item(p, primitive))
        .and_then(|p| field(p, "attributes"))
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
fn set<'t>(members: &mut Members<'t>, key: impl Into<Cow<'t, str>>, value: Value<'t>) {
    let key = key.into();
    match member(members, &key) {
        Some(v) => *v = value,
        None => members.push((key, value)),
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
