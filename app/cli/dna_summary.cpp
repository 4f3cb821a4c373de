#include "dna_summary.h"

#include <algorithm>

#include "riglens/core/dna/dna_matrices.h"

namespace riglens::cli {

using nlohmann::json;

std::pair<float, float> rawRange(const core::Dna& d, std::size_t raw) {
  const core::DnaConditionals& t = d.guiToRaw;
  bool any = false;
  float lo = 0, hi = 0;
  for (std::size_t r = 0; r < t.size(); ++r) {
    if (t.outputs[r] != raw) continue;
    for (float x : {t.from[r], t.to[r]}) {
      const float v = std::clamp(t.slope[r] * x + t.cut[r], 0.0f, 1.0f);
      lo = any ? std::min(lo, v) : v;
      hi = any ? std::max(hi, v) : v;
      any = true;
    }
  }
  return any ? std::pair{lo, hi} : std::pair{0.0f, 1.0f};
}

json dnaSummary(const core::Dna& d) {
  json gui = json::array(), raw = json::array(), problems = json::array();
  for (std::size_t i = 0; i < d.guiControlNames.size(); ++i) {
    const auto [lo, hi] = d.guiRange(i);
    gui.push_back({{"name", d.guiControlNames[i]}, {"min", lo}, {"max", hi}});
  }
  for (std::size_t i = 0; i < d.rawCount(); ++i) {
    const auto [lo, hi] = rawRange(d, i);
    raw.push_back({{"name", d.rawControlNames[i]}, {"min", lo}, {"max", hi}});
  }
  for (const auto& w : d.warnings)
    problems.push_back({{"severity", "warning"}, {"file", w.source}, {"pointer", w.pointer}, {"message", w.message}});
  json matrices = json::array();
  for (const auto& m : core::dnaMatrices(d))
    matrices.push_back(
        {{"name", m.name}, {"rows", m.rows}, {"columns", m.columns}, {"values", m.values}, {"bytes", m.bytes}});
  std::size_t quaternionJoints = 0;
  for (auto r : d.jointRotations) quaternionJoints += r == core::JointRotation::Quaternion;
  return json{{"kind", "dna"},
              {"version", "2." + std::to_string(d.version)},
              {"layers", d.layers},
              {"name", d.name},
              {"database", d.dbName},
              {"lods", d.lodCount},
              {"rotationUnit", d.rotationInDegrees() ? "degrees" : "radians"},
              {"translationUnit", d.translationUnit == 0 ? "cm" : "m"},
              {"guiControlCount", d.guiControlNames.size()},
              {"rawControlCount", d.rawCount()},
              {"psdCount", d.psdCount},
              {"rbfPoseControlCount", d.poseControlNames.size()},
              {"jointCount", d.jointCount()},
              {"quaternionJoints", quaternionJoints},
              {"jointGroups", d.jointGroups.size()},
              {"blendShapeChannels", d.blendShapeCount()},
              {"animatedMaps", d.animatedMapCount()},
              {"rbfSolvers", d.rbfSolvers.size()},
              {"rbfPoses", d.rbfPoses.size()},
              {"matrices", matrices},
              {"guiControls", gui},
              {"rawControls", raw},
              {"problems", problems}};
}

}  // namespace riglens::cli
