// RigLens.Quick3D's VoxelRig against `riglens-cli pose --json` (the core's
// posing as the CLI prints it, in another process): after setJoint, play and
// a clock time, every part node's scene transform equals the part's world
// matrix to 1e-5, for the held-in samples (tank and walker, cubes and
// smooth). Skinned meshes (a rig's parts as one skinned mesh.glb, a whole
// rig exported to one glTF, an animated glTF character with its own joints
// and morph targets): the vertices Qt Quick 3D's skinning makes of what the
// node hands it (Skin joints and inverse binds, the geometry's joints and
// weights) equal `riglens-cli pose --vertices` (for a glTF file, its scene
// read and posed again, skinned and morphed on the CPU). Then the API's
// answers and its refusals: a bad source gives Error and a message and keeps
// the model it had.
#include <QtQuick3D/private/qquick3ddefaultmaterial_p.h>
#include <QtQuick3D/private/qquick3dmodel_p.h>
#include <QtQuick3D/private/qquick3dprincipledmaterial_p.h>
#include <QtQuick3D/private/qquick3dskin_p.h>
#include <QtQuick3D/private/qquick3dtexture_p.h>

#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtCore/QProcess>
#include <QtCore/QSaveFile>
#include <QtCore/QTemporaryDir>
#include <QtQuick3D/QQuick3DGeometry>
#include <QtTest/QSignalSpy>
#include <QtTest/QTest>
#include <cstring>

#include "gltf_material_fixture.h"
#include "gltf_scene_fixture.h"
#include "pbr_fixture.h"
#include "riglens/core/base/tolerances.h"
#include "riglens/core/open/asset_readers.h"
#include "riglens/core/rig/rig_controller.h"
#include "riglens/core/rig/rig_tints.h"
#include "riglens/core/rig/run_loader.h"
#include "riglens/core/rig/skinning.h"
#include "skinned_run_fixture.h"
#include "voxel_rig.h"
#include "vrm_fixture.h"

using riglens::quick3d::VoxelRig;

namespace {

const QString kCli = QStringLiteral(RIGLENS_CLI_EXE);
// How long a rewrite may take to be adopted: the watcher's settle time twice
// and a load, on a loaded CI machine.
constexpr int kWatchTimeoutMs = 20000;

QJsonObject poseJson(const QStringList& args) {
  QProcess process;
  process.start(kCli, QStringList{"pose"} + args + QStringList{"--json"});
  if (!process.waitForFinished(60000) || process.exitCode() != 0) return {};
  return QJsonDocument::fromJson(process.readAllStandardOutput()).object();
}

// `riglens-cli pose ARGS --vertices`: xyz per vertex.
std::vector<float> cliVertices(const QStringList& args, const QString& file) {
  QProcess process;
  process.start(kCli, QStringList{"pose"} + args + QStringList{"--vertices", file});
  if (!process.waitForFinished(60000) || process.exitCode() != 0) return {};
  QFile in(file);
  if (!in.open(QIODevice::ReadOnly)) return {};
  const QByteArray bytes = in.readAll();
  std::vector<float> out(std::size_t(bytes.size()) / sizeof(float));
  std::memcpy(out.data(), bytes.constData(), out.size() * sizeof(float));
  return out;
}

// The rig's skinned vertices as Qt Quick 3D makes them (the Skin type's
// documented sum): v' = sum_k w_k * joint_k.sceneTransform * inverseBindPose_k * v,
// from the model's Skin and the geometry's position, joint and weight attributes.
std::vector<float> qtSkinnedVertices(const VoxelRig& rig) {
  QQuick3DModel* model = nullptr;
  for (QQuick3DModel* m : rig.findChildren<QQuick3DModel*>())
    if (m->skin()) model = m;
  if (!model || !model->geometry()) return {};
  QQuick3DSkin* skin = model->skin();
  auto joints = skin->joints();
  const QList<QMatrix4x4> inverseBinds = skin->inverseBindPoses();
  std::vector<QMatrix4x4> bones;
  for (qsizetype j = 0; j < joints.count(&joints); ++j)
    bones.push_back(joints.at(&joints, j)->sceneTransform() *
                    (j < inverseBinds.size() ? inverseBinds[j] : QMatrix4x4()));
  const QQuick3DGeometry* geometry = model->geometry();
  int position = -1, joint = -1, weight = -1;
  for (int a = 0; a < geometry->attributeCount(); ++a) {
    const auto attribute = geometry->attribute(a);
    if (attribute.semantic == QQuick3DGeometry::Attribute::PositionSemantic) position = attribute.offset;
    if (attribute.semantic == QQuick3DGeometry::Attribute::JointSemantic) joint = attribute.offset;
    if (attribute.semantic == QQuick3DGeometry::Attribute::WeightSemantic) weight = attribute.offset;
  }
  if (position < 0 || joint < 0 || weight < 0) return {};
  const QByteArray data = geometry->vertexData();
  std::vector<float> out;
  for (qsizetype at = 0; at + geometry->stride() <= data.size(); at += geometry->stride()) {
    float p[3], w[4];
    std::uint32_t j[4];
    std::memcpy(p, data.constData() + at + position, sizeof(p));
    std::memcpy(j, data.constData() + at + joint, sizeof(j));
    std::memcpy(w, data.constData() + at + weight, sizeof(w));
    QVector3D sum;
    for (int k = 0; k < 4; ++k)
      if (w[k] != 0.0f && j[k] < bones.size()) sum += w[k] * bones[j[k]].map(QVector3D(p[0], p[1], p[2]));
    out.insert(out.end(), {sum.x(), sum.y(), sum.z()});
  }
  return out;
}

// A pose: caller values, an animation to play, the clock (ms).
struct Pose {
  QList<QPair<QString, double>> joints;
  QString play;
  double timeMs = 0;
};

}  // namespace

class TestQuick3dVoxelRig : public QObject {
  Q_OBJECT
  QTemporaryDir m_dir;
  // posedBounds() poses each bone's box of vertices by its corners: a
  // rotated box's corners reach past its vertices (by up to sqrt(3)).
  static constexpr float kBoxSlack = 1.5f;
  static constexpr float kInside = riglens::core::tolerance::kFloatCoordinate;
  // A QColor keeps 16 bits per channel: a colour set from floats reads back within one step.
  static constexpr float kQColorStep = 1.0f / 65535.0f;

 private slots:
  void initTestCase() {
    QVERIFY(m_dir.isValid());
    QProcess process;
    process.start(kCli, {"samples", "--out", m_dir.path()});
    QVERIFY(process.waitForFinished(120000) && process.exitCode() == 0);
    // The skinned runs: the tank and the walker as one skinned mesh.glb
    // (blended weights), the tank exported to one glTF (its nodes as bones,
    // its clips), and an animated glTF character (joints, morph targets,
    // meshes on joints).
    for (const char* sample : {"tank-cubes", "walker-smooth"}) {
      const std::string problem = riglens::test::writeSkinnedRun(
          m_dir.filePath(sample).toStdString(), m_dir.filePath(QString(sample) + "-skinned").toStdString(), true);
      QVERIFY2(problem.empty(), problem.c_str());
    }
    process.start(kCli, {"export", m_dir.filePath("tank-cubes"), "--out", m_dir.filePath("tank-exported.glb")});
    QVERIFY(process.waitForFinished(120000) && process.exitCode() == 0);
    const auto character = riglens::test::makeAnimatedCharacter().glb();
    QFile file(m_dir.filePath("character.glb"));
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(reinterpret_cast<const char*>(character.data()), qsizetype(character.size()));
  }

  void skinnedVerticesMatchThePoseCommand_data() {
    QTest::addColumn<QString>("source");
    QTest::addColumn<QStringList>("joints");  // name=value
    QTest::addColumn<QString>("play");
    QTest::addColumn<double>("timeMs");
    const QStringList none;
    for (const char* sample : {"tank-cubes-skinned", "walker-smooth-skinned"}) {
      QTest::newRow(qPrintable(QStringLiteral("%1 rest").arg(sample))) << QString(sample) << none << QString() << 0.0;
      QTest::newRow(qPrintable(QStringLiteral("%1 idles at 0.75 s").arg(sample)))
          << QString(sample) << none << QString() << 750.0;
    }
    QTest::newRow("tank skinned posed, fire at 0.3 s")
        << "tank-cubes-skinned" << QStringList{"turret_yaw=0.9", "gun_pitch=0.4"} << "fire" << 300.0;
    QTest::newRow("walker skinned posed")
        << "walker-smooth-skinned" << QStringList{"head_yaw=0.5"} << QString() << 400.0;
    QTest::newRow("exported tank rest") << "tank-exported.glb" << none << QString() << 0.0;
    QTest::newRow("exported tank, fire at 0.2 s") << "tank-exported.glb" << none << "fire" << 200.0;
    QTest::newRow("exported tank, radar at 0.7 s") << "tank-exported.glb" << none << "radar" << 700.0;
    QTest::newRow("character rest") << "character.glb" << none << QString() << 0.0;
    QTest::newRow("character, wave at 0.4 s") << "character.glb" << none << "wave" << 400.0;
    QTest::newRow("character, bounce at 0.25 s") << "character.glb" << none << "bounce" << 250.0;
  }
  void skinnedVerticesMatchThePoseCommand() {
    QFETCH(QString, source);
    QFETCH(QStringList, joints);
    QFETCH(QString, play);
    QFETCH(double, timeMs);
    VoxelRig rig;
    rig.setRunning(false);
    rig.setSource(QUrl::fromLocalFile(m_dir.filePath(source)));
    QCOMPARE(rig.status(), VoxelRig::Ready);
    QStringList args{m_dir.filePath(source)};
    for (const QString& assignment : joints) {
      QVERIFY2(rig.setJoint(assignment.section('=', 0, 0), assignment.section('=', 1).toDouble()),
               qPrintable(rig.errorString()));
      args << "--set" << assignment;
    }
    if (!play.isEmpty()) {
      QVERIFY(rig.play(play));
      args << "--play" << play;
    }
    rig.setTime(timeMs / 1000.0);
    args << "--time-ms" << QString::number(timeMs, 'g', 17);
    const std::vector<float> expected = cliVertices(args, m_dir.filePath("vertices.bin"));
    const std::vector<float> actual = qtSkinnedVertices(rig);
    QVERIFY(!expected.empty());
    QCOMPARE(actual.size(), expected.size());
    double worst = 0;
    for (std::size_t i = 0; i < actual.size(); ++i) worst = std::max(worst, double(std::abs(actual[i] - expected[i])));
    // f32 sums of vertices tens of voxels from the origin.
    QVERIFY2(worst <= riglens::core::tolerance::kFloatChain, qPrintable(QString::number(worst)));
  }

  // The skinned model is one Model with Qt Quick 3D's Skin: its joints are
  // the part nodes (bones = parts), or nodes placed at the glTF's joints.
  void skinnedModelsUseTheirJoints() {
    VoxelRig rig;
    rig.setSource(QUrl::fromLocalFile(m_dir.filePath("tank-cubes-skinned")));
    QCOMPARE(rig.status(), VoxelRig::Ready);
    const auto models = rig.findChildren<QQuick3DModel*>();
    QCOMPARE(models.size(), 1);
    QQuick3DSkin* skin = models[0]->skin();
    QVERIFY(skin);
    auto joints = skin->joints();
    QCOMPARE(joints.count(&joints), rig.partNames().size());
    for (qsizetype j = 0; j < joints.count(&joints); ++j)
      QCOMPARE(joints.at(&joints, j), rig.partNode(rig.partNames()[j]));
    // Its colours as the viewer tints a skinned draw: the mesh's own; none
    // for the part tint (the root part's colour instead); for the joint
    // tint, each vertex its bones' colours by weight.
    const auto colors = [&models]() -> std::vector<float> {
      const QQuick3DGeometry* g = models[0]->geometry();
      for (int a = 0; a < g->attributeCount(); ++a) {
        if (g->attribute(a).semantic != QQuick3DGeometry::Attribute::ColorSemantic) continue;
        std::vector<float> out;
        const QByteArray data = g->vertexData();
        for (qsizetype at = 0; at + g->stride() <= data.size(); at += g->stride()) {
          float rgb[3];
          std::memcpy(rgb, data.constData() + at + g->attribute(a).offset, sizeof(rgb));
          out.insert(out.end(), rgb, rgb + 3);
        }
        return out;
      }
      return {};
    };
    auto loaded = riglens::core::loadRun(m_dir.filePath("tank-cubes-skinned").toStdString());
    QVERIFY(loaded.hasValue() && loaded->skin);
    QCOMPARE(colors(), loaded->meshes[0].colors);
    rig.setTint("joint");
    QCOMPARE(colors(), riglens::core::boneWeightTints(*loaded->skin));
    rig.setTint("part");
    QVERIFY(colors().empty());
    rig.setTint("color");
    QCOMPARE(colors(), loaded->meshes[0].colors);
    // The viewer's tints and visibility apply to the one model.
    rig.setTint("normals");
    QCOMPARE(rig.tint(), QStringLiteral("normals"));
    QVERIFY(rig.setPartVisible("hull", false));
    QVERIFY(!models[0]->visible());
    // A glTF file: its clips are the animations; its joints are nodes of the rig.
    rig.setSource(QUrl::fromLocalFile(m_dir.filePath("character.glb")));
    QCOMPARE(rig.status(), VoxelRig::Ready);
    QStringList clips;
    for (const QVariant& clip : rig.animations()) clips << clip.toMap()["name"].toString();
    QCOMPARE(clips, (QStringList{"wave", "bounce"}));
    QCOMPARE(rig.findChildren<QQuick3DModel*>().size(), 1);
  }

  // posedBounds() holds the geometry as posed (skinned and morphed on the
  // CPU by core's reference) and is about its size: a QML camera frames with it.
  void posedBoundsHoldThePosedGeometry() {
    VoxelRig rig;
    rig.setRunning(false);
    QVERIFY(rig.posedBounds().isEmpty());
    const QString file = m_dir.filePath("character.glb");
    rig.setSource(QUrl::fromLocalFile(file));
    QCOMPARE(rig.status(), VoxelRig::Ready);
    auto run = riglens::core::loadRun(file.toStdString());
    QVERIFY(run);
    riglens::core::RigController controller(run->rig, &run->gltf);
    for (const double t : {-1.0, 0.3, 0.9}) {  // rest, then "wave" at t seconds
      if (t >= 0) {
        QVERIFY(rig.play("wave") && controller.play("wave"));
        rig.setTime(t), controller.seekPlayable(t * 1000.0);
      }
      controller.evaluate();
      const auto pose = controller.gltfPose() ? *controller.gltfPose() : riglens::core::gltfRestPose(run->gltf);
      const auto posed = riglens::core::skinMesh(
          riglens::core::morphMesh(run->meshes[0], run->morph, riglens::core::runMorphWeights(*run, &pose)), *run->skin,
          riglens::core::runBones(*run, controller.partWorlds(), &pose));
      const QVariantMap box = rig.posedBounds();
      const QVector3D lo = box["min"].value<QVector3D>(), hi = box["max"].value<QVector3D>();
      riglens::core::Bounds shown;
      for (std::size_t i = 0; i + 2 < posed.positions.size(); i += 3) {
        const glm::vec3 p(posed.positions[i], posed.positions[i + 1], posed.positions[i + 2]);
        shown.include(p);
        for (int c = 0; c < 3; ++c)
          QVERIFY2(
              p[c] >= lo[c] - kInside && p[c] <= hi[c] + kInside,
              qPrintable(
                  QString("t %1: vertex %2 axis %3 outside %4..%5").arg(t).arg(i / 3).arg(c).arg(lo[c]).arg(hi[c])));
      }
      QVERIFY(box["radius"].toFloat() <= kBoxSlack * shown.radius());
    }
  }

  void partTransformsMatchThePoseCommand_data() {
    QTest::addColumn<QString>("sample");
    QTest::addColumn<int>("pose");
    for (const char* sample : {"tank-cubes", "tank-smooth", "walker-cubes", "walker-smooth"})
      for (int pose = 0; pose < 3; ++pose)
        QTest::newRow(qPrintable(QStringLiteral("%1 pose %2").arg(sample).arg(pose))) << QString(sample) << pose;
  }
  void partTransformsMatchThePoseCommand() {
    QFETCH(QString, sample);
    QFETCH(int, pose);
    VoxelRig rig;
    rig.setRunning(false);  // the test sets the clock
    rig.setSource(QUrl::fromLocalFile(m_dir.filePath(sample)));
    QCOMPARE(rig.status(), VoxelRig::Ready);
    // 0: rest at 0 ms; 1: every caller joint at 70% of its range, the idles
    // at 0.75 s; 2: the first playable animation 0.3 s in, a caller joint at
    // its minimum (beyond it: clamped).
    Pose p;
    const QStringList callers = rig.jointNames("caller");
    QVERIFY(!callers.isEmpty());
    if (pose == 1) {
      for (const QString& name : callers) {
        const QVariantMap range = rig.jointRange(name);
        p.joints.append({name, range["min"].toDouble() + 0.7 * (range["max"].toDouble() - range["min"].toDouble())});
      }
      p.timeMs = 750;
    } else if (pose == 2) {
      for (const QVariant& a : rig.animations())
        if (!a.toMap()["autoPlay"].toBool()) p.play = a.toMap()["name"].toString();
      QVERIFY(!p.play.isEmpty());
      p.joints.append({callers.first(), rig.jointRange(callers.first())["min"].toDouble() - 5.0});
      p.timeMs = 300;
    }
    QStringList args{m_dir.filePath(sample)};
    for (const auto& [name, value] : p.joints) {
      QVERIFY(rig.setJoint(name, value));
      args << "--set" << QStringLiteral("%1=%2").arg(name).arg(value, 0, 'g', 17);
    }
    if (!p.play.isEmpty()) {
      QVERIFY(rig.play(p.play));
      QCOMPARE(rig.playing(), p.play);
      args << "--play" << p.play;
    }
    rig.setTime(p.timeMs / 1000.0);
    args << "--time-ms" << QString::number(p.timeMs, 'g', 17);

    const QJsonObject expected = poseJson(args);
    const QJsonArray parts = expected["parts"].toArray();
    QVERIFY(!parts.isEmpty());
    QCOMPARE(rig.partNames().size(), parts.size());
    double worst = 0;
    for (const QJsonValue& value : parts) {
      const QJsonObject part = value.toObject();
      QQuick3DNode* node = rig.partNode(part["name"].toString());
      QVERIFY2(node, qPrintable(part["name"].toString()));
      const QMatrix4x4 scene = node->sceneTransform();
      const QJsonArray world = part["world"].toArray();
      for (int column = 0; column < 4; ++column)
        for (int row = 0; row < 4; ++row)
          worst = std::max(worst, std::abs(double(scene(row, column)) - world[column * 4 + row].toDouble()));
    }
    QVERIFY2(worst <= riglens::core::tolerance::kFloatCoordinate, qPrintable(QString::number(worst)));
    // And every joint's layered value, as the CLI prints it.
    const QJsonObject values = expected["joints"].toObject();
    QVERIFY(!values.isEmpty());
    for (auto it = values.begin(); it != values.end(); ++it)
      QVERIFY2(std::abs(rig.jointValue(it.key()) - it.value().toDouble()) <= riglens::core::tolerance::kDouble,
               qPrintable(it.key()));
  }

  void answersLikeTheController() {
    VoxelRig rig;
    QCOMPARE(rig.status(), VoxelRig::Null);
    rig.setSource(QUrl::fromLocalFile(m_dir.filePath("tank-cubes")));
    QCOMPARE(rig.status(), VoxelRig::Ready);
    QCOMPARE(rig.partNames(), (QStringList{"hull", "turret", "barrel", "muzzle", "radar"}));
    QCOMPARE(rig.jointNames("caller"), (QStringList{"turret_yaw", "gun_pitch"}));
    QCOMPARE(rig.jointNames("auto"), (QStringList{"gun_recoil", "radar_spin"}));
    QCOMPARE(rig.jointNames("sideways"), QStringList());
    const QVariantMap pitch = rig.jointRange("gun_pitch");
    QCOMPARE(pitch["kind"].toString(), QStringLiteral("rotation"));
    QCOMPARE(pitch["axis"].toString(), QStringLiteral("x"));
    QCOMPARE(pitch["min"].toDouble(), -0.2);
    QCOMPARE(pitch["max"].toDouble(), 0.6);
    QVERIFY(rig.jointRange("wheel").isEmpty());
    QCOMPARE(rig.animations().size(), 2);
    const QVariantMap radar = rig.animations()[0].toMap();
    QCOMPARE(radar["name"].toString(), QStringLiteral("radar"));
    QCOMPARE(radar["period"].toDouble(), 2.0);
    QVERIFY(radar["autoPlay"].toBool() && radar["loop"].toBool());
    // Refusals change nothing: an auto joint, an unknown one, no number.
    QVERIFY(!rig.setJoint("radar_spin", 1.0));
    QVERIFY(rig.errorString().contains("radar_spin"));
    QVERIFY(!rig.setJoint("wheel", 1.0));
    QVERIFY(!rig.setJoint("turret_yaw", qQNaN()));
    QCOMPARE(rig.status(), VoxelRig::Ready);
    QVERIFY(!rig.play("dance"));
    QCOMPARE(rig.playing(), QString());
    // The muzzle is a socket: a node and no model.
    QQuick3DNode* muzzle = rig.partNode("muzzle");
    QVERIFY(muzzle && muzzle->findChildren<QQuick3DNode*>().isEmpty());
    QVERIFY(!rig.partNode("hull")->findChildren<QQuick3DNode*>(QString(), Qt::FindDirectChildrenOnly).isEmpty());
    // The hierarchy mirrors the rig: the barrel hangs under the turret.
    QCOMPARE(rig.partNode("barrel")->parentNode(), rig.partNode("turret"));
    QCOMPARE(rig.partNode("hull")->parentNode(), &rig);
    // jointValue: clamped, NaN for an unknown joint; poseChanged on each change.
    QSignalSpy posed(&rig, &VoxelRig::poseChanged);
    QVERIFY(rig.setJoint("gun_pitch", 5.0));
    QCOMPARE(rig.jointValue("gun_pitch"), 0.6);
    QVERIFY(qIsNaN(rig.jointValue("wheel")));
    rig.setTime(0.5);
    QCOMPARE(posed.count(), 2);
    // resetPose: callers back to rest.
    const QMatrix4x4 rest = rig.partNode("turret")->sceneTransform();
    QVERIFY(rig.setJoint("turret_yaw", 1.0));
    QVERIFY(rig.partNode("turret")->sceneTransform() != rest);
    rig.resetPose();
    QCOMPARE(rig.partNode("turret")->sceneTransform(), rest);
    // The part and joint tints replace the vertex colours (as the viewer's
    // do): Qt Quick 3D 6.4 multiplies in any colour attribute, so the hull's
    // geometry drops it for them and has it again for the colour tint.
    const auto hasColors = [&rig] {
      const QQuick3DGeometry* g = rig.partNode("hull")->findChild<QQuick3DModel*>()->geometry();
      for (int a = 0; a < g->attributeCount(); ++a)
        if (g->attribute(a).semantic == QQuick3DGeometry::Attribute::ColorSemantic) return true;
      return false;
    };
    QVERIFY(hasColors());
    rig.setTint("part");
    QVERIFY(!hasColors());
    rig.setTint("joint");
    QVERIFY(!hasColors());
    rig.setTint("color");
    QVERIFY(hasColors());
    // A non-looping playable ends: playing goes back to "".
    QVERIFY(rig.play("fire"));
    rig.setTime(5.0);
    rig.stop();
    QCOMPARE(rig.playing(), QString());
  }

  // asynchronous: Loading while a worker reads the files, then Ready with
  // the model; of two sources set in a row only the last is adopted.
  // reload() reads a changed source again, under the same rules.
  void loadsAsynchronouslyAndReloads() {
    VoxelRig rig;
    rig.setAsynchronous(true);
    rig.setSource(QUrl::fromLocalFile(m_dir.filePath("walker-cubes")));
    QCOMPARE(rig.status(), VoxelRig::Loading);
    rig.setSource(QUrl::fromLocalFile(m_dir.filePath("tank-cubes")));
    QTRY_COMPARE(rig.status(), VoxelRig::Ready);
    QCOMPARE(rig.partNames(), (QStringList{"hull", "turret", "barrel", "muzzle", "radar"}));
    QTest::qWait(200);  // the walker's load, finishing late, changes nothing
    QVERIFY(!rig.partNode("head"));

    const QString run = m_dir.filePath("edited");
    QVERIFY(QDir().mkpath(run + "/meshes"));
    for (const QString& file : QDir(m_dir.filePath("tank-cubes/meshes")).entryList(QDir::Files))
      QVERIFY(QFile::copy(m_dir.filePath("tank-cubes/meshes/") + file, run + "/meshes/" + file));
    QVERIFY(QFile::copy(m_dir.filePath("tank-cubes/rig.json"), run + "/rig.json"));
    rig.setAsynchronous(false);
    rig.setSource(QUrl::fromLocalFile(run));
    QCOMPARE(rig.status(), VoxelRig::Ready);
    QFile json(run + "/rig.json");
    QVERIFY(json.open(QIODevice::WriteOnly | QIODevice::Truncate));
    json.write("{\"parts\": [");
    json.close();
    rig.reload();  // the same source, now broken: Error, the tank stays
    QCOMPARE(rig.status(), VoxelRig::Error);
    QVERIFY2(rig.errorString().contains("rig.json"), qPrintable(rig.errorString()));
    QVERIFY(rig.partNode("turret"));
    QVERIFY(QFile::remove(run + "/rig.json"));
    QVERIFY(QFile::copy(m_dir.filePath("walker-cubes/rig.json"), run + "/rig.json"));
    rig.setAsynchronous(true);
    rig.reload();  // mended (the walker's rig over the tank's meshes): Ready again
    QCOMPARE(rig.status(), VoxelRig::Loading);
    QTRY_COMPARE(rig.status(), VoxelRig::Ready);
    QVERIFY(rig.partNode("head"));
  }

  // watch: a part's mesh replaced by rename is adopted with the pose kept
  // (caller joint, clip, hidden part); the same mesh written in place in
  // two halves gives Error naming it while the model stays, then Ready.
  void watchReloadsWhenTheFilesSettle() {
    const QString run = m_dir.filePath("watched");
    QVERIFY(QDir().mkpath(run + "/meshes"));
    for (const QString& file : QDir(m_dir.filePath("tank-cubes/meshes")).entryList(QDir::Files))
      QVERIFY(QFile::copy(m_dir.filePath("tank-cubes/meshes/") + file, run + "/meshes/" + file));
    QVERIFY(QFile::copy(m_dir.filePath("tank-cubes/rig.json"), run + "/rig.json"));
    VoxelRig rig;
    rig.setSource(QUrl::fromLocalFile(run));
    rig.setWatch(true);
    rig.setRunning(false);  // the one-shot clip must not end while the files are rewritten
    QVERIFY(rig.setJoint("turret_yaw", 0.4));
    QVERIFY(rig.play("fire"));
    rig.setTime(0.25);
    QVERIFY(rig.setPartVisible("radar", false));
    QSignalSpy models(&rig, &VoxelRig::modelChanged);
    const auto readAll = [](const QString& path) {
      QFile in(path);
      return in.open(QIODevice::ReadOnly) ? in.readAll() : QByteArray();
    };
    const QByteArray body = readAll(m_dir.filePath("walker-cubes/meshes/body.glb"));
    const QByteArray head = readAll(m_dir.filePath("walker-cubes/meshes/head.glb"));
    QVERIFY(!body.isEmpty() && !head.isEmpty());
    {
      QSaveFile hull(run + "/meshes/hull.glb");  // temp file + rename
      QVERIFY(hull.open(QIODevice::WriteOnly));
      hull.write(body);
      QVERIFY(hull.commit());
    }
    QTRY_COMPARE_WITH_TIMEOUT(models.count(), 1, kWatchTimeoutMs);
    QCOMPARE(rig.status(), VoxelRig::Ready);
    QCOMPARE(rig.jointValue("turret_yaw"), 0.4);
    QCOMPARE(rig.playing(), QString("fire"));
    QCOMPARE(rig.time(), 0.25);
    QVERIFY(!rig.partVisible("radar"));
    QVERIFY(rig.partVisible("hull"));
    const auto writeInPlace = [&](const QByteArray& bytes) {
      QFile turret(run + "/meshes/turret.glb");
      QVERIFY(turret.open(QIODevice::WriteOnly | QIODevice::Truncate));
      turret.write(bytes);
    };
    writeInPlace(head.left(head.size() / 2));
    QTRY_COMPARE_WITH_TIMEOUT(rig.status(), VoxelRig::Error, kWatchTimeoutMs);
    QVERIFY2(rig.errorString().contains("turret.glb"), qPrintable(rig.errorString()));
    QCOMPARE(models.count(), 1);  // the tank with the new hull stays
    QVERIFY(rig.partNode("turret"));
    writeInPlace(head);
    QTRY_COMPARE_WITH_TIMEOUT(rig.status(), VoxelRig::Ready, kWatchTimeoutMs);
    QCOMPARE(models.count(), 2);
    QCOMPARE(rig.jointValue("turret_yaw"), 0.4);
  }

  // The PBR look gives the model one PrincipledMaterial per geometry subset
  // (one subset per primitive), carrying what the file's materials say
  // (tests/support: the material showcase, quads of known metal-roughness
  // inputs); the review look one default material per subset again.
  void pbrLookCarriesTheFilesMaterials() {
    riglens::test::PbrQuad rough, polished;
    rough.metallic = 0.25, rough.roughness = 0.75, rough.ior = 1.33;
    rough.emissive[0] = 0.5, rough.emissive[1] = 0.25, rough.emissive[2] = 0.125, rough.emissiveStrength = 4;
    polished.metallic = 1, polished.roughness = 0.1;
    const QString quads = m_dir.filePath("pbr-quads.glb"), showcase = m_dir.filePath("showcase.glb");
    for (const auto& [path, builder] : {std::pair{quads, riglens::test::makePbrQuads({rough, polished})},
                                        std::pair{showcase, riglens::test::makeMaterialShowcase()}}) {
      const auto bytes = riglens::test::GltfBuilder(builder).glb();
      QFile file(path);
      QVERIFY(file.open(QIODevice::WriteOnly));
      file.write(reinterpret_cast<const char*>(bytes.data()), qsizetype(bytes.size()));
    }
    const auto materialsOf = [](const VoxelRig& rig) {
      std::vector<QQuick3DMaterial*> out;
      for (QQuick3DModel* model : rig.findChildren<QQuick3DModel*>()) {
        auto list = model->materials();
        for (qsizetype i = 0; i < list.count(&list); ++i) out.push_back(list.at(&list, i));
      }
      return out;
    };
    VoxelRig rig;
    rig.setSource(QUrl::fromLocalFile(quads));
    QCOMPARE(rig.status(), VoxelRig::Ready);
    rig.setLook("pbr");
    QCOMPARE(rig.look(), QStringLiteral("pbr"));
    auto made = materialsOf(rig);
    QCOMPARE(made.size(), std::size_t(2));
    auto* first = qobject_cast<QQuick3DPrincipledMaterial*>(made[0]);
    auto* second = qobject_cast<QQuick3DPrincipledMaterial*>(made[1]);
    QVERIFY(first && second);
    QCOMPARE(first->metalness(), 0.25f);
    QCOMPARE(first->roughness(), 0.75f);
    QCOMPARE(first->indexOfRefraction(), 1.33f);
    QCOMPARE(first->emissiveFactor(), QVector3D(2.0f, 1.0f, 0.5f));  // the factor x KHR_materials_emissive_strength
    QCOMPARE(second->metalness(), 1.0f);
    QCOMPARE(second->roughness(), 0.1f);
    rig.setLook("review");
    made = materialsOf(rig);
    QCOMPARE(made.size(), std::size_t(2));
    QVERIFY(qobject_cast<QQuick3DDefaultMaterial*>(made[0]) && made[0] == made[1]);

    rig.setSource(QUrl::fromLocalFile(showcase));
    rig.setLook("pbr");
    made = materialsOf(rig);
    QCOMPARE(made.size(), riglens::test::kMaterialQuads.size());
    using M = QQuick3DPrincipledMaterial;
    std::vector<M*> m;
    for (QQuick3DMaterial* material : made) m.push_back(qobject_cast<M*>(material));
    QVERIFY(std::all_of(m.begin(), m.end(), [](M* x) { return x != nullptr; }));
    // checker, leaf, glass, unlit, back (gltf_material_fixture.h)
    QVERIFY(m[0]->baseColorMap() && m[1]->baseColorMap() && !m[2]->baseColorMap());
    QCOMPARE(m[0]->baseColorMap()->minFilter(), QQuick3DTexture::Nearest);
    QCOMPARE(m[1]->baseColorMap()->indexUV(), 0);  // set 1 through the transform: the loader moved it to uvs
    QCOMPARE(m[0]->alphaMode(), M::Opaque);
    QCOMPARE(m[0]->cullMode(), QQuick3DMaterial::BackFaceCulling);
    QCOMPARE(m[1]->alphaMode(), M::Mask);
    QCOMPARE(m[1]->alphaCutoff(), 0.5f);
    QCOMPARE(m[1]->cullMode(), QQuick3DMaterial::NoCulling);
    QCOMPARE(m[2]->alphaMode(), M::Blend);
    QVERIFY(std::abs(m[2]->baseColor().alphaF() - 0.5f) <= kQColorStep);
    QCOMPARE(m[3]->lighting(), M::NoLighting);
    QCOMPARE(m[4]->lighting(), M::FragmentLighting);
    rig.setLook("plastic");  // not a look: ignored
    QCOMPARE(rig.look(), QStringLiteral("pbr"));
  }

  // A VRM avatar's expressions (tests/support/vrm_fixture.h) rewrite the
  // model's vertices as `riglens-cli pose --expression --vertices` poses them.
  void vrmExpressionsMoveTheVertices() {
    const QString vrm = m_dir.filePath("face.vrm");
    {
      const auto bytes = riglens::test::makeVrmFace(1).glb();
      QFile file(vrm);
      QVERIFY(file.open(QIODevice::WriteOnly));
      file.write(reinterpret_cast<const char*>(bytes.data()), qsizetype(bytes.size()));
    }
    VoxelRig rig;
    rig.setSource(QUrl::fromLocalFile(vrm));
    QCOMPARE(rig.status(), VoxelRig::Ready);
    QCOMPARE(rig.expressionNames().size(), 5);
    QVERIFY(rig.setExpression("happy", 0.7));
    QVERIFY(rig.setExpression("aa", 0.4));
    QVERIFY(!rig.setExpression("joy", 1.0));
    QVERIFY(rig.errorString().contains("joy"));
    const std::vector<float> expected =
        cliVertices({vrm, "--expression", "happy=0.7", "--expression", "aa=0.4"}, m_dir.filePath("face.f32"));
    QVERIFY(!expected.empty());
    const auto models = rig.findChildren<QQuick3DModel*>();
    QCOMPARE(models.size(), 1);
    const QQuick3DGeometry* geometry = models[0]->geometry();
    const QByteArray data = geometry->vertexData();
    QCOMPARE(std::size_t(data.size() / geometry->stride()) * 3, expected.size());
    for (qsizetype v = 0; v < data.size() / geometry->stride(); ++v) {
      float p[3];
      std::memcpy(p, data.constData() + v * geometry->stride(), sizeof(p));  // position first
      for (int k = 0; k < 3; ++k)
        QVERIFY2(std::abs(p[k] - expected[std::size_t(v) * 3 + std::size_t(k)]) <= kInside,
                 qPrintable(QStringLiteral("vertex %1 axis %2").arg(v).arg(k)));
    }
  }

  // A bad source: Error, a message naming the file, and the model stays.
  void badSourcesKeepTheModel() {
    VoxelRig rig;
    rig.setSource(QUrl::fromLocalFile(m_dir.filePath("walker-cubes")));
    QCOMPARE(rig.status(), VoxelRig::Ready);
    const QStringList parts = rig.partNames();
    QSignalSpy status(&rig, &VoxelRig::statusChanged);
    rig.setSource(QUrl::fromLocalFile(m_dir.filePath("nothing-here")));
    QCOMPARE(rig.status(), VoxelRig::Error);
    QVERIFY2(rig.errorString().contains("nothing-here"), qPrintable(rig.errorString()));
    QCOMPARE(status.count(), 1);
    QCOMPARE(rig.partNames(), parts);
    QVERIFY(rig.partNode("head"));
    const QString broken = m_dir.filePath("broken");
    QVERIFY(QDir().mkpath(broken));
    QFile json(broken + "/rig.json");
    QVERIFY(json.open(QIODevice::WriteOnly));
    json.write("{\"parts\": [{\"name\": 5}]");
    json.close();
    rig.setSource(QUrl::fromLocalFile(broken + "/rig.json"));
    QCOMPARE(rig.status(), VoxelRig::Error);
    QVERIFY2(rig.errorString().contains("rig.json"), qPrintable(rig.errorString()));
    QCOMPARE(rig.partNames(), parts);
    // A good source again: Ready, the new model.
    rig.setSource(QUrl::fromLocalFile(m_dir.filePath("tank-cubes")));
    QCOMPARE(rig.status(), VoxelRig::Ready);
    QVERIFY(rig.errorString().isEmpty());
    QVERIFY(rig.partNode("turret") && !rig.partNode("head"));
  }
};

QTEST_MAIN(TestQuick3dVoxelRig)
#include "tst_quick3d_voxel_rig.moc"
