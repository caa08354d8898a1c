//! GPU timings for the CPU-against-GPU comparison (the gpu page and `skinlab --bench`):
//! the skinning vertex stage alone, and the upload a CPU-skinned mesh would cost.

use super::draw::SceneRenderer;
use super::mesh::SkinnedMeshGpu;
use glow::HasContext as _;
use scene::{JointIndices, MeshData, Palette};
use std::sync::Arc;

/// Seconds the GPU takes to run the skinning vertex shader over every vertex of
/// `mesh`, rasterisation off: `glFinish`, start the clock, draw, `glFinish`, stop.
/// Wall time around glFinish works on every context (timer queries do not: WebGL2
/// often hides them), at the price of including the driver's overhead.
pub fn time_skinning(
    gl: &glow::Context,
    renderer: &SceneRenderer,
    mesh: &SkinnedMeshGpu,
    palette: &Palette,
    indices: JointIndices,
) -> Result<f64, String> {
    renderer.check_palette(palette)?;
    let program = renderer.program_for(palette, indices);
    // SAFETY: the program and the mesh's buffers belong to this renderer and context.
    unsafe {
        gl.use_program(Some(program));
        renderer.upload_palette(gl, program, palette);
        gl.bind_vertex_array(Some(mesh.vao));
        gl.enable(glow::RASTERIZER_DISCARD);
        gl.finish();
        let start = web_time::Instant::now();
        gl.draw_arrays(glow::POINTS, 0, mesh.vertex_count as i32);
        gl.finish();
        let seconds = start.elapsed().as_secs_f64();
        gl.disable(glow::RASTERIZER_DISCARD);
        gl.bind_vertex_array(None);
        gl.bind_texture(glow::TEXTURE_2D, None);
        gl.use_program(None);
        match gl.get_error() {
            glow::NO_ERROR => Ok(seconds),
            error => Err(format!(
                "timing the skinning failed with GL error 0x{error:x}"
            )),
        }
    }
}

/// Seconds to upload `bytes` into a fresh vertex buffer and wait for it: what a
/// CPU-skinned mesh costs each frame on top of the skinning itself.
pub fn time_upload(gl: &glow::Context, bytes: &[u8]) -> Result<f64, String> {
    // SAFETY: the buffer is created, filled and deleted here.
    unsafe {
        let buffer = gl.create_buffer()?;
        gl.bind_buffer(glow::ARRAY_BUFFER, Some(buffer));
        gl.finish();
        let start = web_time::Instant::now();
        gl.buffer_data_u8_slice(glow::ARRAY_BUFFER, bytes, glow::STREAM_DRAW);
        gl.finish();
        let seconds = start.elapsed().as_secs_f64();
        gl.bind_buffer(glow::ARRAY_BUFFER, None);
        gl.delete_buffer(buffer);
        Ok(seconds)
    }
}

/// The GPU's side of one size of the CPU-against-GPU comparison, in seconds: uploading
/// what a CPU-skinned `mesh` would send each frame, and the best of three runs of the
/// skinning vertex stage over it (the first run also pays for warming caches).
pub fn time_both_sides(
    gl: &glow::Context,
    renderer: &mut SceneRenderer,
    mesh: &Arc<MeshData>,
    palette: &Palette,
    indices: JointIndices,
) -> Result<(f64, f64), String> {
    renderer.mesh(gl, mesh)?;
    let gpu = renderer
        .uploaded(mesh)
        .ok_or("the mesh is not on the GPU")?;
    let mut best = f64::INFINITY;
    for _ in 0..3 {
        best = best.min(time_skinning(gl, renderer, gpu, palette, indices)?);
    }
    let bytes = vec![0u8; gpu.vertex_count() * skin::gpu::CPU_BYTES_PER_VERTEX];
    Ok((time_upload(gl, &bytes)?, best))
}
