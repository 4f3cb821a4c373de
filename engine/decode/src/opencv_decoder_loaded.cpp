// opencv_decoder.h through libriglens-decode.so, opened on first use
// (decoder_module.h says why). Linked instead of opencv_decoder.cpp.
#include "riglens/core/base/private_module.h"
#include "riglens/decode/decoder_module.h"
#include "riglens/decode/opencv_decoder.h"

namespace riglens::decode {

namespace {

// The module's table, or the error that says why there is none (opened once).
const core::Expected<const void*>& decoderModule() {
  static const core::Expected<const void*> opened =
      core::openPrivateModule(kDecoderModuleFile, kDecoderModuleEntry, kDecoderModuleAbi);
  return opened;
}

}  // namespace

core::Expected<std::unique_ptr<core::DecoderSession>> openOpenCvDecoder(const std::filesystem::path& file) {
  const auto& module = decoderModule();
  if (!module)
    return core::makeError(core::ErrorCode::Unsupported,
                           file.string() + ": neural decoders need OpenCV's runtime: " + module.error().message);
  return static_cast<const DecoderModule*>(module.value())->open(file);
}

core::DecoderOpener openCvOpener() {
  return [](const std::filesystem::path& file) { return openOpenCvDecoder(file); };
}

}  // namespace riglens::decode
