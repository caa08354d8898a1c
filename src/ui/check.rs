//! "Check yourself" cells: the student types numbers, the app says whether they are
//! right and, when asked, shows the working.

use egui::{Color32, RichText, Role, Ui, WidgetInfo};

/// What a question asks: named numbers laid out in a grid, and the right answer.
pub struct Question<'a> {
    /// Names this question's fields for accessibility, e.g. `ab`.
    pub name: &'a str,
    /// One label per number, e.g. `["x", "y"]`.
    pub labels: &'a [&'a str],
    /// Fields per row (4 for a matrix).
    pub columns: usize,
    /// The right answer, one number per label.
    pub expected: &'a [f32],
    /// How far off a number may be and still count (absolute).
    pub tolerance: f32,
    /// Wrong answers a student is likely to give, each with what it shows they did
    /// (`(&[2.0, 1.0, 0.0], "a vector has w = 0: the move does not apply to it")`):
    /// an answer within the tolerance of one gets its hint, not just the fields.
    pub mistakes: &'a [(&'a [f32], &'a str)],
}

/// `v` rounded to hundredths, without a sign on a value that rounds to zero: how the
/// workings print their numbers (`2.5`, never `-0.0`).
pub fn hundredths(v: f32) -> f32 {
    super::numbers::rounded(v, 2)
}

/// The accessibility label of one answer field, e.g. `ab x`.
pub fn field_label(question: &str, label: &str) -> String {
    format!("{question} {label}")
}

/// The app's verdict on the last answer.
#[derive(Clone, Debug, PartialEq)]
pub enum Verdict {
    /// Every number is within the tolerance.
    Right,
    /// Some numbers are off: their labels.
    Wrong(Vec<String>),
    /// The answer is a known mistake: what it shows.
    Mistake(String),
    /// Something typed is not a number.
    Unreadable(String),
}

/// A check cell's state: what was typed, the verdict, and the answer it was judged
/// against (a verdict on an old question is dropped).
#[derive(Clone, Debug, Default)]
pub struct Check {
    /// The typed text, one per field.
    pub inputs: Vec<String>,
    /// The last verdict, if the question has not changed since.
    pub verdict: Option<Verdict>,
    /// Whether the working is shown.
    pub show_working: bool,
    judged: Vec<f32>,
    /// An answer was judged, then edited: the verdict's line says so until Check is
    /// pressed again, so the fields do not jump while the student types.
    edited_since: bool,
    /// The height the verdict took when Check was last pressed, in points: a shorter
    /// line after it ("Changed: …" for a two-line hint) keeps the room, so that at the
    /// notebook's end the fields above do not drop under the pointer.
    held: f32,
}

impl Check {
    /// Judges `inputs` against `question` (what the Check button does).
    pub fn judge(&mut self, question: &Question) -> &Verdict {
        self.inputs.resize(question.labels.len(), String::new());
        // Each field read once: judged here, and held to the known mistakes below.
        let typed: Vec<Option<f32>> = self
            .inputs
            .iter()
            .map(|t| super::numbers::parse_number(t))
            .collect();
        let mut wrong = Vec::new();
        let mut verdict = None;
        for (((value, text), label), expected) in typed
            .iter()
            .zip(&self.inputs)
            .zip(question.labels)
            .zip(question.expected)
        {
            match value {
                Some(value) if (value - expected).abs() <= question.tolerance => {}
                Some(_) => wrong.push(label.to_string()),
                None => {
                    verdict = Some(Verdict::Unreadable(match text.trim() {
                        "" => format!("{label} is empty: type a number"),
                        typed => format!("{label}: \"{typed}\" is not a number"),
                    }));
                    break;
                }
            }
        }
        self.judged = question.expected.to_vec();
        let mistake = question.mistakes.iter().find(|(answer, _)| {
            answer.len() == typed.len()
                && answer
                    .iter()
                    .zip(&typed)
                    .all(|(a, t)| t.is_some_and(|t| (t - a).abs() <= question.tolerance))
        });
        // Every wrong field a rounding away (within three tolerances): said so, not just
        // named, since the working is likely right.
        let near = typed
            .iter()
            .zip(question.expected)
            .all(|(t, e)| t.is_some_and(|t| (t - e).abs() <= 3.0 * question.tolerance));
        self.verdict.insert(verdict.unwrap_or(match mistake {
            _ if wrong.is_empty() => Verdict::Right,
            Some((_, hint)) => Verdict::Mistake((*hint).to_owned()),
            None if near => Verdict::Mistake(format!(
                "close: {} {} near the answer but not within ±{}: check the rounding",
                wrong.join(", "),
                if wrong.len() == 1 { "is" } else { "are" },
                question.tolerance
            )),
            None => Verdict::Wrong(wrong),
        }))
    }
}

/// The row of exercise numbers above a check cell. Picking another exercise clears the
/// typed answer and the verdict.
pub fn exercise_picker_ui(ui: &mut Ui, exercise: &mut usize, count: usize, check: &mut Check) {
    ui.horizontal_wrapped(|ui| {
        ui.label("Exercise:");
        for i in 0..count {
            if ui
                .selectable_label(*exercise == i, (i + 1).to_string())
                .clicked()
                && *exercise != i
            {
                *exercise = i;
                *check = Check::default();
            }
        }
    });
}

/// An exercise worked by hand that says everything its check cell shows: the question,
/// the answer as the page computes it, a likely wrong answer and what it shows, and the
/// working.
pub trait Worked {
    /// The question, in words.
    fn question(&self) -> String;
    /// The answer, one number per label.
    fn answer(&self) -> Vec<f32>;
    /// A likely wrong answer and what it shows.
    fn mistake(&self) -> Option<(Vec<f32>, &'static str)>;
    /// The working, step by step.
    fn working(&self) -> String;
    /// The answer fields' names.
    fn labels(&self) -> &'static [&'static str];
    /// How far off a typed number may be and still count.
    fn tolerance(&self) -> f32 {
        0.01
    }
}

/// A check cell of [`Worked`] exercises: the picker, exercise `exercise` of
/// `exercises`, its answer fields (named `name` for accessibility), its mistake's hint
/// and its working.
pub fn worked_cell_ui<E: Worked>(
    ui: &mut Ui,
    name: &str,
    exercises: &[E],
    exercise: &mut usize,
    check: &mut Check,
) {
    exercise_picker_ui(ui, exercise, exercises.len(), check);
    let Some(e) = exercises.get(*exercise).or(exercises.last()) else {
        return;
    };
    ui.label(e.question());
    let expected = e.answer();
    let mistake = e.mistake();
    let mistakes: Vec<(&[f32], &str)> = mistake.iter().map(|(v, why)| (&v[..], *why)).collect();
    let labels = e.labels();
    let question = Question {
        name,
        labels,
        columns: labels.len(),
        expected: &expected,
        tolerance: e.tolerance(),
        mistakes: &mistakes,
    };
    check_ui(ui, check, &question, |ui| working_ui(ui, &e.working()));
}

/// Draws the answer fields, a Check button, the verdict and a "Show working" toggle
/// that reveals `working`. Returns the verdict when Check was pressed this frame.
pub fn check_ui(
    ui: &mut Ui,
    check: &mut Check,
    question: &Question,
    working: impl FnOnce(&mut Ui),
) -> Option<Verdict> {
    check.inputs.resize(question.labels.len(), String::new());
    if check.verdict.is_some() && check.judged != question.expected {
        check.verdict = None;
    }
    // Each field as wide as the row leaves it, up to 64 points: a phone fits a
    // quaternion's four in a row.
    let gap = 6.0;
    let widest_label = (question.labels.iter())
        .map(|l| crate::ui::text_width(ui, l))
        .fold(0.0, f32::max);
    let margins = 2.0 * ui.spacing().button_padding.x;
    let room =
        |columns: usize| ui.available_width() / columns as f32 - widest_label - 2.0 * gap - margins;
    // As many of the question's columns as leave each field room for an answer such
    // as `-0.435`; fewer, the rows run on, rather than fields that cut the answer short.
    let least = crate::ui::text_width(ui, "-0.4355");
    // A count that divides the question's, so its rows split evenly (slots above
    // weights stay apart).
    let asked = question.columns.max(1);
    let columns = (1..=asked)
        .rev()
        .find(|&c| asked.is_multiple_of(c) && room(c) >= least)
        .unwrap_or(1);
    let field_width = room(columns).clamp(least.min(64.0), 64.0);
    let (mut edited, mut entered) = (false, false);
    egui::Grid::new(("check", question.name))
        .spacing([gap, 4.0])
        // A name's column as wide as the name (egui's least is a control's width).
        .min_col_width(0.0)
        .show(ui, |ui| {
            for (i, (label, input)) in question.labels.iter().zip(&mut check.inputs).enumerate() {
                // The name beside its field, whole: a hint inside a narrow field would
                // be cut short, and a name wrapped in its column reads a letter a line.
                ui.add(egui::Label::new(*label).extend());
                let response = ui.add(
                    egui::TextEdit::singleline(input)
                        .desired_width(field_width)
                        .min_size(egui::vec2(field_width, 0.0)),
                );
                let name = field_label(question.name, label);
                response.widget_info(|| WidgetInfo::labeled(Role::TextInput, true, name.clone()));
                crate::ui::marks::field_drawn(&response);
                edited |= response.changed();
                // Enter in a field checks the answer, as the button does.
                entered |= response.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
                if (i + 1) % columns == 0 {
                    ui.end_row();
                }
            }
        });
    // A verdict is on the answer as it was checked: editing it takes the verdict away.
    if edited && check.verdict.take().is_some() {
        check.edited_since = true;
    }
    let mut pressed = None;
    let mut opened = false;
    ui.horizontal_wrapped(|ui| {
        let check_button = ui.button("Check");
        // Clicked, it takes the keyboard, so that Tab goes on to "Show working" (not
        // back to the window's first button, where Enter would turn the page).
        if check_button.clicked() {
            check_button.request_focus();
        }
        if check_button.clicked() || entered {
            check.edited_since = false;
            pressed = Some(check.judge(question).clone());
        }
        opened = ui
            .toggle_value(&mut check.show_working, "Show working")
            .clicked()
            && check.show_working;
    });
    let said = match &check.verdict {
        Some(Verdict::Right) => Some(
            ui.label(
                RichText::new("Right.")
                    .strong()
                    .color(super::legible(ui, Color32::from_rgb(40, 150, 60))),
            ),
        ),
        Some(Verdict::Wrong(labels)) => Some(crate::ui::error_line(
            ui,
            format!("Not yet: check {}.", labels.join(", ")),
        )),
        Some(Verdict::Mistake(hint)) => {
            Some(crate::ui::error_line(ui, format!("Not yet: {hint}.")))
        }
        Some(Verdict::Unreadable(why)) => Some(crate::ui::error_line(ui, why.clone())),
        None if check.edited_since => {
            Some(ui.label(RichText::new("Changed: press Check to judge it again.").italics()))
        }
        None => None,
    };
    let height = said.as_ref().map_or(0.0, |r| r.rect.height());
    if pressed.is_some() {
        check.held = height;
    } else if height < check.held {
        ui.add_space(check.held - height);
    }
    // The verdict just given is in view, not under the window's edge.
    if pressed.is_some()
        && let Some(said) = said
    {
        said.scroll_to_me(None);
    }
    if check.show_working {
        let shown = egui::Frame::group(ui.style()).show(ui, working);
        // The working just opened is brought into view: it opens under the button,
        // often past the window's edge.
        if opened {
            shown.response.scroll_to_me(None);
        }
    }
    pressed
}

/// Rows of a matrix, drawn with these brackets, keep their columns.
const MATRIX_BRACKETS: [char; 3] = ['⎡', '⎢', '⎣'];

/// A line of working cut into the parts it may break between: at a space outside any
/// bracket, each part keeping the space after it. A vector, a bracketed product or
/// `sin(45°)` stays whole.
fn working_parts(line: &str) -> Vec<&str> {
    let mut parts = Vec::new();
    let (mut depth, mut start) = (0_i32, 0);
    for (i, c) in line.char_indices() {
        depth += crate::ui::listing::bracket_step(c);
        if c == ' ' && crate::ui::listing::may_break_after(&line[start..i], depth) {
            parts.push(&line[start..=i]);
            start = i + 1;
        }
    }
    if start < line.len() {
        parts.push(&line[start..]);
    }
    parts
}

/// Worked steps in monospace, one line of `text` a line: a line too long for the
/// column wraps between its parts ([`working_parts`]), never past the column's edge
/// and never inside a vector; rows of a matrix keep their columns (and scroll
/// sideways where they must).
pub fn working_ui(ui: &mut Ui, text: &str) {
    let shown = ui.scope(|ui| {
        ui.spacing_mut().item_spacing.y = 0.0;
        let mut matrix = Vec::new();
        let flush = |ui: &mut Ui, matrix: &mut Vec<&str>| {
            if !matrix.is_empty() {
                // A matrix keeps its rows whole: it scrolls sideways where it must.
                let rows = RichText::new(matrix.join("\n")).monospace();
                let id = ui.next_auto_id();
                crate::ui::sideways_ui(ui, id, |ui| ui.add(egui::Label::new(rows).extend()));
                matrix.clear();
            }
        };
        for line in text.lines() {
            if line.contains(MATRIX_BRACKETS) {
                matrix.push(line);
                continue;
            }
            flush(ui, &mut matrix);
            let parts: Vec<egui::WidgetText> = working_parts(line)
                .into_iter()
                .map(|p| RichText::new(p).monospace().into())
                .collect();
            if parts.is_empty() {
                ui.label(RichText::new(" ").monospace());
            } else {
                crate::ui::unbroken_ui(ui, &parts, false);
            }
        }
        flush(ui, &mut matrix);
    });
    // Read aloud (and found by tests) as the one text it is.
    shown
        .response
        .widget_info(|| WidgetInfo::labeled(Role::Label, true, text));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn working_breaks_only_at_spaces_outside_brackets() {
        assert_eq!(
            working_parts("LERP: (1 − t) A = (0.5, 0.2) (length 0.9, not 1)"),
            [
                "LERP: ",
                "(1 − t) ",
                "A ",
                "= (0.5, 0.2) ",
                "(length 0.9, not 1)"
            ]
        );
        assert_eq!(working_parts("  x"), [" ", " ", "x"]);
        assert_eq!(working_parts("sin(45°) · v[j]"), ["sin(45°) ", "· v[j]"]);
        // An operator keeps what it takes.
        assert_eq!(
            working_parts("v − (0, 1, 0) = (−0.5, 1, 0)"),
            ["v ", "− (0, 1, 0) ", "= (−0.5, 1, 0)"]
        );
        assert!(working_parts("").is_empty());
    }

    const QUESTION: Question = Question {
        name: "p",
        labels: &["x", "y"],
        columns: 2,
        expected: &[1.5, -2.0],
        tolerance: 0.01,
        mistakes: &[],
    };

    fn judged(inputs: [&str; 2]) -> Verdict {
        let mut check = Check {
            inputs: inputs.map(String::from).to_vec(),
            ..Check::default()
        };
        check.judge(&QUESTION).clone()
    }

    #[test]
    fn right_within_tolerance_wrong_outside_and_text_is_not_a_number() {
        assert_eq!(judged(["1.5", "-2"]), Verdict::Right);
        assert_eq!(judged([" 1.505 ", "-2.0"]), Verdict::Right);
        assert_eq!(judged(["1.5", "2"]), Verdict::Wrong(vec!["y".into()]));
        assert!(matches!(judged(["one", "-2"]), Verdict::Unreadable(_)));
        assert!(matches!(judged(["nan", "-2"]), Verdict::Unreadable(_)));
        assert!(matches!(judged(["", "-2"]), Verdict::Unreadable(_)));
    }

    #[test]
    fn an_answer_a_rounding_away_is_called_close() {
        // Within three tolerances: the working is right, the rounding is not.
        match judged(["1.525", "-2"]) {
            Verdict::Mistake(hint) => assert!(hint.starts_with("close: x is near"), "{hint}"),
            other => panic!("{other:?}"),
        }
        assert_eq!(judged(["1.6", "-2"]), Verdict::Wrong(vec!["x".into()]));
    }

    #[test]
    fn a_known_mistake_says_what_it_shows_and_other_wrong_answers_name_their_fields() {
        let question = Question {
            mistakes: &[(&[-1.5, 2.0], "both signs flipped")],
            ..QUESTION
        };
        let judge = |inputs: [&str; 2]| {
            let mut check = Check {
                inputs: inputs.map(String::from).to_vec(),
                ..Check::default()
            };
            check.judge(&question).clone()
        };
        assert_eq!(
            judge(["-1.505", "2"]),
            Verdict::Mistake("both signs flipped".into())
        );
        assert_eq!(judge(["-1.5", "-2"]), Verdict::Wrong(vec!["x".into()]));
        assert_eq!(judge(["1.5", "-2"]), Verdict::Right);
    }
}
