//! Every link key of every page, driven through its declared values: once here, for
//! all pages, instead of a copy a page. A key takes each value a slider or switch
//! would reach, changes what the link says for one of them at least, and the link it
//! writes (the value as given, or as the page keeps it: within a turn, within a chain)
//! reopens the same state; it refuses one value of each way to be wrong, with the
//! message its declaration gives, and the page keeps its defaults.

use skinlab::link::Link;
use skinlab::page::open;
use skinlab::pages::PAGES;

/// A value a quarter of the way along a number key's range (its samples are the
/// range's ends and middle): an angle's ends and middle may all be the same turn.
fn quarter(samples: &[String]) -> Option<String> {
    let [low, _, high] = samples else {
        return None;
    };
    let ends: Vec<(f32, f32)> = low
        .split(',')
        .zip(high.split(','))
        .map(|(a, b)| Some((a.parse().ok()?, b.parse().ok()?)))
        .collect::<Option<_>>()?;
    // Whole numbers stay whole (a number key with whole ends takes one too).
    let whole = ends
        .iter()
        .all(|(a, b)| a.fract() == 0.0 && b.fract() == 0.0);
    let at: Vec<String> = ends
        .iter()
        .map(|(a, b)| a + 0.25 * (b - a))
        .map(|x| if whole { x.round() } else { x }.to_string())
        .collect();
    Some(at.join(","))
}

#[test]
fn every_key_takes_the_values_its_controls_reach_and_writes_them_back() {
    for entry in PAGES {
        let slug = entry.info.slug;
        let defaults = (entry.make)().link();
        for param in (entry.params)() {
            let mut took_effect = 0;
            let values = param.samples.iter().cloned().chain(quarter(&param.samples));
            for value in values {
                let text = format!("{slug}?{}={value}", param.key);
                let mut page = (entry.make)();
                open(page.as_mut(), &Link::parse(&text).expect("reads"))
                    .unwrap_or_else(|e| panic!("`{text}`: {e}"));
                let written = page.link();
                if written != defaults {
                    took_effect += 1;
                }
                // The state's link reopens the same state.
                let mut again = (entry.make)();
                open(again.as_mut(), &written).unwrap_or_else(|e| panic!("`{written}`: {e}"));
                assert_eq!(again.link(), written, "`{text}` wrote `{written}`");
            }
            assert!(
                param.samples.is_empty() || took_effect > 0,
                "`{slug}?{}`: none of {:?} changes what the link says",
                param.key,
                param.samples
            );
        }
    }
}

#[test]
fn every_key_refuses_each_way_to_be_wrong_by_name_and_keeps_the_defaults() {
    let mut checked = 0;
    for entry in PAGES {
        let slug = entry.info.slug;
        let defaults = (entry.make)().link();
        for param in (entry.params)() {
            for value in &param.refused {
                let text = format!("{slug}?{}={value}", param.key);
                let mut page = (entry.make)();
                let error = open(page.as_mut(), &Link::parse(&text).expect("reads"))
                    .expect_err(&text)
                    .to_string();
                assert!(
                    error.contains(&format!("`{}={value}`", param.key))
                        && error.contains(&param.values),
                    "`{text}`: {error}"
                );
                assert_eq!(page.link(), defaults, "`{text}` keeps the defaults");
                checked += 1;
            }
        }
    }
    // Every kind of value has wrong values to refuse: far more than one a page.
    assert!(checked > 3 * PAGES.len(), "{checked} refused values");
}
