//! Compiling and linking the shader files, with the driver's log on failure.

use glow::HasContext as _;

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
                text: include_str!(concat!("../../shaders/", $file)),
            };
        };
    }

    shader!(SKIN_VERT, "skin.vert");
    shader!(SKIN_FRAG, "skin.frag");
    shader!(COLOR_VERT, "color.vert");
    shader!(COLOR_FRAG, "color.frag");

    /// Every shader file, for tools that check them all.
    pub const ALL: [ShaderSource; 4] = [SKIN_VERT, SKIN_FRAG, COLOR_VERT, COLOR_FRAG];
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

fn compile(
    gl: &glow::Context,
    stage: u32,
    header: &str,
    source: &ShaderSource,
) -> Result<glow::Shader, String> {
    // SAFETY: plain GL calls on the current context with objects created here.
    unsafe {
        let shader = gl.create_shader(stage)?;
        gl.shader_source(shader, &format!("{header}#line 1\n{}", source.text));
        gl.compile_shader(shader);
        if gl.get_shader_compile_status(shader) {
            Ok(shader)
        } else {
            let log = gl.get_shader_info_log(shader);
            gl.delete_shader(shader);
            Err(format!("{} failed to compile:\n{log}", source.path))
        }
    }
}

/// Compiles and links `vertex` + `fragment`.
///
/// `attributes` fixes attribute locations; `feedback` names vertex outputs that
/// transform feedback may capture (interleaved). Errors carry the driver's info log.
pub fn link_program(
    gl: &glow::Context,
    vertex: &ShaderSource,
    fragment: &ShaderSource,
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
                vertex.path, fragment.path
            ))
        }
    }
}
