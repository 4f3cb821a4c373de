#include "riglens/core/bundle.h"

#include <algorithm>
#include <cstring>
#include <set>

#include "riglens/core/file_io.h"
#include "riglens/core/head_ext.h"
#include "riglens/core/json_file.h"

namespace riglens::core {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

int branchRank(const std::string& name) {
  static const std::vector<std::string> order{"head", "body", "teeth", "clothes", "eyes"};
  const auto it = std::find(order.begin(), order.end(), name);
  return it == order.end() ? int(order.size()) : int(it - order.begin());
}

class BundleLoader {
 public:
  explicit BundleLoader(fs::path folder) { m_b.folder = std::move(folder); }

  Expected<Bundle> load() {
    std::error_code ec;
    if (!fs::is_directory(m_b.folder, ec)) return makeError(ErrorCode::Io, m_b.folder.string() + ": not a bundle folder");
    if (fs::exists(m_b.folder / "scene.json", ec)) {
      auto scene = readJsonFile(m_b.folder / "scene.json");
      if (!scene) return scene.error();
      if (!scene->is_object()) return makeError(ErrorCode::Invalid, (m_b.folder / "scene.json").string() + ": not a JSON object");
      m_b.scene = *scene;
      addFile("scene.json", "manifest", true);
    } else if (fs::exists(m_b.folder / "mesh.json", ec)) {
      m_b.schema = 1;  // single region: one "head" branch viewing mesh.bin
      m_b.scene = {{"schema_version", "1"}, {"branches", {{"head", {{"mesh_json", "mesh.json"}, {"mesh_bin", "mesh.bin"}}}}}};
      addFile("rig_names.json", "names", true);
    } else {
      return makeError(ErrorCode::Invalid, m_b.folder.string() + ": a bundle needs scene.json or mesh.json");
    }
    const json& s = m_b.scene;
    m_b.subject = s.value("subject", m_b.folder.filename().string());
    m_b.worldScale = s.value("world_scale", 1.0);
    if (s.contains("world_offset")) m_b.worldOffset = {s["world_offset"][0], s["world_offset"][1], s["world_offset"][2]};
    if (s.contains("world_rotation")) m_b.worldRotationDeg = {s["world_rotation"][0], s["world_rotation"][1], s["world_rotation"][2]};
    if (s.contains("rig_range")) {
      m_b.rigRangeLo = s["rig_range"][0];
      m_b.rigRangeHi = s["rig_range"][1];
    }
    m_b.rigDim = s.value("rig_dim", 0);
    if (s.contains("branches") && s["branches"].is_object())
      for (const auto& [name, _] : s["branches"].items()) m_b.branches.push_back(name);
    std::stable_sort(m_b.branches.begin(), m_b.branches.end(), [](const std::string& a, const std::string& b) {
      return branchRank(a) != branchRank(b) ? branchRank(a) < branchRank(b) : a < b;
    });
    for (const auto& name : m_b.branches)
      if (auto ok = readBranch(name, s["branches"][name]); !ok) return ok.error();
    if (auto ok = rigBlock(); !ok) return ok.error();
    if (auto ok = expressionBlock(); !ok) return ok.error();
    for (const auto& f : m_b.files)
      if (f.eager && f.present) m_b.residentBytes += f.bytes;
    return std::move(m_b);
  }

 private:
  BundleFile& addFile(const std::string& name, const std::string& role, bool eager) {
    for (auto& f : m_b.files)
      if (f.name == name) return f;
    BundleFile f{name, role, eager, false, 0};
    std::error_code ec;
    const fs::path path = m_b.folder / name;
    if (fs::is_regular_file(path, ec)) {
      f.present = true;
      f.bytes = fs::file_size(path, ec);
    } else if (eager) {
      m_b.problems.push_back({m_b.folder.string(), "", "file " + name + " (" + role + ") is missing"});
    }
    m_b.files.push_back(f);
    return m_b.files.back();
  }

  void addDecoder(const std::string& name) {
    addFile(name, "decoder", false);
    const auto dot = name.rfind('.');
    const std::string fp16 = dot == std::string::npos ? name + "_fp16" : name.substr(0, dot) + "_fp16" + name.substr(dot);
    std::error_code ec;
    if (fs::exists(m_b.folder / fp16, ec)) addFile(fp16, "decoder", false);
  }

  Expected<void> readBranch(const std::string& name, const json& branch) {
    for (const char* key : {"geom", "appr", "trunk"})
      if (branch.contains(key) && branch[key].is_string()) addDecoder(branch[key]);
    if (branch.contains("statics"))
      for (const auto& [_, file] : branch["statics"].items())
        if (file.is_string()) addFile(file, "statics", true);
    for (const char* key : {"mesh_glb", "frame_vertices", "rig_presets"})
      if (branch.contains(key) && branch[key].is_string()) addFile(branch[key], "mesh", true);
    if (!branch.contains("mesh_json")) return {};
    const std::string jsonName = branch["mesh_json"], binName = branch.value("mesh_bin", std::string());
    addFile(jsonName, "mesh", true);
    if (!binName.empty()) addFile(binName, "mesh", true);
    std::error_code ec;
    if (!fs::exists(m_b.folder / jsonName, ec) || binName.empty() || !fs::exists(m_b.folder / binName, ec)) return {};
    auto manifest = readJsonFile(m_b.folder / jsonName);
    if (!manifest) return manifest.error();
    auto bin = readFileBytes(m_b.folder / binName);
    if (!bin) return bin.error();
    BranchMesh mesh;
    mesh.branch = name;
    mesh.vertexCount = manifest->value("num_vertices", std::size_t(0));
    mesh.faceCount = manifest->value("num_faces", std::size_t(0));
    mesh.uvRes = manifest->value("uv_res", branch.value("uv_res", 0));
    const std::string where = (m_b.folder / jsonName).string();
    for (const auto& buf : manifest->value("buffers", json::array())) {
      const std::string bufName = buf.value("name", std::string());
      DType dtype;
      if (!parseDType(buf.value("dtype", std::string()), &dtype)) return makeError(ErrorCode::Invalid, where + ": buffer " + bufName + ": unknown dtype");
      std::size_t elements = 1;
      for (const auto& d : buf.value("shape", json::array())) elements *= d.get<std::size_t>();
      const std::size_t offset = buf.value("offset", std::size_t(0)), length = buf.value("byte_length", std::size_t(0));
      if (elements * dtypeSize(dtype) != length) return makeError(ErrorCode::Invalid, where + ": buffer " + bufName + ": byte_length != shape * dtype");
      if (offset > bin->size() || length > bin->size() - offset) return makeError(ErrorCode::Invalid, where + ": buffer " + bufName + " runs past " + binName);
      if (bufName == "faces") {
        if (dtype != DType::U32 || elements != mesh.faceCount * 3) return makeError(ErrorCode::Invalid, where + ": faces must be u32 (F,3)");
        mesh.faces.resize(elements);
        std::memcpy(mesh.faces.data(), bin->data() + offset, length);
      } else if (bufName == "neutral_vertices") {
        if (dtype != DType::F32 || elements != mesh.vertexCount * 3) return makeError(ErrorCode::Invalid, where + ": neutral_vertices must be f32 (V,3)");
        mesh.neutral.resize(elements);
        std::memcpy(mesh.neutral.data(), bin->data() + offset, length);
      }
    }
    for (auto f : mesh.faces)
      if (f >= mesh.vertexCount) return makeError(ErrorCode::Invalid, where + ": faces name vertex " + std::to_string(f) + " past num_vertices");
    m_b.meshes.push_back(std::move(mesh));
    return {};
  }

  Expected<void> rigBlock() {
    std::error_code ec;
    if (m_b.scene.contains("rig") && m_b.scene["rig"].is_object()) {
      m_b.rig = m_b.scene["rig"];
    } else {  // derive it, as the engine does when the bundle predates the block
      m_b.rigDerived = true;
      if (fs::exists(m_b.folder / "orl_pack.bin", ec)) {
        m_b.rig = {{"backend", "orl"}, {"pack", "orl_pack.bin"}};
      } else {
        std::string pack;
        for (const auto& e : fs::directory_iterator(m_b.folder, ec))
          if (e.path().extension() == ".aosrig") pack = e.path().filename().string();
        if (fs::exists(m_b.folder / "gnm_head.aosrig", ec)) pack = "gnm_head.aosrig";
        m_b.rig = pack.empty() ? json{{"backend", "none"}} : json{{"backend", "gnm"}, {"pack", pack}};
      }
    }
    const std::string backend = m_b.rig.value("backend", std::string("none"));
    if (backend == "gnm") {
      const std::string pack = m_b.rig.value("pack", std::string("gnm_head.aosrig"));
      addFile(pack, "pack", true);
      auto parsed = readAosRig((m_b.folder / pack).string());
      if (!parsed) return parsed.error();
      if (!m_b.rig.contains("control_names")) m_b.rig["control_names"] = headExtNames(parsed->headExt);
      if (!m_b.rig.contains("vertex_count")) m_b.rig["vertex_count"] = parsed->vertexCount;
      m_b.gnmPack = std::move(parsed).value();
    } else if (backend == "orl") {
      addFile(m_b.rig.value("pack", std::string("orl_pack.bin")), "pack", true);
      if (!m_b.rig.contains("control_names") && fs::exists(m_b.folder / "rig_names.json", ec)) {
        auto names = readJsonFile(m_b.folder / "rig_names.json");
        if (names && names->is_array()) m_b.rig["control_names"] = *names;
      }
    }
    return {};
  }

  Expected<void> expressionBlock() {
    const std::string backend = m_b.rig.value("backend", std::string("none"));
    if (m_b.scene.contains("expression_space")) {
      const json& e = m_b.scene["expression_space"];
      const std::string kind = e.value("kind", std::string("gnm"));
      m_b.expression.kind = kind == "arkit52" ? ExpressionKind::Arkit52 : kind == "gnm68" ? ExpressionKind::Gnm68 : ExpressionKind::Gnm;
      m_b.expression.dim = e.value("dim", 0);
      if (e.contains("names")) m_b.expression.names = e["names"].get<std::vector<std::string>>();
      for (const auto& seg : e.value("segments", json::array()))
        m_b.expression.segments.push_back({seg.value("name", std::string()), seg.value("start", 0), seg.value("count", 0)});
      if (m_b.gnmPack && m_b.expression.kind == ExpressionKind::Gnm) {
        // A declared GNM space takes what it leaves out from the pack's
        // layout, and must agree with it where it does not.
        const ExpressionSpace packSpace = gnmExpressionSpace(m_b.gnmPack->headExt, false);
        if (m_b.expression.dim == 0) m_b.expression.dim = packSpace.dim;
        if (m_b.expression.dim != packSpace.dim)
          return makeError(ErrorCode::Invalid, (m_b.folder / "scene.json").string() + ": /expression_space/dim is " + std::to_string(m_b.expression.dim) +
                                                   " but the GNM pack takes " + std::to_string(packSpace.dim) + " controls");
        if (m_b.expression.names.empty()) m_b.expression.names = packSpace.names;
        if (m_b.expression.segments.empty()) m_b.expression.segments = packSpace.segments;
      }
      if (e.value("arkit_map", false) && m_b.gnmPack) m_b.expression.arkitMap = ArkitToGnmMap::create(m_b.gnmPack->headExt);
      return {};
    }
    m_b.expressionDerived = true;
    if (backend == "gnm" && m_b.gnmPack) {
      m_b.expression = gnmExpressionSpace(m_b.gnmPack->headExt, false);
    } else {  // a MetaHuman-driven bundle takes ARKit frames (arkitToRig)
      m_b.expression.kind = ExpressionKind::Arkit52;
      m_b.expression.dim = int(kArkitCount);
      m_b.expression.names = arkitNames();
    }
    return {};
  }

  Bundle m_b;
};

}  // namespace

Expected<Bundle> loadBundle(const std::filesystem::path& folder) { return BundleLoader(folder).load(); }

}  // namespace riglens::core
