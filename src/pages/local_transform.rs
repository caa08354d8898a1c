//! A joint's local transform as pages edit it: its three parts, the values they refuse
//! (the same rules for a typed number, a drag and a link), and the editor.

use crate::pages::joint_link;
use egui::{DragValue, Role, Ui, WidgetInfo};
use glam::Vec3;
use skin::explain::trs::Trs;

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

/// Why a local transform cannot be used, if it cannot.
pub fn trs_problem(trs: &Trs) -> Option<String> {
    Field::ALL.iter().find_map(|f| problem(*f, f.get(trs)))
}

/// The accessibility label of one local-transform field, e.g. `rotation z`.
pub fn field_label(field: Field, axis: usize) -> String {
    let name = match field {
        Field::Translation => "translation",
        Field::Rotation => "rotation",
        Field::Scale => "scale",
    };
    format!("{name} {}", ["x", "y", "z"][axis])
}

/// One row of three numbers. Rotation is shown in degrees and stored in radians.
/// Returns whether the user changed a number.
fn field_ui(ui: &mut Ui, field: Field, value: &mut Vec3) -> bool {
    let (label, speed, suffix, decimals) = match field {
        Field::Translation => ("translation", 0.005, "", 3),
        Field::Rotation => ("rotation", 0.5, "°", 1),
        Field::Scale => ("scale", 0.005, "", 3),
    };
    let mut changed = false;
    ui.horizontal_wrapped(|ui| {
        ui.add_sized([92.0, 20.0], egui::Label::new(label));
        for axis in 0..3 {
            let mut shown = match field {
                Field::Rotation => value[axis].to_degrees(),
                _ => value[axis],
            };
            let current = f64::from(shown);
            let response = ui.add(
                DragValue::new(&mut shown)
                    .speed(speed)
                    .custom_parser(move |text| {
                        crate::ui::numbers::typed_near(text, current, decimals + 1)
                    })
                    .prefix(format!("{} ", ["x", "y", "z"][axis]))
                    .suffix(suffix)
                    .min_decimals(decimals)
                    .max_decimals(decimals + 1)
                    .custom_formatter(|x, decimals| {
                        crate::ui::matrix::without_negative_zero(
                            egui::emath::format_with_decimals_in_range(x, decimals),
                        )
                    }),
            );
            let text = field_label(field, axis);
            response.widget_info(|| WidgetInfo::labeled(Role::SpinButton, true, text.clone()));
            if response.changed() {
                value[axis] = match field {
                    Field::Rotation => shown.to_radians(),
                    _ => shown,
                };
                changed = true;
            }
        }
    });
    changed
}

/// The order the three angles turn in, said under the numbers: Euler angles mean
/// nothing without it.
pub const ROTATION_ORDER: &str = "the angles in this order: R = Rx · Ry · Rz (Rz acts on v first)";

/// What the user did to a local transform in [`trs_edit_ui`].
#[derive(Clone, Debug, PartialEq)]
pub enum TrsEdit {
    /// Nothing.
    Unchanged,
    /// A valid edit, stored (rounded to 4 decimals).
    Changed,
    /// An edit that [`trs_problem`] refused; the transform kept its value.
    Refused(String),
}

/// Translation, rotation (degrees, `R = Rx · Ry · Rz`) and scale as three rows of
/// numbers. A valid edit is stored rounded; a refused one leaves `trs` as it was.
pub fn trs_edit_ui(ui: &mut Ui, trs: &mut Trs) -> TrsEdit {
    let mut candidate = *trs;
    let mut changed = false;
    for field in [Field::Translation, Field::Rotation, Field::Scale] {
        changed |= field_ui(ui, field, field.get_mut(&mut candidate));
    }
    ui.label(egui::RichText::new(ROTATION_ORDER).weak());
    if !changed {
        return TrsEdit::Unchanged;
    }
    let candidate = rounded(candidate);
    match trs_problem(&candidate) {
        Some(problem) => TrsEdit::Refused(problem),
        None => {
            *trs = candidate;
            TrsEdit::Changed
        }
    }
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
