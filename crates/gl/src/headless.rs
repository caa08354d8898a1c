//! A headless OpenGL context on EGL's surfaceless platform: no display, no window.
//! The tests run the real shaders on it, and `skinlab --bench` times them.

use khronos_egl as egl;

/// Which API the headless context speaks.
#[derive(Clone, Copy, Debug)]
pub enum Api {
    /// Desktop OpenGL 3.3 core: shaders get `#version 330 core`.
    GlCore33,
    /// OpenGL ES 3.0 (what WebGL2 is): shaders get `#version 300 es`.
    Gles30,
}

/// A current GL context with a framebuffer of its own bound, kept alive with its EGL
/// handles.
pub struct Headless {
    /// The context, current on the thread that created it (shared, for painters that
    /// keep a handle to it).
    pub gl: std::sync::Arc<glow::Context>,
    /// The framebuffer drawing goes to: the surfaceless context has no other.
    pub framebuffer: glow::Framebuffer,
    _egl: egl::DynamicInstance<egl::EGL1_5>,
    _context: egl::Context,
}

const PLATFORM_SURFACELESS_MESA: egl::Enum = 0x31DD;

/// Creates a context of `api` and makes it current on this thread, with a small
/// framebuffer bound; the error says which EGL step failed.
pub fn create(api: Api) -> Result<Headless, String> {
    create_sized(api, [64, 64])
}

/// Creates a context of `api`, current on this thread, with a framebuffer of `size`
/// pixels (colour and depth) bound: what a window's would be.
pub fn create_sized(api: Api, size: [i32; 2]) -> Result<Headless, String> {
    // SAFETY: loads the system's libEGL, which implements the EGL API it claims.
    let egl = unsafe { egl::DynamicInstance::<egl::EGL1_5>::load_required() }
        .map_err(|e| format!("cannot load libEGL: {e}"))?;
    // SAFETY: the surfaceless platform takes the default display and no attributes.
    let display = unsafe {
        egl.get_platform_display(
            PLATFORM_SURFACELESS_MESA,
            egl::DEFAULT_DISPLAY,
            &[egl::ATTRIB_NONE],
        )
    }
    .map_err(|e| format!("no surfaceless EGL display: {e}"))?;
    egl.initialize(display)
        .map_err(|e| format!("eglInitialize: {e}"))?;
    let (api_enum, renderable, context_attribs) = match api {
        Api::GlCore33 => (
            egl::OPENGL_API,
            egl::OPENGL_BIT,
            vec![
                egl::CONTEXT_MAJOR_VERSION,
                3,
                egl::CONTEXT_MINOR_VERSION,
                3,
                egl::CONTEXT_OPENGL_PROFILE_MASK,
                egl::CONTEXT_OPENGL_CORE_PROFILE_BIT,
                egl::NONE,
            ],
        ),
        Api::Gles30 => (
            egl::OPENGL_ES_API,
            egl::OPENGL_ES3_BIT,
            vec![egl::CONTEXT_MAJOR_VERSION, 3, egl::NONE],
        ),
    };
    egl.bind_api(api_enum)
        .map_err(|e| format!("eglBindAPI: {e}"))?;
    let config_attribs = [
        egl::SURFACE_TYPE,
        egl::PBUFFER_BIT,
        egl::RENDERABLE_TYPE,
        renderable,
        egl::NONE,
    ];
    let config = egl
        .choose_first_config(display, &config_attribs)
        .map_err(|e| format!("eglChooseConfig: {e}"))?
        .ok_or("no EGL config for a headless context")?;
    let context = egl
        .create_context(display, config, None, &context_attribs)
        .map_err(|e| format!("eglCreateContext ({api:?}): {e}"))?;
    egl.make_current(display, None, None, Some(context))
        .map_err(|e| format!("eglMakeCurrent: {e}"))?;
    // SAFETY: the context is current on this thread; the loader returns its entry points.
    let gl = unsafe {
        glow::Context::from_loader_function(|name| {
            egl.get_proc_address(name)
                .map_or(std::ptr::null(), |f| f as *const std::ffi::c_void)
        })
    };
    let framebuffer = bind_framebuffer(&gl, size)?;
    Ok(Headless {
        gl: std::sync::Arc::new(gl),
        framebuffer,
        _egl: egl,
        _context: context,
    })
}

impl Headless {
    /// Binds the context's own framebuffer, where a headless frame is painted.
    pub fn bind_framebuffer(&self) {
        use glow::HasContext as _;
        // SAFETY: the framebuffer was made by `create_sized` on this context.
        unsafe {
            self.gl
                .bind_framebuffer(glow::FRAMEBUFFER, Some(self.framebuffer))
        }
    }

    /// Waits until the GPU has done everything asked so far (`glFinish`): what a
    /// window's buffer swap waits for.
    pub fn finish(&self) {
        use glow::HasContext as _;
        // SAFETY: a plain GL call on the current context.
        unsafe { self.gl.finish() }
    }

    /// The context's pending GL error, if any (`glGetError`).
    pub fn error(&self) -> Option<u32> {
        use glow::HasContext as _;
        // SAFETY: a plain query on the current context.
        let error = unsafe { self.gl.get_error() };
        (error != glow::NO_ERROR).then_some(error)
    }
}

/// The draw framebuffer bound now (`None` for the default one): where a paint callback
/// must return to after drawing elsewhere.
pub fn bound_framebuffer(gl: &glow::Context) -> Option<glow::Framebuffer> {
    use glow::HasContext as _;
    // SAFETY: a plain query on the current context.
    unsafe { gl.get_parameter_framebuffer(glow::DRAW_FRAMEBUFFER_BINDING) }
}

/// `GL_VENDOR`, `GL_RENDERER` and `GL_VERSION` of the current context: what the
/// benchmarks and headless profiles name first.
pub fn describe(gl: &glow::Context) -> (String, String, String) {
    use glow::HasContext as _;
    // SAFETY: plain string queries on the current context.
    let (vendor, version) = unsafe {
        (
            gl.get_parameter_string(glow::VENDOR),
            gl.get_parameter_string(glow::VERSION),
        )
    };
    (vendor, super::renderer(gl), version)
}

/// Drawing with no framebuffer fails on a surfaceless context, even with rasterisation
/// off, so bind one of `[width, height]` with colour and depth.
fn bind_framebuffer(
    gl: &glow::Context,
    [width, height]: [i32; 2],
) -> Result<glow::Framebuffer, String> {
    use glow::HasContext as _;
    // SAFETY: plain GL calls on the current context.
    unsafe {
        let fbo = gl.create_framebuffer()?;
        gl.bind_framebuffer(glow::FRAMEBUFFER, Some(fbo));
        let color = gl.create_renderbuffer()?;
        gl.bind_renderbuffer(glow::RENDERBUFFER, Some(color));
        gl.renderbuffer_storage(glow::RENDERBUFFER, glow::RGBA8, width, height);
        gl.framebuffer_renderbuffer(
            glow::FRAMEBUFFER,
            glow::COLOR_ATTACHMENT0,
            glow::RENDERBUFFER,
            Some(color),
        );
        let depth = gl.create_renderbuffer()?;
        gl.bind_renderbuffer(glow::RENDERBUFFER, Some(depth));
        gl.renderbuffer_storage(glow::RENDERBUFFER, glow::DEPTH24_STENCIL8, width, height);
        gl.framebuffer_renderbuffer(
            glow::FRAMEBUFFER,
            glow::DEPTH_STENCIL_ATTACHMENT,
            glow::RENDERBUFFER,
            Some(depth),
        );
        let status = gl.check_framebuffer_status(glow::FRAMEBUFFER);
        if status != glow::FRAMEBUFFER_COMPLETE {
            return Err(format!("framebuffer incomplete: 0x{status:x}"));
        }
        gl.viewport(0, 0, width, height);
        Ok(fbo)
    }
}
