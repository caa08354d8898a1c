//! The glTF document: the JSON's parts that skinning needs, read into plain structs.
//!
//! Every index is checked against what it points into, and every reference to an
//! accessor is resolved to a copy of it (with its buffer view), so the readers after
//! this one index nothing unchecked. Of the looks, only what paints a mesh is read
//! (each material's base colour, its texture, the image and sampler behind it), and a
//! problem there is a warning, never a refusal: a model whose skin and clips are fine
//! is drawn in the app's own colours instead. Cameras and scenes are not read. A
//! problem inside one animation leaves that animation out ([`Animation::broken`]); an
//! accessor nothing uses may be broken without harm (it is refused when read); any
//! other problem is a [`ModelError`] that names the element, as `nodes[1].children[1]`.

use super::container::MAX_NODES;
use super::json::Value;
use super::{ModelError, quoted};
use std::borrow::Cow;

/// How an accessor's components are stored (glTF's `componentType`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum DataType {
    I8,
    U8,
    I16,
    U16,
    U32,
    F32,
}

/// How many components an element has (glTF's `type`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Dimensions {
    Scalar,
    Vec2,
    Vec3,
    Vec4,
    Mat2,
    Mat3,
    Mat4,
}

/// What a primitive draws (glTF's `mode`, 0 to 6).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Mode {
    Points,
    Lines,
    LineLoop,
    LineStrip,
    Triangles,
    TriangleStrip,
    TriangleFan,
}

/// What an animation channel drives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Property {
    Translation,
    Rotation,
    Scale,
    MorphTargetWeights,
}

/// How a sampler fills the time between keys.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Interpolation {
    Step,
    Linear,
    CubicSpline,
}

pub(super) struct Buffer {
    /// `None`: the GLB's BIN chunk.
    pub uri: Option<String>,
    pub length: usize,
}

/// A buffer view, with the index it has in the file (for messages).
#[derive(Clone, Copy, Debug)]
pub(super) struct View {
    pub index: usize,
    pub buffer: usize,
    pub offset: usize,
    pub length: usize,
    pub stride: Option<usize>,
}

#[derive(Clone, Copy, Debug)]
pub(super) struct Accessor {
    pub index: usize,
    /// `None`: every element is zero (before sparse values).
    pub view: Option<View>,
    pub offset: usize,
    pub data_type: DataType,
    pub normalized: bool,
    pub count: usize,
    pub dimensions: Dimensions,
    pub sparse: Option<Sparse>,
}

/// Values that replace some elements of an accessor.
#[derive(Clone, Copy, Debug)]
pub(super) struct Sparse {
    pub count: usize,
    pub indices: View,
    pub indices_offset: usize,
    /// U8, U16 or U32.
    pub index_type: DataType,
    pub values: View,
    pub values_offset: usize,
}

/// Attributes by name (`POSITION`, `JOINTS_0`, …), in file order, each with its
/// accessor or the reason it could not be read (given when the attribute is read).
pub(super) type Attributes = Vec<(String, Result<Accessor, ModelError>)>;

pub(super) struct Primitive {
    pub index: usize,
    /// Its own attributes.
    pub attributes: Attributes,
    pub indices: Option<Accessor>,
    pub mode: Mode,
    /// Each morph target's attributes (`POSITION`, `NORMAL`, `TANGENT`), as
    /// `attributes` holds the primitive's own; a target that is not an object keeps the
    /// reason.
    pub targets: Vec<Result<Attributes, String>>,
    /// Its material, when it names one that could be read.
    pub material: Option<usize>,
}

impl Primitive {
    /// The accessor of attribute `name`, or why it could not be read.
    pub fn get(&self, name: &str) -> Option<Result<&Accessor, ModelError>> {
        self.attributes
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, a)| a.as_ref().map_err(Clone::clone))
    }
}

pub(super) struct Mesh {
    pub index: usize,
    pub name: Option<String>,
    pub primitives: Vec<Primitive>,
    /// `weights`: the morph targets' default weights, or why they cannot be read.
    pub weights: Option<Result<Vec<f32>, String>>,
    /// `extras.targetNames`, the targets' names as exporters write them (empty when
    /// absent or not a list of strings).
    pub target_names: Vec<String>,
}

/// A node's rest transform as the file gives it.
#[derive(Clone, Copy, Debug)]
pub(super) enum NodeTransform {
    Decomposed {
        translation: [f32; 3],
        /// x, y, z, w.
        rotation: [f32; 4],
        scale: [f32; 3],
    },
    /// Column-major.
    Matrix([f32; 16]),
}

pub(super) struct Node {
    pub index: usize,
    pub name: Option<String>,
    pub children: Vec<usize>,
    pub mesh: Option<usize>,
    pub skin: Option<usize>,
    pub camera_or_light: bool,
    pub transform: NodeTransform,
    /// `weights`: this node's morph weights over its mesh's, or why they cannot be read.
    pub weights: Option<Result<Vec<f32>, String>>,
}

pub(super) struct Skin {
    pub index: usize,
    pub name: Option<String>,
    /// Node indices.
    pub joints: Vec<usize>,
    pub inverse_bind_matrices: Option<Accessor>,
}

#[derive(Clone, Copy, Debug)]
pub(super) struct Sampler {
    pub interpolation: Interpolation,
    pub input: Accessor,
    pub output: Accessor,
}

pub(super) struct Channel {
    pub index: usize,
    pub node: usize,
    pub property: Property,
    pub sampler: Sampler,
    /// Which of the animation's samplers `sampler` is.
    pub sampler_index: usize,
}

pub(super) struct Animation {
    pub index: usize,
    pub name: Option<String>,
    /// Empty when the animation is broken.
    pub channels: Vec<Channel>,
    /// Why the animation cannot be played, if it cannot.
    pub broken: Option<String>,
}

/// Where an image's encoded bytes are.
pub(super) enum ImageSource {
    /// A data URI, or a file beside the `.gltf`.
    Uri(String),
    /// A buffer view (in a GLB, the BIN chunk).
    View(View),
}

/// An image a texture shows, still encoded.
pub(super) struct Image {
    pub name: Option<String>,
    pub mime: Option<String>,
    /// Where its bytes are, or why the file's description of it could not be read.
    pub source: Result<ImageSource, String>,
}

/// The parts of a glTF file that skinning reads.
pub(super) struct Document {
    pub buffers: Vec<Buffer>,
    pub meshes: Vec<Mesh>,
    pub nodes: Vec<Node>,
    pub skins: Vec<Skin>,
    pub animations: Vec<Animation>,
    /// Every material, in file order (one that could not be read is the default
    /// material, with a warning).
    pub materials: Vec<crate::Material>,
    pub images: Vec<Image>,
}

/// `KHR_texture_transform`'s matrix: offset · rotation · scale, as the extension
/// writes it (a rotation turns the coordinates counter-clockwise in the image).
fn texture_transform(t: &Object) -> Result<glam::Affine2, ModelError> {
    let [ox, oy] = t.floats::<2>("offset")?.unwrap_or([0.0, 0.0]);
    let r = t.number("rotation")?.unwrap_or(0.0);
    let [sx, sy] = t.floats::<2>("scale")?.unwrap_or([1.0, 1.0]);
    let (sin, cos) = r.sin_cos();
    let turn_and_scale = glam::Mat2::from_cols(
        glam::Vec2::new(cos * sx, -sin * sx),
        glam::Vec2::new(sin * sy, cos * sy),
    );
    let transform = glam::Affine2::from_mat2_translation(turn_and_scale, glam::Vec2::new(ox, oy));
    if !transform.is_finite() {
        return Err(t.broken("offset", "offset and scale must be finite numbers"));
    }
    Ok(transform)
}

/// Extensions that change only what a skinning lesson does not draw (materials,
/// textures, lights): a file that needs one is loaded, with a note.
fn looks_only(extension: &str) -> bool {
    const PREFIXES: [&str; 6] = [
        "KHR_materials_",
        "KHR_texture_",
        "EXT_texture_",
        "MSFT_texture_",
        "KHR_lights_",
        "EXT_lights_",
    ];
    PREFIXES.iter().any(|p| extension.starts_with(p))
}

/// Extensions the readers handle themselves (quantised attributes).
fn read_here(extension: &str) -> bool {
    extension == "KHR_mesh_quantization"
}

const COMPRESSION: [&str; 2] = ["KHR_draco_mesh_compression", "EXT_meshopt_compression"];

/// The most characters a name keeps: a longer one (a node named by a megabyte of
/// text) is cut to this and marked with "…", so that no label, list or link grows
/// with it.
pub const MAX_NAME_CHARS: usize = 200;

/// Names as read, cut to [`MAX_NAME_CHARS`]; counts how many were cut.
#[derive(Default)]
struct Names {
    cut: usize,
}

impl Names {
    fn keep(&mut self, name: Option<&str>) -> Option<String> {
        let name = name?;
        match name.char_indices().nth(MAX_NAME_CHARS) {
            Some((end, _)) => {
                self.cut += 1;
                Some(format!("{}…", &name[..end]))
            }
            None => Some(name.to_owned()),
        }
    }
}

/// Reads the document from the file's JSON: first its version and the extensions it
/// needs (a file this loader cannot read is refused for that reason, before anything
/// else), then each section in turn.
pub(super) fn read(root: &Value, warnings: &mut Vec<String>) -> Result<Document, ModelError> {
    let root = Object::new(root, String::new())?;
    read_version_and_extensions(&root, warnings)?;
    let mut names = Names::default();
    let (buffers, views) = read_buffers_and_views(&root)?;
    let accessors: Vec<Result<Accessor, ModelError>> = root
        .objects("accessors")?
        .iter()
        .enumerate()
        .map(|(index, accessor)| read_accessor(index, accessor, &views))
        .collect();
    let looks = Looks::read(&root, &views, &mut names, warnings);
    let meshes = read_meshes(&root, &accessors, &looks, &mut names, warnings)?;
    let node_objects = root.objects("nodes")?;
    let node_count = node_objects.len();
    if node_count > MAX_NODES {
        return Err(ModelError::new(format!(
            "the file has {node_count} nodes, more than the page lays out ({MAX_NODES})"
        )));
    }
    let skins = read_skins(&root, &accessors, node_count, &mut names)?;
    let nodes = read_nodes(&node_objects, meshes.len(), skins.len(), &mut names)?;
    let animations = read_animations(&root, &accessors, node_count, &mut names)?;
    if names.cut > 0 {
        warnings.push(format!(
            "{} {} longer than {MAX_NAME_CHARS} characters {} cut to that length (marked …)",
            names.cut,
            if names.cut == 1 { "name" } else { "names" },
            if names.cut == 1 { "was" } else { "were" }
        ));
    }
    Ok(Document {
        buffers,
        meshes,
        nodes,
        skins,
        animations,
        materials: looks.materials,
        images: looks.images,
    })
}

/// Every accessor of the file, read, or why it could not be: one that cannot be read
/// refuses the file only when something reads it.
type Accessors = [Result<Accessor, ModelError>];

/// The accessor `object` names under `key`, if it names one; one that could not be read
/// refuses the file here, where it is read.
fn accessor_at(
    accessors: &Accessors,
    object: &Object,
    key: &str,
) -> Result<Option<Accessor>, ModelError> {
    object
        .index(key, accessors.len())?
        .map(|index| accessors[index].clone())
        .transpose()
}

/// `asset.version` (2.x), `asset.minVersion` (at most 2.0), and the extensions the file
/// needs or uses: one this loader cannot read refuses the file, one that only changes
/// how it looks is a warning.
fn read_version_and_extensions(
    root: &Object,
    warnings: &mut Vec<String>,
) -> Result<(), ModelError> {
    let asset = root.object("asset")?.ok_or_else(|| {
        ModelError::new(
            "the JSON has no `asset`, which every glTF file has: this is not a glTF file",
        )
    })?;
    let version = asset.required_string("version")?;
    if !version.starts_with("2.") {
        return Err(ModelError::new(format!(
            "this is glTF version {}; only glTF 2.0 can be loaded",
            quoted(version)
        )));
    }
    // The least version a reader must know to read the file: one above 2.0 holds what
    // this loader cannot know of.
    if let Some(least) = asset.string("minVersion")? {
        let parts: Vec<Option<u32>> = least.split('.').map(|p| p.parse().ok()).collect();
        if !matches!(parts.as_slice(), [Some(2), Some(0)]) {
            return Err(ModelError::new(format!(
                "the file needs a reader of glTF {} or later (its minVersion); only glTF 2.0 \
                 can be loaded",
                quoted(least)
            )));
        }
    }
    let required = root.strings("extensionsRequired")?;
    for extension in &required {
        if COMPRESSION.contains(extension) {
            return Err(ModelError::new(format!(
                "the file needs {extension}, a compressed mesh format this loader does not \
                 read; export it again without mesh compression"
            )));
        }
        if looks_only(extension) {
            warnings.push(format!(
                "the file needs {}, which changes only how it looks (materials, textures or \
                 lights); this page draws the shapes without it",
                quoted(extension)
            ));
        } else if !read_here(extension) {
            return Err(ModelError::new(format!(
                "the file needs the extension {}, which this loader does not know",
                quoted(extension)
            )));
        }
    }
    for extension in root.strings("extensionsUsed")? {
        if COMPRESSION.contains(&extension) && !required.contains(&extension) {
            warnings.push(format!(
                "the file uses {extension} with an uncompressed fallback; the fallback is read"
            ));
        }
    }
    Ok(())
}

/// `buffers` and `bufferViews`.
fn read_buffers_and_views(root: &Object) -> Result<(Vec<Buffer>, Vec<View>), ModelError> {
    let mut buffers = Vec::new();
    for buffer in root.objects("buffers")? {
        buffers.push(Buffer {
            uri: buffer.string("uri")?.map(str::to_owned),
            length: buffer.required_whole("byteLength")?,
        });
    }
    let mut views = Vec::new();
    for (index, view) in root.objects("bufferViews")?.iter().enumerate() {
        views.push(View {
            index,
            buffer: view.required_index("buffer", buffers.len())?,
            offset: view.whole("byteOffset")?.unwrap_or(0),
            length: view.required_whole("byteLength")?,
            stride: view.whole("byteStride")?,
        });
    }
    Ok((buffers, views))
}

/// `meshes`, each primitive with its attributes, indices, mode and material.
fn read_meshes(
    root: &Object,
    accessors: &Accessors,
    looks: &Looks,
    names: &mut Names,
    warnings: &mut Vec<String>,
) -> Result<Vec<Mesh>, ModelError> {
    let mut meshes = Vec::new();
    for (m, mesh) in root.objects("meshes")?.iter().enumerate() {
        let mut primitives = Vec::new();
        for (p, primitive) in mesh.objects("primitives")?.iter().enumerate() {
            let mut attributes = Vec::new();
            let Some(members) = primitive.object("attributes")? else {
                return Err(primitive.broken("attributes", "it is missing"));
            };
            for (name, value) in members.members() {
                let index = members.whole_value(value, name)?;
                let Some(accessor) = accessors.get(index) else {
                    return Err(ModelError::new(format!(
                        "mesh {m} primitive {p}: {name} names accessor {index}, but the file \
                         has {} accessors",
                        accessors.len()
                    )));
                };
                attributes.push((name.to_string(), accessor.clone()));
            }
            let mode = match primitive.whole("mode")?.unwrap_or(4) {
                0 => Mode::Points,
                1 => Mode::Lines,
                2 => Mode::LineLoop,
                3 => Mode::LineStrip,
                4 => Mode::Triangles,
                5 => Mode::TriangleStrip,
                6 => Mode::TriangleFan,
                _ => return Err(primitive.broken("mode", "must be 0 to 6")),
            };
            primitives.push(Primitive {
                index: p,
                attributes,
                indices: accessor_at(accessors, primitive, "indices")?,
                mode,
                targets: read_targets(primitive, accessors)?,
                material: looks.material_of(primitive, warnings),
            });
        }
        let target_names = mesh
            .object("extras")
            .ok()
            .flatten()
            .and_then(|extras| extras.strings("targetNames").ok())
            .unwrap_or_default();
        meshes.push(Mesh {
            index: m,
            name: names.keep(mesh.string("name")?),
            primitives,
            weights: mesh.weights(),
            target_names: target_names
                .into_iter()
                .map(|n| names.keep(Some(n)).unwrap_or_default())
                .collect(),
        });
    }

    Ok(meshes)
}

/// A primitive's `targets`: each one's attributes and their accessors. What is wrong
/// with a target (not an object, an accessor that is not there) is kept for the mesh
/// reader to warn about: the model opens without that target.
fn read_targets(
    primitive: &Object,
    accessors: &Accessors,
) -> Result<Vec<Result<Attributes, String>>, ModelError> {
    let read = |value: &Value| match value {
        Value::Object(members) => Ok(members
            .iter()
            .map(|(name, index)| {
                let accessor = match index {
                    Value::Number(i) if i.fract() == 0.0 && *i >= 0.0 => {
                        accessors.get(*i as usize).cloned().unwrap_or_else(|| {
                            Err(ModelError::new(format!(
                                "{name} names accessor {i}, but the file has {} accessors",
                                accessors.len()
                            )))
                        })
                    }
                    _ => Err(ModelError::new(format!("{name} is not an accessor index"))),
                };
                (name.to_string(), accessor)
            })
            .collect()),
        _ => Err("it is not an object".to_owned()),
    };
    Ok(primitive.list("targets")?.iter().map(read).collect())
}

/// `skins`: each one's joints (nodes) and inverse binds.
fn read_skins(
    root: &Object,
    accessors: &Accessors,
    node_count: usize,
    names: &mut Names,
) -> Result<Vec<Skin>, ModelError> {
    let mut skins = Vec::new();
    for (index, skin) in root.objects("skins")?.iter().enumerate() {
        skins.push(Skin {
            index,
            name: names.keep(skin.string("name")?),
            joints: skin.indices("joints", node_count)?,
            inverse_bind_matrices: accessor_at(accessors, skin, "inverseBindMatrices")?,
        });
    }
    Ok(skins)
}

/// `nodes`: each one's transform, children, mesh and skin.
fn read_nodes(
    node_objects: &[Object],
    mesh_count: usize,
    skin_count: usize,
    names: &mut Names,
) -> Result<Vec<Node>, ModelError> {
    let node_count = node_objects.len();
    let mut nodes = Vec::new();
    for (index, node) in node_objects.iter().enumerate() {
        let transform = match node.floats::<16>("matrix")? {
            Some(matrix) => NodeTransform::Matrix(matrix),
            None => NodeTransform::Decomposed {
                translation: node.floats("translation")?.unwrap_or([0.0; 3]),
                rotation: node.floats("rotation")?.unwrap_or([0.0, 0.0, 0.0, 1.0]),
                scale: node.floats("scale")?.unwrap_or([1.0; 3]),
            },
        };
        nodes.push(Node {
            index,
            name: names.keep(node.string("name")?),
            children: node.indices("children", node_count)?,
            mesh: node.index("mesh", mesh_count)?,
            skin: node.index("skin", skin_count)?,
            camera_or_light: node.field("camera").is_some()
                || node
                    .object("extensions")?
                    .is_some_and(|e| e.field("KHR_lights_punctual").is_some()),
            transform,
            weights: node.weights(),
        });
    }

    Ok(nodes)
}

/// `animations`: a clip whose channels cannot be read is kept, empty, with the reason.
fn read_animations(
    root: &Object,
    accessors: &Accessors,
    node_count: usize,
    names: &mut Names,
) -> Result<Vec<Animation>, ModelError> {
    let mut animations = Vec::new();
    for (index, animation) in root.objects("animations")?.iter().enumerate() {
        let name = names.keep(animation.string("name").ok().flatten());
        let (channels, broken) = match read_channels(animation, accessors, node_count) {
            Ok(channels) => (channels, None),
            Err(why) => (Vec::new(), Some(why.message().to_owned())),
        };
        animations.push(Animation {
            index,
            name,
            channels,
            broken,
        });
    }
    Ok(animations)
}

/// The materials and images, read so that nothing in them refuses the file.
struct Looks {
    materials: Vec<crate::Material>,
    images: Vec<Image>,
}

impl Looks {
    fn read(root: &Object, views: &[View], names: &mut Names, warnings: &mut Vec<String>) -> Self {
        let objects = |key: &str, warnings: &mut Vec<String>| {
            root.objects(key).unwrap_or_else(|e| {
                warnings.push(format!(
                    "{e}; it was left out, and meshes are drawn in plain colours"
                ));
                Vec::new()
            })
        };
        let images: Vec<Image> = objects("images", warnings)
            .iter()
            .map(|image| {
                let source = match (image.string("uri"), image.index("bufferView", views.len())) {
                    (Ok(Some(uri)), _) => Ok(ImageSource::Uri(uri.to_owned())),
                    (Ok(None), Ok(Some(view))) => Ok(ImageSource::View(views[view])),
                    (Ok(None), Ok(None)) => Err(image
                        .broken("uri", "the image has neither a uri nor a bufferView")
                        .to_string()),
                    (Err(e), _) | (_, Err(e)) => Err(e.to_string()),
                };
                Image {
                    name: names.keep(image.string("name").ok().flatten()),
                    mime: image.string("mimeType").ok().flatten().map(str::to_owned),
                    source,
                }
            })
            .collect();
        let samplers = objects("samplers", warnings);
        let textures = objects("textures", warnings);
        // A texture: its image and how it is sampled.
        let texture = |index: usize| -> Result<(usize, crate::Sampler), ModelError> {
            let texture = textures.get(index).ok_or_else(|| {
                rules_broken("a material's baseColorTexture.index", "index out of bounds")
            })?;
            let image = texture.index("source", images.len())?.ok_or_else(|| {
                texture.broken("source", "it is missing (or only an extension gives it)")
            })?;
            let sampler = match texture.index("sampler", samplers.len())? {
                None => crate::Sampler::default(),
                Some(s) => {
                    let sampler = &samplers[s];
                    let code =
                        |key: &str, allowed: &[u32], default: u32| match sampler.whole(key)? {
                            None => Ok(default),
                            Some(c) if allowed.contains(&(c as u32)) => Ok(c as u32),
                            Some(_) => Err(sampler.broken(key, "is not a glTF sampler code")),
                        };
                    let filters = [9728, 9729, 9984, 9985, 9986, 9987];
                    let wraps = [10497, 33071, 33648];
                    let d = crate::Sampler::default();
                    crate::Sampler {
                        mag_filter: code("magFilter", &filters[..2], d.mag_filter)?,
                        min_filter: code("minFilter", &filters, d.min_filter)?,
                        wrap_s: code("wrapS", &wraps, d.wrap_s)?,
                        wrap_t: code("wrapT", &wraps, d.wrap_t)?,
                    }
                }
            };
            Ok((image, sampler))
        };
        let mut material = |m: &Object| -> Result<crate::Material, ModelError> {
            let mut out = crate::Material {
                name: names.keep(m.string("name")?),
                ..Default::default()
            };
            if let Some(pbr) = m.object("pbrMetallicRoughness")? {
                if let Some(factor) = pbr.floats::<4>("baseColorFactor")? {
                    if factor.iter().any(|c| !(0.0..=1.0).contains(c)) {
                        return Err(pbr.broken("baseColorFactor", "must hold numbers from 0 to 1"));
                    }
                    out.base_color = factor;
                }
                if let Some(info) = pbr.object("baseColorTexture")? {
                    let (image, sampler) = texture(info.required_whole("index")?)?;
                    let mut uv_set = info.whole("texCoord")?.unwrap_or(0);
                    let mut transform = glam::Affine2::IDENTITY;
                    let moved = info.object("extensions")?;
                    if let Some(t) = moved.and_then(|e| e.object("KHR_texture_transform").ok()?) {
                        transform = texture_transform(&t)?;
                        uv_set = t.whole("texCoord")?.unwrap_or(uv_set);
                    }
                    out.texture = Some(crate::TextureRef {
                        image,
                        sampler,
                        uv_set,
                        transform,
                    });
                }
            }
            out.alpha = match m.string("alphaMode")?.unwrap_or("OPAQUE") {
                "OPAQUE" => crate::AlphaMode::Opaque,
                "MASK" => {
                    let cutoff = m.number("alphaCutoff")?.unwrap_or(0.5);
                    if cutoff < 0.0 {
                        return Err(m.broken("alphaCutoff", "must be 0 or more"));
                    }
                    crate::AlphaMode::Mask(cutoff)
                }
                "BLEND" => crate::AlphaMode::Blend,
                _ => return Err(m.broken("alphaMode", "must be OPAQUE, MASK or BLEND")),
            };
            Ok(out)
        };
        let materials = objects("materials", warnings)
            .iter()
            .map(|m| {
                material(m).unwrap_or_else(|e| {
                    warnings.push(format!("{e}; the material is drawn in plain colours"));
                    crate::Material::default()
                })
            })
            .collect();
        Self { materials, images }
    }

    /// The material a primitive names, if it names one there is.
    fn material_of(&self, primitive: &Object, warnings: &mut Vec<String>) -> Option<usize> {
        primitive
            .index("material", self.materials.len())
            .unwrap_or_else(|e| {
                warnings.push(format!("{e}; the mesh is drawn in plain colours"));
                None
            })
    }
}

fn read_accessor(index: usize, accessor: &Object, views: &[View]) -> Result<Accessor, ModelError> {
    let view_at = |object: &Object, key: &str| -> Result<Option<View>, ModelError> {
        Ok(object.index(key, views.len())?.map(|v| views[v]))
    };
    let data_type = |object: &Object, allowed: &[DataType]| -> Result<DataType, ModelError> {
        let code = object.required_whole("componentType")?;
        let t = match code {
            5120 => DataType::I8,
            5121 => DataType::U8,
            5122 => DataType::I16,
            5123 => DataType::U16,
            5125 => DataType::U32,
            5126 => DataType::F32,
            _ => return Err(object.broken("componentType", "is not a glTF component type")),
        };
        if allowed.contains(&t) {
            Ok(t)
        } else {
            Err(object.broken("componentType", "is not allowed here"))
        }
    };
    use DataType::*;
    let dimensions = match accessor.required_string("type")? {
        "SCALAR" => Dimensions::Scalar,
        "VEC2" => Dimensions::Vec2,
        "VEC3" => Dimensions::Vec3,
        "VEC4" => Dimensions::Vec4,
        "MAT2" => Dimensions::Mat2,
        "MAT3" => Dimensions::Mat3,
        "MAT4" => Dimensions::Mat4,
        _ => return Err(accessor.broken("type", "must be SCALAR, VECn or MATn")),
    };
    let sparse = match accessor.object("sparse")? {
        None => None,
        Some(sparse) => {
            let part = |key: &str| {
                sparse
                    .object(key)?
                    .ok_or_else(|| sparse.broken(key, "it is missing"))
            };
            let (indices, values) = (part("indices")?, part("values")?);
            let view = |object: &Object| {
                view_at(object, "bufferView")?
                    .ok_or_else(|| object.broken("bufferView", "it is missing"))
            };
            Some(Sparse {
                count: sparse.required_whole("count")?,
                indices: view(&indices)?,
                indices_offset: indices.whole("byteOffset")?.unwrap_or(0),
                index_type: data_type(&indices, &[U8, U16, U32])?,
                values: view(&values)?,
                values_offset: values.whole("byteOffset")?.unwrap_or(0),
            })
        }
    };
    Ok(Accessor {
        index,
        view: view_at(accessor, "bufferView")?,
        offset: accessor.whole("byteOffset")?.unwrap_or(0),
        data_type: data_type(accessor, &[I8, U8, I16, U16, U32, F32])?,
        normalized: accessor.bool("normalized")?,
        count: accessor.required_whole("count")?,
        dimensions,
        sparse,
    })
}

/// An animation's channels, or why it cannot be played.
fn read_channels(
    animation: &Object,
    accessors: &Accessors,
    node_count: usize,
) -> Result<Vec<Channel>, ModelError> {
    let mut samplers = Vec::new();
    for sampler in animation.objects("samplers")? {
        let accessor = |key: &str| {
            let index = sampler.required_index(key, accessors.len())?;
            accessors[index].clone()
        };
        let interpolation = match sampler.string("interpolation")? {
            None | Some("LINEAR") => Interpolation::Linear,
            Some("STEP") => Interpolation::Step,
            Some("CUBICSPLINE") => Interpolation::CubicSpline,
            Some(_) => {
                return Err(sampler.broken("interpolation", "must be LINEAR, STEP or CUBICSPLINE"));
            }
        };
        samplers.push(Sampler {
            interpolation,
            input: accessor("input")?,
            output: accessor("output")?,
        });
    }
    let mut channels = Vec::new();
    for (c, channel) in animation.objects("channels")?.iter().enumerate() {
        let sampler = channel.required_index("sampler", samplers.len())?;
        let target = channel
            .object("target")?
            .ok_or_else(|| channel.broken("target", "it is missing"))?;
        let node = target.required_whole("node")?;
        if node >= node_count {
            return Err(ModelError::new(format!(
                "channel {c} targets node {node}, but the file has {node_count} nodes"
            )));
        }
        let property = match target.string("path")? {
            Some("translation") => Property::Translation,
            Some("rotation") => Property::Rotation,
            Some("scale") => Property::Scale,
            Some("weights") => Property::MorphTargetWeights,
            _ => {
                return Err(ModelError::new(format!(
                    "channel {c} targets an unknown property"
                )));
            }
        };
        channels.push(Channel {
            index: c,
            node,
            property,
            sampler: samplers[sampler],
            sampler_index: sampler,
        });
    }
    Ok(channels)
}

/// A JSON object of the file, with its place in the file for messages.
struct Object<'v> {
    members: &'v [(Cow<'v, str>, Value<'v>)],
    path: String,
}

impl<'v> Object<'v> {
    fn new(value: &'v Value<'v>, path: String) -> Result<Self, ModelError> {
        match value {
            Value::Object(members) => Ok(Self { members, path }),
            _ => Err(rules_broken(
                if path.is_empty() {
                    "the top level"
                } else {
                    &path
                },
                "must be an object",
            )),
        }
    }

    fn members(&self) -> &'v [(Cow<'v, str>, Value<'v>)] {
        self.members
    }

    fn path_of(&self, key: &str) -> String {
        if self.path.is_empty() {
            key.to_owned()
        } else {
            format!("{}.{key}", self.path)
        }
    }

    fn broken(&self, key: &str, why: &str) -> ModelError {
        rules_broken(&self.path_of(key), why)
    }

    /// A member; `null` counts as absent.
    fn field(&self, key: &str) -> Option<&'v Value<'v>> {
        self.members
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v)
            .filter(|v| **v != Value::Null)
    }

    fn whole_value(&self, value: &Value, key: &str) -> Result<usize, ModelError> {
        match value {
            Value::Number(v) if *v >= 0.0 && v.fract() == 0.0 && *v <= MAX_WHOLE => Ok(*v as usize),
            Value::Number(v) if *v > MAX_WHOLE && v.fract() == 0.0 => Err(self.broken(
                key,
                &format!("is {v:e}, larger than any file holds (2^53 at most)"),
            )),
            _ => Err(self.broken(key, "must be a whole number, 0 or more")),
        }
    }

    fn whole(&self, key: &str) -> Result<Option<usize>, ModelError> {
        self.field(key)
            .map(|v| self.whole_value(v, key))
            .transpose()
    }

    fn required_whole(&self, key: &str) -> Result<usize, ModelError> {
        self.whole(key)?
            .ok_or_else(|| self.broken(key, "it is missing"))
    }

    /// An index into something with `len` items.
    fn index(&self, key: &str, len: usize) -> Result<Option<usize>, ModelError> {
        match self.whole(key)? {
            Some(i) if i >= len => Err(self.broken(key, "index out of bounds")),
            i => Ok(i),
        }
    }

    fn required_index(&self, key: &str, len: usize) -> Result<usize, ModelError> {
        self.index(key, len)?
            .ok_or_else(|| self.broken(key, "it is missing"))
    }

    fn bool(&self, key: &str) -> Result<bool, ModelError> {
        match self.field(key) {
            None => Ok(false),
            Some(Value::Bool(b)) => Ok(*b),
            Some(_) => Err(self.broken(key, "must be true or false")),
        }
    }

    fn string(&self, key: &str) -> Result<Option<&'v str>, ModelError> {
        match self.field(key) {
            None => Ok(None),
            Some(Value::String(s)) => Ok(Some(s)),
            Some(_) => Err(self.broken(key, "must be a string")),
        }
    }

    fn required_string(&self, key: &str) -> Result<&'v str, ModelError> {
        self.string(key)?
            .ok_or_else(|| self.broken(key, "it is missing"))
    }

    /// An array member; absent is empty.
    fn list(&self, key: &str) -> Result<&'v [Value<'v>], ModelError> {
        match self.field(key) {
            None => Ok(&[]),
            Some(Value::Array(items)) => Ok(items),
            Some(_) => Err(self.broken(key, "must be an array")),
        }
    }

    /// `weights` (a mesh's or a node's morph weights), or why it is not a list of
    /// numbers; `None` when absent.
    fn weights(&self) -> Option<Result<Vec<f32>, String>> {
        let read = |items: &[Value]| {
            items
                .iter()
                .map(|item| match item {
                    Value::Number(v) if (*v as f32).is_finite() => Ok(*v as f32),
                    _ => Err(format!(
                        "{} holds something other than a number",
                        self.path_of("weights")
                    )),
                })
                .collect()
        };
        match self.field("weights")? {
            Value::Array(items) => Some(read(items)),
            _ => Some(Err(format!("{} is not a list", self.path_of("weights")))),
        }
    }

    fn object(&self, key: &str) -> Result<Option<Object<'v>>, ModelError> {
        self.field(key)
            .map(|v| Object::new(v, self.path_of(key)))
            .transpose()
    }

    /// An array of objects, each knowing its place (`key[i]`).
    fn objects(&self, key: &str) -> Result<Vec<Object<'v>>, ModelError> {
        self.list(key)?
            .iter()
            .enumerate()
            .map(|(i, v)| Object::new(v, format!("{}[{i}]", self.path_of(key))))
            .collect()
    }

    fn strings(&self, key: &str) -> Result<Vec<&'v str>, ModelError> {
        self.list(key)?
            .iter()
            .enumerate()
            .map(|(i, v)| match v {
                Value::String(s) => Ok(s.as_ref()),
                _ => Err(self.broken(&format!("{key}[{i}]"), "must be a string")),
            })
            .collect()
    }

    /// An array of indices into something with `len` items.
    fn indices(&self, key: &str, len: usize) -> Result<Vec<usize>, ModelError> {
        self.list(key)?
            .iter()
            .enumerate()
            .map(|(i, v)| {
                let at = format!("{key}[{i}]");
                match self.whole_value(v, &at)? {
                    index if index >= len => Err(self.broken(&at, "index out of bounds")),
                    index => Ok(index),
                }
            })
            .collect()
    }

    /// Exactly `N` numbers.
    /// A number that fits an `f32`, if the field is there.
    fn number(&self, key: &str) -> Result<Option<f32>, ModelError> {
        match self.field(key) {
            None => Ok(None),
            Some(Value::Number(v)) if (*v as f32).is_finite() => Ok(Some(*v as f32)),
            Some(_) => Err(self.broken(key, "must be a number")),
        }
    }

    fn floats<const N: usize>(&self, key: &str) -> Result<Option<[f32; N]>, ModelError> {
        let Some(value) = self.field(key) else {
            return Ok(None);
        };
        let mut out = [0.0; N];
        match value {
            Value::Array(items) if items.len() == N => {
                for (o, item) in out.iter_mut().zip(items) {
                    match item {
                        Value::Number(v) => *o = *v as f32,
                        _ => return Err(self.broken(key, "must hold only numbers")),
                    }
                }
                Ok(Some(out))
            }
            _ => Err(self.broken(key, &format!("must be an array of {N} numbers"))),
        }
    }
}

/// The largest whole number read: a JSON number is a double, exact to 2^53, and an
/// index or a length must fit this machine's `usize`.
const MAX_WHOLE: f64 = if usize::BITS >= 64 {
    9_007_199_254_740_992.0
} else {
    usize::MAX as f64
};

fn rules_broken(path: &str, why: &str) -> ModelError {
    ModelError::new(format!("the file breaks the glTF rules at {path}: {why}"))
}
