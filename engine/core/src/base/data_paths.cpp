#include "riglens/core/base/data_paths.h"

#include "riglens/core/base/json_reader.h"

namespace riglens::core {

std::filesystem::path shippedDataDir(const std::filesystem::path& executableDir) {
  return (executableDir / ".." / "share" / "riglens").lexically_normal();
}

Expected<std::filesystem::path> findShippedData(const std::filesystem::path& executableDir, const std::string& name) {
  const std::filesystem::path dir = shippedDataDir(executableDir) / name;
  std::error_code ec;
  if (std::filesystem::is_directory(dir, ec)) return dir;
  return errorAt(ErrorCode::Io, dir.string(), "",
                 "RigLens' " + name +
                     " data is not there (installed programs look in <bin>/../share/riglens; pass "
                     "its folder explicitly)");
}

}  // namespace riglens::core
