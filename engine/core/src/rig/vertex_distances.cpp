#include "riglens/core/rig/vertex_distances.h"

#include <algorithm>
#include <cmath>

#include "riglens/core/rig/posed_meshes.h"

namespace riglens::core {

namespace {

// The distance of each vertex and their max and mean, summed in double so a
// part of millions of vertices keeps the mean's digits.
void measure(const PartMesh& a, const PartMesh& b, PartDistances& out) {
  const std::size_t n = a.positions.size() / 3;
  out.perVertex.resize(n);
  double sum = 0.0;
  for (std::size_t v = 0; v < n; ++v) {
    const double dx = double(a.positions[3 * v]) - double(b.positions[3 * v]);
    const double dy = double(a.positions[3 * v + 1]) - double(b.positions[3 * v + 1]);
    const double dz = double(a.positions[3 * v + 2]) - double(b.positions[3 * v + 2]);
    const double length = std::sqrt(dx * dx + dy * dy + dz * dz);
    out.perVertex[v] = float(length);
    out.max = std::max(out.max, length);
    sum += length;
  }
  out.mean = n ? sum / double(n) : 0.0;
}

int findMatchedPart(const LoadedRun& run, const std::string& name) {
  for (std::size_t p = 0; p < run.rig.parts().size(); ++p)
    if (matchedPartName(run, p) == name) return int(p);
  return kNoIndex;
}

}  // namespace

std::string matchedPartName(const LoadedRun& run, std::size_t part) {
  const bool model =
      (run.kind == RunKind::StaticMesh || run.kind == RunKind::SkinnedMesh) && run.rig.parts().size() == 1;
  return model ? std::string("(the model)") : run.rig.parts()[part].name;
}

std::vector<PartDistances> posedVertexDistances(const PosedRun& a, const PosedRun& b) {
  const std::vector<PartMesh> ma = posedPartMeshes(a.run, a.controller.partWorlds());
  const std::vector<PartMesh> mb = posedPartMeshes(b.run, b.controller.partWorlds());
  const auto& partsB = b.run.rig.parts();
  std::vector<PartDistances> out;
  for (std::size_t pb = 0; pb < mb.size() && pb < partsB.size(); ++pb) {
    const int pa = findMatchedPart(a.run, matchedPartName(b.run, pb));
    if (pa == kNoIndex || std::size_t(pa) >= ma.size()) continue;
    const PartMesh& meshA = ma[std::size_t(pa)];
    const PartMesh& meshB = mb[pb];
    PartDistances part;
    part.part = partsB[pb].name;
    part.partA = pa;
    part.partB = int(pb);
    part.trianglesA = meshA.triangleCount();
    part.trianglesB = meshB.triangleCount();
    part.topologyMatches = meshA.positions.size() == meshB.positions.size() && meshA.indices == meshB.indices;
    if (part.topologyMatches) measure(meshA, meshB, part);
    out.push_back(std::move(part));
  }
  return out;
}

}  // namespace riglens::core
