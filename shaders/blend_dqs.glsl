// Dual quaternion skinning: each joint's rigid world_from_bind as a unit dual
// quaternion real + e * dual; blend those, then turn the blend back into a matrix.
// Put before shaders/skin.vert by the loader. Quaternions are vec4(x, y, z, w).
// Two vectors a joint instead of a mat4's four: this program does not carry the
// matrix palette, so it fits WebGL2's 256 guaranteed vertex uniform vectors easily.

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
        // as the CPU reference does.
        return mat4(1.0);
    }
    // Make the rotation unit length. (A unit dual quaternion also has real . dual = 0;
    // the vector part of 2 * dual * conjugate(real) below ignores any part of dual
    // along real, so there is no need to remove it here.)
    real /= len;
    dual /= len;
    // The rotation matrix of `real`, and the translation 2 * dual * conjugate(real).
    vec3 v = real.xyz;
    float s = real.w;
    vec3 t = 2.0 * (s * dual.xyz - dual.w * v + cross(v, dual.xyz));
    float xx = v.x * v.x, yy = v.y * v.y, zz = v.z * v.z;
    float xy = v.x * v.y, xz = v.x * v.z, yz = v.y * v.z;
    float sx = s * v.x, sy = s * v.y, sz = s * v.z;
    return mat4(
        vec4(1.0 - 2.0 * (yy + zz), 2.0 * (xy + sz), 2.0 * (xz - sy), 0.0),
        vec4(2.0 * (xy - sz), 1.0 - 2.0 * (xx + zz), 2.0 * (yz + sx), 0.0),
        vec4(2.0 * (xz + sy), 2.0 * (yz - sx), 1.0 - 2.0 * (xx + yy), 0.0),
        vec4(t, 1.0));
}
// ANCHOR_END: dqs_blend
