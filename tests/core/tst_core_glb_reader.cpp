// Decoding part meshes: every accessor layout glTF allows for our attributes
// (built here with tinygltf), sockets, node transforms, skins, and the
// malformed-input list (each refusal names the file and the problem).
#include <meshoptimizer.h>
#include <tiny_gltf.h>

#include <QtTest/QTest>
#include <cstring>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "draco_fixture.h"
#include "gltf_builder.h"
#include "gltf_material_fixture.h"
#include "meshopt_fixture.h"
#include "riglens/core/base/tolerances.h"
#include "riglens/core/gltf/glb_reader.h"
#include "riglens/core/gltf/glb_writer.h"
#include "riglens/core/open/asset_readers.h"
#include "riglens/core/rig/run_loader.h"
#include "test_checks.h"
#include "test_paths.h"

namespace {
// Draco quantises normals octahedrally (10 bits by default: steps of about
// 0.003 rad), so a decoded normal is within 0.01 per component of the exact one.
constexpr double kDracoNormal = 0.01;
}  // namespace

using namespace riglens::core;
using riglens::test::assembleGlb;
using riglens::test::DracoTerrain;
using riglens::test::dracoTerrain;
using riglens::test::GltfBuilder;
using riglens::test::MeshoptGrid;
using riglens::test::meshoptGrid;

namespace {

const std::vector<float> kTriangle{0, 0, 0, 2, 0, 0, 0, 2, 0};

Expected<DecodedGltf> decode(GltfBuilder& b) {
  return decodeGlb(b.glb(), "part.glb");
}

}  // namespace

class TestGlbReader : public QObject {
  Q_OBJECT
 private slots:
  void roundTripsWhatTheMeshersWrite() {
    PartMesh mesh;
    mesh.positions = kTriangle;
    mesh.normals = {0, 0, 1, 0, 0, 1, 0, 0, 1};
    mesh.colors = {0.2f, 0.4f, 0.6f, 1, 0, 0, 0, 1, 0};
    mesh.indices = {0, 1, 2};
    auto decoded = decodeGlb(encodePartGlb(mesh), "hull.glb");
    QVERIFY_OK(decoded);
    QCOMPARE(decoded->mesh.positions, mesh.positions);
    QCOMPARE(decoded->mesh.normals, mesh.normals);
    QCOMPARE(decoded->mesh.colors, mesh.colors);
    QCOMPARE(decoded->mesh.indices, mesh.indices);
    QVERIFY(!decoded->skin);
  }

  void socketDecodesToAnEmptyMesh() {
    auto decoded = decodeGlb(encodePartGlb(PartMesh{}), "muzzle.glb");
    QVERIFY_OK(decoded);
    QVERIFY(decoded->mesh.empty());
  }

  void normalizedAndVec4Colours_data() {
    QTest::addColumn<int>("componentType");
    QTest::addColumn<int>("type");
    QTest::newRow("u8 vec3") << TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE << TINYGLTF_TYPE_VEC3;
    QTest::newRow("u8 vec4") << TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE << TINYGLTF_TYPE_VEC4;
    QTest::newRow("u16 vec3") << TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT << TINYGLTF_TYPE_VEC3;
    QTest::newRow("u16 vec4") << TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT << TINYGLTF_TYPE_VEC4;
    QTest::newRow("float vec4") << TINYGLTF_COMPONENT_TYPE_FLOAT << TINYGLTF_TYPE_VEC4;
  }
  void normalizedAndVec4Colours() {
    QFETCH(int, componentType);
    QFETCH(int, type);
    GltfBuilder b;
    const int comps = type == TINYGLTF_TYPE_VEC4 ? 4 : 3;
    const double full = componentType == TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE    ? 255
                        : componentType == TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT ? 65535
                                                                                  : 1;
    std::vector<double> rgba;
    for (int v = 0; v < 3; ++v)
      for (int c = 0; c < comps; ++c)
        rgba.push_back(c == 3 ? full : full > 1 ? std::round(full * (v + 1) / 4.0) : (v + 1) / 4.0);
    int color = -1;
    if (componentType == TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE)
      color = b.data(std::vector<std::uint8_t>(rgba.begin(), rgba.end()), componentType, type, true);
    else if (componentType == TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT)
      color = b.data(std::vector<std::uint16_t>(rgba.begin(), rgba.end()), componentType, type, true);
    else
      color = b.data(std::vector<float>(rgba.begin(), rgba.end()), componentType, type);
    b.primitive(
        {{"POSITION", b.data(kTriangle, TINYGLTF_COMPONENT_TYPE_FLOAT, TINYGLTF_TYPE_VEC3)}, {"COLOR_0", color}});
    auto decoded = decode(b);
    QVERIFY_OK(decoded);
    QCOMPARE(decoded->mesh.colors.size(), std::size_t(9));
    for (int v = 0; v < 3; ++v)
      for (int c = 0; c < 3; ++c)
        QCOMPARE_NEAR(decoded->mesh.colors[v * 3 + c], rgba[v * comps + c] / full,
                      riglens::core::tolerance::kFloatUnit);
    // No indices: the vertices in order. No normals: computed (+z here).
    QCOMPARE(decoded->mesh.indices, (std::vector<std::uint32_t>{0, 1, 2}));
    QCOMPARE(decoded->mesh.normals, (std::vector<float>{0, 0, 1, 0, 0, 1, 0, 0, 1}));
  }

  void indexWidths() {
    for (int type : {TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE, TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT,
                     TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT}) {
      GltfBuilder b;
      int indices = -1;
      if (type == TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE)
        indices = b.data(std::vector<std::uint8_t>{2, 1, 0}, type, TINYGLTF_TYPE_SCALAR);
      if (type == TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT)
        indices = b.data(std::vector<std::uint16_t>{2, 1, 0}, type, TINYGLTF_TYPE_SCALAR);
      if (type == TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT)
        indices = b.data(std::vector<std::uint32_t>{2, 1, 0}, type, TINYGLTF_TYPE_SCALAR);
      b.primitive({{"POSITION", b.data(kTriangle, TINYGLTF_COMPONENT_TYPE_FLOAT, TINYGLTF_TYPE_VEC3)}}, indices);
      auto decoded = decode(b);
      QVERIFY_OK(decoded);
      QCOMPARE(decoded->mesh.indices, (std::vector<std::uint32_t>{2, 1, 0}));
      QCOMPARE(decoded->mesh.normals[2], -1.0f);  // clockwise from +z: the normal faces -z
      QCOMPARE(decoded->mesh.colors[0], 0.8f);    // no COLOR_0, no material: neutral grey
    }
  }

  void pbrInputsAndTheirTextureCoordinates() {
    // One quad, every PBR input set: the base colour on TEXCOORD_0 through a
    // transform, the normal map on TEXCOORD_0 plain (it must undo the base
    // colour's transform), occlusion on TEXCOORD_1 rotated, the
    // metallic-roughness on a third set (read from set 0, with a warning).
    GltfBuilder b;
    const std::vector<float> positions = {0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0};
    const std::vector<float> uv0 = {0, 1, 1, 1, 1, 0, 0, 0}, uv1 = {0.1f, 0.2f, 0.3f, 0.4f, 0.5f, 0.6f, 0.7f, 0.9f};
    const std::vector<std::uint16_t> indices = {0, 1, 2, 0, 2, 3};
    b.primitive({{"POSITION", b.positionData(positions)},
                 {"TEXCOORD_0", b.data(uv0, TINYGLTF_COMPONENT_TYPE_FLOAT, TINYGLTF_TYPE_VEC2)},
                 {"TEXCOORD_1", b.data(uv1, TINYGLTF_COMPONENT_TYPE_FLOAT, TINYGLTF_TYPE_VEC2)}},
                b.data(indices, TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT, TINYGLTF_TYPE_SCALAR));
    b.model.meshes[0].primitives[0].material = 0;
    QImage pixel(1, 1, QImage::Format_RGBA8888);
    pixel.fill(Qt::white);
    riglens::test::addPngTexture(b, pixel);
    const auto numbers = [](std::initializer_list<double> values) {
      tinygltf::Value::Array out;
      for (double v : values) out.emplace_back(v);
      return tinygltf::Value(out);
    };
    tinygltf::Material m;
    m.pbrMetallicRoughness.baseColorTexture.index = 0;
    m.pbrMetallicRoughness.baseColorTexture.extensions["KHR_texture_transform"] =
        tinygltf::Value(tinygltf::Value::Object{{"scale", numbers({2, 2})}, {"offset", numbers({0.25, 0})}});
    m.pbrMetallicRoughness.metallicFactor = 0.3;
    m.pbrMetallicRoughness.roughnessFactor = 0.6;
    m.pbrMetallicRoughness.metallicRoughnessTexture.index = 0;
    m.pbrMetallicRoughness.metallicRoughnessTexture.texCoord = 2;
    m.normalTexture.index = 0;
    m.normalTexture.scale = 0.7;
    m.occlusionTexture.index = 0;
    m.occlusionTexture.texCoord = 1;
    m.occlusionTexture.strength = 0.4;
    m.occlusionTexture.extensions["KHR_texture_transform"] =
        tinygltf::Value(tinygltf::Value::Object{{"rotation", tinygltf::Value(1.5707963267948966)}});
    m.emissiveFactor = {0.5, 0.25, 1.0};
    m.extensions["KHR_materials_emissive_strength"] =
        tinygltf::Value(tinygltf::Value::Object{{"emissiveStrength", tinygltf::Value(4.0)}});
    m.extensions["KHR_materials_ior"] = tinygltf::Value(tinygltf::Value::Object{{"ior", tinygltf::Value(1.33)}});
    m.extensions["KHR_materials_specular"] = tinygltf::Value(tinygltf::Value::Object{
        {"specularFactor", tinygltf::Value(0.5)},
        {"specularColorFactor", numbers({1, 0.5, 0.25})},
        {"specularTexture", tinygltf::Value(tinygltf::Value::Object{{"index", tinygltf::Value(0)}})}});
    m.extensions["KHR_materials_clearcoat"] = tinygltf::Value(tinygltf::Value::Object{});
    b.model.materials.push_back(m);
    const auto bytes = b.glb();
    auto decoded = decodeGlb(bytes, "pbr.glb");
    QVERIFY_OK(decoded);
    const MeshMaterials& out = decoded->materials;
    const PbrInputs& pbr = out.materials.at(0).pbr;
    QCOMPARE(pbr.metallic, 0.3f);
    QCOMPARE(pbr.roughness, 0.6f);
    QCOMPARE(pbr.normalScale, 0.7f);
    QCOMPARE(pbr.occlusionStrength, 0.4f);
    QCOMPARE((std::array<float, 3>{pbr.emissiveFactor[0], pbr.emissiveFactor[1], pbr.emissiveFactor[2]}),
             (std::array<float, 3>{0.5f, 0.25f, 1.0f}));
    QCOMPARE(pbr.emissiveStrength, 4.0f);
    QCOMPARE(pbr.ior, 1.33f);
    QCOMPARE(pbr.specular, 0.5f);
    QCOMPARE((std::array<float, 3>{pbr.specularColor[0], pbr.specularColor[1], pbr.specularColor[2]}),
             (std::array<float, 3>{1.0f, 0.5f, 0.25f}));
    // What each texture reads at each vertex: its set through its map.
    const auto reads = [&](const MaterialTexture& t, std::size_t v) {
      const std::vector<float>& set = t.set == 0 ? out.uvs : out.uvs1;
      const float u = set.at(v * 2), w = set.at(v * 2 + 1);
      const float* m6 = t.uvTransform;
      return std::array<float, 2>{m6[0] * u + m6[1] * w + m6[2], m6[3] * u + m6[4] * w + m6[5]};
    };
    QCOMPARE(pbr.normal.set, 0);
    QCOMPARE(pbr.occlusion.set, 1);
    QCOMPARE(pbr.metallicRoughness.set, 0);
    for (std::size_t v = 0; v < 4; ++v) {
      // The normal map reads TEXCOORD_0 as the file has it.
      QCOMPARE_NEAR(reads(pbr.normal, v)[0], uv0[v * 2], tolerance::kFloatCoordinate);
      QCOMPARE_NEAR(reads(pbr.normal, v)[1], uv0[v * 2 + 1], tolerance::kFloatCoordinate);
      // Occlusion: TEXCOORD_1 rotated by pi/2 (u' = v, v' = -u).
      QCOMPARE_NEAR(reads(pbr.occlusion, v)[0], uv1[v * 2 + 1], tolerance::kFloatCoordinate);
      QCOMPARE_NEAR(reads(pbr.occlusion, v)[1], -uv1[v * 2], tolerance::kFloatCoordinate);
    }
    // Warned: the third set, the specular texture, clearcoat; not the honoured extensions.
    std::string warnings;
    for (const auto& w : decoded->warnings) warnings += w.pointer + ": " + w.message + "\n";
    QVERIFY2(warnings.find("TEXCOORD_2") != std::string::npos, warnings.c_str());
    QVERIFY2(warnings.find("specularTexture") != std::string::npos, warnings.c_str());
    QVERIFY2(warnings.find("KHR_materials_clearcoat is drawn as the base material") != std::string::npos,
             warnings.c_str());
    for (const char* honoured : {"KHR_materials_ior is", "KHR_materials_emissive_strength is"})
      QVERIFY2(warnings.find(honoured) == std::string::npos, warnings.c_str());
  }

  void baseColourIsVertexColourTimesTheMaterialFactor() {
    // glTF 2.0 section 3.9.2: base colour = COLOR_0 x baseColorFactor; a
    // material alone gives its factor; neither gives neutral grey.
    const std::vector<float> rgb{1.0f, 0.5f, 0.25f, 0.2f, 0.4f, 0.6f, 1.0f, 1.0f, 1.0f};
    for (const bool withColours : {true, false}) {
      GltfBuilder b;
      std::map<std::string, int> attributes{
          {"POSITION", b.data(kTriangle, TINYGLTF_COMPONENT_TYPE_FLOAT, TINYGLTF_TYPE_VEC3)}};
      if (withColours) attributes["COLOR_0"] = b.data(rgb, TINYGLTF_COMPONENT_TYPE_FLOAT, TINYGLTF_TYPE_VEC3);
      b.primitive(attributes);
      tinygltf::Material material;
      material.pbrMetallicRoughness.baseColorFactor = {0.5, 1.0, 0.8, 1.0};
      b.model.materials.push_back(material);
      b.model.meshes[0].primitives[0].material = 0;
      auto decoded = decode(b);
      QVERIFY_OK(decoded);
      const float factor[3] = {0.5f, 1.0f, 0.8f};
      for (int v = 0; v < 3; ++v)
        for (int c = 0; c < 3; ++c)
          QCOMPARE_NEAR(decoded->mesh.colors[std::size_t(v * 3 + c)],
                        (withColours ? rgb[std::size_t(v * 3 + c)] : 1.0f) * factor[c],
                        riglens::core::tolerance::kFloatUnit);
    }
  }

  void interleavedViewWithStride() {
    // position xyz + colour rgb interleaved in one view with a 24-byte stride.
    std::vector<float> interleaved;
    for (int v = 0; v < 3; ++v) {
      interleaved.insert(interleaved.end(), {kTriangle[v * 3], kTriangle[v * 3 + 1], kTriangle[v * 3 + 2]});
      interleaved.insert(interleaved.end(), {0.1f * v, 0.5f, 1.0f});
    }
    GltfBuilder b;
    const int view = b.view(interleaved.data(), interleaved.size() * 4, 24);
    const int pos = b.accessor(view, TINYGLTF_COMPONENT_TYPE_FLOAT, TINYGLTF_TYPE_VEC3, 3, 0);
    const int col = b.accessor(view, TINYGLTF_COMPONENT_TYPE_FLOAT, TINYGLTF_TYPE_VEC3, 3, 12);
    b.primitive({{"POSITION", pos}, {"COLOR_0", col}});
    auto decoded = decode(b);
    QVERIFY_OK(decoded);
    QCOMPARE(decoded->mesh.positions, kTriangle);
    QCOMPARE(decoded->mesh.colors[3], 0.1f);
    QCOMPARE(decoded->mesh.colors[8], 1.0f);
  }

  void severalPrimitivesStripsAndNodeTransforms() {
    GltfBuilder b;
    const int pos = b.data(kTriangle, TINYGLTF_COMPONENT_TYPE_FLOAT, TINYGLTF_TYPE_VEC3);
    b.primitive({{"POSITION", pos}});
    const std::vector<float> quad{0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0};
    b.primitive({{"POSITION", b.data(quad, TINYGLTF_COMPONENT_TYPE_FLOAT, TINYGLTF_TYPE_VEC3)}}, -1,
                TINYGLTF_MODE_TRIANGLE_STRIP);
    b.primitive({{"POSITION", pos}}, -1, TINYGLTF_MODE_LINE);  // skipped with a warning
    b.model.nodes[0].translation = {10, 0, 0};
    auto decoded = decode(b);
    QVERIFY_OK(decoded);
    QCOMPARE(decoded->mesh.vertexCount(), std::size_t(7));
    QCOMPARE(decoded->mesh.indices, (std::vector<std::uint32_t>{0, 1, 2, 3, 4, 5, 5, 4, 6}));
    QCOMPARE(decoded->mesh.positions[0], 10.0f);  // node translation baked in
    QCOMPARE(decoded->warnings.size(), std::size_t(1));
  }

  // glTF's modes are 0-6. A primitive whose mode is none of them (tinygltf
  // writes its -1 default when a tool leaves the mode unset; three.js and
  // the Khronos validator refuse it) is drawn as triangles, the default,
  // and the reader says so once, at the first such mode's pointer.
  void anOutOfRangeModeIsDrawnAsTrianglesWithAWarning_data() {
    QTest::addColumn<int>("mode");
    QTest::newRow("-1") << -1;
    QTest::newRow("7") << 7;
  }
  void anOutOfRangeModeIsDrawnAsTrianglesWithAWarning() {
    QFETCH(int, mode);
    GltfBuilder b;
    const int positions = b.data(kTriangle, TINYGLTF_COMPONENT_TYPE_FLOAT, TINYGLTF_TYPE_VEC3);
    for (int p = 0; p < 3; ++p) b.primitive({{"POSITION", positions}}, -1, mode);
    auto decoded = decode(b);
    QVERIFY_OK(decoded);
    QCOMPARE(decoded->mesh.indices, (std::vector<std::uint32_t>{0, 1, 2, 3, 4, 5, 6, 7, 8}));
    // Said once for the three primitives, at the first.
    QCOMPARE(decoded->warnings.size(), std::size_t(1));
    QCOMPARE(decoded->warnings[0].pointer, std::string("/meshes/0/primitives/0/mode"));
    const std::string expected = "mode " + std::to_string(mode) + " is not a glTF primitive mode (0-6)";
    QVERIFY2(decoded->warnings[0].message.find(expected) != std::string::npos, decoded->warnings[0].message.c_str());
  }

  void skinIsRead() {
    GltfBuilder b;
    b.primitive({{"POSITION", b.data(kTriangle, TINYGLTF_COMPONENT_TYPE_FLOAT, TINYGLTF_TYPE_VEC3)},
                 {"JOINTS_0", b.data(std::vector<std::uint8_t>{0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0},
                                     TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE, TINYGLTF_TYPE_VEC4)},
                 {"WEIGHTS_0", b.data(std::vector<float>{1, 0, 0, 0, 1, 0, 0, 0, 0.5f, 0.5f, 0, 0},
                                      TINYGLTF_COMPONENT_TYPE_FLOAT, TINYGLTF_TYPE_VEC4)}});
    tinygltf::Node hull, turret;
    hull.name = "hull";
    turret.name = "turret";
    b.model.nodes.push_back(hull);
    b.model.nodes.push_back(turret);
    tinygltf::Skin skin;
    skin.joints = {1, 2};
    b.model.skins.push_back(skin);
    b.model.nodes[0].skin = 0;
    auto decoded = decode(b);
    QVERIFY_OK(decoded);
    QVERIFY(decoded->skin);
    QCOMPARE(decoded->skin->boneNames, (std::vector<std::string>{"hull", "turret"}));
    QCOMPARE(decoded->skin->joints[4], 1u);
    QCOMPARE(decoded->skin->weights[9], 0.5f);
    QCOMPARE(decoded->skin->inverseBinds.size(), std::size_t(2));
  }

  void eightInfluencesKeepTheFourLargest() {
    // JOINTS_1 / WEIGHTS_1: vertex 0 spreads over 8 joints (0.3, 0.05, 0.2,
    // 0.05 | 0.1, 0.15, 0.1, 0.05): it keeps 0.3 (joint 0), 0.2 (2), 0.15
    // (5) and the first 0.1 (4), scaled by 1 / 0.75 back to a total of 1;
    // vertex 1 uses only its first set and is unchanged. The file is told.
    GltfBuilder b;
    const auto u8 = [&](std::vector<std::uint8_t> v) {
      return b.data(v, TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE, TINYGLTF_TYPE_VEC4);
    };
    const auto f32 = [&](std::vector<float> v) { return b.data(v, TINYGLTF_COMPONENT_TYPE_FLOAT, TINYGLTF_TYPE_VEC4); };
    b.primitive({{"POSITION", b.data(kTriangle, TINYGLTF_COMPONENT_TYPE_FLOAT, TINYGLTF_TYPE_VEC3)},
                 {"JOINTS_0", u8({0, 1, 2, 3, 1, 0, 0, 0, 0, 0, 0, 0})},
                 {"WEIGHTS_0", f32({0.3f, 0.05f, 0.2f, 0.05f, 1, 0, 0, 0, 1, 0, 0, 0})},
                 {"JOINTS_1", u8({4, 5, 6, 7, 0, 0, 0, 0, 0, 0, 0, 0})},
                 {"WEIGHTS_1", f32({0.1f, 0.15f, 0.1f, 0.05f, 0, 0, 0, 0, 0, 0, 0, 0})}});
    tinygltf::Skin skin;
    for (int j = 0; j < 8; ++j) {
      tinygltf::Node joint;
      joint.name = "j" + std::to_string(j);
      b.model.nodes.push_back(joint);
      skin.joints.push_back(j + 1);
    }
    b.model.skins.push_back(skin);
    b.model.nodes[0].skin = 0;
    auto decoded = decode(b);
    QVERIFY_OK(decoded);
    QCOMPARE(std::vector<std::uint32_t>(decoded->skin->joints.begin(), decoded->skin->joints.begin() + 8),
             (std::vector<std::uint32_t>{0, 2, 5, 4, 1, 0, 0, 0}));
    const float expected[4] = {0.3f / 0.75f, 0.2f / 0.75f, 0.15f / 0.75f, 0.1f / 0.75f};
    for (int k = 0; k < 4; ++k)
      QCOMPARE_NEAR(decoded->skin->weights[std::size_t(k)], expected[k], riglens::core::tolerance::kFloatUnit);
    QCOMPARE(decoded->skin->weights[4], 1.0f);
    QCOMPARE(decoded->warnings.size(), std::size_t(1));
    QCOMPARE(decoded->warnings[0].pointer, std::string("/meshes/0/primitives/0/attributes/JOINTS_1"));
    QVERIFY2(decoded->warnings[0].message.find("1 vertices lost up to 25.0% of their weight") != std::string::npos,
             decoded->warnings[0].message.c_str());
    // A second set needs both halves.
    b.model.meshes[0].primitives[0].attributes.erase("WEIGHTS_1");
    auto half = decode(b);
    QVERIFY(!half);
    QVERIFY2(half.error().message.find("JOINTS_1 and WEIGHTS_1 come in pairs") != std::string::npos,
             half.error().message.c_str());
  }

  void materialsAreRead() {
    GltfBuilder b = riglens::test::makeMaterialShowcase();
    const auto bytes = b.glb();
    {
      QFile out(riglens::test::outputPath("materials.glb"));
      QVERIFY(out.open(QIODevice::WriteOnly));
      out.write(reinterpret_cast<const char*>(bytes.data()), qint64(bytes.size()));
    }
    auto decoded = decodeGlb(bytes, "materials.glb");
    QVERIFY_OK(decoded);
    QVERIFY2(decoded->warnings.empty(), decoded->warnings.empty() ? "" : decoded->warnings[0].message.c_str());
    const MeshMaterials& m = decoded->materials;
    QCOMPARE(m.materials.size(), std::size_t(5));
    QCOMPARE(m.sections.size(), std::size_t(5));
    for (std::size_t q = 0; q < 5; ++q) {
      QCOMPARE(m.sections[q].firstIndex, std::uint32_t(q * 6));
      QCOMPARE(m.sections[q].indexCount, std::uint32_t(6));
      QCOMPARE(m.materials[std::size_t(m.sections[q].material)].name,
               std::string(riglens::test::kMaterialQuads[q].name));
    }
    const MeshMaterial &checker = m.materials[0], &leaf = m.materials[1], &glass = m.materials[2],
                       &unlit = m.materials[3], &back = m.materials[4];
    // The PNGs as Qt wrote them, decoded: the checker's (1, 0) texel is red.
    QCOMPARE(m.images.size(), std::size_t(2));
    QCOMPARE(checker.image, 0);
    QCOMPARE(m.images[0].width, 4);
    QCOMPARE(m.images[0].height, 4);
    const std::uint8_t* texel = &m.images[0].rgba[(0 * 4 + 1) * 4];
    QCOMPARE((std::array<int, 4>{texel[0], texel[1], texel[2], texel[3]}), (std::array<int, 4>{220, 30, 30, 255}));
    QCOMPARE(int(m.images[1].rgba[3]), 0);  // the leaf's transparent texel
    QVERIFY(!checker.sampler.magLinear && !checker.sampler.minLinear && !checker.sampler.mipmaps);
    QVERIFY(checker.alphaMode == AlphaMode::Opaque && !checker.doubleSided && !checker.unlit);
    QVERIFY(leaf.alphaMode == AlphaMode::Mask && leaf.alphaCutoff == 0.5f && leaf.doubleSided);
    QVERIFY(glass.alphaMode == AlphaMode::Blend && glass.alphaFactor == 0.5f && glass.image < 0);
    QVERIFY(unlit.unlit && unlit.alphaMode == AlphaMode::Opaque);
    QVERIFY(!back.doubleSided);
    // KHR_texture_transform, by hand: uv' = offset + scale * uv (no rotation).
    QCOMPARE(m.uvs.size(), decoded->mesh.vertexCount() * 2);
    const float fileUv[4][2] = {{0, 1}, {1, 1}, {1, 0}, {0, 0}};
    for (int v = 0; v < 4; ++v) {
      QCOMPARE(m.uvs[std::size_t(v) * 2], 0.25f + 2.0f * fileUv[v][0]);
      QCOMPARE(m.uvs[std::size_t(v) * 2 + 1], 2.0f * fileUv[v][1]);
      // The leaf reads TEXCOORD_1 (the transform's texCoord), untransformed.
      QCOMPARE(m.uvs[std::size_t(4 + v) * 2], fileUv[v][0]);
      QCOMPARE(m.uvs[std::size_t(4 + v) * 2 + 1], fileUv[v][1]);
    }
    // baseColorFactor's rgb is in the vertex colours, its alpha the material's.
    QCOMPARE(decoded->mesh.colors[8 * 3 + 2], 1.0f);
    QCOMPARE(decoded->mesh.colors[8 * 3 + 1], 0.4f);
  }

  void texturesThatCannotBeDrawnWarnAndDrawUntextured_data() {
    QTest::addColumn<QByteArray>("image");
    QTest::addColumn<QString>("expected");
    const auto png = [](const QImage& image) {
      const auto bytes = riglens::test::pngBytes(image);
      return QByteArray(reinterpret_cast<const char*>(bytes.data()), qsizetype(bytes.size()));
    };
    QImage small(4, 4, QImage::Format_RGBA8888);
    small.fill(Qt::red);
    QTest::newRow("not an image") << QByteArray("not a png at all") << "neither PNG nor JPEG";
    // The IHDR chunk (at byte 8) made to claim 2 GB: stb_image would grow its
    // buffer to that before finding the bytes missing.
    QByteArray claims = png(small);
    claims[8] = char(0x7f);
    QTest::newRow("a chunk past the end") << claims << "PNG chunk at byte 8 claims 2130706445 bytes";
    // Valid chunks, garbage inside: stb refuses it.
    QByteArray garbled = png(small);
    const qsizetype idat = garbled.indexOf("IDAT") + 4;  // its zlib header, zeroed
    garbled[idat] = 0;
    garbled[idat + 1] = 0;
    QTest::newRow("garbled") << garbled << "cannot be decoded";
  }
  void texturesThatCannotBeDrawnWarnAndDrawUntextured() {
    // An image RigLens cannot draw, and a texture naming a missing one: the
    // model loads, each problem is named, the materials draw untextured.
    QFETCH(QByteArray, image);
    QFETCH(QString, expected);
    GltfBuilder b = riglens::test::makeMaterialShowcase();
    b.model.images[0].bufferView = b.view(image.data(), std::size_t(image.size()));
    b.model.textures[1].source = 7;
    auto decoded = decodeGlb(b.glb(), "materials.glb");
    QVERIFY_OK(decoded);
    QCOMPARE(decoded->materials.materials[0].image, -1);
    QCOMPARE(decoded->materials.materials[1].image, -1);
    QCOMPARE(decoded->warnings.size(), std::size_t(2));
    QCOMPARE(decoded->warnings[0].pointer, std::string("/images/0"));
    QVERIFY2(decoded->warnings[0].message.find(expected.toStdString()) != std::string::npos,
             decoded->warnings[0].message.c_str());
    QCOMPARE(decoded->warnings[1].pointer, std::string("/textures/1"));
  }

  void meshoptCompressedGeometryDecodes() {
    const MeshoptGrid grid = meshoptGrid();
    auto decoded = decodeGlb(assembleGlb(grid.doc, grid.bin), "packed.glb");
    QVERIFY_OK(decoded);
    QCOMPARE(decoded->mesh.positions, grid.positions);
    QCOMPARE(decoded->mesh.indices, grid.indices);
    // The same document as a .gltf with its BIN as a file beside it.
    QTemporaryDir dir;
    nlohmann::json text = grid.doc;
    text["buffers"][0]["uri"] = "packed.bin";
    QFile bin(dir.filePath("packed.bin"));
    QVERIFY(bin.open(QIODevice::WriteOnly));
    bin.write(reinterpret_cast<const char*>(grid.bin.data()), qint64(grid.bin.size()));
    bin.close();
    QFile gltf(dir.filePath("packed.gltf"));
    QVERIFY(gltf.open(QIODevice::WriteOnly));
    gltf.write(QByteArray::fromStdString(text.dump()));
    gltf.close();
    auto fromText = readGltfFile(dir.filePath("packed.gltf").toStdString());
    QVERIFY_OK(fromText);
    QCOMPARE(fromText->mesh.positions, grid.positions);
  }

  void dracoCompressedGeometryDecodes() {
    // Draco reorders and welds the vertices: each decoded vertex is checked
    // against the grid point it lies on, and the triangles as a set.
    const DracoTerrain terrain = dracoTerrain();
    QVERIFY(!terrain.bin.empty());
    auto decoded = decodeGlb(assembleGlb(terrain.doc, terrain.bin), "terrain.glb");
    QVERIFY_OK(decoded);
    const PartMesh& mesh = decoded->mesh;
    QCOMPARE(mesh.vertexCount(), std::size_t(DracoTerrain::kSide * DracoTerrain::kSide));
    QCOMPARE(mesh.indices.size(), std::size_t(terrain.faces * 3));
    const double step = 1.0 / (1 << 14) * 8 * 1.01;  // 14-bit positions over the 8-unit range
    std::vector<std::array<int, 2>> gridPoint(mesh.vertexCount());
    for (std::size_t v = 0; v < mesh.vertexCount(); ++v) {
      const float* p = &mesh.positions[v * 3];
      const int x = int(std::lround(p[0])), z = int(std::lround(p[2]));
      gridPoint[v] = {x, z};
      QVERIFY(std::abs(p[0] - x) <= step && std::abs(p[2] - z) <= step);
      QCOMPARE_NEAR(p[1], DracoTerrain::height(x, z), step);
      const auto n = DracoTerrain::normal(x, z);
      for (int c = 0; c < 3; ++c) QCOMPARE_NEAR(mesh.normals[v * 3 + std::size_t(c)], n[std::size_t(c)], kDracoNormal);
      const auto color = DracoTerrain::color(x, z);  // 8-bit colours are not quantized: exact
      for (int c = 0; c < 3; ++c) QCOMPARE(mesh.colors[v * 3 + std::size_t(c)], float(color[std::size_t(c)]) / 255.0f);
    }
    std::set<std::array<int, 6>> triangles;
    for (std::size_t t = 0; t < mesh.indices.size(); t += 3) {
      std::array<std::array<int, 2>, 3> c{gridPoint[mesh.indices[t]], gridPoint[mesh.indices[t + 1]],
                                          gridPoint[mesh.indices[t + 2]]};
      std::rotate(c.begin(), std::min_element(c.begin(), c.end()), c.end());  // same winding, one start
      triangles.insert({c[0][0], c[0][1], c[1][0], c[1][1], c[2][0], c[2][1]});
    }
    for (int z = 0; z + 1 < DracoTerrain::kSide; ++z)
      for (int x = 0; x + 1 < DracoTerrain::kSide; ++x) {
        QVERIFY(triangles.count({x, z, x, z + 1, x + 1, z}));
        QVERIFY(triangles.count({x, z + 1, x + 1, z + 1, x + 1, z}));
      }
  }

  void dracoRefusalsNameThePrimitive_data() {
    QTest::addColumn<QString>("change");
    QTest::addColumn<QString>("expected");
    QTest::newRow("garbled bytes") << "garble"
                                   << "the compressed bytes do not decode";
    QTest::newRow("not Draco") << "zeros"
                               << "the compressed bytes are not a Draco triangle mesh";
    QTest::newRow("no such attribute id") << "id"
                                          << "attribute NORMAL: the decoded mesh has no attribute 77";
    QTest::newRow("an id for nothing") << "extra"
                                       << "attribute TEXCOORD_0 is not an id of one of the primitive's";
    QTest::newRow("no bufferView") << "view"
                                   << "needs a bufferView number and an attributes object";
    QTest::newRow("a view past its buffer") << "past"
                                            << "bufferView 0 runs past the end of its buffer";
  }
  void dracoRefusalsNameThePrimitive() {
    QFETCH(QString, change);
    QFETCH(QString, expected);
    DracoTerrain terrain = dracoTerrain();
    auto& ext = terrain.doc["meshes"][0]["primitives"][0]["extensions"]["KHR_draco_mesh_compression"];
    if (change == "garble") {
      for (std::size_t i = terrain.bin.size() / 3; i < terrain.bin.size(); ++i) terrain.bin[i] = std::uint8_t(i * 37);
    } else if (change == "zeros") {
      std::fill(terrain.bin.begin(), terrain.bin.end(), 0);
    } else if (change == "id") {
      ext["attributes"]["NORMAL"] = 77;
    } else if (change == "extra") {
      ext["attributes"]["TEXCOORD_0"] = 1;
    } else if (change == "view") {
      ext.erase("bufferView");
    } else if (change == "past") {
      terrain.doc["bufferViews"][0]["byteLength"] = terrain.bin.size() + 64;
    }
    auto decoded = decodeGlb(assembleGlb(terrain.doc, terrain.bin), "terrain.glb");
    QVERIFY(!decoded);
    const QString message = QString::fromStdString(decoded.error().message);
    QVERIFY2(message.contains(expected), qPrintable(message));
    QVERIFY2(message.contains("terrain.glb") &&
                 message.contains("/meshes/0/primitives/0/extensions/KHR_draco_mesh_compression"),
             qPrintable(message));
  }

  void meshoptRefusalsNameTheView_data() {
    QTest::addColumn<QString>("change");
    QTest::addColumn<QString>("expected");
    QTest::newRow("count past the codec") << "count"
                                          << "/bufferViews/0/extensions/EXT_meshopt_compression";
    QTest::newRow("garbled bytes") << "garble"
                                   << "bufferView 1 (EXT_meshopt_compression): the compressed bytes";
    QTest::newRow("odd triangles") << "triangles"
                                   << "TRIANGLES needs a whole number of triangles";
    QTest::newRow("a plain view on the fallback") << "fallback"
                                                  << "names a fallback buffer";
    QTest::newRow("unknown mode") << "mode"
                                  << "'STRIPS' is not one of ATTRIBUTES, TRIANGLES, INDICES";
  }
  void meshoptRefusalsNameTheView() {
    QFETCH(QString, change);
    QFETCH(QString, expected);
    MeshoptGrid grid = meshoptGrid();
    auto& ext0 = grid.doc["bufferViews"][0]["extensions"]["EXT_meshopt_compression"];
    auto& ext1 = grid.doc["bufferViews"][1]["extensions"]["EXT_meshopt_compression"];
    if (change == "count") {  // a few hundred bytes claiming 4 GB
      ext0["count"] = 357913941;
      grid.doc["bufferViews"][0]["byteLength"] = 357913941ull * 12;
    } else if (change == "garble") {
      const std::size_t at = ext1["byteOffset"].get<std::size_t>();
      for (std::size_t i = at; i < grid.bin.size(); ++i) grid.bin[i] = std::uint8_t(0xff - i);
    } else if (change == "triangles") {
      ext1["count"] = ext1["count"].get<int>() - 1;
    } else if (change == "fallback") {
      grid.doc["bufferViews"][0].erase("extensions");
    } else if (change == "mode") {
      ext1["mode"] = "STRIPS";
    }
    auto decoded = decodeGlb(assembleGlb(grid.doc, grid.bin), "packed.glb");
    QVERIFY(!decoded);
    const std::string message = decoded.error().describe();
    QVERIFY2(message.find("packed.glb") != std::string::npos, message.c_str());
    QVERIFY2(message.find(expected.toStdString()) != std::string::npos, message.c_str());
  }

  void refusesMalformedFiles_data() {
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<QString>("expected");
    PartMesh mesh;
    mesh.positions = kTriangle;
    mesh.normals = {0, 0, 1, 0, 0, 1, 0, 0, 1};
    mesh.colors = {1, 1, 1, 1, 1, 1, 1, 1, 1};
    mesh.indices = {0, 1, 2};
    const auto good = encodePartGlb(mesh);
    const auto bytes = [](const std::vector<std::uint8_t>& v) {
      return QByteArray(reinterpret_cast<const char*>(v.data()), int(v.size()));
    };
    QTest::newRow("empty") << QByteArray() << "file too short for a GLB header (0 bytes)";
    auto magic = good;
    magic[0] = 'x';
    QTest::newRow("bad magic") << bytes(magic) << "bad magic: not a GLB file";
    auto version = good;
    riglens::test::put(version, 4, 1);
    QTest::newRow("version 1") << bytes(version) << "GLB version 1 is not 2";
    auto truncated = good;
    truncated.resize(good.size() - 10);
    QTest::newRow("truncated") << bytes(truncated) << "truncated or padded";
    auto longJson = good;
    riglens::test::put(longJson, 12, 1u << 20);
    QTest::newRow("json chunk too long") << bytes(longJson)
                                         << "JSON chunk length 1048576 runs past the end of the file";
    std::uint32_t jsonLength;
    std::memcpy(&jsonLength, good.data() + 12, 4);
    auto longBin = good;
    riglens::test::put(longBin, 20 + jsonLength, 1u << 20);
    QTest::newRow("bin chunk too long") << bytes(longBin) << "declares 1048576 bytes, past the end of the file";
    auto notJson = good;
    riglens::test::put(notJson, 16, 0x12345678u);
    QTest::newRow("first chunk not json") << bytes(notJson) << "first chunk is not JSON";
    auto badJson = good;
    badJson[20] = '#';
    QTest::newRow("json syntax") << bytes(badJson) << "not valid JSON";

    GltfBuilder past;
    const int pos = past.data(kTriangle, TINYGLTF_COMPONENT_TYPE_FLOAT, TINYGLTF_TYPE_VEC3);
    past.model.accessors[pos].count = 50;
    past.primitive({{"POSITION", pos}});
    QTest::newRow("accessor past view") << bytes(past.glb())
                                        << "POSITION (accessor 0): 50 elements from byte 0 run past bufferView 0";
    GltfBuilder index;
    index.primitive(
        {{"POSITION", index.data(kTriangle, TINYGLTF_COMPONENT_TYPE_FLOAT, TINYGLTF_TYPE_VEC3)}},
        index.data(std::vector<std::uint32_t>{0, 1, 7}, TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT, TINYGLTF_TYPE_SCALAR));
    QTest::newRow("index past vertices") << bytes(index.glb()) << "index 7 at position 2 is past the vertex count 3";
    GltfBuilder nan;
    std::vector<float> nanTriangle = kTriangle;
    nanTriangle[4] = std::numeric_limits<float>::quiet_NaN();
    nan.primitive({{"POSITION", nan.data(nanTriangle, TINYGLTF_COMPONENT_TYPE_FLOAT, TINYGLTF_TYPE_VEC3)}});
    QTest::newRow("nan position") << bytes(nan.glb()) << "POSITION: vertex 1 is not finite";
    GltfBuilder partial;
    partial.primitive(
        {{"POSITION", partial.data(kTriangle, TINYGLTF_COMPONENT_TYPE_FLOAT, TINYGLTF_TYPE_VEC3)}},
        partial.data(std::vector<std::uint32_t>{0, 1}, TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT, TINYGLTF_TYPE_SCALAR));
    QTest::newRow("partial triangle") << bytes(partial.glb()) << "2 indices is not a whole number of triangles";
    GltfBuilder noPosition;
    noPosition.primitive({{"NORMAL", noPosition.data(kTriangle, TINYGLTF_COMPONENT_TYPE_FLOAT, TINYGLTF_TYPE_VEC3)}});
    QTest::newRow("no position") << bytes(noPosition.glb()) << "no POSITION attribute";
    // tinygltf would hand the image loader bytes past the buffer's end.
    GltfBuilder longImage;
    longImage.primitive({{"POSITION", longImage.data(kTriangle, TINYGLTF_COMPONENT_TYPE_FLOAT, TINYGLTF_TYPE_VEC3)}});
    QImage texel(2, 2, QImage::Format_RGBA8888);
    texel.fill(Qt::red);
    riglens::test::addPngTexture(longImage, texel);
    const auto view = std::size_t(longImage.model.images[0].bufferView);
    longImage.model.bufferViews[view].byteLength += 4096;
    QTest::newRow("image view past its buffer")
        << bytes(longImage.glb()) << QString("bufferView %1 (byteOffset").arg(view);
  }
  void refusesMalformedFiles() {
    QFETCH(QByteArray, bytes);
    QFETCH(QString, expected);
    QVERIFY_REFUSED(decodeGlb(riglens::test::byteSpan(bytes), "meshes/hull.glb"), "meshes/hull.glb", expected);
  }

  void readsGltfJsonFiles() {
    GltfBuilder b;
    b.primitive({{"POSITION", b.data(kTriangle, TINYGLTF_COMPONENT_TYPE_FLOAT, TINYGLTF_TYPE_VEC3)}});
    QTemporaryDir dir;
    const std::string path = dir.filePath("model.gltf").toStdString();
    tinygltf::TinyGLTF writer;
    QVERIFY(writer.WriteGltfSceneToFile(&b.model, path, true, true, false, false));
    auto decoded = readGltfFile(path);
    QVERIFY_OK(decoded);
    QCOMPARE(decoded->mesh.positions, kTriangle);
  }

  void gltfJsonFilesReadExternalAndDataUriImages() {
    // The showcase as a .gltf: its buffer a data URI, the checker a PNG file
    // beside it, the leaf a data URI: the same images as from the .glb.
    GltfBuilder b = riglens::test::makeMaterialShowcase();
    const auto viewBytes = [&](int view) {
      const auto& v = b.model.bufferViews[std::size_t(view)];
      const auto* data = b.model.buffers[0].data.data() + v.byteOffset;
      return QByteArray(reinterpret_cast<const char*>(data), qsizetype(v.byteLength));
    };
    QTemporaryDir dir;
    {
      QFile png(dir.filePath("checker.png"));
      QVERIFY(png.open(QIODevice::WriteOnly));
      png.write(viewBytes(b.model.images[0].bufferView));
    }
    const QByteArray leaf = viewBytes(b.model.images[1].bufferView);
    b.model.images[0].bufferView = -1;
    b.model.images[0].uri = "checker.png";
    b.model.images[1].bufferView = -1;
    b.model.images[1].uri = "data:image/png;base64," + leaf.toBase64().toStdString();
    const std::string path = dir.filePath("showcase.gltf").toStdString();
    tinygltf::TinyGLTF writer;
    writer.SetImageWriter(nullptr, nullptr);  // keep the URIs as set
    QVERIFY(writer.WriteGltfSceneToFile(&b.model, path, false, true, true, false));
    auto fromText = readGltfFile(path);
    QVERIFY_OK(fromText);
    auto fromBinary = decodeGlb(riglens::test::makeMaterialShowcase().glb(), "showcase.glb");
    QVERIFY_OK(fromBinary);
    QCOMPARE(fromText->materials.images.size(), std::size_t(2));
    for (std::size_t i = 0; i < 2; ++i)
      QCOMPARE(fromText->materials.images[i].rgba, fromBinary->materials.images[i].rgba);
    QCOMPARE(fromText->materials.uvs, fromBinary->materials.uvs);
    // Opened by itself, a static model (no skin, no clips) loads without a
    // problem: nothing expects it to move.
    auto run = loadRun(path);
    QVERIFY_OK(run);
    QCOMPARE(run->kind, RunKind::StaticMesh);
    QVERIFY2(run->warnings.empty(), run->warnings.empty() ? "" : run->warnings[0].message.c_str());
  }
};

QTEST_APPLESS_MAIN(TestGlbReader)
#include "tst_core_glb_reader.moc"
