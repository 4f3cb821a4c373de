// An ORL character in the viewer as a user works it (Xvfb, Qt Quick on
// Vulkan): the sample ORL bundle opens; its Expression panel lists the DNA's
// GUI controls by widget with their ranges (the bipolar jaw from -1); dragging
// the jaw slider changes the picture; the joints panel shows the jaw's live
// rotation; raw mode and ARKit input reach the same joint outputs as
// `riglens-cli character evaluate` does for the same values; the Memory panel
// lists the ORL buffers and the DNA's tables; a controls file saved in the
// viewer renders from the shell; with decoders, the decoded character follows
// the DNA's controls.
#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtCore/QProcess>
#include <QtQml/QQmlExtensionPlugin>
#include <QtTest/QTest>
#include <filesystem>

#include "character_controller.h"
#include "riglens/core/base/tolerances.h"
#include "riglens/samples/orl_sample.h"
#include "test_checks.h"
#include "test_paths.h"
#include "viewer_harness.h"

Q_IMPORT_QML_PLUGIN(RigLensPlugin)

using namespace riglens;
namespace tol = core::tolerance;

class TestAppOrlCharacter : public test::CharacterViewerCase {
  Q_OBJECT

  // `riglens-cli character evaluate` on the sample's pack: its joint outputs.
  QJsonArray cliJoints(const QStringList& mode, const QByteArray& controls) {
    QFile file(path("controls.json"));
    if (!file.open(QIODevice::WriteOnly)) return {};
    file.write(controls);
    file.close();
    QProcess cli;
    cli.start(RIGLENS_CLI_EXE, QStringList{"character", "evaluate", path("sample-orl-bundle/orl_pack.bin"),
                                           "--controls", file.fileName(), "--json"} +
                                   mode);
    if (!cli.waitForFinished(60000) || cli.exitCode() != 0) return {};
    return QJsonDocument::fromJson(cli.readAllStandardOutput()).object()["joints"].toArray();
  }

  // The viewer's joint outputs, as the joints panel reads them.
  QString jawText() const { return m_character->jointOutputText("FACIAL_C_Jaw"); }

 private slots:
  void initTestCase() {
    QVERIFY_OK(
        samples::writeSampleOrlBundle(RIGLENS_DATA_DIR "/ict-face", m_dir.path().toStdString(), {32, {}, false}));
    QString error;
    QVERIFY2(startViewer(&error), qPrintable(error));
  }

  void theJawSliderOpensTheMouth() {
    QVERIFY2(m_ui.openAndWait(path("sample-orl-bundle")), qPrintable(m_app->lastError()));
    QCOMPARE(m_app->mode(), riglens::app::AppController::Mode::Character);
    QCOMPARE(m_character->rigBackend(), QString("orl"));
    QCOMPARE(m_character->channelMode(), QString("gui"));
    QCOMPARE(m_character->info().value("controls").toInt(), 52);
    const int jawTx = m_character->findChannel("CTRL_C_jaw.tx");
    QVERIFY(jawTx >= 0);
    m_character->setChannel(jawTx, -5.0);  // clamped to the widget's range
    QCOMPARE(m_character->channelValue(jawTx), -1.0);
    m_character->resetChannels();
    const QImage before = m_ui.settledGrab();
    QVERIFY2(m_character->renderError().isEmpty(), qPrintable(m_character->renderError()));
    auto* slider = visibleItem("channel_CTRL_C_jaw.ty");
    QVERIFY(slider);
    m_ui.dragSlider(slider, 1.0);
    QTRY_VERIFY(m_character->channelValue(m_character->findChannel("CTRL_C_jaw.ty")) > 0.95);
    const QImage after = m_ui.settledGrab();
    after.save(test::outputPath("orl_jaw.png"));
    const int changed = test::differingPixels(before, after, m_ui.viewportRect());
    QVERIFY2(changed > 300, qPrintable(QString("only %1 pixels changed").arg(changed)));
    QVERIFY2(jawText().contains("turn (2"), qPrintable(jawText()));  // about 22 degrees
    QVERIFY(visibleItem("jointOutputs_FACIAL_C_Jaw"));
    // The Memory panel: the ORL pass's buffers (on lavapipe the deform runs on the CPU: its posed vertices
    // go up; on a GPU the CSR rows are listed too) and the pack held on the CPU.
    QTRY_VERIFY(!m_character->memoryReport().value("buffers").toList().isEmpty());
    QStringList names;
    for (const QVariant& b : m_character->memoryReport().value("buffers").toList())
      names << b.toMap().value("name").toString();
    QVERIFY2(names.contains("ORL posed vertices"), qPrintable(names.join(", ")));
    QVERIFY(m_character->memoryReport().value("packBytes").toLongLong() > 0);
    m_character->resetChannels();
  }

  void rawAndArkitMatchTheShell() {
    QVERIFY2(m_ui.openAndWait(path("sample-orl-bundle")), qPrintable(m_app->lastError()));
    // Raw mode: jawOpen 0.6 and smile left 0.5, as set.
    QVERIFY(m_character->setChannelMode("raw"));
    m_character->setChannel(m_character->findChannel("CTRL_expressions.jawOpen"), 0.6);
    m_character->setChannel(m_character->findChannel("CTRL_expressions.mouthCornerPullL"), 0.5);
    const QString rawText = jawText();
    const QJsonArray raw =
        cliJoints({"--raw"}, R"({"CTRL_expressions.jawOpen": 0.6, "CTRL_expressions.mouthCornerPullL": 0.5})");
    QCOMPARE(raw.size(), 36);
    QVERIFY2(rawText.contains(QString::number(raw[9 + 3].toDouble(), 'g', 4)), qPrintable(rawText));
    QVERIFY(m_character->frame().rawControls);
    // ARKit JawOpen 0.6 reaches CTRL_C_jaw.ty through the MetaHuman board: the same jaw as GUI jaw.ty = 0.6.
    QVERIFY(m_character->setChannelMode("arkit"));
    QCOMPARE(m_character->channels()->property("count").toInt(), 52);
    m_character->setChannel(m_character->findChannel("JawOpen"), 0.6);
    const QJsonArray gui = cliJoints({"--gui"}, R"({"CTRL_C_jaw.ty": 0.6})");
    QCOMPARE(gui.size(), 36);
    QVERIFY(!m_character->frame().rawControls);
    QVERIFY2(jawText().contains(QString::number(gui[9 + 3].toDouble(), 'g', 4)), qPrintable(jawText()));
    QCOMPARE_NEAR(gui[9 + 3].toDouble(), raw[9 + 3].toDouble(), tol::kFloatCoordinate);  // same jawOpen either way
    QVERIFY(m_character->setChannelMode("gui"));
  }

  void savedControlsRenderFromTheShell() {
    m_character->setChannel(m_character->findChannel("CTRL_C_jaw.ty"), 0.8);
    QVERIFY(m_character->saveControls(path("face.json")));
    m_character->resetChannels();
    QVERIFY2(m_character->loadControls(path("face.json")), qPrintable(m_app->lastError()));
    QCOMPARE_NEAR(m_character->channelValue(m_character->findChannel("CTRL_C_jaw.ty")), 0.8, tol::kFloatUnit);
    QProcess cli;
    cli.start(RIGLENS_CLI_EXE, {"render", path("sample-orl-bundle"), "--controls", path("face.json"), "--size", "64x64",
                                "--out", path("face.png")});
    QVERIFY(cli.waitForFinished(60000));
    QVERIFY2(cli.exitCode() == 0, cli.readAllStandardError().constData());
    QCOMPARE(QImage(path("face.png")).size(), QSize(64, 64));
  }

  // With decoders (the sample's head and eyes): the decoded character shows,
  // both branches decoded; a jaw control re-decodes with the control names'
  // vector and changes the picture; raw values cannot reach GUI-named
  // decoders and say so; the Memory panel lists the DNA's tables.
  void theDecodedBundleFollowsTheDnaControls() {
    const std::filesystem::path out = std::filesystem::path(m_dir.path().toStdString()) / "decoded";
    QVERIFY_OK(samples::writeSampleOrlBundle(RIGLENS_DATA_DIR "/ict-face", out,
                                             {32, std::filesystem::path(RIGLENS_TEST_DECODERS_DIR) / "orl", false}));
    QVERIFY2(m_ui.openAndWait(QString::fromStdString((out / "sample-orl-bundle").string())),
             qPrintable(m_app->lastError()));
    QCOMPARE(m_character->rigBackend(), QString("orl"));
    QTRY_VERIFY_WITH_TIMEOUT(m_character->decodeStats().value("decodes").toInt() >= 1, 20000);
    QVERIFY(m_character->decodedAvailable());
    QVERIFY(m_character->showDecoded());
    QVERIFY2(m_character->decodeError().isEmpty(), qPrintable(m_character->decodeError()));
    QStringList branches;
    for (const QVariant& b : m_character->decodeStats().value("branches").toList())
      branches << b.toMap().value("name").toString();
    QCOMPARE(branches, (QStringList{"head", "eyes"}));
    const QImage before = m_ui.settledGrab();
    const int decodes = m_character->decodeStats().value("decodes").toInt();
    m_character->setChannel(m_character->findChannel("CTRL_C_jaw.ty"), 1.0);
    QTRY_VERIFY_WITH_TIMEOUT(m_character->decodeStats().value("decodes").toInt() > decodes, 20000);
    QCOMPARE(m_character->decodeStats().value("pass").toString(), QString("full"));
    const QImage after = m_ui.settledGrab();
    after.save(test::outputPath("orl_decoded_jaw.png"));
    const int changed = test::differingPixels(before, after, m_ui.viewportRect());
    QVERIFY2(changed > 300, qPrintable(QString("only %1 pixels changed").arg(changed)));
    // Raw mode: the decoders take GUI names, so the banner says the preview shows raw values.
    QVERIFY(m_character->setChannelMode("raw"));
    m_character->setChannel(m_character->findChannel("CTRL_expressions.jawOpen"), 0.5);
    QVERIFY2(m_character->refusal().contains("GUI controls"), qPrintable(m_character->refusal()));
    QVERIFY(m_character->setChannelMode("gui"));
    // The DNA's tables on the CPU.
    QStringList matrices;
    for (const QVariant& m : m_character->dnaMatrices()) matrices << m.toMap().value("name").toString();
    QVERIFY2(matrices.contains("GUI to raw conditionals") && matrices.contains("PSD products"),
             qPrintable(matrices.join(", ")));
    QVERIFY(m_ui.find("dnaMatrix_0"));  // the Memory panel's rows
    m_character->resetChannels();
  }

  void cleanupTestCase() { m_ui.stop(); }
};

QTEST_MAIN(TestAppOrlCharacter)
#include "tst_app_orl_character.moc"
