#include "riglens/samples/dna_writer.h"

#include <cstring>

namespace riglens::samples {
namespace {

using core::Dna;

class Bytes {
 public:
  void u8(std::uint8_t v) { m_b.push_back(v); }
  void u16(std::uint16_t v) { be(v, 2); }
  void u32(std::uint32_t v) { be(v, 4); }
  void f32(float v) {
    std::uint32_t bits;
    std::memcpy(&bits, &v, 4);
    u32(bits);
  }
  void str(const std::string& s) {
    u32(std::uint32_t(s.size()));
    m_b.insert(m_b.end(), s.begin(), s.end());
  }
  void strs(const std::vector<std::string>& v) {
    u32(std::uint32_t(v.size()));
    for (const auto& s : v) str(s);
  }
  void u16s(const std::vector<std::uint16_t>& v) {
    u32(std::uint32_t(v.size()));
    for (auto x : v) u16(x);
  }
  void f32s(const std::vector<float>& v) {
    u32(std::uint32_t(v.size()));
    for (auto x : v) f32(x);
  }
  void patch32(std::size_t at, std::uint32_t v) {
    for (int i = 0; i < 4; ++i) m_b[at + std::size_t(i)] = std::uint8_t(v >> (24 - 8 * i));
  }
  void append(const std::vector<std::uint8_t>& more) { m_b.insert(m_b.end(), more.begin(), more.end()); }
  std::size_t size() const { return m_b.size(); }
  std::vector<std::uint8_t>& data() { return m_b; }

 private:
  void be(std::uint64_t v, int n) {
    for (int i = n - 1; i >= 0; --i) m_b.push_back(std::uint8_t(v >> (8 * i)));
  }
  std::vector<std::uint8_t> m_b;
};

void lodMapping(Bytes& b, const core::DnaLodMapping& m) {
  b.u16s(m.lods);
  b.u32(std::uint32_t(m.indices.size()));
  for (const auto& list : m.indices) b.u16s(list);
}

void conditionals(Bytes& b, const core::DnaConditionals& t) {
  b.u16s(t.inputs), b.u16s(t.outputs), b.f32s(t.from), b.f32s(t.to), b.f32s(t.slope), b.f32s(t.cut);
}

std::vector<std::uint8_t> descriptor(const Dna& d) {
  Bytes b;
  b.str(d.name), b.u16(d.archetype), b.u16(d.gender), b.u16(d.age);
  b.u32(std::uint32_t(d.metadata.size()));
  for (const auto& [k, v] : d.metadata) b.str(k), b.str(v);
  b.u16(d.translationUnit), b.u16(d.rotationUnit);
  for (auto a : d.coordinateSystem) b.u16(a);
  b.u16(d.lodCount), b.u16(d.maxLod), b.str(d.complexity), b.str(d.dbName);
  return std::move(b.data());
}

std::vector<std::uint8_t> definition(const Dna& d) {
  Bytes b;
  lodMapping(b, d.lodJoints), lodMapping(b, d.lodBlendShapes), lodMapping(b, d.lodAnimatedMaps),
      lodMapping(b, d.lodMeshes);
  b.strs(d.guiControlNames), b.strs(d.rawControlNames), b.strs(d.jointNames), b.strs(d.blendShapeNames);
  b.strs(d.animatedMapNames), b.strs(d.meshNames);
  b.u16s({}), b.u16s({});  // meshBlendShapeChannelMapping: no meshes
  b.u16s(d.jointParents);
  for (const auto* v : {&d.neutralTranslations, &d.neutralRotations})
    for (int axis = 0; axis < 3; ++axis) {
      std::vector<float> xs;
      for (std::size_t j = 0; j * 3 + 2 < v->size(); ++j) xs.push_back((*v)[j * 3 + std::size_t(axis)]);
      b.f32s(xs);
    }
  return std::move(b.data());
}

// The four parts of the behaviour (v2.1 writes each at its own offset).
std::vector<std::vector<std::uint8_t>> behaviour(const Dna& d) {
  Bytes controls, joints, channels, maps;
  controls.u16(d.psdCount);
  conditionals(controls, d.guiToRaw);
  controls.u16s(d.psdRows), controls.u16s(d.psdColumns), controls.f32s(d.psdValues);
  joints.u16(d.jointRowCount), joints.u16(d.jointColumnCount);
  joints.u32(std::uint32_t(d.jointGroups.size()));
  for (const auto& g : d.jointGroups)
    joints.u16s(g.lods), joints.u16s(g.inputs), joints.u16s(g.outputs), joints.f32s(g.values), joints.u16s(g.joints);
  channels.u16s(d.blendShapeLods), channels.u16s(d.blendShapeInputs), channels.u16s(d.blendShapeOutputs);
  maps.u16s(d.animatedMapLods);
  conditionals(maps, d.animatedMaps);
  return {std::move(controls.data()), std::move(joints.data()), std::move(channels.data()), std::move(maps.data())};
}

std::vector<std::uint8_t> rbfBehaviour(const Dna& d) {
  Bytes b;
  lodMapping(b, d.lodSolvers);
  b.u32(std::uint32_t(d.rbfSolvers.size()));
  for (const auto& s : d.rbfSolvers) {
    const std::size_t sizeAt = b.size();
    b.u32(0);
    b.str(s.name), b.u16s(s.rawControls), b.u16s(s.poses), b.f32s(s.targets), b.f32(s.radius), b.f32(s.weightThreshold);
    b.u16(std::uint16_t(s.type)), b.u16(s.automaticRadius ? 0 : 1), b.u16(std::uint16_t(s.distance));
    b.u16(std::uint16_t(s.normalize)), b.u16(std::uint16_t(s.function)), b.u16(s.twistAxis);
    b.patch32(sizeAt, std::uint32_t(b.size() - sizeAt - 4));  // measured from just after the size field
  }
  b.u32(std::uint32_t(d.rbfPoses.size()));
  for (const auto& p : d.rbfPoses) b.str(p.name), b.f32(p.scale);
  return std::move(b.data());
}

std::vector<std::uint8_t> rbfExtension(const Dna& d) {
  Bytes b;
  b.strs(d.poseControlNames);
  b.u32(std::uint32_t(d.rbfPoses.size()));
  for (const auto& p : d.rbfPoses) b.u16s(p.inputControls), b.u16s(p.outputControls), b.f32s(p.outputWeights);
  return std::move(b.data());
}

std::vector<std::uint8_t> jointRepresentations(const Dna& d) {
  Bytes b;
  b.u32(std::uint32_t(d.jointRotations.size()));
  for (auto r : d.jointRotations) b.u16(0), b.u16(std::uint16_t(r)), b.u16(0);
  return std::move(b.data());
}

std::vector<std::uint8_t> sceneConventions(const Dna& d, std::uint16_t version) {
  Bytes b;
  b.u32(d.rotationSequence);
  for (float s : d.rotationSign) b.u32(s < 0 ? 0xffffffffu : 1u);
  if (version >= 8) b.u8(0);  // faceWindingOrder
  return std::move(b.data());
}

void header(Bytes& b, std::uint16_t version) {
  b.u8('D'), b.u8('N'), b.u8('A'), b.u16(2), b.u16(version);
}

std::vector<std::uint8_t> sectioned(const Dna& d) {
  Bytes b;
  header(b, 1);
  const std::size_t table = b.size();
  for (int i = 0; i < 8; ++i) b.u32(0);
  const auto parts = behaviour(d);
  const std::vector<std::vector<std::uint8_t>> sections{
      descriptor(d), definition(d), {}, parts[0], parts[1], parts[2], parts[3], {0, 0, 0, 0}};  // geometry: no meshes
  for (std::size_t s = 0; s < sections.size(); ++s) {
    b.patch32(table + 4 * s, std::uint32_t(b.size()));
    b.append(sections[s]);
  }
  b.u8('A'), b.u8('N'), b.u8('D');
  return std::move(b.data());
}

std::uint32_t fourCc(const std::string& id) {
  std::uint32_t v = 0;
  for (std::size_t i = 0; i < 4; ++i) v = (v << 8) | std::uint8_t(i < id.size() ? id[i] : ' ');
  return v;
}

}  // namespace

core::Expected<std::vector<std::uint8_t>> writeDna(const Dna& d, const DnaWriteOptions& options) {
  const bool rbf = !d.rbfSolvers.empty() || !d.rbfPoses.empty();
  if (options.version == 0 || options.version > 8)
    return core::makeError(core::ErrorCode::Usage,
                           "DNA version 2." + std::to_string(options.version) + " is not written");
  if (options.version == 1) {
    if (rbf || !d.jointRotations.empty() || d.rotationSequence != 0 || options.mlControls)
      return core::makeError(core::ErrorCode::Usage,
                             "a v2.1 DNA has no RBF, joint representation, rotation or ML layers");
    return sectioned(d);
  }
  if ((rbf || !d.jointRotations.empty()) && options.version < 4)
    return core::makeError(core::ErrorCode::Usage, "RBF solvers and joint representations need DNA 2.4 or later");
  std::vector<std::pair<std::string, std::vector<std::uint8_t>>> layers{{"desc", descriptor(d)},
                                                                        {"defn", definition(d)}};
  std::vector<std::uint8_t> bhvr;
  for (const auto& part : behaviour(d)) bhvr.insert(bhvr.end(), part.begin(), part.end());
  layers.emplace_back("bhvr", std::move(bhvr));
  if (options.mlControls) {
    Bytes ml;
    ml.u32(options.mlControls);
    for (std::uint32_t i = 0; i < options.mlControls; ++i) ml.str("ml" + std::to_string(i));
    layers.emplace_back("mlbh", std::move(ml.data()));
  }
  if (rbf) layers.emplace_back("rbfb", rbfBehaviour(d));
  if (!d.jointRotations.empty()) layers.emplace_back("jbmd", jointRepresentations(d));
  if (rbf && d.hasRbfe && options.version >= 5) layers.emplace_back("rbfe", rbfExtension(d));
  if (options.version >= 7) layers.emplace_back("dsce", sceneConventions(d, options.version));
  for (const auto& extra : options.extraLayers) layers.push_back(extra);

  Bytes b;
  header(b, options.version);
  b.u32(std::uint32_t(layers.size()));
  const std::size_t index = b.size();
  for (std::size_t i = 0; i < layers.size(); ++i) b.u32(0), b.u32(0), b.u32(0), b.u32(0);
  for (std::size_t i = 0; i < layers.size(); ++i) {
    const std::size_t at = index + 16 * i;
    const bool v11 = layers[i].first == "desc" || layers[i].first == "defn" || layers[i].first == "bhvr";
    b.patch32(at, fourCc(layers[i].first));
    b.patch32(at + 4, v11 ? 0x00010001u : 0x00010000u);
    b.patch32(at + 8, std::uint32_t(b.size()));
    b.patch32(at + 12, std::uint32_t(layers[i].second.size()));
    b.append(layers[i].second);
  }
  return std::move(b.data());
}

}  // namespace riglens::samples
