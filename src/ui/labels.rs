//! Placing text labels in a viewport so they keep off each other and off the marks
//! they label: each label tries a few spots around its anchor and takes the first that
//! is free.

use egui::{Color32, Pos2, Rect, Vec2, vec2};

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

/// How far out the spots are tried, in steps of the gap and half the label: beside the
/// anchor first, then further out, where a crowd of marks thins.
const RINGS: [f32; 4] = [1.0, 2.0, 3.5, 5.5];

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
    /// The labels placed so far, with what they label (kept only while a test records
    /// the frame: see `MeshBounds::record`).
    pub placed: Vec<Placed>,
}

/// Where a label went, as [`Placer::place`] chose it.
#[derive(Clone, Copy, Debug)]
pub struct Spot {
    /// The label's rectangle.
    pub rect: Rect,
    /// The mark it labels: the marks blocked at its anchor, or the anchor itself.
    pub mark: Rect,
    /// Whether it sits too far from its mark to touch it, so that a leader line in the
    /// mark's colour must join them (never when the mark is off the view).
    pub leader: bool,
    /// Whether it lies over a mesh drawn (no free spot was left).
    pub on_mesh: bool,
}

impl Spot {
    /// The leader line from the edge of the mark at `at` to the label, if it has one.
    pub fn leader_line(&self, at: Pos2) -> Option<[Pos2; 2]> {
        self.leader.then(|| leader(at, self.mark, self.rect))
    }
}

/// The line from the edge of `mark` (at `at`) to the nearest point of `label`.
fn leader(at: Pos2, mark: Rect, label: Rect) -> [Pos2; 2] {
    let end = label.clamp(at);
    let away = (end - at).normalized();
    [at + away * (0.5 * mark.size().min_elem()).max(3.0), end]
}

/// Whether the segment `line` crosses `rect`.
pub fn crosses(line: [Pos2; 2], rect: Rect) -> bool {
    segment_touches(line[0], line[1], rect)
}

/// A label as it was drawn: what it says, where, and what it labels. Tests read these
/// to check that each label sits on its mark and reads against what is under it.
#[derive(Clone, Debug)]
pub struct Placed {
    /// Its text.
    pub text: String,
    /// The point it labels.
    pub at: Pos2,
    /// Where it went.
    pub spot: Spot,
    /// The text's colour.
    pub color: Color32,
    /// The card under the text, if it has one.
    pub card: Option<Color32>,
}

/// The distance between two rectangles: 0 where they touch or overlap.
pub fn distance(a: Rect, b: Rect) -> f32 {
    let dx = (a.min.x - b.max.x).max(b.min.x - a.max.x).max(0.0);
    let dy = (a.min.y - b.max.y).max(b.min.y - a.max.y).max(0.0);
    dx.hypot(dy)
}

/// How far a label lies from a mark, as a reader judges which mark it names: from the
/// mark's centre less its radius (a mark is round, or small), so that of two marks
/// that overlap, the label beside one's far side is nearer that one.
pub fn mark_distance(label: Rect, mark: Rect) -> f32 {
    (label.distance_to_pos(mark.center()) - 0.5 * mark.size().min_elem()).max(0.0)
}

/// The farthest a label may sit from its mark, in points, for `gap` (the space it was
/// asked to keep) and still touch it; further away a leader line joins them.
pub fn touching(gap: f32) -> f32 {
    gap.max(2.0) * std::f32::consts::SQRT_2 + 3.0
}

/// Segments or triangles of an [`Outline`], by index.
#[derive(Clone, Debug)]
enum Run {
    Strokes(std::ops::Range<usize>),
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
    /// Line segments of a line mesh (a wireframe): a small card may cover one.
    pub segments: Vec<[Pos2; 2]>,
    /// Lines drawn as marks (a path, an axis, a bone): no card covers one.
    pub strokes: Vec<[Pos2; 2]>,
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
            placed: Vec::new(),
        }
    }

    /// The mark at `at`: the marks blocked there, together, or the point itself.
    pub fn mark_at(&self, at: Pos2) -> Rect {
        self.taken
            .iter()
            .filter(|(t, text)| !text && t.contains(at))
            .fold(Rect::from_pos(at), |m, (t, _)| m.union(*t))
    }

    /// The marks blocked so far.
    pub fn marks(&self) -> Vec<Rect> {
        self.taken
            .iter()
            .filter(|(_, text)| !text)
            .map(|(t, _)| *t)
            .collect()
    }

    /// Every mark blocked but the one at `at`: what else a label might be taken to
    /// name.
    pub fn other_marks(&self, at: Pos2) -> Vec<Rect> {
        let mut marks = self.marks();
        marks.retain(|m| !m.contains(at));
        marks
    }

    /// Keeps labels off `outline`, the meshes drawn (labels placed before are where
    /// they are).
    pub fn avoid(&mut self, outline: Outline) {
        self.runs = runs_of(&outline.segments, Run::Segments)
            .chain(runs_of(&outline.strokes, Run::Strokes))
            .chain(runs_of(&outline.triangles, Run::Triangles))
            .collect();
        self.outline = outline;
    }

    /// Whether `rect` touches any line or triangle of the meshes drawn, a run at a time.
    fn on_mesh(&self, rect: Rect) -> bool {
        self.on_outline(rect, true)
    }

    /// Whether `rect` touches a line drawn as a mark (or, with `all`, any line or
    /// triangle).
    fn on_outline(&self, rect: Rect, all: bool) -> bool {
        let crosses =
            |lines: &[[Pos2; 2]]| lines.iter().any(|[a, b]| segment_touches(*a, *b, rect));
        self.runs
            .iter()
            .filter(|(b, _)| b.intersects(rect))
            .any(|(_, run)| match run {
                Run::Strokes(r) => crosses(&self.outline.strokes[r.clone()]),
                Run::Segments(r) => all && crosses(&self.outline.segments[r.clone()]),
                Run::Triangles(r) => {
                    all && self.outline.triangles[r.clone()]
                        .iter()
                        .any(|t| triangle_touches(t, rect))
                }
            })
    }

    /// Whether the segment `line` (a leader) runs over a triangle of the meshes drawn,
    /// where it would read as a mark on the surface: tested every few points along it.
    fn crosses_surface(&self, line: [Pos2; 2]) -> bool {
        let steps = ((line[1] - line[0]).length() / 4.0).ceil().max(1.0) as usize;
        (0..=steps).any(|i| {
            let p = line[0].lerp(line[1], i as f32 / steps as f32);
            self.on_surface(Rect::from_center_size(p, Vec2::splat(1.0)))
        })
    }

    /// Whether `rect` touches a triangle of the meshes drawn ([`Placer::avoid`]).
    pub fn on_surface(&self, rect: Rect) -> bool {
        self.runs
            .iter()
            .filter(|(b, _)| b.intersects(rect))
            .any(|(_, run)| match run {
                Run::Triangles(r) => self.outline.triangles[r.clone()]
                    .iter()
                    .any(|t| triangle_touches(t, rect)),
                Run::Segments(_) | Run::Strokes(_) => false,
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
    /// at the anchor (the thing labelled) widens the gap to clear it. A spot nearer
    /// another mark than its own is taken only when no other is free.
    pub fn place(&mut self, at: Pos2, size: Vec2, gap: f32, first: Vec2) -> Rect {
        self.place_spot(at, size, gap, first, false).rect
    }

    /// [`Placer::place`], with what the label labels and whether it needs a leader. A
    /// label on a card (`carded`) reads over a surface: it would rather lie there beside
    /// its mark than off the mesh further away, but not over a line, which it would hide.
    pub fn place_spot(
        &mut self,
        at: Pos2,
        size: Vec2,
        gap: f32,
        first: Vec2,
        carded: bool,
    ) -> Spot {
        let touch = touching(gap);
        let mark = self.mark_at(at);
        let others = self.other_marks(at);
        // Nearer its own mark than any other, so that no reader pairs it wrongly; or,
        // too far to touch it, joined by a leader that passes no other mark.
        let its_own = |r: &Rect| {
            if distance(*r, mark) > touch {
                let line = leader(at, mark, *r);
                // Through no other mark, no label already placed, no surface.
                let labels = self.taken.iter().filter(|(_, text)| *text);
                return !others.iter().any(|m| crosses(line, m.shrink(1.0)))
                    && !labels
                        .into_iter()
                        .any(|(t, _)| crosses(line, t.shrink(1.0)))
                    && !self.crosses_surface(line);
            }
            let own = mark_distance(*r, mark);
            others.iter().all(|m| mark_distance(*r, *m) >= own)
        };
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
        // The spots beside the anchor, then further out in those directions and the
        // ones between them, where a leader joins label and mark.
        let between = SPOTS
            .iter()
            .take(4)
            .flat_map(|d| [vec2(d.x, 0.5 * d.y), vec2(0.5 * d.x, d.y)]);
        let directions: Vec<Vec2> = SPOTS.iter().copied().chain(between).collect();
        let candidates: Vec<Rect> = std::iter::once(first)
            .chain(SPOTS)
            .chain(
                RINGS[1..]
                    .iter()
                    .flat_map(|out| directions.iter().map(move |d| *d * *out)),
            )
            .map(spot)
            .collect();
        let moved: Vec<Rect> = candidates.iter().map(|r| self.inside(*r)).collect();
        // Free: inside, over no mark or text, and off the meshes, first as the spots
        // are, then each moved inside the bounds (a wide label in a narrow view), the
        // nearest to the anchor; then the same but on a mesh; then, moved inside, the
        // least covered.
        let inside_and_clear = |r: &&Rect| self.bounds.contains_rect(**r) && overlap(r) == 0.0;
        let free = |r: &&Rect| inside_and_clear(r) && !self.on_mesh(**r);
        let owned = |r: &&Rect| free(r) && its_own(r);
        let least = |rects: &[Rect], by: &dyn Fn(&Rect) -> f32| {
            rects.iter().min_by(|a, b| by(a).total_cmp(&by(b))).copied()
        };
        let nearest = |rects: &[Rect]| least(rects, &|r| r.distance_sq_to_pos(at));
        let free_moved: Vec<Rect> = moved.iter().filter(free).copied().collect();
        let owned_moved: Vec<Rect> = free_moved.iter().filter(|r| its_own(r)).copied().collect();
        // Beside the anchor and its own (over a mesh if on a card), a spot a little
        // further out or moved inside (joined by a leader), then any free spot, then
        // over a mesh, then the least covered.
        let (near, far) = candidates.split_at(1 + SPOTS.len());
        // A card hides a line drawn as a mark under it (a path, a bone): it may lie on a
        // surface or a wireframe only.
        let on_card =
            |r: &&Rect| carded && inside_and_clear(r) && its_own(r) && !self.on_outline(**r, false);
        let chosen = near
            .iter()
            .find(owned)
            .or_else(|| near.iter().find(on_card))
            .or_else(|| far.iter().find(owned))
            .copied()
            .or_else(|| nearest(&owned_moved))
            .or_else(|| candidates.iter().find(free).copied())
            .or_else(|| nearest(&free_moved))
            .or_else(|| candidates.iter().find(inside_and_clear).copied())
            .or_else(|| least(&moved, &|r| overlap(r)))
            .unwrap_or_else(|| spot(first));
        let on_mesh = self.on_mesh(chosen);
        self.block_text(chosen);
        Spot {
            rect: chosen,
            mark,
            // An anchor off the view has nothing to lead to: the label names a thing
            // that runs out of the view (an arm's far end), wherever it is put.
            leader: distance(chosen, mark) > touch && self.bounds.contains(at),
            on_mesh,
        }
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

/// How near the current step's dot (in points) another step's dot goes unlabelled.
const CROWDED: f32 = 16.0;

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
    // A step's dot that lies against the current one's goes unlabelled: two cards
    // there would crowd each other, and the current step is the one read.
    let crowded = |at: Pos2| {
        screen
            .get(current)
            .copied()
            .flatten()
            .is_some_and(|now| now.distance(at) < CROWDED)
    };
    for (i, (at, label)) in screen.iter().zip(labels).enumerate() {
        let Some(at) = *at else { continue };
        if i != current && crowded(at) {
            continue;
        }
        let size = if i == current { 17.0 } else { 14.0 };
        let galley = painter.layout_no_wrap(label.clone(), FontId::new(size, family.clone()), ink);
        vp.label_galley(at, galley, 10.0, vec2(1.0, -1.0), Some(card));
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
            ..Outline::default()
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
            triangles: vec![[pos2(0.0, 0.0), pos2(400.0, 0.0), pos2(0.0, 300.0)]],
            ..Outline::default()
        });
        let inner = Rect::from_min_size(pos2(50.0, 50.0), size);
        assert!(big.on_mesh(inner));
        assert!(!big.on_mesh(inner.translate(vec2(300.0, 220.0))));
    }

    #[test]
    fn a_card_may_cover_a_wire_or_a_surface_but_not_a_line_drawn_as_a_mark() {
        let line = [pos2(150.0, 140.0), pos2(260.0, 140.0)];
        let surface = [pos2(150.0, 200.0), pos2(260.0, 200.0), pos2(200.0, 260.0)];
        let mut p = placer();
        p.avoid(Outline {
            segments: vec![line],
            strokes: vec![line.map(|q| q + vec2(0.0, 30.0))],
            triangles: vec![surface],
        });
        let size = vec2(30.0, 12.0);
        let over = |y: f32| Rect::from_center_size(pos2(200.0, y), size);
        // Each is a mesh to keep off when a free spot is left.
        for y in [140.0, 170.0, 215.0] {
            assert!(p.on_mesh(over(y)), "{y}");
        }
        // A card may lie on the wire and the surface, not on the stroke.
        assert!(!p.on_outline(over(140.0), false));
        assert!(p.on_outline(over(170.0), false));
        assert!(!p.on_outline(over(215.0), false));
    }

    #[test]
    fn a_wide_label_in_a_narrow_view_finds_the_room_below_the_mesh() {
        // A view 200 wide, a mesh filling its top 170, a label 150 wide whose anchor is
        // near the left edge: no spot around the anchor fits as it is.
        let mut p = Placer::new(Rect::from_min_max(pos2(0.0, 0.0), pos2(200.0, 300.0)));
        p.avoid(Outline {
            triangles: (0..85)
                .map(|k| {
                    let y = 2.0 * k as f32;
                    [pos2(0.0, y), pos2(200.0, y), pos2(200.0, y + 2.0)]
                })
                .collect(),
            ..Outline::default()
        });
        let r = p.place(pos2(20.0, 150.0), vec2(150.0, 20.0), 4.0, vec2(-1.0, 0.0));
        assert!(
            !p.on_mesh(r) && r.top() >= 170.0 && r.bottom() <= 300.0,
            "{r:?}"
        );
    }

    #[test]
    fn a_label_goes_where_it_is_nearer_its_own_mark_than_any_other() {
        let mut p = placer();
        let at = pos2(100.0, 100.0);
        // Another dot just right of where the label would go first, clear of it.
        let other = Rect::from_center_size(pos2(145.0, 88.0), vec2(8.0, 8.0));
        p.block(other);
        let spot = p.place_spot(at, vec2(30.0, 12.0), 6.0, UP_RIGHT, false);
        assert!(
            mark_distance(spot.rect, Rect::from_pos(at)) < mark_distance(spot.rect, other),
            "{spot:?}"
        );
        assert!(!spot.leader, "a near spot was free: {spot:?}");
    }

    #[test]
    fn a_label_pushed_far_from_its_mark_is_joined_to_it_by_a_leader() {
        // Every spot beside the anchor is covered by text; the label goes further out.
        let mut p = placer();
        let at = pos2(200.0, 150.0);
        p.block_text(Rect::from_center_size(at, vec2(110.0, 50.0)));
        let spot = p.place_spot(at, vec2(30.0, 12.0), 6.0, UP_RIGHT, false);
        assert!(spot.leader, "{spot:?}");
        let [start, end] = spot.leader_line(at).expect("a leader");
        assert!(start.distance(at) <= 3.5 && spot.rect.expand(0.5).contains(end));
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
