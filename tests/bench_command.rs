//! `skinlab --bench` runs the sweep on a headless context and prints one row per size.
//! (It reports timings; this test checks only that every size was measured.)

mod common;

#[test]
fn the_bench_command_measures_every_size() {
    // The command makes its own context; without one here (outside CI) it cannot run.
    if common::headless(common::Api::GlCore33).is_none() {
        return;
    }
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_skinlab"))
        .arg("--bench")
        .output()
        .expect("the binary runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let rows: Vec<Vec<f64>> = stdout
        .lines()
        .skip(2)
        .map(|l| {
            l.split('|')
                .filter(|c| !c.trim().is_empty())
                .map(|c| c.trim().parse().expect("a number"))
                .collect()
        })
        .collect();
    assert_eq!(rows.len(), skinlab::rigs::chain::SWEEP.len(), "{stdout}");
    for (row, size) in rows.iter().zip(skinlab::rigs::chain::SWEEP) {
        assert_eq!(row.len(), 5);
        assert!((row[0] - size as f64).abs() < 0.01 * size as f64, "{row:?}");
        assert!(
            row[1..].iter().all(|v| v.is_finite() && *v >= 0.0),
            "{row:?}"
        );
    }
}
