// Joint indices as integers: the first file of a skinning vertex shader.
// An ivec4 attribute (uploaded with glVertexAttribIPointer, here from four signed
// 16-bit numbers) arrives as exact integers: no conversion, and half the bytes.
// The pointer's type is signed like the attribute: WebGL2 draws nothing when they differ.
// ANCHOR: joints_int
in ivec4 a_joints; // four joint indices, stored as integers
// ANCHOR_END: joints_int
