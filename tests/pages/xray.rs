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
        "xray?preset=shear&transposed=true&p=1,2,3&v=0,0,1&question=2",
        "xray?m=1,0,0,0,0,2,0,0,0,0,1,0,1,2,3,1&p=-1,0.5,0&question=3",
    ]);
    kit::assert_refused_as_declared::<XrayPage>(&["m=1,0,0,0,0,1,0,0,0,0,1,0,0,0,0"]);
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

#[test]
fn the_perspective_preset_divides_by_w_and_is_not_rigid() {
    let mut page = XrayPage::default();
    open(&mut page, &Link::parse("xray?preset=perspective").unwrap()).unwrap();
    // w = 1 − z/2: the cube's corner on the z axis has w = 0.5, so it is drawn at z = 2;
    // the corners at z = 0 keep w = 1.
    let [x, y, z] = page.arrows();
    assert_eq!(x.1, glam::Vec3::X);
    assert_eq!(y.1, glam::Vec3::Y);
    assert!(z.1.abs_diff_eq(glam::Vec3::Z * 2.0, 1e-6), "{:?}", z.1);
    assert!(!skin::matrix::is_rigid(&page.matrix, 1e-3));
    let notes = skinlab::pages::xray::describe(&page.matrix).join(" ");
    assert!(notes.contains("projection"), "{notes}");
}

#[test]
fn sending_the_transpose_draws_another_cube_under_the_same_arrows() {
    let mut page = XrayPage::default();
    open(&mut page, &Link::parse("xray?preset=composed").unwrap()).unwrap();
    let arrows = page.arrows();
    assert_eq!(page.drawn_matrix(), page.matrix);
    open(
        &mut page,
        &Link::parse("xray?preset=composed&transposed=true").unwrap(),
    )
    .unwrap();
    assert_eq!(page.arrows(), arrows, "the arrows still show M");
    assert_eq!(page.drawn_matrix(), page.matrix.transpose());
    // The translation now sits in the bottom row: a projection, not M's cube.
    assert_ne!(page.drawn_matrix().row(3), glam::Vec4::W);
}
