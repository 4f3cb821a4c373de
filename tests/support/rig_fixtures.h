// Building rigs from inline rig.json text in tests.
#pragma once

#include <string>
#include <string_view>

#include "riglens/core/base/json_file.h"
#include "riglens/core/rig/rig.h"
#include "riglens/core/rig/rig_json.h"

namespace riglens::test {

// Parses and builds; the Expected carries the loader's error for refusal tests.
inline core::Expected<core::BuiltRig> buildRigFromJson(std::string_view text, std::string_view source = "rig.json") {
  auto doc = core::parseJson(text, source);
  if (!doc) return doc.error();
  auto raw = core::parseRigSpec(*doc, source);
  if (!raw) return raw.error();
  return core::buildRig(*raw, source);
}

}  // namespace riglens::test
