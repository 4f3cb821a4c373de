#include "riglens/core/export/gltf_export.h"

#include <tiny_gltf.h>

#include <algorithm>
#include <limits>
#include <random>

#include "gltf/glb_bytes.h"
#include "gltf/gltf_buffer_views.h"
#include "riglens/core/base/file_io.h"
#include "riglens/core/base/json_reader.h"
#include "riglens/core/base/version.h"

namespace riglens::core {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

tinygltf::Value toValue(const json& j) {
  if (j.is_boolean()) return tinygltf::Value(j.get<bool>());
  // tinygltf's integers are ints; a wider one keeps its value as a double.
  if (j.is_number_unsigned() && j.get<std::uint64_t>() <= std::uint64_t(std::numeric_limits<int>::max()))
    return tinygltf::Value(int(j.get<std::uint64_t>()));
  if (j.is_number_integer() && !j.is_number_unsigned() && j.get<std::int64_t>() >= std::numeric_limits<int>::min() &&
      j.get<std::int64_t>() <= std::numeric_limits<int>::max())
    return tinygltf::Value(int(j.get<std::int64_t>()));
  if (j.is_number()) return tinygltf::Value(j.get<double>());
  if (j.is_string()) return tinygltf::Value(j.get<std::string>());
  if (j.is_array()) {
    tinygltf::Value::Array a;
    for (const auto& e : j) a.push_back(toValue(e));
    return tinygltf::Value(std::move(a));
  }
  if (j.is_object()) {
    tinygltf::Value::Object o;
    for (const auto& [k, v] : j.items()) o[k] = toValue(v);
    return tinygltf::Value(std::move(o));
  }
  return tinygltf::Value();
}

// The bytes every mesh and animation channel appends to the binary buffer
// (all 4-byte values, so no view needs padding).
std::size_t binaryBytes(const ExportPlan& plan) {
  std::size_t values = 0;
  for (const PartMesh& mesh : plan.partMeshes)
    values += mesh.positions.size() + mesh.normals.size() + mesh.colors.size() + mesh.indices.size();
  for (const PlannedAnimation& animation : plan.animations)
    for (const PlannedChannel& channel : animation.channels) values += channel.times.size() + channel.values.size();
  return values * sizeof(float);  // indices are uint32: 4 bytes too
}

class ModelWriter {
 public:
  explicit ModelWriter(const ExportPlan& plan) : m_plan(plan) {
    m_model.asset.version = "2.0";
    m_model.asset.generator = std::string("RigLens ") + kVersion;
    m_model.buffers.emplace_back();
    reserveBinaryBytes(m_model, binaryBytes(plan));
  }

  tinygltf::Model build() {
    tinygltf::Material material;
    material.name = "riglens:vertex-color";
    material.pbrMetallicRoughness.baseColorFactor = {1, 1, 1, 1};
    material.pbrMetallicRoughness.metallicFactor = 0.0;
    material.pbrMetallicRoughness.roughnessFactor = 1.0;
    m_model.materials.push_back(material);

    for (const PlannedNode& planned : m_plan.nodes) {
      tinygltf::Node node;
      node.name = planned.name;
      if (glm::length(planned.translation) > 0)
        node.translation = {planned.translation.x, planned.translation.y, planned.translation.z};
      if (planned.rotation != glm::dquat(1, 0, 0, 0))
        node.rotation = {planned.rotation.x, planned.rotation.y, planned.rotation.z, planned.rotation.w};
      json extras = json::object();
      if (planned.part >= 0) {
        const PartMesh& mesh = m_plan.partMeshes[planned.part];
        if (mesh.empty())
          extras["socket"] = true;
        else
          node.mesh = addMesh(planned.name, mesh);
      }
      if (planned.joint >= 0) {
        for (const auto& entry : m_plan.interface["joints"])
          if (entry["node"] == planned.name) extras["joints"].push_back(json::parse(entry.dump()));
      }
      if (!extras.empty()) node.extras = toValue(extras);
      m_model.nodes.push_back(std::move(node));
    }
    for (std::size_t i = 0; i < m_plan.nodes.size(); ++i)
      if (m_plan.nodes[i].parent >= 0) m_model.nodes[m_plan.nodes[i].parent].children.push_back(static_cast<int>(i));
    tinygltf::Scene scene;
    scene.name = m_plan.name;
    scene.nodes = m_plan.roots;
    for (const auto& a : m_plan.animations)
      if (a.autoPlay) {
        scene.extras = toValue(json{{"defaultAnimation", a.name}});
        break;
      }
    m_model.scenes.push_back(scene);
    m_model.defaultScene = 0;

    for (const PlannedAnimation& planned : m_plan.animations) addAnimation(planned);
    while (m_model.buffers[0].data.size() % 4) m_model.buffers[0].data.push_back(0);
    if (m_model.buffers[0].data.empty()) m_model.buffers.clear();  // a lone socket: no binary data at all
    return std::move(m_model);
  }

 private:
  int addAccessor(const std::vector<float>& values, int type, int components, bool bounds, int target) {
    tinygltf::Accessor accessor;
    accessor.bufferView = appendBufferView(m_model, values, target);
    accessor.componentType = TINYGLTF_COMPONENT_TYPE_FLOAT;
    accessor.type = type;
    accessor.count = values.size() / static_cast<std::size_t>(components);
    if (bounds) {
      accessor.minValues.assign(components, std::numeric_limits<double>::max());
      accessor.maxValues.assign(components, std::numeric_limits<double>::lowest());
      for (std::size_t i = 0; i < values.size(); ++i) {
        accessor.minValues[i % components] = std::min<double>(accessor.minValues[i % components], values[i]);
        accessor.maxValues[i % components] = std::max<double>(accessor.maxValues[i % components], values[i]);
      }
    }
    m_model.accessors.push_back(accessor);
    return static_cast<int>(m_model.accessors.size() - 1);
  }

  int addMesh(const std::string& partName, const PartMesh& mesh) {
    tinygltf::Primitive primitive;
    primitive.mode = TINYGLTF_MODE_TRIANGLES;
    primitive.material = 0;
    primitive.attributes["POSITION"] =
        addAccessor(mesh.positions, TINYGLTF_TYPE_VEC3, 3, true, TINYGLTF_TARGET_ARRAY_BUFFER);
    if (!mesh.normals.empty())
      primitive.attributes["NORMAL"] =
          addAccessor(mesh.normals, TINYGLTF_TYPE_VEC3, 3, false, TINYGLTF_TARGET_ARRAY_BUFFER);
    if (!mesh.colors.empty())
      primitive.attributes["COLOR_0"] =
          addAccessor(mesh.colors, TINYGLTF_TYPE_VEC3, 3, false, TINYGLTF_TARGET_ARRAY_BUFFER);
    tinygltf::Accessor indices;
    indices.bufferView = appendBufferView(m_model, mesh.indices, TINYGLTF_TARGET_ELEMENT_ARRAY_BUFFER);
    indices.componentType = TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT;
    indices.type = TINYGLTF_TYPE_SCALAR;
    indices.count = mesh.indices.size();
    m_model.accessors.push_back(indices);
    primitive.indices = static_cast<int>(m_model.accessors.size() - 1);
    tinygltf::Mesh gltfMesh;
    gltfMesh.name = partName + ":mesh";
    gltfMesh.primitives.push_back(primitive);
    m_model.meshes.push_back(gltfMesh);
    return static_cast<int>(m_model.meshes.size() - 1);
  }

  void addAnimation(const PlannedAnimation& planned) {
    tinygltf::Animation animation;
    animation.name = planned.name;
    animation.extras = toValue(json{{"loop", planned.loop}, {"autoPlay", planned.autoPlay}});
    for (const PlannedChannel& ch : planned.channels) {
      tinygltf::AnimationSampler sampler;
      sampler.input = addAccessor(ch.times, TINYGLTF_TYPE_SCALAR, 1, true, 0);
      const bool rotation = ch.path == ChannelPath::Rotation;
      sampler.output =
          addAccessor(ch.values, rotation ? TINYGLTF_TYPE_VEC4 : TINYGLTF_TYPE_VEC3, rotation ? 4 : 3, false, 0);
      sampler.interpolation = ch.interpolation == ChannelInterpolation::Step          ? "STEP"
                              : ch.interpolation == ChannelInterpolation::CubicSpline ? "CUBICSPLINE"
                                                                                      : "LINEAR";
      animation.samplers.push_back(sampler);
      tinygltf::AnimationChannel channel;
      channel.sampler = static_cast<int>(animation.samplers.size() - 1);
      channel.target_node = ch.node;
      channel.target_path = rotation ? "rotation" : "translation";
      animation.channels.push_back(channel);
    }
    if (!animation.channels.empty()) m_model.animations.push_back(std::move(animation));
  }

  const ExportPlan& m_plan;
  tinygltf::Model m_model;
};

std::string randomSuffix() {
  std::random_device entropy;
  return std::to_string(entropy());
}

Expected<std::uintmax_t> writeGltfPair(const tinygltf::Model& built, const fs::path& output) {
  tinygltf::Model model = built;
  const std::string stem = output.stem().string();
  const fs::path folder = output.parent_path().empty() ? fs::path(".") : output.parent_path();
  const fs::path temp = folder / ("." + stem + ".riglens-tmp-" + randomSuffix());
  std::error_code ec;
  if (!fs::is_directory(folder, ec))
    return errorAt(ErrorCode::Io, output.string(), "", "folder " + folder.string() + " does not exist");
  fs::create_directory(temp, ec);
  if (ec)
    return errorAt(ErrorCode::Io, output.string(), "", "cannot write into " + folder.string() + ": " + ec.message());
  if (!model.buffers.empty()) model.buffers[0].uri = stem + ".bin";
  tinygltf::TinyGLTF writer;
  const bool ok = writer.WriteGltfSceneToFile(&model, (temp / (stem + ".gltf")).string(), false, false, true, false);
  std::uintmax_t bytes = 0;
  if (ok) {
    if (!model.buffers.empty()) {
      bytes += fs::file_size(temp / (stem + ".bin"), ec);
      fs::rename(temp / (stem + ".bin"), folder / (stem + ".bin"), ec);
    }
    if (!ec) {
      bytes += fs::file_size(temp / (stem + ".gltf"), ec);
      fs::rename(temp / (stem + ".gltf"), output, ec);
    }
  }
  std::error_code ignored;
  fs::remove_all(temp, ignored);
  if (!ok || ec)
    return errorAt(ErrorCode::Io, output.string(), "",
                   "cannot write the .gltf/.bin pair" + (ec ? ": " + ec.message() : ""));
  return bytes;
}

}  // namespace

std::vector<std::uint8_t> encodeExportGlb(const ExportPlan& plan) {
  return encodeGlb(ModelWriter(plan).build());
}

Expected<ExportReport> exportRun(const LoadedRun& run, const fs::path& output, const ExportOptions& options) {
  if (!(options.scale > 0) || !std::isfinite(options.scale))
    return makeError(ErrorCode::Usage, "scale must be a positive number");
  if (!(options.tolerance > 0) || !std::isfinite(options.tolerance))
    return makeError(ErrorCode::Usage, "tolerance must be a positive number");
  const std::string ext = output.extension().string();
  if (ext != ".glb" && ext != ".gltf")
    return errorAt(ErrorCode::Usage, output.string(), "", "the output must end in .glb or .gltf");

  const ExportPlan plan = planExport(run, options);
  ExportReport report;
  report.output = output;
  report.warnings = plan.warnings;
  report.nodes = plan.nodes.size();
  for (const auto& m : plan.partMeshes) report.meshes += m.empty() ? 0 : 1;
  for (const auto& a : plan.animations) {
    report.animations += a.channels.empty() ? 0 : 1;
    report.channels += a.channels.size();
    for (const auto& c : a.channels) {
      report.keysWritten += c.times.size();
      report.denseSamples += c.denseSamples;
    }
  }

  // The interface beside the model: a .glb and it are written together (a
  // failure on either leaves both previous files).
  std::string interfaceText;
  std::vector<FileToWrite> files;
  if (!plan.interface["joints"].empty()) {
    report.interfacePath = output.parent_path() / (output.stem().string() + ".interface.json");
    interfaceText = plan.interface.dump(2) + "\n";
    files.push_back(
        {report.interfacePath, {reinterpret_cast<const std::uint8_t*>(interfaceText.data()), interfaceText.size()}});
  }
  if (ext == ".glb") {
    const auto bytes = encodeExportGlb(plan);
    files.insert(files.begin(), FileToWrite{output, bytes});
    if (auto ok = writeFilesAtomically(files); !ok) return ok.error();
    report.bytes = bytes.size();
    return report;
  }
  auto bytes = writeGltfPair(ModelWriter(plan).build(), output);
  if (!bytes) return bytes.error();
  report.bytes = *bytes;
  if (auto ok = writeFilesAtomically(files); !ok) return ok.error();
  return report;
}

}  // namespace riglens::core
