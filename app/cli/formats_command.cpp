// riglens-cli formats [--json | --mime-xml | --desktop-mime-types]
// The reader table (core/open/asset_readers.h): what RigLens opens, how each
// kind is recognised, its MIME type and fuzz target. packaging/ generates the
// shared-mime-info XML and the .desktop MimeType line from it at build time.
#include <nlohmann/json.hpp>

#include "cli_common.h"
#include "riglens/core/open/asset_readers.h"
#include "riglens/core/open/reader_listings.h"

namespace riglens::cli {

namespace {

nlohmann::json readersJson() {
  nlohmann::json out = nlohmann::json::array();
  for (const core::AssetReader& r : core::assetReaders()) {
    std::vector<std::string> patterns(r.patterns.begin(), r.patterns.end()),
        globs(r.mimeGlobs().begin(), r.mimeGlobs().end());
    out.push_back({{"id", r.id},
                   {"name", r.name},
                   {"kind", core::assetKindName(r.kind)},
                   {"viewer", r.viewable()},
                   {"patterns", patterns},
                   {"mimeType", r.mimeType},
                   {"mimeGlobs", globs},
                   {"fuzzTarget", r.fuzzTarget}});
  }
  return out;
}

}  // namespace

int runFormats(const QStringList& args) {
  QCommandLineParser parser;
  const QCommandLineOption jsonOption("json", "Print the table as JSON.");
  const QCommandLineOption mimeXml("mime-xml", "Print the shared-mime-info XML of RigLens's own MIME types.");
  const QCommandLineOption desktop("desktop-mime-types", "Print the .desktop MimeType value (type;type;...).");
  parser.addOptions({jsonOption, mimeXml, desktop});
  if (auto done = parseCommand(parser, args, "formats", "List what RigLens opens (its reader table).", nullptr))
    return *done;
  if (!parser.positionalArguments().isEmpty())
    return usageError("formats", "unexpected argument '" + parser.positionalArguments().first() + "'");
  if (parser.isSet(mimeXml)) {
    std::fputs(core::sharedMimeInfoXml().c_str(), stdout);
  } else if (parser.isSet(desktop)) {
    std::string line;
    for (const auto& type : core::desktopMimeTypes()) line += type + ";";
    std::printf("%s\n", line.c_str());
  } else if (parser.isSet(jsonOption)) {
    std::printf("%s\n", readersJson().dump(2).c_str());
  } else {
    for (const auto& r : readersJson())
      std::printf("%-11s %-26s %-12s %-30s %s\n", r["id"].get<std::string>().c_str(),
                  r["name"].get<std::string>().c_str(), r["kind"].get<std::string>().c_str(),
                  r["mimeType"].get<std::string>().c_str(), r["patterns"].dump().c_str());
  }
  return kExitOk;
}

}  // namespace riglens::cli
