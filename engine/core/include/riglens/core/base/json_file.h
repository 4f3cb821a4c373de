// Reading JSON documents from disk with errors that name the file and where
// the text went wrong. All JSON in engine/core goes through nlohmann::json.
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string_view>

#include "riglens/core/base/expected.h"

namespace riglens::core {

// Parses `text` as JSON. `sourceName` is used only in the error message
// ("rig.json: JSON syntax error at byte 41: ...").
Expected<nlohmann::json> parseJson(std::string_view text, std::string_view sourceName);

// Reads and parses the whole file. Fails with ErrorCode::Io when the file
// cannot be read and ErrorCode::Parse when it is not JSON.
Expected<nlohmann::json> readJsonFile(const std::filesystem::path& path);

}  // namespace riglens::core
