//! Vertex layouts and mesh upload: how a skinned vertex and a colour vertex lie in a
//! buffer, which attribute location reads which part, and the GPU copies of meshes,
//! kept while a page holds the mesh.

use super::stream::{StreamBuffer, Upload, fill_static};
use glam::Vec3;
use glow::HasContext as _;
use scene::{ColorVertex, MeshData, Primitive, Streamed};
use std::collections::HashMap;
use std::collections::hash_map::Entry;
use std::sync::{Arc, Weak};

/// Attribute locations of `shaders/skin.vert` in the programs that read float joint
/// indices (`shaders/joints_float.glsl`).
pub const SKIN_PROGRAM_ATTRIBUTES: [(&str, u32); 6] = [
    ("a_position", 0),
    ("a_normal", 1),
    ("a_joints", 2),
    ("a_weights", 3),
    ("a_color", 4),
    ("a_uv", 6),
];

/// Attribute locations in the programs that read integer joint indices
/// (`shaders/joints_int.glsl`): every mesh carries both copies of the indices, the
/// integer one at location 5.
pub const SKIN_INT_PROGRAM_ATTRIBUTES: [(&str, u32); 6] = [
    ("a_position", 0),
    ("a_normal", 1),
    ("a_joints", 5),
    ("a_weights", 3),
    ("a_color", 4),
    ("a_uv", 6),
];

/// Attribute locations of `shaders/color.vert`.
pub(super) const COLOR_PROGRAM_ATTRIBUTES: [(&str, u32); 3] =
    [("a_position", 0), ("a_color", 1), ("a_normal", 2)];

/// Floats at the start of a skinned vertex: position 3, normal 3, joints 4 (as
/// floats), weights 4, colour 4, texture coordinate 2. Then the joints again as four
/// i16.
const SKIN_FLOATS: usize = 20;
/// Bytes per skinned vertex: the floats, then four 16-bit joint indices.
const SKIN_STRIDE_BYTES: usize = SKIN_FLOATS * 4 + 4 * 2;
/// Floats per colour vertex: position 3, colour 4, normal 3.
const COLOR_STRIDE: usize = 10;

/// A float attribute of `size` components, `offset` floats into a vertex of
/// `stride_bytes`.
fn attribute(gl: &glow::Context, location: u32, size: i32, stride_bytes: usize, offset: usize) {
    // SAFETY: called with a bound VAO and ARRAY_BUFFER; sizes match the layout above.
    unsafe {
        gl.enable_vertex_attrib_array(location);
        gl.vertex_attrib_pointer_f32(
            location,
            size,
            glow::FLOAT,
            false,
            stride_bytes as i32,
            (offset * 4) as i32,
        );
    }
}

/// Lays out every vertex of `mesh` in `out` (one [`SKIN_STRIDE_BYTES`] each): a big mesh
/// by every core, each writing its own vertices.
fn interleave(mesh: &MeshData, out: &mut [u8]) -> Result<(), String> {
    let (vertices, _) = out.as_chunks_mut::<SKIN_STRIDE_BYTES>();
    // The first vertex refused, and why.
    let refused = skin::parallel::least((0..vertices.len(), vertices), |(range, out)| {
        interleave_part(mesh, range.start, out).err()
    });
    refused.map_or(Ok(()), |(_, why)| Err(why))
}

/// Lays out vertices `first..` of `mesh` in `out`; a refusal names the vertex.
fn interleave_part(
    mesh: &MeshData,
    first: usize,
    out: &mut [[u8; SKIN_STRIDE_BYTES]],
) -> Result<(), (usize, String)> {
    let skin = &mesh.skin;
    for (i, out) in (first..).zip(out) {
        let (Some(p), Some(inf)) = (skin.positions.get(i), skin.influences.get(i)) else {
            return Err((i, "every vertex needs influences".into()));
        };
        let n = skin.normals.get(i).copied().unwrap_or(Vec3::ZERO);
        let color = mesh.colors.get(i).copied().unwrap_or([1.0; 4]);
        let uv = mesh.uvs.get(i).copied().unwrap_or([0.0; 2]);
        let mut floats = [0.0f32; SKIN_FLOATS];
        floats[0..3].copy_from_slice(&p.to_array());
        floats[3..6].copy_from_slice(&n.to_array());
        for (slot, j) in floats[6..10].iter_mut().zip(inf.joints) {
            *slot = j as f32;
        }
        floats[10..14].copy_from_slice(&inf.weights);
        floats[14..18].copy_from_slice(&color);
        floats[18..20].copy_from_slice(&uv);
        let mut short = [0i16; 4];
        for (slot, j) in short.iter_mut().zip(inf.joints) {
            *slot = i16::try_from(j).map_err(|_| {
                let why = format!("joint index {j} does not fit a signed 16-bit number");
                (i, why)
            })?;
        }
        let (head, tail) = out.split_at_mut(SKIN_FLOATS * 4);
        head.copy_from_slice(bytemuck::cast_slice(&floats));
        tail.copy_from_slice(bytemuck::cast_slice(&short));
    }
    Ok(())
}

/// A skinnable mesh in GPU buffers, drawn by `shaders/skin.vert`.
pub struct SkinnedMeshGpu {
    pub(super) vao: glow::VertexArray,
    vbo: glow::Buffer,
    ebo: glow::Buffer,
    pub(super) vertex_count: usize,
    pub(super) index_count: usize,
    /// GL_LINES or GL_TRIANGLES.
    pub(super) mode: u32,
    /// Where CPU-skinned vertices of this mesh are streamed, once a draw streams them.
    streamed: Option<StreamedGpu>,
}

impl SkinnedMeshGpu {
    /// Uploads vertices, influences and indices.
    pub fn upload(gl: &glow::Context, mesh: &MeshData) -> Result<Self, String> {
        let skin = &mesh.skin;
        let count = skin.positions.len();
        if skin.influences.len() < count {
            return Err("every vertex needs influences".into());
        }
        // Zeroed memory, whose pages the threads laying the vertices out touch first.
        let mut data = vec![0u8; count * SKIN_STRIDE_BYTES];
        interleave(mesh, &mut data)?;
        // SAFETY: buffers are created, bound and filled here; the layout matches SKIN_STRIDE.
        unsafe {
            let vao = gl.create_vertex_array()?;
            let vbo = gl.create_buffer()?;
            let ebo = gl.create_buffer()?;
            gl.bind_vertex_array(Some(vao));
            gl.bind_buffer(glow::ARRAY_BUFFER, Some(vbo));
            gl.bind_buffer(glow::ELEMENT_ARRAY_BUFFER, Some(ebo));
            let filled = fill_static(gl, glow::ARRAY_BUFFER, &[&data]).and_then(|()| {
                let indices: &[u8] = bytemuck::cast_slice(&mesh.indices);
                fill_static(gl, glow::ELEMENT_ARRAY_BUFFER, &[indices])
            });
            if let Err(e) = filled {
                gl.bind_vertex_array(None);
                gl.bind_buffer(glow::ARRAY_BUFFER, None);
                gl.delete_vertex_array(vao);
                gl.delete_buffer(vbo);
                gl.delete_buffer(ebo);
                return Err(e);
            }
            attribute(gl, 0, 3, SKIN_STRIDE_BYTES, 0);
            attribute(gl, 1, 3, SKIN_STRIDE_BYTES, 3);
            influence_attributes(gl);
            gl.bind_vertex_array(None);
            gl.bind_buffer(glow::ARRAY_BUFFER, None);
            let mode = match mesh.primitive {
                Primitive::Lines => glow::LINES,
                Primitive::Triangles => glow::TRIANGLES,
            };
            Ok(Self {
                vao,
                vbo,
                ebo,
                vertex_count: skin.positions.len(),
                index_count: mesh.indices.len(),
                mode,
                streamed: None,
            })
        }
    }

    /// Streams `streamed` (positions then normals, one packed run each) into this
    /// mesh's stream buffer, made at the first call, unless it holds them already; the
    /// vertex array that draws them with the mesh's influences and colours is then
    /// [`Self::vao_for`]'s.
    pub(super) fn stream(&mut self, gl: &glow::Context, streamed: &Streamed) -> Result<(), String> {
        let n = self.vertex_count;
        if streamed.positions.len() != n || streamed.normals.len() != n {
            return Err(format!(
                "{} streamed positions and {} normals for a mesh of {n} vertices",
                streamed.positions.len(),
                streamed.normals.len()
            ));
        }
        let gpu = match &mut self.streamed {
            Some(gpu) => gpu,
            empty => empty.insert(StreamedGpu::new(gl, n, self.vbo, self.ebo)?),
        };
        if gpu.holds != Some(streamed.id) {
            gpu.holds = None;
            gpu.buffer.write(
                gl,
                &[
                    bytemuck::cast_slice(&streamed.positions),
                    bytemuck::cast_slice(&streamed.normals),
                ],
            )?;
            gpu.holds = Some(streamed.id);
        }
        Ok(())
    }

    /// The vertex array that draws this mesh: the one reading the streamed vertices
    /// when the draw streams them, else the mesh's own.
    pub(super) fn vao_for(&self, streamed: bool) -> glow::VertexArray {
        match (&self.streamed, streamed) {
            (Some(gpu), true) => gpu.vao,
            _ => self.vao,
        }
    }

    /// Number of vertices.
    pub fn vertex_count(&self) -> usize {
        self.vertex_count
    }

    /// Frees the buffers.
    pub fn destroy(self, gl: &glow::Context) {
        // SAFETY: the objects were created by `upload` and `stream` on this context.
        unsafe {
            gl.delete_vertex_array(self.vao);
            gl.delete_buffer(self.vbo);
            gl.delete_buffer(self.ebo);
            if let Some(streamed) = self.streamed {
                gl.delete_vertex_array(streamed.vao);
                streamed.buffer.destroy(gl);
            }
        }
    }
}

/// A mesh's stream of CPU-skinned vertices: the buffer, the vertex array that reads it
/// beside the mesh's influences and colours, and which stream it holds.
struct StreamedGpu {
    vao: glow::VertexArray,
    buffer: StreamBuffer,
    holds: Option<u64>,
}

impl StreamedGpu {
    /// A stream buffer for `n` vertices (positions, then normals, one packed run each)
    /// and a vertex array reading it beside the mesh's buffer `vbo`, indexed by `ebo`.
    fn new(
        gl: &glow::Context,
        n: usize,
        vbo: glow::Buffer,
        ebo: glow::Buffer,
    ) -> Result<Self, String> {
        let buffer = StreamBuffer::new(gl, n * Streamed::BYTES_PER_VERTEX, Upload::chosen())?;
        // SAFETY: the vertex array is made and bound here; the layout matches the
        // stream's runs and the mesh's own buffer; the bindings are restored.
        unsafe {
            let vao = match gl.create_vertex_array() {
                Ok(vao) => vao,
                Err(e) => {
                    buffer.destroy(gl);
                    return Err(e);
                }
            };
            gl.bind_vertex_array(Some(vao));
            gl.bind_buffer(glow::ARRAY_BUFFER, Some(buffer.buffer()));
            gl.enable_vertex_attrib_array(0);
            gl.vertex_attrib_pointer_f32(0, 3, glow::FLOAT, false, 12, 0);
            gl.enable_vertex_attrib_array(1);
            gl.vertex_attrib_pointer_f32(1, 3, glow::FLOAT, false, 12, (n * 12) as i32);
            gl.bind_buffer(glow::ARRAY_BUFFER, Some(vbo));
            influence_attributes(gl);
            gl.bind_buffer(glow::ELEMENT_ARRAY_BUFFER, Some(ebo));
            gl.bind_vertex_array(None);
            gl.bind_buffer(glow::ARRAY_BUFFER, None);
            Ok(Self {
                vao,
                buffer,
                holds: None,
            })
        }
    }
}

/// Points attributes 2 to 6 (joints as floats, weights, colour, joints as integers,
/// texture coordinate) into the bound buffer of interleaved skinned vertices.
fn influence_attributes(gl: &glow::Context) {
    attribute(gl, 2, 4, SKIN_STRIDE_BYTES, 6);
    attribute(gl, 3, 4, SKIN_STRIDE_BYTES, 10);
    attribute(gl, 4, 4, SKIN_STRIDE_BYTES, 14);
    attribute(gl, 6, 2, SKIN_STRIDE_BYTES, 18);
    // SAFETY: called with a bound VAO and ARRAY_BUFFER of the skinned layout.
    unsafe {
        // ANCHOR: int_attribute
        // The integer copy: glVertexAttribIPointer keeps the values integers
        // (glVertexAttribPointer would turn them into floats). The type is signed
        // because the attribute is an ivec4: WebGL2 refuses to draw when an unsigned
        // pointer feeds a signed attribute.
        gl.enable_vertex_attrib_array(5);
        gl.vertex_attrib_pointer_i32(
            5,
            4,
            glow::SHORT,
            SKIN_STRIDE_BYTES as i32,
            (SKIN_FLOATS * 4) as i32,
        );
        // ANCHOR_END: int_attribute
    }
}

/// Takes out of a cache of GPU copies, keyed by the id of what they copy, every copy
/// whose original no page holds any more; the caller frees them.
pub(super) fn take_dropped<T, G>(
    cache: &mut HashMap<u64, (Weak<T>, G)>,
) -> impl Iterator<Item = G> + '_ {
    cache
        .extract_if(|_, (weak, _)| weak.strong_count() == 0)
        .map(|(_, (_, gpu))| gpu)
}

/// The GPU copies of skinned meshes by mesh id, each with a weak handle to know when
/// the page that made the mesh dropped it.
#[derive(Default)]
pub(super) struct MeshCache {
    meshes: HashMap<u64, (Weak<MeshData>, SkinnedMeshGpu)>,
}

impl MeshCache {
    /// The GPU copy of `mesh`, if it has been uploaded.
    pub(super) fn get(&self, mesh: &MeshData) -> Option<&SkinnedMeshGpu> {
        self.meshes.get(&mesh.id).map(|(_, gpu)| gpu)
    }

    /// Streams `streamed` into the GPU copy of `mesh`, uploaded first if need be.
    pub(super) fn stream(
        &mut self,
        gl: &glow::Context,
        mesh: &Arc<MeshData>,
        streamed: &Streamed,
    ) -> Result<(), String> {
        self.get_or_upload(gl, mesh)?;
        match self.meshes.get_mut(&mesh.id) {
            Some((_, gpu)) => gpu.stream(gl, streamed),
            None => Err("the mesh is not on the GPU".to_owned()),
        }
    }

    /// The GPU copy of `mesh`, uploaded on first use.
    pub(super) fn get_or_upload(
        &mut self,
        gl: &glow::Context,
        mesh: &Arc<MeshData>,
    ) -> Result<&SkinnedMeshGpu, String> {
        match self.meshes.entry(mesh.id) {
            Entry::Occupied(entry) => Ok(&entry.into_mut().1),
            Entry::Vacant(entry) => {
                let gpu = SkinnedMeshGpu::upload(gl, mesh)?;
                Ok(&entry.insert((Arc::downgrade(mesh), gpu)).1)
            }
        }
    }

    /// Frees the copies of meshes that no page holds any more (a re-weighted mesh
    /// replaces its old copy every time the weights change).
    pub(super) fn evict_dropped(&mut self, gl: &glow::Context) {
        for gpu in take_dropped(&mut self.meshes) {
            gpu.destroy(gl);
        }
    }

    /// Frees every copy.
    pub(super) fn destroy(self, gl: &glow::Context) {
        for (_, (_, mesh)) in self.meshes {
            mesh.destroy(gl);
        }
    }
}

/// One streaming buffer for the coloured lines and triangles of a scene (grids, axes,
/// arrows), refilled for each batch, with the attribute layout of `shaders/color.vert`.
pub(super) struct ColorBuffer {
    vao: glow::VertexArray,
    vbo: glow::Buffer,
}

impl ColorBuffer {
    /// Creates the buffer and its vertex array.
    pub(super) fn new(gl: &glow::Context) -> Result<Self, String> {
        // SAFETY: objects are created and bound here; the layout matches COLOR_STRIDE.
        unsafe {
            let vao = gl.create_vertex_array()?;
            let vbo = gl.create_buffer()?;
            gl.bind_vertex_array(Some(vao));
            gl.bind_buffer(glow::ARRAY_BUFFER, Some(vbo));
            attribute(gl, 0, 3, COLOR_STRIDE * 4, 0);
            attribute(gl, 1, 4, COLOR_STRIDE * 4, 3);
            attribute(gl, 2, 3, COLOR_STRIDE * 4, 7);
            gl.bind_vertex_array(None);
            gl.bind_buffer(glow::ARRAY_BUFFER, None);
            Ok(Self { vao, vbo })
        }
    }

    /// Fills the buffer with `vertices` and leaves its vertex array bound, ready to draw.
    pub(super) fn fill(&self, gl: &glow::Context, vertices: &[ColorVertex]) {
        let data: Vec<f32> = vertices
            .iter()
            .flat_map(|v| {
                let [x, y, z] = v.position.to_array();
                let [r, g, b, a] = v.color;
                let [nx, ny, nz] = v.normal.to_array();
                [x, y, z, r, g, b, a, nx, ny, nz]
            })
            .collect();
        // SAFETY: the buffers belong to this context; the data matches COLOR_STRIDE.
        unsafe {
            gl.bind_vertex_array(Some(self.vao));
            gl.bind_buffer(glow::ARRAY_BUFFER, Some(self.vbo));
            gl.buffer_data_u8_slice(
                glow::ARRAY_BUFFER,
                bytemuck::cast_slice(&data),
                glow::STREAM_DRAW,
            );
        }
    }

    /// Frees the buffer.
    pub(super) fn destroy(self, gl: &glow::Context) {
        // SAFETY: the objects were created by `new` on this context.
        unsafe {
            gl.delete_vertex_array(self.vao);
            gl.delete_buffer(self.vbo);
        }
    }
}
