// RigLens.Quick3D's VoxelRig against `riglens-cli pose --json` (the core's
// posing as the CLI prints it, in another process): after setJoint, play and
// a clock time, every part node's scene transform equals the part's world
// matrix to 1e-5, for the held-in samples (tank and walker, cubes and
// smooth). Then the API's answers and its refusals: a bad source gives Error
// and a message and keeps the model it had.
#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtCore/QProcess>
#include <QtCore/QTemporaryDir>
#include <QtTest/QtTest>

#include "voxel_rig.h"

using riglens::quick3d::VoxelRig;

namespace {

const QString kCli = QStringLiteral(RIGLENS_CLI_EXE);

QJsonObject poseJson(const QStringList& args) {
  QProcess process;
  process.start(kCli, QStringList{"pose"} + args + QStringList{"--json"});
  if (!process.waitForFinished(60000) || process.exitCode() != 0) return {};
  return QJsonDocument::fromJson(process.readAllStandardOutput()).object();
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

 private slots:
  void initTestCase() {
    QVERIFY(m_dir.isValid());
    QProcess process;
    process.start(kCli, {"samples", "--out", m_dir.path()});
    QVERIFY(process.waitForFinished(120000) && process.exitCode() == 0);
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
    QVERIFY2(worst <= 1e-5, qPrintable(QString::number(worst)));
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
    // resetPose: callers back to rest.
    const QMatrix4x4 rest = rig.partNode("turret")->sceneTransform();
    QVERIFY(rig.setJoint("turret_yaw", 1.0));
    QVERIFY(rig.partNode("turret")->sceneTransform() != rest);
    rig.resetPose();
    QCOMPARE(rig.partNode("turret")->sceneTransform(), rest);
    // A non-looping playable ends: playing goes back to "".
    QVERIFY(rig.play("fire"));
    rig.setTime(5.0);
    rig.stop();
    QCOMPARE(rig.playing(), QString());
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
