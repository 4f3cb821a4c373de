// The neural decoders from a module opened when the first one is asked for
// (riglens/core/base/private_module.h): OpenCV's DNN module and the 23
// libraries it pulls in were a quarter of riglens-cli's start, in every call,
// while only characters with decoders use them. riglens-cli and the viewer
// link riglens::decode_loaded, whose openOpenCvDecoder (opencv_decoder.h, the
// same API) opens libriglens-decode.so - riglens::decode behind the table
// below - beside the program's library on first use. The tests link
// riglens::decode itself.
#pragma once

#include <filesystem>
#include <memory>

#include "riglens/core/base/expected.h"
#include "riglens/core/decoded/decoder_session.h"

namespace riglens::decode {

// Both sides are built together, so the table passes C++ types (a session is
// used through its virtual functions, which live in the module); the number
// changes whenever the table does.
constexpr int kDecoderModuleAbi = 1;
constexpr const char* kDecoderModuleFile = "libriglens-decode.so";
constexpr const char* kDecoderModuleEntry = "riglens_decoder_module";

struct DecoderModule {
  int abi = kDecoderModuleAbi;  // first: core::openPrivateModule checks it
  core::Expected<std::unique_ptr<core::DecoderSession>> (*open)(const std::filesystem::path& file);
};

}  // namespace riglens::decode

// The module's one exported name.
extern "C" __attribute__((visibility("default"))) const void* riglens_decoder_module();
