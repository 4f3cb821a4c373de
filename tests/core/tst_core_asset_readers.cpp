// The reader table (core/open/asset_readers.h): every row has a fuzz target
// in fuzz/registry.cpp, a MIME glob for each of its patterns (the XML RigLens
// installs, or a freedesktop.org type listed on the .desktop line) and a
// malformed input here that it refuses naming the file; picking follows the
// scores (magic over name over extension); the listings come from the rows.
// A new row fails this test until it has all three.
#include <QtTest/QTest>
#include <filesystem>
#include <map>

#include "fuzz_target.h"
#include "riglens/core/base/file_io.h"
#include "riglens/core/dna/dna_reader.h"
#include "riglens/core/open/asset_readers.h"
#include "riglens/core/open/reader_listings.h"
#include "test_checks.h"

using namespace riglens;
using namespace riglens::core;
namespace fs = std::filesystem;

namespace {

// One malformed input per reader: a file (or a folder holding one), what the
// refusal must say besides the file's name.
struct Malformed {
  std::string file;  // relative; "folder/file" makes a folder
  std::string bytes;
  std::string says;
  bool openFolder = false;  // open the folder, not the file
};

const std::map<std::string, Malformed>& malformedInputs() {
  using namespace std::string_literals;
  static const std::map<std::string, Malformed> rows{
      {"run-folder", {"run/rig.json", "{", "rig.json", true}},
      {"rig-json", {"rig.json", R"({"parts": 3})", "/parts: expected an array"}},
      {"glb", {"bad.glb", "glTF\x02\x00\x00\x00garbage"s, "truncated or padded"}},
      {"vrm", {"bad.vrm", "glTF\x02\x00\x00\x00garbage"s, "truncated or padded"}},
      {"gltf", {"bad.gltf", "{ not json", "not valid JSON"}},
      {"obj", {"bad.obj", "\x00\x01\x02\x03garbage\xff"s, "Assimp cannot read it"}},
      {"stl", {"bad.stl", "solid x\nfacet normal broken\n", "Assimp cannot read it"}},
      {"fbx", {"bad.fbx", "Kaydara FBX Binary  \x00\x1a\x00garbage"s, "Assimp cannot read it"}},
      {"dae", {"bad.dae", "<COLLADA><broken", "Assimp cannot read it"}},
      {"ply-mesh",
       {"mesh.ply",
        "ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty float y\nproperty float z\n"
        "element face 1\nproperty list uchar int vertex_indices\nend_header\n0 0 0\n",
        "Assimp"}},
      {"ply-splats",
       {"splats.ply", "ply\nformat binary_little_endian 1.0\nelement vertex 10\nproperty float x\nend_header\n",
        "missing property y"}},
      {"bundle", {"bundle/scene.json", "{", "scene.json", true}},
      {"aosrig", {"bad.aosrig", "AOSRIG01\x01\x02"s, "too short"}},
      {"orl-pack", {"orl_pack.bin", "ORLPACK1\x01\x02\x03\x04"s, "too short"}},
      {"dna", {"bad.dna", "DNA\x00\x02\x00\x08garbage"s, "bad.dna"}},
  };
  return rows;
}

}  // namespace

class TestAssetReaders : public QObject {
  Q_OBJECT
  QTemporaryDir m_dir;

  fs::path put(const std::string& relative, const std::string& bytes) {
    const fs::path path = fs::path(m_dir.path().toStdString()) / relative;
    fs::create_directories(path.parent_path());
    if (auto ok = writeFileAtomically(path, std::vector<std::uint8_t>(bytes.begin(), bytes.end())); !ok)
      qFatal("%s", ok.error().message.c_str());
    return path;
  }

 private slots:
  void everyReaderHasAFuzzTarget() {
    for (const AssetReader& r : assetReaders())
      QVERIFY2(fuzz::findTarget(r.fuzzTarget) != nullptr,
               qPrintable(QString("%1 names fuzz target '%2', which fuzz/registry.cpp lacks")
                              .arg(QString::fromUtf8(r.name.data(), int(r.name.size())))
                              .arg(QString::fromUtf8(r.fuzzTarget.data(), int(r.fuzzTarget.size())))));
  }

  void everyPatternHasAMimeGlob() {
    const std::string xml = sharedMimeInfoXml();
    const auto desktop = desktopMimeTypes();
    for (const AssetReader& r : assetReaders()) {
      const QString name = QString::fromUtf8(r.name.data(), int(r.name.size()));
      if (r.patterns.empty()) continue;  // a folder: no file type
      QVERIFY2(!r.mimeType.empty(), qPrintable(name + " has file patterns but no MIME type"));
      if (r.ownMimeType) {
        QVERIFY2(xml.find("<mime-type type=\"" + std::string(r.mimeType) + "\">") != std::string::npos,
                 qPrintable(name));
        for (auto glob : r.mimeGlobs())
          QVERIFY2(xml.find("pattern=\"" + std::string(glob) + "\"") != std::string::npos,
                   qPrintable(name + ": no glob for " + QString::fromUtf8(glob.data(), int(glob.size()))));
      }
      const bool listed = std::find(desktop.begin(), desktop.end(), r.mimeType) != desktop.end();
      QCOMPARE(listed, r.viewable());  // the .desktop file offers what the viewer opens, nothing else
    }
    // The generic JSON type stays freedesktop.org's: RigLens claims rig.json and run.json by name only.
    QVERIFY(xml.find("pattern=\"*.json\"") == std::string::npos);
  }

  void everyReaderRefusesItsMalformedInputNamingTheFile() {
    for (const AssetReader& r : assetReaders()) {
      const auto row = malformedInputs().find(std::string(r.id));
      QVERIFY2(row != malformedInputs().end(),
               qPrintable(QString("no malformed input for reader '%1'").arg(QString::fromUtf8(r.id.data()))));
      const Malformed& m = row->second;
      const fs::path file = put(std::string(r.id) + "/" + m.file, m.bytes);
      const fs::path path = m.openFolder ? file.parent_path() : file;
      const AssetReader* picked = pickReader(path);
      QVERIFY2(picked == &r, qPrintable(QString::fromStdString(path.string())));
      const std::string message = [&] {
        if (r.kind == AssetKind::Dna) {  // inspect and character evaluate read it
          auto bytes = readFileBytes(path);
          auto dna = bytes ? readDna(*bytes, path.string()) : Expected<Dna>(bytes.error());
          return dna ? std::string() : dna.error().message;
        }
        auto opened = openAsset(path);
        return opened ? std::string() : opened.error().message;
      }();
      QVERIFY2(!message.empty(), qPrintable(QString::fromStdString(path.string()) + " was accepted"));
      QVERIFY2(message.find(file.filename().string()) != std::string::npos && message.find(m.says) != std::string::npos,
               message.c_str());
    }
  }

  void magicBeatsNameBeatsExtension() {
    QCOMPARE(pickReader(put("pick/model.gltf", "glTF\x02\x00\x00\x00"))->id, std::string_view("glb"));
    QCOMPARE(pickReader(put("pick/pack.dat", "ORLPACK1...."))->id, std::string_view("orl-pack"));
    QCOMPARE(pickReader(put("pick/avatar.vrm", "glTF\x02\x00\x00\x00"))->id, std::string_view("vrm"));
    QCOMPARE(pickReader(put("pick/spec.json", "{}"))->id, std::string_view("rig-json"));
    // A folder with both a rig and a scene is a run (a bundle has no rig.json).
    put("both/rig.json", "{}");
    const fs::path both = put("both/scene.json", "{}").parent_path();
    QCOMPARE(pickReader(both)->id, std::string_view("run-folder"));
    QVERIFY(pickReader(put("pick/notes.txt", "hello")) == nullptr);
    auto refused = readerFor(fs::path(m_dir.path().toStdString()) / "pick/notes.txt");
    QVERIFY(!refused);
    QVERIFY2(refused.error().message.find("notes.txt") != std::string::npos &&
                 refused.error().message.find("glTF binary") != std::string::npos,
             refused.error().message.c_str());
    QVERIFY(!readerFor(fs::path(m_dir.path().toStdString()) / "missing.glb"));
    auto dna = openAsset(put("pick/behaviour.dna", "DNA\x00\x02"));
    QVERIFY(!dna);
    QVERIFY(dna.error().message.find("behaviour only") != std::string::npos);
  }

  void theListingsComeFromTheRows() {
    const auto filters = dialogNameFilters();
    QVERIFY(filters.size() >= 3);
    for (const AssetReader& r : assetReaders())
      for (auto p : r.patterns)
        QCOMPARE(filters.front().find(std::string(p)) != std::string::npos, r.viewable() || p != "*.dna");
    QCOMPARE(filters.back(), std::string("All files (*)"));
    QVERIFY(openableSentence().find("ORL character pack (orl_pack.bin)") != std::string::npos);
    QVERIFY(openableSentence().find("DNA") == std::string::npos);  // the viewer does not open a DNA alone
  }
};

QTEST_GUILESS_MAIN(TestAssetReaders)
#include "tst_core_asset_readers.moc"
