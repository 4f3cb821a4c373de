#version 440
#extension GL_GOOGLE_include_directive : require
#define RIGLENS_WANT_SPLAT_VIEW
#include "shader_interface.h"
// Compute rasteriser: one workgroup per screen tile (or part of a tile's
// run of keys, below), one invocation per pixel. The tile's splats, sorted
// front to back, are loaded in batches into shared memory and blended in
// order; a pixel stops once its transmittance falls below 1e-4, and the
// tile stops when every pixel has (the early termination of Kerbl et al.,
// "3D Gaussian Splatting", 2023). The pixel's
// alpha and falloff are splat.frag's; the result is premultiplied RGBA8 with
// alpha 1 - T (what back-to-front blending leaves over a clear background),
// plus the NDC depth of the first splat that made the pixel half opaque, for
// the composite's depth test against the voxel renderer.
//
// Each batch is also binned into the tile's 4x4-pixel blocks: each splat
// finds the blocks its ellipse reaches (out to where its alpha falls below
// 1/255, the cut every pixel makes), a word per block and 32 entries is
// gathered from those (no atomics: large splats reaching every block would
// contend for the same words), and each pixel walks only its block's
// splats, in order. A batch of mostly large splats is walked whole. Small splats touch one or two blocks of the sixteen, so a pixel
// no longer tests every splat of its tile: the test a pixel skips is one it
// would have failed.
//
// A long run is blended in parts (splat_raster_parts.glsl), in two
// dispatches of this kernel: built with SPLAT_RASTER_TRANSMITTANCE, each part
// but a run's last finds only what it leaves of each pixel's transmittance;
// then every part blends its keys from the transmittance the parts before it
// left (their product), as the whole run would have reached them, and
// splat_raster_merge.comp sums a split run's parts.
layout(local_size_x = kSplatTile, local_size_y = kSplatTile) in;

layout(std430, binding = kRasterProjected) readonly buffer Projected { vec4 projected[]; };
layout(std430, binding = kRasterOrder) readonly buffer Order { uint order[]; };
layout(std430, binding = kRasterRanges) readonly buffer Ranges { uint ranges[]; };
layout(std430, binding = kRasterKeys) readonly buffer Keys { uint keys[]; };  // the sorted tile keys
layout(std430, binding = kRasterCount) readonly buffer Count { uint countFromGpu; };
layout(std430, binding = kRasterHeld) readonly buffer Held { uint tilesHeld; };
#ifdef SPLAT_RASTER_TRANSMITTANCE
// Per part slot and pixel: the product of (1 - alpha) over the part's keys.
layout(std430, binding = kRasterPartT) writeonly buffer PartT { float partT[]; };
#else
layout(std430, binding = kRasterImage) writeonly buffer Image { uvec2 image[]; };  // (colour, depth bits) per pixel
// The parts' transmittance products; a split run's last part stores the
// pixel's final transmittance in its own slot.
layout(std430, binding = kRasterPartT) buffer PartT { float partT[]; };
// Per part slot and pixel of a split run: (rgb bits, depth bits or kNoDepth).
layout(std430, binding = kRasterPartials) writeonly buffer Partials { uvec4 partials[]; };
#endif
#include "splat_raster_parts.glsl"

const uint kBatch = kSplatTile * kSplatTile;
// Pixel x, y (negated where the backend's clip space flips y, as the
// pixel's own y is in blendEntry's frame), NDC depth, colour bits.
shared vec4 batchCentre[kBatch];
// The entry's conic (a, b, c) stored as -a/2, -b, -c/2, so a pixel's power
// is two products and a sum; and in w the power below which its alpha is
// under 1/255 wherever it lands (see kCutMargin). The y flip and the
// scalings are done once per entry, not per pixel (both exact: negation and
// halving round nothing), which took the raster from 4.571 to 4.493 ms on
// the 6 cm 1M torus and from 1.293 to 1.285 ms on the dense one (H200,
// same sitting); the picture is bit for bit the same.
shared vec4 batchConic[kBatch];
// The entry's colour unpacked once at load (clamped rgb, opacity), not by
// every pixel that tests it (the scene-like 3M frame's raster on the H200:
// 6.5 ms against 6.9-7.5 in a slow sitting).
shared vec4 batchColor[kBatch];
shared uint doneCount;
const uint kBlock = 4u, kBlocksPerRow = kSplatTile / kBlock, kBlocks = kBlocksPerRow * kBlocksPerRow;
const uint kMaskWords = kBatch / 32u;
shared uint batchBlocks[kBatch];                // per entry: the blocks it reaches, x0 | y0 << 4 | x1 << 8 | y1 << 12
shared uint blockSplats[kBlocks * kMaskWords];  // per block, a bit per batch entry
// Per batch (alternating), how many entries reach more than 2x2 blocks: a
// batch of three quarters large splats skips the blocks (each pixel would
// walk nearly every entry anyway, and the masks cost two barriers). At half,
// the scene-like 3M frame's raster took 2.40 ms on the H200; at three
// quarters or never, 2.17-2.18 ms; always, 9.4 ms against 7.6 (other sitting).
shared uint wideEntries[2];

// The blocks of the tile (origin `tileOrigin`, pixels) that the splat's
// ellipse reaches, packed for batchBlocks (x0 > x1: none).
uint reachedBlocks(vec2 centre, vec3 conic, float opacity, vec2 tileOrigin)
{
    // The reach of the uncapped opacity (a hair past splatReach's for
    // opacities above 0.99). The centre and the tile are both in the target's
    // pixel rows, and the extent is symmetric, whichever way view-space y runs.
    float reach = sqrt(2.0 * log(max(255.0 * opacity, 1.0)));
    float det = conic.x * conic.z - conic.y * conic.y;
    vec2 extent = reach * sqrt(max(vec2(conic.z, conic.x) / max(det, 1e-30), vec2(0.0))) + 0.5;
    // In blocks, clamped while still float (a huge extent converts to no integer).
    float last = float(kBlocksPerRow) - 1.0;
    vec2 lo = clamp(floor((centre - extent - tileOrigin) / float(kBlock)), vec2(-1.0), vec2(last + 1.0));
    vec2 hi = clamp(floor((centre + extent - tileOrigin) / float(kBlock)), vec2(-1.0), vec2(last + 1.0));
    if (any(greaterThan(lo, vec2(last))) || any(lessThan(hi, vec2(0.0))))
        return 0xfu;  // x0 = 15 > x1 = 0: none
    uvec2 a = uvec2(max(lo, vec2(0.0))), b = uvec2(min(hi, vec2(last)));
    return a.x | a.y << 4u | b.x << 8u | b.y << 12u;
}

// How far below -ln(255 opacity) a pixel's power must be for the entry to be
// skipped before its exp(): alpha = opacity * exp(power) < 1/255 exactly
// there, and the margin (a relative 1e-4 in alpha, far above the float
// error of exp and log) leaves every pair near the cut to the exact test
// after exp(), so the picture is bit for bit the one without the shortcut.
// Most pairs a 4x4 block's list hands a pixel lie outside the ellipse
// (the blocks cover its bounding box): skipping their exp() took the raster
// from 1.470 to 1.329 ms (dense 1M torus), 5.48 to 4.69 ms (6 cm torus) and
// 2.14 to 1.95 ms (scene-like 3M) on the H200, same sitting.
const float kCutMargin = 1e-4;

// Blends batch entry j into a pixel at `centre` (splat.frag's alpha and
// falloff; centre.y negated where the clip space flips y, see batchCentre).
void blendEntry(uint j, vec2 centre, inout vec3 rgb, inout float T, inout float depth, inout bool done)
{
    vec4 c = batchCentre[j];
    vec2 d = centre - c.xy;
    vec4 conic = batchConic[j];
    float power = (conic.x * d.x * d.x + conic.z * d.y * d.y) + conic.y * d.x * d.y;
    if (power > 0.0 || power < conic.w)
        return;
    vec4 color = batchColor[j];
    float alpha = min(0.99, color.a * exp(power));
    if (alpha < 1.0 / 255.0)
        return;
    rgb += color.rgb * alpha * T;
    if (T == 1.0 || (T > 0.5 && T * (1.0 - alpha) <= 0.5))
        depth = c.z;  // the first splat, then the one that makes the pixel half opaque
    T *= 1.0 - alpha;
    if (T < 1e-4) {
        done = true;
        atomicAdd(doneCount, 1u);
    }
}

// Batch entry `lid` from the projection's two words (p, q) of its splat.
void stageEntry(uint lid, vec4 p, vec4 q, vec2 tileOrigin, bool flipY, uint batch)
{
    vec2 at = (p.xy * 0.5 + 0.5) * u.viewport.xy;
    batchCentre[lid] = vec4(at.x, flipY ? -at.y : at.y, q.w, p.w);
    vec4 color = unpackUnorm4x8(floatBitsToUint(p.w));
    // (An entry of opacity 0 reaches nobody: its cut is past any power.)
    batchConic[lid] = vec4(-0.5 * q.x, -q.y, -0.5 * q.z, color.a > 0.0 ? -log(255.0 * color.a) - kCutMargin : 3.0e38);
    batchColor[lid] = color;
    uint r = reachedBlocks(at, q.xyz, color.a, tileOrigin);
    batchBlocks[lid] = r;
    if ((((r >> 8u) & 0xfu) - (r & 0xfu) + 1u) * ((r >> 12u) - ((r >> 4u) & 0xfu) + 1u) > 4u && (r & 0xfu) <= ((r >> 8u) & 0xfu))
        atomicAdd(wideEntries[batch & 1u], 1u);
}

// One word of one block's mask: which of 32 batch entries reach the block.
void buildBlockMask(uint lid)
{
    uint block = lid / kMaskWords, word = lid % kMaskWords;
    uint bx = block % kBlocksPerRow, by = block / kBlocksPerRow;
    uint mask = 0u;
    for (uint e = 0u; e < 32u; ++e) {
        uint r = batchBlocks[word * 32u + e];
        if (bx >= (r & 0xfu) && by >= ((r >> 4u) & 0xfu) && bx <= ((r >> 8u) & 0xfu) && by <= (r >> 12u))
            mask |= 1u << e;
    }
    blockSplats[lid] = mask;
}

// The transmittance the parts before `part` leave each pixel (1 for a run's first part).
float transmittanceBefore(RasterPart part, uint lid)
{
#ifdef SPLAT_RASTER_TRANSMITTANCE
    return 1.0;
#else
    if (part.chunk == 0u)
        return 1.0;
    float T = partT[part.tile * kBatch + lid];
    for (uint chunk = part.chunks.x; chunk < part.chunk; ++chunk)
        T *= partT[chunkSlot(chunk) * kBatch + lid];
    return T;
#endif
}

// What the part leaves of the pixel: its transmittance (the first dispatch),
// or its colour and depth (the image for a run of one part, else its slot).
void storePixel(RasterPart part, uint lid, uvec2 pixel, bool inside, vec3 rgb, float T, float depth)
{
#ifdef SPLAT_RASTER_TRANSMITTANCE
    partT[part.slot * kBatch + lid] = T;
#else
    if (!isSplit(part)) {
        if (inside)
            image[pixel.y * uint(u.viewport.x) + pixel.x] = uvec2(packUnorm4x8(vec4(rgb, 1.0 - T)), floatBitsToUint(depth));
        return;
    }
    partials[part.slot * kBatch + lid] = uvec4(floatBitsToUint(rgb), depth == kUnsetDepth ? kNoDepth : floatBitsToUint(depth));
    if (isLastPart(part))
        partT[part.slot * kBatch + lid] = T;
#endif
}

void main()
{
    uint lid = gl_LocalInvocationIndex;
    RasterPart part;
    // (Uniform over the workgroup: every invocation reads the same words.)
    if (!rasterPart(gl_WorkGroupID.y * u.parts.z + gl_WorkGroupID.x, part))
        return;
#ifdef SPLAT_RASTER_TRANSMITTANCE
    if (isLastPart(part))
        return;  // no part after it needs its product
#endif
    uvec2 tileXY = uvec2(part.tile % u.tiles.x, part.tile / u.tiles.x);
    uvec2 pixel = tileXY * kSplatTile + gl_LocalInvocationID.xy;
    bool inside = pixel.x < uint(u.viewport.x) && pixel.y < uint(u.viewport.y);
    // The backend's clip space flips y: view-space y runs the other way.
    bool flipY = u.count.y != 0u;
    vec2 centre = vec2(pixel) + 0.5;
    if (flipY)
        centre.y = -centre.y;
    uint begin = part.begin, end = part.end;
    if (lid == 0u) {
        doneCount = 0u;
        wideEntries[0] = 0u;
    }
    barrier();
    vec3 rgb = vec3(0.0);
    float T = transmittanceBefore(part, lid);
    // A split run's parts mark a depth they did not set, for the merge.
    float depth = isSplit(part) ? kUnsetDepth : 0.0;
    bool done = !inside || T < 1e-4;
    if (done)
        atomicAdd(doneCount, 1u);
    vec2 tileOrigin = vec2(tileXY * kSplatTile);
    uint block = (gl_LocalInvocationID.y / kBlock) * kBlocksPerRow + gl_LocalInvocationID.x / kBlock;
    // The next batch's entry of this invocation (pNext, qNext) and the index
    // of the one after it (sAfter) are loaded while this batch blends, so the
    // two dependent reads (order, then projected) wait behind the blending
    // rather than between batches: raster 1.323 -> 1.293 ms (dense 1M torus),
    // 4.63 -> 4.57 (6 cm torus), 2.04 -> 2.00 (scene-like 3M) on the H200,
    // same sitting. (Two pixels an invocation, to share each entry's reads,
    // was 1.6-1.7x slower: half the invocations hide less latency.)
    uint sNext = begin + lid < end ? order[begin + lid] : 0u;
    vec4 pNext = begin + lid < end ? projected[2u * sNext] : vec4(0.0);
    vec4 qNext = begin + lid < end ? projected[2u * sNext + 1u] : vec4(0.0);
    uint sAfter = begin + kBatch + lid < end ? order[begin + kBatch + lid] : 0u;
    for (uint first = begin, batch = 0u; first < end; first += kBatch, ++batch) {
        barrier();  // the last batch is consumed and doneCount is current
        if (doneCount == kBatch)
            break;
        if (lid == 0u)
            wideEntries[(batch + 1u) & 1u] = 0u;  // the next batch's (the last read of it is behind the barrier)
        uint k = first + lid;
        batchBlocks[lid] = 0xfu;  // past the tile's end: reaches no block
        if (k < end)
            stageEntry(lid, pNext, qNext, tileOrigin, flipY, batch);
        uint kNext = k + kBatch;
        if (kNext < end) {
            pNext = projected[2u * sAfter];
            qNext = projected[2u * sAfter + 1u];
        }
        sAfter = kNext + kBatch < end ? order[kNext + kBatch] : 0u;
        barrier();
        uint n = min(kBatch, end - first);
        if (wideEntries[batch & 1u] * 4u > 3u * n) {  // uniform: every invocation reads the same count
            for (uint j = 0u; j < n && !done; ++j)
                blendEntry(j, centre, rgb, T, depth, done);
            continue;
        }
        if (lid < kBlocks * kMaskWords)
            buildBlockMask(lid);
        barrier();
        for (uint word = 0u; word < kMaskWords && !done; ++word)
            for (uint bits = blockSplats[block * kMaskWords + word]; bits != 0u && !done; bits &= bits - 1u)
                blendEntry(word * 32u + uint(findLSB(bits)), centre, rgb, T, depth, done);
    }
    storePixel(part, lid, pixel, inside, rgb, T, depth);
}
