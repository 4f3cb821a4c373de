#include "riglens/core/character/gnm.h"

#include <array>
#include <cmath>
#include <thread>

#include "gnm_rows.h"
#include "riglens/core/base/json_reader.h"
#include "riglens/core/character/head_ext.h"

namespace riglens::core {
namespace {

// Active coefficients from 1 / kDenseFraction of them up: the dense path
// (every row read once, whole); fewer: each active coefficient's values from
// the coefficient-major copy (built once, 2 bytes a value more). Measured
// (bench_character, one core): all 383 dense 2.1 ms; 30 by columns 0.15 ms,
// dense 2.1 ms. The crossover (half) is not measured.
constexpr std::size_t kDenseFraction = 2;

// The pack's fp16 basis coefficient-major, built on the first sparse frame
// and kept (AosRigPack::coefficientMajor); rebuilt if the pack now views
// another basis.
const std::vector<std::uint16_t>& coefficientMajor(const AosRigPack& pack) {
  CoefficientMajorBasis& cache = *pack.coefficientMajor;
  const std::lock_guard lock(cache.mutex);
  const std::size_t V = pack.vertexCount, E = pack.coeffCount;
  if (cache.builtFrom != pack.basisHalf.data() || cache.halfs.size() != pack.basisHalf.size()) {
    cache.halfs.resize(pack.basisHalf.size());
    for (std::size_t v = 0; v < V; ++v)
      for (std::size_t c = 0; c < E; ++c)
        for (std::size_t k = 0; k < 3; ++k) cache.halfs[(c * V + v) * 3 + k] = pack.basisHalf[(v * E + c) * 3 + k];
    cache.builtFrom = pack.basisHalf.data();
  }
  return cache.halfs;
}

}  // namespace

glm::dmat4 fromRowMajor(const float* m) {
  glm::dmat4 out;
  for (int r = 0; r < 4; ++r)
    for (int c = 0; c < 4; ++c) out[c][r] = m[r * 4 + c];
  return out;
}

namespace {

// Each eye's rotation (gazeToEyeRotations) applied about its centre to the
// vertices it weighs, left then right, on the positions as they are.
void applyGaze(const AosRigPack& pack, std::span<const float, 4> gaze, std::vector<float>& p) {
  const std::size_t V = pack.vertexCount;
  const auto rotations = gazeToEyeRotations(gaze);
  for (int e = 0; e < 2; ++e) {
    if (gaze[std::size_t(2 * e)] == 0.0f && gaze[std::size_t(2 * e + 1)] == 0.0f) continue;
    const glm::dmat3 r = glm::mat3_cast(rotations[std::size_t(e)]);
    const glm::dvec3 eye(pack.eyePositions[std::size_t(e * 3)], pack.eyePositions[std::size_t(e * 3 + 1)],
                         pack.eyePositions[std::size_t(e * 3 + 2)]);
    for (std::size_t v = 0; v < V; ++v) {
      const float w = pack.eyeWeights[std::size_t(e) * V + v];
      if (w == 0.0f) continue;
      const glm::dvec3 d = glm::dvec3(p[v * 3], p[v * 3 + 1], p[v * 3 + 2]) - eye;
      const glm::dvec3 delta = double(w) * (r * d - d);
      p[v * 3] += float(delta.x);
      p[v * 3 + 1] += float(delta.y);
      p[v * 3 + 2] += float(delta.z);
    }
  }
}

}  // namespace

Expected<std::vector<float>> gnmForward(const AosRigPack& pack, std::span<const float> headExt, unsigned threads) {
  const HeadExtLayout& layout = pack.headExt;
  auto padded = paddedHeadExt(headExt, layout);
  if (!padded) return padded.error();
  const std::vector<float>& controls = *padded;

  const std::size_t V = pack.vertexCount, E = pack.coeffCount;
  // A pack is parsed whole, but callers may build or edit one: never read past the basis.
  const std::size_t basisSize = pack.basisI8.empty() ? pack.basisHalf.size() : pack.basisI8.size();
  if (basisSize != V * E * 3 || pack.neutral.size() != V * 3 || pack.basisScale.size() != E)
    return makeError(ErrorCode::Usage, "the pack's basis holds " + std::to_string(basisSize) +
                                           " values where V*E*3 = " + std::to_string(V * E * 3) +
                                           " are needed (fp16 or i8)");
  // 1. expression over the active coefficients only.
  std::vector<std::pair<std::size_t, float>> active;
  for (std::size_t c = 0; c < E; ++c)
    if (controls[c] != 0.0f) active.emplace_back(c, controls[c] * pack.basisScale[c]);
  std::vector<float> p(pack.neutral.data(), pack.neutral.data() + V * 3);
  if (!active.empty()) {
    const bool half = pack.basisI8.empty();
    // Most coefficients active: every fp16 row read once, whole (gnm_rows.h);
    // a few: only theirs.
    const bool dense = half && active.size() * kDenseFraction >= E;
    std::vector<float> scale3;
    if (dense) {
      scale3.assign(E * 3, 0.0f);
      for (const auto& [c, s] : active) scale3[c * 3] = scale3[c * 3 + 1] = scale3[c * 3 + 2] = s;
    }
    const std::vector<std::uint16_t>* columns = half && !dense ? &coefficientMajor(pack) : nullptr;
    const auto range = [&](std::size_t from, std::size_t to) {
      if (dense) return addExpressionRows(pack.basisHalf.data(), E * 3, scale3.data(), from, to, p.data());
      if (columns) {  // each active coefficient's values for these vertices: contiguous
        for (const auto& [c, s] : active)
          addScaledColumn(columns->data() + c * V * 3 + from * 3, s, (to - from) * 3, p.data() + from * 3);
        return;
      }
      for (std::size_t v = from; v < to; ++v) {  // an i8 basis: only the active coefficients
        float x = 0, y = 0, z = 0;
        const std::size_t row = v * E * 3;
        for (const auto& [c, s] : active) {
          const std::size_t i = row + c * 3;
          x += s * float(pack.basisI8[i]);
          y += s * float(pack.basisI8[i + 1]);
          z += s * float(pack.basisI8[i + 2]);
        }
        p[v * 3] += x;
        p[v * 3 + 1] += y;
        p[v * 3 + 2] += z;
      }
    };
    if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
    threads = unsigned(std::min<std::size_t>(threads, std::max<std::size_t>(1, V / 1024)));
    if (threads <= 1) {
      range(0, V);
    } else {  // each worker owns a contiguous vertex range: no sharing, same sums
      // The calling thread takes the first range: one thread fewer to start.
      std::vector<std::thread> workers;
      for (unsigned t = 1; t < threads; ++t) workers.emplace_back(range, V * t / threads, V * (t + 1) / threads);
      range(0, V / threads);
      for (auto& w : workers) w.join();
    }
  }
  // 2. gaze: left then right, each on the updated positions.
  if (layout.gazeDim >= 4) applyGaze(pack, std::span<const float, 4>(controls.data() + layout.exprDim, 4), p);
  return p;
}

GnmJointState::GnmJointState(const AosRigPack& pack) : m_pack(pack) {
  for (std::size_t j = 0; j < pack.joints.size(); ++j) m_rest.push_back(fromRowMajor(pack.restWorld.data() + j * 16));
  m_worlds = m_rest;
}

Expected<void> GnmJointState::setJointWorlds(std::span<const float> rowMajor) {
  if (rowMajor.size() != m_rest.size() * 16)
    return makeError(ErrorCode::Usage, "joint worlds: " + std::to_string(rowMajor.size()) + " numbers, expected " +
                                           std::to_string(m_rest.size() * 16) + " (J row-major 4x4)");
  for (float f : rowMajor)
    if (!std::isfinite(f)) return makeError(ErrorCode::Usage, "joint worlds hold a non-finite value");
  for (std::size_t j = 0; j < m_rest.size(); ++j) m_worlds[j] = fromRowMajor(rowMajor.data() + j * 16);
  return {};
}

void GnmJointState::setJointOverrides(const std::vector<std::pair<std::string, glm::dquat>>& overrides) {
  const std::size_t J = m_rest.size();
  std::vector<glm::dmat4> local(J);
  for (std::size_t j = 0; j < J; ++j) {
    const int parent = m_pack.joints[j].parent;
    local[j] = parent < 0 ? m_rest[j] : glm::inverse(m_rest[std::size_t(parent)]) * m_rest[j];
  }
  for (const auto& [name, q] : overrides) {
    for (std::size_t j = 0; j < J; ++j) {
      if (m_pack.joints[j].name != name) continue;
      const glm::dmat3 rotated = glm::dmat3(local[j]) * glm::mat3_cast(glm::normalize(q));
      for (int c = 0; c < 3; ++c) local[j][c] = glm::dvec4(rotated[c], 0.0);  // translation (column 3) untouched
    }
  }
  // Parent-first: parents may come after children in the list, so each
  // joint's unresolved ancestors are gathered first and finished top-down
  // (a parent cycle ends where it closes: that joint keeps its local).
  enum : char { kTodo, kOnChain, kDone };
  std::vector<char> state(J, kTodo);
  std::vector<std::size_t> chain;
  for (std::size_t j = 0; j < J; ++j) {
    if (state[j] != kTodo) continue;
    chain.assign(1, j);
    state[j] = kOnChain;
    for (int parent = m_pack.joints[j].parent; parent >= 0 && state[std::size_t(parent)] == kTodo;
         parent = m_pack.joints[std::size_t(parent)].parent) {
      chain.push_back(std::size_t(parent));
      state[std::size_t(parent)] = kOnChain;
    }
    for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
      const int parent = m_pack.joints[*it].parent;
      m_worlds[*it] = parent < 0 || state[std::size_t(parent)] == kOnChain ? local[*it]
                                                                           : m_worlds[std::size_t(parent)] * local[*it];
      state[*it] = kDone;
    }
  }
}

std::vector<glm::dmat4> GnmJointState::skinMatrices() const {
  std::vector<glm::dmat4> skin(m_rest.size());
  const glm::dmat4 bind(m_pack.bindTransform);
  for (std::size_t j = 0; j < m_rest.size(); ++j) skin[j] = m_worlds[j] * glm::inverse(m_rest[j]) * bind;
  return skin;
}

Expected<std::vector<float>> jointWorldsFromJson(const nlohmann::json& doc, std::size_t jointCount,
                                                 std::string_view source) {
  return guardRead(source, [&] {
    const JsonRef root(doc);
    root.arrayOfSize(jointCount, "row-major 4x4 matrices (one per joint of the pack)");
    std::vector<float> flat;
    flat.reserve(jointCount * 16);
    for (const JsonRef& m : root.elements()) {
      m.arrayOfSize(16, "numbers (a row-major 4x4)");
      for (const JsonRef& x : m.elements()) flat.push_back(x.toFloat());
    }
    return flat;
  });
}

Expected<std::vector<float>> gnmPose(const AosRigPack& pack, std::span<const float> headExt,
                                     const GnmJointState* joints, unsigned threads) {
  auto forward = gnmForward(pack, headExt, threads);
  if (!forward) return forward.error();
  std::vector<float>& p = *forward;
  const std::size_t V = pack.vertexCount;
  if (pack.stitchLocal.size() == V * 3)  // 3. the baked neck seam
    for (std::size_t i = 0; i < V * 3; ++i) p[i] += pack.stitchLocal[i];
  const GnmJointState rest(pack);
  const std::vector<glm::dmat4> skin = (joints ? *joints : rest).skinMatrices();
  std::vector<float> out(V * 3);
  for (std::size_t v = 0; v < V; ++v) {  // 4. four-influence LBS
    const glm::dvec4 src(p[v * 3], p[v * 3 + 1], p[v * 3 + 2], 1.0);
    glm::dvec4 acc(0.0);
    for (int i = 0; i < 4; ++i) {
      const float w = pack.skinWeight[v * 4 + std::size_t(i)];
      if (w != 0.0f) acc += double(w) * (skin[pack.skinIndex[v * 4 + std::size_t(i)]] * src);
    }
    out[v * 3] = float(acc.x);
    out[v * 3 + 1] = float(acc.y);
    out[v * 3 + 2] = float(acc.z);
  }
  return out;
}

}  // namespace riglens::core
