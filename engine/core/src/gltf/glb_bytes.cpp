#include "gltf/glb_bytes.h"

#include <cassert>
#include <ostream>
#include <streambuf>

namespace riglens::core {
namespace {

// What tinygltf writes to its std::ostream lands at the end of a byte vector.
class AppendingStreambuf : public std::streambuf {
 public:
  explicit AppendingStreambuf(std::vector<std::uint8_t>& out) : m_out(out) {}

 protected:
  std::streamsize xsputn(const char* text, std::streamsize count) override {
    const auto* bytes = reinterpret_cast<const std::uint8_t*>(text);
    m_out.insert(m_out.end(), bytes, bytes + count);
    return count;
  }
  int_type overflow(int_type c) override {
    if (!traits_type::eq_int_type(c, traits_type::eof())) m_out.push_back(static_cast<std::uint8_t>(c));
    return traits_type::not_eof(c);
  }

 private:
  std::vector<std::uint8_t>& m_out;
};

// The JSON's share, reserved beside the buffers: an accessor, its view and
// its bounds take a few hundred bytes of JSON for kilobytes of data or more.
// Too little only costs one more growth of the vector.
constexpr std::size_t kJsonReserveFraction = 16;
constexpr std::size_t kJsonReserveFloor = std::size_t(1) << 20;

}  // namespace

std::vector<std::uint8_t> encodeGlb(const tinygltf::Model& model) {
  std::size_t binary = 0;
  for (const auto& buffer : model.buffers) binary += buffer.data.size();
  std::vector<std::uint8_t> bytes;
  bytes.reserve(binary + binary / kJsonReserveFraction + kJsonReserveFloor);
  AppendingStreambuf sink(bytes);
  std::ostream stream(&sink);
  tinygltf::TinyGLTF writer;
  [[maybe_unused]] const bool ok = writer.WriteGltfSceneToStream(&model, stream, false, true);
  assert(ok);  // a stream into memory: tinygltf fails only on a stream error
  return bytes;
}

void reserveBinaryBytes(tinygltf::Model& model, std::size_t bytes) {
  model.buffers[0].data.reserve(model.buffers[0].data.size() + bytes);
}

}  // namespace riglens::core
