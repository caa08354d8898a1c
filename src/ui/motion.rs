//! The reader's wish for less motion: the system's reduced-motion setting (in the
//! browser, `prefers-reduced-motion: reduce`; on the desktop, `--reduce-motion` or
//! the desktop's own switch where it can be read). With it, pages open with their
//! animation paused, a Play button starts it, and egui's own animations (a fold
//! opening, a switch sliding) jump to their end.
//!
//! Kept for the thread that draws the app, which is the thread that builds and resets
//! its pages: a test that asks for it changes no other test.

use std::cell::Cell;

thread_local! {
    static REDUCED: Cell<bool> = const { Cell::new(false) };
}

/// Whether the reader asked for reduced motion.
pub fn reduced() -> bool {
    REDUCED.with(Cell::get)
}

/// Takes the reader's setting: pages built or reset from now on open paused when
/// `reduced`.
pub fn set_reduced(reduced: bool) {
    REDUCED.with(|r| r.set(reduced));
}

/// Whether a page's animation plays as it opens: not when the reader asked for less
/// motion.
pub fn plays_on_open() -> bool {
    !reduced()
}
