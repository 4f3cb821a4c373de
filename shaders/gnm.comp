#version 440
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require
#define RIGLENS_WANT_GNM
#include "shader_interface.h"
// GNM on the GPU: expression + gaze + neck seam + 4-influence LBS, metres.
// CPU reference: engine/core gnm.h (gnmPose); parity: tests/render.
// Interface: shader_interface.h.
//
// Two ways through the expression term, chosen per frame by the CPU:
// - sparse (few active coefficients): one invocation per vertex walks the
//   active list, reading 3 halves per coefficient;
// - dense (kGnmDenseFlag): kGnmLanesPerVertex invocations share a vertex's
//   basis row, each reading every 8th uvec4 (8 halves, one wide load; the
//   group's loads are contiguous), scaled per lane from a table in shared
//   memory (zero for inactive coefficients), accumulated in fp32 and
//   summed through shared memory (no subgroup operations: Qt 6.4's qsb
//   compiles none). Each invocation does this for kGnmRowsPerInvocation
//   rows at once. The row is read once, at the memory's bandwidth.
// Gaze, seam and skinning follow in the same pass.
// One build per workgroup size (GNM_GROUP_SIZE): the CPU picks the size whose
// groups spread the rows most evenly over the device's multiprocessors
// (engine/render/include/riglens/render/character/gnm_launch.h).
#ifndef GNM_GROUP_SIZE
#error "built once per workgroup size: -DGNM_GROUP_SIZE=<one of kGnmGroupSizes>"
#endif
const uint kGroup = GNM_GROUP_SIZE;
layout(local_size_x = GNM_GROUP_SIZE) in;

struct Active { uint index; float scale; };

layout(std430, binding = kGnmNeutral) readonly buffer Neutral { float neutral[]; };
layout(std430, binding = kGnmBasis) readonly buffer Basis { uvec4 basis[]; };  // fp16, vertex-major rows of rowLanes
layout(std430, binding = kGnmActives) readonly buffer Actives { Active actives[]; };
layout(std430, binding = kGnmEyeWeights) readonly buffer EyeWeights { float eyeWeights[]; };  // (2, V)
layout(std430, binding = kGnmStitch) readonly buffer Stitch { float stitch[]; };
layout(std430, binding = kGnmSkinIndex) readonly buffer SkinIndex { uvec4 skinIndex[]; };
layout(std430, binding = kGnmSkinWeight) readonly buffer SkinWeight { vec4 skinWeight[]; };
layout(std430, binding = kGnmSkin) readonly buffer Skin { mat4 skin[]; };
layout(std430, binding = kGnmPosed) writeonly buffer Posed { float posed[]; };
layout(std430, binding = kGnmLaneScales) readonly buffer LaneScales { float laneScales[]; };  // per half of a row

shared float scales[kGnmMaxDenseLanes];
shared vec3 partial0[kGroup], partial1[kGroup];  // rows v0, v1

float basisLane(uint lane)
{
    uvec4 q = basis[lane >> 3];
    uint word = (lane >> 1) & 3u;
    uint bits = word == 0u ? q.x : word == 1u ? q.y : word == 2u ? q.z : q.w;
    vec2 pair = unpackHalf2x16(bits);
    return (lane & 1u) == 0u ? pair.x : pair.y;
}

// What the rest of the vertex reads besides its expression term (gaze,
// seam, skinning), loaded before the basis rows so that its latency overlaps
// theirs instead of following the reduction: the dense kernel 0.02162 ->
// 0.02128 ms on the H200 (V 17,821, E 383), same sitting.
struct VertexInputs {
    vec3 neutral;
    vec2 eyeWeight;  // zero where that eye's gaze is off
    vec3 stitch;     // read where the seam is stitched
    uvec4 joints;
    vec4 weights;
};

VertexInputs loadVertexInputs(uint v)
{
    VertexInputs in_;
    in_.neutral = vec3(neutral[3u * v], neutral[3u * v + 1u], neutral[3u * v + 2u]);
    in_.eyeWeight = vec2((params.flags & kGnmGazeLeftFlag) != 0u ? eyeWeights[v] : 0.0,
                         (params.flags & kGnmGazeRightFlag) != 0u ? eyeWeights[params.vertexCount + v] : 0.0);
    if ((params.flags & kGnmStitchFlag) != 0u)
        in_.stitch = vec3(stitch[3u * v], stitch[3u * v + 1u], stitch[3u * v + 2u]);
    in_.joints = skinIndex[v];
    in_.weights = skinWeight[v];
    return in_;
}

// The rest of the vertex after the expression term.
void finish(uint v, VertexInputs in_, vec3 expression)
{
    vec3 p = in_.neutral + expression;
    for (int e = 0; e < 2; ++e) {
        float w = in_.eyeWeight[e];
        if (w == 0.0)
            continue;
        vec3 d = p - params.eyePos[e].xyz;
        p += w * (mat3(params.eyeRot[e]) * d - d);
    }
    if ((params.flags & kGnmStitchFlag) != 0u)
        p += in_.stitch;
    uvec4 j = in_.joints;
    vec4 w = in_.weights;
    vec4 src = vec4(p, 1.0);
    vec4 outp = w.x * (skin[j.x] * src) + w.y * (skin[j.y] * src) + w.z * (skin[j.z] * src) + w.w * (skin[j.w] * src);
    posed[3u * v] = outp.x;
    posed[3u * v + 1u] = outp.y;
    posed[3u * v + 2u] = outp.z;
}

void sparse()
{
    uint v = gl_GlobalInvocationID.x;
    if (v >= params.vertexCount)
        return;
    VertexInputs in_ = loadVertexInputs(v);
    vec3 acc = vec3(0.0);
    uint row = v * params.rowLanes;
    for (uint a = 0u; a < params.activeCount; ++a) {
        uint lane = row + actives[a].index * 3u;
        acc += actives[a].scale * vec3(basisLane(lane), basisLane(lane + 1u), basisLane(lane + 2u));
    }
    finish(v, in_, acc);
}

// Lanes l0 .. l0 + 7 of a row weighted by their scales (lo: l0 .. l0 + 3,
// hi: l0 + 4 .. l0 + 7) and summed by j % 3 (lane l0 + j). Which of x, y, z
// each sum belongs to depends on l0 % 3; rotated() applies that once per
// invocation rather than once per quad.
vec3 unrotatedQuad(uvec4 h, vec4 lo, vec4 hi)
{
    vec2 a = unpackHalf2x16(h.x), b = unpackHalf2x16(h.y), c = unpackHalf2x16(h.z), d = unpackHalf2x16(h.w);
    return vec3(a.x * lo.x + b.y * lo.w + d.x * hi.z, a.y * lo.y + c.x * hi.x + d.y * hi.w, b.x * lo.z + c.y * hi.y);
}

vec3 rotated(vec3 r, uint phase)
{
    return phase == 0u ? r : phase == 1u ? r.zxy : r.yzx;
}

// A multiple of 3: the quads an invocation reads in one batch, u = 0 .. 5,
// are kGnmLanesPerVertex apart, so quad q = sub + 8 (u + 6 n) starts at
// lane 8q, whose component (8q) % 3 = (2 sub + u) % 3 does not depend on n.
// sums0/1[k] gather the quads with u % 3 == k. Six wide loads are issued
// before any is used, so an invocation waits for memory about once per
// batch (a row is 18 loads a lane at 383 coefficients).
const uint kGnmLoadsInFlight = 6u;

// A group covers kGnmRowsPerInvocation * slots vertices: slot s holds
// vertices s and s + slots; its invocation `sub` reads every
// kGnmLanesPerVertex-th quad of both rows from `sub`, lane 0 then finishes
// the first vertex, lane 1 the second. Two rows an invocation: each scale
// read from shared memory weighs both. On the H200 (V 17,821, E 383, same
// sittings): 0.02104 -> 0.0195-0.0197 ms; the rotation once per invocation
// alone gave 0.0206. Slower: three or nine loads in flight (0.0197,
// 0.0204), the loop in a helper with out parameters (0.0197), the first
// batch issued before the scales are in (0.0205), and any two-dimensional
// array (0.0217 for the partial sums; four rows so written 0.0226-0.0234).
void dense()
{
    uint lid = gl_LocalInvocationID.x;
    for (uint l = lid; l < params.rowLanes; l += kGroup)
        scales[l] = laneScales[l];
    barrier();
    const uint slots = kGroup / kGnmLanesPerVertex;
    uint v0 = gl_WorkGroupID.x * kGnmRowsPerInvocation * slots + lid / kGnmLanesPerVertex, v1 = v0 + slots;
    uint sub = lid % kGnmLanesPerVertex;
    uint mine = sub == 0u ? v0 : v1;
    bool finishes = sub < kGnmRowsPerInvocation && mine < params.vertexCount;
    VertexInputs in_;
    if (finishes)
        in_ = loadVertexInputs(mine);
    vec3 sums0[3] = vec3[3](vec3(0.0), vec3(0.0), vec3(0.0));
    vec3 sums1[3] = vec3[3](vec3(0.0), vec3(0.0), vec3(0.0));
    bool has0 = v0 < params.vertexCount, has1 = v1 < params.vertexCount;
    uint quads = params.rowLanes / 8u, row0 = v0 * quads, row1 = v1 * quads;
    if (has0) {
        for (uint first = sub; first < quads; first += kGnmLoadsInFlight * kGnmLanesPerVertex) {
            uvec4 h0[kGnmLoadsInFlight], h1[kGnmLoadsInFlight];
            [[unroll]] for (uint u = 0u; u < kGnmLoadsInFlight; ++u) {
                uint q = first + u * kGnmLanesPerVertex;
                h0[u] = q < quads ? basis[row0 + q] : uvec4(0u);
                h1[u] = q < quads && has1 ? basis[row1 + q] : uvec4(0u);
            }
            [[unroll]] for (uint u = 0u; u < kGnmLoadsInFlight; ++u) {
                uint q = first + u * kGnmLanesPerVertex, l0 = q * 8u;
                if (q < quads) {
                    vec4 lo = vec4(scales[l0], scales[l0 + 1u], scales[l0 + 2u], scales[l0 + 3u]);
                    vec4 hi = vec4(scales[l0 + 4u], scales[l0 + 5u], scales[l0 + 6u], scales[l0 + 7u]);
                    sums0[u % 3u] += unrotatedQuad(h0[u], lo, hi);
                    sums1[u % 3u] += unrotatedQuad(h1[u], lo, hi);
                }
            }
        }
    }
    vec3 x0 = vec3(0.0), x1 = vec3(0.0);
    [[unroll]] for (uint k = 0u; k < 3u; ++k) {
        x0 += rotated(sums0[k], (2u * sub + k) % 3u);
        x1 += rotated(sums1[k], (2u * sub + k) % 3u);
    }
    partial0[lid] = x0;
    partial1[lid] = x1;
    barrier();
    if (!finishes)
        return;
    uint slotStart = lid - sub;
    vec3 sum = vec3(0.0);
    for (uint k = 0u; k < kGnmLanesPerVertex; ++k)
        sum += sub == 0u ? partial0[slotStart + k] : partial1[slotStart + k];
    finish(mine, in_, sum);
}

void main()
{
    if ((params.flags & kGnmDenseFlag) != 0u)
        dense();
    else
        sparse();
}
