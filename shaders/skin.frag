// The draw's colour times the vertex colour times the texture (a material's image, or
// one white pixel): flat, or lit by a light at the camera when u_lit is 1. Its alpha is
// read as glTF's alphaMode says: u_alpha_mode 1 is OPAQUE (alpha ignored), and with
// ALPHA_MASK defined MASK (below u_alpha_cutoff, nothing is drawn); 2 is BLEND (the
// colour premultiplied here); 0 takes the colour as already premultiplied.

uniform vec4 u_color;
uniform float u_lit;
uniform vec3 u_light_dir; // world-space direction towards the light
uniform sampler2D u_base_color;
uniform float u_alpha_cutoff;
uniform float u_alpha_mode;

in vec3 v_position;
in vec3 v_normal;
in vec4 v_color;
in vec2 v_uv;

out vec4 out_color;

void main() {
    float shade = 1.0;
    if (u_lit > 0.5 && dot(v_normal, v_normal) > 0.0) {
        shade = 0.35 + 0.65 * abs(dot(normalize(v_normal), u_light_dir));
    }
    vec4 color = u_color * v_color * texture(u_base_color, v_uv);
#ifdef ALPHA_MASK
    if (color.a < u_alpha_cutoff) {
        discard;
    }
#endif
    if (u_alpha_mode > 1.5) {
        color.rgb *= color.a;
    } else if (u_alpha_mode > 0.5) {
        color.a = 1.0;
    }
    out_color = vec4(color.rgb * shade, color.a);
}
