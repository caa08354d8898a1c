// Unskinned lines and triangles with a colour per vertex: grids, axes, arrows.

uniform mat4 u_clip_from_world;
uniform vec3 u_light_dir; // world-space direction towards the light
// A shift in clip space (x, y per unit w), used to draw lines thicker than one pixel
// by drawing them a few times. Zero otherwise.
uniform vec2 u_clip_offset;

in vec3 a_position;
in vec4 a_color;
in vec3 a_normal; // zero for lines: drawn unshaded

out vec4 v_color;

void main() {
    float lit = length(a_normal) > 0.0 ? 0.45 + 0.55 * abs(dot(normalize(a_normal), u_light_dir)) : 1.0;
    v_color = vec4(a_color.rgb * lit, a_color.a);
    gl_Position = u_clip_from_world * vec4(a_position, 1.0);
    gl_Position.xy += u_clip_offset * gl_Position.w;
}
