// A soak of the real window (Xvfb, Qt Quick): for RIGLENS_SOAK_SECONDS
// (default kCiSoakSeconds, as CI runs it; tools/soak.sh runs it for an hour)
// open a run and play its clip while orbiting, compare it with itself side
// by side and overlaid and close the comparison (its GPU memory back to the
// run's alone), switch to another run and a
// 3DGS scene, decode a character and move one of its expressions, reload
// the first run from disk - round after round. After each round the
// process's resident memory is read (after malloc_trim: what the heap still
// holds, not what glibc keeps cached) and written with the GPU memory each
// document held and malloc's own counts (in use, held) to soak.csv in the
// test output folder. Passes when, after
// the warm-up rounds, the GPU memory of every document is its first
// measurement to the byte (resources return to their baseline after each
// switch), resident memory grew less than kGrossGrowthBudget, and no step
// showed a HoverHandler in the window (hoverHandlers()) or a ListView given
// another model than it had (listViewsGivenNewModels()).

#include <QtCore/QElapsedTimer>
#include <QtCore/QFile>
#include <QtCore/QPointer>
#include <QtCore/QSet>
#include <QtCore/QStringList>
#include <QtGui/QGuiApplication>
#include <QtQml/QQmlExtensionPlugin>
#include <QtTest/QTest>
#include <algorithm>
#include <filesystem>
#include <map>
#include <vector>

#include "character_controller.h"
#include "malloc_tunables.h"
#include "playback_controller.h"
#include "resident_memory.h"
#include "riglens/core/base/file_io.h"
#include "riglens/core/splats/gaussian_ply.h"
#include "riglens/samples/character_sample.h"
#include "riglens/samples/gaussian_samples.h"
#include "riglens/samples/sample_runs.h"
#include "test_paths.h"
#include "viewer_harness.h"

Q_IMPORT_QML_PLUGIN(RigLensPlugin)

using namespace riglens;
namespace fs = std::filesystem;

namespace {

// CI's soak: long enough for several rounds of every document.
constexpr int kCiSoakSeconds = 45;
// The whole soak is one test function, which Qt Test's watchdog ends after
// QTEST_FUNCTION_TIMEOUT (5 minutes unless set): an hour's soak was killed
// at 300 s. It gets the soak's time, this margin for the last round and
// the warm-up rounds, unless the caller set the variable.
constexpr int kWatchdogMarginSeconds = 600;

int soakSeconds() {
  return qEnvironmentVariableIsSet("RIGLENS_SOAK_SECONDS") ? qEnvironmentVariableIntValue("RIGLENS_SOAK_SECONDS")
                                                           : kCiSoakSeconds;
}
// Rounds before measuring: caches fill (pipelines, the decode worker's
// buffers, Qt's own) in the first ones.
constexpr int kWarmUpRounds = 3;
// Resident memory moves by +-10 MiB from round to round on lavapipe, so the
// check compares the median of the first three measured rounds with that of
// the last three. In CI's 45 s the process is still warming up (resident
// memory rises about 30 MiB over the first five minutes, then stays level),
// so CI's bound is a gross one - a large document leaked each round (the
// large sample's meshes are 90 MiB) - and tools/soak.sh's hour gives the
// slope. Until lavapipe stopped re-specialising part_flat.vert at every draw
// (shaders/uniform_branches.glsl) the hour grew 578 MiB, ~1 MiB a round.
constexpr std::int64_t kGrossGrowthBudget = std::int64_t(48) << 20;
// A soak this long is measured after its own warm-up, and its fitted slope
// must stay under the "a few MB per hour": resident memory rises for
// the first minutes (the first frames of each pipeline, the decoder's and
// Qt's caches) and is level after, within round-to-round noise (the hour's
// curve, docs/soak/).
constexpr int kLongSoakSeconds = 1200;
constexpr qint64 kLongSoakWarmUpMs = 300000;
constexpr double kLongSoakSlopeMiBPerHour = 5.0;
qint64 warmUpMs(int seconds) {
  return seconds >= kLongSoakSeconds ? kLongSoakWarmUpMs : 0;
}
constexpr int kMedianOf = 3;
// How long one document may take to be shown whole (a decode on lavapipe
// under a loaded CI machine).
constexpr int kShownTimeoutMs = 90000;

std::int64_t medianOf(std::vector<std::int64_t> values) {
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

}  // namespace

class TestAppSoak : public QObject {
  Q_OBJECT
  QTemporaryDir m_dir;
  test::ViewerHarness m_ui;
  app::AppController* m_app = nullptr;

  QString path(const char* name) const { return m_dir.filePath(name); }

  bool isShown() const { return m_ui.viewport->property("shown").toBool(); }

  QString waitingFor() const {
    QString waiting;
    QMetaObject::invokeMethod(m_ui.viewport, "waitingFor", Q_RETURN_ARG(QString, waiting));
    return waiting;
  }

  // Shown, and still shown two frames later. Twice in ~780 rounds of two
  // hour-long soaks under load (a CI build beside them; the viewport then
  // released Qt Quick's cached resources at every switch, since reverted)
  // the view was no longer shown two frames after it had been, with nothing
  // loading and no error; what it waited for was not recorded. Each such
  // drop is now logged with it, counted (m_shownDrops) and waited out.
  bool waitShown() {
    QDeadlineTimer deadline(kShownTimeoutMs);
    const auto wait = [&] {
      while ((m_app->loading() || !isShown()) && !deadline.hasExpired()) QTest::qWait(20);
    };
    wait();
    m_ui.waitFrames(2);
    if (!isShown()) {
      ++m_shownDrops;
      qWarning("shown, then not two frames later: waiting for %s", qPrintable(waitingFor()));
      wait();
    }
    return isShown() && m_app->lastError().isEmpty();
  }

  void orbit(int frames) {
    for (int f = 0; f < frames; ++f) {
      m_ui.viewport->setProperty("yaw", m_ui.viewport->property("yaw").toDouble() + 7.0);
      m_ui.waitFrames(1);
    }
  }

  // Every object of the window: the window's own (an ApplicationWindow's
  // footer is the window's child, not its root item's) and those under every
  // item of the visual tree (a view's delegates need not be its children).
  QSet<const QObject*> windowObjects() const {
    QSet<const QObject*> objects;
    const auto look = [&](const QObject* under) {
      for (const QObject* object : under->findChildren<QObject*>()) objects.insert(object);
    };
    look(m_ui.window);
    for (const QQuickItem* item : m_ui.items()) look(item);
    return objects;
  }
  // Its class and name, and the nearest named object above it when it has
  // none (Qt Quick Controls' own items are nameless).
  static QString describe(const QObject* object) {
    QString text = QString("%1 '%2'").arg(object->metaObject()->className(), object->objectName());
    const QObject* above = object;
    while (above && above->objectName().isEmpty()) {
      const auto* item = qobject_cast<const QQuickItem*>(above);
      above = item && item->parentItem() ? item->parentItem() : above->parent();
    }
    if (above && above != object)
      text += QString(" under %1 '%2'").arg(above->metaObject()->className(), above->objectName());
    return text;
  }

  // Qt 6.4 keeps a pointer to every HoverHandler it visits on each frame that
  // changes an item while the pointer rests (QQuickPointerHandler::
  // handlePointerEvent appends to a per-device list that only a real pointer
  // event clears): the status bar's one grew the viewer 8 bytes a frame
  // (docs/daily-use.md). The HoverHandlers in the window, by their parent
  // items - none is wanted.
  QStringList hoverHandlers() const {
    QStringList found;
    for (const QObject* object : windowObjects())
      if (object->inherits("QQuickHoverHandler")) found << describe(object->parent());
    return found;
  }
  // Qt 6.4's ListView keeps about 150 bytes for every model value it is
  // given that differs from the one it has (QQuickItemView::setModel connects
  // again and never disconnects): the soak's last ~3 KB a round
  // (docs/daily-use.md). Lists of rows a property replaces are RowsListViews
  // (qml/common/RowsListView.qml), whose model never changes. The ListViews
  // whose model differs from the one they had when first seen - none is
  // wanted.
  QStringList listViewsGivenNewModels() {
    for (auto seen = m_viewModels.begin(); seen != m_viewModels.end();)
      seen = seen->second.view ? std::next(seen) : m_viewModels.erase(seen);  // destroyed: its address may come again
    QStringList found;
    for (const QObject* object : windowObjects()) {
      if (!object->inherits("QQuickItemView")) continue;
      const QVariant model = object->property("model");
      const auto [seen, first] = m_viewModels.try_emplace(object, ViewModel{object, model});
      if (!first && seen->second.model != model) found << describe(object);
    }
    return found;
  }
  struct ViewModel {
    QPointer<const QObject> view;
    QVariant model;  // as first seen
  };
  std::map<const QObject*, ViewModel> m_viewModels;
  QStringList m_hoverHandlers;  // seen at any step of any round
  QStringList m_newModels;      // the same for ListViews given new models

  // What went wrong in the last round (the step and what was seen).
  QString m_failure;
  int m_shownDrops = 0;

  std::map<QString, qint64> failedAt(const QString& step) {
    m_failure = QString("%1 (shown %2, waiting for '%3', loading %4, error '%5')")
                    .arg(step)
                    .arg(isShown())
                    .arg(waitingFor())
                    .arg(m_app->loading())
                    .arg(m_app->lastError());
    return {};
  }

  bool openShown(const char* name) {
    m_app->open(path(name));
    if (waitShown()) return true;
    failedAt(QString("opening %1: not shown within %2 ms").arg(name).arg(kShownTimeoutMs));
    return false;
  }

  // One round; the GPU memory each document held when shown, by name (empty,
  // with m_failure saying why, when a step failed).
  std::map<QString, qint64> round() {
    std::map<QString, qint64> gpu;
    const auto shown = [&](const QString& name) {
      gpu[name] = m_ui.viewport->property("gpuBytes").toLongLong();
      for (const QString& handler : hoverHandlers())
        if (!m_hoverHandlers.contains(handler)) m_hoverHandlers << handler;
      for (const QString& view : listViewsGivenNewModels())
        if (!m_newModels.contains(view)) m_newModels << view;
    };
    if (!openShown("tank-cubes")) return {};
    m_app->playback()->play("fire");
    orbit(6);
    shown("tank");
    // Compared with itself, side by side then overlaid, then closed: the
    // second renderer's memory must go with it ("tank" again after it).
    app::CompareController* compare = m_app->compare();
    compare->open(path("tank-cubes"));
    compare->waitForLoad();
    for (const char* mode : {"side", "overlay"}) {
      compare->setMode(mode);
      orbit(1);
      if (!waitShown()) return failedAt(QString("comparing, %1: not shown").arg(mode));
    }
    shown("tank compared");
    compare->close();
    orbit(1);
    if (!waitShown()) return failedAt("the comparison closed: not shown");
    if (const qint64 left = m_ui.viewport->property("gpuBytes").toLongLong(); left != gpu["tank"])
      return failedAt(QString("the comparison closed: %1 GPU bytes, the tank alone %2").arg(left).arg(gpu["tank"]));
    if (!openShown("walker-cubes")) return {};
    m_app->playback()->play("walk");
    orbit(6);
    shown("walker");
    if (!openShown("torus.ply")) return {};
    orbit(4);
    shown("torus");
    if (!openShown("decoded/sample-bundle")) return {};
    app::CharacterController* character = m_app->characterController();
    const int jaw = character->findChannel("jawOpen");
    if (jaw >= 0) character->setChannel(jaw, 0.6);
    orbit(4);
    QDeadlineTimer deadline(kShownTimeoutMs);  // the decode of the new expression
    while (!isShown() && !deadline.hasExpired()) QTest::qWait(20);
    shown("character");
    if (!openShown("tank-cubes")) return {};
    m_app->reload();
    m_app->waitForLoad();
    m_ui.waitFrames(2);
    shown("tank reloaded");
    return gpu;
  }

 private slots:
  void initTestCase() {
    const fs::path root = m_dir.path().toStdString();
    for (const char* name : {"tank-cubes", "walker-cubes"})
      QVERIFY(samples::writeSampleRun(*samples::makeSampleRun(name), root / name));
    QVERIFY(core::writeFileAtomically(root / "torus.ply", core::encodeGaussianPly(samples::makeGaussianTorus(5000))));
    samples::SampleBundleOptions decoded;
    decoded.uvRes = 32;  // small decoders: a decode takes well under a second
    decoded.decoders = fs::path(RIGLENS_TEST_DECODERS_DIR) / "visible";
    QVERIFY(samples::writeSampleCharacter(RIGLENS_DATA_DIR "/ict-face", root / "decoded", decoded));
    QString error;
    QVERIFY2(m_ui.start(&error), qPrintable(error));
    m_app = m_ui.controller.get();
  }

  void cleanupTestCase() { m_ui.stop(); }

  void memoryStaysFlat() {
    const int seconds = soakSeconds();
    QFile csv(test::outputPath("soak.csv"));
    QVERIFY(csv.open(QIODevice::WriteOnly | QIODevice::Truncate));
    csv.write(
        "seconds,round,resident_bytes,gpu_tank,gpu_tank_compared,gpu_walker,gpu_torus,gpu_character,"
        "gpu_tank_reloaded,heap_in_use_bytes,heap_held_bytes\n");
    QElapsedTimer clock;
    clock.start();
    std::map<QString, qint64> baseline;
    std::vector<std::int64_t> resident;  // per measured round
    int rounds = 0;
    for (; rounds < kWarmUpRounds + 2 * kMedianOf || clock.elapsed() < seconds * 1000LL; ++rounds) {
      const std::map<QString, qint64> gpu = round();
      QVERIFY2(!gpu.empty(), qPrintable("round " + QString::number(rounds) + ": " + m_failure));
      const std::int64_t last = test::residentBytes();
      csv.write(QString("%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11\n")
                    .arg(clock.elapsed() / 1000.0)
                    .arg(rounds)
                    .arg(last)
                    .arg(gpu.at("tank"))
                    .arg(gpu.at("tank compared"))
                    .arg(gpu.at("walker"))
                    .arg(gpu.at("torus"))
                    .arg(gpu.at("character"))
                    .arg(gpu.at("tank reloaded"))
                    .arg(test::heapInUseBytes())
                    .arg(test::heapHeldBytes())
                    .toUtf8());
      csv.flush();
      if (rounds + 1 == kWarmUpRounds) {
        baseline = gpu;
      } else if (rounds + 1 > kWarmUpRounds) {
        if (clock.elapsed() >= warmUpMs(seconds)) resident.push_back(last);
        for (const auto& [name, bytes] : gpu)
          QVERIFY2(bytes == baseline.at(name), qPrintable(QString("round %1: %2 held %3 GPU bytes, %4 at first")
                                                              .arg(rounds)
                                                              .arg(name)
                                                              .arg(bytes)
                                                              .arg(baseline.at(name))));
      }
    }
    const std::int64_t first = medianOf({resident.begin(), resident.begin() + kMedianOf});
    const std::int64_t end = medianOf({resident.end() - kMedianOf, resident.end()});
    // The least-squares slope over the measured rounds, per hour.
    double sx = 0, sy = 0, sxx = 0, sxy = 0;
    const double n = double(resident.size()), perRound = clock.elapsed() / 3.6e6 / rounds;  // hours
    for (std::size_t i = 0; i < resident.size(); ++i) {
      const double x = double(i) * perRound, y = double(resident[i]) / 1048576.0;
      sx += x, sy += y, sxx += x * x, sxy += x * y;
    }
    const double slope = (n * sxy - sx * sy) / std::max(1e-12, n * sxx - sx * sx);
    qInfo(
        "%d rounds in %.0f s; resident (median of %d rounds) %.1f MiB after the warm-up, %.1f MiB at the end "
        "(%+.1f MiB); fitted slope %+.1f MiB/h; the curve: %s",
        rounds, clock.elapsed() / 1000.0, kMedianOf, first / 1048576.0, end / 1048576.0, (end - first) / 1048576.0,
        slope, qPrintable(csv.fileName()));
    qInfo("the view was shown, then not two frames later, %d times (waited out; logged above)", m_shownDrops);
    QVERIFY2(m_hoverHandlers.isEmpty(), qPrintable("HoverHandlers in the window (Qt 6.4 keeps a pointer to each "
                                                   "every frame while the pointer rests): " +
                                                   m_hoverHandlers.join(", ")));
    QVERIFY2(m_newModels.isEmpty(), qPrintable("ListViews given another model (Qt 6.4 keeps ~150 bytes for each; "
                                               "qml/common/RowsListView.qml): " +
                                               m_newModels.join(", ")));
    QVERIFY2(end - first < kGrossGrowthBudget,
             qPrintable(QString("resident memory grew %1 MiB").arg((end - first) / 1048576.0)));
    if (seconds >= kLongSoakSeconds)
      QVERIFY2(slope < kLongSoakSlopeMiBPerHour,
               qPrintable(QString("resident memory grew %1 MiB/h after the warm-up").arg(slope, 0, 'f', 1)));
  }
};

int main(int argc, char** argv) {
  // The viewer runs with its malloc tunables (no mmapped blocks, two heaps,
  // a 64 MiB top pad: malloc_tunables.h); a soak without them measured an
  // allocator the viewer does not use.
  launch::useMallocTunables(argv);
  if (!qEnvironmentVariableIsSet("QTEST_FUNCTION_TIMEOUT"))
    qputenv("QTEST_FUNCTION_TIMEOUT", QByteArray::number((qint64(soakSeconds()) + kWatchdogMarginSeconds) * 1000));
  QGuiApplication app(argc, argv);
  TestAppSoak test;
  QTEST_SET_MAIN_SOURCE_PATH
  return QTest::qExec(&test, argc, argv);
}
#include "tst_app_soak.moc"
