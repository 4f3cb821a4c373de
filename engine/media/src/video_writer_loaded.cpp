// video_writer.h through libriglens-media.so, opened on first use
// (video_module.h says why). Linked instead of video_writer.cpp.
#include <dlfcn.h>

#include <filesystem>
#include <memory>
#include <mutex>
#include <string>
#include <utility>

#include "riglens/media/video_module.h"
#include "riglens/media/video_writer.h"

namespace riglens::media {

namespace {

namespace fs = std::filesystem;

struct LoadedModule {
  const VideoModule* table = nullptr;
  std::string why;  // when there is no table
};

// The folder of the shared object this code is in (the program's library),
// where the module is put beside it; empty for an executable's own code.
fs::path folderOfThisCode() {
  Dl_info info{};
  if (dladdr(reinterpret_cast<const void*>(&folderOfThisCode), &info) == 0 || !info.dli_fname) return {};
  return fs::path(info.dli_fname).parent_path();
}

LoadedModule load() {
  const fs::path path = folderOfThisCode() / kVideoModuleFile;
  // RTLD_LOCAL: FFmpeg's names and the module's copy of the engine stay inside it.
  void* library = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!library) return {nullptr, "videos need " + path.string() + ": " + dlerror()};
  using Entry = const VideoModule* (*)();
  const auto entry = reinterpret_cast<Entry>(dlsym(library, kVideoModuleEntry));
  const VideoModule* table = entry ? entry() : nullptr;
  if (!table || table->abi != kVideoModuleAbi)
    return {nullptr, path.string() + " is not the video module this program was built with"};
  return {table, {}};
}

const LoadedModule& module() {
  static std::once_flag once;
  static LoadedModule loaded;
  std::call_once(once, [] { loaded = load(); });
  return loaded;
}

core::Error unavailable(const fs::path& path) {
  return core::makeError(core::ErrorCode::Unsupported, path.string() + ": " + module().why);
}

}  // namespace

// The module's writer, owned here.
struct VideoWriter::State {
  const VideoModule* table = nullptr;
  void* writer = nullptr;
  ~State() {
    if (writer) table->close(writer);
  }
};

core::Expected<std::string> videoCodecFor(const fs::path& path) {
  if (!module().table) return unavailable(path);
  return module().table->codecFor(path);
}

core::Expected<std::unique_ptr<VideoWriter>> VideoWriter::open(const VideoSpec& spec) {
  const VideoModule* table = module().table;
  if (!table) return unavailable(spec.path);
  auto opened = table->open(spec);
  if (!opened) return opened.error();
  auto state = std::make_unique<State>();
  state->table = table;
  state->writer = opened.value();
  return std::unique_ptr<VideoWriter>(new VideoWriter(std::move(state)));
}

VideoWriter::VideoWriter(std::unique_ptr<State> state) : m_state(std::move(state)) {}
VideoWriter::~VideoWriter() = default;

core::Expected<void> VideoWriter::addFrame(const std::uint8_t* rgba, std::size_t strideBytes) {
  return m_state->table->addFrame(m_state->writer, rgba, strideBytes);
}
core::Expected<void> VideoWriter::finish() {
  return m_state->table->finish(m_state->writer);
}
std::int64_t VideoWriter::framesAdded() const {
  return m_state->table->framesAdded(m_state->writer);
}
const std::string& VideoWriter::codecDescription() const {
  return m_state->table->codecDescription(m_state->writer);
}

}  // namespace riglens::media
