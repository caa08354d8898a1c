//! Framing the camera to what the viewport shows: the meshes' place on screen is
//! measured while a frame is drawn, and the camera moved before the next.

use super::*;

/// `camera` moved so that `mesh`, drawn in `drawn`'s viewport, fits the part of the view
/// no note covers.
fn fitted(
    camera: crate::ui::Camera,
    drawn: &crate::ui::viewport::Drawn,
    mesh: egui::Rect,
) -> crate::ui::Camera {
    let rect = |r: egui::Rect| {
        let c = r.center();
        [
            glam::Vec2::new(c.x, c.y),
            glam::Vec2::new(r.width(), r.height()),
        ]
    };
    camera.framing(rect(drawn.viewport), rect(drawn.clear()), rect(mesh))
}

/// How near a mesh may come to its viewport's edge, in points, before a link's view
/// is framed: a mesh that touches the edge looks cut off.
const FRAME_MARGIN: f32 = 8.0;

/// How many times a fit measures and may move the camera. A plane camera fits in one;
/// an orbit camera keeps its angles and moves by steps: two fit, and the last only
/// checks, moving the camera again only if the meshes still cross the view's edge (a
/// long model seen in perspective, as the fox from its side in a tall pane, can).
const FIT_PASSES: u8 = 3;

/// Fitting the page's camera to what its viewport shows: the meshes' place on screen is
/// measured while a frame is drawn, and the camera moved before the next.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Framing {
    /// Fit even when everything is in view already (the Frame button); otherwise
    /// only when a mesh reaches past the viewport's edge (a link just opened), or
    /// when the layout is narrow, in focus mode or in presenter mode, where a page's
    /// own camera was not chosen for the viewport's shape or the hall.
    pub(super) always: bool,
    /// Whether the fit follows from the link alone, so the link need not name it.
    pub(super) from_link: bool,
    /// Measurements still to make ([`FIT_PASSES`] at the start).
    pub(super) passes: u8,
    /// Whether the app started the measuring, and so stops it.
    pub(super) owns_recording: bool,
    /// Whether the frame just drawn was measured.
    pub(super) measuring: bool,
}

impl Framing {
    /// A fit about to start: always or only where a mesh reaches the edge, and whether
    /// a link asked for it.
    pub(super) fn new(always: bool, from_link: bool) -> Self {
        Self {
            always,
            from_link,
            passes: FIT_PASSES,
            owns_recording: false,
            measuring: false,
        }
    }
}

impl SkinlabApp {
    /// Fits the camera to what the viewport shows over the next frames (the Frame
    /// button, the Home key).
    pub fn frame_view(&mut self) {
        self.framing = Some(Framing::new(true, false));
    }

    /// One step of [`Framing`], before a frame is drawn: the camera moved by what the
    /// last frame measured, and the next measurement started.
    pub(super) fn framing_step(&mut self, ctx: &egui::Context) {
        use crate::ui::viewport::MeshBounds;
        let Some(mut f) = self.framing.take() else {
            return;
        };
        if !f.measuring {
            f.owns_recording = !MeshBounds::recording(ctx);
            MeshBounds::record(ctx);
            f.measuring = true;
            self.framing = Some(f);
            ctx.request_repaint();
            return;
        }
        if self.compare.is_some() {
            self.frame_compared(ctx, f);
            return;
        }
        // The largest viewport that drew a mesh is the one the page's camera looks
        // through.
        let seen = MeshBounds::of(ctx)
            .into_iter()
            .filter(|d| d.mesh.is_some())
            .max_by(|a, b| a.viewport.area().total_cmp(&b.viewport.area()));
        // A page's own camera was chosen for its viewport beside the notebook, read at
        // a desk: in a narrow window, in focus mode or on a projector, a link is framed
        // anew, zooming in as well as out, so its picture fills the view.
        let reshaped = self.narrow || self.focus.is_some() || self.presenter;
        let checking = f.passes == 1;
        let always = !checking && (f.always || (f.from_link && reshaped));
        let fit = seen.and_then(|d| {
            let mesh = d.mesh?;
            (always || !d.viewport.shrink(FRAME_MARGIN).contains_rect(mesh)).then_some((d, mesh))
        });
        if let (Some((drawn, mesh)), Some(camera)) = (fit, self.pages.page().camera()) {
            self.pages
                .page_mut()
                .set_camera(fitted(camera, &drawn, mesh));
            if f.from_link {
                // Framed because of the link and the layout: the link still says it all.
                self.pages.settle_camera();
            }
            f.passes = f.passes.saturating_sub(1);
            if f.passes > 0 {
                MeshBounds::record(ctx);
                self.framing = Some(f);
                ctx.request_repaint();
                return;
            }
        }
        if f.owns_recording {
            MeshBounds::stop(ctx);
        }
    }

    /// [`Self::framing_step`] for two states side by side: each side's camera fitted
    /// to its own viewport (left to right), always, since neither camera was chosen for
    /// half a window.
    fn frame_compared(&mut self, ctx: &egui::Context, mut f: Framing) {
        use crate::ui::viewport::MeshBounds;
        let Some(compare) = &mut self.compare else {
            return;
        };
        let mut seen: Vec<_> = MeshBounds::of(ctx)
            .into_iter()
            .filter_map(|d| Some((d.mesh?, d)))
            .collect();
        seen.sort_by(|a, b| a.1.viewport.left().total_cmp(&b.1.viewport.left()));
        let mut moved = false;
        for (side, (mesh, drawn)) in compare.sides.iter_mut().zip(&seen) {
            if let Some(camera) = side.camera() {
                side.set_camera(fitted(camera, drawn, *mesh));
                moved = true;
            }
        }
        f.passes = f.passes.saturating_sub(1);
        if moved && f.passes > 0 {
            MeshBounds::record(ctx);
            self.framing = Some(f);
            ctx.request_repaint();
        } else if f.owns_recording {
            MeshBounds::stop(ctx);
        }
    }
}
