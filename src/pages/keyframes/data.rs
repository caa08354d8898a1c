//! The keyframes lesson's animation: keys for the two-bone arm's shoulder and elbow,
//! held as the channels a glTF clip holds, so the page samples them with the model
//! page's sampler ([`skin::clip::Channel::sample`]).

use glam::{Mat4, Quat, Vec3};
use rigs::arm;
use skin::clip::{Channel, Interpolation, Segment, Transform, Values};

/// The length of the lesson's animation, seconds.
pub const DURATION: f32 = 4.0;

/// One joint's keys: a rotation channel and a translation channel, each LINEAR, with
/// keys at times of their own.
#[derive(Clone, Debug, PartialEq)]
pub struct JointKeys {
    /// Rotation keys (slerped between).
    pub rotation: Channel,
    /// Translation keys (lerped between).
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
    /// The slerped rotation.
    pub rotation: Quat,
    /// The lerped translation.
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
/// bends and twists, on keys at different times. Built once: the page samples it
/// several times a frame.
pub fn arm_keys() -> &'static [JointKeys; 2] {
    static KEYS: std::sync::OnceLock<[JointKeys; 2]> = std::sync::OnceLock::new();
    KEYS.get_or_init(build_arm_keys)
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
    use skin::rotation::rotation_between;

    #[test]
    fn the_keys_are_a_valid_clip() {
        let channels = arm_keys()
            .iter()
            .flat_map(|j| [j.rotation.clone(), j.translation.clone()])
            .collect();
        let clip = Clip::new("arm", 2, channels).expect("valid keys");
        assert_eq!((clip.start(), clip.end()), (0.0, DURATION));
    }

    #[test]
    fn sampling_at_a_key_time_returns_the_key() {
        for joint in arm_keys() {
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
        let [shoulder, _] = arm_keys();
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
}
