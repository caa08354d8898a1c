//! The registry of pages in lesson order: each page's declaration and how to build it,
//! links whose keys moved to another page, and the links doc's table of parameters.

use super::{Lesson, Page, PageInfo};
use crate::link::default_values;
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
