// riglens-cli samples --out DIR [--name NAME]... [--large]
#include <QtCore/QDir>

#include "cli_common.h"
#include "riglens/core/base/file_io.h"
#include "riglens/core/splats/gaussian_ply.h"
#include "riglens/samples/gaussian_samples.h"
#include "riglens/samples/sample_runs.h"

namespace riglens::cli {

int runSamples(const QStringList& args) {
  QCommandLineParser parser;
  const QCommandLineOption out("out", "Folder to write the sample runs into (one subfolder each).", "DIR");
  const QCommandLineOption name("name", "Write only this sample (repeatable; 'gaussians' writes a 3DGS .ply scene).",
                                "NAME");
  const QCommandLineOption large("large", "Also write 'large' (64 parts, > 1M triangles, ~90 MB) for benchmarks.");
  parser.addOptions({out, name, large});
  if (auto done = parseCommand(parser, args, "samples", "Write the bundled sample runs to a folder.", nullptr))
    return *done;
  if (!parser.isSet(out)) return usageError("samples", "missing --out DIR");
  if (!parser.positionalArguments().isEmpty())
    return usageError("samples", "unexpected argument '" + parser.positionalArguments().first() + "'");

  std::vector<std::string> names;
  for (const QString& n : parser.values(name)) names.push_back(n.toStdString());
  if (names.empty()) names = samples::bundledSampleNames();
  if (parser.isSet(large)) names.push_back("large");

  const std::filesystem::path folder = parser.value(out).toStdString();
  for (const auto& n : names) {
    if (n == "gaussians") {  // a 3DGS .ply scene rather than a run
      const auto bytes = core::encodeGaussianPly(samples::makeGaussianTorus(20000));
      std::error_code ec;
      std::filesystem::create_directories(folder, ec);
      if (auto written = core::writeFileAtomically(folder / "gaussians.ply", bytes); !written)
        return inputError(written.error().message);
      std::printf("%s\n", (folder / "gaussians.ply").string().c_str());
      continue;
    }
    auto sample = samples::makeSampleRun(n);
    if (!sample) return usageError("samples", QString::fromStdString(sample.error().message));
    if (auto written = samples::writeSampleRun(*sample, folder / n); !written)
      return inputError(written.error().message);
    std::printf("%s\n", (folder / n).string().c_str());
  }
  return kExitOk;
}

}  // namespace riglens::cli
