// The PBR look (core::Look::Pbr) against values computed here in double
// precision from the glTF 2.0 specification's Appendix B (and the
// KHR_materials_ior / _specular / _emissive_strength texts), the
// KHR_lights_punctual falloffs and the tone mappers' published formulas:
// flat quads of known materials (tests/support/pbr_fixture.h) rendered
// offscreen with the environment off, read back at pixels whose world point
// is found by casting the pixel centre's ray onto the quad.
#include <QtTest/QTest>
#include <algorithm>
#include <cmath>
#include <glm/geometric.hpp>
#include <glm/gtc/matrix_transform.hpp>
#include <glm/mat4x4.hpp>

#include "built_glb.h"
#include "pbr_fixture.h"
#include "render_checks.h"
#include "riglens/core/open/asset_readers.h"
#include "riglens/core/rig/scene_bounds.h"
#include "riglens/core/rig/skinning.h"
#include "riglens/render/rig/frame_builder.h"
#include "test_checks.h"
#include "test_paths.h"

using namespace riglens;

namespace {

// 8-bit levels per channel between the picture and the double-precision
// value: the unorm rounding of the target (half a level), the shader's
// float32 pow/sqrt and its interpolated world position (about a level at
// the steepest sRGB slope we sample).
constexpr int kPbrChannelTolerance = 2;
// Pixels on a triangle's edge two pictures may cover differently when their
// vertices agree only to float rounding (skinned on the GPU and on the CPU).
constexpr int kEdgePixels = 20;
// 8-bit levels between one material's pictures through the plain and the
// textured PBR shaders: the same maths compiled from different code, which
// the shader compiler may order or fuse differently (a last-bit difference
// can cross a rounding boundary of the 8-bit target).
constexpr int kVariantLevels = 1;
constexpr double kPi = 3.14159265358979323846;
// Not a tolerance: the shader's floor on alpha (pbr.glsl's kMinAlpha), which
// keeps roughness 0 from making the distribution a delta; the reference
// applies the same floor (the quads' roughness is far above it).
constexpr double kMinAlpha = 1e-3;

using dvec3 = glm::dvec3;

// Written to the test output beside the pictures, so a person can open them in other viewers.
std::shared_ptr<const core::LoadedRun> loadGlb(test::GltfBuilder builder, const QString& name) {
  return test::loadBuiltGlb(std::move(builder), test::outputPath(name));
}

// glTF 2.0 Appendix B, with KHR_materials_ior's F0 and KHR_materials_specular's fresnel_mix.
dvec3 appendixB(const test::PbrQuad& m, dvec3 n, dvec3 v, dvec3 l) {
  const dvec3 base(m.base[0], m.base[1], m.base[2]);
  const double alpha = std::max(m.roughness * m.roughness, kMinAlpha), a2 = alpha * alpha;
  const dvec3 h = glm::normalize(l + v);
  const double nl = glm::dot(n, l), nv = glm::dot(n, v), nh = glm::dot(n, h), vh = glm::dot(v, h), hl = glm::dot(h, l);
  const auto chi = [](double x) { return x > 0 ? 1.0 : 0.0; };
  const double d = a2 * chi(nh) / (kPi * std::pow(nh * nh * (a2 - 1) + 1, 2));
  const auto g1 = [&](double x, double hx) {
    return 2 * std::abs(x) * chi(hx) / (std::abs(x) + std::sqrt(a2 + (1 - a2) * x * x));
  };
  const double vis = g1(nl, hl) * g1(nv, vh) / (4 * std::abs(nl) * std::abs(nv));
  const double specular = vis * d;
  const double schlick = std::pow(1 - std::abs(vh), 5);
  const dvec3 metal = specular * (base + (dvec3(1) - base) * schlick);
  const double f = (m.ior - 1) / (m.ior + 1);
  const dvec3 f0 = glm::min(dvec3(f * f) * dvec3(m.specularColor[0], m.specularColor[1], m.specularColor[2]), dvec3(1));
  const dvec3 fr = f0 + (dvec3(1) - f0) * schlick;
  const double frMax = std::max({fr.r, fr.g, fr.b});
  const dvec3 dielectric = (1 - m.specular * frMax) * base / kPi + m.specular * fr * specular;
  return glm::mix(dielectric, metal, m.metallic);
}

double srgbEncode(double c) {
  c = std::clamp(c, 0.0, 1.0);
  return c <= 0.0031308 ? 12.92 * c : 1.055 * std::pow(c, 1 / 2.4) - 0.055;
}

// Khronos PBR Neutral, as its specification writes it.
dvec3 pbrNeutral(dvec3 c) {
  const double start = 0.8 - 0.04, desaturation = 0.15;
  const double x = std::min({c.r, c.g, c.b});
  c -= x < 0.08 ? x - 6.25 * x * x : 0.04;
  const double peak = std::max({c.r, c.g, c.b});
  if (peak < start) return c;
  const double d = 1 - start, newPeak = 1 - d * d / (peak + d - start);
  c *= newPeak / peak;
  const double g = 1 - 1 / (desaturation * (peak - newPeak) + 1);
  return glm::mix(c, dvec3(newPeak), g);
}

// ACES filmic as Stephen Hill fitted it: sRGB -> ACES AP1 (rows), the RRT
// and ODT's rational fit, back to sRGB.
dvec3 acesHill(dvec3 c) {
  const double in[3][3] = {{0.59719, 0.35458, 0.04823}, {0.07600, 0.90834, 0.01566}, {0.02840, 0.13383, 0.83777}};
  const double out[3][3] = {
      {1.60475, -0.53108, -0.07367}, {-0.10208, 1.10813, -0.00605}, {-0.00327, -0.07276, 1.07602}};
  const auto apply = [](const double m[3][3], dvec3 v) {
    return dvec3(m[0][0] * v.x + m[0][1] * v.y + m[0][2] * v.z, m[1][0] * v.x + m[1][1] * v.y + m[1][2] * v.z,
                 m[2][0] * v.x + m[2][1] * v.y + m[2][2] * v.z);
  };
  const dvec3 a = apply(in, c);
  const dvec3 fit = (a * (a + 0.0245786) - 0.000090537) / (a * (0.983729 * a + 0.4329510) + 0.238081);
  return apply(out, fit);
}

struct Sample {
  QPoint pixel;
  dvec3 world;
  int quad;
};

}  // namespace

class TestRenderPbr : public test::RenderTestCase {
  Q_OBJECT

 public:
  TestRenderPbr() : RenderTestCase(render::Backend::Vulkan) {}

 private:
  static constexpr QSize kSize{640, 240};

  static core::OrbitCamera cameraOn(const core::LoadedRun& run) {
    core::OrbitCamera camera;
    camera.frame(core::posedBounds(run, {}, nullptr), float(kSize.width()) / float(kSize.height()));
    camera.setAngles(12, 8);
    camera.dolly(0.45f);  // the quads fill the picture: more pixels between their edges
    return camera;
  }

  // `bones`: a skinned run's bone matrices for the frame (else its rest pose).
  QImage draw(std::shared_ptr<const core::LoadedRun> run, const core::OrbitCamera& camera, render::ViewSettings view,
              const std::vector<core::PunctualLight>& lights, const QString& name,
              const std::vector<glm::mat4>& bones = {}) {
    auto drawn = test::runOnCanvas(*m_device, run, kSize);
    if (!drawn) qFatal("%s", drawn.error().message.c_str());
    view.showGrid = view.showAxes = false;
    render::FrameState state =
        render::buildFrameState(*run, {}, camera, float(kSize.width()) / float(kSize.height()), view);
    state.lights = lights;
    if (!bones.empty()) state.bones = bones;
    auto image = drawn->canvas->render(*drawn->renderer, state);
    if (!image) qFatal("%s", image.error().message.c_str());
    image->save(test::outputPath(name + (backend() == render::Backend::OpenGL ? "-opengl.png" : ".png")));
    return *image;
  }

  // A 4 x 4 grid of pixels inside each quad, with the world point each pixel's centre sees.
  static std::vector<Sample> samples(const core::OrbitCamera& camera, std::size_t quads) {
    const double aspect = double(kSize.width()) / double(kSize.height());
    const glm::dmat4 viewProj = glm::dmat4(camera.projection(float(aspect))) * glm::dmat4(camera.view());
    const glm::dmat4 inverse = glm::inverse(viewProj);
    std::vector<Sample> out;
    for (std::size_t q = 0; q < quads; ++q)
      for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j) {
          const glm::dvec4 clip =
              viewProj * glm::dvec4(test::kPbrQuadPitch * double(q) + 0.15 + 0.23 * i, 0.15 + 0.23 * j, 0, 1);
          const QPoint pixel(int((clip.x / clip.w * 0.5 + 0.5) * kSize.width()),
                             int((0.5 - clip.y / clip.w * 0.5) * kSize.height()));
          const double nx = (pixel.x() + 0.5) / kSize.width() * 2 - 1, ny = 1 - (pixel.y() + 0.5) / kSize.height() * 2;
          const glm::dvec4 a = inverse * glm::dvec4(nx, ny, -1, 1), b = inverse * glm::dvec4(nx, ny, 1, 1);
          const dvec3 from = dvec3(a) / a.w, to = dvec3(b) / b.w;
          const double t = from.z / (from.z - to.z);
          out.push_back({pixel, from + (to - from) * t, int(q)});
        }
    return out;
  }

  // Compares every sample's pixel with `expected` (linear, before the sRGB encode).
  template <class Expected>
  static QString compare(const QImage& image, const std::vector<Sample>& at, const Expected& expected) {
    int worst = 0;
    QString where;
    for (const Sample& s : at) {
      const dvec3 linear = expected(s);
      const QColor seen = image.pixelColor(s.pixel);
      const int want[3] = {int(std::lround(255 * srgbEncode(linear.r))), int(std::lround(255 * srgbEncode(linear.g))),
                           int(std::lround(255 * srgbEncode(linear.b)))};
      const int got[3] = {seen.red(), seen.green(), seen.blue()};
      for (int c = 0; c < 3; ++c)
        if (std::abs(got[c] - want[c]) > worst) {
          worst = std::abs(got[c] - want[c]);
          where = QString("quad %1 pixel (%2, %3): %4 %5 %6, expected %7 %8 %9")
                      .arg(s.quad)
                      .arg(s.pixel.x())
                      .arg(s.pixel.y())
                      .arg(got[0])
                      .arg(got[1])
                      .arg(got[2])
                      .arg(want[0])
                      .arg(want[1])
                      .arg(want[2]);
        }
    }
    return worst > kPbrChannelTolerance ? where : QString();
  }

  static std::vector<test::PbrQuad> litQuads() {
    test::PbrQuad red, gold, coated, glowing;
    red.base[0] = 0.8, red.base[1] = 0.15, red.base[2] = 0.1;
    gold.base[0] = 1.0, gold.base[1] = 0.77, gold.base[2] = 0.34, gold.metallic = 1, gold.roughness = 0.35;
    coated.base[0] = 0.2, coated.base[1] = 0.4, coated.base[2] = 0.7, coated.roughness = 0.3, coated.ior = 1.8;
    coated.specular = 0.6, coated.specularColor[1] = 0.7, coated.specularColor[2] = 0.5;
    glowing.base[0] = glowing.base[1] = glowing.base[2] = 0.05, glowing.roughness = 0.8;
    glowing.emissive[0] = 0.2, glowing.emissive[1] = 0.5, glowing.emissive[2] = 1.0, glowing.emissiveStrength = 0.8;
    return {red, gold, coated, glowing};
  }

  static dvec3 emission(const test::PbrQuad& q) {
    return dvec3(q.emissive[0], q.emissive[1], q.emissive[2]) * q.emissiveStrength;
  }

  static render::ViewSettings bare(core::ToneMap toneMap = core::ToneMap::None, float exposure = 0) {
    render::ViewSettings view;
    view.look = core::Look::Pbr;
    view.toneMap = toneMap;
    view.exposure = exposure;
    view.environmentIntensity = 0;  // punctual light alone
    return view;
  }

 private slots:
  void oneDirectionalLightMatchesAppendixB() {
    const auto quads = litQuads();
    const auto run = loadGlb(test::makePbrQuads(quads), "pbr-quads.glb");
    const core::OrbitCamera camera = cameraOn(*run);
    core::PunctualLight sun;
    sun.direction = -glm::normalize(glm::vec3(0.3f, 0.5f, 1.0f));
    sun.color = glm::vec3(3.0f, 2.85f, 2.7f);
    const QImage image = draw(run, camera, bare(), {sun}, "pbr-directional");
    const dvec3 eye(camera.eye());
    const QString problem = compare(image, samples(camera, quads.size()), [&](const Sample& s) {
      const dvec3 l = -dvec3(sun.direction), n(0, 0, 1), v = glm::normalize(eye - s.world);
      const test::PbrQuad& q = quads[std::size_t(s.quad)];
      return appendixB(q, n, v, l) * dvec3(sun.color) * glm::dot(n, l) + emission(q);
    });
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
  }

  void pointAndSpotLightsFallOff() {
    const auto quads = litQuads();
    const auto run = loadGlb(test::makePbrQuads(quads), "pbr-quads.glb");
    const core::OrbitCamera camera = cameraOn(*run);
    core::PunctualLight point, spot;
    point.type = core::PunctualLight::Type::Point;
    point.position = glm::vec3(1.0f, 0.6f, 0.7f);
    point.color = glm::vec3(0.6f, 0.55f, 0.5f);
    point.range = 2.5f;  // the far quads fall outside it
    spot.type = core::PunctualLight::Type::Spot;
    spot.position = glm::vec3(3.0f, 0.5f, 1.2f);
    spot.direction = glm::vec3(0.0f, 0.0f, -1.0f);
    spot.color = glm::vec3(1.2f);
    spot.innerConeAngle = 0.25f, spot.outerConeAngle = 0.45f;  // a cone of radius ~0.3-0.58 on the quads
    const QImage image = draw(run, camera, bare(), {point, spot}, "pbr-point-spot");
    const dvec3 eye(camera.eye());
    int unlit = 0, cone = 0;
    const QString problem = compare(image, samples(camera, quads.size()), [&](const Sample& s) {
      const dvec3 n(0, 0, 1), v = glm::normalize(eye - s.world);
      const test::PbrQuad& q = quads[std::size_t(s.quad)];
      dvec3 sum = emission(q);
      for (const core::PunctualLight* light : {&point, &spot}) {
        const dvec3 toLight = dvec3(light->position) - s.world;
        const double d = glm::length(toLight);
        const dvec3 l = toLight / d;
        double attenuation =
            light->range > 0 ? std::clamp(1 - std::pow(d / light->range, 4), 0.0, 1.0) / (d * d) : 1 / (d * d);
        if (light == &spot) {
          const double lo = std::cos(double(spot.outerConeAngle)), hi = std::cos(double(spot.innerConeAngle));
          const double t = std::clamp((glm::dot(dvec3(spot.direction), -l) - lo) / (hi - lo), 0.0, 1.0);
          attenuation *= t * t * (3 - 2 * t);  // GLSL's smoothstep
          cone += t > 0 && t < 1;
        }
        unlit += attenuation == 0;
        sum += appendixB(q, n, v, l) * dvec3(light->color) * attenuation * glm::dot(n, l);
      }
      return sum;
    });
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
    QVERIFY2(unlit > 0 && cone > 0, "the samples must reach past the range and into the spot's penumbra");
  }

  // VRM's MToon (VRMC_materials_mtoon) against three-vrm's shading worked
  // here: per light mix(shade, lit, linearstep(-1 + toony, 1 - toony,
  // N.L + shift)) x light / pi, with no N.L factor. A point light low over
  // the row makes N.L run across each quad (the ramp, its lit and its shaded
  // sides are all sampled); a light from behind adds the shade alone.
  void toonQuadsShadeAsThreeVrm() {
    std::vector<test::PbrQuad> quads(4);
    const double bases[4][3] = {{0.9, 0.6, 0.5}, {0.4, 0.7, 0.9}, {0.8, 0.8, 0.3}, {0.7, 0.7, 0.7}};
    const double shades[4][3] = {{0.3, 0.1, 0.2}, {0.1, 0.2, 0.5}, {0.5, 0.2, 0.1}, {0.2, 0.2, 0.25}};
    const double shifts[4] = {0.0, -0.3, 0.2, -0.6}, toonies[4] = {0.9, 0.5, 0.0, 0.7};
    for (std::size_t i = 0; i < quads.size(); ++i) {
      test::PbrQuad& q = quads[i];
      q.toon = true;
      for (int c = 0; c < 3; ++c) q.base[c] = bases[i][c], q.shade[c] = shades[i][c];
      q.shadingShift = shifts[i], q.shadingToony = toonies[i];
    }
    quads[3].emissive[0] = 0.1, quads[3].emissive[1] = 0.05;
    const auto run = loadGlb(test::makePbrQuads(quads), "toon-quads.glb");
    const core::OrbitCamera camera = cameraOn(*run);
    core::PunctualLight point, behind;
    point.type = core::PunctualLight::Type::Point;
    point.position = glm::vec3(2.4f, 0.5f, 0.45f);
    point.color = glm::vec3(0.5f, 0.48f, 0.45f);
    behind.direction = glm::normalize(glm::vec3(-0.2f, -0.3f, 1.0f));  // travels towards +z: lights the back
    behind.color = glm::vec3(0.9f);
    const QImage image = draw(run, camera, bare(), {point, behind}, "toon-quads");
    int ramp = 0, lit = 0, shaded = 0;
    const QString problem = compare(image, samples(camera, quads.size()), [&](const Sample& s) {
      const test::PbrQuad& q = quads[std::size_t(s.quad)];
      const dvec3 n(0, 0, 1), base(q.base[0], q.base[1], q.base[2]), shade(q.shade[0], q.shade[1], q.shade[2]);
      const auto toon = [&](dvec3 l, dvec3 light) {
        const double a = -1 + q.shadingToony, b = 1 - q.shadingToony;
        const double t = std::clamp((std::clamp(glm::dot(n, l), -1.0, 1.0) + q.shadingShift - a) / (b - a), 0.0, 1.0);
        return light * glm::mix(shade, base, t) / kPi;
      };
      const dvec3 toLight = dvec3(point.position) - s.world;
      const double d2 = glm::dot(toLight, toLight);
      const dvec3 l = toLight / std::sqrt(d2);
      const double a = -1 + q.shadingToony, b = 1 - q.shadingToony, x = glm::dot(n, l) + q.shadingShift;
      ramp += x > a && x < b, lit += x >= b, shaded += x <= a;
      return toon(l, dvec3(point.color) / d2) + toon(-dvec3(behind.direction), dvec3(behind.color)) + emission(q);
    });
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
    QVERIFY2(ramp > 0 && lit > 0 && shaded > 0, "the samples must cover the step's ramp and both its sides");
  }

  void toneMapsFollowTheirFormulas_data() {
    QTest::addColumn<int>("toneMap");
    QTest::addColumn<float>("exposure");
    QTest::newRow("neutral") << int(core::ToneMap::PbrNeutral) << 0.0f;
    QTest::newRow("neutral +1 EV") << int(core::ToneMap::PbrNeutral) << 1.0f;
    QTest::newRow("aces") << int(core::ToneMap::Aces) << 0.0f;
    QTest::newRow("none -1 EV") << int(core::ToneMap::None) << -1.0f;
  }
  void toneMapsFollowTheirFormulas() {
    // Emission alone (no lights, no environment): the tone mapper's input is
    // the emissive colour times 2^exposure, spanning its linear toe, its
    // shoulder and far past white.
    std::vector<test::PbrQuad> quads(4);
    const double emissive[4][3] = {{0.3, 0.2, 0.1}, {0.9, 0.6, 0.2}, {1.0, 0.5, 0.25}, {0.2, 0.8, 1.0}};
    const double strength[4] = {1, 1, 3, 8};
    for (int i = 0; i < 4; ++i) {
      quads[std::size_t(i)].base[0] = quads[std::size_t(i)].base[1] = quads[std::size_t(i)].base[2] = 0;
      for (int c = 0; c < 3; ++c) quads[std::size_t(i)].emissive[c] = emissive[i][c];
      quads[std::size_t(i)].emissiveStrength = strength[i];
    }
    QFETCH(int, toneMap);
    QFETCH(float, exposure);
    const auto run = loadGlb(test::makePbrQuads(quads), "pbr-emissive.glb");
    const core::OrbitCamera camera = cameraOn(*run);
    const auto map = core::ToneMap(toneMap);
    const QImage image =
        draw(run, camera, bare(map, exposure), {}, QString("pbr-tonemap-%1").arg(QTest::currentDataTag()));
    const QString problem = compare(image, samples(camera, quads.size()), [&](const Sample& s) {
      const dvec3 c = emission(quads[std::size_t(s.quad)]) * std::exp2(double(exposure));
      const dvec3 mapped = map == core::ToneMap::PbrNeutral ? pbrNeutral(c)
                           : map == core::ToneMap::Aces     ? acesHill(c)
                                                            : c;
      return glm::clamp(mapped, dvec3(0), dvec3(1));
    });
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
  }

  void normalMapsFollowTheirTangentFrames() {
    // One constant normal map texel on three quads (pbr_fixture.h): the
    // expected normal is built here from each quad's geometry as glTF defines
    // the frame — the tangent along increasing u, the bitangent up the image
    // (decreasing v), the sign folded in — or from the file's TANGENT on the
    // third quad; then Appendix B under one directional light.
    const unsigned char texel[3] = {200, 150, 220};
    const dvec3 m = dvec3(texel[0], texel[1], texel[2]) / 255.0 * 2.0 - 1.0;
    const auto run = loadGlb(test::makeNormalMappedQuads(texel), "pbr-normal-mapped.glb");
    const core::OrbitCamera camera = cameraOn(*run);
    core::PunctualLight sun;
    sun.direction = -glm::normalize(glm::vec3(-0.4f, 0.3f, 1.0f));
    sun.color = glm::vec3(2.5f);
    const QImage image = draw(run, camera, bare(), {sun}, "pbr-normal-mapped");
    // Per quad: tangent, bitangent (u = x, v = 1 - y: +x and +y; mirrored u:
    // -x and +y; the file's TANGENT +y, sign +1: +y and cross(z, y) = -x).
    const dvec3 frames[3][2] = {{{1, 0, 0}, {0, 1, 0}}, {{-1, 0, 0}, {0, 1, 0}}, {{0, 1, 0}, {-1, 0, 0}}};
    test::PbrQuad white;
    white.base[0] = white.base[1] = white.base[2] = 0.9, white.roughness = 0.4;
    const dvec3 eye(camera.eye()), l = -dvec3(sun.direction);
    const QString problem = compare(image, samples(camera, 3), [&](const Sample& s) {
      const auto& frame = frames[s.quad];
      const dvec3 n = glm::normalize(frame[0] * m.x + frame[1] * m.y + dvec3(0, 0, 1) * m.z);
      const double nl = glm::dot(n, l);
      return nl > 0 ? appendixB(white, n, glm::normalize(eye - s.world), l) * dvec3(sun.color) * nl : dvec3(0);
    });
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
  }

  // A skinned mesh's normal maps turn with its bones. The normal-mapped
  // quads (the third with the file's own TANGENT, which no screen-space
  // frame would reproduce) on one turned bone, skinned by the renderer's
  // pass, draw as the same quads skinned on the CPU (core::skinMesh and
  // core::skinTangents) and drawn as a static mesh. The control: the static
  // quads with their tangents left unturned draw visibly differently, so
  // the comparison can tell a turned frame from a stale one.
  void skinnedNormalMapsTurnWithTheirBones() {
    const unsigned char texel[3] = {200, 150, 220};
    const auto file = loadGlb(test::makeNormalMappedQuads(texel), "pbr-normal-mapped.glb");
    const core::PartMesh& rest = file->meshes[0];
    QCOMPARE(file->materials.tangents.size(), rest.vertexCount() * 4);
    core::LoadedRun skinned;
    skinned.kind = core::RunKind::SkinnedMesh;
    skinned.rig = core::Rig::singlePart("quads");
    skinned.meshes = {rest};
    skinned.materials = file->materials;
    skinned.skin = core::SkinData{};
    skinned.skin->boneNames = {"quads"};
    skinned.skin->inverseBinds = {glm::mat4(1.0f)};
    skinned.skin->rigid.assign(rest.vertexCount(), 0);
    skinned.boneParts = {0};
    skinned.boneBounds = core::boneBindBounds(rest, *skinned.skin);
    const glm::mat4 turn =
        glm::rotate(glm::rotate(glm::mat4(1.0f), 0.5f, glm::vec3(0, 1, 0)), -0.6f, glm::vec3(1, 0, 0));
    const std::vector<glm::mat4> bones{turn};
    core::LoadedRun posed = skinned;
    posed.kind = core::RunKind::StaticMesh;
    posed.skin.reset();
    posed.boneParts.clear();
    posed.boneBounds.clear();
    posed.meshes = {core::skinMesh(rest, *skinned.skin, bones)};
    posed.materials.tangents = core::skinTangents(file->materials.tangents, *skinned.skin, bones);
    core::LoadedRun unturned = posed;
    unturned.materials.tangents = file->materials.tangents;
    const auto posedRun = std::make_shared<const core::LoadedRun>(std::move(posed));
    const core::OrbitCamera camera = cameraOn(*posedRun);
    core::PunctualLight sun;
    sun.direction = -glm::normalize(glm::vec3(-0.4f, 0.3f, 1.0f));
    sun.color = glm::vec3(2.5f);
    const QImage gpu = draw(std::make_shared<const core::LoadedRun>(std::move(skinned)), camera, bare(), {sun},
                            "pbr-normal-mapped-skinned", bones);
    const QImage cpu = draw(posedRun, camera, bare(), {sun}, "pbr-normal-mapped-posed");
    const QImage stale = draw(std::make_shared<const core::LoadedRun>(std::move(unturned)), camera, bare(), {sun},
                              "pbr-normal-mapped-unturned");
    const auto differing = [](const QImage& a, const QImage& b) {
      int count = 0;
      for (int y = 0; y < a.height(); ++y)
        for (int x = 0; x < a.width(); ++x) {
          const QRgb p = a.pixel(x, y), q = b.pixel(x, y);
          count += std::max({std::abs(qRed(p) - qRed(q)), std::abs(qGreen(p) - qGreen(q)),
                             std::abs(qBlue(p) - qBlue(q))}) > kPbrChannelTolerance;
        }
      return count;
    };
    const int apart = differing(gpu, cpu), control = differing(stale, cpu);
    // Edge pixels may rasterise differently (the two meshes' positions come
    // from two skinning paths, equal to float rounding): a handful at most.
    QVERIFY2(apart <= kEdgePixels, qPrintable(QString("%1 pixels differ").arg(apart)));
    QVERIFY2(control > 1000, qPrintable(QString("the unturned control differs in only %1 pixels").arg(control)));
  }

  void plainMaterialsDrawAsTheirWhiteTexturedTwins() {
    // A material without textures or MToon draws through part_pbr_plain.frag,
    // whose feature tests are compiled out; the same materials with white
    // textures draw through part_pbr.frag. Under the studio lights and the
    // image-based light, with the default tone map, both pictures must agree.
    const auto quads = litQuads();
    const auto plain = loadGlb(test::makePbrQuads(quads), "pbr-plain-quads.glb");
    const auto textured = loadGlb(test::makeWhiteTexturedPbrQuads(quads), "pbr-white-textured-quads.glb");
    QVERIFY(textured->materials.materials.at(0).image >= 0);
    const core::OrbitCamera camera = cameraOn(*plain);
    render::ViewSettings view;
    view.look = core::Look::Pbr;
    view.showGrid = view.showAxes = false;
    const QImage a = draw(plain, camera, view, core::studioLights(), "pbr-plain");
    const QImage b = draw(textured, camera, view, core::studioLights(), "pbr-white-textured");
    int worst = 0, lit = 0;
    for (int y = 0; y < a.height(); ++y)
      for (int x = 0; x < a.width(); ++x) {
        const QRgb p = a.pixel(x, y), q = b.pixel(x, y);
        worst = std::max(
            {worst, std::abs(qRed(p) - qRed(q)), std::abs(qGreen(p) - qGreen(q)), std::abs(qBlue(p) - qBlue(q))});
        lit += p != a.pixel(0, 0);
      }
    QVERIFY2(worst <= kVariantLevels, qPrintable(QString("the pictures differ by %1 levels").arg(worst)));
    QVERIFY2(lit > 10000, "the quads must cover the picture");
  }

  void whiteFurnaceStaysWhite() {
    // A uniform white environment and no lights: a white dielectric and a
    // white metal, rough and half rough, give back all the light they get
    // (the split sum alone loses up to a third at roughness 1 on a metal;
    // the multiple-scattering term returns it). Exposure -1 keeps the
    // expected 0.5 off the clamp, so too bright would show.
    test::PbrQuad dielectric, metal, halfRoughDielectric, halfRoughMetal;
    for (test::PbrQuad* q : {&dielectric, &metal, &halfRoughDielectric, &halfRoughMetal})
      q->base[0] = q->base[1] = q->base[2] = 1.0f;
    dielectric.roughness = metal.roughness = 1.0f;
    halfRoughDielectric.roughness = halfRoughMetal.roughness = 0.5f;
    metal.metallic = halfRoughMetal.metallic = 1.0f;
    const std::vector<test::PbrQuad> quads{dielectric, metal, halfRoughDielectric, halfRoughMetal};
    const auto run = loadGlb(test::makePbrQuads(quads), "pbr-furnace.glb");
    const core::OrbitCamera camera = cameraOn(*run);
    render::ViewSettings view = bare(core::ToneMap::None, -1.0f);
    view.environmentIntensity = 1.0f;
    view.environment = std::make_shared<const core::EnvironmentMap>(core::uniformEnvironment(glm::vec3(1.0f)));
    const QImage image = draw(run, camera, view, {}, "pbr-white-furnace");
    const QString problem = compare(image, samples(camera, quads.size()), [](const Sample&) { return dvec3(0.5); });
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
  }

  void spheresToLookAt() {
    // Not a comparison: the picture a person checks (build/test-output),
    // both looks side by side, and that the PBR one differs from review.
    const auto run = loadGlb(test::makePbrSpheres(), "pbr-spheres.glb");
    core::OrbitCamera camera;
    camera.frame(core::posedBounds(*run, {}, nullptr), float(kSize.width()) / float(kSize.height()));
    render::ViewSettings pbr;
    pbr.look = core::Look::Pbr;
    const QImage lit = draw(run, camera, pbr, core::studioLights(), "pbr-spheres");
    const QImage review = draw(run, camera, render::ViewSettings{}, core::studioLights(), "pbr-spheres-review");
    QVERIFY(lit != review);
  }
};

QTEST_MAIN(TestRenderPbr)
#include "tst_render_pbr.moc"
