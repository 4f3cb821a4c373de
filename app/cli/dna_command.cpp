// riglens-cli character evaluate FILE [--gui|--raw] --controls CONTROLS.json [--lod N] [--json]
//
// FILE is a .dna or an ORL pack (its head_behavior.dna). CONTROLS.json is
// {"name": value, ...} in the chosen mode's names (GUI by default); unknown
// names are refused. Prints the evaluator's outputs in the DNA's order: the
// raw controls after mapping, 9 floats per joint, one weight per blendshape
// channel and per animated map, and the names of each.
#include <nlohmann/json.hpp>

#include "character_commands.h"
#include "cli_common.h"
#include "dna_summary.h"
#include "riglens/core/base/json_file.h"
#include "riglens/core/base/json_reader.h"
#include "riglens/core/dna/dna_reader.h"
#include "riglens/core/dna/dna_rig.h"

namespace riglens::cli {
namespace {

using nlohmann::json;

core::Expected<std::vector<std::pair<std::string, float>>> readControls(const std::string& path) {
  auto doc = core::readJsonFile(path);
  if (!doc) return doc.error();
  return core::guardRead(path, [&] {
    const core::JsonRef root(*doc);
    root.object();
    std::vector<std::pair<std::string, float>> values;
    for (const auto& [name, value] : doc->items()) values.emplace_back(name, root[name].toFloat());
    return values;
  });
}

json outputs(const core::DnaRig& rig) {
  const core::Dna& d = rig.dna();
  const auto raw = rig.controls().subspan(0, d.rawCount());
  return json{{"lod", rig.lod()},
              {"rawControls", std::vector<float>(raw.begin(), raw.end())},
              {"joints", std::vector<float>(rig.jointOutputs().begin(), rig.jointOutputs().end())},
              {"blendShapes", std::vector<float>(rig.blendShapeOutputs().begin(), rig.blendShapeOutputs().end())},
              {"animatedMaps", std::vector<float>(rig.animatedMapOutputs().begin(), rig.animatedMapOutputs().end())},
              {"rawControlNames", d.rawControlNames},
              {"jointNames", d.jointNames},
              {"blendShapeNames", d.blendShapeNames},
              {"animatedMapNames", d.animatedMapNames}};
}

void printText(const core::DnaRig& rig) {
  const core::Dna& d = rig.dna();
  std::printf("LOD %zu\nraw controls (non-zero):\n", rig.lod());
  for (std::size_t i = 0; i < d.rawCount(); ++i)
    if (rig.controls()[i] != 0.0f) std::printf("  %-40s %g\n", d.rawControlNames[i].c_str(), double(rig.controls()[i]));
  std::printf("joints (non-zero outputs: tx ty tz rx ry rz sx sy sz):\n");
  for (std::size_t j = 0; j < d.jointCount(); ++j) {
    const auto o = rig.jointOutputs().subspan(j * 9, 9);
    if (std::all_of(o.begin(), o.end(), [](float v) { return v == 0.0f; })) continue;
    std::printf("  %-32s", d.jointNames[j].c_str());
    for (float v : o) std::printf(" %9.4g", double(v));
    std::printf("\n");
  }
  std::printf("blendshape channels (non-zero):\n");
  for (std::size_t i = 0; i < d.blendShapeCount(); ++i)
    if (rig.blendShapeOutputs()[i] != 0.0f)
      std::printf("  %-40s %g\n", d.blendShapeNames[i].c_str(), double(rig.blendShapeOutputs()[i]));
}

}  // namespace

int characterEvaluate(const QStringList& args) {
  QCommandLineParser parser;
  const QCommandLineOption gui("gui", "CONTROLS.json names GUI controls (the default), mapped to raw controls.");
  const QCommandLineOption raw("raw", "CONTROLS.json names raw controls, set as they are (no mapping).");
  const QCommandLineOption controls("controls", "JSON {\"name\": value, ...}.", "CONTROLS.json");
  const QCommandLineOption lod("lod", "The level of detail (0 = the whole rig).", "N", "0");
  const QCommandLineOption asJson("json", "Print JSON.");
  parser.addOptions({gui, raw, controls, lod, asJson});
  if (auto done = parseCommand(parser, args, "character evaluate",
                               "Evaluate a DNA's behaviour (a .dna or an ORL pack) for the given controls.", "FILE"))
    return *done;
  if (parser.positionalArguments().size() != 1 || !parser.isSet(controls))
    return usageError("character evaluate", "needs FILE and --controls CONTROLS.json");
  if (parser.isSet(gui) && parser.isSet(raw))
    return usageError("character evaluate", "--gui and --raw exclude each other");
  bool ok = false;
  const int level = parser.value(lod).toInt(&ok);
  if (!ok || level < 0) return usageError("character evaluate", "--lod needs a whole number from 0");
  auto dna = core::readDnaOrPack(parser.positionalArguments().first().toStdString());
  if (!dna) return inputError(dna.error().message);
  auto rig = core::DnaRig::create(std::make_shared<const core::Dna>(std::move(dna).value()));
  if (!rig) return inputError(rig.error().message);
  if (auto set = (*rig)->setLod(std::size_t(level)); !set)
    return usageError("character evaluate", QString::fromStdString(set.error().message));
  auto values = readControls(parser.value(controls).toStdString());
  if (!values) return inputError(values.error().message);
  const auto mode = parser.isSet(raw) ? core::DnaControlMode::Raw : core::DnaControlMode::Gui;
  if (auto done = (*rig)->evaluate(mode, *values); !done)
    return inputError(parser.value(controls).toStdString() + ": " + done.error().message);
  if (parser.isSet(asJson))
    std::printf("%s\n", outputs(**rig).dump().c_str());
  else
    printText(**rig);
  return kExitOk;
}

}  // namespace riglens::cli
