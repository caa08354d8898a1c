//! The page's link: only what differs from the defaults.
//!
//! `stage=bind_space`, the pose `angles=0,0.3,-0.5` and the bind pose `rebind=0,0.3,0`
//! (radians, chest, neck, head), inverse binds edited by hand
//! `inverse_bind=head:` sixteen numbers column by column (entries joined by `;`), the
//! selected `joint=neck`, `forget_inverse_bind=true`, `stored=true` and `question=2`.

use super::{BindingPage, DEFAULT_JOINT, Stage};
use crate::link::{Link, LinkError, numbers, parse_number};
use crate::skin::binding::{EXERCISES, JOINT_COUNT, JOINT_NAMES};
use crate::skin::matrix::checked_inverse;
use glam::Mat4;

const FORM: &str =
    "entries like `head:` and 16 numbers (a matrix, column by column), joined by `;`";

/// Reads `inverse_bind`: joint names, sixteen finite numbers each, no joint twice, and
/// every matrix invertible (an inverse bind with no inverse could not come from a pose).
fn read_inverse_binds(link: &Link) -> Result<Vec<(usize, Mat4)>, LinkError> {
    let key = "inverse_bind";
    let Some(value) = link.get(key) else {
        return Ok(Vec::new());
    };
    let bad = |why: String| link.bad(key, format!("{FORM}; {why}"));
    let mut seen = [false; JOINT_COUNT];
    let mut out = Vec::new();
    for entry in value.split(';') {
        let Some((name, text)) = entry.split_once(':') else {
            return Err(link.bad(key, FORM));
        };
        let joint = JOINT_NAMES.iter().position(|n| *n == name).ok_or_else(|| {
            bad(format!(
                "`{name}` is not a joint. The joints are: {}",
                JOINT_NAMES.join(", ")
            ))
        })?;
        if std::mem::replace(&mut seen[joint], true) {
            return Err(bad(format!("`{name}` is given twice")));
        }
        let parsed: Option<Vec<f32>> = text.split(',').map(parse_number).collect();
        let Some(cells) = parsed.filter(|c| c.len() == 16) else {
            return Err(bad(format!("`{name}` needs 16 finite numbers")));
        };
        let m = Mat4::from_cols_slice(&cells);
        if let Err(why) = checked_inverse(&m) {
            return Err(bad(format!("`{name}`: {why}")));
        }
        out.push((joint, m));
    }
    Ok(out)
}

/// Reads every key first and changes the page only when all of them are good.
pub fn apply(page: &mut BindingPage, link: &Link) -> Result<(), LinkError> {
    let slugs = Stage::ALL.map(Stage::slug);
    let stage = link.choice("stage", &slugs)?.map(|i| Stage::ALL[i]);
    let angles = link.f32s::<JOINT_COUNT>("angles")?;
    let rebind = link.f32s::<JOINT_COUNT>("rebind")?;
    let edits = read_inverse_binds(link)?;
    let joint = link.choice("joint", &JOINT_NAMES)?;
    let forget = link.bool("forget_inverse_bind")?;
    let stored = link.bool("stored")?;
    let question = link.question(EXERCISES.len())?;

    page.angles = angles.unwrap_or(page.angles);
    if let Some(rebind) = rebind {
        page.bind_at(rebind);
    }
    for (joint, m) in &edits {
        page.joint_from_bind[*joint] = *m;
    }
    // Only `stage` picks the stage, so a link written from any state reopens it.
    page.stage = stage.unwrap_or(page.stage);
    page.joint = joint.unwrap_or(page.joint);
    page.forget_inverse_bind = forget.unwrap_or(page.forget_inverse_bind);
    page.show_stored = stored.unwrap_or(page.show_stored);
    page.exercise = question.unwrap_or(page.exercise);
    let has = |key| link.get(key).is_some();
    let cell = if has("question") {
        Some("check")
    } else if has("forget_inverse_bind") {
        Some("forget")
    } else if has("rebind") {
        Some("rebind")
    } else if has("stage") || has("inverse_bind") {
        Some(page.stage.first_cell())
    } else {
        None
    };
    if let Some(cell) = cell {
        page.scroll_to(cell);
    }
    Ok(())
}

/// The link that reopens the page as it is.
pub fn write(page: &BindingPage) -> Link {
    let mut link = Link::new("binding");
    let straight = [0.0; JOINT_COUNT];
    if page.stage != Stage::JointSpace {
        link = link.with("stage", page.stage.slug());
    }
    if page.angles != straight {
        link = link.with("angles", numbers(&page.angles));
    }
    if page.rebind != straight {
        link = link.with("rebind", numbers(&page.rebind));
    }
    let captured = page.captured();
    let edits: Vec<String> = (0..JOINT_COUNT)
        .filter(|j| page.joint_from_bind[*j] != captured[*j])
        .map(|j| {
            format!(
                "{}:{}",
                JOINT_NAMES[j],
                numbers(&page.joint_from_bind[j].to_cols_array())
            )
        })
        .collect();
    if !edits.is_empty() {
        link = link.with("inverse_bind", edits.join(";"));
    }
    if page.joint != DEFAULT_JOINT {
        link = link.with("joint", JOINT_NAMES[page.joint]);
    }
    if page.forget_inverse_bind {
        link = link.with("forget_inverse_bind", true);
    }
    if page.show_stored {
        link = link.with("stored", true);
    }
    if page.exercise != 0 {
        link = link.with("question", page.exercise + 1);
    }
    link
}
