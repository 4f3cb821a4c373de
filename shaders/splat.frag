#version 440
layout(location = 0) in vec2 vOffset;
layout(location = 1) in vec3 vConic;
layout(location = 2) in vec4 vColor;
layout(location = 0) out vec4 fragColor;

void main()
{
    // The offset is in pixels with y up in NDC; the conic was built from
    // view-space x/y, so the sign convention matches.
    float power = -0.5 * (vConic.x * vOffset.x * vOffset.x + vConic.z * vOffset.y * vOffset.y) - vConic.y * vOffset.x * vOffset.y;
    if (power > 0.0)
        discard;
    float alpha = min(0.99, vColor.a * exp(power));
    if (alpha < 1.0 / 255.0)
        discard;
    // Splat colours are display (sRGB) values, blended as they are: the 3DGS
    // convention (0.5 + C0 * f_dc was fitted against 8-bit photographs, and
    // its reference rasteriser blends those values), which other splat
    // viewers follow. The target is plain RGBA8, so nothing re-encodes them.
    fragColor = vec4(clamp(vColor.rgb, 0.0, 1.0) * alpha, alpha);  // premultiplied, back to front
}
