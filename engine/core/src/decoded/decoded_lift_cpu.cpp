#include "riglens/core/decoded/decoded_lift_cpu.h"

#include <algorithm>

namespace riglens::core {

DecodedLiftCpu::DecodedLiftCpu(std::vector<BranchLiftSpec> branches, std::uint32_t capacity)
    : m_sink(std::make_shared<SplatSink>(capacity)) {
  for (auto& spec : branches) m_branches.push_back({std::move(spec), nullptr, nullptr, {}, {}, false, false, false});
  for (std::size_t slot = 0; slot < m_sink->capacity(); ++slot) clearSinkSlot(*m_sink, slot);
}

Expected<void> DecodedLiftCpu::setOutputs(const DecodedOutputs& out, bool verticesChanged) {
  if (auto fits = checkDecodedOutputs(
          out, m_branches.size(), [&](std::size_t i) -> const auto& { return m_branches[i].spec; });
      !fits)
    return fits;
  const bool newGeometry = out.geometryId != m_geometryId;
  m_geometryId = out.geometryId;
  for (std::size_t i = 0; i < m_branches.size(); ++i) {
    Branch& b = m_branches[i];
    if (out.geom[i] && (newGeometry || !b.geom)) {
      b.geom = out.geom[i];
      b.run1 = true;
    }
    if (out.color[i]) b.color = out.color[i];
    if (verticesChanged && b.spec.rigged) b.run1 = true;
    b.run1 = b.run1 && b.geom;
    b.run2 = (b.run2 || b.run1 || out.color[i]) && b.geom && b.color;
  }
  return {};
}

Expected<void> DecodedLiftCpu::setBranchVertices(std::size_t branch, std::span<const float> vertices) {
  if (branch >= m_branches.size() || !m_branches[branch].spec.shell)
    return makeError(ErrorCode::Usage, "branch " + std::to_string(branch) + " has no vertices of its own");
  Branch& b = m_branches[branch];
  if (vertices.size() != b.spec.mesh->vertexCount * 3)
    return makeError(ErrorCode::Invalid, b.spec.name + ": " + std::to_string(vertices.size() / 3) +
                                             " vertices for a mesh of " + std::to_string(b.spec.mesh->vertexCount));
  b.ownVertices.assign(vertices.begin(), vertices.end());
  b.run1 = b.geom != nullptr;
  b.run2 = b.run2 || (b.run1 && b.color);
  return {};
}

void DecodedLiftCpu::setRootOffset(glm::vec3 offset) {
  if (offset == m_root) return;
  m_root = offset;
  restageAll();
}

void DecodedLiftCpu::setHiddenBranches(const std::vector<std::string>& names) {
  for (auto& b : m_branches) {
    const bool hidden = std::find(names.begin(), names.end(), b.spec.name) != names.end();
    if (hidden == b.hidden) continue;
    b.hidden = hidden;
    b.run2 = b.geom && b.color;
  }
}

void DecodedLiftCpu::restageAll() {
  for (auto& b : m_branches) b.run2 = b.geom && b.color;
}

// The vertices pass 1 reads, as the GPU lift binds them: the rig's posed
// output for a skinned branch, a shell's own once posed (its rest before),
// else the mesh's neutral; a rigged branch's through its calibration.
std::vector<float> DecodedLiftCpu::liftVertices(const Branch& b, std::span<const float> rigPosed) const {
  const BranchMesh& mesh = *b.spec.mesh;
  std::vector<float> v;
  if (b.spec.shell)
    v = b.ownVertices.empty() ? b.spec.shell->rest : b.ownVertices;
  else if (b.spec.rigged && rigPosed.size() == mesh.neutral.size())
    v.assign(rigPosed.begin(), rigPosed.end());
  else
    v = mesh.neutral;
  if (b.spec.rigged) applyVertexTransform(v, b.spec.transform);
  return v;
}

std::vector<DecodedLiftCpu::Array> DecodedLiftCpu::arrays() const {
  std::vector<Array> list;
  for (const Branch& b : m_branches) list.push_back({b.spec.name + " lift texels", b.texels.size() * sizeof(float)});
  const std::size_t n = m_sink->capacity();
  list.push_back({"sink centres", n * 16});
  list.push_back({"sink covariance A", n * 16});
  list.push_back({"sink covariance B", n * 16});
  list.push_back({"sink colours", n * 4});
  return list;
}

void DecodedLiftCpu::run(std::span<const float> rigPosed) {
  for (auto& b : m_branches) {
    if (b.run1) {
      b.texels = liftPass1(*b.geom, liftVertices(b, rigPosed), *b.spec.mesh, b.spec.scale);
      ++m_pass1Runs;
    }
    b.run1 = false;
  }
  for (auto& b : m_branches) {
    if (!b.run2) continue;
    b.run2 = false;
    ++m_pass2Runs;
    const LiftPlacement& at = b.spec.placement;
    if (b.hidden) {
      const std::size_t end = std::min<std::size_t>(std::size_t(at.slotOffset) + at.slotCount, m_sink->capacity());
      for (std::size_t slot = at.slotOffset; slot < end; ++slot) clearSinkSlot(*m_sink, slot);
      continue;
    }
    LiftPlacement placed = at;
    placed.worldOffset += m_root;  // the body's root moves every branch
    liftPass2(b.texels, *b.color, b.spec.mesh->uvRes, placed, nullptr, *m_sink);
  }
}

}  // namespace riglens::core
