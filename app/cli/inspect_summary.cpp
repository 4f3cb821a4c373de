#include "inspect_summary.h"

#include <cstdio>
#include <cstring>
#include <memory>

#include "dna_summary.h"
#include "riglens/core/base/file_io.h"
#include "riglens/core/character/aosrig.h"
#include "riglens/core/character/bundle.h"
#include "riglens/core/character/character_scene.h"
#include "riglens/core/character/orl_pack.h"
#include "riglens/core/decoded/decoded_character.h"
#include "riglens/core/dna/dna_reader.h"
#include "riglens/core/open/asset_readers.h"
#include "riglens/core/splats/gaussian_ply.h"
#include "riglens/decode/opencv_decoder.h"

namespace riglens::cli {

using nlohmann::json;

namespace {

json packSummary(const core::AosRigPack& p) {
  json joints = json::array();
  for (const auto& j : p.joints) joints.push_back({{"name", j.name}, {"parent", j.parent}});
  json regions = json::array();
  for (const auto& r : p.headExt.regions) regions.push_back({{"name", r.name}, {"count", r.count}});
  json buffers = json::array();
  for (const auto& b : p.buffers)
    buffers.push_back(
        {{"name", b.name}, {"dtype", core::dtypeName(b.dtype)}, {"shape", b.shape}, {"bytes", b.byteLength}});
  return {
      {"kind", "aosrig"},
      {"vertexCount", p.vertexCount},
      {"coeffCount", p.coeffCount},
      {"faces", p.faces.size() / 3},
      {"headExt",
       {{"dim", p.headExt.dim}, {"exprDim", p.headExt.exprDim}, {"gazeDim", p.headExt.gazeDim}, {"regions", regions}}},
      {"joints", joints},
      {"eyes", {p.eyeNames[0], p.eyeNames[1]}},
      {"basis", p.basisI8.empty() ? "f16" : "i8"},
      {"uv", p.uv.size() > 0},
      {"stitch", p.stitchLocal.size() > 0},
      {"mouth", p.mouth.has_value()},
      {"buffers", buffers},
      {"problems", json::array()}};
}

// The decoded branches: what the manifest declares and, once their graphs
// are opened (OpenCV's DNN), what they load as and the calibration. A decoder
// that does not load is a problem of the bundle, not a failure of inspect.
json decodersSummary(const std::shared_ptr<const core::Bundle>& bundle, core::Diagnostics& problems) {
  json out = json::array();
  if (bundle->decoders.empty()) return out;
  core::Diagnostics notes;
  auto character = core::DecodedCharacter::open(bundle, decode::openCvOpener(), {}, notes);
  if (!character) problems.push_back({bundle->folder.string(), "", character.error().message, core::Severity::Error});
  problems.insert(problems.end(), notes.begin(), notes.end());
  for (const auto& spec : bundle->decoders) {
    json b = {{"branch", spec.name},   {"fused", spec.fused},       {"trunk", spec.trunk},
              {"geom", spec.geom},     {"appr", spec.appr},         {"uvRes", spec.uvRes},
              {"rigDim", spec.rigDim}, {"geomFp16", spec.geomFp16}, {"apprFp16", spec.apprFp16}};
    if (character)
      for (const auto& d : (*character)->branches())
        if (d.decoders.spec().name == spec.name) {
          b["loaded"] = {{"geomIsFp16", d.decoders.geomIsFp16()},
                         {"apprIsFp16", d.decoders.apprIsFp16()},
                         {"regionFactored", d.decoders.regionFactored()},
                         {"weightBytes", d.decoders.weightBytes()},
                         {"slots", {d.placement.slotOffset, d.placement.slotCount}},
                         {"rigged", d.rigged}};
          if (d.rigged)
            b["calibration"] = {{"scale", d.calibration.scale},
                                {"residual", d.calibration.residual},
                                {"tolerance", d.calibration.tolerance}};
        }
    out.push_back(std::move(b));
  }
  return out;
}

json bundleSummary(const std::shared_ptr<const core::Bundle>& shared) {
  const core::Bundle& bundle = *shared;
  core::Diagnostics problems = bundle.problems;
  const json decoders = decodersSummary(shared, problems);
  json files = json::array(), meshes = json::array();
  for (const auto& f : bundle.files)
    files.push_back(
        {{"name", f.name}, {"role", f.role}, {"eager", f.eager}, {"present", f.present}, {"bytes", f.bytes}});
  for (const auto& m : bundle.meshes)
    meshes.push_back({{"branch", m.branch},
                      {"vertices", m.vertexCount},
                      {"faces", m.faceCount},
                      {"uvRes", m.uvRes},
                      {"uvMaps", m.hasUvMaps()}});
  return {{"kind", "bundle"},
          {"subject", bundle.subject},
          {"schema", bundle.schema},
          {"branches", bundle.branches},
          {"rig", bundle.rig},
          {"rigDerived", bundle.rigDerived},
          {"expressionSpace",
           {{"kind", core::expressionKindName(bundle.expression.kind)},
            {"dim", bundle.expression.dim},
            {"derived", bundle.expressionDerived}}},
          {"meshes", meshes},
          {"decoders", decoders},
          {"files", files},
          {"residentBytes", bundle.residentBytes},
          {"problems", problemsJson(problems)}};
}

json plySummary(const core::GaussianCloud& cloud) {
  const core::Bounds b = core::cloudBounds(cloud);
  json bounds = nullptr;
  if (!b.empty) bounds = {{"min", {b.min.x, b.min.y, b.min.z}}, {"max", {b.max.x, b.max.y, b.max.z}}};
  return {{"kind", "ply"},    {"gaussians", cloud.count},  {"shDegree", cloud.shDegree},
          {"bounds", bounds}, {"cpuBytes", cloud.bytes()}, {"problems", json::array()}};
}

json orlPackSummary(const core::OrlPack& pack, json dna) {
  return json{{"kind", "orl"},
              {"dna", std::move(dna)},
              {"vertexCount", pack.vertexCount},
              {"jointCount", pack.jointCount},
              {"channels", pack.channelCount},
              {"targets", pack.targets.size()},
              {"members", pack.members},
              {"manifest", pack.manifest},
              {"problems", json::array()}};
}

}  // namespace

json problemsJson(const core::Diagnostics& problems) {
  json out = json::array();
  for (const auto& p : problems) {
    json row = {{"severity", core::severityName(p.severity)},
                {"file", p.source},
                {"pointer", p.pointer},
                {"message", p.message}};
    if (!p.part.empty()) row["part"] = p.part;
    if (!p.joint.empty()) row["joint"] = p.joint;
    out.push_back(std::move(row));
  }
  return out;
}

json failedLoadJson(const core::Error& error, const std::string& path) {
  return {{"severity", "error"},
          {"file", error.file.empty() ? path : error.file},
          {"pointer", error.pointer},
          {"message", error.message}};
}

json runSummary(const core::LoadedRun& run) {
  const core::Rig& rig = run.rig;
  json out = {{"source", run.source.string()}, {"kind", core::runKindName(run.kind)}};
  json parts = json::array();
  for (std::size_t i = 0; i < rig.parts().size(); ++i) {
    const auto& p = rig.parts()[i];
    json jp = {{"name", p.name},
               {"parent", p.parent == core::kNoIndex ? json(nullptr) : json(rig.parts()[p.parent].name)},
               {"pivot", p.pivot}};
    if (run.kind != core::RunKind::SkinnedMesh && i < run.meshes.size()) {
      jp["vertices"] = run.meshes[i].vertexCount();
      jp["triangles"] = run.meshes[i].triangleCount();
      jp["socket"] = run.meshes[i].empty();
      jp["mesh"] = run.meshPaths[i];
    }
    parts.push_back(jp);
  }
  out["parts"] = parts;
  json joints = json::array();
  for (const auto& j : rig.joints())
    joints.push_back({{"name", j.name},
                      {"part", j.part == core::kNoIndex ? json(nullptr) : json(rig.parts()[j.part].name)},
                      {"kind", core::jointKindName(j.kind)},
                      {"axis", core::axisName(j.axis)},
                      {"drive", core::driveName(j.drive)},
                      {"min", j.min},
                      {"max", j.max},
                      {"rest", j.rest}});
  out["joints"] = joints;
  json anims = json::array();
  for (const auto& a : rig.animations()) {
    json tracks = json::array();
    for (const auto& t : a.tracks)
      tracks.push_back({{"joint", rig.joints()[t.joint].name}, {"keys", t.keyframes.size()}});
    anims.push_back({{"name", a.name},
                     {"periodMs", a.periodMs},
                     {"looping", a.looping},
                     {"autoPlay", a.autoPlay},
                     {"tracks", tracks}});
  }
  out["animations"] = anims;
  if (run.kind == core::RunKind::SkinnedMesh && !run.meshes.empty())
    out["skinnedMesh"] = {{"vertices", run.meshes[0].vertexCount()},
                          {"triangles", run.meshes[0].triangleCount()},
                          {"bones", run.skin ? run.skin->boneNames : std::vector<std::string>{}}};
  out["problems"] = problemsJson(run.warnings);
  out["cpuBytes"] = run.cpuBytes();
  return out;
}

bool isScenePath(const std::string& path) {
  const core::AssetReader* reader = core::pickReader(path);
  return reader && reader->kind != core::AssetKind::Run && reader->kind != core::AssetKind::Model;
}

// The file's own summary, by the reader the table picks (not the viewer's
// scene: inspect also reads what the viewer refuses, an i8 pack or a DNA).
core::Expected<json> summarizeScene(const std::string& path) {
  auto reader = core::readerFor(path);
  if (!reader) return reader.error();
  const std::string_view id = (*reader)->id;
  if (id == "bundle") {
    auto bundle = core::loadBundle(path);
    if (!bundle) return bundle.error();
    return bundleSummary(std::make_shared<const core::Bundle>(std::move(bundle).value()));
  }
  auto bytes = core::readFileBytes(path);
  if (!bytes) return bytes.error();
  if (id == "orl-pack") {
    auto pack = core::parseOrlPack(*bytes, path);
    if (!pack) return pack.error();
    json dna = nullptr;
    if (!pack->behaviorDna.empty()) {
      auto read = core::readDna(pack->behaviorDna, path + "#" + core::kOrlDnaMember);
      if (!read) return read.error();
      dna = dnaSummary(*read);
    }
    return orlPackSummary(*pack, std::move(dna));
  }
  if (id == "dna") {
    auto dna = core::readDna(*bytes, path);
    if (!dna) return dna.error();
    return dnaSummary(*dna);
  }
  if (id == "ply-splats") {
    auto cloud = core::parseGaussianPly(*bytes, path);
    if (!cloud) return cloud.error();
    return plySummary(*cloud);
  }
  auto pack = core::parseAosRig(std::make_shared<const std::vector<std::uint8_t>>(std::move(*bytes)), path);
  if (!pack) return pack.error();
  return packSummary(*pack);
}

void printSummary(const json& summary) {
  for (const auto& [key, value] : summary.items()) {
    if (key == "problems") continue;
    const std::string text = value.dump();
    std::printf(
        "%-16s %s\n", key.c_str(),
        value.is_primitive() ? text.c_str() : (text.substr(0, 160) + (text.size() > 160 ? " ..." : "")).c_str());
  }
  const json& problems = summary.contains("problems") ? summary["problems"] : json::array();
  std::printf("problems (%zu):\n", problems.size());
  for (const auto& p : problems) {
    std::string where = p["file"].get<std::string>();
    if (!p["pointer"].get<std::string>().empty()) where += ": " + p["pointer"].get<std::string>();
    std::printf("  %-7s %s: %s\n", p["severity"].get<std::string>().c_str(), where.c_str(),
                p["message"].get<std::string>().c_str());
  }
}

}  // namespace riglens::cli
