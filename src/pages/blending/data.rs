//! The blending page's data for one state: the arm with the weights in use, and the arm
//! skinned both ways. Each is computed once per state and shared by the viewport, the
//! overlays and every cell, so a frame skins the arm at most once.

use super::paint::{SUM_TOLERANCE, WeightMap};
use super::{BlendingPage, EllipseRange};
use glam::Mat4;
use rigs::arm::ArmMesh;
use skin::dqs::{DualQuat, skin_vertices_dq};
use skin::lbs::{PositionW, SkinMesh, SkinnedVertex, skin_vertices};
use std::sync::{Arc, PoisonError};

/// Everything the skinned arm derives from the state.
#[derive(Clone, Debug)]
pub struct Pose {
    /// `world_from_bind` per bone.
    pub palette: Vec<Mat4>,
    /// What the DQS shader receives, including a negated forearm if asked.
    pub dual_quats: Vec<DualQuat>,
    /// The arm skinned both ways on the CPU (for picking, readouts and overlays), each
    /// vertex where the shader draws it: after the page's choice of `w`.
    pub lbs: Vec<SkinnedVertex>,
    /// Dual quaternion skinning of the same mesh.
    pub dqs: Vec<SkinnedVertex>,
}

/// What the arm's influences were built from.
struct SkinKey {
    arm: Arc<ArmMesh>,
    weights: WeightMap,
    auto_normalise: bool,
    weight_scale: f32,
}

impl SkinKey {
    fn of(page: &BlendingPage) -> Self {
        Self {
            arm: page.arm.clone(),
            weights: page.weights.clone(),
            auto_normalise: page.auto_normalise,
            weight_scale: page.weight_scale,
        }
    }

    fn matches(&self, page: &BlendingPage) -> bool {
        Arc::ptr_eq(&self.arm, &page.arm)
            && self.auto_normalise == page.auto_normalise
            && self.weight_scale == page.weight_scale
            && self.weights == page.weights
    }
}

/// What a skinned pose was computed for, besides the skin.
#[derive(Clone, Copy, PartialEq)]
struct PoseKey {
    twist: f32,
    bend: f32,
    position_w: PositionW,
    antipodal_check: bool,
    negate_forearm: bool,
    twist_bone: bool,
}

impl PoseKey {
    fn of(page: &BlendingPage) -> Self {
        Self {
            twist: page.twist,
            bend: page.bend,
            position_w: page.position_w,
            antipodal_check: page.antipodal_check,
            negate_forearm: page.negate_forearm,
            twist_bone: page.twist_bone,
        }
    }
}

/// The last skin and pose, and how many times the arm has been skinned.
#[derive(Default)]
pub(super) struct Cache {
    skin: Option<(SkinKey, Arc<SkinMesh>)>,
    /// The pose, and the skin it was skinned from (compared by pointer).
    pose: Option<(PoseKey, Arc<SkinMesh>, Arc<Pose>)>,
    /// The extremes of the ellipses, and the pose they were found in (compared by
    /// pointer: a new pose is a new `Arc`).
    pub(super) ranges: Option<(Arc<Pose>, [Option<EllipseRange>; 2])>,
    skinnings: usize,
}

impl BlendingPage {
    pub(super) fn cache(&self) -> std::sync::MutexGuard<'_, Cache> {
        // A panic while the cache was held leaves at worst a stale entry, which the
        // keys still check.
        self.cache.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The skinnable mesh with the weights in use (built once per set of weights).
    pub fn skin(&self) -> Arc<SkinMesh> {
        if let Some((key, skin)) = &self.cache().skin
            && key.matches(self)
        {
            return skin.clone();
        }
        let mut skin = self.arm.skin.clone();
        // The map came from valid influences and the brush keeps weights in 0..1.
        if let Ok(influences) = self.weights.influences(self.auto_normalise) {
            skin.influences = influences;
        }
        if self.weight_scale != 1.0 {
            for influences in &mut skin.influences {
                influences.weights = influences.weights.map(|w| w * self.weight_scale);
            }
        }
        let skin = Arc::new(skin);
        self.cache().skin = Some((SkinKey::of(self), skin.clone()));
        skin
    }

    /// The arm skinned for the current state, both ways: computed once per state and
    /// shared by the viewport, its overlays and the cells.
    pub fn skinned(&self) -> Arc<Pose> {
        let skin = self.skin();
        let key = PoseKey::of(self);
        if let Some((k, from, pose)) = &self.cache().pose
            && *k == key
            && Arc::ptr_eq(from, &skin)
        {
            return pose.clone();
        }
        let palette = self.rig().palette(self.twist, self.bend);
        let dual_quats = self.dual_quats(&palette);
        let mut lbs = skin_vertices(&palette, &skin);
        self.position_w.place(&palette, &skin, &mut lbs);
        let pose = Arc::new(Pose {
            lbs,
            dqs: skin_vertices_dq(&dual_quats, &[], &skin, self.antipodal_check),
            palette,
            dual_quats,
        });
        let mut cache = self.cache();
        cache.pose = Some((key, skin, pose.clone()));
        cache.skinnings += 1;
        pose
    }

    /// The vertices whose weights, as the shader reads them, do not sum to 1.
    pub fn off_sum(&self) -> Vec<usize> {
        let skin = self.skin();
        (0..skin.influences.len())
            .filter(|v| (skin.influences[*v].sum() - 1.0).abs() > SUM_TOLERANCE)
            .collect()
    }

    /// The vertices of [`BlendingPage::off_sum`] the viewport marks with a black dot,
    /// and how many of them each dot stands for: every one while they are few, one in
    /// `stride` when so many are off that dots on all would hide the arm.
    pub fn dotted(&self) -> (Vec<usize>, usize) {
        self.dots_of(self.off_sum())
    }

    /// [`BlendingPage::dotted`] for `off`, the vertices whose weights are off.
    pub(super) fn dots_of(&self, off: Vec<usize>) -> (Vec<usize>, usize) {
        let most = (self.skin().positions.len() / 8).max(1);
        // Odd, so the dots spread across the rings instead of lining up along the arm.
        let stride = match off.len().div_ceil(most) {
            0 | 1 => 1,
            n => n | 1,
        };
        (off.into_iter().step_by(stride).collect(), stride)
    }

    /// A copy of [`BlendingPage::skinned`]: the arm skinned for the current twist and
    /// bend.
    pub fn pose(&self) -> Pose {
        Pose::clone(&self.skinned())
    }

    /// How many times this page has skinned its arm. The viewport and the cells share
    /// one skinning per state: a frame in which nothing changed adds nothing.
    pub fn skinnings(&self) -> usize {
        self.cache().skinnings
    }
}
