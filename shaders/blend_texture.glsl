// Linear blend skinning, palette in a texture: joint j's world_from_bind is row j of
// u_bone_texture, four RGBA32F texels, one per matrix column (column-major, as the
// CPU stores it). There is no MAX_JOINTS here: the texture is as tall as the skeleton
// (up to GL_MAX_TEXTURE_SIZE rows, at least 2048 in WebGL2), and it costs one uniform.
// Put before shaders/skin.vert by the loader, after a joints file.

// highp: a vertex shader's samplers are lowp unless told, and the matrices need
// full 32-bit floats.
uniform highp sampler2D u_bone_texture;

// ANCHOR: bone_matrix
mat4 bone_matrix(int joint) {
    // texelFetch reads one texel by integer coordinates: no filtering, no mipmaps.
    return mat4(
        texelFetch(u_bone_texture, ivec2(0, joint), 0),
        texelFetch(u_bone_texture, ivec2(1, joint), 0),
        texelFetch(u_bone_texture, ivec2(2, joint), 0),
        texelFetch(u_bone_texture, ivec2(3, joint), 0));
}
// ANCHOR_END: bone_matrix

// ANCHOR: texture_blend
mat4 skin_matrix(ivec4 joints, vec4 weights) {
    mat4 blended_matrix = mat4(0.0);
    for (int i = 0; i < 4; ++i) {
        blended_matrix += bone_matrix(joints[i]) * weights[i];
    }
    return blended_matrix;
}
// ANCHOR_END: texture_blend

// Joint indices that arrive as floats (shaders/joints_float.glsl): round them first.
mat4 skin_matrix(vec4 joints, vec4 weights) {
    return skin_matrix(ivec4(joints + 0.5), weights);
}
