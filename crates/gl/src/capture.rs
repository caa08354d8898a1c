//! Transform feedback: what the skinning vertex shader wrote for every vertex, read
//! back with rasterisation off, so tests and the gpu page compare it with the CPU.

use super::draw::SceneRenderer;
use super::mesh::SkinnedMeshGpu;
use super::palette::set_switches;
use glam::Vec3;
use glow::HasContext as _;
use scene::{Palette, Switches};

/// Reads the start of the buffer bound to `target`. OpenGL ES has no
/// glGetBufferSubData (WebGL2 does), so native ES maps the buffer instead.
///
/// # Safety
/// A buffer of at least `out.len()` bytes is bound to `target` on the current context.
unsafe fn read_buffer(gl: &glow::Context, target: u32, out: &mut [u8]) {
    // Nothing to read: GL refuses to map an empty range.
    if out.is_empty() {
        return;
    }
    // SAFETY: the caller guarantees the binding and size.
    unsafe {
        if cfg!(target_arch = "wasm32") || !gl.version().is_embedded {
            gl.get_buffer_sub_data(target, 0, out);
            return;
        }
        let ptr = gl.map_buffer_range(target, 0, out.len() as i32, glow::MAP_READ_BIT);
        if !ptr.is_null() {
            std::ptr::copy_nonoverlapping(ptr, out.as_mut_ptr(), out.len());
        }
        gl.unmap_buffer(target);
    }
}

impl SkinnedMeshGpu {
    /// The bytes of its vertex buffer and its index buffer, read back from the GPU: what
    /// the upload left there.
    pub fn read_back(&self, gl: &glow::Context) -> (Vec<u8>, Vec<u8>) {
        let mut vertices = vec![0u8; self.vertex_count * self.layout.stride()];
        let mut indices = vec![0u8; self.index_count * 4];
        // SAFETY: the buffers are this mesh's, as long as the vectors; bindings restored.
        unsafe {
            gl.bind_buffer(glow::COPY_READ_BUFFER, Some(self.vbo));
            read_buffer(gl, glow::COPY_READ_BUFFER, &mut vertices);
            gl.bind_buffer(glow::COPY_READ_BUFFER, Some(self.ebo));
            read_buffer(gl, glow::COPY_READ_BUFFER, &mut indices);
            gl.bind_buffer(glow::COPY_READ_BUFFER, None);
        }
        (vertices, indices)
    }
}

/// Runs the skinning vertex shader for `palette` over every vertex of `mesh` and reads
/// back what it wrote to `v_position` and `v_normal`, with rasterisation off.
///
/// A framebuffer must be bound (drawing fails without one, even with nothing drawn).
pub fn capture_skinned(
    gl: &glow::Context,
    renderer: &SceneRenderer,
    mesh: &SkinnedMeshGpu,
    palette: &Palette,
) -> Result<Vec<(Vec3, Vec3)>, String> {
    capture_skinned_as(gl, renderer, mesh, palette, Switches::default())
}

/// [`capture_skinned`] with the program and switches `switches` name.
pub fn capture_skinned_as(
    gl: &glow::Context,
    renderer: &SceneRenderer,
    mesh: &SkinnedMeshGpu,
    palette: &Palette,
    switches: Switches,
) -> Result<Vec<(Vec3, Vec3)>, String> {
    capture(
        gl,
        renderer,
        mesh,
        palette,
        switches,
        0..mesh.vertex_count,
        &[],
    )
}

/// [`capture_skinned_as`] over the vertices in `range` alone (clamped to the mesh), so
/// a large mesh can be compared a slice at a time, with the mesh's blend shapes added
/// in at `weights` first (empty for none). The result has one entry per vertex of the
/// clamped range.
pub fn capture_skinned_range(
    gl: &glow::Context,
    renderer: &SceneRenderer,
    mesh: &SkinnedMeshGpu,
    palette: &Palette,
    switches: Switches,
    range: std::ops::Range<usize>,
    weights: &[f32],
) -> Result<Vec<(Vec3, Vec3)>, String> {
    capture(gl, renderer, mesh, palette, switches, range, weights)
}

fn capture(
    gl: &glow::Context,
    renderer: &SceneRenderer,
    mesh: &SkinnedMeshGpu,
    palette: &Palette,
    switches: Switches,
    range: std::ops::Range<usize>,
    weights: &[f32],
) -> Result<Vec<(Vec3, Vec3)>, String> {
    renderer.check_palette(palette, mesh.layout.centres)?;
    let end = range.end.min(mesh.vertex_count);
    let first = range.start.min(end);
    let count = end - first;
    if count == 0 {
        return Ok(Vec::new());
    }
    let first = i32::try_from(first).map_err(|_| "the mesh has too many vertices to capture")?;
    let count_gl = i32::try_from(count).map_err(|_| "the mesh has too many vertices to capture")?;
    let program = renderer.program_for(gl, palette, switches.indices)?;
    super::clear_errors(gl);
    let floats = count * 6;
    let mut bytes = vec![0u8; floats * 4];
    // SAFETY: objects are created and bound here; the read-back size matches the capture.
    unsafe {
        let out = gl.create_buffer()?;
        gl.bind_buffer(glow::TRANSFORM_FEEDBACK_BUFFER, Some(out));
        gl.buffer_data_size(
            glow::TRANSFORM_FEEDBACK_BUFFER,
            bytes.len() as i32,
            glow::STATIC_READ,
        );
        gl.use_program(Some(program));
        renderer.upload_palette(gl, program, palette);
        set_switches(gl, program, switches.normals, switches.position_w);
        mesh.bind(gl, program, false, weights);
        gl.enable(glow::RASTERIZER_DISCARD);
        gl.bind_buffer_base(glow::TRANSFORM_FEEDBACK_BUFFER, 0, Some(out));
        gl.begin_transform_feedback(glow::POINTS);
        gl.draw_arrays(glow::POINTS, first, count_gl);
        gl.end_transform_feedback();
        gl.disable(glow::RASTERIZER_DISCARD);
        gl.bind_buffer_base(glow::TRANSFORM_FEEDBACK_BUFFER, 0, None);
        gl.bind_buffer(glow::TRANSFORM_FEEDBACK_BUFFER, Some(out));
        read_buffer(gl, glow::TRANSFORM_FEEDBACK_BUFFER, &mut bytes);
        gl.bind_buffer(glow::TRANSFORM_FEEDBACK_BUFFER, None);
        gl.delete_buffer(out);
        gl.bind_vertex_array(None);
        gl.bind_texture(glow::TEXTURE_2D, None);
        super::morph::release(gl);
        gl.use_program(None);
        let error = gl.get_error();
        if error != glow::NO_ERROR {
            return Err(format!(
                "transform feedback failed with GL error 0x{error:x}"
            ));
        }
    }
    let data: &[f32] = bytemuck::cast_slice(&bytes);
    Ok(data
        .chunks_exact(6)
        .map(|c| (Vec3::new(c[0], c[1], c[2]), Vec3::new(c[3], c[4], c[5])))
        .collect())
}
