//! Reading a file the student brings, and the files beside it, from this machine's
//! disk: only regular files, never more than is wanted, and beside a model only what
//! lies in its folder once links are followed.
//!
//! A named pipe (FIFO) waits for a writer for ever when opened, and a device such as
//! `/dev/zero` never ends: each is refused by name before it is opened. A file is read
//! no further than what is wanted (a buffer's `byteLength`, an image's budget, the
//! loader's [`gltf::MAX_FILE_BYTES`]), so a large or sparse file costs no more than what
//! it claims.

use std::io::Read as _;
use std::path::Path;

/// Reads at most `at_most` bytes of the regular file at `path`, or says why not.
pub fn read_at_most(path: &Path, at_most: usize) -> Result<Vec<u8>, String> {
    let (file, _) = open_regular(path)?;
    read_from(file, at_most)
}

/// Reads the file a student opens (by `--open`, the file dialog or a drop), refusing
/// one larger than [`gltf::MAX_FILE_BYTES`] before reading any of it.
pub fn read_brought(path: &Path) -> Result<Vec<u8>, String> {
    let (file, size) = open_regular(path)?;
    if size > gltf::MAX_FILE_BYTES as u64 {
        return Err(too_large(size));
    }
    read_from(file, gltf::MAX_FILE_BYTES)
}

/// The regular file at `path`, opened, and its size; anything else refused by name
/// before it is opened.
fn open_regular(path: &Path) -> Result<(std::fs::File, u64), String> {
    let about = std::fs::metadata(path).map_err(|e| e.to_string())?;
    if !about.file_type().is_file() {
        return Err(format!(
            "it is {}, not a file",
            not_a_file(about.file_type())
        ));
    }
    let file = std::fs::File::open(path).map_err(|e| e.to_string())?;
    Ok((file, about.len()))
}

/// At most `at_most` bytes of `file`, from its start.
fn read_from(file: std::fs::File, at_most: usize) -> Result<Vec<u8>, String> {
    let mut bytes = Vec::new();
    file.take(at_most as u64)
        .read_to_end(&mut bytes)
        .map_err(|e| e.to_string())?;
    Ok(bytes)
}

/// Why a file of `size` bytes, more than [`gltf::MAX_FILE_BYTES`], is not opened.
pub fn too_large(size: u64) -> String {
    format!(
        "it is {} MiB; skinlab opens files of {} MiB at most",
        size >> 20,
        gltf::MAX_FILE_BYTES >> 20
    )
}

/// Reads at most `at_most` bytes of the file `name` beside a model in `folder`
/// ([`gltf::Beside`]): refused unless, once every link on the way is followed, it lies
/// inside that folder.
pub fn read_beside(folder: &Path, name: &str, at_most: usize) -> Result<Vec<u8>, String> {
    let folder = if folder.as_os_str().is_empty() {
        Path::new(".")
    } else {
        folder
    };
    let inside = folder.canonicalize().map_err(|e| e.to_string())?;
    let real = folder
        .join(name)
        .canonicalize()
        .map_err(|e| e.to_string())?;
    if !real.starts_with(&inside) {
        return Err(
            "it is a link that leads outside the model's folder, where nothing is read".to_owned(),
        );
    }
    read_at_most(&real, at_most)
}

/// `skinlab --repair`: the model at `input` (with the files beside it, read as
/// [`read_beside`] reads them) repaired by `fixes` ([`gltf::repair`]) and written to
/// `output` as one GLB: a line for each change made. `output` is written whole or not
/// at all (a file beside it, renamed), and never over `input`.
pub fn repair(
    input: &Path,
    output: &Path,
    fixes: &[gltf::Fix],
) -> Result<Vec<gltf::Change>, String> {
    let same = |a: &Path, b: &Path| match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    };
    if same(input, output) {
        return Err(format!(
            "`{}` is the file read: write the repaired model to another name",
            output.display()
        ));
    }
    let bytes = read_brought(input).map_err(|e| format!("`{}`: {e}", input.display()))?;
    let folder = input.parent().unwrap_or(Path::new("."));
    let beside = |name: &str, at_most: usize| read_beside(folder, name, at_most);
    let repaired =
        gltf::repair(&bytes, &beside, fixes).map_err(|e| format!("`{}`: {e}", input.display()))?;
    write_whole(output, &repaired.glb)?;
    Ok(repaired.changes)
}

/// Writes `bytes` to `path` whole or not at all: into a file beside it, then renamed
/// over it. A write that fails (a full disk, no permission) leaves no partial file and
/// says why.
pub fn write_whole(path: &Path, bytes: &[u8]) -> Result<(), String> {
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    let part = path.with_file_name(format!(".{name}.part"));
    let written = std::fs::write(&part, bytes).and_then(|()| std::fs::rename(&part, path));
    written.map_err(|e| {
        let _ = std::fs::remove_file(&part);
        format!("`{}` could not be written: {e}", path.display())
    })
}

/// What a file that is not a regular file is, in a few words.
fn not_a_file(kind: std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt as _;
        if kind.is_fifo() {
            return "a named pipe (FIFO)";
        }
        if kind.is_char_device() || kind.is_block_device() {
            return "a device";
        }
        if kind.is_socket() {
            return "a socket";
        }
    }
    if kind.is_dir() {
        "a folder"
    } else {
        "something other than a regular file"
    }
}
