// Reads a video back with FFmpeg's libraries: what a file holds (size, frame
// count by demuxing every packet, duration, codec) and any frame decoded to
// RGBA8 with the colour conversion the writer used, undone. The tests check
// what `riglens-cli render --video` wrote with it.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "riglens/core/base/expected.h"

namespace riglens::media {

struct VideoInfo {
  int width = 0, height = 0;
  std::int64_t frameCount = 0;  // packets of the video stream, counted
  double durationSeconds = 0;   // the stream's, from its time base
  double fps = 0;               // the stream's average frame rate
  std::string codec;            // FFmpeg's short name: "h264", "vp9"
  std::string pixelFormat;      // "yuv420p"
  std::string container;        // "mov,mp4,m4a,3gp,3g2,mj2", "matroska,webm"
};

core::Expected<VideoInfo> probeVideo(const std::filesystem::path& path);

struct RgbaFrame {
  int width = 0, height = 0;
  std::vector<std::uint8_t> pixels;  // width * 4 bytes a row, the top row first, alpha 255
};

// Frame `index` in display order (0 is the first).
core::Expected<RgbaFrame> decodeVideoFrame(const std::filesystem::path& path, std::int64_t index);

}  // namespace riglens::media
