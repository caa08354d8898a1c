//! Reading accessors. Every offset, stride and count is checked against the bytes the
//! buffer really has before anything is allocated, so a file that claims billions of
//! elements is refused instead of exhausting memory.

use super::ModelError;
use super::container::Buffers;
use super::document::{Accessor, DataType, Dimensions, View};

/// The most components (elements × components per element) an accessor without a
/// buffer view may hold: its base is zeros that take no bytes in the file, so its count
/// is not bounded by the file's size. Other accessors are bounded by their bytes.
pub(super) const MAX_COMPONENTS: usize = 1 << 24;

/// How an attribute may be stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Format {
    /// 32-bit floats.
    Float,
    /// Integers mapped to -1..1 or 0..1 (`normalized: true`).
    Normalized(DataType),
    /// Integers used as they are.
    Plain(DataType),
}

/// Formats a float attribute may have with `KHR_mesh_quantization`, normalised or not.
pub(super) const QUANTIZED: &[Format] = &[
    Format::Float,
    Format::Normalized(DataType::I8),
    Format::Normalized(DataType::U8),
    Format::Normalized(DataType::I16),
    Format::Normalized(DataType::U16),
    Format::Plain(DataType::I8),
    Format::Plain(DataType::U8),
    Format::Plain(DataType::I16),
    Format::Plain(DataType::U16),
];

/// Unit vectors (normals, tangents): floats or normalised signed integers.
pub(super) const UNIT_VECTOR: &[Format] = &[
    Format::Float,
    Format::Normalized(DataType::I8),
    Format::Normalized(DataType::I16),
];

/// Weights and rotation keys: floats or any normalised byte or short.
pub(super) const NORMALIZED: &[Format] = &[
    Format::Float,
    Format::Normalized(DataType::I8),
    Format::Normalized(DataType::U8),
    Format::Normalized(DataType::I16),
    Format::Normalized(DataType::U16),
];

/// Floats only.
pub(super) const FLOAT: &[Format] = &[Format::Float];

fn type_name(t: DataType) -> &'static str {
    match t {
        DataType::I8 => "BYTE",
        DataType::U8 => "UNSIGNED_BYTE",
        DataType::I16 => "SHORT",
        DataType::U16 => "UNSIGNED_SHORT",
        DataType::U32 => "UNSIGNED_INT",
        DataType::F32 => "FLOAT",
    }
}

fn format_name(f: Format) -> String {
    match f {
        Format::Float => "FLOAT".into(),
        Format::Normalized(t) => format!("normalised {}", type_name(t)),
        Format::Plain(t) => type_name(t).into(),
    }
}

/// "FLOAT, or normalised BYTE or SHORT": the allowed formats, grouped.
fn allowed_names(allowed: &[Format]) -> String {
    let or_list = |names: Vec<&str>| match names.split_last() {
        Some((last, [])) => (*last).to_owned(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        None => String::new(),
    };
    let mut groups = Vec::new();
    if allowed.contains(&Format::Float) {
        groups.push("FLOAT".to_owned());
    }
    let normalized: Vec<&str> = allowed
        .iter()
        .filter_map(|f| match f {
            Format::Normalized(t) => Some(type_name(*t)),
            _ => None,
        })
        .collect();
    if !normalized.is_empty() {
        groups.push(format!("normalised {}", or_list(normalized)));
    }
    let plain: Vec<&str> = allowed
        .iter()
        .filter_map(|f| match f {
            Format::Plain(t) => Some(type_name(*t)),
            _ => None,
        })
        .collect();
    if !plain.is_empty() {
        groups.push(or_list(plain));
    }
    groups.join(", or ")
}

fn dims_name(d: Dimensions) -> &'static str {
    match d {
        Dimensions::Scalar => "SCALAR",
        Dimensions::Vec2 => "VEC2",
        Dimensions::Vec3 => "VEC3",
        Dimensions::Vec4 => "VEC4",
        Dimensions::Mat2 => "MAT2",
        Dimensions::Mat3 => "MAT3",
        Dimensions::Mat4 => "MAT4",
    }
}

pub(super) fn dims_count(d: Dimensions) -> usize {
    match d {
        Dimensions::Scalar => 1,
        Dimensions::Vec2 => 2,
        Dimensions::Vec3 => 3,
        Dimensions::Vec4 | Dimensions::Mat2 => 4,
        Dimensions::Mat3 => 9,
        Dimensions::Mat4 => 16,
    }
}

fn component_size(t: DataType) -> usize {
    match t {
        DataType::I8 | DataType::U8 => 1,
        DataType::I16 | DataType::U16 => 2,
        DataType::U32 | DataType::F32 => 4,
    }
}

fn format_of(accessor: &Accessor) -> Format {
    match accessor.data_type {
        DataType::F32 => Format::Float,
        t if accessor.normalized => Format::Normalized(t),
        t => Format::Plain(t),
    }
}

/// Refuses an accessor of the wrong shape or storage, naming what was expected.
fn check_shape(
    accessor: &Accessor,
    what: &str,
    dims: Dimensions,
    allowed: &[Format],
) -> Result<(), ModelError> {
    let index = accessor.index;
    if accessor.dimensions != dims {
        return Err(ModelError::new(format!(
            "{what} (accessor {index}) is {}, but must be {}",
            dims_name(accessor.dimensions),
            dims_name(dims)
        )));
    }
    let format = format_of(accessor);
    if !allowed.contains(&format) {
        return Err(ModelError::new(format!(
            "{what} (accessor {index}) is stored as {}, but must be {}",
            format_name(format),
            allowed_names(allowed)
        )));
    }
    Ok(())
}

fn component_f32(bytes: &[u8], t: DataType, normalized: bool) -> f32 {
    let b = |i: usize| bytes.get(i).copied().unwrap_or(0);
    // The glTF rules for normalised integers: c / max, and signed values clamp at -1.
    match t {
        DataType::F32 => f32::from_le_bytes([b(0), b(1), b(2), b(3)]),
        DataType::I8 => {
            let v = f32::from(b(0) as i8);
            if normalized { (v / 127.0).max(-1.0) } else { v }
        }
        DataType::U8 => {
            let v = f32::from(b(0));
            if normalized { v / 255.0 } else { v }
        }
        DataType::I16 => {
            let v = f32::from(i16::from_le_bytes([b(0), b(1)]));
            if normalized {
                (v / 32767.0).max(-1.0)
            } else {
                v
            }
        }
        DataType::U16 => {
            let v = f32::from(u16::from_le_bytes([b(0), b(1)]));
            if normalized { v / 65535.0 } else { v }
        }
        DataType::U32 => {
            // Not a valid glTF float attribute; read it as a number all the same.
            u32::from_le_bytes([b(0), b(1), b(2), b(3)]) as f32
        }
    }
}

fn component_u32(bytes: &[u8], t: DataType) -> u32 {
    let b = |i: usize| bytes.get(i).copied().unwrap_or(0);
    match t {
        DataType::U8 | DataType::I8 => u32::from(b(0)),
        DataType::U16 | DataType::I16 => u32::from(u16::from_le_bytes([b(0), b(1)])),
        DataType::U32 | DataType::F32 => u32::from_le_bytes([b(0), b(1), b(2), b(3)]),
    }
}

/// Float components of an accessor, flattened (`count × components`), normalised
/// integers mapped to floats as glTF says.
pub(super) fn floats(
    buffers: &Buffers,
    accessor: &Accessor,
    what: &str,
    dims: Dimensions,
    allowed: &[Format],
) -> Result<Vec<f32>, ModelError> {
    check_shape(accessor, what, dims, allowed)?;
    let (t, normalized) = (accessor.data_type, accessor.normalized);
    components(buffers, accessor, what, |b| component_f32(b, t, normalized))
}

/// Unsigned integer components of an accessor (indices, joints), flattened.
pub(super) fn integers(
    buffers: &Buffers,
    accessor: &Accessor,
    what: &str,
    dims: Dimensions,
    allowed: &[DataType],
) -> Result<Vec<u32>, ModelError> {
    let formats: Vec<Format> = allowed.iter().map(|t| Format::Plain(*t)).collect();
    check_shape(accessor, what, dims, &formats)?;
    let t = accessor.data_type;
    components(buffers, accessor, what, |b| component_u32(b, t))
}

/// The bytes of a buffer view, checked against its buffer.
pub(super) fn view_bytes<'b>(
    buffers: &'b Buffers,
    view: &View,
    what: &str,
) -> Result<&'b [u8], ModelError> {
    let buffer = view.buffer;
    let data = buffers
        .bytes(buffer)
        .map_err(|why| ModelError::new(format!("{what}: {why}")))?;
    let end = view.offset.checked_add(view.length);
    match end {
        Some(end) if end <= data.len() => Ok(&data[view.offset..end]),
        _ => Err(ModelError::new(format!(
            "{what}: buffer view {} claims bytes {} to {} of buffer {buffer}, which has {} bytes",
            view.index,
            view.offset,
            view.offset.saturating_add(view.length),
            data.len()
        ))),
    }
}

/// `count` elements of `element` bytes, `stride` apart from `offset`: the byte range
/// they need, or `None` when it overflows.
fn span(offset: usize, stride: usize, count: usize, element: usize) -> Option<usize> {
    if count == 0 {
        return Some(offset);
    }
    stride
        .checked_mul(count - 1)?
        .checked_add(element)?
        .checked_add(offset)
}

fn components<T: Copy + Default>(
    buffers: &Buffers,
    accessor: &Accessor,
    what: &str,
    decode: impl Fn(&[u8]) -> T,
) -> Result<Vec<T>, ModelError> {
    let index = accessor.index;
    let count = accessor.count;
    let dims = dims_count(accessor.dimensions);
    let size = component_size(accessor.data_type);
    if size < 4 && dims > 4 {
        // Byte and short matrices pad their columns; nothing skinning reads uses them.
        return Err(ModelError::new(format!(
            "{what} (accessor {index}): matrices of bytes or shorts are not supported"
        )));
    }
    let element = dims * size;
    let read_element = |bytes: &[u8], at: usize, out: &mut Vec<T>| {
        for c in 0..dims {
            let start = at + c * size;
            out.push(decode(&bytes[start..start + size]));
        }
    };
    let mut out = Vec::new();
    match accessor.view {
        Some(view) => {
            let bytes = view_bytes(buffers, &view, what)?;
            let stride = view.stride.unwrap_or(element);
            if stride < element {
                return Err(ModelError::new(format!(
                    "{what} (accessor {index}): buffer view {} has a stride of {stride} bytes, \
                     less than one {element}-byte element",
                    view.index
                )));
            }
            let offset = accessor.offset;
            match span(offset, stride, count, element) {
                Some(needed) if needed <= bytes.len() => {}
                _ => {
                    return Err(ModelError::new(format!(
                        "{what} (accessor {index}) claims {count} elements of {element} bytes \
                         from byte {offset}, but buffer view {} has only {} bytes",
                        view.index,
                        bytes.len()
                    )));
                }
            }
            // The span check bounds count by the buffer's real length.
            buffers.spend(count * dims, &format!("{what} (accessor {index})"))?;
            out.reserve_exact(count * dims);
            for i in 0..count {
                read_element(bytes, offset + i * stride, &mut out);
            }
        }
        None => {
            let total = count.checked_mul(dims).filter(|&n| n <= MAX_COMPONENTS);
            let Some(total) = total else {
                return Err(ModelError::new(format!(
                    "{what} (accessor {index}) claims {count} elements of {dims} numbers, \
                     {} numbers in all, more than this loader reads from one accessor \
                     ({MAX_COMPONENTS} numbers at most)",
                    count as u128 * dims as u128
                )));
            };
            buffers.spend(total, &format!("{what} (accessor {index})"))?;
            out.resize(total, T::default());
        }
    }
    if let Some(sparse) = accessor.sparse {
        let n = sparse.count;
        if n > count {
            return Err(ModelError::new(format!(
                "{what} (accessor {index}): {n} sparse values for {count} elements"
            )));
        }
        let index_type = sparse.index_type;
        let index_size = component_size(index_type);
        let index_bytes = view_bytes(buffers, &sparse.indices, what)?;
        let value_bytes = view_bytes(buffers, &sparse.values, what)?;
        let fits = |bytes: &[u8], offset: usize, element: usize| {
            span(offset, element, n, element).is_some_and(|needed| needed <= bytes.len())
        };
        if !fits(index_bytes, sparse.indices_offset, index_size)
            || !fits(value_bytes, sparse.values_offset, element)
        {
            return Err(ModelError::new(format!(
                "{what} (accessor {index}): its {n} sparse indices or values run past their \
                 buffer views"
            )));
        }
        let mut one = Vec::with_capacity(dims);
        for k in 0..n {
            let at = sparse.indices_offset + k * index_size;
            let target = component_u32(&index_bytes[at..at + index_size], index_type) as usize;
            if target >= count {
                return Err(ModelError::new(format!(
                    "{what} (accessor {index}): sparse index {target} is past its {count} elements"
                )));
            }
            one.clear();
            read_element(value_bytes, sparse.values_offset + k * element, &mut one);
            out[target * dims..(target + 1) * dims].copy_from_slice(&one);
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalised_integers_follow_the_gltf_rules() {
        assert_eq!(component_f32(&[255], DataType::U8, true), 1.0);
        assert_eq!(component_f32(&[0x80], DataType::I8, true), -1.0);
        assert_eq!(component_f32(&[0x81], DataType::I8, true), -1.0);
        assert_eq!(component_f32(&[0xFF, 0x7F], DataType::I16, true), 1.0);
        assert_eq!(component_f32(&[0xFF, 0xFF], DataType::U16, true), 1.0);
        assert_eq!(component_f32(&[0xFF, 0xFF], DataType::I16, false), -1.0);
        assert_eq!(component_f32(&[7], DataType::U8, false), 7.0);
        assert_eq!(component_u32(&[0x34, 0x12], DataType::U16), 0x1234);
    }

    #[test]
    fn allowed_formats_read_as_a_sentence() {
        assert_eq!(
            allowed_names(NORMALIZED),
            "FLOAT, or normalised BYTE, UNSIGNED_BYTE, SHORT or UNSIGNED_SHORT"
        );
        assert_eq!(allowed_names(FLOAT), "FLOAT");
        assert_eq!(
            allowed_names(&[Format::Plain(DataType::U8), Format::Plain(DataType::U16)]),
            "UNSIGNED_BYTE or UNSIGNED_SHORT"
        );
    }

    #[test]
    fn spans_overflow_to_none() {
        assert_eq!(span(4, 16, 3, 12), Some(4 + 32 + 12));
        assert_eq!(span(0, 16, 0, 12), Some(0));
        assert_eq!(span(0, usize::MAX, 3, 12), None);
    }
}
