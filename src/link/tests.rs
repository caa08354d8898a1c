//! The link grammar's tests: parsing, writing, messages and parameters.

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
        cell: None,
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
        cell: None,
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
        cell: None,
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
        cell: None,
        access: Access::Choice {
            names: &["lbs", "dqs"],
            set: |s, i| s.mode = i,
            get: |s| (s.mode != 0).then_some(s.mode),
        },
    },
    Param {
        key: "on",
        doc: "a switch",
        cell: None,
        access: Access::Bool {
            set: |s, b| s.on = b,
            get: |s| s.on.then_some(true),
        },
    },
    Param {
        key: "name",
        doc: "a name",
        cell: None,
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
    let defaults = default_values(TOY);
    assert_eq!(write_params("toy", &toy, TOY, &defaults).to_string(), text);
    assert_eq!(
        write_params("toy", &Toy::default(), TOY, &defaults).to_string(),
        "toy"
    );
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

#[test]
fn a_message_is_one_line_whatever_the_link_held() {
    for text in ["%0a", "grid\nx", "grid?angle=1%0A2", "a\u{7}b"] {
        let error =
            match Link::parse(text) {
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

#[test]
fn links_from_real_places_read_as_the_app_writes_them() {
    let written = "grid?angles=0,-0.5,0&vertex=2";
    for pasted in [
        // Wholly %-encoded, as some address bars copy a fragment.
        "grid%3Fangles%3D0%2C-0.5%2C0%26vertex%3D2",
        // Through a web page or an email: `&amp;`.
        "grid?angles=0,-0.5,0&amp;vertex=2",
        // A Unicode minus, typed or encoded, and spaces after commas.
        "grid?angles=0, \u{2212}0.5, 0&vertex=2",
        "grid?angles=0,%E2%88%920.5,0&vertex=2",
        // The full stop of the sentence the link ended.
        "grid?angles=0,-0.5,0&vertex=2.",
    ] {
        let link = Link::parse(pasted).unwrap_or_else(|e| panic!("{pasted}: {e}"));
        assert!(link.problems.is_empty(), "{pasted}: {:?}", link.problems);
        assert_eq!(link.to_string(), written, "{pasted}");
    }
}

#[test]
fn a_misspelt_page_is_answered_with_the_nearest_name() {
    let pages = ["pipeline", "xray", "grid", "gradient", "blending"];
    assert_eq!(nearest_name("gird", &pages), Some("grid"));
    assert_eq!(nearest_name("gradiant", &pages), Some("gradient"));
    assert_eq!(nearest_name("xary", &pages), Some("xray"));
    assert_eq!(nearest_name("model", &pages), None, "nothing near enough");
    let error = LinkError::UnknownPage {
        slug: "gird".into(),
        valid: pages.to_vec(),
    };
    assert!(
        error.to_string().contains("did you mean `grid`?"),
        "{error}"
    );
}
