//! Lecture decks: a plain text file of page links, one moment per line, stepped through
//! with PageDown and PageUp.
//!
//! A line is a link, then whitespace, then the title shown beside the counter
//! (`grid?angle=0.8  One vertex, two bones`). Lines starting with `>` under a slide are
//! its speaker notes (printed as the slide opens on the desktop). Blank lines and lines
//! starting with `#` are skipped. Reading a deck checks only its shape; each link is
//! checked when it is opened, like any other link, or all at once by
//! `skinlab --check-deck FILE`.

/// The decks shipped with the app, by name: `deck=lecture` in a link opens one.
pub const BUNDLED: &[(&str, &str)] = &[("lecture", include_str!("../book/src/decks/lecture.txt"))];

/// Decks the web app fetched from beside itself when a link it started with named one
/// (`#pipeline?deck=decks/week3.txt:5`), by that name: the text, or why the fetch failed.
pub static FETCHED: std::sync::Mutex<Vec<(String, Result<String, String>)>> =
    std::sync::Mutex::new(Vec::new());

/// The text of the deck file `name` fetched so far (or why it could not be), if it was.
pub fn fetched(name: &str) -> Option<Result<String, String>> {
    let fetched = FETCHED.lock().ok()?;
    fetched
        .iter()
        .find(|(n, _)| n == name)
        .map(|(_, text)| text.clone())
}

/// The deck file a link names, if it names one that is not bundled: `decks/week3.txt`
/// for `pipeline?deck=decks/week3.txt:5` (the slide number dropped).
pub fn file_in_link(link: &str) -> Option<String> {
    let link = crate::link::Link::parse(link.trim().trim_start_matches('#')).ok()?;
    let value = link.get("deck")?;
    let name = match value.rsplit_once(':') {
        Some((name, n)) if !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) => name,
        _ => value,
    };
    let bundled = BUNDLED.iter().any(|(n, _)| n.eq_ignore_ascii_case(name));
    (!bundled && !name.is_empty()).then(|| name.to_owned())
}

/// One moment of a deck.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Slide {
    /// The link it opens.
    pub link: String,
    /// What the counter shows beside its number (the link when the line has no title).
    pub title: String,
    /// The line of the file it is on, from 1.
    pub line: usize,
    /// The speaker notes under it (`>` lines), without the `>`.
    pub notes: Vec<String>,
}

/// A deck: its name (a bundled deck's, or the file's) and its slides, at least one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Deck {
    /// The name the counter and `deck=` use.
    pub name: String,
    /// The slides, in order.
    pub slides: Vec<Slide>,
}

/// The longest deck read: a lecture is a few dozen moments, not thousands.
pub const MAX_SLIDES: usize = 500;

impl Deck {
    /// Reads a deck's text; `name` is for messages. A deck with no slide, or more than
    /// [`MAX_SLIDES`], is refused with the reason.
    pub fn parse(name: &str, text: &str) -> Result<Self, String> {
        let mut slides: Vec<Slide> = Vec::new();
        for (number, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            if let Some(note) = line.strip_prefix('>') {
                match slides.last_mut() {
                    Some(slide) => slide.notes.push(note.trim().to_owned()),
                    None => {
                        return Err(format!(
                            "deck `{name}`, line {}: a note (`>`) before any slide",
                            number + 1
                        ));
                    }
                }
                continue;
            }
            if slides.len() > MAX_SLIDES {
                break;
            }
            let (link, title) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
            let title = title.trim();
            slides.push(Slide {
                link: link.to_owned(),
                title: if title.is_empty() { link } else { title }.to_owned(),
                line: number + 1,
                notes: Vec::new(),
            });
        }
        if slides.is_empty() {
            return Err(format!(
                "deck `{name}` has no links: write one link per line, then its title"
            ));
        }
        if slides.len() > MAX_SLIDES {
            return Err(format!(
                "deck `{name}` has more than {MAX_SLIDES} links; split it into shorter decks"
            ));
        }
        Ok(Self {
            name: name.to_owned(),
            slides,
        })
    }

    /// A bundled deck by name, or a message naming the bundled ones.
    pub fn bundled(name: &str) -> Result<Self, String> {
        let (name, text) = BUNDLED
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .ok_or_else(|| {
                let names: Vec<&str> = BUNDLED.iter().map(|(n, _)| *n).collect();
                format!(
                    "no deck called `{name}`; the decks are: {}",
                    names.join(", ")
                )
            })?;
        Self::parse(name, text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_a_link_then_a_title_and_comments_are_skipped() {
        let deck = Deck::parse(
            "t",
            "# notes\n\ngrid?angle=0.8   One vertex\n> Ask first.\n>  Then drag.\n  xray\n",
        )
        .unwrap();
        assert_eq!(
            deck.slides,
            [
                Slide {
                    link: "grid?angle=0.8".into(),
                    title: "One vertex".into(),
                    line: 3,
                    notes: vec!["Ask first.".into(), "Then drag.".into()],
                },
                Slide {
                    link: "xray".into(),
                    title: "xray".into(),
                    line: 6,
                    notes: Vec::new(),
                }
            ]
        );
        assert!(
            Deck::parse("t", "> stray\ngrid\n")
                .unwrap_err()
                .contains("line 1: a note")
        );
        assert!(
            Deck::parse("t", "# only a comment\n")
                .unwrap_err()
                .contains("no links")
        );
        let long = "grid\n".repeat(MAX_SLIDES + 1);
        assert!(Deck::parse("t", &long).unwrap_err().contains("more than"));
        assert!(Deck::bundled("nowhere").unwrap_err().contains("lecture"));
        assert!(Deck::bundled("Lecture").is_ok());
    }

    #[test]
    fn a_link_names_a_deck_file_to_fetch_unless_the_deck_is_bundled() {
        assert_eq!(
            file_in_link("#pipeline?deck=decks/week3.txt:5").as_deref(),
            Some("decks/week3.txt")
        );
        assert_eq!(
            file_in_link("grid?deck=../decks/talk.txt").as_deref(),
            Some("../decks/talk.txt")
        );
        assert_eq!(file_in_link("pipeline?deck=lecture:3"), None);
        assert_eq!(file_in_link("grid?angle=0.8"), None);
    }
}
