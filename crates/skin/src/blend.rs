//! Which blending a skinned mesh uses: linear (matrices), dual quaternions, or
//! rotations about each vertex's centre.

use super::cor;
use super::dqs::skin_vertices_dqs_scaled;
use super::lbs::{SkinMesh, SkinnedVertex, skin_vertices};
use glam::Mat4;

/// How the palette entries that influence a vertex are combined.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Blend {
    /// Linear blend skinning: the weighted sum of the matrices.
    #[default]
    Linear,
    /// Dual quaternion skinning, in two phases so that a scaled joint keeps its scale
    /// ([`crate::dqs::skin_vertices_dqs_scaled`]; plain DQS where the palette is rigid);
    /// `antipodal_check` negates quaternions that point away from the first
    /// influence's, so the blend takes the short way round.
    DualQuaternion {
        /// Whether the sign check runs (off only to show why it is needed).
        antipodal_check: bool,
    },
    /// Rotations blended as quaternions about each vertex's centre of rotation, the
    /// centre moved by linear blending ([`crate::cor`]); it needs the mesh's centres.
    Centres,
}

impl Blend {
    /// Skins every vertex of `mesh` with `palette` this way, on the CPU (about the
    /// centres of `triangles`, three vertex indices each, for [`Blend::Centres`]).
    pub fn skin_vertices(
        self,
        palette: &[Mat4],
        mesh: &SkinMesh,
        triangles: &[u32],
    ) -> Vec<SkinnedVertex> {
        match self {
            Self::Linear => skin_vertices(palette, mesh),
            Self::DualQuaternion { antipodal_check } => {
                skin_vertices_dqs_scaled(palette, mesh, antipodal_check)
            }
            Self::Centres => {
                let found = cor::centres(mesh, triangles);
                cor::skin_vertices_cor(palette, mesh, &cor::placed(&found, &mesh.positions))
            }
        }
    }
}
