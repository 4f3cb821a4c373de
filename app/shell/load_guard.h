// The loaders return refusals as values and guard their own boundaries;
// loadGuarded catches what would still escape (memory running out) on a
// loading thread, where it would otherwise end the process through
// QUnhandledException and lose the open document. GUI-free.
#pragma once

#include <exception>
#include <new>
#include <string>

#include "riglens/core/base/json_reader.h"

namespace riglens::app {

template <class Load>
auto loadGuarded(const std::string& path, Load load) -> decltype(load(path)) {
  try {
    return load(path);
  } catch (const std::bad_alloc&) {
    return core::errorAt(core::ErrorCode::Invalid, path, "", "not enough memory to open it");
  } catch (const std::exception& e) {
    return core::errorAt(core::ErrorCode::Invalid, path, "", std::string("cannot be opened (") + e.what() + ")");
  }
}

}  // namespace riglens::app
