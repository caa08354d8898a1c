//! Weights as a painter edits them: one number per vertex and bone, a brush that adds,
//! removes or smooths weight, and auto-normalise that keeps each vertex's sum at 1. The
//! model page's brush on a real file's weights is this one.

use egui::Ui;
use skin::{InfluenceError, Influences};

/// What a drag of the brush does to the weight of the bone it paints.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Stroke {
    /// Towards 1.
    #[default]
    Add,
    /// Towards 0.
    Remove,
    /// Towards the mean under the brush, so a sharp edge in the weights softens.
    Smooth,
}

/// The weight brush.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Brush {
    /// Whether a drag on the mesh paints (instead of turning the camera).
    pub on: bool,
    /// What a drag does.
    pub stroke: Stroke,
    /// The radius: world units on the blending page's arm at rest, points on screen on
    /// the model page.
    pub radius: f32,
    /// How much of the way to the target one second of painting goes.
    pub strength: f32,
}

impl Brush {
    /// The brush off, adding, with this radius.
    pub fn new(radius: f32) -> Self {
        Self {
            on: false,
            stroke: Stroke::Add,
            radius,
            strength: 2.0,
        }
    }

    /// How much of the way to its target a vertex `distance` from the brush's centre
    /// goes in a dab of `dt` seconds: the most at the centre, nothing from the rim out.
    pub fn amount(&self, distance: f32, dt: f32) -> Option<f32> {
        let d = distance / self.radius.max(1e-3);
        (d < 1.0).then(|| (self.strength * dt * (1.0 - d * d).powi(2)).min(1.0))
    }

    /// The weight a dab moves towards, where `mean` is the bone's weight under the
    /// brush, each vertex counted by how much the brush moves it.
    pub fn target(&self, mean: f32) -> f32 {
        match self.stroke {
            Stroke::Add => 1.0,
            Stroke::Remove => 0.0,
            Stroke::Smooth => mean,
        }
    }

    /// The brush's switch, its three strokes and its sliders; `radius` is the radius
    /// slider's range, `unit` what it counts.
    pub fn controls_ui(&mut self, ui: &mut Ui, radius: std::ops::RangeInclusive<f32>, unit: &str) {
        ui.horizontal_wrapped(|ui| {
            ui.toggle_value(&mut self.on, "Brush");
            ui.selectable_value(&mut self.stroke, Stroke::Add, "Add");
            ui.selectable_value(&mut self.stroke, Stroke::Remove, "Remove");
            ui.selectable_value(&mut self.stroke, Stroke::Smooth, "Smooth");
        });
        ui.add(egui::Slider::new(&mut self.radius, radius).text(unit));
        ui.add(egui::Slider::new(&mut self.strength, 0.2..=6.0).text("strength"));
    }

    /// The colour of the brush's ring: red adds, blue removes, grey smooths.
    pub fn color(&self) -> egui::Color32 {
        match self.stroke {
            Stroke::Add => egui::Color32::from_rgb(200, 40, 40),
            Stroke::Remove => egui::Color32::from_rgb(40, 60, 200),
            Stroke::Smooth => egui::Color32::from_rgb(90, 90, 90),
        }
    }

    /// What a drag does, in words: "add to", "remove from", "smooth".
    pub fn verb(&self) -> &'static str {
        match self.stroke {
            Stroke::Add => "add to",
            Stroke::Remove => "remove from",
            Stroke::Smooth => "smooth",
        }
    }
}

/// `weight(vertex, bone)` for every vertex and bone, as painted.
#[derive(Clone, Debug, PartialEq)]
pub struct WeightMap {
    bones: usize,
    values: Vec<f32>,
}

/// How far from 1 a vertex's weights may sum before it counts as unnormalised.
pub const SUM_TOLERANCE: f32 = 1e-3;

impl WeightMap {
    /// The weights that `influences` give, `bones` per vertex.
    pub fn from_influences(influences: &[Influences], bones: usize) -> Self {
        let mut values = vec![0.0; influences.len() * bones];
        for (v, inf) in influences.iter().enumerate() {
            for (joint, weight) in inf.used() {
                if joint < bones {
                    values[v * bones + joint] += weight;
                }
            }
        }
        Self { bones, values }
    }

    /// Number of vertices.
    pub fn len(&self) -> usize {
        self.values.len() / self.bones.max(1)
    }

    /// True when there are no vertices.
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// One vertex's weight for one bone (0 outside the map).
    pub fn get(&self, vertex: usize, bone: usize) -> f32 {
        if bone >= self.bones {
            return 0.0;
        }
        self.values
            .get(vertex * self.bones + bone)
            .copied()
            .unwrap_or(0.0)
    }

    /// The sum of one vertex's weights.
    pub fn sum(&self, vertex: usize) -> f32 {
        (0..self.bones).map(|b| self.get(vertex, b)).sum()
    }

    /// The vertices whose weights do not sum to 1.
    pub fn unnormalised(&self) -> Vec<usize> {
        (0..self.len())
            .filter(|v| (self.sum(*v) - 1.0).abs() > SUM_TOLERANCE)
            .collect()
    }

    /// Moves `vertex`'s weight for `bone` a fraction `amount` of the way to `target`
    /// ([`paint_row`] on the vertex's weights).
    pub fn paint(&mut self, vertex: usize, bone: usize, target: f32, amount: f32, normalise: bool) {
        if vertex < self.len() {
            let row = &mut self.values[vertex * self.bones..(vertex + 1) * self.bones];
            paint_row(row, bone, target, amount, normalise);
        }
    }

    /// The influences the shader reads: prepared (normalised) when `normalise`,
    /// otherwise as painted, so a sum other than 1 shows on the mesh.
    pub fn influences(&self, normalise: bool) -> Result<Vec<Influences>, InfluenceError> {
        (0..self.len())
            .map(|v| {
                let list: Vec<(usize, f32)> =
                    (0..self.bones).map(|b| (b, self.get(v, b))).collect();
                if normalise {
                    Influences::prepare(&list, self.bones)
                } else {
                    Influences::unnormalised(&list, self.bones)
                }
            })
            .collect()
    }
}

// ANCHOR: paint
/// Moves one vertex's weight for `bone` (of its weights `row`, one a bone) a fraction
/// `amount` (0..1) of the way to `target` (1 to add, 0 to remove). With `normalise`,
/// the other bones share the change in proportion to what they had, so the sum stays
/// 1, as in Blender. A bone past the row, or an amount that is not a number, changes
/// nothing.
pub fn paint_row(row: &mut [f32], bone: usize, target: f32, amount: f32, normalise: bool) {
    if bone >= row.len() || !amount.is_finite() || !target.is_finite() {
        return;
    }
    let amount = amount.clamp(0.0, 1.0);
    let old = row[bone];
    row[bone] = old + (target.clamp(0.0, 1.0) - old) * amount;
    if !normalise {
        return;
    }
    let others: f32 = row
        .iter()
        .enumerate()
        .filter(|(b, _)| *b != bone)
        .map(|(_, w)| w)
        .sum();
    let room = (1.0 - row[bone]).max(0.0);
    let spread = room / (row.len() - 1).max(1) as f32;
    for (b, w) in row.iter_mut().enumerate() {
        if b == bone {
            continue;
        }
        *w = if others > 0.0 {
            *w / others * room
        } else {
            // Nothing to scale: spread what is left evenly.
            spread
        };
    }
    if others <= 0.0 && row.len() == 1 {
        row[bone] = 1.0;
    }
}
// ANCHOR_END: paint

/// The mean of `(weight, by)` pairs, each weight counted `by` (0 for none).
pub fn weighted_mean(pairs: impl Iterator<Item = (f32, f32)>) -> f32 {
    let (sum, count) = pairs.fold((0.0, 0.0), |(s, n), (w, by)| (s + w * by, n + by));
    if count > 0.0 { sum / count } else { 0.0 }
}

/// The steps a weight is kept in when it travels in a link: 1/65535 apart, far finer
/// than [`SUM_TOLERANCE`], so a reopened link counts the same sums off 1 as were painted.
const LINK_LEVELS: f32 = 65535.0;

/// The steps of the links written before: 1/255 apart (still read), and of a repeated
/// weight, whose step 1/255 is exactly 257 of the finer ones.
const BYTE_LEVELS: f32 = 255.0;

// How changed weights travel in a link. The weights are read bone by bone, vertex by
// vertex, as one list of numbers (so a stroke that fills a bone's weight makes one
// long run). The bytes are a list of runs; each run starts with an
// unsigned LEB128 number `h`, whose low two bits say what the run is and the rest
// `h >> 2` how long it is, less one:
//   0  that many weights keep their value from before painting;
//   1  that many weights follow, one byte each (the weight times 255; older links);
//   2  one byte follows, and that many weights take it (the weight times 255);
//   3  that many weights follow, two bytes each, low byte first (the weight times 65535).
const RUN_KEEP: u32 = 0;
const RUN_BYTES: u32 = 1;
const RUN_REPEAT: u32 = 2;
const RUN_PAIRS: u32 = 3;
/// Repeated weights worth a run of their own.
const MIN_REPEAT: usize = 4;

impl WeightMap {
    /// The weights that differ from `before` (the same mesh before painting), packed
    /// into bytes for a link; `None` when nothing differs by a step. A weight travels as
    /// one of 65536 steps, so a link holds it to within 1/65535.
    pub fn pack_changes(&self, before: &WeightMap) -> Option<Vec<u8>> {
        if self.bones != before.bones || self.values.len() != before.values.len() {
            return None;
        }
        let at = |i: usize| self.column_major(i);
        let level = |i: usize| link_level(self.values[at(i)]);
        // A change smaller than a step is not written: the weight keeps its value from
        // before, which is as close as a step would be. So a link reopens as written.
        let changed = |i: usize| level(i) != link_level(before.values[at(i)]);
        let n = self.values.len();
        let mut out = Vec::new();
        let mut i = 0;
        let mut any = false;
        while i < n {
            let start = i;
            if !changed(i) {
                while i < n && !changed(i) {
                    i += 1;
                }
                if i < n {
                    push_run(&mut out, RUN_KEEP, i - start);
                }
                continue;
            }
            any = true;
            // A stretch of changed weights: repeats where a weight repeats on a byte's
            // step (a stroke that fills a bone, or empties it), pairs otherwise.
            let mut literal = Vec::new();
            while i < n && changed(i) {
                let step = level(i);
                let mut end = i + 1;
                while end < n && changed(end) && level(end) == step {
                    end += 1;
                }
                if end - i >= MIN_REPEAT && step % 257 == 0 {
                    push_pairs(&mut out, &mut literal);
                    push_run(&mut out, RUN_REPEAT, end - i);
                    out.push((step / 257) as u8);
                } else {
                    literal.extend((i..end).map(level));
                }
                i = end;
            }
            push_pairs(&mut out, &mut literal);
        }
        any.then_some(out)
    }

    /// `before` with the changes [`pack_changes`](Self::pack_changes) packed, or what is
    /// wrong with the bytes. Nothing is allocated beyond `before`'s own size.
    pub fn unpack_changes(before: &WeightMap, bytes: &[u8]) -> Result<WeightMap, String> {
        let mut map = before.clone();
        let n = map.values.len();
        let mut at = 0;
        let mut next = 0;
        while next < bytes.len() {
            let header = read_leb128(bytes, &mut next).ok_or_else(|| {
                format!("run {at} of the packed weights is cut short or too long")
            })?;
            let len = (header >> 2) as usize + 1;
            if at + len > n {
                return Err(format!(
                    "the packed weights name weight {}, but the arm has {n}",
                    at + len - 1
                ));
            }
            match header & 3 {
                RUN_KEEP => {}
                RUN_BYTES | RUN_PAIRS => {
                    let width = if header & 3 == RUN_PAIRS { 2 } else { 1 };
                    let Some(levels) = bytes.get(next..next + len * width) else {
                        return Err(format!(
                            "the packed weights end {} bytes early",
                            next + len * width - bytes.len()
                        ));
                    };
                    for (i, level) in (at..at + len).zip(levels.chunks(width)) {
                        let k = map.column_major(i);
                        map.values[k] = match level {
                            [low, high] => {
                                f32::from(u16::from_le_bytes([*low, *high])) / LINK_LEVELS
                            }
                            [byte] => f32::from(*byte) / BYTE_LEVELS,
                            _ => unreachable!("chunks of the run's width"),
                        };
                    }
                    next += len * width;
                }
                RUN_REPEAT => {
                    let level = *bytes
                        .get(next)
                        .ok_or("the packed weights end before a repeated weight")?;
                    for i in at..at + len {
                        let k = map.column_major(i);
                        map.values[k] = f32::from(level) / BYTE_LEVELS;
                    }
                    next += 1;
                }
                _ => unreachable!("two bits"),
            }
            at += len;
        }
        Ok(map)
    }
}

/// A run of weights two bytes each, if any are waiting.
fn push_pairs(out: &mut Vec<u8>, literal: &mut Vec<u16>) {
    if !literal.is_empty() {
        push_run(out, RUN_PAIRS, literal.len());
        out.extend(literal.drain(..).flat_map(u16::to_le_bytes));
    }
}

impl WeightMap {
    /// Where the `i`th weight of the bone-by-bone order is kept.
    fn column_major(&self, i: usize) -> usize {
        let vertices = self.len().max(1);
        (i % vertices) * self.bones + i / vertices
    }
}

/// The step a weight travels as.
fn link_level(weight: f32) -> u16 {
    (weight.clamp(0.0, 1.0) * LINK_LEVELS).round() as u16
}

fn push_run(out: &mut Vec<u8>, kind: u32, len: usize) {
    let mut header = ((len as u64 - 1) << 2) | u64::from(kind);
    loop {
        let byte = (header & 0x7f) as u8;
        header >>= 7;
        if header == 0 {
            out.push(byte);
            return;
        }
        out.push(byte | 0x80);
    }
}

/// An unsigned LEB128 number of at most 32 bits, or `None` if cut short or too long.
fn read_leb128(bytes: &[u8], next: &mut usize) -> Option<u32> {
    let mut value = 0u32;
    for shift in (0..35).step_by(7) {
        let byte = *bytes.get(*next)?;
        *next += 1;
        value |= u32::from(byte & 0x7f).checked_shl(shift)?;
        if byte & 0x80 == 0 {
            return (shift < 28 || byte < 16).then_some(value);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn map() -> WeightMap {
        let inf = [
            Influences::rigid(0),
            Influences::prepare(&[(0, 0.5), (1, 0.5)], 3).unwrap(),
            Influences::prepare(&[(0, 0.2), (1, 0.3), (2, 0.5)], 3).unwrap(),
        ];
        WeightMap::from_influences(&inf, 3)
    }

    #[test]
    fn reads_back_the_influences() {
        let m = map();
        assert_eq!(m.len(), 3);
        assert_eq!(m.get(1, 1), 0.5);
        assert!((m.sum(2) - 1.0).abs() < 1e-6);
        assert!(m.unnormalised().is_empty());
        assert_eq!(m.influences(true).unwrap()[2].used().count(), 3);
    }

    #[test]
    fn auto_normalise_keeps_the_sum_and_the_others_proportions() {
        let mut m = map();
        m.paint(2, 2, 1.0, 0.5, true);
        assert!((m.get(2, 2) - 0.75).abs() < 1e-6);
        assert!((m.sum(2) - 1.0).abs() < 1e-6);
        // 0.2 : 0.3 before, still 2 : 3 after.
        assert!((m.get(2, 0) / m.get(2, 1) - 2.0 / 3.0).abs() < 1e-5);
        m.paint(0, 0, 0.0, 1.0, true);
        assert_eq!(m.get(0, 0), 0.0);
        assert!((m.sum(0) - 1.0).abs() < 1e-6, "the weight went somewhere");
    }

    #[test]
    fn without_normalise_the_sum_drifts_and_is_reported() {
        let mut m = map();
        m.paint(1, 1, 1.0, 0.5, false);
        assert!((m.sum(1) - 1.25).abs() < 1e-6);
        assert_eq!(m.unnormalised(), vec![1]);
        let inf = m.influences(false).unwrap();
        assert!((inf[1].sum() - 1.25).abs() < 1e-6);
        let normalised = m.influences(true).unwrap();
        assert!((normalised[1].sum() - 1.0).abs() < 1e-6);
    }

    #[test]
    fn smooth_aims_at_the_mean_under_the_brush_and_the_rim_moves_nothing() {
        let brush = Brush {
            stroke: Stroke::Smooth,
            ..Brush::new(1.0)
        };
        let mean = weighted_mean([(0.0, 1.0), (1.0, 3.0)].into_iter());
        assert_eq!(brush.target(mean), 0.75);
        assert_eq!(brush.amount(1.0, 0.1), None);
        assert!(brush.amount(0.0, 0.1) > brush.amount(0.5, 0.1));
        assert_eq!(weighted_mean(std::iter::empty()), 0.0);
    }

    #[test]
    fn bad_brush_input_changes_nothing() {
        let mut m = map();
        let before = m.clone();
        m.paint(99, 0, 1.0, 0.5, true);
        m.paint(0, 7, 1.0, 0.5, true);
        m.paint(0, 1, 1.0, f32::NAN, true);
        assert_eq!(m, before);
    }
    #[test]
    fn a_link_keeps_every_sum_that_is_off_1_off_1() {
        // Painted with auto normalise off, by small dabs: sums a little off 1 stay off
        // it in the reopened link (with steps of 1/255 a few came back as 1).
        let before = WeightMap {
            bones: 2,
            values: (0..2000)
                .map(|i| if i % 2 == 0 { 0.7 } else { 0.3 })
                .collect(),
        };
        let mut painted = before.clone();
        for v in 0..1000 {
            let amount = 0.0004 + 0.00002 * (v % 97) as f32;
            painted.paint(v, v % 2, 1.0, amount, false);
        }
        let off = painted.unnormalised();
        assert!(off.len() > 100 && off.len() < 1000, "{} off 1", off.len());
        let bytes = painted.pack_changes(&before).unwrap();
        let back = WeightMap::unpack_changes(&before, &bytes).unwrap();
        assert_eq!(back.unnormalised(), off);
    }

    #[test]
    fn a_link_written_with_byte_steps_still_opens() {
        let before = WeightMap {
            bones: 1,
            values: vec![0.0; 3],
        };
        // Three weights, one byte each: 0, 51 and 255 of 255.
        let back = WeightMap::unpack_changes(&before, &[(2 << 2) | 1, 0, 51, 255]).unwrap();
        assert_eq!(back.values, vec![0.0, 0.2, 1.0]);
    }

    #[test]
    fn painted_weights_pack_and_unpack_to_within_a_step() {
        let before = WeightMap {
            bones: 2,
            // Vertex v: the forearm has (v % 10) / 10, the upper arm the rest.
            values: (0..400)
                .map(|i| {
                    let forearm = (i / 2 % 10) as f32 / 10.0;
                    if i % 2 == 1 { forearm } else { 1.0 - forearm }
                })
                .collect(),
        };
        assert_eq!(before.pack_changes(&before), None, "nothing painted");
        let mut painted = before.clone();
        for v in 50..120 {
            painted.paint(v, 1, 1.0, if v < 80 { 1.0 } else { 0.005 * v as f32 }, true);
        }
        let bytes = painted.pack_changes(&before).unwrap();
        // 70 vertices of 2 weights: the 30 saturated ones travel as two repeats, the
        // other 40 as 80 pairs of bytes.
        assert!(bytes.len() < 180, "{} bytes", bytes.len());
        let back = WeightMap::unpack_changes(&before, &bytes).unwrap();
        for (a, b) in back.values.iter().zip(&painted.values) {
            assert!((a - b).abs() <= 0.5 / 65535.0 + 1e-6, "{a} against {b}");
        }
        assert_eq!(
            back.pack_changes(&before).unwrap(),
            bytes,
            "a link reopens as written"
        );
    }

    #[test]
    fn packed_weights_that_run_past_the_map_or_stop_short_are_refused() {
        let before = WeightMap {
            bones: 2,
            values: vec![0.5; 8],
        };
        let refuse = |bytes: &[u8]| WeightMap::unpack_changes(&before, bytes).unwrap_err();
        assert!(refuse(&[(7 << 2) | 1, 1, 2]).contains("end 6 bytes early"));
        assert!(refuse(&[(8 << 2) | 2, 9]).contains("name weight 8"));
        assert!(refuse(&[(1 << 2) | 3, 1, 2, 3]).contains("end 1 bytes early"));
        assert!(refuse(&[0x81]).contains("cut short"));
        assert!(refuse(&[0xff, 0xff, 0xff, 0xff, 0x7f]).contains("too long"));
        assert!(refuse(&[(1 << 2) | 2]).contains("before a repeated weight"));
        // Bone 0 of vertices 0 and 1 kept, then bone 0 of vertices 2 and 3 set to 1.
        let kept = WeightMap::unpack_changes(&before, &[(1 << 2), (1 << 2) | 2, 255]).unwrap();
        assert_eq!(kept.values, [0.5, 0.5, 0.5, 0.5, 1.0, 0.5, 1.0, 0.5]);
    }
}
