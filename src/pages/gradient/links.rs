//! The page's link: only what differs from the defaults.
//!
//! `show=matrices`, points `a=1,1&b=4,3`, frames `ma=angle,x,y` (a turn in radians and a
//! move) or `ma=` sixteen numbers (column-major), `pose=walk`, then the target's joints
//! that differ from the preset: `rot=forearm.L:0,0,1.2;head:0.1,0,0` (radians) and
//! `pos=hips:0,0.9,0`, the selected `joint=hand.L`, and the exercise `question=2`.

use super::{DEFAULT_FRAMES, DEFAULT_JOINT, DEFAULT_POINTS, DEFAULT_PRESET, GradientPage, Section};
use crate::link::{Link, LinkError, numbers, parse_number};
use crate::pages::joint_link;
use crate::skin::gradient::{EXERCISES, Frame2};
use crate::skin::humanoid::JOINTS;
use crate::skin::matrix::checked_inverse;
use crate::skin::poses::{self, PRESETS};
use glam::{Mat4, Vec2};

fn bad(link: &Link, key: &str, expected: impl Into<String>) -> LinkError {
    LinkError::BadValue {
        key: key.to_owned(),
        value: link.get(key).unwrap_or_default().to_owned(),
        expected: expected.into(),
    }
}

/// A frame: three numbers (turn, x, y) or sixteen (a whole matrix, column-major).
fn read_frame(link: &Link, key: &str) -> Result<Option<(Mat4, Option<Frame2>)>, LinkError> {
    let Some(value) = link.get(key) else {
        return Ok(None);
    };
    let expected = "3 numbers (a turn in radians, then x and y) or 16 numbers (a matrix, column by column), separated by commas";
    let parsed: Option<Vec<f32>> = value.split(',').map(parse_number).collect();
    match parsed.as_deref() {
        Some(&[angle, x, y]) => {
            let turn = Frame2 {
                angle,
                origin: Vec2::new(x, y),
            };
            Ok(Some((turn.to_mat4(), Some(turn))))
        }
        Some(cells) if cells.len() == 16 => Ok(Some((Mat4::from_cols_slice(cells), None))),
        _ => Err(bad(link, key, expected)),
    }
}

/// Reads every key first and changes the page only when all of them are good.
pub fn apply(page: &mut GradientPage, link: &Link) -> Result<(), LinkError> {
    let slugs = Section::ALL.map(Section::slug);
    let section = link.choice("show", &slugs)?.map(|i| Section::ALL[i]);
    let a = link.f32s::<2>("a")?.map(Vec2::from);
    let b = link.f32s::<2>("b")?.map(Vec2::from);
    let ma = read_frame(link, "ma")?;
    if let Some((m, _)) = &ma
        && let Err(why) = checked_inverse(m)
    {
        return Err(bad(
            link,
            "ma",
            format!("a frame a with an inverse, but {why}"),
        ));
    }
    let mb = read_frame(link, "mb")?;
    let preset = link.choice("pose", &poses::names())?;
    let rot = joint_link::read(link, "rot", |_| None)?;
    let pos = joint_link::read(link, "pos", |_| None)?;
    let names: Vec<&str> = JOINTS.iter().map(|j| j.name).collect();
    let joint = link.choice("joint", &names)?;
    let question = link.question(EXERCISES.len())?;

    page.section = section.unwrap_or(page.section);
    if let Some(a) = a {
        page.points[0] = a;
    }
    if let Some(b) = b {
        page.points[1] = b;
    }
    for (i, frame) in [ma, mb].into_iter().enumerate() {
        match frame {
            Some((_, Some(turn))) => page.set_turn(i, turn),
            Some((m, None)) => page.set_frame(i, m),
            None => {}
        }
    }
    if let Some(preset) = preset {
        page.set_preset(preset);
    }
    for (joint, r) in rot {
        page.target[joint].rotation = r;
    }
    for (joint, p) in pos {
        page.target[joint].translation = p;
    }
    page.joint = joint.unwrap_or(page.joint);
    page.exercise = question.unwrap_or(page.exercise);
    // Bring the prose about what the link shows into view: the section it names, or
    // else the most specific thing it sets.
    let has = |key| link.get(key).is_some();
    let cell = if let Some(section) = section {
        Some(section.first_cell())
    } else if has("question") {
        Some("check")
    } else if has("joint") {
        Some("joint")
    } else if has("pose") || has("rot") || has("pos") {
        Some("poses")
    } else {
        None
    };
    page.scroll_to.set(cell);
    Ok(())
}

fn frame_text(m: &Mat4, turn: &Frame2) -> String {
    if *m == turn.to_mat4() {
        numbers(&[turn.angle, turn.origin.x, turn.origin.y])
    } else {
        numbers(&m.to_cols_array())
    }
}

/// The link that reopens the page as it is.
pub fn write(page: &GradientPage) -> Link {
    let mut link = Link::new("gradient");
    if page.section != Section::Poses {
        link = link.with("show", page.section.slug());
    }
    for (i, key) in ["a", "b"].iter().enumerate() {
        if page.points[i] != DEFAULT_POINTS[i] {
            link = link.with(key, numbers(&page.points[i].to_array()));
        }
    }
    for (i, key) in ["ma", "mb"].iter().enumerate() {
        if page.frames[i] != DEFAULT_FRAMES[i].to_mat4() {
            link = link.with(key, frame_text(&page.frames[i], &page.turns[i]));
        }
    }
    if page.preset != DEFAULT_PRESET {
        link = link.with("pose", PRESETS[page.preset].name);
    }
    let base = PRESETS[page.preset].local();
    if let Some(rot) = joint_link::write(&page.target, &base, |t| t.rotation) {
        link = link.with("rot", rot);
    }
    if let Some(pos) = joint_link::write(&page.target, &base, |t| t.translation) {
        link = link.with("pos", pos);
    }
    if page.joint != DEFAULT_JOINT {
        link = link.with("joint", JOINTS[page.joint].name);
    }
    if page.exercise != 0 {
        link = link.with("question", page.exercise + 1);
    }
    link
}
