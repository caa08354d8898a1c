//! Cameras for the viewport: an orbit camera for 3D pages, a pan/zoom plane for 2D ones.

use glam::camera::rh::proj::opengl::{orthographic, perspective};
use glam::camera::rh::view::look_at_mat4;
use glam::{Mat4, Vec2, Vec3};

/// Turns around a target point: drag to orbit, scroll to zoom.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OrbitCamera {
    /// The point looked at.
    pub target: Vec3,
    /// Rotation about the world y axis, radians.
    pub yaw: f32,
    /// Elevation above the ground plane, radians.
    pub pitch: f32,
    /// Distance from the target.
    pub distance: f32,
}

impl Default for OrbitCamera {
    fn default() -> Self {
        Self {
            target: Vec3::new(0.9, 0.6, 0.4),
            yaw: 0.6,
            pitch: 0.45,
            distance: 8.5,
        }
    }
}

impl OrbitCamera {
    /// Where the eye is.
    pub fn eye(&self) -> Vec3 {
        let (sy, cy) = self.yaw.sin_cos();
        let (sp, cp) = self.pitch.sin_cos();
        self.target + self.distance * Vec3::new(cp * sy, sp, cp * cy)
    }
}

/// Looks straight down -z at the xy plane.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PlaneCamera {
    /// The world point at the centre of the view.
    pub center: Vec2,
    /// Half the visible height in world units.
    pub half_height: f32,
}

/// A viewport camera.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Camera {
    /// 3D, perspective.
    Orbit(OrbitCamera),
    /// 2D, orthographic.
    Plane(PlaneCamera),
}

impl Camera {
    /// Clip space from world space for a viewport of the given width / height.
    pub fn clip_from_world(&self, aspect: f32) -> Mat4 {
        let aspect = if aspect.is_finite() && aspect > 0.0 {
            aspect
        } else {
            1.0
        };
        match self {
            Self::Orbit(c) => {
                perspective(45f32.to_radians(), aspect, 0.05, 500.0)
                    * look_at_mat4(c.eye(), c.target, Vec3::Y)
            }
            Self::Plane(c) => {
                let h = c.half_height;
                let w = h * aspect;
                orthographic(
                    c.center.x - w,
                    c.center.x + w,
                    c.center.y - h,
                    c.center.y + h,
                    -10.0,
                    10.0,
                )
            }
        }
    }

    /// Direction towards the light: from the target to the eye (a headlight).
    pub fn light_dir(&self) -> Vec3 {
        match self {
            Self::Orbit(c) => (c.eye() - c.target).normalize_or(Vec3::Z),
            Self::Plane(_) => Vec3::Z,
        }
    }

    /// Applies a drag (in points) and a scroll (in points) from the viewport of `height`.
    pub fn handle_input(&mut self, drag: Vec2, scroll: f32, height: f32) {
        let zoom = (-scroll * 0.002).exp();
        match self {
            Self::Orbit(c) => {
                c.yaw -= drag.x * 0.01;
                c.pitch = (c.pitch + drag.y * 0.01).clamp(-1.5, 1.5);
                c.distance = (c.distance * zoom).clamp(1.0, 100.0);
            }
            Self::Plane(c) => {
                let world_per_point = 2.0 * c.half_height / height.max(1.0);
                c.center += Vec2::new(-drag.x, drag.y) * world_per_point;
                c.half_height = (c.half_height * zoom).clamp(1.0, 100.0);
            }
        }
    }
}
