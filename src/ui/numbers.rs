//! Numbers as text, read and written one way wherever the app meets them: links, typed
//! answers, a camera's link form and the stored state.

/// A finite number written in decimal (surrounding spaces allowed); `None` otherwise.
pub fn parse_number(text: &str) -> Option<f32> {
    text.trim().parse::<f32>().ok().filter(|x| x.is_finite())
}

/// A number typed into a field, read as egui's own number fields read one: spaces
/// anywhere ignored (`1 000`), the minus sign of print (−) taken for `-`. Not-a-number
/// and infinities read too, for the caller to refuse by name.
pub fn parse_typed(text: &str) -> Option<f64> {
    let text: String = (text.chars())
        .filter(|c| !c.is_whitespace())
        .map(|c| if c == '−' { '-' } else { c })
        .collect();
    text.parse().ok()
}

/// [`parse_typed`] for a field that shows `current` with `decimals` decimals at most: a
/// number within half its last decimal of `current` reads as `current` itself. The
/// text the field showed (the value rounded) so reads back as the value: Tab through a
/// field, which hands egui's field its own text again, leaves the value as it was
/// instead of rounding it to the digits on screen.
pub fn typed_near(text: &str, current: f64, decimals: usize) -> Option<f64> {
    let typed = parse_typed(text)?;
    let half = 0.5 * 10f64.powi(-(decimals as i32));
    Some(if (typed - current).abs() <= half * (1.0 + 1e-6) {
        current
    } else {
        typed
    })
}

/// Writes a number: the shortest text that reads back as the same `f32`.
pub fn number(x: f32) -> String {
    if x == 0.0 {
        "0".to_owned()
    } else {
        x.to_string()
    }
}

/// Writes numbers separated by commas.
pub fn numbers(xs: &[f32]) -> String {
    xs.iter().map(|x| number(*x)).collect::<Vec<_>>().join(",")
}

/// `x` rounded to `decimals` decimals, with no `-0`: what a number printed to that
/// many decimals is worth when a reader works with it by hand.
pub fn rounded(x: f32, decimals: usize) -> f32 {
    let scale = 10f32.powi(decimals as i32);
    (x * scale).round() / scale + 0.0
}

#[cfg(test)]
mod tests {
    use super::parse_typed;

    #[test]
    fn a_typed_number_reads_as_egui_reads_one() {
        assert_eq!(parse_typed(" −1.5 "), Some(-1.5));
        assert_eq!(parse_typed("1 000"), Some(1000.0));
        assert!(parse_typed("nan").is_some_and(f64::is_nan));
        assert_eq!(parse_typed("abc"), None);
        assert_eq!(parse_typed(""), None);
    }
}
