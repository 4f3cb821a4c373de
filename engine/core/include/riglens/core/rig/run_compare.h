// Two versions of a run or model compared (`riglens-cli compare`, what a CI
// pipeline gates on): what differs in their structure - parts added or
// removed, joints added, removed or changed (kind, axis, range, rest,
// drive), clips added, removed or changed (duration, looping, autoPlay),
// triangle counts per part - and, posed alike, how far each common part's
// vertices moved: the maximum and mean distance per part where its topology
// matches (same vertex count and triangles), and the posed bounding boxes.
// Qt-free; the facts as JSON.
#pragma once

#include <nlohmann/json.hpp>

#include "riglens/core/rig/vertex_distances.h"

namespace riglens::core {

// {parts: {added, removed, triangles: [{part, a, b}]}, joints: {added,
// removed, changed: [{joint, field, a, b}]}, clips: {added, removed,
// changed: [...]}, bounds: {a: {min, max}, b: {min, max}, cornerDistance},
// distances: [{part, vertices, max, mean} | {part, topology: "differs"}]
// (posedVertexDistances, in B's part order),
// tolerance, differences: ["...", ...] (each a sentence), differs}.
// `differs`: any structural difference, or a distance or a bounds corner
// beyond `tolerance` (the runs' length unit).
nlohmann::json compareRuns(const PosedRun& a, const PosedRun& b, double tolerance);

}  // namespace riglens::core
