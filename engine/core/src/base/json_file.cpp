#include "riglens/core/base/json_file.h"

#include "riglens/core/base/file_io.h"

namespace riglens::core {

Expected<nlohmann::json> parseJson(std::string_view text, std::string_view sourceName) {
  try {
    return nlohmann::json::parse(text.begin(), text.end());
  } catch (const nlohmann::json::exception& e) {  // parse_error, or out_of_range for 1e999
    // e.what() is "[json.exception.parse_error.101] parse error at line 3,
    // column 5: ..."; keep the part after the id, which a user can act on.
    std::string what = e.what();
    if (const auto close = what.find("] "); close != std::string::npos) what.erase(0, close + 2);
    return makeError(ErrorCode::Parse, std::string(sourceName) + ": not valid JSON: " + what);
  }
}

Expected<nlohmann::json> readJsonFile(const std::filesystem::path& path) {
  auto text = readFileText(path);
  if (!text) return text.error();
  return parseJson(*text, path.string());
}

}  // namespace riglens::core
