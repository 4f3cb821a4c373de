// The DNA reader's refusals, one per malformed class, each naming the file,
// the layer and the byte offset; and what it accepts with a warning.
#include <QtTest/QTest>
#include <algorithm>

#include "dna_fixtures.h"
#include "test_checks.h"

using namespace riglens;
using core::Dna;
using test::baseDna;

namespace {

// A small but complete DNA: GUI->raw, a joint group, a blendshape.
Dna sampleDna() {
  Dna d = baseDna(1, 2, 1, 1);
  d.guiToRaw = {{0}, {1}, {0}, {1}, {1}, {0}};
  d.jointGroups = {{{1}, {0}, {4}, {2.0f}, {0}}};
  test::channelsRead(d, {1});
  return d;
}

std::vector<std::uint8_t> bytesOf(const Dna& d, samples::DnaWriteOptions options = {}) {
  auto bytes = samples::writeDna(d, options);
  return bytes ? *bytes : std::vector<std::uint8_t>{};
}

std::size_t find(const std::vector<std::uint8_t>& bytes, std::string_view text) {
  const auto it = std::search(bytes.begin(), bytes.end(), text.begin(), text.end());
  return std::size_t(it - bytes.begin());
}

void put32(std::vector<std::uint8_t>& b, std::size_t at, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) b[at + std::size_t(i)] = std::uint8_t(v >> (24 - 8 * i));
}

// The refusal of `bytes`: its message holds every one of `parts` and its byte offset is `offset`.
void expectRefused(const std::vector<std::uint8_t>& bytes, std::initializer_list<const char*> parts,
                   std::optional<std::uint64_t> offset = {}) {
  const auto read = core::readDna(bytes, "test.dna");
  QVERIFY2(!read, "the reader accepted a malformed DNA");
  const QString message = QString::fromStdString(read.error().message);
  QVERIFY2(message.startsWith("test.dna: byte "), qPrintable(message));
  for (const char* part : parts) QVERIFY2(message.contains(part), qPrintable(message + " lacks: " + part));
  QVERIFY(read.error().byteOffset.has_value());
  if (offset) QCOMPARE(*read.error().byteOffset, *offset);
}

constexpr std::size_t kIndexStart = 11;  // "DNA", generation, version, layer count

}  // namespace

class TestDnaReader : public QObject {
  Q_OBJECT

 private slots:
  void readsWhatItWrote() {
    const auto read = core::readDna(bytesOf(sampleDna()), "test.dna");
    QVERIFY_OK(read);
    QCOMPARE(read->guiControlNames, sampleDna().guiControlNames);
    QCOMPARE(read->layers, (std::vector<std::string>{"desc", "defn", "bhvr", "dsce"}));
    QVERIFY(read->warnings.empty());
    QVERIFY(core::looksLikeDna(bytesOf(sampleDna())));
  }

  void refusesWhatIsNotADna() {
    auto bytes = bytesOf(sampleDna());
    bytes[0] = 'X';
    expectRefused(bytes, {"not a DNA file"}, 0);
    bytes = bytesOf(sampleDna());
    bytes[4] = 3;  // generation 3
    expectRefused(bytes, {"generation 3 is not supported"}, 3);
    expectRefused({'D', 'N', 'A', 0}, {"header", "not a DNA file"});
  }

  void refusesALayerOutsideTheFile() {
    auto bytes = bytesOf(sampleDna());
    put32(bytes, kIndexStart + 8, 0xffffff00u);  // desc's offset
    expectRefused(bytes, {"layer 'desc'", "lies outside the file"}, kIndexStart);
    bytes = bytesOf(sampleDna());
    bytes.resize(bytes.size() - 6);  // the last layer (dsce) cut short
    expectRefused(bytes, {"layer 'dsce'", "lies outside the file"}, kIndexStart + 3 * 16);
  }

  void refusesATruncatedLayer() {
    auto bytes = bytesOf(sampleDna());
    put32(bytes, kIndexStart + 16 + 12, 10);  // defn's size: 10 bytes, far less than it holds
    expectRefused(bytes, {"defn", "past the layer's end"});
  }

  void refusesACountPastTheBytes() {
    auto bytes = bytesOf(sampleDna());
    const std::size_t name = find(bytes, "CTRL_g0.ty");
    put32(bytes, name - 4, 0x7fffffffu);  // the name's length
    expectRefused(bytes, {"defn: guiControlNames", "2147483647 elements run past the layer's end"}, name - 4);
  }

  void refusesAnIndexOutsideItsTable() {
    Dna d = sampleDna();
    d.jointGroups[0].outputs = {99};  // one joint has 9 attributes
    const auto bytes = bytesOf(d);
    const auto read = core::readDna(bytes, "test.dna");
    QVERIFY(!read);
    QVERIFY2(QString::fromStdString(read.error().message)
                 .contains("bhvr: joints.jointGroups.outputIndices: index 99 is outside the 9 joint attributes"),
             read.error().message.c_str());
    const std::size_t at = std::size_t(*read.error().byteOffset);
    QCOMPARE((bytes[at] << 8) | bytes[at + 1], 99);  // the offset is the element's own
    d = sampleDna();
    d.blendShapeOutputs = {1};
    expectRefused(bytesOf(d), {"bhvr: blendShapeChannels.outputIndices: index 1 is outside the 1 channels"});
    d = sampleDna();
    d.guiToRaw.outputs = {2};
    expectRefused(bytesOf(d), {"controls.conditionals: index 2 is outside the 2 raw controls"});
    d = sampleDna();
    d.jointGroups[0].values = {1.0f, 2.0f};
    expectRefused(bytesOf(d), {"joint group 0 holds 2 values for 1 rows x 1 columns"});
  }

  void refusesMachineLearnedControlsByName() {
    expectRefused(bytesOf(sampleDna(), {8, {}, 3}), {"mlbh", "declares 3 ML controls"});
    // An mlbh without controls changes nothing.
    QVERIFY_OK(core::readDna(bytesOf(sampleDna(), {8, {}, 0}), "test.dna"));
  }

  void readsTheSectionedGeneration() {
    auto bytes = bytesOf(sampleDna(), {1, {}, 0});
    const auto read = core::readDna(bytes, "test.dna");
    QVERIFY_OK(read);
    QCOMPARE(read->version, std::uint16_t(1));
    put32(bytes, 7 + 4, std::uint32_t(bytes.size() + 10));  // the definition's offset
    expectRefused(bytes, {"section defn at byte", "lies outside the file"}, 11);
    bytes = bytesOf(sampleDna(), {1, {}, 0});
    bytes.resize(bytes.size() - 3);  // no "AND": accepted, with a warning
    const auto untrailed = core::readDna(bytes, "test.dna");
    QVERIFY_OK(untrailed);
    QCOMPARE(untrailed->warnings.size(), std::size_t(1));
  }
};

QTEST_APPLESS_MAIN(TestDnaReader)
#include "tst_core_dna_reader.moc"
