#version 440
#extension GL_GOOGLE_include_directive : require
#define RIGLENS_WANT_SPLAT_VIEW
#include "shader_interface.h"
// Compute rasteriser: one workgroup per screen tile, one invocation per
// pixel. The tile's splats, sorted front to back, are loaded in batches into
// shared memory and blended in order; a pixel stops once its transmittance
// falls below 1e-4, and the tile stops when every pixel has (the early
// termination of Kerbl et al., "3D Gaussian Splatting", 2023). The pixel's
// alpha and falloff are splat.frag's; the result is premultiplied RGBA8 with
// alpha 1 - T (what back-to-front blending leaves over a clear background),
// plus the NDC depth of the first splat that made the pixel half opaque, for
// the composite's depth test against the voxel renderer.
layout(local_size_x = kSplatTile, local_size_y = kSplatTile) in;

layout(std430, binding = kRasterProjected) readonly buffer Projected { vec4 projected[]; };
layout(std430, binding = kRasterOrder) readonly buffer Order { uint order[]; };
layout(std430, binding = kRasterRanges) readonly buffer Ranges { uint ranges[]; };
layout(std430, binding = kRasterImage) writeonly buffer Image { uvec2 image[]; };  // (colour, depth bits) per pixel

const uint kBatch = kSplatTile * kSplatTile;
shared vec4 batchCentre[kBatch];  // pixel x, y, NDC depth, colour bits
shared vec3 batchConic[kBatch];
shared uint doneCount;

void main()
{
    uint lid = gl_LocalInvocationIndex;
    uint tile = gl_WorkGroupID.y * u.tiles.x + gl_WorkGroupID.x;
    uvec2 pixel = gl_WorkGroupID.xy * kSplatTile + gl_LocalInvocationID.xy;
    bool inside = pixel.x < uint(u.viewport.x) && pixel.y < uint(u.viewport.y);
    vec2 centre = vec2(pixel) + 0.5;
    uint begin = ranges[2u * tile], end = ranges[2u * tile + 1u];
    if (lid == 0u)
        doneCount = 0u;
    barrier();
    vec3 rgb = vec3(0.0);
    float T = 1.0;
    float depth = 0.0;
    bool done = !inside;
    if (done)
        atomicAdd(doneCount, 1u);
    for (uint first = begin; first < end; first += kBatch) {
        barrier();  // the last batch is consumed and doneCount is current
        if (doneCount == kBatch)
            break;
        uint k = first + lid;
        if (k < end) {
            uint s = order[k];
            vec4 p = projected[2u * s];
            vec4 q = projected[2u * s + 1u];
            batchCentre[lid] = vec4((p.xy * 0.5 + 0.5) * u.viewport.xy, q.w, p.w);
            batchConic[lid] = q.xyz;
        }
        barrier();
        uint n = min(kBatch, end - first);
        for (uint j = 0u; j < n && !done; ++j) {
            vec4 c = batchCentre[j];
            vec2 d = centre - c.xy;
            if (u.count.y != 0u)  // the backend's clip space flips y: view-space y is the other way
                d.y = -d.y;
            vec3 conic = batchConic[j];
            float power = -0.5 * (conic.x * d.x * d.x + conic.z * d.y * d.y) - conic.y * d.x * d.y;
            if (power > 0.0)
                continue;
            vec4 color = unpackUnorm4x8(floatBitsToUint(c.w));
            float alpha = min(0.99, color.a * exp(power));
            if (alpha < 1.0 / 255.0)
                continue;
            rgb += clamp(color.rgb, 0.0, 1.0) * alpha * T;
            if (T == 1.0 || (T > 0.5 && T * (1.0 - alpha) <= 0.5))
                depth = c.z;  // the first splat, then the one that makes the pixel half opaque
            T *= 1.0 - alpha;
            if (T < 1e-4) {
                done = true;
                atomicAdd(doneCount, 1u);
            }
        }
    }
    if (inside)
        image[pixel.y * uint(u.viewport.x) + pixel.x] = uvec2(packUnorm4x8(vec4(rgb, 1.0 - T)), floatBitsToUint(depth));
}
