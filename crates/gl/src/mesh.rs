//! Vertex layouts and mesh upload: how a skinned vertex and a colour vertex lie in a
//! buffer, which attribute location reads which part, and the GPU copies of meshes,
//! kept while a page holds the mesh.

use super::morph::{self, MorphTexture};
use super::stream::{Staging, StreamBuffer, Upload, copy_runs};
use glam::Vec3;
use glow::HasContext as _;
use parallel::{Records, Split as _};
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

/// Attribute locations of the centre-of-rotation program (`shaders/blend_cor.glsl`):
/// the float programs' and the centre.
pub const SKIN_COR_PROGRAM_ATTRIBUTES: [(&str, u32); 7] = [
    ("a_position", 0),
    ("a_normal", 1),
    ("a_joints", 2),
    ("a_weights", 3),
    ("a_color", 4),
    ("a_uv", 6),
    ("a_centre", 7),
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

/// Where each part of a skinned vertex lies in its buffer, in bytes. Every vertex has a
/// position, a normal, four weights and four joint indices; a colour, a texture
/// coordinate and a centre of rotation only where its mesh has them. A mesh without
/// them has its draws read a constant instead ([`SkinnedMeshGpu::bind`]): white, (0, 0)
/// and the origin.
///
/// The joint indices are stored once, as four signed 16-bit numbers. The programs that
/// read float indices take the same bytes as floats: a million vertices of the gpu page
/// are 48 bytes each, not 88 (float and integer copies of the joints, colours and
/// texture coordinates as floats), so a new mesh uploads in half the time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SkinLayout {
    /// Whether the vertices carry a colour (four bytes, 0 to 255 for 0 to 1).
    pub colors: bool,
    /// Whether the vertices carry a texture coordinate (two floats).
    pub uvs: bool,
    /// Whether the vertices carry a centre of rotation (three floats).
    pub centres: bool,
}

impl SkinLayout {
    const POSITION: usize = 0;
    const NORMAL: usize = 12;
    const WEIGHTS: usize = 24;
    const JOINTS: usize = 40;
    /// Where the colour lies, when there is one.
    const COLOR: usize = 48;

    /// The layout of `mesh`'s vertices.
    pub fn of(mesh: &MeshData) -> Self {
        Self {
            colors: !mesh.colors.is_empty(),
            uvs: !mesh.uvs.is_empty(),
            centres: !mesh.centres.is_empty(),
        }
    }

    fn uv(self) -> usize {
        Self::COLOR + if self.colors { 4 } else { 0 }
    }

    fn centre(self) -> usize {
        self.uv() + if self.uvs { 8 } else { 0 }
    }

    /// Bytes per vertex: 48 to 72.
    pub fn stride(self) -> usize {
        self.centre() + if self.centres { 12 } else { 0 }
    }

    /// Writes vertices `first..` of `mesh` into `out`, one record each; a refusal names
    /// the vertex.
    fn write(self, mesh: &MeshData, first: usize, mut out: Records) -> Result<(), (usize, String)> {
        let skin = &mesh.skin;
        let (uv_at, centre_at) = (self.uv(), self.centre());
        for (i, out) in (first..).zip(out.iter_mut()) {
            let (Some(p), Some(inf)) = (skin.positions.get(i), skin.influences.get(i)) else {
                return Err((i, "every vertex needs influences".into()));
            };
            let n = skin.normals.get(i).copied().unwrap_or(Vec3::ZERO);
            let mut joints = [0i16; 4];
            for (slot, j) in joints.iter_mut().zip(inf.joints) {
                *slot = i16::try_from(j).map_err(|_| {
                    let why = format!("joint index {j} does not fit a signed 16-bit number");
                    (i, why)
                })?;
            }
            let put = |out: &mut [u8], at: usize, bytes: &[u8]| {
                out[at..at + bytes.len()].copy_from_slice(bytes);
            };
            put(out, Self::POSITION, bytemuck::cast_slice(&p.to_array()));
            put(out, Self::NORMAL, bytemuck::cast_slice(&n.to_array()));
            put(out, Self::WEIGHTS, bytemuck::cast_slice(&inf.weights));
            put(out, Self::JOINTS, bytemuck::cast_slice(&joints));
            if self.colors {
                let color = mesh.colors.get(i).copied().unwrap_or([1.0; 4]);
                put(out, Self::COLOR, &color.map(unit_byte));
            }
            if self.uvs {
                let uv = mesh.uvs.get(i).copied().unwrap_or([0.0; 2]);
                put(out, uv_at, bytemuck::cast_slice(&uv));
            }
            if self.centres {
                let centre = mesh.centres.get(i).copied().unwrap_or(*p);
                put(out, centre_at, bytemuck::cast_slice(&centre.to_array()));
            }
        }
        Ok(())
    }

    /// Lays out vertices `first..` of `mesh` in `out` ([`Self::stride`] bytes each), as
    /// many as it holds: a big mesh by every core, each writing its own vertices.
    fn interleave(self, mesh: &MeshData, first: usize, out: &mut [u8]) -> Result<(), String> {
        let records = Records::new(out, self.stride());
        let vertices = first..first + records.len();
        // The first vertex refused, and why.
        let refused = parallel::least((vertices, records), |(range, out)| {
            self.write(mesh, range.start, out).err()
        });
        refused.map_or(Ok(()), |(_, why)| Err(why))
    }

    /// Points the attributes at the buffer bound to `ARRAY_BUFFER`. Position and normal
    /// only when `with_position` (a stream supplies its own).
    fn point(self, gl: &glow::Context, with_position: bool) {
        let stride = self.stride();
        let float = |location, size, kind, normalized, at| {
            attribute(gl, location, size, kind, normalized, stride, at);
        };
        if with_position {
            float(0, 3, glow::FLOAT, false, Self::POSITION);
            float(1, 3, glow::FLOAT, false, Self::NORMAL);
        }
        float(3, 4, glow::FLOAT, false, Self::WEIGHTS);
        // SAFETY: as above.
        unsafe {
            // ANCHOR: int_attribute
            // One copy of the joint indices, four 16-bit integers, read two ways. The
            // float programs: glVertexAttribPointer turns each into a float (3 becomes
            // 3.0). The integer programs: glVertexAttribIPointer, with an I, keeps them
            // integers. The type is signed because the attribute is an ivec4: WebGL2
            // refuses to draw when an unsigned pointer feeds a signed attribute.
            gl.enable_vertex_attrib_array(2);
            let (stride, at) = (stride as i32, Self::JOINTS as i32);
            gl.vertex_attrib_pointer_f32(2, 4, glow::SHORT, false, stride, at);
            gl.enable_vertex_attrib_array(5);
            gl.vertex_attrib_pointer_i32(5, 4, glow::SHORT, stride, at);
            // ANCHOR_END: int_attribute
        }
        if self.colors {
            float(4, 4, glow::UNSIGNED_BYTE, true, Self::COLOR);
        }
        if self.uvs {
            float(6, 2, glow::FLOAT, false, self.uv());
        }
        if self.centres {
            float(7, 3, glow::FLOAT, false, self.centre());
        }
    }

    /// Sets the constants a draw reads for the parts these vertices lack: white for the
    /// colour, (0, 0) for the texture coordinate, the origin for the centre. They are the
    /// context's, not the vertex array's, so every draw sets them.
    fn set_constants(self, gl: &glow::Context) {
        // SAFETY: plain state; the locations are below GL's minimum of 16 attributes.
        unsafe {
            if !self.colors {
                gl.vertex_attrib_4_f32(4, 1.0, 1.0, 1.0, 1.0);
            }
            if !self.uvs {
                gl.vertex_attrib_2_f32(6, 0.0, 0.0);
            }
            if !self.centres {
                gl.vertex_attrib_3_f32(7, 0.0, 0.0, 0.0);
            }
        }
    }
}

/// A colour channel from 0 to 1 as a byte from 0 to 255 (outside clamped, NaN black).
fn unit_byte(c: f32) -> u8 {
    (c.clamp(0.0, 1.0) * 255.0).round() as u8
}

/// An attribute read as floats: `size` components of `kind` (normalized to 0..1 when
/// asked) at byte `at` of each vertex of `stride` bytes, in the bound `ARRAY_BUFFER`.
pub(super) fn attribute(
    gl: &glow::Context,
    location: u32,
    size: i32,
    kind: u32,
    normalized: bool,
    stride: usize,
    at: usize,
) {
    // SAFETY: called with a bound VAO and ARRAY_BUFFER; the callers' layouts fit it.
    unsafe {
        gl.enable_vertex_attrib_array(location);
        gl.vertex_attrib_pointer_f32(location, size, kind, normalized, stride as i32, at as i32);
    }
}

/// A skinnable mesh in GPU buffers, drawn by `shaders/skin.vert`.
pub struct SkinnedMeshGpu {
    vao: glow::VertexArray,
    pub(super) vbo: glow::Buffer,
    pub(super) ebo: glow::Buffer,
    pub(super) layout: SkinLayout,
    pub(super) vertex_count: usize,
    pub(super) index_count: usize,
    /// GL_LINES or GL_TRIANGLES.
    pub(super) mode: u32,
    /// Where CPU-skinned vertices of this mesh are streamed, once a draw streams them.
    streamed: Option<StreamedGpu>,
    /// Its blend shapes, if it has any.
    morph: Option<MorphTexture>,
}

impl SkinnedMeshGpu {
    /// Uploads vertices, influences and indices through a staging buffer of its own.
    pub fn upload(gl: &glow::Context, mesh: &MeshData) -> Result<Self, String> {
        let mut staging = Staging::default();
        let uploaded = Self::upload_through(gl, mesh, &mut staging);
        staging.destroy(gl);
        uploaded
    }

    /// Uploads vertices, influences and indices through `staging`, each vertex laid out
    /// straight into the memory GL copies from.
    pub fn upload_through(
        gl: &glow::Context,
        mesh: &MeshData,
        staging: &mut Staging,
    ) -> Result<Self, String> {
        let skin = &mesh.skin;
        let count = skin.positions.len();
        if skin.influences.len() < count {
            return Err("every vertex needs influences".into());
        }
        let layout = SkinLayout::of(mesh);
        let indices: &[u8] = bytemuck::cast_slice(&mesh.indices);
        // SAFETY: buffers are created, bound and filled here; the layout is `layout`'s.
        unsafe {
            let vao = gl.create_vertex_array()?;
            let vbo = gl.create_buffer()?;
            let ebo = gl.create_buffer()?;
            gl.bind_vertex_array(Some(vao));
            gl.bind_buffer(glow::ARRAY_BUFFER, Some(vbo));
            gl.bind_buffer(glow::ELEMENT_ARRAY_BUFFER, Some(ebo));
            let stride = layout.stride();
            let filled = staging
                .fill(gl, glow::ARRAY_BUFFER, count * stride, stride, |at, out| {
                    layout.interleave(mesh, at / stride, out)
                })
                .and_then(|()| {
                    staging.fill(
                        gl,
                        glow::ELEMENT_ARRAY_BUFFER,
                        indices.len(),
                        4,
                        |at, out| {
                            copy_runs(out, &[&indices[at..at + out.len()]]);
                            Ok(())
                        },
                    )
                });
            if let Err(e) = filled {
                gl.bind_vertex_array(None);
                gl.bind_buffer(glow::ARRAY_BUFFER, None);
                gl.delete_vertex_array(vao);
                gl.delete_buffer(vbo);
                gl.delete_buffer(ebo);
                return Err(e);
            }
            layout.point(gl, true);
            gl.bind_vertex_array(None);
            gl.bind_buffer(glow::ARRAY_BUFFER, None);
            let morph = match MorphTexture::upload(gl, &mesh.targets, count) {
                Ok(morph) => morph,
                Err(e) => {
                    gl.delete_vertex_array(vao);
                    gl.delete_buffer(vbo);
                    gl.delete_buffer(ebo);
                    return Err(e);
                }
            };
            let mode = match mesh.primitive {
                Primitive::Lines => glow::LINES,
                Primitive::Triangles => glow::TRIANGLES,
            };
            Ok(Self {
                vao,
                vbo,
                ebo,
                layout,
                vertex_count: count,
                index_count: mesh.indices.len(),
                mode,
                streamed: None,
                morph,
            })
        }
    }

    /// Streams `streamed` (positions then normals, one packed run each) into this
    /// mesh's stream buffer, made at the first call, unless it holds them already; the
    /// vertex array that draws them with the mesh's influences and colours is then
    /// [`Self::bind`]'s.
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
            empty => empty.insert(StreamedGpu::new(gl, n, self.layout, self.vbo, self.ebo)?),
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

    /// Binds the vertex array that draws this mesh (the one reading the streamed
    /// vertices when the draw streams them, else the mesh's own), sets the constants
    /// read for the parts its vertices lack, and sets `program`, in use, to add the
    /// mesh's blend shapes at `weights` (none when `weights` is empty or the mesh has
    /// none): every draw sets it, since programs are shared between meshes.
    pub(super) fn bind(
        &self,
        gl: &glow::Context,
        program: glow::Program,
        streamed: bool,
        weights: &[f32],
    ) {
        let vao = match (&self.streamed, streamed) {
            (Some(gpu), true) => gpu.vao,
            _ => self.vao,
        };
        // SAFETY: the vertex array belongs to this context.
        unsafe { gl.bind_vertex_array(Some(vao)) };
        self.layout.set_constants(gl);
        match &self.morph {
            Some(texture) if !weights.is_empty() => texture.bind(gl, program, weights),
            _ => morph::unbind(gl, program),
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
        if let Some(morph) = self.morph {
            morph.destroy(gl);
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
    /// and a vertex array reading it beside the mesh's buffer `vbo` (laid out as
    /// `layout`), indexed by `ebo`.
    fn new(
        gl: &glow::Context,
        n: usize,
        layout: SkinLayout,
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
            attribute(gl, 0, 3, glow::FLOAT, false, 12, 0);
            attribute(gl, 1, 3, glow::FLOAT, false, 12, n * 12);
            gl.bind_buffer(glow::ARRAY_BUFFER, Some(vbo));
            layout.point(gl, false);
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
    /// Where every upload is staged, kept between them.
    staging: Staging,
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
                let gpu = SkinnedMeshGpu::upload_through(gl, mesh, &mut self.staging)?;
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
        self.staging.destroy(gl);
    }
}

/// A vertex array over one buffer of packed floats, refilled for each draw. Its owner
/// may bind `vao` to read more attributes from buffers of its own.
pub(super) struct FloatStream {
    pub(super) vao: glow::VertexArray,
    vbo: glow::Buffer,
}

impl FloatStream {
    /// Creates the buffer and its vertex array. `layout` gives each attribute's location
    /// and number of floats, packed in that order; each is read once per vertex
    /// (`divisor` 0) or once per instance (1).
    pub(super) fn new(
        gl: &glow::Context,
        layout: &[(u32, i32)],
        divisor: u32,
    ) -> Result<Self, String> {
        let floats: i32 = layout.iter().map(|(_, size)| size).sum();
        // SAFETY: objects are created and bound here; each attribute lies inside the
        // stride of `floats` floats.
        unsafe {
            let vao = gl.create_vertex_array()?;
            let vbo = match gl.create_buffer() {
                Ok(vbo) => vbo,
                Err(e) => {
                    gl.delete_vertex_array(vao);
                    return Err(e);
                }
            };
            gl.bind_vertex_array(Some(vao));
            gl.bind_buffer(glow::ARRAY_BUFFER, Some(vbo));
            let mut at = 0;
            for &(location, size) in layout {
                attribute(
                    gl,
                    location,
                    size,
                    glow::FLOAT,
                    false,
                    floats as usize * 4,
                    at * 4,
                );
                gl.vertex_attrib_divisor(location, divisor);
                at += size as usize;
            }
            gl.bind_vertex_array(None);
            gl.bind_buffer(glow::ARRAY_BUFFER, None);
            Ok(Self { vao, vbo })
        }
    }

    /// Fills the buffer with `data` and leaves the vertex array bound, ready to draw.
    pub(super) fn fill(&self, gl: &glow::Context, data: &[f32]) {
        // SAFETY: the buffers belong to this context.
        unsafe {
            gl.bind_vertex_array(Some(self.vao));
            gl.bind_buffer(glow::ARRAY_BUFFER, Some(self.vbo));
            gl.buffer_data_u8_slice(
                glow::ARRAY_BUFFER,
                bytemuck::cast_slice(data),
                glow::STREAM_DRAW,
            );
        }
    }

    /// Frees the buffer and its vertex array.
    pub(super) fn destroy(self, gl: &glow::Context) {
        // SAFETY: the objects were created by `new` on this context.
        unsafe {
            gl.delete_vertex_array(self.vao);
            gl.delete_buffer(self.vbo);
        }
    }
}

/// The coloured lines and triangles of a scene (grids, axes, arrows), refilled for
/// each batch, in the attribute layout of `shaders/color.vert`.
pub(super) struct ColorBuffer(FloatStream);

impl ColorBuffer {
    /// Creates the buffer and its vertex array: position 3, colour 4, normal 3.
    pub(super) fn new(gl: &glow::Context) -> Result<Self, String> {
        FloatStream::new(gl, &[(0, 3), (1, 4), (2, 3)], 0).map(Self)
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
        self.0.fill(gl, &data);
    }

    /// Frees the buffer.
    pub(super) fn destroy(self, gl: &glow::Context) {
        self.0.destroy(gl);
    }
}
