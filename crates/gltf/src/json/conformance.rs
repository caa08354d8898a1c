//! The JSON reader held to a reference: a seeded differential run against serde_json,
//! and accept/refuse cases in the manner of JSONTestSuite (its `y_`, `n_` and `i_`
//! files), written here.

use super::{MAX_DEPTH, Value, parse};

/// A small deterministic generator, so a failure names the seed that reproduces it.
struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())]
    }
}

fn space(rng: &mut XorShift, out: &mut String) {
    for _ in 0..rng.below(3) {
        out.push(rng.pick(&[' ', '\t', '\n', '\r']));
    }
}

fn digits(rng: &mut XorShift, most: usize, out: &mut String) {
    for _ in 0..1 + rng.below(most) {
        out.push(char::from(b'0' + rng.below(10) as u8));
    }
}

fn number(rng: &mut XorShift, out: &mut String) {
    if rng.below(3) == 0 {
        out.push('-');
    }
    if rng.below(4) == 0 {
        out.push('0');
    } else {
        out.push(char::from(b'1' + rng.below(9) as u8));
        if rng.below(2) == 0 {
            digits(rng, 18, out);
        }
    }
    if rng.below(2) == 0 {
        out.push('.');
        digits(rng, 12, out);
    }
    if rng.below(3) == 0 {
        out.push(rng.pick(&['e', 'E']));
        if rng.below(2) == 0 {
            out.push(rng.pick(&['+', '-']));
        }
        // Exponents that stay inside f64's range: serde_json refuses overflow, which
        // the reader turns into infinity (see `differs_only_as_documented`).
        out.push_str(&rng.below(300).to_string());
    }
}

fn string(rng: &mut XorShift, out: &mut String) {
    out.push('"');
    for _ in 0..rng.below(8) {
        match rng.below(6) {
            0 => {
                out.push_str(rng.pick(&["\\\"", "\\\\", "\\/", "\\b", "\\f", "\\n", "\\r", "\\t"]))
            }
            1 => {
                let c = rng.pick(&['\u{0}', '\u{1f}', 'A', 'é', '\u{2212}', '\u{ffff}']);
                out.push_str(&format!("\\u{:04x}", c as u32));
            }
            // A surrogate pair: U+1D11E, the G clef.
            2 => out.push_str(rng.pick(&["\\ud834\\udd1e", "\\uD834\\uDD1E"])),
            3 => out.push(rng.pick(&['é', '\u{2212}', '\u{1d11e}', '·', 'θ'])),
            _ => out.push(char::from(b'a' + rng.below(26) as u8)),
        }
    }
    out.push('"');
}

fn value(rng: &mut XorShift, depth: usize, out: &mut String) {
    space(rng, out);
    let kinds = if depth < 5 { 7 } else { 5 };
    match rng.below(kinds) {
        0 => out.push_str(rng.pick(&["null", "true", "false"])),
        1 | 2 => number(rng, out),
        3 | 4 => string(rng, out),
        5 => {
            out.push('[');
            for i in 0..rng.below(4) {
                if i > 0 {
                    out.push(',');
                }
                value(rng, depth + 1, out);
            }
            space(rng, out);
            out.push(']');
        }
        _ => {
            out.push('{');
            for i in 0..rng.below(4) {
                if i > 0 {
                    out.push(',');
                }
                space(rng, out);
                // Few names, so that some objects repeat one.
                string(&mut XorShift(1 + rng.below(4) as u64), out);
                space(rng, out);
                out.push(':');
                value(rng, depth + 1, out);
            }
            space(rng, out);
            out.push('}');
        }
    }
    space(rng, out);
}

/// One to three edits of the kinds that break JSON: a byte cut, added or changed, or
/// the text cut short.
fn mutate(rng: &mut XorShift, text: &mut Vec<u8>) {
    const BYTES: &[u8] = b"{}[],:\"\\ 0123456789.eE+-truefalsn\t\n/u\x01\x1f\x7f\x80\xbf\xc3\xff";
    for _ in 0..1 + rng.below(3) {
        let at = rng.below(text.len() + 1);
        match rng.below(4) {
            0 if at < text.len() => {
                text.remove(at);
            }
            1 => text.insert(at, rng.pick(BYTES)),
            2 if at < text.len() => text[at] = rng.pick(BYTES),
            _ => text.truncate(at),
        }
    }
}

/// Whether two readings of a number agree. serde_json's float parser may round the
/// last bit differently from Rust's (which is correctly rounded).
fn close(a: f64, b: f64) -> bool {
    a == b || (a - b).abs() <= 4.0 * f64::EPSILON * a.abs().max(b.abs())
}

/// Whether the reader's tree is serde_json's: objects compared as serde_json keeps
/// them, the last of a repeated name winning.
fn same(ours: &Value<'_>, theirs: &serde_json::Value) -> bool {
    use serde_json::Value as J;
    match (ours, theirs) {
        (Value::Null, J::Null) => true,
        (Value::Bool(a), J::Bool(b)) => a == b,
        (Value::Number(a), J::Number(b)) => b.as_f64().is_some_and(|b| close(*a, b)),
        (Value::String(a), J::String(b)) => a == b,
        (Value::Array(a), J::Array(b)) => {
            a.len() == b.len() && a.iter().zip(b).all(|(a, b)| same(a, b))
        }
        (Value::Object(a), J::Object(b)) => {
            let mut names: Vec<&str> = a.iter().map(|(k, _)| k.as_ref()).collect();
            names.sort_unstable();
            names.dedup();
            names.len() == b.len()
                && names.iter().all(|name| {
                    let last = a.iter().rev().find(|(k, _)| k == name).map(|(_, v)| v);
                    matches!((last, b.get(*name)), (Some(a), Some(b)) if same(a, b))
                })
        }
        _ => false,
    }
}

fn has_infinity(value: &Value<'_>) -> bool {
    match value {
        Value::Number(n) => n.is_infinite(),
        Value::Array(items) => items.iter().any(has_infinity),
        Value::Object(members) => members.iter().any(|(_, v)| has_infinity(v)),
        _ => false,
    }
}

/// How the reader may differ from serde_json, on purpose:
/// - NUL bytes after the value are padding (GLB writers pad the JSON chunk with them);
/// - a number too large for f64 is infinity (the glTF reader refuses it where it
///   matters), where serde_json refuses the text.
fn differs_only_as_documented(text: &[u8], ours: &Result<Value<'_>, super::JsonError>) -> bool {
    let unpadded = text.strip_suffix(b"\0").map(|t| {
        let end = t.iter().rposition(|&b| b != 0).map_or(0, |i| i + 1);
        &t[..end]
    });
    if let Some(unpadded) = unpadded
        && let Ok(theirs) = serde_json::from_slice::<serde_json::Value>(unpadded)
    {
        return ours.as_ref().is_ok_and(|ours| same(ours, &theirs));
    }
    match serde_json::from_slice::<serde_json::Value>(text) {
        Err(e) if e.to_string().contains("number out of range") => {
            ours.as_ref().is_ok_and(has_infinity)
        }
        _ => false,
    }
}

#[test]
fn agrees_with_serde_json_on_generated_and_broken_text() {
    const SEED: u64 = 0x5EED_1234_ABCD_0001;
    const CASES: usize = 40_000;
    let mut rng = XorShift(SEED);
    let (mut accepted, mut refused) = (0, 0);
    let mut failures = Vec::new();
    for case in 0..CASES {
        let mut text = String::new();
        value(&mut rng, 0, &mut text);
        let mut text = text.into_bytes();
        if case % 2 == 1 {
            mutate(&mut rng, &mut text);
        }
        let ours = parse(&text);
        let theirs = serde_json::from_slice::<serde_json::Value>(&text);
        let agree = match (&ours, &theirs) {
            (Ok(ours), Ok(theirs)) => same(ours, theirs),
            (Err(_), Err(_)) => true,
            _ => differs_only_as_documented(&text, &ours),
        };
        match (&ours, agree) {
            (_, false) => failures.push(format!(
                "case {case}: {:?}\n  ours: {:?}\n  serde_json: {:?}",
                String::from_utf8_lossy(&text),
                ours.as_ref().map(|_| "accepted"),
                theirs
                    .as_ref()
                    .map(|_| "accepted")
                    .map_err(|e| e.to_string()),
            )),
            (Ok(_), true) => accepted += 1,
            (Err(_), true) => refused += 1,
        }
    }
    assert!(
        failures.is_empty(),
        "seed {SEED:#x}: {} of {CASES} disagree, the first:\n{}",
        failures.len(),
        failures[..failures.len().min(5)].join("\n")
    );
    // Both outcomes are exercised in earnest.
    assert!(
        accepted > CASES / 3 && refused > CASES / 5,
        "{accepted} accepted, {refused} refused"
    );
}

/// Texts every JSON reader must accept (JSONTestSuite's `y_` files are of this kind).
const ACCEPT: &[&str] = &[
    "[]",
    "{}",
    "null",
    "1",
    "\"plain\"",
    " [1] ",
    "[-0]",
    "[-0.0]",
    "[0e1]",
    "[1E+2]",
    "[1e-2]",
    "[123e-10000000]",
    "[1.5E308]",
    "[-9223372036854775809]",
    "[false, true, null]",
    "[\"\\u0000\"]",
    "[\"\\uD834\\uDD1E\"]",
    "[\"\\ud834\\udd1e\"]",
    "[\"\\/\\\\\\\"\\b\\f\\n\\r\\t\"]",
    "[\"\u{20ac}\u{1d11e}\"]",
    "[\"\u{7f}\"]",
    "{\"\":0}",
    "{\"a\":1,\"a\":2}",
    "{\"a\":{\"b\":[{\"c\":[]}]}}",
    "[[[[[]]]]]",
    "\t\n\r [ \t\n\r ] \t\n\r",
];

/// Texts every JSON reader must refuse (JSONTestSuite's `n_` files are of this kind).
const REFUSE: &[&str] = &[
    "",
    "   ",
    "[",
    "]",
    "[1,]",
    "[,1]",
    "[1 2]",
    "[01]",
    "[-01]",
    "[.5]",
    "[1.]",
    "[+1]",
    "[1e]",
    "[1e+]",
    "[-]",
    "[0x10]",
    "[NaN]",
    "[Infinity]",
    "[-Infinity]",
    "[tru]",
    "[nul]",
    "[True]",
    "['a']",
    "[\"\\x\"]",
    "[\"\\u12\"]",
    "[\"\\uD800\"]",
    "[\"\\uDC00\"]",
    "[\"\\uD800\\u0041\"]",
    "[\"a\tb\"]",
    "[\"a\nb\"]",
    "[\"unclosed]",
    "{a:1}",
    "{\"a\" 1}",
    "{\"a\":1,}",
    "{\"a\":1}}",
    "{1:1}",
    "[1]x",
    "[1] [2]",
    "/* comment */ 1",
    "[1] // comment",
];

#[test]
fn accepts_and_refuses_as_the_standard_says() {
    let mut failures = Vec::new();
    for text in ACCEPT {
        let reference = serde_json::from_str::<serde_json::Value>(text);
        if let Err(e) = parse(text.as_bytes()) {
            failures.push(format!("refused {text:?}: {e:?}"));
        }
        if reference.is_err() {
            failures.push(format!("the case is wrong: serde_json refuses {text:?}"));
        }
    }
    for text in REFUSE {
        if parse(text.as_bytes()).is_ok() {
            failures.push(format!("accepted {text:?}"));
        }
        if serde_json::from_str::<serde_json::Value>(text).is_ok() {
            failures.push(format!("the case is wrong: serde_json accepts {text:?}"));
        }
    }
    // Bytes that are not UTF-8 inside a string, and overlong or cut sequences.
    for bytes in [
        &b"[\"\xff\"]"[..],
        b"[\"\xc3\"]",
        b"[\"\xc0\xaf\"]",
        b"[\"\xed\xa0\x80\"]",
        b"[\x80]",
    ] {
        if parse(bytes).is_ok() {
            failures.push(format!("accepted {:?}", String::from_utf8_lossy(bytes)));
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
fn the_choices_the_standard_leaves_open() {
    // JSONTestSuite's `i_` files: a reader may go either way; these are this reader's.
    // Nesting stops at MAX_DEPTH, before the stack could.
    let deep = |n: usize| format!("{}{}", "[".repeat(n), "]".repeat(n));
    assert!(parse(deep(MAX_DEPTH).as_bytes()).is_ok());
    assert!(parse(deep(MAX_DEPTH + 1).as_bytes()).is_err());
    assert!(parse(deep(100_000).as_bytes()).is_err());
    // A number past f64's range is infinity, one too small for it zero.
    assert_eq!(
        parse(b"[1e400]"),
        Ok(Value::Array(vec![Value::Number(f64::INFINITY)]))
    );
    assert_eq!(
        parse(b"[1e-400]"),
        Ok(Value::Array(vec![Value::Number(0.0)]))
    );
    // A byte order mark before the value, NUL padding after it.
    assert!(parse(b"\xEF\xBB\xBF[1]").is_ok());
    assert!(parse(b"[1]\0\0\0").is_ok());
    assert!(parse(b"[1]\0 ").is_err());
}
