// Appending data to a tinygltf model's first buffer as a bufferView: shared
// by the part .glb writer and the whole-rig exporter. Private to engine/core.
#pragma once

#include <tiny_gltf.h>

#include <cstdint>
#include <vector>

namespace riglens::core {

// Appends `values` (4-byte aligned) to buffers[0] as one bufferView with the
// given target (0: none, e.g. animation data) and returns the view's index.
template <class T>
int appendBufferView(tinygltf::Model& model, const std::vector<T>& values, int target) {
  auto& data = model.buffers[0].data;
  while (data.size() % 4 != 0) data.push_back(0);
  tinygltf::BufferView view;
  view.buffer = 0;
  view.byteOffset = data.size();
  view.byteLength = values.size() * sizeof(T);
  view.target = target;
  const auto* bytes = reinterpret_cast<const std::uint8_t*>(values.data());
  data.insert(data.end(), bytes, bytes + view.byteLength);
  model.bufferViews.push_back(std::move(view));
  return static_cast<int>(model.bufferViews.size() - 1);
}

}  // namespace riglens::core
