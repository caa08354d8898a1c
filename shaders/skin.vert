// Linear blend skinning, palette in a uniform array.
// Loaded by the app and by the tests; the loader prepends the `#version` line,
// precision statements and `#define MAX_JOINTS n`.

uniform mat4 u_clip_from_world;
// A shift in clip space (x, y per unit w), used to draw lines thicker than one pixel
// by drawing them a few times. Zero otherwise.
uniform vec2 u_clip_offset;
// world_from_bind for each joint: world_from_joint * joint_from_bind (the gradient matrix).
uniform mat4 u_palette[MAX_JOINTS];

in vec3 a_position; // bind-space position
in vec3 a_normal;   // bind-space normal (zero for lines)
in vec4 a_joints;   // four joint indices, stored as floats
in vec4 a_weights;  // four weights that sum to 1

out vec3 v_position; // skinned world position (captured by the tests)
out vec3 v_normal;   // skinned world normal (captured by the tests)

// ANCHOR: blend
mat4 blended_matrix() {
    mat4 world_from_bind = mat4(0.0);
    for (int i = 0; i < 4; ++i) {
        world_from_bind += u_palette[int(a_joints[i] + 0.5)] * a_weights[i];
    }
    return world_from_bind;
}
// ANCHOR_END: blend

void main() {
    mat4 world_from_bind = blended_matrix();
    vec4 world = world_from_bind * vec4(a_position, 1.0);
    v_position = world.xyz;
    // Normals use the inverse transpose, so they stay perpendicular to the surface
    // under non-uniform scale.
    vec3 n = transpose(inverse(mat3(world_from_bind))) * a_normal;
    float len = length(n);
    v_normal = len > 0.0 ? n / len : vec3(0.0);
    gl_Position = u_clip_from_world * world;
    gl_Position.xy += u_clip_offset * gl_Position.w;
}
