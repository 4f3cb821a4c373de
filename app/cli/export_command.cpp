// riglens-cli export PATH --out FILE.glb|FILE.gltf [--cubic] [--tolerance X] [--scale S]
#include <cmath>

#include "cli_common.h"
#include "riglens/core/export/gltf_export.h"

namespace riglens::cli {

int runExport(const QStringList& args) {
  QCommandLineParser parser;
  const QCommandLineOption out("out", "Output file: .glb, or .gltf (+ .bin beside it).", "FILE");
  const QCommandLineOption cubic("cubic",
                                 "Write CUBICSPLINE where it is exact (translation channels); sample elsewhere.");
  const QCommandLineOption tolerance(
      "tolerance", "Max error of a reconstructed joint value, rad or voxel (default 1e-4).", "X", "1e-4");
  const QCommandLineOption scale("scale", "Multiply every length by S (default 1: voxel units).", "S", "1");
  parser.addOptions({out, cubic, tolerance, scale});
  if (auto done = parseCommand(parser, args, "export",
                               "Export a whole rig to one glTF 2.0 file and <stem>.interface.json.", "PATH"))
    return *done;
  if (!parser.isSet(out)) return usageError("export", "missing --out FILE.glb|FILE.gltf");
  const QString outPath = parser.value(out);
  if (!outPath.endsWith(".glb") && !outPath.endsWith(".gltf"))
    return usageError("export", "--out must end in .glb or .gltf, got '" + outPath + "'");
  core::ExportOptions options;
  options.cubic = parser.isSet(cubic);
  bool ok = false;
  options.tolerance = parser.value(tolerance).toDouble(&ok);
  if (!ok || !(options.tolerance > 0) || !std::isfinite(options.tolerance))
    return usageError("export", "--tolerance needs a positive number, got '" + parser.value(tolerance) + "'");
  options.scale = parser.value(scale).toDouble(&ok);
  if (!ok || !(options.scale > 0) || !std::isfinite(options.scale))
    return usageError("export", "--scale needs a positive number, got '" + parser.value(scale) + "'");

  int code = kExitOk;
  auto run = loadRunArgument(parser, "export", &code);
  if (!run) return code;
  auto report = core::exportRun(*run, outPath.toStdString(), options);
  if (!report) return inputError(report.error().message);
  for (const auto& w : run->warnings) std::fprintf(stderr, "warning: %s\n", w.describe().c_str());
  for (const auto& w : report->warnings) std::fprintf(stderr, "warning: %s\n", w.describe().c_str());
  std::printf("%s: %ju bytes, %zu nodes, %zu meshes, %zu animations, %zu channels, %zu keys\n",
              report->output.string().c_str(), report->bytes, report->nodes, report->meshes, report->animations,
              report->channels, report->keysWritten);
  if (!report->interfacePath.empty()) std::printf("%s\n", report->interfacePath.string().c_str());
  return kExitOk;
}

}  // namespace riglens::cli
