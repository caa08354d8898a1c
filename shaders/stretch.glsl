// The stretch of dual quaternion skinning in two phases (Kavan, Collins, Žára and
// O'Sullivan, "Geometric Skinning with Approximate Dual Quaternion Blending", 2008):
// each joint's scale and shear, the symmetric S of world_from_bind = rigid * S, applied
// in bind space before the rigid move (skin::dqs::split_scale on the CPU). Put before
// shaders/blend_dqs.glsl and shaders/blend_cor.glsl by the loader, after
// shaders/quat.glsl. A rigid palette, and plain DQS, send the identity.
// Symmetric, so six numbers a joint in two vectors: the palette stays at four vectors a
// joint, as for a matrix palette.

uniform vec4 u_stretch_diagonal[MAX_JOINTS]; // S[0][0], S[1][1], S[2][2]
uniform vec4 u_stretch_off[MAX_JOINTS];      // S[0][1], S[0][2], S[1][2]

// ANCHOR: stretch
// Joint j's stretch.
mat3 joint_stretch(int j) {
    vec3 d = u_stretch_diagonal[j].xyz;
    vec3 o = u_stretch_off[j].xyz;
    return mat3(vec3(d.x, o.x, o.y), vec3(o.x, d.y, o.z), vec3(o.y, o.z, d.z));
}

// The stretches blended linearly, over the weights' sum: sum of w * S[j] / sum of w.
// Dividing keeps what the dual quaternion blend has, that weights which do not sum to
// 1 change nothing.
mat3 blended_stretch(vec4 joints, vec4 weights) {
    mat3 s = mat3(0.0);
    for (int i = 0; i < 4; ++i) {
        s += weights[i] * joint_stretch(int(joints[i] + 0.5));
    }
    float total = weights.x + weights.y + weights.z + weights.w;
    return abs(total) > 1e-6 ? s * (1.0 / total) : mat3(1.0);
}
// ANCHOR_END: stretch
