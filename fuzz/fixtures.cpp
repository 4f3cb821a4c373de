#include "fixtures.h"

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <system_error>

#include "riglens/core/base/file_io.h"
#include "riglens/core/character/character_scene.h"
#include "riglens/core/character/debug_lift.h"
#include "riglens/core/character/expressions.h"
#include "riglens/core/character/gnm.h"
#include "riglens/core/character/head_ext.h"
#include "riglens/core/character/vertex_tints.h"
#include "riglens/core/export/export_plan.h"
#include "riglens/core/gltf/glb_writer.h"
#include "riglens/core/rig/rig_controller.h"
#include "riglens/core/rig/scene_bounds.h"
#include "riglens/core/rig/skinning.h"
#include "riglens/samples/dna_writer.h"
#include "riglens/samples/orl_sample.h"
#include "riglens/samples/sample_runs.h"

namespace riglens::fuzz {
namespace fs = std::filesystem;

namespace {

// RFC 4648 base64 (the ORL fixture stores its pack that way); test-side only.
std::vector<std::uint8_t> fromBase64(std::string_view text) {
  static const std::string alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::vector<std::uint8_t> out;
  std::uint32_t bits = 0;
  int held = 0;
  for (char c : text) {
    const auto at = alphabet.find(c);
    if (at == std::string::npos) continue;  // '=' padding, line breaks
    bits = (bits << 6) | std::uint32_t(at);
    held += 6;
    if (held >= 8) {
      held -= 8;
      out.push_back(std::uint8_t(bits >> held));
    }
  }
  return out;
}

[[noreturn]] void fixtureBroken(const std::string& what) {
  std::fprintf(stderr, "fuzz fixture broken: %s\n", what.c_str());
  std::abort();
}

}  // namespace

namespace {

// The scratch folder goes when the process exits normally (libFuzzer's runs
// end with exit()); a crash leaves it, beside the input that crashed. Every
// fuzz run left one in the temporary folder before.
struct ScratchFolder {
  fs::path path;
  ~ScratchFolder() {
    std::error_code ignored;
    fs::remove_all(path, ignored);
  }
};

}  // namespace

const fs::path& scratch() {
  static const ScratchFolder folder = [] {
    std::string pattern = (fs::temp_directory_path() / "riglens-fuzz-XXXXXX").string();
    if (!mkdtemp(pattern.data())) fixtureBroken("cannot make a scratch folder");
    return ScratchFolder{fs::path(pattern)};
  }();
  return folder.path;
}

fs::path put(const fs::path& relative, std::span<const std::uint8_t> bytes) {
  const fs::path path = scratch() / relative;
  fs::create_directories(path.parent_path());
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
  return path;
}

fs::path put(const fs::path& relative, std::string_view text) {
  return put(relative, std::span(reinterpret_cast<const std::uint8_t*>(text.data()), text.size()));
}

std::string_view asText(std::span<const std::uint8_t> input) {
  return {reinterpret_cast<const char*>(input.data()), input.size()};
}

samples::GnmBake tinyPackBake() {
  samples::GnmBake bake = samples::syntheticGnmHead(64, 6, 7);
  bake.regions = {{"left_eye", 2}, {"right_eye", 2}, {"lower_face", 2}};
  bake.reduced = {{"left_eye", 1}, {"right_eye", 1}, {"lower_face", 2}};
  bake.uv.assign(64 * 2, 0.5f);
  return bake;
}

const std::vector<std::uint8_t>& tinyPackBytes() {
  static const std::vector<std::uint8_t> bytes = [] {
    auto packed = samples::bakeAosRig(tinyPackBake());
    if (!packed) fixtureBroken(packed.error().message);
    return std::move(packed).value();
  }();
  return bytes;
}

const core::AosRigPack& tinyPack() {
  static const core::AosRigPack pack = [] {
    auto parsed = core::parseAosRig(std::make_shared<const std::vector<std::uint8_t>>(tinyPackBytes()), "tiny.aosrig");
    if (!parsed) fixtureBroken(parsed.error().message);
    return std::move(parsed).value();
  }();
  return pack;
}

const std::vector<std::uint8_t>& orlFixtureBytes() {
  static const std::vector<std::uint8_t> bytes = [] {
    std::ifstream in(RIGLENS_SOURCE_DIR "/tests/data/orl/deform-synthetic.json");
    const auto doc = nlohmann::json::parse(in, nullptr, false);
    if (doc.is_discarded() || !doc.contains("packBase64")) fixtureBroken("tests/data/orl/deform-synthetic.json");
    return fromBase64(doc["packBase64"].get<std::string>());
  }();
  return bytes;
}

const std::vector<std::uint8_t>& tinyOrlPackBytes() {
  static const std::vector<std::uint8_t> bytes = [] {
    const core::Dna dna = samples::sampleOrlDna();
    samples::OrlPackParts p;
    p.vertexCount = 3;
    p.jointNames = dna.jointNames;
    p.channelCount = dna.blendShapeCount();
    p.targets.push_back({0, {0, 2}, {0.1f, 0, 0, 0, 0.2f, 0}});
    auto written = samples::writeDna(dna);
    if (!written) fixtureBroken(written.error().message);
    p.dna = std::move(written).value();
    p.neutral = {0, 0, 0, 1, 0, 0, 0, 1, 0};
    for (std::size_t j = 0; j < dna.jointCount(); ++j) {
      p.jointNeutral.insert(p.jointNeutral.end(), {0, 0, 0, 0, 0, 0, 1, 1, 1});
      p.inverseBind.insert(p.inverseBind.end(), {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1});
      p.jointParents.push_back(0);
    }
    for (std::uint16_t v = 0; v < 3; ++v) {
      p.skinIndex.insert(p.skinIndex.end(), {0, 1, 2, 3});
      p.skinWeight.insert(p.skinWeight.end(), {0.7f, 0.3f, 0, 0});
    }
    auto pack = samples::writeOrlPack(p);
    if (!pack) fixtureBroken(pack.error().message);
    return std::move(pack).value();
  }();
  return bytes;
}

const core::OrlPack& orlFixture() {
  static const core::OrlPack pack = [] {
    auto parsed = core::parseOrlPack(orlFixtureBytes(), "orl_pack.bin");
    if (!parsed) fixtureBroken(parsed.error().message);
    return std::move(parsed).value();
  }();
  return pack;
}

namespace {
const samples::SampleRun& tank() {
  static const samples::SampleRun run = [] {
    auto made = samples::makeSampleRun("tank-cubes");
    if (!made) fixtureBroken(made.error().message);
    return std::move(made).value();
  }();
  return run;
}
}  // namespace

const std::string& tankRigJson() {
  static const std::string text = tank().rig.dump();
  return text;
}

const std::vector<std::pair<std::string, std::vector<std::uint8_t>>>& tankPartGlbs() {
  static const auto glbs = [] {
    std::vector<std::pair<std::string, std::vector<std::uint8_t>>> out;
    for (const auto& [name, mesh] : tank().meshes) out.emplace_back(name, core::encodePartGlb(mesh));
    return out;
  }();
  return glbs;
}

void exerciseRun(const core::LoadedRun& run) {
  core::RigController controller(run.rig);
  for (const auto& name : controller.jointNames(core::Drive::Caller)) {
    if (auto range = controller.jointRange(name)) {
      (void)controller.setCaller(name, range->min);
      (void)controller.setCaller(name, range->max);
      (void)controller.setCaller(name, 0.5 * range->min + 0.5 * range->max);
    }
  }
  controller.evaluate();
  const auto worlds = controller.partWorlds();
  (void)core::posedBounds(run, worlds);
  (void)core::socketPositions(run, worlds);
  for (const auto& animation : run.rig.animations()) {
    if (animation.autoPlay || !controller.play(animation.name)) continue;
    for (double t : {0.0, 16.7, animation.periodMs * 0.5, animation.periodMs, animation.periodMs * 1.5 + 3.0}) {
      controller.seekPlayable(t);
      controller.update(0.016);
      controller.evaluate();
    }
  }
  if (run.skin) {
    const auto bones = core::boneMatrices(*run.skin, run.boneParts, controller.partWorlds());
    for (const auto& mesh : run.meshes) (void)core::skinMesh(mesh, *run.skin, bones);
  }
  (void)core::planExport(run, core::ExportOptions{});
  core::ExportOptions cubic;
  cubic.cubic = true;
  (void)core::planExport(run, cubic);
}

void exercisePack(const core::AosRigPack& pack) {
  const std::size_t V = pack.vertexCount;
  (void)core::gnmPose(pack, {});
  const std::vector<float> ones(std::size_t(pack.headExt.dim), 0.25f);
  core::GnmJointState joints(pack);
  std::vector<std::pair<std::string, glm::dquat>> overrides;
  for (const auto& j : pack.joints) overrides.emplace_back(j.name, glm::dquat(0.9, 0.1, 0.2, 0.3));
  joints.setJointOverrides(overrides);
  const auto posed = core::gnmPose(pack, ones, &joints, 2);
  (void)core::characterRestBounds(pack);
  (void)core::headExtNames(pack.headExt);
  const core::ExpressionSpace space = core::gnmExpressionSpace(pack.headExt, true);
  std::vector<float> arkit(core::kArkitCount, 0.5f);
  (void)core::toRigVector(space, core::ExpressionKind::Arkit52, arkit, &pack.headExt);
  if (!pack.headExt.reduced.empty()) {
    std::size_t reduced = std::size_t(pack.headExt.gazeDim);
    for (const auto& r : pack.headExt.reduced) reduced += std::size_t(r.count);
    (void)core::widenReducedHeadExt(std::vector<float>(reduced, 0.5f), pack.headExt);
  }
  (void)core::jointTint(pack.skinIndex, pack.skinWeight, {pack.eyeWeights.data(), pack.eyeWeights.size()}, V);
  (void)core::uvTint({pack.uv.data(), pack.uv.size()}, V);
  const auto fit = core::fitVertsTransform({pack.neutral.data(), V * 3});
  if (posed) {
    (void)core::heightTint(*posed);
    core::DebugLiftParams params;
    params.vertexCount = std::uint32_t(std::min<std::size_t>(V, 1 << 20));
    params.slotCount = params.vertexCount;
    params.affine = fit.rows;
    core::SplatSink sink(params.slotCount);
    (void)core::debugLiftCpu(params, *posed, core::flatTint(V), sink);
  }
}

void exerciseOrl(const core::OrlPack& pack) {
  const std::vector<float> zeros(pack.jointCount * 9, 0.0f), weights(pack.channelCount, 1.0f);
  (void)core::orlDeform(pack, zeros, weights);
  std::vector<float> moved(pack.jointCount * 9, 0.0f);
  for (std::size_t i = 0; i < moved.size(); ++i) moved[i] = float(i % 9 < 6 ? 1.5 : 0.1);
  (void)core::orlDeform(pack, moved, {});
  (void)core::orlShellBinding(pack, pack.neutral, {});
}

// A branch mesh: 4 vertices, 2 faces, as mesh_head.json + mesh_head.bin.
std::pair<std::string, std::vector<std::uint8_t>> branchMeshFixture() {
  const std::vector<std::uint32_t> faces{0, 1, 2, 0, 2, 3};
  const std::vector<float> verts{0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0};
  // UV maps at uv_res 2 after them (offset 72; see kBranchMeshUvMaps): idxim,
  // barim, triim, valid - one texel per triangle, one outside, one masked.
  const std::vector<std::int32_t> idxim{0, 1, 2, 0, 2, 3, 0, 1, -1, 0, 0, 0};
  const std::vector<float> barim{0.2f, 0.3f, 0.5f, 0.6f, 0.2f, 0.2f, 1, 0, 0, 0, 0, 0};
  const std::vector<std::int32_t> triim{0, 1, 0, -1};
  const std::vector<std::uint8_t> valid{1, 1, 0, 0};
  std::vector<std::uint8_t> bin;
  const auto append = [&bin](const auto& v) {
    const auto* p = reinterpret_cast<const std::uint8_t*>(v.data());
    bin.insert(bin.end(), p, p + v.size() * sizeof(v[0]));
  };
  append(faces);
  append(verts);
  append(idxim);
  append(barim);
  append(triim);
  append(valid);
  const nlohmann::json manifest = {
      {"uv_res", 64},
      {"num_vertices", 4},
      {"num_faces", 2},
      {"buffers",
       {{{"name", "faces"}, {"dtype", "u32"}, {"shape", {2, 3}}, {"offset", 0}, {"byte_length", 24}},
        {{"name", "neutral_vertices"}, {"dtype", "f32"}, {"shape", {4, 3}}, {"offset", 24}, {"byte_length", 48}}}}};
  return {manifest.dump(), bin};
}

}  // namespace riglens::fuzz
