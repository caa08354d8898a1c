//! The blending page's deformation ellipses: a small circle around a vertex, carried by
//! the vertex's blended transform, drawn on both arms and summed up in a cell.

use super::{BlendingPage, Pose};
use crate::ui::ellipses;
use egui::{RichText, Ui};
use glam::Vec3;
use rigs::arm;
use scene::Scene;
use skin::explain::ellipse::{Ellipse, dqs_linear, lbs_linear};
use skin::lbs::SkinMesh;
use std::sync::Arc;

/// Every this many rings, and this many segments round a ring, carries a glyph.
pub const ELLIPSE_STRIDE: usize = 4;
/// The radius of the circle on the arm at rest, world units: under half the distance
/// between two glyphs, so neighbours do not touch until they grow past 1.2 times.
pub const ELLIPSE_RADIUS: f32 = 0.1;

/// One ellipse as drawn: where it sits in the world and its shape.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Glyph {
    /// The vertex it belongs to.
    pub vertex: usize,
    /// Whether it is on the DQS arm.
    pub dqs: bool,
    /// The vertex as drawn: its skinned position plus its arm's offset.
    pub center: Vec3,
    /// What the vertex's transform makes of a unit circle.
    pub ellipse: Ellipse,
}

/// The extremes of one method's ellipses over the whole arm.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EllipseRange {
    /// The smallest aspect (1 round, 0 a line) and the vertex that has it.
    pub thinnest: (f32, usize),
    /// The smallest area ratio.
    pub least_area: f32,
    /// The largest area ratio.
    pub most_area: f32,
}

impl BlendingPage {
    /// Vertex `v`'s deformation ellipse under linear blending, or under dual quaternions
    /// when `dqs`, as the page draws that arm (its `w`, its antipodal check). `None` for
    /// a vertex not on the arm, or one whose transform is not finite.
    pub fn ellipse(&self, pose: &Pose, dqs: bool, v: usize) -> Option<Ellipse> {
        self.ellipse_in(&self.skin(), pose, dqs, v)
    }

    /// [`BlendingPage::ellipse`] with the skin in use already at hand.
    fn ellipse_in(&self, skin: &SkinMesh, pose: &Pose, dqs: bool, v: usize) -> Option<Ellipse> {
        let influences = skin.influences.get(v)?;
        let linear = if dqs {
            dqs_linear(&pose.dual_quats, influences, self.antipodal_check)
        } else {
            lbs_linear(&pose.palette, influences, self.position_w)
        };
        Ellipse::new(linear, *skin.normals.get(v)?, *skin.tangents.get(v)?)
    }

    /// The smallest and largest ellipses of each method over every vertex: `[LBS, DQS]`.
    pub fn ellipse_ranges(&self, pose: &Pose) -> [Option<EllipseRange>; 2] {
        let skin = self.skin();
        [false, true].map(|dqs| {
            (0..skin.positions.len())
                .filter_map(|v| Some((v, self.ellipse_in(&skin, pose, dqs, v)?)))
                .fold(None, |range: Option<EllipseRange>, (v, e)| {
                    let (aspect, area) = (e.aspect(), e.area_ratio());
                    Some(match range {
                        None => EllipseRange {
                            thinnest: (aspect, v),
                            least_area: area,
                            most_area: area,
                        },
                        Some(r) => EllipseRange {
                            thinnest: if aspect < r.thinnest.0 {
                                (aspect, v)
                            } else {
                                r.thinnest
                            },
                            least_area: r.least_area.min(area),
                            most_area: r.most_area.max(area),
                        },
                    })
                })
        })
    }

    /// [`BlendingPage::ellipse_ranges`] of the current pose, found once per pose: the
    /// cell shows them every frame, and a pose has thousands of ellipses.
    pub fn current_ellipse_ranges(&self) -> [Option<EllipseRange>; 2] {
        let pose = self.skinned();
        if let Some((of, ranges)) = &self.cache().ranges
            && Arc::ptr_eq(of, &pose)
        {
            return *ranges;
        }
        let ranges = self.ellipse_ranges(&pose);
        self.cache().ranges = Some((pose, ranges));
        ranges
    }

    /// The ellipses the viewport draws: a sparse grid of vertices on each arm shown,
    /// those that face the camera (or whose skinned normal collapsed, so that it cannot
    /// tell), each centred where the shader draws its vertex.
    pub fn ellipse_glyphs(&self, pose: &Pose) -> Vec<Glyph> {
        let eye = self.camera.eye();
        let skin = self.skin();
        let mut glyphs = Vec::new();
        for (dqs, at, vertices) in self.placed(pose) {
            for ring in (0..arm::RING_COUNT).step_by(ELLIPSE_STRIDE) {
                for segment in (0..arm::SEGMENTS).step_by(ELLIPSE_STRIDE) {
                    let v = ring * arm::SEGMENTS + segment;
                    let Some(drawn) = vertices.get(v) else {
                        continue;
                    };
                    let center = drawn.position + at;
                    if !ellipses::faces(eye, center, drawn.normal) {
                        continue;
                    }
                    if let Some(ellipse) = self.ellipse_in(&skin, pose, dqs, v) {
                        glyphs.push(Glyph {
                            vertex: v,
                            dqs,
                            center,
                            ellipse,
                        });
                    }
                }
            }
        }
        glyphs
    }

    /// Adds [`BlendingPage::ellipse_glyphs`] to the scene, drawn over the arms.
    pub(super) fn add_ellipses(&self, scene: &mut Scene, pose: &Pose) {
        let glyphs: Vec<_> = self
            .ellipse_glyphs(pose)
            .into_iter()
            .map(|g| (g.center, g.ellipse))
            .collect();
        ellipses::add(scene, &glyphs, ELLIPSE_RADIUS);
    }

    pub(super) fn ellipses_ui(&mut self, ui: &mut Ui) {
        ui.checkbox(&mut self.ellipses, "Deformation ellipses");
        ui.label(
            RichText::new(
                "Each circle of radius ρ on the arm at rest, carried by its vertex's transform. \
                 While they are shown the arm is drawn without its heat map.",
            )
            .weak(),
        );
        let skin = self.skin();
        let ranges = self.current_ellipse_ranges();
        for (name, range) in ["LBS", "DQS"].iter().zip(ranges) {
            let text = match range {
                Some(r) => format!(
                    "{name}: thinnest aspect {:.2} (x = {:.2}), area {:.2} to {:.2}",
                    r.thinnest.0,
                    skin.positions.get(r.thinnest.1).map_or(f32::NAN, |p| p.x),
                    r.least_area,
                    r.most_area,
                ),
                None => format!("{name}: no vertex has an ellipse"),
            };
            crate::ui::mono_ui(ui, text);
        }
    }
}
