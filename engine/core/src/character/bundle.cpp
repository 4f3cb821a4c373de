#include "riglens/core/character/bundle.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "bundle_keys.h"
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
      noteSceneOddities(m_b.scene, m_source, m_b.problems);
      addFile("scene.json", "manifest", true);
    } else if (fs::exists(m_b.folder / "mesh.json", ec)) {
      m_source = (m_b.folder / "mesh.json").string();
      m_b.schema = 1;  // single region: one "head" branch viewing mesh.bin
      // Adapted to one fused `head` branch over geom.onnx / appr.onnx (A1).
      json head = {{"mesh_json", "mesh.json"}, {"mesh_bin", "mesh.bin"}, {"body_rig", "head"}};
      if (fs::exists(m_b.folder / "geom.onnx", ec))
        head.update({{"geom", "geom.onnx"}, {"appr", "appr.onnx"}, {"fused", true}});
      m_b.scene = {{"schema_version", "1"}, {"num_poses", 0}, {"branches", {{"head", head}}}};
      if (addFile("rig_names.json", "names", true).present) {
        const fs::path namesPath = m_b.folder / "rig_names.json";
        auto names = readJsonFile(namesPath);
        if (!names) return names.error();
        auto count = guardRead(namesPath.string(), [&] { return JsonRef(*names).array().size(); });
        if (!count) return count.error();
        if (*count > std::size_t(kMaxControls))
          return errorAt(ErrorCode::Invalid, namesPath.string(), "",
                         "more than " + std::to_string(kMaxControls) + " names");
        m_b.scene["branches"]["head"]["rig_dim"] = *count;
      }
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
    if (auto moment = s.find("moment_scale")) m_b.momentScale = moment->number();
    std::vector<std::pair<std::string, JsonRef>> branches;
    if (auto list = s.find("branches")) branches = list->members();
    std::stable_sort(branches.begin(), branches.end(), [](const auto& a, const auto& b) {
      return branchRank(a.first) != branchRank(b.first) ? branchRank(a.first) < branchRank(b.first) : a.first < b.first;
    });
    for (const auto& [name, branch] : branches) m_b.branches.push_back(name);
    for (const auto& [name, branch] : branches) readBranch(s, name, branch, branches.size());
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
    const std::string fp16 = fp16SiblingName(name);
    std::error_code ec;
    if (!fp16.empty() && fp16 != name && fs::exists(m_b.folder / fp16, ec)) addFile(fp16, "decoder", false);
  }

  void readBranch(const JsonRef& s, const std::string& name, const JsonRef& branch, std::size_t branchCount) {
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
    readBranchMeshFiles(name, branch, branchUvRes, meshJson);
    readDecoders(s, name, branch, branchCount);
  }

  void readBranchMeshFiles(const std::string& name, const JsonRef& branch, int branchUvRes,
                           const std::optional<JsonRef>& meshJson) {
    if (!meshJson) return;
    const std::string jsonName = insidePath(*meshJson);
    const auto meshBin = branch.find("mesh_bin");
    const std::string binName = meshBin ? insidePath(*meshBin) : std::string();
    const bool jsonPresent = addFile(jsonName, "mesh", true).present;
    const bool binPresent = !binName.empty() && addFile(binName, "mesh", true).present;
    if (jsonPresent && binPresent)
      readBranchMesh(name, jsonName, binName, branchUvRes);  // a missing one is listed in problems
  }

  // The branch's decoder chain (A1, A3, A4, A7). A gaze-conditioned branch
  // is parsed but skipped with a visible note; a branch without decoders
  // shows its mesh through the debug preview only.
  void readDecoders(const JsonRef& s, const std::string& name, const JsonRef& branch, std::size_t branchCount) {
    if (branch.booleanOr("gaze_conditioned", false)) {
      m_b.problems.push_back({m_source, branch.pointer(),
                              name + ": gaze-conditioned decoders are not supported; the branch is not drawn"});
      return;
    }
    const auto geom = branch.find("geom");
    if (!geom) return;
    DecoderBranch d;
    d.name = name;
    d.fused = branch.booleanOr("fused", false);
    d.geom = insidePath(*geom);
    d.appr = insidePath(branch["appr"]);
    std::error_code ec;
    for (auto [fp32, fp16] : {std::pair{&d.geom, &d.geomFp16}, std::pair{&d.appr, &d.apprFp16}}) {
      const std::string sibling = fp16SiblingName(*fp32);
      if (!sibling.empty() && sibling != *fp32 && fs::is_regular_file(m_b.folder / sibling, ec)) *fp16 = sibling;
    }
    if (auto trunk = branch.find("trunk")) {
      d.trunk = insidePath(*trunk);
    } else if (auto trunks = s.find("trunks"); trunks && trunks->find(name)) {
      d.trunk = insidePath((*trunks)[name]);
      addDecoder(d.trunk);
    } else if (!d.fused) {
      branch.fail("branch '" + name + "' names no trunk (here or in /trunks) and is not \"fused\": true");
    }
    // uv_res: the branch's, else its mesh's (a schema-1 mesh.json carries it).
    const BranchMesh* mesh = m_b.mesh(name);
    d.uvRes = branch.find("uv_res") || !mesh ? int(branch["uv_res"].integer(2, kMaxUvRes)) : mesh->uvRes;
    if (d.uvRes < 2) branch.fail("branch '" + name + "' needs a uv_res of at least 2 (here or in its mesh)");
    if (auto dim = branch.find("rig_dim")) {
      d.rigDim = int(dim->integer(0, kMaxControls));
    } else if (auto dims = s.find("rig_dims"); dims && dims->find(name)) {
      d.rigDim = int((*dims)[name].integer(0, kMaxControls));
    } else {
      d.rigDim = m_b.rigDim;
      if (branchCount > 1)
        m_b.problems.push_back({m_source, branch.pointer(), name + ": rig_dim inherited from the scene's rig_dim"});
    }
    // A7: 0 or absent = off unless a finite number > 0.
    const auto positive = [&](const char* key) {
      const auto v = branch.find(key);
      if (!v || !v->isNumber()) return 0.0f;
      const double x = v->number();
      return std::isfinite(x) && x > 0 ? float(x) : 0.0f;
    };
    LiftScale& scale = d.scale;
    const auto bias = branch.find("scale_log_bias");
    if (bias) scale.scaleLogBias = bias->toFloat();
    const float sigmaOffset = branch.find("sigma_offset") ? branch["sigma_offset"].toFloat() : 0.0f;
    if (auto max = branch.find("scale_log_max"); max && max->isNumber() && std::isfinite(max->number()))
      scale.scaleLogMax = max->toFloat();
    else if (bias)
      scale.scaleLogMax = name == "clothes" ? 3.0f : 4.0f;
    const float sigmaMax = positive("sigma_max");
    scale.bounded = sigmaMax > 0;
    scale.logSigmaMax = scale.bounded ? std::log(sigmaMax) : 0.0f;
    scale.scaleOffset = scale.bounded ? sigmaOffset : scale.scaleLogBias;
    scale.triKappa = positive("tri_size_cap");
    scale.sliverQMin = positive("sliver_min_quality");
    d.uvErode = positive("uv_erode");
    if (d.uvErode > 0)
      m_b.problems.push_back({m_source, branch.pointer() + "/uv_erode",
                              name + ": uv_erode " + std::to_string(d.uvErode) + " is not applied by this lift"});
    if (auto presets = branch.find("rig_presets")) d.rigPresets = insidePath(*presets);
    m_b.decoders.push_back(std::move(d));
  }

  // The lift's UV maps in a branch mesh (CHARACTER.md 4): copied out of the
  // .bin once every index is known to point inside the mesh.
  template <class T>
  static void copyView(std::vector<T>& out, const std::vector<std::uint8_t>& bin, std::size_t offset,
                       std::size_t length) {
    out.resize(length / sizeof(T));
    if (length) std::memcpy(out.data(), bin.data() + offset, length);
  }

  static void checkUvMaps(const JsonRef& m, const BranchMesh& mesh) {
    const std::size_t hw = std::size_t(mesh.uvRes) * std::size_t(mesh.uvRes);
    const bool any = !mesh.idxim.empty() || !mesh.barim.empty() || !mesh.triim.empty() || !mesh.valid.empty();
    if (!any) return;
    if (mesh.neutral.size() != mesh.vertexCount * 3)
      m.fail("UV maps need neutral_vertices (num_vertices, 3) to lift from");
    if (mesh.idxim.size() != hw * 3 || mesh.barim.size() != hw * 3 || mesh.triim.size() != hw ||
        mesh.valid.size() != hw)
      m.fail("idxim, barim (uv_res, uv_res, 3) and triim, valid (uv_res, uv_res) must all be present for uv_res " +
             std::to_string(mesh.uvRes));
    const auto V = std::int64_t(mesh.vertexCount), F = std::int64_t(mesh.faceCount);
    for (std::size_t i = 0; i < mesh.idxim.size(); ++i)
      if (mesh.idxim[i] < -V || mesh.idxim[i] >= V)
        m.fail("idxim element " + std::to_string(i) + " is " + std::to_string(mesh.idxim[i]) + ", outside [-" +
               std::to_string(V) + ", " + std::to_string(V) + ")");
    for (std::size_t i = 0; i < mesh.triim.size(); ++i)
      if (mesh.triim[i] >= F)
        m.fail("triim element " + std::to_string(i) + " is " + std::to_string(mesh.triim[i]) + ", past num_faces (" +
               std::to_string(F) + ")");
  }

  // mesh_<b>.json viewing mesh_<b>.bin: counts and views are checked against
  // the .bin before anything is copied out of it.
  void readBranchMesh(const std::string& branch, const std::string& jsonName, const std::string& binName,
                      int branchUvRes) {
    const fs::path jsonPath = m_b.folder / jsonName;
    const json manifest = take(readJsonFile(jsonPath));
    noteMeshManifestOddities(manifest, jsonPath.string(), m_b.problems);
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
        const auto view = [&](DType want, std::size_t count, const char* shape) {
          if (dtype != want || elements != count)
            buf.fail(bufName + " must be " + dtypeName(want) + " " + shape + " for uv_res " +
                     std::to_string(out.uvRes));
        };
        const std::size_t hw = std::size_t(out.uvRes) * std::size_t(out.uvRes);
        if (bufName == "idxim") {
          view(DType::I32, hw * 3, "(uv_res, uv_res, 3)");
          copyView(out.idxim, bin, offset, length);
        } else if (bufName == "barim") {
          view(DType::F32, hw * 3, "(uv_res, uv_res, 3)");
          copyView(out.barim, bin, offset, length);
        } else if (bufName == "triim") {
          view(DType::I32, hw, "(uv_res, uv_res)");
          copyView(out.triim, bin, offset, length);
        } else if (bufName == "valid") {
          view(DType::U8, hw, "(uv_res, uv_res)");
          copyView(out.valid, bin, offset, length);
        } else if (bufName == "faces") {
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
      checkUvMaps(m, out);
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
      orlRig(packRef ? insidePath(*packRef) : std::string("orl_pack.bin"), controlNames);
    } else if (packRef) {
      packRef->string();
    }
    if (backend == 2) m_b.rig["backend"] = "none";
  }

  // The pack and its DNA, and the control names mapped onto the DNA (B1):
  // rig.control_names, else rig_names.json, else the DNA's GUI controls.
  void orlRig(const std::string& packName, const std::optional<JsonRef>& controlNames) {
    std::error_code ec;
    addFile(packName, "pack", true);
    m_b.orl = std::make_shared<const OrlCharacter>(take(loadOrlCharacter(m_b.folder / packName)));
    std::string namesSource = m_source, namesPointer = "/rig/control_names";
    if (!controlNames && fs::exists(m_b.folder / "rig_names.json", ec)) {
      const fs::path namesPath = m_b.folder / "rig_names.json";
      const json names = take(readJsonFile(namesPath));
      m_b.rig["control_names"] =
          take(guardRead(namesPath.string(), [&] { return JsonRef(names).strings(std::size_t(kMaxControls)); }));
      namesSource = namesPath.string(), namesPointer = "";
    } else if (!controlNames) {
      m_b.rig["control_names"] = m_b.orl->dna->guiControlNames;
    }
    const auto names = m_b.rig["control_names"].get<std::vector<std::string>>();
    m_b.orlControls = take(mapOrlControls(*m_b.orl->dna, names, namesSource, namesPointer));
    const std::size_t unmatched = m_b.orlControls.unmatched.size();
    if (unmatched)
      m_b.problems.push_back({namesSource, namesPointer,
                              std::to_string(unmatched) +
                                  (unmatched == 1 ? " control name is not the DNA's and is ignored: '"
                                                  : " control names are not the DNA's and are ignored, the first '") +
                                  m_b.orlControls.unmatched.front() + "'"});
  }

  void expressionBlock(const JsonRef& s) {
    // (find, not value("backend", ...): GCC 12 at -O2 reports a null
    // dereference inside nlohmann-json's value() when this source shares a
    // unity batch, a false alarm CI's -Werror stops on.)
    const auto backendAt = m_b.rig.find("backend");
    const std::string backend = backendAt != m_b.rig.end() ? backendAt->get<std::string>() : std::string("none");
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

std::string fp16SiblingName(const std::string& name) {
  constexpr std::string_view kExt = ".onnx", kTag = "_fp16";
  if (name.size() < kExt.size() || name.compare(name.size() - kExt.size(), kExt.size(), kExt) != 0) return {};
  const std::string stem = name.substr(0, name.size() - kExt.size());
  if (stem.size() >= kTag.size() && stem.compare(stem.size() - kTag.size(), kTag.size(), kTag) == 0) return name;
  return stem + std::string(kTag) + std::string(kExt);
}

const BranchMesh* Bundle::mesh(const std::string& branch) const {
  for (const auto& m : meshes)
    if (m.branch == branch) return &m;
  return nullptr;
}

Expected<Bundle> loadBundle(const std::filesystem::path& folder) {
  return BundleLoader(folder).load();
}

}  // namespace riglens::core
