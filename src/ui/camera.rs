//! Cameras for the viewport: an orbit camera for 3D pages, a pan/zoom plane for 2D ones.

use glam::camera::rh::proj::opengl::{orthographic, perspective};
use glam::camera::rh::view::look_at_mat4;
use glam::{Mat4, Vec2, Vec3};

/// The orbit camera's vertical field of view, radians.
const FOV_Y: f32 = std::f32::consts::FRAC_PI_4;

/// How much nearer a point of wheel scroll brings the view (as a rate: the distance
/// is multiplied by e^(−WHEEL_ZOOM · points)).
const WHEEL_ZOOM: f32 = 0.001;

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

/// How near and how far an orbit camera may be from its target: from a model a
/// hundredth of a millimetre across to one of a hundred thousand kilometres (a file in
/// metres scaled by 10⁻⁵ or by 10⁶ is framed like the rest). Near and far planes follow
/// the distance, so any size in this range is drawn whole.
pub const ORBIT_DISTANCE: std::ops::RangeInclusive<f32> = 1.0e-6..=1.0e9;
/// How far from the origin an orbit camera's target may be, on each axis.
pub const TARGET_LIMIT: f32 = 1.0e9;

/// Rounds to a whole number of `1 / per_unit` (a power of ten), so a dragged camera's
/// link stays short and reopens exactly.
fn rounded(x: f32, per_unit: f32) -> f32 {
    (x * per_unit).round() / per_unit + 0.0
}

/// How finely an orbit camera's distance and target are rounded in a link: to
/// thousandths, or to thousandths of the distance's power of ten below 1 (a model a
/// hundredth of a millimetre across keeps its place).
fn orbit_per_unit(distance: f32) -> f32 {
    10f32.powi(3 - distance.log10().floor().min(0.0) as i32)
}

impl Camera {
    /// Where the camera stands, for telling which side of a surface faces it: an orbit
    /// camera's eye; a plane camera looks down −z, as if from far above +z.
    pub fn eye(&self) -> Vec3 {
        match self {
            Self::Orbit(c) => c.eye(),
            Self::Plane(_) => Vec3::Z * 100.0,
        }
    }

    /// The camera as a link value: `yaw,pitch,distance,x,y,z` (orbit: angles in radians,
    /// the target last) or `x,y,half_height` (plane: the centre, then the half height).
    pub fn to_link(&self) -> String {
        let numbers: Vec<f32> = match self {
            Self::Orbit(c) => {
                let per_unit = orbit_per_unit(c.distance);
                let far = [c.distance, c.target.x, c.target.y, c.target.z];
                let angles = [c.yaw, c.pitch].map(|a| rounded(a, 1000.0));
                angles
                    .into_iter()
                    .chain(far.map(|x| rounded(x, per_unit)))
                    .collect()
            }
            Self::Plane(c) => [c.center.x, c.center.y, c.half_height]
                .map(|x| rounded(x, 1000.0))
                .to_vec(),
        };
        super::numbers::numbers(&numbers)
    }

    /// What [`Camera::to_link`] writes for a camera of this kind, in words.
    pub fn link_form(&self) -> &'static str {
        match self {
            Self::Orbit(_) => {
                "6 numbers: yaw and pitch in radians (pitch within ±1.55), distance from \
                 0.000001 to 1000000000, then the target x, y, z within ±1000000000"
            }
            Self::Plane(_) => {
                "3 numbers: the centre x, y within ±1000, then the half height from 0.01 to 1000"
            }
        }
    }

    /// Reads a camera of this kind from a link value, or says what it must be.
    pub fn from_link(&self, text: &str) -> Result<Self, String> {
        let numbers: Option<Vec<f32>> = text.split(',').map(super::numbers::parse_number).collect();
        let form = || self.link_form().to_owned();
        let numbers = numbers.ok_or_else(form)?;
        let within = |x: f32, range: std::ops::RangeInclusive<f32>| range.contains(&x);
        match (self, numbers.as_slice()) {
            (Self::Orbit(_), &[yaw, pitch, distance, x, y, z])
                if within(yaw, -1000.0..=1000.0)
                    && within(pitch, -1.55..=1.55)
                    && within(distance, ORBIT_DISTANCE)
                    && [x, y, z]
                        .iter()
                        .all(|v| within(*v, -TARGET_LIMIT..=TARGET_LIMIT)) =>
            {
                Ok(Self::Orbit(OrbitCamera {
                    target: Vec3::new(x, y, z),
                    yaw,
                    pitch,
                    distance,
                }))
            }
            (Self::Plane(_), &[x, y, half_height])
                if within(half_height, 0.01..=1000.0)
                    && [x, y].iter().all(|v| within(*v, -1000.0..=1000.0)) =>
            {
                Ok(Self::Plane(PlaneCamera {
                    center: Vec2::new(x, y),
                    half_height,
                }))
            }
            _ => Err(form()),
        }
    }

    /// The two factors of [`Camera::clip_from_world`] for an orbit camera: the view
    /// (`view_from_world`, `V`) and the projection (`clip_from_view`, `P`), so that
    /// `clip = P · V · world`. `None` for a plane camera.
    pub fn view_and_projection(&self, aspect: f32) -> Option<(Mat4, Mat4)> {
        let aspect = if aspect.is_finite() && aspect > 0.0 {
            aspect
        } else {
            1.0
        };
        let Self::Orbit(c) = self else {
            return None;
        };
        // A hundredth of the distance to a hundred times it: 0.05 to 500 at the
        // lessons' distance of 5, and as wide for a model of any size.
        let (near, far) = (c.distance * 0.01, c.distance * 100.0);
        Some((
            look_at_mat4(c.eye(), c.target, Vec3::Y),
            perspective(FOV_Y, aspect, near, far),
        ))
    }

    /// Clip space from world space for a viewport of the given width / height.
    pub fn clip_from_world(&self, aspect: f32) -> Mat4 {
        match (self, self.view_and_projection(aspect)) {
            (_, Some((view, projection))) => projection * view,
            (Self::Plane(c), None) => {
                let aspect = if aspect.is_finite() && aspect > 0.0 {
                    aspect
                } else {
                    1.0
                };
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
            (Self::Orbit(_), None) => Mat4::IDENTITY,
        }
    }

    /// How far apart, in world units, two points one screen point apart are at the
    /// camera's target, in a viewport `height` points high: a scale for "too small to
    /// see".
    pub fn world_per_point(&self, height: f32) -> f32 {
        let span = match self {
            Self::Orbit(c) => 2.0 * c.distance * (FOV_Y * 0.5).tan(),
            Self::Plane(c) => 2.0 * c.half_height,
        };
        span / height.max(1.0)
    }

    /// The camera moved so that what covers `content` on screen fills 80% of `target`,
    /// a part of a viewport covering `view` (each `[centre, size]` in points, y down),
    /// centred in it. Exact for a plane camera; for an orbit camera, which keeps its
    /// angles, a step that a second measurement finishes.
    pub fn framing(&self, view: [Vec2; 2], target: [Vec2; 2], content: [Vec2; 2]) -> Self {
        let [view_center, view_size] = view;
        let [target_center, target_size] = target;
        let [center, size] = content;
        let fill = 0.8;
        let scale = (size.x / target_size.x.max(1.0))
            .max(size.y / target_size.y.max(1.0))
            .max(1e-3)
            / fill;
        // Where the new view's centre goes, in points from the old one (y up): onto the
        // content's centre, less the target's offset from the view's centre at the new
        // zoom.
        let flip = Vec2::new(1.0, -1.0);
        let shift = ((center - view_center) - (target_center - view_center) * scale) * flip;
        let per_point = self.world_per_point(view_size.y);
        match *self {
            Self::Plane(c) => Self::Plane(PlaneCamera {
                center: c.center + shift * per_point,
                half_height: (c.half_height * scale).clamp(0.01, 1000.0),
            }),
            Self::Orbit(c) => {
                let forward = (c.target - c.eye()).normalize_or(Vec3::NEG_Z);
                let right = forward.cross(Vec3::Y).normalize_or(Vec3::X);
                let up = right.cross(forward);
                Self::Orbit(OrbitCamera {
                    target: (c.target + (right * shift.x + up * shift.y) * per_point)
                        .clamp(Vec3::splat(-TARGET_LIMIT), Vec3::splat(TARGET_LIMIT)),
                    distance: (c.distance * scale)
                        .clamp(*ORBIT_DISTANCE.start(), *ORBIT_DISTANCE.end()),
                    ..c
                })
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

    /// Applies a two-finger gesture (or a trackpad's pinch) in the viewport of
    /// `height`: the view follows the fingers' `shift` (in points, y down), and
    /// `spread` (above 1 as they part) brings it nearer by as much, about the point
    /// between the fingers (`about`, in points from the viewport's centre, y down): what
    /// lies under the fingers stays under them.
    pub fn handle_gesture(&mut self, shift: Vec2, spread: f32, about: Vec2, height: f32) {
        let spread = if spread.is_finite() && spread > 0.0 {
            spread
        } else {
            1.0
        };
        let before = self.world_per_point(height);
        match self {
            Self::Orbit(c) => {
                c.distance =
                    (c.distance / spread).clamp(*ORBIT_DISTANCE.start(), *ORBIT_DISTANCE.end());
            }
            Self::Plane(c) => c.half_height = (c.half_height / spread).clamp(1.0, 100.0),
        }
        let after = self.world_per_point(height);
        self.pan(about * (before - after) - shift * before);
    }

    /// Moves what the camera looks at by `by` world units along the screen's right and
    /// down.
    fn pan(&mut self, by: Vec2) {
        match self {
            Self::Orbit(c) => {
                let forward = (c.target - c.eye()).normalize_or(Vec3::NEG_Z);
                let right = forward.cross(Vec3::Y).normalize_or(Vec3::X);
                let up = right.cross(forward);
                c.target = (c.target + right * by.x - up * by.y)
                    .clamp(Vec3::splat(-TARGET_LIMIT), Vec3::splat(TARGET_LIMIT));
            }
            Self::Plane(c) => c.center += Vec2::new(by.x, -by.y),
        }
    }

    /// Applies a drag (in points) and a scroll (in points) from the viewport of `height`:
    /// a wheel's notch (about 100 points) brings the view about 10 % nearer.
    pub fn handle_input(&mut self, drag: Vec2, scroll: f32, height: f32) {
        let zoom = (-scroll * WHEEL_ZOOM).exp();
        match self {
            Self::Orbit(c) => {
                c.yaw -= drag.x * 0.01;
                c.pitch = (c.pitch + drag.y * 0.01).clamp(-1.5, 1.5);
                c.distance =
                    (c.distance * zoom).clamp(*ORBIT_DISTANCE.start(), *ORBIT_DISTANCE.end());
            }
            Self::Plane(c) => {
                let world_per_point = 2.0 * c.half_height / height.max(1.0);
                c.center += Vec2::new(-drag.x, drag.y) * world_per_point;
                c.half_height = (c.half_height * zoom).clamp(1.0, 100.0);
            }
        }
    }
}

#[cfg(test)]
mod link_tests {
    use super::*;

    #[test]
    fn fingers_apart_bring_the_view_nearer_and_fingers_together_pan_it() {
        let orbit = OrbitCamera::default();
        let mut camera = Camera::Orbit(orbit);
        camera.handle_gesture(Vec2::ZERO, 2.0, Vec2::ZERO, 400.0);
        let Camera::Orbit(pinched) = camera else {
            unreachable!()
        };
        assert!(
            (pinched.distance - orbit.distance / 2.0).abs() < 1e-5,
            "{pinched:?}"
        );
        assert_eq!(pinched.target, orbit.target, "a pinch alone does not pan");
        // Fingers moving right drag the picture right: the target moves left.
        camera.handle_gesture(Vec2::new(40.0, 0.0), 1.0, Vec2::ZERO, 400.0);
        let Camera::Orbit(panned) = camera else {
            unreachable!()
        };
        let right = (orbit.target - orbit.eye()).cross(Vec3::Y).normalize();
        assert!(
            (panned.target - orbit.target).dot(right) < -0.01,
            "{panned:?}"
        );
        assert_eq!(panned.distance, pinched.distance);
        // On a plane, the same: half the height, and the centre follows the fingers.
        let mut plane = Camera::Plane(PlaneCamera {
            center: Vec2::ZERO,
            half_height: 8.0,
        });
        plane.handle_gesture(Vec2::new(0.0, 100.0), 2.0, Vec2::ZERO, 400.0);
        let Camera::Plane(p) = plane else {
            unreachable!()
        };
        assert!((p.half_height - 4.0).abs() < 1e-5);
        assert!(
            p.center.y > 0.0,
            "fingers moving down show what is above: {p:?}"
        );
        // A spread that is not a number leaves the zoom alone.
        plane.handle_gesture(Vec2::ZERO, f32::NAN, Vec2::ZERO, 400.0);
        assert_eq!(plane, Camera::Plane(p));
    }

    #[test]
    fn a_pinch_keeps_what_lies_between_the_fingers_under_them() {
        // A 400-point-high view of a plane 16 units high: 0.04 units a point.
        let start = PlaneCamera {
            center: Vec2::new(1.0, 2.0),
            half_height: 8.0,
        };
        // Fingers 100 points right of and 50 below the centre, spreading to twice apart.
        let about = Vec2::new(100.0, 50.0);
        let under = |c: &PlaneCamera| {
            c.center + Vec2::new(about.x, -about.y) * (2.0 * c.half_height / 400.0)
        };
        let mut camera = Camera::Plane(start);
        camera.handle_gesture(Vec2::ZERO, 2.0, about, 400.0);
        let Camera::Plane(pinched) = camera else {
            unreachable!()
        };
        assert!((pinched.half_height - 4.0).abs() < 1e-5, "{pinched:?}");
        assert!(
            (under(&pinched) - under(&start)).length() < 1e-5,
            "{:?} moved to {:?}",
            under(&start),
            under(&pinched)
        );
        // An orbit camera's target moves toward the fingers as it comes nearer.
        let orbit = OrbitCamera::default();
        let mut camera = Camera::Orbit(orbit);
        camera.handle_gesture(Vec2::ZERO, 2.0, about, 400.0);
        let Camera::Orbit(nearer) = camera else {
            unreachable!()
        };
        let right = (orbit.target - orbit.eye()).cross(Vec3::Y).normalize();
        assert!(
            (nearer.target - orbit.target).dot(right) > 0.01,
            "{nearer:?}"
        );
    }

    #[test]
    fn framing_a_plane_puts_the_content_in_the_middle_at_the_fill() {
        let camera = Camera::Plane(PlaneCamera {
            center: Vec2::ZERO,
            half_height: 5.0,
        });
        // A 400×400 view; the content covers 100×40 points right of and below centre.
        let view = [Vec2::new(200.0, 200.0), Vec2::splat(400.0)];
        let content = [Vec2::new(300.0, 250.0), Vec2::new(100.0, 40.0)];
        let Camera::Plane(c) = camera.framing(view, view, content) else {
            unreachable!()
        };
        // 10 world units over 400 points: 0.025 per point; y goes up in the world.
        assert!((c.center - Vec2::new(2.5, -1.25)).length() < 1e-5, "{c:?}");
        // The content, 100 of 400 points wide, is to fill 80% of the view.
        let scale = 0.25 / 0.8;
        assert!((c.half_height - 5.0 * scale).abs() < 1e-5, "{c:?}");
        // Into the lower half only (a note across the top): the content's centre lands
        // on that half's centre, 100 points below the view's.
        let lower = [Vec2::new(200.0, 300.0), Vec2::new(400.0, 200.0)];
        let Camera::Plane(d) = camera.framing(view, lower, content) else {
            unreachable!()
        };
        let below = 100.0 * 0.025 * scale;
        assert!(
            (d.center - (c.center + Vec2::new(0.0, below))).length() < 1e-5,
            "{d:?}"
        );
    }

    #[test]
    fn half_the_view_height_in_points_reaches_the_top_edge() {
        let orbit = Camera::Orbit(OrbitCamera {
            target: Vec3::new(1.0, 2.0, 0.0),
            yaw: 0.0,
            pitch: 0.0,
            distance: 7.0,
        });
        let plane = Camera::Plane(PlaneCamera {
            center: glam::Vec2::new(0.5, 0.0),
            half_height: 3.0,
        });
        for (camera, target) in [
            (orbit, Vec3::new(1.0, 2.0, 0.0)),
            (plane, Vec3::new(0.5, 0.0, 0.0)),
        ] {
            let height = 600.0;
            let up = camera.world_per_point(height) * height / 2.0;
            let clip = camera.clip_from_world(1.5) * (target + Vec3::Y * up).extend(1.0);
            assert!(
                (clip.y / clip.w - 1.0).abs() < 1e-4,
                "{camera:?}: {}",
                clip.y / clip.w
            );
        }
    }

    #[test]
    fn a_camera_link_reopens_the_camera_and_refuses_what_it_cannot_be() {
        let orbit = Camera::Orbit(OrbitCamera::default());
        let text = orbit.to_link();
        assert_eq!(text, "0.6,0.45,8.5,0.9,0.6,0.4");
        assert_eq!(orbit.from_link(&text), Ok(orbit));
        let plane = Camera::Plane(PlaneCamera {
            center: Vec2::new(1.0, -2.5),
            half_height: 4.0,
        });
        assert_eq!(plane.from_link(&plane.to_link()), Ok(plane));
        for bad in ["1,2,3", "0,2,8,0,0,0", "0,0,0,0,0,0", "nan,0,8,0,0,0", "a"] {
            assert!(orbit.from_link(bad).is_err(), "{bad}");
        }
        // A model a hundredth of a millimetre across, and one of a hundred thousand
        // kilometres, keep their views in a link.
        for (distance, target) in [(4.6e-5, 1.23e-5), (2.1e8, 4.0e7)] {
            let orbit = Camera::Orbit(OrbitCamera {
                target: Vec3::splat(target),
                distance,
                ..OrbitCamera::default()
            });
            let Ok(Camera::Orbit(back)) = orbit.from_link(&orbit.to_link()) else {
                panic!("{} reopens", orbit.to_link());
            };
            assert!((back.distance / distance - 1.0).abs() < 0.01, "{back:?}");
            assert!((back.target.x / target - 1.0).abs() < 0.01, "{back:?}");
        }
        assert!(plane.from_link("0,0,0").is_err());
        assert!(plane.from_link("0,0,1,1").is_err());
    }
}
