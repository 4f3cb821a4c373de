// Tangents for normal maps (core::mikkTangents, and the glTF reader that
// keeps a file's TANGENT or makes them): cases whose tangents are known —
// a flat quad (+x, sign +1 under glTF's downward v), the same with u
// mirrored (-x, sign -1), a UV sphere (the direction of increasing
// longitude, sign +1), welded copies of a vertex (one tangent) — and a
// file's TANGENT carried through its node's rotation and mirror.
#include <QtTest/QTest>
#include <cmath>
#include <glm/geometric.hpp>
#include <glm/gtc/quaternion.hpp>

#include "built_glb.h"
#include "pbr_fixture.h"
#include "riglens/core/gltf/tangent_space.h"
#include "riglens/core/open/asset_readers.h"
#include "test_paths.h"

using namespace riglens;

namespace {

constexpr double kPi = 3.14159265358979323846;
// Float rounding of a tangent computed from float positions and coordinates.
constexpr double kTangentTolerance = 1e-5;
// A UV sphere's interior vertex pools the triangles round it: the two
// triangles of each quad have slightly different u directions, so the
// angle-weighted mean leans up to ~0.3 degrees from the analytic one on a
// 48 x 32 sphere (measured 0.27 degrees at worst).
constexpr double kSphereCosine = 0.99998;

glm::dvec4 tangentOf(const std::vector<float>& tangents, std::size_t v) {
  return {tangents[v * 4], tangents[v * 4 + 1], tangents[v * 4 + 2], tangents[v * 4 + 3]};
}

}  // namespace

class TestCoreTangentSpace : public QObject {
  Q_OBJECT

 private slots:
  void aFlatQuadAndItsMirror() {
    const std::vector<float> positions = {0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0};
    const std::vector<float> normals = {0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1};
    const std::vector<std::uint32_t> triangles = {0, 1, 2, 0, 2, 3};
    const std::vector<float> usual = {0, 1, 1, 1, 1, 0, 0, 0}, mirrored = {1, 1, 0, 1, 0, 0, 1, 0};
    const auto plain = core::mikkTangents(positions, normals, usual, triangles);
    const auto flipped = core::mikkTangents(positions, normals, mirrored, triangles);
    for (std::size_t v = 0; v < 4; ++v) {
      QVERIFY(glm::distance(tangentOf(plain, v), glm::dvec4(1, 0, 0, 1)) < kTangentTolerance);
      QVERIFY(glm::distance(tangentOf(flipped, v), glm::dvec4(-1, 0, 0, -1)) < kTangentTolerance);
    }
  }

  void weldedCopiesShareOneTangent() {
    // Two triangles, each with its own copy of one corner (same position,
    // normal and coordinates): MikkTSpace takes the copies as one vertex.
    // A: (0,0) (1,0) (0,1), u = x, v = 1 - y: u runs along +x; its angle at
    // (1,0) is 45 degrees. B: (1,0) (2,0) (1,-1), u = 1 - y, v = x: u runs
    // along -y; its angle at (1,0) is 90 degrees; same orientation as A.
    // The copies: (pi/4 (1,0,0) + pi/2 (0,-1,0)) normalised = (1,-2,0)/sqrt(5).
    const std::vector<float> positions = {0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 0, 0, 2, 0, 0, 1, -1, 0};
    std::vector<float> normals(18, 0.0f);
    for (std::size_t v = 0; v < 6; ++v) normals[v * 3 + 2] = 1;
    const std::vector<float> uvs = {0, 1, 1, 1, 0, 0, 1, 1, 1, 2, 2, 1};
    const std::vector<std::uint32_t> triangles = {0, 1, 2, 3, 4, 5};
    const auto tangents = core::mikkTangents(positions, normals, uvs, triangles);
    const glm::dvec4 pooled(1 / std::sqrt(5.0), -2 / std::sqrt(5.0), 0, 1);
    QVERIFY(glm::distance(tangentOf(tangents, 1), pooled) < kTangentTolerance);
    QVERIFY(glm::distance(tangentOf(tangents, 3), pooled) < kTangentTolerance);
    QVERIFY(glm::distance(tangentOf(tangents, 0), glm::dvec4(1, 0, 0, 1)) < kTangentTolerance);   // A's alone
    QVERIFY(glm::distance(tangentOf(tangents, 4), glm::dvec4(0, -1, 0, 1)) < kTangentTolerance);  // B's alone
  }

  void aSphereFollowsItsLongitude() {
    test::GltfBuilder builder;
    test::addSphere(builder, 0, 0, -1);
    const auto& accessor = [&](const char* name) {
      const auto& a = builder.model.accessors[std::size_t(builder.model.meshes[0].primitives[0].attributes[name])];
      const auto& view = builder.model.bufferViews[std::size_t(a.bufferView)];
      const float* data = reinterpret_cast<const float*>(builder.model.buffers[0].data.data() + view.byteOffset);
      return std::vector<float>(data, data + a.count * (a.type == TINYGLTF_TYPE_VEC2 ? 2 : 3));
    };
    const std::vector<float> positions = accessor("POSITION"), normals = accessor("NORMAL"),
                             uvs = accessor("TEXCOORD_0");
    const auto& ia = builder.model.accessors[std::size_t(builder.model.meshes[0].primitives[0].indices)];
    const auto& iv = builder.model.bufferViews[std::size_t(ia.bufferView)];
    const auto* i16 = reinterpret_cast<const std::uint16_t*>(builder.model.buffers[0].data.data() + iv.byteOffset);
    const std::vector<std::uint32_t> triangles(i16, i16 + ia.count);
    const auto tangents = core::mikkTangents(positions, normals, uvs, triangles);
    double worst = 1;
    for (std::size_t v = 0; v < positions.size() / 3; ++v) {
      const double u = uvs[v * 2], w = uvs[v * 2 + 1];
      if (u <= 0 || u >= 1 || w <= 0.1 || w >= 0.9) continue;  // the seam and the poles pool one side only
      const double theta = u * 2 * kPi;
      const glm::dvec3 expected(std::cos(theta), 0, -std::sin(theta));  // d/du of (sin t sin p, cos p, cos t sin p)
      const glm::dvec4 t = tangentOf(tangents, v);
      QCOMPARE(t.w, 1.0);
      worst = std::min(worst, glm::dot(glm::dvec3(t), expected));
    }
    qInfo("sphere: worst cosine %.6f", worst);
    QVERIFY(worst >= kSphereCosine);
  }

  void theReaderKeepsTheFilesTangentsAndMakesTheRest() {
    const unsigned char texel[3] = {128, 128, 255};
    test::GltfBuilder builder = test::makeNormalMappedQuads(texel);
    // The node turned a quarter about y and mirrored in x: the file's +y
    // tangent stays +y (the turn is about it), its sign flips (the mirror).
    auto& node = builder.model.nodes[0];
    const glm::dquat quarter = glm::angleAxis(kPi / 2, glm::dvec3(0, 1, 0));
    node.rotation = {quarter.x, quarter.y, quarter.z, quarter.w};
    node.scale = {-1, 1, 1};
    const auto run = test::loadBuiltGlb(std::move(builder), test::outputPath("tangents-turned.glb"));
    const auto& tangents = run->materials.tangents;
    QCOMPARE(tangents.size(), std::size_t(12 * 4));
    // Quad 0's (made): u along the quad's +x, which the mirror turns to -x
    // and the quarter turn to +z; the mirror flips the sign.
    const glm::dmat3 world =
        glm::mat3_cast(quarter) * glm::dmat3(glm::dvec3(-1, 0, 0), glm::dvec3(0, 1, 0), glm::dvec3(0, 0, 1));
    const glm::dvec3 madeU = glm::normalize(world * glm::dvec3(1, 0, 0));
    QVERIFY(glm::distance(madeU, glm::dvec3(0, 0, 1)) < kTangentTolerance);
    QVERIFY(glm::distance(tangentOf(tangents, 0), glm::dvec4(madeU, -1)) < kTangentTolerance);
    // Quad 2's (the file's +y, sign +1): +y, sign -1 under the mirror.
    QVERIFY(glm::distance(tangentOf(tangents, 8), glm::dvec4(0, 1, 0, -1)) < kTangentTolerance);
  }
};

QTEST_MAIN(TestCoreTangentSpace)
#include "tst_core_tangent_space.moc"
