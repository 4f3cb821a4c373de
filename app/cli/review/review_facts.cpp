#include "review_facts.h"

#include <QtCore/QJsonArray>

namespace riglens::cli::review {

namespace {

double sumOf(const QJsonArray& rows, const char* field) {
  double sum = 0;
  for (const auto& row : rows) sum += row.toObject().value(field).toDouble();
  return sum;
}

// Clips as {name, seconds}: a rig's animations (periodMs) and a glTF file's (durationMs).
QJsonArray clipsOf(const QJsonObject& inspect) {
  QJsonArray clips;
  auto add = [&](const QJsonArray& rows, const char* field) {
    for (const auto& row : rows) {
      const QJsonObject clip = row.toObject();
      clips.append(QJsonObject{{"name", clip.value("name")}, {"seconds", clip.value(field).toDouble() / 1000.0}});
    }
  };
  add(inspect.value("animations").toArray(), "periodMs");
  add(inspect.value("gltf").toObject().value("animations").toArray(), "durationMs");
  return clips;
}

}  // namespace

QJsonObject digestFacts(const QJsonObject& inspect) {
  QJsonObject facts;
  if (inspect.isEmpty()) return facts;
  facts["format"] = inspect.value("kind");
  const QJsonArray parts = inspect.value("parts").toArray();
  if (!parts.isEmpty()) facts["parts"] = parts.size();
  const QJsonObject gltf = inspect.value("gltf").toObject();
  if (gltf.contains("nodes")) facts["nodes"] = gltf.value("nodes").toArray().size();
  // Triangles: a rig's parts, a model's skinned mesh, a face's mesh, a bundle's meshes.
  if (const QJsonObject mesh = inspect.value("skinnedMesh").toObject(); mesh.contains("triangles")) {
    facts["triangles"] = mesh.value("triangles");
    facts["vertices"] = mesh.value("vertices");
  } else if (sumOf(parts, "triangles") > 0) {
    facts["triangles"] = sumOf(parts, "triangles");
    facts["vertices"] = sumOf(parts, "vertices");
  } else if (inspect.contains("faces")) {
    facts["triangles"] = inspect.value("faces");
    facts["vertices"] = inspect.value("vertexCount");
  } else if (const QJsonArray meshes = inspect.value("meshes").toArray(); !meshes.isEmpty()) {
    facts["triangles"] = sumOf(meshes, "faces");
    facts["vertices"] = sumOf(meshes, "vertices");
  }
  if (inspect.contains("gaussians")) facts["gaussians"] = inspect.value("gaussians");
  if (inspect.contains("shDegree")) facts["shDegree"] = inspect.value("shDegree");
  if (const QJsonArray joints = inspect.value("joints").toArray(); !joints.isEmpty()) facts["joints"] = joints.size();
  if (const QJsonObject rig = inspect.value("rig").toObject(); rig.contains("control_names")) {
    facts["controls"] = rig.value("control_names").toArray().size();
    facts["rig"] = rig.value("backend");
  }
  facts["clips"] = clipsOf(inspect);
  const double bytes =
      inspect.contains("cpuBytes") ? inspect.value("cpuBytes").toDouble() : inspect.value("residentBytes").toDouble();
  if (bytes > 0) facts["memoryBytes"] = bytes;
  return facts;
}

}  // namespace riglens::cli::review
