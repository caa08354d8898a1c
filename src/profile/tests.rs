//! The recorder, soak and sweep, on stamped frames.

use super::*;

fn ms(v: u64) -> Duration {
    Duration::from_millis(v)
}

#[test]
fn each_half_counts_its_frames_after_the_warm_up() {
    let mut recorder = Recorder::new(4);
    let start = Instant::now();
    let mut t = start;
    let mut frames = 0;
    let mut stamps = PaintStamps::default();
    while let Some(half) = recorder.half() {
        // Empty frames: 10 ms apart, 1 ms of update, 3 ms of CPU work, drawing
        // from 2 to 3 ms. Link frames: 20 ms apart, 5 ms of update, 8 ms of CPU
        // work, drawing from 6 to 8 ms.
        let (gap, ui, cpu, first, last) = match half {
            Half::Empty => (10, 1, 3, 2, 3),
            Half::Link => (20, 5, 8, 6, 8),
        };
        recorder.frame(t, ms(ui), Some(ms(cpu)), stamps);
        stamps = PaintStamps {
            first: Some(t + ms(first)),
            last: Some(t + ms(last)),
        };
        t += ms(gap);
        frames += 1;
    }
    assert_eq!(frames, 2 * (4 + WARM_UP + 1));
    let rows = recorder.report("grid");
    let get = |link: &str, phase: &str| {
        rows.iter()
            .find(|r| r.link == link && r.phase == phase)
            .unwrap()
            .median
    };
    assert_eq!(get("empty", "frame"), 10.0);
    assert_eq!(get("empty", "app"), 3.0);
    assert_eq!(get("empty", "ui"), 1.0);
    assert_eq!(get("empty", "paint"), 2.0);
    assert_eq!(get("empty", "gpu_wait"), 7.0);
    assert_eq!(get("empty", "fps"), 100.0);
    assert_eq!(get("empty", "tessellate"), 1.0);
    assert_eq!(get("empty", "draw"), 1.0);
    assert_eq!(get("grid", "frame"), 20.0);
    assert_eq!(get("grid", "app"), 8.0);
    assert_eq!(get("grid", "tessellate"), 1.0);
    assert_eq!(get("grid", "draw"), 2.0);
    assert_eq!(get("grid", "gpu_wait"), 12.0);
    assert_eq!(get("grid", "fps"), 50.0);
    let csv = csv(&rows);
    assert!(csv.starts_with("link,phase,median_ms,p95_ms,max_ms\n"));
    assert!(csv.contains("\"grid\",fps,50.000,,\n"), "{csv}");
    assert!(table(&rows).contains("50% of the empty window"));
}

#[test]
fn a_soak_sums_up_each_minute_and_forgets_its_frames() {
    let mut soak = Soak::new(2);
    let start = Instant::now();
    let mut ended = Vec::new();
    // A "minute" of 100 ms here: frames 10 ms apart, 4 ms of CPU work each.
    for k in 0..25 {
        if let Some(minute) = soak.frame_of(start + ms(10 * k), ms(1), Some(ms(4)), ms(100)) {
            ended.push(minute);
        }
    }
    assert_eq!(ended.len(), 2);
    assert!(soak.done());
    assert_eq!((ended[0].minute, ended[0].frames), (1, 10));
    assert_eq!(ended[1].minute, 2);
    assert!((ended[0].fps - 100.0).abs() < 1e-9, "{}", ended[0].fps);
    assert_eq!(ended[0].app.median, 4.0);
    assert!(soak.frames.len() <= 6, "a minute's frames are dropped");
    let row = ended[0].csv();
    assert_eq!(row.split(',').count(), Soak::CSV_HEADER.split(',').count());
    assert!(row.starts_with("1,10,100.000,4.000,"), "{row}");
    if cfg!(target_os = "linux") {
        assert!(resident_mib().is_some_and(|m| m > 1.0));
    }
}

#[test]
fn a_sweep_applies_a_move_every_other_frame_and_keeps_its_slower_frame() {
    let mut sweep = Sweep::new(vec!["grid?angle=0".into(), "grid?angle=1".into()]);
    // Frames take 3, 9 (the frame after the first move), 20, 4 ms.
    let mut applied = Vec::new();
    let start = Instant::now();
    let drawing = |d: u64| PaintStamps {
        first: Some(start),
        last: Some(start + ms(d)),
    };
    for cpu in [None, Some(3), Some(9), Some(20), Some(4)] {
        assert!(!sweep.done());
        // Each frame spends a third of its time drawing, rounded down.
        let paint = drawing(cpu.unwrap_or(0) / 3);
        if let Some(link) = sweep.frame(cpu.map(ms), paint) {
            applied.push(link.to_owned());
        }
    }
    assert!(sweep.done());
    assert_eq!(applied, ["grid?angle=0", "grid?angle=1"]);
    assert_eq!(
        sweep.csv(),
        "link,frame_ms,draw_ms\n\"grid?angle=0\",9.000,3.000\n\"grid?angle=1\",20.000,6.000\n"
    );
    let table = sweep.table();
    assert!(table.contains("| `grid` | 2 | "), "{table}");
    assert!(table.contains("| 20.0 | 6.0 | `grid?angle=1` |"), "{table}");
    assert!(table.contains("0 of 2 moves took over 100 ms."), "{table}");
}

#[test]
fn the_spread_is_median_95th_percentile_and_largest() {
    let values: Vec<f64> = (1..=100).map(f64::from).collect();
    assert_eq!(spread(values), [51.0, 95.0, 100.0]);
    assert!(spread(Vec::new())[0].is_nan());
}
