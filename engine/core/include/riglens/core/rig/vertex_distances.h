// How far each vertex of one version of a run lies from the same vertex of
// another, both posed: what `riglens-cli compare` sums per part and what the
// viewer's compare overlay colours. Parts are matched by name; a part's
// vertices are compared one to one only where its topology matches (the
// same vertex count and the same triangles), since nothing else says which
// vertex of one is which of the other. Qt-free.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "riglens/core/rig/rig_controller.h"
#include "riglens/core/rig/run_loader.h"

namespace riglens::core {

struct PosedRun {
  const LoadedRun& run;
  const RigController& controller;  // evaluated: its part worlds are the pose compared
};

struct PartDistances {
  std::string part;
  int partA = -1, partB = -1;  // the part's index in each run
  std::size_t trianglesA = 0, trianglesB = 0;
  bool topologyMatches = false;
  // Per vertex of the part (in B's vertex order, which matching topology
  // makes A's), the distance in the runs' length unit; empty when the
  // topology differs.
  std::vector<float> perVertex;
  double max = 0.0, mean = 0.0;  // over perVertex, in double
};

// The name a part is matched by: its own, except a model opened by itself
// (one rig part, named after its file: tank.glb's "tank", tank-v2.glb's
// "tank-v2"), whose one part is the model whatever the file is called.
std::string matchedPartName(const LoadedRun& run, std::size_t part);

// Every part the two runs share, in B's part order.
std::vector<PartDistances> posedVertexDistances(const PosedRun& a, const PosedRun& b);

}  // namespace riglens::core
