//! Shared test helpers: the headless GL context, where CI must have one.
#![allow(dead_code)]

pub use skinlab::gl::headless::{Api, Headless};

/// A headless context, or `None` (with a message) when there is none outside CI.
/// With `CI=true` a missing context is a failure, never a skip.
pub fn headless(api: Api) -> Option<Headless> {
    match skinlab::gl::headless::create(api) {
        Ok(h) => Some(h),
        Err(e) if std::env::var("CI").is_ok_and(|v| v == "true" || v == "1") => {
            panic!("CI needs a headless GL context ({api:?}): {e}")
        }
        Err(e) => {
            eprintln!("SKIPPED (no GL context outside CI): {e}");
            None
        }
    }
}
