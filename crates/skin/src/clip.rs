//! Animation clips: keyframed channels sampled into a pose, and poses blended.
//!
//! A [`Clip`] is a list of [`Channel`]s. Each channel animates one property
//! (translation, rotation or scale) of one joint with key times and values, and says
//! how to fill the time between keys ([`Interpolation`]). Sampling a clip at time `t`
//! over a rest pose gives a [`Pose`]: one local [`Transform`] per joint, where joints
//! without a channel keep their rest transform. Two poses blend with a weight
//! ([`blend_poses`]), or joint by joint under a mask ([`blend_poses_masked`]).
//!
//! Times are seconds on the clip's own clock (a clip may start after 0). Rotations are
//! unit quaternions, `(x, y, z, w)` as glam stores them.

use super::skeleton::Skeleton;
use glam::{Mat4, Quat, Vec3, Vec4};
use std::fmt;

/// A joint's local transform as animation stores it: `parent_from_joint = T · R · S`
/// with the rotation as a quaternion (`explain::trs::Trs` is the Euler form a user edits).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Transform {
    /// Where the joint sits in its parent's frame.
    pub translation: Vec3,
    /// A unit quaternion.
    pub rotation: Quat,
    /// Scale along the joint's own axes.
    pub scale: Vec3,
}

impl Default for Transform {
    fn default() -> Self {
        Self::IDENTITY
    }
}

impl Transform {
    /// No translation, no rotation, unit scale.
    pub const IDENTITY: Self = Self {
        translation: Vec3::ZERO,
        rotation: Quat::IDENTITY,
        scale: Vec3::ONE,
    };

    /// `parent_from_joint = T · R · S`.
    pub fn to_mat4(&self) -> Mat4 {
        Mat4::from_scale_rotation_translation(self.scale, self.rotation, self.translation)
    }

    /// Whether every number is finite.
    pub fn is_finite(&self) -> bool {
        self.translation.is_finite() && self.rotation.is_finite() && self.scale.is_finite()
    }
}

/// One local transform per joint, indexed like the skeleton.
pub type Pose = Vec<Transform>;

/// How a channel fills the time between two keys.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Interpolation {
    /// Hold each key's value until the next key.
    Step,
    /// Straight lines: translations and scales lerp, rotations slerp on the shorter arc.
    #[default]
    Linear,
    /// glTF's cubic Hermite spline: each key stores an in-tangent, a value and an
    /// out-tangent (in that order), tangents in units per second. Rotations are
    /// normalised after the spline.
    CubicSpline,
}

impl Interpolation {
    /// The glTF name, e.g. `LINEAR`.
    pub fn name(self) -> &'static str {
        match self {
            Self::Step => "STEP",
            Self::Linear => "LINEAR",
            Self::CubicSpline => "CUBICSPLINE",
        }
    }

    /// How many stored values each key has: 3 for a cubic spline, otherwise 1.
    pub fn values_per_key(self) -> usize {
        match self {
            Self::CubicSpline => 3,
            Self::Step | Self::Linear => 1,
        }
    }
}

/// Which part of a joint's transform a channel drives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Property {
    /// The translation.
    Translation,
    /// The rotation.
    Rotation,
    /// The scale.
    Scale,
}

impl Property {
    /// Every property, in the order `T · R · S` names them.
    pub const ALL: [Self; 3] = [Self::Translation, Self::Rotation, Self::Scale];

    /// The glTF name, e.g. `rotation`.
    pub fn name(self) -> &'static str {
        match self {
            Self::Translation => "translation",
            Self::Rotation => "rotation",
            Self::Scale => "scale",
        }
    }

    /// The names of a value's numbers, in [`Sample::components`] order: `x, y, z`, and
    /// `w` last for a rotation.
    pub fn component_names(self) -> &'static [&'static str] {
        match self {
            Self::Rotation => &["x", "y", "z", "w"],
            Self::Translation | Self::Scale => &["x", "y", "z"],
        }
    }
}

/// A channel's stored values; their kind says which property the channel drives.
#[derive(Clone, Debug, PartialEq)]
pub enum Values {
    /// Translations.
    Translation(Vec<Vec3>),
    /// Rotations (need not be unit length for a cubic spline's tangents).
    Rotation(Vec<Quat>),
    /// Scales.
    Scale(Vec<Vec3>),
}

impl Values {
    /// The property these values drive.
    pub fn property(&self) -> Property {
        match self {
            Self::Translation(_) => Property::Translation,
            Self::Rotation(_) => Property::Rotation,
            Self::Scale(_) => Property::Scale,
        }
    }

    /// The number of stored values (three per key for a cubic spline).
    pub fn len(&self) -> usize {
        match self {
            Self::Translation(v) | Self::Scale(v) => v.len(),
            Self::Rotation(v) => v.len(),
        }
    }

    /// True when there are no values.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn first_not_finite(&self) -> Option<usize> {
        match self {
            Self::Translation(v) | Self::Scale(v) => v.iter().position(|x| !x.is_finite()),
            Self::Rotation(v) => v.iter().position(|q| !q.is_finite()),
        }
    }
}

/// One animated property of one joint.
///
/// Contract, checked when a [`Clip`] is built from it: at least one key; key times
/// finite and strictly increasing; `values.len() == times.len() *
/// interpolation.values_per_key()`; every value finite; `joint` inside the skeleton;
/// rotation keys (not cubic tangents) of non-zero length, and stored normalised.
#[derive(Clone, Debug, PartialEq)]
pub struct Channel {
    /// The joint this channel drives.
    pub joint: usize,
    /// How to fill the time between keys.
    pub interpolation: Interpolation,
    /// Key times in seconds.
    pub times: Vec<f32>,
    /// Key values: one per key, or (in-tangent, value, out-tangent) per key for a
    /// cubic spline.
    pub values: Values,
}

/// What is wrong with a channel's keys.
#[derive(Clone, Debug, PartialEq)]
pub enum KeyProblem {
    /// There are no keys.
    NoKeys,
    /// The number of values does not fit the number of key times.
    CountMismatch {
        /// How many key times.
        times: usize,
        /// How many values.
        values: usize,
        /// Values each key needs.
        per_key: usize,
    },
    /// A key time is NaN or infinite.
    TimeNotFinite {
        /// The key.
        key: usize,
    },
    /// A key time does not come after the one before it.
    TimesNotIncreasing {
        /// The key.
        key: usize,
        /// The time of the key before.
        previous: f32,
        /// This key's time.
        time: f32,
    },
    /// A stored value is NaN or infinite.
    ValueNotFinite {
        /// The index among the stored values.
        value: usize,
    },
    /// A rotation key has (nearly) zero length, so it is no rotation.
    ZeroRotation {
        /// The key.
        key: usize,
    },
    /// The joint is past the skeleton's end.
    JointOutOfRange {
        /// How many joints the skeleton has.
        joint_count: usize,
    },
}

impl fmt::Display for KeyProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NoKeys => write!(f, "it has no keys"),
            Self::CountMismatch {
                times,
                values,
                per_key,
            } => write!(
                f,
                "{times} key times need {} values ({per_key} per key), but there are {values}",
                times.saturating_mul(*per_key)
            ),
            Self::TimeNotFinite { key } => {
                write!(f, "the time of key {key} is not a finite number")
            }
            Self::TimesNotIncreasing {
                key,
                previous,
                time,
            } => write!(
                f,
                "key times must increase, but key {key} at {time} s follows {previous} s"
            ),
            Self::ValueNotFinite { value } => write!(f, "value {value} is not a finite number"),
            Self::ZeroRotation { key } => {
                write!(f, "the rotation of key {key} has zero length")
            }
            Self::JointOutOfRange { joint_count } => write!(
                f,
                "it drives a joint past the skeleton's end (the skeleton has {joint_count} joints)"
            ),
        }
    }
}

/// Why a clip was refused: which channel, and what is wrong with it.
#[derive(Clone, Debug, PartialEq)]
pub struct ClipError {
    /// The clip's name.
    pub clip: String,
    /// The channel's index in the clip.
    pub channel: usize,
    /// The joint the channel drives.
    pub joint: usize,
    /// The property the channel drives.
    pub property: Property,
    /// What is wrong.
    pub problem: KeyProblem,
}

impl fmt::Display for ClipError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "clip '{}' channel {} (joint {} {}): {}",
            self.clip,
            self.channel,
            self.joint,
            self.property.name(),
            self.problem
        )
    }
}

impl std::error::Error for ClipError {}

impl Channel {
    fn check(&mut self, joint_count: usize) -> Result<(), KeyProblem> {
        let per_key = self.interpolation.values_per_key();
        check_keys(
            self.joint,
            joint_count,
            &self.times,
            self.values.len(),
            per_key,
        )?;
        if let Some(value) = self.values.first_not_finite() {
            return Err(KeyProblem::ValueNotFinite { value });
        }
        if let Values::Rotation(rotations) = &mut self.values {
            // Only the key values are orientations; a cubic spline's tangents are rates.
            let offset = usize::from(per_key == 3);
            for key in 0..self.times.len() {
                let q = &mut rotations[key * per_key + offset];
                let length = q.length();
                if length < 1e-6 || !length.is_finite() {
                    return Err(KeyProblem::ZeroRotation { key });
                }
                *q /= length;
            }
        }
        Ok(())
    }

    /// The property this channel drives.
    pub fn property(&self) -> Property {
        self.values.property()
    }

    /// The first key's time.
    pub fn start(&self) -> f32 {
        self.times.first().copied().unwrap_or(0.0)
    }

    /// The last key's time.
    pub fn end(&self) -> f32 {
        self.times.last().copied().unwrap_or(0.0)
    }

    /// How many keys the channel has.
    pub fn key_count(&self) -> usize {
        self.times.len()
    }

    /// Key `key`: its time and the value stored for it (for a cubic spline the value
    /// between its tangents). `None` past the last key, or when the value count does
    /// not fit the keys (a channel never checked by a [`Clip`]).
    pub fn key(&self, key: usize) -> Option<(f32, Sample)> {
        let per_key = self.interpolation.values_per_key();
        if Some(self.values.len()) != self.times.len().checked_mul(per_key) {
            return None;
        }
        let time = *self.times.get(key)?;
        let i = key * per_key + usize::from(per_key == 3);
        let value = match &self.values {
            Values::Translation(v) => Sample::Translation(*v.get(i)?),
            Values::Rotation(v) => Sample::Rotation(*v.get(i)?),
            Values::Scale(v) => Sample::Scale(*v.get(i)?),
        };
        Some((time, value))
    }

    /// Key `key`'s tangents of a cubic spline, (in, out), in units per second: what
    /// the Hermite curve multiplies by the key spacing. `None` for another
    /// interpolation, past the last key, or when the value count does not fit.
    pub fn tangents(&self, key: usize) -> Option<(Sample, Sample)> {
        if self.interpolation != Interpolation::CubicSpline
            || Some(self.values.len()) != self.times.len().checked_mul(3)
        {
            return None;
        }
        let stored = |i: usize| match &self.values {
            Values::Translation(v) => v.get(i).map(|v| Sample::Translation(*v)),
            Values::Rotation(v) => v.get(i).map(|q| Sample::Rotation(*q)),
            Values::Scale(v) => v.get(i).map(|v| Sample::Scale(*v)),
        };
        Some((stored(3 * key)?, stored(3 * key + 2)?))
    }

    /// Where `t` falls among the keys ([`segment`]).
    pub fn segment(&self, t: f32) -> Segment {
        segment(&self.times, t)
    }

    // ANCHOR: sample
    /// The channel's value at time `t` (seconds), clamped to the first and last keys:
    /// the segment `t` falls in, then the channel's interpolation between its two keys
    /// (STEP holds the first, LINEAR lerps, or slerps a rotation, CUBICSPLINE follows
    /// the Hermite curve of the keys and their tangents). A channel whose value count
    /// does not fit its keys (one never checked by a [`Clip`]) gives the neutral
    /// value: no translation, no turn, unit scale.
    pub fn sample(&self, t: f32) -> Sample {
        let per_key = self.interpolation.values_per_key();
        if self.times.is_empty() || Some(self.values.len()) != self.times.len().checked_mul(per_key)
        {
            return match self.property() {
                Property::Translation => Sample::Translation(Vec3::ZERO),
                Property::Rotation => Sample::Rotation(Quat::IDENTITY),
                Property::Scale => Sample::Scale(Vec3::ONE),
            };
        }
        let Segment { key, next, u } = self.segment(t);
        let dt = self.times[next] - self.times[key];
        match &self.values {
            Values::Translation(v) => {
                Sample::Translation(sample_vec3(v, self.interpolation, key, u, dt))
            }
            Values::Scale(v) => Sample::Scale(sample_vec3(v, self.interpolation, key, u, dt)),
            Values::Rotation(v) => Sample::Rotation(sample_quat(v, self.interpolation, key, u, dt)),
        }
    }
    // ANCHOR_END: sample
}

/// What every channel's keys must be, whatever it drives: its joint inside a skeleton
/// of `joint_count` joints, at least one key, `values` stored values for the `times`
/// at `per_key` each, and every key time finite and after the one before.
fn check_keys(
    joint: usize,
    joint_count: usize,
    times: &[f32],
    values: usize,
    per_key: usize,
) -> Result<(), KeyProblem> {
    if joint >= joint_count {
        return Err(KeyProblem::JointOutOfRange { joint_count });
    }
    if times.is_empty() {
        return Err(KeyProblem::NoKeys);
    }
    if Some(values) != times.len().checked_mul(per_key) {
        return Err(KeyProblem::CountMismatch {
            times: times.len(),
            values,
            per_key,
        });
    }
    if let Some(key) = times.iter().position(|t| !t.is_finite()) {
        return Err(KeyProblem::TimeNotFinite { key });
    }
    if let Some(key) = (1..times.len()).find(|&k| times[k] <= times[k - 1]) {
        return Err(KeyProblem::TimesNotIncreasing {
            key,
            previous: times[key - 1],
            time: times[key],
        });
    }
    Ok(())
}

// ANCHOR: segment
/// Where `t` falls among the key `times`: the key at or before it, the key after it,
/// and how far (`u`, 0..1) from the one to the other. Before the first key the first
/// key holds, and after the last the last (`next == key`, `u = 0`).
pub fn segment(times: &[f32], t: f32) -> Segment {
    let last = times.len().saturating_sub(1);
    let hold = |key| Segment {
        key,
        next: key,
        u: 0.0,
    };
    if times.is_empty() || t.is_nan() || t <= times[0] {
        return hold(0);
    }
    if t >= times[last] {
        return hold(last);
    }
    // The first key after t; t is inside (times[0], times[last]), so 1..=last (the
    // clamp only matters for unchecked times).
    let next = times.partition_point(|&k| k <= t).clamp(1, last);
    let key = next - 1;
    let span = times[next] - times[key];
    Segment {
        key,
        next,
        u: (t - times[key]) / span,
    }
}
// ANCHOR_END: segment

/// Where a time falls among a channel's keys ([`Channel::segment`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Segment {
    /// The key at or before the time (the first key before it).
    pub key: usize,
    /// The key after the time (`key` itself before the first key and past the last).
    pub next: usize,
    /// `(t − t_key) / (t_next − t_key)`, 0..1; 0 where a key holds.
    pub u: f32,
}

/// A channel's value at one time.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Sample {
    /// A translation.
    Translation(Vec3),
    /// A unit rotation.
    Rotation(Quat),
    /// A scale.
    Scale(Vec3),
}

impl Sample {
    /// The property this value is for.
    pub fn property(&self) -> Property {
        match self {
            Self::Translation(_) => Property::Translation,
            Self::Rotation(_) => Property::Rotation,
            Self::Scale(_) => Property::Scale,
        }
    }

    /// The value's numbers: `(x, y, z)` for a translation or a scale, `(x, y, z, w)`
    /// for a rotation (named by [`Property::component_names`]).
    pub fn components(&self) -> &[f32] {
        match self {
            Self::Translation(v) | Self::Scale(v) => AsRef::<[f32; 3]>::as_ref(v),
            Self::Rotation(q) => AsRef::<[f32; 4]>::as_ref(q),
        }
    }

    /// Writes this value into the matching part of `transform`.
    pub fn apply(self, transform: &mut Transform) {
        match self {
            Self::Translation(t) => transform.translation = t,
            Self::Rotation(r) => transform.rotation = r,
            Self::Scale(s) => transform.scale = s,
        }
    }
}

// ANCHOR: hermite
/// The four cubic Hermite basis weights at `u` in 0..1, for (value k, out-tangent k,
/// value k+1, in-tangent k+1). Tangents are also multiplied by the key spacing.
pub fn hermite(u: f32) -> [f32; 4] {
    let u2 = u * u;
    let u3 = u2 * u;
    [
        2.0 * u3 - 3.0 * u2 + 1.0,
        u3 - 2.0 * u2 + u,
        -2.0 * u3 + 3.0 * u2,
        u3 - u2,
    ]
}
// ANCHOR_END: hermite

/// The cubic spline between key `key` and the next, for any value type that adds and
/// scales. `stored(i)` reads stored value `i` of `len`: (in-tangent, value,
/// out-tangent) per key.
fn spline<T>(stored: impl Fn(usize) -> T, len: usize, key: usize, u: f32, dt: f32) -> T
where
    T: std::ops::Add<Output = T> + std::ops::Mul<f32, Output = T>,
{
    if 3 * key + 4 >= len {
        return stored(3 * key + 1);
    }
    let [h00, h10, h01, h11] = hermite(u);
    let (value, out_tangent) = (stored(3 * key + 1), stored(3 * key + 2));
    let (in_tangent, next_value) = (stored(3 * key + 3), stored(3 * key + 4));
    value * h00 + out_tangent * (h10 * dt) + next_value * h01 + in_tangent * (h11 * dt)
}

fn sample_vec3(v: &[Vec3], interpolation: Interpolation, key: usize, u: f32, dt: f32) -> Vec3 {
    match interpolation {
        Interpolation::Step => v[key],
        Interpolation::Linear => match v.get(key + 1) {
            Some(next) => v[key].lerp(*next, u),
            None => v[key],
        },
        Interpolation::CubicSpline => spline(|i| v[i], v.len(), key, u, dt),
    }
}

fn sample_quat(v: &[Quat], interpolation: Interpolation, key: usize, u: f32, dt: f32) -> Quat {
    match interpolation {
        Interpolation::Step => v[key],
        Interpolation::Linear => match v.get(key + 1) {
            Some(next) => slerp(v[key], *next, u),
            None => v[key],
        },
        Interpolation::CubicSpline => {
            // As Vec4: a Quat's `*` is the Hamilton product, not scaling.
            let value = spline(|i| Vec4::from(v[i]), v.len(), key, u, dt);
            value
                .try_normalize()
                .map_or(v[3 * key + 1], Quat::from_vec4)
        }
    }
}

// ANCHOR: slerp
/// Spherical linear interpolation on the shorter arc: `b` is negated first when
/// `a · b < 0`, since `b` and `−b` are the same rotation. The one slerp of the crate:
/// the keyframe sampler and the interpolation comparison (`explain::rotation`) both use it.
pub fn slerp(a: Quat, b: Quat, u: f32) -> Quat {
    let b = if Vec4::from(a).dot(Vec4::from(b)) < 0.0 {
        -b
    } else {
        b
    };
    slerp_as_given(a, b, u)
}

/// Spherical linear interpolation along the arc from `a` to `b` as they are given: the
/// longer way round when `a · b < 0`. For unit `a` and `b` the result is unit length
/// and turns at an even pace. Two cases would divide by `sin θ ≈ 0` and are handled:
/// - nearly the same quaternion (`cos θ > 1 − 1e-6`): the arc is a straight line,
///   lerped and normalised;
/// - nearly opposite ones (`cos θ < −1 + 1e-6`): every great circle joins them, and
///   the one through a quaternion perpendicular to `a` is taken.
pub fn slerp_as_given(a: Quat, b: Quat, u: f32) -> Quat {
    let (a, b) = (Vec4::from(a), Vec4::from(b));
    let cos = a.dot(b);
    if cos > 1.0 - 1e-6 {
        return Quat::from_vec4((a + (b - a) * u).normalize_or_zero());
    }
    let theta = cos.max(-1.0).acos();
    if cos < -1.0 + 1e-6 {
        let across = Vec4::new(-a.y, a.x, -a.w, a.z);
        return Quat::from_vec4(a * (u * theta).cos() + across * (u * theta).sin());
    }
    Quat::from_vec4((a * ((1.0 - u) * theta).sin() + b * (u * theta).sin()) / theta.sin())
}
// ANCHOR_END: slerp

/// The blend-shape weights of one mesh over time (glTF's `weights` path): at each key,
/// one weight per target of the mesh on joint `joint`'s node.
///
/// Contract, checked by [`Clip::add_weights`]: at least one key; key times as a
/// [`Channel`]'s; `values.len() == times.len() · interpolation.values_per_key() ·
/// targets`, key by key (a cubic spline's in-tangents, values and out-tangents each
/// `targets` long); every value finite.
#[derive(Clone, Debug, PartialEq)]
pub struct WeightsChannel {
    /// The joint (node) whose mesh the weights morph.
    pub joint: usize,
    /// How to fill the time between keys.
    pub interpolation: Interpolation,
    /// Key times in seconds.
    pub times: Vec<f32>,
    /// How many targets (weights per stored value).
    pub targets: usize,
    /// The stored weights, `targets` per stored value.
    pub values: Vec<f32>,
}

impl WeightsChannel {
    fn check(&self, joint_count: usize) -> Result<(), KeyProblem> {
        let per_key = self.interpolation.values_per_key() * self.targets;
        check_keys(
            self.joint,
            joint_count,
            &self.times,
            self.values.len(),
            per_key,
        )?;
        match self.values.iter().position(|v| !v.is_finite()) {
            Some(value) => Err(KeyProblem::ValueNotFinite { value }),
            None => Ok(()),
        }
    }

    /// The weights at time `t`, one per target, on the same sampler as every other
    /// channel: the segment `t` falls in ([`segment`]), then STEP holds, LINEAR lerps
    /// and CUBICSPLINE follows the Hermite curve ([`hermite`]), weight by weight.
    pub fn sample(&self, t: f32) -> Vec<f32> {
        let n = self.targets;
        let per_key = self.interpolation.values_per_key();
        let stored_count = self.times.len().saturating_mul(per_key);
        if self.times.is_empty() || Some(self.values.len()) != stored_count.checked_mul(n) {
            return vec![0.0; n];
        }
        let Segment { key, next, u } = segment(&self.times, t);
        let dt = self.times[next] - self.times[key];
        (0..n)
            .map(|i| {
                let stored = |k: usize| self.values[k * n + i];
                match self.interpolation {
                    Interpolation::Step => stored(key),
                    Interpolation::Linear => stored(key) + (stored(next) - stored(key)) * u,
                    Interpolation::CubicSpline => spline(stored, stored_count, key, u, dt),
                }
            })
            .collect()
    }
}

/// A named animation: channels over one skeleton.
///
/// Contract, checked by [`Clip::new`]: every channel keeps the [`Channel`] contract for
/// a skeleton of `joint_count` joints. The clip runs from its earliest key to its
/// latest; sampling before or after holds the first or last key of each channel.
/// When two channels drive the same property of the same joint, the later one wins.
#[derive(Clone, Debug, PartialEq)]
pub struct Clip {
    name: String,
    channels: Vec<Channel>,
    /// Blend-shape weights, each checked by [`Clip::add_weights`].
    weights: Vec<WeightsChannel>,
    start: f32,
    end: f32,
}

impl Clip {
    /// Checks every channel, and refuses the clip naming the first bad channel.
    pub fn new(
        name: impl Into<String>,
        joint_count: usize,
        mut channels: Vec<Channel>,
    ) -> Result<Self, ClipError> {
        let name = name.into();
        for (index, channel) in channels.iter_mut().enumerate() {
            if let Err(problem) = channel.check(joint_count) {
                return Err(ClipError {
                    clip: name,
                    channel: index,
                    joint: channel.joint,
                    property: channel.property(),
                    problem,
                });
            }
        }
        let start = channels.iter().map(Channel::start).reduce(f32::min);
        let end = channels.iter().map(Channel::end).reduce(f32::max);
        Ok(Self {
            name,
            start: start.unwrap_or(0.0),
            end: end.unwrap_or(0.0),
            channels,
            weights: Vec::new(),
        })
    }

    /// Adds a channel of blend-shape weights for a skeleton of `joint_count` joints,
    /// or says what is wrong with it (the clip is left as it was). The clip's span
    /// grows to take in its keys.
    pub fn add_weights(
        &mut self,
        channel: WeightsChannel,
        joint_count: usize,
    ) -> Result<(), KeyProblem> {
        channel.check(joint_count)?;
        let (start, end) = (channel.times[0], channel.times[channel.times.len() - 1]);
        if self.channels.is_empty() && self.weights.is_empty() {
            (self.start, self.end) = (start, end);
        } else {
            (self.start, self.end) = (self.start.min(start), self.end.max(end));
        }
        self.weights.push(channel);
        Ok(())
    }

    /// The channels of blend-shape weights.
    pub fn weights_channels(&self) -> &[WeightsChannel] {
        &self.weights
    }

    /// The blend-shape weights of joint `joint`'s mesh at time `t`, if the clip
    /// animates them (the last channel for that joint wins).
    pub fn sample_weights(&self, joint: usize, t: f32) -> Option<Vec<f32>> {
        let channel = self.weights.iter().rev().find(|c| c.joint == joint)?;
        Some(channel.sample(t))
    }

    /// The clip's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The channels, as checked.
    pub fn channels(&self) -> &[Channel] {
        &self.channels
    }

    /// The channel that drives `property` of `joint`, if any. When several do, the
    /// last one, since it is the one [`Clip::sample_pose`] keeps.
    pub fn channel(&self, joint: usize, property: Property) -> Option<&Channel> {
        self.channels
            .iter()
            .rev()
            .find(|c| c.joint == joint && c.property() == property)
    }

    /// The earliest key time, seconds.
    pub fn start(&self) -> f32 {
        self.start
    }

    /// The latest key time, seconds.
    pub fn end(&self) -> f32 {
        self.end
    }

    /// `end − start`, seconds (0 for a clip of single keys).
    pub fn duration(&self) -> f32 {
        self.end - self.start
    }

    // ANCHOR: sample_pose
    /// The pose at time `t`: `rest` with every channel's value at `t` written over it.
    /// Channels whose joint is past `rest`'s end are skipped.
    pub fn sample_pose(&self, rest: &[Transform], t: f32) -> Pose {
        let mut pose = rest.to_vec();
        for channel in &self.channels {
            if let Some(transform) = pose.get_mut(channel.joint) {
                channel.sample(t).apply(transform);
            }
        }
        pose
    }
    // ANCHOR_END: sample_pose

    /// How far through the clip `t` is, 0..1, wrapping around for a looping clip.
    pub fn phase(&self, t: f32) -> f32 {
        let duration = self.duration();
        if duration <= 0.0 || !t.is_finite() {
            return 0.0;
        }
        ((t - self.start) / duration).rem_euclid(1.0)
    }

    /// The time at `phase` (0..1, clamped) through the clip.
    pub fn time_at(&self, phase: f32) -> f32 {
        let phase = if phase.is_nan() {
            0.0
        } else {
            phase.clamp(0.0, 1.0)
        };
        self.start + phase * self.duration()
    }
}

// ANCHOR: blend
/// One joint's blend: `weight` 0 gives `a`, 1 gives `b`. Translations and scales lerp;
/// rotations take the normalised lerp, after negating `b`'s quaternion when `a · b < 0`
/// unless `sign_check` is off (then the blend can take the long way round).
pub fn blend_transforms(a: &Transform, b: &Transform, weight: f32, sign_check: bool) -> Transform {
    let (qa, mut qb) = (Vec4::from(a.rotation), Vec4::from(b.rotation));
    if sign_check && qa.dot(qb) < 0.0 {
        qb = -qb;
    }
    let rotation = (qa * (1.0 - weight) + qb * weight)
        .try_normalize()
        .map_or(a.rotation, Quat::from_vec4);
    Transform {
        translation: a.translation.lerp(b.translation, weight),
        rotation,
        scale: a.scale.lerp(b.scale, weight),
    }
}
// ANCHOR_END: blend

/// Blends two poses joint by joint with one weight (see [`blend_transforms`]).
/// The result has as many joints as the shorter pose.
pub fn blend_poses(a: &[Transform], b: &[Transform], weight: f32, sign_check: bool) -> Pose {
    a.iter()
        .zip(b)
        .map(|(a, b)| blend_transforms(a, b, weight, sign_check))
        .collect()
}

/// A partial blend: joint `j` blends with `weight * mask[j]`, so a mask of 0 keeps `a`
/// and 1 takes the full blend (joints past the mask's end keep `a`).
pub fn blend_poses_masked(
    a: &[Transform],
    b: &[Transform],
    weight: f32,
    mask: &[f32],
    sign_check: bool,
) -> Pose {
    a.iter()
        .zip(b)
        .enumerate()
        .map(|(j, (a, b))| {
            let m = mask.get(j).copied().unwrap_or(0.0);
            blend_transforms(a, b, weight * m, sign_check)
        })
        .collect()
}

/// A mask of 1 on `root` and every joint below it, 0 elsewhere (an upper body, an arm).
pub fn subtree_mask(skeleton: &Skeleton, root: usize) -> Vec<f32> {
    let mut mask = vec![0.0; skeleton.len()];
    for joint in 0..skeleton.len() {
        // Parents come first, so a parent's mark is final before its children read it.
        let inside = joint == root || skeleton.parent(joint).is_some_and(|p| mask[p] == 1.0);
        if inside {
            mask[joint] = 1.0;
        }
    }
    mask
}

// ANCHOR: sync
/// The cycle length of two clips blended by `weight`: their durations lerped, so both
/// clips finish a cycle together (a walk and a run keep their feet in step).
pub fn synced_duration(a: &Clip, b: &Clip, weight: f32) -> f32 {
    a.duration() + (b.duration() - a.duration()) * weight
}

/// Moves a shared phase on by `dt` seconds of the blended cycle, wrapping at 1.
pub fn advance_phase(phase: f32, dt: f32, a: &Clip, b: &Clip, weight: f32) -> f32 {
    let duration = synced_duration(a, b, weight);
    if duration <= 0.0 || !dt.is_finite() || !phase.is_finite() {
        return 0.0;
    }
    (phase + dt / duration).rem_euclid(1.0)
}

/// The times in `a` and `b` at the same normalised phase.
pub fn synced_times(a: &Clip, b: &Clip, phase: f32) -> (f32, f32) {
    (a.time_at(phase), b.time_at(phase))
}
// ANCHOR_END: sync

#[cfg(test)]
mod tests {
    use super::*;
    use std::f32::consts::{FRAC_PI_2, PI};

    fn channel(interpolation: Interpolation, times: &[f32], values: Values) -> Channel {
        Channel {
            joint: 0,
            interpolation,
            times: times.to_vec(),
            values,
        }
    }

    #[test]
    fn slerp_edge_cases() {
        let a = Quat::from_rotation_z(0.3);
        // At the ends, the keys themselves.
        assert!(slerp(a, Quat::from_rotation_x(1.0), 0.0).abs_diff_eq(a, 1e-6));
        assert!(
            slerp(a, Quat::from_rotation_x(1.0), 1.0).abs_diff_eq(Quat::from_rotation_x(1.0), 1e-6)
        );
        // Nearly the same rotation: no division by sin θ ≈ 0, a unit result between them.
        let near = Quat::from_rotation_z(0.3 + 1e-4);
        let mid = slerp(a, near, 0.5);
        assert!(mid.is_finite() && (mid.length() - 1.0).abs() < 1e-6);
        assert!(mid.abs_diff_eq(Quat::from_rotation_z(0.3 + 5e-5), 1e-6));
        // −b is b: slerp takes the short way, slerp_as_given the long way, and both
        // arrive at the same rotation.
        let b = -Quat::from_rotation_z(1.3);
        let short = slerp(a, b, 0.5);
        let long = slerp_as_given(a, b, 0.5);
        assert!(
            short.abs_diff_eq(Quat::from_rotation_z(0.8), 1e-5),
            "{short}"
        );
        assert!((long.length() - 1.0).abs() < 1e-5);
        assert!(Quat::from_rotation_z(0.8).angle_between(long) > 3.0);
        // Opposite quaternions: still a unit path from a to −a.
        for u in [0.0, 0.25, 0.5, 1.0] {
            let q = slerp_as_given(a, -a, u);
            assert!(q.is_finite() && (q.length() - 1.0).abs() < 1e-5, "{u}: {q}");
        }
        assert!(slerp_as_given(a, -a, 1.0).abs_diff_eq(-a, 1e-5));
        // The same rotation twice stays put.
        assert!(slerp(a, a, 0.7).abs_diff_eq(a, 1e-6));
    }

    #[test]
    fn a_segment_names_the_keys_around_a_time() {
        let ch = channel(
            Interpolation::Linear,
            &[1.0, 2.0, 4.0],
            Values::Translation(vec![Vec3::ZERO, Vec3::X, Vec3::Y]),
        );
        let at = |t| {
            let s = ch.segment(t);
            (s.key, s.next, s.u)
        };
        assert_eq!(at(0.0), (0, 0, 0.0));
        assert_eq!(at(1.0), (0, 0, 0.0));
        assert_eq!(at(1.5), (0, 1, 0.5));
        assert_eq!(at(2.0), (1, 2, 0.0));
        assert_eq!(at(3.0), (1, 2, 0.5));
        assert_eq!(at(9.0), (2, 2, 0.0));
        assert_eq!(at(f32::NAN), (0, 0, 0.0));
    }

    fn one(ch: Channel) -> Clip {
        Clip::new("test", 1, vec![ch]).unwrap()
    }

    fn at(clip: &Clip, t: f32) -> Transform {
        clip.sample_pose(&[Transform::IDENTITY], t)[0]
    }

    #[test]
    fn linear_translation_is_a_straight_line() {
        let clip = one(channel(
            Interpolation::Linear,
            &[1.0, 3.0],
            Values::Translation(vec![Vec3::new(0.0, 0.0, 0.0), Vec3::new(4.0, -2.0, 8.0)]),
        ));
        // t = 1.5 is a quarter of the way from 1 to 3.
        let t = at(&clip, 1.5).translation;
        assert!(t.abs_diff_eq(Vec3::new(1.0, -0.5, 2.0), 1e-6), "{t}");
        assert_eq!(clip.start(), 1.0);
        assert_eq!(clip.duration(), 2.0);
    }

    #[test]
    fn linear_rotation_slerps_at_an_even_pace() {
        let clip = one(channel(
            Interpolation::Linear,
            &[0.0, 1.0],
            Values::Rotation(vec![Quat::IDENTITY, Quat::from_rotation_z(FRAC_PI_2)]),
        ));
        // A quarter of the time is a quarter of the angle: 22.5° about z, so
        // q = (0, 0, sin 11.25°, cos 11.25°).
        let half = (22.5f32 / 2.0).to_radians();
        let expected = Quat::from_xyzw(0.0, 0.0, half.sin(), half.cos());
        let q = at(&clip, 0.25).rotation;
        assert!(q.abs_diff_eq(expected, 1e-6), "{q}");
    }

    #[test]
    fn linear_rotation_takes_the_shorter_arc() {
        // 170° and -170° about z are 20° apart the short way.
        let a = Quat::from_rotation_z(170f32.to_radians());
        let b = Quat::from_rotation_z(-170f32.to_radians());
        let clip = one(channel(
            Interpolation::Linear,
            &[0.0, 1.0],
            Values::Rotation(vec![a, b]),
        ));
        let mid = at(&clip, 0.5).rotation;
        let x = mid * Vec3::X;
        // Halfway the short way is 180°.
        assert!(x.abs_diff_eq(-Vec3::X, 1e-5), "{x}");
    }

    #[test]
    fn step_holds_until_the_next_key() {
        let clip = one(channel(
            Interpolation::Step,
            &[0.0, 1.0, 2.0],
            Values::Scale(vec![Vec3::ONE, Vec3::splat(2.0), Vec3::splat(3.0)]),
        ));
        assert_eq!(at(&clip, 0.99).scale, Vec3::ONE);
        assert_eq!(at(&clip, 1.0).scale, Vec3::splat(2.0));
        assert_eq!(at(&clip, 1.5).scale, Vec3::splat(2.0));
        assert_eq!(at(&clip, 2.0).scale, Vec3::splat(3.0));
    }

    #[test]
    fn sampling_clamps_outside_the_keys() {
        let clip = one(channel(
            Interpolation::Linear,
            &[1.0, 2.0],
            Values::Translation(vec![Vec3::X, Vec3::Y]),
        ));
        assert_eq!(at(&clip, -5.0).translation, Vec3::X);
        assert_eq!(at(&clip, 1.0).translation, Vec3::X);
        assert_eq!(at(&clip, 2.0).translation, Vec3::Y);
        assert_eq!(at(&clip, 99.0).translation, Vec3::Y);
        assert_eq!(at(&clip, f32::NAN).translation, Vec3::X);
    }

    #[test]
    fn cubic_spline_follows_the_hermite_formula() {
        // One component, written out: p(u) = h00 p0 + h10 Δ m0 + h01 p1 + h11 Δ m1 with
        // p0 = 1, m0 (out-tangent of key 0) = 4, p1 = 3, m1 (in-tangent of key 1) = -2,
        // Δ = 2 s.
        let stored = vec![
            Vec3::new(9.0, 0.0, 0.0), // key 0 in-tangent: unused between the keys
            Vec3::new(1.0, 0.0, 0.0),
            Vec3::new(4.0, 0.0, 0.0),
            Vec3::new(-2.0, 0.0, 0.0),
            Vec3::new(3.0, 0.0, 0.0),
            Vec3::new(7.0, 0.0, 0.0), // key 1 out-tangent: unused
        ];
        let clip = one(channel(
            Interpolation::CubicSpline,
            &[1.0, 3.0],
            Values::Translation(stored),
        ));
        for (t, u) in [
            (1.0f32, 0.0f32),
            (1.5, 0.25),
            (2.0, 0.5),
            (2.6, 0.8),
            (3.0, 1.0),
        ] {
            let (u2, u3) = (u * u, u * u * u);
            let by_hand = (2.0 * u3 - 3.0 * u2 + 1.0) * 1.0
                + (u3 - 2.0 * u2 + u) * 2.0 * 4.0
                + (-2.0 * u3 + 3.0 * u2) * 3.0
                + (u3 - u2) * 2.0 * -2.0;
            let got = at(&clip, t).translation.x;
            assert!((got - by_hand).abs() < 1e-5, "t {t}: {got} vs {by_hand}");
        }
        // u = 0.5 worked out: 0.5·1 + 0.125·8 + 0.5·3 − 0.125·(−4) = 3.5.
        assert!((at(&clip, 2.0).translation.x - 3.5).abs() < 1e-6);
    }

    #[test]
    fn cubic_spline_rotation_is_normalised() {
        let zero = Quat::from_xyzw(0.0, 0.0, 0.0, 0.0);
        let end = Quat::from_rotation_z(FRAC_PI_2);
        let clip = one(channel(
            Interpolation::CubicSpline,
            &[0.0, 1.0],
            Values::Rotation(vec![zero, Quat::IDENTITY, zero, zero, end, zero]),
        ));
        // Zero tangents: the spline is p0 + (p1 − p0)(3u² − 2u³), then normalised.
        let s = 3.0 * 0.25 - 2.0 * 0.125;
        let raw = Vec4::from(Quat::IDENTITY) * (1.0 - s) + Vec4::from(end) * s;
        let q = at(&clip, 0.5).rotation;
        assert!((q.length() - 1.0).abs() < 1e-6);
        assert!(Vec4::from(q).abs_diff_eq(raw.normalize(), 1e-6), "{q}");
    }

    #[test]
    fn bad_channels_are_refused_by_name() {
        let bad = |times: &[f32], values: Values| {
            Clip::new(
                "walk",
                2,
                vec![
                    channel(
                        Interpolation::Linear,
                        &[0.0],
                        Values::Scale(vec![Vec3::ONE]),
                    ),
                    Channel {
                        joint: 1,
                        ..channel(Interpolation::Linear, times, values)
                    },
                ],
            )
            .unwrap_err()
        };
        let e = bad(&[0.0, 1.0], Values::Rotation(vec![Quat::IDENTITY]));
        assert_eq!(e.channel, 1);
        assert_eq!(
            e.to_string(),
            "clip 'walk' channel 1 (joint 1 rotation): 2 key times need 2 values (1 per key), but there are 1"
        );
        let e = bad(&[0.0, 1.0, 1.0], Values::Translation(vec![Vec3::ZERO; 3]));
        assert_eq!(
            e.problem,
            KeyProblem::TimesNotIncreasing {
                key: 2,
                previous: 1.0,
                time: 1.0
            }
        );
        let e = bad(&[0.0, f32::NAN], Values::Translation(vec![Vec3::ZERO; 2]));
        assert_eq!(e.problem, KeyProblem::TimeNotFinite { key: 1 });
        let e = bad(&[0.0], Values::Translation(vec![Vec3::INFINITY]));
        assert_eq!(e.problem, KeyProblem::ValueNotFinite { value: 0 });
        let e = bad(&[], Values::Translation(vec![]));
        assert_eq!(e.problem, KeyProblem::NoKeys);
        let e = bad(
            &[0.0],
            Values::Rotation(vec![Quat::from_xyzw(0.0, 0.0, 0.0, 0.0)]),
        );
        assert_eq!(e.problem, KeyProblem::ZeroRotation { key: 0 });
        let e = Clip::new(
            "walk",
            1,
            vec![Channel {
                joint: 3,
                ..channel(Interpolation::Step, &[0.0], Values::Scale(vec![Vec3::ONE]))
            }],
        )
        .unwrap_err();
        assert!(e.to_string().contains("past the skeleton's end"), "{e}");
    }

    #[test]
    fn an_unchecked_channel_samples_without_panicking() {
        let broken = Channel {
            joint: 0,
            interpolation: Interpolation::CubicSpline,
            times: vec![2.0, 1.0, 0.0],
            values: Values::Rotation(vec![Quat::IDENTITY; 2]),
        };
        assert_eq!(broken.sample(0.5), Sample::Rotation(Quat::IDENTITY));
        let unsorted = Channel {
            interpolation: Interpolation::Linear,
            values: Values::Translation(vec![Vec3::X; 3]),
            ..broken
        };
        assert!(matches!(unsorted.sample(1.5), Sample::Translation(_)));
    }

    #[test]
    fn rotation_keys_are_stored_normalised() {
        let clip = one(channel(
            Interpolation::Step,
            &[0.0],
            Values::Rotation(vec![Quat::from_xyzw(0.0, 0.0, 0.0, 2.0)]),
        ));
        assert_eq!(at(&clip, 0.0).rotation, Quat::IDENTITY);
    }

    #[test]
    fn joints_without_channels_keep_their_rest_transform() {
        let rest = [
            Transform {
                translation: Vec3::new(1.0, 2.0, 3.0),
                ..Transform::IDENTITY
            },
            Transform {
                scale: Vec3::splat(2.0),
                ..Transform::IDENTITY
            },
        ];
        let clip = Clip::new(
            "c",
            2,
            vec![channel(
                Interpolation::Linear,
                &[0.0, 1.0],
                Values::Rotation(vec![Quat::IDENTITY, Quat::from_rotation_x(1.0)]),
            )],
        )
        .unwrap();
        let pose = clip.sample_pose(&rest, 1.0);
        assert_eq!(pose[0].translation, rest[0].translation);
        assert!(
            pose[0]
                .rotation
                .abs_diff_eq(Quat::from_rotation_x(1.0), 1e-6)
        );
        assert_eq!(pose[1], rest[1]);
    }

    #[test]
    fn keys_read_the_stored_values_and_the_last_channel_wins() {
        let tangent = Vec3::splat(9.0);
        let cubic = Channel {
            joint: 1,
            ..channel(
                Interpolation::CubicSpline,
                &[0.0, 2.0],
                Values::Translation(vec![tangent, Vec3::X, tangent, tangent, Vec3::Y, tangent]),
            )
        };
        assert_eq!(cubic.key_count(), 2);
        // The key's value sits between its two tangents.
        assert_eq!(cubic.key(1), Some((2.0, Sample::Translation(Vec3::Y))));
        assert_eq!(cubic.key(2), None);
        let first = channel(
            Interpolation::Linear,
            &[0.0],
            Values::Rotation(vec![Quat::IDENTITY]),
        );
        let second = channel(
            Interpolation::Step,
            &[0.0, 1.0],
            Values::Rotation(vec![Quat::IDENTITY, Quat::from_rotation_z(1.0)]),
        );
        let clip = Clip::new("c", 2, vec![first, cubic, second]).unwrap();
        let rotation = clip
            .channel(0, Property::Rotation)
            .expect("a rotation channel");
        assert_eq!(rotation.interpolation, Interpolation::Step);
        assert!(clip.channel(0, Property::Scale).is_none());
        assert!(clip.channel(1, Property::Translation).is_some());
        // The channel samples what the pose holds.
        let pose = clip.sample_pose(&[Transform::IDENTITY; 2], 1.0);
        assert_eq!(rotation.sample(1.0), Sample::Rotation(pose[0].rotation));
        let q = Quat::from_rotation_z(1.0);
        assert_eq!(Sample::Rotation(q).components(), &[q.x, q.y, q.z, q.w][..]);
        assert_eq!(
            Sample::Scale(Vec3::new(1.0, 2.0, 3.0)).components(),
            &[1.0, 2.0, 3.0]
        );
        assert_eq!(
            Property::Rotation.component_names().len(),
            Sample::Rotation(q).components().len()
        );
    }

    fn pose(angle: f32, x: f32) -> Transform {
        Transform {
            translation: Vec3::new(x, 0.0, 0.0),
            rotation: Quat::from_rotation_y(angle),
            scale: Vec3::splat(1.0 + x),
        }
    }

    #[test]
    fn blend_at_zero_and_one_gives_the_inputs() {
        let a = vec![pose(0.3, 1.0), pose(-1.0, 2.0)];
        let b = vec![pose(2.0, -1.0), pose(0.5, 0.0)];
        for sign_check in [true, false] {
            let at0 = blend_poses(&a, &b, 0.0, sign_check);
            let at1 = blend_poses(&a, &b, 1.0, sign_check);
            for j in 0..2 {
                assert!(at0[j].to_mat4().abs_diff_eq(a[j].to_mat4(), 1e-6));
                assert!(at1[j].to_mat4().abs_diff_eq(b[j].to_mat4(), 1e-6));
            }
        }
        // Halfway, translations and scales are the averages.
        let mid = blend_poses(&a, &b, 0.5, true);
        assert!(mid[0].translation.abs_diff_eq(Vec3::ZERO, 1e-6));
        assert!(mid[0].scale.abs_diff_eq(Vec3::splat(1.0), 1e-6));
    }

    #[test]
    fn skipping_the_sign_check_takes_the_long_way() {
        // The same 90° turn about z stored as −q: a · b < 0.
        let a = Transform::IDENTITY;
        let b = Transform {
            rotation: -Quat::from_rotation_z(FRAC_PI_2),
            ..Transform::IDENTITY
        };
        let angle = |t: &Transform| t.rotation.angle_between(Quat::IDENTITY);
        let short = blend_transforms(&a, &b, 0.5, true);
        let long = blend_transforms(&a, &b, 0.5, false);
        // With the check the halfway pose is 45° on; without it, 135° (the other way).
        assert!((angle(&short) - PI / 4.0).abs() < 1e-5, "{}", angle(&short));
        assert!(
            (angle(&long) - 3.0 * PI / 4.0).abs() < 1e-5,
            "{}",
            angle(&long)
        );
        let x_short = short.rotation * Vec3::X;
        let x_long = long.rotation * Vec3::X;
        assert!(x_short.y > 0.0 && x_long.y < 0.0, "{x_short} {x_long}");
    }

    #[test]
    fn masked_blend_touches_only_the_masked_joints() {
        let skeleton = Skeleton::new(vec![None, Some(0), Some(1), Some(0)]).unwrap();
        let mask = subtree_mask(&skeleton, 1);
        assert_eq!(mask, vec![0.0, 1.0, 1.0, 0.0]);
        let a = vec![pose(0.1, 0.0); 4];
        let b = vec![pose(1.1, 1.0); 4];
        let out = blend_poses_masked(&a, &b, 1.0, &mask, true);
        assert_eq!(out[0], a[0]);
        assert!(out[1].to_mat4().abs_diff_eq(b[1].to_mat4(), 1e-6));
        assert!(out[2].to_mat4().abs_diff_eq(b[2].to_mat4(), 1e-6));
        assert_eq!(out[3], a[3]);
    }

    #[test]
    fn synced_clips_share_a_phase() {
        let clip = |end: f32| {
            one(channel(
                Interpolation::Linear,
                &[0.0, end],
                Values::Translation(vec![Vec3::ZERO, Vec3::X]),
            ))
        };
        let (walk, run) = (clip(2.0), clip(1.0));
        assert_eq!(synced_duration(&walk, &run, 0.5), 1.5);
        assert_eq!(synced_times(&walk, &run, 0.5), (1.0, 0.5));
        let phase = advance_phase(0.9, 0.3, &walk, &run, 0.5);
        assert!((phase - 0.1).abs() < 1e-6, "{phase}");
        assert!((walk.phase(5.0) - 0.5).abs() < 1e-6);
        assert_eq!(walk.time_at(2.0), 2.0);
    }

    fn weights(interpolation: Interpolation, times: &[f32], values: &[f32]) -> WeightsChannel {
        WeightsChannel {
            joint: 0,
            interpolation,
            times: times.to_vec(),
            targets: 2,
            values: values.to_vec(),
        }
    }

    #[test]
    fn weights_sample_on_the_one_sampler_target_by_target() {
        // Two targets: the first rises 0 → 1, the second falls 1 → 0, over 1 s to 3 s.
        let linear = weights(Interpolation::Linear, &[1.0, 3.0], &[0.0, 1.0, 1.0, 0.0]);
        assert_eq!(linear.sample(2.0), vec![0.5, 0.5]);
        assert_eq!(linear.sample(0.0), vec![0.0, 1.0]);
        assert_eq!(linear.sample(9.0), vec![1.0, 0.0]);
        let step = weights(Interpolation::Step, &[1.0, 3.0], &[0.0, 1.0, 1.0, 0.0]);
        assert_eq!(step.sample(2.9), vec![0.0, 1.0]);
        // A cubic spline with flat tangents eases: at a quarter of the way it has gone
        // hermite's h01(0.25) = 0.15625 of the distance, the same as a translation would.
        let flat = [0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0];
        let cubic = weights(Interpolation::CubicSpline, &[1.0, 3.0], &flat);
        let [h00, _, h01, _] = hermite(0.25);
        let eased = cubic.sample(1.5);
        assert!(
            (eased[0] - h01).abs() < 1e-6 && (eased[1] - h00).abs() < 1e-6,
            "{eased:?}"
        );
    }

    #[test]
    fn a_weights_channel_is_checked_and_widens_the_clip() {
        let mut clip = one(channel(
            Interpolation::Linear,
            &[0.0, 1.0],
            Values::Translation(vec![Vec3::ZERO, Vec3::X]),
        ));
        let short = weights(Interpolation::Linear, &[1.0, 3.0], &[0.0, 1.0, 1.0]);
        assert_eq!(
            clip.add_weights(short, 1),
            Err(KeyProblem::CountMismatch {
                times: 2,
                values: 3,
                per_key: 2
            })
        );
        let back = weights(Interpolation::Linear, &[1.0, 0.5], &[0.0; 4]);
        assert!(matches!(
            clip.add_weights(back, 1),
            Err(KeyProblem::TimesNotIncreasing { key: 1, .. })
        ));
        let nan = weights(
            Interpolation::Linear,
            &[1.0, 3.0],
            &[0.0, f32::NAN, 0.0, 0.0],
        );
        assert_eq!(
            clip.add_weights(nan, 1),
            Err(KeyProblem::ValueNotFinite { value: 1 })
        );
        let elsewhere = weights(Interpolation::Linear, &[1.0, 3.0], &[0.0; 4]);
        assert!(clip.add_weights(elsewhere.clone(), 0).is_err());
        assert_eq!(clip.duration(), 1.0);
        assert!(clip.add_weights(elsewhere, 1).is_ok());
        assert_eq!((clip.start(), clip.end()), (0.0, 3.0));
        assert_eq!(clip.sample_weights(0, 3.0), Some(vec![0.0, 0.0]));
        assert_eq!(clip.sample_weights(1, 3.0), None);
    }
}
