#include "riglens/samples/orl_sample.h"

#include <algorithm>
#include <cmath>
#include <glm/vec3.hpp>
#include <nlohmann/json.hpp>

#include "branch_mesh.h"
#include "orl_sample_tables.h"
#include "riglens/core/base/file_io.h"
#include "riglens/core/base/json_reader.h"
#include "riglens/core/character/orl_character.h"
#include "riglens/samples/character_sample.h"
#include "riglens/samples/dna_writer.h"

namespace riglens::samples {
namespace {

constexpr float kCentimetres = 100.0f;    // the GNM bake is in metres; ORL packs are in centimetres
constexpr float kEyeWeightShare = 0.5f;   // the lids follow the eyes' rotation at half strength
constexpr float kSparseDeltaCm = 0.002f;  // a blendshape target keeps vertices that move more than this
constexpr float kCorrectiveStrength = 0.5f;
constexpr int kEyeUvRes = 32;  // the eyes' UV maps: two small spheres need few texels

// Per vertex, everything the split interpolates: position (m), uv, jaw and eye
// weights, then the E expression deltas (m).
struct VertexRows {
  std::size_t width = 0;
  std::vector<float> rows;
  float* at(std::size_t v) { return rows.data() + v * width; }
};

VertexRows vertexRows(const GnmBake& b) {
  const std::size_t V = b.vertexCount, E = b.coeffCount;
  VertexRows r{8 + 3 * E, {}};
  r.rows.resize(V * r.width);
  for (std::size_t v = 0; v < V; ++v) {
    float* row = r.at(v);
    std::copy_n(&b.neutral[v * 3], 3, row);
    row[3] = b.uv[v * 2], row[4] = b.uv[v * 2 + 1];
    row[5] = b.skinWeight[v * 4 + 1];  // the bake's jaw weight
    row[6] = b.eyeWeights[v], row[7] = b.eyeWeights[V + v];
    std::copy_n(&b.basis[v * E * 3], E * 3, row + 8);
  }
  return r;
}

// Splits the first triangles at their centroids until there are `target`
// vertices: each split adds one vertex (the mean of its corners) and turns
// one triangle into three.
void splitToVertexCount(VertexRows& r, std::vector<std::uint32_t>& faces, std::size_t target) {
  std::size_t V = r.rows.size() / r.width;
  const std::size_t splits = target - V, triangles = faces.size() / 3;
  r.rows.resize(target * r.width);
  for (std::size_t t = 0; t < splits && t < triangles; ++t, ++V) {
    const std::uint32_t a = faces[t * 3], b = faces[t * 3 + 1], c = faces[t * 3 + 2], m = std::uint32_t(V);
    for (std::size_t k = 0; k < r.width; ++k) r.at(V)[k] = (r.at(a)[k] + r.at(b)[k] + r.at(c)[k]) / 3.0f;
    faces[t * 3 + 2] = m;  // (a, b, m), then (b, c, m), (c, a, m): the winding kept
    faces.insert(faces.end(), {b, c, m, c, a, m});
  }
}

std::array<float, 16> inverseTranslation(const float* t) {
  return {1, 0, 0, -t[0], 0, 1, 0, -t[1], 0, 0, 1, -t[2], 0, 0, 0, 1};
}

// Joints (root, jaw, eyes) from the bake's rest worlds (head, jaw, eye_l, eye_r), and skin weights.
void addSkeleton(const GnmBake& b, VertexRows& r, std::size_t V, OrlPackParts& p) {
  p.jointNames = {"FACIAL_C_FacialRoot", "FACIAL_C_Jaw", "FACIAL_L_Eye", "FACIAL_R_Eye"};
  p.jointParents = {0, 0, 0, 0};
  std::array<std::array<float, 3>, 4> world;
  for (std::size_t j = 0; j < 4; ++j)
    for (int k = 0; k < 3; ++k)
      world[j][std::size_t(k)] = b.restWorld[(j + 1) * 16 + std::size_t(k) * 4 + 3] * kCentimetres;
  for (std::size_t j = 0; j < 4; ++j) {
    for (int k = 0; k < 3; ++k)
      p.jointNeutral.push_back(j == 0 ? world[0][std::size_t(k)] : world[j][std::size_t(k)] - world[0][std::size_t(k)]);
    p.jointNeutral.insert(p.jointNeutral.end(), {0, 0, 0, 1, 1, 1});
    const auto inverse = inverseTranslation(world[j].data());
    p.inverseBind.insert(p.inverseBind.end(), inverse.begin(), inverse.end());
  }
  p.maxInfluence = 4;
  for (std::size_t v = 0; v < V; ++v) {
    const float jaw = r.at(v)[5], eyeL = kEyeWeightShare * r.at(v)[6], eyeR = kEyeWeightShare * r.at(v)[7];
    const float root = std::max(0.0f, 1.0f - jaw - eyeL - eyeR);
    p.skinIndex.insert(p.skinIndex.end(), {0, 1, 2, 3});
    p.skinWeight.insert(p.skinWeight.end(), {root, jaw, eyeL, eyeR});
  }
}

OrlPackParts::Target sparseTarget(VertexRows& r, std::size_t V, int channel, std::size_t column, float strength) {
  OrlPackParts::Target t{channel, {}, {}};
  for (std::size_t v = 0; v < V; ++v) {
    const float* d = r.at(v) + 8 + column * 3;
    if (std::max({std::abs(d[0]), std::abs(d[1]), std::abs(d[2])}) * kCentimetres * strength <= kSparseDeltaCm)
      continue;
    t.vertices.push_back(std::uint16_t(v));  // V = 24,049 fits u16
    for (int k = 0; k < 3; ++k) t.deltas.push_back(d[k] * kCentimetres * strength);
  }
  return t;
}

// The eyes branch (a shell: CHARACTER.md section 3): a UV sphere of
// kEyeRadiusCm around each eye joint's rest position, the left eye on the
// left half of the UV square.
struct EyeMesh {
  std::vector<std::uint32_t> faces;
  std::vector<float> uv, neutral;
};
constexpr float kEyeRadiusCm = 1.2f;  // an adult eyeball is about 24 mm across
EyeMesh eyeSpheres(const core::OrlPack& pack) {
  constexpr int kRings = 10, kSegments = 16;
  constexpr float kPi = 3.14159265358979f;
  EyeMesh m;
  const auto rest = core::orlJointWorlds(pack, {});
  int side = 0;
  for (const char* joint : {"FACIAL_L_Eye", "FACIAL_R_Eye"}) {
    const auto it = std::find(pack.jointNames.begin(), pack.jointNames.end(), joint);
    const glm::dvec3 centre(rest[std::size_t(it - pack.jointNames.begin())][3]);
    const auto base = std::uint32_t(m.neutral.size() / 3);
    for (int r = 0; r <= kRings; ++r)
      for (int c = 0; c <= kSegments; ++c) {
        const float theta = kPi * float(r) / kRings, phi = 2.0f * kPi * float(c) / kSegments;
        m.neutral.push_back(float(centre.x) + kEyeRadiusCm * std::sin(theta) * std::sin(phi));
        m.neutral.push_back(float(centre.y) + kEyeRadiusCm * std::cos(theta));
        m.neutral.push_back(float(centre.z) + kEyeRadiusCm * std::sin(theta) * std::cos(phi));
        m.uv.push_back((float(side) + float(c) / kSegments) * 0.5f);
        m.uv.push_back(float(r) / kRings);
      }
    for (int r = 0; r < kRings; ++r)
      for (int c = 0; c < kSegments; ++c) {
        const std::uint32_t a = base + std::uint32_t(r * (kSegments + 1) + c), b = a + kSegments + 1;
        m.faces.insert(m.faces.end(), {a, b, a + 1, a + 1, b, b + 1});
      }
    ++side;
  }
  return m;
}

}  // namespace

core::Expected<OrlSample> makeSampleOrl(const std::filesystem::path& ictFolder) {
  auto bake = makeSampleCharacter(ictFolder);
  if (!bake) return bake.error();
  if (bake->vertexCount > kOrlSkinVertexCount || bake->faces.size() / 3 < kOrlSkinVertexCount - bake->vertexCount)
    return core::makeError(core::ErrorCode::Invalid, "the ICT face cannot be split to 24,049 vertices");
  VertexRows rows = vertexRows(*bake);
  OrlSample s;
  s.faces = bake->faces;
  splitToVertexCount(rows, s.faces, kOrlSkinVertexCount);
  const std::size_t V = kOrlSkinVertexCount;
  OrlPackParts& p = s.pack;
  p.vertexCount = V;
  for (std::size_t v = 0; v < V; ++v) {
    for (int k = 0; k < 3; ++k) p.neutral.push_back(rows.at(v)[k] * kCentimetres);
    s.uv.push_back(rows.at(v)[3]), s.uv.push_back(rows.at(v)[4]);
  }
  addSkeleton(*bake, rows, V, p);
  core::Dna dna = sampleOrlDna();
  for (std::size_t j = 0; j < 4; ++j)
    for (int k = 0; k < 3; ++k)
      dna.neutralTranslations[j * 3 + std::size_t(k)] = p.jointNeutral[j * 9 + std::size_t(k)];
  const auto column = [&](const std::string& shape) {
    return std::size_t(std::find(bake->coeffNames.begin(), bake->coeffNames.end(), shape) - bake->coeffNames.begin());
  };
  p.channelCount = dna.blendShapeCount();
  for (std::size_t c = 0; c < dna.blendShapeCount(); ++c) {
    const std::string& name = dna.blendShapeNames[c];
    const auto corrective = std::find_if(orlCorrectives().begin(), orlCorrectives().end(),
                                         [&](const OrlCorrective& k) { return name == k.channel; });
    const bool isCorrective = corrective != orlCorrectives().end();
    const std::size_t col = column(isCorrective ? corrective->shape : name);
    if (col >= bake->coeffCount) return core::makeError(core::ErrorCode::Invalid, "the ICT face has no shape " + name);
    p.targets.push_back(sparseTarget(rows, V, int(c), col, isCorrective ? kCorrectiveStrength : 1.0f));
  }
  auto bytes = writeDna(dna);
  if (!bytes) return bytes.error();
  p.dna = std::move(bytes).value();
  return s;
}

core::Expected<void> writeSampleOrlBundle(const std::filesystem::path& ictFolder, const std::filesystem::path& out,
                                          const SampleBundleOptions& options) {
  const int uvRes = options.uvRes;
  auto sample = makeSampleOrl(ictFolder);
  if (!sample) return sample.error();
  auto packBytes = writeOrlPack(sample->pack);
  if (!packBytes) return packBytes.error();
  auto pack = core::parseOrlPack(*packBytes, "orl_pack.bin");  // what a reader makes of it: the mesh is its rest deform
  if (!pack) return pack.error();
  auto neutral = core::orlRestPose(*pack);
  if (!neutral) return neutral.error();
  const std::filesystem::path folder = out / "sample-orl-bundle";
  std::error_code ec;
  std::filesystem::create_directories(folder, ec);
  if (ec) return core::errorAt(core::ErrorCode::Io, folder.string(), "", "cannot create folder: " + ec.message());
  if (auto ok = core::writeFileAtomically(folder / "orl_pack.bin", *packBytes); !ok) return ok;
  if (auto ok = writeBranchMesh(sample->faces, sample->uv, *neutral, uvRes, folder / "mesh_head.json",
                                folder / "mesh_head.bin");
      !ok)
    return ok;
  // The board's control names as a bundle lists them (rig_names.json style: .translateX/Y).
  std::vector<std::string> controls;
  for (const std::string& gui : sampleOrlDna().guiControlNames) {
    std::string name = gui;
    if (name.ends_with(".tx")) name.replace(name.size() - 3, 3, ".translateX");
    if (name.ends_with(".ty")) name.replace(name.size() - 3, 3, ".translateY");
    controls.push_back(name);
  }
  nlohmann::ordered_json scene;
  scene["schema_version"] = "2";
  scene["subject"] = "sample-orl-face";
  scene["mode"] = "multi_region";
  scene["world_scale"] = 0.01;  // centimetres
  scene["rig_range"] = {-1, 1};
  scene["order"] = {"head", "eyes"};
  const EyeMesh eyes = eyeSpheres(*pack);
  if (auto ok = writeBranchMesh(eyes.faces, eyes.uv, eyes.neutral, kEyeUvRes, folder / "mesh_eyes.json",
                                folder / "mesh_eyes.bin");
      !ok)
    return ok;
  nlohmann::ordered_json head{{"mesh_json", "mesh_head.json"}, {"mesh_bin", "mesh_head.bin"}, {"uv_res", uvRes}};
  nlohmann::ordered_json eyeBranch{
      {"mesh_json", "mesh_eyes.json"}, {"mesh_bin", "mesh_eyes.bin"}, {"uv_res", kEyeUvRes}};
  if (!options.decoders.empty()) {
    using Branch = std::pair<const char*, nlohmann::ordered_json*>;
    for (const auto& [name, branch] : {Branch{"head", &head}, Branch{"eyes", &eyeBranch}}) {
      (*branch)["rig_dim"] = controls.size();  // the decoders take the control names' vector (DECODERS.md A1)
      if (auto ok = copyBranchDecoders(options.decoders, folder, name, *branch); !ok) return ok;
    }
  }
  scene["branches"] = {{"head", head}, {"eyes", eyeBranch}};
  scene["rig"] = {
      {"backend", "orl"}, {"pack", "orl_pack.bin"}, {"control_names", controls}, {"vertex_count", kOrlSkinVertexCount}};
  scene["expression_space"] = {{"kind", "arkit52"}, {"dim", 52}};
  return writeText(folder / "scene.json", scene.dump(2) + "\n");
}

}  // namespace riglens::samples
