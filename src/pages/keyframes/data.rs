//! The keyframes lesson's animation: keys for the two-bone arm's shoulder and elbow,
//! held as the channels a glTF clip holds, so the page samples them with the model
//! page's sampler ([`skin::clip::Channel::sample`]).

use glam::{Mat4, Quat, Vec3};
use rigs::arm;
use skin::clip::{Channel, Interpolation, Segment, Transform, Values};

/// The length of the lesson's animation, seconds.
pub const DURATION: f32 = 4.0;

/// The three ways a glTF channel fills the time between keys, in the order the page
/// offers them, with the names links use.
pub const INTERPOLATIONS: [(Interpolation, &str); 3] = [
    (Interpolation::Step, "step"),
    (Interpolation::Linear, "linear"),
    (Interpolation::CubicSpline, "cubicspline"),
];

/// The names of [`INTERPOLATIONS`], as links write them.
pub const INTERPOLATION_NAMES: [&str; 3] = [
    INTERPOLATIONS[0].1,
    INTERPOLATIONS[1].1,
    INTERPOLATIONS[2].1,
];

/// One joint's keys: a rotation channel and a translation channel, with keys at times
/// of their own, both of one interpolation.
#[derive(Clone, Debug, PartialEq)]
pub struct JointKeys {
    /// Rotation keys.
    pub rotation: Channel,
    /// Translation keys.
    pub translation: Channel,
}

/// One joint's local transform at a time, worked: where the time falls among each
/// kind of key, the sampled rotation and translation, and the matrix they build.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Worked {
    /// Rotation keys around the time.
    pub rotation_keys: Segment,
    /// Translation keys around the time.
    pub translation_keys: Segment,
    /// The sampled rotation.
    pub rotation: Quat,
    /// The sampled translation.
    pub translation: Vec3,
    /// `T(translation) · R(rotation)`: rotation first, then translation.
    pub matrix: Mat4,
}

impl JointKeys {
    /// The joint's keys as a player reads them at `time`.
    pub fn sample(&self, time: f32) -> Worked {
        let mut local = Transform::IDENTITY;
        self.rotation.sample(time).apply(&mut local);
        self.translation.sample(time).apply(&mut local);
        Worked {
            rotation_keys: self.rotation.segment(time),
            translation_keys: self.translation.segment(time),
            rotation: local.rotation,
            translation: local.translation,
            matrix: local.to_mat4(),
        }
    }
}

/// A LINEAR rotation channel of joint `joint` from `(time, rotation)` keys.
pub fn rotation_keys(joint: usize, keys: &[(f32, Quat)]) -> Channel {
    Channel {
        joint,
        interpolation: Interpolation::Linear,
        times: keys.iter().map(|k| k.0).collect(),
        values: Values::Rotation(keys.iter().map(|k| k.1).collect()),
    }
}

/// A LINEAR translation channel of joint `joint` from `(time, translation)` keys.
pub fn translation_keys(joint: usize, keys: &[(f32, Vec3)]) -> Channel {
    Channel {
        joint,
        interpolation: Interpolation::Linear,
        times: keys.iter().map(|k| k.0).collect(),
        values: Values::Translation(keys.iter().map(|k| k.1).collect()),
    }
}

/// The lesson's animation of the two-bone arm: the shoulder moves and turns, the elbow
/// bends and twists, on keys at different times, filled in by `interpolation`. Each
/// is built once: the page samples it several times a frame.
pub fn arm_keys(interpolation: Interpolation) -> &'static [JointKeys; 2] {
    use std::sync::OnceLock;
    static KEYS: [OnceLock<[JointKeys; 2]>; 3] = [const { OnceLock::new() }; 3];
    let slot = INTERPOLATIONS
        .iter()
        .position(|(i, _)| *i == interpolation)
        .unwrap_or(1);
    KEYS[slot].get_or_init(|| {
        build_arm_keys().map(|keys| JointKeys {
            rotation: interpolated(&keys.rotation, interpolation),
            translation: interpolated(&keys.translation, interpolation),
        })
    })
}

/// A LINEAR channel's keys filled in by `interpolation` instead. A CUBICSPLINE key
/// stores an in-tangent, its value and an out-tangent; here both tangents are the
/// Catmull-Rom slope, from the key before to the key after (units per second), and
/// flat at the first and last keys.
pub fn interpolated(linear: &Channel, interpolation: Interpolation) -> Channel {
    fn with_tangents<T>(times: &[f32], v: &[T], zero: T) -> Vec<T>
    where
        T: Copy + std::ops::Sub<Output = T> + std::ops::Mul<f32, Output = T>,
    {
        let mut out = Vec::with_capacity(3 * v.len());
        for k in 0..v.len() {
            let slope = if k == 0 || k + 1 == v.len() {
                zero
            } else {
                (v[k + 1] - v[k - 1]) * (1.0 / (times[k + 1] - times[k - 1]))
            };
            out.extend([slope, v[k], slope]);
        }
        out
    }
    let values = match (interpolation, &linear.values) {
        (Interpolation::CubicSpline, Values::Translation(v)) => {
            Values::Translation(with_tangents(&linear.times, v, Vec3::ZERO))
        }
        (Interpolation::CubicSpline, Values::Scale(v)) => {
            Values::Scale(with_tangents(&linear.times, v, Vec3::ZERO))
        }
        // As 4-vectors: a Quat's `*` and `-` are not the sums a tangent needs.
        (Interpolation::CubicSpline, Values::Rotation(q)) => {
            let v: Vec<glam::Vec4> = q.iter().map(|q| glam::Vec4::from(*q)).collect();
            let tangents = with_tangents(&linear.times, &v, glam::Vec4::ZERO);
            Values::Rotation(tangents.into_iter().map(Quat::from_vec4).collect())
        }
        (_, values) => values.clone(),
    };
    Channel {
        interpolation,
        values,
        ..linear.clone()
    }
}

fn build_arm_keys() -> [JointKeys; 2] {
    let q =
        |axis: Vec3, degrees: f32| Quat::from_axis_angle(axis.normalize(), degrees.to_radians());
    let shoulder = JointKeys {
        rotation: rotation_keys(
            0,
            &[
                (0.0, Quat::IDENTITY),
                (1.0, q(Vec3::Z, 40.0)),
                (2.5, q(Vec3::new(0.0, 1.0, 0.3), -70.0)),
                (DURATION, Quat::IDENTITY),
            ],
        ),
        translation: translation_keys(
            0,
            &[
                (0.0, Vec3::ZERO),
                (2.0, Vec3::new(0.0, 1.0, 0.0)),
                (DURATION, Vec3::ZERO),
            ],
        ),
    };
    let elbow = JointKeys {
        rotation: rotation_keys(
            1,
            &[
                (0.0, Quat::IDENTITY),
                (1.5, q(Vec3::Z, 100.0)),
                (3.0, q(Vec3::new(1.0, 0.4, 0.0), 120.0)),
                (DURATION, Quat::IDENTITY),
            ],
        ),
        translation: translation_keys(1, &[(0.0, Vec3::X * arm::BONE_LENGTH)]),
    };
    [shoulder, elbow]
}

#[cfg(test)]
mod tests {
    use super::*;
    use skin::clip::{Clip, Sample};
    use skin::explain::rotation::rotation_between;

    #[test]
    fn the_keys_are_a_valid_clip() {
        for (interpolation, name) in INTERPOLATIONS {
            let channels = arm_keys(interpolation)
                .iter()
                .flat_map(|j| [j.rotation.clone(), j.translation.clone()])
                .collect();
            let clip = Clip::new("arm", 2, channels).expect(name);
            assert_eq!((clip.start(), clip.end()), (0.0, DURATION), "{name}");
        }
    }

    #[test]
    fn sampling_at_a_key_time_returns_the_key() {
        for joint in INTERPOLATIONS.iter().flat_map(|(i, _)| arm_keys(*i)) {
            for (channel, rotation) in [(&joint.rotation, true), (&joint.translation, false)] {
                for key in 0..channel.key_count() {
                    let Some((time, value)) = channel.key(key) else {
                        panic!("key {key}");
                    };
                    let worked = joint.sample(time);
                    let seg = if rotation {
                        worked.rotation_keys
                    } else {
                        worked.translation_keys
                    };
                    assert_eq!((seg.key, seg.u), (key, 0.0), "at {time}");
                    match value {
                        Sample::Rotation(q) => {
                            assert!(rotation_between(worked.rotation, q) < 1e-4, "at {time}")
                        }
                        Sample::Translation(v) => {
                            assert!(worked.translation.abs_diff_eq(v, 1e-6), "at {time}")
                        }
                        Sample::Scale(_) => panic!("no scale keys"),
                    }
                }
            }
        }
    }

    #[test]
    fn between_keys_it_slerps_and_builds_rotation_then_translation() {
        let [shoulder, _] = arm_keys(Interpolation::Linear);
        let worked = shoulder.sample(0.5);
        let r = worked.rotation_keys;
        assert_eq!((r.key, r.next), (0, 1));
        assert!((r.u - 0.5).abs() < 1e-6);
        assert!(
            (rotation_between(Quat::IDENTITY, worked.rotation) - 20f32.to_radians()).abs() < 1e-4
        );
        assert!(
            worked
                .translation
                .abs_diff_eq(Vec3::new(0.0, 0.25, 0.0), 1e-6)
        );
        // A point at x = 1 turns first, then moves up.
        let p = worked.matrix.transform_point3(Vec3::X);
        let expected = Quat::from_rotation_z(20f32.to_radians()) * Vec3::X + worked.translation;
        assert!(p.abs_diff_eq(expected, 1e-5));
        // Outside the keys the ends hold.
        assert_eq!(shoulder.sample(-1.0).rotation_keys.key, 0);
        let late = shoulder.sample(9.0).rotation_keys;
        assert_eq!((late.key, late.next), (3, 3));
    }

    #[test]
    fn the_shoulder_rises_by_steps_by_lines_or_by_a_smooth_curve() {
        // Its height keys: 0 at 0 s, 1 at 2 s, 0 at 4 s.
        let height = |interpolation, time| arm_keys(interpolation)[0].sample(time).translation.y;
        // STEP holds the key before: still 0 just before 2 s, 1 just after.
        assert_eq!(height(Interpolation::Step, 1.99), 0.0);
        assert_eq!(height(Interpolation::Step, 2.01), 1.0);
        // LINEAR is halfway at 1 s; the Catmull-Rom tangents are flat at every key
        // here (the keys before and after the peak are equal), so the spline is the
        // smooth step 3u² − 2u³, also halfway at 1 s but slower near the keys.
        assert!((height(Interpolation::Linear, 1.0) - 0.5).abs() < 1e-6);
        assert!((height(Interpolation::CubicSpline, 1.0) - 0.5).abs() < 1e-6);
        let u = 0.25f32;
        let smooth = 3.0 * u * u - 2.0 * u * u * u;
        assert!((height(Interpolation::CubicSpline, 0.5) - smooth).abs() < 1e-6);
        assert!((height(Interpolation::Linear, 0.5) - u).abs() < 1e-6);
    }

    #[test]
    fn a_middle_key_gets_the_slope_from_its_neighbours() {
        // Rotation keys of the elbow at 0, 1.5, 3 and 4 s: key 1's tangent is
        // (key 2 − key 0) / 3 s, as 4-vectors; the first key's is flat.
        let linear = &arm_keys(Interpolation::Linear)[1].rotation;
        let cubic = &arm_keys(Interpolation::CubicSpline)[1].rotation;
        let (Values::Rotation(keys), Values::Rotation(stored)) = (&linear.values, &cubic.values)
        else {
            panic!("rotation keys");
        };
        assert_eq!(stored.len(), 3 * keys.len());
        let slope = (glam::Vec4::from(keys[2]) - glam::Vec4::from(keys[0])) / 3.0;
        assert!(glam::Vec4::from(stored[3]).abs_diff_eq(slope, 1e-6));
        assert!(glam::Vec4::from(stored[5]).abs_diff_eq(slope, 1e-6));
        assert_eq!(
            stored[4], keys[1],
            "the value sits between its two tangents"
        );
        assert_eq!(glam::Vec4::from(stored[0]), glam::Vec4::ZERO);
    }
}
