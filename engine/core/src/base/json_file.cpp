#include "riglens/core/base/json_file.h"

#include "riglens/core/base/file_io.h"
#include "riglens/core/base/json_reader.h"

namespace riglens::core {
namespace {

// e.what() is "[json.exception.parse_error.101] parse error at line 3,
// column 5: ..."; keep the part after the id, which a user can act on.
std::string userPart(const nlohmann::json::exception& e) {
  std::string what = e.what();
  if (const auto close = what.find("] "); close != std::string::npos) what.erase(0, close + 2);
  return what;
}

}  // namespace

Expected<nlohmann::json> parseJson(std::string_view text, std::string_view sourceName) {
  try {
    return nlohmann::json::parse(text.begin(), text.end());
  } catch (const nlohmann::json::parse_error& e) {
    // The message already says the line and column; e.byte (1-based, where
    // parsing stopped) is kept as the place a tool jumps to.
    Error error = errorAt(ErrorCode::Parse, std::string(sourceName), "", "not valid JSON: " + userPart(e));
    error.byteOffset = e.byte;
    return error;
  } catch (const nlohmann::json::exception& e) {  // out_of_range for 1e999
    return errorAt(ErrorCode::Parse, std::string(sourceName), "", "not valid JSON: " + userPart(e));
  }
}

Expected<nlohmann::json> readJsonFile(const std::filesystem::path& path) {
  auto text = readFileText(path);
  if (!text) return text.error();
  return parseJson(*text, path.string());
}

}  // namespace riglens::core
