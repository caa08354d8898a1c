//! The programs a [`super::SceneRenderer`] draws with: six skinning programs (the
//! palette in uniforms or in the bone texture, read with float or integer joint indices,
//! dual quaternions, and rotations about centres), one for plain coloured geometry and one for ellipse outlines;
//! how they are linked from the shader files (each but the colour program and the first
//! skinning program when a draw first needs it), and which one draws a given palette.

use super::compile::shaders;
use super::compile::{ShaderSource, link_program};
use super::ellipses::ELLIPSE_PROGRAM_ATTRIBUTES;
use super::mesh::{
    COLOR_PROGRAM_ATTRIBUTES, SKIN_COR_PROGRAM_ATTRIBUTES, SKIN_INT_PROGRAM_ATTRIBUTES,
    SKIN_PROGRAM_ATTRIBUTES,
};
use glow::HasContext as _;
use scene::{JointIndices, Palette};
use std::cell::RefCell;

/// The outputs of `shaders/skin.vert` that transform feedback captures, interleaved
/// (in every skinning program).
pub const SKIN_FEEDBACK: [&str; 2] = ["v_position", "v_normal"];

/// A skinning program's attribute names and locations.
type SkinAttributes = [(&'static str, u32)];

/// The skinning programs, in the order of [`Programs::variant`], each its vertex files
/// and attribute locations (all share `shaders/skin.frag` and [`SKIN_FEEDBACK`]):
/// linear blend skinning with the palette in uniforms (float, then integer joint
/// indices), dual quaternions, the palette in the bone texture (float, then integer),
/// and rotations about centres.
const SKINNING: [(&[ShaderSource], &SkinAttributes); 6] = [
    (&shaders::SKIN_LBS_VERT, &SKIN_PROGRAM_ATTRIBUTES),
    (&shaders::SKIN_LBS_INT_VERT, &SKIN_INT_PROGRAM_ATTRIBUTES),
    (&shaders::SKIN_DQS_VERT, &SKIN_PROGRAM_ATTRIBUTES),
    (&shaders::SKIN_TEXTURE_VERT, &SKIN_PROGRAM_ATTRIBUTES),
    (
        &shaders::SKIN_TEXTURE_INT_VERT,
        &SKIN_INT_PROGRAM_ATTRIBUTES,
    ),
    (&shaders::SKIN_COR_VERT, &SKIN_COR_PROGRAM_ATTRIBUTES),
];

/// A program once its link was tried: the program, or why it failed (kept, so the
/// driver is not asked again at every paint).
type Tried = Option<Result<glow::Program, String>>;

/// The linked programs. The colour program and the first skinning program (what
/// nearly every page draws with) are linked at once; each other program when a draw
/// first needs it, so a first visit in the browser compiles two programs, not eight.
pub(super) struct Programs {
    /// Each skinning program of [`SKINNING`], once its link was tried, then each again
    /// with glTF's MASK cut-off ([`shaders::ALPHA_MASK`]).
    skinning: RefCell<[Tried; 12]>,
    /// Ellipse outlines: `shaders/ellipse.vert` + `shaders/ellipse.frag`, once tried.
    ellipse: RefCell<Tried>,
    /// Coloured lines and triangles: `shaders/color.vert` + `shaders/color.frag`.
    pub(super) color: glow::Program,
}

impl Programs {
    /// Links the colour program and linear blend skinning; the error carries the
    /// driver's log, and a failure frees what was linked before it.
    pub(super) fn new(gl: &glow::Context) -> Result<Self, String> {
        let color = link_program(
            gl,
            &[shaders::COLOR_VERT],
            &[shaders::COLOR_FRAG],
            &COLOR_PROGRAM_ATTRIBUTES,
            &[],
        )?;
        let programs = Self {
            skinning: Default::default(),
            ellipse: Default::default(),
            color,
        };
        if let Err(e) = programs.skinning(gl, 0, false) {
            programs.destroy(gl);
            return Err(e);
        }
        Ok(programs)
    }

    /// Skinning program `i` of [`SKINNING`] (with the MASK cut-off when `mask`),
    /// linked now if it was not yet.
    fn skinning(&self, gl: &glow::Context, i: usize, mask: bool) -> Result<glow::Program, String> {
        let mut skinning = self.skinning.borrow_mut();
        skinning[i + if mask { SKINNING.len() } else { 0 }]
            .get_or_insert_with(|| {
                let (vertex, attributes) = SKINNING[i];
                let fragment: &[ShaderSource] = if mask {
                    &[shaders::ALPHA_MASK, shaders::SKIN_FRAG]
                } else {
                    &[shaders::SKIN_FRAG]
                };
                link_program(gl, vertex, fragment, attributes, &SKIN_FEEDBACK)
            })
            .clone()
    }

    /// The ellipse outline program, linked now if it was not yet.
    pub(super) fn ellipse(&self, gl: &glow::Context) -> Result<glow::Program, String> {
        self.ellipse
            .borrow_mut()
            .get_or_insert_with(|| {
                link_program(
                    gl,
                    &[shaders::ELLIPSE_VERT],
                    &[shaders::ELLIPSE_FRAG],
                    &ELLIPSE_PROGRAM_ATTRIBUTES,
                    &[],
                )
            })
            .clone()
    }

    /// Which of [`SKINNING`] blends `palette` reading joint indices as `indices` (dual
    /// quaternions and centres always read floats).
    fn variant(palette: &Palette, indices: JointIndices) -> usize {
        match (palette, indices) {
            (Palette::Matrices(_), JointIndices::Float) => 0,
            (Palette::Matrices(_), JointIndices::Int) => 1,
            (Palette::DualQuats { .. }, _) => 2,
            (Palette::Texture(_), JointIndices::Float) => 3,
            (Palette::Texture(_), JointIndices::Int) => 4,
            (Palette::Centres { .. }, _) => 5,
        }
    }

    /// The skinning program that blends `palette` and reads joint indices as
    /// `indices` (with glTF's MASK cut-off when `mask`), linked on first use; the error
    /// carries the driver's log.
    pub(super) fn for_palette(
        &self,
        gl: &glow::Context,
        palette: &Palette,
        indices: JointIndices,
        mask: bool,
    ) -> Result<glow::Program, String> {
        self.skinning(gl, Self::variant(palette, indices), mask)
    }

    /// Frees every program.
    pub(super) fn destroy(self, gl: &glow::Context) {
        let Self {
            skinning,
            ellipse,
            color,
        } = self;
        let linked: Vec<glow::Program> = skinning
            .into_inner()
            .into_iter()
            .chain([ellipse.into_inner()])
            .filter_map(|tried| tried?.ok())
            .collect();
        delete(gl, &linked);
        delete(gl, &[color]);
    }
}

fn delete(gl: &glow::Context, programs: &[glow::Program]) {
    for program in programs {
        // SAFETY: the programs were linked by `Programs::new` on this context.
        unsafe { gl.delete_program(*program) };
    }
}
