// libriglens-decode.so: riglens::decode's opener behind the table
// (decoder_module.h).
#include "riglens/decode/decoder_module.h"

#include "riglens/decode/opencv_decoder.h"

namespace {

const riglens::decode::DecoderModule kModule{riglens::decode::kDecoderModuleAbi, &riglens::decode::openOpenCvDecoder};

}  // namespace

const void* riglens_decoder_module() {
  return &kModule;
}
