// ANCHOR: whole
// The skinning vertex shader: one main for every way of blending.
// Loaded by the app and by the tests; the loader puts before it the `#version` line,
// precision statements, `#define MAX_JOINTS n`, one joints file, which declares
//     in vec4 a_joints   (shaders/joints_float.glsl) or
//     in ivec4 a_joints  (shaders/joints_int.glsl),
// and one blend file, which defines skin_matrix(a_joints, a_weights), the
// blended matrix of one vertex: shaders/blend_lbs.glsl (linear blend skinning,
// a uniform array), shaders/blend_texture.glsl (the same, from a bone texture) or
// shaders/blend_dqs.glsl (dual quaternion skinning).

uniform mat4 u_clip_from_world;
// A shift in clip space (x, y per unit w), used to draw lines thicker than one pixel
// by drawing them a few times. Zero otherwise.
uniform vec2 u_clip_offset;
// How normals are carried: 0 by the inverse transpose (right), 1 by the matrix itself
// (wrong under non-uniform scale; the normals lesson shows why). skin::normals on the CPU.
uniform int u_normal_method;
// What becomes of w, the fourth coordinate of the blended position. Every gradient's
// bottom row is (0, 0, 0, 1), so w is the sum of the weights. 0 keeps it: the divide by
// w after this shader gives back the point that weights summing to 1 would give, and a
// wrong sum does not show. 1 sets it to 1, as a 3x4 palette and the CPU reference do: a
// sum s puts the point s times as far from the origin. skin::lbs::PositionW on the CPU.
uniform int u_position_w;

// Blend shapes (morph targets): offsets added to the bind-space vertex before the skin,
// v = v0 + sum of w_i * delta_i (skin::morph on the CPU). They lie in u_morph_deltas,
// RGBA32F: row 0 the weights, four a texel; from row 1 on, read along the rows, vertex
// v's offsets for target i, the position's at texel 2 * (v * u_morph_targets + i) and
// the normal's at the next. u_morph_targets is 0 for a draw without blend shapes.
uniform highp sampler2D u_morph_deltas;
uniform int u_morph_targets;

in vec3 a_position; // bind-space position
in vec3 a_normal;   // bind-space normal (zero for lines)
// a_joints: four joint indices, declared by the joints file
in vec4 a_weights;  // four weights that sum to 1
in vec4 a_color;    // per-vertex colour (a weight heat map), white when unused
in vec2 a_uv;       // texture coordinate (a material's image), carried unchanged

out vec3 v_position; // skinned world position, after the divide by w (captured by the tests)
out vec3 v_normal;   // skinned world normal (captured by the tests)
out vec4 v_color;
out vec2 v_uv;

// Offset `index` of the blend shapes, counted along the rows below the weights.
vec3 morph_delta(int index) {
    int width = textureSize(u_morph_deltas, 0).x;
    return texelFetch(u_morph_deltas, ivec2(index % width, 1 + index / width), 0).xyz;
}

// Adds the blend shapes, each at its weight, to the bind-space position and normal.
// A shape at weight 0 costs one read of its weight.
void add_blend_shapes(inout vec3 position, inout vec3 normal) {
    for (int i = 0; i < u_morph_targets; ++i) {
        float w = texelFetch(u_morph_deltas, ivec2(i / 4, 0), 0)[i % 4];
        // The same weight for every vertex, so the whole draw skips a shape at rest.
        if (w == 0.0) {
            continue;
        }
        int at = 2 * (gl_VertexID * u_morph_targets + i);
        position += w * morph_delta(at);
        normal += w * morph_delta(at + 1);
    }
}

void main() {
    vec3 position = a_position;
    vec3 normal = a_normal;
    add_blend_shapes(position, normal);
    mat4 blended_matrix = skin_matrix(a_joints, a_weights);
    vec4 world = blended_matrix * vec4(position, 1.0);
    // ANCHOR: position_w
    if (u_position_w == 1) {
        world.w = 1.0;
    }
    // The point drawn is xyz / w. Weights that are all zero give w = 0: no point at all.
    v_position = world.w != 0.0 ? world.xyz / world.w : world.xyz;
    // ANCHOR_END: position_w
    // Normals use the inverse transpose, so they stay perpendicular to the surface
    // under non-uniform scale. (For dual quaternions the matrix is a rotation, whose
    // inverse transpose is itself.)
    // ANCHOR: normal
    mat3 m = mat3(blended_matrix);
    vec3 n = u_normal_method == 1 ? m * normal : transpose(inverse(m)) * normal;
    // ANCHOR_END: normal
    float len = length(n);
    v_normal = len > 0.0 ? n / len : vec3(0.0);
    v_color = a_color;
    v_uv = a_uv;
    gl_Position = u_clip_from_world * world;
    gl_Position.xy += u_clip_offset * gl_Position.w;
}
// ANCHOR_END: whole
