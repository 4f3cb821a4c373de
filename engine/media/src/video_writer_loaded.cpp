// video_writer.h through libriglens-media.so, opened on first use
// (video_module.h says why). Linked instead of video_writer.cpp.
#include <filesystem>
#include <memory>
#include <string>
#include <utility>

#include "riglens/core/base/private_module.h"
#include "riglens/media/video_module.h"
#include "riglens/media/video_writer.h"

namespace riglens::media {

namespace {

namespace fs = std::filesystem;

// The module's table, or why there is none (opened once, on first use).
const core::Expected<const void*>& opened() {
  static const core::Expected<const void*> table =
      core::openPrivateModule(kVideoModuleFile, kVideoModuleEntry, kVideoModuleAbi);
  return table;
}

const VideoModule* table() {
  return opened() ? static_cast<const VideoModule*>(opened().value()) : nullptr;
}

core::Error unavailable(const fs::path& path) {
  return core::makeError(core::ErrorCode::Unsupported,
                         path.string() + ": videos need FFmpeg's writer: " + opened().error().message);
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
  const VideoModule* loaded = table();
  if (!loaded) return unavailable(path);
  return loaded->codecFor(path);
}

core::Expected<std::unique_ptr<VideoWriter>> VideoWriter::open(const VideoSpec& spec) {
  const VideoModule* loaded = table();
  if (!loaded) return unavailable(spec.path);
  auto writer = loaded->open(spec);
  if (!writer) return writer.error();
  auto state = std::make_unique<State>();
  state->table = loaded;
  state->writer = writer.value();
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
