// The malformed-input table of every parser, as the fuzzers see it: each
// file under tests/fuzz_regressions/<target>/ (an input a fuzz target found
// and libFuzzer minimised, or a case an issue reported) goes through its
// target's body (fuzz/fuzz_target.h: the loader, then everything that
// consumes what it loads) exactly as the fuzzer ran it. expected.json says
// what each must do: be refused with a message containing the given text, or
// load. Before its fix each of these crashed, read out of bounds, hung or
// asked for memory the file could not justify; here it must not, and the
// sanitizer build (tools/fuzz.sh) replays them too.
#include <QtTest/QTest>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>

#include "fuzz_target.h"

namespace fs = std::filesystem;

namespace {
const fs::path kCases = RIGLENS_SOURCE_DIR "/tests/fuzz_regressions";

nlohmann::json expectations() {
  std::ifstream in(kCases / "expected.json");
  return nlohmann::json::parse(in);
}
}  // namespace

class TestFuzzRegressions : public QObject {
  Q_OBJECT

 private slots:
  void everyCaseHasAnExpectation() {
    const auto table = expectations();
    std::set<std::string> listed;
    for (const auto& [key, value] : table.items()) listed.insert(key);
    for (const auto& entry : fs::recursive_directory_iterator(kCases)) {
      if (!entry.is_regular_file() || entry.path().filename() == "expected.json" || entry.path().extension() == ".md")
        continue;
      const std::string key = entry.path().lexically_relative(kCases).generic_string();
      QVERIFY2(listed.count(key), qPrintable(QString::fromStdString(key) + " has no entry in expected.json"));
      QVERIFY2(riglens::fuzz::findTarget(key.substr(0, key.find('/'))),
               qPrintable(QString::fromStdString(key) + ": no such fuzz target"));
    }
  }

  void replay_data() {
    QTest::addColumn<QString>("target");
    QTest::addColumn<QString>("file");
    QTest::addColumn<bool>("loads");
    QTest::addColumn<QString>("message");
    const auto table = expectations();
    for (const auto& [key, value] : table.items()) {
      const QString k = QString::fromStdString(key);
      QTest::newRow(key.c_str()) << k.section('/', 0, 0) << k << value["loads"].get<bool>()
                                 << QString::fromStdString(value.value("message", std::string()));
    }
  }

  void replay() {
    QFETCH(QString, target);
    QFETCH(QString, file);
    QFETCH(bool, loads);
    QFETCH(QString, message);
    std::ifstream in(kCases / file.toStdString(), std::ios::binary);
    QVERIFY2(in, qPrintable(file + " is missing"));
    const std::vector<std::uint8_t> bytes((std::istreambuf_iterator<char>(in)), {});
    const auto* body = riglens::fuzz::findTarget(target.toStdString());
    QVERIFY(body);
    const riglens::fuzz::Outcome outcome = body->body(bytes);
    QVERIFY2(outcome.loaded == loads, qPrintable(QString::fromStdString(outcome.message)));
    if (!loads)
      QVERIFY2(QString::fromStdString(outcome.message).contains(message),
               qPrintable(QString::fromStdString(outcome.message)));
  }
};

QTEST_GUILESS_MAIN(TestFuzzRegressions)
#include "tst_core_fuzz_regressions.moc"
