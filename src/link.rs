//! Page links: `slug` or `slug?key=value&key=value`, one grammar for the command line,
//! the in-app link box, saved state, the web address and the book.
//!
//! A slug is lower-case letters, digits and `_`. A key is lower-case letters, digits and
//! `_`. A value is any non-empty text without `&`, `=`, `?`, `#` or whitespace.

use std::fmt;

/// A parsed page link.
#[derive(Clone, Debug, PartialEq)]
pub struct Link {
    /// The page's name, as in `--list-pages`.
    pub slug: String,
    /// Parameters in the order written.
    pub params: Vec<(String, String)>,
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
            Self::DuplicateKey(key) => write!(f, "parameter `{key}` is given twice"),
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

fn is_name(text: &str) -> bool {
    !text.is_empty()
        && text
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
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
        }
    }

    /// Parses `slug?key=value&...`; a leading `#` (a web address fragment) is ignored.
    pub fn parse(text: &str) -> Result<Self, LinkError> {
        let text = text.trim();
        let text = text.strip_prefix('#').unwrap_or(text);
        if text.is_empty() {
            return Err(LinkError::Empty);
        }
        let (slug, query) = match text.split_once('?') {
            Some((slug, query)) => (slug, Some(query)),
            None => (text, None),
        };
        if !is_name(slug) {
            return Err(LinkError::BadSlug(slug.to_owned()));
        }
        let mut link = Self::new(slug);
        for pair in query.into_iter().flat_map(|q| q.split('&')) {
            let Some((key, value)) = pair.split_once('=') else {
                return Err(LinkError::MalformedParam(pair.to_owned()));
            };
            if !is_name(key) || !is_value(value) {
                return Err(LinkError::MalformedParam(pair.to_owned()));
            }
            if link.get(key).is_some() {
                return Err(LinkError::DuplicateKey(key.to_owned()));
            }
            link.params.push((key.to_owned(), value.to_owned()));
        }
        Ok(link)
    }

    /// Adds a parameter (builder style).
    pub fn with(mut self, key: &str, value: impl fmt::Display) -> Self {
        self.params.push((key.to_owned(), value.to_string()));
        self
    }

    /// The raw value of `key`, if present.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.params
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// Refuses any key not in `valid`.
    pub fn check_keys(&self, valid: &[&'static str]) -> Result<(), LinkError> {
        match self
            .params
            .iter()
            .find(|(k, _)| !valid.contains(&k.as_str()))
        {
            Some((key, _)) => Err(LinkError::UnknownKey {
                slug: self.slug.clone(),
                key: key.clone(),
                valid: valid.to_vec(),
            }),
            None => Ok(()),
        }
    }

    /// The error for a value of `key` that is not what was `expected`.
    pub fn bad(&self, key: &str, expected: impl Into<String>) -> LinkError {
        LinkError::BadValue {
            key: key.to_owned(),
            value: self.get(key).unwrap_or_default().to_owned(),
            expected: expected.into(),
        }
    }

    /// A finite number.
    pub fn f32(&self, key: &str) -> Result<Option<f32>, LinkError> {
        self.get(key)
            .map(|v| parse_number(v).ok_or_else(|| self.bad(key, "a finite number")))
            .transpose()
    }

    /// Exactly `N` finite numbers separated by commas.
    pub fn f32s<const N: usize>(&self, key: &str) -> Result<Option<[f32; N]>, LinkError> {
        let Some(value) = self.get(key) else {
            return Ok(None);
        };
        let expected = || self.bad(key, format!("{N} finite numbers separated by commas"));
        let numbers: Vec<f32> = value
            .split(',')
            .map(parse_number)
            .collect::<Option<_>>()
            .ok_or_else(expected)?;
        numbers.try_into().map(Some).map_err(|_| expected())
    }

    /// A whole number in `0..count`.
    pub fn index(&self, key: &str, count: usize) -> Result<Option<usize>, LinkError> {
        self.get(key)
            .map(|v| {
                v.parse::<usize>()
                    .ok()
                    .filter(|i| *i < count)
                    .ok_or_else(|| {
                        self.bad(
                            key,
                            format!("a whole number from 0 to {}", count.saturating_sub(1)),
                        )
                    })
            })
            .transpose()
    }

    /// `question=N`, a check-yourself exercise numbered from 1 to `count`, returned as
    /// its position (from 0).
    pub fn question(&self, count: usize) -> Result<Option<usize>, LinkError> {
        let key = "question";
        self.get(key)
            .map(|v| {
                v.parse::<usize>()
                    .ok()
                    .filter(|q| (1..=count).contains(q))
                    .map(|q| q - 1)
                    .ok_or_else(|| self.bad(key, format!("a whole number from 1 to {count}")))
            })
            .transpose()
    }

    /// `true`/`false` (or `1`/`0`).
    pub fn bool(&self, key: &str) -> Result<Option<bool>, LinkError> {
        self.get(key)
            .map(|v| match v {
                "true" | "1" => Ok(true),
                "false" | "0" => Ok(false),
                _ => Err(self.bad(key, "true or false")),
            })
            .transpose()
    }

    /// One of the names in `choices`, returned as its position.
    pub fn choice(&self, key: &str, choices: &[&str]) -> Result<Option<usize>, LinkError> {
        self.get(key)
            .map(|v| {
                choices
                    .iter()
                    .position(|c| *c == v)
                    .ok_or_else(|| self.bad(key, format!("one of: {}", choices.join(", "))))
            })
            .transpose()
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

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn parses_slug_and_params() {
        let link = Link::parse("grid?angle=0.8&bone=1").unwrap();
        assert_eq!(link.slug, "grid");
        assert_eq!(link.f32("angle"), Ok(Some(0.8)));
        assert_eq!(link.index("bone", 3), Ok(Some(1)));
        assert_eq!(link.to_string(), "grid?angle=0.8&bone=1");
        assert_eq!(Link::parse("#xray").unwrap(), Link::new("xray"));
    }

    #[test]
    fn names_every_problem() {
        assert_eq!(Link::parse(""), Err(LinkError::Empty));
        assert!(matches!(Link::parse("Grid"), Err(LinkError::BadSlug(_))));
        assert!(matches!(
            Link::parse("grid?angle"),
            Err(LinkError::MalformedParam(_))
        ));
        assert!(matches!(
            Link::parse("grid?angle=1&angle=2"),
            Err(LinkError::DuplicateKey(_))
        ));
        let link = Link::parse("grid?angle=abc&bone=9&flag=maybe").unwrap();
        let err = link.f32("angle").unwrap_err().to_string();
        assert!(
            err.contains("angle=abc") && err.contains("finite number"),
            "{err}"
        );
        assert!(
            link.index("bone", 3)
                .unwrap_err()
                .to_string()
                .contains("0 to 2")
        );
        assert!(link.bool("flag").is_err());
        assert!(Link::parse("grid?angle=NaN").unwrap().f32("angle").is_err());
        let unknown = link.check_keys(&["angle"]).unwrap_err().to_string();
        assert!(
            unknown.contains("bone") && unknown.contains("angle"),
            "{unknown}"
        );
    }

    #[test]
    fn reads_number_lists() {
        let link = Link::parse("xray?m=1,2,3&p=1,x,3").unwrap();
        assert_eq!(link.f32s::<3>("m"), Ok(Some([1.0, 2.0, 3.0])));
        assert!(link.f32s::<4>("m").is_err());
        assert!(link.f32s::<3>("p").is_err());
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
}
