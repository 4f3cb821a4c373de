#include "riglens/core/character/bundle.h"

#include <algorithm>
#include <cstring>

#include "riglens/core/base/file_io.h"
#include "riglens/core/base/json_file.h"
#include "riglens/core/base/json_reader.h"
#include "riglens/core/character/head_ext.h"

namespace riglens::core {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// Bounds a manifest's dimensions are read against: a rig vector or an
// expression space far past what any decoder takes is a corrupt field.
constexpr std::int64_t kMaxControls = 1 << 16;
constexpr std::int64_t kMaxUvRes = 1 << 14;

int branchRank(const std::string& name) {
  static const std::vector<std::string> order{"head", "body", "teeth", "clothes", "eyes"};
  const auto it = std::find(order.begin(), order.end(), name);
  return it == order.end() ? int(order.size()) : int(it - order.begin());
}

// Every read below throws a ReadProblem (JsonRef) or a nested Error (take);
// load() turns them into the Error it returns. Each file is read once.
class BundleLoader {
 public:
  explicit BundleLoader(fs::path folder) { m_b.folder = std::move(folder); }

  Expected<Bundle> load() {
    std::error_code ec;
    if (!fs::is_directory(m_b.folder, ec))
      return errorAt(ErrorCode::Io, m_b.folder.string(), "", "not a bundle folder");
    if (fs::exists(m_b.folder / "scene.json", ec)) {
      m_source = (m_b.folder / "scene.json").string();
      auto scene = readJsonFile(m_b.folder / "scene.json");
      if (!scene) return scene.error();
      m_b.scene = std::move(scene).value();
      addFile("scene.json", "manifest", true);
    } else if (fs::exists(m_b.folder / "mesh.json", ec)) {
      m_source = (m_b.folder / "mesh.json").string();
      m_b.schema = 1;  // single region: one "head" branch viewing mesh.bin
      m_b.scene = {{"schema_version", "1"},
                   {"branches", {{"head", {{"mesh_json", "mesh.json"}, {"mesh_bin", "mesh.bin"}}}}}};
      addFile("rig_names.json", "names", true);
    } else {
      return errorAt(ErrorCode::Invalid, m_b.folder.string(), "", "a bundle needs scene.json or mesh.json");
    }
    return guardRead(m_source, [&] {
      readScene(JsonRef(m_b.scene));
      for (const auto& f : m_b.files)
        if (f.eager && f.present) m_b.residentBytes += f.bytes;
      return std::move(m_b);
    });
  }

 private:
  void readScene(const JsonRef& s) {
    s.object();
    if (auto version = s.find("schema_version"); version && !version->isString() && !version->isNumber())
      version->failType("a string or a number");
    m_b.subject = s.stringOr("subject", m_b.folder.filename().string());
    if (auto scale = s.find("world_scale")) {
      m_b.worldScale = scale->number();
      if (!(m_b.worldScale > 0))
        scale->fail("world_scale must be greater than 0, got " + std::to_string(m_b.worldScale));
    }
    if (auto offset = s.find("world_offset")) {
      const auto v = offset->numbers<3>();
      m_b.worldOffset = {v[0], v[1], v[2]};
    }
    if (auto rotation = s.find("world_rotation")) {
      const auto v = rotation->numbers<3>();
      m_b.worldRotationDeg = {v[0], v[1], v[2]};
    }
    if (auto range = s.find("rig_range")) {
      const auto v = range->numbers<2>();
      if (v[0] > v[1])
        range->fail("the low end " + std::to_string(v[0]) + " is above the high end " + std::to_string(v[1]));
      m_b.rigRangeLo = v[0];
      m_b.rigRangeHi = v[1];
    }
    m_b.rigDim = int(s.integerOr("rig_dim", 0, 0, kMaxControls));
    std::vector<std::pair<std::string, JsonRef>> branches;
    if (auto list = s.find("branches")) branches = list->members();
    std::stable_sort(branches.begin(), branches.end(), [](const auto& a, const auto& b) {
      return branchRank(a.first) != branchRank(b.first) ? branchRank(a.first) < branchRank(b.first) : a.first < b.first;
    });
    for (const auto& [name, branch] : branches) m_b.branches.push_back(name);
    for (const auto& [name, branch] : branches) readBranch(name, branch);
    rigBlock(s);
    expressionBlock(s);
  }

  BundleFile& addFile(const std::string& name, const std::string& role, bool eager) {
    for (auto& f : m_b.files)
      if (f.name == name) return f;
    BundleFile f{name, role, eager, false, 0};
    std::error_code ec;
    const fs::path path = m_b.folder / name;
    if (fs::is_regular_file(path, ec)) {
      f.present = true;
      f.bytes = fs::file_size(path, ec);
      if (ec) f.bytes = 0;
    } else if (eager) {
      m_b.problems.push_back({m_b.folder.string(), "", "file " + name + " (" + role + ") is missing", Severity::Error});
    }
    m_b.files.push_back(f);
    return m_b.files.back();
  }

  // A file name the manifest gives: a string naming a file inside the bundle
  // folder (absolute paths and ".." that leave it are refused, as the run
  // loader refuses them for part meshes). Returns it relative to the folder.
  std::string insidePath(const JsonRef& ref) const {
    const std::string text = ref.string();
    auto path = resolveInside(m_b.folder, text, "file name", "the bundle folder");
    if (!path) ref.fail(path.error().message);
    return path->lexically_relative(m_b.folder.lexically_normal()).generic_string();
  }

  void addDecoder(const std::string& name) {
    addFile(name, "decoder", false);
    const auto dot = name.rfind('.');
    const std::string fp16 =
        dot == std::string::npos ? name + "_fp16" : name.substr(0, dot) + "_fp16" + name.substr(dot);
    std::error_code ec;
    if (fs::exists(m_b.folder / fp16, ec)) addFile(fp16, "decoder", false);
  }

  void readBranch(const std::string& name, const JsonRef& branch) {
    branch.object();
    for (const char* key : {"geom", "appr", "trunk"})
      if (auto decoder = branch.find(key)) addDecoder(insidePath(*decoder));
    if (auto statics = branch.find("statics"))
      for (const auto& [key, file] : statics->members()) addFile(insidePath(file), "statics", true);
    for (const char* key : {"mesh_glb", "frame_vertices", "rig_presets"})
      if (auto file = branch.find(key)) addFile(insidePath(*file), "mesh", true);
    for (const char* key : {"gaze_conditioned", "fused"})
      if (auto flag = branch.find(key)) flag->boolean();
    const int branchUvRes = int(branch.integerOr("uv_res", 0, 0, kMaxUvRes));
    branch.integerOr("rig_dim", 0, 0, kMaxControls);
    const auto meshJson = branch.find("mesh_json");
    if (!meshJson) return;
    const std::string jsonName = insidePath(*meshJson);
    const auto meshBin = branch.find("mesh_bin");
    const std::string binName = meshBin ? insidePath(*meshBin) : std::string();
    const bool jsonPresent = addFile(jsonName, "mesh", true).present;
    const bool binPresent = !binName.empty() && addFile(binName, "mesh", true).present;
    if (jsonPresent && binPresent)
      readBranchMesh(name, jsonName, binName, branchUvRes);  // a missing one is listed in problems
  }

  // mesh_<b>.json viewing mesh_<b>.bin: counts and views are checked against
  // the .bin before anything is copied out of it.
  void readBranchMesh(const std::string& branch, const std::string& jsonName, const std::string& binName,
                      int branchUvRes) {
    const fs::path jsonPath = m_b.folder / jsonName;
    const json manifest = take(readJsonFile(jsonPath));
    const auto bin = take(readFileBytes(m_b.folder / binName));
    BranchMesh mesh = take(guardRead(jsonPath.string(), [&] {
      const JsonRef m(manifest);
      m.object();
      BranchMesh out;
      out.branch = branch;
      out.vertexCount = m.find("num_vertices") ? m["num_vertices"].count(bin.size()) : 0;
      out.faceCount = m.find("num_faces") ? m["num_faces"].count(bin.size()) : 0;
      out.uvRes = int(m.integerOr("uv_res", branchUvRes, 0, kMaxUvRes));
      const auto buffers = m.find("buffers");
      for (const JsonRef& buf : buffers ? buffers->elements() : std::vector<JsonRef>{}) {
        buf.object();
        const std::string bufName = buf["name"].string();
        const JsonRef dtypeRef = buf["dtype"];
        DType dtype;
        if (!parseDType(dtypeRef.string(), &dtype)) dtypeRef.fail("unknown dtype '" + dtypeRef.string() + "'");
        std::size_t elements = 1;
        for (const JsonRef& d : buf["shape"].elements()) {
          const std::size_t n = d.count(bin.size());
          if (n != 0 && elements > bin.size() / n) d.fail("the shape needs more bytes than " + binName + " holds");
          elements *= n;
        }
        const std::size_t offset = buf["offset"].count(bin.size()), length = buf["byte_length"].count(bin.size());
        if (elements > bin.size() / dtypeSize(dtype) || elements * dtypeSize(dtype) != length)
          buf.fail("byte_length " + std::to_string(length) + " != product(shape) * sizeof(" + dtypeName(dtype) + ")");
        if (length > bin.size() - offset) buf.fail("buffer " + bufName + " runs past the end of " + binName);
        if (bufName == "faces") {
          if (dtype != DType::U32 || elements != out.faceCount * 3) buf.fail("faces must be u32 (num_faces, 3)");
          out.faces.resize(elements);
          if (length) std::memcpy(out.faces.data(), bin.data() + offset, length);
        } else if (bufName == "neutral_vertices") {
          if (dtype != DType::F32 || elements != out.vertexCount * 3)
            buf.fail("neutral_vertices must be f32 (num_vertices, 3)");
          out.neutral.resize(elements);
          if (length) std::memcpy(out.neutral.data(), bin.data() + offset, length);
        }
      }
      for (auto f : out.faces)
        if (f >= out.vertexCount)
          m.fail("faces name vertex " + std::to_string(f) + " past num_vertices (" + std::to_string(out.vertexCount) +
                 ")");
      return out;
    }));
    m_b.meshes.push_back(std::move(mesh));
  }

  void rigBlock(const JsonRef& s) {
    std::error_code ec;
    if (auto rig = s.find("rig")) {
      rig->object();
      m_b.rig = rig->json();
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
    const JsonRef r(m_b.rig, m_b.rigDerived ? "" : "/rig");
    static constexpr std::array<std::pair<const char*, int>, 3> kBackends{{{"gnm", 0}, {"orl", 1}, {"none", 2}}};
    const int backend = r.find("backend") ? r["backend"].choice(kBackends) : 2;
    const auto controlNames = r.find("control_names");
    if (controlNames) controlNames->strings(std::size_t(kMaxControls));
    const auto vertexCount = r.find("vertex_count");
    if (vertexCount) vertexCount->count(std::numeric_limits<std::uint32_t>::max());
    const auto packRef = r.find("pack");
    if (backend == 0) {
      const std::string pack = packRef ? insidePath(*packRef) : std::string("gnm_head.aosrig");
      addFile(pack, "pack", true);
      AosRigPack parsed = take(readAosRig((m_b.folder / pack).string()));
      if (controlNames && controlNames->size() != std::size_t(parsed.headExt.dim))
        controlNames->fail("lists " + std::to_string(controlNames->size()) + " names; the GNM pack takes " +
                           std::to_string(parsed.headExt.dim) + " controls");
      if (vertexCount && vertexCount->count(std::numeric_limits<std::uint32_t>::max()) != parsed.vertexCount)
        vertexCount->fail("says " + vertexCount->json().dump() + " but the GNM pack has " +
                          std::to_string(parsed.vertexCount) + " vertices");
      json& block = m_b.rig;  // the refs above stay valid: members are added, none replaced
      if (!controlNames) block["control_names"] = headExtNames(parsed.headExt);
      if (!vertexCount) block["vertex_count"] = parsed.vertexCount;
      m_b.gnmPack = std::move(parsed);
    } else if (backend == 1) {
      addFile(packRef ? insidePath(*packRef) : std::string("orl_pack.bin"), "pack", true);
      if (!controlNames && fs::exists(m_b.folder / "rig_names.json", ec)) {
        const fs::path namesPath = m_b.folder / "rig_names.json";
        const json names = take(readJsonFile(namesPath));
        m_b.rig["control_names"] =
            take(guardRead(namesPath.string(), [&] { return JsonRef(names).strings(std::size_t(kMaxControls)); }));
      }
    } else if (packRef) {
      packRef->string();
    }
    if (backend == 2) m_b.rig["backend"] = "none";
  }

  void expressionBlock(const JsonRef& s) {
    const std::string backend = m_b.rig.value("backend", std::string("none"));
    if (auto e = s.find("expression_space")) {
      e->object();
      static constexpr std::array<std::pair<const char*, ExpressionKind>, 3> kKinds{
          {{"arkit52", ExpressionKind::Arkit52}, {"gnm", ExpressionKind::Gnm}, {"gnm68", ExpressionKind::Gnm68}}};
      ExpressionSpace& space = m_b.expression;
      space.kind = e->find("kind") ? (*e)["kind"].choice(kKinds) : ExpressionKind::Gnm;
      const auto dimRef = e->find("dim");
      space.dim = dimRef ? dimRef->toInt(0, int(kMaxControls)) : 0;
      const auto namesRef = e->find("names");
      if (namesRef) space.names = namesRef->strings(std::size_t(kMaxControls));
      const auto segmentsRef = e->find("segments");
      if (segmentsRef) {
        for (const JsonRef& seg : segmentsRef->elements()) {
          seg.object();
          space.segments.push_back({seg["name"].string(), seg["start"].toInt(0, int(kMaxControls)),
                                    seg["count"].toInt(0, int(kMaxControls))});
        }
      }
      const bool arkitMap = e->booleanOr("arkit_map", false);
      const JsonRef& dimPlace =
          dimRef ? *dimRef : *e;  // a dim that was not given is taken from its source, so cannot disagree
      if (space.kind == ExpressionKind::Arkit52) {
        if (space.dim == 0) space.dim = int(kArkitCount);
        if (space.dim != int(kArkitCount))
          dimPlace.fail("is " + std::to_string(space.dim) + "; an ARKit-52 space takes 52 weights");
        if (space.names.empty()) space.names = arkitNames();
      }
      if (m_b.gnmPack && space.kind == ExpressionKind::Gnm) {
        // A declared GNM space takes what it leaves out from the pack's
        // layout, and must agree with it where it does not.
        const ExpressionSpace packSpace = gnmExpressionSpace(m_b.gnmPack->headExt, false);
        if (space.dim == 0) space.dim = packSpace.dim;
        if (space.dim != packSpace.dim)
          dimPlace.fail("is " + std::to_string(space.dim) + " but the GNM pack takes " + std::to_string(packSpace.dim) +
                        " controls");
        if (space.names.empty()) space.names = packSpace.names;
        if (space.segments.empty()) space.segments = packSpace.segments;
      }
      if (namesRef && space.dim != 0 && space.names.size() != std::size_t(space.dim))
        namesRef->fail("lists " + std::to_string(space.names.size()) + " names for a space of " +
                       std::to_string(space.dim));
      for (std::size_t i = 0; segmentsRef && i < space.segments.size(); ++i)
        if (std::int64_t(space.segments[i].start) + space.segments[i].count > space.dim)
          segmentsRef->at(i).fail("runs past the space's " + std::to_string(space.dim) + " controls");
      if (arkitMap && m_b.gnmPack) space.arkitMap = ArkitToGnmMap::create(m_b.gnmPack->headExt);
      return;
    }
    m_b.expressionDerived = true;
    if (backend == "gnm" && m_b.gnmPack) {
      m_b.expression = gnmExpressionSpace(m_b.gnmPack->headExt, false);
    } else {  // a MetaHuman-driven bundle takes ARKit frames (arkitToRig)
      m_b.expression.kind = ExpressionKind::Arkit52;
      m_b.expression.dim = int(kArkitCount);
      m_b.expression.names = arkitNames();
    }
  }

  Bundle m_b;
  std::string m_source;
};

}  // namespace

Expected<Bundle> loadBundle(const std::filesystem::path& folder) {
  return BundleLoader(folder).load();
}

}  // namespace riglens::core
