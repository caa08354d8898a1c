// Joint indices as floats: the first file of a skinning vertex shader.
// A vec4 attribute is what every GPU and every API takes, and a float holds every
// integer up to 2^24 exactly; the blend function rounds it back to an int.
// ANCHOR: joints_float
in vec4 a_joints; // four joint indices, read as floats
// ANCHOR_END: joints_float
