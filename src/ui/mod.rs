//! egui widgets shared by pages. No GL calls here: the viewport hands a
//! [`crate::gl::Scene`] to the renderer through a paint callback.

pub mod camera;
pub mod check;
pub mod inspect;
pub mod legend;
pub mod matrix;
pub mod pick;
pub mod scroll;
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

/// A button that points the viewport at a cell's part of the lesson; returns whether it
/// was pressed. It stays in place (greyed out) while the viewport shows that part: a
/// button that came and went would shift the widgets below it in the middle of a drag.
pub fn show_here_ui(ui: &mut egui::Ui, shown: bool) -> bool {
    let text = if shown {
        "Shown in the viewport"
    } else {
        "Show this in the viewport"
    };
    ui.add_enabled(!shown, egui::Button::new(text)).clicked()
}

/// A slider that shows an angle in degrees and stores it in radians (`range` is in
/// degrees). Returns whether the user changed it.
pub fn angle_slider_ui(
    ui: &mut egui::Ui,
    radians: &mut f32,
    range: std::ops::RangeInclusive<f32>,
    label: &str,
    decimals: usize,
) -> bool {
    let mut degrees = radians.to_degrees();
    let changed = ui
        .add(
            egui::Slider::new(&mut degrees, range)
                // A value from a link may lie outside the range: keep it until edited.
                .clamping(egui::SliderClamping::Edits)
                .suffix("°")
                .text(label)
                .custom_formatter(move |v, _| format!("{v:.decimals$}")),
        )
        .changed();
    if changed {
        *radians = degrees.to_radians();
    }
    changed
}
