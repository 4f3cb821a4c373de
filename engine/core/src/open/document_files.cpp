#include "riglens/core/open/document_files.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <nlohmann/json.hpp>
#include <system_error>

#include "riglens/core/base/file_io.h"

namespace riglens::core {

namespace fs = std::filesystem;

namespace {

bool hasExtension(const fs::path& path, std::string_view extension) {
  std::string ext = path.extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return char(std::tolower(c)); });
  return ext == extension;
}

std::vector<fs::path> filesUnder(const fs::path& folder) {
  std::vector<fs::path> files;
  std::error_code error;
  fs::recursive_directory_iterator it(folder, fs::directory_options::skip_permission_denied, error);
  for (; !error && it != fs::recursive_directory_iterator(); it.increment(error)) {
    if (files.size() >= kMaxDocumentFiles) break;
    std::error_code kind;
    if (it->is_regular_file(kind)) files.push_back(it->path());
  }
  return files;
}

// "%20" and the like in a relative URI (glTF's uris are URI-encoded).
std::string percentDecoded(const std::string& uri) {
  std::string out;
  for (std::size_t i = 0; i < uri.size(); ++i) {
    const auto hex = [&](std::size_t at) { return std::isxdigit(static_cast<unsigned char>(uri[at])) != 0; };
    if (uri[i] == '%' && i + 2 < uri.size() && hex(i + 1) && hex(i + 2)) {
      out += char(std::stoi(uri.substr(i + 1, 2), nullptr, 16));
      i += 2;
    } else {
      out += uri[i];
    }
  }
  return out;
}

// The buffers and images a .gltf names beside itself. A file that does not
// parse names none (the reader says why when it is opened).
std::vector<fs::path> gltfResources(const fs::path& gltf) {
  std::vector<fs::path> files;
  auto text = readFileText(gltf);
  if (!text) return files;
  const auto json = nlohmann::json::parse(*text, nullptr, false);
  if (!json.is_object()) return files;
  for (const char* kind : {"buffers", "images"}) {
    const auto list = json.find(kind);
    if (list == json.end() || !list->is_array()) continue;
    for (const auto& entry : *list) {
      if (!entry.is_object() || !entry.contains("uri") || !entry["uri"].is_string()) continue;
      const std::string uri = entry["uri"].get<std::string>();
      if (uri.empty() || uri.rfind("data:", 0) == 0 || uri.find("://") != std::string::npos) continue;
      if (auto inside = resolveInside(gltf.parent_path(), percentDecoded(uri), "resource", "the model's folder"))
        files.push_back(*inside);
    }
  }
  return files;
}

}  // namespace

std::vector<fs::path> documentFiles(const fs::path& opened) {
  std::error_code error;
  const fs::path path = fs::absolute(opened, error).lexically_normal();
  std::vector<fs::path> files;
  if (fs::is_directory(path, error)) {
    files = filesUnder(path);
  } else if (path.filename() == "rig.json" || path.filename() == "run.json") {
    files = filesUnder(path.parent_path());
  } else {
    files.push_back(path);
    if (hasExtension(path, ".gltf"))
      for (const fs::path& resource : gltfResources(path))
        if (fs::is_regular_file(resource, error)) files.push_back(resource.lexically_normal());
  }
  std::sort(files.begin(), files.end());
  files.erase(std::unique(files.begin(), files.end()), files.end());
  return files;
}

std::vector<FileStamp> stampFiles(const std::vector<fs::path>& files) {
  std::vector<FileStamp> stamps;
  stamps.reserve(files.size());
  for (const fs::path& file : files) {
    FileStamp stamp{file};
    std::error_code error;
    const auto size = fs::file_size(file, error);
    if (!error) {
      const auto time = fs::last_write_time(file, error);
      if (!error) {
        stamp.exists = true;
        stamp.size = size;
        stamp.modifiedNs = std::chrono::duration_cast<std::chrono::nanoseconds>(time.time_since_epoch()).count();
      }
    }
    stamps.push_back(std::move(stamp));
  }
  return stamps;
}

}  // namespace riglens::core
