//! The programs a [`super::SceneRenderer`] draws with: five skinning programs (the
//! palette in uniforms or in the bone texture, read with float or integer joint indices,
//! and dual quaternions) and one for plain coloured geometry; how they are linked from
//! the shader files, and which one draws a given palette.

use super::compile::shaders;
use super::compile::{ShaderSource, link_program};
use super::mesh::{COLOR_PROGRAM_ATTRIBUTES, SKIN_INT_PROGRAM_ATTRIBUTES, SKIN_PROGRAM_ATTRIBUTES};
use glow::HasContext as _;
use scene::{JointIndices, Palette};

/// The outputs of `shaders/skin.vert` that transform feedback captures, interleaved
/// (in every skinning program).
pub const SKIN_FEEDBACK: [&str; 2] = ["v_position", "v_normal"];

/// What one program is linked from: vertex files, fragment files, attribute
/// locations and the outputs transform feedback may capture.
type ProgramSpec = (
    &'static [ShaderSource],
    &'static [ShaderSource],
    &'static [(&'static str, u32)],
    &'static [&'static str],
);

/// The linked programs.
pub(super) struct Programs {
    /// Linear blend skinning, palette in uniforms, float joint indices:
    /// `shaders/blend_lbs.glsl` + `shaders/skin.vert` + `shaders/skin.frag`.
    lbs: glow::Program,
    /// Dual quaternion skinning (`shaders/blend_dqs.glsl`), float joint indices.
    dqs: glow::Program,
    /// Like `lbs`, reading integer joint indices.
    lbs_int: glow::Program,
    /// Linear blend skinning from the bone texture (`shaders/blend_texture.glsl`).
    texture: glow::Program,
    /// Like `texture`, reading integer joint indices.
    texture_int: glow::Program,
    /// Coloured lines and triangles: `shaders/color.vert` + `shaders/color.frag`.
    pub(super) color: glow::Program,
}

impl Programs {
    /// Links every program; the error carries the driver's log, and a failure frees the
    /// programs linked before it.
    pub(super) fn new(gl: &glow::Context) -> Result<Self, String> {
        let fragment: &'static [ShaderSource] = &[shaders::SKIN_FRAG];
        let specs: [ProgramSpec; 6] = [
            (
                &shaders::SKIN_LBS_VERT,
                fragment,
                &SKIN_PROGRAM_ATTRIBUTES,
                &SKIN_FEEDBACK,
            ),
            (
                &shaders::SKIN_DQS_VERT,
                fragment,
                &SKIN_PROGRAM_ATTRIBUTES,
                &SKIN_FEEDBACK,
            ),
            (
                &shaders::SKIN_LBS_INT_VERT,
                fragment,
                &SKIN_INT_PROGRAM_ATTRIBUTES,
                &SKIN_FEEDBACK,
            ),
            (
                &shaders::SKIN_TEXTURE_VERT,
                fragment,
                &SKIN_PROGRAM_ATTRIBUTES,
                &SKIN_FEEDBACK,
            ),
            (
                &shaders::SKIN_TEXTURE_INT_VERT,
                fragment,
                &SKIN_INT_PROGRAM_ATTRIBUTES,
                &SKIN_FEEDBACK,
            ),
            (
                &[shaders::COLOR_VERT],
                &[shaders::COLOR_FRAG],
                &COLOR_PROGRAM_ATTRIBUTES,
                &[],
            ),
        ];
        let mut linked = Vec::with_capacity(specs.len());
        for (vertex, fragment, attributes, feedback) in specs {
            match link_program(gl, vertex, fragment, attributes, feedback) {
                Ok(program) => linked.push(program),
                Err(e) => {
                    delete(gl, &linked);
                    return Err(e);
                }
            }
        }
        match <[glow::Program; 6]>::try_from(linked) {
            Ok([lbs, dqs, lbs_int, texture, texture_int, color]) => Ok(Self {
                lbs,
                dqs,
                lbs_int,
                texture,
                texture_int,
                color,
            }),
            Err(linked) => {
                delete(gl, &linked);
                Err(format!("linked {} programs instead of 6", linked.len()))
            }
        }
    }

    /// The skinning program that blends `palette` and reads joint indices as
    /// `indices` (dual quaternions always read floats).
    pub(super) fn for_palette(&self, palette: &Palette, indices: JointIndices) -> glow::Program {
        match (palette, indices) {
            (Palette::Matrices(_), JointIndices::Float) => self.lbs,
            (Palette::Matrices(_), JointIndices::Int) => self.lbs_int,
            (Palette::Texture(_), JointIndices::Float) => self.texture,
            (Palette::Texture(_), JointIndices::Int) => self.texture_int,
            (Palette::DualQuats { .. }, _) => self.dqs,
        }
    }

    /// Frees every program.
    pub(super) fn destroy(self, gl: &glow::Context) {
        let Self {
            lbs,
            dqs,
            lbs_int,
            texture,
            texture_int,
            color,
        } = self;
        delete(gl, &[lbs, dqs, lbs_int, texture, texture_int, color]);
    }
}

fn delete(gl: &glow::Context, programs: &[glow::Program]) {
    for program in programs {
        // SAFETY: the programs were linked by `Programs::new` on this context.
        unsafe { gl.delete_program(*program) };
    }
}
