// The rig renderer on Vulkan (lavapipe here), windowless: golden images of
// the samples at rest and two poses in every tint mode, a shading-free
// silhouette check in the part tint, highlight, socket markers, GPU skinning
// against the CPU reference, a glTF model's materials (texture, transform,
// mask, blend, unlit, culling), shader layouts against reflection, and the
// memory report.
#include <QtTest/QTest>
#include <cmath>
#include <glm/gtc/matrix_transform.hpp>

#include "built_glb.h"
#include "gltf_material_fixture.h"
#include "gltf_scene_fixture.h"
#include "render_checks.h"
#include "riglens/core/base/tolerances.h"
#include "riglens/core/gltf/flat_faces.h"
#include "riglens/core/gltf/gltf_scene.h"
#include "riglens/core/open/asset_readers.h"
#include "riglens/core/rig/model_nodes.h"
#include "riglens/core/rig/rig_tints.h"
#include "riglens/core/rig/skinning.h"
#include "riglens/render/device/offscreen_canvas.h"
#include "riglens/render/parity/shader_layouts.h"
#include "riglens/render/parity/skin_mesh_on_gpu.h"
#include "riglens/render/rig/frame_builder.h"
#include "riglens/render/rig/rig_renderer.h"
#include "test_checks.h"
#include "test_paths.h"

using namespace riglens;
using test::Pose;

namespace {

constexpr QSize kGoldenSize(256, 256);
constexpr test::GoldenTolerance kGolden{};  // core::tolerance::kGolden*: the reason is there

const std::map<std::string, Pose>& tankPoses() {
  static const std::map<std::string, Pose> poses{{"rest", {}},
                                                 {"aim", {{{"turret_yaw", 0.8}, {"gun_pitch", 0.4}}, "", 0}},
                                                 {"fire", {{{"turret_yaw", -0.6}}, "fire", 60}}};
  return poses;
}

const std::map<std::string, Pose>& walkerPoses() {
  static const std::map<std::string, Pose> poses{
      {"rest", {}}, {"walk250", {{{"head_yaw", 0.5}}, "walk", 250}}, {"walk600", {{}, "walk", 600}}};
  return poses;
}

// Where the camera sees a world point, in pixels (top row first).
QPoint pixelOf(const core::OrbitCamera& camera, QSize size, glm::vec3 world) {
  const glm::vec4 clip =
      camera.projection(float(size.width()) / float(size.height())) * camera.view() * glm::vec4(world, 1.0f);
  return {int((clip.x / clip.w * 0.5f + 0.5f) * float(size.width())),
          int((0.5f - clip.y / clip.w * 0.5f) * float(size.height()))};
}

// A glTF file written by a fixture (in a folder of its own), loaded as the viewer loads it.
std::shared_ptr<const core::LoadedRun> loadFixture(test::GltfBuilder builder, const QString& name) {
  static QTemporaryDir dir;
  return test::loadBuiltGlb(std::move(builder), dir.filePath(name));
}

}  // namespace

class TestRenderRig : public test::RenderTestCase {
  Q_OBJECT

 public:
  TestRenderRig() : RenderTestCase(render::Backend::Vulkan) {}

  QImage draw(std::shared_ptr<const core::LoadedRun> run, const std::vector<glm::mat4>& worlds,
              const render::ViewSettings& view, QSize size = kGoldenSize, const core::OrbitCamera* cam = nullptr) {
    auto drawn = test::runOnCanvas(*m_device, run, size);
    if (!drawn) qFatal("%s", drawn.error().message.c_str());
    const core::OrbitCamera camera = cam ? *cam : test::defaultCamera(*run);
    auto image = drawn->canvas->render(
        *drawn->renderer,
        render::buildFrameState(*run, worlds, camera, float(size.width()) / float(size.height()), view));
    if (!image) qFatal("%s", image.error().message.c_str());
    return *image;
  }

  // The tank as one skinned mesh: bones = parts, each vertex on its part's
  // bone, every third vertex blended half with its parent's.
  static core::LoadedRun skinnedTank(const core::LoadedRun& tankRun) {
    const core::LoadedRun* tank = &tankRun;
    core::LoadedRun skinned;
    skinned.kind = core::RunKind::SkinnedMesh;
    skinned.rig = tank->rig;
    skinned.skin = core::SkinData{};
    core::PartMesh merged;
    for (std::size_t p = 0; p < tank->meshes.size(); ++p) {
      const auto& m = tank->meshes[p];
      const auto base = static_cast<std::uint32_t>(merged.vertexCount());
      merged.positions.insert(merged.positions.end(), m.positions.begin(), m.positions.end());
      merged.normals.insert(merged.normals.end(), m.normals.begin(), m.normals.end());
      merged.colors.insert(merged.colors.end(), m.colors.begin(), m.colors.end());
      for (auto i : m.indices) merged.indices.push_back(base + i);
      const int parent = tank->rig.parts()[p].parent;
      for (std::size_t v = 0; v < m.vertexCount(); ++v) {
        const bool blend = v % 3 == 0 && parent >= 0;
        skinned.skin->joints.insert(skinned.skin->joints.end(),
                                    {std::uint32_t(p), std::uint32_t(blend ? parent : 0), 0, 0});
        skinned.skin->weights.insert(skinned.skin->weights.end(), {blend ? 0.5f : 1.0f, blend ? 0.5f : 0.0f, 0, 0});
      }
      skinned.skin->boneNames.push_back(tank->rig.parts()[p].name);
      skinned.boneParts.push_back(int(p));
    }
    skinned.skin->inverseBinds.assign(tank->meshes.size(), glm::mat4(1.0f));
    skinned.meshes = {merged};
    return skinned;
  }

 private slots:
  void shaderLayoutsMatchReflection() {
    auto ok = render::verifyShaderLayouts();
    QVERIFY_OK(ok);
  }

  void goldenImages_data() {
    QTest::addColumn<QString>("sample");
    QTest::addColumn<QString>("pose");
    QTest::addColumn<QString>("tint");
    for (const auto& [pose, _] : tankPoses())
      for (const char* tint : {"color", "part", "joint", "normals", "wireframe", "sockets"})
        QTest::newRow(qPrintable(QString("tank-cubes-%1-%2").arg(pose.c_str(), tint)))
            << "tank-cubes" << QString(pose.c_str()) << QString(tint);
    for (const auto& [pose, _] : walkerPoses())
      for (const char* tint : {"color", "part"})
        QTest::newRow(qPrintable(QString("walker-smooth-%1-%2").arg(pose.c_str(), tint)))
            << "walker-smooth" << QString(pose.c_str()) << QString(tint);
    // The Marching Cubes and Dual Contouring characters: posed, in colour
    // (the tints and poses run the same code for every mesher).
    for (const char* sample : {"tank-mc", "tank-dc"})
      QTest::newRow(qPrintable(QString("%1-aim-color").arg(sample))) << sample << "aim"
                                                                     << "color";
    for (const char* sample : {"walker-mc", "walker-dc"})
      QTest::newRow(qPrintable(QString("%1-walk250-color").arg(sample))) << sample << "walk250"
                                                                         << "color";
  }
  void goldenImages() {
    QFETCH(QString, sample);
    QFETCH(QString, pose);
    QFETCH(QString, tint);
    auto run = test::sampleRun(sample.toStdString());
    const auto& poses = sample.startsWith("tank") ? tankPoses() : walkerPoses();
    render::ViewSettings view;
    QVERIFY(core::parseTintMode(tint.toStdString(), &view.tint));
    const QImage image = draw(run, test::posedWorlds(*run, poses.at(pose.toStdString())), view);
    const QString problem = test::compareWithGolden(image, QString("%1-%2-%3").arg(sample, pose, tint), kGolden);
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
  }

  void partTintShowsEachPartWhereTheCoreProjectsIt_data() {
    QTest::addColumn<QString>("sample");
    QTest::newRow("tank-cubes") << "tank-cubes";
    QTest::newRow("walker-smooth") << "walker-smooth";
    QTest::newRow("walker-cubes") << "walker-cubes";
    QTest::newRow("tank-mc") << "tank-mc";
    QTest::newRow("walker-dc") << "walker-dc";
  }
  void partTintShowsEachPartWhereTheCoreProjectsIt() {
    QFETCH(QString, sample);
    auto run = test::sampleRun(sample.toStdString());
    const Pose pose = sample.startsWith("tank") ? tankPoses().at("aim") : walkerPoses().at("walk250");
    const auto worlds = test::posedWorlds(*run, pose);
    render::ViewSettings view;
    view.tint = core::TintMode::Part;
    view.showGrid = view.showAxes = false;
    const QSize size(320, 320);
    core::OrbitCamera camera = test::defaultCamera(*run);
    const QImage image = draw(run, worlds, view, size, &camera);
    image.save(test::outputPath(QString("silhouette-%1.png").arg(sample)));
    const auto pixels = test::visiblePartPixels(*run, worlds, camera, size);
    const auto tints = core::partTints(run->rig);
    int checked = 0;
    for (std::size_t p = 0; p < pixels.size(); ++p) {
      if (!pixels[p]) continue;
      const int seen = test::nearestTint(image.pixel(*pixels[p]), tints);
      QVERIFY2(seen == int(p), qPrintable(QString("part %1 at (%2,%3) shows part %4")
                                              .arg(QString::fromStdString(run->rig.parts()[p].name))
                                              .arg(pixels[p]->x())
                                              .arg(pixels[p]->y())
                                              .arg(seen)));
      ++checked;
    }
    QVERIFY2(checked >= 4, qPrintable(QString::number(checked)));
  }

  void gltfMaterialsDrawAsTheyAsk() {
    const auto run = loadFixture(test::makeMaterialShowcase(), "materials.glb");
    core::OrbitCamera camera = test::defaultCamera(*run);
    camera.setAngles(0, 8);
    camera.dolly(0.55f);
    render::ViewSettings view;
    view.showGrid = view.showAxes = false;
    const QSize size(480, 240);
    const QImage image = draw(run, test::posedWorlds(*run, {}), view, size, &camera);
    const QString problem = test::compareWithGolden(image, "materials-color", kGolden);
    QVERIFY2(problem.isEmpty(), qPrintable(problem));

    const auto at = [&](float x, float y, float z) {
      const glm::vec4 clip =
          camera.projection(float(size.width()) / float(size.height())) * camera.view() * glm::vec4(x, y, z, 1.0f);
      const glm::vec2 ndc(clip.x / clip.w, clip.y / clip.w);
      return image.pixelColor(int((ndc.x * 0.5f + 0.5f) * float(size.width())),
                              int((0.5f - ndc.y * 0.5f) * float(size.height())));
    };
    const QColor background = image.pixelColor(2, 2);
    const auto near = [](QColor a, QColor b, int tolerance) {
      return std::abs(a.red() - b.red()) <= tolerance && std::abs(a.green() - b.green()) <= tolerance &&
             std::abs(a.blue() - b.blue()) <= tolerance;
    };
    // Unlit: the base colour as is, sRGB-encoded: (1, 0.5, 0) -> (255, 188, 0).
    QVERIFY2(near(at(1.2f, 0.75f, 0.0f), QColor(255, 188, 0), 1), qPrintable(at(1.2f, 0.75f, 0.0f).name()));
    // Single-sided and facing away: culled.
    QVERIFY(near(at(2.5f, 0.75f, 0.0f), background, 0));
    // MASK: the leaf's transparent left texel cut away, its green right kept.
    QVERIFY2(near(at(-0.3f, 0.75f, 0.0f), background, 0), qPrintable(at(-0.3f, 0.75f, 0.0f).name()));
    const QColor leaf = at(0.25f, 0.75f, 0.0f);
    QVERIFY2(leaf.green() > leaf.red() + 60 && leaf.green() > leaf.blue() + 60, qPrintable(leaf.name()));
    // The checker, nearest-sampled through KHR_texture_transform: for the
    // centre of each square left of the glass, red or white as the texel
    // that u' = 0.25 + 2u, v' = 2v lands on (glTF's v runs downwards).
    int squares = 0;
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 8; ++j) {
        const float uPrime = 0.25f + (float(i) + 0.5f) / 4.0f, vPrime = (float(j) + 0.5f) / 4.0f;
        const float u = (uPrime - 0.25f) / 2.0f, v = vPrime / 2.0f;
        const int tx = int(std::floor(uPrime * 4.0f)) % 4, ty = int(std::floor(vPrime * 4.0f)) % 4;
        const QColor seen = at(-3.0f + 2.0f * u, 1.5f * (1.0f - v), 0.0f);
        const bool red = (tx + ty) % 2 == 1;
        QVERIFY2(red ? seen.red() > seen.green() + 80 : seen.green() > 150 && seen.blue() > 150,
                 qPrintable(QString("texel (%1, %2) shows %3").arg(tx).arg(ty).arg(seen.name())));
        ++squares;
      }
    QCOMPARE(squares, 24);
    // BLEND: the glass shows what is behind it: over the leaf's cut-away
    // half it is neither the background nor what it is over the checker.
    const QColor glassOverNothing = at(-0.6f, 0.75f, 0.5f);
    QVERIFY(!near(glassOverNothing, background, 4));
    QVERIFY2(glassOverNothing.blue() > glassOverNothing.red(), qPrintable(glassOverNothing.name()));
    const QColor glassOverChecker = at(-1.3f, 0.75f, 0.5f);
    QVERIFY(!near(glassOverChecker, glassOverNothing, 8));
  }

  void skinJointTintColoursEachBone() {
    // The animated character's body: ring 0 (y = 0) weighted 0.75 to hip and
    // 0.25 to spine, ring 1 0.75 spine 0.25 hip, ring 2 (y = 2) 0.75 arm 0.25
    // spine. In the joint tint its foot shows ring 0's blend and its top ring
    // 2's; in colour both are the same grey.
    const auto run = loadFixture(test::makeAnimatedCharacter(), "character.glb");
    core::OrbitCamera camera = test::defaultCamera(*run);
    camera.setAngles(0, 0);
    render::ViewSettings view;
    view.showGrid = view.showAxes = false;
    view.tint = core::TintMode::Joint;
    const QSize size(256, 256);
    const auto worlds = test::posedWorlds(*run, {});
    const QImage joint = draw(run, worlds, view, size, &camera);
    joint.save(test::outputPath("skin-joint-tint.png"));
    view.tint = core::TintMode::Color;
    const QImage color = draw(run, worlds, view, size, &camera);
    // Each ring's colour: its bones' colours blended by its weights.
    const auto bones = core::distinctColors(run->skin->boneNames.size());
    const std::vector<glm::vec3> palette = {0.75f * bones[0] + 0.25f * bones[1], 0.75f * bones[1] + 0.25f * bones[0],
                                            0.75f * bones[2] + 0.25f * bones[1]};
    const QPoint foot = pixelOf(camera, size, {0.0f, 0.12f, 0.25f}), top = pixelOf(camera, size, {0.0f, 1.88f, 0.25f});
    QCOMPARE(test::nearestTint(joint.pixel(foot), palette), 0);
    QCOMPARE(test::nearestTint(joint.pixel(top), palette), 2);
    for (const QPoint& p : {foot, top}) {  // the file's grey, lit
      const QColor c = color.pixelColor(p);
      QVERIFY2(std::max({c.red(), c.green(), c.blue()}) - std::min({c.red(), c.green(), c.blue()}) < 24,
               qPrintable(c.name()));
    }
  }

  void aModelsNodesAreItsParts() {
    // The animated character opened by itself: its parts are its glTF nodes.
    // In the part tint each node that placed geometry (body, hat, prop) has
    // its own colour; hiding the hat, or highlighting it, changes pixels of
    // the hat alone.
    const auto run = loadFixture(test::makeAnimatedCharacter(), "character.glb");
    QVERIFY(core::listsNodesAsParts(*run));
    const int body = core::findNodeLabelled(run->gltf, "body"), hat = core::findNodeLabelled(run->gltf, "hat"),
              prop = core::findNodeLabelled(run->gltf, "prop");
    core::OrbitCamera camera = test::defaultCamera(*run);
    camera.setAngles(0.4f, 0.2f);
    const QSize size(256, 256);
    const auto worlds = test::posedWorlds(*run, {});
    render::ViewSettings view;
    view.showGrid = view.showAxes = false;
    const QImage plain = draw(run, worlds, view, size, &camera);
    render::ViewSettings partView = view;
    partView.tint = core::TintMode::Part;
    const QImage parts = draw(run, worlds, partView, size, &camera);
    parts.save(test::outputPath("gltf-node-part-tint.png"));
    const auto tints = core::distinctColors(run->gltf.nodes.size());
    // Each node's sections' centre (at rest the mesh is where it draws).
    for (int node : {body, hat, prop}) {
      glm::dvec3 sum(0.0);
      std::size_t n = 0;
      for (const core::MeshSection& section : run->materials.sections)
        if (section.node == node)
          for (std::uint32_t i = section.firstIndex; i < section.firstIndex + section.indexCount; ++i, ++n) {
            const std::uint32_t v = run->meshes[0].indices[i];
            sum += glm::dvec3(run->meshes[0].positions[v * 3], run->meshes[0].positions[v * 3 + 1],
                              run->meshes[0].positions[v * 3 + 2]);
          }
      QVERIFY(n > 0);
      const QPoint at = pixelOf(camera, size, glm::vec3(sum / double(n)));
      QCOMPARE(test::nearestTint(parts.pixel(at), tints), node);
    }
    // Pixels that change when the hat is hidden or highlighted lie on the hat
    // in the part tint (its interior: MSAA edges mix two nodes).
    const auto changesOnlyTheHat = [&](const QImage& changed) {
      int count = 0, elsewhere = 0;
      for (int y = 1; y + 1 < size.height(); ++y)
        for (int x = 1; x + 1 < size.width(); ++x) {
          if (plain.pixel(x, y) == changed.pixel(x, y)) continue;
          ++count;
          bool interior = true;
          for (int dy = -1; dy <= 1; ++dy)
            for (int dx = -1; dx <= 1; ++dx) interior &= parts.pixel(x + dx, y + dy) == parts.pixel(x, y);
          if (interior && test::nearestTint(parts.pixel(x, y), tints) != hat) ++elsewhere;
        }
      return std::make_pair(count, elsewhere);
    };
    render::ViewSettings hidden = view;
    hidden.partHidden.assign(run->gltf.nodes.size(), false);
    hidden.partHidden[std::size_t(hat)] = true;
    const auto [hiddenCount, hiddenElsewhere] = changesOnlyTheHat(draw(run, worlds, hidden, size, &camera));
    QVERIFY2(hiddenCount > 50 && hiddenElsewhere == 0,
             qPrintable(QString("%1 %2").arg(hiddenCount).arg(hiddenElsewhere)));
    render::ViewSettings highlighted = view;
    highlighted.highlightPart = hat;
    const auto [litCount, litElsewhere] = changesOnlyTheHat(draw(run, worlds, highlighted, size, &camera));
    QVERIFY2(litCount > 50 && litElsewhere == 0, qPrintable(QString("%1 %2").arg(litCount).arg(litElsewhere)));
  }

  void highlightChangesOnlyThatPart() {
    auto run = test::sampleRun("tank-cubes");
    QVERIFY(!core::listsNodesAsParts(*run));  // a voxel run's parts are its rig's
    const auto worlds = test::posedWorlds(*run, tankPoses().at("aim"));
    render::ViewSettings view;
    view.showGrid = view.showAxes = false;
    const QImage plain = draw(run, worlds, view);
    view.highlightPart = run->rig.findPart("turret");
    const QImage highlighted = draw(run, worlds, view);
    render::ViewSettings partView;
    partView.tint = core::TintMode::Part;
    partView.showGrid = partView.showAxes = false;
    const QImage parts = draw(run, worlds, partView);
    const auto tints = core::partTints(run->rig);
    int changed = 0, elsewhere = 0;
    for (int y = 0; y < plain.height(); ++y)
      for (int x = 0; x < plain.width(); ++x)
        if (plain.pixel(x, y) != highlighted.pixel(x, y)) {
          ++changed;
          // MSAA edge pixels mix two parts; count only pixels well inside another part.
          bool interior = true;
          for (int dy = -1; dy <= 1; ++dy)
            for (int dx = -1; dx <= 1; ++dx)
              interior &= test::nearestTint(parts.pixel(std::clamp(x + dx, 0, parts.width() - 1),
                                                        std::clamp(y + dy, 0, parts.height() - 1)),
                                            tints) == test::nearestTint(parts.pixel(x, y), tints);
          if (interior && test::nearestTint(parts.pixel(x, y), tints) != view.highlightPart) ++elsewhere;
        }
    QVERIFY2(changed > 200, qPrintable(QString::number(changed)));
    QVERIFY2(elsewhere == 0, qPrintable(QString::number(elsewhere)));
  }

  // Culling a closed part's back faces hides nothing that was seen: the
  // picture equals the same run drawn with every face (closed cleared), under
  // its pose and under mirrored worlds (those cull front faces instead).
  void closedPartsCullOnlyHiddenFaces() {
    for (const char* sample : {"walker-smooth", "tank-cubes"}) {
      auto run = test::sampleRun(sample);
      QVERIFY(std::any_of(run->meshes.begin(), run->meshes.end(), [](const auto& m) { return m.closed; }));
      auto open = std::make_shared<core::LoadedRun>(*run);
      for (auto& mesh : open->meshes) mesh.closed = false;
      const auto& poses = std::string(sample).starts_with("tank") ? tankPoses() : walkerPoses();
      std::vector<glm::mat4> posed = test::posedWorlds(*run, poses.begin()->second);
      auto mirrored = posed;
      for (auto& world : mirrored) world = glm::scale(glm::mat4(1.0f), glm::vec3(-1, 1, 1)) * world;
      render::ViewSettings view;
      view.showGrid = view.showAxes = false;
      for (const std::vector<glm::mat4>* worlds : {&posed, &mirrored}) {
        const QImage culled = draw(run, *worlds, view), full = draw(open, *worlds, view);
        const QImage background = draw(run, std::vector<glm::mat4>(worlds->size(), glm::mat4(0.0f)), view);
        int differ = 0, model = 0;
        for (int y = 0; y < culled.height(); ++y)
          for (int x = 0; x < culled.width(); ++x) {
            differ += culled.pixel(x, y) != full.pixel(x, y);
            model += full.pixel(x, y) != background.pixel(x, y);
          }
        // Ties in depth along silhouettes may go either way.
        QVERIFY2(model > 1000 && differ <= model / 500,
                 qPrintable(QString("%1: %2 of %3 model pixels differ").arg(sample).arg(differ).arg(model)));
      }
    }
  }

  // Parts of flat faces are shaded once per vertex (part_flat.vert): the
  // picture equals the same run shaded at every pixel (flatFaces cleared,
  // part.frag), in every tint that has no wireframe, highlighted, posed and
  // mirrored (back faces then show: the back colour). part.frag normalises an
  // interpolated normal, equal to the vertices' one within rounding, so a
  // channel may round one step the other way.
  void flatFacesShadeAsEveryPixelWould() {
    QVERIFY(!core::hasFlatFaces(test::sampleRun("walker-smooth")->meshes[0]));  // smooth normals
    for (const char* sample : {"tank-cubes", "walker-cubes"}) {
      auto run = test::sampleRun(sample);
      QVERIFY(
          std::all_of(run->meshes.begin(), run->meshes.end(), [](const auto& m) { return m.empty() || m.flatFaces; }));
      auto perPixel = std::make_shared<core::LoadedRun>(*run);
      for (auto& mesh : perPixel->meshes) mesh.flatFaces = false;
      const auto& poses = std::string(sample).starts_with("tank") ? tankPoses() : walkerPoses();
      std::vector<glm::mat4> posed = test::posedWorlds(*run, std::prev(poses.end())->second);
      auto mirrored = posed;
      for (auto& world : mirrored) world = glm::scale(glm::mat4(1.0f), glm::vec3(-1, 1, 1)) * world;
      for (const core::TintMode tint : {core::TintMode::Color, core::TintMode::Part, core::TintMode::Joint,
                                        core::TintMode::Normals, core::TintMode::Sockets})
        for (const std::vector<glm::mat4>* worlds : {&posed, &mirrored}) {
          render::ViewSettings view;
          view.tint = tint;
          view.highlightPart = 1;
          const QImage flat = draw(run, *worlds, view), shaded = draw(perPixel, *worlds, view);
          const QString name =
              QString("flat-%1-tint%2-%3").arg(sample).arg(int(tint)).arg(worlds == &posed ? "posed" : "mirrored");
          const QString problem = test::compareImages(flat, shaded, name, {core::tolerance::kColorChannel, 0.0});
          QVERIFY2(problem.isEmpty(), qPrintable(problem));
        }
    }
  }

  // A model uploaded part by part over several frames (a budget of one byte:
  // one part a frame) draws the same picture as one uploaded in one frame:
  // render() draws until the last part is in, and reads back only then.
  void uploadOverSeveralFramesDrawsTheSamePicture() {
    auto run = test::sampleRun("tank-cubes");
    const auto worlds = test::posedWorlds(*run, tankPoses().at("aim"));
    const auto camera = test::defaultCamera(*run);
    const auto state = render::buildFrameState(*run, worlds, camera, 1.0f, {});
    auto canvas = render::OffscreenCanvas::create(*m_device, kGoldenSize);
    QVERIFY_OK(canvas);
    render::RigRenderer whole(*m_device), piecewise(*m_device);
    whole.setModel(run);
    piecewise.setModel(run);
    piecewise.setUploadBudget(1);
    auto expected = (*canvas)->render(whole, state);
    QVERIFY_OK(expected);
    QVERIFY(!whole.uploading());
    auto image = (*canvas)->render(piecewise, state);  // frames until the last part is in
    QVERIFY_OK(image);
    QVERIFY(!piecewise.uploading());
    QCOMPARE(*image, *expected);
  }

  // What riglens-cli render does with a large model: between the upload's
  // frames the canvas calls back, and the owner frees the meshes of the parts
  // already on the GPU. Nothing reads them again: the same picture.
  void partsLeaveTheCpuAsTheyReachTheGpu() {
    auto run = test::sampleRun("tank-cubes");
    const auto worlds = test::posedWorlds(*run, tankPoses().at("aim"));
    const auto state = render::buildFrameState(*run, worlds, test::defaultCamera(*run), 1.0f, {});
    auto whole = test::runOnCanvas(*m_device, run, kGoldenSize);
    QVERIFY_OK(whole);
    auto expected = whole->canvas->render(*whole->renderer, state);
    QVERIFY_OK(expected);
    render::OffscreenCanvas& canvas = *whole->canvas;

    auto owned = std::make_shared<core::LoadedRun>(*run);
    render::RigRenderer piecewise(*m_device);
    piecewise.setModel(owned);
    piecewise.setUploadBudget(1);  // one part a frame
    std::vector<std::size_t> uploaded;
    canvas.setBetweenUploadFrames([&] {
      uploaded.push_back(piecewise.partsUploaded());
      for (std::size_t p = 0; p < uploaded.back(); ++p) owned->meshes[p] = core::PartMesh{};
    });
    auto image = canvas.render(piecewise, state);
    canvas.setBetweenUploadFrames({});
    QVERIFY_OK(image);
    QVERIFY(!piecewise.uploading());
    QCOMPARE(piecewise.partsUploaded(), run->meshes.size());
    QVERIFY(uploaded.size() >= 2);  // the tank's five parts (one a socket) took several frames
    QVERIFY(std::is_sorted(uploaded.begin(), uploaded.end()) && uploaded.front() >= 1);
    QVERIFY(uploaded.back() < run->meshes.size());  // the last frame uploads and draws
    QCOMPARE(*image, *expected);
  }

  // On a CPU device a large model is drawn in passes of whole parts (the
  // rasteriser holds a pass's triangles until it ends); the picture is the
  // one pass's, to the byte: at 4x and 1x, with the grid, the axes and the
  // wireframe tint, whose triangles count instead.
  void passesDrawTheSamePictureAsOnePass_data() {
    QTest::addColumn<int>("samples");
    QTest::addColumn<QString>("tint");
    QTest::newRow("4x color") << 4 << "color";
    QTest::newRow("1x color") << 1 << "color";
    QTest::newRow("4x wireframe") << 4 << "wireframe";
  }
  void passesDrawTheSamePictureAsOnePass() {
    QFETCH(int, samples);
    QFETCH(QString, tint);
    auto run = test::sampleRun("tank-cubes");
    const auto worlds = test::posedWorlds(*run, tankPoses().at("aim"));
    render::ViewSettings view;
    QVERIFY(core::parseTintMode(tint.toStdString(), &view.tint));
    const auto state = render::buildFrameState(*run, worlds, test::defaultCamera(*run), 1.0f, view);
    auto canvas = render::OffscreenCanvas::create(*m_device, kGoldenSize, samples);
    QVERIFY_OK(canvas);
    render::RigRenderer onePass(*m_device), inPasses(*m_device);
    onePass.setModel(run);
    inPasses.setModel(run);
    onePass.setTrianglesPerPass(std::size_t(1) << 30);
    inPasses.setTrianglesPerPass(1500);  // the tank's 7,664 triangles (hull 6,040): its parts in a few passes
    auto expected = (*canvas)->render(onePass, state);
    QVERIFY_OK(expected);
    QCOMPARE(onePass.passesWanted(), 1);
    auto image = (*canvas)->render(inPasses, state);
    QVERIFY_OK(image);
    if (m_device->isCpuDevice())
      QVERIFY2(inPasses.passesWanted() >= 3, qPrintable(QString::number(inPasses.passesWanted())));
    QCOMPARE(*image, *expected);
  }

  void socketsModeMarksTheMuzzle() {
    auto run = test::sampleRun("tank-cubes");
    const auto worlds = test::posedWorlds(*run, tankPoses().at("aim"));
    const core::OrbitCamera camera = test::defaultCamera(*run);
    const auto state = render::buildFrameState(*run, worlds, camera, 1.0f, {});
    QCOMPARE(state.sockets.size(), std::size_t(1));
    QCOMPARE(state.sockets[0].name, std::string("muzzle"));
    render::ViewSettings view;
    view.tint = core::TintMode::Sockets;
    const QImage image = draw(run, worlds, view, kGoldenSize, &camera);
    const glm::vec4 clip = camera.projection(1.0f) * camera.view() * glm::vec4(state.sockets[0].position, 1.0f);
    const QPoint centre(int((clip.x / clip.w * 0.5f + 0.5f) * 256), int((0.5f - clip.y / clip.w * 0.5f) * 256));
    int magenta = 0;
    for (int y = centre.y() - 8; y <= centre.y() + 8; ++y)
      for (int x = centre.x() - 8; x <= centre.x() + 8; ++x) {
        const QRgb p = image.pixel(std::clamp(x, 0, 255), std::clamp(y, 0, 255));
        magenta += qRed(p) > 200 && qBlue(p) > 170 && qGreen(p) < 150;
      }
    QVERIFY2(magenta >= 6, qPrintable(QString::number(magenta)));
  }

  void gpuSkinningMatchesTheCpuReference() {
    auto tank = test::sampleRun("tank-cubes");
    const core::LoadedRun skinned = skinnedTank(*tank);
    const core::PartMesh& merged = skinned.meshes[0];
    const auto worlds = test::posedWorlds(*tank, tankPoses().at("aim"));
    const auto bones = core::boneMatrices(*skinned.skin, skinned.boneParts, worlds);
    const core::PartMesh cpu = core::skinMesh(merged, *skinned.skin, bones);
    auto gpu = render::skinMeshOnGpu(*m_device, merged, *skinned.skin, bones);
    QVERIFY_OK(gpu);
    float worst = 0;
    for (std::size_t i = 0; i < cpu.positions.size(); ++i)
      worst =
          std::max(worst, std::abs(gpu->positions[i] - cpu.positions[i]) / std::max(1.0f, std::abs(cpu.positions[i])));
    QVERIFY2(worst <= core::tolerance::kGpuCpuRelative, qPrintable(QString::number(worst)));
    for (std::size_t i = 0; i < cpu.normals.size(); ++i)
      QCOMPARE_NEAR(gpu->normals[i], cpu.normals[i], riglens::core::tolerance::kGpuCpuRelative);
    // Tangents (a unit vector a vertex, signs alternating) turn as
    // core::skinTangents turns them; a mirroring bone flips their sign.
    std::vector<float> tangents;
    for (std::size_t v = 0; v < merged.vertexCount(); ++v) {
      const glm::vec3 t = glm::normalize(glm::vec3(1.0f, 0.3f * float(v % 5), -0.2f * float(v % 3)));
      tangents.insert(tangents.end(), {t.x, t.y, t.z, v % 2 ? -1.0f : 1.0f});
    }
    // Every bone mirrored, so every blend (of rotations a few tens of degrees
    // apart) has a determinant clearly below 0, never near it.
    std::vector<glm::mat4> mirrored = bones;
    for (glm::mat4& bone : mirrored) bone = bone * glm::scale(glm::mat4(1.0f), glm::vec3(-1, 1, 1));
    int flipped = 0;
    for (const auto& set : {bones, mirrored}) {
      const std::vector<float> want = core::skinTangents(tangents, *skinned.skin, set);
      std::vector<float> turned;
      QVERIFY_OK(render::skinMeshOnGpu(*m_device, merged, *skinned.skin, set, {}, {}, tangents, &turned));
      QCOMPARE(turned.size(), want.size());
      for (std::size_t i = 0; i < want.size(); ++i) {
        QCOMPARE_NEAR(turned[i], want[i], riglens::core::tolerance::kGpuCpuRelative);
        flipped += i % 4 == 3 && want[i] != tangents[i];
      }
    }
    QCOMPARE(flipped, int(merged.vertexCount()));  // each sign once, under the mirrored bones

    // Drawn through the renderer's own skinning pass, the skinned tank matches
    // the CPU-skinned one drawn as a static mesh.
    auto skinnedRun = std::make_shared<const core::LoadedRun>(skinned);
    core::LoadedRun cpuSkinned = skinned;
    cpuSkinned.kind = core::RunKind::StaticMesh;
    cpuSkinned.skin.reset();
    cpuSkinned.meshes = {cpu};
    cpuSkinned.rig = core::Rig::singlePart("tank");
    const core::OrbitCamera camera = test::defaultCamera(*tank);
    render::ViewSettings view;
    view.showGrid = view.showAxes = false;
    const QImage a = draw(skinnedRun, worlds, view, kGoldenSize, &camera);
    const std::vector<glm::mat4> identity{glm::mat4(1.0f)};
    const QImage b = draw(std::make_shared<const core::LoadedRun>(cpuSkinned), identity, view, kGoldenSize, &camera);
    a.save(test::outputPath("skinned-gpu.png"));
    int differing = 0;
    for (int y = 0; y < a.height(); ++y)
      for (int x = 0; x < a.width(); ++x) {
        const QRgb p = a.pixel(x, y), q = b.pixel(x, y);
        differing +=
            std::max({std::abs(qRed(p) - qRed(q)), std::abs(qGreen(p) - qGreen(q)), std::abs(qBlue(p) - qBlue(q))}) > 2;
      }
    QVERIFY2(differing <= 20, qPrintable(QString::number(differing)));
  }

  // Closing a skinned model takes its skinning pass with it. The pass writes
  // into two of the model's buffers; left behind, it went on dispatching
  // into them after they were freed, every frame (on lavapipe: freed host
  // memory, a corrupted heap, and a splat scene opened next drew nothing).
  void closingASkinnedModelEndsItsSkinningPass() {
    auto tank = test::sampleRun("tank-cubes");
    auto skinned = std::make_shared<const core::LoadedRun>(skinnedTank(*tank));
    auto canvas = render::OffscreenCanvas::create(*m_device, kGoldenSize);
    QVERIFY_OK(canvas);
    render::RigRenderer renderer(*m_device);
    renderer.setModel(skinned);
    const core::OrbitCamera camera = test::defaultCamera(*tank);
    const auto worlds = test::posedWorlds(*tank, tankPoses().at("aim"));
    render::ViewSettings view;
    const auto state = render::buildFrameState(*skinned, worlds, camera, 1.0f, view);
    const auto drawn = (*canvas)->render(renderer, state);
    QVERIFY_OK(drawn);
    QVERIFY(renderer.memoryReport().storageBytes > 0);  // the skinning pass's buffers
    renderer.setModel(nullptr);
    const auto empty = (*canvas)->render(renderer, render::cameraFrameState(camera, 1.0f));
    QVERIFY_OK(empty);
    const render::MemoryReport after = renderer.memoryReport();
    QCOMPARE(after.storageBytes, std::size_t(0));
    QCOMPARE(after.vertexBytes + after.indexBytes, std::size_t(0));
  }

  void gpuMorphTargetsMatchTheGltfScene_data() {
    QTest::addColumn<bool>("skinned");
    QTest::newRow("skinned") << true;
    QTest::newRow("skinless (rigid node bones)") << false;
  }
  void gpuMorphTargetsMatchTheGltfScene() {
    // The animated character mid-clip: its body's two morph targets animated
    // (the clip's weights channel), skinned by its joints, or with its skin
    // taken away placed by its nodes' bones alone. The GPU pass equals the
    // glTF scene's own posed vertices (core::gltfPosedVertices, checked by
    // hand and against three.js elsewhere), morphs included.
    QFETCH(bool, skinned);
    const auto run = skinned ? loadFixture(test::makeAnimatedCharacter(), "character.glb")
                             : loadFixture(test::withoutSkin(test::makeAnimatedCharacter()), "character-rigid.glb");
    QCOMPARE(run->skin->isRigid(), !skinned);
    QVERIFY(!run->morph.empty());
    auto scene = core::readGltfScene(run->source);
    QVERIFY_OK(scene);
    int withWeights = -1;
    for (std::size_t a = 0; a < scene->animations.size(); ++a)
      for (const auto& channel : scene->animations[a].channels)
        if (channel.path == core::GltfPath::Weights) withWeights = int(a);
    QVERIFY(withWeights >= 0);
    core::RigController controller(run->rig, &run->gltf);
    QVERIFY_OK(controller.play(scene->animations[std::size_t(withWeights)].name));
    controller.update(0.7);
    controller.evaluate();
    const auto weights = core::runMorphWeights(*run, controller.gltfPose());
    QVERIFY(std::any_of(weights.begin(), weights.end(), [](float w) { return w != 0.0f && w != 0.5f; }));
    const auto bones = core::runBones(*run, controller.partWorlds(), controller.gltfPose());
    auto gpu = render::skinMeshOnGpu(*m_device, run->meshes[0], *run->skin, bones, run->morph, weights);
    QVERIFY_OK(gpu);
    const auto expected = core::gltfPosedVertices(*scene, core::gltfSamplePose(*scene, withWeights, 0.7));
    QCOMPARE(gpu->positions.size(), expected.size());
    for (std::size_t i = 0; i < expected.size(); ++i)
      QVERIFY2(std::abs(gpu->positions[i] - expected[i]) <= core::tolerance::kGpuCpuRelative,
               qPrintable(QString("coordinate %1: %2 vs %3").arg(i).arg(gpu->positions[i]).arg(expected[i])));
  }

  void memoryReportCountsEveryBuffer() {
    auto run = test::sampleRun("tank-cubes");
    auto canvas = render::OffscreenCanvas::create(*m_device, QSize(64, 64));
    QVERIFY(canvas);
    render::RigRenderer renderer(*m_device);
    renderer.setModel(run);
    const auto worlds = test::posedWorlds(*run, {});
    QVERIFY((*canvas)->render(renderer, render::buildFrameState(*run, worlds, test::defaultCamera(*run), 1.0f, {})));
    const render::MemoryReport report = renderer.memoryReport();
    QCOMPARE(report.parts.size(), run->meshes.size());
    std::size_t vertexBytes = 0, indexBytes = 0;
    for (std::size_t p = 0; p < run->meshes.size(); ++p) {
      const auto& m = run->meshes[p];
      QCOMPARE(report.parts[p].name, run->rig.parts()[p].name);
      QCOMPARE(report.parts[p].vertexBytes, (m.positions.size() + m.normals.size() + m.colors.size()) * sizeof(float));
      QCOMPARE(report.parts[p].indexBytes, m.indices.size() * sizeof(std::uint32_t));
      vertexBytes += report.parts[p].vertexBytes;
      indexBytes += report.parts[p].indexBytes;
    }
    QCOMPARE(report.vertexBytes, vertexBytes);
    QCOMPARE(report.indexBytes, indexBytes);
    QVERIFY(report.uniformBytes >= run->meshes.size() * 144);
    QCOMPARE(report.cpuBytes, run->cpuBytes());
    QVERIFY(report.gpuBytes() > vertexBytes + indexBytes);
    // Wireframe buffers are built on demand and then counted.
    render::ViewSettings wire;
    wire.tint = core::TintMode::Wireframe;
    QVERIFY((*canvas)->render(renderer, render::buildFrameState(*run, worlds, test::defaultCamera(*run), 1.0f, wire)));
    QVERIFY(renderer.memoryReport().vertexBytes > vertexBytes);
  }

  void framesAreDeterministic() {
    auto run = test::sampleRun("walker-smooth");
    const auto worlds = test::posedWorlds(*run, walkerPoses().at("walk250"));
    QCOMPARE(draw(run, worlds, {}), draw(run, worlds, {}));
  }
};

QTEST_MAIN(TestRenderRig)
#include "tst_render_rig.moc"
