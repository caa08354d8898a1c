//! A page's link parameters: what each key holds, and how it is read, checked, stored
//! and written, declared once per parameter.

use super::{Link, LinkError, number, numbers, parse_number};

/// What a link parameter holds, and how the page reads and writes it: declared once
/// per parameter, so applying a link, writing one, the bad-value message and the links doc's
/// parameter table all come from the same place.
pub enum Access<S> {
    /// A finite number from `min` to `max`.
    Number {
        /// Smallest value accepted.
        min: f32,
        /// Largest value accepted.
        max: f32,
        /// Stores the value.
        set: fn(&mut S, f32),
        /// The value to write in the link, `None` when it need not be written.
        get: fn(&S) -> Option<f32>,
    },
    /// Exactly `count` finite numbers separated by commas, each from `min` to `max`.
    Numbers {
        /// How many numbers.
        count: usize,
        /// Smallest value accepted.
        min: f32,
        /// Largest value accepted.
        max: f32,
        /// Stores the values (exactly `count` of them).
        set: fn(&mut S, &[f32]),
        /// The values to write, `None` when they need not be written.
        get: fn(&S) -> Option<Vec<f32>>,
    },
    /// A whole number from `min` to `max`.
    Whole {
        /// Smallest value accepted.
        min: usize,
        /// Largest value accepted.
        max: usize,
        /// Stores the value.
        set: fn(&mut S, usize),
        /// The value to write, `None` when it need not be written.
        get: fn(&S) -> Option<usize>,
    },
    /// One of `names`, handed over as its position.
    Choice {
        /// The names accepted, in the order of their positions.
        names: &'static [&'static str],
        /// Stores the choice (a position in `names`).
        set: fn(&mut S, usize),
        /// The position to write, `None` when it need not be written.
        get: fn(&S) -> Option<usize>,
    },
    /// `true` or `false` (`1` and `0` also read).
    Bool {
        /// Stores the value.
        set: fn(&mut S, bool),
        /// The value to write, `None` when it need not be written.
        get: fn(&S) -> Option<bool>,
    },
    /// Text with a grammar of the page's own (joint lists, matrices).
    Text {
        /// What the text must be, for messages and docs/links.md.
        expected: &'static str,
        /// Reads and stores the text, or says what is wrong with it.
        set: fn(&mut S, &str) -> Result<(), String>,
        /// The text to write, `None` when it need not be written.
        get: fn(&S) -> Option<String>,
    },
}

/// One link parameter of a page: its key, a few words for docs/links.md, and its access.
pub struct Param<S> {
    /// The key, e.g. `angle`.
    pub key: &'static str,
    /// What it sets, in a few words (the parameter table in docs/links.md); empty in
    /// the web build, which shows no table.
    pub doc: &'static str,
    /// The notebook cell a link with this key is about, which the notebook brings into
    /// view when the link opens; of the keys a link holds, the last declared wins.
    pub cell: Option<&'static str>,
    /// How the value is read, checked, stored and written.
    pub access: Access<S>,
}

/// Writes a bound for a message: whole numbers without a fraction.
fn bound(x: f32) -> String {
    if x.fract() == 0.0 {
        format!("{x:.0}")
    } else {
        format!("{x:.4}")
            .trim_end_matches('0')
            .trim_end_matches('.')
            .to_owned()
    }
}

/// What a parameter's value must look like, without the page it belongs to: the part of
/// an [`Access`] that reading, checking and messages need. One copy of that code serves
/// every page.
#[derive(Clone, Copy)]
enum Shape {
    Number { min: f32, max: f32 },
    Numbers { count: usize, min: f32, max: f32 },
    Whole { min: usize, max: usize },
    Choice { names: &'static [&'static str] },
    Bool,
    Text { expected: &'static str },
}

/// A value read from a link and checked against its [`Shape`], ready to store.
enum Value<'a> {
    Number(f32),
    Numbers(Vec<f32>),
    Index(usize),
    Bool(bool),
    Text(&'a str),
}

impl Shape {
    /// What a value must be, as the bad-value message and docs/links.md say it.
    fn expected(self) -> String {
        match self {
            Shape::Number { min, max } => {
                format!("a number from {} to {}", bound(min), bound(max))
            }
            Shape::Numbers { count, min, max } => format!(
                "{count} numbers separated by commas, each from {} to {}",
                bound(min),
                bound(max)
            ),
            Shape::Whole { min, max } => format!("a whole number from {min} to {max}"),
            Shape::Choice { names } => format!("one of: {}", names.join(", ")),
            Shape::Bool => "true or false".to_owned(),
            Shape::Text { expected } => expected.to_owned(),
        }
    }

    /// Values a hand on its slider or switch would reach: a range's ends and middle,
    /// every choice, both truths. None for text, which no slider sets.
    fn samples(self) -> Vec<String> {
        let ends = |min: f32, max: f32| [min, 0.5 * (min + max), max];
        match self {
            Shape::Number { min, max } => ends(min, max).map(|x| x.to_string()).into(),
            Shape::Numbers { count, min, max } => ends(min, max)
                .map(|x| vec![x.to_string(); count].join(","))
                .into(),
            Shape::Whole { min, max } => [min, min + (max - min) / 2, max]
                .map(|n| n.to_string())
                .into(),
            Shape::Choice { names } => names.iter().map(|n| (*n).to_owned()).collect(),
            Shape::Bool => vec!["false".to_owned(), "true".to_owned()],
            Shape::Text { .. } => Vec::new(),
        }
    }

    /// Values a link could hold that this shape refuses, one of each way to be wrong:
    /// past either end, not a number, too few or too many numbers, a name not listed.
    /// None for text, whose grammar is the page's own.
    fn refused(self) -> Vec<String> {
        let outside = |min: f32, max: f32| [min - 1.0 - min.abs(), max + 1.0 + max.abs()];
        let mut refused: Vec<String> = match self {
            Shape::Number { min, max } => outside(min, max).map(|x| x.to_string()).into(),
            Shape::Numbers { count, min, max } => {
                let mid = (0.5 * (min + max)).to_string();
                let mut wrong: Vec<String> = outside(min, max)
                    .map(|x| {
                        let mut xs = vec![mid.clone(); count];
                        xs[count - 1] = x.to_string();
                        xs.join(",")
                    })
                    .into();
                wrong.push(vec![mid.clone(); count + 1].join(","));
                if count > 1 {
                    wrong.push(vec![mid; count - 1].join(","));
                }
                wrong
            }
            Shape::Whole { max, .. } => vec![(max + 1).to_string(), "-1".into(), "1.5".into()],
            Shape::Choice { .. } => vec!["nonesuch".to_owned()],
            Shape::Bool => vec!["maybe".to_owned()],
            Shape::Text { .. } => return Vec::new(),
        };
        if matches!(self, Shape::Number { .. } | Shape::Numbers { .. }) {
            refused.extend(["nan".to_owned(), "inf".to_owned(), "x".to_owned()]);
        }
        refused
    }

    /// Reads `value` for `key`, or says what it must be.
    fn read<'a>(self, key: &str, value: &'a str) -> Result<Value<'a>, LinkError> {
        // Messages show bounds to 4 decimals (2π as 6.2832), so a value typed from the
        // message may lie a hair outside: take it, clamped.
        let fit = |x: f32, min: f32, max: f32| {
            let slack = |b: f32| 1e-4 * b.abs().max(1.0);
            (min - slack(min) <= x && x <= max + slack(max)).then(|| x.clamp(min, max))
        };
        let read = match self {
            Shape::Number { min, max } => parse_number(value)
                .and_then(|x| fit(x, min, max))
                .map(Value::Number),
            Shape::Numbers { count, min, max } => value
                .split(',')
                .map(|v| parse_number(v).and_then(|x| fit(x, min, max)))
                .collect::<Option<Vec<f32>>>()
                .filter(|xs| xs.len() == count)
                .map(Value::Numbers),
            Shape::Whole { min, max } => value
                .parse::<usize>()
                .ok()
                .filter(|n| (min..=max).contains(n))
                .map(Value::Index),
            Shape::Choice { names } => names
                .iter()
                .position(|n| n.eq_ignore_ascii_case(value))
                .map(Value::Index),
            Shape::Bool => super::parse_bool(value).map(Value::Bool),
            Shape::Text { .. } => Some(Value::Text(value)),
        };
        read.ok_or_else(|| bad_value(key, value, self.expected()))
    }
}

/// The message for `value`, refused for `key`, which must be `expected`.
fn bad_value(key: &str, value: &str, expected: String) -> LinkError {
    LinkError::BadValue {
        key: key.to_owned(),
        value: value.to_owned(),
        expected,
    }
}

impl<S> Access<S> {
    fn shape(&self) -> Shape {
        match *self {
            Access::Number { min, max, .. } => Shape::Number { min, max },
            Access::Numbers {
                count, min, max, ..
            } => Shape::Numbers { count, min, max },
            Access::Whole { min, max, .. } => Shape::Whole { min, max },
            Access::Choice { names, .. } => Shape::Choice { names },
            Access::Bool { .. } => Shape::Bool,
            Access::Text { expected, .. } => Shape::Text { expected },
        }
    }
}

impl<S> Param<S> {
    /// What a value must be, as the bad-value message and docs/links.md say it.
    pub fn expected(&self) -> String {
        self.access.shape().expected()
    }

    /// Values a hand on its slider or switch would reach: a range's ends and middle,
    /// every choice, both truths. None for text, which no slider sets.
    pub fn samples(&self) -> Vec<String> {
        self.access.shape().samples()
    }

    /// Values a link could hold that this parameter refuses, one of each way to be wrong:
    /// the tests open each and expect the message [`Param::expected`] gives.
    pub fn refused(&self) -> Vec<String> {
        self.access.shape().refused()
    }

    /// Reads `value` and stores it in `state`; on error `state` is unchanged.
    pub fn apply(&self, state: &mut S, value: &str) -> Result<(), LinkError> {
        match (&self.access, self.access.shape().read(self.key, value)?) {
            (Access::Number { set, .. }, Value::Number(x)) => set(state, x),
            (Access::Numbers { set, .. }, Value::Numbers(xs)) => set(state, &xs),
            (Access::Whole { set, .. } | Access::Choice { set, .. }, Value::Index(i)) => {
                set(state, i)
            }
            (Access::Bool { set, .. }, Value::Bool(b)) => set(state, b),
            (Access::Text { set, .. }, Value::Text(text)) => {
                set(state, text).map_err(|why| bad_value(self.key, value, why))?
            }
            // Shape::read answers each access with its own kind of value.
            _ => {}
        }
        Ok(())
    }

    /// Steps a whole number or a choice of `state` by `by`, wrapping around its range
    /// (from its first, or its last stepping back, when it holds none yet): `[` and `]`
    /// in a viewport step the picked vertex or joint so. Returns whether it stepped;
    /// a parameter of any other kind does not.
    pub fn step(&self, state: &mut S, by: isize) -> bool {
        let now = self.write(state);
        let (count, at) = match self.access.shape() {
            Shape::Whole { min, max } => (
                max.saturating_sub(min) + 1,
                now.and_then(|v| v.parse::<usize>().ok()?.checked_sub(min)),
            ),
            Shape::Choice { names } => (
                names.len(),
                now.and_then(|v| names.iter().position(|n| *n == v)),
            ),
            _ => return false,
        };
        let count = count as isize;
        let next = match at {
            Some(i) => (i as isize + by).rem_euclid(count),
            None if by >= 0 => 0,
            None => count - 1,
        } as usize;
        let value = match self.access.shape() {
            Shape::Whole { min, .. } => (min + next).to_string(),
            Shape::Choice { names } => names
                .get(next)
                .map_or_else(String::new, |n| (*n).to_owned()),
            _ => return false,
        };
        self.apply(state, &value).is_ok()
    }

    /// The value to write in `state`'s link, `None` when it need not be written.
    pub fn write(&self, state: &S) -> Option<String> {
        match &self.access {
            Access::Number { get, .. } => get(state).map(number),
            Access::Numbers { get, .. } => get(state).map(|xs| numbers(&xs)),
            Access::Whole { get, .. } => get(state).map(|n| n.to_string()),
            Access::Choice { names, get, .. } => get(state)
                .and_then(|i| names.get(i))
                .map(|n| (*n).to_owned()),
            Access::Bool { get, .. } => get(state).map(|b| b.to_string()),
            Access::Text { get, .. } => get(state),
        }
    }
}

/// Applies every parameter of `link` that `params` declares and can read, in the order
/// of `params`. Every problem is reported: the link's own ([`Link::problems`]), keys
/// `params` does not declare, and values a parameter refuses; the good parameters are
/// applied all the same.
pub fn apply_params<S>(state: &mut S, params: &[Param<S>], link: &Link) -> Result<(), LinkError> {
    let keys: Vec<&'static str> = params.iter().map(|p| p.key).collect();
    let mut errors = link.problems.clone();
    errors.extend(link.unknown_keys(&keys));
    for param in params {
        if let Some(value) = link.get(param.key)
            && let Err(e) = param.apply(state, value)
        {
            errors.push(e);
        }
    }
    LinkError::from_list(errors)
}

/// The link that reopens `state`: `slug`, then every parameter that has a value to
/// write and whose value is not the one it has at the page's defaults, in the order of
/// `params`. `defaults` holds what each parameter writes for the page at its defaults
/// ([`default_values`]), so a getter need not know its default.
pub fn write_params<S>(
    slug: &str,
    state: &S,
    params: &[Param<S>],
    defaults: &[Option<String>],
) -> Link {
    params
        .iter()
        .enumerate()
        .fold(Link::new(slug), |link, (i, param)| {
            match param.write(state) {
                Some(value) if defaults.get(i).and_then(Option::as_deref) != Some(&value) => {
                    link.with(param.key, value)
                }
                _ => link,
            }
        })
}

/// What each of `params` writes for a state at its defaults, in order: the values a
/// link leaves out ([`write_params`]).
pub fn default_values<S: Default>(params: &[Param<S>]) -> Vec<Option<String>> {
    let defaults = S::default();
    params.iter().map(|p| p.write(&defaults)).collect()
}

/// A page with check-yourself exercises, read and written by the shared [`question`]
/// parameter.
pub trait Exercises {
    /// How many exercises the page has.
    const COUNT: usize;
    /// The exercise on show, from 0.
    fn exercise(&self) -> usize;
    /// Puts exercise `index` (from 0, below [`Exercises::COUNT`]) on show, unanswered.
    fn show_exercise(&mut self, index: usize);
}

/// The `question` parameter of every page with exercises: `question=1` is the first.
/// A link with it opens with the `check` cell in view.
pub const fn question<S: Exercises>() -> Param<S> {
    Param {
        key: "question",
        doc: "the check-yourself exercise",
        cell: Some("check"),
        access: Access::Whole {
            min: 1,
            max: S::COUNT,
            set: |s, q| s.show_exercise(q.saturating_sub(1)),
            get: |s| Some(s.exercise() + 1),
        },
    }
}

/// One [`Param`], declared in a line or two:
///
/// ```text
/// param! { "bend", "the elbow's bend about z, radians", @"compare",
///     number(-MAX_BEND, MAX_BEND), s.bend },
/// param! { "method", "the arms drawn", @"compare", choice(Show), s.show },
/// param! { "vertex", "the vertex worked step by step", whole(0, LAST),
///     set: |s, v| s.pick(v), get: |s| s.vertex },
/// ```
///
/// The key, its doc, `@"cell"` when a link with the key is about a cell, then its kind:
/// `number(min, max)`, `numbers(count, min, max)`, `whole(min, max)`, `names(NAMES)` (a
/// position in a list), `choice(Enum)` (an enum that links name, see [`super::Named`]),
/// `bool` or `text(expected)`. Last, the field it reads and writes (`s.bend`), or a
/// `set` and a `get` closure where storing does more than assign. A getter returns the
/// value whatever it is: [`write_params`] leaves out a value the defaults also have.
macro_rules! param {
    ($key:literal, $doc:literal, $(@$cell:literal,)? $kind:ident $(($($arg:tt)*))?,
        $s:ident $(. $field:ident)+ $(,)?) => {
        $crate::link::param! { $key, $doc, $(@$cell,)? $kind $(($($arg)*))?,
            set: |$s, value| $s $(.$field)+ = value, get: |$s| Some($s $(.$field)+) }
    };
    ($key:literal, $doc:literal, $(@$cell:literal,)? $kind:ident $(($($arg:tt)*))?,
        set: $set:expr, get: $get:expr $(,)?) => {
        $crate::link::Param {
            key: $key,
            // Read only by the parameter table and its tests: the web app, which has
            // neither, does not carry the text.
            doc: if cfg!(target_arch = "wasm32") { "" } else { $doc },
            cell: $crate::link::param!(@cell $($cell)?),
            access: $crate::link::param!(@access $kind ($($($arg)*)?) $set, $get),
        }
    };
    (@cell) => { None };
    (@cell $cell:literal) => { Some($cell) };
    (@access number ($min:expr, $max:expr) $set:expr, $get:expr) => {
        $crate::link::Access::Number { min: $min, max: $max, set: $set, get: $get }
    };
    (@access numbers ($count:expr, $min:expr, $max:expr) $set:expr, $get:expr) => {
        $crate::link::Access::Numbers { count: $count, min: $min, max: $max, set: $set, get: $get }
    };
    (@access whole ($min:expr, $max:expr) $set:expr, $get:expr) => {
        $crate::link::Access::Whole { min: $min, max: $max, set: $set, get: $get }
    };
    (@access names ($names:expr) $set:expr, $get:expr) => {
        $crate::link::Access::Choice { names: $names, set: $set, get: $get }
    };
    (@access bool () $set:expr, $get:expr) => {
        $crate::link::Access::Bool { set: $set, get: $get }
    };
    (@access text ($expected:expr) $set:expr, $get:expr) => {
        $crate::link::Access::Text { expected: $expected, set: $set, get: $get }
    };
    (@access choice ($ty:ty) $set:expr, $get:expr) => {
        $crate::link::Access::Choice {
            names: <$ty as $crate::link::Named>::NAMES,
            set: |s, i| {
                if let Some(variant) = <$ty as $crate::link::Named>::from_index(i) {
                    $crate::link::param::stores(s, variant, $set);
                }
            },
            get: |s| {
                let variant: Option<$ty> = $crate::link::param::reads(s, $get);
                variant.and_then($crate::link::Named::index)
            },
        }
    };
}
pub(crate) use param;

/// `set(state, value)`: lets [`param!`] hand a closure its argument types, which a
/// closure called in place does not learn.
pub fn stores<S, T>(state: &mut S, value: T, set: impl FnOnce(&mut S, T)) {
    set(state, value);
}

/// `get(state)`, for [`param!`] as [`stores`] is.
pub fn reads<S, T>(state: &S, get: impl FnOnce(&S) -> T) -> T {
    get(state)
}
