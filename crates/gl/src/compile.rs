//! Compiling and linking the shader files, with the driver's log on failure (the set
//! of programs the renderer links from them is in `programs.rs`).

use glow::HasContext as _;

mod driver_log;

/// A shader file: its path (for messages) and its text, included at build time.
#[derive(Clone, Copy, Debug)]
pub struct ShaderSource {
    /// Path relative to the crate root.
    pub path: &'static str,
    /// The GLSL, without a `#version` line.
    pub text: &'static str,
}

/// The shader files in `shaders/`: the only copies, used by the app and the tests.
pub mod shaders {
    use super::ShaderSource;

    macro_rules! shader {
        ($name:ident, $file:literal) => {
            #[doc = concat!("`shaders/", $file, "`")]
            pub const $name: ShaderSource = ShaderSource {
                path: concat!("shaders/", $file),
                text: include_str!(concat!("../../../shaders/", $file)),
            };
        };
    }

    shader!(SKIN_VERT, "skin.vert");
    shader!(BLEND_LBS, "blend_lbs.glsl");
    shader!(BLEND_DQS, "blend_dqs.glsl");
    shader!(BLEND_COR, "blend_cor.glsl");
    shader!(QUAT, "quat.glsl");
    shader!(STRETCH, "stretch.glsl");
    shader!(BLEND_TEXTURE, "blend_texture.glsl");
    shader!(JOINTS_FLOAT, "joints_float.glsl");
    shader!(JOINTS_INT, "joints_int.glsl");
    shader!(SKIN_FRAG, "skin.frag");
    shader!(COLOR_VERT, "color.vert");
    shader!(COLOR_FRAG, "color.frag");
    shader!(ELLIPSE_VERT, "ellipse.vert");
    shader!(ELLIPSE_FRAG, "ellipse.frag");

    /// Put before `shaders/skin.frag` for glTF's MASK mode: only then does the fragment
    /// shader hold a `discard`, which keeps a GPU (and llvmpipe) from testing depth
    /// before shading, for every other draw.
    pub const ALPHA_MASK: ShaderSource = ShaderSource {
        path: "#define ALPHA_MASK",
        text: "#define ALPHA_MASK\n",
    };

    /// Every shader file, for tools that check them all.
    pub const ALL: [ShaderSource; 14] = [
        SKIN_VERT,
        BLEND_LBS,
        BLEND_DQS,
        BLEND_COR,
        QUAT,
        STRETCH,
        BLEND_TEXTURE,
        JOINTS_FLOAT,
        JOINTS_INT,
        SKIN_FRAG,
        COLOR_VERT,
        COLOR_FRAG,
        ELLIPSE_VERT,
        ELLIPSE_FRAG,
    ];

    /// The linear blend skinning vertex shader (palette in uniforms, float indices):
    /// the joints file, the blend file, then the shared `main`.
    pub const SKIN_LBS_VERT: [ShaderSource; 3] = [JOINTS_FLOAT, BLEND_LBS, SKIN_VERT];

    /// Linear blend skinning with the palette in uniforms and integer joint indices.
    pub const SKIN_LBS_INT_VERT: [ShaderSource; 3] = [JOINTS_INT, BLEND_LBS, SKIN_VERT];

    /// Linear blend skinning with the palette in a bone texture, float joint indices.
    pub const SKIN_TEXTURE_VERT: [ShaderSource; 3] = [JOINTS_FLOAT, BLEND_TEXTURE, SKIN_VERT];

    /// Linear blend skinning with the palette in a bone texture, integer joint indices.
    pub const SKIN_TEXTURE_INT_VERT: [ShaderSource; 3] = [JOINTS_INT, BLEND_TEXTURE, SKIN_VERT];

    /// The dual quaternion skinning vertex shader: the joints file, the quaternion
    /// helpers, the stretches, the blend file, then the shared `main`.
    pub const SKIN_DQS_VERT: [ShaderSource; 5] =
        [JOINTS_FLOAT, QUAT, STRETCH, BLEND_DQS, SKIN_VERT];

    /// Skinning about centres of rotation: as the dual quaternion shader, with its own
    /// blend file.
    pub const SKIN_COR_VERT: [ShaderSource; 5] =
        [JOINTS_FLOAT, QUAT, STRETCH, BLEND_COR, SKIN_VERT];
}

/// The lines put before every shader file: `#version` for this context (GLSL 330 core
/// on desktop, GLSL ES 3.00 on WebGL2 and GLES), precision, and `MAX_JOINTS`.
pub fn shader_header(is_embedded: bool, max_joints: usize) -> String {
    let version = if is_embedded {
        "#version 300 es\nprecision highp float;\nprecision highp int;\n"
    } else {
        "#version 330 core\n"
    };
    format!("{version}#define MAX_JOINTS {max_joints}\n")
}

/// The files of one stage joined by " + ", for messages.
fn paths(sources: &[ShaderSource]) -> String {
    sources
        .iter()
        .map(|s| s.path)
        .collect::<Vec<_>>()
        .join(" + ")
}

/// The text the driver compiles: the header, then each file behind a `#line 1 n`, so
/// the driver counts lines from the top of each file (and, where it honours the source
/// string number, calls file `n` source `n`; Mesa prints 0 for every file).
fn joined_text(header: &str, sources: &[ShaderSource]) -> String {
    let mut text = header.to_owned();
    for (i, source) in sources.iter().enumerate() {
        text.push_str(&format!("#line 1 {}\n{}\n", i + 1, source.text));
    }
    text
}

/// Compiles `text`, or returns the driver's log.
fn try_compile(gl: &glow::Context, stage: u32, text: &str) -> Result<glow::Shader, String> {
    // SAFETY: plain GL calls on the current context with objects created here.
    unsafe {
        let shader = gl.create_shader(stage)?;
        gl.shader_source(shader, text);
        gl.compile_shader(shader);
        if gl.get_shader_compile_status(shader) {
            Ok(shader)
        } else {
            let log = gl.get_shader_info_log(shader);
            gl.delete_shader(shader);
            Err(log)
        }
    }
}

/// The message for a stage that failed to compile, naming the file that holds the
/// first error. Drivers do not agree on naming source strings in their logs, so ask
/// the driver itself: compile the first file alone, then the first two, and so on. The
/// first run that fails ends with the file at fault, and its log holds that file's
/// errors, with lines counted from the top of that file, which
/// [`driver_log::map_log`] rewrites as `path:line: message`.
fn compile_error(
    gl: &glow::Context,
    stage: u32,
    header: &str,
    sources: &[ShaderSource],
    log: String,
) -> String {
    let mut failing = (sources.len(), log);
    for end in 1..sources.len() {
        match try_compile(gl, stage, &joined_text(header, &sources[..end])) {
            // SAFETY: the shader was just created on this context.
            Ok(shader) => unsafe { gl.delete_shader(shader) },
            Err(log) => {
                failing = (end, log);
                break;
            }
        }
    }
    let (end, log) = failing;
    let log = driver_log::map_log(&log, &sources[..end]);
    match sources[..end].split_last() {
        Some((file, [])) => format!("{} failed to compile:\n{log}", file.path),
        Some((file, before)) => format!(
            "{} failed to compile (after {}):\n{log}",
            file.path,
            paths(before)
        ),
        None => format!("an empty shader failed to compile:\n{log}"),
    }
}

fn compile(
    gl: &glow::Context,
    stage: u32,
    header: &str,
    sources: &[ShaderSource],
) -> Result<glow::Shader, String> {
    try_compile(gl, stage, &joined_text(header, sources))
        .map_err(|log| compile_error(gl, stage, header, sources, log))
}

/// Compiles and links `vertex` + `fragment`, each stage the concatenation of its files
/// in order (one of them holding `main`).
///
/// `attributes` fixes attribute locations; `feedback` names vertex outputs that
/// transform feedback may capture (interleaved). Errors carry the driver's info log, a
/// compile log with each located line rewritten as `path:line: message`.
pub fn link_program(
    gl: &glow::Context,
    vertex: &[ShaderSource],
    fragment: &[ShaderSource],
    attributes: &[(&str, u32)],
    feedback: &[&str],
) -> Result<glow::Program, String> {
    let header = shader_header(gl.version().is_embedded, super::MAX_JOINTS);
    let vs = compile(gl, glow::VERTEX_SHADER, &header, vertex)?;
    let fs = match compile(gl, glow::FRAGMENT_SHADER, &header, fragment) {
        Ok(fs) => fs,
        Err(e) => {
            // SAFETY: `vs` was created above on this context.
            unsafe { gl.delete_shader(vs) };
            return Err(e);
        }
    };
    // SAFETY: plain GL calls on the current context with objects created here.
    unsafe {
        let program = gl.create_program()?;
        gl.attach_shader(program, vs);
        gl.attach_shader(program, fs);
        for (name, location) in attributes {
            gl.bind_attrib_location(program, *location, name);
        }
        if !feedback.is_empty() {
            gl.transform_feedback_varyings(program, feedback, glow::INTERLEAVED_ATTRIBS);
        }
        gl.link_program(program);
        gl.detach_shader(program, vs);
        gl.detach_shader(program, fs);
        gl.delete_shader(vs);
        gl.delete_shader(fs);
        if gl.get_program_link_status(program) {
            Ok(program)
        } else {
            let log = gl.get_program_info_log(program);
            gl.delete_program(program);
            Err(format!(
                "{} + {} failed to link:\n{log}",
                paths(vertex),
                paths(fragment)
            ))
        }
    }
}
