// The decoder runtime RigLens ships: OpenCV's DNN module (Debian's
// libopencv-dnn), which imports ONNX and runs it on the CPU with threads.
// There is no GPU ONNX runtime among Debian's packages, so outputs come back
// as CPU arrays (contract/DECODERS.md A3's demote path) and the lift uploads
// them once per decode.
#pragma once

#include "riglens/core/decoded/decoder_session.h"

namespace riglens::decode {

// Opens one graph. What OpenCV's importer cannot load is refused with its
// message, naming the file ("geom.onnx: OpenCV cannot load this graph: node
// Resize: ...").
core::Expected<std::unique_ptr<core::DecoderSession>> openOpenCvDecoder(const std::filesystem::path& file);

// The opener the decode chain takes (core::DecoderOpener).
core::DecoderOpener openCvOpener();

}  // namespace riglens::decode
