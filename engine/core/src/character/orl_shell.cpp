#include "riglens/core/character/orl_shell.h"

#include <algorithm>
#include <glm/mat3x3.hpp>

namespace riglens::core {

std::size_t OrlShell::boundVertices() const {
  return std::size_t(std::count_if(joint.begin(), joint.end(), [](int j) { return j >= 0; }));
}

OrlShell bindOrlShell(const OrlPack& pack, std::span<const float> neutral, std::span<const std::uint32_t> faces,
                      const VertexTransform& baseFrame) {
  // v_bundle = M v_rig + o, with M's column i the row i of L (applyVertexTransform's convention).
  glm::dmat3 M(1.0);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) M[i][j] = baseFrame.L[std::size_t(i * 3 + j)];
  const glm::dmat3 toRig = glm::inverse(M);
  OrlShell shell;
  shell.rest.resize(neutral.size());
  for (std::size_t v = 0; v + 2 < neutral.size(); v += 3) {
    const glm::dvec3 p = toRig * (glm::dvec3(neutral[v], neutral[v + 1], neutral[v + 2]) - glm::dvec3(baseFrame.o));
    for (int k = 0; k < 3; ++k) shell.rest[v + std::size_t(k)] = float(p[k]);
  }
  shell.joint = orlShellBinding(pack, shell.rest, faces);
  const auto rest = orlJointWorlds(pack, {});
  shell.restInverse.reserve(rest.size());
  for (const auto& w : rest) shell.restInverse.push_back(glm::inverse(w));
  return shell;
}

std::vector<float> poseOrlShell(const OrlPack& pack, const OrlShell& shell, std::span<const float> jointOutputs) {
  const auto world = orlJointWorlds(pack, jointOutputs);
  std::vector<float> out(shell.rest);
  for (std::size_t v = 0; v < shell.joint.size(); ++v) {
    const int j = shell.joint[v];
    if (j < 0 || std::size_t(j) >= world.size()) continue;
    const glm::dmat4 rigid = world[std::size_t(j)] * shell.restInverse[std::size_t(j)];
    const glm::dvec4 p = rigid * glm::dvec4(out[v * 3], out[v * 3 + 1], out[v * 3 + 2], 1.0);
    for (int k = 0; k < 3; ++k) out[v * 3 + std::size_t(k)] = float(p[k]);
  }
  return out;
}

}  // namespace riglens::core
