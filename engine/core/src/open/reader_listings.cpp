#include "riglens/core/open/reader_listings.h"

#include <algorithm>
#include <map>

#include "riglens/core/open/asset_readers.h"

namespace riglens::core {
namespace {

void addOnce(std::vector<std::string>& list, std::string_view item) {
  if (std::find(list.begin(), list.end(), item) == list.end()) list.emplace_back(item);
}

std::string joined(const std::vector<std::string>& items, const char* separator) {
  std::string out;
  for (const auto& item : items) out += (out.empty() ? "" : separator) + item;
  return out;
}

std::string xmlEscaped(std::string_view text) {
  std::string out;
  for (char c : text) out += c == '&' ? "&amp;" : c == '<' ? "&lt;" : c == '>' ? "&gt;" : std::string(1, c);
  return out;
}

}  // namespace

std::vector<std::string> openablePatterns() {
  std::vector<std::string> patterns;
  for (const AssetReader& r : assetReaders())
    if (r.viewable())
      for (auto p : r.patterns) addOnce(patterns, p);
  return patterns;
}

std::vector<std::string> dialogNameFilters() {
  std::vector<std::string> filters{"RigLens inputs (" + joined(openablePatterns(), " ") + ")"};
  for (const AssetReader& r : assetReaders()) {
    if (!r.viewable() || r.patterns.empty()) continue;
    std::vector<std::string> patterns(r.patterns.begin(), r.patterns.end());
    filters.push_back(std::string(r.name) + " (" + joined(patterns, " ") + ")");
  }
  filters.emplace_back("All files (*)");
  return filters;
}

std::string openableSentence() {
  std::vector<std::string> parts;
  for (const AssetReader& r : assetReaders()) {
    if (!r.viewable()) continue;
    std::vector<std::string> patterns(r.patterns.begin(), r.patterns.end());
    parts.push_back(std::string(r.name) + (patterns.empty() ? "" : " (" + joined(patterns, ", ") + ")"));
  }
  return joined(parts, "; ");
}

std::vector<std::string> desktopMimeTypes() {
  std::vector<std::string> types;
  for (const AssetReader& r : assetReaders())
    if (r.viewable() && !r.mimeType.empty()) addOnce(types, r.mimeType);
  return types;
}

std::string sharedMimeInfoXml() {
  struct Type {
    std::vector<std::string> names, globs;
    std::string magic, parent;
  };
  std::vector<std::string> order;
  std::map<std::string, Type> types;
  for (const AssetReader& r : assetReaders()) {
    if (!r.ownMimeType) continue;
    const std::string type(r.mimeType);
    if (!types.count(type)) order.push_back(type);
    Type& t = types[type];
    addOnce(t.names, r.name);
    for (auto g : r.mimeGlobs()) addOnce(t.globs, g);
    if (!r.magic.empty()) t.magic = r.magic;
    if (!r.parentMimeType.empty()) t.parent = r.parentMimeType;
  }
  std::string xml =
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      "<!-- Generated from RigLens's reader table (engine/core/src/open/asset_readers.cpp). -->\n"
      "<mime-info xmlns=\"http://www.freedesktop.org/standards/shared-mime-info\">\n";
  for (const std::string& type : order) {
    const Type& t = types[type];
    xml += "  <mime-type type=\"" + type + "\">\n";
    xml += "    <comment>" + xmlEscaped(joined(t.names, " or ")) + "</comment>\n";
    const std::string parent = !t.parent.empty() ? t.parent : type.ends_with("+json") ? "application/json" : "";
    if (!parent.empty()) xml += "    <sub-class-of type=\"" + parent + "\"/>\n";
    for (const auto& g : t.globs)
      // A whole file name (rig.json) outweighs the generic types' extension globs.
      xml += "    <glob pattern=\"" + xmlEscaped(g) + "\"" + (g.starts_with("*") ? "" : " weight=\"60\"") + "/>\n";
    if (!t.magic.empty())
      xml += "    <magic priority=\"50\">\n      <match type=\"string\" value=\"" + xmlEscaped(t.magic) +
             "\" offset=\"0\"/>\n    </magic>\n";
    xml += "  </mime-type>\n";
  }
  return xml + "</mime-info>\n";
}

}  // namespace riglens::core
