#version 450
#extension GL_GOOGLE_include_directive : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_shuffle : require
#extension GL_EXT_control_flow_attributes : require
#define RIGLENS_WANT_ONESWEEP
#include "shader_interface.h"
// One-sweep radix sort, one scatter kernel per 8-bit digit (SPIR-V only:
// Qt 6.4's qsb cannot translate subgroup operations, so glslc builds it once
// per subgroup size, SUBGROUP_SIZE, and GpuRadixSort picks the build that
// matches the device). A workgroup:
// 1. claims the next tile (launch order; see shader_interface.h);
// 2. ranks the tile's keys, stably: each subgroup owns a contiguous run of
//    kLanes * kKeys keys and takes them kLanes at a time; eight ballots (one
//    per digit bit) give each lane the lanes holding its digit, so its rank
//    among them is a population count, and the last of them moves the
//    subgroup's count of that digit on with one shared atomic and hands the
//    count before to the others by a shuffle (no barrier per round);
// 3. per digit: scans the subgroups' counts, publishes the tile's count,
//    scans the digits in the tile and in the whole pass (the histogram),
//    and looks back over the earlier tiles' status words for the digit's
//    keys before this tile;
// 4. lays the ranked keys and their values out by digit in shared memory
//    and writes them so that consecutive invocations write consecutive
//    addresses of a digit's run. Built with ONESWEEP_WIDE, a tile holds
//    twice the keys (kOneSweepWideTileKeys) and stages the keys and then
//    the values through one shared array, to stay within 48 KB.
// It also clears this tile's status words of the next pass, and the last
// pass clears the digit counts the next sort counts into.
// CPU reference: std::stable_sort on the keys; parity: tests/render
// (tst_render_character).
#ifndef SUBGROUP_SIZE
#error "built once per subgroup size: glslc -DSUBGROUP_SIZE=8|16|32"
#endif
layout(local_size_x = kSortGroupSize) in;

const uint kLanes = SUBGROUP_SIZE;
const uint kWarps = kSortGroupSize / kLanes;
#ifdef ONESWEEP_WIDE
const uint kKeys = kOneSweepWideKeysPerThread;
#else
const uint kKeys = kOneSweepKeysPerThread;
#endif
const uint kTileKeys = kSortGroupSize * kKeys;

layout(std430, binding = kOneSweepCount) readonly buffer Count { uint countFromGpu; };
layout(std430, binding = kOneSweepKeysIn) readonly buffer KeysIn { uint keysIn[]; };
layout(std430, binding = kOneSweepValuesIn) readonly buffer ValuesIn { uint valuesIn[]; };
layout(std430, binding = kOneSweepHist) readonly buffer Hist { uint hist[]; };
layout(std430, binding = kOneSweepHistNext) writeonly buffer HistNext { uint histNext[]; };  // the next sort's
layout(std430, binding = kOneSweepTileCounters) buffer TileCounters { uint tileCounters[]; };
layout(std430, binding = kOneSweepStatus) buffer Status { uint status[]; };
layout(std430, binding = kOneSweepStatusNext) writeonly buffer StatusNext { uint statusNext[]; };
layout(std430, binding = kOneSweepKeysOut) writeonly buffer KeysOut { uint keysOut[]; };
layout(std430, binding = kOneSweepValuesOut) writeonly buffer ValuesOut { uint valuesOut[]; };

shared uint warpCounts[kWarps * 256u];  // per subgroup and digit: keys so far, then the subgroup's start in the digit
shared uint digitStart[256];            // where each digit starts in the ranked tile
shared uint toGlobal[256];              // a digit's output position minus its position in the tile (mod 2^32)
shared uint scanSums[kWarps];
shared uint stagedKeys[kTileKeys];  // the ranked tile's keys (wide tiles: then its values)
#ifndef ONESWEEP_WIDE
shared uint stagedValues[kTileKeys];
#endif
shared uint claimed;

uint digitOf(uint key)
{
    return (key >> (8u * params.pass)) & 255u;
}

// Exclusive scan of one value per invocation, in (subgroup, lane) order.
uint exclusiveScan(uint value, uint warp, uint lane)
{
    uint inclusive = subgroupInclusiveAdd(value);
    if (lane == kLanes - 1u)
        scanSums[warp] = inclusive;
    barrier();
    uint before = 0u;
    for (uint w = 0u; w < warp; ++w)
        before += scanSums[w];
    barrier();  // scanSums is free for the next scan
    return before + inclusive - value;
}

// The digit's keys in the tiles before `tile`: walk back until a tile that
// has published its inclusive prefix, adding the counts of those that have
// published only their own. kLookBackWindow earlier tiles are read at once,
// so a walk waits for memory once per window: the tiles that start together
// would otherwise walk back one read's latency per tile, the first wave of
// a pass hundreds of tiles deep. Windows of 1, 2, 4, 8, 16 and 32 tiles took
// 0.095, 0.088, 0.087, 0.089, 0.095 and 0.110 ms for the passes over 1M
// 32-bit pairs on the H200: a wider window costs more reads than it saves.
const uint kLookBackWindow = 4u;

uint statusOf(uint tile, uint digit)
{
    // An atomic read-modify-write, not a load: lavapipe (Mesa 22.3) returned
    // wrong words through plain coherent loads and relaxed atomicLoad here
    // (the parity rows failed under LP_NUM_THREADS=4); on the H200 the two
    // measured within 2% of each other.
    return atomicOr(status[tile * 256u + digit], 0u);
}

uint lookBack(uint tile, uint digit)
{
    uint earlier = 0u;
    uint next = tile;  // the tiles before it are still to be added
    bool found = false;
    // No break or return inside these loops: lanes leave them at different
    // iterations, and lavapipe (Mesa 22.3) let some lanes go on with a
    // partial sum after a return from inside the loop (tst_render_character's
    // one-sweep rows under LP_NUM_THREADS=4).
    while (!found) {
        uint words[kLookBackWindow];
        [[unroll]] for (uint w = 0u; w < kLookBackWindow; ++w)
            words[w] = next > w ? statusOf(next - 1u - w, digit) : 0u;
        bool blocked = false;  // a tile that has published nothing yet: read again from there
        uint taken = 0u;
        [[unroll]] for (uint w = 0u; w < kLookBackWindow; ++w) {
            uint word = words[w];
            bool usable = !found && !blocked && (word & (kOneSweepPrefix | kOneSweepAggregate)) != 0u;
            blocked = blocked || (!found && !usable);
            if (usable) {
                earlier += word & kOneSweepValueMask;
                ++taken;
                found = (word & kOneSweepPrefix) != 0u;
            }
        }
        next -= taken;
    }
    return earlier;
}

// Where a ranked key goes in the staged tile: where its digit starts there,
// plus the digit's keys in the earlier subgroups, plus its rank among its
// own subgroup's keys of that digit.
uint stagedAt(uint key, uint rank, uint warp)
{
    uint d = digitOf(key);
    return rank + digitStart[d] + warpCounts[warp * 256u + d];
}

#ifdef ONESWEEP_WIDE
void writeTile(uint key[kKeys], uint value[kKeys], uint rank[kKeys], uint warpBase, uint warp, uint lane, uint me,
               uint count, uint inTile)
{
    uint at[kKeys], dest[kKeys];
    [[unroll]] for (uint k = 0u; k < kKeys; ++k) {
        at[k] = stagedAt(key[k], rank[k], warp);
        if (warpBase + k * kLanes + lane < count)
            stagedKeys[at[k]] = key[k];
    }
    barrier();
    [[unroll]] for (uint k = 0u; k < kKeys; ++k) {
        uint s = k * kSortGroupSize + me;
        dest[k] = 0u;
        if (s < inTile) {
            uint sorted = stagedKeys[s];
            dest[k] = toGlobal[digitOf(sorted)] + s;
            keysOut[dest[k]] = sorted;
        }
    }
    barrier();  // every key read out before the values take their places
    [[unroll]] for (uint k = 0u; k < kKeys; ++k) {
        if (warpBase + k * kLanes + lane < count)
            stagedKeys[at[k]] = value[k];
    }
    barrier();
    [[unroll]] for (uint k = 0u; k < kKeys; ++k) {
        uint s = k * kSortGroupSize + me;
        if (s < inTile)
            valuesOut[dest[k]] = stagedKeys[s];
    }
}
#else
void writeTile(uint key[kKeys], uint value[kKeys], uint rank[kKeys], uint warpBase, uint warp, uint lane, uint me,
               uint count, uint inTile)
{
    [[unroll]] for (uint k = 0u; k < kKeys; ++k) {
        if (warpBase + k * kLanes + lane < count) {
            uint at = stagedAt(key[k], rank[k], warp);
            stagedKeys[at] = key[k];
            stagedValues[at] = value[k];
        }
    }
    barrier();
    [[unroll]] for (uint k = 0u; k < kKeys; ++k) {
        uint s = k * kSortGroupSize + me;
        if (s < inTile) {
            uint sorted = stagedKeys[s];
            uint dest = toGlobal[digitOf(sorted)] + s;
            keysOut[dest] = sorted;
            valuesOut[dest] = stagedValues[s];
        }
    }
}
#endif

void main()
{
    uint warp = gl_SubgroupID, lane = gl_SubgroupInvocationID;
    uint me = warp * kLanes + lane;  // the digit this invocation scans and looks back for
    uint count = params.countOnGpu != 0u ? min(params.capacity, countFromGpu) : params.capacity;
    if (me == 0u)
        claimed = atomicAdd(tileCounters[params.pass], 1u);
    for (uint i = me; i < kWarps * 256u; i += kSortGroupSize)
        warpCounts[i] = 0u;
    barrier();
    uint tile = claimed;
    // Every pass has a tile 0 (even with no keys), and no kernel of this sort
    // reads the next sort's counts.
    if (tile == 0u && params.pass + 1u == params.passes) {
        for (uint i = me; i < kOneSweepHistWords; i += kSortGroupSize)
            histNext[i] = 0u;
    }
    uint base = tile * kTileKeys;
    if (base >= count)
        return;  // uniform per workgroup
    statusNext[tile * 256u + me] = 0u;

    // 2. Rank.
    uint warpBase = base + warp * (kLanes * kKeys);
    // The values are loaded with the keys, so their reads overlap the ranking
    // and the look-back (1.09 against 1.20 ms for 16M 32-bit pairs on the
    // H200), not after them.
    uint key[kKeys], rank[kKeys], value[kKeys];
    [[unroll]] for (uint k = 0u; k < kKeys; ++k) {
        uint i = warpBase + k * kLanes + lane;
        key[k] = i < count ? keysIn[i] : 0u;
        value[k] = i < count ? valuesIn[i] : 0u;
    }
    uint lowerLanes = gl_SubgroupLtMask.x;
    [[unroll]] for (uint k = 0u; k < kKeys; ++k) {
        bool valid = warpBase + k * kLanes + lane < count;
        uint d = digitOf(key[k]);
        uint match = subgroupBallot(valid).x;
        [[unroll]] for (uint b = 0u; b < 8u; ++b) {
            bool set = ((d >> b) & 1u) != 0u;
            uint vote = subgroupBallot(set).x;
            match &= set ? vote : ~vote;
        }
        // The digit's last lane moves the subgroup's count on (an atomic, so
        // no barrier orders it against the next round) and hands the count
        // before it to the digit's other lanes.
        uint leader = valid ? uint(findMSB(match)) : lane;
        uint old = 0u;
        if (valid && lane == leader)
            old = atomicAdd(warpCounts[warp * 256u + d], uint(bitCount(match)));
        rank[k] = subgroupShuffle(old, leader) + uint(bitCount(match & lowerLanes));
    }
    barrier();

    // 3. Per digit: subgroup starts, the tile's count, the look-back.
    uint total = 0u;
    [[unroll]] for (uint w = 0u; w < kWarps; ++w) {
        uint c = warpCounts[w * 256u + me];
        warpCounts[w * 256u + me] = total;
        total += c;
    }
    uint statusAt = tile * 256u + me;
    atomicExchange(status[statusAt], (tile == 0u ? kOneSweepPrefix : kOneSweepAggregate) | total);
    uint localStart = exclusiveScan(total, warp, lane);
    uint globalStart = exclusiveScan(hist[params.pass * 256u + me], warp, lane);
    uint earlier = 0u;
    if (tile > 0u) {
        earlier = lookBack(tile, me);
        atomicExchange(status[statusAt], kOneSweepPrefix | (earlier + total));
    }
    digitStart[me] = localStart;
    toGlobal[me] = globalStart + earlier - localStart;
    barrier();

    // 4. Keys and values, through shared memory in output order.
    writeTile(key, value, rank, warpBase, warp, lane, me, count, min(kTileKeys, count - base));
}
