//! Inputs made broken on purpose, shared by the loader tests and the fuzz targets: a
//! seeded generator (a failure replays), GLB chunks taken apart and put back, and JSON
//! numbers swapped for troublesome ones.
#![allow(dead_code)]

/// A GLB of a JSON chunk and a BIN chunk, each padded to four bytes.
pub fn glb(json: &[u8], bin: &[u8]) -> Vec<u8> {
    let mut json = json.to_vec();
    while !json.len().is_multiple_of(4) {
        json.push(b' ');
    }
    let mut bin = bin.to_vec();
    while !bin.len().is_multiple_of(4) {
        bin.push(0);
    }
    let length = 12 + 8 + json.len() + 8 + bin.len();
    let mut out = b"glTF".to_vec();
    for word in [2, length as u32, json.len() as u32, 0x4E4F_534A] {
        out.extend(word.to_le_bytes());
    }
    out.extend(json);
    out.extend((bin.len() as u32).to_le_bytes());
    out.extend(0x004E_4942u32.to_le_bytes());
    out.extend(bin);
    out
}

/// The JSON and BIN chunks of a GLB this test trusts (a bundled model).
pub fn glb_chunks(file: &[u8]) -> (&[u8], &[u8]) {
    let word = |at: usize| {
        u32::from_le_bytes([file[at], file[at + 1], file[at + 2], file[at + 3]]) as usize
    };
    let json_len = word(12);
    let json = &file[20..20 + json_len];
    let bin_len = word(20 + json_len);
    (json, &file[28 + json_len..28 + json_len + bin_len])
}

/// `json` with one number, chosen by `rng`, replaced by a troublesome one.
pub fn mutate_number(json: &[u8], rng: &mut XorShift) -> Vec<u8> {
    const TROUBLE: [&str; 10] = [
        "0",
        "1",
        "-1",
        "3",
        "255",
        "65536",
        "4294967295",
        "18446744073709551615",
        "1e39",
        "0.5",
    ];
    const NUMBER: &[u8] = b"0123456789.-eE+";
    let starts: Vec<usize> = (0..json.len())
        .filter(|&i| json[i].is_ascii_digit() && (i == 0 || !NUMBER.contains(&json[i - 1])))
        .collect();
    let Some(&start) = starts.get(rng.below(starts.len().max(1))) else {
        return json.to_vec();
    };
    let end = (start..json.len())
        .find(|&i| !NUMBER.contains(&json[i]))
        .unwrap_or(json.len());
    let mut out = json[..start].to_vec();
    out.extend_from_slice(TROUBLE[rng.below(TROUBLE.len())].as_bytes());
    out.extend_from_slice(&json[end..]);
    out
}

/// A small deterministic generator, so a failing flip can be replayed.
pub struct XorShift(pub u64);

impl XorShift {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}
