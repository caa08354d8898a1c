//! The file around the glTF: a GLB's header and chunks, or a `.gltf` JSON text, and the
//! bytes of each buffer (the GLB's BIN chunk or a base64 data URI). Every length the
//! file claims is checked against the bytes it really has.

use super::document::Document;
use super::{ModelError, quoted};
use std::borrow::Cow;

const GLB_MAGIC: &[u8; 4] = b"glTF";
const CHUNK_JSON: u32 = 0x4E4F_534A;
const CHUNK_BIN: u32 = 0x004E_4942;
const HEADER: usize = 12;
const CHUNK_HEADER: usize = 8;

/// The JSON text and, for a GLB, its BIN chunk.
pub(super) struct Parts<'a> {
    pub json: &'a [u8],
    pub bin: Option<&'a [u8]>,
}

fn u32_at(bytes: &[u8], at: usize) -> Option<u32> {
    let word = bytes.get(at..at.checked_add(4)?)?;
    Some(u32::from_le_bytes([word[0], word[1], word[2], word[3]]))
}

/// Splits a file into its JSON and binary parts, or says why it is not glTF.
pub(super) fn split(bytes: &[u8]) -> Result<Parts<'_>, ModelError> {
    if bytes.is_empty() {
        return Err(ModelError::new("the file is empty"));
    }
    if bytes.starts_with(GLB_MAGIC) {
        return split_glb(bytes);
    }
    let text = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    match text.iter().find(|b| !b.is_ascii_whitespace()) {
        Some(b'{') => Ok(Parts {
            json: text,
            bin: None,
        }),
        _ => {
            let head: Vec<String> = bytes.iter().take(4).map(|b| format!("{b:02X}")).collect();
            Err(ModelError::new(format!(
                "this is not a glTF file: it starts with the bytes {}, neither 'glTF' (a GLB) \
                 nor '{{' (a .gltf JSON text)",
                head.join(" ")
            )))
        }
    }
}

fn split_glb(bytes: &[u8]) -> Result<Parts<'_>, ModelError> {
    let truncated = |what: String| ModelError::new(format!("the file is truncated: {what}"));
    let (Some(version), Some(length)) = (u32_at(bytes, 4), u32_at(bytes, 8)) else {
        return Err(truncated(format!(
            "a GLB starts with a {HEADER}-byte header, and this file has {} bytes",
            bytes.len()
        )));
    };
    if version != 2 {
        return Err(ModelError::new(format!(
            "this GLB is version {version}; only glTF 2.0 (GLB version 2) can be loaded"
        )));
    }
    let length = length as usize;
    if length > bytes.len() {
        return Err(truncated(format!(
            "its GLB header says {length} bytes, but it has {}",
            bytes.len()
        )));
    }
    let bytes = &bytes[..length];
    let chunk = |at: usize, name: &str| -> Result<Option<(u32, &[u8])>, ModelError> {
        if at >= bytes.len() {
            return Ok(None);
        }
        let (Some(len), Some(kind)) = (u32_at(bytes, at), u32_at(bytes, at + 4)) else {
            return Err(truncated(format!(
                "the {name} chunk's header at byte {at} is cut off"
            )));
        };
        let start = at + CHUNK_HEADER;
        let end = start
            .checked_add(len as usize)
            .filter(|&end| end <= bytes.len());
        match end {
            Some(end) => Ok(Some((kind, &bytes[start..end]))),
            None => Err(truncated(format!(
                "the {name} chunk claims {len} bytes, but only {} follow its header",
                bytes.len().saturating_sub(start)
            ))),
        }
    };
    let json = match chunk(HEADER, "first")? {
        Some((CHUNK_JSON, json)) => json,
        Some((kind, _)) => {
            return Err(ModelError::new(format!(
                "the GLB's first chunk must be JSON, but its type is 0x{kind:08X}"
            )));
        }
        None => return Err(truncated("the GLB has a header but no JSON chunk".into())),
    };
    if json.iter().all(u8::is_ascii_whitespace) {
        return Err(ModelError::new(
            "the GLB's JSON chunk is empty: it holds no glTF description",
        ));
    }
    let after_json = HEADER + CHUNK_HEADER + json.len();
    let bin = match chunk(after_json, "second")? {
        Some((CHUNK_BIN, bin)) => Some(bin),
        // Chunks of other types may follow, and are skipped; a BIN chunk among them is
        // in the wrong place.
        Some((_, other)) => {
            let mut at = after_json + CHUNK_HEADER + other.len();
            let mut number = 3;
            while let Some((kind, data)) = chunk(at, "next")? {
                if kind == CHUNK_BIN {
                    return Err(ModelError::new(format!(
                        "the GLB's BIN chunk must come right after its JSON chunk, but it is \
                         chunk {number}"
                    )));
                }
                at += CHUNK_HEADER + data.len();
                number += 1;
            }
            None
        }
        None => None,
    };
    Ok(Parts { json, bin })
}

/// A GLB of the JSON text `json` and the binary `bin` (no BIN chunk when it is empty):
/// the 12-byte header, then each chunk padded to 4 bytes, the JSON with spaces and the
/// BIN with zeros, as the format asks. `None` past the 4 GiB a GLB's lengths can say.
pub fn glb(json: &[u8], bin: &[u8]) -> Option<Vec<u8>> {
    let chunk = |data: &[u8], kind: u32, pad: u8| -> Option<Vec<u8>> {
        let padded = data.len().next_multiple_of(4);
        let mut out = Vec::with_capacity(CHUNK_HEADER + padded);
        out.extend(u32::try_from(padded).ok()?.to_le_bytes());
        out.extend(kind.to_le_bytes());
        out.extend(data);
        out.resize(CHUNK_HEADER + padded, pad);
        Some(out)
    };
    let mut chunks = chunk(json, CHUNK_JSON, b' ')?;
    if !bin.is_empty() {
        chunks.extend(chunk(bin, CHUNK_BIN, 0)?);
    }
    let length = u32::try_from(HEADER + chunks.len()).ok()?;
    let mut out = Vec::with_capacity(HEADER + chunks.len());
    out.extend(GLB_MAGIC);
    out.extend(2u32.to_le_bytes());
    out.extend(length.to_le_bytes());
    out.extend(chunks);
    Some(out)
}

/// The bytes of every buffer, each at least as long as the buffer says (and cut to it).
/// A buffer whose bytes cannot be had (no BIN chunk for it, a file beside it missing)
/// keeps the reason, given when an accessor reads it: a buffer nothing reads does not
/// refuse the file.
pub(super) fn buffers<'a>(
    document: &Document,
    bin: Option<&'a [u8]>,
    beside: &Beside<'_>,
) -> Result<Buffers<'a>, ModelError> {
    let mut out = Vec::new();
    for (index, buffer) in document.buffers.iter().enumerate() {
        let data: Result<Cow<'a, [u8]>, String> = match &buffer.uri {
            None => match bin {
                Some(bin) if index == 0 => Ok(Cow::Borrowed(bin)),
                _ => Err(format!(
                    "buffer {index} has no uri, so its data must be the GLB's BIN chunk, but {}",
                    if index == 0 {
                        "the file has no BIN chunk"
                    } else {
                        "only buffer 0 can use it"
                    }
                )),
            },
            Some(uri) => {
                uri_bytes(&format!("buffer {index}"), uri, buffer.length, beside).map(Cow::Owned)
            }
        };
        let claimed = buffer.length;
        if let Ok(data) = &data
            && data.len() < claimed
        {
            return Err(ModelError::new(format!(
                "the file is truncated: buffer {index} should hold {claimed} bytes, but has {}",
                data.len()
            )));
        }
        out.push(data.map(|data| match data {
            Cow::Borrowed(b) => Cow::Borrowed(&b[..claimed]),
            Cow::Owned(mut v) => {
                v.truncate(claimed);
                Cow::Owned(v)
            }
        }));
    }
    Ok(Buffers::new(out))
}

/// The bytes a URI of the file names: a data URI's, or at most `at_most` of a file's
/// beside it (`what` names the element for messages).
fn uri_bytes(
    what: &str,
    uri: &str,
    at_most: usize,
    beside: &Beside<'_>,
) -> Result<Vec<u8>, String> {
    if uri.starts_with("data:") {
        return data_uri(what, uri).map_err(|e| e.to_string());
    }
    let name = percent_decoded(uri);
    let outside = name.starts_with('/')
        || name.contains("://")
        || name.split(['/', '\\']).any(|part| part == "..");
    if outside {
        return Err(format!(
            "{what} refers to {}, outside the file's folder; only files beside it (or in \
             folders below it) are read",
            quoted(uri)
        ));
    }
    let mut bytes = beside(&name, at_most).map_err(|why| {
        format!(
            "{what} is the file {} beside it, which could not be read: {why}",
            quoted(&name)
        )
    })?;
    // Never more than asked for, whoever read it.
    bytes.truncate(at_most);
    Ok(bytes)
}

/// The encoded bytes of every image, or why each could not be had (never a refusal:
/// a model whose image is missing is drawn without it).
pub(super) fn images(
    document: &Document,
    buffers: &Buffers,
    beside: &Beside<'_>,
) -> Vec<crate::Image> {
    use super::document::ImageSource;
    document
        .images
        .iter()
        .enumerate()
        .map(|(index, image)| {
            let what = format!("image {index}");
            let bytes = match &image.source {
                Err(why) => Err(why.clone()),
                Ok(ImageSource::Uri(uri)) => {
                    // One byte past the most an image may be, to tell a larger file.
                    uri_bytes(&what, uri, MAX_IMAGE_BYTES + 1, beside).and_then(|bytes| {
                        if bytes.len() > MAX_IMAGE_BYTES {
                            Err(format!(
                                "{what} is the file {} beside it, larger than {} MiB, the most \
                                 an image may be",
                                quoted(&percent_decoded(uri)),
                                MAX_IMAGE_BYTES >> 20
                            ))
                        } else {
                            Ok(bytes)
                        }
                    })
                }
                Ok(ImageSource::View(view)) => super::accessor::view_bytes(buffers, view, &what)
                    .map(<[u8]>::to_vec)
                    .map_err(|e| e.to_string()),
            };
            crate::Image {
                name: image.name.clone().unwrap_or(what),
                mime: image.mime.clone(),
                bytes,
            }
        })
        .collect()
}

/// Reads a file named by a relative URI (a `.gltf`'s `.bin`, an image), given the URI
/// decoded (`%20` as a space) and the most bytes wanted (a buffer's `byteLength`; one
/// past [`MAX_IMAGE_BYTES`] for an image): the bytes, at most that many, or why it could
/// not. The loader never asks for a name outside the file's folder by its text
/// (`..`, `/`, a scheme); a reader of a real folder refuses what links lead outside it.
pub type Beside<'a> = dyn Fn(&str, usize) -> Result<Vec<u8>, String> + 'a;

/// The most bytes of one file the app opens (a GLB, a `.gltf`, a `.bin`): 512 MiB, more
/// than [`MAX_DECODED`] numbers stored as floats.
pub const MAX_FILE_BYTES: usize = 512 << 20;

/// The most bytes of one encoded image a file may name beside it: 64 MiB (an 8192 ×
/// 8192 PNG of photographs is about 100 MB; of a character's textures, far less).
pub const MAX_IMAGE_BYTES: usize = 64 << 20;

/// The most numbers the accessors of one file may decode to, all reads together: 2^26,
/// 256 MB of floats, several times what a character of a million vertices needs. An
/// accessor read by many meshes counts once for each read, so a small file that names
/// one large accessor from many meshes is refused instead of exhausting memory.
pub const MAX_DECODED: usize = 1 << 26;

/// The most vertices the meshes the nodes place may have in all: 2^22, four times a
/// character of a million vertices. The app keeps about 200 bytes for each (positions,
/// normals, influences, the framing, the GPU's copy), so this holds a file of a few
/// kilobytes that names a large accessor of zeros to about a gigabyte.
pub const MAX_VERTICES: usize = 1 << 22;

/// The most nodes a file may have: 2^18 (a character has hundreds; a city scene tens of
/// thousands). Every node is a row of the joint tree and a matrix a frame, and each
/// costs the page about a kilobyte; at this many it opens within about 2 s and 300 MB
/// (docs/measurements.md).
pub const MAX_NODES: usize = 1 << 18;

/// The most morph targets one mesh primitive may have: 64 (a face rig has tens; glTF
/// viewers commonly blend eight at a time). Each target is up to three offsets for every
/// vertex, and the shader reads every target's weight at every vertex.
pub const MAX_MORPH_TARGETS: usize = 64;

/// The most morph offsets (vertices × targets) one primitive may have: 2^20, what the
/// shader's offset texture holds on the smallest texture any WebGL2 GPU must offer
/// (2048 × 2048 texels, two a vertex and target), with room to spare.
pub const MAX_MORPH_OFFSETS: usize = 1 << 20;

/// The most mesh primitives the nodes may place, all together: 2^12 (a character has
/// tens). Each is a draw of
/// its own every frame, with its own buffers on the GPU.
pub const MAX_MESH_PARTS: usize = 1 << 12;

/// Every buffer's bytes, and how many numbers the load has decoded from them so far.
pub(super) struct Buffers<'a> {
    data: Vec<Result<Cow<'a, [u8]>, String>>,
    decoded: std::cell::Cell<usize>,
}

impl<'a> Buffers<'a> {
    pub(super) fn new(data: Vec<Result<Cow<'a, [u8]>, String>>) -> Self {
        Self {
            data,
            decoded: std::cell::Cell::new(0),
        }
    }

    /// The bytes of buffer `index` (empty when there is no such buffer), or why they
    /// could not be had.
    pub(super) fn bytes(&self, index: usize) -> Result<&[u8], &str> {
        match self.data.get(index) {
            Some(Ok(bytes)) => Ok(bytes),
            Some(Err(why)) => Err(why),
            None => Ok(&[]),
        }
    }

    /// Counts `numbers` more decoded numbers against [`MAX_DECODED`]; refuses the read
    /// that would pass it, naming `what`.
    pub(super) fn spend(&self, numbers: usize, what: &str) -> Result<(), ModelError> {
        let total = self.decoded.get().saturating_add(numbers);
        if total > MAX_DECODED {
            return Err(ModelError::new(format!(
                "{what}: the file's accessors decode to more than {MAX_DECODED} numbers in \
                 all (an accessor read by several meshes counts once for each), more than \
                 this loader reads"
            )));
        }
        self.decoded.set(total);
        Ok(())
    }
}

/// A relative URI as a file name: `%20` and every other `%XX` decoded (glTF writes
/// URIs, so a space in a file name is stored as `%20`). A `%` not followed by two hex
/// digits stays as it is.
fn percent_decoded(uri: &str) -> String {
    percent_encoding::percent_decode_str(uri)
        .decode_utf8_lossy()
        .into_owned()
}

/// Decodes `data:[<media type>];base64,<data>` (`what` names the element).
fn data_uri(what: &str, uri: &str) -> Result<Vec<u8>, ModelError> {
    let rest = uri.strip_prefix("data:").unwrap_or(uri);
    let Some((header, payload)) = rest.split_once(',') else {
        return Err(ModelError::new(format!(
            "{what}: its data URI has no ',' before the data"
        )));
    };
    if !header.ends_with(";base64") {
        return Err(ModelError::new(format!(
            "{what}: its data URI is not base64 (it starts {})",
            quoted(&format!("data:{header},"))
        )));
    }
    base64::decode(payload.as_bytes()).map_err(|at| {
        ModelError::new(format!(
            "{what}: its data URI has a character that is not base64 at position {at}"
        ))
    })
}

#[cfg(test)]
mod tests {

    #[test]
    fn reads_past_the_budget_are_refused_in_all_not_one_by_one() {
        let buffers = Buffers::new(Vec::new());
        assert!(buffers.spend(MAX_DECODED / 2, "first").is_ok());
        assert!(buffers.spend(MAX_DECODED / 2, "second").is_ok());
        let err = buffers.spend(1, "third").expect_err("past the budget");
        assert!(
            err.to_string().starts_with("third: the file's accessors"),
            "{err}"
        );
        // A refused read spends nothing: a smaller one still fits where it did.
        assert!(buffers.spend(0, "fourth").is_ok());
    }

    use super::*;

    #[test]
    fn glb_lengths_are_checked() {
        let mut glb = b"glTF".to_vec();
        glb.extend(2u32.to_le_bytes());
        glb.extend(40u32.to_le_bytes());
        let e = split(&glb).err().unwrap();
        assert!(
            e.message().contains("header says 40 bytes, but it has 12"),
            "{e}"
        );
        assert!(split(b"glTF\x02\0").is_err());
        assert!(
            split(b"\x89PNG")
                .err()
                .unwrap()
                .message()
                .contains("89 50 4E 47")
        );
        assert!(split(b" \n{}").is_ok());
    }
}
