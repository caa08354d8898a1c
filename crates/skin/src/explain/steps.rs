//! The working behind one vertex, step by step, for cells that show it: each joint's
//! partial position under linear blending, each dual quaternion under DQS and the screw
//! it makes, and the Gram-Schmidt steps that keep a tangent perpendicular to its normal.
//! The runtime computes the same results in one go ([`crate::lbs`], [`crate::dqs`],
//! [`crate::normals`]); the tests hold each breakdown to it.

use crate::dqs::{DualQuat, blend_dual_quats};
use crate::lbs::{SkinMesh, blended_matrix};
use crate::normals::{NormalMethod, transform_normal};
use crate::quat::turn;
use glam::{Mat4, Quat, Vec3, Vec4};

/// The position of one vertex under one joint alone: `palette[joint] * position`.
/// The weighted sum of these partial positions is the skinned position.
pub fn partial_position(palette: &[Mat4], joint: usize, position: Vec3) -> Vec3 {
    palette[joint].transform_point3(position)
}

/// One vertex taken apart: each influence's partial position and their weighted sum,
/// for inspectors that show the working.
#[derive(Clone, Debug, PartialEq)]
pub struct VertexBreakdown {
    /// The vertex's bind-space position.
    pub bind: Vec3,
    /// `(joint, weight, palette[joint] * bind)` for each influence with a weight.
    pub parts: Vec<(usize, f32, Vec3)>,
    /// The weighted sum of the partial positions: the skinned position.
    pub sum: Vec3,
    /// The blended matrix; `blended * bind == sum`.
    pub blended: Mat4,
}

impl VertexBreakdown {
    /// Takes vertex `vertex` of `mesh` apart under `palette`; `None` when there is no
    /// such vertex.
    pub fn new(palette: &[Mat4], mesh: &SkinMesh, vertex: usize) -> Option<Self> {
        let bind = *mesh.positions.get(vertex)?;
        let influences = mesh.influences.get(vertex)?;
        let parts: Vec<_> = influences
            .used()
            .map(|(joint, weight)| (joint, weight, partial_position(palette, joint, bind)))
            .collect();
        Some(Self {
            bind,
            sum: parts.iter().map(|(_, w, p)| *p * *w).sum(),
            parts,
            blended: blended_matrix(palette, influences),
        })
    }
}

/// A rigid motion seen as a screw: a turn by `angle` (radians) about the line through
/// `point` along the unit `axis`, and a slide of `slide` along that line. Every rigid
/// motion is one (Chasles' theorem); with no turn, `axis` is the slide's direction.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Screw {
    /// The line's direction, unit length.
    pub axis: Vec3,
    /// The turn about the line, radians.
    pub angle: f32,
    /// The point of the line nearest the origin.
    pub point: Vec3,
    /// How far the motion slides along the line.
    pub slide: f32,
}

impl DualQuat {
    /// The screw of a unit dual quaternion. The point on the axis is the one nearest
    /// the origin: `½·(t⊥ + cot(θ/2)·axis × t⊥)`, with `t⊥` the translation's part
    /// across the axis.
    pub fn screw(&self) -> Screw {
        let t = self.translation();
        let (axis, angle) = self.real.normalize().to_axis_angle();
        if angle.abs() < 1e-6 || !axis.is_finite() {
            let slide = t.length();
            let axis = if slide > 0.0 { t / slide } else { Vec3::X };
            return Screw {
                axis,
                angle: 0.0,
                point: Vec3::ZERO,
                slide,
            };
        }
        let slide = t.dot(axis);
        let across = t - axis * slide;
        let point = 0.5 * (across + axis.cross(across) / (angle * 0.5).tan());
        Screw {
            axis,
            angle,
            point,
            slide,
        }
    }
}

/// One vertex under dual quaternion skinning, taken apart for inspectors that show the
/// working: each influence's dual quaternion as added, their sum, the sum made unit,
/// and the point it moves.
#[derive(Clone, Debug, PartialEq)]
pub struct DqsBreakdown {
    /// The vertex's bind-space position.
    pub bind: Vec3,
    /// `(joint, weight, sign, dual quaternion)` for each influence with a weight; the
    /// sign is −1 where the antipodal check flipped it.
    pub parts: Vec<(usize, f32, f32, DualQuat)>,
    /// The weighted sum, before it is made unit.
    pub sum: DualQuat,
    /// The length of the sum's real part, which the normalisation divides by.
    pub length: f32,
    /// The blended unit dual quaternion ([`blend_dual_quats`]).
    pub unit: DualQuat,
    /// `real · bind · real*`: the bind position turned.
    pub turned: Vec3,
    /// The skinned position: `turned + translation`.
    pub moved: Vec3,
}

impl DqsBreakdown {
    /// Takes vertex `vertex` of `mesh` apart under `palette_dq`; `None` when there is
    /// no such vertex.
    pub fn new(
        palette_dq: &[DualQuat],
        mesh: &SkinMesh,
        vertex: usize,
        antipodal_check: bool,
    ) -> Option<Self> {
        let bind = *mesh.positions.get(vertex)?;
        let influences = mesh.influences.get(vertex)?;
        let pivot = Vec4::from(palette_dq.get(influences.joints[0] as usize)?.real);
        let mut parts = Vec::new();
        for (joint, weight) in influences.used() {
            let q = *palette_dq.get(joint)?;
            let flip = antipodal_check && Vec4::from(q.real).dot(pivot) < 0.0;
            parts.push((joint, weight, if flip { -1.0 } else { 1.0 }, q));
        }
        let add = |part: fn(&DualQuat) -> Quat| {
            let sum: Vec4 = parts
                .iter()
                .map(|(_, w, sign, q)| Vec4::from(part(q)) * (w * sign))
                .sum();
            Quat::from_vec4(sum)
        };
        let sum = DualQuat {
            real: add(|q| q.real),
            dual: add(|q| q.dual),
        };
        let unit = blend_dual_quats(palette_dq, influences, antipodal_check);
        let turned = turn(unit.real, bind);
        Some(Self {
            bind,
            length: Vec4::from(sum.real).length(),
            moved: turned + unit.translation(),
            parts,
            sum,
            unit,
            turned,
        })
    }
}

// ANCHOR: gram_schmidt
/// One vertex's normal and tangent, step by step (Gram-Schmidt, as the OpenGLStarter
/// article "Mesh Skinning" carries them).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TangentSteps {
    /// The blended matrix `M`.
    pub blended: Mat4,
    /// The bind-space normal and tangent.
    pub bind_normal: Vec3,
    /// The bind-space tangent.
    pub bind_tangent: Vec3,
    /// `N`: the skinned unit normal (by the chosen method).
    pub normal: Vec3,
    /// `T = normalize(M · t)`: the tangent carried by the matrix itself.
    pub carried: Vec3,
    /// `T · N`: zero when they are already perpendicular.
    pub dot: f32,
    /// `T − (T · N) N`, before normalising.
    pub removed: Vec3,
    /// The final unit tangent.
    pub tangent: Vec3,
}

impl TangentSteps {
    /// Works a vertex with bind-space `bind_normal` and `bind_tangent` under its
    /// blended matrix `blended`, the normal carried by `method`.
    pub fn new(blended: Mat4, bind_normal: Vec3, bind_tangent: Vec3, method: NormalMethod) -> Self {
        let normal = transform_normal(method, &blended, bind_normal);
        let carried = blended.transform_vector3(bind_tangent).normalize_or_zero();
        let dot = carried.dot(normal);
        let removed = carried - dot * normal;
        Self {
            blended,
            bind_normal,
            bind_tangent,
            normal,
            carried,
            dot,
            removed,
            tangent: removed.normalize_or_zero(),
        }
    }
}
// ANCHOR_END: gram_schmidt
