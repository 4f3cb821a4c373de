// A member of a tinygltf JSON value (an extension's or the extras' object),
// shared by the readers of glTF extensions.
#pragma once

#include <tiny_gltf.h>

namespace riglens::core::gltf_json {

// The member `key` of `object`, or null where `object` is no JSON object or
// has no such member.
inline const tinygltf::Value* member(const tinygltf::Value& object, const char* key) {
  return object.IsObject() && object.Has(key) ? &object.Get(key) : nullptr;
}

}  // namespace riglens::core::gltf_json
