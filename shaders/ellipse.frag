// The band of an ellipse outline (shaders/ellipse.vert), its edges faded over a pixel,
// in premultiplied alpha as the app's framebuffer blends it.

uniform float u_width_px;

in vec4 v_color;
in float v_across;

out vec4 out_color;

void main() {
    float cover = clamp(0.5 * u_width_px + 0.5 - abs(v_across), 0.0, 1.0);
    float alpha = v_color.a * cover;
    out_color = vec4(v_color.rgb * alpha, alpha);
}
