// How far a splat can be seen, shared by the quads (splat.vert) and the
// compute tiles (splat_tiles_common.glsl) so both cover the same pixels: the
// Mahalanobis distance at which its alpha, opacity * exp(-d^2 / 2) capped at
// 0.99 as the fragment caps it, falls to 1/255 (the cut splat.frag and the
// 3DGS rasteriser make); at most 3.33 sigma, 0 for a splat never visible.
float splatReach(float opacity)
{
    return sqrt(2.0 * log(max(255.0 * min(opacity, 0.99), 1.0)));
}
