//! What the command line asks of the window: its options, its one mode, and why a run
//! failed, in words that name the option.

use crate::link::LinkError;
use std::path::PathBuf;

/// What the command line asks of the window.
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    /// A page link to open at start.
    pub link: Option<String>,
    /// A file to open at start, on the page that opens its kind.
    pub open: Option<PathBuf>,
    /// A lecture deck to step through, from its first slide.
    pub deck: Option<PathBuf>,
    /// The deck's slide to start on, from 1 (`--slide N`).
    pub slide: Option<usize>,
    /// Start in presenter mode.
    pub presenter: bool,
    /// Open pages paused, nothing gliding (`--reduce-motion`, or the desktop's own
    /// setting: [`crate::ui::motion`]).
    pub reduce_motion: bool,
    /// Draw into an offscreen framebuffer on a surfaceless EGL context, with no
    /// window (for the timed modes; chosen by itself when no display opens).
    pub headless: bool,
    /// Window size in points.
    pub size: [f32; 2],
    /// What the window is for.
    pub mode: Mode,
}

impl Default for Options {
    fn default() -> Self {
        Self {
            link: None,
            open: None,
            deck: None,
            slide: None,
            presenter: false,
            reduce_motion: false,
            headless: false,
            size: [1280.0, 800.0],
            mode: Mode::Run,
        }
    }
}

/// What a window is for, chosen once on the command line. Every mode but [`Mode::Run`]
/// shows exactly what it was given: no saved state in, none kept, and a refused link
/// ends the run before a window opens.
#[derive(Clone, Debug, PartialEq)]
pub enum Mode {
    /// The app, for a person.
    Run,
    /// Draw the link with time paused, save a PNG here, close.
    Screenshot(PathBuf),
    /// Draw every slide of the deck with time paused, save each as a PNG in `dir`
    /// with an HTML handout (`index.html`) whose live links point at `app`, close.
    Export {
        /// The folder the pictures and the handout go in.
        dir: PathBuf,
        /// The web app's address, which each slide's link follows after `#`; `None`
        /// finds the web app beside the handout ([`crate::native::screenshot`]).
        app: Option<String>,
    },
    /// Time this many frames of the link (and of an empty window), then close.
    Profile {
        /// Frames to time.
        frames: usize,
    },
    /// Play the link for minutes, print a CSV row of each minute's frames and memory,
    /// then close.
    Soak {
        /// Minutes to play.
        minutes: usize,
    },
    /// Move every page's sliders, one move a frame, and time each move.
    Sliders,
}

impl Mode {
    /// The option that chose the mode, as messages name it.
    pub fn option(&self) -> &'static str {
        match self {
            Self::Run => "skinlab",
            Self::Screenshot(_) => "--screenshot",
            Self::Export { .. } => "--export",
            Self::Profile { .. } => "--profile",
            Self::Soak { .. } => "--profile --minutes",
            Self::Sliders => "--sliders",
        }
    }

    /// Whether frames are timed as fast as they come (vsync off), with time running.
    pub(super) fn timed(&self) -> bool {
        matches!(
            self,
            Self::Profile { .. } | Self::Soak { .. } | Self::Sliders
        )
    }
}

/// Why [`run`] failed.
#[derive(Debug)]
pub enum RunError {
    /// A link given with a mode other than [`Mode::Run`] was refused: a screenshot or a
    /// profile of the wrong state is worse than none, so no window opens.
    Link(LinkError),
    /// The file given with `--open` could not be read or used.
    Open(String),
    /// The deck given with `--deck` could not be read or used.
    Deck(String),
    /// The mode's work was not done: the screenshot not saved, the profile, soak or
    /// slider sweep not finished.
    Mode {
        /// The option that chose the mode ([`Mode::option`]).
        option: &'static str,
        /// What went wrong.
        why: String,
    },
    /// The window could not open.
    Start(String),
}

impl RunError {
    /// The process exit code: 2 for what the command line asked, 1 for the rest.
    pub fn exit_code(&self) -> u8 {
        match self {
            Self::Link(_) | Self::Open(_) | Self::Deck(_) | Self::Mode { .. } => 2,
            Self::Start(_) => 1,
        }
    }
}

impl std::fmt::Display for RunError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Link(e) => write!(f, "{e}"),
            Self::Open(e) => write!(f, "--open: {e}"),
            Self::Deck(e) => write!(f, "--deck: {e}"),
            Self::Mode { option, why } => write!(f, "{option}: {why}"),
            Self::Start(e) => write!(f, "skinlab could not start: {e}"),
        }
    }
}

impl std::error::Error for RunError {}
