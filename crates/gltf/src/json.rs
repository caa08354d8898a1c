//! A small JSON reader for the glTF boundary: text in, a [`Value`] tree out, or the line
//! and column where the text stops being JSON. It reads RFC 8259 JSON, nests at most
//! [`MAX_DEPTH`] deep, and never panics on any input.

use std::borrow::Cow;

/// How deep arrays and objects may nest; deeper input is refused, not recursed into.
pub(super) const MAX_DEPTH: usize = 128;

/// A JSON value, borrowing its strings from the text where they hold no escape.
/// Objects keep their members in file order.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Value<'t> {
    Null,
    Bool(bool),
    Number(f64),
    String(Cow<'t, str>),
    Array(Vec<Value<'t>>),
    Object(Vec<(Cow<'t, str>, Value<'t>)>),
}

/// Where and why a text is not JSON.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct JsonError {
    /// 1-based, as editors count.
    pub line: usize,
    pub column: usize,
    /// The text ended before the value did.
    pub ended: bool,
    pub reason: &'static str,
}

/// Reads one JSON value. Whitespace may follow it, and so may NUL bytes (some GLB
/// writers pad the JSON chunk with them); anything else is refused.
pub(super) fn parse(text: &[u8]) -> Result<Value<'_>, JsonError> {
    let mut reader = Reader { text, at: 0 };
    reader.skip_bom();
    let value = reader.value(0)?;
    reader.skip_space();
    while reader.peek() == Some(0) {
        reader.at += 1;
    }
    if reader.at < text.len() {
        return Err(reader.error("more follows the JSON value"));
    }
    Ok(value)
}

struct Reader<'t> {
    text: &'t [u8],
    at: usize,
}

impl<'t> Reader<'t> {
    fn peek(&self) -> Option<u8> {
        self.text.get(self.at).copied()
    }

    fn error(&self, reason: &'static str) -> JsonError {
        let before = &self.text[..self.at.min(self.text.len())];
        let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
        let line_start = before
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |i| i + 1);
        JsonError {
            line,
            column: self.at.min(self.text.len()) - line_start + 1,
            ended: self.at >= self.text.len(),
            reason,
        }
    }

    fn skip_bom(&mut self) {
        if self.text.starts_with(b"\xEF\xBB\xBF") {
            self.at = 3;
        }
    }

    fn skip_space(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.at += 1;
        }
    }

    /// Consumes `literal` (after its first byte, already seen) or fails.
    fn literal(&mut self, literal: &[u8], value: Value<'t>) -> Result<Value<'t>, JsonError> {
        for &expected in literal {
            match self.peek() {
                Some(b) if b == expected => self.at += 1,
                _ => return Err(self.error("expected true, false or null")),
            }
        }
        Ok(value)
    }

    fn value(&mut self, depth: usize) -> Result<Value<'t>, JsonError> {
        self.skip_space();
        match self.peek() {
            None => Err(self.error("the text ends where a value should be")),
            Some(b'{') => self.object(depth + 1),
            Some(b'[') => self.array(depth + 1),
            Some(b'"') => self.string().map(Value::String),
            Some(b't') => self.literal(b"true", Value::Bool(true)),
            Some(b'f') => self.literal(b"false", Value::Bool(false)),
            Some(b'n') => self.literal(b"null", Value::Null),
            Some(b'-' | b'0'..=b'9') => self.number(),
            Some(_) => Err(self.error("expected a value")),
        }
    }

    fn array(&mut self, depth: usize) -> Result<Value<'t>, JsonError> {
        if depth > MAX_DEPTH {
            return Err(self.error("arrays and objects nest too deep"));
        }
        self.at += 1;
        let mut items = Vec::new();
        self.skip_space();
        if self.peek() == Some(b']') {
            self.at += 1;
            return Ok(Value::Array(items));
        }
        loop {
            items.push(self.value(depth)?);
            self.skip_space();
            match self.peek() {
                Some(b',') => self.at += 1,
                Some(b']') => {
                    self.at += 1;
                    return Ok(Value::Array(items));
                }
                None => return Err(self.error("the text ends inside an array")),
                Some(_) => return Err(self.error("expected ',' or ']'")),
            }
        }
    }

    fn object(&mut self, depth: usize) -> Result<Value<'t>, JsonError> {
        if depth > MAX_DEPTH {
            return Err(self.error("arrays and objects nest too deep"));
        }
        self.at += 1;
        let mut members = Vec::new();
        self.skip_space();
        if self.peek() == Some(b'}') {
            self.at += 1;
            return Ok(Value::Object(members));
        }
        loop {
            self.skip_space();
            match self.peek() {
                Some(b'"') => {}
                None => return Err(self.error("the text ends inside an object")),
                Some(_) => return Err(self.error("expected a key in double quotes")),
            }
            let key = self.string()?;
            self.skip_space();
            match self.peek() {
                Some(b':') => self.at += 1,
                None => return Err(self.error("the text ends inside an object")),
                Some(_) => return Err(self.error("expected ':' after the key")),
            }
            let value = self.value(depth)?;
            members.push((key, value));
            self.skip_space();
            match self.peek() {
                Some(b',') => self.at += 1,
                Some(b'}') => {
                    self.at += 1;
                    return Ok(Value::Object(members));
                }
                None => return Err(self.error("the text ends inside an object")),
                Some(_) => return Err(self.error("expected ',' or '}'")),
            }
        }
    }

    fn digits(&mut self) -> usize {
        let start = self.at;
        while matches!(self.peek(), Some(b'0'..=b'9')) {
            self.at += 1;
        }
        self.at - start
    }

    fn number(&mut self) -> Result<Value<'t>, JsonError> {
        let start = self.at;
        if self.peek() == Some(b'-') {
            self.at += 1;
        }
        match self.peek() {
            Some(b'0') => self.at += 1,
            Some(b'1'..=b'9') => {
                self.digits();
            }
            _ => return Err(self.error("a number needs a digit here")),
        }
        if self.peek() == Some(b'.') {
            self.at += 1;
            if self.digits() == 0 {
                return Err(self.error("a number needs a digit after its point"));
            }
        }
        if matches!(self.peek(), Some(b'e' | b'E')) {
            self.at += 1;
            if matches!(self.peek(), Some(b'+' | b'-')) {
                self.at += 1;
            }
            if self.digits() == 0 {
                return Err(self.error("a number needs a digit in its exponent"));
            }
        }
        // Only ASCII digits, signs, '.' and 'e' were consumed: valid UTF-8 that Rust's
        // float parser reads (huge exponents become infinity, tiny ones zero).
        std::str::from_utf8(&self.text[start..self.at])
            .ok()
            .and_then(|s| s.parse::<f64>().ok())
            .map(Value::Number)
            .ok_or_else(|| self.error("not a number"))
    }

    fn hex4(&mut self) -> Result<u32, JsonError> {
        let mut v = 0;
        for _ in 0..4 {
            let digit = match self.peek() {
                Some(b) => (b as char).to_digit(16),
                None => return Err(self.error("the text ends inside a string")),
            };
            let Some(digit) = digit else {
                return Err(self.error("\\u needs four hexadecimal digits"));
            };
            v = v * 16 + digit;
            self.at += 1;
        }
        Ok(v)
    }

    fn string(&mut self) -> Result<Cow<'t, str>, JsonError> {
        self.at += 1;
        // Most strings hold no escape: borrowed from the text.
        let text: &'t [u8] = self.text;
        let rest = &text[self.at..];
        if let Some(end) = rest
            .iter()
            .position(|&c| c == b'"' || c == b'\\' || c < 0x20)
            && rest[end] == b'"'
        {
            self.at += end + 1;
            return std::str::from_utf8(&rest[..end])
                .map(Cow::Borrowed)
                .map_err(|_| self.error("a string that is not UTF-8"));
        }
        let mut bytes = Vec::new();
        loop {
            let Some(b) = self.peek() else {
                return Err(self.error("the text ends inside a string"));
            };
            match b {
                b'"' => {
                    self.at += 1;
                    break;
                }
                b'\\' => {
                    self.at += 1;
                    let escaped = match self.peek() {
                        None => return Err(self.error("the text ends inside a string")),
                        Some(b'"') => '"',
                        Some(b'\\') => '\\',
                        Some(b'/') => '/',
                        Some(b'b') => '\u{8}',
                        Some(b'f') => '\u{c}',
                        Some(b'n') => '\n',
                        Some(b'r') => '\r',
                        Some(b't') => '\t',
                        Some(b'u') => {
                            self.at += 1;
                            let c = self.escaped_char()?;
                            let mut buf = [0; 4];
                            bytes.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
                            continue;
                        }
                        Some(_) => return Err(self.error("unknown escape in a string")),
                    };
                    self.at += 1;
                    bytes.push(escaped as u8);
                }
                0..0x20 => return Err(self.error("a control character inside a string")),
                _ => {
                    bytes.push(b);
                    self.at += 1;
                }
            }
        }
        String::from_utf8(bytes)
            .map(Cow::Owned)
            .map_err(|_| self.error("a string that is not UTF-8"))
    }

    /// The character of `\uXXXX` (after the `u`), with a second `\uXXXX` for a surrogate
    /// pair.
    fn escaped_char(&mut self) -> Result<char, JsonError> {
        let high = self.hex4()?;
        if !(0xD800..0xDC00).contains(&high) {
            return char::from_u32(high).ok_or_else(|| self.error("a lone low surrogate"));
        }
        if self.text.get(self.at..self.at + 2) != Some(b"\\u") {
            return Err(self.error("a high surrogate without its low half"));
        }
        self.at += 2;
        let low = self.hex4()?;
        if !(0xDC00..0xE000).contains(&low) {
            return Err(self.error("a high surrogate without its low half"));
        }
        char::from_u32(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
            .ok_or_else(|| self.error("not a character"))
    }
}

/// Writes `value` as compact JSON text onto `out`: members in their order, each number
/// in the shortest form that reads back to the same `f64` (an infinity, which a number
/// past `f64` reads as, as `1e999`, which reads back to it), strings escaped as RFC 8259
/// asks (quotes, backslashes and control characters; the rest as UTF-8).
pub(super) fn write(value: &Value<'_>, out: &mut String) {
    use std::fmt::Write as _;
    match value {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) if n.is_infinite() => {
            out.push_str(if *n > 0.0 { "1e999" } else { "-1e999" });
        }
        Value::Number(n) => {
            let _ = write!(out, "{n}");
        }
        Value::String(s) => write_string(s, out),
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write(item, out);
            }
            out.push(']');
        }
        Value::Object(members) => {
            out.push('{');
            for (i, (key, item)) in members.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_string(key, out);
                out.push(':');
                write(item, out);
            }
            out.push('}');
        }
    }
}

fn write_string(s: &str, out: &mut String) {
    use std::fmt::Write as _;
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if u32::from(c) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

#[cfg(test)]
mod conformance;

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(text: &str) -> Value<'_> {
        parse(text.as_bytes()).unwrap_or_else(|e| panic!("{text}: {e:?}"))
    }

    #[test]
    fn written_json_reads_back_the_same_value() {
        let text = r#" { "a" : [1, 2.5, -0.125, 1e-7, 123456789012, -0.0, 1e400, -1e400],
            "s": "quote \" backslash \\ line \n tab \t bell \u0007 é \ud83d\ude00",
            "o": {"n": null, "t": true, "f": false, "e": {}, "l": []}, "a": 2 } "#;
        let value = ok(text);
        let mut written = String::new();
        write(&value, &mut written);
        assert_eq!(ok(&written), value, "{written}");
        // Compact, in file order, the repeated key kept.
        assert!(written.starts_with(r#"{"a":[1,2.5,-0.125,"#), "{written}");
        assert!(written.ends_with(r#""l":[]},"a":2}"#), "{written}");
        assert!(written.contains(r#"\u0007 é 😀""#), "{written}");
    }

    fn member<'v>(value: &'v Value<'v>, key: &str) -> Option<&'v Value<'v>> {
        match value {
            Value::Object(members) => members.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    fn err(text: &str) -> JsonError {
        parse(text.as_bytes()).expect_err(text)
    }

    #[test]
    fn reads_every_kind_of_value() {
        let v = ok(r#" {"a": [1, -2.5e2, 0.125, true, false, null], "b": {"c": "d"}} "#);
        assert_eq!(
            member(&v, "a"),
            Some(&Value::Array(vec![
                Value::Number(1.0),
                Value::Number(-250.0),
                Value::Number(0.125),
                Value::Bool(true),
                Value::Bool(false),
                Value::Null,
            ]))
        );
        assert_eq!(
            member(&v, "b").and_then(|b| member(b, "c")),
            Some(&Value::String("d".into()))
        );
        assert_eq!(ok("[]"), Value::Array(Vec::new()));
        assert_eq!(ok("{}"), Value::Object(Vec::new()));
        assert_eq!(ok("1e400"), Value::Number(f64::INFINITY));
    }

    #[test]
    fn reads_escapes_and_surrogate_pairs() {
        assert_eq!(
            ok(r#""a\"b\\c\/d\n\t\u00e9\ud83d\ude00""#),
            Value::String("a\"b\\c/d\n\té😀".into())
        );
        assert_eq!(ok("\"é\""), Value::String("é".into()));
        assert!(err(r#""\ud83d""#).reason.contains("surrogate"));
        assert!(err(r#""\ude00""#).reason.contains("surrogate"));
        assert!(err(r#""\x""#).reason.contains("escape"));
        assert!(err("\"a\nb\"").reason.contains("control"));
        assert!(parse(b"\"\xff\"").is_err());
    }

    #[test]
    fn says_where_the_text_stops_being_json() {
        let e = err("{\"a\": 1,\n  , }");
        assert_eq!((e.line, e.column, e.ended), (2, 3, false));
        let e = err("{\"a\": [1, 2");
        assert!(e.ended);
        assert_eq!((e.line, e.column), (1, 12));
        for bad in [
            "01", "1.", "-", "1e", ".5", "+1", "tru", "nul", "[1,]", "{\"a\"}", "{1:2}",
        ] {
            assert!(parse(bad.as_bytes()).is_err(), "{bad}");
        }
        assert!(err("1 2").reason.contains("follows"));
    }

    #[test]
    fn takes_padding_after_the_value_and_a_bom_before_it() {
        assert_eq!(
            ok("\u{feff}[1]  \n"),
            Value::Array(vec![Value::Number(1.0)])
        );
        assert_eq!(
            parse(b"[1]  \0\0\0").expect("padded"),
            Value::Array(vec![Value::Number(1.0)])
        );
    }

    #[test]
    fn refuses_nesting_deeper_than_the_limit_without_recursing_into_it() {
        let at_limit = "[".repeat(MAX_DEPTH) + &"]".repeat(MAX_DEPTH);
        assert!(parse(at_limit.as_bytes()).is_ok());
        let deep = "[".repeat(100_000);
        assert!(err(&deep).reason.contains("deep"));
    }
}
