//! Centres of rotation: a third way to blend, after linear blending and dual
//! quaternions. Each vertex turns by its joints' rotations blended as quaternions about
//! a centre found once from how alike its weights are to its neighbours'; the three
//! methods side by side on the blending page's arm.

mod cells;
pub mod exercise;
mod links;
mod view;

use crate::link::Param;
use crate::page::{Lesson, PageInfo};
use crate::ui::check::Check;
use crate::ui::scroll::ScrollTo;
use crate::ui::{Camera, OrbitCamera};
use glam::{Mat4, Vec3};
use rigs::arm;
use scene::MeshData;
use skin::cor;
use skin::dqs::{skin_vertices_dqs, skin_vertices_dqs_scaled};
use skin::lbs::{SkinMesh, SkinnedVertex, skin_vertices};
use std::sync::Arc;

/// The page's cells, in chapter order; their snake_case names are the chapter's cell
/// markers.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, strum::EnumString, strum::VariantNames, strum::IntoStaticStr,
)]
#[strum(serialize_all = "snake_case")]
pub enum Cell {
    /// The twist and the bend, and which arms are drawn.
    Compare,
    /// How the centres are found, and what it cost.
    Centre,
    /// One vertex through the method, step by step.
    Vertex,
    /// The elbow's area and the bulge against the twist or the bend, three ways.
    Measure,
    /// What each method costs.
    Cost,
    /// A stretched forearm: dual quaternions in two phases, and plain.
    Scale,
    Check,
}

/// The elbow's bend either way, radians at most.
pub const MAX_BEND: f32 = 2.6;
/// The bend the page opens with: where dual quaternions bulge.
pub const DEFAULT_BEND: f32 = 2.0;
/// How far apart the arms are drawn, along y.
const ROW: f32 = 3.2;
/// The forearm's stretch along its bone, either way, at most.
pub const MIN_STRETCH: f32 = 0.5;
/// The forearm's stretch along its bone, at most.
pub const MAX_STRETCH: f32 = 2.0;

/// One of the three ways to blend: this page's, and the model page's `method=`.
#[derive(
    Clone,
    Copy,
    Debug,
    Default,
    PartialEq,
    Eq,
    strum::VariantArray,
    strum::VariantNames,
    strum::IntoStaticStr,
)]
#[strum(serialize_all = "snake_case")]
pub enum Method {
    #[default]
    /// Linear blend skinning.
    Lbs,
    /// Dual quaternion skinning.
    Dqs,
    /// Rotations about each vertex's centre.
    Cor,
    /// Dual quaternion skinning of the rigid parts alone, which drops a scale (the
    /// other two carry it in two phases).
    DqsPlain,
}

impl Method {
    pub const ALL: [Method; 3] = [Method::Lbs, Method::Dqs, Method::Cor];

    /// Its name on the picture and in the plots' keys.
    pub fn label(self) -> &'static str {
        match self {
            Self::Lbs => "LBS",
            Self::Dqs => "DQS",
            Self::Cor => "centres",
            Self::DqsPlain => "plain DQS",
        }
    }

    /// The vertices of `skin` skinned this way by `palette`, on the CPU (about
    /// `centres` for centres of rotation).
    pub fn skin(self, palette: &[Mat4], skin: &SkinMesh, centres: &[Vec3]) -> Vec<SkinnedVertex> {
        match self {
            Self::Lbs => skin_vertices(palette, skin),
            Self::Dqs => skin_vertices_dqs_scaled(palette, skin, true),
            Self::Cor => cor::skin_vertices_cor(palette, skin, centres),
            Self::DqsPlain => skin_vertices_dqs(palette, skin, true),
        }
    }

    /// The palette the shader blends this way, for `world_from_bind`.
    pub fn palette(self, world_from_bind: Vec<Mat4>) -> scene::Palette {
        let blend = match self {
            Self::Lbs => skin::Blend::Linear,
            Self::Dqs => skin::Blend::DualQuaternion {
                antipodal_check: true,
            },
            Self::Cor => skin::Blend::Centres,
            Self::DqsPlain => return scene::Palette::plain_dqs(&world_from_bind, true),
        };
        scene::Palette::new(world_from_bind, blend)
    }
}

/// Which arms the viewport draws.
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    strum::VariantArray,
    strum::VariantNames,
    strum::IntoStaticStr,
)]
#[strum(serialize_all = "snake_case")]
pub enum Mode {
    /// LBS, DQS and centres of rotation, top to bottom.
    All,
    /// Linear blending alone.
    Lbs,
    /// Dual quaternions alone.
    Dqs,
    /// Centres of rotation alone.
    Cor,
    /// Plain dual quaternions above, the two phases below: what a stretch does.
    Scale,
}

impl Mode {
    /// The arms drawn, and where each sits.
    pub fn arms(self) -> Vec<(Method, Vec3)> {
        match self {
            Self::All => Method::ALL
                .iter()
                .zip([ROW, 0.0, -ROW])
                .map(|(m, y)| (*m, Vec3::Y * y))
                .collect(),
            Self::Lbs => vec![(Method::Lbs, Vec3::ZERO)],
            Self::Dqs => vec![(Method::Dqs, Vec3::ZERO)],
            Self::Cor => vec![(Method::Cor, Vec3::ZERO)],
            // Further apart than the rows of three: a stretched forearm bent up
            // reaches higher.
            Self::Scale => vec![
                (Method::DqsPlain, Vec3::Y * ROW * 0.75),
                (Method::Dqs, -Vec3::Y * ROW * 0.75),
            ],
        }
    }
}

/// What the plots sweep along their x axis.
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    strum::VariantArray,
    strum::VariantNames,
    strum::IntoStaticStr,
)]
#[strum(serialize_all = "snake_case")]
pub enum Sweep {
    /// The bend, at the twist set now.
    Bend,
    /// The twist, at the bend set now.
    Twist,
}

/// A vertex of the forearm just past the elbow, on the outside of the bend: where DQS
/// bulges most.
pub fn default_vertex() -> usize {
    (arm::elbow_ring() + 4) * arm::SEGMENTS + arm::SEGMENTS / 2
}

/// The arm and its centres of rotation, found once, with what finding them took.
pub struct Centred {
    /// The arm with a centre for each vertex, as the shader draws it.
    pub mesh: Arc<MeshData>,
    /// The centres the search found (`None` for a vertex of one joint).
    pub found: Vec<Option<Vec3>>,
    /// How much work the search did.
    pub work: cor::Work,
    /// How long it took here, in milliseconds.
    pub millis: f64,
    /// Each distinct centre found, and a vertex that has it (whose weights move it).
    distinct: Vec<(Vec3, usize)>,
    /// The part of the arm the measures read.
    measure: Measure,
}

fn centred() -> Centred {
    let arm = arm::mesh(arm::Falloff::Smooth, arm::DEFAULT_BLEND_WIDTH)
        .expect("the lesson arm's weights are valid");
    let start = web_time::Instant::now();
    let (found, work) = cor::centres_counted(&arm.skin, &arm.triangles);
    let millis = start.elapsed().as_secs_f64() * 1000.0;
    let colors = vec![[0.88, 0.75, 0.63, 1.0]; arm.skin.positions.len()];
    let placed = cor::placed(&found, &arm.skin.positions);
    let mesh = MeshData::with_colors(arm.skin, arm.triangles, scene::Primitive::Triangles, colors)
        .with_centres(placed);
    let mut distinct: Vec<(Vec3, usize)> = Vec::new();
    for (i, found) in found.iter().enumerate() {
        if let Some(c) = found
            && !distinct.iter().any(|(d, _)| d.distance(*c) < 1e-4)
        {
            distinct.push((*c, i));
        }
    }
    let measure = Measure::of(&mesh);
    Centred {
        mesh,
        found,
        work,
        millis,
        distinct,
        measure,
    }
}

/// Each measure against the sweep, for each [`Method`]: `[x, value]` points.
pub struct Curves {
    /// The elbow ring's area over the bind pose's.
    pub area: [Vec<[f64; 2]>; 3],
    /// How far the skin stands from the bones at most, over the arm's radius.
    pub bulge: [Vec<[f64; 2]>; 3],
}

/// What the curves depend on: the sweep, the other angle's value and the stretch.
type CurvesKey = (Sweep, f32, f32);

/// The page's state.
pub struct CentresPage {
    /// The forearm's twist about its own axis, radians.
    pub twist: f32,
    /// The elbow's bend about z, radians.
    pub bend: f32,
    /// The forearm's stretch along its own bone (1: none).
    pub stretch: f32,
    /// Which arms are drawn.
    pub mode: Mode,
    /// Whether the centres are drawn on the arm skinned about them.
    pub show_centres: bool,
    /// What the plots sweep.
    pub sweep: Sweep,
    /// The vertex followed through the method.
    pub vertex: usize,
    /// The check cell's exercise.
    pub exercise: usize,
    check: Check,
    camera: Camera,
    centred: Arc<Centred>,
    curves: Option<(CurvesKey, Arc<Curves>)>,
    scroll_to: ScrollTo,
    /// The viewport's `clip_from_world`, as last drawn.
    seen: Option<Mat4>,
    /// Where the viewport was drawn last frame (for tests).
    pub viewport_rect: egui::Rect,
}

fn default_camera() -> Camera {
    Camera::Orbit(OrbitCamera {
        target: Vec3::new(1.6, 0.6, 0.0),
        yaw: 0.25,
        pitch: 0.15,
        distance: 14.0,
    })
}

impl Default for CentresPage {
    fn default() -> Self {
        Self {
            twist: 0.0,
            bend: DEFAULT_BEND,
            stretch: 1.0,
            mode: Mode::All,
            show_centres: true,
            sweep: Sweep::Bend,
            vertex: default_vertex(),
            exercise: 0,
            check: Check::default(),
            camera: default_camera(),
            centred: Arc::new(centred()),
            curves: None,
            scroll_to: ScrollTo::default(),
            seen: None,
            viewport_rect: egui::Rect::NOTHING,
        }
    }
}

impl CentresPage {
    /// The arm with its centres, and what finding them took.
    pub fn centred(&self) -> &Centred {
        &self.centred
    }

    /// `world_from_bind` of the arm's two joints now.
    pub fn palette(&self) -> Vec<Mat4> {
        arm::palette_stretched(self.twist, self.bend, self.stretch)
    }

    /// The middle of the fingertip ring, skinned by `method` now: how far the hand
    /// reaches.
    pub fn hand(&self, method: Method) -> Vec3 {
        let first = (arm::RING_COUNT - 1) * arm::SEGMENTS;
        let ring = self.range_skinned(method, first..first + arm::SEGMENTS);
        ring.unwrap_or_default().iter().sum::<Vec3>() / arm::SEGMENTS as f32
    }

    /// The arm skinned by `method` now, on the CPU: where the shader draws it.
    pub fn skinned(&self, method: Method) -> Vec<SkinnedVertex> {
        let mesh = &self.centred.mesh;
        method.skin(&self.palette(), &mesh.skin, &mesh.centres)
    }

    /// Where `method` puts `vertex` now, on the CPU (the vertex alone is skinned).
    pub fn vertex_skinned(&self, method: Method, vertex: usize) -> Option<Vec3> {
        self.range_skinned(method, vertex..vertex + 1)?
            .first()
            .copied()
    }

    /// Where `method` puts the vertices of `range` now, on the CPU (those alone are
    /// skinned); `None` past the arm's end.
    fn range_skinned(&self, method: Method, range: std::ops::Range<usize>) -> Option<Vec<Vec3>> {
        let mesh = &self.centred.mesh;
        let centres = mesh.centres.get(range.clone())?;
        let part = mesh.skin.range(range);
        let skinned = method.skin(&self.palette(), &part, centres);
        Some(skinned.iter().map(|v| v.position).collect())
    }

    /// Where the viewport, as last drawn, shows `vertex` of the arm skinned by `method`
    /// (in points from the window's corner); `None` before the first frame, when that
    /// arm is not drawn or the point is behind the camera.
    pub fn drawn_at(&self, method: Method, vertex: usize) -> Option<egui::Pos2> {
        let clip_from_world = self.seen?;
        let (_, at) = self.mode.arms().into_iter().find(|(m, _)| *m == method)?;
        let p = self.vertex_skinned(method, vertex)? + at;
        crate::ui::on_screen(clip_from_world, self.viewport_rect, p)
    }

    /// Each distinct centre the search found, where linear blending takes it now: the
    /// points drawn inside the arm.
    pub fn centres_now(&self) -> Vec<Vec3> {
        let palette = self.palette();
        let influences = &self.centred.mesh.skin.influences;
        (self.centred.distinct.iter())
            .map(|(c, i)| skin::lbs::blended_matrix(&palette, &influences[*i]).transform_point3(*c))
            .collect()
    }

    /// The two measures now, for each of [`Method::ALL`]: the elbow ring's area and
    /// the bulge.
    pub fn measures_now(&self) -> [(f32, f32); 3] {
        Method::ALL.map(|m| self.measure_now(m))
    }

    /// The two measures of `method` now.
    pub fn measure_now(&self, method: Method) -> (f32, f32) {
        (self.centred.measure).at(method, self.twist, self.bend, self.stretch)
    }

    /// The two measures against the sweep, three ways (cached).
    pub fn curves(&mut self) -> Arc<Curves> {
        let other = match self.sweep {
            Sweep::Bend => self.twist,
            Sweep::Twist => self.bend,
        };
        let key = (self.sweep, other, self.stretch);
        if let Some((k, curves)) = &self.curves
            && *k == key
        {
            return curves.clone();
        }
        let measure = &self.centred.measure;
        let mut area: [Vec<[f64; 2]>; 3] = Default::default();
        let mut bulge: [Vec<[f64; 2]>; 3] = Default::default();
        let steps = 48;
        for step in 0..=steps {
            let t = step as f32 / steps as f32;
            let (twist, bend, x) = match self.sweep {
                Sweep::Bend => (self.twist, MAX_BEND * t, MAX_BEND * t),
                Sweep::Twist => (
                    std::f32::consts::PI * t,
                    self.bend,
                    std::f32::consts::PI * t,
                ),
            };
            for (k, method) in Method::ALL.iter().enumerate() {
                let (a, b) = measure.at(*method, twist, bend, self.stretch);
                let x = x.to_degrees() as f64;
                area[k].push([x, a as f64]);
                bulge[k].push([x, b as f64]);
            }
        }
        let curves = Arc::new(Curves { area, bulge });
        self.curves = Some((key, curves.clone()));
        curves
    }
}

/// The part of the arm the measures read: its vertices of more than one joint (the
/// rest move rigidly, the same by every method), and the elbow ring among them.
struct Measure {
    skin: SkinMesh,
    centres: Vec<Vec3>,
    /// Where the elbow ring starts in `skin`.
    ring: usize,
    /// The elbow ring's area in the bind pose.
    bind: f32,
}

// ANCHOR: measures
impl Measure {
    fn of(mesh: &MeshData) -> Self {
        let blended = |i: &usize| mesh.skin.influences[*i].used().count() > 1;
        let kept: Vec<usize> = (0..mesh.skin.positions.len()).filter(blended).collect();
        let first = arm::elbow_ring() * arm::SEGMENTS;
        let ring = kept.iter().position(|i| *i == first).unwrap_or(0);
        let skin = SkinMesh {
            positions: kept.iter().map(|i| mesh.skin.positions[*i]).collect(),
            normals: kept.iter().map(|i| mesh.skin.normals[*i]).collect(),
            tangents: Vec::new(),
            influences: kept.iter().map(|i| mesh.skin.influences[*i]).collect(),
        };
        let centres = kept.iter().map(|i| mesh.centres[*i]).collect();
        let bind = ring_area(&skin.positions[ring..]).max(1e-6);
        Self {
            skin,
            centres,
            ring,
            bind,
        }
    }

    /// The elbow ring's area over the bind pose's, and the bulge: how far from the two
    /// bones the skin stands at most, over the arm's radius (1 where no vertex stands
    /// out further than the tube it was).
    fn at(&self, method: Method, twist: f32, bend: f32, stretch: f32) -> (f32, f32) {
        let palette = arm::palette_stretched(twist, bend, stretch);
        let v = method.skin(&palette, &self.skin, &self.centres);
        let p: Vec<Vec3> = v.iter().map(|v| v.position).collect();
        let area = ring_area(&p[self.ring..]) / self.bind;
        let world = arm::world_from_joint(twist, bend);
        let [shoulder, elbow] = [0, 1].map(|j| world[j].w_axis.truncate());
        let hand = world[1].transform_point3(Vec3::X * arm::BONE_LENGTH * stretch);
        let most = p
            .iter()
            .map(|p| segment_distance(*p, shoulder, elbow).min(segment_distance(*p, elbow, hand)))
            .fold(0.0f32, f32::max);
        (area, most / arm::RADIUS)
    }
}
// ANCHOR_END: measures

/// The area of the ring of [`arm::SEGMENTS`] vertices at the start of `positions`.
fn ring_area(positions: &[Vec3]) -> f32 {
    arm::ring_area(positions.get(..arm::SEGMENTS).unwrap_or(&[]), 0)
}

/// How far `p` is from the segment `a`–`b`.
fn segment_distance(p: Vec3, a: Vec3, b: Vec3) -> f32 {
    let ab = b - a;
    let t = ((p - a).dot(ab) / ab.length_squared().max(1e-12)).clamp(0.0, 1.0);
    p.distance(a + ab * t)
}

impl Lesson for CentresPage {
    fn camera(&self) -> Option<Camera> {
        Some(self.camera)
    }

    fn set_camera(&mut self, camera: Camera) {
        self.camera = camera;
    }

    const INFO: &'static PageInfo = &PageInfo {
        slug: "centres",
        chapter: chapter_text!("centres"),
    };

    const PARAMS: &'static [Param<Self>] = links::PARAMS;

    type Cell = Cell;

    fn cell_ui(&mut self, cell: Cell, ui: &mut egui::Ui) {
        self.page_cell_ui(cell, ui);
    }

    fn view_in_words(&mut self) -> String {
        let arms: Vec<&str> = self.mode.arms().iter().map(|(m, _)| m.label()).collect();
        format!(
            "Arms skinned by {}: twist {}, bend {}, the forearm stretched {:.2} times{}.",
            arms.join(", "),
            crate::ui::degrees(self.twist),
            crate::ui::degrees(self.bend),
            self.stretch,
            if self.show_centres {
                "; each vertex's centre of rotation marked"
            } else {
                ""
            }
        )
    }

    fn viewport_ui(&mut self, ui: &mut egui::Ui) {
        self.page_viewport_ui(ui);
    }
}
