#include "riglens/samples/character_sample.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <glm/geometric.hpp>
#include <glm/vec3.hpp>

#include "branch_mesh.h"
#include "riglens/core/base/data_paths.h"
#include "riglens/core/base/file_io.h"
#include "riglens/core/base/json_file.h"
#include "riglens/core/base/json_reader.h"
#include "riglens/core/character/aosrig.h"
#include "riglens/core/character/gnm.h"
#include "riglens/core/character/head_ext.h"
#include "riglens/samples/uv_maps.h"

namespace riglens::samples {

using namespace core;  // the samples are built from the core types throughout
namespace {

template <class T>
Expected<std::vector<T>> readArray(const std::filesystem::path& path, std::size_t count) {
  auto bytes = readFileBytes(path);
  if (!bytes) return bytes.error();
  if (bytes->size() != count * sizeof(T))
    return errorAt(ErrorCode::Invalid, path.string(), "",
                   std::to_string(bytes->size()) + " bytes, expected " + std::to_string(count * sizeof(T)));
  std::vector<T> out(count);
  std::memcpy(out.data(), bytes->data(), bytes->size());
  return out;
}

std::array<float, 16> translationRowMajor(glm::vec3 t) {
  return {1, 0, 0, t.x, 0, 1, 0, t.y, 0, 0, 1, t.z, 0, 0, 0, 1};
}

// The ICT face region as read from `dir`: counts, expression names, the
// Multi-PIE 68 landmark vertices and the arrays (centimetres).
struct IctFace {
  std::size_t V = 0, T = 0, E = 0;
  std::vector<std::string> names;
  std::vector<std::size_t> landmarks;
  std::vector<float> neutralCm, deltasCm;
  std::vector<std::uint32_t> faces;
};

// The face is data a user may point at with --ict: typed reads, counts
// bounded by what the files beside it could hold.
Expected<IctFace> readIctFace(const std::filesystem::path& dir) {
  auto info = readJsonFile(dir / "names.json");
  if (!info) return info.error();
  auto face = guardRead((dir / "names.json").string(), [&] {
    const JsonRef root(*info);
    constexpr std::size_t kMax = 1 << 24;
    IctFace f;
    f.V = root["V"].count(kMax);
    f.T = root["T"].count(kMax);
    f.E = root["E"].count(1 << 12);
    f.names = root["expression_names"].strings(1 << 12);
    const JsonRef landmarks = root["landmarks_multipie68"];
    landmarks.arrayOfSize(68, "vertex indices");
    for (const JsonRef& l : landmarks.elements()) f.landmarks.push_back(l.count(f.V == 0 ? 0 : f.V - 1));
    return f;
  });
  if (!face) return face.error();
  IctFace& f = *face;
  auto neutralCm = readArray<float>(dir / "neutral.f32", f.V * 3);
  if (!neutralCm) return neutralCm.error();
  auto faces = readArray<std::uint32_t>(dir / "faces.u32", f.T * 3);
  if (!faces) return faces.error();
  auto deltas = readArray<float>(dir / "expressions.f32", f.E * f.V * 3);
  if (!deltas) return deltas.error();
  if (f.V == 0 || f.names.size() != f.E)
    return errorAt(ErrorCode::Invalid, (dir / "names.json").string(), "", "expected V > 0 and E expression names");
  for (std::uint32_t i : *faces)
    if (i >= f.V)
      return errorAt(ErrorCode::Invalid, (dir / "faces.u32").string(), "",
                     "a face names vertex " + std::to_string(i) + ", past V = " + std::to_string(f.V));
  f.neutralCm = std::move(neutralCm).value();
  f.faces = std::move(faces).value();
  f.deltasCm = std::move(deltas).value();
  return face;
}

// The expressions in three regions (left eye/brow, right eye/brow, the
// rest), the basis reordered to match, everything in metres.
GnmBake bakeRegions(IctFace& f) {
  const std::size_t V = f.V, E = f.E;
  std::vector<std::size_t> order[3];
  for (std::size_t e = 0; e < E; ++e) {
    const std::string& n = f.names[e];
    const bool eyeArea = n.rfind("eye", 0) == 0 || n.rfind("brow", 0) == 0;
    const bool left = n.size() > 2 && n.substr(n.size() - 2) == "_L";
    const bool right = n.size() > 2 && n.substr(n.size() - 2) == "_R";
    order[eyeArea && left ? 0 : eyeArea && right ? 1 : 2].push_back(e);
  }
  GnmBake b;
  b.vertexCount = V;
  b.coeffCount = E;
  b.regions = {
      {"left_eye", int(order[0].size())}, {"right_eye", int(order[1].size())}, {"lower_face", int(order[2].size())}};
  b.reduced = {{"left_eye", std::min<int>(8, int(order[0].size()))},
               {"right_eye", std::min<int>(8, int(order[1].size()))},
               {"lower_face", std::min<int>(16, int(order[2].size()))}};
  std::vector<std::size_t> columns;
  for (auto& o : order) columns.insert(columns.end(), o.begin(), o.end());
  constexpr float kCm = 0.01f;
  b.neutral.resize(V * 3);
  for (std::size_t i = 0; i < V * 3; ++i) b.neutral[i] = f.neutralCm[i] * kCm;
  b.basis.resize(V * E * 3);
  for (std::size_t v = 0; v < V; ++v)
    for (std::size_t c = 0; c < E; ++c)
      for (int k = 0; k < 3; ++k)
        b.basis[(v * E + c) * 3 + std::size_t(k)] = f.deltasCm[(columns[c] * V + v) * 3 + std::size_t(k)] * kCm;
  b.faces = std::move(f.faces);
  for (std::size_t c : columns) b.coeffNames.push_back(f.names[c]);
  return b;
}

// Joints placed from the landmarks (neck, head, jaw, eyes), skin weights by
// height, eye weights by distance, UVs from the bounding box.
void rigTheFace(GnmBake& b, const std::vector<std::size_t>& landmarks) {
  const std::size_t V = b.vertexCount;
  const auto at = [&](std::size_t v) {
    return glm::vec3(b.neutral[v * 3], b.neutral[v * 3 + 1], b.neutral[v * 3 + 2]);
  };
  const auto centroid = [&](std::size_t from, std::size_t to) {
    glm::vec3 sum(0.0f);
    for (std::size_t i = from; i < to; ++i) sum += at(landmarks[i]);
    return sum / float(to - from);
  };
  // Multi-PIE 68: 36..41 the right eye, 42..47 the left; 48..59 the outer lips.
  const glm::vec3 eyeR = centroid(36, 42), eyeL = centroid(42, 48), mouth = centroid(48, 60);
  glm::vec3 lo(1e9f), hi(-1e9f);
  for (std::size_t v = 0; v < V; ++v) {
    lo = glm::min(lo, at(v));
    hi = glm::max(hi, at(v));
  }
  const glm::vec3 centre = (lo + hi) * 0.5f;
  const glm::vec3 neck(centre.x, lo.y, centre.z - 0.05f), head(centre.x, centre.y, centre.z - 0.05f);
  const glm::vec3 jaw(centre.x, mouth.y + 0.01f, mouth.z - 0.08f);
  b.joints = {{"neck", -1}, {"head", 0}, {"jaw", 1}, {"eye_l", 1}, {"eye_r", 1}};
  b.eyeNames = {"eye_l", "eye_r"};
  for (glm::vec3 t : {neck, head, jaw, eyeL, eyeR}) {
    const auto m = translationRowMajor(t);
    b.restWorld.insert(b.restWorld.end(), m.begin(), m.end());
  }
  b.eyePositions = {eyeL.x, eyeL.y, eyeL.z, eyeR.x, eyeR.y, eyeR.z};
  b.eyeWeights.assign(2 * V, 0.0f);
  const float height = hi.y - lo.y;
  for (std::size_t v = 0; v < V; ++v) {
    const glm::vec3 p = at(v);
    // jaw: below the mouth corners, ramping in over 1.5 cm; neck: the bottom 8% of the face.
    const float jawW = std::clamp((mouth.y - p.y) / 0.015f, 0.0f, 1.0f) * 0.9f;
    const float neckW = std::clamp((lo.y + 0.08f * height - p.y) / (0.08f * height), 0.0f, 1.0f) * 0.6f;
    const float headW = std::max(0.0f, 1.0f - jawW - neckW);
    b.skinIndex.insert(b.skinIndex.end(), {1, 2, 0, 0});
    b.skinWeight.insert(b.skinWeight.end(), {headW, jawW, neckW, 0.0f});
    for (int e = 0; e < 2; ++e) {
      const float d = glm::length(p - (e == 0 ? eyeL : eyeR));
      b.eyeWeights[std::size_t(e) * V + v] = std::clamp((0.018f - d) / 0.006f, 0.0f, 1.0f);
    }
    b.uv.push_back((p.x - lo.x) / std::max(hi.x - lo.x, 1e-6f));
    b.uv.push_back((p.y - lo.y) / std::max(hi.y - lo.y, 1e-6f));
  }
}

}  // namespace

Expected<GnmBake> makeSampleCharacter(const std::filesystem::path& dir) {
  auto face = readIctFace(dir);
  if (!face) return face.error();
  GnmBake b = bakeRegions(*face);
  rigTheFace(b, face->landmarks);
  b.source = "ICT-FaceKit face region (MIT), riglens sample generator";
  return b;
}

std::filesystem::path shippedSampleDecoders(const std::filesystem::path& executableDir, const char* name) {
  auto folder = findShippedData(executableDir, name);
  return folder ? *folder : std::filesystem::path();
}

Expected<void> writeSampleCharacter(const std::filesystem::path& ict, const std::filesystem::path& out,
                                    const SampleBundleOptions& options) {
  auto bake = makeSampleCharacter(ict);
  if (!bake) return bake.error();
  auto bytes = bakeAosRig(*bake);
  if (!bytes) return bytes.error();
  auto pack = parseAosRig(std::make_shared<const std::vector<std::uint8_t>>(*bytes), "sample-face.aosrig");
  if (!pack) return pack.error();
  const std::filesystem::path folder = out / "sample-bundle";
  std::error_code ec;
  std::filesystem::create_directories(folder, ec);
  if (ec) return errorAt(ErrorCode::Io, out.string(), "", "cannot create folder: " + ec.message());
  if (auto ok = writeFileAtomically(out / "sample-face.aosrig", *bytes); !ok) return ok;
  if (auto ok = writeFileAtomically(folder / "sample-face.aosrig", *bytes); !ok) return ok;

  // The GNM space with the ICT expressions' ARKit names on its coefficients.
  std::vector<std::string> names = headExtNames(pack->headExt);
  std::copy(bake->coeffNames.begin(), bake->coeffNames.end(), names.begin());
  const int rigDim = pack->headExt.dim;
  auto neutral = gnmPose(*pack, std::vector<float>(std::size_t(rigDim), 0.0f));
  if (!neutral) return neutral.error();
  const bool decoded = !options.decoders.empty();
  const std::string b = "head";
  if (options.schema1) {  // single region: one fused head branch (DECODERS.md A1)
    if (auto ok =
            writeBranchMesh(bake->faces, bake->uv, *neutral, options.uvRes, folder / "mesh.json", folder / "mesh.bin");
        !ok)
      return ok;
    if (auto ok = writeText(folder / "rig_names.json", nlohmann::json(names).dump() + "\n"); !ok) return ok;
    for (const char* stem : {"geom", "appr"})
      for (const char* tag : {"", "_fp16"}) {
        const auto from = options.decoders / (std::string(stem) + "_" + b + tag + ".onnx");
        if (std::filesystem::exists(from, ec))
          if (auto ok = copyFile(from, folder / (std::string(stem) + tag + ".onnx")); !ok) return ok;
      }
    return {};
  }
  if (auto ok = writeBranchMesh(bake->faces, bake->uv, *neutral, options.uvRes, folder / ("mesh_" + b + ".json"),
                                folder / ("mesh_" + b + ".bin"));
      !ok)
    return ok;
  nlohmann::ordered_json branch;
  branch["mesh_json"] = "mesh_" + b + ".json";
  branch["mesh_bin"] = "mesh_" + b + ".bin";
  branch["uv_res"] = options.uvRes;
  branch["rig_dim"] = rigDim;
  if (decoded)
    if (auto ok = copyBranchDecoders(options.decoders, folder, b, branch); !ok) return ok;
  nlohmann::ordered_json scene;
  scene["schema_version"] = "2";
  scene["subject"] = "sample-face";
  scene["mode"] = "multi_region";
  scene["world_scale"] = 1.0;
  scene["moment_scale"] = 0.0;
  scene["rig_range"] = {-3, 3};
  scene["order"] = {b};
  scene["branches"] = {{b, branch}};
  scene["rig"] = {{"backend", "gnm"}, {"pack", "sample-face.aosrig"}, {"vertex_count", bake->vertexCount}};
  scene["expression_space"] = {{"kind", "gnm"}, {"names", names}};
  return writeText(folder / "scene.json", scene.dump(2) + "\n");
}

}  // namespace riglens::samples
