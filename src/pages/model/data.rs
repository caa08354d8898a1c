//! The model page's data: the bundled models loaded once, the camera that frames them,
//! and the pose of one frame (clips sampled and blended, then skinned on the CPU).

use super::ModelPage;
use crate::link::Named;
use crate::pages::centres::Method;
use crate::ui::OrbitCamera;
use crate::ui::camera::ORBIT_DISTANCE;
use glam::{Mat3, Mat4, Vec3, Vec4};
use gltf::Model;
use skin::clip::{Pose, blend_poses_masked, subtree_mask};
use skin::lbs::SkinnedVertex;
use skin::morph::morphed;
use std::sync::{Arc, OnceLock};

/// The bundled models the page offers, by link name.
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    strum::VariantArray,
    strum::VariantNames,
    strum::IntoStaticStr,
)]
#[strum(serialize_all = "snake_case")]
pub enum Asset {
    /// Khronos' SimpleSkin: two joints, one clip.
    SimpleSkin,
    /// RobotExpressive: 43 skinned joints, 14 clips, rigid parts.
    Robot,
    /// Khronos' Fox: 24 joints, 3 clips, a texture, about 80 units tall.
    Fox,
    /// The file the user opened last (dropped, chosen, or named with `--open`).
    File,
}

/// Why `asset=file` shows nothing: no file was opened.
pub const NO_FILE: &str = "no file is open: drop a .glb or .gltf file on the window, \
                           choose one with Open a file, or start skinlab with --open FILE";

/// What the page says while the web app's fetch of a model is under way.
pub const ON_ITS_WAY: &str = "the model is on its way from the server…";

/// A bundled model, loaded once for every page that asks: the model, or why it failed
/// (`Asset::File` is not bundled: the page keeps the file it opened). A model the web
/// app fetches is [`ON_ITS_WAY`] until it arrives.
pub fn loaded(asset: Asset) -> Result<Arc<Model>, String> {
    if let Some(awaited) = crate::models::awaited(asset.slug()) {
        return Err(awaited.err().unwrap_or_else(|| ON_ITS_WAY.to_owned()));
    }
    static CACHE: [OnceLock<Result<Arc<Model>, String>>; 3] =
        [OnceLock::new(), OnceLock::new(), OnceLock::new()];
    let cache = match asset {
        Asset::SimpleSkin => &CACHE[0],
        Asset::Robot => &CACHE[1],
        Asset::Fox => &CACHE[2],
        Asset::File => return Err(NO_FILE.to_owned()),
    };
    cache
        .get_or_init(|| {
            let bytes = crate::models::bytes(asset.slug())
                .ok_or_else(|| format!("no bundled model called `{}`", asset.slug()))?;
            gltf::load(bytes).map(Arc::new).map_err(|e| e.to_string())
        })
        .clone()
}

/// An empty model, drawn when a bundled one could not load (the error is shown).
pub fn empty_model() -> Arc<Model> {
    Arc::new(Model {
        joints: Vec::new(),
        skeleton: skin::Skeleton::chain(0),
        rest_pose: Vec::new(),
        skins: Vec::new(),
        skinned_meshes: Vec::new(),
        rigid_meshes: Vec::new(),
        clips: Vec::new(),
        materials: Vec::new(),
        images: Vec::new(),
        warnings: Vec::new(),
        notes: Vec::new(),
    })
}

/// Every point of the model as the page first draws it (its first clip at its first
/// key, or the rest pose when it has no clip): skinned vertices, rigid vertices carried
/// by their joint, and its bones ([`Model::skeletal`]). A camera, a light or an empty
/// node under no skin is not framed: a camera 50 units away would shrink the model to a
/// dot.
fn first_drawn_points(model: &Model) -> Vec<Vec3> {
    let pose = match model.clips.first() {
        Some(clip) => model.sample(clip, clip.start()),
        None => model.rest_pose.clone(),
    };
    let world = model.world_from_joint(&pose);
    // Where the pose draws each skinned vertex (its bind position can lie elsewhere,
    // at another scale), and every joint: a file may hold one small mesh on a whole
    // skeleton.
    let palettes: Vec<Vec<Mat4>> = (0..model.skins.len())
        .map(|s| model.palette(s, &world))
        .collect();
    let skinned = model.skinned_meshes.iter().flat_map(|m| {
        let palette = palettes.get(m.skin).map_or(&[][..], |p| &p[..]);
        let bind = m.part.vertices.positions.iter();
        bind.zip(&m.part.vertices.influences)
            .map(move |(p, influences)| {
                if influences
                    .joints
                    .iter()
                    .all(|j| (*j as usize) < palette.len())
                {
                    skin::lbs::blended_matrix(palette, influences).transform_point3(*p)
                } else {
                    *p
                }
            })
    });
    let joints = (world.iter().zip(model.skeletal()))
        .filter(|(_, bone)| *bone)
        .map(|(w, _)| w.w_axis.truncate());
    let rigid = model.rigid_meshes.iter().flat_map(|m| {
        let w = world.get(m.joint).copied().unwrap_or(Mat4::IDENTITY);
        m.part
            .vertices
            .positions
            .iter()
            .map(move |p| w.transform_point3(*p))
    });
    skinned
        .chain(rigid)
        .chain(joints)
        .filter(|p| p.is_finite())
        .collect()
}

/// The centre and radius of the sphere round the model as the page first draws it;
/// `None` when it draws nothing. A model that is one point has radius 1.
pub fn drawn_sphere(model: &Model) -> Option<(Vec3, f32)> {
    let points = first_drawn_points(model);
    let (min, max) = points.iter().fold(
        (Vec3::splat(f32::INFINITY), Vec3::splat(f32::NEG_INFINITY)),
        |(lo, hi), p| (lo.min(*p), hi.max(*p)),
    );
    if points.is_empty() {
        return None;
    }
    // Any size, from a millimetre to kilometres.
    let radius = 0.5 * (max - min).length();
    let radius = if radius > 0.0 && radius.is_finite() {
        radius
    } else {
        1.0
    };
    Some((0.5 * (min + max), radius))
}

/// An orbit camera that shows the whole model as the page first draws it, seen from
/// its left front (half a right angle and more), so that a walk's stride shows. A flat
/// model in the xy plane (SimpleSkin) is seen square on, so that its x and y can be
/// read off the screen.
pub fn framing(model: &Model) -> OrbitCamera {
    let Some((center, radius)) = drawn_sphere(model) else {
        return OrbitCamera::default();
    };
    let depth = first_drawn_points(model)
        .iter()
        .map(|p| (p.z - center.z).abs())
        .fold(0.0f32, f32::max);
    let flat = depth <= 0.01 * radius;
    OrbitCamera {
        target: center,
        yaw: if flat { 0.0 } else { 0.9 },
        pitch: if flat { 0.0 } else { 0.2 },
        // The view is 45° high: a sphere of `radius` fits at radius / sin(22.5°).
        distance: (1.1 * radius / 22.5f32.to_radians().sin())
            .clamp(*ORBIT_DISTANCE.start(), *ORBIT_DISTANCE.end()),
    }
}

/// The most skinned vertices a model may have for its centres of rotation to be
/// searched when it opens: the search is done once, but past this it would hold the
/// page up for seconds.
pub const CENTRES_MAX_VERTICES: usize = 200_000;

/// The centres of rotation of a model's skinned meshes ([`skin::cor`]), found when it
/// opens.
#[derive(Debug, Default)]
pub struct ModelCentres {
    /// One centre per vertex of each skinned mesh; none when the model was not searched.
    pub meshes: Vec<Vec<Vec3>>,
    /// How long the search took, in milliseconds.
    pub millis: f64,
    /// Why the model was not searched.
    pub refused: Option<String>,
}

/// Searches each skinned mesh of `model` for its centres of rotation, from its own
/// triangles, unless it has more than [`CENTRES_MAX_VERTICES`] skinned vertices.
pub fn find_centres(model: &Model) -> ModelCentres {
    let vertices: usize = (model.skinned_meshes.iter())
        .map(|m| m.part.vertices.positions.len())
        .sum();
    if vertices > CENTRES_MAX_VERTICES {
        return ModelCentres {
            refused: Some(format!(
                "{vertices} skinned vertices: more than the {CENTRES_MAX_VERTICES} searched for centres when a model opens"
            )),
            ..Default::default()
        };
    }
    let start = web_time::Instant::now();
    let meshes = (model.skinned_meshes.iter())
        .map(|m| {
            let skin = &m.part.vertices;
            skin::cor::placed(&skin::cor::centres(skin, &m.part.indices), &skin.positions)
        })
        .collect();
    ModelCentres {
        meshes,
        millis: start.elapsed().as_secs_f64() * 1000.0,
        refused: None,
    }
}

/// Everything one frame derives from the state.
pub struct Frame {
    /// Each joint's local transform.
    pub pose: Pose,
    /// `world_from_joint` of every joint.
    pub world: Vec<Mat4>,
    /// The palette of each skin (the world matrices alone when the inverse bind is
    /// forgotten).
    pub palettes: Vec<Vec<Mat4>>,
    /// Each skinned mesh skinned on the CPU (for picking and readouts), its blend
    /// shapes added in first.
    pub skinned: Vec<Vec<SkinnedVertex>>,
    /// Each mesh's blend-shape weights (skinned meshes, then rigid ones).
    pub morph_weights: Vec<Vec<f32>>,
}

impl ModelPage {
    /// The clip time of clip B that goes with clip A's time: the same fraction of each.
    pub fn time_b(&self) -> Option<f32> {
        let a = self.model.clips.get(self.clip)?;
        let b = self.model.clips.get(self.clip_b?)?;
        let phase = if a.duration() > 0.0 {
            ((self.time - a.start()) / a.duration()).clamp(0.0, 1.0)
        } else {
            0.0
        };
        Some(b.time_at(phase))
    }

    /// The pose: clip A at the time, blended with clip B (under the mask) if chosen,
    /// and the joints held by hand at their held transforms.
    pub fn sample_pose(&self) -> Pose {
        let mut pose = self.clip_pose();
        for (&joint, held) in &self.held {
            if let Some(local) = pose.get_mut(joint) {
                *local = *held;
            }
        }
        pose
    }

    /// The pose the clips give: clip A at the time, blended with clip B if chosen.
    pub fn clip_pose(&self) -> Pose {
        let model = &self.model;
        let Some(a) = model.clips.get(self.clip) else {
            return model.rest_pose.clone();
        };
        let pose_a = model.sample(a, self.time);
        let (Some(b), Some(time_b)) = (self.clip_b.and_then(|b| model.clips.get(b)), self.time_b())
        else {
            return pose_a;
        };
        let pose_b = model.sample(b, time_b);
        let mask = match self.mask {
            Some(root) if root < model.skeleton.len() => subtree_mask(&model.skeleton, root),
            _ => vec![1.0; model.skeleton.len()],
        };
        blend_poses_masked(&pose_a, &pose_b, self.blend, &mask, self.sign_check)
    }

    /// The inverse bind of joint `joint` in skin `skin` (`index` is its place in the
    /// skin's list): the hand-edited one if there is one, else the file's.
    pub fn joint_from_bind(&self, skin: usize, index: usize, joint: usize) -> Mat4 {
        self.inverse_binds.get(&joint).copied().unwrap_or_else(|| {
            self.model
                .skins
                .get(skin)
                .and_then(|s| s.joint_from_bind.get(index))
                .copied()
                .unwrap_or(Mat4::IDENTITY)
        })
    }

    /// The palette of skin `skin` under `world`: `world_from_joint · joint_from_bind`
    /// per skin joint, or the world matrices alone when the inverse bind is forgotten.
    pub fn palette(&self, skin: usize, world: &[Mat4]) -> Vec<Mat4> {
        let Some(s) = self.model.skins.get(skin) else {
            return Vec::new();
        };
        s.joints
            .iter()
            .enumerate()
            .map(|(i, &j)| {
                let world = world.get(j).copied().unwrap_or(Mat4::IDENTITY);
                if self.forget_inverse_bind {
                    world
                } else {
                    world * self.joint_from_bind(skin, i, j)
                }
            })
            .collect()
    }

    /// The frame for the current state.
    pub fn frame(&self) -> Frame {
        let pose = self.sample_pose();
        let world = self.model.world_from_joint(&pose);
        let palettes: Vec<Vec<Mat4>> = (0..self.model.skins.len())
            .map(|s| self.palette(s, &world))
            .collect();
        let morph_weights = self.morph_weights();
        let skinned = (self.model.skinned_meshes.iter().zip(&morph_weights))
            .enumerate()
            .map(|(i, (m, weights))| match palettes.get(m.skin) {
                Some(p) if !p.is_empty() => {
                    let morphed = morphed(&m.part.vertices, &m.part.targets, weights);
                    self.mesh_method(i, p)
                        .0
                        .skin(p, &morphed, self.mesh_centres(i))
                }
                _ => Vec::new(),
            })
            .collect();
        Frame {
            pose,
            world,
            palettes,
            skinned,
            morph_weights,
        }
    }

    /// How skinned mesh `m` is blended with `palette` (empty: whatever the palette):
    /// [`ModelPage::method`], or linear blending where that cannot draw it, and why.
    pub fn mesh_method(&self, m: usize, palette: &[Mat4]) -> (Method, Option<&'static str>) {
        let joints = (self.model.skinned_meshes.get(m))
            .and_then(|mesh| self.model.skins.get(mesh.skin))
            .map_or(0, |skin| skin.joints.len());
        // A scale or shear the two phases carry; a mirror or a projection they cannot.
        let turns = || {
            palette.iter().all(|g| {
                Mat3::from_mat4(*g).determinant() > 0.0 && g.row(3).abs_diff_eq(Vec4::W, 1e-3)
            })
        };
        let why = match self.method {
            Method::Lbs | Method::DqsPlain => None,
            _ if joints > scene::MAX_JOINTS => Some("more joints than the uniform arrays hold"),
            Method::Cor if self.mesh_centres(m).is_empty() => Some("no centres were searched"),
            _ if !turns() => Some("its palette mirrors, which only linear blending carries"),
            _ => None,
        };
        match why {
            Some(why) => (Method::Lbs, Some(why)),
            None => (self.method, None),
        }
    }

    /// The centres of rotation of skinned mesh `m` (empty when it has none).
    pub fn mesh_centres(&self, m: usize) -> &[Vec3] {
        self.centres.meshes.get(m).map_or(&[], Vec::as_slice)
    }

    /// Vertex `vertex` counted across every skinned mesh, as (mesh, vertex in mesh).
    pub fn vertex_in_mesh(&self, vertex: usize) -> Option<(usize, usize)> {
        let mut first = 0;
        for (m, mesh) in self.model.skinned_meshes.iter().enumerate() {
            let count = mesh.part.vertices.positions.len();
            if vertex < first + count {
                return Some((m, vertex - first));
            }
            first += count;
        }
        None
    }

    /// How many skinned vertices the model has, over every skinned mesh.
    pub fn vertex_count(&self) -> usize {
        self.model
            .skinned_meshes
            .iter()
            .map(|m| m.part.vertices.positions.len())
            .sum()
    }
}
