//! What the GPU skinning paths need from the CPU: the bone texture's layout, the
//! uniform budget (what the shaders declare is read in `skinlab-gl`), influence preparation step by step, and the blend of every influence
//! (to measure what keeping four costs).

use super::influences::{InfluenceError, Influences, MAX_INFLUENCES};
use glam::Mat4;

/// The vertex uniform vectors every WebGL2 implementation must offer
/// (GL_MAX_VERTEX_UNIFORM_VECTORS is at least this).
pub const WEBGL2_MIN_VERTEX_UNIFORM_VECTORS: usize = 256;

/// Uniform vectors one mat4 takes: one per column.
pub const VECTORS_PER_MATRIX: usize = 4;

// ANCHOR: bone_texels
/// The bone texture's texels, row by row: joint `j` is row `j`, and its four texels
/// are the four columns of `palette[j]` (column-major, as glam and GLSL store a
/// matrix). Texel `(x, y)` is element `y * 4 + x`; this is exactly what is uploaded.
pub fn bone_texels(palette: &[Mat4]) -> Vec<[f32; 4]> {
    palette
        .iter()
        .flat_map(|m| [m.x_axis, m.y_axis, m.z_axis, m.w_axis].map(|c| c.to_array()))
        .collect()
}
// ANCHOR_END: bone_texels

/// Bytes a CPU-skinned vertex uploads each frame: position, normal and tangent, three
/// floats each.
pub const CPU_BYTES_PER_VERTEX: usize = 36;

// ANCHOR: budget
/// How many joints' matrices fit in `max_vectors` uniform vectors when `other_vectors`
/// are taken by the shader's other uniforms.
pub fn joints_that_fit(max_vectors: usize, other_vectors: usize) -> usize {
    max_vectors.saturating_sub(other_vectors) / VECTORS_PER_MATRIX
}
// ANCHOR_END: budget

/// Influence preparation, one step at a time, for showing (the result is
/// [`Influences::prepare`]'s).
#[derive(Clone, Debug, PartialEq)]
pub struct PrepSteps {
    /// The influences as given.
    pub given: Vec<(usize, f32)>,
    /// Sorted, largest weight first.
    pub sorted: Vec<(usize, f32)>,
    /// The four largest.
    pub kept: Vec<(usize, f32)>,
    /// The kept weights divided by their sum.
    pub normalised: Vec<(usize, f32)>,
    /// Padded to exactly four: what the GPU reads.
    pub prepared: Influences,
}

/// Prepares `list` step by step; the last step is the real [`Influences::prepare`].
pub fn prepare_steps(
    list: &[(usize, f32)],
    joint_count: usize,
) -> Result<PrepSteps, InfluenceError> {
    let prepared = Influences::prepare(list, joint_count)?;
    let mut sorted = list.to_vec();
    crate::influences::sort_by_weight(&mut sorted);
    let kept: Vec<_> = sorted.iter().copied().take(MAX_INFLUENCES).collect();
    let sum: f32 = kept.iter().map(|(_, w)| w).sum();
    let normalised = kept.iter().map(|&(j, w)| (j, w / sum)).collect();
    Ok(PrepSteps {
        given: list.to_vec(),
        sorted,
        kept,
        normalised,
        prepared,
    })
}

/// The blended matrix of every influence in `list`, weights normalised over all of
/// them: what skinning would give with no limit of four. Joints past the palette
/// are skipped.
pub fn blend_all(palette: &[Mat4], list: &[(usize, f32)]) -> Mat4 {
    let sum: f32 = list.iter().map(|(_, w)| w.max(0.0)).sum();
    if sum <= 0.0 {
        return Mat4::IDENTITY;
    }
    list.iter()
        .filter_map(|&(j, w)| palette.get(j).map(|m| *m * (w.max(0.0) / sum)))
        .fold(Mat4::ZERO, |a, m| a + m)
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::{Quat, Vec3};

    #[test]
    fn texel_x_of_row_j_is_column_x_of_joint_j() {
        let palette: Vec<Mat4> = (0..5)
            .map(|j| {
                Mat4::from_rotation_translation(
                    Quat::from_rotation_z(j as f32),
                    Vec3::new(j as f32, 2.0, 3.0),
                )
            })
            .collect();
        let texels = bone_texels(&palette);
        assert_eq!(texels.len(), 5 * 4);
        for (j, m) in palette.iter().enumerate() {
            for x in 0..4 {
                assert_eq!(texels[j * 4 + x], m.col(x).to_array());
            }
        }
        // The flat data is the matrices' own column-major floats, one after another.
        let flat: Vec<f32> = texels.iter().flatten().copied().collect();
        let direct: Vec<f32> = palette.iter().flat_map(|m| m.to_cols_array()).collect();
        assert_eq!(flat, direct);
    }

    #[test]
    fn joints_that_fit_the_webgl2_minimum() {
        assert_eq!(joints_that_fit(WEBGL2_MIN_VERTEX_UNIFORM_VECTORS, 5), 62);
        assert_eq!(joints_that_fit(256, 0), 64);
        assert_eq!(joints_that_fit(4, 5), 0);
    }

    #[test]
    fn preparation_keeps_four_normalises_and_pads() {
        let list = [(0, 0.1), (1, 0.3), (2, 0.05), (3, 0.25), (4, 0.2), (5, 0.1)];
        let steps = prepare_steps(&list, 6).expect("valid");
        assert_eq!(steps.sorted[0], (1, 0.3));
        assert_eq!(steps.kept.len(), 4);
        let sum: f32 = steps.normalised.iter().map(|(_, w)| w).sum();
        assert!((sum - 1.0).abs() < 1e-6);
        assert_eq!(steps.prepared.joints, [1, 3, 4, 0]);
        for ((j, w), (pj, pw)) in steps
            .normalised
            .iter()
            .zip(steps.prepared.joints.iter().zip(steps.prepared.weights))
        {
            assert_eq!(*j as u32, *pj);
            assert!((w - pw).abs() < 1e-6);
        }
        let two = prepare_steps(&[(2, 1.0), (0, 3.0)], 3).expect("valid");
        assert_eq!(two.prepared.joints, [0, 2, 2, 2]);
        assert_eq!(two.prepared.weights, [0.75, 0.25, 0.0, 0.0]);
        assert!(prepare_steps(&[(7, 1.0)], 3).is_err());
    }

    #[test]
    fn blend_all_of_four_matches_the_prepared_blend() {
        let palette: Vec<Mat4> = (0..10)
            .map(|j| {
                Mat4::from_rotation_translation(
                    Quat::from_rotation_z(0.1 * j as f32) * Quat::from_rotation_x(0.05 * j as f32),
                    Vec3::X * j as f32 * 0.8,
                )
            })
            .collect();
        let list = [(1, 0.5), (2, 0.3), (3, 0.2)];
        let prepared = Influences::prepare(&list, 10).expect("valid");
        let a = blend_all(&palette, &list);
        let b = crate::lbs::blended_matrix(&palette, &prepared);
        assert!(a.abs_diff_eq(b, 1e-6));
    }
}
