//! The half-angle circle cell: turns about z as points on the unit circle, with
//! LERP's chord, NLERP's pushed-out points and SLERP's arc from A to B, and beside it
//! the object the current point turns, by twice the point's angle.

use super::InterpolationPage;
use super::circle::{Blend, angle_between, point_of, turn_at};
use super::view::method_color;
use crate::link::Named;
use crate::ui::matrix::quat_text;
use crate::ui::mono_ui;
use egui::{Align2, Color32, FontId, Pos2, Rect, Shape, Stroke, Ui, pos2, vec2};
use glam::Vec2;
use skin::explain::rotation::Interp;

/// B's colour (A takes the text colour).
const B_COLOR: Color32 = Color32::from_rgb(175, 110, 235);
/// Dots at even steps of t: `STEPS + 1` of them.
const STEPS: usize = 10;
/// How near (points) a press must be to a point or a path to grab it.
const REACH: f32 = 18.0;

/// Where the circle is drawn on screen: its centre and radius, in points.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Frame {
    /// The centre, where `q = 0`.
    pub center: Pos2,
    /// The radius, where `|q| = 1`.
    pub radius: f32,
}

impl Frame {
    /// The screen position of a circle point (up is up).
    pub fn to_screen(&self, p: Vec2) -> Pos2 {
        self.center + vec2(p.x, -p.y) * self.radius
    }

    /// The circle point under a screen position.
    pub fn from_screen(&self, s: Pos2) -> Vec2 {
        let d = (s - self.center) / self.radius.max(1.0);
        Vec2::new(d.x, -d.y)
    }

    fn at_angle(&self, angle: f32, radius: f32) -> Pos2 {
        self.center + vec2(angle.cos(), -angle.sin()) * radius
    }
}

/// What a drag on the circle moves, from the press until the release.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Grab {
    /// A, or −A (then A goes to the opposite point).
    A { negated: bool },
    /// B, or −B.
    B { negated: bool },
    /// The current point along the chosen method's path: t.
    T,
}

/// Text in a box of the background colour, so a curve under it cannot blur it.
fn boxed_text(painter: &egui::Painter, at: Pos2, align: Align2, text: &str, color: Color32) {
    let visuals = &painter.ctx().global_style().visuals;
    let bg = visuals.extreme_bg_color;
    let color = crate::ui::legible_on(color, bg, visuals.dark_mode);
    let font = FontId::proportional(15.0);
    let galley = painter.layout_no_wrap(text.to_owned(), font, color);
    let rect = align.anchor_size(at, galley.size());
    painter.rect_filled(rect.expand(2.0), 3.0, bg);
    painter.galley(rect.min, galley, color);
}

/// Points every few screen points along the segment from `a` to `b`.
fn along(a: Pos2, b: Pos2) -> impl Iterator<Item = Pos2> {
    let n = (a.distance(b) / 4.0).ceil().max(1.0) as usize;
    (0..=n).map(move |i| a.lerp(b, i as f32 / n as f32))
}

/// The first of `spots` at least 14 points from every obstacle, else the one farthest
/// from them: where a label can sit without hiding a curve.
fn clear_spot(spots: &[Pos2], obstacles: &[Pos2]) -> Pos2 {
    let clearance = |s: &Pos2| {
        obstacles
            .iter()
            .map(|o| o.distance(*s))
            .fold(f32::INFINITY, f32::min)
    };
    spots
        .iter()
        .find(|s| clearance(s) >= 14.0)
        .or_else(|| {
            spots
                .iter()
                .max_by(|x, y| clearance(x).total_cmp(&clearance(y)))
        })
        .copied()
        .unwrap_or_default()
}

/// A polyline through `points`, mapped by `frame`.
fn polyline(frame: &Frame, points: &[Vec2], stroke: Stroke) -> Shape {
    Shape::line(points.iter().map(|p| frame.to_screen(*p)).collect(), stroke)
}

/// An arc of `radius` points about `center`, from angle `from` to `to` (radians).
fn arc(center: Pos2, radius: f32, from: f32, to: f32, stroke: Stroke) -> Shape {
    let n = ((to - from).abs() / 0.05).ceil().max(2.0) as usize;
    let points = (0..=n)
        .map(|i| {
            let a = from + (to - from) * i as f32 / n as f32;
            center + vec2(a.cos(), -a.sin()) * radius
        })
        .collect();
    Shape::line(points, stroke)
}

fn degrees(radians: f32) -> String {
    // One decimal where a whole number would round (22.5°, half of 45°), none where
    // it would be a trailing zero.
    let tenths = (radians.to_degrees() * 10.0).round() / 10.0 + 0.0;
    if tenths.fract() == 0.0 {
        format!("{tenths:.0}°")
    } else {
        format!("{tenths:.1}°")
    }
}

/// `x` moved by a whole period, `2 · half`, into −half..=half, from within one period
/// of it.
fn within(x: f32, half: f32) -> f32 {
    if x > half {
        x - 2.0 * half
    } else if x < -half {
        x + 2.0 * half
    } else {
        x
    }
}

/// B, a turn of `turn` radians about z (−2π..=2π), as the glider stores it: a roll
/// within half a turn, and past half a turn either way stored as −q, as on the circle.
fn z_pair(turn: f32) -> (f32, bool) {
    let roll = within(turn, std::f32::consts::PI);
    (roll, roll != turn)
}

/// The button that puts the circle's pair on the glider.
pub const FLY_CIRCLE: &str = "Fly this pair on the glider";

impl InterpolationPage {
    /// The figure's A, B and short-way check.
    pub fn circle_blend(&self) -> Blend {
        Blend {
            theta_a: self.circle[0],
            theta_b: self.circle[1],
            shortest: self.shortest,
        }
    }

    /// What a press at `at` grabs: the nearest of A, B, −A, −B and the current point,
    /// else the chosen method's path; nothing when all are out of reach.
    fn pick(&self, frame: &Frame, at: Pos2) -> Option<Grab> {
        let blend = self.circle_blend();
        let (a, b) = (point_of(blend.theta_a), point_of(blend.theta_b));
        let candidates = [
            (Grab::T, blend.at(self.method, self.t)),
            (Grab::A { negated: false }, a),
            (Grab::B { negated: false }, b),
            (Grab::A { negated: true }, -a),
            (Grab::B { negated: true }, -b),
        ];
        let distance = |p: Vec2| frame.to_screen(p).distance(at);
        let nearest = candidates
            .into_iter()
            .map(|(grab, p)| (grab, distance(p)))
            .min_by(|x, y| x.1.total_cmp(&y.1))
            .filter(|(_, d)| *d < REACH)
            .map(|(grab, _)| grab);
        nearest.or_else(|| {
            let p = frame.from_screen(at);
            let on_path = blend.at(self.method, blend.nearest_t(self.method, p));
            (distance(on_path) < REACH).then_some(Grab::T)
        })
    }

    /// Moves what `grab` holds to the circle point `p`.
    fn drag_to(&mut self, grab: Grab, p: Vec2) {
        if p.length() < 1e-3 {
            return;
        }
        match grab {
            Grab::A { negated } => self.circle[0] = turn_at(if negated { -p } else { p }),
            Grab::B { negated } => self.circle[1] = turn_at(if negated { -p } else { p }),
            Grab::T => self.t = self.circle_blend().nearest_t(self.method, p),
        }
    }

    /// The glider's pair set to the circle's: A moved to no turn, B keeping its turn
    /// from A (brought within −2π..=2π, where the circle keeps its turns), so the
    /// blend is the same.
    fn fly_circle(&mut self) {
        let turn = self.circle[1] - self.circle[0];
        self.fly_z_turn(within(turn, std::f32::consts::TAU));
    }

    /// The glider's pair set to A no turn and B a turn of `turn` radians about z
    /// (−2π..=2π), and the circle to the same pair.
    pub(super) fn fly_z_turn(&mut self, turn: f32) {
        let (roll, flip) = z_pair(turn);
        self.target = [0.0, 0.0, roll];
        self.flip = flip;
        self.prediction = None;
        self.circle = [0.0, turn];
    }

    /// Whether the glider flies the circle's pair (A no turn on both).
    fn flies_the_circle(&self) -> bool {
        let (roll, flip) = z_pair(self.circle[1]);
        self.circle[0] == 0.0 && self.target == [0.0, 0.0, roll] && self.flip == flip
    }

    /// The cell: method buttons and the short-way check, the figure, then its numbers.
    pub(super) fn half_angle_ui(&mut self, ui: &mut Ui) {
        ui.horizontal_wrapped(|ui| {
            super::cells::method_buttons_ui(ui, &mut self.method);
            crate::ui::checkbox_ui(
                ui,
                &mut self.shortest,
                "Short way: head for −B when A · B < 0",
            );
            // The glider on the right flies its own pair (A no turn, B the first
            // cell's) until asked to fly this one: never taken for this circle's.
            if !self.flies_the_circle()
                && ui
                    .button(FLY_CIRCLE)
                    .on_hover_text("The glider now flies the first cell's pair, not this one.")
                    .clicked()
            {
                self.fly_circle();
            }
        });
        let width = ui.available_width();
        // Side by side when the column is wide; the object under the circle otherwise.
        let wide = width >= 300.0;
        // At most 45% of the screen's height, so that the numbers below it fit beside a
        // focused viewport on a projector.
        let most = 330.0_f32.min(0.45 * ui.ctx().content_rect().height());
        let side = if wide { width / 1.7 } else { width }.min(most);
        let height = if wide { side } else { side * 1.6 };
        let (rect, response) =
            ui.allocate_exact_size(vec2(width, height), egui::Sense::click_and_drag());
        response.widget_info(|| {
            egui::WidgetInfo::labeled(egui::Role::Slider, true, "half-angle circle")
        });
        let frame = Frame {
            center: rect.left_top() + vec2(side / 2.0, side / 2.0),
            radius: (side / 2.0 - 34.0).max(10.0),
        };
        self.circle_frame = frame;
        let object = if wide {
            let left = rect.left() + side;
            Rect::from_min_max(pos2(left, rect.top()), rect.right_bottom())
        } else {
            Rect::from_min_max(pos2(rect.left(), rect.top() + side), rect.right_bottom())
        };

        let pointer = response.interact_pointer_pos();
        if response.drag_started() || response.clicked() {
            let origin = ui.input(|i| i.pointer.press_origin()).or(pointer);
            self.circle_grab = origin.and_then(|at| self.pick(&frame, at));
        }
        if let (Some(grab), Some(at)) = (self.circle_grab, pointer)
            && (response.dragged() || response.clicked())
        {
            self.drag_to(grab, frame.from_screen(at));
        }
        if response.drag_stopped() || response.clicked() {
            self.circle_grab = None;
        }
        if self.circle_grab.is_some() {
            ui.ctx().set_cursor_icon(egui::CursorIcon::Grabbing);
        } else if response
            .hover_pos()
            .is_some_and(|at| self.pick(&frame, at).is_some())
        {
            ui.ctx().set_cursor_icon(egui::CursorIcon::Grab);
        }

        let painter = ui.painter_at(rect);
        painter.rect_filled(rect, 4.0, ui.visuals().extreme_bg_color);
        self.circle_paint(&painter, &frame, ui.visuals().text_color());
        self.object_paint(&painter, object, ui.visuals().text_color());
        ui.label(
            egui::RichText::new(
                "Across: w = cos(θ/2). Up: z = sin(θ/2), the part along the axis z. Drag A, B, −A or −B round the circle; drag along the path to move t.",
            )
            .small(),
        );
        self.circle_numbers_ui(ui);
    }

    fn circle_paint(&self, painter: &egui::Painter, frame: &Frame, ink: Color32) {
        let blend = self.circle_blend();
        let r = frame.radius;
        let faint = ink.gamma_multiply(0.3);
        let (a, b) = (point_of(blend.theta_a), point_of(blend.theta_b));
        // Axes and the unit circle.
        for d in [vec2(1.0, 0.0), vec2(0.0, 1.0)] {
            painter.line_segment(
                [frame.center - d * (r + 12.0), frame.center + d * (r + 12.0)],
                Stroke::new(1.0, faint),
            );
        }
        painter.circle_stroke(frame.center, r, Stroke::new(1.5, ink.gamma_multiply(0.5)));

        // The way the check does not take, dashed.
        if blend.dot() < 0.0 {
            let other = if blend.flipped() { b } else { -b };
            painter.add(Shape::dashed_line(
                &[frame.to_screen(a), frame.to_screen(other)],
                Stroke::new(1.5, method_color(Interp::Lerp).gamma_multiply(0.5)),
                6.0,
                5.0,
            ));
        }

        let width = |m: Interp| if m == self.method { 3.0 } else { 1.5 };
        // SLERP's arc, LERP's chord.
        let arc_points = blend.path(Interp::Slerp, 64);
        let slerp = method_color(Interp::Slerp);
        painter.add(polyline(
            frame,
            &arc_points,
            Stroke::new(width(Interp::Slerp), slerp),
        ));
        let lerp = method_color(Interp::Lerp);
        painter.line_segment(
            [frame.to_screen(a), frame.to_screen(blend.end())],
            Stroke::new(width(Interp::Lerp), lerp),
        );

        // Dots at even steps of t: LERP's on the chord, each pushed out along its
        // radius to NLERP's; SLERP's as ticks just outside the circle.
        let nlerp = method_color(Interp::Nlerp);
        let lerps = blend.path(Interp::Lerp, STEPS);
        let nlerps = blend.path(Interp::Nlerp, STEPS);
        for (l, n) in lerps.iter().zip(&nlerps) {
            painter.line_segment(
                [frame.to_screen(*l), frame.to_screen(*n)],
                Stroke::new(1.0, faint),
            );
            painter.circle_filled(frame.to_screen(*l), 3.5, lerp);
            painter.circle_filled(frame.to_screen(*n), 3.5, nlerp);
        }
        for s in blend.path(Interp::Slerp, STEPS) {
            let angle = s.y.atan2(s.x);
            painter.line_segment(
                [
                    frame.at_angle(angle, r + 3.0),
                    frame.at_angle(angle, r + 11.0),
                ],
                Stroke::new(2.0, slerp),
            );
        }

        // The half angle of the current point, from the w axis.
        let now = blend.at(self.method, self.t);
        let half = blend.turn_along(now) / 2.0;
        painter.line_segment(
            [frame.center, frame.to_screen(now.normalize_or_zero())],
            Stroke::new(1.0, ink.gamma_multiply(0.6)),
        );
        let small = r * 0.3;
        painter.add(arc(frame.center, small, 0.0, half, Stroke::new(1.5, ink)));
        let mut obstacles: Vec<Pos2> = along(frame.to_screen(a), frame.to_screen(blend.end()))
            .chain(along(
                frame.center,
                frame.to_screen(now.normalize_or_zero()),
            ))
            .collect();
        obstacles.extend(arc_points.iter().map(|p| frame.to_screen(*p)));
        let spots = [
            frame.at_angle(half / 2.0, small + 16.0),
            frame.at_angle(half / 2.0, small * 0.45),
            frame.at_angle(half / 2.0, small + 34.0),
            frame.at_angle(half / 2.0 + 0.4, small + 16.0),
            frame.at_angle(half / 2.0 - 0.4, small + 16.0),
        ];
        boxed_text(
            painter,
            clear_spot(&spots, &obstacles),
            Align2::CENTER_CENTER,
            "θ/2",
            ink,
        );

        // A, B and their opposites, labelled outside the ticks; labels of close
        // points are spread apart.
        let (mut la, mut lb) = (a.y.atan2(a.x), b.y.atan2(b.x));
        let gap = angle_between(a, b);
        let min_gap = 26.0 / (r + 24.0);
        if gap.abs() < min_gap {
            let push = (min_gap - gap.abs()) / 2.0 * if gap >= 0.0 { 1.0 } else { -1.0 };
            la -= push;
            lb += push;
        }
        for (p, label_angle, name, color) in [
            (a, la, "A", ink),
            (b, lb, "B", B_COLOR),
            (-a, la + std::f32::consts::PI, "−A", ink),
            (-b, lb + std::f32::consts::PI, "−B", B_COLOR),
        ] {
            let s = frame.to_screen(p);
            if name.starts_with('−') {
                painter.circle_stroke(s, 5.5, Stroke::new(2.0, color));
            } else {
                painter.circle_filled(s, 6.0, color);
            }
            boxed_text(
                painter,
                frame.at_angle(label_angle, r + 26.0),
                Align2::CENTER_CENTER,
                name,
                color,
            );
        }

        // The current point, ringed.
        let color = method_color(self.method);
        let s = frame.to_screen(now);
        painter.circle_filled(s, 5.0, color);
        painter.circle_stroke(s, 9.0, Stroke::new(2.5, color));
    }

    /// The object the current point turns: a hand turned by the whole angle θ, with
    /// A's and B's hands faint.
    fn object_paint(&self, painter: &egui::Painter, area: Rect, ink: Color32) {
        let blend = self.circle_blend();
        // Room above for the title and below for the caption, each clear of a hand's
        // name (drawn just past the tip, up to about 20 points out).
        let radius = (area.width().min(area.height() - 84.0) / 2.0 - 24.0).clamp(20.0, 90.0);
        let center = area.center();
        let hand = |angle: f32, length: f32| center + vec2(angle.cos(), -angle.sin()) * length;
        painter.circle_stroke(center, radius, Stroke::new(1.0, ink.gamma_multiply(0.3)));
        painter.line_segment(
            [center, hand(0.0, radius + 8.0)],
            Stroke::new(1.0, ink.gamma_multiply(0.3)),
        );
        for (name, theta, color) in [("A", blend.theta_a, ink), ("B", blend.theta_b, B_COLOR)] {
            painter.line_segment(
                [center, hand(theta, radius)],
                Stroke::new(1.5, color.gamma_multiply(0.6)),
            );
            // The end's name just past its hand's tip.
            boxed_text(
                painter,
                hand(theta, radius + 10.0),
                Align2::CENTER_CENTER,
                name,
                color,
            );
        }
        let now = blend.at(self.method, self.t);
        let theta = blend.turn_along(now);
        let color = method_color(self.method);
        painter.line_segment([center, hand(theta, radius)], Stroke::new(4.0, color));
        painter.circle_filled(hand(theta, radius), 5.0, color);
        let small = radius * 0.35;
        painter.add(arc(center, small, 0.0, theta, Stroke::new(1.5, ink)));
        let obstacles: Vec<Pos2> = [blend.theta_a, blend.theta_b, theta]
            .into_iter()
            .flat_map(|angle| along(center, hand(angle, radius)))
            .collect();
        let spots = [
            hand(theta / 2.0, small + 12.0),
            hand(theta / 2.0, small * 0.5),
            hand(theta / 2.0 + 0.5, small + 12.0),
            hand(theta / 2.0 - 0.5, small + 12.0),
        ];
        boxed_text(
            painter,
            clear_spot(&spots, &obstacles),
            Align2::CENTER_CENTER,
            "θ",
            ink,
        );
        boxed_text(
            painter,
            pos2(center.x, center.y - radius - 22.0),
            Align2::CENTER_BOTTOM,
            "the object",
            ink,
        );
        boxed_text(
            painter,
            pos2(center.x, center.y + radius + 22.0),
            Align2::CENTER_TOP,
            &format!("turned by θ = {}", degrees(theta)),
            ink,
        );
    }

    fn circle_numbers_ui(&self, ui: &mut Ui) {
        let blend = self.circle_blend();
        let (a, b) = (blend.a(), blend.b());
        let half = |theta: f32| degrees(theta / 2.0);
        mono_ui(
            ui,
            format!(
                // Three spaces: where a row too long for the column breaks.
                "A = {}   θ = {}, θ/2 = {}\nB = {}   θ = {}, θ/2 = {}",
                quat_text(a),
                degrees(blend.theta_a),
                half(blend.theta_a),
                quat_text(b),
                degrees(blend.theta_b),
                half(blend.theta_b),
            ),
        );
        let dot = blend.dot();
        let phi = angle_between(point_of(blend.theta_a), point_of(blend.theta_b)).abs();
        let away = |angle: f32| {
            format!(
                "{} away on the circle ({} of turn)",
                degrees(angle),
                degrees(2.0 * angle)
            )
        };
        let other = std::f32::consts::PI - phi;
        ui.label(if dot >= 0.0 {
            format!(
                "A · B = {dot:.3}, not negative: B is {}, the short way already.",
                away(phi)
            )
        } else if blend.flipped() {
            format!(
                "A · B = {dot:.3} < 0: B is {}, so the blend heads for −B, {}.",
                away(phi),
                away(other)
            )
        } else {
            format!(
                "A · B = {dot:.3} < 0 and the check is off: the blend takes the long way to B, {}. −B is {}.",
                away(phi),
                away(other)
            )
        });
        let now = blend.at(self.method, self.t);
        let theta = blend.turn_along(now);
        let length = now.length();
        let name = self.method.slug().to_ascii_uppercase();
        ui.label(if self.method == Interp::Lerp {
            format!(
                "{name} at t = {:.2}: |q| = {length:.3}, inside the circle. Its direction is at θ/2 = {}: pushed out, it turns the object by θ = {}.",
                self.t,
                degrees(theta / 2.0),
                degrees(theta)
            )
        } else {
            format!(
                "{name} at t = {:.2}: the point at θ/2 = {} turns the object by θ = {}.",
                self.t,
                degrees(theta / 2.0),
                degrees(theta)
            )
        });
    }
}
