// The CPU splat rasteriser against values derived by hand: an isotropic
// gaussian straight ahead of the camera projects to a circle of variance
// (f sigma / z)^2 + 0.3 px^2 (the EWA Jacobian at the axis is f / z; 0.3 is
// the low-pass of Kerbl et al.), so every pixel's alpha is
// opacity * exp(-d^2 / 2 var) in closed form; two of them blend front to
// back whatever their order in the input; a clip space whose y runs down
// mirrors the image; bands of tile rows and threads change nothing.
#include <QtTest/QTest>
#include <cmath>
#include <cstring>
#include <glm/gtc/matrix_transform.hpp>

#include "riglens/core/base/color.h"
#include "riglens/core/base/tolerances.h"
#include "riglens/core/splats/splat_rasteriser.h"
#include "test_checks.h"

using namespace riglens::core;

namespace {

constexpr int kSize = 64;
// The AVX2 blend's exp (libmvec) and the portable one's (libm) differ by an
// ulp or two; over hundreds of blended splats that moves a pixel across an
// 8-bit rounding boundary now and then, never by more than one step
// (measured on an AMD EPYC with glibc 2.36: no pixel differed at all).
constexpr double kVectorBlendDiffering = 0.02;
constexpr int kVectorBlendSteps = 1;

// Gaussians as the sink holds them.
struct Scene {
  std::vector<float> center, covA, covB;
  std::vector<std::uint32_t> color;
  void add(glm::vec3 p, float sigma, glm::vec3 rgb, float opacity) {
    const float v = sigma * sigma;
    addCovariance(p, {v, 0, 0, v, 0, v}, rgb, opacity);
  }
  void addCovariance(glm::vec3 p, std::array<float, 6> s, glm::vec3 rgb, float opacity) {
    center.insert(center.end(), {p.x, p.y, p.z, 1.0f});
    covA.insert(covA.end(), {s[0], s[1], s[2], s[3]});
    covB.insert(covB.end(), {s[4], s[5], 0.0f, 0.0f});
    color.push_back(packRgba(rgb.r, rgb.g, rgb.b, opacity));
  }
  SplatInputs inputs() const {
    SplatInputs in;
    in.center = center;
    in.covarianceA = covA;
    in.covarianceB = covB;
    in.color = color;
    return in;
  }
};

// Looking down -z from the origin, 60 degrees, OpenGL clip space.
SplatCamera straightAhead(int width = kSize, int height = kSize) {
  SplatCamera c;
  c.clip = glm::perspective(glm::radians(60.0f), float(width) / float(height), 0.1f, 100.0f);
  c.size = {float(width), float(height)};
  c.focal = {c.clip[0][0] * float(width) / 2, c.clip[1][1] * float(height) / 2};
  c.nearZ = 0.1f;
  c.logScale = 65535.0f / std::log(1000.0f);
  return c;
}

std::array<float, 4> colourAt(const SplatImage& image, int x, int y) {
  return unpackRgba(image.pixels[(std::size_t(y) * std::size_t(image.width) + std::size_t(x)) * 2]);
}
float depthAt(const SplatImage& image, int x, int y) {
  float d;
  std::memcpy(&d, &image.pixels[(std::size_t(y) * std::size_t(image.width) + std::size_t(x)) * 2 + 1], 4);
  return d;
}
float ndcDepth(const SplatCamera& c, float z) {
  const glm::vec4 clip = c.clip * glm::vec4(0, 0, z, 1);
  return clip.z / clip.w;
}
// The closed-form alpha of an isotropic gaussian on the axis at distance
// `z`, at a pixel whose centre is `d2` squared pixels from its centre.
float axisAlpha(const SplatCamera& c, float sigma, float z, float opacity, float d2) {
  const float spread = c.focal.y * sigma / z;
  return std::min(0.99f, opacity * std::exp(-0.5f * d2 / (spread * spread + 0.3f)));
}

}  // namespace

class TestSplatRasteriser : public QObject {
  Q_OBJECT
 private slots:
  void oneGaussianIsItsClosedForm() {
    Scene scene;
    scene.add({0, 0, -4}, 0.1f, {1.0f, 0.5f, 0.25f}, 0.8f);
    const SplatCamera camera = straightAhead();
    SplatImage image;
    const SplatRasterStats stats = rasteriseSplats(scene.inputs(), camera, image);
    QCOMPARE(image.width, kSize);
    QCOMPARE(image.height, kSize);
    QCOMPARE(stats.visible, std::size_t(1));
    // Its centre is the image's centre (32, 32): pixel (x, y) is
    // (x + 0.5 - 32)^2 + (y + 0.5 - 32)^2 from it. Colours and opacity are
    // what packRgba kept of them (8 bits).
    const auto stored = unpackRgba(scene.color[0]);
    for (const auto& [x, y] : {std::pair{32, 32}, std::pair{31, 32}, std::pair{34, 30}, std::pair{29, 33}}) {
      const float d2 = std::pow(float(x) + 0.5f - 32.0f, 2.0f) + std::pow(float(y) + 0.5f - 32.0f, 2.0f);
      const float alpha = axisAlpha(camera, 0.1f, 4.0f, stored[3], d2);
      const auto got = colourAt(image, x, y);
      for (int k = 0; k < 3; ++k)  // premultiplied
        QVERIFY2(std::abs(got[std::size_t(k)] - stored[std::size_t(k)] * alpha) <= riglens::core::tolerance::kColorStep,
                 qPrintable(QString("(%1, %2) channel %3: %4 vs %5")
                                .arg(x)
                                .arg(y)
                                .arg(k)
                                .arg(got[std::size_t(k)])
                                .arg(stored[std::size_t(k)] * alpha)));
      QCOMPARE_NEAR(got[3], alpha, riglens::core::tolerance::kColorStep);
      QCOMPARE(depthAt(image, x, y), ndcDepth(camera, -4.0f));
    }
    // Far from it (30 px, 20 of its standard deviations): nothing, not even a depth.
    QCOMPARE(image.pixels[0], 0u);
    QCOMPARE(image.pixels[1], 0u);
  }

  void twoGaussiansBlendFrontToBackWhateverTheirOrder() {
    // Far blue first in the input, near red second: the near one is blended
    // first. At the centre pixel: colour = red a1 + blue a2 (1 - a1), alpha
    // 1 - (1 - a1)(1 - a2); the depth is the far one's, the splat that takes
    // the pixel's transmittance from above one half (1 - a1 = 0.53) to below
    // it ((1 - a1)(1 - a2) = 0.26).
    Scene scene;
    scene.add({0, 0, -5}, 0.1f, {0, 0, 1}, 0.6f);
    scene.add({0, 0, -3}, 0.1f, {1, 0, 0}, 0.5f);
    const SplatCamera camera = straightAhead();
    SplatImage image;
    rasteriseSplats(scene.inputs(), camera, image);
    const float o2 = unpackRgba(scene.color[0])[3], o1 = unpackRgba(scene.color[1])[3];
    const float a1 = axisAlpha(camera, 0.1f, 3.0f, o1, 0.5f), a2 = axisAlpha(camera, 0.1f, 5.0f, o2, 0.5f);
    QVERIFY(1 - a1 > 0.5f && (1 - a1) * (1 - a2) < 0.5f);
    const auto got = colourAt(image, 32, 32);
    QCOMPARE_NEAR(got[0], a1, riglens::core::tolerance::kColorStep);
    QCOMPARE(got[1], 0.0f);
    QCOMPARE_NEAR(got[2], a2 * (1 - a1), riglens::core::tolerance::kColorStep);
    QCOMPARE_NEAR(got[3], (1 - (1 - a1) * (1 - a2)), riglens::core::tolerance::kColorStep);
    QCOMPARE(depthAt(image, 32, 32), ndcDepth(camera, -5.0f));
  }

  void aClipSpaceWithYDownMirrorsTheImage() {
    // An elongated, tilted gaussian off the axis, drawn in OpenGL's clip
    // space and in one whose y runs down (Vulkan's, with flipY): row y of
    // one is row 63 - y of the other.
    Scene scene;
    scene.addCovariance({0.3f, 0.2f, -4}, {0.04f, 0.03f, 0.0f, 0.04f, 0.0f, 0.001f}, {0.2f, 0.9f, 0.4f}, 0.9f);
    const SplatCamera up = straightAhead();
    SplatCamera down = up;
    down.clip = glm::scale(glm::mat4(1.0f), glm::vec3(1, -1, 1)) * up.clip;
    down.flipY = true;
    SplatImage a, b;
    rasteriseSplats(scene.inputs(), up, a);
    rasteriseSplats(scene.inputs(), down, b);
    int covered = 0;
    for (int y = 0; y < kSize; ++y)
      for (int x = 0; x < kSize; ++x) {
        const auto p = colourAt(a, x, y), q = colourAt(b, x, kSize - 1 - y);
        for (std::size_t k = 0; k < 4; ++k) QCOMPARE_NEAR(p[k], q[k], riglens::core::tolerance::kColorStep);
        covered += p[3] > 0.1f;
      }
    QVERIFY2(covered > 50, qPrintable(QString::number(covered)));  // it is drawn, not two empty images
    // Tilted: the pixels along its major axis (up-right in OpenGL's rows) are brighter than across it.
    const int cx = 32 + int(0.3f / 4 * up.focal.x), cy = 32 + int(0.2f / 4 * up.focal.y);
    QVERIFY(colourAt(a, cx + 3, cy + 3)[3] > colourAt(a, cx + 3, cy - 3)[3] + 0.1f);
  }

  void bandsAndThreadsChangeNothing() {
    // Gaussians of every size over a wide view: one thread and one band,
    // against two threads and a band per tile row: the same image, bit for bit.
    Scene scene;
    std::uint32_t seed = 12345;
    const auto next = [&seed] {
      seed = seed * 1664525u + 1013904223u;
      return float(seed >> 8) / float(1u << 24);
    };
    for (int i = 0; i < 400; ++i)
      scene.add({next() * 4 - 2, next() * 2 - 1, -3 - next() * 4}, 0.02f + next() * 0.3f, {next(), next(), next()},
                0.2f + next() * 0.8f);
    const SplatCamera camera = straightAhead(200, 120);
    SplatImage one, many;
    const auto a = rasteriseSplats(scene.inputs(), camera, one, 1);
    const auto b = rasteriseSplats(scene.inputs(), camera, many, 2, 1);
    QCOMPARE(a.visible, b.visible);
    QCOMPARE(a.tileEntries, b.tileEntries);
    QVERIFY(a.tileEntries > 400);
    QVERIFY(one.pixels == many.pixels);
  }

  void hugeGaussiansStayWithinTheImage() {
    // Gaussians far larger than the view (variances up to near the float
    // limit, where the 2D covariance overflows): whatever they draw is drawn
    // inside the image, nothing is read or written past it.
    Scene scene;
    for (float sigma : {30.0f, 1e10f, 1.8e19f}) scene.add({0.1f, 0.0f, -4.0f}, sigma, {1, 0, 0}, 0.5f);
    // And flat ones, e^32 m on one axis and nothing on the others (the ply
    // fuzzer's find: the conic degenerates and a row's span was NaN).
    scene.addCovariance({0.1f, 0.0f, -4.0f}, {6.2e27f, 0, 0, 0, 0, 0}, {0, 1, 0}, 0.5f);
    scene.addCovariance({0.1f, 0.0f, -4.0f}, {0, 0, 0, 6.2e27f, 0, 0}, {0, 1, 0}, 0.5f);
    SplatImage image;
    const auto stats = rasteriseSplats(scene.inputs(), straightAhead(), image);
    QCOMPARE(image.pixels.size(), std::size_t(kSize * kSize * 2));
    QVERIFY(stats.visible <= 5);
    // The 30 m gaussian covers the whole view at about its opacity.
    QVERIFY(colourAt(image, 0, 0)[3] > 0.4f && colourAt(image, kSize - 1, kSize - 1)[3] > 0.4f);
  }

  void theCoveredRectHoldsEveryDrawnPixel() {
    // Two small gaussians off the centre of a wide view: every pixel the
    // image holds a splat in (colour or depth) lies inside stats.covered,
    // and the rect is no larger than the drawn pixels' box grown to whole
    // 16-pixel tiles plus each splat's reach past its last lit pixel (one tile).
    constexpr int kTilePixels = 16;
    Scene scene;
    scene.add({-0.9f, 0.4f, -4}, 0.05f, {1, 0, 0}, 0.9f);
    scene.add({-0.5f, 0.5f, -4}, 0.08f, {0, 1, 0}, 0.7f);
    const SplatCamera camera = straightAhead(200, 120);
    SplatImage image;
    const auto stats = rasteriseSplats(scene.inputs(), camera, image);
    const auto& c = stats.covered;
    QVERIFY(!c.empty());
    int x0 = image.width, y0 = image.height, x1 = 0, y1 = 0;
    for (int y = 0; y < image.height; ++y)
      for (int x = 0; x < image.width; ++x) {
        const std::size_t k = (std::size_t(y) * std::size_t(image.width) + std::size_t(x)) * 2;
        if (image.pixels[k] == 0 && image.pixels[k + 1] == 0) continue;
        QVERIFY2(x >= c.x0 && x < c.x1 && y >= c.y0 && y < c.y1, qPrintable(QString("(%1, %2)").arg(x).arg(y)));
        x0 = std::min(x0, x), y0 = std::min(y0, y), x1 = std::max(x1, x + 1), y1 = std::max(y1, y + 1);
      }
    QVERIFY(x1 > x0);
    QVERIFY(c.x0 % kTilePixels == 0 && c.y0 % kTilePixels == 0);
    QVERIFY(c.x0 >= x0 / kTilePixels * kTilePixels - kTilePixels &&
            c.y0 >= y0 / kTilePixels * kTilePixels - kTilePixels);
    QVERIFY(c.x1 <= x1 + 2 * kTilePixels && c.y1 <= y1 + 2 * kTilePixels);
    QVERIFY(c.width() * c.height() < image.width * image.height / 2);  // a part of the view, not all of it
    // Nothing drawn: an empty rect.
    Scene none;
    none.add({0, 0, 2}, 0.1f, {1, 1, 1}, 1.0f);  // behind the camera
    QVERIFY(rasteriseSplats(none.inputs(), camera, image).covered.empty());
  }

  void theVectorAndPortableBlendsAgree() {
    // The blend's AVX2 loop (where the CPU has it) against the portable one
    // (RIGLENS_SIMD=off), over gaussians of every size and opacity: they
    // differ only by the rounding of exp (libmvec's against libm's), so at
    // most one 8-bit step per channel, on few pixels, and the same depths
    // wherever neither pixel's half-opaque splat changed.
    Scene scene;
    std::uint32_t seed = 777;
    const auto next = [&seed] {
      seed = seed * 1664525u + 1013904223u;
      return float(seed >> 8) / float(1u << 24);
    };
    for (int i = 0; i < 600; ++i)
      scene.add({next() * 4 - 2, next() * 2 - 1, -3 - next() * 4}, 0.02f + next() * 0.3f, {next(), next(), next()},
                0.05f + next() * 0.95f);
    const SplatCamera camera = straightAhead(240, 136);
    SplatImage vector, portable;
    rasteriseSplats(scene.inputs(), camera, vector);
    qputenv("RIGLENS_SIMD", "off");
    rasteriseSplats(scene.inputs(), camera, portable);
    qunsetenv("RIGLENS_SIMD");
    QCOMPARE(vector.pixels.size(), portable.pixels.size());
    std::size_t differing = 0, drawn = 0;
    for (std::size_t p = 0; p < vector.pixels.size(); p += 2) {
      drawn += portable.pixels[p] != 0;
      if (vector.pixels[p] == portable.pixels[p]) continue;
      ++differing;
      for (int shift = 0; shift < 32; shift += 8) {
        const int a = int((vector.pixels[p] >> shift) & 0xffu), b = int((portable.pixels[p] >> shift) & 0xffu);
        QVERIFY2(std::abs(a - b) <= kVectorBlendSteps,
                 qPrintable(QString("pixel %1: %2 vs %3").arg(p / 2).arg(a).arg(b)));
      }
    }
    QVERIFY(drawn > vector.pixels.size() / 4);
    QVERIFY2(double(differing) <= kVectorBlendDiffering * double(drawn),
             qPrintable(QString("%1 of %2 drawn pixels differ").arg(differing).arg(drawn)));
  }

  void aGaussianNearerThanTheNearPlaneIsCulled() {
    // Straight ahead but nearer than the camera's near plane (0.1 m): culled,
    // as the meshes are clipped there (and as 3DGS culls nearer than 0.2 m).
    // Past the plane the same gaussian covers the whole image.
    Scene near, past;
    near.add({0, 0, -0.05f}, 0.5f, {1, 1, 1}, 1.0f);
    past.add({0, 0, -0.15f}, 0.5f, {1, 1, 1}, 1.0f);
    SplatImage image;
    QCOMPARE(rasteriseSplats(near.inputs(), straightAhead(), image).visible, std::size_t(0));
    for (std::uint32_t word : image.pixels) QCOMPARE(word, 0u);
    QCOMPARE(rasteriseSplats(past.inputs(), straightAhead(), image).visible, std::size_t(1));
    QVERIFY(colourAt(image, 0, 0)[3] > 0.9f);
    QVERIFY(colourAt(image, kSize - 1, kSize - 1)[3] > 0.9f);
  }

  void theJacobianFollowsACentreOnlyTo3dgsReach() {
    // A gaussian (sigma 0.1 m) beside the camera, 0.2 m deep and 1 m to the
    // right (x/z = 5). Its centre projects to 32 + 5 f = 309 px (f = 55.4 px,
    // 64 px at 60 degrees). The exact Jacobian would spread it by
    // f sigma / z * sqrt(1 + 5^2) = 141 px, a 3-sigma reach of 424 px, over
    // the whole image. 3DGS takes the Jacobian at x/z clamped to 1.3 times
    // tan(30 deg) = 0.75: 27.7 * sqrt(1 + 0.75^2) = 34.6 px, a reach of 104 px,
    // which ends 141 px right of the image: nothing is drawn.
    Scene scene;
    scene.add({1.0f, 0, -0.2f}, 0.1f, {1, 1, 1}, 1.0f);
    SplatImage image;
    const auto stats = rasteriseSplats(scene.inputs(), straightAhead(), image);
    QCOMPARE(stats.visible, std::size_t(0));
    for (std::uint32_t word : image.pixels) QCOMPARE(word, 0u);
  }

  void culledGaussiansDrawNothing() {
    // Behind the camera, transparent, or not finite: nothing is drawn.
    Scene scene;
    scene.add({0, 0, 2}, 0.1f, {1, 1, 1}, 1.0f);
    scene.add({0, 0, -4}, 0.1f, {1, 1, 1}, 0.0f);
    scene.add({std::nanf(""), 0, -4}, 0.1f, {1, 1, 1}, 1.0f);
    scene.add({0, 0, -4}, std::numeric_limits<float>::infinity(), {1, 1, 1}, 1.0f);
    SplatImage image;
    const auto stats = rasteriseSplats(scene.inputs(), straightAhead(), image);
    QCOMPARE(stats.visible, std::size_t(0));
    QCOMPARE(stats.tileEntries, std::size_t(0));
    for (std::uint32_t word : image.pixels) QCOMPARE(word, 0u);
  }
};

QTEST_APPLESS_MAIN(TestSplatRasteriser)
#include "tst_core_splat_rasteriser.moc"
