// The PBR look's image-based light as the GPU makes it (env_prefilter,
// env_irradiance and env_brdf_lut.comp, read back through
// environmentLightOnGpu) against the integrals they estimate, computed here
// in double precision by brute force: every texel of the source map for
// the prefiltered and irradiance maps, a fine grid over the hemisphere for
// the split sum's BRDF table. The GPU estimates them by GGX importance
// sampling from the source's mips (filtered importance sampling) and sums
// the irradiance over a 64-texel-wide mip: what is compared is that both
// converge to the same integrals, in the same orientation.
#include <QtTest/QTest>
#include <cmath>
#include <glm/geometric.hpp>

#include "render_checks.h"
#include "riglens/render/parity/environment_light_on_gpu.h"
#include "test_paths.h"

using namespace riglens;

namespace {

using dvec3 = glm::dvec3;
constexpr double kPi = 3.14159265358979323846;

// Relative difference allowed between a prefiltered or irradiance texel and
// its brute-force integral: Hammersley samples (256 to 4096 per texel) read
// from box-filtered mips (the footprint of a sample blurs the lobe's edge a
// little where the studio's softboxes cross it; measured at worst 1.0% at
// roughness 1/3, 0.5% at 1, the irradiance 0.3%), and half-float storage
// (0.1%).
constexpr double kLightMapRelativeTolerance = 0.02;
// Not a tolerance: the floor under a relative difference's denominator, so
// a black texel cannot divide by zero (the studio's darkest radiance is
// ~0.09, far above it).
constexpr double kRadianceFloor = 1e-6;
// One step of a half float's 10-bit mantissa, relative: the maps are half
// floats, and Vulkan lets a storage-image write round towards zero.
constexpr double kHalfFloatStep = 1.0 / 1024;
// Absolute difference allowed in the BRDF table's A and B (each within
// [0, 1]): 1024 Hammersley samples per texel (the worst seen 0.004 at
// roughness 0.5, grazing) and half floats.
constexpr double kBrdfLutTolerance = 0.01;

// The studio map small enough to integrate by brute force at every test direction.
constexpr int kSourceWidth = 128;

dvec3 direction(double u, double v) {
  return dvec3(core::equirectDirection({float(u), float(v)}));
}

// Appendix B's Trowbridge-Reitz D (normalised over n.h).
double ggx(double nh, double alpha) {
  if (nh <= 0) return 0;
  const double a2 = alpha * alpha, d = nh * nh * (a2 - 1) + 1;
  return a2 / (kPi * d * d);
}

// The prefiltered radiance around n (= v) for roughness r: the GGX lobe's
// weighted mean over every texel, sum L (n.l) D(h) dw / sum (n.l) D(h) dw.
dvec3 prefilteredReference(const core::EnvironmentMap& map, dvec3 n, double roughness) {
  const double alpha = roughness * roughness;
  dvec3 sum(0.0);
  double weight = 0;
  for (int y = 0; y < map.height; ++y) {
    const double solidAngle = core::equirectTexelSolidAngle(y, map.width, map.height);
    for (int x = 0; x < map.width; ++x) {
      const dvec3 l = direction((x + 0.5) / map.width, (y + 0.5) / map.height);
      const double nl = glm::dot(n, l);
      if (nl <= 0) continue;
      const double w = nl * ggx(glm::dot(n, glm::normalize(n + l)), alpha) * solidAngle;
      sum += dvec3(map.texel(x, y)) * w;
      weight += w;
    }
  }
  return sum / weight;
}

// The cosine-weighted mean radiance over n's hemisphere (E / pi).
dvec3 irradianceReference(const core::EnvironmentMap& map, dvec3 n) {
  dvec3 sum(0.0);
  double weight = 0;
  for (int y = 0; y < map.height; ++y) {
    const double solidAngle = core::equirectTexelSolidAngle(y, map.width, map.height);
    for (int x = 0; x < map.width; ++x) {
      const double nl = glm::dot(n, direction((x + 0.5) / map.width, (y + 0.5) / map.height));
      if (nl <= 0) continue;
      sum += dvec3(map.texel(x, y)) * nl * solidAngle;
      weight += nl * solidAngle;
    }
  }
  return sum / weight;
}

// The split sum's A and B at (n.v, roughness): Appendix B's specular lobe
// (D, separable Smith G) times (1 - Fc) and Fc, integrated over a grid of
// the hemisphere of light directions.
std::pair<double, double> brdfReference(double nv, double roughness) {
  const double alpha = roughness * roughness, a2 = alpha * alpha;
  const auto g1 = [&](double x) { return 2 * x / (x + std::sqrt(a2 + (1 - a2) * x * x)); };
  const dvec3 n(0, 0, 1), v(std::sqrt(1 - nv * nv), 0, nv);
  constexpr int kTheta = 1024, kPhi = 2048;
  double a = 0, b = 0;
  for (int i = 0; i < kTheta; ++i) {
    const double theta = (i + 0.5) * (kPi / 2) / kTheta;
    const double dw = std::sin(theta) * (kPi / 2 / kTheta) * (2 * kPi / kPhi);
    for (int j = 0; j < kPhi; ++j) {
      const double phi = (j + 0.5) * 2 * kPi / kPhi;
      const dvec3 l(std::sin(theta) * std::cos(phi), std::sin(theta) * std::sin(phi), std::cos(theta));
      const dvec3 h = glm::normalize(l + v);
      const double nl = l.z, vh = glm::dot(v, h);
      const double specular = ggx(h.z, alpha) * g1(nl) * g1(nv) / (4 * nl * nv);
      const double fc = std::pow(1 - vh, 5);
      a += specular * (1 - fc) * nl * dw;
      b += specular * fc * nl * dw;
    }
  }
  return {a, b};
}

double relativeDifference(glm::vec4 got, dvec3 want) {
  double worst = 0;
  for (int c = 0; c < 3; ++c)
    worst = std::max(worst, std::abs(double(got[c]) - want[c]) / std::max(want[c], kRadianceFloor));
  return worst;
}

}  // namespace

class TestRenderEnvironment : public test::RenderTestCase {
  Q_OBJECT

 public:
  TestRenderEnvironment() : RenderTestCase(render::Backend::Vulkan) {}

 private:
  std::shared_ptr<const core::EnvironmentMap> m_studio =
      std::make_shared<const core::EnvironmentMap>(core::studioEnvironment(kSourceWidth));

  render::EnvironmentLightMaps lightOf(std::shared_ptr<const core::EnvironmentMap> map) {
    auto maps = render::environmentLightOnGpu(*m_device, std::move(map));
    if (!maps) qFatal("%s", maps.error().message.c_str());
    return std::move(maps).value();
  }

  // Texel (x, y) of a level as a PNG a person can look at (Reinhard-mapped).
  static void save(const render::LightMapLevel& level, const QString& name) {
    QImage image(level.width, level.height, QImage::Format_RGB888);
    for (int y = 0; y < level.height; ++y)
      for (int x = 0; x < level.width; ++x) {
        const glm::vec4 c = level.at(x, y);
        const auto byte = [](float v) { return int(std::lround(255 * std::pow(v / (1 + v), 1 / 2.2))); };
        image.setPixel(x, y, qRgb(byte(c.r), byte(c.g), byte(c.b)));
      }
    image.save(test::outputPath(name));
  }

 private slots:
  void prefilteredLevelsMatchTheLobeIntegral() {
    const auto maps = lightOf(m_studio);
    QCOMPARE(int(maps.prefiltered.size()), 7);
    for (int level : {2, 4, 6}) {
      const render::LightMapLevel& map = maps.prefiltered[std::size_t(level)];
      save(map, QString("environment-prefiltered-%1.png").arg(level));
      const double roughness = level / 6.0;
      double worst = 0;
      QString where;
      // Rows from near the top to near the bottom, columns all around.
      for (int y = 1; y < map.height; y += std::max(1, map.height / 5))
        for (int x = 0; x < map.width; x += std::max(1, map.width / 7)) {
          const dvec3 n = direction((x + 0.5) / map.width, (y + 0.5) / map.height);
          const dvec3 want = prefilteredReference(*m_studio, n, roughness);
          const double difference = relativeDifference(map.at(x, y), want);
          if (difference > worst) {
            worst = difference;
            where = QString("level %1 texel (%2, %3): %4, expected %5")
                        .arg(level)
                        .arg(x)
                        .arg(y)
                        .arg(map.at(x, y).r)
                        .arg(want.r);
          }
        }
      qInfo("prefiltered level %d: worst relative difference %.4f", level, worst);
      QVERIFY2(worst <= kLightMapRelativeTolerance, qPrintable(where));
    }
  }

  void irradianceMatchesTheCosineIntegral() {
    const auto maps = lightOf(m_studio);
    save(maps.irradiance, "environment-irradiance.png");
    double worst = 0;
    for (int y = 0; y < maps.irradiance.height; y += 3)
      for (int x = 0; x < maps.irradiance.width; x += 5) {
        const dvec3 n = direction((x + 0.5) / maps.irradiance.width, (y + 0.5) / maps.irradiance.height);
        worst = std::max(worst, relativeDifference(maps.irradiance.at(x, y), irradianceReference(*m_studio, n)));
      }
    qInfo("irradiance: worst relative difference %.4f", worst);
    QVERIFY(worst <= kLightMapRelativeTolerance);
  }

  void brdfTableMatchesTheHemisphereIntegral() {
    const auto maps = lightOf(m_studio);
    const render::LightMapLevel& lut = maps.brdfLut;
    for (const auto& [x, y] : {std::pair{10, 40}, {32, 32}, {60, 63}, {3, 50}, {45, 20}}) {
      const double nv = (x + 0.5) / lut.width, roughness = (y + 0.5) / lut.height;
      const auto [a, b] = brdfReference(nv, roughness);
      const glm::vec4 got = lut.at(x, y);
      qInfo("n.v %.3f roughness %.3f: A %.4f (%.4f), B %.4f (%.4f)", nv, roughness, got.r, a, got.g, b);
      QVERIFY(std::abs(got.r - a) <= kBrdfLutTolerance);
      QVERIFY(std::abs(got.g - b) <= kBrdfLutTolerance);
    }
  }

  void aUniformEnvironmentStaysUniform() {
    // Every map of a uniform environment is that radiance (to the half
    // float's step): each pass divides by the weights it summed.
    const float radiance = 0.75f;
    const auto maps =
        lightOf(std::make_shared<const core::EnvironmentMap>(core::uniformEnvironment(glm::vec3(radiance))));
    const auto near = [&](float v) { return std::abs(double(v) - radiance) <= radiance * kHalfFloatStep; };
    for (const render::LightMapLevel& level : maps.prefiltered)
      for (std::size_t i = 0; i < level.rgba.size(); i += 4)
        QVERIFY2(near(level.rgba[i]), qPrintable(QString::number(level.rgba[i])));
    for (std::size_t i = 0; i < maps.irradiance.rgba.size(); i += 4) QVERIFY(near(maps.irradiance.rgba[i]));
  }
};

QTEST_MAIN(TestRenderEnvironment)
#include "tst_render_environment.moc"
