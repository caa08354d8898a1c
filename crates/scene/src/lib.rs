//! What a page asks the viewport to draw in one frame: plain data, no GL.

use glam::{Mat3, Mat4, Vec3};
use skin::Blend;
use skin::dqs::{DualQuat, dual_quat_palette, split_palette};
use skin::lbs::{PositionW, SkinMesh, SkinnedVertex};
use skin::morph::{MorphTarget, morphed};
use skin::normals::NormalMethod;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

/// How many palette matrices the uniform-array shader path holds. 60 mat4 = 240 vectors,
/// which leaves room for the other uniforms inside WebGL2's guaranteed 256. A longer
/// palette is drawn from the bone texture.
pub const MAX_JOINTS: usize = 60;

/// Which program runs (the joint indices it reads), and how the skinning shader's
/// switches are set. The default is what the app draws with: float indices, normals by
/// the inverse transpose, the divide by `w`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Switches {
    /// How the joint indices arrive.
    pub indices: JointIndices,
    /// `u_normal_method`.
    pub normals: NormalMethod,
    /// `u_position_w`.
    pub position_w: PositionW,
}

/// How a mesh's indices are read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Primitive {
    /// Pairs of indices.
    Lines,
    /// Triples of indices.
    Triangles,
}

/// A skinnable mesh and its index list. Uploaded to the GPU once, keyed by `id`.
#[derive(Debug)]
pub struct MeshData {
    /// Unique per constructed mesh, so the renderer knows when to upload.
    pub id: u64,
    /// Bind-space vertices and their influences (shared with whoever built them: a
    /// mesh of a million vertices is not copied to be drawn).
    pub skin: Arc<SkinMesh>,
    /// Indices into `skin`'s vertices (shared the same way).
    pub indices: Arc<Vec<u32>>,
    /// How `indices` are read.
    pub primitive: Primitive,
    /// One RGBA colour per vertex, multiplied with the draw's colour; empty for white.
    pub colors: Vec<[f32; 4]>,
    /// One texture coordinate per vertex, where a draw's [`Texture`] is read; empty for
    /// none.
    pub uvs: Vec<[f32; 2]>,
    /// Its blend shapes (morph targets), each offsets for `skin`'s vertices: a draw's
    /// [`SkinnedDraw::morph_weights`] add them in before the skin. Empty for none.
    pub targets: Arc<Vec<MorphTarget>>,
    /// A centre of rotation for each vertex, in bind space ([`skin::cor::placed`]),
    /// for draws that blend about them ([`Palette::Centres`]). Empty for none.
    pub centres: Arc<Vec<Vec3>>,
}

impl MeshData {
    /// Wraps a mesh with a fresh id.
    pub fn new(skin: SkinMesh, indices: Vec<u32>, primitive: Primitive) -> Arc<Self> {
        Self::with_colors(skin, indices, primitive, Vec::new())
    }

    /// Wraps a mesh with per-vertex colours (a heat map, say) and a fresh id.
    pub fn with_colors(
        skin: SkinMesh,
        indices: Vec<u32>,
        primitive: Primitive,
        colors: Vec<[f32; 4]>,
    ) -> Arc<Self> {
        Self::build(
            Arc::new(skin),
            Arc::new(indices),
            primitive,
            colors,
            Vec::new(),
        )
    }

    /// Wraps a mesh with per-vertex colours and texture coordinates, and a fresh id.
    pub fn with_uvs(
        skin: SkinMesh,
        indices: Vec<u32>,
        colors: Vec<[f32; 4]>,
        uvs: Vec<[f32; 2]>,
    ) -> Arc<Self> {
        Self::build(
            Arc::new(skin),
            Arc::new(indices),
            Primitive::Triangles,
            colors,
            uvs,
        )
    }

    /// [`MeshData::with_uvs`] with blend shapes (`targets`, each offsets for `skin`'s
    /// vertices).
    pub fn with_targets(
        skin: SkinMesh,
        indices: Vec<u32>,
        colors: Vec<[f32; 4]>,
        uvs: Vec<[f32; 2]>,
        targets: Arc<Vec<MorphTarget>>,
    ) -> Arc<Self> {
        let mut mesh = Self::build(
            Arc::new(skin),
            Arc::new(indices),
            Primitive::Triangles,
            colors,
            uvs,
        );
        if let Some(mesh) = Arc::get_mut(&mut mesh) {
            mesh.targets = targets;
        }
        mesh
    }

    /// Wraps a mesh its builder keeps too, without copying it, with a fresh id.
    pub fn shared(skin: Arc<SkinMesh>, indices: Arc<Vec<u32>>, primitive: Primitive) -> Arc<Self> {
        Self::build(skin, indices, primitive, Vec::new(), Vec::new())
    }

    fn build(
        skin: Arc<SkinMesh>,
        indices: Arc<Vec<u32>>,
        primitive: Primitive,
        colors: Vec<[f32; 4]>,
        uvs: Vec<[f32; 2]>,
    ) -> Arc<Self> {
        static NEXT_ID: AtomicU64 = AtomicU64::new(1);
        Arc::new(Self {
            id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
            skin,
            indices,
            primitive,
            colors,
            uvs,
            targets: Arc::default(),
            centres: Arc::default(),
        })
    }

    /// This mesh with a centre of rotation for each of its vertices (as
    /// [`skin::cor::placed`] gives them), so that [`Palette::Centres`] can draw it: a
    /// new mesh, with a fresh id, sharing the vertices, indices and blend shapes.
    pub fn with_centres(&self, centres: Vec<Vec3>) -> Arc<Self> {
        let mut mesh = Self::build(
            self.skin.clone(),
            self.indices.clone(),
            self.primitive,
            self.colors.clone(),
            self.uvs.clone(),
        );
        if let Some(mesh) = Arc::get_mut(&mut mesh) {
            mesh.targets = self.targets.clone();
            mesh.centres = Arc::new(centres);
        }
        mesh
    }

    /// [`MeshData::with_centres`] with the centres found from its own triangles
    /// ([`skin::cor::centres`]; lines have none, so every vertex turns about itself).
    pub fn centred(&self) -> Arc<Self> {
        let triangles: &[u32] = match self.primitive {
            Primitive::Triangles => &self.indices,
            Primitive::Lines => &[],
        };
        let found = skin::cor::centres(&self.skin, triangles);
        self.with_centres(skin::cor::placed(&found, &self.skin.positions))
    }
}

/// An image a surface is painted with: RGBA, 8 bits a channel, rows top first (as image
/// files store them, and as glTF's texture coordinates read them). Uploaded once, keyed
/// by `id`.
#[derive(Debug)]
pub struct Texture {
    /// Unique per constructed texture.
    pub id: u64,
    /// Width and height in pixels.
    pub size: [u32; 2],
    /// `4 × width × height` bytes.
    pub rgba: Vec<u8>,
    /// Magnification and minification filters and the two wrap modes, as GL codes
    /// (`GL_LINEAR`, `GL_LINEAR_MIPMAP_LINEAR`, `GL_REPEAT`, …).
    pub filters: [u32; 2],
    /// Across, then down.
    pub wraps: [u32; 2],
}

impl Texture {
    /// Wraps decoded pixels with a fresh id; `None` unless `rgba` holds exactly
    /// `4 × width × height` bytes of a non-empty image.
    pub fn new(
        size: [u32; 2],
        rgba: Vec<u8>,
        filters: [u32; 2],
        wraps: [u32; 2],
    ) -> Option<Arc<Self>> {
        static NEXT_ID: AtomicU64 = AtomicU64::new(1);
        let bytes = 4 * size[0] as usize * size[1] as usize;
        (bytes > 0 && rgba.len() == bytes).then(|| {
            Arc::new(Self {
                id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
                size,
                rgba,
                filters,
                wraps,
            })
        })
    }
}

/// Positions and normals the CPU skinned this frame, drawn in place of a mesh's own:
/// streamed each frame into a buffer the mesh's GPU copy keeps, while the rest of the
/// mesh (influences, colours, indices) stays where it was uploaded once.
#[derive(Debug)]
pub struct Streamed {
    /// Unique per constructed stream, so a viewport knows when it changed.
    pub id: u64,
    /// One per vertex of the mesh.
    pub positions: Vec<Vec3>,
    /// One per vertex of the mesh.
    pub normals: Vec<Vec3>,
}

impl Streamed {
    /// Bytes a streamed vertex takes on its way to the GPU: its position and normal,
    /// three floats each.
    pub const BYTES_PER_VERTEX: usize = 24;

    /// Wraps this frame's vertices with a fresh id.
    pub fn new(positions: Vec<Vec3>, normals: Vec<Vec3>) -> Arc<Self> {
        static NEXT_ID: AtomicU64 = AtomicU64::new(1);
        Arc::new(Self {
            id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
            positions,
            normals,
        })
    }
}

/// What the skinning shader receives for one draw, which also picks the program.
#[derive(Clone, Debug, PartialEq)]
pub enum Palette {
    /// `world_from_bind` per joint, uploaded as `u_palette` and blended linearly
    /// (`shaders/blend_lbs.glsl`).
    Matrices(Vec<Mat4>),
    /// One unit dual quaternion per joint, uploaded as `u_dq_real` / `u_dq_dual`, and
    /// its stretch, uploaded as `u_stretch_diagonal` / `u_stretch_off`; blended by
    /// `shaders/blend_dqs.glsl` in two phases.
    DualQuats {
        /// The rigid part of each joint's `world_from_bind`.
        dual_quats: Vec<DualQuat>,
        /// Each joint's stretch, applied before the rigid part
        /// ([`skin::dqs::split_palette`]); empty for plain DQS, which drops any scale.
        stretches: Vec<Mat3>,
        /// Whether the shader flips quaternions into the first influence's half.
        antipodal_check: bool,
    },
    /// `world_from_bind` per joint, uploaded as a bone texture (one row of four RGBA32F
    /// texels per joint) and blended linearly (`shaders/blend_texture.glsl`). Holds
    /// far more joints than the uniform array.
    Texture(Vec<Mat4>),
    /// The rigid part of each joint's `world_from_bind` as a unit dual quaternion, and
    /// its stretch, uploaded as for [`Palette::DualQuats`] and blended about each
    /// vertex's centre of rotation ([`MeshData::centres`]) by `shaders/blend_cor.glsl`.
    Centres {
        /// The rigid part of each joint's `world_from_bind`.
        dual_quats: Vec<DualQuat>,
        /// Each joint's stretch (empty: none).
        stretches: Vec<Mat3>,
    },
}

impl Palette {
    /// The palette `blend` needs for `world_from_bind` (split into rigid parts and
    /// stretches for DQS and centres, which so carry a scaled joint).
    pub fn new(world_from_bind: Vec<Mat4>, blend: Blend) -> Self {
        match blend {
            Blend::Linear => Self::Matrices(world_from_bind),
            Blend::DualQuaternion { antipodal_check } => {
                let (dual_quats, stretches) = split_palette(&world_from_bind);
                Self::DualQuats {
                    dual_quats,
                    stretches,
                    antipodal_check,
                }
            }
            Blend::Centres => {
                let (dual_quats, stretches) = split_palette(&world_from_bind);
                Self::Centres {
                    dual_quats,
                    stretches,
                }
            }
        }
    }

    /// Plain dual quaternion skinning of `world_from_bind`: the rigid parts only, so a
    /// scale is dropped (what the two-phase blend of [`Palette::new`] mends).
    pub fn plain_dqs(world_from_bind: &[Mat4], antipodal_check: bool) -> Self {
        Self::DualQuats {
            dual_quats: dual_quat_palette(world_from_bind),
            stretches: Vec::new(),
            antipodal_check,
        }
    }

    /// Number of joints.
    pub fn len(&self) -> usize {
        match self {
            Self::Matrices(m) => m.len(),
            Self::DualQuats { dual_quats, .. } | Self::Centres { dual_quats, .. } => {
                dual_quats.len()
            }
            Self::Texture(m) => m.len(),
        }
    }

    /// True when there are no joints.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// How the vertex shader receives joint indices: which joints file it is built with.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum JointIndices {
    /// `in vec4 a_joints` (`shaders/joints_float.glsl`), rounded in the shader.
    #[default]
    Float,
    /// `in ivec4 a_joints` (`shaders/joints_int.glsl`), from 16-bit signed integers.
    /// Dual quaternion programs read float indices only and ignore this.
    Int,
}

/// One skinned mesh drawn by `shaders/skin.vert` with a palette.
/// How a surface's alpha (the draw's colour × the vertex colour × the texture) is
/// read: the three ways of glTF's `alphaMode`, and the pages' own translucent tints.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub enum Alpha {
    /// The colour is already premultiplied by its alpha (the pages' own tints).
    #[default]
    Premultiplied,
    /// Alpha is ignored: fully opaque.
    Opaque,
    /// A fragment whose alpha is below the cutoff is not drawn; the rest are opaque.
    Mask(f32),
    /// Alpha blends the surface over what is behind it (the colour is not
    /// premultiplied); it does not hide what is drawn after it.
    Blend,
}

impl Alpha {
    /// Whether this is one of glTF's modes, read from a file's material (the pages'
    /// own tints are [`Alpha::Premultiplied`]).
    pub fn from_file(self) -> bool {
        self != Alpha::Premultiplied
    }

    /// The shader's `u_alpha_cutoff` (below 0: nothing is cut) and `u_alpha_mode`
    /// (0 premultiplied, 1 opaque, 2 blended).
    pub fn uniforms(self) -> (f32, f32) {
        match self {
            Alpha::Premultiplied => (-1.0, 0.0),
            Alpha::Opaque => (-1.0, 1.0),
            Alpha::Mask(cutoff) => (cutoff, 1.0),
            Alpha::Blend => (-1.0, 2.0),
        }
    }
}

#[derive(Clone, Debug)]
pub struct SkinnedDraw {
    /// The mesh.
    pub mesh: Arc<MeshData>,
    /// What the shader blends, and so which program draws.
    pub palette: Palette,
    /// RGBA, linear 0..1.
    pub color: [f32; 4],
    /// Shade with the headlight (for surfaces) or not (for lines).
    pub lit: bool,
    /// For line meshes: width in points (see [`Scene::pixels_per_point`]).
    pub line_width: f32,
    /// Which attribute type carries the joint indices (and so which program draws).
    pub joint_indices: JointIndices,
    /// How the shader carries normals (`u_normal_method`).
    pub normals: NormalMethod,
    /// What the shader does with `w` (`u_position_w`).
    pub position_w: PositionW,
    /// Where the skinned mesh is moved after skinning, in world units: two copies of a
    /// mesh side by side, each with the palette it would have alone.
    pub offset: Vec3,
    /// Vertices skinned on the CPU, drawn in place of the mesh's positions and
    /// normals (then through the palette as usual: one identity matrix, say).
    pub streamed: Option<Arc<Streamed>>,
    /// An image multiplied with the colour, read at the mesh's texture coordinates.
    pub texture: Option<Arc<Texture>>,
    /// How the surface's alpha is read.
    pub alpha: Alpha,
    /// The weight of each of the mesh's blend shapes (`v₀ + Σ wᵢ · Δᵢ` before the skin);
    /// empty, or all zero, for none. A streamed draw has them in its vertices already.
    pub morph_weights: Vec<f32>,
}

impl SkinnedDraw {
    /// A surface lit by the headlight, in `color`.
    pub fn surface(mesh: Arc<MeshData>, palette: Palette, color: [f32; 4]) -> Self {
        Self {
            mesh,
            palette,
            color,
            lit: true,
            line_width: 1.0,
            joint_indices: JointIndices::Float,
            normals: NormalMethod::InverseTranspose,
            position_w: PositionW::Divide,
            offset: Vec3::ZERO,
            streamed: None,
            texture: None,
            alpha: Alpha::Premultiplied,
            morph_weights: Vec::new(),
        }
    }

    /// Unlit lines `line_width` points wide, in `color`.
    pub fn lines(mesh: Arc<MeshData>, palette: Palette, color: [f32; 4], line_width: f32) -> Self {
        Self {
            mesh,
            palette,
            color,
            lit: false,
            line_width,
            joint_indices: JointIndices::Float,
            normals: NormalMethod::InverseTranspose,
            position_w: PositionW::Divide,
            offset: Vec3::ZERO,
            streamed: None,
            texture: None,
            alpha: Alpha::Premultiplied,
            morph_weights: Vec::new(),
        }
    }

    /// The program and switches this draw runs the skinning shader with.
    pub fn switches(&self) -> Switches {
        Switches {
            indices: self.joint_indices,
            normals: self.normals,
            position_w: self.position_w,
        }
    }

    /// The weights the shader adds the mesh's blend shapes in with: none when the draw
    /// streams its vertices (they are morphed already), or when every weight is 0.
    pub fn shader_morph_weights(&self) -> &[f32] {
        let any = self.morph_weights.iter().any(|w| *w != 0.0);
        if self.streamed.is_some() || self.mesh.targets.is_empty() || !any {
            return &[];
        }
        &self.morph_weights
    }

    /// The mesh's vertices as the shader blends them: the streamed ones in place of its
    /// own positions and normals, where the draw has them; else with its blend shapes
    /// added in at the draw's weights ([`skin::morph::morphed`]), where it has any.
    pub fn drawn_skin(&self) -> std::borrow::Cow<'_, SkinMesh> {
        use std::borrow::Cow;
        match &self.streamed {
            None => morphed(
                &self.mesh.skin,
                &self.mesh.targets,
                self.shader_morph_weights(),
            ),
            Some(streamed) => Cow::Owned(SkinMesh {
                positions: streamed.positions.clone(),
                normals: streamed.normals.clone(),
                ..(*self.mesh.skin).clone()
            }),
        }
    }

    /// What the skinning shader computes for each vertex of the mesh (`v_position`
    /// and `v_normal`, before `offset`), computed on the CPU by the reference loops
    /// with the same palette and switches: what a viewport's draws are checked against.
    pub fn skin_on_cpu(&self) -> Vec<SkinnedVertex> {
        use skin::{dqs, lbs};
        let skin = &*self.drawn_skin();
        match &self.palette {
            Palette::Matrices(m) | Palette::Texture(m) => {
                let mut skinned = lbs::skin_vertices_with(m, skin, self.normals);
                self.position_w.place(m, skin, &mut skinned);
                skinned
            }
            // A rigid blend: the normal methods agree, and `w` is 1.
            Palette::DualQuats {
                dual_quats,
                stretches,
                antipodal_check,
            } => dqs::skin_vertices_dq(dual_quats, stretches, skin, *antipodal_check),
            Palette::Centres {
                dual_quats,
                stretches,
            } => skin::cor::skin_vertices_cor_dq(dual_quats, stretches, skin, &self.mesh.centres),
        }
    }

    /// The least box, `[left, top, right, bottom]`, around where `seen` puts each vertex
    /// the draw's indices use, placed in world space as the shader places it (positions
    /// alone, each vertex once): `seen` takes a world point to a point on screen, or to
    /// `None` for one it cannot show (behind the camera). `None` when it shows none.
    /// For framing, which measures a million-vertex mesh on frames in a row: every core
    /// measures, and no point is kept.
    pub fn bounds_seen(&self, seen: impl Fn(Vec3) -> Option<[f32; 2]> + Sync) -> Option<[f32; 4]> {
        use std::sync::atomic::AtomicBool;
        let (positions, influences) = self.drawn_positions();
        let n = positions.len().min(influences.len());
        let used: Vec<AtomicBool> = (0..n).map(|_| AtomicBool::new(false)).collect();
        parallel::run(&self.mesh.indices[..], |indices| {
            for &i in indices {
                if let Some(u) = used.get(i as usize) {
                    u.store(true, Ordering::Relaxed);
                }
            }
        });
        let all = (&positions[..n], &influences[..n], &used[..]);
        let grown = |a: [f32; 4], b: [f32; 4]| {
            [
                a[0].min(b[0]),
                a[1].min(b[1]),
                a[2].max(b[2]),
                a[3].max(b[3]),
            ]
        };
        parallel::reduce(
            all,
            |(positions, influences, used)| {
                let mut bounds = None;
                self.each_placed(positions, influences, |i, point| {
                    if used[i].load(Ordering::Relaxed)
                        && let Some([x, y]) = seen(point)
                    {
                        bounds = Some(bounds.map_or([x, y, x, y], |b| grown(b, [x, y, x, y])));
                    }
                });
                bounds
            },
            |a, b| match (a, b) {
                (Some(a), Some(b)) => Some(grown(a, b)),
                (a, b) => a.or(b),
            },
        )
        .flatten()
    }

    /// Where the draw puts every vertex, by index, in world space (positions alone, as
    /// [`Self::bounds_seen`] places them): for the outline labels keep off. A big mesh is
    /// placed by every core.
    pub fn world_positions(&self) -> Vec<Vec3> {
        let (positions, influences) = self.drawn_positions();
        let n = positions.len().min(influences.len());
        let mut placed = parallel::zeroed::<Vec3>(n);
        let all = (&positions[..n], &influences[..n], &mut placed[..]);
        parallel::run(all, |(positions, influences, out)| {
            self.each_placed(positions, influences, |i, point| out[i] = point);
        });
        placed
    }

    /// The positions the shader receives (the streamed ones where the draw has them) and
    /// the mesh's influences: what [`Self::drawn_skin`] holds for placing vertices,
    /// without a copy.
    fn drawn_positions(&self) -> (std::borrow::Cow<'_, [Vec3]>, &[skin::Influences]) {
        use std::borrow::Cow;
        let weights = self.shader_morph_weights();
        let positions = match &self.streamed {
            Some(streamed) => Cow::Borrowed(&streamed.positions[..]),
            None if weights.is_empty() => Cow::Borrowed(&self.mesh.skin.positions[..]),
            None => Cow::Owned(skin::morph::morphed_positions(
                &self.mesh.skin.positions,
                &self.mesh.targets,
                weights,
            )),
        };
        (positions, &self.mesh.skin.influences)
    }

    /// Calls `f` with the index of each vertex of `positions` (and its `influences`)
    /// and where the draw puts it in world space.
    fn each_placed(
        &self,
        positions: &[Vec3],
        influences: &[skin::Influences],
        mut f: impl FnMut(usize, Vec3),
    ) {
        use skin::{dqs, lbs};
        let vertices = positions.iter().zip(influences).enumerate();
        match &self.palette {
            Palette::Matrices(m) | Palette::Texture(m) => {
                for (i, (p, influences)) in vertices {
                    let blended = lbs::blended_matrix(m, influences);
                    f(i, self.position_w.drawn(&blended, *p) + self.offset);
                }
            }
            Palette::DualQuats {
                dual_quats,
                stretches,
                antipodal_check,
            } => {
                for (i, (p, influences)) in vertices {
                    let whole =
                        dqs::blended_whole(dual_quats, stretches, influences, *antipodal_check);
                    f(i, whole.transform_point3(*p) + self.offset);
                }
            }
            Palette::Centres {
                dual_quats,
                stretches,
            } => {
                for (i, (p, influences)) in vertices {
                    let centre = self.mesh.centres.get(i).copied().unwrap_or(*p);
                    let turn = skin::cor::turn(dual_quats, stretches, influences, centre);
                    f(i, turn.transform_point3(*p) + self.offset);
                }
            }
        }
    }
}

/// A vertex for unskinned lines and triangles.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ColorVertex {
    /// World position.
    pub position: Vec3,
    /// RGBA.
    pub color: [f32; 4],
    /// Zero for unshaded.
    pub normal: Vec3,
}

/// Everything one viewport draws in one frame, in this order: the backdrop (under
/// everything), then triangles, skinned meshes and lines with depth testing, then the
/// ellipse outlines over all of it.
///
/// Line widths are in points: a viewport drawn at presenter size draws its lines as
/// much wider as its text is larger ([`Scene::pixels_per_point`]).
#[derive(Clone, Debug)]
pub struct Scene {
    /// Camera: clip space from world space.
    pub clip_from_world: Mat4,
    /// Direction towards the light, in world space.
    pub light_dir: Vec3,
    /// Background colour.
    pub background: [f32; 4],
    /// Lines under everything else, whatever their depth (reference grids).
    pub backdrop: Vec<ColorVertex>,
    /// Points a view framed on the scene holds besides what is drawn over the backdrop:
    /// the ends of a backdrop that ends (a wire sphere), where a grid runs on.
    pub framed: Vec<Vec3>,
    /// Unskinned, shaded triangles (arrows, boxes).
    pub triangles: Vec<ColorVertex>,
    /// Skinned meshes.
    pub skinned: Vec<SkinnedDraw>,
    /// Unskinned lines (grid, axes), pairs of vertices, [`LINES_WIDTH`] points wide.
    pub lines: Vec<ColorVertex>,
    /// Outlines drawn over everything, without depth testing (deformation ellipses),
    /// [`ELLIPSE_WIDTH`] points wide on a pale halo [`ELLIPSE_HALO_WIDTH`] wide.
    pub ellipses: Vec<EllipseOutline>,
    /// Pixels per point where the scene is drawn (the window's scale times the app's
    /// zoom): line widths are multiplied by it.
    pub pixels_per_point: f32,
    /// The axes drawn whose tips want their letter (x, y or z) written beside them:
    /// the viewport writes each where it has room ([`Scene::axis`]).
    pub axis_ends: Vec<AxisEnd>,
}

/// The colours of the x, y and z axes, as sRGB bytes: red, green and blue by
/// convention, and of different lightness besides (42, 57 and 43 in CIELAB), so that x
/// and y stay apart for a reader who tells red from green poorly. Each reads at 3:1 or
/// more on a light viewport and on a dark one. The app's tests hold them apart under
/// simulated colour blindness.
pub const AXIS_RGB: [[u8; 3]; 3] = [[200, 20, 10], [70, 155, 80], [60, 80, 245]];

/// The letters written at the axes' tips, x, y and z.
pub const AXIS_NAMES: [&str; 3] = ["x", "y", "z"];

/// Axis `axis`'s colour (0 x, 1 y, 2 z) as a scene colour.
pub const fn axis_color(axis: usize) -> [f32; 4] {
    let [r, g, b] = AXIS_RGB[if axis < 2 { axis } else { 2 }];
    [r as f32 / 255.0, g as f32 / 255.0, b as f32 / 255.0, 1.0]
}

/// An axis drawn from `origin` to `tip`, in world space, whose tip takes the letter of
/// `axis` (0 x, 1 y, 2 z).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AxisEnd {
    /// Where the axis starts.
    pub origin: Vec3,
    /// Where it ends: the letter goes just past it.
    pub tip: Vec3,
    /// Which axis: 0 x, 1 y, 2 z.
    pub axis: usize,
}

/// The width of a scene's unskinned lines (axes, normals, tangents), in points: 3.5
/// pixels in presenter mode on a 1080-line screen (more in focus mode), where one pixel
/// is lost from the back of a hall.
pub const LINES_WIDTH: f32 = 2.0;

/// The width of a scene's backdrop lines (reference grids), in points.
pub const BACKDROP_WIDTH: f32 = 1.0;

/// The width of an ellipse's outline, in points.
pub const ELLIPSE_WIDTH: f32 = 1.4;

/// The width of the pale halo under an ellipse's outline, in points: it keeps the line
/// readable on the skin.
pub const ELLIPSE_HALO_WIDTH: f32 = 3.0;

/// The halo's colour: white, two thirds opaque.
pub const ELLIPSE_HALO: [f32; 4] = [1.0, 1.0, 1.0, 170.0 / 255.0];

/// The least clip-space `w` of a point drawn in front of the eye: a point with less
/// lies behind it (or on the eye's own plane), where dividing by `w` flips or blows up.
pub const LEAST_W: f32 = 1e-6;

/// How many straight pieces an ellipse's outline is drawn with.
pub const ELLIPSE_SEGMENTS: usize = 32;

/// An ellipse drawn as an outline over a scene by `shaders/ellipse.vert`.
///
/// Contract: the outline passes through the points `center + cos θ·major + sin θ·minor`
/// for `θ = 2πk / ELLIPSE_SEGMENTS` ([`EllipseOutline::point`]), joined by straight
/// pieces, and keeps its width on screen however far away it is. `major` and `minor`
/// need not be perpendicular: a zero `minor` draws a line, and an outline whose points
/// all land on one pixel draws nothing. An outline that is not finite, or any point of
/// which lies behind the eye, is not drawn ([`EllipseOutline::drawable`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EllipseOutline {
    /// The middle, in world space.
    pub center: Vec3,
    /// The point at θ = 0, from the middle (world units).
    pub major: Vec3,
    /// The point at θ = π/2, from the middle.
    pub minor: Vec3,
    /// RGBA, 0..1, as the outline's line is drawn (not premultiplied).
    pub color: [f32; 4],
}

impl EllipseOutline {
    /// Point `k` of the outline drawn with `segments` pieces (`k = segments` is the
    /// first again): what the shader computes for it.
    pub fn point(&self, k: usize, segments: usize) -> Vec3 {
        let angle = std::f32::consts::TAU * k as f32 / segments.max(1) as f32;
        self.center + angle.cos() * self.major + angle.sin() * self.minor
    }

    /// Whether the outline is drawn through `clip_from_world`: finite, and every point
    /// of it in front of the eye (clip `w` above [`LEAST_W`]). Along the outline `w` is
    /// `w0 + cos θ·w1 + sin θ·w2`, whose least value is `w0 − hypot(w1, w2)`.
    pub fn drawable(&self, clip_from_world: Mat4) -> bool {
        let w = clip_from_world.row(3);
        let [w0, w1, w2] = [
            w.dot(self.center.extend(1.0)),
            w.dot(self.major.extend(0.0)),
            w.dot(self.minor.extend(0.0)),
        ];
        let least = w0 - w1.hypot(w2);
        least.is_finite() && least > LEAST_W && self.color.iter().all(|c| c.is_finite())
    }
}

impl Default for Scene {
    fn default() -> Self {
        Self {
            clip_from_world: Mat4::IDENTITY,
            light_dir: Vec3::ZERO,
            background: [0.0; 4],
            backdrop: Vec::new(),
            framed: Vec::new(),
            triangles: Vec::new(),
            skinned: Vec::new(),
            lines: Vec::new(),
            ellipses: Vec::new(),
            pixels_per_point: 1.0,
            axis_ends: Vec::new(),
        }
    }
}

impl Scene {
    /// How many pixels wide a line of `points` is drawn: never under one.
    pub fn line_px(&self, points: f32) -> f32 {
        (points * self.pixels_per_point).max(1.0)
    }
}

fn segment(a: Vec3, b: Vec3, color: [f32; 4]) -> [ColorVertex; 2] {
    let v = |position| ColorVertex {
        position,
        color,
        normal: Vec3::ZERO,
    };
    [v(a), v(b)]
}

impl Scene {
    /// Adds one line segment.
    pub fn line(&mut self, a: Vec3, b: Vec3, color: [f32; 4]) {
        self.lines.extend(segment(a, b, color));
    }

    /// Adds one line segment to the backdrop.
    pub fn backdrop_line(&mut self, a: Vec3, b: Vec3, color: [f32; 4]) {
        self.backdrop.extend(segment(a, b, color));
    }

    /// Adds a joint's x, y and z axes as lines of `length` in their colours
    /// ([`AXIS_RGB`]), each tip lettered ([`Scene::axis`]).
    pub fn axes(&mut self, world_from_joint: &Mat4, length: f32) {
        let origin = world_from_joint.transform_point3(Vec3::ZERO);
        for (axis, direction) in [Vec3::X, Vec3::Y, Vec3::Z].into_iter().enumerate() {
            let tip = world_from_joint.transform_point3(direction * length);
            self.axis(origin, tip, axis);
        }
    }

    /// Adds axis `axis` (0 x, 1 y, 2 z) from `origin` to `tip` as a line in its colour,
    /// its tip lettered.
    pub fn axis(&mut self, origin: Vec3, tip: Vec3, axis: usize) {
        self.line(origin, tip, axis_color(axis));
        self.letter_axis(origin, tip, axis);
    }

    /// Asks for the letter of axis `axis` beside `tip`, on the far side from `origin`,
    /// for an axis drawn another way (an arrow, a dimmed line).
    pub fn letter_axis(&mut self, origin: Vec3, tip: Vec3, axis: usize) {
        self.axis_ends.push(AxisEnd { origin, tip, axis });
    }

    /// Adds a shaded arrow from `from` to `to`: a shaft of `radius` and a cone head.
    pub fn arrow(&mut self, from: Vec3, to: Vec3, radius: f32, color: [f32; 4]) {
        const SEGMENTS: usize = 12;
        let d = to - from;
        let length = d.length();
        if length < 1e-5 || !length.is_finite() {
            return;
        }
        let dir = d / length;
        let (u, v) = dir.any_orthonormal_pair();
        let head = (radius * 6.0).min(length * 0.4);
        let neck = to - dir * head;
        let ring = |i: usize| {
            let a = i as f32 / SEGMENTS as f32 * std::f32::consts::TAU;
            u * a.cos() + v * a.sin()
        };
        let vertex = |position, normal| ColorVertex {
            position,
            color,
            normal,
        };
        for i in 0..SEGMENTS {
            let (r0, r1) = (ring(i), ring(i + 1));
            // Shaft: two triangles per segment, normals pointing out.
            let (a0, a1) = (from + r0 * radius, from + r1 * radius);
            let (b0, b1) = (neck + r0 * radius, neck + r1 * radius);
            self.triangles.extend([
                vertex(a0, r0),
                vertex(a1, r1),
                vertex(b1, r1),
                vertex(a0, r0),
                vertex(b1, r1),
                vertex(b0, r0),
            ]);
            // Head: a cone, and the disc closing it.
            let w = radius * 2.5;
            let slope = |r: Vec3| (r * head + dir * w).normalize();
            self.triangles.extend([
                vertex(neck + r0 * w, slope(r0)),
                vertex(neck + r1 * w, slope(r1)),
                vertex(to, slope((r0 + r1) * 0.5)),
                vertex(neck + r0 * w, -dir),
                vertex(neck + r1 * w, -dir),
                vertex(neck, -dir),
            ]);
        }
    }

    /// Adds a small shaded diamond (octahedron) at `center`.
    pub fn marker(&mut self, center: Vec3, size: f32, color: [f32; 4]) {
        let axes = [Vec3::X, Vec3::Y, Vec3::Z];
        for sx in [-1.0f32, 1.0] {
            for sy in [-1.0f32, 1.0] {
                for sz in [-1.0f32, 1.0] {
                    let corners = [axes[0] * sx, axes[1] * sy, axes[2] * sz];
                    let normal = Vec3::new(sx, sy, sz).normalize();
                    for c in corners {
                        self.triangles.push(ColorVertex {
                            position: center + c * size,
                            color,
                            normal,
                        });
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use skin::Influences;

    /// `n` vertices in a row along x, bound to joint 0 or 1 in turn, and a lone vertex
    /// far off that no index uses; one index past the end, which nothing places.
    fn row(n: usize) -> Arc<MeshData> {
        let mut positions: Vec<Vec3> = (0..n).map(|i| Vec3::new(i as f32, 1.0, 0.0)).collect();
        positions.push(Vec3::new(-1e6, 1e6, 0.0));
        let influences = (0..=n).map(|i| Influences::rigid((i % 2) as u32)).collect();
        let skin = SkinMesh {
            positions,
            influences,
            ..SkinMesh::default()
        };
        let mut indices: Vec<u32> = (0..n as u32).collect();
        indices.push(n as u32 + 5);
        MeshData::shared(Arc::new(skin), Arc::new(indices), Primitive::Lines)
    }

    /// The box around the first `count` vertices as the CPU reference skins them (what
    /// the shader is checked against), moved by the draw's offset, that `seen` keeps.
    fn reference_bounds(
        draw: &SkinnedDraw,
        count: usize,
        seen: impl Fn(Vec3) -> Option<[f32; 2]>,
    ) -> Option<[f32; 4]> {
        draw.skin_on_cpu()[..count]
            .iter()
            .filter_map(|v| seen(v.position + draw.offset))
            .fold(None, |b, [x, y]| {
                let [l, t, r, d] = b.unwrap_or([x, y, x, y]);
                Some([l.min(x), t.min(y), r.max(x), d.max(y)])
            })
    }

    #[test]
    fn the_box_seen_holds_every_used_vertex_where_the_shader_puts_it_and_no_other() {
        let turned = Mat4::from_rotation_z(0.7) * Mat4::from_translation(Vec3::new(2.0, 0.0, 0.0));
        let matrices = vec![Mat4::IDENTITY, turned];
        let seen = |p: Vec3| (p.z > -0.5).then_some([p.x * 2.0, -p.y]);
        // Enough vertices for several threads to take a share.
        for n in [1, 7, 200_001] {
            for palette in [
                Palette::Matrices(matrices.clone()),
                Palette::new(
                    matrices.clone(),
                    Blend::DualQuaternion {
                        antipodal_check: true,
                    },
                ),
            ] {
                let mut draw = SkinnedDraw::lines(row(n), palette, [1.0; 4], 1.0);
                draw.offset = Vec3::new(0.5, -2.0, 0.0);
                let bounds = draw.bounds_seen(seen).expect("every vertex is seen");
                assert_eq!(
                    Some(bounds),
                    reference_bounds(&draw, n, seen),
                    "{n} vertices"
                );
                assert_ne!(
                    Some(bounds),
                    reference_bounds(&draw, n + 1, seen),
                    "the unused vertex far off is left out"
                );
                // Streamed vertices stand in for the mesh's own positions.
                let moved: Vec<Vec3> = (draw.mesh.skin.positions.iter())
                    .map(|p| *p * 3.0 + Vec3::Y)
                    .collect();
                draw.streamed = Some(Streamed::new(moved, Vec::new()));
                let streamed = draw.bounds_seen(seen).expect("every vertex is seen");
                assert_eq!(
                    Some(streamed),
                    reference_bounds(&draw, n, seen),
                    "{n} streamed"
                );
                assert_ne!(
                    streamed, bounds,
                    "the streamed positions are the ones measured"
                );
            }
        }
    }

    #[test]
    fn nothing_seen_gives_no_box() {
        let identity = Palette::Matrices(vec![Mat4::IDENTITY; 2]);
        let draw = SkinnedDraw::lines(row(5), identity.clone(), [1.0; 4], 1.0);
        assert_eq!(
            draw.bounds_seen(|_| None),
            None,
            "every point behind the camera"
        );
        let empty = MeshData::shared(Arc::default(), Arc::default(), Primitive::Lines);
        let draw = SkinnedDraw::lines(empty, identity, [1.0; 4], 1.0);
        assert_eq!(
            draw.bounds_seen(|p| Some([p.x, p.y])),
            None,
            "an empty mesh"
        );
    }

    #[test]
    fn an_outline_is_drawn_only_wholly_in_front_of_the_eye() {
        // An eye at z = 5 looking down −z: clip w is 5 − z.
        let clip_from_world = Mat4::from_cols(
            glam::Vec4::X,
            glam::Vec4::Y,
            glam::Vec4::new(0.0, 0.0, 1.0, -1.0),
            glam::Vec4::new(0.0, 0.0, 0.0, 5.0),
        );
        let outline = |center: Vec3, major: Vec3| EllipseOutline {
            center,
            major,
            minor: Vec3::Y,
            color: [1.0; 4],
        };
        assert!(outline(Vec3::ZERO, Vec3::Z * 4.9).drawable(clip_from_world));
        // Its point at θ = 0 would sit at z = 5.1, behind the eye; the middle does not.
        assert!(!outline(Vec3::ZERO, Vec3::Z * 5.1).drawable(clip_from_world));
        assert!(!outline(Vec3::Z * 6.0, Vec3::X).drawable(clip_from_world));
        assert!(!outline(Vec3::NAN, Vec3::X).drawable(clip_from_world));
        let mut nan_colour = outline(Vec3::ZERO, Vec3::X);
        nan_colour.color[1] = f32::NAN;
        assert!(!nan_colour.drawable(clip_from_world));
        // The points run round from `major` to `minor` and back to the start.
        let o = outline(Vec3::ONE, Vec3::X);
        assert_eq!(o.point(0, 8), Vec3::ONE + Vec3::X);
        assert!((o.point(2, 8) - (Vec3::ONE + Vec3::Y)).length() < 1e-6);
        assert!((o.point(8, 8) - o.point(0, 8)).length() < 1e-6);
    }
}
