//! `skinlab --profile LINK --minutes M`: a link played for minutes, a row a minute.

use super::*;

/// A soak: the link plays for [`Soak::minutes`] minutes, and each minute's frames are
/// summed up in a [`Minute`] and dropped, so the run's own memory stays flat.
#[derive(Debug)]
pub struct Soak {
    /// How long the link plays.
    pub minutes: usize,
    /// The frames of the minute under way.
    pub(super) frames: Vec<Frame>,
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

    pub(super) fn frame_of(
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
