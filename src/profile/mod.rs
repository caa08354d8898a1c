//! `skinlab --profile LINK`: what a frame of a page costs, in the window, against an
//! empty window in the same run.
//!
//! The window first draws nothing for [`Recorder::frames`] frames (the empty window),
//! then the link with its animation running for as many. Each frame is timed in these
//! phases:
//! - `frame`: the whole frame, from its start to the next frame's;
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

mod soak;
mod sweep;
#[cfg(test)]
mod tests;

pub use soak::{Minute, Soak};
pub use sweep::{FREEZE_MS, Sweep};

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
    /// `frame`, `app`, `ui`, `paint`, `tessellate`, `draw`, `gpu_wait` or `fps`.
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
        phase("frame", intervals.clone()),
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

/// What a run of the window measured: a link's frames against the empty window's
/// ([`Recorder`]), or every slider's moves ([`Sweep`]).
#[derive(Debug)]
pub enum Report {
    Frames(Vec<Row>),
    Sliders(Sweep),
}

/// This process's resident memory in MiB, from `/proc/self/statm` (Linux; `None`
/// elsewhere).
pub fn resident_mib() -> Option<f64> {
    let statm = std::fs::read_to_string("/proc/self/statm").ok()?;
    let pages: f64 = statm.split_whitespace().nth(1)?.parse().ok()?;
    // The page size of every Linux this runs on (x86-64, and arm64 as built by default).
    Some(pages * 4096.0 / (1024.0 * 1024.0))
}
