// What the writer and the reader share: FFmpeg's error text, its log kept
// quiet, and the one RGB <-> YUV conversion (BT.709, limited range) both
// directions use, so a frame read back is the frame written, give or take
// the codec's loss.
#pragma once

#include <string>

extern "C" {
#include <libavutil/pixfmt.h>
#include <libswscale/swscale.h>
}

#include "riglens/core/base/expected.h"

namespace riglens::media {

// "Invalid data found when processing input" for an AVERROR code.
std::string ffmpegErrorText(int code);

// FFmpeg logs to stderr; encoders print their statistics at the info level.
// Only its errors reach the user (ours carry the file and the step).
void quietenFfmpegLog();

// An error naming the file, the step and FFmpeg's reason.
core::Error mediaError(core::ErrorCode code, const std::string& file, const std::string& step, int ffmpegCode);

// The colour the videos carry: BT.709 matrix, primaries and transfer, limited range.
constexpr AVColorSpace kVideoColorSpace = AVCOL_SPC_BT709;
constexpr AVColorPrimaries kVideoPrimaries = AVCOL_PRI_BT709;
constexpr AVColorTransferCharacteristic kVideoTransfer = AVCOL_TRC_BT709;
constexpr AVColorRange kVideoRange = AVCOL_RANGE_MPEG;

// A scaler between RGBA (full range) and `yuv` at one size, converting with
// BT.709 in limited range whichever way it goes; null when swscale refuses.
SwsContext* makeColourConverter(int width, int height, AVPixelFormat from, AVPixelFormat to);

}  // namespace riglens::media
