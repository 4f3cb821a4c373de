// Shared by splat_tile_count.comp and splat_tile_emit.comp, which walk the
// splats in depth order (order[j], the projection's sorted keys' values;
// splat_renderer sorts them first): which tiles a
// projected splat can show in, computed the same way in both (the emission
// writes exactly the keys the count reserved): the bounding box of its
// ellipse out to splatReach (where its opacity falls to 1/255, the cut the
// raster makes), not the square of its
// 3-sigma radius: an elongated or faint splat touches far fewer tiles, and
// every tile key costs a sort slot and a batch of pixel tests.
#include "splat_footprint.glsl"

layout(local_size_x = kProjectGroupSize) in;

layout(std430, binding = kTilesProjected) readonly buffer Projected { vec4 projected[]; };
layout(std430, binding = kTilesDepth) readonly buffer TileDepth { uint tileDepth[]; };
layout(std430, binding = kTilesOrder) readonly buffer Order { uint order[]; };

shared uint groupTiles[kProjectGroupSize];

// The splat at place j of the depth order (past the count: none).
uint splatAt(uint j)
{
    // An order not yet sorted this run (a frame cut before its sort) may
    // hold anything: only indices of splats are read through.
    uint i = j < u.count.x ? order[j] : 0xffffffffu;
    return i < u.count.x ? i : 0xffffffffu;
}

// (x0, y0, x1, y1), exclusive; empty for culled splats and for none.
uvec4 tileRect(uint i)
{
    if (i == 0xffffffffu || tileDepth[i] == 0xffffffffu)
        return uvec4(0u);
    vec4 p = projected[2u * i];
    vec3 conic = projected[2u * i + 1u].xyz;  // the inverse 2D covariance (a, b, c)
    vec2 px = (p.xy * 0.5 + 0.5) * u.viewport.xy;
    float reach = splatReach(unpackUnorm4x8(floatBitsToUint(p.w)).a);
    float det = conic.x * conic.z - conic.y * conic.y;
    // sigma_x = sqrt(c / det), sigma_y = sqrt(a / det) (the covariance's diagonal)
    vec2 extent = reach * sqrt(max(vec2(conic.z, conic.x) / max(det, 1e-30), vec2(0.0)));
    if (reach <= 0.0)
        return uvec4(0u);
    vec2 lo = clamp(floor((px - extent) / float(kSplatTile)), vec2(0.0), vec2(u.tiles.xy));
    vec2 hi = clamp(floor((px + extent) / float(kSplatTile)) + 1.0, vec2(0.0), vec2(u.tiles.xy));
    return uvec4(lo, hi);
}

// Inclusive scan of the group's tile counts in groupTiles (every invocation calls it).
void scanGroup(uint lid, uint n)
{
    groupTiles[lid] = n;
    barrier();
    for (uint offset = 1u; offset < kProjectGroupSize; offset <<= 1u) {
        uint add = lid >= offset ? groupTiles[lid - offset] : 0u;
        barrier();
        groupTiles[lid] += add;
        barrier();
    }
}
