//! The half-angle circle, as numbers: turns about one axis (z) are unit quaternions
//! `(0, 0, sin(θ/2), cos(θ/2))`, so they lie on one circle of the 4D unit sphere. A
//! point is drawn at `(w, z)`: across `cos(θ/2)`, up `sin(θ/2)`, at angle `θ/2`.
//!
//! The paths come from [`rotation::interpolate`], the same function the rest of the
//! page uses. Blending two turns about z gives a quaternion about z again (LERP,
//! NLERP, SLERP, and SLERP's choice for opposite ends too), so nothing leaves the
//! circle's plane.

use glam::{Quat, Vec2};
use skin::explain::rotation::{self, Interp};

/// The unit quaternion of a turn by `theta` (radians) about z.
pub fn about_z(theta: f32) -> Quat {
    let (s, c) = (theta / 2.0).sin_cos();
    Quat::from_xyzw(0.0, 0.0, s, c)
}

/// Where a quaternion about z is drawn: `(w, z)`.
pub fn on_circle(q: Quat) -> Vec2 {
    Vec2::new(q.w, q.z)
}

/// The point of a turn by `theta` about z, at angle `θ/2` on the circle.
pub fn point_of(theta: f32) -> Vec2 {
    on_circle(about_z(theta))
}

/// The turn a point stands for: twice its angle on the circle, in (−2π, 2π].
pub fn turn_at(p: Vec2) -> f32 {
    2.0 * p.y.atan2(p.x)
}

/// The signed angle on the circle from `a` to `b`, in (−π, π].
pub fn angle_between(a: Vec2, b: Vec2) -> f32 {
    a.perp_dot(b).atan2(a.dot(b))
}

/// A blend from A to B, both turns about z, and the end it heads for.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Blend {
    /// A's turn, radians.
    pub theta_a: f32,
    /// B's turn, radians.
    pub theta_b: f32,
    /// Negate B when `A · B < 0`, as [`rotation::interpolate`] does.
    pub shortest: bool,
}

impl Blend {
    /// A's quaternion.
    pub fn a(&self) -> Quat {
        about_z(self.theta_a)
    }

    /// B's quaternion.
    pub fn b(&self) -> Quat {
        about_z(self.theta_b)
    }

    /// `A · B`: the cosine of the angle between them on the circle.
    pub fn dot(&self) -> f32 {
        self.a().dot(self.b())
    }

    /// Whether the blend heads for −B instead of B.
    pub fn flipped(&self) -> bool {
        self.shortest && self.dot() < 0.0
    }

    /// The point the blend ends on: B, or −B when [`Self::flipped`].
    pub fn end(&self) -> Vec2 {
        let b = point_of(self.theta_b);
        if self.flipped() { -b } else { b }
    }

    /// The point of `method` at `t`: on the chord for LERP, on the circle otherwise.
    pub fn at(&self, method: Interp, t: f32) -> Vec2 {
        on_circle(rotation::interpolate(
            self.a(),
            self.b(),
            t,
            method,
            self.shortest,
        ))
    }

    /// `steps + 1` points of `method`, at even steps of `t` from 0 to 1.
    pub fn path(&self, method: Interp, steps: usize) -> Vec<Vec2> {
        let steps = steps.max(1);
        (0..=steps)
            .map(|k| self.at(method, k as f32 / steps as f32))
            .collect()
    }

    /// The arc SLERP travels on the circle: the angle from A to the end, radians.
    pub fn arc(&self) -> f32 {
        angle_between(point_of(self.theta_a), self.end()).abs()
    }

    /// The turn a point of the path stands for, counted on from A's turn so that it
    /// changes smoothly along the path (it may leave (−2π, 2π]: 380° is 20°).
    pub fn turn_along(&self, p: Vec2) -> f32 {
        self.theta_a + 2.0 * angle_between(point_of(self.theta_a), p)
    }

    /// The `t` whose point of `method` lies nearest `p`.
    pub fn nearest_t(&self, method: Interp, p: Vec2) -> f32 {
        const STEPS: usize = 400;
        let path = self.path(method, STEPS);
        let nearest = path
            .iter()
            .enumerate()
            .min_by(|(_, x), (_, y)| x.distance_squared(p).total_cmp(&y.distance_squared(p)))
            .map_or(0, |(k, _)| k);
        nearest as f32 / STEPS as f32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::link::Named;
    use proptest::prelude::*;
    use std::f32::consts::{PI, TAU};

    fn blend(a_degrees: f32, b_degrees: f32, shortest: bool) -> Blend {
        Blend {
            theta_a: a_degrees.to_radians(),
            theta_b: b_degrees.to_radians(),
            shortest,
        }
    }

    #[test]
    fn a_point_sits_at_half_the_turn() {
        let p = point_of(120f32.to_radians());
        assert!((angle_between(Vec2::X, p).to_degrees() - 60.0).abs() < 1e-4);
        // A full turn is half a turn round the circle: the opposite point.
        let q = point_of(120f32.to_radians() + TAU);
        assert!((p + q).length() < 1e-6, "{p} {q}");
        assert!((turn_at(p).to_degrees() - 120.0).abs() < 1e-3);
    }

    #[test]
    fn the_circle_point_is_the_quaternion() {
        // The page's own quaternion of a roll: the same numbers.
        let q = rotation::euler_quat([0.0, 0.0, 1.1]);
        assert!((on_circle(q) - point_of(1.1)).length() < 1e-6);
        assert!(q.x.abs() < 1e-7 && q.y.abs() < 1e-7);
    }

    #[test]
    fn lerp_midpoint_is_shorter_by_the_cosine_of_half_the_angle() {
        for (a, b) in [(40.0, 200.0), (-100.0, 60.0), (10.0, 30.0), (0.0, 170.0)] {
            let blend = blend(a, b, false);
            let phi = angle_between(point_of(blend.theta_a), point_of(blend.theta_b));
            let mid = blend.at(Interp::Lerp, 0.5);
            assert!(
                (mid.length() - (phi / 2.0).cos()).abs() < 1e-5,
                "{a}, {b}: {} vs {}",
                mid.length(),
                (phi / 2.0).cos()
            );
            // On the chord: halfway between the ends.
            let chord = (point_of(blend.theta_a) + blend.end()) / 2.0;
            assert!((mid - chord).length() < 1e-5);
        }
    }

    #[test]
    fn nlerp_spacing_is_uneven_and_slerp_spacing_is_even() {
        let blend = blend(40.0, 200.0, true);
        let gaps = |method| {
            blend
                .path(method, 10)
                .windows(2)
                .map(|w| angle_between(w[0], w[1]).abs())
                .collect::<Vec<_>>()
        };
        let nlerp = gaps(Interp::Nlerp);
        assert!(
            nlerp[5] > nlerp[0] * 1.1,
            "NLERP runs faster mid-way: {nlerp:?}"
        );
        let slerp = gaps(Interp::Slerp);
        assert!(
            slerp.iter().all(|g| (g - slerp[0]).abs() < 1e-4),
            "{slerp:?}"
        );
    }

    #[test]
    fn flipping_b_shortens_the_arc_when_the_dot_is_negative() {
        let long = blend(0.0, 260.0, false);
        let short = blend(0.0, 260.0, true);
        assert!(long.dot() < 0.0);
        assert!(short.flipped() && !long.flipped());
        assert!((long.arc().to_degrees() - 130.0).abs() < 1e-3);
        assert!((short.arc().to_degrees() - 50.0).abs() < 1e-3);
        // SLERP's midpoint lies on the arc it takes.
        let mid = |b: &Blend| angle_between(Vec2::X, b.at(Interp::Slerp, 0.5)).to_degrees();
        assert!((mid(&long) - 65.0).abs() < 1e-3);
        assert!((mid(&short) + 25.0).abs() < 1e-3);
        // The chord to B passes nearer the centre than the chord to −B.
        let lerp = |b: &Blend| b.at(Interp::Lerp, 0.5).length();
        assert!(lerp(&long) < lerp(&short));
        // With A · B not negative the check changes nothing.
        let near = blend(0.0, 120.0, true);
        assert!(!near.flipped());
        assert_eq!(near.end(), point_of(120f32.to_radians()));
    }

    #[test]
    fn turn_along_counts_on_from_a() {
        // A at 170° on the circle, B at −160°: the short arc crosses 180°.
        let blend = blend(340.0, -320.0, true);
        assert!(!blend.flipped());
        let mid = blend.at(Interp::Slerp, 0.5);
        // Counted on from A the turn keeps growing past 360° (370° is 10°) ...
        assert!((blend.turn_along(mid).to_degrees() - 370.0).abs() < 1e-3);
        // ... where the point's own angle jumps to the other end of the range.
        assert!((turn_at(mid).to_degrees() + 350.0).abs() < 1e-3);
    }

    #[test]
    fn nearest_t_finds_the_point_again() {
        let blend = blend(40.0, 200.0, true);
        for &method in Interp::ALL {
            for t in [0.0, 0.3, 0.75, 1.0] {
                let p = blend.at(method, t);
                assert!(
                    (blend.nearest_t(method, p) - t).abs() < 0.01,
                    "{method:?} {t}"
                );
            }
        }
    }

    #[test]
    fn opposite_ends_keep_slerp_on_the_circle() {
        let blend = blend(30.0, 30.0 + 360.0, false);
        let mid = blend.at(Interp::Slerp, 0.5);
        assert!((mid.length() - 1.0).abs() < 1e-5, "{mid}");
    }

    proptest! {
        #[test]
        fn nlerp_and_slerp_points_lie_on_the_circle(
            a in -TAU..TAU, b in -TAU..TAU, t in 0.0f32..=1.0, shortest: bool
        ) {
            let blend = Blend { theta_a: a, theta_b: b, shortest };
            // NLERP of (nearly) opposite ends has no direction: nothing to push out.
            prop_assume!(blend.dot() > -0.999 || shortest);
            for method in [Interp::Nlerp, Interp::Slerp] {
                let p = blend.at(method, t);
                prop_assert!((p.length() - 1.0).abs() < 1e-4, "{method:?}: {p}");
            }
            // LERP's point is inside, NLERP's is the same direction pushed out.
            let lerp = blend.at(Interp::Lerp, t);
            prop_assert!(lerp.length() <= 1.0 + 1e-5);
            if lerp.length() > 1e-3 {
                let nlerp = blend.at(Interp::Nlerp, t);
                prop_assert!((lerp.normalize() - nlerp).length() < 1e-3);
            }
        }

        #[test]
        fn the_short_way_never_travels_more_than_a_quarter_circle(
            a in -TAU..TAU, b in -TAU..TAU
        ) {
            let blend = Blend { theta_a: a, theta_b: b, shortest: true };
            prop_assert!(blend.arc() <= PI / 2.0 + 1e-4);
        }
    }
}
