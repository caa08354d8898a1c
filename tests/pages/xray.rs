//! The X-ray page's link: every key, and the values it refuses.

use crate::kit;

use skinlab::link::Link;
use skinlab::page::{Page, open};
use skinlab::pages::xray::XrayPage;

#[test]
fn every_key_round_trips_and_each_kind_of_bad_value_is_refused() {
    // A preset is written by name, any other matrix by its numbers: `preset` and `m`
    // are never written together.
    kit::assert_every_key_round_trips::<XrayPage>(&[
        "xray?preset=composed&p=1,2,3&v=0,0,1&question=2",
        "xray?m=1,0,0,0,0,2,0,0,0,0,1,0,1,2,3,1&p=-1,0.5,0&question=3",
    ]);
    kit::assert_refused_as_declared::<XrayPage>(&[
        "preset=spin",
        "m=1,0,0,0,0,1,0,0,0,0,1,0,0,0,0",
        "p=0,101,0",
        "question=4",
    ]);
}

#[test]
fn a_matrix_after_a_preset_replaces_it() {
    let mut page = XrayPage::default();
    let link = Link::parse("xray?preset=shear&m=2,0,0,0,0,1,0,0,0,0,1,0,0,0,0,1").unwrap();
    open(&mut page, &link).unwrap();
    assert_eq!(
        page.link().to_string(),
        "xray?m=2,0,0,0,0,1,0,0,0,0,1,0,0,0,0,1"
    );
    let link = Link::parse("xray?preset=shear&m=1,0,0,0,0.5,1,0,0,0,0,1,0,0,0,0,1").unwrap();
    open(&mut page, &link).unwrap();
    assert_eq!(
        page.link().to_string(),
        "xray?preset=shear",
        "the shear's own numbers are its name"
    );
}
