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

/// Numbers in links are read and written as everywhere else in the app.
pub use crate::ui::numbers::{number, numbers, parse_number};
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
            Self::UnknownPage { slug, valid } => match nearest_name(slug, valid) {
                Some(near) => write!(
                    f,
                    "no page called `{slug}`; did you mean `{near}`? The pages are: {}",
                    valid.join(", ")
                ),
                None => write!(
                    f,
                    "no page called `{slug}`; the pages are: {}",
                    valid.join(", ")
                ),
            },
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

/// The link keys the app reads itself, before the page sees the link: no page may
/// declare a parameter of these names.
pub const APP_KEYS: [&str; 8] = [
    "focus",
    "at",
    "zoom",
    "split",
    "deck",
    "compare",
    "camera",
    "presenter",
];

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

/// A link as it arrives from real places, made what the app writes: wholly
/// %-encoded (`grid%3Fangle%3D0.8`), with `&amp;` for `&` (a link that passed through a
/// web page or an email), a Unicode minus in a number, spaces after commas, or the full
/// stop of the sentence it ended.
fn forgiven(text: &str) -> String {
    let mut text = text.to_owned();
    if !text.contains('?') && text.to_ascii_lowercase().contains("%3f") {
        text = percent_decode(&text);
    }
    let text = text
        .replace("&amp;", "&")
        .replace(['\u{2212}', '\u{2013}'], "-")
        .replace(", ", ",");
    match text.strip_suffix('.') {
        Some(rest) if !rest.ends_with('.') => rest.to_owned(),
        _ => text,
    }
}

/// The name in `names` nearest `typed`, when one is near enough to be what was meant:
/// at most two letters added, dropped, changed or swapped (one for short names).
pub fn nearest_name<'a>(typed: &str, names: &[&'a str]) -> Option<&'a str> {
    let most = if typed.chars().count() <= 4 { 1 } else { 2 };
    names
        .iter()
        .map(|n| (edit_distance(typed, n), *n))
        .filter(|(d, _)| *d <= most)
        .min_by_key(|(d, _)| *d)
        .map(|(_, n)| n)
}

/// How many letters must be added, dropped, changed or swapped (two neighbours) to
/// turn `a` into `b`.
fn edit_distance(a: &str, b: &str) -> usize {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in d[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let change = usize::from(a[i - 1] != b[j - 1]);
            let mut best = (d[i - 1][j] + 1)
                .min(d[i][j - 1] + 1)
                .min(d[i - 1][j - 1] + change);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(d[i - 2][j - 2] + 1);
            }
            d[i][j] = best;
        }
    }
    d[a.len()][b.len()]
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
    is_value(text) && !text.contains(' ')
}

/// A value may hold a space (a clip or joint named `animation 0`): a link writes it
/// as `%20`. Other white space, and the characters that split a link, it may not.
fn is_value(text: &str) -> bool {
    !text.is_empty()
        && !text
            .chars()
            .any(|c| matches!(c, '&' | '=' | '?' | '#') || (c.is_whitespace() && c != ' '))
}

/// A value as a link writes it: a space as `%20`, and `%` itself as `%25`, so the
/// link stays one word that reads back to the same value.
fn encoded_value(value: &str) -> std::borrow::Cow<'_, str> {
    if value.contains([' ', '%']) {
        value.replace('%', "%25").replace(' ', "%20").into()
    } else {
        value.into()
    }
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
        let forgiven = forgiven(link_text(text));
        let text = forgiven.as_str();
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
            // A minus typed as U+2212 (or an en dash) is a minus, encoded or not.
            let (key, value) = (
                percent_decode(key).to_ascii_lowercase(),
                percent_decode(value).replace(['\u{2212}', '\u{2013}'], "-"),
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
            let value = encoded_value(value);
            write!(f, "{}{key}={value}", if i == 0 { '?' } else { '&' })?;
        }
        Ok(())
    }
}

/// `true` or `false`, also written `1` and `0` (any case); `None` otherwise.
pub fn parse_bool(text: &str) -> Option<bool> {
    match text.to_ascii_lowercase().as_str() {
        "true" | "1" => Some(true),
        "false" | "0" => Some(false),
        _ => None,
    }
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

#[doc(hidden)]
pub mod param;
#[cfg(test)]
mod tests;

pub(crate) use param::param;
pub use param::{Access, Exercises, Param, apply_params, default_values, question, write_params};
