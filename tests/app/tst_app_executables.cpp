// riglens and riglens-cli run as a user runs them: help, version, exit codes,
// and `riglens --screenshot` producing a real PNG of the window (this test
// runs under xvfb-run, so the viewer finds the X server in DISPLAY).
#include <QtCore/QDir>
#include <QtCore/QFile>
#include <QtCore/QFileInfo>
#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtCore/QProcess>
#include <QtCore/QRegularExpression>
#include <QtCore/QTemporaryDir>
#include <QtGui/QImage>
#include <QtTest/QTest>
#include <cmath>
#include <glm/geometric.hpp>
#include <glm/trigonometric.hpp>

#include "reference_math.h"
#include "riglens/core/base/file_io.h"
#include "riglens/core/base/tolerances.h"
#include "riglens/core/base/version.h"
#include "riglens/core/open/asset_readers.h"
#include "riglens/core/rig/rig_controller.h"
#include "riglens/core/rig/run_loader.h"
#include "riglens/core/splats/gaussian_ply.h"
#include "run_program.h"
#include "splat_fixtures.h"
#include "test_checks.h"
#include "test_paths.h"
#include "vrm_fixture.h"

namespace {

using Run = riglens::test::ProgramRun;
using riglens::test::runProgram;

const QString kGui = QStringLiteral(RIGLENS_GUI_EXE);
const QString kCli = QStringLiteral(RIGLENS_CLI_EXE);

// `--timings` output: each stage a line with its milliseconds (>= 0), and
// their sum within the process's age (which comes in 10 ms steps).
void checkTimings(const QString& err, const QStringList& stages) {
  double sum = 0;
  for (const QString& stage : stages + QStringList{"total (process start to now)"}) {
    const QRegularExpression line(QStringLiteral("\\n  %1 +(-?[0-9.]+)\\n").arg(QRegularExpression::escape(stage)));
    const auto match = line.match(err);
    QVERIFY2(match.hasMatch(), qPrintable(stage + " missing in:\n" + err));
    const double ms = match.captured(1).toDouble();
    QVERIFY2(ms >= 0, qPrintable(stage));
    if (!stage.startsWith("total"))
      sum += ms;
    else
      QVERIFY2(sum <= ms + 20, qPrintable(err));
  }
}

// A pixel shows the document when a channel differs from the viewport's
// background (render::kViewportBackground, 32/38/46 in 8 bits) by more than
// this: antialiased edges and the splats' faint skirts fall under it, the
// documents' colours (the tank's darkest green, the torus, the faces) do
// not. A rig's ground grid is drawn here (an executable has no switch for
// it), so for rigs this counts its nearer lines too; tst_app_documents
// measures with the grid off.
constexpr int kDocumentChannelDelta = 60;
// The share of the viewport the document covers at least: the smallest
// here, the torus, covers ~7%; the splat documents draw no grid, so an empty
// view of them is near 0 (the axes' 1-pixel lines).
constexpr double kMinimumCoverage = 0.03;

// The share of `area` (the viewport, as `riglens: shown:` reports it) whose
// pixels show the document.
double documentCoverage(const QImage& image, QRect area) {
  int covered = 0;
  for (int y = area.top(); y <= area.bottom(); ++y)
    for (int x = area.left(); x <= area.right(); ++x) {
      const QRgb p = image.pixel(x, y);
      covered +=
          std::max({std::abs(qRed(p) - 32), std::abs(qGreen(p) - 38), std::abs(qBlue(p) - 46)}) > kDocumentChannelDelta;
    }
  return double(covered) / double(area.width() * area.height());
}

}  // namespace

class TestAppExecutables : public QObject {
  Q_OBJECT

 private slots:
  void cliHelpListsEveryCommand() {
    const Run run = runProgram(kCli, {"--help"});
    QCOMPARE(run.exitCode, 0);
    for (const char* command : {"inspect", "pose", "export", "render", "samples"})
      QVERIFY2(run.out.contains(QStringLiteral("\n  %1 ").arg(command)), command);
  }

  void cliUsageErrorsExitTwo() {
    QCOMPARE(runProgram(kCli, {}).exitCode, 2);
    const Run run = runProgram(kCli, {"frobnicate"});
    QCOMPARE(run.exitCode, 2);
    QVERIFY(run.err.contains("unknown command 'frobnicate'"));
  }

  void versionsAgree() {
    const Run cli = runProgram(kCli, {"--version"});
    QCOMPARE(cli.exitCode, 0);
    QCOMPARE(cli.out.trimmed(), QStringLiteral("riglens-cli %1").arg(riglens::core::kVersion));
    // --version needs no display at all.
    auto headless = QProcessEnvironment::systemEnvironment();
    headless.remove("DISPLAY");
    headless.remove("QT_QPA_PLATFORM");
    const Run gui = runProgram(kGui, {"--version"}, headless);
    QCOMPARE(gui.exitCode, 0);
    QCOMPARE(gui.out.trimmed(), QStringLiteral("riglens %1").arg(riglens::core::kVersion));
  }

  void cliSamplesInspectAndPose() {
    QTemporaryDir dir;
    const Run samples = runProgram(kCli, {"samples", "--out", dir.path()});
    QVERIFY2(samples.exitCode == 0, qPrintable(samples.err));
    // The tank and the walker in the meshers' four surface characters, a folder each.
    const QStringList written = samples.out.split('\n', Qt::SkipEmptyParts);
    QCOMPARE(written.size(), 8);
    for (const QString& folder : written) QVERIFY2(QFileInfo(folder.trimmed()).isDir(), qPrintable(folder));
    const QString tank = dir.filePath("tank-cubes");

    const Run inspect = runProgram(kCli, {"inspect", tank, "--json"});
    QVERIFY2(inspect.exitCode == 0, qPrintable(inspect.err));
    const auto info = QJsonDocument::fromJson(inspect.out.toUtf8()).object();
    QCOMPARE(info["parts"].toArray().size(), 5);
    QCOMPARE(info["parts"].toArray()[3].toObject()["socket"].toBool(), true);
    QCOMPARE(info["joints"].toArray()[1].toObject()["axis"].toString(), QString("x"));
    QCOMPARE(info["problems"].toArray().size(), 0);
    QVERIFY(runProgram(kCli, {"inspect", tank}).out.contains("fire"));

    // The documented pose: turret_yaw 0.64, gun_pitch 0.3, `fire` at 60 ms
    // (its recoil key: exactly -3), radar autoPlay at 60 ms of its 2 s spin.
    const Run pose = runProgram(kCli, {"pose", tank, "--set", "turret_yaw=0.64", "--set", "gun_pitch=0.3", "--play",
                                       "fire", "--time-ms", "60", "--json"});
    QVERIFY2(pose.exitCode == 0, qPrintable(pose.err));
    const auto doc = QJsonDocument::fromJson(pose.out.toUtf8()).object();
    const auto joints = doc["joints"].toObject();
    QCOMPARE(joints["turret_yaw"].toDouble(), 0.64);
    QCOMPARE(joints["gun_recoil"].toDouble(), -3.0);
    const double pitch = joints["gun_pitch"].toDouble();  // the clip overlays gun_pitch (ease-in 0 -> 0.12 over 80 ms)
    const double expectedPitch = 0.12 * riglens::test::bezierAtX(0, 0, 0.42, 0, 1, 1, 1, 1, 60.0 / 80.0);
    QVERIFY2(std::abs(pitch - expectedPitch) < riglens::core::tolerance::kDouble, qPrintable(QString::number(pitch)));
    QCOMPARE_NEAR(joints["radar_spin"].toDouble(), 2 * 3.14159265358979 * 60 / 2000, riglens::core::tolerance::kDouble);
    using namespace riglens::test;
    const glm::dmat4 turret = aboutPivot(rotY(0.64), 16, 9, 19);
    const glm::dmat4 barrel = turret * aboutPivot(rotX(pitch), 16, 11, 26) * trans(0, 0, -3);
    const auto parts = doc["parts"].toArray();
    QCOMPARE(parts.size(), 5);
    const auto check = [&](int index, const char* name, const glm::dmat4& expected) {
      const auto part = parts[index].toObject();
      QCOMPARE(part["name"].toString(), QString(name));
      const auto world = part["world"].toArray();
      QCOMPARE(world.size(), 16);
      for (int k = 0; k < 16; ++k)
        QVERIFY2(std::abs(world[k].toDouble() - expected[k / 4][k % 4]) < riglens::core::tolerance::kPoseMatrix,
                 qPrintable(QString("%1[%2]").arg(name).arg(k)));
    };
    check(0, "hull", glm::dmat4(1.0));
    check(1, "turret", turret);
    check(2, "barrel", barrel);
    check(3, "muzzle", barrel);
    check(4, "radar", turret * aboutPivot(rotY(2 * 3.14159265358979 * 60 / 2000), 13, 15, 16));
    // --vertices: every part's rest vertices placed by the same worlds, parts in order.
    const QString verticesFile = dir.filePath("tank-posed.f32");
    QCOMPARE(runProgram(kCli, {"pose", tank, "--set", "turret_yaw=0.64", "--set", "gun_pitch=0.3", "--play", "fire",
                               "--time-ms", "60", "--vertices", verticesFile})
                 .exitCode,
             0);
    QFile posedFile(verticesFile);
    QVERIFY(posedFile.open(QIODevice::ReadOnly));
    const QByteArray posedBytes = posedFile.readAll();
    const auto run = riglens::core::loadRun(tank.toStdString());
    QVERIFY(run);
    std::size_t offset = 0;
    for (std::size_t part = 0; part < run->meshes.size(); ++part) {
      const auto& rest = run->meshes[part].positions;
      for (std::size_t v = 0; v < rest.size(); v += 3, offset += 12) {
        QVERIFY(offset + 12 <= std::size_t(posedBytes.size()));
        float got[3];
        std::memcpy(got, posedBytes.constData() + offset, 12);
        if (part != 1) continue;  // the turret: its hand-derived world above
        const glm::dvec4 expected = turret * glm::dvec4(rest[v], rest[v + 1], rest[v + 2], 1.0);
        for (int c = 0; c < 3; ++c) QCOMPARE_NEAR(got[c], expected[c], riglens::core::tolerance::kFloatChain);
      }
    }
    QCOMPARE(offset, std::size_t(posedBytes.size()));

    // Bad input exits 1 with the message; bad usage exits 2.
    const Run unknownJoint = runProgram(kCli, {"pose", tank, "--set", "turret_roll=1", "--json"});
    QCOMPARE(unknownJoint.exitCode, 1);
    QVERIFY(unknownJoint.err.contains("unknown joint 'turret_roll'"));
    QCOMPARE(runProgram(kCli, {"pose", tank, "--set", "turret_yaw"}).exitCode, 2);
    QCOMPARE(runProgram(kCli, {"pose", tank, "--time-ms", "soon"}).exitCode, 2);
    QCOMPARE(runProgram(kCli, {"pose"}).exitCode, 2);
    const Run missing = runProgram(kCli, {"inspect", dir.filePath("nothing-here")});
    QCOMPARE(missing.exitCode, 1);
    QVERIFY(missing.err.contains("no such file or folder"));
    QCOMPARE(runProgram(kCli, {"samples"}).exitCode, 2);

    // export: writes the GLB + interface; refuses what it cannot do.
    const Run exported =
        runProgram(kCli, {"export", tank, "--out", dir.filePath("tank.glb"), "--cubic", "--tolerance", "1e-3"});
    QVERIFY2(exported.exitCode == 0, qPrintable(exported.err));
    QVERIFY(QFileInfo(dir.filePath("tank.glb")).size() > 1000);
    QVERIFY(QFileInfo::exists(dir.filePath("tank.interface.json")));
    const Run unwritable = runProgram(kCli, {"export", tank, "--out", dir.filePath("missing/dir/tank.glb")});
    QCOMPARE(unwritable.exitCode, 1);
    QVERIFY(unwritable.err.contains("tank.glb"));
    QCOMPARE(runProgram(kCli, {"export", tank, "--out", dir.filePath("x.glb"), "--scale", "-2"}).exitCode, 2);
    QCOMPARE(runProgram(kCli, {"export", tank, "--out", dir.filePath("x.fbx")}).exitCode, 2);
    QCOMPARE(runProgram(kCli, {"export", tank}).exitCode, 2);

    // render: one PNG, a turntable, and the refusals.
    auto windowless = QProcessEnvironment::systemEnvironment();
    windowless.remove("QT_QPA_PLATFORM");  // the CLI picks vkkhrdisplay by itself
    const QString png = dir.filePath("tank.png");
    const Run rendered = runProgram(kCli,
                                    {"render", tank, "--out", png, "--size", "160x120", "--tint", "joint", "--set",
                                     "turret_yaw=0.5", "--play", "fire", "--time-ms", "60"},
                                    windowless);
    QVERIFY2(rendered.exitCode == 0, qPrintable(rendered.err));
    QCOMPARE(QImage(png).size(), QSize(160, 120));
    QVERIFY(!rendered.err.contains("timings"));  // only when asked
    // --timings: each stage a line with its milliseconds, and the total, on stderr.
    const Run timed = runProgram(kCli, {"render", tank, "--out", png, "--size", "160x120", "--timings"}, windowless);
    QVERIFY2(timed.exitCode == 0, qPrintable(timed.err));
    checkTimings(timed.err, {"process start (exec to main)", "Qt init (QGuiApplication)", "load", "pose", "GPU device",
                             "render target", "framing (posed bounds)", "frame state", "first frame: upload (recorded)",
                             "first frame: pipelines", "first frame: rest of prepare", "first frame: draw, GPU done",
                             "first frame: readback copy", "PNG encode and write"});
    const Run turntable = runProgram(
        kCli, {"render", tank, "--turntable", "4", "--out-pattern", dir.filePath("spin_{i}.png"), "--size", "64x64"},
        windowless);
    QVERIFY2(turntable.exitCode == 0, qPrintable(turntable.err));
    for (int i = 0; i < 4; ++i) QVERIFY(QFileInfo::exists(dir.filePath(QString("spin_%1.png").arg(i))));
    QVERIFY(QImage(dir.filePath("spin_0.png")) != QImage(dir.filePath("spin_1.png")));
    // Each shot is the render at its own yaw (every state is built before the
    // meshes leave the CPU after the first shot).
    QCOMPARE(runProgram(kCli,
                        {"render", tank, "--yaw", "30", "--turntable", "4", "--out-pattern",
                         dir.filePath("turn_{i}.png"), "--size", "64x64"},
                        windowless)
                 .exitCode,
             0);
    QCOMPARE(runProgram(kCli, {"render", tank, "--yaw", "120", "--out", dir.filePath("yaw120.png"), "--size", "64x64"},
                        windowless)
                 .exitCode,
             0);
    QCOMPARE(QImage(dir.filePath("turn_1.png")), QImage(dir.filePath("yaw120.png")));
    QCOMPARE(runProgram(kCli, {"render", tank, "--out", png, "--tint", "plaid"}, windowless).exitCode, 2);
    QCOMPARE(runProgram(kCli, {"render", tank, "--turntable", "3"}, windowless).exitCode, 2);
    QCOMPARE(runProgram(kCli, {"render", tank, "--out", png, "--size", "0x0"}, windowless).exitCode, 2);
    QCOMPARE(runProgram(kCli, {"render", dir.filePath("nothing"), "--out", png}, windowless).exitCode, 1);
    const Run badPart = runProgram(kCli, {"render", tank, "--out", png, "--highlight", "wheel"}, windowless);
    QCOMPARE(badPart.exitCode, 1);
    QVERIFY(badPart.err.contains("no part named 'wheel'"));
    QCOMPARE(runProgram(kCli, {"inspect", "--help"}).exitCode, 0);
  }

  // The face data is found beside the executable (<bin>/../share/riglens),
  // never through a path compiled in: a copy of riglens-cli with no data
  // beside it says where it looked and how to point elsewhere.
  void cliFindsItsDataRelativeToItself() {
    QTemporaryDir dir;
    QVERIFY(QDir(dir.path()).mkpath("relocated/bin"));
    const QString copy = dir.filePath("relocated/bin/riglens-cli");
    QVERIFY(QFile::copy(kCli, copy));
    // The program's library where an install puts it, relative to the executable.
    const QString libraryDir = QDir::cleanPath(dir.filePath("relocated/bin/" RIGLENS_PRIVATE_LIBRARY_DIR));
    QVERIFY(QDir().mkpath(libraryDir));
    QVERIFY(QFile::copy(QStringLiteral(RIGLENS_CLI_LIBRARY),
                        libraryDir + "/" + QFileInfo(QStringLiteral(RIGLENS_CLI_LIBRARY)).fileName()));
    const Run bare = runProgram(copy, {"character", "make-sample", "--out", dir.filePath("out")});
    QCOMPARE(bare.exitCode, 1);
    QVERIFY2(bare.err.contains(dir.filePath("relocated/share/riglens/ict-face")) && bare.err.contains("--ict"),
             qPrintable(bare.err));
    QVERIFY(!QFileInfo::exists(dir.filePath("out/sample-face.aosrig")));
    // Data placed where an install puts it is found.
    QVERIFY(QDir(dir.path()).mkpath("relocated/share/riglens/ict-face"));
    for (const QString& name : QDir(QStringLiteral(RIGLENS_DATA_DIR "/ict-face")).entryList(QDir::Files))
      QVERIFY(QFile::copy(QStringLiteral(RIGLENS_DATA_DIR "/ict-face/") + name,
                          dir.filePath("relocated/share/riglens/ict-face/") + name));
    const Run placed = runProgram(copy, {"character", "make-sample", "--out", dir.filePath("out")});
    QVERIFY2(placed.exitCode == 0, qPrintable(placed.err));
    QVERIFY(QFileInfo::exists(dir.filePath("out/sample-face.aosrig")));
    // --ict overrides it.
    const Run chosen =
        runProgram(copy, {"character", "make-sample", "--out", dir.filePath("out2"), "--ict", dir.filePath("nowhere")});
    QCOMPARE(chosen.exitCode, 1);
    QVERIFY2(chosen.err.contains(dir.filePath("nowhere")), qPrintable(chosen.err));
  }

  // The executable without its program's library (launch/program_library.h):
  // exit 127 and a message naming the library and each place looked in.
  void cliWithoutItsLibraryNamesWhatItLookedFor() {
    QTemporaryDir dir;
    const QString copy = dir.filePath("riglens-cli");
    QVERIFY(QFile::copy(kCli, copy));
    const Run run = runProgram(copy, {"--version"});
    QCOMPARE(run.exitCode, 127);
    const QString library = QFileInfo(QStringLiteral(RIGLENS_CLI_LIBRARY)).fileName();
    QVERIFY2(
        run.err.contains(library) && run.err.contains(dir.filePath(library) + ": not there") &&
            run.err.contains(QDir::cleanPath(dir.filePath(QStringLiteral(RIGLENS_PRIVATE_LIBRARY_DIR "/") + library))),
        qPrintable(run.err));
  }

  // An install without the private modules (riglens/core/base/private_module.h):
  // a video and a character's decoders are refused naming the module's file
  // once, as the run's failure (exit 1), not the arguments' (exit 2); nothing
  // half written.
  void cliWithoutItsModulesNamesWhatIsMissing() {
    QTemporaryDir dir;
    for (const QString& file : {kCli, QStringLiteral(RIGLENS_CLI_LIBRARY)})
      QVERIFY(QFile::copy(file, dir.filePath(QFileInfo(file).fileName())));
    const QString cli = dir.filePath(QFileInfo(kCli).fileName());
    QVERIFY(runProgram(kCli, {"samples", "--out", dir.path(), "--name", "tank-cubes"}).exitCode == 0);
    const QString media = dir.filePath("libriglens-media.so");
    const Run video = runProgram(cli, {"render", dir.filePath("tank-cubes"), "--turntable", "2", "--video",
                                       dir.filePath("spin.mp4"), "--size", "64x64"});
    QVERIFY2(video.exitCode == 1, qPrintable(QString("exit %1: %2").arg(video.exitCode).arg(video.err)));
    QVERIFY2(video.err.count(media) == 1 && video.err.contains("cannot open shared object file"),
             qPrintable(video.err));
    QVERIFY(!video.err.contains("--help"));
    QVERIFY(!QFile::exists(dir.filePath("spin.mp4")));
    QVERIFY(runProgram(kCli, {"character", "make-sample", "--out", dir.path()}).exitCode == 0);
    const Run inspected = runProgram(cli, {"inspect", dir.filePath("sample-bundle")});
    const QString decode = dir.filePath("libriglens-decode.so");
    QVERIFY2(inspected.out.count(decode) + inspected.err.count(decode) == 1 &&
                 (inspected.out + inspected.err).contains("neural decoders need OpenCV's runtime"),
             qPrintable(inspected.out + inspected.err));
  }

  // Both executables run themselves again once (launch/malloc_tunables.h),
  // by their own path: the kernel names a process after the file it
  // executes, and through /proc/self/exe top, pidof and killall saw "exe".
  void processKeepsItsNameAfterRunningItselfAgain() {
    QTemporaryDir dir;
    QVERIFY(runProgram(kCli, {"samples", "--out", dir.path(), "--name", "tank-cubes"}).exitCode == 0);
    QProcess viewer;
    viewer.setReadChannel(QProcess::StandardError);
    viewer.start(kGui, {dir.filePath("tank-cubes"), "--screenshot", dir.filePath("tank.png")});
    QVERIFY(viewer.waitForStarted());
    // "drawing with" comes from the program, after the second start.
    QByteArray err;
    while (!err.contains("drawing with") && viewer.waitForReadyRead(60000)) err += viewer.readAllStandardError();
    QVERIFY2(err.contains("drawing with"), err.constData());
    QFile comm(QStringLiteral("/proc/%1/comm").arg(viewer.processId()));
    QVERIFY(comm.open(QIODevice::ReadOnly));
    QCOMPARE(comm.readAll().trimmed(), QByteArray("riglens"));
    QVERIFY(viewer.waitForFinished(120000));
    QCOMPARE(viewer.exitCode(), 0);
  }

  // FFmpeg's and OpenCV's libraries are opened with the first video or
  // neural decoder (riglens/media/video_module.h,
  // riglens/decode/decoder_module.h), not by every call: the dynamic loader's
  // own log of the files it opens (LD_DEBUG=files) names none of them for
  // --version, and names OpenCV's once a character's decoders are opened.
  // The viewer opens OpenCV the same way (FFmpeg it never needs).
  void programsOpenFfmpegAndOpenCvOnlyWhenNeeded() {
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert("LD_DEBUG", "files");
    const Run run = runProgram(kCli, {"--version"}, env);
    QCOMPARE(run.exitCode, 0);
    QVERIFY2(run.err.contains("libQt6Core"), "LD_DEBUG=files printed no library the CLI needs");
    for (const char* library : {"libavformat", "libavcodec", "riglens-media", "libopencv_dnn", "riglens-decode"})
      QVERIFY2(!run.err.contains(library), qPrintable(QString("riglens-cli --version opened %1").arg(library)));
    QTemporaryDir dir;
    const Run made = runProgram(kCli, {"character", "make-sample", "--out", dir.path()});
    QVERIFY2(made.exitCode == 0, qPrintable(made.err));
    const Run inspected = runProgram(kCli, {"inspect", dir.filePath("sample-bundle")}, env);
    QVERIFY2(inspected.exitCode == 0, qPrintable(inspected.err.right(2000)));
    QVERIFY2(inspected.err.contains("riglens-decode") && inspected.err.contains("libopencv_dnn"),
             "inspecting a bundle with decoders did not open them through the module");
    const Run version = runProgram(kGui, {"--version"}, env);
    QCOMPARE(version.exitCode, 0);
    QVERIFY2(version.err.contains("libQt6Quick"), "LD_DEBUG=files printed no library the viewer needs");
    for (const char* library : {"libavformat", "riglens-media", "libopencv_dnn", "riglens-decode"})
      QVERIFY2(!version.err.contains(library), qPrintable(QString("riglens --version opened %1").arg(library)));
    const Run decoded = runProgram(
        kGui, {dir.filePath("sample-bundle"), "--screenshot", dir.filePath("decoded.png"), "--size", "640x480"}, env);
    QVERIFY2(decoded.exitCode == 0, qPrintable(decoded.err.right(2000)));
    QVERIFY2(decoded.err.contains("riglens-decode") && decoded.err.contains("libopencv_dnn"),
             "the viewer's screenshot of a bundle with decoders did not open them through the module");
  }

  // The four scene.json fields that once aborted riglens-cli (exit 134, an
  // nlohmann type_error): every command that opens a bundle refuses them
  // with exit 1 and a message naming the file and the pointer.
  void cliRefusesMalformedBundles_data() {
    QTest::addColumn<QString>("scene");
    QTest::addColumn<QString>("expected");
    QTest::newRow("world_scale") << R"({"world_scale": "big"})"
                                 << "scene.json: /world_scale: expected a number, got a string";
    QTest::newRow("world_offset") << R"({"world_offset": [1]})"
                                  << "scene.json: /world_offset: expected an array of 3 numbers, got 1";
    QTest::newRow("rig_range") << R"({"rig_range": [1]})"
                               << "scene.json: /rig_range: expected an array of 2 numbers, got 1";
    QTest::newRow("rig.pack") << R"({"rig": {"pack": 7}})"
                              << "scene.json: /rig/pack: expected a string, got a number";
  }
  void cliRefusesMalformedBundles() {
    QFETCH(QString, scene);
    QFETCH(QString, expected);
    QTemporaryDir dir;
    QVERIFY(runProgram(kCli, {"character", "make-sample", "--out", dir.path()}).exitCode == 0);
    const QString bundle = dir.filePath("sample-bundle");
    QFile file(bundle + "/scene.json");
    QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
    file.write(scene.toUtf8());
    file.close();
    auto windowless = QProcessEnvironment::systemEnvironment();
    windowless.remove("QT_QPA_PLATFORM");
    for (const QStringList& command :
         {QStringList{"character", "inspect", bundle}, QStringList{"inspect", bundle},
          QStringList{"inspect", bundle, "--json"}, QStringList{"render", bundle, "--out", dir.filePath("x.png")}}) {
      const Run run = runProgram(kCli, command, windowless);
      QVERIFY2(run.exitCode == 1,
               qPrintable(command.join(' ') + ": exit " + QString::number(run.exitCode) + "\n" + run.err));
      QVERIFY2(run.err.contains(expected), qPrintable(command.join(' ') + ": " + run.err));
    }
    QVERIFY(!QFileInfo::exists(dir.filePath("x.png")));
    // --json also prints the failed load as a problem row for tools.
    const auto doc = QJsonDocument::fromJson(runProgram(kCli, {"inspect", bundle, "--json"}).out.toUtf8()).object();
    QCOMPARE(doc["loaded"].toBool(true), false);
    const auto row = doc["problems"].toArray().first().toObject();
    QCOMPARE(row["severity"].toString(), QString("error"));
    QVERIFY(row["file"].toString().endsWith("scene.json"));
    QVERIFY(row["pointer"].toString().startsWith("/"));
  }

  // A VRM avatar from the command line: inspect lists its expressions and
  // humanoid bones; pose and render take --expression (an unknown name is
  // bad input, named).
  void cliTakesAVrmAvatarsExpressions() {
    QTemporaryDir dir;
    const QString vrm = dir.filePath("face.vrm");
    QVERIFY(riglens::core::writeFileAtomically(vrm.toStdString(), riglens::test::makeVrmFace(0).glb()));
    const Run inspect = runProgram(kCli, {"inspect", vrm, "--json"});
    QVERIFY2(inspect.exitCode == 0, qPrintable(inspect.err));
    const auto avatar = QJsonDocument::fromJson(inspect.out.toUtf8()).object()["gltf"].toObject()["vrm"].toObject();
    QCOMPARE(avatar["version"].toString(), QString("0.x"));
    QCOMPARE(avatar["expressions"].toArray().size(), 5);
    QCOMPARE(avatar["humanoid"].toObject()["hips"].toString(), QString("Hips"));
    const Run pose = runProgram(kCli, {"pose", vrm, "--expression", "happy=0.25", "--json"});
    QVERIFY2(pose.exitCode == 0, qPrintable(pose.err));
    QCOMPARE(QJsonDocument::fromJson(pose.out.toUtf8()).object()["expressions"].toObject()["happy"].toDouble(), 0.25);
    const Run unknown = runProgram(kCli, {"pose", vrm, "--expression", "grin=1"});
    QVERIFY(unknown.exitCode != 0);
    QVERIFY2(unknown.err.contains("grin"), qPrintable(unknown.err));
    const Run malformed = runProgram(kCli, {"pose", vrm, "--expression", "happy"});
    QVERIFY(malformed.exitCode != 0);
    QVERIFY2(malformed.err.contains("--expression needs NAME=VALUE"), qPrintable(malformed.err));
  }

  // inspect takes everything the viewer opens, with one problems list.
  void cliInspectsEveryKind() {
    QTemporaryDir dir;
    QVERIFY(
        runProgram(kCli, {"samples", "--out", dir.path(), "--name", "tank-cubes", "--name", "gaussians"}).exitCode ==
        0);
    const Run ply = runProgram(kCli, {"inspect", dir.filePath("gaussians.ply"), "--json"});
    QVERIFY2(ply.exitCode == 0, qPrintable(ply.err));
    const auto cloud = QJsonDocument::fromJson(ply.out.toUtf8()).object();
    QCOMPARE(cloud["kind"].toString(), QString("ply"));
    QVERIFY(cloud["gaussians"].toInt() > 0);
    QCOMPARE(cloud["shDegree"].toInt(), 0);
    const auto lo = cloud["bounds"].toObject()["min"].toArray(), hi = cloud["bounds"].toObject()["max"].toArray();
    QVERIFY(lo.size() == 3 && hi.size() == 3 && lo[0].toDouble() < hi[0].toDouble());
    // A run with a broken part mesh and a joint on a missing part: the
    // problems of the Problems panel, with severity, pointer, part and joint.
    const QString tank = dir.filePath("tank-cubes");
    QVERIFY(QFile::resize(tank + "/meshes/turret.glb", 100));
    const Run inspect = runProgram(kCli, {"inspect", tank, "--json"});
    QVERIFY2(inspect.exitCode == 0, qPrintable(inspect.err));
    const auto problems = QJsonDocument::fromJson(inspect.out.toUtf8()).object()["problems"].toArray();
    QCOMPARE(problems.size(), 1);
    const auto row = problems[0].toObject();
    QCOMPARE(row["severity"].toString(), QString("error"));
    QCOMPARE(row["pointer"].toString(), QString("/parts/1"));
    QCOMPARE(row["part"].toString(), QString("turret"));
    QVERIFY(row["message"].toString().contains("turret.glb"));
    QVERIFY(runProgram(kCli, {"inspect", tank}).out.contains("error   "));
  }

  void cliCharacterCommands() {
    QTemporaryDir dir;
    const Run sample = runProgram(kCli, {"character", "make-sample", "--out", dir.path()});
    QVERIFY2(sample.exitCode == 0, qPrintable(sample.err));
    const QString pack = dir.filePath("sample-face.aosrig");
    const Run inspect = runProgram(kCli, {"character", "inspect", pack, "--json"});
    QVERIFY2(inspect.exitCode == 0, qPrintable(inspect.err));
    const auto info = QJsonDocument::fromJson(inspect.out.toUtf8()).object();
    QCOMPARE(info["vertexCount"].toInt(), 9409);
    QCOMPARE(info["headExt"].toObject()["dim"].toInt(), 57);
    QCOMPARE(runProgram(kCli, {"character", "inspect", dir.filePath("sample-bundle")}).exitCode, 0);

    // Controls by name; the output is V*3 little-endian f32.
    QFile controls(dir.filePath("controls.json"));
    QVERIFY(controls.open(QIODevice::WriteOnly));
    controls.write(R"({"lower_face_000": 1.0, "gaze_yaw_l": 0.2})");
    controls.close();
    const Run posed =
        runProgram(kCli, {"character", "pose", pack, "--controls", dir.filePath("controls.json"), "--override",
                          "jaw=0.9950042,0.0998334,0,0", "--out", dir.filePath("posed.bin")});
    QVERIFY2(posed.exitCode == 0, qPrintable(posed.err));
    QCOMPARE(QFileInfo(dir.filePath("posed.bin")).size(), qint64(9409 * 3 * 4));
    // The same pose through the GPU pass: the same vertices within 10 um.
    auto windowless = QProcessEnvironment::systemEnvironment();
    windowless.remove("QT_QPA_PLATFORM");
    const Run gpu =
        runProgram(kCli,
                   {"character", "pose", pack, "--controls", dir.filePath("controls.json"), "--backend", "gpu",
                    "--override", "jaw=0.9950042,0.0998334,0,0", "--out", dir.filePath("posed-gpu.bin")},
                   windowless);
    QVERIFY2(gpu.exitCode == 0, qPrintable(gpu.err));
    QFile cpuFile(dir.filePath("posed.bin")), gpuFile(dir.filePath("posed-gpu.bin"));
    QVERIFY(cpuFile.open(QIODevice::ReadOnly) && gpuFile.open(QIODevice::ReadOnly));
    const QByteArray cpuBytes = cpuFile.readAll(), gpuBytes = gpuFile.readAll();
    QCOMPARE(cpuBytes.size(), gpuBytes.size());
    const auto* a = reinterpret_cast<const float*>(cpuBytes.constData());
    const auto* b = reinterpret_cast<const float*>(gpuBytes.constData());
    for (int i = 0; i < cpuBytes.size() / 4; ++i) QCOMPARE_NEAR(a[i], b[i], riglens::core::tolerance::kGnmGpuMetres);
    controls.open(QIODevice::WriteOnly);
    controls.write(R"({"no_such_control": 1})");
    controls.close();
    const Run badControl = runProgram(
        kCli, {"character", "pose", pack, "--controls", dir.filePath("controls.json"), "--out", dir.filePath("x.bin")});
    QCOMPARE(badControl.exitCode, 1);
    QVERIFY(badControl.err.contains("unknown control 'no_such_control'"));
    QCOMPARE(runProgram(kCli, {"character", "pose", pack}).exitCode, 2);

    // orl-deform on the real fixture's "mixed" case.
    QFile fixtureFile(QStringLiteral(RIGLENS_TEST_DATA_DIR "/orl/deform-synthetic.json"));
    QVERIFY(fixtureFile.open(QIODevice::ReadOnly));
    const auto fixture = QJsonDocument::fromJson(fixtureFile.readAll()).object();
    QFile orl(dir.filePath("orl_pack.bin"));
    QVERIFY(orl.open(QIODevice::WriteOnly));
    orl.write(QByteArray::fromBase64(fixture["packBase64"].toString().toLatin1()));
    orl.close();
    const auto mixed = fixture["cases"].toArray()[4].toObject();
    QFile outputs(dir.filePath("outputs.json"));
    QVERIFY(outputs.open(QIODevice::WriteOnly));
    outputs.write(QJsonDocument(QJsonObject{{"jointOut", mixed["jointOut"]}, {"bsOut", mixed["bsOut"]}}).toJson());
    outputs.close();
    const Run deformed = runProgram(kCli, {"character", "orl-deform", dir.filePath("orl_pack.bin"), "--outputs",
                                           dir.filePath("outputs.json"), "--out", dir.filePath("orl.json"), "--json"});
    QVERIFY2(deformed.exitCode == 0, qPrintable(deformed.err));
    QFile result(dir.filePath("orl.json"));
    QVERIFY(result.open(QIODevice::ReadOnly));
    const auto values = QJsonDocument::fromJson(result.readAll()).array();
    const auto expected = mixed["expected"].toArray();
    QCOMPARE(values.size(), expected.size());
    for (int i = 0; i < values.size(); ++i)
      QCOMPARE_NEAR(values[i].toDouble(), expected[i].toDouble(), riglens::core::tolerance::kPoseMatrix);
    QCOMPARE(runProgram(kCli, {"character", "frobnicate"}).exitCode, 2);
    // The character through GNM, the lift and the splat renderer on the GPU.
    const Run face = runProgram(
        kCli, {"render", pack, "--out", dir.filePath("face.png"), "--size", "96x96", "--tint", "joint"}, windowless);
    QVERIFY2(face.exitCode == 0, qPrintable(face.err));
    QCOMPARE(QImage(dir.filePath("face.png")).size(), QSize(96, 96));
    const QImage neutralFace(dir.filePath("face.png"));
    int covered = 0;
    for (int y = 0; y < neutralFace.height(); ++y)
      for (int x = 0; x < neutralFace.width(); ++x) covered += neutralFace.pixel(x, y) != neutralFace.pixel(0, 0);
    QVERIFY2(covered > 96 * 96 / 10, qPrintable(QString("only %1 pixels show the face").arg(covered)));
    // Controls move the face: the posed render differs from the neutral one.
    QFile faceControls(dir.filePath("face-controls.json"));
    QVERIFY(faceControls.open(QIODevice::WriteOnly));
    faceControls.write(R"({"lower_face_000": 1.0, "gaze_yaw_l": 0.2})");
    faceControls.close();
    const Run posedFace = runProgram(kCli,
                                     {"render", pack, "--out", dir.filePath("posed-face.png"), "--size", "96x96",
                                      "--tint", "joint", "--controls", dir.filePath("face-controls.json")},
                                     windowless);
    QVERIFY2(posedFace.exitCode == 0, qPrintable(posedFace.err));
    QVERIFY(QImage(dir.filePath("posed-face.png")) != neutralFace);
    // A bundle folder's debug preview renders its GNM pack: the same image as the pack itself.
    const Run bundleFace = runProgram(kCli,
                                      {"render", dir.filePath("sample-bundle"), "--preview", "--out",
                                       dir.filePath("bundle-face.png"), "--size", "96x96", "--tint", "joint"},
                                      windowless);
    QVERIFY2(bundleFace.exitCode == 0, qPrintable(bundleFace.err));
    QCOMPARE(QImage(dir.filePath("bundle-face.png")), neutralFace);
    // Without --preview the sample bundle (make-sample ships its decoders) is the decoded character.
    const Run decodedFace = runProgram(
        kCli, {"render", dir.filePath("sample-bundle"), "--out", dir.filePath("decoded-face.png"), "--size", "96x96"},
        windowless);
    QVERIFY2(decodedFace.exitCode == 0, qPrintable(decodedFace.err));
    const QImage decoded(dir.filePath("decoded-face.png"));
    QVERIFY(decoded != neutralFace);
    int decodedCovered = 0;
    for (int y = 0; y < decoded.height(); ++y)
      for (int x = 0; x < decoded.width(); ++x) decodedCovered += decoded.pixel(x, y) != decoded.pixel(0, 0);
    QVERIFY2(decodedCovered > 96 * 96 / 10, qPrintable(QString("only %1 pixels show the face").arg(decodedCovered)));
    // inspect opens the decoders: what each branch loads as and its calibration (rig -> bundle space).
    const Run inspectBundle = runProgram(kCli, {"inspect", dir.filePath("sample-bundle"), "--json"});
    QVERIFY2(inspectBundle.exitCode == 0, qPrintable(inspectBundle.err));
    const QJsonObject inspected = QJsonDocument::fromJson(inspectBundle.out.toUtf8()).object();
    const QJsonObject head = inspected["decoders"].toArray().at(0).toObject();
    QCOMPARE(head["branch"].toString(), QString("head"));
    QVERIFY(head["loaded"].toObject()["rigged"].toBool());
    QVERIFY(head["calibration"].toObject()["residual"].toDouble() <
            head["calibration"].toObject()["tolerance"].toDouble());
    QVERIFY(inspectBundle.out.contains("calibration scale"));
    // One decoded frame as a 3DGS .ply that the .ply reader (and any splat viewer) opens.
    const Run splats = runProgram(kCli, {"character", "splats", dir.filePath("sample-bundle"), "--out",
                                         dir.filePath("frame.ply"), "--controls", dir.filePath("face-controls.json")});
    QVERIFY2(splats.exitCode == 0, qPrintable(splats.err));
    const Run inspectFrame = runProgram(kCli, {"inspect", dir.filePath("frame.ply"), "--json"});
    QVERIFY2(inspectFrame.exitCode == 0 && inspectFrame.out.contains("\"gaussians\""), qPrintable(inspectFrame.out));
    QCOMPARE(runProgram(kCli, {"character", "splats", dir.filePath("sample-bundle")}).exitCode, 2);  // no --out
    // A body pose turns the head of the decoded character; a broken one names the file and the place.
    QFile body(dir.filePath("body.json")), badBody(dir.filePath("bad-body.json"));
    QVERIFY(body.open(QIODevice::WriteOnly) && badBody.open(QIODevice::WriteOnly));
    body.write(R"({"bones": [{"name": "head", "rotation": [0.9659, 0, 0.2588, 0]}], "rootPos": [0.02, 0, 0]})");
    badBody.write(R"({"bones": [{"joint": "head"}]})");
    body.close();
    badBody.close();
    const Run turned = runProgram(kCli,
                                  {"render", dir.filePath("sample-bundle"), "--body-pose", dir.filePath("body.json"),
                                   "--out", dir.filePath("turned.png"), "--size", "96x96"},
                                  windowless);
    QVERIFY2(turned.exitCode == 0, qPrintable(turned.err));
    QVERIFY(QImage(dir.filePath("turned.png")) != decoded);
    const Run badPose = runProgram(kCli, {"render", dir.filePath("sample-bundle"), "--body-pose",
                                          dir.filePath("bad-body.json"), "--out", dir.filePath("x.png")});
    QCOMPARE(badPose.exitCode, 1);
    QVERIFY2(badPose.err.contains("bad-body.json") && badPose.err.contains("/bones/0"), qPrintable(badPose.err));
    // A turntable of the character: shot 0 is the single image; the strip holds all four.
    const Run spin = runProgram(kCli,
                                {"render", pack, "--turntable", "4", "--out-pattern", dir.filePath("face_{i}.png"),
                                 "--strip", dir.filePath("face-strip.png"), "--size", "96x96", "--tint", "joint"},
                                windowless);
    QVERIFY2(spin.exitCode == 0, qPrintable(spin.err));
    QCOMPARE(QImage(dir.filePath("face_0.png")), neutralFace);
    QVERIFY(QImage(dir.filePath("face_1.png")) != neutralFace);
    QCOMPARE(QImage(dir.filePath("face-strip.png")).size(), QSize(4 * 96, 96));
    QVERIFY(QDir(dir.path()).mkdir("orl-bundle"));
    QFile gnmScene(dir.filePath("sample-bundle/scene.json")), orlScene(dir.filePath("orl-bundle/scene.json"));
    QVERIFY(gnmScene.open(QIODevice::ReadOnly) && orlScene.open(QIODevice::WriteOnly));
    orlScene.write(gnmScene.readAll().replace("\"backend\": \"gnm\"", "\"backend\": \"orl\""));
    orlScene.close();
    const Run orlBundle =
        runProgram(kCli, {"render", dir.filePath("orl-bundle"), "--out", dir.filePath("orl.png")}, windowless);
    // ORL bundles draw now; this one names a pack it does not hold, and is refused naming it.
    QCOMPARE(orlBundle.exitCode, 1);
    QVERIFY2(orlBundle.err.contains("orl-bundle/sample-face.aosrig: no such file"), qPrintable(orlBundle.err));
    // Refusals: a bad tint or sigma is a usage error; a bad controls file names itself.
    QCOMPARE(
        runProgram(kCli, {"render", pack, "--out", dir.filePath("face.png"), "--tint", "plaid"}, windowless).exitCode,
        2);
    QCOMPARE(runProgram(kCli, {"render", pack, "--out", dir.filePath("face.png"), "--sigma", "0"}, windowless).exitCode,
             2);
    const Run refused = runProgram(
        kCli, {"render", pack, "--out", dir.filePath("face.png"), "--controls", dir.filePath("controls.json")},
        windowless);  // controls.json now names an unknown control (above)
    QCOMPARE(refused.exitCode, 1);
    QVERIFY2(refused.err.contains("controls.json") && refused.err.contains("unknown control"), qPrintable(refused.err));
    const Run notAPack = runProgram(kCli, {"character", "inspect", dir.filePath("controls.json")});
    QCOMPARE(notAPack.exitCode, 1);
    QVERIFY(notAPack.err.contains("bad magic"));
  }

  // riglens-cli keeps its pipelines in the user's cache folder
  // (XDG_CACHE_HOME/riglens/pipelines) and the next run loads them; a cache
  // file of garbage (another program's, a torn write) is ignored by Qt's
  // header check: the render still works and the file is written afresh.
  // The sample ORL character from the shell: the DNA in its pack inspected,
  // evaluated in GUI and raw mode (the same outputs), names checked.
  // The sample ORL bundle with decoders (the test decoders, uv_res 32): one
  // decoded frame per controls file, the DNA's GUI names carried into the
  // bundle's control order; raw names refused for GUI-named decoders; render
  // draws the decoded character, not the preview.
  void cliDecodesTheSampleOrlBundle() {
    QTemporaryDir dir;
    const QString decoders = QStringLiteral(RIGLENS_TEST_DECODERS_DIR);
    const Run made = runProgram(kCli, {"character", "make-sample", "--out", dir.path(), "--uv-res", "32", "--decoders",
                                       decoders + "/visible", "--orl-decoders", decoders + "/orl"});
    QVERIFY2(made.exitCode == 0, qPrintable(made.err));
    const QString bundle = dir.filePath("sample-orl-bundle");
    const auto write = [&](const char* name, const char* text) {
      QFile file(dir.filePath(name));
      file.open(QIODevice::WriteOnly);
      file.write(text);
      return file.fileName();
    };
    const QString rest = write("rest.json", "{}"), jaw = write("jaw.json", R"({"CTRL_C_jaw.ty": 1})");
    const QString raw = write("raw.json", R"({"CTRL_expressions.jawOpen": 1})");
    QByteArray frames[2];
    int i = 0;
    for (const QString& controls : {rest, jaw}) {
      const QString ply = dir.filePath(QString("frame%1.ply").arg(i));
      const Run splats = runProgram(kCli, {"character", "splats", bundle, "--controls", controls, "--out", ply});
      QVERIFY2(splats.exitCode == 0, qPrintable(splats.err));
      QVERIFY2(splats.out.contains("gaussians of 2048 slots"), qPrintable(splats.out));  // head 32x32 + eyes 32x32
      QFile file(ply);
      QVERIFY(file.open(QIODevice::ReadOnly));
      frames[i++] = file.readAll();
    }
    QVERIFY(frames[0] != frames[1]);  // the jaw moved gaussians
    const Run refused =
        runProgram(kCli, {"character", "splats", bundle, "--controls", raw, "--out", dir.filePath("x.ply")});
    QCOMPARE(refused.exitCode, 1);
    QVERIFY2(refused.err.contains("raw.json") && refused.err.contains("GUI controls"), qPrintable(refused.err));
    // inspect opens both branches: the head skinned, the eyes a shell.
    const Run inspected = runProgram(kCli, {"inspect", bundle});
    QVERIFY2(inspected.exitCode == 0, qPrintable(inspected.err));
    QVERIFY2(inspected.out.contains("eyes: shell, 374 of 374 vertices bound rigidly"), qPrintable(inspected.out));
    // render: the decoded character differs from the preview of the same controls.
    for (const char* mode : {"decoded", "preview"}) {
      QStringList args{"render", bundle,  "--controls", jaw,
                       "--size", "96x96", "--out",      dir.filePath(QString("%1.png").arg(mode))};
      if (QString(mode) == "preview") args << "--preview";
      const Run rendered = runProgram(kCli, args);
      QVERIFY2(rendered.exitCode == 0, qPrintable(rendered.err));
    }
    QVERIFY(QImage(dir.filePath("decoded.png")) != QImage(dir.filePath("preview.png")));
  }

  // make-sample decodes a frame of every bundle it gives decoders before it
  // replaces anything: --uv-res 32 with the shipped decoders (their maps are
  // 128 x 128, data/CMakeLists.txt) is refused with the decoder's shape and
  // the lift's (geom_uv: 11 channels, DECODERS.md), --schema1 with them for
  // want of a fused graph, and the sample already in --out stays as it was;
  // --no-decoders writes the 32-texel bundle.
  void cliRefusesASampleItsDecodersCannotDecode() {
    QTemporaryDir dir;
    QVERIFY(runProgram(kCli, {"character", "make-sample", "--out", dir.path(), "--no-decoders"}).exitCode == 0);
    const auto sceneBytes = [&] {
      QFile file(dir.filePath("sample-bundle/scene.json"));
      return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
    };
    const QByteArray before = sceneBytes();
    QVERIFY(before.contains("\"uv_res\": 128"));
    const Run refused = runProgram(kCli, {"character", "make-sample", "--out", dir.path(), "--uv-res", "32"});
    QCOMPARE(refused.exitCode, 1);
    QVERIFY2(refused.err.contains("sample-bundle") && refused.err.contains("geom_head.onnx") &&
                 refused.err.contains("[1,11,128,128]") && refused.err.contains("[1,11,32,32]") &&
                 refused.err.contains("--no-decoders") && !refused.err.contains(".make-sample-"),
             qPrintable(refused.err));
    QCOMPARE(sceneBytes(), before);
    // A schema-1 bundle's geom graph takes the rig (fused, DECODERS.md A1); the shipped ones are not.
    const Run unfused = runProgram(kCli, {"character", "make-sample", "--out", dir.path(), "--schema1"});
    QCOMPARE(unfused.exitCode, 1);
    QVERIFY2(unfused.err.contains("geom.onnx") && unfused.err.contains("rig_params"), qPrintable(unfused.err));
    QCOMPARE(sceneBytes(), before);
    QCOMPARE(QDir(dir.path()).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot),
             QStringList({"sample-bundle", "sample-face.aosrig", "sample-orl-bundle"}));
    const Run small =
        runProgram(kCli, {"character", "make-sample", "--out", dir.path(), "--uv-res", "32", "--no-decoders"});
    QVERIFY2(small.exitCode == 0, qPrintable(small.err));
    QVERIFY(sceneBytes().contains("\"uv_res\": 32"));
  }

  void cliEvaluatesTheSampleOrlDna() {
    QTemporaryDir dir;
    QVERIFY2(runProgram(kCli, {"character", "make-sample", "--out", dir.path(), "--no-decoders"}).exitCode == 0,
             "make-sample failed");
    const QString pack = dir.filePath("sample-orl-bundle/orl_pack.bin");
    const Run inspect = runProgram(kCli, {"inspect", pack, "--json"});
    QVERIFY2(inspect.exitCode == 0, qPrintable(inspect.err));
    const auto dna = QJsonDocument::fromJson(inspect.out.toUtf8()).object()["dna"].toObject();
    QCOMPARE(dna["version"].toString(), QString("2.8"));
    QCOMPARE(dna["lods"].toInt(), 2);
    QCOMPARE(dna["rbfSolvers"].toInt(), 1);
    const auto gui = dna["guiControls"].toArray();
    const auto jawTx = std::find_if(
        gui.begin(), gui.end(), [](const QJsonValue& c) { return c.toObject()["name"].toString() == "CTRL_C_jaw.tx"; });
    QVERIFY(jawTx != gui.end());
    QCOMPARE(jawTx->toObject()["min"].toDouble(), -1.0);  // bipolar: the union of its rows' intervals
    QCOMPARE(jawTx->toObject()["max"].toDouble(), 1.0);
    const auto evaluate = [&](const QStringList& mode, const char* controls) {
      QFile file(dir.filePath("controls.json"));
      file.open(QIODevice::WriteOnly);
      file.write(controls);
      file.close();
      const Run run =
          runProgram(kCli, QStringList{"character", "evaluate", pack, "--controls", file.fileName(), "--json"} + mode);
      return std::make_pair(run, QJsonDocument::fromJson(run.out.toUtf8()).object());
    };
    const auto [guiRun, guiOut] = evaluate({"--gui"}, R"({"CTRL_C_jaw.ty": 1, "CTRL_C_jaw.tx": -0.5})");
    QVERIFY2(guiRun.exitCode == 0, qPrintable(guiRun.err));
    const auto names = guiOut["jointNames"].toArray();
    QCOMPARE(names[1].toString(), QString("FACIAL_C_Jaw"));
    QCOMPARE(guiOut["joints"].toArray().size(), names.size() * 9);
    QCOMPARE(guiOut["joints"].toArray()[9 + 3].toDouble(), 22.0);  // the sample table's jaw opening, degrees
    const auto [rawRun, rawOut] =
        evaluate({"--raw"}, R"({"CTRL_expressions.jawOpen": 1, "CTRL_expressions.jawLeft": 0.5})");
    QVERIFY2(rawRun.exitCode == 0, qPrintable(rawRun.err));
    QCOMPARE(rawOut["joints"], guiOut["joints"]);
    QCOMPARE(rawOut["blendShapes"], guiOut["blendShapes"]);
    const auto [unknown, unused] = evaluate({"--raw"}, R"({"CTRL_C_jaw.ty": 1})");
    QCOMPARE(unknown.exitCode, 1);
    QVERIFY2(unknown.err.contains("'CTRL_C_jaw.ty' is not a raw control"), qPrintable(unknown.err));
    QCOMPARE(evaluate({"--lod", "2"}, "{}").first.exitCode, 2);
    // character pose on the ORL bundle: the DNA's GUI controls deform the pack, on the CPU and on the GPU alike.
    QFile face(dir.filePath("face.json"));
    QVERIFY(face.open(QIODevice::WriteOnly));
    face.write(R"({"CTRL_C_jaw.ty": 1, "CTRL_L_mouth_cornerPull.ty": 0.8})");
    face.close();
    auto windowless = QProcessEnvironment::systemEnvironment();
    windowless.remove("QT_QPA_PLATFORM");
    for (const char* backend : {"cpu", "gpu"}) {
      const Run posed =
          runProgram(kCli,
                     {"character", "pose", dir.filePath("sample-orl-bundle"), "--controls", face.fileName(),
                      "--backend", backend, "--out", dir.filePath(QString("orl-%1.bin").arg(backend))},
                     windowless);
      QVERIFY2(posed.exitCode == 0, qPrintable(posed.err));
    }
    QFile cpuFile(dir.filePath("orl-cpu.bin")), gpuFile(dir.filePath("orl-gpu.bin"));
    QVERIFY(cpuFile.open(QIODevice::ReadOnly) && gpuFile.open(QIODevice::ReadOnly));
    const QByteArray cpuBytes = cpuFile.readAll(), gpuBytes = gpuFile.readAll();
    QCOMPARE(cpuBytes.size(), qsizetype(24049 * 3 * 4));
    QCOMPARE(gpuBytes.size(), cpuBytes.size());
    const auto* a = reinterpret_cast<const float*>(cpuBytes.constData());
    const auto* b = reinterpret_cast<const float*>(gpuBytes.constData());
    for (int i = 0; i < cpuBytes.size() / 4; ++i)
      QCOMPARE_NEAR(a[i], b[i], riglens::core::tolerance::kOrlGpuCentimetres);
    QCOMPARE(runProgram(kCli, {"character", "pose", pack, "--controls", face.fileName(), "--override", "jaw=1,0,0,0",
                               "--out", dir.filePath("x.bin")})
                 .exitCode,
             2);  // ORL joints follow the DNA
  }

  // A trainer's scene (no up line: y down) renders upright by default, the
  // other way up with --up +y, and framed on the cone, not on the floaters
  // 100-300 units out.
  void cliRendersTrainedScenesUpright() {
    QTemporaryDir dir;
    std::vector<riglens::core::RawGaussian> scene = riglens::test::twoToneCone();
    for (int i = 0; i < 40; ++i) {
      riglens::core::RawGaussian floater;
      const float r = 100.0f + 5.0f * float(i), a = 0.7f * float(i);
      floater.position = {r * std::cos(a), 0.3f * r * std::sin(1.3f * a), r * std::sin(a)};
      floater.opacityLogit = 4;
      scene.push_back(floater);
    }
    std::vector<std::uint8_t> bytes = riglens::core::encodeGaussianPly(scene);
    const std::string line = "comment up +y\n";
    const auto at = std::search(bytes.begin(), bytes.end(), line.begin(), line.end());
    QVERIFY(at != bytes.end());
    bytes.erase(at, at + std::ptrdiff_t(line.size()));
    const QString ply = dir.filePath("trained.ply");
    QVERIFY(riglens::core::writeFileAtomically(ply.toStdString(), bytes));
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert("QT_QPA_PLATFORM", "vkkhrdisplay");
    for (const auto& [up, redOnTop] : {std::pair{QString(), true}, std::pair{QString("+y"), false}}) {
      const QString png = dir.filePath("up.png");
      QStringList args{"render", ply, "--out", png, "--size", "400x300", "--pitch", "0"};
      if (!up.isEmpty()) args << "--up" << up;
      const Run run = runProgram(kCli, args, env);
      QVERIFY2(run.exitCode == 0, qPrintable(run.err));
      const QImage image(png);
      image.save(riglens::test::outputPath(QStringLiteral("trained-up%1.png").arg(up)));
      QCOMPARE(riglens::test::redAboveBlue(image), std::optional<bool>(redOnTop));
    }
    QCOMPARE(runProgram(kCli, {"render", ply, "--out", dir.filePath("x.png"), "--up", "z"}).exitCode, 2);
  }

  // --print-camera names the view the picture was drawn through: the orbit
  // at the asked yaw and pitch about the middle of the posed model, the
  // default field of view, an upright frame.
  void cliPrintsTheCameraItDrewThrough() {
    QTemporaryDir dir;
    QVERIFY(runProgram(kCli, {"samples", "--out", dir.path(), "--name", "tank-cubes"}).exitCode == 0);
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert("QT_QPA_PLATFORM", "vkkhrdisplay");
    const QString tank = dir.filePath("tank-cubes");
    const Run run = runProgram(kCli,
                               {"render", tank, "--out", dir.filePath("c.png"), "--size", "160x120", "--yaw", "30",
                                "--pitch", "20", "--print-camera"},
                               env);
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    const QRegularExpression line(QStringLiteral("\ncamera: eye=(\\S+) target=(\\S+) up=(\\S+) fov-y=(\\S+)\n"));
    const auto match = line.match("\n" + run.out);
    QVERIFY2(match.hasMatch(), qPrintable(run.out));
    const auto vec = [&](int i) {
      const QStringList xyz = match.captured(i).split(',');
      return xyz.size() == 3 ? glm::vec3(xyz[0].toFloat(), xyz[1].toFloat(), xyz[2].toFloat()) : glm::vec3(NAN);
    };
    const glm::vec3 eye = vec(1), target = vec(2), up = vec(3), toEye = glm::normalize(eye - target);
    // The printed numbers carry 9 digits (a float to the bit); the angles and
    // lengths come from float math on them, a few ulps off.
    constexpr double kDegrees = 1e-3;
    constexpr float kUnitLength = 1e-6f;
    // The bounds' centre, summed in another order: a relative float rounding.
    constexpr float kTargetShareOfSize = 1e-4f;
    QVERIFY(std::abs(match.captured(4).toDouble() - 40.0) < kDegrees);
    QVERIFY(std::abs(glm::degrees(std::asin(toEye.y)) - 20.0) < kDegrees);
    QVERIFY(std::abs(glm::degrees(std::atan2(toEye.x, toEye.z)) - 30.0) < kDegrees);
    QVERIFY(std::abs(glm::dot(up, toEye)) < kUnitLength && std::abs(glm::length(up) - 1.0f) < kUnitLength &&
            up.y > 0.0f);
    // The target: the middle of the tank's box as drawn (every part's vertices
    // under its world matrix, and its pivot), worked out here.
    auto loaded = riglens::core::loadRun(tank.toStdString());
    QVERIFY_OK(loaded);
    riglens::core::RigController rest(loaded->rig);
    rest.setClockMs(0);  // the autoPlay clips at 0 ms, as the render poses it
    rest.evaluate();
    glm::vec3 lo(INFINITY), hi(-INFINITY);
    for (std::size_t p = 0; p < loaded->meshes.size(); ++p) {
      const glm::mat4& world = rest.partWorlds()[p];
      const auto& pivot = loaded->rig.parts()[p].pivot;
      const glm::vec3 pivotAt(world * glm::vec4(float(pivot[0]), float(pivot[1]), float(pivot[2]), 1.0f));
      lo = glm::min(lo, pivotAt);
      hi = glm::max(hi, pivotAt);
      const auto& positions = loaded->meshes[p].positions;
      for (std::size_t v = 0; v + 2 < positions.size(); v += 3) {
        const glm::vec3 at(world * glm::vec4(positions[v], positions[v + 1], positions[v + 2], 1.0f));
        lo = glm::min(lo, at);
        hi = glm::max(hi, at);
      }
    }
    const glm::vec3 middle = (lo + hi) * 0.5f;
    QVERIFY2(glm::distance(target, middle) < kTargetShareOfSize * glm::distance(lo, hi),
             qPrintable(run.out + QString(" middle %1,%2,%3").arg(middle.x).arg(middle.y).arg(middle.z)));
  }

  void cliRendersTheTwoLooks() {
    // The same model in each look: PBR's picture differs from review's, an
    // exposure two stops down darkens it, and the options refuse nonsense.
    QTemporaryDir dir;
    QVERIFY(runProgram(kCli, {"samples", "--out", dir.path(), "--name", "tank-cubes"}).exitCode == 0);
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert("QT_QPA_PLATFORM", "vkkhrdisplay");
    const auto render = [&](const QStringList& extra) {
      const QString png = dir.filePath("look.png");
      const Run run = runProgram(
          kCli, QStringList{"render", dir.filePath("tank-cubes"), "--out", png, "--size", "160x120"} + extra, env);
      return run.exitCode == 0 ? QImage(png) : QImage();
    };
    const auto brightness = [](const QImage& image) {
      double sum = 0;
      for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x) sum += qGray(image.pixel(x, y));
      return sum;
    };
    const QImage review = render({}), pbr = render({"--look", "pbr"});
    const QImage darker = render({"--look", "pbr", "--exposure", "-2", "--tone-map", "none"});
    QVERIFY(!review.isNull() && !pbr.isNull() && !darker.isNull());
    pbr.save(riglens::test::outputPath("cli-look-pbr.png"));
    QVERIFY(review != pbr);
    QVERIFY(brightness(darker) < brightness(pbr));
    for (const QStringList& bad : {QStringList{"--look", "shiny"}, QStringList{"--tone-map", "reinhard"},
                                   QStringList{"--exposure", "40"}, QStringList{"--environment-rotation", "left"}})
      QCOMPARE(runProgram(kCli, QStringList{"render", dir.filePath("tank-cubes"), "--out", dir.filePath("x.png")} + bad)
                   .exitCode,
               2);
    // The environment: drawn behind the model it changes the picture, turned
    // it changes it again; a file that is no environment is refused by name.
    const QImage behind = render({"--look", "pbr", "--environment-background"});
    const QImage turned = render({"--look", "pbr", "--environment-background", "--environment-rotation", "120"});
    QVERIFY(!behind.isNull() && !turned.isNull());
    QVERIFY(behind != pbr && turned != behind);
    QFile notHdr(dir.filePath("sky.hdr"));
    QVERIFY(notHdr.open(QIODevice::WriteOnly) && notHdr.write("P6 1 1 255\n...") > 0);
    notHdr.close();
    const Run refused = runProgram(kCli,
                                   {"render", dir.filePath("tank-cubes"), "--out", dir.filePath("x.png"), "--look",
                                    "pbr", "--environment", notHdr.fileName()},
                                   env);
    QVERIFY(refused.exitCode != 0);
    QVERIFY2(refused.err.contains(notHdr.fileName() + ": byte 0: not a Radiance RGBE image"), qPrintable(refused.err));
  }

  void cliKeepsPipelinesBetweenRuns() {
    QTemporaryDir dir, cache;
    QVERIFY(runProgram(kCli, {"samples", "--out", dir.path(), "--name", "tank-cubes"}).exitCode == 0);
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert("QT_QPA_PLATFORM", "vkkhrdisplay");
    env.insert("XDG_CACHE_HOME", cache.path());
    const QStringList render{"render", dir.filePath("tank-cubes"), "--out", dir.filePath("t.png"), "--size", "96x64"};
    const Run first = runProgram(kCli, render, env);
    QVERIFY2(first.exitCode == 0, qPrintable(first.err));
    const QStringList files = QDir(cache.filePath("riglens/pipelines")).entryList(QDir::Files);
    QCOMPARE(files.size(), 1);
    QVERIFY(files[0].startsWith("cli-riglens"));
    QFile file(cache.filePath("riglens/pipelines/" + files[0]));
    QVERIFY(file.size() > 0);
    const QImage firstImage(dir.filePath("t.png"));
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(QByteArray(4096, '\x5a'));
    file.close();
    const Run garbage = runProgram(kCli, render, env);
    QVERIFY2(garbage.exitCode == 0, qPrintable(garbage.err));
    QCOMPARE(QImage(dir.filePath("t.png")), firstImage);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QVERIFY(file.readAll() != QByteArray(4096, '\x5a'));
  }

  void guiRefusesBadArguments() {
    QCOMPARE(runProgram(kGui, {"--no-such-option"}).exitCode, 2);
    const Run run = runProgram(kGui, {"--screenshot", "x.png", "--size", "huge"});
    QCOMPARE(run.exitCode, 2);
    QVERIFY(run.err.contains("--size"));
    const Run samples = runProgram(kGui, {"--samples", "3", "--screenshot", "x.png"});
    QCOMPARE(samples.exitCode, 2);
    QVERIFY(samples.err.contains("--samples"));
  }

  void guiScreenshotOfARunWithAViewAndBadPaths() {
    QTemporaryDir dir;
    QVERIFY(runProgram(kCli, {"samples", "--out", dir.path(), "--name", "tank-cubes"}).exitCode == 0);
    const QString shot = dir.filePath("tank.png");
    const Run run = runProgram(kGui, {dir.filePath("tank-cubes"), "--screenshot", shot, "--size", "800x500", "--tint",
                                      "part", "--play", "fire", "--time-ms", "60", "--set", "turret_yaw=0.5"});
    // Exit code and stderr in the message: this failed twice on clean-clone CI
    // under load (a non-zero exit with nothing on stderr) and never here;
    // -2 would say it crashed.
    QVERIFY2(run.exitCode == 0, qPrintable(QString("exit %1: %2").arg(run.exitCode).arg(run.err)));
    QCOMPARE(QImage(shot).size(), QSize(800, 500));
    const Run missing = runProgram(kGui, {dir.filePath("nope"), "--screenshot", shot});
    QCOMPARE(missing.exitCode, 1);
    QVERIFY(missing.err.contains("no such file or folder"));
    const Run badTint = runProgram(kGui, {dir.filePath("tank-cubes"), "--screenshot", shot, "--tint", "plaid"});
    QCOMPARE(badTint.exitCode, 1);
    QVERIFY(badTint.err.contains("plaid"));
    // --timings: the start-up by stage, after the path; only with --screenshot.
    QVERIFY(!run.err.contains("timings"));
    const Run timed = runProgram(kGui, {dir.filePath("tank-cubes"), "--screenshot", shot, "--timings"});
    QVERIFY2(timed.exitCode == 0, qPrintable(timed.err));
    checkTimings(timed.err, {"process start (exec to main)", "Qt init", "start of the load (on a worker)",
                             "graphics API chosen (Vulkan probed)", "QML engine and main window",
                             "rest of the load (waited for)", "first frame: upload (recorded)",
                             "first frame: pipelines", "event loop to the scene graph (GPU device)",
                             "frames until the screenshot, the rest", "window grab, PNG encode and write"});
    QCOMPARE(runProgram(kGui, {dir.filePath("tank-cubes"), "--timings"}).exitCode, 2);
    // --samples picks the window's multisampling: any count draws the model.
    const Run sampled = runProgram(kGui, {dir.filePath("tank-cubes"), "--screenshot", shot, "--samples", "2"});
    QVERIFY2(sampled.exitCode == 0, qPrintable(sampled.err));
  }

  // As a user starts it: no QSG_RHI_BACKEND, so the viewer chooses (this
  // machine has lavapipe: Vulkan), every document kind at a size of its own
  // (the --size crash of issue 29 hit every splat document below and above
  // 1280x800), and the PNG shows the document where the viewer says its
  // viewport is (the decoded character used to be grabbed before its decode).
  void guiScreenshotsShowEveryDocumentKindAsLaunched() {
    QTemporaryDir dir;
    QCOMPARE(runProgram(kCli, {"samples", "--out", dir.path(), "--name", "tank-cubes", "--name", "gaussians"}).exitCode,
             0);
    QCOMPARE(runProgram(kCli, {"export", dir.filePath("tank-cubes"), "--out", dir.filePath("tank.glb")}).exitCode, 0);
    QCOMPARE(runProgram(kCli, {"character", "make-sample", "--out", dir.filePath("chars")}).exitCode, 0);
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove(QStringLiteral("QSG_RHI_BACKEND"));
    const QList<std::tuple<QString, QString, QSize>> documents{
        {"voxel run", dir.filePath("tank-cubes"), {640, 480}},
        {"glTF model", dir.filePath("tank.glb"), {1440, 900}},
        {"3DGS scene", dir.filePath("gaussians.ply"), {800, 600}},
        {"character preview", dir.filePath("chars/sample-face.aosrig"), {1000, 700}},
        {"decoded character", dir.filePath("chars/sample-bundle"), {1920, 1080}},
        {"ORL character", dir.filePath("chars/sample-orl-bundle"), {1100, 760}}};
    const QRegularExpression shown(QStringLiteral("riglens: shown: .* in the viewport at (\\d+),(\\d+) (\\d+)x(\\d+)"));
    for (const auto& [kind, path, size] : documents) {
      const QString shot = dir.filePath(QStringLiteral("shot.png"));
      const Run run = runProgram(
          kGui, {path, "--screenshot", shot, "--size", QStringLiteral("%1x%2").arg(size.width()).arg(size.height())},
          env);
      QVERIFY2(run.exitCode == 0,
               qPrintable(QStringLiteral("%1: exit %2: %3").arg(kind).arg(run.exitCode).arg(run.err)));
      QVERIFY2(run.err.contains(QStringLiteral("riglens: drawing with Vulkan on ")) &&
                   run.err.contains(QStringLiteral("(a Vulkan device was found)")),
               qPrintable(run.err));
      const QImage image(shot);
      QCOMPARE(image.size(), size);
      const auto match = shown.match(run.err);
      QVERIFY2(match.hasMatch(), qPrintable(run.err));
      const QRect area(match.captured(1).toInt(), match.captured(2).toInt(), match.captured(3).toInt(),
                       match.captured(4).toInt());
      QVERIFY2(image.rect().contains(area) && area.width() > 100 && area.height() > 100, qPrintable(run.err));
      const double coverage = documentCoverage(image, area);
      image.save(riglens::test::outputPath(QStringLiteral("launched-%1.png").arg(QString(kind).replace(' ', '-'))));
      QVERIFY2(coverage >= kMinimumCoverage, qPrintable(QStringLiteral("%1: coverage %2").arg(kind).arg(coverage)));
      qInfo("%s at %dx%d: the document covers %.3f of the viewport", qPrintable(kind), size.width(), size.height(),
            coverage);
    }
  }

  void guiScreenshotWritesTheWindow() {
    const QString path = riglens::test::outputPath("riglens_screenshot_cli.png");
    QFile::remove(path);
    const Run run = runProgram(kGui, {"--screenshot", path, "--size", "900x600"});
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    QCOMPARE(run.out.trimmed(), QFileInfo(path).absoluteFilePath());
    const QImage image(path);
    QVERIFY(!image.isNull());
    QCOMPARE(image.size(), QSize(900, 600));
    QVERIFY(image.pixel(450, 300) != image.pixel(5, 5));  // viewport vs menu bar
  }
};

QTEST_APPLESS_MAIN(TestAppExecutables)
#include "tst_app_executables.moc"
