// Quaternions as vec4(x, y, z, w), and unit dual quaternions real + e * dual, for the
// blend files that turn vertices by blended rotations (shaders/blend_dqs.glsl,
// shaders/blend_cor.glsl). Put before them by the loader.

// ANCHOR: quat_matrix
// The rotation matrix of the unit quaternion q.
mat3 quat_matrix(vec4 q) {
    vec3 v = q.xyz;
    float s = q.w;
    float xx = v.x * v.x, yy = v.y * v.y, zz = v.z * v.z;
    float xy = v.x * v.y, xz = v.x * v.z, yz = v.y * v.z;
    float sx = s * v.x, sy = s * v.y, sz = s * v.z;
    return mat3(
        vec3(1.0 - 2.0 * (yy + zz), 2.0 * (xy + sz), 2.0 * (xz - sy)),
        vec3(2.0 * (xy - sz), 1.0 - 2.0 * (xx + zz), 2.0 * (yz + sx)),
        vec3(2.0 * (xz + sy), 2.0 * (yz - sx), 1.0 - 2.0 * (xx + yy)));
}

// The translation of the unit dual quaternion real + e * dual: the vector part of
// 2 * dual * conjugate(real). (It ignores any part of dual along real, so a blend need
// not remove it.)
vec3 dq_translation(vec4 real, vec4 dual) {
    return 2.0 * (real.w * dual.xyz - dual.w * real.xyz + cross(real.xyz, dual.xyz));
}
// ANCHOR_END: quat_matrix
