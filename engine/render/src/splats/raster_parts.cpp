#include "splats/raster_parts.h"

#include <QtCore/QString>
#include <QtCore/QtGlobal>
#include <algorithm>
#include <optional>

#include "riglens/render/splats/gpu_sort.h"
#include "shader_interface.h"

namespace riglens::render {

namespace {

// A whole number from the environment, read once by the caller.
std::optional<std::uint32_t> fromEnvironment(const char* name) {
  bool ok = false;
  const qulonglong set = qEnvironmentVariable(name).toULongLong(&ok);
  if (!ok) return std::nullopt;
  return std::uint32_t(std::min<qulonglong>(set, GpuRadixSort::kMaxCapacity));
}

}  // namespace

SplatTileParts validTileParts(SplatTileParts parts) {
  if (parts.keys != 0) parts.keys = std::clamp(parts.keys, kMinPartKeys, GpuRadixSort::kMaxCapacity);
  return parts;
}

SplatTileParts defaultTileParts(std::uint32_t splats, int multiprocessors) {
  static const std::optional<std::uint32_t> keys = fromEnvironment("RIGLENS_RASTER_PART_KEYS");
  static const std::optional<std::uint32_t> groups = fromEnvironment("RIGLENS_RASTER_GROUPS_AT_ONCE");
  const int sms = multiprocessors > 0 ? multiprocessors : kAssumedMultiprocessors;
  SplatTileParts parts;
  parts.keys = keys.value_or(splats >= kPartsFromSplats ? gpu::kRasterPartKeys : 0u);
  parts.groupsAtOnce = groups.value_or(std::uint32_t(sms) * kRasterGroupsPerMultiprocessor);
  return validTileParts(parts);
}

}  // namespace riglens::render
