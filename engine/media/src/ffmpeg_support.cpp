#include "ffmpeg_support.h"

#include <mutex>

extern "C" {
#include <libavutil/error.h>
#include <libavutil/log.h>
}

namespace riglens::media {

std::string ffmpegErrorText(int code) {
  char text[AV_ERROR_MAX_STRING_SIZE] = {};
  if (av_strerror(code, text, sizeof text) < 0) return "FFmpeg error " + std::to_string(code);
  return text;
}

void quietenFfmpegLog() {
  static std::once_flag once;
  std::call_once(once, [] { av_log_set_level(AV_LOG_ERROR); });
}

core::Error mediaError(core::ErrorCode code, const std::string& file, const std::string& step, int ffmpegCode) {
  core::Error error = core::makeError(code, file + ": " + step + ": " + ffmpegErrorText(ffmpegCode));
  error.file = file;
  return error;
}

SwsContext* makeColourConverter(int width, int height, AVPixelFormat from, AVPixelFormat to) {
  // Exact rounding and every chroma sample interpolated: a flat colour
  // survives the round trip to within a step.
  SwsContext* context = sws_getContext(width, height, from, width, height, to,
                                       SWS_BICUBIC | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INT, nullptr, nullptr, nullptr);
  if (!context) return nullptr;
  const bool toYuv = from == AV_PIX_FMT_RGBA;
  const int* bt709 = sws_getCoefficients(SWS_CS_ITU709);
  // Arguments: source and destination matrices and ranges (1 = full), then
  // brightness, contrast and saturation at their neutral values (16.16).
  const int rgbRange = 1, yuvRange = 0;
  sws_setColorspaceDetails(context, bt709, toYuv ? rgbRange : yuvRange, bt709, toYuv ? yuvRange : rgbRange, 0, 1 << 16,
                           1 << 16);
  return context;
}

}  // namespace riglens::media
