//! A finished sweep written into a link (`sweep=`), so a measurement taken before class
//! reopens with the link. One size is `vertices:reference,fast,threaded,upload,gpu`,
//! times in milliseconds to about three significant figures; sizes are joined by `;`.
//! `threaded` is `ms@threads`, and `-` marks a time that was not measured:
//!
//! ```text
//! 2996:0.212,0.0312,0.0101@2,0.05,0.12;9984:0.71,0.104,-,-,-
//! ```
//!
//! The vertices need not be sizes of [`SWEEP`]: a point records the vertices its mesh
//! really had, a few fewer than the size asked for (2996 for 3000). Any whole number
//! from 1 to the largest size is taken, each larger than the one before, so the chart's
//! lines and the crossover read from left to right.

use super::measure::{BenchPoint, SWEEP};

/// The grammar of `sweep=`, as messages and docs/links.md say it. A test checks its numbers
/// against [`SWEEP`].
pub const FORM: &str = "up to 6 sizes joined by `;`, each \
    `vertices:reference,fast,threaded,upload,gpu` with times in milliseconds, e.g. \
    `2996:0.212,0.0312,0.0101@2,0.05,0.12`; `threaded` is `ms@threads`, and `-` marks a \
    threaded, upload or GPU time not measured. Vertices: whole numbers from 1 to \
    1000000, each larger than the one before (any count, not only the sweep's sizes). \
    Times: 0 or more";

/// A sweep measured earlier, for a student with no time (or no GPU) to measure: the
/// H100 run of `skinlab --bench gpu` in docs/measurements.md, in the form of a link.
pub const EXAMPLE: &str = "2996:0.296,0.048,0.049@16,0.065,0.005;\
    10000:0.869,0.15,0.148@16,0.093,0.014;29971:2.63,0.458,0.445@16,0.201,0.039;\
    99935:7.35,1.51,0.349@16,0.505,0.129;299904:21.9,3.92,0.923@16,0.969,0.386;\
    999936:90.7,17.2,1.31@16,1.96,1.3";

/// The machine that measured [`EXAMPLE`], as the chart names it.
pub const EXAMPLE_MACHINE: &str = "a server with an NVIDIA H100 and 16 CPU cores";

/// The most vertices a size may have: the largest size of the sweep.
fn most_vertices() -> usize {
    SWEEP.iter().copied().max().unwrap_or(0)
}

/// Whether `ms` is a time a link can hold: finite and 0 or more. (A kernel that refused
/// its input is timed as NaN.)
fn is_time(ms: f64) -> bool {
    ms.is_finite() && ms >= 0.0
}

/// Writes a time in milliseconds to three significant figures, as short as it goes:
/// `0.0312`, `2.13`, `2130`. Below a thousandth of a millisecond, or from a million
/// milliseconds up, it is written with an exponent: `1.23e-5`. Only for a time
/// [`is_time`] takes. The rounding is done on the decimal digits, so a time read back
/// is written the same again.
fn time(ms: f64) -> String {
    if ms == 0.0 {
        return "0".to_owned();
    }
    // `d.dde±x`: the three figures and the power of ten, rounded once.
    let scientific = format!("{ms:.2e}");
    let Some((mantissa, exponent)) = scientific.split_once('e') else {
        return scientific;
    };
    let Ok(exponent) = exponent.parse::<i32>() else {
        return scientific;
    };
    let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    if !(-3..=5).contains(&exponent) {
        let mantissa = mantissa.trim_end_matches('0').trim_end_matches('.');
        return format!("{mantissa}e{exponent}");
    }
    let text = if exponent >= 2 {
        format!("{digits}{}", "0".repeat(exponent as usize - 2))
    } else if exponent >= 0 {
        let (whole, fraction) = digits.split_at(exponent as usize + 1);
        format!("{whole}.{fraction}")
    } else {
        format!("0.{}{digits}", "0".repeat((-exponent - 1) as usize))
    };
    if text.contains('.') {
        text.trim_end_matches('0').trim_end_matches('.').to_owned()
    } else {
        text
    }
}

/// Writes finished points for a link: the inverse of [`read`], times rounded by
/// [`time`]. An optional time that is not a time is written as not measured; a size
/// whose reference or fast time is not one says nothing and is left out.
pub fn write(points: &[BenchPoint]) -> String {
    let optional = |ms: Option<f64>| ms.filter(|ms| is_time(*ms)).map_or("-".to_owned(), time);
    points
        .iter()
        .filter(|p| is_time(p.reference_ms) && is_time(p.fast_ms))
        .map(|p| {
            let threaded = p
                .fast_threaded
                .filter(|(threads, ms)| *threads >= 1 && is_time(*ms))
                .map_or("-".to_owned(), |(threads, ms)| {
                    format!("{}@{threads}", time(ms))
                });
            format!(
                "{}:{},{},{threaded},{},{}",
                p.vertices,
                time(p.reference_ms),
                time(p.fast_ms),
                optional(p.upload_ms),
                optional(p.gpu_ms)
            )
        })
        .collect::<Vec<_>>()
        .join(";")
}

/// A time: a finite number of milliseconds, 0 or more.
fn read_time(text: &str) -> Result<f64, String> {
    text.trim()
        .parse::<f64>()
        .ok()
        .filter(|ms| is_time(*ms))
        .ok_or_else(|| format!("`{text}` is not a time in milliseconds, 0 or more"))
}

/// A time that may be `-` (not measured).
fn read_optional(text: &str) -> Result<Option<f64>, String> {
    if text.trim() == "-" {
        Ok(None)
    } else {
        read_time(text).map(Some)
    }
}

/// One size: `vertices:reference,fast,threaded,upload,gpu`.
fn read_point(text: &str) -> Result<BenchPoint, String> {
    let (vertices, times) = text
        .split_once(':')
        .ok_or_else(|| format!("`{text}` has no `:` after its vertices"))?;
    let most = most_vertices();
    let vertices = vertices
        .trim()
        .parse::<usize>()
        .ok()
        .filter(|n| (1..=most).contains(n))
        .ok_or_else(|| format!("`{vertices}` is not a whole number from 1 to {most}"))?;
    let times: Vec<&str> = times.split(',').collect();
    let [reference, fast, threaded, upload, gpu] = times[..] else {
        return Err(format!(
            "{vertices} vertices have {} times, not 5",
            times.len()
        ));
    };
    let fast_threaded = if threaded.trim() == "-" {
        None
    } else {
        let (ms, threads) = threaded
            .split_once('@')
            .ok_or_else(|| format!("`{threaded}` is not `ms@threads` or `-`"))?;
        let threads = threads
            .trim()
            .parse::<usize>()
            .ok()
            .filter(|t| *t >= 1)
            .ok_or_else(|| format!("`{threads}` is not a whole number of threads, 1 or more"))?;
        Some((threads, read_time(ms)?))
    };
    Ok(BenchPoint {
        vertices,
        reference_ms: read_time(reference)?,
        fast_ms: read_time(fast)?,
        fast_threaded,
        upload_ms: read_optional(upload)?,
        gpu_ms: read_optional(gpu)?,
    })
}

/// Reads finished points from a link. An error is [`FORM`], then what is wrong; nothing
/// is read unless every size is good.
pub fn read(text: &str) -> Result<Vec<BenchPoint>, String> {
    let bad = |why: String| format!("{FORM}; {why}");
    let parts: Vec<&str> = text.split(';').collect();
    if parts.len() > SWEEP.len() {
        return Err(bad(format!(
            "{} sizes given, the sweep has {}",
            parts.len(),
            SWEEP.len()
        )));
    }
    let mut points: Vec<BenchPoint> = Vec::with_capacity(parts.len());
    for (i, part) in parts.iter().enumerate() {
        let point = read_point(part).map_err(|why| bad(format!("size {}: {why}", i + 1)))?;
        if let Some(before) = points.last()
            && point.vertices <= before.vertices
        {
            return Err(bad(format!(
                "size {}: {} vertices do not follow {}",
                i + 1,
                point.vertices,
                before.vertices
            )));
        }
        points.push(point);
    }
    Ok(points)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn point(
        vertices: usize,
        reference_ms: f64,
        fast_ms: f64,
        fast_threaded: Option<(usize, f64)>,
        gpu: Option<(f64, f64)>,
    ) -> BenchPoint {
        BenchPoint {
            vertices,
            reference_ms,
            fast_ms,
            fast_threaded,
            upload_ms: gpu.map(|(upload, _)| upload),
            gpu_ms: gpu.map(|(_, gpu)| gpu),
        }
    }

    #[test]
    fn times_keep_three_figures() {
        for (ms, text) in [
            (0.0, "0"),
            (0.031_234, "0.0312"),
            (0.05, "0.05"),
            (2.134_9, "2.13"),
            (9.996, "10"),
            (212.4, "212"),
            (2_134.0, "2130"),
            (0.000_999_51, "0.001"),
            (0.000_012_34, "1.23e-5"),
            (0.000_01, "1e-5"),
            (3.0e7, "3e7"),
        ] {
            assert_eq!(time(ms), text, "{ms}");
            // Written again after reading, a time stays the same text.
            assert_eq!(time(read_time(text).unwrap()), text, "{text}");
        }
    }

    #[test]
    fn points_round_trip_with_missing_gpu_times_and_threads() {
        let points = vec![
            point(
                2_996,
                0.212_3,
                0.031_21,
                Some((2, 0.010_14)),
                Some((0.05, 0.12)),
            ),
            point(9_984, 0.714, 0.104_4, None, None),
            point(29_988, 2.134, 0.312, Some((8, 0.16)), Some((0.48, 0.151))),
        ];
        let text = write(&points);
        assert_eq!(
            text,
            "2996:0.212,0.0312,0.0101@2,0.05,0.12;9984:0.714,0.104,-,-,-;\
             29988:2.13,0.312,0.16@8,0.48,0.151"
        );
        let read_back = read(&text).unwrap();
        assert_eq!(read_back.len(), points.len());
        for (got, want) in read_back.iter().zip(&points) {
            assert_eq!(got.vertices, want.vertices);
            assert_eq!(
                got.fast_threaded.map(|(t, _)| t),
                want.fast_threaded.map(|(t, _)| t)
            );
            assert_eq!(
                got.gpu_ms.is_some(),
                want.gpu_ms.is_some(),
                "absent stays absent"
            );
            assert_eq!(got.upload_ms.is_some(), want.upload_ms.is_some());
            let near = |a: f64, b: f64| (a - b).abs() <= 5e-3 * b;
            assert!(near(got.reference_ms, want.reference_ms), "{got:?}");
            assert!(near(got.fast_ms, want.fast_ms), "{got:?}");
        }
        assert_eq!(write(&read_back), text, "the text is stable");
    }

    #[test]
    fn a_time_that_says_nothing_is_not_written() {
        let points = vec![
            point(2_996, 0.2, f64::NAN, None, Some((0.05, 0.12))),
            point(
                9_984,
                0.7,
                0.1,
                Some((2, f64::NAN)),
                Some((f64::INFINITY, 0.13)),
            ),
        ];
        let text = write(&points);
        assert_eq!(text, "9984:0.7,0.1,-,-,0.13");
        assert!(read(&text).is_ok());
    }

    #[test]
    fn bad_sweeps_are_refused_with_the_reason() {
        let good = "2996:0.2,0.03,-,0.05,0.12";
        assert!(read(good).is_ok());
        let seven = (1..=7)
            .map(|n| format!("{n}:1,1,-,-,-"))
            .collect::<Vec<_>>()
            .join(";");
        for (bad, why) in [
            ("2996:nan,0.03,-,0.05,0.12", "`nan` is not a time"),
            ("2996:0.2,-0.03,-,0.05,0.12", "`-0.03` is not a time"),
            ("2996:0.2,0.03,-,inf,0.12", "`inf` is not a time"),
            ("2996:0.2,-,-,0.05,0.12", "`-` is not a time"),
            ("2996:0.2,0.03,0.01@0,0.05,0.12", "number of threads"),
            ("2996:0.2,0.03,0.01,0.05,0.12", "`ms@threads` or `-`"),
            ("2996:0.2,0.03,-,0.05", "have 4 times, not 5"),
            ("0:0.2,0.03,-,-,-", "from 1 to 1000000"),
            ("2000000:0.2,0.03,-,-,-", "from 1 to 1000000"),
            ("2.5:0.2,0.03,-,-,-", "`2.5` is not a whole number"),
            ("9984:1,1,-,-,-;2996:1,1,-,-,-", "do not follow"),
            ("2996:1,1,-,-,-;", "size 2"),
            ("banana", "no `:`"),
            (&seven, "7 sizes given, the sweep has 6"),
        ] {
            let err = read(bad).expect_err(bad);
            assert!(err.starts_with(FORM), "{bad}: {err}");
            assert!(err.contains(why), "{bad}: {err}");
        }
    }

    proptest::proptest! {
        #[test]
        fn a_time_read_back_is_written_the_same(exponent in -9.0f64..9.0, scale in 1.0f64..10.0) {
            let text = time(scale * 10f64.powf(exponent));
            let again = time(read_time(&text).unwrap());
            proptest::prop_assert_eq!(again, text);
        }
    }

    #[test]
    fn the_form_says_the_limits_of_the_sweep() {
        assert!(FORM.contains(&format!("up to {} sizes", SWEEP.len())));
        assert!(FORM.contains(&format!("from 1 to {}", most_vertices())));
    }
}
