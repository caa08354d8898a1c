//! Placing text labels in a viewport so they keep off each other and off the marks
//! they label: each label tries a few spots around its anchor and takes the first that
//! is free.

use egui::{Pos2, Rect, Vec2, vec2};

/// The spots tried around an anchor, in order: up right first (where a reader looks for
/// a point's name), then the other corners, then the sides.
const SPOTS: [Vec2; 8] = [
    vec2(1.0, -1.0),
    vec2(-1.0, -1.0),
    vec2(1.0, 1.0),
    vec2(-1.0, 1.0),
    vec2(1.0, 0.0),
    vec2(-1.0, 0.0),
    vec2(0.0, -1.0),
    vec2(0.0, 1.0),
];

/// The rectangles already taken in one viewport, by marks and by placed labels.
#[derive(Clone, Debug)]
pub struct Placer {
    bounds: Rect,
    taken: Vec<Rect>,
}

impl Placer {
    /// An empty placer whose labels stay inside `bounds`.
    pub fn new(bounds: Rect) -> Self {
        Self {
            bounds,
            taken: Vec::new(),
        }
    }

    /// Marks `rect` as taken: no label will be placed over it.
    pub fn block(&mut self, rect: Rect) {
        self.taken.push(rect);
    }

    /// Where a label of `size` goes beside the anchor `at`, `gap` away from it: the
    /// first spot around the anchor that overlaps nothing taken and stays inside the
    /// bounds, or the first spot when none is free. The spot is then taken. A mark
    /// blocked at the anchor must be less than `gap` from it, or it takes every spot.
    pub fn place(&mut self, at: Pos2, size: Vec2, gap: f32) -> Rect {
        let spot = |d: Vec2| {
            // The label's centre sits `gap` plus half its size away along `d`.
            let center = at + vec2(d.x * (gap + size.x / 2.0), d.y * (gap + size.y / 2.0));
            Rect::from_center_size(center, size)
        };
        let free = |r: &Rect| {
            self.bounds.contains_rect(*r) && !self.taken.iter().any(|t| t.intersects(*r))
        };
        let chosen = SPOTS
            .iter()
            .map(|d| spot(*d))
            .find(free)
            .unwrap_or_else(|| spot(SPOTS[0]));
        self.taken.push(chosen);
        chosen
    }
}

/// A point carried through a product one factor at a time, drawn over a viewport: a
/// dot per step so far (`points`, step 0 first), joined in order, the last one (the
/// current step) larger; each dot labelled with its entry of `labels` on a pale card,
/// the labels placed apart from each other and from the dots. Returns where each dot
/// was drawn (`None` behind the camera).
pub fn step_path_ui(
    ui: &egui::Ui,
    vp: &super::Viewport,
    points: &[glam::Vec3],
    labels: &[String],
    family: egui::FontFamily,
    color: egui::Color32,
) -> Vec<Option<Pos2>> {
    use egui::{Color32, FontId, Stroke};
    let painter = ui.painter_at(vp.rect());
    let screen: Vec<Option<Pos2>> = points.iter().map(|p| vp.to_screen(*p)).collect();
    for pair in screen.windows(2) {
        if let [Some(a), Some(b)] = pair {
            painter.line_segment([*a, *b], Stroke::new(2.0, color));
        }
    }
    let current = screen.len().saturating_sub(1);
    let mut placer = Placer::new(vp.rect());
    let rim = Stroke::new(1.0, Color32::from_gray(20));
    for (i, at) in screen.iter().enumerate() {
        let Some(at) = *at else { continue };
        painter.circle(at, if i == current { 7.5 } else { 4.0 }, color, rim);
        placer.block(Rect::from_center_size(at, Vec2::splat(16.0)));
    }
    for (i, (at, label)) in screen.iter().zip(labels).enumerate() {
        let Some(at) = *at else { continue };
        let size = if i == current { 17.0 } else { 14.0 };
        let galley =
            painter.layout_no_wrap(label.clone(), FontId::new(size, family.clone()), color);
        let spot = placer.place(at, galley.size(), 10.0);
        painter.rect_filled(spot.expand(2.0), 3.0, Color32::from_white_alpha(215));
        painter.galley(spot.min, galley, color);
    }
    screen
}

#[cfg(test)]
mod tests {
    use super::*;
    use egui::pos2;

    fn placer() -> Placer {
        Placer::new(Rect::from_min_max(pos2(0.0, 0.0), pos2(400.0, 300.0)))
    }

    #[test]
    fn labels_of_one_spot_do_not_overlap() {
        let mut p = placer();
        let size = vec2(20.0, 12.0);
        let rects: Vec<Rect> = (0..4)
            .map(|_| p.place(pos2(200.0, 150.0), size, 4.0))
            .collect();
        for (i, a) in rects.iter().enumerate() {
            for b in &rects[i + 1..] {
                assert!(!a.intersects(*b), "{a:?} and {b:?}");
            }
        }
        assert!(
            rects[0].left() > 200.0 && rects[0].bottom() < 150.0,
            "up right first"
        );
    }

    #[test]
    fn a_blocked_mark_and_the_edge_are_avoided() {
        let mut p = placer();
        let size = vec2(20.0, 12.0);
        // A bone circle up and to the right of the anchor.
        let circle = Rect::from_center_size(pos2(215.0, 135.0), vec2(22.0, 22.0));
        p.block(circle);
        let r = p.place(pos2(200.0, 150.0), size, 4.0);
        assert!(!r.intersects(circle), "{r:?}");
        // At the right edge the label goes left of its anchor.
        let edge = p.place(pos2(395.0, 150.0), size, 4.0);
        assert!(edge.right() <= 400.0 && edge.left() < 395.0, "{edge:?}");
    }
}
