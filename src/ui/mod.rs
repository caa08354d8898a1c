//! egui widgets shared by pages. No GL calls here: the viewport hands a
//! [`crate::gl::Scene`] to the renderer through a paint callback.

pub mod camera;
pub mod check;
pub mod inspect;
pub mod legend;
pub mod matrix;
pub mod pick;
pub mod viewport;

pub use camera::{Camera, OrbitCamera, PlaneCamera};
pub use viewport::Viewport;

use egui::Color32;

/// Colours of the x, y and z axes and of the translation column.
pub const AXIS_COLORS: [Color32; 4] = [
    Color32::from_rgb(230, 70, 70),
    Color32::from_rgb(80, 200, 90),
    Color32::from_rgb(80, 130, 240),
    Color32::from_rgb(170, 170, 170),
];

/// An egui colour as linear-ish RGBA floats for GL.
pub fn rgba(c: Color32) -> [f32; 4] {
    [
        c.r() as f32 / 255.0,
        c.g() as f32 / 255.0,
        c.b() as f32 / 255.0,
        c.a() as f32 / 255.0,
    ]
}

/// A warning line in the error colour.
pub fn error_ui(ui: &mut egui::Ui, text: impl Into<String>) {
    ui.colored_label(ui.visuals().error_fg_color, format!("! {}", text.into()));
}
