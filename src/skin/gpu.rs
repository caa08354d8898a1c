//! What the GPU skinning paths need from the CPU: the bone texture's layout, the
//! uniform budget, influence preparation step by step, and the error of keeping four.

use glam::Mat4;

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
}
