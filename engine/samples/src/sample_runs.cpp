#include "riglens/samples/sample_runs.h"

#include <cmath>
#include <numbers>

#include "riglens/core/base/file_io.h"
#include "riglens/core/base/json_reader.h"
#include "riglens/core/gltf/glb_writer.h"
#include "riglens/samples/voxel_meshers.h"
#include "riglens/samples/voxel_volume.h"

namespace riglens::samples {

using namespace core;  // the samples are built from the core types throughout
namespace {

using nlohmann::json;
constexpr double kPi = std::numbers::pi;

// The meshing binaries' four surface characters and the suffix of their samples.
enum class Surface { Cubes, Smooth, MarchingCubes, DualContouring };

const char* suffix(Surface surface) {
  switch (surface) {
    case Surface::Cubes: return "cubes";
    case Surface::Smooth: return "smooth";
    case Surface::MarchingCubes: return "mc";
    case Surface::DualContouring: return "dc";
  }
  return "";
}
constexpr Surface kSurfaces[] = {Surface::Cubes, Surface::Smooth, Surface::MarchingCubes, Surface::DualContouring};

PartMesh meshPart(const VoxelVolume& volume, Surface surface) {
  if (volume.filledCount() == 0) return {};
  switch (surface) {
    case Surface::Cubes: return meshCubes(volume);
    case Surface::Smooth: return meshSurfaceNets(volume);
    case Surface::MarchingCubes: return meshMarchingCubes(volume);
    case Surface::DualContouring: return meshDualContouring(volume);
  }
  return {};
}

json part(const char* name, const char* parent, std::array<int, 3> pivot) {
  json p = {{"name", name}, {"pivot", pivot}};
  if (parent) p["parent"] = parent;
  return p;
}

json joint(const char* name, const char* partName, const char* kind, const char* axis, std::array<int, 3> pivot,
           double min, double max, double rest, const char* drive) {
  return {{"name", name}, {"part", partName}, {"kind", kind}, {"axis", axis},  {"pivot", pivot},
          {"min", min},   {"max", max},       {"rest", rest}, {"drive", drive}};
}

json key(double t, double v, const char* interp) {
  return {{"tMs", t}, {"value", v}, {"interp", interp}};
}

// ---------------------------------------------------------------- tank
SampleRun tank(Surface surface) {
  constexpr int kX = 32, kY = 24, kZ = 44;
  constexpr std::uint32_t kOlive = 0x5b6b2f, kDark = 0x2e3326, kTurret = 0x6f7f3a, kSteel = 0x3c4148, kRadar = 0xd9c27a,
                          kLight = 0xf0e6a0;
  VoxelVolume hull(kX, kY, kZ), turret(kX, kY, kZ), barrel(kX, kY, kZ), radar(kX, kY, kZ), muzzle(kX, kY, kZ);
  hull.fillBox({5, 3, 4}, {27, 9, 38}, kOlive);
  hull.fillBox({2, 0, 5}, {6, 6, 37}, kDark);      // left tread
  hull.fillBox({26, 0, 5}, {30, 6, 37}, kDark);    // right tread
  hull.fillBox({13, 6, 36}, {19, 8, 38}, kLight);  // headlights strip at the front (+z)
  turret.fillBox({10, 9, 12}, {22, 14, 26}, kTurret);
  turret.fillBox({12, 14, 14}, {20, 15, 22}, kTurret);
  barrel.fillBox({15, 10, 26}, {17, 12, 40}, kSteel);
  radar.fillBox({12, 15, 15}, {14, 18, 17}, kSteel);
  radar.fillBox({10, 18, 15}, {16, 19, 17}, kRadar);

  SampleRun run;
  run.name = std::string("tank-") + suffix(surface);
  run.rig["parts"] = {part("hull", nullptr, {16, 0, 21}), part("turret", "hull", {16, 9, 19}),
                      part("barrel", "turret", {16, 11, 26}), part("muzzle", "barrel", {16, 11, 40}),
                      part("radar", "turret", {13, 15, 16})};
  run.rig["joints"] = {
      joint("turret_yaw", "turret", "rotation", "y", {16, 9, 19}, -kPi, kPi, 0, "caller"),
      joint("gun_pitch", "barrel", "rotation", "x", {16, 11, 26}, -0.2, 0.6, 0, "caller"),
      joint("gun_recoil", "barrel", "translation", "z", {16, 11, 26}, -3, 0, 0, "auto"),
      joint("radar_spin", "radar", "rotation", "y", {13, 15, 16}, 0, 2 * kPi, 0, "auto"),
  };
  json fireRecoil = {key(0, 0, "ease-out"), key(60, -3, "bezier"), key(400, 0, "ease-in-out"), key(600, 0, "linear")};
  fireRecoil[1]["inHandle"] = {-20, 0};
  fireRecoil[1]["outHandle"] = {40, 0};
  json firePitch = {key(0, 0, "ease-in"), key(80, 0.12, "bezier"), key(600, 0, "constant")};
  run.rig["animations"] = {
      {{"name", "radar"},
       {"periodMs", 2000},
       {"looping", true},
       {"autoPlay", true},
       {"joints", {"radar_spin"}},
       {"tracks", {{{"joint", "radar_spin"}, {"keyframes", {key(0, 0, "linear"), key(2000, 2 * kPi, "linear")}}}}}},
      {{"name", "fire"},
       {"periodMs", 600},
       {"looping", false},
       {"autoPlay", false},
       {"joints", {"gun_recoil", "gun_pitch"}},
       {"tracks",
        {{{"joint", "gun_recoil"}, {"keyframes", fireRecoil}}, {{"joint", "gun_pitch"}, {"keyframes", firePitch}}}}},
  };
  run.meshes = {{"hull", meshPart(hull, surface)},
                {"turret", meshPart(turret, surface)},
                {"barrel", meshPart(barrel, surface)},
                {"muzzle", meshPart(muzzle, surface)},
                {"radar", meshPart(radar, surface)}};
  return run;
}

// ---------------------------------------------------------------- walker
SampleRun walker(Surface surface) {
  constexpr int kX = 28, kY = 40, kZ = 16;
  constexpr std::uint32_t kBody = 0x3d6fb6, kHead = 0xe8c39e, kEye = 0x1a1a1a, kLimb = 0x2f4f7f, kBoot = 0x4a3222;
  VoxelVolume body(kX, kY, kZ), head(kX, kY, kZ), armL(kX, kY, kZ), armR(kX, kY, kZ), legLU(kX, kY, kZ),
      legLL(kX, kY, kZ), legRU(kX, kY, kZ), legRL(kX, kY, kZ);
  body.fillBox({8, 18, 5}, {20, 30, 11}, kBody);
  head.fillEllipsoid({14, 34.5, 8}, {4.5, 4.5, 4.5}, kHead);
  head.fillBox({11, 35, 12}, {13, 37, 13}, kEye);
  head.fillBox({15, 35, 12}, {17, 37, 13}, kEye);
  armL.fillBox({20, 19, 6}, {23, 30, 10}, kLimb);
  armR.fillBox({5, 19, 6}, {8, 30, 10}, kLimb);
  legLU.fillBox({15, 10, 6}, {19, 18, 10}, kLimb);
  legLL.fillBox({15, 0, 6}, {19, 10, 10}, kLimb);
  legLL.fillBox({15, 0, 10}, {19, 2, 12}, kBoot);
  legRU.fillBox({9, 10, 6}, {13, 18, 10}, kLimb);
  legRL.fillBox({9, 0, 6}, {13, 10, 10}, kLimb);
  legRL.fillBox({9, 0, 10}, {13, 2, 12}, kBoot);

  SampleRun run;
  run.name = std::string("walker-") + suffix(surface);
  // leg_l_lower is declared before its parent on purpose: posing must not
  // depend on declaration order.
  run.rig["parts"] = {part("body", nullptr, {14, 18, 8}),       part("leg_l_lower", "leg_l_upper", {17, 10, 8}),
                      part("head", "body", {14, 30, 8}),        part("arm_l", "body", {21, 29, 8}),
                      part("arm_r", "body", {6, 29, 8}),        part("leg_l_upper", "body", {17, 18, 8}),
                      part("leg_r_upper", "body", {11, 18, 8}), part("leg_r_lower", "leg_r_upper", {11, 10, 8})};
  run.rig["joints"] = {
      joint("body_bob", "body", "translation", "y", {14, 18, 8}, -1, 1, 0, "auto"),
      joint("head_yaw", "head", "rotation", "y", {14, 30, 8}, -1.2, 1.2, 0, "caller"),
      joint("head_nod", "head", "rotation", "x", {14, 30, 8}, -0.4, 0.5, 0, "caller"),
      joint("shoulder_l", "arm_l", "rotation", "x", {21, 29, 8}, -1, 1, 0, "auto"),
      joint("shoulder_r", "arm_r", "rotation", "x", {6, 29, 8}, -1, 1, 0, "auto"),
      joint("hip_l", "leg_l_upper", "rotation", "x", {17, 18, 8}, -0.8, 0.8, 0, "auto"),
      joint("knee_l", "leg_l_lower", "rotation", "x", {17, 10, 8}, -1.2, 0, 0, "auto"),
      joint("hip_r", "leg_r_upper", "rotation", "x", {11, 18, 8}, -0.8, 0.8, 0, "auto"),
      joint("knee_r", "leg_r_lower", "rotation", "x", {11, 10, 8}, -1.2, 0, 0, "auto"),
  };
  const auto swing = [](double amplitude, double phaseMs) {
    // A sine-like swing through bezier keys with auto tangents, period 1000 ms.
    json keys = json::array();
    for (int i = 0; i < 4; ++i) {
      const double t = std::fmod(phaseMs + i * 250.0, 1000.0);
      const double v = (i % 2 == 0) ? 0.0 : (i == 1 ? amplitude : -amplitude);
      keys.push_back(key(t, v, "bezier"));
    }
    std::sort(keys.begin(), keys.end(), [](const json& a, const json& b) { return a["tMs"] < b["tMs"]; });
    return keys;
  };
  json kneeL = {key(0, 0, "ease-in-out"), key(250, -0.9, "ease-in-out"), key(500, 0, "linear")};
  json kneeR = {key(0, 0, "linear"), key(500, 0, "ease-in-out"), key(750, -0.9, "ease-in-out")};
  json bob = {key(0, 0, "bezier"), key(250, 0.5, "bezier"), key(500, 0, "bezier"), key(750, 0.5, "bezier")};
  run.rig["animations"] = {
      {{"name", "breathe"},
       {"periodMs", 3000},
       {"looping", true},
       {"autoPlay", true},
       {"joints", {"shoulder_l", "shoulder_r"}},
       {"tracks",
        {{{"joint", "shoulder_l"}, {"keyframes", {key(0, 0, "bezier"), key(1500, 0.08, "bezier")}}},
         {{"joint", "shoulder_r"}, {"keyframes", {key(0, 0, "bezier"), key(1500, 0.08, "bezier")}}}}}},
      {{"name", "walk"},
       {"periodMs", 1000},
       {"looping", true},
       {"autoPlay", false},
       {"joints", {"hip_l", "hip_r", "knee_l", "knee_r", "shoulder_l", "shoulder_r", "body_bob"}},
       {"tracks",
        {{{"joint", "hip_l"}, {"keyframes", swing(0.6, 0)}},
         {{"joint", "hip_r"}, {"keyframes", swing(0.6, 500)}},
         {{"joint", "knee_l"}, {"keyframes", kneeL}},
         {{"joint", "knee_r"}, {"keyframes", kneeR}},
         {{"joint", "shoulder_l"}, {"keyframes", swing(0.5, 500)}},
         {{"joint", "shoulder_r"}, {"keyframes", swing(0.5, 0)}},
         {{"joint", "body_bob"}, {"keyframes", bob}}}}},
  };
  run.meshes = {{"body", meshPart(body, surface)},         {"leg_l_lower", meshPart(legLL, surface)},
                {"head", meshPart(head, surface)},         {"arm_l", meshPart(armL, surface)},
                {"arm_r", meshPart(armR, surface)},        {"leg_l_upper", meshPart(legLU, surface)},
                {"leg_r_upper", meshPart(legRU, surface)}, {"leg_r_lower", meshPart(legRL, surface)}};
  return run;
}

// A side^3 block of voxels of `color`, 45% filled where an integer hash of
// the voxel and the block's `seed` says so (a deterministic sponge).
VoxelVolume spongeBlock(int side, int seed, std::uint32_t color) {
  VoxelVolume block(side, side, side);
  for (int z = 0; z < side; ++z)
    for (int y = 0; y < side; ++y)
      for (int x = 0; x < side; ++x) {
        std::uint32_t h = static_cast<std::uint32_t>(x * 73856093) ^ static_cast<std::uint32_t>(y * 19349663) ^
                          static_cast<std::uint32_t>(z * 83492791) ^ static_cast<std::uint32_t>(seed * 2654435761u);
        h ^= h >> 13;
        h *= 0x5bd1e995u;
        h ^= h >> 15;
        if (h % 100 < 45) block.set(x, y, z, color);
      }
  return block;
}

// ---------------------------------------------------------------- large
// 64 parts, each a 24^3 block of voxels filled where an integer hash says so
// (a deterministic sponge: many exposed faces), chained row by row so posing
// walks a deep hierarchy; every part has a caller yaw.
SampleRun large() {
  constexpr int kSide = 24, kGrid = 8, kGap = 4;
  constexpr int kExtent = kGrid * (kSide + kGap);
  SampleRun run;
  run.name = "large";
  run.rig["parts"] = json::array();
  run.rig["joints"] = json::array();
  json spinKeys = {key(0, 0, "linear"), key(4000, 2 * kPi, "linear")};
  json spinTracks = json::array();
  for (int i = 0; i < kGrid * kGrid; ++i) {
    const int gx = i % kGrid, gz = i / kGrid;
    const int x0 = gx * (kSide + kGap), z0 = gz * (kSide + kGap);
    // Each part is sculpted in place in the shared volume; a dense volume of
    // the whole extent per part would be 64 x 7 MB, so each part uses a
    // volume of its own block and is shifted into place after meshing.
    const std::uint32_t color = 0x404040u + static_cast<std::uint32_t>((gx * 23) << 16 | (gz * 23) << 8 | 0x60);
    const VoxelVolume block = spongeBlock(kSide, i, color);
    PartMesh mesh = meshCubes(block);
    for (std::size_t v = 0; v < mesh.vertexCount(); ++v) {
      mesh.positions[v * 3] += float(x0);
      mesh.positions[v * 3 + 2] += float(z0);
    }
    const std::string name = "block_" + std::to_string(i);
    const std::array<int, 3> pivot{x0 + kSide / 2, 0, z0 + kSide / 2};
    json p = {{"name", name}, {"pivot", pivot}};
    if (gx > 0)
      p["parent"] = "block_" + std::to_string(i - 1);
    else if (gz > 0)
      p["parent"] = "block_" + std::to_string(i - kGrid);
    run.rig["parts"].push_back(p);
    run.rig["joints"].push_back({{"name", name + "_yaw"},
                                 {"part", name},
                                 {"kind", "rotation"},
                                 {"axis", "y"},
                                 {"pivot", pivot},
                                 {"min", -kPi},
                                 {"max", kPi},
                                 {"rest", 0},
                                 {"drive", "caller"}});
    run.rig["joints"].push_back({{"name", name + "_spin"},
                                 {"part", name},
                                 {"kind", "rotation"},
                                 {"axis", "y"},
                                 {"pivot", pivot},
                                 {"min", 0},
                                 {"max", 2 * kPi},
                                 {"rest", 0},
                                 {"drive", "auto"}});
    spinTracks.push_back({{"joint", name + "_spin"}, {"keyframes", spinKeys}});
    run.meshes.emplace_back(name, std::move(mesh));
  }
  (void)kExtent;
  // A playable with eased Bezier motion on every fourth block's yaw, and a
  // one-shot with constant steps: the exporter's three curve kinds.
  json waveTracks = json::array(), stepTracks = json::array();
  for (int i = 0; i < kGrid * kGrid; i += 4) {
    const std::string yaw = "block_" + std::to_string(i) + "_yaw";
    const double amplitude = 0.3 + 0.01 * i;
    waveTracks.push_back({{"joint", yaw},
                          {"keyframes",
                           {key(0, 0, "bezier"), key(500, amplitude, "ease-in-out"), key(1000, -amplitude, "bezier"),
                            key(1500, 0, "linear")}}});
    stepTracks.push_back(
        {{"joint", yaw},
         {"keyframes",
          {key(0, 0, "constant"), key(250, 0.5, "constant"), key(500, 1.0, "constant"), key(750, 0, "constant")}}});
  }
  run.rig["animations"] = {
      {{"name", "spin"}, {"periodMs", 4000}, {"looping", true}, {"autoPlay", true}, {"tracks", spinTracks}},
      {{"name", "wave"}, {"periodMs", 2000}, {"looping", true}, {"autoPlay", false}, {"tracks", waveTracks}},
      {{"name", "steps"}, {"periodMs", 1000}, {"looping", false}, {"autoPlay", false}, {"tracks", stepTracks}}};
  return run;
}

}  // namespace

std::vector<std::string> bundledSampleNames() {
  std::vector<std::string> names;
  for (const char* model : {"tank", "walker"})
    for (Surface surface : kSurfaces) names.push_back(std::string(model) + "-" + suffix(surface));
  return names;
}

Expected<SampleRun> makeSampleRun(std::string_view name) {
  for (Surface surface : kSurfaces) {
    if (name == std::string("tank-") + suffix(surface)) return tank(surface);
    if (name == std::string("walker-") + suffix(surface)) return walker(surface);
  }
  if (name == "large") return large();
  std::string known;
  for (const auto& bundled : bundledSampleNames()) known += bundled + ", ";
  return makeError(ErrorCode::Usage, "unknown sample '" + std::string(name) + "' (" + known + "large)");
}

Expected<void> writeSampleRun(const SampleRun& run, const std::filesystem::path& folder) {
  std::error_code ec;
  std::filesystem::create_directories(folder / "meshes", ec);
  if (ec) return errorAt(ErrorCode::Io, (folder / "meshes").string(), "", "cannot create folder: " + ec.message());
  const std::string text = run.rig.dump(2) + "\n";
  if (auto ok =
          writeFileAtomically(folder / "rig.json", {reinterpret_cast<const std::uint8_t*>(text.data()), text.size()});
      !ok)
    return ok;
  for (const auto& [name, mesh] : run.meshes)
    if (auto ok = writePartGlb(mesh, folder / "meshes" / (name + ".glb")); !ok) return ok;
  return {};
}

}  // namespace riglens::samples
