// Writes a video, frame by frame, with FFmpeg's libraries: .mp4 holds H.264
// (libx264), .webm holds VP9 (libvpx), both in 4:2:0 with BT.709 limited-range
// colour, the pixel format every browser plays. The file appears whole or not
// at all: frames go to a temporary file beside the target, which finish()
// renames into place; a writer destroyed unfinished (an error, a crash of the
// caller's loop) removes it.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>

#include "riglens/core/base/expected.h"

namespace riglens::media {

// The frame rates a video may have; a clip is sampled at one of them.
constexpr int kMinVideoFps = 1, kMaxVideoFps = 120;

struct VideoSpec {
  std::filesystem::path path;  // .mp4 or .webm: the extension picks the codec
  int width = 0, height = 0;   // even: 4:2:0 halves both
  int fps = 30;
};

// Which encoder a path asks for ("H.264 (libx264)"), or why none does.
core::Expected<std::string> videoCodecFor(const std::filesystem::path& path);

class VideoWriter {
 public:
  // Checks the spec, opens the encoder and the temporary file.
  static core::Expected<std::unique_ptr<VideoWriter>> open(const VideoSpec& spec);
  ~VideoWriter();
  VideoWriter(const VideoWriter&) = delete;
  VideoWriter& operator=(const VideoWriter&) = delete;

  // Adds one frame: `height` rows of `width` RGBA8 pixels (sRGB, alpha
  // ignored), the top row first, `strideBytes` apart.
  core::Expected<void> addFrame(const std::uint8_t* rgba, std::size_t strideBytes);
  // Flushes the encoder, writes the index and moves the file into place.
  core::Expected<void> finish();

  std::int64_t framesAdded() const;
  const std::string& codecDescription() const;

 private:
  struct State;
  explicit VideoWriter(std::unique_ptr<State> state);
  std::unique_ptr<State> m_state;
};

}  // namespace riglens::media
