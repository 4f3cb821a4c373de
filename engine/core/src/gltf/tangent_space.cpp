#include "riglens/core/gltf/tangent_space.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <glm/geometric.hpp>
#include <glm/vec2.hpp>
#include <glm/vec3.hpp>
#include <map>
#include <tuple>

namespace riglens::core {

namespace {

// Below this a length or an area in texture space is taken as zero (the
// reference's threshold for its NotZero test).
constexpr double kZero = 1e-20;

glm::dvec3 vec3At(std::span<const float> v, std::size_t i) {
  return {v[i * 3], v[i * 3 + 1], v[i * 3 + 2]};
}
glm::dvec2 vec2At(std::span<const float> v, std::size_t i) {
  return {v[i * 2], v[i * 2 + 1]};
}

// Vertices that hold the same position, normal and coordinates are one
// vertex to MikkTSpace: the key compares their bits (8 floats).
using VertexKey = std::array<std::uint32_t, 8>;
VertexKey keyOf(std::span<const float> positions, std::span<const float> normals, std::span<const float> uvs,
                std::size_t v) {
  const float values[8] = {positions[v * 3],   positions[v * 3 + 1], positions[v * 3 + 2], normals[v * 3],
                           normals[v * 3 + 1], normals[v * 3 + 2],   uvs[v * 2],           uvs[v * 2 + 1]};
  VertexKey key;
  std::memcpy(key.data(), values, sizeof(values));
  return key;
}

// A pool of corners: the angle-weighted sum of their projected u directions.
struct Pool {
  glm::dvec3 sum{0.0};
  double weight = 0;
};

}  // namespace

std::vector<float> mikkTangents(std::span<const float> positions, std::span<const float> normals,
                                std::span<const float> uvs, std::span<const std::uint32_t> triangles) {
  const std::size_t vertexCount = positions.size() / 3;
  std::vector<float> out(vertexCount * 4, 0.0f);
  if (normals.size() < vertexCount * 3 || uvs.size() < vertexCount * 2) return out;
  // Per welded vertex, one pool per orientation (0: reversed, 1: kept).
  std::map<VertexKey, std::array<Pool, 2>> pools;
  std::vector<const std::array<Pool, 2>*> poolOf(vertexCount, nullptr);
  for (std::size_t t = 0; t + 2 < triangles.size(); t += 3) {
    const std::uint32_t idx[3] = {triangles[t], triangles[t + 1], triangles[t + 2]};
    if (idx[0] >= vertexCount || idx[1] >= vertexCount || idx[2] >= vertexCount) continue;
    const glm::dvec3 p[3] = {vec3At(positions, idx[0]), vec3At(positions, idx[1]), vec3At(positions, idx[2])};
    const glm::dvec2 st[3] = {vec2At(uvs, idx[0]), vec2At(uvs, idx[1]), vec2At(uvs, idx[2])};
    const glm::dvec3 d1 = p[1] - p[0], d2 = p[2] - p[0];
    const glm::dvec2 s1 = st[1] - st[0], s2 = st[2] - st[0];
    const double area = s1.x * s2.y - s1.y * s2.x;  // twice the signed area in texture space
    if (std::abs(area) < kZero) continue;
    const int kept = area > 0 ? 1 : 0;
    // The direction of increasing u (dP/du up to the positive factor 1 / area, sign folded in).
    const glm::dvec3 uDirection = (s2.y * d1 - s1.y * d2) * (area > 0 ? 1.0 : -1.0);
    for (int c = 0; c < 3; ++c) {
      const std::uint32_t v = idx[c];
      const glm::dvec3 n = glm::normalize(vec3At(normals, v));
      glm::dvec3 projected = uDirection - n * glm::dot(n, uDirection);
      const double length = glm::length(projected);
      if (!(length > kZero) || !std::isfinite(length)) continue;
      projected /= length;
      const glm::dvec3 a = p[(c + 1) % 3] - p[c], b = p[(c + 2) % 3] - p[c];
      const double la = glm::length(a), lb = glm::length(b);
      if (!(la > kZero) || !(lb > kZero)) continue;
      const double angle = std::acos(std::clamp(glm::dot(a, b) / (la * lb), -1.0, 1.0));
      auto& pool = pools[keyOf(positions, normals, uvs, v)];
      pool[std::size_t(kept)].sum += projected * angle;
      pool[std::size_t(kept)].weight += angle;
    }
  }
  for (std::size_t t = 0; t < triangles.size(); ++t) {
    const std::uint32_t v = triangles[t];
    if (v >= vertexCount || poolOf[v]) continue;
    const auto found = pools.find(keyOf(positions, normals, uvs, v));
    if (found != pools.end()) poolOf[v] = &found->second;
    const glm::dvec3 n = glm::normalize(vec3At(normals, v));
    glm::dvec3 tangent(0.0);
    double sign = 1.0;
    if (poolOf[v]) {
      const auto& byOrientation = *poolOf[v];
      const int kept = byOrientation[1].weight >= byOrientation[0].weight ? 1 : 0;
      tangent = byOrientation[std::size_t(kept)].sum;
      sign = kept ? 1.0 : -1.0;
    }
    if (!(glm::length(tangent) > kZero)) {  // only degenerate triangles: any direction in the plane
      const glm::dvec3 axis = std::abs(n.x) < 0.9 ? glm::dvec3(1, 0, 0) : glm::dvec3(0, 1, 0);
      tangent = axis - n * glm::dot(n, axis);
    }
    tangent = glm::normalize(tangent);
    // glTF's v runs down the image: the opposite sign to MikkTSpace's.
    const float w = float(-sign);
    std::copy_n(std::array<float, 4>{float(tangent.x), float(tangent.y), float(tangent.z), w}.data(), 4, &out[v * 4]);
  }
  return out;
}

}  // namespace riglens::core
