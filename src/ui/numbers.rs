//! Numbers as text, read and written one way wherever the app meets them: links, typed
//! answers, a camera's link form and the stored state.

/// A finite number written in decimal (surrounding spaces allowed); `None` otherwise.
pub fn parse_number(text: &str) -> Option<f32> {
    text.trim().parse::<f32>().ok().filter(|x| x.is_finite())
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
