// Videos from a module opened when the first one is asked for
// (riglens/core/base/private_module.h). FFmpeg's
// libraries (libavformat and the codecs it pulls in, some 90 shared
// libraries) took about half of riglens-cli's start, in every call, while
// only `render --video` and review's videos use them. So riglens-cli links
// riglens::media_loaded, whose VideoWriter (video_writer.h, the same API)
// opens libriglens-media.so - riglens::media's writer behind the table below -
// beside the program's library, on first use. Tests and tools that link
// riglens::media directly keep the writer itself.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>

#include "riglens/core/base/expected.h"
#include "riglens/media/video_writer.h"

namespace riglens::media {

// Both sides are built together (same compiler, same standard library), so
// the table passes C++ types; the number changes whenever the table does.
constexpr int kVideoModuleAbi = 1;
constexpr const char* kVideoModuleFile = "libriglens-media.so";
constexpr const char* kVideoModuleEntry = "riglens_video_module";

// A writer is opaque to the caller: the module's VideoWriter.
struct VideoModule {
  int abi = kVideoModuleAbi;  // first: core::openPrivateModule checks it
  core::Expected<std::string> (*codecFor)(const std::filesystem::path& path);
  core::Expected<void*> (*open)(const VideoSpec& spec);
  core::Expected<void> (*addFrame)(void* writer, const std::uint8_t* rgba, std::size_t strideBytes);
  core::Expected<void> (*finish)(void* writer);
  std::int64_t (*framesAdded)(const void* writer);
  const std::string& (*codecDescription)(const void* writer);
  void (*close)(void* writer);
};

}  // namespace riglens::media

// The module's one exported name.
extern "C" __attribute__((visibility("default"))) const void* riglens_video_module();
