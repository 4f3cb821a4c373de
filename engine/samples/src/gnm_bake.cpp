#include "riglens/samples/gnm_bake.h"

#include <algorithm>
#include <cmath>
#include <random>

#include "riglens/core/base/half_float.h"

namespace riglens::samples {

using namespace core;  // the samples are built from the core types throughout

Expected<std::vector<std::uint8_t>> bakeAosRig(const GnmBake& bake) {
  auto parts = bakeAosRigParts(bake);
  if (!parts) return parts.error();
  return packAosRig(parts->header, parts->blobs);
}

Expected<AosRigParts> bakeAosRigParts(const GnmBake& b) {
  const std::size_t V = b.vertexCount, E = b.coeffCount, J = b.joints.size();
  if (b.neutral.size() != V * 3 || b.basis.size() != V * E * 3 || b.skinIndex.size() != V * 4 ||
      b.skinWeight.size() != V * 4 || b.eyeWeights.size() != 2 * V || b.restWorld.size() != J * 16 ||
      b.faces.size() % 3)
    return makeError(ErrorCode::Usage, "bakeAosRig: array sizes do not match V, E and the joint list");
  nlohmann::ordered_json header;
  header["version"] = 1;
  header["model"] = "gnm";
  header["vertexCount"] = V;
  header["coeffCount"] = E;
  header["maxInfluence"] = 4;
  header["units"] = "m";
  nlohmann::ordered_json regions = nlohmann::ordered_json::array();
  for (const auto& r : b.regions) regions.push_back({r.name, r.count});
  nlohmann::ordered_json headExt{{"dim", E + 4}, {"exprDim", E}, {"gazeDim", 4}, {"regions", regions}};
  if (!b.reduced.empty()) {
    nlohmann::ordered_json reduced = nlohmann::ordered_json::object();
    for (const auto& r : b.reduced) reduced[r.name] = r.count;
    headExt["reduced"] = reduced;
  }
  header["headExt"] = headExt;
  nlohmann::ordered_json joints = nlohmann::ordered_json::array();
  for (const auto& j : b.joints) joints.push_back({{"name", j.name}, {"parent", j.parent}});
  header["joints"] = joints;
  header["eyes"] = {{"names", {b.eyeNames[0], b.eyeNames[1]}}};
  if (b.bindTransform) header["bindTransform"] = *b.bindTransform;
  if (!b.source.empty()) header["source"] = b.source;

  std::vector<AosBlob> blobs;
  blobs.push_back(makeBlob("neutral", DType::F32, {V, 3}, b.neutral));
  std::vector<float> scale(E, 1.0f);
  if (b.basisAsI8) {
    // Per coefficient: the largest |value| maps to 127; dequantisation in basisScale.
    std::vector<std::int8_t> q(b.basis.size());
    for (std::size_t c = 0; c < E; ++c) {
      float peak = 0;
      for (std::size_t v = 0; v < V; ++v)
        for (int k = 0; k < 3; ++k) peak = std::max(peak, std::abs(b.basis[(v * E + c) * 3 + std::size_t(k)]));
      scale[c] = peak > 0 ? peak / 127.0f : 1.0f;
      for (std::size_t v = 0; v < V; ++v)
        for (int k = 0; k < 3; ++k) {
          const std::size_t i = (v * E + c) * 3 + std::size_t(k);
          q[i] = std::int8_t(std::lround(b.basis[i] / scale[c]));
        }
    }
    blobs.push_back(makeBlob("basis", DType::I8, {V, E, 3}, q));
  } else {
    std::vector<std::uint16_t> lanes(b.basis.size() + (b.basis.size() % 2), 0);
    for (std::size_t i = 0; i < b.basis.size(); ++i) lanes[i] = floatToHalf(b.basis[i]);
    AosBlob blob = makeBlob("basis", DType::U32, {lanes.size() / 2}, lanes);
    blobs.push_back(std::move(blob));
  }
  blobs.push_back(makeBlob("basisScale", DType::F32, {E}, scale));
  blobs.push_back(makeBlob("skinIndex", DType::U16, {V, 4}, b.skinIndex));
  std::vector<std::uint16_t> weights(b.skinWeight.size());
  std::transform(b.skinWeight.begin(), b.skinWeight.end(), weights.begin(), floatToHalf);
  blobs.push_back(makeBlob("skinWeight", DType::F16, {V, 4}, weights));
  blobs.push_back(
      makeBlob("eyePositions", DType::F32, {2, 3}, std::vector<float>(b.eyePositions.begin(), b.eyePositions.end())));
  blobs.push_back(makeBlob("eyeWeights", DType::F32, {2, V}, b.eyeWeights));
  blobs.push_back(makeBlob("restWorld", DType::F32, {J, 4, 4}, b.restWorld));
  std::vector<std::int32_t> parents;
  for (const auto& j : b.joints) parents.push_back(j.parent);
  blobs.push_back(makeBlob("jointParents", DType::I32, {J}, parents));
  blobs.push_back(makeBlob("faces", DType::U32, {b.faces.size() / 3, 3}, b.faces));
  if (!b.uv.empty()) blobs.push_back(makeBlob("uv", DType::F32, {V, 2}, b.uv));
  if (!b.stitchLocal.empty()) blobs.push_back(makeBlob("stitchLocal", DType::F32, {V, 3}, b.stitchLocal));
  return AosRigParts{std::move(header), std::move(blobs)};
}

GnmBake syntheticGnmHead(std::size_t V, std::size_t E, unsigned seed) {
  GnmBake b;
  b.vertexCount = V;
  b.coeffCount = E;
  // The shipped layout, trimmed from the end when E is smaller.
  int left = int(E);
  for (const RegionCount& r : std::vector<RegionCount>{
           {"left_eye", 100}, {"right_eye", 100}, {"lower_face", 150}, {"tongue", 32}, {"pupils", 1}}) {
    const int n = std::min(r.count, left);
    if (n > 0) b.regions.push_back({r.name, n});
    left -= n;
  }
  if (left > 0) b.regions.back().count += left;
  b.joints = {{"neck", -1}, {"head", 0}, {"jaw", 1}};
  b.eyeNames = {"head", "head"};
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(-0.005f, 0.005f);
  b.neutral.resize(V * 3);
  for (auto& x : b.neutral) x = u(rng) * 20.0f;
  b.basis.resize(V * E * 3);
  for (auto& x : b.basis) x = u(rng);
  for (std::size_t v = 0; v < V; ++v) {
    b.skinIndex.insert(b.skinIndex.end(), {1, 2, 0, 0});
    b.skinWeight.insert(b.skinWeight.end(), {0.6f, 0.3f, 0.1f, 0.0f});
  }
  b.eyePositions = {0.03f, 0.05f, 0.08f, -0.03f, 0.05f, 0.08f};
  b.eyeWeights.assign(2 * V, 0.0f);
  for (std::size_t v = 0; v < std::min<std::size_t>(777, V / 4); ++v)
    b.eyeWeights[v] = b.eyeWeights[V + V / 2 + v] = 0.8f;
  const float identity[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
  for (int j = 0; j < 3; ++j) b.restWorld.insert(b.restWorld.end(), identity, identity + 16);
  b.faces = {0, 1, 2};
  b.stitchLocal.assign(V * 3, 0.001f);
  return b;
}

}  // namespace riglens::samples
