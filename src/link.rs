//! Page links: `slug` or `slug?key=value&key=value`, one grammar for the command line,
//! the in-app link box, saved state, the web address and the book.
//!
//! A slug is lower-case letters, digits and `_`. A key is lower-case letters, digits and
//! `_`. A value is any non-empty text without `&`, `=`, `?`, `#` or whitespace.
//!
//! Reading is forgiving, writing is exact. [`Link::parse`] takes a whole web address or
//! a path ending in a `#fragment`, a `skinlab '…'` command as the app copies it,
//! percent-encoding, and any case in the slug and the keys. A parameter it cannot read
//! is kept as a problem of the link, not a reason to drop it: opening applies every
//! parameter that is good and reports each one that is not ([`apply_params`]).

use std::fmt;

/// A parsed page link.
#[derive(Clone, Debug, PartialEq)]
pub struct Link {
    /// The page's name, as in `--list-pages`.
    pub slug: String,
    /// Parameters in the order written.
    pub params: Vec<(String, String)>,
    /// Parts of the query that are not parameters (malformed, empty, given twice):
    /// opening the link reports them beside the page's own refusals.
    pub problems: Vec<LinkError>,
}

/// Everything that can be wrong with a link, each naming the problem and the choices.
#[derive(Clone, Debug, PartialEq)]
pub enum LinkError {
    /// Nothing was given.
    Empty,
    /// The part before `?` is not a slug.
    BadSlug(String),
    /// The slug names no page.
    UnknownPage {
        slug: String,
        valid: Vec<&'static str>,
    },
    /// A `key=value` pair is malformed.
    MalformedParam(String),
    /// `key=` with nothing after the `=`.
    EmptyValue(String),
    /// More than one problem, each reported (the good parameters were applied).
    Several(Vec<LinkError>),
    /// The same key appears twice.
    DuplicateKey(String),
    /// The page has no such parameter.
    UnknownKey {
        slug: String,
        key: String,
        valid: Vec<&'static str>,
    },
    /// The value does not fit the parameter.
    BadValue {
        key: String,
        value: String,
        expected: String,
    },
}

impl fmt::Display for LinkError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // One line whatever the link held: a control character (a newline from `%0A`,
        // say) is written as its escape.
        let text = self.describe();
        if !text.chars().any(char::is_control) {
            return f.write_str(&text);
        }
        let shown: String = text
            .chars()
            .map(|c| {
                if c.is_control() {
                    c.escape_default().to_string()
                } else {
                    c.to_string()
                }
            })
            .collect();
        f.write_str(&shown)
    }
}

impl LinkError {
    /// The message, before control characters are escaped.
    fn describe(&self) -> String {
        struct Message<'a>(&'a LinkError);
        impl fmt::Display for Message<'_> {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                self.0.write_message(f)
            }
        }
        Message(self).to_string()
    }

    fn write_message(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Empty => write!(f, "empty link: write a page name such as `grid`"),
            Self::BadSlug(slug) => write!(
                f,
                "`{slug}` is not a page name: use lower-case letters, digits and `_`"
            ),
            Self::UnknownPage { slug, valid } => {
                write!(
                    f,
                    "no page called `{slug}`; the pages are: {}",
                    valid.join(", ")
                )
            }
            Self::MalformedParam(text) => write!(
                f,
                "`{text}` is not a parameter: write key=value pairs joined by `&`"
            ),
            Self::EmptyValue(key) => write!(f, "`{key}=` is empty: write a value after `=`"),
            Self::Several(errors) => {
                let all: Vec<String> = errors.iter().map(ToString::to_string).collect();
                write!(f, "{}", all.join("; "))
            }
            Self::DuplicateKey(key) => {
                write!(f, "parameter `{key}` is given twice; the first one counts")
            }
            Self::UnknownKey { slug, key, valid } => write!(
                f,
                "page `{slug}` has no parameter `{key}`; its parameters are: {}",
                valid.join(", ")
            ),
            Self::BadValue {
                key,
                value,
                expected,
            } => {
                write!(f, "`{key}={value}` is not valid: expected {expected}")
            }
        }
    }
}

impl std::error::Error for LinkError {}

#[cfg(test)]
mod message_tests {
    use super::*;

    #[test]
    fn a_message_is_one_line_whatever_the_link_held() {
        for text in ["%0a", "grid\nx", "grid?angle=1%0A2", "a\u{7}b"] {
            let error = match Link::parse(text) {
                Err(e) => e,
                Ok(link) => LinkError::from_list(link.problems.clone()).err().unwrap_or(
                    LinkError::BadValue {
                        key: "angle".into(),
                        value: link.get("angle").unwrap_or(text).to_owned(),
                        expected: "a number".into(),
                    },
                ),
            };
            let message = error.to_string();
            assert!(
                !message.chars().any(char::is_control),
                "{text:?}: {message:?}"
            );
        }
    }
}

impl LinkError {
    /// `Ok` for no problems, the problem itself for one, [`LinkError::Several`] for more.
    pub fn from_list(mut errors: Vec<LinkError>) -> Result<(), LinkError> {
        match errors.len() {
            0 => Ok(()),
            1 => Err(errors.remove(0)),
            _ => Err(Self::Several(errors)),
        }
    }

    /// Whether the link named no page it could open (so the page on screen stays), as
    /// against a page that opened with some parameters refused.
    pub fn is_about_the_page(&self) -> bool {
        matches!(
            self,
            Self::Empty | Self::BadSlug(_) | Self::UnknownPage { .. }
        )
    }
}

/// Decodes `%XX` escapes (as a browser's address bar writes them); anything that is not
/// a valid escape is kept as written.
fn percent_decode(text: &str) -> String {
    percent_encoding::percent_decode_str(text)
        .decode_utf8_lossy()
        .into_owned()
}

/// The link inside what the user pasted: the fragment of a web address or a path, the
/// argument of a `skinlab '…'` command, or the text itself.
fn link_text(text: &str) -> &str {
    let text = text.trim();
    let text = match text.strip_prefix("skinlab ") {
        Some(rest) => rest.trim(),
        None => text,
    };
    let text = text
        .strip_prefix('\'')
        .and_then(|t| t.strip_suffix('\''))
        .or_else(|| text.strip_prefix('"').and_then(|t| t.strip_suffix('"')))
        .unwrap_or(text);
    match text.rfind('#') {
        Some(at) => &text[at + 1..],
        None => text,
    }
}

fn is_name(text: &str) -> bool {
    !text.is_empty()
        && text
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
}

/// Whether a link can hold `text` as a value: non-empty, without `&`, `=`, `?`, `#` or
/// whitespace.
pub fn is_link_value(text: &str) -> bool {
    is_value(text)
}

fn is_value(text: &str) -> bool {
    !text.is_empty()
        && !text
            .chars()
            .any(|c| matches!(c, '&' | '=' | '?' | '#') || c.is_whitespace())
}

impl Link {
    /// A link to `slug` with no parameters.
    pub fn new(slug: &str) -> Self {
        Self {
            slug: slug.to_owned(),
            params: Vec::new(),
            problems: Vec::new(),
        }
    }

    /// Parses `slug?key=value&...`, forgivingly (see the module's notes). Only a link
    /// with no page name is an error; a parameter that cannot be read becomes one of
    /// [`Link::problems`], and the others are kept.
    pub fn parse(text: &str) -> Result<Self, LinkError> {
        let text = link_text(text);
        if text.is_empty() {
            return Err(LinkError::Empty);
        }
        let (slug, query) = match text.split_once('?') {
            Some((slug, query)) => (slug, Some(query)),
            None => (text, None),
        };
        let slug = percent_decode(slug).to_ascii_lowercase();
        if !is_name(&slug) {
            return Err(LinkError::BadSlug(slug));
        }
        let mut link = Self::new(&slug);
        for pair in query.into_iter().flat_map(|q| q.split('&')) {
            if pair.is_empty() {
                continue;
            }
            let Some((key, value)) = pair.split_once('=') else {
                link.problems
                    .push(LinkError::MalformedParam(pair.to_owned()));
                continue;
            };
            let (key, value) = (
                percent_decode(key).to_ascii_lowercase(),
                percent_decode(value),
            );
            if !is_name(&key) {
                link.problems
                    .push(LinkError::MalformedParam(pair.to_owned()));
            } else if value.is_empty() {
                link.problems.push(LinkError::EmptyValue(key));
            } else if !is_value(&value) {
                link.problems
                    .push(LinkError::MalformedParam(pair.to_owned()));
            } else if link.get(&key).is_some() {
                link.problems.push(LinkError::DuplicateKey(key));
            } else {
                link.params.push((key, value));
            }
        }
        Ok(link)
    }

    /// Adds a parameter (builder style).
    pub fn with(mut self, key: &str, value: impl fmt::Display) -> Self {
        self.params.push((key.to_owned(), value.to_string()));
        self
    }

    /// Removes `key` from the link and returns its value, if present: for keys read by
    /// someone other than the page (the app's `focus`, `zoom`, `deck`, …).
    pub fn take(&mut self, key: &str) -> Option<String> {
        let at = self.params.iter().position(|(k, _)| k == key)?;
        Some(self.params.remove(at).1)
    }

    /// The raw value of `key`, if present.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.params
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// Each key not in `valid`, as an error naming the valid ones.
    pub fn unknown_keys(&self, valid: &[&'static str]) -> Vec<LinkError> {
        self.params
            .iter()
            .filter(|(k, _)| !valid.contains(&k.as_str()))
            .map(|(key, _)| LinkError::UnknownKey {
                slug: self.slug.clone(),
                key: key.clone(),
                valid: valid.to_vec(),
            })
            .collect()
    }
}

impl fmt::Display for Link {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.slug)?;
        for (i, (key, value)) in self.params.iter().enumerate() {
            write!(f, "{}{key}={value}", if i == 0 { '?' } else { '&' })?;
        }
        Ok(())
    }
}

/// A finite number written in decimal (surrounding spaces allowed); `None` otherwise.
/// Links and typed answers read numbers the same way.
pub fn parse_number(text: &str) -> Option<f32> {
    text.trim().parse::<f32>().ok().filter(|x| x.is_finite())
}

/// Writes a number for a link: the shortest text that parses back to the same `f32`.
pub fn number(x: f32) -> String {
    if x == 0.0 {
        "0".to_owned()
    } else {
        x.to_string()
    }
}

/// Writes numbers separated by commas.
pub fn numbers(xs: &[f32]) -> String {
    xs.iter().map(|x| number(*x)).collect::<Vec<_>>().join(",")
}

/// An enum that links name by its snake_case variant names. Derive
/// `strum::VariantArray`, `strum::VariantNames` and `strum::IntoStaticStr` with
/// `#[strum(serialize_all = "snake_case")]`: the variants and their names then come
/// from the enum itself, never from a table written beside it.
pub trait Named:
    Copy + strum::VariantArray + strum::VariantNames + Into<&'static str> + 'static
{
    /// Every variant, in declaration order.
    const ALL: &'static [Self] = <Self as strum::VariantArray>::VARIANTS;
    /// The link names, in the order of [`Named::ALL`].
    const NAMES: &'static [&'static str] = <Self as strum::VariantNames>::VARIANTS;

    /// The link name.
    fn slug(self) -> &'static str {
        self.into()
    }

    /// The variant at `index` in [`Named::ALL`] (what an `Access::Choice` hands over).
    fn from_index(index: usize) -> Option<Self> {
        Self::ALL.get(index).copied()
    }

    /// This variant's position in [`Named::ALL`] (what an `Access::Choice` writes).
    fn index(self) -> Option<usize>
    where
        Self: PartialEq,
    {
        Self::ALL.iter().position(|v| *v == self)
    }
}

impl<T> Named for T where
    T: Copy + strum::VariantArray + strum::VariantNames + Into<&'static str> + 'static
{
}

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
    /// What it sets, in a few words (the parameter table in docs/links.md).
    pub doc: &'static str,
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

impl<S> Param<S> {
    /// What a value must be, as the bad-value message and docs/links.md say it.
    pub fn expected(&self) -> String {
        match &self.access {
            Access::Number { min, max, .. } => {
                format!("a number from {} to {}", bound(*min), bound(*max))
            }
            Access::Numbers {
                count, min, max, ..
            } => format!(
                "{count} numbers separated by commas, each from {} to {}",
                bound(*min),
                bound(*max)
            ),
            Access::Whole { min, max, .. } => format!("a whole number from {min} to {max}"),
            Access::Choice { names, .. } => format!("one of: {}", names.join(", ")),
            Access::Bool { .. } => "true or false".to_owned(),
            Access::Text { expected, .. } => (*expected).to_owned(),
        }
    }

    /// Values a hand on its slider or switch would reach: a range's ends and middle,
    /// every choice, both truths. None for text, which no slider sets.
    pub fn samples(&self) -> Vec<String> {
        let ends = |min: f32, max: f32| [min, 0.5 * (min + max), max];
        match &self.access {
            Access::Number { min, max, .. } => ends(*min, *max).map(|x| x.to_string()).into(),
            Access::Numbers {
                count, min, max, ..
            } => ends(*min, *max)
                .map(|x| vec![x.to_string(); *count].join(","))
                .into(),
            Access::Whole { min, max, .. } => [*min, min + (max - min) / 2, *max]
                .map(|n| n.to_string())
                .into(),
            Access::Choice { names, .. } => names.iter().map(|n| (*n).to_owned()).collect(),
            Access::Bool { .. } => vec!["false".to_owned(), "true".to_owned()],
            Access::Text { .. } => Vec::new(),
        }
    }

    /// Reads `value` and stores it in `state`; on error `state` is unchanged.
    pub fn apply(&self, state: &mut S, value: &str) -> Result<(), LinkError> {
        let bad = |expected: String| LinkError::BadValue {
            key: self.key.to_owned(),
            value: value.to_owned(),
            expected,
        };
        // Messages show bounds to 4 decimals (2π as 6.2832), so a value typed from the
        // message may lie a hair outside: take it, clamped.
        let fit = |x: f32, min: f32, max: f32| {
            let slack = |b: f32| 1e-4 * b.abs().max(1.0);
            (min - slack(min) <= x && x <= max + slack(max)).then(|| x.clamp(min, max))
        };
        match &self.access {
            Access::Number { min, max, set, .. } => {
                let x = parse_number(value)
                    .and_then(|x| fit(x, *min, *max))
                    .ok_or_else(|| bad(self.expected()))?;
                set(state, x);
            }
            Access::Numbers {
                count,
                min,
                max,
                set,
                ..
            } => {
                let xs: Vec<f32> = value
                    .split(',')
                    .map(|v| parse_number(v).and_then(|x| fit(x, *min, *max)))
                    .collect::<Option<_>>()
                    .filter(|xs: &Vec<f32>| xs.len() == *count)
                    .ok_or_else(|| bad(self.expected()))?;
                set(state, &xs);
            }
            Access::Whole { min, max, set, .. } => {
                let n = value
                    .parse::<usize>()
                    .ok()
                    .filter(|n| (*min..=*max).contains(n))
                    .ok_or_else(|| bad(self.expected()))?;
                set(state, n);
            }
            Access::Choice { names, set, .. } => {
                let i = names
                    .iter()
                    .position(|n| n.eq_ignore_ascii_case(value))
                    .ok_or_else(|| bad(self.expected()))?;
                set(state, i);
            }
            Access::Bool { set, .. } => {
                let b = match value.to_ascii_lowercase().as_str() {
                    "true" | "1" => true,
                    "false" | "0" => false,
                    _ => return Err(bad(self.expected())),
                };
                set(state, b);
            }
            Access::Text { set, .. } => set(state, value).map_err(bad)?,
        }
        Ok(())
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
/// write, in the order of `params`.
pub fn write_params<S>(slug: &str, state: &S, params: &[Param<S>]) -> Link {
    params
        .iter()
        .fold(Link::new(slug), |link, param| match param.write(state) {
            Some(value) => link.with(param.key, value),
            None => link,
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn parses_slug_and_params() {
        let link = Link::parse("grid?angle=0.8&bone=1").unwrap();
        assert_eq!(link.slug, "grid");
        assert_eq!(link.get("angle"), Some("0.8"));
        assert_eq!(link.get("bone"), Some("1"));
        assert_eq!(link.get("vertex"), None);
        assert_eq!(link.to_string(), "grid?angle=0.8&bone=1");
        assert_eq!(Link::parse("#xray").unwrap(), Link::new("xray"));
    }

    #[test]
    fn names_every_problem() {
        assert_eq!(Link::parse(""), Err(LinkError::Empty));
        assert!(matches!(Link::parse("grid!"), Err(LinkError::BadSlug(_))));
        let problems = |text: &str| Link::parse(text).unwrap().problems;
        assert!(matches!(
            problems("grid?angle")[..],
            [LinkError::MalformedParam(_)]
        ));
        assert_eq!(
            problems("grid?angle=1&angle=2"),
            [LinkError::DuplicateKey("angle".into())]
        );
        assert_eq!(
            problems("grid?angle="),
            [LinkError::EmptyValue("angle".into())]
        );
        assert!(
            problems("grid?angle=")
                .iter()
                .all(|e| e.to_string().contains("empty"))
        );
        let link = Link::parse("grid?angle=abc&bone=9&flag=maybe").unwrap();
        let unknown: Vec<String> = link
            .unknown_keys(&["angle"])
            .iter()
            .map(ToString::to_string)
            .collect();
        assert_eq!(unknown.len(), 2, "{unknown:?}");
        assert!(
            unknown[0].contains("bone") && unknown[0].contains("angle"),
            "{unknown:?}"
        );
    }

    #[test]
    fn reads_addresses_commands_encodings_and_any_case() {
        let want = Link::parse("grid?angle=0.8&bone=1").unwrap();
        for text in [
            "http://127.0.0.1:8000/app/index.html#grid?angle=0.8&bone=1",
            "app/index.html#grid?angle=0.8&bone=1",
            "#grid?angle=0.8&bone=1",
            "skinlab 'grid?angle=0.8&bone=1'",
            "  Grid?Angle=0.8&BONE=1 ",
            "grid?angle=0%2E8&bone=%31",
            "grid?angle=0.8&&bone=1",
        ] {
            assert_eq!(Link::parse(text).as_ref(), Ok(&want), "{text}");
        }
        // A broken escape is kept as written, and then refused as a value.
        assert_eq!(percent_decode("a%2"), "a%2");
        assert_eq!(percent_decode("%e2%88%92"), "−");
    }

    proptest! {
        #[test]
        fn numbers_round_trip(x in -1.0e6f32..1.0e6) {
            prop_assert_eq!(number(x).parse::<f32>().unwrap(), x);
        }

        #[test]
        fn never_panics(text in ".{0,40}") {
            let _ = Link::parse(&text);
        }
    }

    #[derive(Default, Debug, PartialEq)]
    struct Toy {
        angle: f32,
        angles: [f32; 2],
        bone: usize,
        mode: usize,
        on: bool,
        name: String,
    }

    const TOY: &[Param<Toy>] = &[
        Param {
            key: "angle",
            doc: "radians",
            access: Access::Number {
                min: -3.5,
                max: 3.5,
                set: |s, x| s.angle = x,
                get: |s| (s.angle != 0.0).then_some(s.angle),
            },
        },
        Param {
            key: "angles",
            doc: "two radians",
            access: Access::Numbers {
                count: 2,
                min: -1.0,
                max: 1.0,
                set: |s, xs| s.angles = [xs[0], xs[1]],
                get: |s| (s.angles != [0.0; 2]).then(|| s.angles.to_vec()),
            },
        },
        Param {
            key: "bone",
            doc: "a bone",
            access: Access::Whole {
                min: 0,
                max: 2,
                set: |s, n| s.bone = n,
                get: |s| (s.bone != 0).then_some(s.bone),
            },
        },
        Param {
            key: "mode",
            doc: "how",
            access: Access::Choice {
                names: &["lbs", "dqs"],
                set: |s, i| s.mode = i,
                get: |s| (s.mode != 0).then_some(s.mode),
            },
        },
        Param {
            key: "on",
            doc: "a switch",
            access: Access::Bool {
                set: |s, b| s.on = b,
                get: |s| s.on.then_some(true),
            },
        },
        Param {
            key: "name",
            doc: "a name",
            access: Access::Text {
                expected: "a name in capitals",
                set: |s, t| {
                    if t.chars().all(|c| c.is_ascii_uppercase()) {
                        s.name = t.to_owned();
                        Ok(())
                    } else {
                        Err("a name in capitals".to_owned())
                    }
                },
                get: |s| (!s.name.is_empty()).then(|| s.name.clone()),
            },
        },
    ];

    #[test]
    fn declared_params_apply_and_write_back() {
        let text = "toy?angle=0.5&angles=0.25,-1&bone=2&mode=dqs&on=true&name=ABC";
        let mut toy = Toy::default();
        apply_params(&mut toy, TOY, &Link::parse(text).unwrap()).unwrap();
        assert_eq!(
            toy,
            Toy {
                angle: 0.5,
                angles: [0.25, -1.0],
                bone: 2,
                mode: 1,
                on: true,
                name: "ABC".into()
            }
        );
        assert_eq!(write_params("toy", &toy, TOY).to_string(), text);
        assert_eq!(write_params("toy", &Toy::default(), TOY).to_string(), "toy");
    }

    fn apply_params_to_default(link: &str) -> Toy {
        let mut toy = Toy::default();
        apply_params(&mut toy, TOY, &Link::parse(link).unwrap()).unwrap();
        toy
    }

    #[test]
    fn every_good_parameter_applies_and_each_bad_one_is_named() {
        let mut toy = Toy::default();
        let link = Link::parse("toy?angle=1&bone=7&size=2&on=true&mode=").unwrap();
        let error = apply_params(&mut toy, TOY, &link).unwrap_err();
        let LinkError::Several(errors) = &error else {
            panic!("several problems: {error}");
        };
        assert_eq!(errors.len(), 3, "{error}");
        let text = error.to_string();
        for part in ["`mode=` is empty", "no parameter `size`", "`bone=7`"] {
            assert!(text.contains(part), "{part}: {text}");
        }
        assert_eq!(toy, apply_params_to_default("toy?angle=1&on=true"));
    }

    #[test]
    fn declared_params_name_what_they_expect() {
        let cases = [
            ("angle=4", "a number from -3.5 to 3.5"),
            ("angle=nan", "a number from -3.5 to 3.5"),
            (
                "angles=0.5",
                "2 numbers separated by commas, each from -1 to 1",
            ),
            ("angles=0.5,2", "each from -1 to 1"),
            ("bone=3", "a whole number from 0 to 2"),
            ("bone=-1", "a whole number from 0 to 2"),
            ("mode=blend", "one of: lbs, dqs"),
            ("on=yes", "true or false"),
            ("name=abc", "a name in capitals"),
        ];
        for (query, expected) in cases {
            let mut toy = Toy::default();
            let link = Link::parse(&format!("toy?{query}")).unwrap();
            let error = apply_params(&mut toy, TOY, &link).unwrap_err().to_string();
            assert!(error.contains(expected), "{query}: {error}");
            assert_eq!(toy, Toy::default(), "{query}: a bad value stores nothing");
        }
        // Names and booleans are read in any case.
        let mut toy = Toy::default();
        apply_params(&mut toy, TOY, &Link::parse("toy?mode=DQS&on=TRUE").unwrap()).unwrap();
        assert_eq!(toy, apply_params_to_default("toy?mode=dqs&on=true"));
        // A bound as the message writes it is taken, clamped.
        let mut toy = Toy::default();
        let pi = Link::parse("toy?angle=3.50003").unwrap();
        apply_params(&mut toy, TOY, &pi).unwrap();
        assert_eq!(toy.angle, 3.5);
        let unknown = apply_params(
            &mut Toy::default(),
            TOY,
            &Link::parse("toy?size=1").unwrap(),
        )
        .unwrap_err()
        .to_string();
        assert!(
            unknown.contains("size") && unknown.contains("angle, angles"),
            "{unknown}"
        );
    }
}
