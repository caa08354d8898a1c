//! Rewriting a driver's compile log so that each line names a shader file and a line.

use super::ShaderSource;

/// Rewrites the info log of a failed compile of `sources` (joined behind `#line 1 n`
/// lines, file `i` of the slice being source string `n = i + 1`) so that every line the
/// driver located reads `path:line: message` (Mesa's column kept: `path:line:col:`).
///
/// The located forms, each as `n` = source string, `l` = line, `c` = column:
/// - Mesa: `n:l(c): message` (`n` is always 0);
/// - NVIDIA: `n(l) : message`;
/// - ANGLE / WebGL, Apple, Intel on Windows, AMD: `ERROR: n:l: message`, or another
///   upper-case severity such as `WARNING`, kept in lower case before the message
///   unless the message already starts with it (AMD's `error(#143) ...`).
///
/// Source `n` names `sources[n - 1]`; 0 (Mesa's only number) and numbers past the
/// slice name the last file of `sources`, the one at fault when it is the failing
/// prefix of a stage. Lines with no location (AMD's `ERROR: error(#273) 1 compilation
/// errors.`, blank lines) and every line when `sources` is empty are kept as they are,
/// as is a final line break.
pub(super) fn map_log(log: &str, sources: &[ShaderSource]) -> String {
    let Some(at_fault) = sources.last() else {
        return log.to_owned();
    };
    let mut mapped = log
        .lines()
        .map(|line| match locate(line) {
            Some(found) => {
                let path = match found.source {
                    Some(n) if n >= 1 && n <= sources.len() => sources[n - 1].path,
                    _ => at_fault.path,
                };
                let column = found.column.map(|c| format!("{c}:")).unwrap_or_default();
                format!("{path}:{}:{column} {}", found.line, found.message)
            }
            None => line.to_owned(),
        })
        .collect::<Vec<_>>()
        .join("\n");
    if log.ends_with('\n') {
        mapped.push('\n');
    }
    mapped
}

/// Where a log line points, and what it says there.
struct Located {
    /// The source string number, `None` when it does not fit a `usize`.
    source: Option<usize>,
    line: u64,
    column: Option<u64>,
    /// The text after the location, with the severity put in front where the driver
    /// wrote it before the location.
    message: String,
}

/// Reads the location at the start of `line` in any of the forms of [`map_log`].
fn locate(line: &str) -> Option<Located> {
    let (severity, rest) = match line.split_once(": ") {
        Some((word, rest)) if !word.is_empty() && word.bytes().all(|b| b.is_ascii_uppercase()) => {
            (Some(word.to_ascii_lowercase()), rest.trim_start())
        }
        _ => (None, line.trim_start()),
    };
    let (source, rest) = digits(rest)?;
    let (line_number, column, rest) = if let Some(rest) = rest.strip_prefix(':') {
        // `n:l:` or Mesa's `n:l(c):`.
        let (line_number, rest) = digits(rest)?;
        match rest.strip_prefix('(') {
            Some(rest) => {
                let (column, rest) = digits(rest)?;
                (line_number, Some(column), rest.strip_prefix(')')?)
            }
            None => (line_number, None, rest),
        }
    } else {
        // NVIDIA's `n(l) :`.
        let (line_number, rest) = digits(rest.strip_prefix('(')?)?;
        (line_number, None, rest.strip_prefix(')')?)
    };
    let message = rest.trim_start().strip_prefix(':')?.trim();
    let line_number = line_number.parse().ok()?;
    let column = match column {
        Some(c) => Some(c.parse().ok()?),
        None => None,
    };
    let message = match severity {
        Some(severity) if !message.to_ascii_lowercase().starts_with(&severity) => {
            format!("{severity}: {message}")
        }
        _ => message.to_owned(),
    };
    Some(Located {
        source: source.parse().ok(),
        line: line_number,
        column,
        message,
    })
}

/// Splits the leading ASCII digits (at least one) off `s`.
fn digits(s: &str) -> Option<(&str, &str)> {
    let end = s.find(|c: char| !c.is_ascii_digit()).unwrap_or(s.len());
    (end > 0).then(|| s.split_at(end))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The stage of the GPU test: a blend file, then the broken file holding `main`.
    const SOURCES: [ShaderSource; 2] = [
        ShaderSource {
            path: "shaders/blend_dqs.glsl",
            text: "",
        },
        ShaderSource {
            path: "broken.vert",
            text: "",
        },
    ];

    /// Mesa (llvmpipe, radeonsi, iris): source string always 0, with a column.
    const MESA: &str = "0:3(29): error: `undefined_thing' undeclared\n\
                        0:3(15): error: value of type error cannot be assigned to variable of type vec4\n";

    /// NVIDIA's Windows and Linux drivers: `source(line)`.
    const NVIDIA: &str = "2(3) : error C1503: undefined variable \"undefined_thing\"\n\
                          1(7) : warning C7022: unrecognized profile specifier \"highp\"\n";

    /// ANGLE (Chrome's WebGL2, on D3D11 or Vulkan).
    const ANGLE: &str = "ERROR: 2:3: 'undefined_thing' : undeclared identifier\n\
                         ERROR: 2:3: 'assign' : cannot convert from 'const mediump float' to 'Position 4-component vector of highp float'\n\
                         WARNING: 1:12: 'x' : variable is unused\n";

    /// AMD on Windows: a summary line with no location at the end.
    const AMD: &str = "ERROR: 2:3: error(#143) Undeclared identifier: undefined_thing\n\
                       WARNING: 2:3: warning(#402) Implicit truncation of vector from size: 1 to size: 4\n\
                       ERROR: error(#273) 1 compilation errors.  No code generated\n\n";

    /// Intel's Windows driver, which ends without a line break.
    const INTEL_WINDOWS: &str = "ERROR: 0:3: 'undefined_thing' : undeclared identifier\r\n\
                                 ERROR: 0:3: '=' :  cannot convert from 'const float' to 'Position 4-component vector of float'";

    /// Lines with no location at all, around one with a source number past the slice.
    const UNLOCATED: &str = "Compile failed.\n\
                             ERROR: 7:3: 'undefined_thing' : undeclared identifier\n\
                             ERROR: 1 compilation errors.  No code generated.\n";

    #[test]
    fn mesa_maps_source_zero_to_the_failing_file_and_keeps_the_column() {
        assert_eq!(
            map_log(MESA, &SOURCES),
            "broken.vert:3:29: error: `undefined_thing' undeclared\n\
             broken.vert:3:15: error: value of type error cannot be assigned to variable of type vec4\n"
        );
    }

    #[test]
    fn nvidia_maps_each_source_number_to_its_file() {
        assert_eq!(
            map_log(NVIDIA, &SOURCES),
            "broken.vert:3: error C1503: undefined variable \"undefined_thing\"\n\
             shaders/blend_dqs.glsl:7: warning C7022: unrecognized profile specifier \"highp\"\n"
        );
    }

    #[test]
    fn angle_puts_the_severity_after_the_location() {
        assert_eq!(
            map_log(ANGLE, &SOURCES),
            "broken.vert:3: error: 'undefined_thing' : undeclared identifier\n\
             broken.vert:3: error: 'assign' : cannot convert from 'const mediump float' to 'Position 4-component vector of highp float'\n\
             shaders/blend_dqs.glsl:12: warning: 'x' : variable is unused\n"
        );
    }

    #[test]
    fn amd_keeps_its_own_severity_and_the_summary_line() {
        assert_eq!(
            map_log(AMD, &SOURCES),
            "broken.vert:3: error(#143) Undeclared identifier: undefined_thing\n\
             broken.vert:3: warning(#402) Implicit truncation of vector from size: 1 to size: 4\n\
             ERROR: error(#273) 1 compilation errors.  No code generated\n\n"
        );
    }

    #[test]
    fn intel_windows_source_zero_and_no_final_line_break() {
        assert_eq!(
            map_log(INTEL_WINDOWS, &SOURCES),
            "broken.vert:3: error: 'undefined_thing' : undeclared identifier\n\
             broken.vert:3: error: '=' :  cannot convert from 'const float' to 'Position 4-component vector of float'"
        );
    }

    #[test]
    fn unlocated_lines_stay_and_out_of_range_numbers_name_the_failing_file() {
        assert_eq!(
            map_log(UNLOCATED, &SOURCES),
            "Compile failed.\n\
             broken.vert:3: error: 'undefined_thing' : undeclared identifier\n\
             ERROR: 1 compilation errors.  No code generated.\n"
        );
    }

    #[test]
    fn a_log_with_no_files_is_kept() {
        assert_eq!(map_log(MESA, &[]), MESA);
    }
}
