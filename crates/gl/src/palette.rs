//! Uploading what the skinning shader blends: a palette as uniform arrays (matrices, or
//! dual quaternions and stretches as four vec4 a joint, for DQS and for centres of
//! rotation) or as the bone texture, the check that a palette
//! fits its program, and the normal method that goes with it.

use super::MAX_JOINTS;
use super::limits::max_texture_size;
use glam::{Mat3, Mat4, Vec4};
use glow::HasContext as _;
use scene::Palette;
use skin::dqs::DualQuat;
use skin::gpu::bone_texels;
use skin::lbs::PositionW;
use skin::normals::NormalMethod;

/// The bone texture: 4 RGBA32F texels wide, one row per joint, refilled for each draw.
pub(super) struct BoneTexture {
    texture: glow::Texture,
    /// GL_MAX_TEXTURE_SIZE: the most joints the texture can hold.
    pub(super) max_joints: usize,
}

/// An empty texture for numbers the shader reads texel by texel (`texelFetch`): the
/// bone texture, the blend shapes' offsets. Made on the active unit and left unbound.
pub(super) fn texel_texture(gl: &glow::Context) -> Result<glow::Texture, String> {
    // SAFETY: the texture is created and bound here, and unbound at the end.
    unsafe {
        let texture = gl.create_texture()?;
        gl.bind_texture(glow::TEXTURE_2D, Some(texture));
        // RGBA32F cannot be filtered in WebGL2 without an extension: NEAREST keeps
        // the texture complete (texelFetch ignores filtering anyway).
        for (param, value) in [
            (glow::TEXTURE_MIN_FILTER, glow::NEAREST),
            (glow::TEXTURE_MAG_FILTER, glow::NEAREST),
            (glow::TEXTURE_WRAP_S, glow::CLAMP_TO_EDGE),
            (glow::TEXTURE_WRAP_T, glow::CLAMP_TO_EDGE),
        ] {
            gl.tex_parameter_i32(glow::TEXTURE_2D, param, value as i32);
        }
        gl.bind_texture(glow::TEXTURE_2D, None);
        Ok(texture)
    }
}

impl BoneTexture {
    /// Creates the (empty) texture.
    pub(super) fn new(gl: &glow::Context) -> Result<Self, String> {
        Ok(Self {
            texture: texel_texture(gl)?,
            max_joints: max_texture_size(gl),
        })
    }

    /// Frees the texture.
    pub(super) fn destroy(self, gl: &glow::Context) {
        // SAFETY: the texture was created by `new` on this context.
        unsafe { gl.delete_texture(self.texture) };
    }
}

/// Refuses a palette its program cannot hold: more joints than the uniform arrays, or
/// than `max_texture_joints` rows of the bone texture; or centres of rotation for a mesh
/// without them (`has_centres` false).
pub(super) fn check(
    palette: &Palette,
    max_texture_joints: usize,
    has_centres: bool,
) -> Result<(), String> {
    match palette {
        Palette::Centres { .. } if !has_centres => {
            Err("skinning about centres of rotation needs the mesh's centres".to_owned())
        }
        Palette::Texture(m) if m.is_empty() => {
            Err("the bone texture needs at least one joint".to_owned())
        }
        Palette::Texture(m) if m.len() > max_texture_joints => Err(format!(
            "{} joints do not fit a bone texture of at most {max_texture_joints} rows",
            m.len(),
        )),
        Palette::Texture(_) => Ok(()),
        _ if palette.len() > MAX_JOINTS => Err(format!(
            "{} joints do not fit the shader's uniform arrays of {MAX_JOINTS} joints",
            palette.len(),
        )),
        _ => Ok(()),
    }
}

fn flatten(palette: &[Mat4]) -> Vec<f32> {
    palette.iter().flat_map(|m| m.to_cols_array()).collect()
}

/// Uploads `palette` to `program` (the one `Programs::for_palette` gives for it),
/// which is in use: matrices, dual quaternions as two vec4 a joint, or `bones`.
pub(super) fn upload(
    gl: &glow::Context,
    program: glow::Program,
    palette: &Palette,
    bones: &BoneTexture,
) {
    // SAFETY: uniform uploads to a program of the current context, which is in use.
    unsafe {
        match palette {
            Palette::Matrices(matrices) => {
                let loc = gl.get_uniform_location(program, "u_palette[0]");
                gl.uniform_matrix_4_f32_slice(loc.as_ref(), false, &flatten(matrices));
            }
            Palette::DualQuats {
                dual_quats,
                stretches,
                antipodal_check,
            } => {
                upload_dual_quats(gl, program, dual_quats, stretches);
                let loc = gl.get_uniform_location(program, "u_antipodal_check");
                gl.uniform_1_i32(loc.as_ref(), i32::from(*antipodal_check));
            }
            Palette::Centres {
                dual_quats,
                stretches,
            } => upload_dual_quats(gl, program, dual_quats, stretches),
            // ANCHOR: bone_texture_upload
            Palette::Texture(matrices) => {
                let texels = bone_texels(matrices);
                // Unit 0, which egui rebinds for each of its own meshes.
                gl.active_texture(glow::TEXTURE0);
                gl.bind_texture(glow::TEXTURE_2D, Some(bones.texture));
                gl.pixel_store_i32(glow::UNPACK_ALIGNMENT, 4);
                gl.tex_image_2d(
                    glow::TEXTURE_2D,
                    0,
                    glow::RGBA32F as i32,
                    4,
                    matrices.len() as i32,
                    0,
                    glow::RGBA,
                    glow::FLOAT,
                    glow::PixelUnpackData::Slice(Some(bytemuck::cast_slice(&texels))),
                );
                let loc = gl.get_uniform_location(program, "u_bone_texture");
                gl.uniform_1_i32(loc.as_ref(), 0);
            } // ANCHOR_END: bone_texture_upload
        }
    }
}

/// Uploads `dual_quats` as `u_dq_real` and `u_dq_dual` of `program`, which is in use,
/// and `stretches` (the identity for each joint when empty) as `u_stretch_diagonal`
/// and `u_stretch_off`, six numbers of each symmetric matrix (`shaders/stretch.glsl`).
fn upload_dual_quats(
    gl: &glow::Context,
    program: glow::Program,
    dual_quats: &[DualQuat],
    stretches: &[Mat3],
) {
    let real: Vec<f32> = dual_quats
        .iter()
        .flat_map(|q| Vec4::from(q.real).to_array())
        .collect();
    let dual: Vec<f32> = dual_quats
        .iter()
        .flat_map(|q| Vec4::from(q.dual).to_array())
        .collect();
    let stretch = |j: usize| stretches.get(j).copied().unwrap_or(Mat3::IDENTITY);
    let (diagonal, off): (Vec<[f32; 4]>, Vec<[f32; 4]>) = (0..dual_quats.len())
        .map(|j| {
            let s = stretch(j);
            (
                [s.x_axis.x, s.y_axis.y, s.z_axis.z, 0.0],
                [s.y_axis.x, s.z_axis.x, s.z_axis.y, 0.0],
            )
        })
        .unzip();
    // SAFETY: uniform uploads to a program of the current context, which is in use.
    unsafe {
        for (name, values) in [
            ("u_dq_real[0]", real.as_slice()),
            ("u_dq_dual[0]", &dual),
            ("u_stretch_diagonal[0]", diagonal.as_flattened()),
            ("u_stretch_off[0]", off.as_flattened()),
        ] {
            let loc = gl.get_uniform_location(program, name);
            gl.uniform_4_f32_slice(loc.as_ref(), values);
        }
    }
}

/// Sets the skinning shader's switches, `u_normal_method` and `u_position_w`, of
/// `program`, which is in use. Every draw sets both: programs are shared between draws.
pub(super) fn set_switches(
    gl: &glow::Context,
    program: glow::Program,
    normals: NormalMethod,
    position_w: PositionW,
) {
    // SAFETY: uniform uploads to a program of the current context, which is in use.
    unsafe {
        let loc = gl.get_uniform_location(program, "u_normal_method");
        gl.uniform_1_i32(loc.as_ref(), normals.shader_value());
        let loc = gl.get_uniform_location(program, "u_position_w");
        gl.uniform_1_i32(loc.as_ref(), position_w.shader_value());
    }
}
