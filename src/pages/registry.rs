//! Reading the registry ([`PAGES`], [`MOVED`]): every page built, the slugs, links
//! whose keys moved, the page that opens a file, and the links doc's table.

use super::{MOVED, PAGES};
use crate::link::Link;
use crate::page::Page;

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

/// The registry position of the page that opens files called `name` (by extension,
/// any case), or a message naming the extensions the app opens.
pub fn page_for_file(name: &str) -> Result<usize, String> {
    let extension = name
        .rsplit_once('.')
        .map(|(_, e)| e.to_ascii_lowercase())
        .unwrap_or_default();
    PAGES
        .iter()
        .position(|entry| entry.opens.contains(&extension.as_str()))
        .ok_or_else(|| {
            let known: Vec<String> = PAGES
                .iter()
                .flat_map(|entry| {
                    entry
                        .opens
                        .iter()
                        .map(move |e| format!(".{e} ({} page)", entry.info.slug))
                })
                .collect();
            format!(
                "`{name}` is not a file skinlab opens; it opens {}",
                known.join(", ")
            )
        })
}
