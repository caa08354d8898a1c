//! The gradient page's link values in words: a frame as a turn and a move or as
//! sixteen numbers, and the preset pose the joint lists are written against. The keys
//! themselves are declared in `links.rs`.

use super::frames::Frame2;
use super::{DEFAULT_FRAMES, GradientPage};
use crate::link::{numbers, parse_number};
use glam::{Mat4, Vec2};
use rigs::poses::PRESETS;
use skin::explain::trs::Trs;

pub use crate::pages::LIMIT;

/// Refuses a matrix with an entry past ±[`LIMIT`], which no link could carry.
pub fn within_limit(m: &Mat4) -> Result<(), String> {
    if m.abs().to_cols_array().iter().all(|x| *x <= LIMIT) {
        Ok(())
    } else {
        Err(format!("every number stays within ±{LIMIT}"))
    }
}

/// What a frame must be, for messages and docs/links.md.
pub(super) const FRAME_FORM: &str = "3 numbers (a turn in radians, then x and y) or 16 numbers (a matrix, column by column), separated by commas, each from -100 to 100";

/// Reads a frame: three numbers (turn, x, y) or sixteen (a whole matrix, column-major).
pub(super) fn read_frame(text: &str) -> Result<(Mat4, Option<Frame2>), String> {
    let parsed: Option<Vec<f32>> = text
        .split(',')
        .map(|v| parse_number(v).filter(|x| x.abs() <= LIMIT))
        .collect();
    let parsed = parsed.ok_or_else(|| FRAME_FORM.to_owned())?;
    if let Ok([angle, x, y]) = <[f32; 3]>::try_from(parsed.as_slice()) {
        let turn = Frame2 {
            angle,
            origin: Vec2::new(x, y),
        };
        return Ok((turn.to_mat4(), Some(turn)));
    }
    match <[f32; 16]>::try_from(parsed.as_slice()) {
        Ok(cells) => Ok((Mat4::from_cols_array(&cells), None)),
        Err(_) => Err(FRAME_FORM.to_owned()),
    }
}

/// Sets frame `i` from a link value: a turn keeps its sliders, a matrix sets them from it.
pub(super) fn set_frame_text(page: &mut GradientPage, i: usize, text: &str) -> Result<(), String> {
    match read_frame(text)? {
        (_, Some(turn)) => page.set_turn(i, turn),
        (m, None) => page.set_frame(i, m),
    }
    Ok(())
}

/// Frame `i` as a link value: its turn and move when that is what it is, else its
/// sixteen numbers; `None` at its default.
pub(super) fn frame_text(page: &GradientPage, i: usize) -> Option<String> {
    let (m, turn, default) = (page.frames[i], page.turns[i], DEFAULT_FRAMES[i]);
    (m != default.to_mat4()).then(|| {
        if m == turn.to_mat4() {
            numbers(&[turn.angle, turn.origin.x, turn.origin.y])
        } else {
            numbers(&m.to_cols_array())
        }
    })
}

/// The preset's own pose, which the target's joint lists are written against.
pub(super) fn preset_pose(page: &GradientPage) -> Option<Vec<Trs>> {
    PRESETS.get(page.preset).map(|p| p.local())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_read_a_turn_or_a_matrix_within_the_limit() {
        let (m, turn) = read_frame("0.5,1,2").unwrap();
        assert_eq!(turn.map(|t| t.to_mat4()), Some(m));
        let (m, turn) = read_frame("1,0,0,0,0,2,0,0,0,0,1,0,1,2,3,1").unwrap();
        assert_eq!((m.y_axis.y, turn), (2.0, None));
        for bad in ["1,2", "0,0,nan", "0,0,101", "1,2,3,4", ""] {
            assert_eq!(read_frame(bad), Err(FRAME_FORM.to_owned()), "{bad}");
        }
    }
}
