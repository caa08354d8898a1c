//! Picking things on screen: the nearest of a set of points to the pointer.

use egui::Pos2;

/// How close (in points) a press must be to grab a joint or pick a vertex.
pub const PICK_RADIUS: f32 = 14.0;

/// The index of the point nearest to `at`, if one lies within `radius`.
pub fn nearest(points: impl IntoIterator<Item = Pos2>, at: Pos2, radius: f32) -> Option<usize> {
    points
        .into_iter()
        .enumerate()
        .map(|(i, p)| (i, p.distance(at)))
        .filter(|(_, d)| *d < radius)
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(i, _)| i)
}

#[cfg(test)]
mod tests {
    use super::*;

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
    }
}
