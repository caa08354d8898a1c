//! The glTF boundary: file bytes in, plain [`skin`] types out, and every problem
//! a one-line message that names the element it is about.
//!
//! [`load`] reads a GLB, or a `.gltf` whose buffers are embedded as base64 data URIs
//! (external files are refused: in the browser there is no folder to read them from).
//! Every node becomes a joint of one [`Skeleton`], parents first, so animations can
//! drive any node and rigid meshes ride on their node like a one-bone skin. Problems
//! the loader can repair (weights that do not sum to 1, more than four influences, a
//! skinned mesh under a transform glTF says to ignore) become [`Model::warnings`];
//! problems it cannot are a [`ModelError`]. No claimed count is trusted before it is
//! checked against the bytes the file really has, and no input makes the loader panic.

mod accessor;
mod clips;
mod container;
pub use container::{
    Beside, MAX_FILE_BYTES, MAX_IMAGE_BYTES, MAX_MESH_PARTS, MAX_MORPH_OFFSETS, MAX_MORPH_TARGETS,
    MAX_NODES, glb,
};
pub use document::MAX_NAME_CHARS;
mod document;
mod json;
mod meshes;
mod nodes;
mod repair;
mod skins;
mod write;
pub use repair::{Change, Fix, Painted, Repaired, paint, repair};
pub use write::to_glb;

use glam::Mat4;
use skin::Skeleton;
use skin::clip::{Clip, Pose, Transform};
use skin::lbs::SkinMesh;
use skin::morph::MorphTarget;
use std::fmt;

/// Why a file could not be loaded: one line naming the element and the problem.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ModelError {
    message: String,
}

impl ModelError {
    fn new(message: impl Into<String>) -> Self {
        // One line whatever a name or a dependency's message holds.
        let message = message.into().replace(|c: char| c.is_control(), " ");
        Self { message }
    }

    /// The message, one line.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for ModelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for ModelError {}

/// A name from the file, quoted for a message: control characters (a newline would
/// break the one-line promise) become spaces and long names are cut.
fn quoted(name: &str) -> String {
    const MAX: usize = 60;
    let clean: String = name
        .chars()
        .take(MAX)
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    let more = if name.chars().count() > MAX {
        "…"
    } else {
        ""
    };
    format!("'{clean}{more}'")
}

/// One joint: a node of the file.
#[derive(Clone, Debug, PartialEq)]
pub struct Joint {
    /// The node's name, or `node N` when it has none.
    pub name: String,
    /// The node's index in the file.
    pub node: usize,
    /// The node carries a camera or a light (`KHR_lights_punctual`): a place in the
    /// scene, not a bone.
    pub camera_or_light: bool,
}

/// A skin: the joints a skinned mesh follows and their inverse bind matrices.
///
/// Contract: `joints` and `joint_from_bind` have the same length (at least 1); every
/// entry of `joints` is a joint index of the model; every inverse bind is finite and
/// invertible. A skinned mesh's influences index into `joints`, not the skeleton.
#[derive(Clone, Debug, PartialEq)]
pub struct Skin {
    /// The skin's name, or `skin N`.
    pub name: String,
    /// The model's joint index of each skin joint.
    pub joints: Vec<usize>,
    /// `joint_from_bind[i]`, the inverse bind matrix of skin joint `i`.
    pub joint_from_bind: Vec<Mat4>,
}

/// One mesh primitive's triangles, as the nodes place it.
///
/// Contract: `vertices` holds one position and one influence per vertex (normals and
/// tangents are either absent or one per vertex, unit or zero); `indices` is a triangle
/// list whose entries are all below the vertex count; each morph target keeps the
/// [`MorphTarget`] contract for this many vertices, with one weight per target.
#[derive(Clone, Debug, PartialEq)]
pub struct MeshPart {
    /// A name for lists: the mesh's or node's name, `#p` for primitive p of several.
    pub name: String,
    /// The mesh's index in the file.
    pub mesh: usize,
    /// The primitive's index in its mesh.
    pub primitive: usize,
    /// The index of the node that places it.
    pub node: usize,
    /// Positions, normals, tangents and influences.
    pub vertices: SkinMesh,
    /// The tangent's `w`: ±1, the side the bitangent is on (empty without tangents).
    pub bitangent_signs: Vec<f32>,
    /// Three vertex indices per triangle.
    pub indices: Vec<u32>,
    /// Its material, an index into [`Model::materials`].
    pub material: Option<usize>,
    /// One texture coordinate per vertex, from the set its material's texture reads
    /// (empty when it has no texture, or the coordinates could not be read).
    pub uvs: Vec<[f32; 2]>,
    /// One linear RGBA colour per vertex (`COLOR_0`, alpha 1 where it has three
    /// numbers), multiplied with the material's colour; empty when it has none.
    pub colors: Vec<[f32; 4]>,
    /// Its blend shapes (glTF's morph targets), in file order: offsets in the same
    /// space as `vertices`, added before the skin (`skin::morph::morphed`). A target
    /// the loader could not read is here, empty, so indices still match the file's.
    pub targets: Vec<MorphTarget>,
    /// The weight of each target when nothing animates it: the node's `weights`, else
    /// the mesh's, else 0 (one per target).
    pub morph_weights: Vec<f32>,
}

/// How a material's alpha is read (glTF's `alphaMode`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum AlphaMode {
    /// Alpha is ignored: the surface is fully opaque (glTF's default).
    Opaque,
    /// A fragment whose alpha is below the cutoff (`alphaCutoff`, 0.5 by default) is
    /// not drawn; the rest are opaque.
    Mask(f32),
    /// Alpha blends the surface over what lies behind it.
    Blend,
}

/// How a mesh is painted: the part of a glTF material the model page draws.
#[derive(Clone, Debug, PartialEq)]
pub struct Material {
    /// The material's name, if it has one.
    pub name: Option<String>,
    /// RGBA, linear, 0 to 1 (`baseColorFactor`), multiplied with the texture.
    pub base_color: [f32; 4],
    /// The base colour texture, if any.
    pub texture: Option<TextureRef>,
    /// How its alpha is read.
    pub alpha: AlphaMode,
}

impl Default for Material {
    /// glTF's default: white, no texture, opaque.
    fn default() -> Self {
        Self {
            name: None,
            base_color: [1.0; 4],
            texture: None,
            alpha: AlphaMode::Opaque,
        }
    }
}

/// A material's texture: which image, sampled how, through which UV set.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TextureRef {
    /// An index into [`Model::images`].
    pub image: usize,
    /// How it is filtered and wrapped.
    pub sampler: Sampler,
    /// `n` of the `TEXCOORD_n` attribute it reads.
    pub uv_set: usize,
    /// `KHR_texture_transform`: where a texture coordinate of the file is read in the
    /// image (offset · rotation · scale). The loader applies it to [`MeshPart::uvs`].
    pub transform: glam::Affine2,
}

/// How a texture is sampled, in glTF's codes (which are OpenGL's: `9729` is
/// `GL_LINEAR`, `10497` is `GL_REPEAT`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sampler {
    /// `GL_NEAREST` or `GL_LINEAR`.
    pub mag_filter: u32,
    /// `GL_NEAREST`, `GL_LINEAR` or one of the four mipmap filters.
    pub min_filter: u32,
    /// `GL_REPEAT`, `GL_CLAMP_TO_EDGE` or `GL_MIRRORED_REPEAT`, across.
    pub wrap_s: u32,
    /// The same, down.
    pub wrap_t: u32,
}

impl Default for Sampler {
    /// What a texture without a sampler gets: linear, mipmapped, repeating.
    fn default() -> Self {
        Self {
            mag_filter: 9729,
            min_filter: 9987,
            wrap_s: 10497,
            wrap_t: 10497,
        }
    }
}

/// An image a texture shows, as the file stores it (PNG or JPEG bytes): decoding it is
/// the drawing side's work.
#[derive(Clone, Debug, PartialEq)]
pub struct Image {
    /// The image's name, or `image N`.
    pub name: String,
    /// The file's `mimeType`, if it gives one.
    pub mime: Option<String>,
    /// The encoded bytes, or why they could not be had.
    pub bytes: Result<Vec<u8>, String>,
}

/// A mesh deformed by a skin: positions in the bind pose, influences indexing the
/// skin's joints. Draw it with [`Model::palette`] of its skin.
#[derive(Clone, Debug, PartialEq)]
pub struct SkinnedMesh {
    /// The geometry and influences.
    pub part: MeshPart,
    /// Which of [`Model::skins`] deforms it.
    pub skin: usize,
    /// Each vertex's `JOINTS_0` and `WEIGHTS_0` as the file stores them, before the
    /// loader merges, sorts and normalises them into [`MeshPart::vertices`]' influences:
    /// what a reader of the file would find there.
    pub stored: Vec<StoredInfluences>,
}

/// One vertex's `JOINTS_0` (indices into its skin's joint list) and `WEIGHTS_0`, as the
/// file stores them (weights stored as normalised integers read as 0..1).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct StoredInfluences {
    /// The four joint indices.
    pub joints: [u32; 4],
    /// The four weights.
    pub weights: [f32; 4],
}

/// A mesh that rides on one joint (its own node) with weight 1: the one-bone case.
/// Positions are in the node's frame; every influence is joint 0 with weight 1, so a
/// palette of one matrix, `world_from_joint[joint]`, draws it like a skinned mesh.
#[derive(Clone, Debug, PartialEq)]
pub struct RigidMesh {
    /// The geometry (influences all `rigid(0)`).
    pub part: MeshPart,
    /// The joint of the node that carries it.
    pub joint: usize,
}

/// A loaded model: a skeleton, its rest pose, skins, meshes and clips.
///
/// Contract: `joints`, `rest_pose` and `skeleton` have one entry per node of the file,
/// parents first; every clip is checked for that many joints; every mesh keeps the
/// [`MeshPart`] contract and every skinned mesh's influences index inside its skin.
#[derive(Clone, Debug, PartialEq)]
pub struct Model {
    /// Every node as a joint, parents first.
    pub joints: Vec<Joint>,
    /// The parent of each joint.
    pub skeleton: Skeleton,
    /// Each joint's local transform at rest (the file's node transforms).
    pub rest_pose: Pose,
    /// The skins.
    pub skins: Vec<Skin>,
    /// Meshes deformed by a skin.
    pub skinned_meshes: Vec<SkinnedMesh>,
    /// Meshes carried rigidly by one node.
    pub rigid_meshes: Vec<RigidMesh>,
    /// The animations, in file order (broken ones left out with a warning).
    pub clips: Vec<Clip>,
    /// The materials, in file order.
    pub materials: Vec<Material>,
    /// The images the materials' textures show.
    pub images: Vec<Image>,
    /// Problems that were repaired or parts left out, one line each.
    pub warnings: Vec<String>,
    /// Facts worth showing that are not problems (which mesh uses which skin).
    pub notes: Vec<String>,
}

impl Model {
    /// The joint of the node named `name`.
    pub fn joint_named(&self, name: &str) -> Option<usize> {
        self.joints.iter().position(|j| j.name == name)
    }

    /// Which joints are bones, as glTF viewers draw a skeleton: the joints of the skins
    /// and the nodes under them (a tail or a finger tip a skin does not list), and the
    /// nodes that carry a rigid mesh; every node of a file with no mesh (a skeleton
    /// alone). A node that carries a camera or a light, or an empty node under no skin,
    /// is not a bone: the page neither draws it nor frames it.
    pub fn skeletal(&self) -> Vec<bool> {
        let mut bone = vec![false; self.joints.len()];
        for joint in self.skins.iter().flat_map(|s| &s.joints) {
            if let Some(b) = bone.get_mut(*joint) {
                *b = true;
            }
        }
        // Joints come parents first, so one pass reaches every node under a skin.
        for joint in 0..bone.len() {
            if self.skeleton.parent(joint).is_some_and(|p| bone[p]) {
                bone[joint] = true;
            }
        }
        for mesh in &self.rigid_meshes {
            if let Some(b) = bone.get_mut(mesh.joint) {
                *b = true;
            }
        }
        let meshless = self.skinned_meshes.is_empty() && self.rigid_meshes.is_empty();
        for (b, joint) in bone.iter_mut().zip(&self.joints) {
            *b = (*b || meshless) && !joint.camera_or_light;
        }
        bone
    }

    /// The clip named `name`.
    pub fn clip(&self, name: &str) -> Option<&Clip> {
        self.clips.iter().find(|c| c.name() == name)
    }

    /// `world_from_joint` for every joint under `pose`; joints the pose lacks take
    /// their rest transform.
    pub fn world_from_joint(&self, pose: &[Transform]) -> Vec<Mat4> {
        let local: Vec<Mat4> = (0..self.rest_pose.len())
            .map(|j| self.parent_from_joint(pose, j))
            .collect();
        self.skeleton.world_from_joint(&local)
    }

    /// Joint `joint`'s local matrix under `pose`, its rest transform where the pose
    /// lacks it (the identity for no such joint): the factor [`Self::world_from_joint`]
    /// multiplies in for it.
    pub fn parent_from_joint(&self, pose: &[Transform], joint: usize) -> Mat4 {
        (pose.get(joint).or(self.rest_pose.get(joint))).map_or(Mat4::IDENTITY, Transform::to_mat4)
    }

    /// The palette of skin `skin`: `world_from_joint[joints[i]] · joint_from_bind[i]`
    /// (empty when there is no such skin).
    pub fn palette(&self, skin: usize, world_from_joint: &[Mat4]) -> Vec<Mat4> {
        let Some(skin) = self.skins.get(skin) else {
            return Vec::new();
        };
        skin.joints
            .iter()
            .zip(&skin.joint_from_bind)
            .map(|(&j, bind)| world_from_joint.get(j).copied().unwrap_or(Mat4::IDENTITY) * *bind)
            .collect()
    }

    /// The pose of clip `clip` at time `t` over the rest pose.
    pub fn sample(&self, clip: &Clip, t: f32) -> Pose {
        clip.sample_pose(&self.rest_pose, t)
    }
}

/// Reads a GLB or a self-contained `.gltf`.
pub fn load(bytes: &[u8]) -> Result<Model, ModelError> {
    load_with(bytes, &|_, _| Err(SELF_CONTAINED.to_owned()))
}

/// Why a file's external buffer cannot be read when nothing beside it was given.
pub const SELF_CONTAINED: &str = "only the file itself was given: open it from its folder \
     (on the desktop), drop it together with its .bin, export it as GLB, or embed the \
     buffers as data URIs";

/// [`load`], reading each buffer and image the file names by a relative URI (a `.gltf`
/// beside its `.bin`) with `beside` ([`Beside`]: no more than each claims).
pub fn load_with(bytes: &[u8], beside: &Beside<'_>) -> Result<Model, ModelError> {
    let parts = container::split(bytes)?;
    let json = parse(parts.json)?;
    let mut warnings = Vec::new();
    let document = document::read(&json, &mut warnings)?;
    let buffers = container::buffers(&document, parts.bin, beside)?;
    let hierarchy = nodes::hierarchy(&document, &mut warnings)?;
    // Each node's transform is finite, but their product down the tree may not be.
    if let Some(joint) = hierarchy.rest_world().iter().position(|m| !m.is_finite()) {
        return Err(ModelError::new(format!(
            "the place in the world of {} is not a finite number: the scales down the tree \
             to it multiply past what a float holds (about 3.4e38)",
            hierarchy.node_label(hierarchy.joints[joint].node)
        )));
    }
    let skins = skins::skins(&document, &buffers, &hierarchy, &mut warnings)?;
    let mut notes = Vec::new();
    let meshes = meshes::meshes(
        &document,
        &buffers,
        &hierarchy,
        &skins,
        &mut warnings,
        &mut notes,
    )?;
    let clips = clips::clips(&document, &buffers, &hierarchy, &mut warnings, &mut notes);
    let images = container::images(&document, &buffers, beside);
    Ok(Model {
        joints: hierarchy.joints,
        skeleton: hierarchy.skeleton,
        rest_pose: hierarchy.rest,
        skins,
        skinned_meshes: meshes.skinned,
        rigid_meshes: meshes.rigid,
        clips,
        materials: document.materials,
        images,
        warnings: summarised(warnings, "warnings"),
        notes: summarised(notes, "notes"),
    })
}

/// How many warnings of one kind are written out before the rest are counted.
const SHOWN_OF_A_KIND: usize = 3;

/// The warnings with those of one kind (the same words, other numbers and names) past
/// the first [`SHOWN_OF_A_KIND`] counted in one line, so a file of 3,000 meshes says
/// what is wrong with them in four lines, not 3,000. Kinds keep the order they first
/// appear in.
fn summarised(warnings: Vec<String>, what: &str) -> Vec<String> {
    // A warning's kind: its text without numbers and without what it quotes.
    let kind = |text: &str| {
        let mut out = String::new();
        let mut quoted = false;
        for c in text.chars() {
            match c {
                '\'' => quoted = !quoted,
                _ if quoted || c.is_ascii_digit() => {}
                _ => out.push(c),
            }
        }
        out
    };
    let mut kinds: Vec<(String, Vec<String>)> = Vec::new();
    for warning in warnings {
        let k = kind(&warning);
        match kinds.iter_mut().find(|(known, _)| *known == k) {
            Some((_, list)) => list.push(warning),
            None => kinds.push((k, vec![warning])),
        }
    }
    kinds
        .into_iter()
        .flat_map(|(_, mut list)| {
            if list.len() > SHOWN_OF_A_KIND + 1 {
                let more = list.len() - SHOWN_OF_A_KIND;
                list.truncate(SHOWN_OF_A_KIND);
                list.push(format!("… and {more} more {what} like these"));
            }
            list
        })
        .collect()
}

fn parse(text: &[u8]) -> Result<json::Value<'_>, ModelError> {
    json::parse(text).map_err(|e| {
        let at = format!("line {}, column {}", e.line, e.column);
        if e.ended {
            ModelError::new(format!(
                "the file is truncated: its JSON stops in the middle ({at})"
            ))
        } else {
            ModelError::new(format!("the glTF JSON is not valid at {at}: {}", e.reason))
        }
    })
}
