//! Base64, as links and data URIs need it: [`encode_url`] writes the URL-safe alphabet
//! without padding (a link can carry it as it is), and [`decode`] reads either alphabet,
//! padded or not.

/// `bytes` in URL-safe base64 (`-` and `_`), without padding.
pub fn encode_url(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let mut block = [0u8; 4];
        block[1..=chunk.len()].copy_from_slice(chunk);
        let bits = u32::from_be_bytes(block);
        for i in 0..=chunk.len() {
            out.push(char::from(ALPHABET[(bits >> (18 - 6 * i) & 63) as usize]));
        }
    }
    out
}

fn sextet(c: u8) -> Option<u32> {
    Some(u32::from(match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' | b'-' => 62,
        b'/' | b'_' => 63,
        _ => return None,
    }))
}

/// Standard (or URL-safe) base64 with optional padding; the error is the position of
/// the first bad character. The output is never longer than the input, so a data URI
/// cannot make us allocate more than the file's own size.
pub fn decode(text: &[u8]) -> Result<Vec<u8>, usize> {
    let data_end = text
        .iter()
        .rposition(|&c| c != b'=')
        .map_or(0, |last| last + 1);
    if text.len() - data_end > 2 {
        return Err(data_end + 2);
    }
    let data = &text[..data_end];
    if data.len() % 4 == 1 {
        // One leftover character holds only six bits: not even one byte.
        return Err(data.len() - 1);
    }
    let mut out = Vec::with_capacity(data.len() / 4 * 3 + 2);
    for (block, chunk) in data.chunks(4).enumerate() {
        let mut bits = 0u32;
        for (i, &c) in chunk.iter().enumerate() {
            bits |= sextet(c).ok_or(block * 4 + i)? << (18 - 6 * i);
        }
        let bytes = bits.to_be_bytes();
        out.extend_from_slice(&bytes[1..chunk.len()]);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_round_trips_with_and_without_padding() {
        assert_eq!(decode(b"TWFu").unwrap(), b"Man");
        assert_eq!(decode(b"TWE=").unwrap(), b"Ma");
        assert_eq!(decode(b"TWE").unwrap(), b"Ma");
        assert_eq!(decode(b"TQ==").unwrap(), b"M");
        assert_eq!(decode(b"").unwrap(), b"");
        assert_eq!(decode(b"AACAPw==").unwrap(), 1.0f32.to_le_bytes());
        assert_eq!(decode(b"TW!u"), Err(2));
        assert_eq!(decode(b"TWFuT"), Err(4));
        assert_eq!(decode(b"T==="), Err(3));
    }

    #[test]
    fn what_is_encoded_decodes_to_the_same_bytes() {
        assert_eq!(encode_url(b"Man"), "TWFu");
        assert_eq!(encode_url(b"Ma"), "TWE");
        assert_eq!(encode_url(b""), "");
        let bytes: Vec<u8> = (0..=255).chain([251, 255, 0]).collect();
        let text = encode_url(&bytes);
        assert!(!text.contains(['+', '/', '=']), "{text}");
        assert_eq!(decode(text.as_bytes()).unwrap(), bytes);
    }
}
