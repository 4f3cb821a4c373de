#include "riglens/core/dna/dna_reader.h"

#include <algorithm>
#include <map>

#include "dna_cursor.h"
#include "riglens/core/base/file_io.h"
#include "riglens/core/base/json_reader.h"
#include "riglens/core/character/orl_pack.h"

namespace riglens::core {
namespace {

using dna_detail::DnaCursor;
using dna_detail::DnaProblem;

constexpr std::size_t kHeaderBytes = 7;  // "DNA", generation u16, version u16
constexpr std::uint16_t kGeneration = 2;
constexpr std::uint16_t kNewestKnownVersion = 8;  // FileVersion 2.8
constexpr std::size_t kSectionCount = 8;          // v2.1's section table
constexpr std::size_t kIndexEntryBytes = 16;      // v2.2+: id, version, offset, size
constexpr std::uint32_t kKnownLayerMajor = 1;     // every layer we read is version 1.x

struct Span {
  std::size_t begin = 0, end = 0;
};

std::string fourCcName(std::uint32_t id) {
  std::string out;
  for (int shift = 24; shift >= 0; shift -= 8) {
    const char c = char((id >> shift) & 0xff);
    if (c >= 0x20 && c < 0x7f) {
      out += c;
    } else {
      static const char* hex = "0123456789abcdef";
      out += "\\x";
      out += hex[(id >> (shift + 4)) & 0xf];
      out += hex[(id >> shift) & 0xf];
    }
  }
  return out;
}

// Where each layer lies. v2.1's behaviour is four sections; v2.2+ keeps them in one layer.
struct LayerMap {
  std::map<std::string, Span> layers;
  std::map<std::string, Span> behaviourParts;  // v2.1 only: controls, joints, blendShapeChannels, animatedMaps
  bool sectioned = false;
};

class Reader {
 public:
  Reader(std::span<const std::uint8_t> bytes, Dna& dna) : m_b(bytes), m_dna(dna) {}

  void read() {
    DnaCursor head(m_b, "header", 0, m_b.size());
    if (m_b.size() < kHeaderBytes || std::memcmp(m_b.data(), "DNA", 3) != 0)
      head.failAt(0, "not a DNA file (no \"DNA\" signature)");
    head.u8(), head.u8(), head.u8();
    m_dna.generation = head.u16();
    m_dna.version = head.u16();
    if (m_dna.generation != kGeneration)
      head.failAt(3, "generation " + std::to_string(m_dna.generation) + " is not supported (only 2)");
    if (m_dna.version == 0) head.failAt(5, "version 2.0 does not exist");
    if (m_dna.version > kNewestKnownVersion)
      warn("version 2." + std::to_string(m_dna.version) + " is newer than 2.8; read as 2.8");
    const LayerMap map = m_dna.version == 1 ? sectionTable(head) : indexTable(head);
    m_map = &map;
    readDescriptor(cursor("desc"));
    readDefinition(cursor("defn"));
    m_psdCount = peekPsdCount();
    if (map.layers.count("rbfb")) readRbfBehaviour(cursor("rbfb"));
    if (map.layers.count("rbfe")) readRbfExtension(cursor("rbfe"));
    finishPoses();
    readBehaviour();
    if (map.layers.count("jbmd")) readJointRepresentations(cursor("jbmd"));
    if (map.layers.count("dsce")) readSceneConventions(cursor("dsce"));
    if (map.layers.count("mlbh")) checkMachineLearned(cursor("mlbh"));
  }

 private:
  void warn(const std::string& message) { m_dna.warnings.emplace_back(std::string(), std::string(), message); }

  DnaCursor cursor(const std::string& id) const {
    const auto it = m_map->layers.find(id);
    if (it == m_map->layers.end()) throw DnaProblem{0, "the DNA has no '" + id + "' layer, which evaluation needs"};
    return DnaCursor(m_b, id, it->second.begin, it->second.end);
  }

  LayerMap sectionTable(DnaCursor& head) {
    LayerMap map;
    map.sectioned = true;
    static const char* names[kSectionCount] = {
        "desc", "defn", "bhvr", "controls", "joints", "blendShapeChannels", "animatedMaps", "geom"};
    // A section has no size in v2.1: it may run to the "AND" trailer.
    const bool trailer = m_b.size() >= 3 && std::memcmp(m_b.data() + m_b.size() - 3, "AND", 3) == 0;
    if (!trailer) warn("the v2.1 file does not end with \"AND\" (cut short?)");
    const std::size_t end = m_b.size() - (trailer ? 3 : 0);
    for (std::size_t s = 0; s < kSectionCount; ++s) {
      const std::size_t at = head.pos();
      const std::size_t offset = head.u32();
      if (offset < kHeaderBytes || offset > end)
        head.failAt(at, std::string("section ") + names[s] + " at byte " + std::to_string(offset) +
                            " lies outside the file (" + std::to_string(m_b.size()) + " bytes)");
      (s >= 3 && s <= 6 ? map.behaviourParts : map.layers)[names[s]] = Span{offset, end};
      m_dna.layers.push_back(names[s]);
    }
    return map;
  }

  LayerMap indexTable(DnaCursor& head) {
    LayerMap map;
    const std::size_t n = head.count(kIndexEntryBytes, "layer index");
    for (std::size_t i = 0; i < n; ++i) {
      const std::size_t at = head.pos();
      const std::uint32_t id = head.u32(), version = head.u32();
      const std::size_t offset = head.u32(), size = head.u32();
      const std::string name = fourCcName(id);
      if (offset > m_b.size() || size > m_b.size() - offset)
        head.failAt(at, "layer '" + name + "' (bytes " + std::to_string(offset) + " + " + std::to_string(size) +
                            ") lies outside the file (" + std::to_string(m_b.size()) + " bytes)");
      m_dna.layers.push_back(name);
      if (map.layers.count(name)) {
        warn("layer '" + name + "' is listed twice; the first is read");
        continue;
      }
      static const char* known[] = {"desc", "defn", "bhvr", "geom", "mlbh", "rbfb",
                                    "jbmd", "twsw", "rbfe", "mlbe", "dsce"};
      if (std::find(std::begin(known), std::end(known), name) == std::end(known)) {
        warn("unknown layer '" + name + "' (" + std::to_string(size) + " bytes) skipped");
        continue;
      }
      if ((version >> 16) != kKnownLayerMajor) {
        warn("layer '" + name + "' version " + std::to_string(version >> 16) + "." + std::to_string(version & 0xffff) +
             " is not one RigLens reads (1.x); skipped");
        continue;
      }
      map.layers[name] = Span{offset, offset + size};
    }
    return map;
  }

  // ---- desc -------------------------------------------------------------
  void readDescriptor(DnaCursor c) {
    m_dna.name = c.str("name");
    m_dna.archetype = c.u16();
    m_dna.gender = c.u16();
    m_dna.age = c.u16();
    const std::size_t n = c.count(8, "metadata");
    for (std::size_t i = 0; i < n; ++i) {
      std::string key = c.str("metadata key");
      m_dna.metadata.emplace_back(std::move(key), c.str("metadata value"));
    }
    m_dna.translationUnit = c.u16();
    const std::size_t rotationAt = c.pos();
    m_dna.rotationUnit = c.u16();
    if (m_dna.translationUnit > 1)
      warn("desc: translation unit " + std::to_string(m_dna.translationUnit) + " is unknown");
    if (m_dna.rotationUnit > 1)
      c.failAt(rotationAt,
               "rotation unit " + std::to_string(m_dna.rotationUnit) + " is neither degrees (0) nor radians (1)");
    for (auto& axis : m_dna.coordinateSystem) axis = c.u16();
    const std::size_t lodAt = c.pos();
    m_dna.lodCount = c.u16();
    m_dna.maxLod = c.u16();
    if (m_dna.lodCount == 0) c.failAt(lodAt, "the descriptor declares no LOD");
    m_dna.complexity = c.str("complexity");
    m_dna.dbName = c.str("dbName");
  }

  // ---- defn -------------------------------------------------------------
  struct PendingMapping {
    DnaLodMapping* mapping;
    std::size_t at;
    const char* what;
  };

  DnaLodMapping lodMapping(DnaCursor& c, const char* what) {
    DnaLodMapping m;
    m.lods = c.u16s(what);
    const std::size_t n = c.count(4, what);
    m.indices.resize(n);
    for (auto& list : m.indices) list = c.u16s(what);
    for (auto l : m.lods)
      if (l >= n) c.fail(std::string(what) + ": a LOD names list " + std::to_string(l) + " of " + std::to_string(n));
    return m;
  }

  void checkMapping(const DnaCursor& c, const DnaLodMapping& m, std::size_t at, std::size_t bound, const char* what) {
    for (const auto& list : m.indices)
      for (auto i : list)
        if (i >= bound)
          c.failAt(at, std::string(what) + ": index " + std::to_string(i) + " is outside its " + std::to_string(bound) +
                           " elements");
  }

  void readDefinition(DnaCursor c) {
    const std::size_t jointsAt = c.pos();
    m_dna.lodJoints = lodMapping(c, "lodJointMapping");
    const std::size_t blendAt = c.pos();
    m_dna.lodBlendShapes = lodMapping(c, "lodBlendShapeMapping");
    const std::size_t mapsAt = c.pos();
    m_dna.lodAnimatedMaps = lodMapping(c, "lodAnimatedMapMapping");
    const std::size_t meshAt = c.pos();
    m_dna.lodMeshes = lodMapping(c, "lodMeshMapping");
    m_dna.guiControlNames = c.strings("guiControlNames");
    m_dna.rawControlNames = c.strings("rawControlNames");
    m_dna.jointNames = c.strings("jointNames");
    m_dna.blendShapeNames = c.strings("blendShapeChannelNames");
    m_dna.animatedMapNames = c.strings("animatedMapNames");
    m_dna.meshNames = c.strings("meshNames");
    checkMapping(c, m_dna.lodJoints, jointsAt, m_dna.jointCount(), "lodJointMapping");
    checkMapping(c, m_dna.lodBlendShapes, blendAt, m_dna.blendShapeCount(), "lodBlendShapeMapping");
    checkMapping(c, m_dna.lodAnimatedMaps, mapsAt, m_dna.animatedMapCount(), "lodAnimatedMapMapping");
    checkMapping(c, m_dna.lodMeshes, meshAt, m_dna.meshNames.size(), "lodMeshMapping");
    const auto from = c.u16s("meshBlendShapeChannelMapping");
    const auto to = c.u16s("meshBlendShapeChannelMapping");
    if (from.size() != to.size()) warn("defn: meshBlendShapeChannelMapping's from and to differ in length");
    const std::size_t hierarchyAt = c.pos();
    m_dna.jointParents = c.u16s("jointHierarchy");
    if (m_dna.jointParents.size() != m_dna.jointCount())
      c.failAt(hierarchyAt, "jointHierarchy has " + std::to_string(m_dna.jointParents.size()) + " parents for " +
                                std::to_string(m_dna.jointCount()) + " joints");
    for (auto p : m_dna.jointParents)
      if (p >= m_dna.jointCount())
        c.failAt(hierarchyAt, "jointHierarchy names joint " + std::to_string(p) + " as a parent");
    m_dna.neutralTranslations = vector3s(c, "neutralJointTranslations");
    m_dna.neutralRotations = vector3s(c, "neutralJointRotations");
  }

  std::vector<float> vector3s(DnaCursor& c, const char* what) {
    const std::size_t at = c.pos();
    const auto xs = c.f32s(what), ys = c.f32s(what), zs = c.f32s(what);
    if (xs.size() != ys.size() || ys.size() != zs.size())
      c.failAt(at, std::string(what) + ": xs, ys and zs differ in length");
    if (xs.size() != m_dna.jointCount())
      warn(std::string("defn: ") + what + " holds " + std::to_string(xs.size()) + " joints of " +
           std::to_string(m_dna.jointCount()));
    std::vector<float> out(xs.size() * 3);
    for (std::size_t i = 0; i < xs.size(); ++i) out[i * 3] = xs[i], out[i * 3 + 1] = ys[i], out[i * 3 + 2] = zs[i];
    return out;
  }

  std::uint16_t peekPsdCount() const {
    DnaCursor c = m_map->sectioned ? partCursor("controls") : cursor("bhvr");
    return c.u16();
  }

  DnaCursor partCursor(const std::string& part) const {
    const Span s = m_map->behaviourParts.at(part);
    return DnaCursor(m_b, "bhvr/" + part, s.begin, s.end);
  }

  // ---- bhvr -------------------------------------------------------------
  void readBehaviour() {
    if (m_map->sectioned) {
      DnaCursor controls = partCursor("controls"), joints = partCursor("joints"),
                channels = partCursor("blendShapeChannels"), maps = partCursor("animatedMaps");
      readControls(controls);
      readJoints(joints);
      readBlendShapes(channels);
      readAnimatedMaps(maps);
      return;
    }
    DnaCursor c = cursor("bhvr");
    readControls(c);
    readJoints(c);
    readBlendShapes(c);
    readAnimatedMaps(c);
  }

  std::size_t controlCount() const { return m_dna.rawCount() + m_psdCount + m_dna.poseControlNames.size(); }

  DnaConditionals conditionals(DnaCursor& c, std::size_t inputs, const char* inputTable, std::size_t outputs,
                               const char* outputTable, const char* what) {
    DnaConditionals t;
    const std::size_t at = c.pos();
    t.inputs = c.indices(inputs, what, inputTable);
    t.outputs = c.indices(outputs, what, outputTable);
    t.from = c.f32s(what);
    t.to = c.f32s(what);
    t.slope = c.f32s(what);
    t.cut = c.f32s(what);
    const std::size_t n = t.inputs.size();
    if (t.outputs.size() != n || t.from.size() != n || t.to.size() != n || t.slope.size() != n || t.cut.size() != n)
      c.failAt(at, std::string(what) + ": its six columns differ in length");
    return t;
  }

  void lodCounts(const DnaCursor& c, std::size_t at, const std::vector<std::uint16_t>& lods, std::size_t rows,
                 const std::string& what) {
    if (lods.size() < m_dna.lodCount)
      c.failAt(at, what + " gives row counts for " + std::to_string(lods.size()) + " LODs; the descriptor declares " +
                       std::to_string(m_dna.lodCount));
    for (auto l : lods)
      if (l > rows) c.failAt(at, what + ": a LOD uses " + std::to_string(l) + " rows of " + std::to_string(rows));
  }

  void readControls(DnaCursor& c) {
    m_dna.psdCount = c.u16();
    m_dna.guiToRaw = conditionals(c, m_dna.guiControlNames.size(), "GUI controls", m_dna.rawCount(), "raw controls",
                                  "controls.conditionals");
    const std::size_t R = m_dna.rawCount();
    const std::size_t at = c.pos();
    m_dna.psdRows = c.u16s("controls.psds.rows");
    for (auto r : m_dna.psdRows)
      if (r < R || r >= R + m_dna.psdCount)
        c.failAt(at, "controls.psds.rows: control " + std::to_string(r) + " is not a PSD (controls " +
                         std::to_string(R) + ".." + std::to_string(R + m_dna.psdCount) + ")");
    m_dna.psdColumns = c.indices(controlCount(), "controls.psds.columns", "controls");
    m_dna.psdValues = c.f32s("controls.psds.values");
    if (m_dna.psdColumns.size() != m_dna.psdRows.size() || m_dna.psdValues.size() != m_dna.psdRows.size())
      c.failAt(at, "controls.psds: rows, columns and values differ in length");
  }

  void readJoints(DnaCursor& c) {
    m_dna.jointRowCount = c.u16();
    m_dna.jointColumnCount = c.u16();
    const std::size_t attributes = m_dna.jointCount() * 9;
    if (m_dna.jointRowCount != attributes)
      warn("bhvr: the joint matrix declares " + std::to_string(m_dna.jointRowCount) + " rows for " +
           std::to_string(attributes) + " joint attributes");
    const std::size_t n = c.count(20, "joints.jointGroups");
    m_dna.jointGroups.resize(n);
    for (std::size_t g = 0; g < n; ++g) {
      DnaJointGroup& group = m_dna.jointGroups[g];
      const std::string what = "joint group " + std::to_string(g);
      const std::size_t at = c.pos();
      group.lods = c.u16s("joints.jointGroups.lods");
      group.inputs = c.indices(controlCount(), "joints.jointGroups.inputIndices", "controls");
      group.outputs = c.indices(attributes, "joints.jointGroups.outputIndices", "joint attributes");
      const std::size_t valuesAt = c.pos();
      group.values = c.f32s("joints.jointGroups.values");
      if (group.values.size() != group.outputs.size() * group.inputs.size())
        c.failAt(valuesAt, what + " holds " + std::to_string(group.values.size()) + " values for " +
                               std::to_string(group.outputs.size()) + " rows x " + std::to_string(group.inputs.size()) +
                               " columns");
      group.joints = c.indices(m_dna.jointCount(), "joints.jointGroups.jointIndices", "joints");
      lodCounts(c, at, group.lods, group.outputs.size(), what);
    }
  }

  void readBlendShapes(DnaCursor& c) {
    const std::size_t at = c.pos();
    m_dna.blendShapeLods = c.u16s("blendShapeChannels.lods");
    m_dna.blendShapeInputs = c.indices(controlCount(), "blendShapeChannels.inputIndices", "controls");
    m_dna.blendShapeOutputs = c.indices(m_dna.blendShapeCount(), "blendShapeChannels.outputIndices", "channels");
    if (m_dna.blendShapeInputs.size() != m_dna.blendShapeOutputs.size())
      c.failAt(at, "blendShapeChannels: inputs and outputs differ in length");
    lodCounts(c, at, m_dna.blendShapeLods, m_dna.blendShapeInputs.size(), "blendShapeChannels");
  }

  void readAnimatedMaps(DnaCursor& c) {
    const std::size_t at = c.pos();
    m_dna.animatedMapLods = c.u16s("animatedMaps.lods");
    m_dna.animatedMaps = conditionals(c, controlCount(), "controls", m_dna.animatedMapCount(), "animated maps",
                                      "animatedMaps.conditionals");
    lodCounts(c, at, m_dna.animatedMapLods, m_dna.animatedMaps.size(), "animatedMaps");
  }

  // ---- rbfb / rbfe ------------------------------------------------------
  template <class E>
  E enumAt(DnaCursor& c, std::uint16_t last, const char* what) {
    const std::size_t at = c.pos();
    const std::uint16_t v = c.u16();
    if (v > last)
      c.failAt(at, std::string(what) + " " + std::to_string(v) + " is unknown (0.." + std::to_string(last) + ")");
    return E(v);
  }

  void readSolver(DnaCursor& c, DnaRbfSolver& s, std::size_t& posesAt) {
    const std::size_t sizeAt = c.pos();
    const std::size_t size = c.u32();
    const std::size_t anchor = c.pos();
    if (size > c.left())
      c.failAt(sizeAt, "an RBF solver's size (" + std::to_string(size) + " bytes) runs past the layer");
    DnaCursor in(m_b, c.layer(), anchor, anchor + size);
    s.name = in.str("solver name");
    const std::size_t inputsAt = in.pos();
    s.rawControls = in.indices(m_dna.rawCount(), "solver rawControlIndices", "raw controls");
    posesAt = in.pos();
    s.poses = in.u16s("solver poseIndices");
    const std::size_t targetsAt = in.pos();
    s.targets = in.f32s("solver rawControlValues");
    if (s.targets.size() != s.poses.size() * s.rawControls.size())
      in.failAt(targetsAt, "solver '" + s.name + "' holds " + std::to_string(s.targets.size()) + " target values for " +
                               std::to_string(s.poses.size()) + " poses x " + std::to_string(s.rawControls.size()) +
                               " inputs");
    s.radius = in.f32();
    s.weightThreshold = in.f32();
    s.type = enumAt<RbfSolverType>(in, 1, "solverType");
    s.automaticRadius = enumAt<std::uint16_t>(in, 1, "automaticRadius") == 0;  // On = 0
    s.distance = enumAt<RbfDistance>(in, 3, "distanceMethod");
    s.normalize = enumAt<RbfNormalize>(in, 1, "normalizeMethod");
    s.function = enumAt<RbfFunction>(in, 4, "functionType");
    s.twistAxis = enumAt<std::uint16_t>(in, 2, "twistAxis");
    if (s.distance != RbfDistance::Euclidean && s.rawControls.size() % 4)
      in.failAt(inputsAt, "solver '" + s.name + "' measures quaternion distances over " +
                              std::to_string(s.rawControls.size()) + " inputs (not a multiple of 4)");
    c.skipTo(anchor + size);
  }

  void readRbfBehaviour(DnaCursor c) {
    const std::size_t mappingAt = c.pos();
    m_dna.lodSolvers = lodMapping(c, "lodSolverMapping");
    const std::size_t n = c.count(40, "solvers");
    m_dna.rbfSolvers.resize(n);
    std::vector<std::size_t> posesAt(n);
    for (std::size_t i = 0; i < n; ++i) readSolver(c, m_dna.rbfSolvers[i], posesAt[i]);
    const std::size_t poses = c.count(8, "poses");
    m_dna.rbfPoses.resize(poses);
    for (auto& p : m_dna.rbfPoses) {
      p.name = c.str("pose name");
      p.scale = c.f32();
    }
    checkMapping(c, m_dna.lodSolvers, mappingAt, n, "lodSolverMapping");
    for (std::size_t i = 0; i < n; ++i)
      for (auto p : m_dna.rbfSolvers[i].poses)
        if (p >= poses)
          c.failAt(posesAt[i], "solver poseIndices: index " + std::to_string(p) + " is outside the " +
                                   std::to_string(poses) + " poses");
  }

  void readRbfExtension(DnaCursor c) {
    m_dna.hasRbfe = true;
    m_dna.poseControlNames = c.strings("poseControlNames");
    const std::size_t at = c.pos();
    const std::size_t n = c.count(12, "poses");
    if (n != m_dna.rbfPoses.size())
      c.failAt(at,
               "lists outputs for " + std::to_string(n) + " poses; rbfb has " + std::to_string(m_dna.rbfPoses.size()));
    for (auto& p : m_dna.rbfPoses) {
      p.inputControls = c.indices(controlCount(), "pose inputControlIndices", "controls");
      p.outputControls = c.indices(controlCount(), "pose outputControlIndices", "controls");
      const std::size_t weightsAt = c.pos();
      p.outputWeights = c.f32s("pose outputControlWeights");
      if (p.outputWeights.size() != p.outputControls.size())
        c.failAt(weightsAt, "pose '" + p.name + "' has " + std::to_string(p.outputWeights.size()) + " weights for " +
                                std::to_string(p.outputControls.size()) + " outputs");
    }
  }

  // Without rbfe, pose p drives control R + P + M + p with weight 1 (postLoadActions).
  void finishPoses() {
    if (m_dna.hasRbfe) return;
    m_dna.poseControlNames.clear();
    for (std::size_t p = 0; p < m_dna.rbfPoses.size(); ++p) {
      m_dna.poseControlNames.push_back(m_dna.rbfPoses[p].name);
      m_dna.rbfPoses[p].outputControls = {std::uint16_t(m_dna.rawCount() + m_psdCount + p)};
      m_dna.rbfPoses[p].outputWeights = {1.0f};
    }
    if (controlCount() > 0xffff) throw DnaProblem{0, "the control space exceeds 65,535 controls"};
  }

  // ---- jbmd, dsce, mlbh -------------------------------------------------
  void readJointRepresentations(DnaCursor c) {
    const std::size_t at = c.pos();
    const std::size_t n = c.count(6, "jointRepresentations");
    if (n != m_dna.jointCount())
      c.failAt(at, "represents " + std::to_string(n) + " joints of " + std::to_string(m_dna.jointCount()));
    m_dna.jointRotations.resize(n);
    for (auto& r : m_dna.jointRotations) {
      c.u16();
      r = enumAt<JointRotation>(c, 1, "rotation representation");
      c.u16();
    }
  }

  void readSceneConventions(DnaCursor c) {
    const std::size_t at = c.pos();
    m_dna.rotationSequence = c.u32();
    if (m_dna.rotationSequence > 5)
      c.failAt(at, "rotation sequence " + std::to_string(m_dna.rotationSequence) + " is unknown");
    for (auto& sign : m_dna.rotationSign) {
      const std::size_t signAt = c.pos();
      const std::uint32_t v = c.u32();
      if (v != 1u && v != 0xffffffffu) c.failAt(signAt, "a rotation sign is neither +1 nor -1");
      sign = v == 1u ? 1.0f : -1.0f;
    }
  }

  void checkMachineLearned(DnaCursor c) {
    const std::size_t at = c.pos();
    const std::size_t n = c.count(4, "mlControlNames");
    if (n)
      c.failAt(at, "the machine-learned behaviour declares " + std::to_string(n) +
                       " ML controls; RigLens does not evaluate them and they would shift the control index space");
  }

  std::span<const std::uint8_t> m_b;
  Dna& m_dna;
  const LayerMap* m_map = nullptr;
  std::size_t m_psdCount = 0;
};

}  // namespace

const std::vector<std::uint16_t>* DnaLodMapping::at(std::size_t lod) const {
  if (lod >= lods.size() || lods[lod] >= indices.size()) return nullptr;
  return &indices[lods[lod]];
}

bool Dna::hasLayer(const std::string& id) const {
  return std::find(layers.begin(), layers.end(), id) != layers.end();
}

std::pair<float, float> Dna::guiRange(std::size_t gui) const {
  bool any = false;
  float lo = 0, hi = 0;
  for (std::size_t r = 0; r < guiToRaw.size(); ++r) {
    if (guiToRaw.inputs[r] != gui) continue;
    const float a = std::min(guiToRaw.from[r], guiToRaw.to[r]), b = std::max(guiToRaw.from[r], guiToRaw.to[r]);
    lo = any ? std::min(lo, a) : a;
    hi = any ? std::max(hi, b) : b;
    any = true;
  }
  return {lo, hi};
}

bool looksLikeDna(std::span<const std::uint8_t> b) {
  return b.size() >= 5 && std::memcmp(b.data(), "DNA", 3) == 0 && b[3] == 0 && b[4] == kGeneration;
}

Expected<Dna> readDna(std::span<const std::uint8_t> bytes, std::string_view source) {
  Dna dna;
  try {
    Reader(bytes, dna).read();
  } catch (const DnaProblem& problem) {
    return errorAtByte(ErrorCode::Invalid, std::string(source), problem.offset, problem.message);
  }
  for (auto& w : dna.warnings) w.source = std::string(source);
  return dna;
}

Expected<Dna> readDnaFile(const std::filesystem::path& path) {
  auto bytes = readFileBytes(path);
  if (!bytes) return bytes.error();
  return readDna(*bytes, path.string());
}

Expected<Dna> readDnaOrPack(const std::filesystem::path& path) {
  auto bytes = readFileBytes(path);
  if (!bytes) return bytes.error();
  if (bytes->size() < 8 || std::memcmp(bytes->data(), "ORLPACK1", 8) != 0) return readDna(*bytes, path.string());
  auto pack = parseOrlPack(*bytes, path.string());
  if (!pack) return pack.error();
  if (pack->behaviorDna.empty())
    return errorAt(ErrorCode::Invalid, path.string(), "", std::string("the pack has no ") + kOrlDnaMember + " member");
  return readDna(pack->behaviorDna, path.string() + "#" + kOrlDnaMember);
}

}  // namespace riglens::core
