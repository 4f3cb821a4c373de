// Every kind of file or folder RigLens opens, declared once, as F3D declares
// its readers (and fuzz/registry.cpp its fuzz targets): a name, how it is
// recognised (a sniff that scores the path and its first bytes; the highest
// score wins), which document it becomes, the extensions and MIME type the
// desktop and the file dialog use, and the fuzz target that covers its
// parser. The viewer, riglens-cli and RigLens.Quick3D open through it; the
// file dialog's filters, --help, the .desktop MimeType line and the
// shared-mime-info XML are generated from it (reader_listings.h).
//
// Adding a format: one loader in its domain, one row in asset_readers.cpp
// (CONTRIBUTING.md walks through it); tst_core_asset_readers fails until the
// row has a fuzz target, a MIME glob and a malformed-input case.
#pragma once

#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "riglens/core/base/expected.h"
#include "riglens/core/character/character_scene.h"
#include "riglens/core/rig/run_loader.h"

namespace riglens::core {

// What a reader makes: the first two open as a LoadedRun (the rig document),
// the next two as a CharacterScene; a DNA is read by inspect and `character
// evaluate` only (it holds a rig's behaviour, nothing to draw).
enum class AssetKind { Run, Model, Character, SplatScene, Dna };
const char* assetKindName(AssetKind kind);

// What a sniff sees: the path, whether it is a folder, its extension in lower
// case, and up to kSniffBytes of a file's start.
struct SniffInput {
  std::filesystem::path path;
  bool folder = false;
  std::string extension;
  std::vector<std::uint8_t> head;
  bool startsWith(std::string_view magic) const;
};
inline constexpr std::size_t kSniffBytes = 64;

// Scores for sniffs: a magic number beats a name, which beats an extension.
inline constexpr int kSniffMagic = 40, kSniffFolder = 30, kSniffName = 25, kSniffExtension = 20, kSniffFallback = 10;

struct AssetReader {
  std::string_view id;    // "glb": stable, for scripts (riglens-cli formats) and dispatch
  std::string_view name;  // "glTF binary"
  AssetKind kind;
  std::vector<std::string_view> patterns;     // file-name patterns: "*.glb", "rig.json"; none for a folder
  std::string_view mimeType;                  // "" for a folder
  bool ownMimeType = false;                   // defined by RigLens's shared-mime-info XML (not freedesktop.org's)
  std::string_view magic;                     // for the XML: the bytes a file starts with ("" when none)
  std::vector<std::string_view> globs;        // the MIME type's globs when not the patterns (rig.json, not *.json)
  std::string_view parentMimeType;            // the type it is a kind of, for the XML ("" for JSON's own rule)
  std::string_view fuzzTarget;                // fuzz/registry.cpp's target for its parser
  int (*sniff)(const SniffInput&) = nullptr;  // 0: not this reader's
  std::variant<Expected<LoadedRun> (*)(const std::filesystem::path&),
               Expected<CharacterScene> (*)(const std::filesystem::path&), std::monostate>
      open;  // by kind; a DNA has none
  bool viewable() const { return kind != AssetKind::Dna; }
  const std::vector<std::string_view>& mimeGlobs() const { return globs.empty() ? patterns : globs; }
};

std::span<const AssetReader> assetReaders();
const AssetReader* findReader(std::string_view id);
SniffInput sniffInput(const std::filesystem::path& path);
// The reader that claims `path` with the highest score, and that score
// (kSniffFallback: only by a generic extension, as any .json is a rig); a
// null reader and 0 when none does.
struct ReaderClaim {
  const AssetReader* reader = nullptr;
  int score = 0;
};
ReaderClaim claimReader(const std::filesystem::path& path);
// claimReader's reader.
const AssetReader* pickReader(const std::filesystem::path& path);
// The same, refusing a path that does not exist or that no reader claims,
// naming what RigLens opens.
Expected<const AssetReader*> readerFor(const std::filesystem::path& path);

// One opened asset: a run or model, or a character or splat scene.
using OpenedAsset = std::variant<LoadedRun, CharacterScene>;
Expected<OpenedAsset> openAsset(const std::filesystem::path& path);

// openAsset for callers that take one document kind: refused, naming the
// path and what it is, when the path opens as the other one.
Expected<LoadedRun> loadRun(const std::filesystem::path& path);
Expected<CharacterScene> loadCharacterScene(const std::filesystem::path& path);
// Whether the path opens as a CharacterScene (a character or a splat scene).
bool opensAsCharacterScene(const std::filesystem::path& path);

}  // namespace riglens::core
