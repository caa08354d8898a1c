//! The registry of pages in lesson order: each page's declaration and how to build it,
//! links whose keys moved to another page, and the links doc's table of parameters.

use super::{Lesson, Page, PageInfo};
use crate::link::{Link, default_values};
use std::any::TypeId;
use std::sync::{Arc, Mutex, PoisonError};

/// One line of the registry: a page's declaration and how to build it.
pub struct PageEntry {
    /// The page's declaration.
    pub info: &'static PageInfo,
    /// Builds the page at its defaults.
    pub make: fn() -> Box<dyn Page>,
    /// Its link parameters, as the table in `docs/links.md` describes them.
    pub params: fn() -> Vec<ParamDoc>,
    /// The file extensions it opens ([`Lesson::OPENS`]).
    pub opens: &'static [&'static str],
}

/// One link parameter as the links doc's table describes it.
#[derive(Clone, Debug, PartialEq)]
pub struct ParamDoc {
    /// The key.
    pub key: &'static str,
    /// What it sets.
    pub doc: &'static str,
    /// The values it takes (the bad-value message says the same).
    pub values: String,
    /// Values a slider or switch would reach ([`crate::link::Param::samples`]).
    pub samples: Vec<String>,
    /// Values it refuses, one of each way to be wrong ([`crate::link::Param::refused`]).
    pub refused: Vec<String>,
}

fn param_docs<L: Lesson>() -> Vec<ParamDoc> {
    L::PARAMS
        .iter()
        .map(|p| ParamDoc {
            key: p.key,
            doc: p.doc,
            values: p.expected(),
            samples: p.samples(),
            refused: p.refused(),
        })
        .collect()
}

/// What each of `L`'s parameters writes for the page at its defaults, worked out the
/// first time one of its links is written and kept: a value equal to it is left out.
pub(super) fn defaults_of<L: Lesson>() -> Arc<[Option<String>]> {
    type Kept = Vec<(TypeId, Arc<[Option<String>]>)>;
    static KEPT: Mutex<Kept> = Mutex::new(Vec::new());
    let id = TypeId::of::<L>();
    let kept = |k: &Kept| k.iter().find(|(t, _)| *t == id).map(|(_, d)| d.clone());
    if let Some(defaults) = kept(&KEPT.lock().unwrap_or_else(PoisonError::into_inner)) {
        return defaults;
    }
    // Built without the lock held: a page at its defaults may take a moment to build.
    let defaults: Arc<[Option<String>]> = default_values(L::PARAMS).into();
    let mut all = KEPT.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some(first) = kept(&all) {
        return first;
    }
    all.push((id, defaults.clone()));
    defaults
}

fn make<P: Page + Default + 'static>() -> Box<dyn Page> {
    Box::<P>::default()
}

impl PageEntry {
    /// The registry line of a lesson.
    pub const fn of<L: Lesson>() -> Self {
        Self {
            info: L::INFO,
            make: make::<L>,
            params: param_docs::<L>,
            opens: L::OPENS,
        }
    }
}

/// Every page, in lesson order (declared in [`crate::pages`], beside the modules).
pub use crate::pages::PAGES;

/// Link keys that moved to another page (declared in [`crate::pages`], beside
/// [`PAGES`]).
pub use crate::pages::MOVED;

/// Link keys that moved from one page to another when a lesson was split: a link to
/// `from` that names one of them opens `to` instead.
#[derive(Debug)]
pub struct Moved {
    /// The page the keys were on.
    pub from: &'static str,
    /// The page that has them now.
    pub to: &'static str,
    /// Keys `to` declares now, under the same names and taking the same values.
    pub keys: &'static [&'static str],
    /// `key=value` pairs of `from` that showed what `to` shows now: they send a link
    /// to `to`, which does not need them.
    pub shows: &'static [(&'static str, &'static str)],
}

/// `link` as the pages are now. A link to a page whose keys moved ([`MOVED`]) and that
/// names a moved key, or a `key=value` that showed what moved, opens the page that has
/// them now, with the moved keys; the keys that stayed behind are left out, since a
/// link opens one page. Any other link is returned unchanged.
pub fn resolve(link: Link) -> Link {
    for moved in MOVED.iter().filter(|m| m.from == link.slug) {
        let is_moved = |key: &str| moved.keys.contains(&key);
        let goes = link.params.iter().any(|(key, value)| {
            is_moved(key) || moved.shows.iter().any(|(k, v)| k == key && v == value)
        });
        if goes {
            // The app's own keys (focus, zoom) work on every page: they stay too.
            let app_key = |key: &str| crate::link::APP_KEYS.contains(&key);
            return Link {
                slug: moved.to.to_owned(),
                params: link
                    .params
                    .into_iter()
                    .filter(|(key, _)| is_moved(key) || app_key(key))
                    .collect(),
                problems: link.problems,
            };
        }
    }
    link
}

/// Every page built at its defaults, in lesson order.
pub fn registry() -> Vec<Box<dyn Page>> {
    PAGES.iter().map(|entry| (entry.make)()).collect()
}

/// the links doc's table of link parameters, one row per parameter, from the declarations.
pub fn params_table() -> String {
    let mut out = String::from("| page | key | what it sets | values |\n|---|---|---|---|\n");
    for entry in PAGES {
        for (i, p) in (entry.params)().iter().enumerate() {
            let page = if i == 0 {
                format!("`{}`", entry.info.slug)
            } else {
                String::new()
            };
            out.push_str(&format!(
                "| {page} | `{}` | {} | {} |\n",
                p.key,
                p.doc,
                p.values.replace('|', "\\|")
            ));
        }
    }
    out
}

/// The slugs of every page, in lesson order (no page is built).
pub fn slugs() -> Vec<&'static str> {
    PAGES.iter().map(|entry| entry.info.slug).collect()
}
