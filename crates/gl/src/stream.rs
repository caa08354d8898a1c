//! Streaming vertices the CPU writes every frame: one buffer per mesh, allocated once at
//! its full size, and refilled in place. This is how an engine that skins on the CPU
//! sends its vertices: only the attributes the CPU changed, each as one tightly packed
//! run, laid out as the shader reads them.
//!
//! Four ways to hand the bytes over, all in GL 3.1 and GLES 3.0:
//! - [`Upload::SubData`]: `glBufferSubData` each run into the storage the buffer has.
//! - [`Upload::Orphan`]: first orphan the storage (`glBufferData` with no data, so the
//!   driver need not wait for a draw still reading the old contents), then the same.
//! - [`Upload::MapRange`]: `glMapBufferRange` with `MAP_INVALIDATE_BUFFER_BIT` (the same
//!   orphaning), copy each run into the mapped memory (a big copy on several threads),
//!   unmap. WebGL2 cannot map.
//! - [`Upload::Staged`]: the same into a second buffer, then `glCopyBufferSubData`
//!   from it into the buffer the draw reads, so the GPU copies the bytes into its own
//!   memory and the draw never reads them across the bus.

use glow::HasContext as _;

/// How a [`StreamBuffer`] hands its bytes to GL.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Upload {
    /// `glBufferSubData` into the storage the buffer has.
    SubData,
    /// Orphan, then `glBufferSubData`.
    Orphan,
    /// `glMapBufferRange` (invalidating), copy, unmap. Not on WebGL2.
    MapRange,
    /// [`Upload::MapRange`] into a staging buffer, then a GPU copy into the buffer the
    /// draw reads. Not on WebGL2.
    Staged,
}

impl Upload {
    /// The methods this build offers, the default first.
    ///
    /// Staging comes first on the desktop. On an NVIDIA H100, a buffer written through
    /// a mapping every frame stays in host memory, and the draw then reads it across
    /// the bus: a million CPU-skinned vertices took 22 ms a frame mapped, 13 ms by
    /// `glBufferSubData` and 11 ms staged, though mapping alone is the fastest copy
    /// (docs/measurements.md, "CPU against GPU skinning").
    pub const OFFERED: &'static [Upload] = if cfg!(target_arch = "wasm32") {
        // WebGL2 cannot map a buffer.
        &[Upload::SubData, Upload::Orphan]
    } else {
        &[
            Upload::Staged,
            Upload::MapRange,
            Upload::SubData,
            Upload::Orphan,
        ]
    };

    /// The method the app streams with: the first offered, unless the environment
    /// variable `SKINLAB_UPLOAD` names another (`mapped`, `subdata`, `orphan`,
    /// `staged`), for comparing them on one machine (`scripts/gpu-check`).
    pub fn chosen() -> Upload {
        #[cfg(not(target_arch = "wasm32"))]
        {
            static CHOSEN: std::sync::OnceLock<Upload> = std::sync::OnceLock::new();
            *CHOSEN.get_or_init(|| {
                let named = std::env::var("SKINLAB_UPLOAD").unwrap_or_default();
                let found = Self::OFFERED.iter().find(|u| u.slug() == named);
                found.copied().unwrap_or(Self::OFFERED[0])
            })
        }
        #[cfg(target_arch = "wasm32")]
        Self::OFFERED[0]
    }

    /// Its short name, as `SKINLAB_UPLOAD` writes it.
    pub fn slug(self) -> &'static str {
        self.phase().trim_start_matches("upload_")
    }

    /// Its row in the benchmark when the app does not use it (the app's own is
    /// `upload`): `upload_` and its [`Upload::slug`].
    pub fn phase(self) -> &'static str {
        match self {
            Self::SubData => "upload_subdata",
            Self::Orphan => "upload_orphan",
            Self::MapRange => "upload_mapped",
            Self::Staged => "upload_staged",
        }
    }

    /// The name the benchmark and the gpu page print.
    pub fn name(self) -> &'static str {
        match self {
            Self::SubData => "glBufferSubData",
            Self::Orphan => "orphan + glBufferSubData",
            Self::MapRange => "glMapBufferRange + copy",
            Self::Staged => "glMapBufferRange + copy into staging, glCopyBufferSubData",
        }
    }
}

/// Copies `runs` one after another into `into` (as long as they are together). A big
/// copy is shared between threads, as an engine's skinning job would write its own
/// part of the mapped buffer: one thread cannot fill the bus.
pub(super) fn copy_runs(into: &mut [u8], runs: &[&[u8]]) {
    /// Pieces each thread copies whole.
    const PIECE: usize = 1 << 20;
    let mut pieces: Vec<(&mut [u8], &[u8])> = Vec::new();
    let mut rest = into;
    for run in runs {
        let (head, tail) = std::mem::take(&mut rest).split_at_mut(run.len());
        rest = tail;
        pieces.extend(head.chunks_mut(PIECE).zip(run.chunks(PIECE)));
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        let threads = std::thread::available_parallelism()
            .map_or(1, |n| n.get())
            .min(pieces.len() / 4);
        if threads > 1 {
            let per_thread = pieces.len().div_ceil(threads);
            std::thread::scope(|scope| {
                let mut pieces = pieces;
                while !pieces.is_empty() {
                    let mine: Vec<_> = pieces.drain(..per_thread.min(pieces.len())).collect();
                    scope.spawn(move || {
                        for (to, from) in mine {
                            to.copy_from_slice(from);
                        }
                    });
                }
            });
            return;
        }
    }
    for (to, from) in pieces {
        to.copy_from_slice(from);
    }
}

#[cfg(not(target_arch = "wasm32"))]
/// Has `fill` write all `bytes` of the buffer bound to `target` in place, through
/// `glMapBufferRange` (invalidating: the old contents are not kept). The buffer must
/// hold `bytes` already. Not on WebGL2, which cannot map.
///
/// # Safety
/// The buffer bound to `target` belongs to `gl` and holds at least `bytes`.
unsafe fn map_write(
    gl: &glow::Context,
    target: u32,
    bytes: usize,
    fill: impl FnOnce(&mut [u8]) -> Result<(), String>,
) -> Result<(), String> {
    if bytes == 0 {
        return Ok(());
    }
    let length =
        i32::try_from(bytes).map_err(|_| format!("{bytes} bytes do not fit one buffer"))?;
    // SAFETY: the caller's contract: the bound buffer holds `bytes`; the mapping is
    // `bytes` long and writable until unmapped, and nothing else touches it meanwhile.
    unsafe {
        let mapped = gl.map_buffer_range(
            target,
            0,
            length,
            glow::MAP_WRITE_BIT | glow::MAP_INVALIDATE_BUFFER_BIT,
        );
        if mapped.is_null() {
            return Err("glMapBufferRange gave no memory".to_owned());
        }
        let filled = fill(std::slice::from_raw_parts_mut(mapped, bytes));
        gl.unmap_buffer(target);
        filled
    }
}

#[cfg(not(target_arch = "wasm32"))]
/// Has `fill` write `bytes` into `staging` through a mapping, then has the GPU copy
/// them into the buffer bound to `target`, from its byte `at`.
///
/// # Safety
/// `staging` holds at least `bytes` and the buffer bound to `target` at least
/// `at + bytes`; both belong to `gl`.
unsafe fn stage(
    gl: &glow::Context,
    staging: glow::Buffer,
    target: u32,
    at: usize,
    bytes: usize,
    fill: impl FnOnce(&mut [u8]) -> Result<(), String>,
) -> Result<(), String> {
    // SAFETY: the caller's contract; the copy stays inside both buffers.
    unsafe {
        gl.bind_buffer(glow::COPY_READ_BUFFER, Some(staging));
        let written = map_write(gl, glow::COPY_READ_BUFFER, bytes, fill);
        if written.is_ok() && bytes > 0 {
            gl.copy_buffer_sub_data(glow::COPY_READ_BUFFER, target, 0, at as i32, bytes as i32);
        }
        gl.bind_buffer(glow::COPY_READ_BUFFER, None);
        written
    }
}

/// Bytes of a static upload staged at a time. On an NVIDIA H100, a million vertices
/// (48 MB) and their indices (24 MB) went in 19 to 20 ms in pieces of 4 MiB, 23 in
/// pieces of 2, 19 to 22 in pieces of 8, 26 in pieces of 16 and 35 to 38 in pieces of
/// 32; through a new staging buffer the size of each, 36 to 51 ms
/// (docs/measurements.md).
const STAGING_PIECE: usize = 4 << 20;

/// Where static uploads (a mesh's vertices and indices) wait on their way to the GPU:
/// one buffer, kept from one upload to the next, that each upload goes through a piece
/// at a time. A new staging buffer the size of each upload cost more than the copy
/// itself: on an NVIDIA H100, the first mapping of 48 MB of new staging memory took 14
/// to 20 ms, laying a million vertices out in it 2.5 ms, and the GPU's copy 5 ms.
/// Each piece maps the buffer with `MAP_INVALIDATE_BUFFER_BIT`: the driver need not
/// wait for the GPU's copy of the piece before, and may hand over other storage while
/// it runs.
pub struct Staging {
    #[cfg(not(target_arch = "wasm32"))]
    buffer: Option<glow::Buffer>,
    /// The staging buffer's size, and so the most bytes staged at a time.
    #[cfg(not(target_arch = "wasm32"))]
    piece: usize,
}

impl Default for Staging {
    fn default() -> Self {
        Self::new(STAGING_PIECE)
    }
}

impl Staging {
    /// Staging of `piece` bytes at a time (the buffer is made at the first upload).
    pub fn new(piece: usize) -> Self {
        #[cfg(target_arch = "wasm32")]
        let _ = piece;
        Self {
            #[cfg(not(target_arch = "wasm32"))]
            buffer: None,
            #[cfg(not(target_arch = "wasm32"))]
            piece,
        }
    }

    /// Gives the buffer bound to `target` storage of `bytes`, to be drawn from until it
    /// is deleted, and has `fill(at, out)` write its bytes `at..at + out.len()`, in
    /// pieces of whole records of `record` bytes (a vertex, an index). On the desktop,
    /// `fill` writes straight into the mapped staging buffer (no copy in host memory
    /// first) and the GPU copies each piece into the buffer's own memory. On the web,
    /// which cannot map, `fill` writes the whole into host memory and `glBufferData`
    /// copies it.
    ///
    /// # Safety
    /// A buffer of `gl` is bound to `target`.
    pub(super) unsafe fn fill(
        &mut self,
        gl: &glow::Context,
        target: u32,
        bytes: usize,
        record: usize,
        fill: impl Fn(usize, &mut [u8]) -> Result<(), String>,
    ) -> Result<(), String> {
        let size =
            i32::try_from(bytes).map_err(|_| format!("{bytes} bytes do not fit one buffer"))?;
        let in_host_memory = || {
            let mut data = vec![0u8; bytes];
            fill(0, &mut data).map(|()| data)
        };
        // SAFETY: the caller's contract.
        #[cfg(target_arch = "wasm32")]
        unsafe {
            let _ = (size, record);
            gl.buffer_data_u8_slice(target, &in_host_memory()?, glow::STATIC_DRAW);
            Ok(())
        }
        // SAFETY: the caller's contract; the staging buffer is this context's, and each
        // piece stays inside it and inside the buffer being filled.
        #[cfg(not(target_arch = "wasm32"))]
        unsafe {
            gl.buffer_data_size(target, size, glow::STATIC_DRAW);
            let piece = self.piece / record.max(1) * record.max(1);
            if bytes == 0 {
                return Ok(());
            }
            let staging = match (self.buffer, piece) {
                // A record bigger than the staging buffer: the plain way.
                (_, 0) => None,
                (Some(buffer), _) => Some(buffer),
                (None, _) => {
                    let size = i32::try_from(self.piece).unwrap_or(i32::MAX);
                    let made = sized_buffer(gl, glow::COPY_READ_BUFFER, size, glow::STREAM_DRAW);
                    made.ok().map(|buffer| *self.buffer.insert(buffer))
                }
            };
            if let Some(staging) = staging {
                let mut at = 0;
                let mut refused = None;
                while at < bytes {
                    let len = piece.min(bytes - at);
                    let written = stage(gl, staging, target, at, len, |out| {
                        fill(at, out).map_err(|why| refused.insert(why).clone())
                    });
                    if written.is_err() {
                        break;
                    }
                    at += len;
                }
                if let Some(why) = refused {
                    return Err(why);
                }
                if at >= bytes {
                    return Ok(());
                }
            }
            // No staging or no mapping to be had: the plain way, which always works.
            gl.buffer_sub_data_u8_slice(target, 0, &in_host_memory()?);
            Ok(())
        }
    }

    /// Frees the staging buffer.
    pub fn destroy(self, gl: &glow::Context) {
        // SAFETY: the objects were made by `fill` on this context.
        #[cfg(not(target_arch = "wasm32"))]
        unsafe {
            if let Some(buffer) = self.buffer {
                gl.delete_buffer(buffer);
            }
        }
        #[cfg(target_arch = "wasm32")]
        let _ = gl;
    }
}

/// A new buffer with `size` bytes of storage for `usage`, sized through `binding`, which
/// is left empty.
///
/// # Safety
/// Nothing the caller relies on is bound to `binding`.
unsafe fn sized_buffer(
    gl: &glow::Context,
    binding: u32,
    size: i32,
    usage: u32,
) -> Result<glow::Buffer, String> {
    // SAFETY: the buffer is made here; the binding is emptied again, as the caller allows.
    unsafe {
        let buffer = gl.create_buffer()?;
        gl.bind_buffer(binding, Some(buffer));
        gl.buffer_data_size(binding, size, usage);
        gl.bind_buffer(binding, None);
        Ok(buffer)
    }
}

/// A vertex buffer of a fixed size, refilled in place.
pub struct StreamBuffer {
    buffer: glow::Buffer,
    /// Where [`Upload::Staged`] writes first.
    staging: Option<glow::Buffer>,
    bytes: usize,
    upload: Upload,
}

impl StreamBuffer {
    /// A buffer of `bytes`, allocated now (so the first frame does not pay for it).
    pub fn new(gl: &glow::Context, bytes: usize, upload: Upload) -> Result<Self, String> {
        let size = i32::try_from(bytes)
            .map_err(|_| format!("{bytes} bytes do not fit one vertex buffer"))?;
        // SAFETY: the buffer is created and sized here; the binding is restored.
        unsafe {
            // A staged buffer is written by the GPU alone.
            let usage = match upload {
                Upload::Staged => glow::STREAM_COPY,
                _ => glow::STREAM_DRAW,
            };
            let buffer = sized_buffer(gl, glow::ARRAY_BUFFER, size, usage)?;
            let staging = match upload {
                Upload::Staged => {
                    match sized_buffer(gl, glow::ARRAY_BUFFER, size, glow::STREAM_DRAW) {
                        Ok(staging) => Some(staging),
                        Err(e) => {
                            gl.delete_buffer(buffer);
                            return Err(e);
                        }
                    }
                }
                _ => None,
            };
            Ok(Self {
                buffer,
                staging,
                bytes,
                upload,
            })
        }
    }

    /// The buffer, to point vertex attributes at.
    pub fn buffer(&self) -> glow::Buffer {
        self.buffer
    }

    /// Writes `runs` one after another from the start of the buffer. Their total must
    /// be the buffer's size: a stream always replaces all it holds.
    pub fn write(&self, gl: &glow::Context, runs: &[&[u8]]) -> Result<(), String> {
        let total: usize = runs.iter().map(|r| r.len()).sum();
        if total != self.bytes {
            return Err(format!(
                "{total} bytes streamed into a buffer of {}",
                self.bytes
            ));
        }
        // SAFETY: the buffer belongs to this context and holds `self.bytes`, which
        // `total` equals, so every write below stays inside it; the binding is restored.
        unsafe {
            gl.bind_buffer(glow::ARRAY_BUFFER, Some(self.buffer));
            let result = match self.upload {
                Upload::SubData | Upload::Orphan => {
                    if self.upload == Upload::Orphan {
                        gl.buffer_data_size(
                            glow::ARRAY_BUFFER,
                            self.bytes as i32,
                            glow::STREAM_DRAW,
                        );
                    }
                    let mut at = 0;
                    for run in runs {
                        gl.buffer_sub_data_u8_slice(glow::ARRAY_BUFFER, at as i32, run);
                        at += run.len();
                    }
                    Ok(())
                }
                #[cfg(target_arch = "wasm32")]
                Upload::MapRange | Upload::Staged => Err("WebGL2 cannot map a buffer".to_owned()),
                #[cfg(not(target_arch = "wasm32"))]
                Upload::MapRange => map_write(gl, glow::ARRAY_BUFFER, self.bytes, |into| {
                    copy_runs(into, runs);
                    Ok(())
                }),
                #[cfg(not(target_arch = "wasm32"))]
                Upload::Staged => match self.staging {
                    Some(staging) => {
                        gl.bind_buffer(glow::COPY_WRITE_BUFFER, Some(self.buffer));
                        let written = stage(
                            gl,
                            staging,
                            glow::COPY_WRITE_BUFFER,
                            0,
                            self.bytes,
                            |into| {
                                copy_runs(into, runs);
                                Ok(())
                            },
                        );
                        gl.bind_buffer(glow::COPY_WRITE_BUFFER, None);
                        written
                    }
                    None => Err("a staged stream has no staging buffer".to_owned()),
                },
            };
            gl.bind_buffer(glow::ARRAY_BUFFER, None);
            result
        }
    }

    /// Frees the buffer.
    pub fn destroy(self, gl: &glow::Context) {
        // SAFETY: the buffers were created by `new` on this context.
        unsafe {
            gl.delete_buffer(self.buffer);
            if let Some(staging) = self.staging {
                gl.delete_buffer(staging);
            }
        }
    }
}
