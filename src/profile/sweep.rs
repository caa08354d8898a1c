//! `skinlab --sliders`: every page's sliders and switches moved, each move timed.

use super::*;

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
        for entry in crate::pages::PAGES {
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
