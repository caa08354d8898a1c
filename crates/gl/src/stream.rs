//! Streaming vertices the CPU writes every frame: one buffer per mesh, allocated once at
//! its full size, and refilled in place. This is how an engine that skins on the CPU
//! sends its vertices: only the attributes the CPU changed, each as one tightly packed
//! run, laid out as the shader reads them.
//!
//! Three ways to hand the bytes over, all in GL 3.0 and GLES 3.0:
//! - [`Upload::SubData`]: `glBufferSubData` each run into the storage the buffer has.
//! - [`Upload::Orphan`]: first orphan the storage (`glBufferData` with no data, so the
//!   driver need not wait for a draw still reading the old contents), then the same.
//! - [`Upload::MapRange`]: `glMapBufferRange` with `MAP_INVALIDATE_BUFFER_BIT` (the same
//!   orphaning), copy each run into the mapped memory (a big copy on several threads),
//!   unmap. WebGL2 cannot map.

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
}

impl Upload {
    /// The methods this build offers, the default first.
    /// Mapping came first on both an NVIDIA H100 (8 GB/s against 3.6 for
    /// `glBufferSubData`, a million vertices) and Mesa's llvmpipe.
    pub const OFFERED: &'static [Upload] = if cfg!(target_arch = "wasm32") {
        // WebGL2 cannot map a buffer.
        &[Upload::SubData, Upload::Orphan]
    } else {
        &[Upload::MapRange, Upload::SubData, Upload::Orphan]
    };

    /// The name the benchmark and the gpu page print.
    pub fn name(self) -> &'static str {
        match self {
            Self::SubData => "glBufferSubData",
            Self::Orphan => "orphan + glBufferSubData",
            Self::MapRange => "glMapBufferRange + copy",
        }
    }
}

/// Copies `runs` one after another into `into` (as long as they are together). A big
/// copy is shared between threads, as an engine's skinning job would write its own
/// part of the mapped buffer: one thread cannot fill the bus.
fn copy_runs(into: &mut [u8], runs: &[&[u8]]) {
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

/// A vertex buffer of a fixed size, refilled in place.
pub struct StreamBuffer {
    buffer: glow::Buffer,
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
            let buffer = gl.create_buffer()?;
            gl.bind_buffer(glow::ARRAY_BUFFER, Some(buffer));
            gl.buffer_data_size(glow::ARRAY_BUFFER, size, glow::STREAM_DRAW);
            gl.bind_buffer(glow::ARRAY_BUFFER, None);
            Ok(Self {
                buffer,
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
                Upload::MapRange => {
                    let mapped = gl.map_buffer_range(
                        glow::ARRAY_BUFFER,
                        0,
                        self.bytes as i32,
                        glow::MAP_WRITE_BIT | glow::MAP_INVALIDATE_BUFFER_BIT,
                    );
                    if mapped.is_null() {
                        Err("glMapBufferRange gave no memory".to_owned())
                    } else {
                        // The mapping is `self.bytes` long and writable until unmapped.
                        let into = std::slice::from_raw_parts_mut(mapped, self.bytes);
                        copy_runs(into, runs);
                        gl.unmap_buffer(glow::ARRAY_BUFFER);
                        Ok(())
                    }
                }
            };
            gl.bind_buffer(glow::ARRAY_BUFFER, None);
            result
        }
    }

    /// Frees the buffer.
    pub fn destroy(self, gl: &glow::Context) {
        // SAFETY: the buffer was created by `new` on this context.
        unsafe { gl.delete_buffer(self.buffer) }
    }
}
