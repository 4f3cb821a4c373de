#version 440
#extension GL_GOOGLE_include_directive : require
#define RIGLENS_WANT_SPLAT_VIEW
#include "shader_interface.h"
// Compute rasteriser, after the parts (splat_raster.comp): each split run's
// pixels summed into the image. Every part blended its keys from the
// transmittance the parts before it left, so the pixel's colour is the sum
// of the parts' colours, its transmittance what the last part left, and its
// depth the last one a part set (the run's first splat, then the one that
// made the pixel half opaque: the later of the two). One workgroup a tile;
// runs of one part were written whole by the raster.
layout(local_size_x = kSplatTile, local_size_y = kSplatTile) in;

layout(std430, binding = kRasterRanges) readonly buffer Ranges { uint ranges[]; };
layout(std430, binding = kRasterKeys) readonly buffer Keys { uint keys[]; };
layout(std430, binding = kRasterCount) readonly buffer Count { uint countFromGpu; };
layout(std430, binding = kRasterHeld) readonly buffer Held { uint tilesHeld; };
layout(std430, binding = kRasterPartT) readonly buffer PartT { float partT[]; };
layout(std430, binding = kRasterPartials) readonly buffer Partials { uvec4 partials[]; };
layout(std430, binding = kRasterImage) writeonly buffer Image { uvec2 image[]; };
#include "splat_raster_parts.glsl"

const uint kPixels = kSplatTile * kSplatTile;

void main()
{
    uint tile = gl_WorkGroupID.y * u.tiles.x + gl_WorkGroupID.x;
    uvec2 chunks = splitChunks(tileRun(tile));
    uvec2 pixel = gl_WorkGroupID.xy * kSplatTile + gl_LocalInvocationID.xy;
    if (chunks.x > chunks.y || pixel.x >= uint(u.viewport.x) || pixel.y >= uint(u.viewport.y))
        return;
    uint lid = gl_LocalInvocationIndex;
    uvec4 first = partials[tile * kPixels + lid];
    vec3 rgb = uintBitsToFloat(first.xyz);
    uint depthBits = first.w;
    uint lastSlot = tile;
    for (uint chunk = chunks.x; chunk <= chunks.y; ++chunk) {
        lastSlot = chunkSlot(chunk);
        uvec4 part = partials[lastSlot * kPixels + lid];
        rgb += uintBitsToFloat(part.xyz);
        if (part.w != kNoDepth)
            depthBits = part.w;
    }
    float T = partT[lastSlot * kPixels + lid];
    image[pixel.y * uint(u.viewport.x) + pixel.x] =
        uvec2(packUnorm4x8(vec4(rgb, 1.0 - T)), depthBits == kNoDepth ? floatBitsToUint(0.0) : depthBits);
}
