//! `skinlab --profile LINK`: what a frame of a page costs, in the window, against an
//! empty window in the same run.
//!
//! The window first draws nothing for [`Recorder::frames`] frames (the empty window),
//! then the link with its animation running for as many. Each frame is timed three
//! ways:
//! - `ui`: the app's own update, which is the page's work (skinning included) and egui
//!   laying out its widgets;
//! - `app`: all the CPU work of the frame, as eframe counts it: `ui`, then tessellation
//!   and handing the shapes and the viewports to OpenGL (`paint` is `app − ui`);
//! - `tessellate`: from the end of the update to the first OpenGL draw: egui ending
//!   its pass, turning shapes into triangles, and uploading changed textures;
//! - `draw`: from the first OpenGL draw of the frame to its last: egui's meshes and the
//!   viewports' scenes. Paint callbacks stamp both ends ([`PaintStamps`]). With a
//!   software renderer (Mesa's llvmpipe) this holds the GPU's own work too;
//! - `gpu_wait`: the rest of the time to the next frame: waiting for the GPU to finish
//!   and the buffers to swap (the window does not wait for the display's refresh).
//!
//! A few frames at the start of each half are not counted, while caches fill.
//!
//! `skinlab --profile LINK --minutes M` is a soak instead ([`Soak`]): no empty window;
//! the link plays for M minutes, and each minute's frames and the process's memory
//! are printed as one CSV row ([`Minute`]) when the minute ends.

use std::time::{Duration, Instant};

/// Frames not counted at the start of each half.
const WARM_UP: usize = 10;

/// One frame as the window saw it.
#[derive(Clone, Copy, Debug, Default)]
struct Frame {
    /// From this frame's start to the next's.
    interval: Duration,
    /// The app's update.
    ui: Duration,
    /// All the frame's CPU work, as eframe reports it one frame later.
    cpu: Option<Duration>,
    /// From the end of the update to the first draw, and from there to the last.
    tessellate: Option<Duration>,
    draw: Option<Duration>,
}

/// When a frame's OpenGL painting began and ended, as paint callbacks on the bottom
/// and top layers saw it.
#[derive(Clone, Copy, Debug, Default)]
pub struct PaintStamps {
    pub first: Option<Instant>,
    pub last: Option<Instant>,
}

impl PaintStamps {
    /// From the first draw to the last, when both were stamped.
    fn drawing(&self) -> Option<Duration> {
        self.last?.checked_duration_since(self.first?)
    }
}

/// Which half of the run a frame belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Half {
    /// The window draws nothing.
    Empty,
    /// The window draws the link.
    Link,
}

/// Times the frames of a `--profile` run.
#[derive(Debug)]
pub struct Recorder {
    /// Frames counted in each half.
    pub frames: usize,
    empty: Vec<Frame>,
    link: Vec<Frame>,
    started: Option<Instant>,
}

impl Recorder {
    /// A run that counts `frames` frames of each half.
    pub fn new(frames: usize) -> Self {
        Self {
            frames,
            empty: Vec::new(),
            link: Vec::new(),
            started: None,
        }
    }

    fn target(&self) -> usize {
        self.frames + WARM_UP + 1
    }

    /// The half the next frame belongs to, `None` once both are done.
    pub fn half(&self) -> Option<Half> {
        if self.empty.len() < self.target() {
            Some(Half::Empty)
        } else if self.link.len() < self.target() {
            Some(Half::Link)
        } else {
            None
        }
    }

    /// Records a frame that started at `start` and spent `ui` in the app's update. It
    /// found the previous frame's CPU work reported as `previous_cpu`, and the previous
    /// frame's painting stamped as `previous_paint`.
    pub fn frame(
        &mut self,
        start: Instant,
        ui: Duration,
        previous_cpu: Option<Duration>,
        previous_paint: PaintStamps,
    ) {
        let Some(half) = self.half() else {
            return;
        };
        let target = self.target();
        let frames = match half {
            Half::Empty => &mut self.empty,
            Half::Link => &mut self.link,
        };
        // What this frame learns belongs to the one before it, within its half.
        if let (Some(last), Some(started)) = (frames.last_mut(), self.started) {
            last.interval = start - started;
            last.cpu = previous_cpu;
            let updated = started + last.ui;
            if let (Some(first), Some(draw)) = (previous_paint.first, previous_paint.drawing())
                && first >= updated
            {
                last.tessellate = Some(first - updated);
                last.draw = Some(draw);
            }
        }
        frames.push(Frame {
            ui,
            ..Frame::default()
        });
        // The next half starts afresh.
        self.started = (frames.len() < target).then_some(start);
    }

    /// The figures of each half: `link` names the second.
    pub fn report(&self, link: &str) -> Vec<Row> {
        let mut rows = rows_of("empty", &self.empty);
        rows.extend(rows_of(link, &self.link));
        rows
    }
}

/// One figure of the report: a phase of one half, in milliseconds (for `fps`, frames
/// a second in `median` and nothing else).
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// `empty` or the link.
    pub link: String,
    /// `app`, `ui`, `paint`, `tessellate`, `draw`, `gpu_wait` or `fps`.
    pub phase: &'static str,
    /// Half the frames took this long or less.
    pub median: f64,
    /// 95% of the frames took this long or less.
    pub p95: f64,
    /// The longest frame.
    pub max: f64,
}

/// The figures of one half's counted frames: after the warm-up, and before the last,
/// which only closes the one before it.
fn rows_of(link: &str, frames: &[Frame]) -> Vec<Row> {
    let end = frames.len().saturating_sub(1);
    phases(link, frames.get(WARM_UP..end).unwrap_or_default())
}

/// The figures of `counted`, frames whose every time is known.
fn phases(link: &str, counted: &[Frame]) -> Vec<Row> {
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    let phase = |phase: &'static str, values: Vec<f64>| {
        let [median, p95, max] = spread(values);
        Row {
            link: link.to_owned(),
            phase,
            median,
            p95,
            max,
        }
    };
    let cpu = |f: &Frame| f.cpu.unwrap_or(f.ui);
    let intervals: Vec<f64> = counted.iter().map(|f| ms(f.interval)).collect();
    let [interval, ..] = spread(intervals.clone());
    vec![
        phase("app", counted.iter().map(|f| ms(cpu(f))).collect()),
        phase("ui", counted.iter().map(|f| ms(f.ui)).collect()),
        phase(
            "paint",
            counted
                .iter()
                .map(|f| ms(cpu(f).saturating_sub(f.ui)))
                .collect(),
        ),
        phase(
            "tessellate",
            counted
                .iter()
                .filter_map(|f| f.tessellate)
                .map(ms)
                .collect(),
        ),
        phase(
            "draw",
            counted.iter().filter_map(|f| f.draw).map(ms).collect(),
        ),
        phase(
            "gpu_wait",
            counted
                .iter()
                .map(|f| ms(f.interval.saturating_sub(cpu(f))))
                .collect(),
        ),
        Row {
            link: link.to_owned(),
            phase: "fps",
            median: if interval > 0.0 { 1e3 / interval } else { 0.0 },
            p95: f64::NAN,
            max: f64::NAN,
        },
    ]
}

/// Median, 95th percentile and maximum (NaN for no values).
fn spread(mut values: Vec<f64>) -> [f64; 3] {
    if values.is_empty() {
        return [f64::NAN; 3];
    }
    values.sort_by(f64::total_cmp);
    let at = |q: f64| values[((values.len() - 1) as f64 * q).round() as usize];
    [at(0.5), at(0.95), at(1.0)]
}

/// The rows as CSV: `link,phase,median_ms,p95_ms,max_ms` (for `fps`, frames a second
/// in the median column and the others empty).
pub fn csv(rows: &[Row]) -> String {
    let mut out = String::from("link,phase,median_ms,p95_ms,max_ms\n");
    let cell = |v: f64| {
        if v.is_finite() {
            format!("{v:.3}")
        } else {
            String::new()
        }
    };
    for row in rows {
        // A link holds no comma or quote that would need escaping in CSV except by
        // a page's own grammar: quote it always.
        out.push_str(&format!(
            "\"{}\",{},{},{},{}\n",
            row.link.replace('"', "\"\""),
            row.phase,
            cell(row.median),
            cell(row.p95),
            cell(row.max)
        ));
    }
    out
}

/// The rows as a Markdown table, with the link's figures against the empty window's.
pub fn table(rows: &[Row]) -> String {
    let mut out = String::from(
        "| link | phase | median ms | 95th percentile ms | max ms |\n|---|---|---:|---:|---:|\n",
    );
    for row in rows {
        if row.phase == "fps" {
            out.push_str(&format!(
                "| {} | frames a second | {:.0} | | |\n",
                row.link, row.median
            ));
        } else {
            out.push_str(&format!(
                "| {} | {} | {:.2} | {:.2} | {:.2} |\n",
                row.link, row.phase, row.median, row.p95, row.max
            ));
        }
    }
    let fps = |link_is_empty: bool| {
        rows.iter()
            .find(|r| r.phase == "fps" && (r.link == "empty") == link_is_empty)
            .map(|r| r.median)
    };
    if let (Some(empty), Some(page)) = (fps(true), fps(false))
        && empty > 0.0
    {
        out.push_str(&format!(
            "\nThe page runs at {:.0}% of the empty window's frames a second.\n",
            100.0 * page / empty
        ));
    }
    out
}

/// A soak: the link plays for [`Soak::minutes`] minutes, and each minute's frames are
/// summed up in a [`Minute`] and dropped, so the run's own memory stays flat.
#[derive(Debug)]
pub struct Soak {
    /// How long the link plays.
    pub minutes: usize,
    /// The frames of the minute under way.
    frames: Vec<Frame>,
    /// When the minute under way started, and the last frame before this one.
    minute_started: Option<Instant>,
    last_start: Option<Instant>,
    /// Minutes ended so far.
    ended: usize,
}

/// What one minute of a soak measured.
#[derive(Clone, Debug, PartialEq)]
pub struct Minute {
    /// 1 for the first minute.
    pub minute: usize,
    /// Frames drawn in it.
    pub frames: usize,
    /// The app's CPU work a frame (`app` in [`Recorder`]'s terms) and frames a second.
    pub app: Row,
    /// Frames a second over the minute.
    pub fps: f64,
    /// The process's resident memory at the minute's end, in MiB (where the system
    /// says: Linux).
    pub resident_mib: Option<f64>,
}

impl Soak {
    /// The CSV header of [`Minute::csv`].
    pub const CSV_HEADER: &str =
        "minute,frames,fps,app_median_ms,app_p95_ms,app_max_ms,resident_mib";

    /// A soak of `minutes` minutes.
    pub fn new(minutes: usize) -> Self {
        Self {
            minutes,
            frames: Vec::new(),
            minute_started: None,
            last_start: None,
            ended: 0,
        }
    }

    /// Whether every minute has been played.
    pub fn done(&self) -> bool {
        self.ended >= self.minutes
    }

    /// Records a frame (as [`Recorder::frame`]); returns the minute it ended, if any.
    pub fn frame(
        &mut self,
        start: Instant,
        ui: Duration,
        previous_cpu: Option<Duration>,
    ) -> Option<Minute> {
        self.frame_of(start, ui, previous_cpu, Duration::from_secs(60))
    }

    fn frame_of(
        &mut self,
        start: Instant,
        ui: Duration,
        previous_cpu: Option<Duration>,
        length: Duration,
    ) -> Option<Minute> {
        if let (Some(last), Some(started)) = (self.frames.last_mut(), self.last_start) {
            last.interval = start - started;
            last.cpu = previous_cpu;
        }
        self.last_start = Some(start);
        let minute_started = *self.minute_started.get_or_insert(start);
        let ended = (start - minute_started >= length).then(|| {
            self.ended += 1;
            // The frame that closes the minute is not one of its frames.
            let app = phases("", &self.frames)
                .into_iter()
                .find(|r| r.phase == "app")
                .unwrap_or(Row {
                    link: String::new(),
                    phase: "app",
                    median: f64::NAN,
                    p95: f64::NAN,
                    max: f64::NAN,
                });
            let minute = Minute {
                minute: self.ended,
                frames: self.frames.len(),
                app,
                fps: self.frames.len() as f64 / (start - minute_started).as_secs_f64(),
                resident_mib: resident_mib(),
            };
            self.frames.clear();
            self.minute_started = Some(start);
            minute
        });
        self.frames.push(Frame {
            ui,
            ..Frame::default()
        });
        ended
    }
}

impl Minute {
    /// One CSV row under [`Soak::CSV_HEADER`].
    pub fn csv(&self) -> String {
        let cell = |v: f64| {
            if v.is_finite() {
                format!("{v:.3}")
            } else {
                String::new()
            }
        };
        format!(
            "{},{},{},{},{},{},{}",
            self.minute,
            self.frames,
            cell(self.fps),
            cell(self.app.median),
            cell(self.app.p95),
            cell(self.app.max),
            self.resident_mib.map(cell).unwrap_or_default()
        )
    }
}

/// What a run of the window measured: a link's frames against the empty window's
/// ([`Recorder`]), or every slider's moves ([`Sweep`]).
#[derive(Debug)]
pub enum Report {
    Frames(Vec<Row>),
    Sliders(Sweep),
}

/// A move slower than this freezes the window visibly.
pub const FREEZE_MS: f64 = 100.0;

/// `skinlab --sliders`: every page's sliders and switches moved as a hand would, one
/// move a frame, each timed. A move is a link (`gpu?vertices=500000`: the page at its
/// defaults with one value changed, [`crate::link::Param::samples`]); its time is the
/// slower of the frame that applies it and the frame after (where work put off to the
/// next frame would show), each as eframe counts its CPU work, with that frame's
/// OpenGL drawing ([`PaintStamps`]), which a software renderer does on the CPU.
#[derive(Debug)]
pub struct Sweep {
    moves: Vec<String>,
    /// The time of each move so far, and the drawing in it.
    times: Vec<(Duration, Duration)>,
    /// Frames begun: frame `k` belongs to move `k / 2`, and applies it when `k` is even.
    frames: usize,
}

impl Sweep {
    /// The moves of every page, in lesson order.
    pub fn of_every_page() -> Self {
        let mut moves = Vec::new();
        for entry in crate::page::PAGES {
            for param in (entry.params)() {
                for value in &param.samples {
                    moves.push(format!("{}?{}={value}", entry.info.slug, param.key));
                }
            }
        }
        Self::new(moves)
    }

    pub fn new(moves: Vec<String>) -> Self {
        Self {
            times: vec![(Duration::ZERO, Duration::ZERO); moves.len()],
            moves,
            frames: 0,
        }
    }

    /// Starts a frame, given the previous frame's CPU work and painting; returns the
    /// link this frame applies, if it starts a move.
    pub fn frame(
        &mut self,
        previous_cpu: Option<Duration>,
        previous_paint: PaintStamps,
    ) -> Option<&str> {
        if let (Some(previous), Some(cpu)) = (self.frames.checked_sub(1), previous_cpu)
            && let Some(time) = self.times.get_mut(previous / 2)
            && cpu >= time.0
        {
            let draw = previous_paint.drawing().unwrap_or_default();
            *time = (cpu, draw.min(cpu));
        }
        let k = self.frames;
        self.frames += 1;
        k.is_multiple_of(2)
            .then(|| self.moves.get(k / 2))
            .flatten()
            .map(String::as_str)
    }

    /// Whether every move and the frame after it have been timed.
    pub fn done(&self) -> bool {
        self.frames > 2 * self.moves.len()
    }

    /// `link,frame_ms,draw_ms`, a row per move.
    pub fn csv(&self) -> String {
        let mut out = String::from("link,frame_ms,draw_ms\n");
        for (link, (frame, draw)) in self.moves.iter().zip(&self.times) {
            out.push_str(&format!(
                "\"{}\",{:.3},{:.3}\n",
                link.replace('"', "\"\""),
                frame.as_secs_f64() * 1e3,
                draw.as_secs_f64() * 1e3
            ));
        }
        out
    }

    /// A row per page: its moves, their median and slowest time (with the OpenGL
    /// drawing in it), and the slowest move.
    pub fn table(&self) -> String {
        let mut out = String::from(
            "| page | moves | median ms | slowest ms | of which drawing | slowest move |\n\
             |---|---:|---:|---:|---:|---|\n",
        );
        let mut pages: Vec<&str> = Vec::new();
        for link in &self.moves {
            let page = link.split('?').next().unwrap_or(link);
            if !pages.contains(&page) {
                pages.push(page);
            }
        }
        let mut frozen = 0;
        for page in pages {
            let ms = |d: &Duration| d.as_secs_f64() * 1e3;
            let of_page: Vec<(&String, f64, f64)> = self
                .moves
                .iter()
                .zip(&self.times)
                .filter(|(link, _)| link.split('?').next() == Some(page))
                .map(|(link, (frame, draw))| (link, ms(frame), ms(draw)))
                .collect();
            let [median, ..] = spread(of_page.iter().map(|(_, frame, _)| *frame).collect());
            let Some((slowest, worst, drawing)) = of_page.iter().max_by(|a, b| a.1.total_cmp(&b.1))
            else {
                continue;
            };
            frozen += of_page
                .iter()
                .filter(|(_, frame, _)| *frame > FREEZE_MS)
                .count();
            out.push_str(&format!(
                "| `{page}` | {} | {median:.1} | {worst:.1} | {drawing:.1} | `{slowest}` |\n",
                of_page.len()
            ));
        }
        out.push_str(&format!(
            "\n{frozen} of {} moves took over {FREEZE_MS:.0} ms.\n",
            self.moves.len()
        ));
        out
    }
}

/// This process's resident memory in MiB, from `/proc/self/statm` (Linux; `None`
/// elsewhere).
pub fn resident_mib() -> Option<f64> {
    let statm = std::fs::read_to_string("/proc/self/statm").ok()?;
    let pages: f64 = statm.split_whitespace().nth(1)?.parse().ok()?;
    // The page size of every Linux this runs on (x86-64, and arm64 as built by default).
    Some(pages * 4096.0 / (1024.0 * 1024.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(v: u64) -> Duration {
        Duration::from_millis(v)
    }

    #[test]
    fn each_half_counts_its_frames_after_the_warm_up() {
        let mut recorder = Recorder::new(4);
        let start = Instant::now();
        let mut t = start;
        let mut frames = 0;
        let mut stamps = PaintStamps::default();
        while let Some(half) = recorder.half() {
            // Empty frames: 10 ms apart, 1 ms of update, 3 ms of CPU work, drawing
            // from 2 to 3 ms. Link frames: 20 ms apart, 5 ms of update, 8 ms of CPU
            // work, drawing from 6 to 8 ms.
            let (gap, ui, cpu, first, last) = match half {
                Half::Empty => (10, 1, 3, 2, 3),
                Half::Link => (20, 5, 8, 6, 8),
            };
            recorder.frame(t, ms(ui), Some(ms(cpu)), stamps);
            stamps = PaintStamps {
                first: Some(t + ms(first)),
                last: Some(t + ms(last)),
            };
            t += ms(gap);
            frames += 1;
        }
        assert_eq!(frames, 2 * (4 + WARM_UP + 1));
        let rows = recorder.report("grid");
        let get = |link: &str, phase: &str| {
            rows.iter()
                .find(|r| r.link == link && r.phase == phase)
                .unwrap()
                .median
        };
        assert_eq!(get("empty", "app"), 3.0);
        assert_eq!(get("empty", "ui"), 1.0);
        assert_eq!(get("empty", "paint"), 2.0);
        assert_eq!(get("empty", "gpu_wait"), 7.0);
        assert_eq!(get("empty", "fps"), 100.0);
        assert_eq!(get("empty", "tessellate"), 1.0);
        assert_eq!(get("empty", "draw"), 1.0);
        assert_eq!(get("grid", "app"), 8.0);
        assert_eq!(get("grid", "tessellate"), 1.0);
        assert_eq!(get("grid", "draw"), 2.0);
        assert_eq!(get("grid", "gpu_wait"), 12.0);
        assert_eq!(get("grid", "fps"), 50.0);
        let csv = csv(&rows);
        assert!(csv.starts_with("link,phase,median_ms,p95_ms,max_ms\n"));
        assert!(csv.contains("\"grid\",fps,50.000,,\n"), "{csv}");
        assert!(table(&rows).contains("50% of the empty window"));
    }

    #[test]
    fn a_soak_sums_up_each_minute_and_forgets_its_frames() {
        let mut soak = Soak::new(2);
        let start = Instant::now();
        let mut ended = Vec::new();
        // A "minute" of 100 ms here: frames 10 ms apart, 4 ms of CPU work each.
        for k in 0..25 {
            if let Some(minute) = soak.frame_of(start + ms(10 * k), ms(1), Some(ms(4)), ms(100)) {
                ended.push(minute);
            }
        }
        assert_eq!(ended.len(), 2);
        assert!(soak.done());
        assert_eq!((ended[0].minute, ended[0].frames), (1, 10));
        assert_eq!(ended[1].minute, 2);
        assert!((ended[0].fps - 100.0).abs() < 1e-9, "{}", ended[0].fps);
        assert_eq!(ended[0].app.median, 4.0);
        assert!(soak.frames.len() <= 6, "a minute's frames are dropped");
        let row = ended[0].csv();
        assert_eq!(row.split(',').count(), Soak::CSV_HEADER.split(',').count());
        assert!(row.starts_with("1,10,100.000,4.000,"), "{row}");
        if cfg!(target_os = "linux") {
            assert!(resident_mib().is_some_and(|m| m > 1.0));
        }
    }

    #[test]
    fn a_sweep_applies_a_move_every_other_frame_and_keeps_its_slower_frame() {
        let mut sweep = Sweep::new(vec!["grid?angle=0".into(), "grid?angle=1".into()]);
        // Frames take 3, 9 (the frame after the first move), 20, 4 ms.
        let mut applied = Vec::new();
        let start = Instant::now();
        let drawing = |d: u64| PaintStamps {
            first: Some(start),
            last: Some(start + ms(d)),
        };
        for cpu in [None, Some(3), Some(9), Some(20), Some(4)] {
            assert!(!sweep.done());
            // Each frame spends a third of its time drawing, rounded down.
            let paint = drawing(cpu.unwrap_or(0) / 3);
            if let Some(link) = sweep.frame(cpu.map(ms), paint) {
                applied.push(link.to_owned());
            }
        }
        assert!(sweep.done());
        assert_eq!(applied, ["grid?angle=0", "grid?angle=1"]);
        assert_eq!(
            sweep.csv(),
            "link,frame_ms,draw_ms\n\"grid?angle=0\",9.000,3.000\n\"grid?angle=1\",20.000,6.000\n"
        );
        let table = sweep.table();
        assert!(table.contains("| `grid` | 2 | "), "{table}");
        assert!(table.contains("| 20.0 | 6.0 | `grid?angle=1` |"), "{table}");
        assert!(table.contains("0 of 2 moves took over 100 ms."), "{table}");
    }

    #[test]
    fn the_spread_is_median_95th_percentile_and_largest() {
        let values: Vec<f64> = (1..=100).map(f64::from).collect();
        assert_eq!(spread(values), [51.0, 95.0, 100.0]);
        assert!(spread(Vec::new())[0].is_nan());
    }
}
