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

/// The most characters of a name a label on the picture shows before its "…".
pub const LABEL_CHARS: usize = 32;

/// `text` in at most `most` characters: a longer one keeps its first `most - 1` and
/// ends in "…".
pub fn shortened(text: &str, most: usize) -> std::borrow::Cow<'_, str> {
    match (
        text.char_indices().nth(most),
        text.char_indices().nth(most.saturating_sub(1)),
    ) {
        (Some(_), Some((end, _))) => format!("{}…", &text[..end]).into(),
        _ => text.into(),
    }
}

/// A name as a label on the picture shows it: a long one cut to [`LABEL_CHARS`] and
/// marked "…", so that it labels its mark and does not cover the view.
pub fn label_name(name: &str) -> std::borrow::Cow<'_, str> {
    shortened(name, LABEL_CHARS + 1)
}

/// The rectangles already taken in one viewport, by marks and by placed labels.
#[derive(Clone, Debug)]
pub struct Placer {
    bounds: Rect,
    /// Each rectangle, and whether it holds text: when no spot is free, a label would
    /// rather cover a mark than other text.
    taken: Vec<(Rect, bool)>,
    /// The meshes drawn, on screen: line segments and triangles no label goes over.
    outline: Outline,
    /// The outline's segments and triangles in runs of [`RUN`], each run's bounding
    /// box first: a spot far from a run skips all of it.
    runs: Vec<(Rect, Run)>,
}

/// Segments or triangles of an [`Outline`], by index.
#[derive(Clone, Debug)]
enum Run {
    Segments(std::ops::Range<usize>),
    Triangles(std::ops::Range<usize>),
}

/// `items` (segments or triangles) in runs of [`RUN`], each with its points' bounding box.
fn runs_of<const N: usize>(
    items: &[[Pos2; N]],
    run: fn(std::ops::Range<usize>) -> Run,
) -> impl Iterator<Item = (Rect, Run)> + '_ {
    items.chunks(RUN).enumerate().map(move |(i, chunk)| {
        let bounds = chunk
            .iter()
            .flatten()
            .fold(Rect::NOTHING, |b, p| b.union(Rect::from_pos(*p)));
        (bounds, run(i * RUN..i * RUN + chunk.len()))
    })
}

/// How many segments or triangles share a bounding box in [`Placer::runs`]: a mesh's
/// neighbouring triangles lie near each other on screen.
const RUN: usize = 32;

/// What the meshes of a viewport cover on screen.
#[derive(Clone, Debug, Default)]
pub struct Outline {
    /// Line segments (a line mesh's lines).
    pub segments: Vec<[Pos2; 2]>,
    /// Filled triangles (a surface).
    pub triangles: Vec<[Pos2; 3]>,
}

/// Whether the segment from `a` to `b` crosses or lies in `rect` (Liang–Barsky).
fn segment_touches(a: Pos2, b: Pos2, rect: Rect) -> bool {
    let d = b - a;
    let (mut t0, mut t1) = (0.0_f32, 1.0_f32);
    for (p, q) in [
        (-d.x, a.x - rect.left()),
        (d.x, rect.right() - a.x),
        (-d.y, a.y - rect.top()),
        (d.y, rect.bottom() - a.y),
    ] {
        if p == 0.0 {
            if q < 0.0 {
                return false;
            }
        } else {
            let t = q / p;
            if p < 0.0 {
                t0 = t0.max(t);
            } else {
                t1 = t1.min(t);
            }
            if t0 > t1 {
                return false;
            }
        }
    }
    true
}

/// Whether the triangle `t` overlaps `rect`: an edge crosses it, or one holds the
/// other.
fn triangle_touches(t: &[Pos2; 3], rect: Rect) -> bool {
    let [a, b, c] = *t;
    // Off its bounding box, or collapsed to a line or a point (a mesh scaled to
    // nothing), it covers nothing there.
    let bounds = Rect::from_points(t);
    let area = (b - a).x * (c - a).y - (b - a).y * (c - a).x;
    if !bounds.intersects(rect) || area.abs() < 1e-6 || !area.is_finite() {
        return false;
    }
    if [[a, b], [b, c], [c, a]]
        .iter()
        .any(|[p, q]| segment_touches(*p, *q, rect))
    {
        return true;
    }
    // The rectangle inside the triangle: its centre is on one side of all three edges.
    let p = rect.center();
    let side = |u: Pos2, v: Pos2| (v - u).x * (p - u).y - (v - u).y * (p - u).x;
    let (s0, s1, s2) = (side(a, b), side(b, c), side(c, a));
    (s0 >= 0.0 && s1 >= 0.0 && s2 >= 0.0) || (s0 <= 0.0 && s1 <= 0.0 && s2 <= 0.0)
}

impl Placer {
    /// An empty placer whose labels stay inside `bounds`.
    pub fn new(bounds: Rect) -> Self {
        Self {
            bounds,
            taken: Vec::new(),
            outline: Outline::default(),
            runs: Vec::new(),
        }
    }

    /// Keeps labels off `outline`, the meshes drawn (labels placed before are where
    /// they are).
    pub fn avoid(&mut self, outline: Outline) {
        self.runs = runs_of(&outline.segments, Run::Segments)
            .chain(runs_of(&outline.triangles, Run::Triangles))
            .collect();
        self.outline = outline;
    }

    /// Whether `rect` touches any segment or triangle of the meshes drawn, a run at a
    /// time.
    fn on_mesh(&self, rect: Rect) -> bool {
        self.runs
            .iter()
            .filter(|(b, _)| b.intersects(rect))
            .any(|(_, run)| match run {
                Run::Segments(r) => self.outline.segments[r.clone()]
                    .iter()
                    .any(|[a, b]| segment_touches(*a, *b, rect)),
                Run::Triangles(r) => self.outline.triangles[r.clone()]
                    .iter()
                    .any(|t| triangle_touches(t, rect)),
            })
    }

    /// Whether `rect` lies inside the bounds and over nothing taken.
    pub fn is_free(&self, rect: Rect) -> bool {
        self.bounds.contains_rect(rect) && !self.taken.iter().any(|(t, _)| t.intersects(rect))
    }

    /// Marks `rect` as taken: no label will be placed over it.
    pub fn block(&mut self, rect: Rect) {
        self.taken.push((rect, false));
    }

    /// Marks `rect` as taken by text written there (a note).
    pub fn block_text(&mut self, rect: Rect) {
        self.taken.push((rect, true));
    }

    /// Where a label of `size` goes beside the anchor `at`, `gap` away from it: the
    /// spot in direction `first` (screen space, any length) if it is free, else the
    /// first of the usual spots around the anchor that overlaps nothing taken and stays
    /// inside the bounds, else the same directions further out. When none is free, the
    /// spot inside the bounds that covers least. The spot is then taken. A mark blocked
    /// at the anchor (the thing labelled) widens the gap to clear it.
    pub fn place(&mut self, at: Pos2, size: Vec2, gap: f32, first: Vec2) -> Rect {
        // The mark being labelled, blocked at the anchor, pushes the label out past its
        // edge rather than off to a far spot.
        let gap = self
            .taken
            .iter()
            .filter(|(t, _)| t.contains(at))
            .map(|(t, _)| (t.max - at).max(at - t.min).max_elem() + 2.0)
            .fold(gap, f32::max);
        let spot = |d: Vec2| {
            // The label's centre sits `gap` plus half its size away along `d`.
            let center = at + vec2(d.x * (gap + size.x / 2.0), d.y * (gap + size.y / 2.0));
            Rect::from_center_size(center, size)
        };
        let first = if first.is_finite() && first.length() > 1e-3 {
            // Scaled so its longer side is 1, like the spots.
            first / first.x.abs().max(first.y.abs())
        } else {
            SPOTS[0]
        };
        // Covered area, text counted many times over: it is what must stay readable.
        let overlap = |r: &Rect| -> f32 {
            self.taken
                .iter()
                .map(|(t, text)| (t.intersect(*r), if *text { 20.0 } else { 1.0 }))
                .filter(|(i, _)| i.is_positive())
                .map(|(i, weight)| i.area() * weight)
                .sum()
        };
        // The spots beside the anchor, then the same directions a label's size further
        // out, joined to the anchor by nothing but nearness.
        let mut candidates = [first; 1 + 2 * SPOTS.len()];
        for (k, d) in SPOTS.iter().enumerate() {
            candidates[1 + k] = *d;
            candidates[1 + SPOTS.len() + k] = *d * 2.5;
        }
        let candidates = candidates.map(spot);
        let moved = candidates.map(|r| self.inside(r));
        // Free: inside, over no mark or text, and off the meshes, first as the spots
        // are, then each moved inside the bounds (a wide label in a narrow view), the
        // nearest to the anchor; then the same but on a mesh; then, moved inside, the
        // least covered.
        let inside_and_clear = |r: &&Rect| self.bounds.contains_rect(**r) && overlap(r) == 0.0;
        let free = |r: &&Rect| inside_and_clear(r) && !self.on_mesh(**r);
        let least = |rects: &[Rect], by: &dyn Fn(&Rect) -> f32| {
            rects.iter().min_by(|a, b| by(a).total_cmp(&by(b))).copied()
        };
        let free_moved: Vec<Rect> = moved.iter().filter(free).copied().collect();
        let chosen = candidates
            .iter()
            .find(free)
            .copied()
            .or_else(|| least(&free_moved, &|r| r.distance_sq_to_pos(at)))
            .or_else(|| candidates.iter().find(inside_and_clear).copied())
            .or_else(|| least(&moved, &|r| overlap(r)))
            .unwrap_or_else(|| spot(first));
        self.block_text(chosen);
        chosen
    }

    /// `r` moved the least distance that puts it inside the bounds (its top left
    /// corner inside when it is larger than they are).
    fn inside(&self, r: Rect) -> Rect {
        let b = self.bounds;
        let dx = (b.right() - r.right()).min(0.0) + (b.left() - r.left()).max(0.0);
        let dy = (b.bottom() - r.bottom()).min(0.0) + (b.top() - r.top()).max(0.0);
        let moved = r.translate(vec2(dx, dy));
        let min = moved.min.max(b.min);
        Rect::from_min_size(min, r.size())
    }
}

/// A point carried through a product one factor at a time, drawn over a viewport: a
/// dot per step so far (`points`, step 0 first), joined in order, the last one (the
/// current step) larger; each dot labelled with its entry of `labels` on a pale card,
/// the labels placed apart from each other, from the dots and from what else the
/// viewport has labelled this frame. Returns where each dot
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
    let rim = Stroke::new(1.0, Color32::from_gray(20));
    for (i, at) in screen.iter().enumerate() {
        let Some(at) = *at else { continue };
        painter.circle(at, if i == current { 7.5 } else { 4.0 }, color, rim);
        vp.block(Rect::from_center_size(at, Vec2::splat(16.0)));
    }
    // The labels' pale card, and the path's colour darkened until it reads on it (a
    // cyan path's cyan text read at 1.3:1 there).
    let card = Color32::from_white_alpha(215);
    let ink = super::card_ink(color, card);
    for (i, (at, label)) in screen.iter().zip(labels).enumerate() {
        let Some(at) = *at else { continue };
        let size = if i == current { 17.0 } else { 14.0 };
        let galley = painter.layout_no_wrap(label.clone(), FontId::new(size, family.clone()), ink);
        vp.label_galley(ui, at, galley, 10.0, vec2(1.0, -1.0), Some(card));
    }
    screen
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_long_name_is_cut_for_its_label_and_a_short_one_kept() {
        assert_eq!(super::shortened("abcdé", 5), "abcdé");
        assert_eq!(super::shortened("abcdéf", 5), "abcd…");
        assert_eq!(super::label_name("Head_end"), "Head_end");
        let long = "é".repeat(200);
        let shown = super::label_name(&long);
        assert_eq!(shown.chars().count(), super::LABEL_CHARS + 1);
        assert!(shown.ends_with('…'));
    }

    use super::*;
    use egui::pos2;

    const UP_RIGHT: Vec2 = vec2(1.0, -1.0);

    fn placer() -> Placer {
        Placer::new(Rect::from_min_max(pos2(0.0, 0.0), pos2(400.0, 300.0)))
    }

    #[test]
    fn labels_of_one_spot_do_not_overlap() {
        let mut p = placer();
        let size = vec2(20.0, 12.0);
        let rects: Vec<Rect> = (0..4)
            .map(|_| p.place(pos2(200.0, 150.0), size, 4.0, UP_RIGHT))
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
        let r = p.place(pos2(200.0, 150.0), size, 4.0, UP_RIGHT);
        assert!(!r.intersects(circle), "{r:?}");
        // At the right edge the label goes left of its anchor.
        let edge = p.place(pos2(395.0, 150.0), size, 4.0, UP_RIGHT);
        assert!(edge.right() <= 400.0 && edge.left() < 395.0, "{edge:?}");
    }

    #[test]
    fn a_label_keeps_off_the_meshes_drawn() {
        let mut p = placer();
        // A line up and to the right of the anchor, and a triangle up and to the left.
        p.avoid(Outline {
            segments: vec![[pos2(205.0, 140.0), pos2(260.0, 140.0)]],
            triangles: vec![[pos2(150.0, 100.0), pos2(199.0, 100.0), pos2(199.0, 145.0)]],
        });
        let size = vec2(30.0, 12.0);
        let r = p.place(pos2(200.0, 150.0), size, 4.0, UP_RIGHT);
        assert!(!p.on_mesh(r), "{r:?}");
        assert!(p.on_mesh(Rect::from_center_size(pos2(230.0, 140.0), size)));
        assert!(p.on_mesh(Rect::from_center_size(pos2(190.0, 110.0), size)));
        assert!(
            r.top() > 146.0,
            "below the anchor, where nothing is drawn: {r:?}"
        );
        // Inside a big triangle: touched, though no edge crosses the label.
        let mut big = placer();
        big.avoid(Outline {
            segments: Vec::new(),
            triangles: vec![[pos2(0.0, 0.0), pos2(400.0, 0.0), pos2(0.0, 300.0)]],
        });
        let inner = Rect::from_min_size(pos2(50.0, 50.0), size);
        assert!(big.on_mesh(inner));
        assert!(!big.on_mesh(inner.translate(vec2(300.0, 220.0))));
    }

    #[test]
    fn a_wide_label_in_a_narrow_view_finds_the_room_below_the_mesh() {
        // A view 200 wide, a mesh filling its top 170, a label 150 wide whose anchor is
        // near the left edge: no spot around the anchor fits as it is.
        let mut p = Placer::new(Rect::from_min_max(pos2(0.0, 0.0), pos2(200.0, 300.0)));
        p.avoid(Outline {
            segments: Vec::new(),
            triangles: (0..85)
                .map(|k| {
                    let y = 2.0 * k as f32;
                    [pos2(0.0, y), pos2(200.0, y), pos2(200.0, y + 2.0)]
                })
                .collect(),
        });
        let r = p.place(pos2(20.0, 150.0), vec2(150.0, 20.0), 4.0, vec2(-1.0, 0.0));
        assert!(
            !p.on_mesh(r) && r.top() >= 170.0 && r.bottom() <= 300.0,
            "{r:?}"
        );
    }

    #[test]
    fn the_labelled_mark_pushes_its_label_just_past_its_edge() {
        let mut p = placer();
        let at = pos2(100.0, 100.0);
        let circle = Rect::from_center_size(at, vec2(22.0, 22.0));
        p.block(circle);
        let r = p.place(at, vec2(30.0, 12.0), 4.0, vec2(-1.0, 0.0));
        assert!(!r.intersects(circle), "{r:?}");
        assert!(
            r.right() < at.x && r.right() > at.x - 20.0,
            "left and close: {r:?}"
        );
    }
}
