//! Checks on matrices a user typed: finite, invertible, rigid.

use glam::{Mat3, Mat4};
use std::fmt;

/// Below this |determinant| a matrix is treated as singular.
pub const SINGULAR_EPSILON: f32 = 1e-6;

/// Why a matrix was refused.
#[derive(Clone, Debug, PartialEq)]
pub enum MatrixError {
    /// A cell is NaN or infinite (column, row).
    NotFinite {
        /// The cell's column, from 0.
        column: usize,
        /// The cell's row, from 0.
        row: usize,
    },
    /// The determinant is (nearly) zero, so there is no inverse.
    Singular {
        /// The determinant found.
        determinant: f32,
    },
}

impl fmt::Display for MatrixError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            // People count rows and columns from 1.
            Self::NotFinite { column, row } => write!(
                f,
                "the cell in row {}, column {} is not a finite number",
                row + 1,
                column + 1
            ),
            // An exact zero reads as 0; a tiny one keeps its size in view (1.2e-9).
            Self::Singular { determinant } if *determinant == 0.0 => write!(
                f,
                "the matrix is singular (determinant 0), so it has no inverse"
            ),
            Self::Singular { determinant } => write!(
                f,
                "the matrix is singular (determinant {determinant:.1e}), so it has no inverse"
            ),
        }
    }
}

impl std::error::Error for MatrixError {}

/// Refuses a matrix with a NaN or infinite cell.
pub fn check_finite(m: &Mat4) -> Result<(), MatrixError> {
    for (column, col) in m.to_cols_array_2d().iter().enumerate() {
        if let Some(row) = col.iter().position(|v| !v.is_finite()) {
            return Err(MatrixError::NotFinite { column, row });
        }
    }
    Ok(())
}

/// The inverse of `m`, or why there is none.
pub fn checked_inverse(m: &Mat4) -> Result<Mat4, MatrixError> {
    check_finite(m)?;
    let determinant = m.determinant();
    if determinant.abs() < SINGULAR_EPSILON || !determinant.is_finite() {
        return Err(MatrixError::Singular { determinant });
    }
    Ok(m.inverse())
}

/// Whether `m` only turns and moves, within `tolerance`: its 3x3 part is orthonormal
/// with determinant +1 (a rotation), and its bottom row is 0 0 0 1 (no projection).
pub fn is_rigid(m: &Mat4, tolerance: f32) -> bool {
    let r = Mat3::from_mat4(*m);
    let should_be_identity = r.transpose() * r;
    should_be_identity.abs_diff_eq(Mat3::IDENTITY, tolerance)
        && (r.determinant() - 1.0).abs() < tolerance
        && m.row(3).abs_diff_eq(glam::Vec4::W, tolerance)
}

/// The lengths of the three basis columns (the scale along each axis).
pub fn column_lengths(m: &Mat4) -> [f32; 3] {
    [
        m.x_axis.truncate().length(),
        m.y_axis.truncate().length(),
        m.z_axis.truncate().length(),
    ]
}

/// The largest difference between two matrices, cell by cell.
pub fn max_difference(a: &Mat4, b: &Mat4) -> f32 {
    (*a - *b)
        .to_cols_array()
        .iter()
        .fold(0.0, |m, d| m.max(d.abs()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Vec3;

    #[test]
    fn rotation_is_rigid_and_scale_is_not() {
        assert!(is_rigid(&Mat4::from_rotation_y(0.7), 1e-5));
        assert!(!is_rigid(&Mat4::from_scale(Vec3::new(1.0, 2.0, 1.0)), 1e-5));
        assert!(!is_rigid(
            &Mat4::from_scale(Vec3::new(-1.0, 1.0, 1.0)),
            1e-5
        ));
    }

    #[test]
    fn singular_and_non_finite_are_refused() {
        let flat = Mat4::from_scale(Vec3::new(1.0, 0.0, 1.0));
        assert!(matches!(
            checked_inverse(&flat),
            Err(MatrixError::Singular { .. })
        ));
        let mut nan = Mat4::IDENTITY;
        nan.w_axis.y = f32::NAN;
        assert_eq!(
            checked_inverse(&nan),
            Err(MatrixError::NotFinite { column: 3, row: 1 })
        );
        let m = Mat4::from_translation(Vec3::new(1.0, 2.0, 3.0));
        assert!((checked_inverse(&m).unwrap() * m).abs_diff_eq(Mat4::IDENTITY, 1e-6));
    }

    #[test]
    fn max_difference_is_the_largest_cell_apart() {
        let mut m = Mat4::IDENTITY;
        m.z_axis.y = -0.25;
        m.w_axis.x = 0.125;
        assert_eq!(max_difference(&m, &Mat4::IDENTITY), 0.25);
        assert_eq!(max_difference(&m, &m), 0.0);
    }
}
