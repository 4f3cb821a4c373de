// The review's page in a real browser: Debian's Chromium, headless, driven
// by puppeteer-core (review_page.mjs), opens a report from disk, searches,
// filters, sorts and plays an item's video, with no console errors and
// nothing fetched that failed.
#include <QtCore/QDir>
#include <QtCore/QFile>
#include <QtCore/QTemporaryDir>
#include <QtTest/QTest>

#include "interop_clients.h"
#include "run_program.h"
#include "test_paths.h"

using riglens::test::runProgram;

namespace {
const QString kCli = QStringLiteral(RIGLENS_CLI_EXE);
// The review's videos: --frames 12 at --fps 24 last half a second; a browser
// reads the duration from the container, to its time base.
constexpr double kDurationSeconds = 0.5, kDurationSlack = 0.01;
}  // namespace

class TestInteropReviewPage : public QObject {
  Q_OBJECT
 private slots:
  void pageWorksInChromium() {
    QTemporaryDir dir;
    const QString in = dir.filePath("in"), out = dir.filePath("report");
    QVERIFY(runProgram(
                kCli, {"samples", "--out", in, "--name", "walker-cubes", "--name", "tank-cubes", "--name", "gaussians"})
                .exitCode == 0);
    QVERIFY(QDir().mkpath(in + "/broken"));
    QFile broken(in + "/broken/rig.json");
    QVERIFY(broken.open(QIODevice::WriteOnly));
    broken.write("{\"parts\": [\"</script><b>not markup</b>\"]}");  // a name that must stay text
    broken.close();
    // The renders choose their platform (vkkhrdisplay), not this test's offscreen one.
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove("QT_QPA_PLATFORM");
    const auto review = runProgram(
        kCli, {"review", in, "--out", out, "--size", "320x180", "--frames", "12", "--fps", "24", "--jobs", "2"}, env);
    QVERIFY2(review.exitCode == 0, qPrintable(review.err));

    std::string error;
    const QString screenshot = riglens::test::outputPath("review-page.png");
    const auto seen = riglens::test::browseReviewPage(out.toStdString(), screenshot.toStdString(), &error);
    QVERIFY2(seen, error.c_str());
    const auto& s = *seen;
    QVERIFY2(s["consoleErrors"].empty() && s["pageErrors"].empty() && s["failedRequests"].empty(), s.dump().c_str());
    QCOMPARE(s["all"].size(), std::size_t(4));
    QVERIFY2(s["summary"].get<std::string>().find("4 items, 1 failed") != std::string::npos, s.dump().c_str());
    QCOMPARE(s["searched"].size(), std::size_t(1));
    QCOMPARE(s["searched"][0]["name"].get<std::string>(), std::string("walker-cubes"));
    QCOMPARE(s["failed"].size(), std::size_t(1));
    QCOMPARE(s["failed"][0]["name"].get<std::string>(), std::string("broken"));
    QCOMPARE(s["splats"].size(), std::size_t(1));
    QCOMPARE(s["failedFirst"][0]["name"].get<std::string>(), std::string("broken"));
    QCOMPARE(s["videosBeforePlay"].get<int>(), 0);  // posters only until a video is asked for
    const auto& video = s["video"];
    QVERIFY2(video["error"].is_null() && video["readyState"].get<int>() >= 3, video.dump().c_str());
    QVERIFY2(std::abs(video["duration"].get<double>() - kDurationSeconds) <= kDurationSlack, video.dump().c_str());
    QCOMPARE(video["width"].get<int>(), 320);
    QCOMPARE(video["height"].get<int>(), 180);
    QVERIFY2(video["currentTime"].get<double>() > 0, "the video did not play");
  }
};

QTEST_GUILESS_MAIN(TestInteropReviewPage)
#include "tst_interop_review_page.moc"
