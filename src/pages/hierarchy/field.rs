//! The parts of a joint's local transform that the page edits, and the values it
//! refuses: the same rules for a typed number, a drag and a link.

use crate::pages::joint_link;
use crate::skin::Trs;
use glam::Vec3;

/// A part of a joint's local transform: edited in the local cell, carried by a link key.
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
    /// Every field.
    pub const ALL: [Self; 3] = [Self::Rotation, Self::Translation, Self::Scale];

    /// The link key.
    pub fn key(self) -> &'static str {
        match self {
            Self::Translation => "pos",
            Self::Rotation => "rot",
            Self::Scale => "scale",
        }
    }

    /// What a link value of this field must be: a joint list, and the numbers [`problem`]
    /// accepts.
    pub const fn form(self) -> &'static str {
        match self {
            Self::Rotation => joint_link::FORM,
            Self::Translation => {
                "entries like `hips:0,1.1,0` joined by `;`, each number within ±100"
            }
            Self::Scale => {
                "entries like `head:1.5,1.5,1.5` joined by `;`, each number within ±100 and not 0"
            }
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

pub use crate::pages::LIMIT;

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_are_what_the_link_forms_say() {
        assert_eq!(problem(Field::Rotation, Vec3::splat(1e3)), None);
        assert!(problem(Field::Translation, Vec3::new(0.0, LIMIT + 1.0, 0.0)).is_some());
        assert!(problem(Field::Scale, Vec3::new(1.0, 0.0, 1.0)).is_some());
        for field in [Field::Translation, Field::Scale] {
            assert!(field.form().contains(&format!("±{LIMIT}")), "{field:?}");
        }
    }
}
