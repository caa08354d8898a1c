//! Skins: which joints a skinned mesh follows, and their inverse bind matrices.

use super::accessor::{self, FLOAT};
use super::container::Buffers;
use super::document::{Dimensions, Document};
use super::nodes::Hierarchy;
use super::{ModelError, Skin, quoted};
use glam::{Mat3, Mat4};

/// Below this, `|det| / (|c0| |c1| |c2|)` of the 3×3 part counts as flat. Dividing by
/// the column lengths makes the test blind to uniform scale: a rig built at 100× (as
/// exporters from centimetre scenes do) is not singular.
pub(super) const FLATNESS: f32 = 1e-6;

/// How far a matrix's 3×3 part is from flat: 1 for a rotation (at any scale), 0 when
/// it squashes space onto a plane.
pub(super) fn flatness(m: &Mat4) -> f32 {
    let r = Mat3::from_mat4(*m);
    let lengths = r.x_axis.length() * r.y_axis.length() * r.z_axis.length();
    if lengths == 0.0 || !lengths.is_finite() {
        return 0.0;
    }
    (r.determinant() / lengths).abs()
}

/// The most joints one skin may have: a bone texture holds a joint per row, and 16384
/// rows is `GL_MAX_TEXTURE_SIZE` on most desktop GPUs (WebGL2 promises 2048). A skin
/// past it could be loaded but never drawn, so it is refused with that reason.
pub const MAX_SKIN_JOINTS: usize = 16384;

/// Reads every skin: its joints as joint indices, and one inverse bind per joint.
pub(super) fn skins(
    document: &Document,
    buffers: &Buffers,
    hierarchy: &Hierarchy,
    warnings: &mut Vec<String>,
) -> Result<Vec<Skin>, ModelError> {
    let mut out = Vec::new();
    for skin in &document.skins {
        let index = skin.index;
        let name = skin.name.as_deref().filter(|s| !s.is_empty());
        let label = match name {
            Some(name) => format!("skin {index} {}", quoted(name)),
            None => format!("skin {index}"),
        };
        let joint_nodes = &skin.joints;
        let joints: Vec<usize> = joint_nodes
            .iter()
            .map(|&node| hierarchy.joint_of_node[node])
            .collect();
        if joints.is_empty() {
            return Err(ModelError::new(format!("{label} has no joints")));
        }
        if joints.len() > MAX_SKIN_JOINTS {
            return Err(ModelError::new(format!(
                "{label} has {} joints; a skin of more than {MAX_SKIN_JOINTS} fits no bone \
                 texture a GPU is sure to hold, so it could not be drawn",
                joints.len()
            )));
        }
        let joint_from_bind = match &skin.inverse_bind_matrices {
            Some(ibm) => {
                let what = format!("{label} inverse bind matrices");
                let flat = accessor::floats(buffers, ibm, &what, Dimensions::Mat4, FLOAT)?;
                let count = flat.len() / 16;
                if count < joints.len() {
                    return Err(ModelError::new(format!(
                        "{label} has {} joints but {count} inverse bind matrices (accessor {}); \
                         each joint needs one",
                        joints.len(),
                        ibm.index
                    )));
                }
                if count > joints.len() {
                    warnings.push(format!(
                        "{label} has {} joints but {count} inverse bind matrices (accessor {}); \
                         the first {} are used",
                        joints.len(),
                        ibm.index,
                        joints.len()
                    ));
                }
                let mut matrices = Vec::with_capacity(joints.len());
                for (i, m) in flat.chunks_exact(16).take(joints.len()).enumerate() {
                    let m = Mat4::from_cols_slice(m);
                    let joint = format!(
                        "{label} joint {i} ({})",
                        hierarchy.node_label(joint_nodes[i])
                    );
                    if !m.is_finite() {
                        return Err(ModelError::new(format!(
                            "{joint}: its inverse bind matrix holds a number that is not finite"
                        )));
                    }
                    if flatness(&m) < FLATNESS {
                        return Err(ModelError::new(format!(
                            "{joint}: its inverse bind matrix is singular (its 3×3 part has \
                             determinant {:.2e}), so there is no bind pose to undo",
                            Mat3::from_mat4(m).determinant()
                        )));
                    }
                    matrices.push(m);
                }
                matrices
            }
            None => {
                warnings.push(format!(
                    "{label} has no inverse bind matrices; as the glTF spec says, each is the \
                     identity (the mesh was modelled where the joints' frames are the world's)"
                ));
                vec![Mat4::IDENTITY; joints.len()]
            }
        };
        out.push(Skin {
            name: name.map_or_else(|| format!("skin {index}"), str::to_owned),
            joints,
            joint_from_bind,
        });
    }
    Ok(out)
}
