// Shared by splat_tile_count.comp and splat_tile_emit.comp: which tiles a
// projected splat's 3-sigma square touches, computed the same way in both
// (the emission writes exactly the keys the count reserved).
layout(local_size_x = kProjectGroupSize) in;

layout(std430, binding = kTilesProjected) readonly buffer Projected { vec4 projected[]; };
layout(std430, binding = kTilesDepth) readonly buffer TileDepth { uint tileDepth[]; };

shared uint groupTiles[kProjectGroupSize];

// (x0, y0, x1, y1), exclusive; empty for culled splats and past the count.
uvec4 tileRect(uint i)
{
    if (i >= u.count.x || tileDepth[i] == 0xffffffffu)
        return uvec4(0u);
    vec4 p = projected[2u * i];
    vec2 px = (p.xy * 0.5 + 0.5) * u.viewport.xy;
    float radius = p.z;
    vec2 lo = clamp(floor((px - radius) / float(kSplatTile)), vec2(0.0), vec2(u.tiles.xy));
    vec2 hi = clamp(floor((px + radius) / float(kSplatTile)) + 1.0, vec2(0.0), vec2(u.tiles.xy));
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
