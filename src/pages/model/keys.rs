//! The model page's key timeline: the picked joint's channels in clip A, one plot per
//! property, each component a curve sampled by the clip's own sampler, the keys as
//! dots, and the current time as a line that a click or a drag moves.

use super::ModelPage;
use crate::ui::sideways_ui;
use egui::text::{LayoutJob, TextFormat};
use egui::{Color32, Ui};
use egui_plot::{GridInput, GridMark, Line, Points, VLine, uniform_grid_spacer};
use skin::clip::{Channel, Clip, Property};
use std::ops::RangeInclusive;

/// The height of one channel's plot, points.
const PLOT_HEIGHT: f32 = 120.0;

/// The width kept for the y axis's labels, points, so the plots' time axes line up.
const Y_AXIS_WIDTH: f32 = 40.0;

/// Samples drawn evenly across the clip (the key times are sampled as well).
const CURVE_SAMPLES: usize = 240;

/// The colour of the line at the current time (the viewport's colour for a pick).
const NOW_COLOR: Color32 = Color32::from_rgb(240, 200, 40);

/// One colour per component: x, y, z, w.
const COMPONENT_COLORS: [Color32; 4] = [
    Color32::from_rgb(210, 60, 50),
    Color32::from_rgb(40, 150, 60),
    Color32::from_rgb(50, 90, 220),
    Color32::from_rgb(130, 130, 130),
];

/// The times a channel's curve is drawn at over `start..=end`: an even spread, every
/// key time, and a moment before each key (so a STEP channel jumps where it should).
fn curve_times(channel: &Channel, start: f32, end: f32) -> Vec<f32> {
    let span = end - start;
    if !(span > 0.0 && span.is_finite()) {
        return vec![start];
    }
    let before = span * 1e-4;
    let mut times: Vec<f32> = (0..=CURVE_SAMPLES)
        .map(|i| start + span * i as f32 / CURVE_SAMPLES as f32)
        .chain(channel.times.iter().copied())
        .chain(channel.times.iter().skip(1).map(|t| t - before))
        .filter(|t| (start..=end).contains(t))
        .collect();
    times.sort_by(f32::total_cmp);
    times.dedup();
    times
}

/// The smallest of 1, 2 or 5 times a power of ten that is at least `x` (1 for a
/// width that is not a positive number).
fn round_step(x: f64) -> f64 {
    if !(x > 0.0 && x.is_finite()) {
        return 1.0;
    }
    let power = 10f64.powf(x.log10().floor());
    [1.0, 2.0, 5.0]
        .into_iter()
        .map(|m| m * power)
        .find(|step| *step >= x * (1.0 - 1e-9))
        .unwrap_or(10.0 * power)
}

/// Grid lines at round steps, about `labels` labelled ones across the axis (egui_plot's
/// default steps by tens, which leaves a small plot with a single label).
fn round_grid(input: &GridInput, labels: f64) -> [f64; 3] {
    let step = round_step((input.bounds.1 - input.bounds.0).abs() / labels);
    [step / 10.0, step / 5.0, step]
}

/// A grid label with the decimals its step needs (0.5 is `0.5`, not egui_plot's `0`).
fn grid_label(mark: GridMark, _range: &RangeInclusive<f64>) -> String {
    let decimals = if mark.step_size > 0.0 && mark.step_size.is_finite() {
        (-mark.step_size.log10()).ceil().clamp(0.0, 6.0) as usize
    } else {
        0
    };
    format!("{:.*}", decimals, mark.value)
}

/// The colour of component `c` (x, y, z, w).
fn component_color(c: usize) -> Color32 {
    COMPONENT_COLORS[c % COMPONENT_COLORS.len()]
}

/// Monospace text in pieces, each in its own colour (`None`: the usual text colour).
fn colored_mono(ui: &Ui, pieces: &[(String, Option<Color32>)]) -> LayoutJob {
    let font = egui::TextStyle::Monospace.resolve(ui.style());
    let normal = ui.visuals().text_color();
    let mut job = LayoutJob::default();
    for (text, color) in pieces {
        job.append(
            text,
            0.0,
            TextFormat::simple(
                font.clone(),
                color.map_or(normal, |c| crate::ui::legible(ui, c)),
            ),
        );
    }
    job
}

/// What a channel is: its property, the names of its numbers (each in its curve's
/// colour), its interpolation and how many keys it has, e.g.
/// `rotation (x, y, z, w): LINEAR, 24 keys`.
fn channel_title(ui: &Ui, channel: &Channel) -> LayoutJob {
    let property = channel.property();
    let mut pieces = vec![(format!("{} (", property.name()), None)];
    for (c, name) in property.component_names().iter().enumerate() {
        if c > 0 {
            pieces.push((", ".to_owned(), None));
        }
        pieces.push(((*name).to_owned(), Some(component_color(c))));
    }
    let keys = channel.key_count();
    pieces.push((
        format!(
            "): {}, {keys} key{}",
            channel.interpolation.name(),
            if keys == 1 { "" } else { "s" }
        ),
        None,
    ));
    colored_mono(ui, &pieces)
}

/// The channel's value at `time` as the pose uses it, each number in its curve's
/// colour, e.g. `rotation at 0.40 s = (0.000, 0.000, 0.383, 0.924)`.
fn value_line(ui: &Ui, channel: &Channel, time: f32) -> LayoutJob {
    let value = channel.sample(time);
    let mut pieces = vec![(
        format!("{} at {time:.2} s = (", channel.property().name()),
        None,
    )];
    for (c, x) in value.components().iter().enumerate() {
        if c > 0 {
            pieces.push((", ".to_owned(), None));
        }
        pieces.push((format!("{x:.3}"), Some(component_color(c))));
    }
    pieces.push((")".to_owned(), None));
    colored_mono(ui, &pieces)
}

/// A line of monospace text that keeps whole and scrolls sideways when too wide.
fn mono_job_ui(ui: &mut Ui, job: LayoutJob) {
    let id = ui.next_auto_id();
    sideways_ui(ui, id, |ui| ui.add(egui::Label::new(job).extend()));
}

impl ModelPage {
    pub(super) fn keys_ui(&mut self, ui: &mut Ui) {
        self.key_plots.clear();
        let model = self.model.clone();
        let Some(clip) = model.clips.get(self.clip) else {
            ui.label("This file has no animations, so no joint has keys.");
            return;
        };
        let Some((j, joint)) = self
            .joint
            .and_then(|j| model.joints.get(j).map(|joint| (j, joint)))
        else {
            ui.label("Pick a joint in the skeleton or the viewport to see its keys here.");
            return;
        };
        let channels: Vec<&Channel> = Property::ALL
            .iter()
            .filter_map(|p| clip.channel(j, *p))
            .collect();
        if channels.is_empty() {
            ui.label(format!(
                "`{}` has no channel in {}: it keeps its rest transform.",
                joint.name,
                clip.name()
            ));
            return;
        }
        ui.label(format!("`{}` in {}:", joint.name, clip.name()));
        for (i, channel) in channels.into_iter().enumerate() {
            if i > 0 {
                ui.add_space(8.0);
            }
            self.channel_plot_ui(ui, clip, channel);
        }
    }

    /// One channel's plot and its readout; a click or a drag in the plot sets the time.
    fn channel_plot_ui(&mut self, ui: &mut Ui, clip: &Clip, channel: &Channel) {
        let (start, end) = (clip.start(), clip.end());
        let property = channel.property();
        let names = property.component_names();
        let times = curve_times(channel, start, end);
        let samples: Vec<_> = times.iter().map(|t| channel.sample(*t)).collect();
        let keys: Vec<_> = (0..channel.key_count())
            .filter_map(|k| channel.key(k))
            .collect();
        mono_job_ui(ui, channel_title(ui, channel));
        // A plot of another clip or joint is another plot: the one before kept its
        // bounds (a clip of 3.3 s squeezing the next one of 0.96 s into a third).
        let id = (
            property.name(),
            self.clip,
            self.joint,
            start.to_bits(),
            end.to_bits(),
        );
        let mut plot = crate::ui::plot(("model keys", id))
            .height(PLOT_HEIGHT)
            .allow_boxed_zoom(false)
            .allow_axis_zoom_drag(false)
            .allow_double_click_reset(false)
            .show_crosshair(false)
            .y_axis_min_width(Y_AXIS_WIDTH)
            .x_grid_spacer(uniform_grid_spacer(|input| round_grid(&input, 5.0)))
            .y_grid_spacer(uniform_grid_spacer(|input| round_grid(&input, 3.0)))
            .x_axis_formatter(grid_label)
            .y_axis_formatter(grid_label);
        if end > start {
            plot = plot.default_x_bounds(f64::from(start), f64::from(end));
        }
        let time = self.time;
        let response = plot.show(ui, |plot| {
            for (c, name) in names.iter().enumerate() {
                let color = component_color(c);
                let curve: Vec<[f64; 2]> = times
                    .iter()
                    .zip(&samples)
                    .filter_map(|(t, s)| {
                        let y = *s.components().get(c)?;
                        Some([f64::from(*t), f64::from(y)])
                    })
                    .collect();
                plot.line(Line::new(*name, curve).color(color).width(1.5));
                let dots: Vec<[f64; 2]> = keys
                    .iter()
                    .filter_map(|(t, s)| {
                        let y = *s.components().get(c)?;
                        Some([f64::from(*t), f64::from(y)])
                    })
                    .collect();
                plot.points(Points::new(*name, dots).color(color).radius(2.5));
            }
            plot.vline(
                VLine::new("now", f64::from(time))
                    .color(NOW_COLOR)
                    .width(1.5),
            );
        });
        self.key_plots.push((property, response.response.rect));
        crate::ui::name_plot(&response.response, || {
            format!(
                "Plot: the joint's {} against time, its keys as dots; a click sets the time",
                property.name()
            )
        });
        let pointer = &response.response;
        if (pointer.clicked() || pointer.dragged())
            && let Some(at) = pointer.interact_pointer_pos()
        {
            let t = response.transform.value_from_position(at).x as f32;
            if t.is_finite() {
                self.time = t.clamp(start, end.max(start));
                self.playing = false;
            }
        }
        mono_job_ui(ui, value_line(ui, channel, self.time));
    }
}
