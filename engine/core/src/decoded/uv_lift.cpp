#include "riglens/core/decoded/uv_lift.h"

#include <algorithm>
#include <cmath>
#include <glm/geometric.hpp>
#include <glm/gtc/quaternion.hpp>
#include <glm/mat3x3.hpp>

#include "riglens/core/base/color.h"
#include "riglens/core/character/bundle.h"

namespace riglens::core {
namespace {

glm::vec3 vertexAt(std::span<const float> v, std::size_t i) {
  return {v[i * 3], v[i * 3 + 1], v[i * 3 + 2]};
}

// The rotation of an unnormalised (w, x, y, z); a zero quaternion divides by 1 (A6).
glm::mat3 rotationOf(float w, float x, float y, float z) {
  float n = std::sqrt(w * w + x * x + y * y + z * z);
  if (!(n > 0.0f)) n = 1.0f;
  w /= n, x /= n, y /= n, z /= n;
  glm::mat3 r;  // glm is column-major: r[column][row]
  r[0] = {1 - 2 * (y * y + z * z), 2 * (x * y + w * z), 2 * (x * z - w * y)};
  r[1] = {2 * (x * y - w * z), 1 - 2 * (x * x + z * z), 2 * (y * z + w * x)};
  r[2] = {2 * (x * z + w * y), 2 * (y * z - w * x), 1 - 2 * (x * x + y * y)};
  return r;
}

// v + 2w(u x v) + 2u x (u x v), u = (x, y, z) (A9).
glm::vec3 rotate(const std::array<float, 4>& q, glm::vec3 v) {
  const glm::vec3 u(q[1], q[2], q[3]);
  const glm::vec3 uv = glm::cross(u, v);
  return v + 2.0f * q[0] * uv + 2.0f * glm::cross(u, uv);
}

float logSigmoid(float x) {
  return x >= 0 ? -std::log1p(std::exp(-x)) : x - std::log1p(std::exp(x));
}

float sigmoid(float x) {
  return 1.0f / (1.0f + std::exp(-x));
}

bool finite(float x) {
  return std::isfinite(x) && std::fabs(x) < 1e30f;
}

constexpr float kQualityNorm = 0.6580370064762462f;  // 3^(1/4) / 2: an equilateral triangle's q is 1

}  // namespace

void applyVertexTransform(std::span<float> vertices, const VertexTransform& t) {
  const std::size_t count = vertices.size() / 3;
  const bool withCorr = t.corr.size() == vertices.size();
  for (std::size_t i = 0; i < count; ++i) {
    const glm::vec3 v = vertexAt(vertices, i);
    for (int j = 0; j < 3; ++j) {
      float out = v.x * t.L[std::size_t(j)] + v.y * t.L[std::size_t(3 + j)] + v.z * t.L[std::size_t(6 + j)] + t.o[j];
      if (withCorr) out += t.corr[i * 3 + std::size_t(j)];
      vertices[i * 3 + std::size_t(j)] = out;
    }
  }
}

std::array<float, 4> worldRotationQuaternion(double xDeg, double yDeg, double zDeg) {
  if (xDeg == 0 && yDeg == 0 && zDeg == 0) return {1, 0, 0, 0};
  const glm::dquat q = glm::angleAxis(glm::radians(xDeg), glm::dvec3(1, 0, 0)) *
                       glm::angleAxis(glm::radians(yDeg), glm::dvec3(0, 1, 0)) *
                       glm::angleAxis(glm::radians(zDeg), glm::dvec3(0, 0, 1));
  return {float(q.w), float(q.x), float(q.y), float(q.z)};
}

float splatScale(float raw, const LiftScale& s) {
  const float logSigma = s.bounded ? s.logSigmaMax + logSigmoid(raw + s.scaleOffset) : raw + s.scaleOffset;
  return std::exp(std::min(logSigma, s.scaleLogMax));
}

std::vector<float> liftPass1(std::span<const float> geom, std::span<const float> vertices, const BranchMesh& mesh,
                             const LiftScale& scale) {
  const std::size_t hw = std::size_t(mesh.uvRes) * std::size_t(mesh.uvRes);
  const auto V = std::int64_t(mesh.vertexCount);
  const auto F = std::int64_t(mesh.faceCount);
  std::vector<float> out(hw * kLiftTexelFloats, 0.0f);
  // What the loader checked, checked again: a caller's arrays that do not
  // match the mesh lift nothing (every texel invalid) rather than read past them.
  if (vertices.size() != mesh.vertexCount * 3 || geom.size() != 11 * hw || mesh.triim.size() != hw ||
      mesh.idxim.size() != 3 * hw || mesh.barim.size() != 3 * hw || mesh.valid.size() != hw ||
      mesh.faces.size() != mesh.faceCount * 3)
    return out;
  for (std::size_t p = 0; p < hw; ++p) {
    const std::int32_t tri = mesh.valid[p] != 0 ? mesh.triim[p] : -1;
    glm::mat3 J(1.0f);  // columns e0, e1, c2
    bool valid = false;
    glm::vec3 e0(0.0f), e1(0.0f);
    if (tri >= 0 && tri < F) {
      const glm::vec3 v0 = vertexAt(vertices, mesh.faces[std::size_t(tri) * 3]);
      e0 = vertexAt(vertices, mesh.faces[std::size_t(tri) * 3 + 1]) - v0;
      e1 = vertexAt(vertices, mesh.faces[std::size_t(tri) * 3 + 2]) - v0;
      const glm::vec3 n = glm::cross(e0, e1);
      const float len = glm::length(n);
      valid = len > 0.0f;  // false for zero and NaN: no area threshold
      if (valid) J = glm::mat3(e0, e1, n / std::sqrt(std::max(len, 1e-10f)));
    }
    glm::vec3 base(0.0f);
    for (int k = 0; k < 3; ++k) {
      std::int64_t id = mesh.idxim[p * 3 + std::size_t(k)];
      if (id < 0) id += V;  // torch semantics
      base += mesh.barim[p * 3 + std::size_t(k)] * vertexAt(vertices, std::size_t(id));
    }
    const auto ch = [&](int c) { return geom[std::size_t(c) * hw + p]; };
    const glm::vec3 pos = base + J * glm::vec3(ch(0), ch(1), ch(2));
    const glm::mat3 R = rotationOf(ch(3), ch(4), ch(5), ch(6));
    const glm::vec3 s(splatScale(ch(7), scale), splatScale(ch(8), scale), splatScale(ch(9), scale));
    glm::mat3 M = J * R;
    for (int k = 0; k < 3; ++k) M[k] *= s[k];
    float g = 1.0f;
    if (scale.triKappa > 0.0f && valid) {
      const float edge = std::max({glm::length(e0), glm::length(e1), glm::length(e1 - e0)});
      const float area = 0.5f * glm::length(glm::cross(e0, e1));
      const float q = std::clamp(std::sqrt(std::max(area, 0.0f)) / std::max(kQualityNorm * edge, 1e-12f), 0.0f, 1.0f);
      const float bound = edge * (scale.sliverQMin > 0.0f ? std::min(1.0f, q / (5.0f * scale.sliverQMin)) : 1.0f);
      const float reach = std::max({glm::length(M[0]), glm::length(M[1]), glm::length(M[2])});
      g = std::min(1.0f, scale.triKappa * bound / std::max(reach, 1e-12f));
    }
    const glm::mat3 S = (g * g) * (M * glm::transpose(M));
    float* t = out.data() + p * kLiftTexelFloats;
    t[0] = pos.x, t[1] = pos.y, t[2] = pos.z;
    t[3] = S[0][0], t[4] = S[1][0], t[5] = S[2][0], t[6] = S[1][1], t[7] = S[2][1], t[8] = S[2][2];
    t[9] = ch(10);
    t[10] = valid ? 1.0f : 0.0f;
  }
  return out;
}

void symmetricEigen3(const std::array<float, 6>& c, std::array<float, 3>& values, std::array<float, 9>& vectors) {
  float a[3][3] = {{c[0], c[1], c[2]}, {c[1], c[3], c[4]}, {c[2], c[4], c[5]}};
  float v[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
  for (int sweep = 0; sweep < 30; ++sweep) {
    int p = 0, q = 1;
    float pivot = std::fabs(a[0][1]);
    if (std::fabs(a[0][2]) > pivot) p = 0, q = 2, pivot = std::fabs(a[0][2]);
    if (std::fabs(a[1][2]) > pivot) p = 1, q = 2, pivot = std::fabs(a[1][2]);
    const float off = std::fabs(a[0][1]) + std::fabs(a[0][2]) + std::fabs(a[1][2]);
    const float diag = std::fabs(a[0][0]) + std::fabs(a[1][1]) + std::fabs(a[2][2]);
    if (off < 1e-12f * (diag + 1e-30f) || a[p][q] == 0.0f) break;
    const float theta = (a[q][q] - a[p][p]) / (2.0f * a[p][q]);
    const float t = (theta >= 0 ? 1.0f : -1.0f) / (std::fabs(theta) + std::sqrt(theta * theta + 1.0f));
    const float cs = 1.0f / std::sqrt(t * t + 1.0f), sn = t * cs;
    for (int k = 0; k < 3; ++k) {  // A <- A J (columns p, q)
      const float akp = a[k][p], akq = a[k][q];
      a[k][p] = cs * akp - sn * akq;
      a[k][q] = sn * akp + cs * akq;
    }
    for (int k = 0; k < 3; ++k) {  // A <- J^T A (rows p, q)
      const float apk = a[p][k], aqk = a[q][k];
      a[p][k] = cs * apk - sn * aqk;
      a[q][k] = sn * apk + cs * aqk;
    }
    for (int k = 0; k < 3; ++k) {  // V <- V J
      const float vkp = v[k][p], vkq = v[k][q];
      v[k][p] = cs * vkp - sn * vkq;
      v[k][q] = sn * vkp + cs * vkq;
    }
  }
  for (int k = 0; k < 3; ++k) values[std::size_t(k)] = a[k][k];
  for (int r = 0; r < 3; ++r)
    for (int k = 0; k < 3; ++k) vectors[std::size_t(r * 3 + k)] = v[r][k];
}

namespace {

float sampleMask(const OpacityMask& m, float u, float v) {
  const float x = std::clamp(u * float(m.width - 1), 0.0f, float(m.width - 1));
  const float y = std::clamp(v * float(m.height - 1), 0.0f, float(m.height - 1));
  const int x0 = int(x), y0 = int(y);
  const int x1 = std::min(x0 + 1, m.width - 1), y1 = std::min(y0 + 1, m.height - 1);
  const float fx = x - float(x0), fy = y - float(y0);
  const auto at = [&](int xx, int yy) { return m.values[std::size_t(yy) * std::size_t(m.width) + std::size_t(xx)]; };
  return (1 - fx) * (1 - fy) * at(x0, y0) + fx * (1 - fy) * at(x1, y0) + (1 - fx) * fy * at(x0, y1) +
         fx * fy * at(x1, y1);
}

}  // namespace

void liftPass2(std::span<const float> texels, std::span<const float> colorUv, int uvRes, const LiftPlacement& placement,
               const OpacityMask* mask, SplatSink& sink) {
  const int H = uvRes, W = uvRes, N = uvRes;
  const std::size_t hw = std::size_t(H) * std::size_t(W);
  const std::size_t slots = std::min<std::size_t>(hw, placement.slotCount);
  if (texels.size() < hw * kLiftTexelFloats || colorUv.size() < 3 * hw ||
      std::size_t(placement.slotOffset) + slots > sink.capacity() || N < 2)
    return;  // nothing is written outside what the arrays hold
  const bool maskOn = mask && mask->width > 0 && mask->height > 0 &&
                      mask->values.size() == std::size_t(mask->width) * std::size_t(mask->height);
  for (std::size_t s = 0; s < slots; ++s) {
    const std::size_t slot = placement.slotOffset + s;
    const int oy = int(s) / N, ox = int(s) % N;
    const float py = float(oy) * float(H) / float(N - 1) - 0.5f;
    const float px = float(ox) * float(W) / float(N - 1) - 0.5f;
    const float fy0 = std::floor(py), fx0 = std::floor(px);
    const float fx = px - fx0, fy = py - fy0;
    const int x0 = int(fx0), y0 = int(fy0);
    float acc[10] = {};
    float rgb[3] = {};
    float validity = 0.0f;
    const int dx[4] = {0, 1, 0, 1}, dy[4] = {0, 0, 1, 1};
    const float w[4] = {(1 - fx) * (1 - fy), fx * (1 - fy), (1 - fx) * fy, fx * fy};
    for (int k = 0; k < 4; ++k) {
      const int x = x0 + dx[k], y = y0 + dy[k];
      if (x < 0 || y < 0 || x >= W || y >= H) continue;  // contributes nothing, validity included
      const std::size_t p = std::size_t(y) * std::size_t(W) + std::size_t(x);
      const float* t = texels.data() + p * kLiftTexelFloats;
      for (int c = 0; c < 10; ++c) acc[c] += w[k] * t[c];
      for (int c = 0; c < 3; ++c) rgb[c] += w[k] * colorUv[std::size_t(c) * hw + p];
      validity += w[k] * t[10];
    }
    if (validity < 0.99f) {
      clearSinkSlot(sink, slot);
      continue;
    }
    if (maskOn && sampleMask(*mask, float(ox) / float(N - 1), float(oy) / float(N - 1)) < mask->threshold) {
      clearSinkSlot(sink, slot);
      continue;
    }
    std::array<float, 3> lambda;
    std::array<float, 9> vec;
    symmetricEigen3({acc[3], acc[4], acc[5], acc[6], acc[7], acc[8]}, lambda, vec);
    bool ok = finite(acc[0]) && finite(acc[1]) && finite(acc[2]);
    for (float x : lambda) ok = ok && finite(x);
    for (float x : vec) ok = ok && finite(x);
    if (!ok) {
      clearSinkSlot(sink, slot);
      continue;
    }
    glm::vec3 v[3];
    for (int k = 0; k < 3; ++k) v[k] = {vec[std::size_t(k)], vec[std::size_t(3 + k)], vec[std::size_t(6 + k)]};
    if (glm::dot(v[0], glm::cross(v[1], v[2])) < 0.0f) v[0] = -v[0];
    float C[6] = {};
    for (int k = 0; k < 3; ++k) {
      const float sigma = std::sqrt(std::max(1e-12f, lambda[std::size_t(k)])) * placement.worldScale;
      const glm::vec3 e = rotate(placement.worldRotation, v[k]) * sigma;
      C[0] += e.x * e.x, C[1] += e.x * e.y, C[2] += e.x * e.z;
      C[3] += e.y * e.y, C[4] += e.y * e.z, C[5] += e.z * e.z;
    }
    const glm::vec3 centre = rotate(placement.worldRotation, glm::vec3(acc[0], acc[1], acc[2]) * placement.worldScale) +
                             placement.worldOffset;
    sink.center[slot * 4] = centre.x, sink.center[slot * 4 + 1] = centre.y, sink.center[slot * 4 + 2] = centre.z;
    sink.center[slot * 4 + 3] = 1.0f;
    sink.covarianceA[slot * 4] = C[0], sink.covarianceA[slot * 4 + 1] = C[1];
    sink.covarianceA[slot * 4 + 2] = C[2], sink.covarianceA[slot * 4 + 3] = C[3];
    sink.covarianceB[slot * 4] = C[4], sink.covarianceB[slot * 4 + 1] = C[5];
    sink.covarianceB[slot * 4 + 2] = 0.0f, sink.covarianceB[slot * 4 + 3] = 0.0f;
    sink.color[slot] = packRgba(rgb[0], rgb[1], rgb[2], sigmoid(acc[9]));
  }
}

void clearSinkSlot(SplatSink& sink, std::size_t slot) {
  for (int k = 0; k < 4; ++k) {
    sink.center[slot * 4 + std::size_t(k)] = k == 3 ? 1.0f : 0.0f;
    sink.covarianceA[slot * 4 + std::size_t(k)] = 0.0f;
    sink.covarianceB[slot * 4 + std::size_t(k)] = 0.0f;
  }
  sink.color[slot] = 0u;
}

}  // namespace riglens::core
