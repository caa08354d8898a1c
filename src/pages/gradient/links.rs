//! The page's link parameters: only what differs from the defaults.
//!
//! `show=matrices`, points `a=1,1&b=4,3`, frames `ma=angle,x,y` (a turn in radians and a
//! move) or `ma=` sixteen numbers (column-major), `pose=walk`, then the target's joints
//! that differ from the preset: `rot=forearm.L:0,0,1.2;head:0.1,0,0` (radians) and
//! `pos=hips:0,0.9,0`, the selected `joint=hand.L`, the product scrubbed `scrub=1`, and the
//! exercise `question=2`.

use super::exercise::EXERCISES;
use super::scrub;
use super::{Cell, GradientPage, Section};
use crate::link::Param;
use crate::link::param;
use crate::link::{Exercises, question};
use crate::pages::joint_link::{self, JOINT_NAMES};
use glam::{Vec2, Vec3};
use rigs::poses::PRESETS;
use skin::explain::trs::Trs;
use skin::matrix::checked_inverse;

pub use super::link_values::LIMIT;
use super::link_values::{FRAME_FORM, frame_text, preset_pose, read_frame, set_frame_text};

/// Which key of a link chose the cell the notebook scrolls to, least specific first: the
/// most specific key wins whatever the order keys are applied in. A named section wins,
/// then the exercise, then the scrub, then the joint, then the pose.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub enum Focus {
    /// No key has chosen yet.
    #[default]
    Nothing,
    /// `pose`, `rot` or `pos`: the poses cell.
    Pose,
    /// `joint`: the joint cell.
    Joint,
    /// `scrub`: the product cell.
    Scrub,
    /// `question`: the check cell.
    Question,
    /// `show`: the section's first cell.
    Show,
}

/// Scrolls the notebook to `cell`, and shows its part in the viewport, unless a more
/// specific key of the link chose already.
fn focus(page: &mut GradientPage, by: Focus, cell: Cell) {
    if by >= page.focus {
        page.focus = by;
        page.scroll_to.set(Some(cell.into()));
        if let Some(section) = cell.section() {
            page.section = section;
            page.last_read = None;
        }
    }
}

/// Every preset pose's name, in the order of [`PRESETS`].
const PRESET_NAMES: [&str; PRESETS.len()] = {
    let mut names = [""; PRESETS.len()];
    let mut i = 0;
    while i < names.len() {
        names[i] = PRESETS[i].name;
        i += 1;
    }
    names
};

/// Reads a joint list into the part `field` picks of the target's joints.
fn set_joints(
    page: &mut GradientPage,
    text: &str,
    field: fn(&mut Trs) -> &mut Vec3,
) -> Result<(), String> {
    for (joint, value) in joint_link::read(text, joint_link::FORM, |_| None)? {
        if let Some(trs) = page.target.get_mut(joint) {
            *field(trs) = value;
        }
    }
    focus(page, Focus::Pose, Cell::Poses);
    Ok(())
}

/// The link parameters, in the order they are applied and written: `pose` before the
/// joint lists written against it.
#[rustfmt::skip]
pub const PARAMS: &[Param<GradientPage>] = &[
    param! { "show", "what the viewport shows", choice(Section),
        set: |s, section| { s.section = section; focus(s, Focus::Show, section.first_cell()); },
        get: |s| Some(s.section) },
    param! { "a", "point a (x, y)", numbers(2, -LIMIT, LIMIT),
        set: |s, xs| {
            if let Ok(a) = <[f32; 2]>::try_from(xs) {
                s.points[0] = Vec2::from(a);
            }
        },
        get: |s| Some(s.points[0].to_array().to_vec()) },
    param! { "b", "point b (x, y)", numbers(2, -LIMIT, LIMIT),
        set: |s, xs| {
            if let Ok(b) = <[f32; 2]>::try_from(xs) {
                s.points[1] = Vec2::from(b);
            }
        },
        get: |s| Some(s.points[1].to_array().to_vec()) },
    param! { "ma", "frame a: a turn and a move, or a matrix with an inverse", text(FRAME_FORM),
        set: |s, text| {
            if let Ok((m, _)) = read_frame(text)
                && let Err(why) = checked_inverse(&m)
            {
                return Err(format!("a frame a with an inverse, but {why}"));
            }
            set_frame_text(s, 0, text)
        },
        get: |s| frame_text(s, 0) },
    param! { "mb", "frame b: a turn and a move, or a matrix", text(FRAME_FORM),
        set: |s, text| set_frame_text(s, 1, text),
        get: |s| frame_text(s, 1) },
    param! { "pose", "the named pose the target starts from", names(&PRESET_NAMES),
        set: |s, preset| {
            s.set_preset(preset);
            focus(s, Focus::Pose, Cell::Poses);
        },
        get: |s| Some(s.preset) },
    param! { "rot", "local rotations in radians of the target's joints that differ from the pose",
        text(joint_link::FORM),
        set: |s, text| set_joints(s, text, |t| &mut t.rotation),
        get: |s| joint_link::write(&s.target, &preset_pose(s)?, |t| t.rotation) },
    param! { "pos", "local translations of the target's joints that differ from the pose",
        text(joint_link::FORM),
        set: |s, text| set_joints(s, text, |t| &mut t.translation),
        get: |s| joint_link::write(&s.target, &preset_pose(s)?, |t| t.translation) },
    param! { "joint", "the joint whose matrices are shown", names(&JOINT_NAMES),
        set: |s, joint| {
            s.joint = joint;
            focus(s, Focus::Joint, Cell::Joint);
        },
        get: |s| Some(s.joint) },
    param! { "scrub", "how many factors of b · a⁻¹ act on the tip of frame a's F, from the right",
        whole(0, scrub::STEPS - 1),
        set: |s, k| {
            s.scrub = Some(k);
            focus(s, Focus::Scrub, Cell::Product);
        },
        get: |s| s.scrub_step() },
    question(),
];

impl Exercises for GradientPage {
    const COUNT: usize = EXERCISES.len();

    fn exercise(&self) -> usize {
        self.exercise
    }

    /// A link that names nothing else to show (`gradient?question=2`) shows the
    /// exercise's frames, as its "Show this pose" button would.
    fn show_exercise(&mut self, index: usize) {
        self.exercise = index;
        if self.focus == Focus::Nothing {
            self.pose_exercise();
        }
        focus(self, Focus::Question, Cell::Check);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::link::Link;
    use crate::page::open;
    use crate::ui::scroll::ScrollTo;

    fn scrolls_to(link: &str) -> ScrollTo {
        let mut page = GradientPage::default();
        let link = Link::parse(link).unwrap_or_else(|e| panic!("{e}"));
        open(&mut page, &link).unwrap_or_else(|e| panic!("{e}"));
        page.scroll_to
    }

    #[test]
    fn the_most_specific_key_chooses_where_the_notebook_scrolls() {
        let to = |cell| {
            let mut scroll = ScrollTo::default();
            scroll.set(cell);
            scroll
        };
        for (link, cell) in [
            ("gradient", None),
            ("gradient?a=1,2", None),
            ("gradient?show=poses&joint=head&question=2", Some("poses")),
            ("gradient?show=points&pose=walk", Some("points")),
            (
                "gradient?pose=walk&rot=head:0,1,0&question=2",
                Some("check"),
            ),
            ("gradient?pos=hips:0,1,0&joint=head", Some("joint")),
            ("gradient?joint=head&question=3", Some("check")),
            ("gradient?rot=head:0,1,0", Some("poses")),
        ] {
            assert_eq!(scrolls_to(link), to(cell), "{link}");
        }
    }

    #[test]
    fn a_question_link_alone_shows_its_exercises_frames_and_one_with_a_view_keeps_it() {
        let opened = |link: &str| {
            let mut page = GradientPage::default();
            open(&mut page, &Link::parse(link).expect("parses")).expect("opens");
            page
        };
        let page = opened("gradient?question=2");
        assert_eq!(page.section, Section::Matrices);
        let e = EXERCISES[1];
        let b = super::super::frames::Frame2 {
            angle: e.target.1.to_radians(),
            origin: Vec2::from(e.target.0),
        };
        assert!(
            page.frames[1].abs_diff_eq(b.to_mat4(), 1e-6),
            "frame b is the target"
        );
        let page = opened("gradient?show=poses&joint=head&question=2");
        assert_eq!(page.section, Section::Poses, "the link's own view stays");
    }
}
