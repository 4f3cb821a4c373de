#include "riglens/core/base/private_module.h"

#include <dlfcn.h>

#include <filesystem>
#include <string>

namespace riglens::core {

namespace {

// The folder of the shared object (or executable) this code was linked into.
std::filesystem::path folderOfThisCode() {
  Dl_info info{};
  if (dladdr(reinterpret_cast<const void*>(&folderOfThisCode), &info) == 0 || !info.dli_fname) return {};
  return std::filesystem::path(info.dli_fname).parent_path();
}

}  // namespace

Expected<const void*> openPrivateModule(const char* file, const char* entry, int abi) {
  const std::filesystem::path path = folderOfThisCode() / file;
  // dlopen keeps a count per library: a second call finds it loaded.
  void* library = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!library) {
    // dlerror() starts with the file it could not open: said once.
    std::string why = dlerror();
    if (const std::string named = path.string() + ": "; why.rfind(named, 0) == 0) why.erase(0, named.size());
    return makeError(ErrorCode::Unsupported, "cannot open " + path.string() + ": " + why);
  }
  using Entry = const void* (*)();
  const auto function = reinterpret_cast<Entry>(dlsym(library, entry));
  const void* table = function ? function() : nullptr;
  if (!table) return makeError(ErrorCode::Unsupported, path.string() + " has no " + entry);
  if (*static_cast<const int*>(table) != abi)
    return makeError(ErrorCode::Unsupported, path.string() + " is not the module this program was built with");
  return table;
}

}  // namespace riglens::core
