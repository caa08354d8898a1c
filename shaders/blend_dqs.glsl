// Dual quaternion skinning: each joint's rigid world_from_bind as a unit dual
// quaternion real + e * dual; blend those, then turn the blend back into a matrix.
// In two phases, so a scaled joint keeps its scale: the vertex is stretched first by
// the blended stretch (shaders/stretch.glsl), then moved rigidly.
// Put before shaders/skin.vert by the loader, after shaders/quat.glsl and
// shaders/stretch.glsl. Two vectors a joint for the rigid part and two for the
// stretch: a mat4 palette's four, within WebGL2's 256 guaranteed vertex uniform vectors.

uniform vec4 u_dq_real[MAX_JOINTS]; // the rotation, a unit quaternion
uniform vec4 u_dq_dual[MAX_JOINTS]; // 0.5 * translation * rotation
// Whether to negate quaternions on the far side of the first influence's (the
// antipodal check). Off only to show what goes wrong without it.
uniform bool u_antipodal_check;

// ANCHOR: dqs_blend
mat4 skin_matrix(vec4 joints, vec4 weights) {
    vec4 pivot = u_dq_real[int(joints[0] + 0.5)];
    vec4 real = vec4(0.0);
    vec4 dual = vec4(0.0);
    for (int i = 0; i < 4; ++i) {
        int j = int(joints[i] + 0.5);
        // q and -q are the same rotation, but they cancel in a sum: add the one on
        // the pivot's side, so the blend takes the short way round.
        float w = weights[i];
        if (u_antipodal_check && dot(u_dq_real[j], pivot) < 0.0) {
            w = -w;
        }
        real += u_dq_real[j] * w;
        dual += u_dq_dual[j] * w;
    }
    float len = length(real);
    if (len < 1e-6) { // skin::dqs::DEGENERATE_LENGTH
        // The rotations cancelled: there is none to give. Leave the vertex in bind pose,
        // stretched, as the CPU reference does.
        return mat4(blended_stretch(joints, weights));
    }
    // Make the rotation unit length, then read the rotation matrix and the translation
    // (shaders/quat.glsl).
    real /= len;
    dual /= len;
    mat4 turn = mat4(quat_matrix(real)); // the 3x3 in the corner, (0, 0, 0, 1) below
    turn[3] = vec4(dq_translation(real, dual), 1.0);
    // Stretch first, then turn and move: a rigid palette's stretch is the identity.
    return turn * mat4(blended_stretch(joints, weights));
}
// ANCHOR_END: dqs_blend
