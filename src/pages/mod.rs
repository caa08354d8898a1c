//! One module per page: its state (a `Default`) and its cells.

pub mod gradient;
pub mod grid;
pub mod xray;
