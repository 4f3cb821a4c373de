#include "riglens/samples/scene_like_cloud.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <glm/geometric.hpp>
#include <glm/gtc/quaternion.hpp>
#include <glm/mat3x3.hpp>
#include <random>

#include "sample_sh.h"

namespace riglens::samples {

namespace {

constexpr double kTau = 6.283185307179586;
constexpr int kShRestPerChannel = 15;  // (3 + 1)^2 - 1

// Draws from mt19937_64's raw output (the engine's sequence is fixed by the
// standard; the distributions of <random> are not), so the cloud is the same
// on every standard library.
class Draws {
 public:
  explicit Draws(std::uint64_t seed) : m_engine(seed) {}
  double uniform() { return double(m_engine() >> 11) * 0x1.0p-53; }
  double uniform(double lo, double hi) { return lo + (hi - lo) * uniform(); }
  double normal(double mean, double sigma) {  // Box-Muller
    const double u = 1.0 - uniform(), v = uniform();
    return mean + sigma * std::sqrt(-2.0 * std::log(u)) * std::cos(kTau * v);
  }
  glm::vec3 direction() {
    const double z = uniform(-1.0, 1.0), a = uniform(0.0, kTau), r = std::sqrt(1.0 - z * z);
    return {float(r * std::cos(a)), float(r * std::sin(a)), float(z)};
  }
  glm::quat rotation() {  // uniform over SO(3) (Shoemake)
    const double u1 = uniform(), u2 = kTau * uniform(), u3 = kTau * uniform();
    const double a = std::sqrt(1.0 - u1), b = std::sqrt(u1);
    return glm::quat(float(b * std::cos(u3)), float(a * std::sin(u2)), float(a * std::cos(u2)),
                     float(b * std::sin(u3)));
  }

 private:
  std::mt19937_64 m_engine;
};

// The gaussian's third axis along `normal`, the first two turned at random in its plane.
glm::quat onSurface(glm::vec3 normal, Draws& draws) {
  const glm::vec3 helper = std::abs(normal.y) < 0.9f ? glm::vec3(0, 1, 0) : glm::vec3(1, 0, 0);
  const glm::vec3 t0 = glm::normalize(glm::cross(helper, normal)), b0 = glm::cross(normal, t0);
  const float turn = float(draws.uniform(0.0, kTau));
  const glm::vec3 t = std::cos(turn) * t0 + std::sin(turn) * b0, b = glm::cross(normal, t);
  return glm::quat_cast(glm::mat3(t, b, normal));
}

// A flat gaussian: two in-plane sides from a log-normal around `median`, the normal side 5-20% of the first.
std::array<float, 3> flatLogScale(double median, double sigma, Draws& draws) {
  const double side = std::exp(draws.normal(std::log(median), sigma));
  return {float(std::log(side)), float(std::log(side * draws.uniform(0.33, 1.0))),
          float(std::log(side * draws.uniform(0.05, 0.2)))};
}

void finish(core::RawGaussian& g, glm::vec3 position, glm::quat rotation, glm::vec3 base, Draws& draws) {
  g.position = {position.x, position.y, position.z};
  g.rotation = {rotation.w, rotation.x, rotation.y, rotation.z};
  for (int c = 0; c < 3; ++c) {
    const double colour = std::clamp(double(base[c]) + draws.normal(0.0, 0.12), 0.0, 1.0);
    g.dc[std::size_t(c)] = float((colour - 0.5) / kShC0);
  }
  g.opacityLogit = draws.uniform() < 0.4 ? float(draws.normal(-3.0, 1.2)) : float(draws.normal(3.5, 1.5));
  constexpr std::array<double, 4> kSigmaByDegree = {0.0, 0.08, 0.04, 0.02};
  g.shRest.resize(3 * kShRestPerChannel);
  for (int c = 0; c < 3; ++c) {
    for (int k = 0; k < kShRestPerChannel; ++k) {
      const int degree = k < 3 ? 1 : k < 8 ? 2 : 3;
      g.shRest[std::size_t(c * kShRestPerChannel + k)] = float(draws.normal(0.0, kSigmaByDegree[std::size_t(degree)]));
    }
  }
}

struct Sphere {
  glm::vec3 centre;
  float radius;
  glm::vec3 colour;
};
constexpr std::array<Sphere, 6> kObjects = {{{{0.0f, 0.5f, 0.0f}, 0.5f, {0.8f, 0.3f, 0.2f}},
                                             {{0.9f, 0.3f, 0.4f}, 0.3f, {0.2f, 0.4f, 0.8f}},
                                             {{-0.8f, 0.35f, 0.6f}, 0.35f, {0.9f, 0.8f, 0.3f}},
                                             {{0.5f, 0.2f, -0.9f}, 0.2f, {0.6f, 0.6f, 0.6f}},
                                             {{-0.6f, 0.45f, -0.7f}, 0.45f, {0.3f, 0.7f, 0.4f}},
                                             {{1.2f, 0.25f, -0.3f}, 0.25f, {0.7f, 0.2f, 0.7f}}}};
constexpr std::array<glm::vec3, 3> kBushes = {{{-1.8f, 0.4f, 1.2f}, {1.9f, 0.5f, 1.4f}, {0.2f, 0.6f, -2.2f}}};

void ground(core::RawGaussian& g, Draws& draws) {
  const double r = 8.0 * std::sqrt(draws.uniform()), a = draws.uniform(0.0, kTau);
  const glm::vec3 p(float(r * std::cos(a)), float(draws.normal(0.0, 0.01)), float(r * std::sin(a)));
  g.logScale = flatLogScale(0.012 * (1.0 + 0.5 * r), 0.6, draws);
  finish(g, p, onSurface({0, 1, 0}, draws), {0.35f, 0.45f, 0.2f}, draws);
}

void object(core::RawGaussian& g, Draws& draws) {
  const Sphere& s = kObjects[std::size_t(draws.uniform() * double(kObjects.size())) % kObjects.size()];
  const glm::vec3 n = draws.direction();
  g.logScale = flatLogScale(0.008, 0.5, draws);
  finish(g, s.centre + n * s.radius, onSurface(n, draws), s.colour, draws);
}

void bush(core::RawGaussian& g, Draws& draws) {
  const glm::vec3 centre = kBushes[std::size_t(draws.uniform() * double(kBushes.size())) % kBushes.size()];
  const glm::vec3 offset(float(draws.normal(0, 0.3)), float(draws.normal(0, 0.25)), float(draws.normal(0, 0.3)));
  const double side = std::exp(draws.normal(std::log(0.01), 0.7));
  g.logScale = {float(std::log(side)), float(std::log(side * draws.uniform(0.2, 1.0))),
                float(std::log(side * draws.uniform(0.1, 1.0)))};
  finish(g, centre + offset, draws.rotation(), {0.2f, 0.5f, 0.15f}, draws);
}

void background(core::RawGaussian& g, Draws& draws) {
  glm::vec3 d = draws.direction();
  d.y = std::abs(d.y) * 0.8f - 0.1f;  // mostly above the horizon
  d = glm::normalize(d);
  const double r = draws.uniform(8.0, 25.0);
  g.logScale = flatLogScale(0.15 * r / 10.0, 0.6, draws);
  const glm::vec3 sky(0.55f, 0.65f, 0.85f), trees(0.25f, 0.35f, 0.2f);
  finish(g, d * float(r), onSurface(-d, draws), d.y > 0.3f ? sky : trees, draws);
}

}  // namespace

std::vector<core::RawGaussian> makeSceneLikeCloud(std::size_t count) {
  Draws draws(0x5ce11e5);
  std::vector<core::RawGaussian> out(count);
  for (auto& g : out) {
    const double part = draws.uniform();
    if (part < 0.30) {
      ground(g, draws);
    } else if (part < 0.70) {
      object(g, draws);
    } else if (part < 0.85) {
      bush(g, draws);
    } else {
      background(g, draws);
    }
  }
  return out;
}

core::Bounds sceneLikeCloudFocus() {
  core::Bounds focus;
  focus.include({-1.5f, 0.0f, -1.5f});
  focus.include({1.5f, 1.0f, 1.5f});
  return focus;
}

}  // namespace riglens::samples
