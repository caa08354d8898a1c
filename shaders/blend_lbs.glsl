// ANCHOR: whole
// Linear blend skinning, palette in a uniform array: the weighted sum of matrices.
// Put before shaders/skin.vert by the loader, after a joints file.

// world_from_bind for each joint: world_from_joint * joint_from_bind (the gradient matrix).
uniform mat4 u_palette[MAX_JOINTS];

// ANCHOR: blend
mat4 skin_matrix(ivec4 joints, vec4 weights) {
    mat4 blended_matrix = mat4(0.0);
    for (int i = 0; i < 4; ++i) {
        blended_matrix += u_palette[joints[i]] * weights[i];
    }
    return blended_matrix;
}
// ANCHOR_END: blend

// ANCHOR: float_joints
// Joint indices that arrive as floats (shaders/joints_float.glsl): round to the
// nearest integer first, so a 2.9999 still reads joint 3.
mat4 skin_matrix(vec4 joints, vec4 weights) {
    return skin_matrix(ivec4(joints + 0.5), weights);
}
// ANCHOR_END: float_joints
// ANCHOR_END: whole
