//! The pose in a link: only the joints that differ from the T-pose, one field a key.
//!
//! `rot=upper_arm.L:0,0,1.2;forearm.L:0.3,0,0` (radians), `pos=hips:0,1.1,0`,
//! `scale=head:1.5,1.5,1.5`. Joint names are the rig's names.

use crate::link::{Link, LinkError};
use crate::pages::joint_link;
use crate::skin::Trs;
use glam::Vec3;

/// A part of a joint's local transform that a link can carry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Field {
    /// `pos`: the translation.
    Translation,
    /// `rot`: the Euler angles, radians.
    Rotation,
    /// `scale`: the scale.
    Scale,
}

impl Field {
    /// Every field, in the order links write them.
    pub const ALL: [Self; 3] = [Self::Rotation, Self::Translation, Self::Scale];

    /// The link key.
    pub fn key(self) -> &'static str {
        match self {
            Self::Translation => "pos",
            Self::Rotation => "rot",
            Self::Scale => "scale",
        }
    }

    /// This field of `trs`.
    pub fn get(self, trs: &Trs) -> Vec3 {
        match self {
            Self::Translation => trs.translation,
            Self::Rotation => trs.rotation,
            Self::Scale => trs.scale,
        }
    }

    /// This field of `trs`, for writing.
    pub fn get_mut(self, trs: &mut Trs) -> &mut Vec3 {
        match self {
            Self::Translation => &mut trs.translation,
            Self::Rotation => &mut trs.rotation,
            Self::Scale => &mut trs.scale,
        }
    }
}

/// How far a translation or scale may go: past this the figure leaves any view, and
/// products of such numbers overflow.
pub const LIMIT: f32 = 100.0;

/// Why `value` cannot be `field` of a joint, if it cannot: not finite, out of range, or
/// a scale of 0 (the joint flattens to nothing and its matrix has no inverse).
pub fn problem(field: Field, value: Vec3) -> Option<String> {
    if !value.is_finite() {
        return Some("every number must be finite".to_owned());
    }
    if field != Field::Rotation && value.abs().max_element() > LIMIT {
        return Some(format!("a {} stays within ±{LIMIT}", field.key()));
    }
    (field == Field::Scale && value.abs().min_element() < 1e-3).then(|| {
        "a scale of 0 flattens the joint to nothing, and its matrix has no inverse".to_owned()
    })
}

/// `trs` rounded to 4 decimals, so the links of dragged and typed poses stay short and
/// reopen exactly. 0.0001 rad is 0.006°; 0.0001 units is a tenth of a millimetre.
pub fn rounded(trs: Trs) -> Trs {
    let round = |v: Vec3| (v * 1e4).round() / 1e4 + Vec3::ZERO;
    Trs {
        translation: round(trs.translation),
        rotation: round(trs.rotation),
        scale: round(trs.scale),
    }
}

/// The value of `field`'s key for `pose`: the joints that differ from `bind`, or `None`
/// when none do.
pub fn write(field: Field, pose: &[Trs], bind: &[Trs]) -> Option<String> {
    joint_link::write(pose, bind, |t| field.get(t))
}

/// Reads `field`'s key from `link` into a list of (joint, value): joint names, three
/// finite numbers each, no joint twice, nothing [`problem`] refuses.
pub fn read(field: Field, link: &Link) -> Result<Vec<(usize, Vec3)>, LinkError> {
    joint_link::read(link, field.key(), |v| problem(field, v))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::skin::humanoid::bind_pose;

    #[test]
    fn only_changed_joints_are_written_and_read_back() {
        let bind = bind_pose();
        assert_eq!(write(Field::Rotation, &bind, &bind), None);
        let mut pose = bind.clone();
        pose[7].rotation = Vec3::new(0.0, 0.25, -1.2);
        pose[0].translation.y = 1.1;
        let rot = write(Field::Rotation, &pose, &bind).unwrap();
        assert_eq!(rot, "forearm.L:0,0.25,-1.2");
        assert_eq!(
            write(Field::Translation, &pose, &bind).unwrap(),
            "hips:0,1.1,0"
        );
        let link = Link::parse(&format!("hierarchy?rot={rot}")).unwrap();
        assert_eq!(
            read(Field::Rotation, &link),
            Ok(vec![(7, pose[7].rotation)])
        );
    }

    #[test]
    fn bad_entries_name_the_problem() {
        let message = |text: &str, field| {
            read(field, &Link::parse(text).unwrap())
                .unwrap_err()
                .to_string()
        };
        let unknown = message("hierarchy?rot=elbow:0,0,1", Field::Rotation);
        assert!(
            unknown.contains("elbow") && unknown.contains("forearm.L"),
            "{unknown}"
        );
        assert!(message("hierarchy?rot=head:0,1", Field::Rotation).contains("three"));
        assert!(message("hierarchy?rot=head:0,nan,1", Field::Rotation).contains("three"));
        assert!(message("hierarchy?rot=head", Field::Rotation).contains("forearm.L:0,0,1.2"));
        assert!(message("hierarchy?rot=head:0,0,1;head:1,0,0", Field::Rotation).contains("twice"));
        assert!(message("hierarchy?scale=head:1,0,1", Field::Scale).contains("scale of 0"));
        assert!(message("hierarchy?pos=head:1,1e9,1", Field::Translation).contains("±100"));
        assert_eq!(problem(Field::Rotation, Vec3::splat(1e3)), None);
    }
}
