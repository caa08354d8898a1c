//! Quaternion arithmetic for any quaternion, unit or not: what dual quaternions are made
//! of. Quaternions are written (x, y, z, w), `w` the scalar part, as glam stores them.

use glam::{Quat, Vec3};

/// The quaternion product `a·b` (Hamilton's), written out for any two quaternions:
/// glam's product assumes unit quaternions, and neither a dual part nor a point
/// `(v, 0)` is one. With `a = (v1, s1)` and `b = (v2, s2)`:
/// `a·b = (s1 v2 + s2 v1 + v1 × v2, s1 s2 − v1 · v2)`.
pub fn product(a: Quat, b: Quat) -> Quat {
    let (av, bv) = (a.xyz(), b.xyz());
    let v = a.w * bv + b.w * av + av.cross(bv);
    Quat::from_xyzw(v.x, v.y, v.z, a.w * b.w - av.dot(bv))
}

/// `v` turned by the unit quaternion `q`: the vector part of `q · (v, 0) · q*`.
pub fn turn(q: Quat, v: Vec3) -> Vec3 {
    product(product(q, Quat::from_vec4(v.extend(0.0))), q.conjugate()).xyz()
}
