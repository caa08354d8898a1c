//! Picking things on screen: the nearest of a set of points to the pointer, or a
//! triangle under it.

use egui::Pos2;

/// How close (in points) a press must be to grab a joint or pick a vertex.
pub const PICK_RADIUS: f32 = 14.0;

/// How much farther a finger reaches than a pointer's tip: half a finger's target
/// ([`crate::app::TOUCH_TARGET`]) against [`PICK_RADIUS`].
pub const FINGER_REACH: f32 = 22.0 / PICK_RADIUS;

thread_local! {
    /// Whether the pointer is a finger (set with the style, [`super::set_screen`]): one
    /// thread draws one app.
    static FINGER: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Picks from now on for a finger (or for a pointer's tip).
pub fn set_finger(finger: bool) {
    FINGER.with(|f| f.set(finger));
}

/// The index of the point nearest to `at`, if one lies within `radius` (a finger
/// reaches [`FINGER_REACH`] times as far).
pub fn nearest(points: impl IntoIterator<Item = Pos2>, at: Pos2, radius: f32) -> Option<usize> {
    let radius = if FINGER.with(std::cell::Cell::get) {
        radius * FINGER_REACH
    } else {
        radius
    };
    points
        .into_iter()
        .enumerate()
        .map(|(i, p)| (i, p.distance(at)))
        .filter(|(_, d)| *d < radius)
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(i, _)| i)
}

/// Whether `p` lies in the triangle `t` on screen (either winding), edges included.
pub fn in_triangle(p: Pos2, t: [Pos2; 3]) -> bool {
    let side = |a: Pos2, b: Pos2| (b - a).x * (p - a).y - (b - a).y * (p - a).x;
    let s = [side(t[0], t[1]), side(t[1], t[2]), side(t[2], t[0])];
    s.iter().all(|&x| x >= 0.0) || s.iter().all(|&x| x <= 0.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_point_is_in_a_triangle_of_either_winding_and_not_beside_it() {
        let t = [
            Pos2::new(0.0, 0.0),
            Pos2::new(10.0, 0.0),
            Pos2::new(0.0, 10.0),
        ];
        let reversed = [t[2], t[1], t[0]];
        for tri in [t, reversed] {
            assert!(in_triangle(Pos2::new(2.0, 2.0), tri));
            assert!(in_triangle(Pos2::new(5.0, 0.0), tri), "an edge counts");
            assert!(!in_triangle(Pos2::new(6.0, 6.0), tri));
            assert!(!in_triangle(Pos2::new(-1.0, 2.0), tri));
        }
    }

    #[test]
    fn nearest_within_the_radius_wins() {
        let points = [
            Pos2::new(0.0, 0.0),
            Pos2::new(10.0, 0.0),
            Pos2::new(100.0, 0.0),
        ];
        assert_eq!(nearest(points, Pos2::new(7.0, 0.0), 14.0), Some(1));
        assert_eq!(nearest(points, Pos2::new(2.0, 0.0), 14.0), Some(0));
        assert_eq!(nearest(points, Pos2::new(50.0, 0.0), 14.0), None);
        // A finger reaches farther.
        assert_eq!(nearest(points, Pos2::new(31.0, 0.0), 14.0), None);
        set_finger(true);
        assert_eq!(nearest(points, Pos2::new(31.0, 0.0), 14.0), Some(1));
        set_finger(false);
    }
}
