//! A viewport's last picture, kept in a framebuffer of its own. egui repaints the whole
//! window for any reason (a hover, a scroll of the notebook, a measurement under way), and
//! a scene that has not changed since then is copied back instead of drawn again: a
//! software renderer takes hundreds of milliseconds over a million skinned vertices, the
//! copy one.
//!
//! Native only: the web's canvas is multisampled, and WebGL2 cannot blit into a
//! multisampled framebuffer.

use super::draw::SceneRenderer;
use glam::{Mat4, Vec3};
use glow::HasContext as _;
use scene::{ColorVertex, EllipseOutline, JointIndices, Palette, Scene, SkinnedDraw};
use skin::lbs::PositionW;
use skin::normals::NormalMethod;

/// What a skinned draw shows, with its mesh named by id (so the key keeps no mesh alive).
#[derive(Clone, Debug, PartialEq)]
struct DrawKey {
    mesh: u64,
    palette: Palette,
    color: [f32; 4],
    lit: bool,
    line_width: f32,
    joint_indices: JointIndices,
    normals: NormalMethod,
    position_w: PositionW,
    offset: Vec3,
    streamed: Option<u64>,
    texture: Option<u64>,
    alpha: scene::Alpha,
    morph_weights: Vec<f32>,
}

/// Everything a scene's picture depends on.
#[derive(Clone, Debug, PartialEq)]
struct SceneKey {
    clip_from_world: Mat4,
    light_dir: Vec3,
    background: [f32; 4],
    backdrop: Vec<ColorVertex>,
    triangles: Vec<ColorVertex>,
    skinned: Vec<DrawKey>,
    lines: Vec<ColorVertex>,
    ellipses: Vec<EllipseOutline>,
    pixels_per_point: f32,
}

impl SceneKey {
    fn of(scene: &Scene) -> Self {
        // Named field by field, so a new field of a scene cannot be missed here.
        let Scene {
            clip_from_world,
            light_dir,
            background,
            backdrop,
            // Not drawn: only where a view is framed.
            framed: _,
            // Not drawn by GL: the viewport writes the letters.
            axis_ends: _,
            triangles,
            skinned,
            lines,
            ellipses,
            pixels_per_point,
        } = scene;
        Self {
            clip_from_world: *clip_from_world,
            light_dir: *light_dir,
            background: *background,
            backdrop: backdrop.clone(),
            triangles: triangles.clone(),
            skinned: skinned
                .iter()
                .map(|d| {
                    // Named field by field, so a new field of a draw cannot be missed here.
                    let SkinnedDraw {
                        mesh,
                        palette,
                        color,
                        lit,
                        line_width,
                        joint_indices,
                        normals,
                        position_w,
                        offset,
                        streamed,
                        texture,
                        alpha,
                        morph_weights,
                    } = d;
                    DrawKey {
                        mesh: mesh.id,
                        palette: palette.clone(),
                        color: *color,
                        lit: *lit,
                        line_width: *line_width,
                        joint_indices: *joint_indices,
                        normals: *normals,
                        position_w: *position_w,
                        offset: *offset,
                        streamed: streamed.as_ref().map(|s| s.id),
                        texture: texture.as_ref().map(|t| t.id),
                        alpha: *alpha,
                        morph_weights: morph_weights.clone(),
                    }
                })
                .collect(),
            lines: lines.clone(),
            ellipses: ellipses.clone(),
            pixels_per_point: *pixels_per_point,
        }
    }
}

/// Scenes with fewer skinned vertices than this are drawn every frame rather than
/// kept: on a software renderer that is steadier than the copy, which takes 0.7 ms in
/// most frames but 4 ms in one in twenty.
pub const KEPT_FROM_VERTICES: usize = 50_000;

/// Where a viewport lies in the framebuffer egui paints: left, bottom, width, height in
/// pixels (what `glViewport` takes).
pub type ViewportPx = [i32; 4];

/// One viewport's picture in a framebuffer of its size, and the scene it shows.
pub struct SceneCache {
    fbo: glow::Framebuffer,
    color: glow::Renderbuffer,
    depth: glow::Renderbuffer,
    size: [i32; 2],
    /// The scene the framebuffer holds (none until one is drawn whole).
    drawn: Option<SceneKey>,
    /// The scene shown last, kept or not.
    last: Option<SceneKey>,
}

impl SceneCache {
    /// An empty cache; its storage is sized at the first paint.
    pub fn new(gl: &glow::Context) -> Result<Self, String> {
        // SAFETY: the objects are created here and owned by the cache.
        unsafe {
            let fbo = gl.create_framebuffer()?;
            let color = gl.create_renderbuffer()?;
            let depth = gl.create_renderbuffer()?;
            Ok(Self {
                fbo,
                color,
                depth,
                size: [0, 0],
                drawn: None,
                last: None,
            })
        }
    }

    /// Sizes the storage for `size` pixels; false when the driver refuses it.
    ///
    /// # Safety
    /// `target` is bound as the framebuffer on the current context, which owns `self`.
    unsafe fn resize(
        &mut self,
        gl: &glow::Context,
        size: [i32; 2],
        target: Option<glow::Framebuffer>,
    ) -> bool {
        // SAFETY: the caller's context owns these objects; the binding is restored.
        unsafe {
            self.size = [0, 0];
            self.drawn = None;
            let largest = gl.get_parameter_i32(glow::MAX_RENDERBUFFER_SIZE);
            if size[0] > largest || size[1] > largest {
                return false;
            }
            gl.bind_renderbuffer(glow::RENDERBUFFER, Some(self.color));
            gl.renderbuffer_storage(glow::RENDERBUFFER, glow::RGBA8, size[0], size[1]);
            gl.bind_renderbuffer(glow::RENDERBUFFER, Some(self.depth));
            gl.renderbuffer_storage(
                glow::RENDERBUFFER,
                glow::DEPTH_COMPONENT24,
                size[0],
                size[1],
            );
            gl.bind_renderbuffer(glow::RENDERBUFFER, None);
            gl.bind_framebuffer(glow::FRAMEBUFFER, Some(self.fbo));
            gl.framebuffer_renderbuffer(
                glow::FRAMEBUFFER,
                glow::COLOR_ATTACHMENT0,
                glow::RENDERBUFFER,
                Some(self.color),
            );
            gl.framebuffer_renderbuffer(
                glow::FRAMEBUFFER,
                glow::DEPTH_ATTACHMENT,
                glow::RENDERBUFFER,
                Some(self.depth),
            );
            let complete =
                gl.check_framebuffer_status(glow::FRAMEBUFFER) == glow::FRAMEBUFFER_COMPLETE;
            gl.bind_framebuffer(glow::FRAMEBUFFER, target);
            if complete {
                self.size = size;
            } else {
                // The storage the driver refused left its error behind: clear it, so the
                // direct draw that follows does not report it as its own.
                for _ in 0..8 {
                    if gl.get_error() == glow::NO_ERROR {
                        break;
                    }
                }
            }
            complete
        }
    }

    /// Shows `scene` in `viewport` of the framebuffer `target` (the one egui paints, bound
    /// now, with egui's scissor box set). A scene that differs from the one shown last is
    /// moving (an animation, a drag): it is drawn straight into `target`, since a copy
    /// kept now would be stale by the next frame, and the copy would make a software
    /// renderer finish the scene in the middle of egui's frame. A scene shown twice in a
    /// row is drawn into the cache, unless the cache already holds it at this size, then
    /// copied. Returns whether the scene was drawn anew. A scene that failed to draw is
    /// shown as far as it got and not kept.
    pub fn paint(
        &mut self,
        gl: &glow::Context,
        renderer: &mut SceneRenderer,
        scene: &Scene,
        viewport: ViewportPx,
        target: Option<glow::Framebuffer>,
    ) -> Result<bool, String> {
        let [left, bottom, width, height] = viewport;
        if width <= 0 || height <= 0 {
            return Ok(false);
        }
        let skinned: usize = scene
            .skinned
            .iter()
            .map(|d| d.mesh.skin.positions.len())
            .sum();
        if skinned < KEPT_FROM_VERTICES {
            // Never kept: no key to build (it copies the scene's lines and triangles).
            self.last = None;
            return renderer
                .paint(gl, scene, [width as f32, height as f32])
                .map(|()| true);
        }
        let key = SceneKey::of(scene);
        if self.last.as_ref() != Some(&key) {
            self.last = Some(key);
            return renderer
                .paint(gl, scene, [width as f32, height as f32])
                .map(|()| true);
        }
        // SAFETY: every object belongs to this context; the framebuffer binding, viewport
        // and scissor test are restored to what egui set before returning.
        unsafe {
            if self.size != [width, height] && !self.resize(gl, [width, height], target) {
                // No framebuffer of this size: draw straight into egui's.
                return renderer
                    .paint(gl, scene, [width as f32, height as f32])
                    .map(|()| true);
            }
            let fresh = self.drawn.as_ref() != Some(&key);
            let mut result = Ok(fresh);
            if fresh {
                gl.bind_framebuffer(glow::FRAMEBUFFER, Some(self.fbo));
                gl.viewport(0, 0, width, height);
                gl.disable(glow::SCISSOR_TEST);
                result = renderer
                    .paint(gl, scene, [width as f32, height as f32])
                    .map(|()| true);
                self.drawn = result.is_ok().then_some(key);
                gl.enable(glow::SCISSOR_TEST);
                gl.viewport(left, bottom, width, height);
            }
            gl.bind_framebuffer(glow::READ_FRAMEBUFFER, Some(self.fbo));
            gl.bind_framebuffer(glow::DRAW_FRAMEBUFFER, target);
            gl.blit_framebuffer(
                0,
                0,
                width,
                height,
                left,
                bottom,
                left + width,
                bottom + height,
                glow::COLOR_BUFFER_BIT,
                glow::NEAREST,
            );
            gl.bind_framebuffer(glow::FRAMEBUFFER, target);
            result
        }
    }

    /// Frees the framebuffer and its storage.
    pub fn destroy(self, gl: &glow::Context) {
        // SAFETY: the objects were created by `new` on this context.
        unsafe {
            gl.delete_framebuffer(self.fbo);
            gl.delete_renderbuffer(self.color);
            gl.delete_renderbuffer(self.depth);
        }
    }
}
