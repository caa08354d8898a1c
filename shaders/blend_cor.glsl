// Skinning with optimized centres of rotation (Le and Hodgins, "Real-time Skeletal
// Skinning with Optimized Centers of Rotation"): the vertex turns by its joints'
// rotations blended as quaternions, about its own centre of rotation, and the centre
// itself moves by linear blending. skin::cor on the CPU, which also finds the centres.
// A scaled joint is carried as the two-phase dual quaternion blend carries it: the
// vertex is stretched first (shaders/stretch.glsl), and the centre moves by the whole
// matrices. Put before shaders/skin.vert by the loader, after shaders/quat.glsl and
// shaders/stretch.glsl. The palette is the dual quaternion program's.

uniform vec4 u_dq_real[MAX_JOINTS]; // the rotation, a unit quaternion
uniform vec4 u_dq_dual[MAX_JOINTS]; // 0.5 * translation * rotation

// The vertex's centre of rotation, in bind space, found once for the mesh.
in vec3 a_centre;

// ANCHOR: cor_blend
mat4 skin_matrix(vec4 joints, vec4 weights) {
    vec4 pivot = u_dq_real[int(joints[0] + 0.5)];
    vec4 rotation = vec4(0.0);
    vec3 centre = vec3(0.0);
    for (int i = 0; i < 4; ++i) {
        int j = int(joints[i] + 0.5);
        vec4 real = u_dq_real[j];
        float w = weights[i];
        // Where joint j alone (stretch and rigid move) would take the centre, blended
        // linearly.
        vec3 own = joint_stretch(j) * a_centre;
        centre += w * (quat_matrix(real) * own + dq_translation(real, u_dq_dual[j]));
        // The rotations blended as quaternions, each on the first one's side (the
        // antipodal check, always on).
        rotation += (dot(real, pivot) < 0.0 ? -w : w) * real;
    }
    float len = length(rotation);
    mat3 r = len < 1e-6 ? mat3(1.0) : quat_matrix(rotation / len);
    // v' = R * S * v + t, where t takes R * S * centre to where the centre moved.
    r = r * blended_stretch(joints, weights);
    mat4 turn = mat4(r);
    turn[3] = vec4(centre - r * a_centre, 1.0);
    return turn;
}
// ANCHOR_END: cor_blend
