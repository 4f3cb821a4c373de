// What the viewer opens besides voxel runs and models: a splat character (an
// .aosrig, an ORL pack, or a bundle folder whose rig is GNM or ORL) or a
// static 3DGS .ply scene. The app and the CLI reach these loaders through the
// reader table (core/open/), so both accept and refuse the same inputs with
// the same messages. CPU only; the GPU passes are engine/render's.
#pragma once

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "riglens/core/base/bounds.h"
#include "riglens/core/base/diagnostic.h"
#include "riglens/core/base/expected.h"
#include "riglens/core/character/aosrig.h"
#include "riglens/core/character/bundle.h"
#include "riglens/core/character/expressions.h"
#include "riglens/core/character/orl_character.h"
#include "riglens/core/splats/gaussian_ply.h"
#include "riglens/core/splats/splat_orientation.h"

namespace riglens::core {

enum class SceneKind { Character, Splats };

struct CharacterScene {
  SceneKind kind = SceneKind::Character;
  std::filesystem::path path;
  std::string title;  // the bundle's subject, else the file name
  // Character: a GNM pack, or an ORL character (pack + DNA); one of the two
  std::shared_ptr<const AosRigPack> pack;
  std::shared_ptr<const OrlCharacter> orl;
  ExpressionSpace expression;              // the bundle's, or the pack's GNM space (no ARKit map)
  double rigRangeLo = -3, rigRangeHi = 3;  // the controls' slider range (a bundle's rig_range)
  std::shared_ptr<const Bundle> bundle;    // a bundle folder's manifest, meshes and pack (null for a bare .aosrig)
  std::vector<BundleFile> files;           // a bundle's files (empty for a bare .aosrig)
  std::uintmax_t residentBytes = 0;        // bytes read and held (pack, manifest, meshes)
  Diagnostics problems;                    // a bundle's non-fatal findings
  // Splats
  std::shared_ptr<const GaussianCloud> cloud;
  SplatUp up = SplatUp::PlusY;  // how the cloud stands (core::defaultSplatUp at load; the viewer may flip it)
  // What a camera frames, in the scene's own coordinates: the lifted rest
  // pose, or the dense part of the cloud (core::denseCloudBounds).
  Bounds bounds;
};

// The loaders behind the reader table (core/open/asset_readers.h picks one
// by the path; openers go through it, loadCharacterScene there). Each
// refuses, naming the file, unreadable or malformed input:
Expected<CharacterScene> loadSplatScene(const std::filesystem::path& ply);  // a 3DGS .ply
// A bundle folder; refused when its rig backend is none.
Expected<CharacterScene> loadBundleScene(const std::filesystem::path& folder);
// An ORLPACK1 (any name); refused when its DNA does not match it.
Expected<CharacterScene> loadOrlPackScene(const std::filesystem::path& pack);
// An .aosrig; refused when its basis is not fp16 (the GPU path renders fp16
// GNM packs; the CPU commands take the others).
Expected<CharacterScene> loadAosrigScene(const std::filesystem::path& pack);

// Where the lifted rest pose lies (fitVertsTransform applied to the rig's
// rest pose): what a camera frames once per character, so expressions move
// inside it.
Expected<Bounds> characterRestBounds(const AosRigPack& pack);
// The same for a rig's neutral and its rest pose (any units: the fit scales).
Bounds fittedRestBounds(std::span<const float> neutral, std::span<const float> rest);

}  // namespace riglens::core
