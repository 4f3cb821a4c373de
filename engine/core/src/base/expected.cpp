#include "riglens/core/base/expected.h"

namespace riglens::core {

std::string_view errorCodeName(ErrorCode code) {
  switch (code) {
    case ErrorCode::Io: return "io";
    case ErrorCode::Parse: return "parse";
    case ErrorCode::Invalid: return "invalid";
    case ErrorCode::Unsupported: return "unsupported";
    case ErrorCode::Usage: return "usage";
    case ErrorCode::Gpu: return "gpu";
  }
  return "unknown";
}

std::string Error::describe() const {
  std::string out(errorCodeName(code));
  out += ": ";
  out += message;
  return out;
}

}  // namespace riglens::core
