// Linear to sRGB (IEC 61966-2-1's piecewise curve), for shaders that write
// plain RGBA8 targets (frame.mode.y).
vec3 encodeSrgb(vec3 c)
{
    c = clamp(c, 0.0, 1.0);
    return mix(c * 12.92, 1.055 * pow(c, vec3(1.0 / 2.4)) - 0.055, step(vec3(0.0031308), c));
}
