// Ellipse outlines drawn over a scene (deformation ellipses). One instance is one
// ellipse: the points center + cos θ·major + sin θ·minor, θ = 2πk / u_segments, joined
// by straight pieces into a closed band u_width_px pixels wide on screen.
//
// The band is a triangle strip of 2·(u_segments + 1) vertices, a_corner 0, 1, 2, …:
// corners 2k and 2k + 1 lie either side of point k, and the last pair is the first
// again, closing the band. The caller draws only ellipses wholly in front of the eye.

uniform mat4 u_clip_from_world;
uniform vec2 u_viewport_px;
uniform float u_width_px;
uniform int u_segments;
// Drawn in place of each ellipse's own colour when its alpha is above zero: the halo.
uniform vec4 u_flat_color;

// Which corner of the strip, the same for every ellipse (a vertex attribute, not
// gl_VertexID, so that a draw has one attribute that is not per instance).
in float a_corner;
// One ellipse, per instance.
in vec3 a_center;
in vec3 a_major;
in vec3 a_minor;
in vec4 a_color;

out vec4 v_color;
// How far across the band this vertex is, in pixels from the outline: the fragment
// shader fades the band's edges with it.
out float v_across;

// Point k of the outline, in pixels from the viewport's bottom left corner.
vec2 outline_px(int k) {
    float theta = 6.2831853 * float(k) / float(u_segments);
    vec3 world = a_center + cos(theta) * a_major + sin(theta) * a_minor;
    vec4 clip = u_clip_from_world * vec4(world, 1.0);
    return (clip.xy / clip.w * 0.5 + 0.5) * u_viewport_px;
}

// The unit vector from a to b, or zero where they meet.
vec2 toward(vec2 a, vec2 b) {
    vec2 d = b - a;
    float l = length(d);
    return l > 1e-4 ? d / l : vec2(0.0);
}

vec2 across(vec2 along) {
    return vec2(-along.y, along.x);
}

void main() {
    int corner = int(a_corner + 0.5);
    int k = corner / 2;
    float side = corner % 2 == 0 ? -1.0 : 1.0;
    vec2 here = outline_px(k);
    vec2 into = toward(outline_px(k - 1), here);
    vec2 onward = toward(here, outline_px(k + 1));
    // The band's two edges meet where they cross, halfway between the pieces either
    // side (a mitre), further out the sharper the turn. Where they would meet more than
    // one and a half times as far out as the band is wide (the ends of a thin ellipse,
    // or of one flattened to a line), the band ends square across the piece that
    // leaves the point instead: no spikes.
    vec2 piece = length(onward) > 0.0 ? onward : (length(into) > 0.0 ? into : vec2(1.0, 0.0));
    vec2 both = into + onward;
    vec2 along = length(both) > 1e-3 ? normalize(both) : piece;
    float turn = dot(along, piece);
    if (turn < 2.0 / 3.0) {
        along = piece;
        turn = 1.0;
    }
    float mitre = 1.0 / turn;
    // A pixel more than half the width each side, for the faded edge.
    float half_band = 0.5 * u_width_px + 1.0;
    vec2 at = here + side * half_band * mitre * across(along);
    gl_Position = vec4(at / u_viewport_px * 2.0 - 1.0, 0.0, 1.0);
    v_across = side * half_band;
    v_color = u_flat_color.a > 0.0 ? u_flat_color : a_color;
}
