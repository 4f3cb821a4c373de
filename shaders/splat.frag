#version 440
layout(location = 0) in vec2 vOffset;
layout(location = 1) in vec3 vConic;
layout(location = 2) in vec4 vColor;
layout(location = 0) out vec4 fragColor;

vec3 encodeSrgb(vec3 c)
{
    c = clamp(c, 0.0, 1.0);
    return mix(c * 12.92, 1.055 * pow(c, vec3(1.0 / 2.4)) - 0.055, step(vec3(0.0031308), c));
}

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
    fragColor = vec4(encodeSrgb(vColor.rgb) * alpha, alpha);  // premultiplied, back to front
}
