//! The keyframes lesson's animation: keys for the two-bone arm's shoulder and elbow.

use glam::{Quat, Vec3};
use rigs::arm;
use skin::rotation::{Channel, Key};

/// The length of the lesson's animation, seconds.
pub const DURATION: f32 = 4.0;

/// The lesson's animation of the two-bone arm: the shoulder moves and turns, the elbow
/// bends and twists, on keys at different times.
pub fn arm_channels() -> [Channel; 2] {
    let q =
        |axis: Vec3, degrees: f32| Quat::from_axis_angle(axis.normalize(), degrees.to_radians());
    let shoulder = Channel {
        rotations: vec![
            Key {
                time: 0.0,
                value: Quat::IDENTITY,
            },
            Key {
                time: 1.0,
                value: q(Vec3::Z, 40.0),
            },
            Key {
                time: 2.5,
                value: q(Vec3::new(0.0, 1.0, 0.3), -70.0),
            },
            Key {
                time: DURATION,
                value: Quat::IDENTITY,
            },
        ],
        translations: vec![
            Key {
                time: 0.0,
                value: Vec3::ZERO,
            },
            Key {
                time: 2.0,
                value: Vec3::new(0.0, 1.0, 0.0),
            },
            Key {
                time: DURATION,
                value: Vec3::ZERO,
            },
        ],
    };
    let elbow = Channel {
        rotations: vec![
            Key {
                time: 0.0,
                value: Quat::IDENTITY,
            },
            Key {
                time: 1.5,
                value: q(Vec3::Z, 100.0),
            },
            Key {
                time: 3.0,
                value: q(Vec3::new(1.0, 0.4, 0.0), 120.0),
            },
            Key {
                time: DURATION,
                value: Quat::IDENTITY,
            },
        ],
        translations: vec![Key {
            time: 0.0,
            value: Vec3::X * arm::BONE_LENGTH,
        }],
    };
    [shoulder, elbow]
}

#[cfg(test)]
mod tests {
    use super::*;
    use skin::rotation::rotation_between;

    #[test]
    fn sampling_at_a_key_time_returns_the_key() {
        for channel in arm_channels() {
            for key in &channel.rotations {
                let s = channel.sample(key.time);
                assert!(
                    rotation_between(s.rotation, key.value) < 1e-4,
                    "at {}",
                    key.time
                );
            }
            for key in &channel.translations {
                assert!(
                    channel
                        .sample(key.time)
                        .translation
                        .abs_diff_eq(key.value, 1e-6)
                );
            }
        }
    }
}
