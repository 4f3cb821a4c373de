// Which keys a raster workgroup blends, shared by splat_raster.comp (built
// twice: the parts' transmittance, then their colour) and
// splat_raster_merge.comp. A tile's run of keys is blended front to back and
// each pixel's chain of tests is sequential, so a frame takes as long as its
// longest run: the dense 1M torus at 1280x720 has 352 tiles with keys, a
// median run of 11 batches and a longest of 67; the same frame with every run
// cut at 12 batches took 0.41 ms of raster instead of 1.29 on an H100.
//
// So where fewer tiles hold keys than the workgroups the GPU runs at once
// (u.parts.w), a run of at least a part (u.parts.x keys), longer than the
// frame's keys shared over those workgroups (a shorter run ends no later
// than the GPU's share of the rest, and cutting it only adds work), is cut
// into parts at the key positions g * u.parts.x (chunk g) lying at least
// half a part inside it. Where the tiles holding keys fill the GPU, no run
// is cut: a tile's workgroup waits for no idle one, and the parts' second
// pass over their keys and their sums cost more than the longest run saves
// (on an H100, every run whole: the 6 cm 1M torus, 552 tiles with keys over
// 396 workgroups, 5.545 -> 5.084 ms; a trained-scene-like 3M cloud, 8,160
// tiles, 3.195 -> 3.096; the dense 1M torus, 352 tiles, 1.042 -> 1.530).
// the first part runs from the run's start to the first such chunk, each
// chunk's part to the next one or to the run's end. Parts are found from the
// sorted keys alone (no list is built): workgroup w < tiles takes tile w's
// first part, workgroup tiles + g - 1 chunk g's part, if it starts one.
// Each part's partial results live in slot w.
//
// The includer declares ranges[], keys[], countFromGpu and tilesHeld (the
// tile ranges, the sorted tile keys, their count and the tiles holding keys).

struct RasterPart {
    uint tile;    // the screen tile
    uint begin;   // the keys blended: [begin, end)
    uint end;
    uvec2 chunks; // the tile's chunks that start parts (x > y: its run is one part)
    uint chunk;   // this part's chunk (0: the run's first part)
    uint slot;    // its pixels' partial results: slot * kSplatTile^2 + pixel
};

uint rasterTiles()
{
    return u.tiles.x * u.tiles.y;
}

// Tile `tile`'s run of this frame's keys (x == y: none). The ranges are not
// cleared between frames (a copy and the barrier after it, ~0.01 ms a frame
// on the H200): a tile that no key reached this frame holds an old range or
// nothing written yet, and no key of this frame lies in it, since keys are
// sorted by tile. A range some key wrote this frame holds that tile's key at
// its start.
uvec2 tileRun(uint tile)
{
    uint begin = ranges[2u * tile], end = ranges[2u * tile + 1u];
    uint count = min(countFromGpu, u.tiles.w);
    if (!(begin < end && end <= count && keys[begin] == tile))
        end = begin;
    return uvec2(begin, end);
}

// The chunks that start parts of `run` (x > y: none).
uvec2 splitChunks(uvec2 run)
{
    uint keysPerPart = u.parts.x;
    if (keysPerPart == 0u || run.y - run.x < keysPerPart || (u.parts.w > 0u && tilesHeld >= u.parts.w))
        return uvec2(1u, 0u);
    uint share = u.parts.w > 0u ? min(countFromGpu, u.tiles.w) / u.parts.w : 0u;
    if (run.y - run.x <= share)
        return uvec2(1u, 0u);
    uint halfPart = keysPerPart / 2u;
    return uvec2((run.x + halfPart + keysPerPart - 1u) / keysPerPart, (run.y - halfPart) / keysPerPart);
}

bool isSplit(RasterPart part)
{
    return part.chunks.x <= part.chunks.y;
}

bool isLastPart(RasterPart part)
{
    return !isSplit(part) || part.chunk == part.chunks.y;
}

uint chunkSlot(uint chunk)
{
    return rasterTiles() + chunk - 1u;
}

// The part workgroup `w` blends; false: none (a chunk inside a run's first
// or last half part, past the keys, or past the grid's parts).
bool rasterPart(uint w, out RasterPart part)
{
    part = RasterPart(0u, 0u, 0u, uvec2(1u, 0u), 0u, w);
    uint tiles = rasterTiles();
    if (w < tiles) {
        uvec2 run = tileRun(w);
        part.tile = w;
        part.begin = run.x;
        part.chunks = splitChunks(run);
        part.end = isSplit(part) ? part.chunks.x * u.parts.x : run.y;
        return true;
    }
    uint chunk = w - tiles + 1u;
    uint count = min(countFromGpu, u.tiles.w);
    if (chunk > u.parts.y || chunk * u.parts.x >= count)
        return false;
    part.tile = keys[chunk * u.parts.x];
    uvec2 run = tileRun(part.tile);
    part.chunks = splitChunks(run);
    if (chunk < part.chunks.x || chunk > part.chunks.y)
        return false;
    part.chunk = chunk;
    part.begin = chunk * u.parts.x;
    part.end = chunk == part.chunks.y ? run.y : part.begin + u.parts.x;
    return true;
}

// A split run's part that set no depth stores kNoDepth; while it blends, its
// depth starts at kUnsetDepth, which no splat's NDC depth is (splats nearer
// than the near plane are culled).
const float kUnsetDepth = -2.0;
const uint kNoDepth = 0xffffffffu;
