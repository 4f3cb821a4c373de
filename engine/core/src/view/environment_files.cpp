// Reading environment maps: Radiance .hdr through stb_image, .exr through
// OpenEXR. Both libraries allocate the whole image before decoding it, so
// the size a header claims is checked first against what the bytes could
// hold.
#include <ImfIO.h>
#include <ImfRgbaFile.h>
#include <stb_image.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <exception>
#include <mutex>

#include "riglens/core/base/file_io.h"
#include "riglens/core/base/json_reader.h"
#include "riglens/core/view/environment.h"

namespace riglens::core {

namespace {

// The most texels a Radiance file's bytes can encode: its run-length code
// gives at most 127 values of one component per 2 bytes, four components a
// texel, so about 16 texels a byte.
constexpr std::uint64_t kHdrTexelsPerByte = 16;
// An EXR's zip compression (deflate) expands at most ~1032:1, and a texel
// takes at least 2 bytes (one half channel).
constexpr std::uint64_t kExrTexelsPerByte = 1032 / 2;

// The longest side a map may have (a 16384 x 8192 map at most, in texels).
constexpr std::int64_t kMaxEnvironmentSide = 16384;

// A map is taken as equirectangular when its aspect ratio is within this of 2:1.
constexpr double kEquirectAspectSlack = 0.02;

std::string lowerExtension(const std::string& fileName) {
  std::string ext = std::filesystem::path(fileName).extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return char(std::tolower(c)); });
  return ext;
}

Error refuse(const std::string& file, std::uint64_t offset, const std::string& problem) {
  return errorAtByte(ErrorCode::Invalid, file, offset, problem);
}

// What every reader checks once it knows the size.
std::string sizeProblem(std::int64_t width, std::int64_t height, std::uint64_t bytes, std::uint64_t perByte) {
  if (width <= 0 || height <= 0)
    return "the image is " + std::to_string(width) + " x " + std::to_string(height) + " texels";
  const std::uint64_t texels = std::uint64_t(width) * std::uint64_t(height);
  if (texels > kMaxEnvironmentTexels || width > kMaxEnvironmentSide || height > kMaxEnvironmentSide)
    return "the image is " + std::to_string(width) + " x " + std::to_string(height) +
           " texels, more than the viewer takes (16384 x 8192)";
  if (texels > bytes * perByte)
    return "the header claims " + std::to_string(width) + " x " + std::to_string(height) + " texels, more than " +
           std::to_string(bytes) + " bytes can encode";
  return {};
}

// Non-finite radiance is refused; negative radiance (a filter's ringing) is
// clamped to 0 and warned about; an aspect other than 2:1 is warned about.
Expected<EnvironmentMap> finish(EnvironmentMap map, const std::string& file) {
  std::size_t negative = 0;
  for (std::size_t i = 0; i < map.rgb.size(); ++i) {
    float& v = map.rgb[i];
    if (!std::isfinite(v)) {
      const std::size_t texel = i / 3;
      return errorAt(ErrorCode::Invalid, file, "",
                     "texel (" + std::to_string(texel % std::size_t(map.width)) + ", " +
                         std::to_string(texel / std::size_t(map.width)) + ") is not a finite radiance");
    }
    if (v < 0.0f) ++negative, v = 0.0f;
  }
  if (negative > 0) map.warnings.push_back(file + ": " + std::to_string(negative) + " negative values were set to 0");
  if (std::abs(double(map.width) / map.height - 2.0) > 2.0 * kEquirectAspectSlack)
    map.warnings.push_back(file + ": the image is " + std::to_string(map.width) + " x " + std::to_string(map.height) +
                           ", not 2:1: it is stretched over the sphere");
  return map;
}

// stb_image reads past a Radiance file's end as zeros, so a cut file would
// open black at the bottom: the pixel data is walked here first, as stb
// reads it (flat texels, or scanlines of four run-length coded component
// planes), and a file that ends early is refused at the byte it ends.
struct ByteProblem {
  std::uint64_t at = 0;
  std::string problem;  // empty: none
};

ByteProblem hdrPixelsProblem(std::span<const std::uint8_t> bytes, int width, int height) {
  std::size_t at = 0;
  for (int newlines = 0; at < bytes.size();)  // the header's blank line, then the size line
    if (bytes[at++] == '\n' && ++newlines >= 2 && at >= 2 && bytes[at - 2] == '\n') break;
  while (at < bytes.size() && bytes[at++] != '\n') {
  }
  const auto cut = [&](std::size_t where, const std::string& what) {
    return ByteProblem{where, what + " early: the file ends at byte " + std::to_string(bytes.size())};
  };
  const bool runLength = width >= 8 && width < 32768 && at + 4 <= bytes.size() && bytes[at] == 2 &&
                         bytes[at + 1] == 2 && !(bytes[at + 2] & 0x80);
  if (!runLength) {
    const std::uint64_t need = std::uint64_t(width) * std::uint64_t(height) * 4;
    return bytes.size() - at < need ? cut(at, "the texels (" + std::to_string(need) + " bytes) end") : ByteProblem{};
  }
  for (int y = 0; y < height; ++y) {
    const std::size_t line = at;
    if (at + 4 > bytes.size()) return cut(line, "scanline " + std::to_string(y) + " ends");
    at += 4;
    for (int component = 0; component < 4; ++component)
      for (int x = 0; x < width;) {
        if (at >= bytes.size()) return cut(line, "scanline " + std::to_string(y) + " ends");
        const int count = bytes[at++];
        const bool run = count > 128;
        x += run ? count - 128 : count;
        at += run ? 1 : std::size_t(count);
        if (count == 0) return {at - 1, "scanline " + std::to_string(y) + " has an empty run"};
      }
    if (at > bytes.size()) return cut(line, "scanline " + std::to_string(y) + " ends");
  }
  return {};
}

Expected<EnvironmentMap> decodeHdr(std::span<const std::uint8_t> bytes, const std::string& file) {
  if (bytes.size() > std::size_t(std::numeric_limits<int>::max()))
    return refuse(file, 0, "the file is larger than 2 GiB");
  const int size = int(bytes.size());
  if (!stbi_is_hdr_from_memory(bytes.data(), size))
    return refuse(file, 0, "not a Radiance RGBE image (no #?RADIANCE or #?RGBE signature)");
  int width = 0, height = 0, components = 0;
  if (!stbi_info_from_memory(bytes.data(), size, &width, &height, &components))
    return refuse(file, 0, std::string("the Radiance header cannot be read (") + stbi_failure_reason() + ")");
  if (auto problem = sizeProblem(width, height, bytes.size(), kHdrTexelsPerByte); !problem.empty())
    return refuse(file, 0, problem);
  if (auto cut = hdrPixelsProblem(bytes, width, height); !cut.problem.empty()) return refuse(file, cut.at, cut.problem);
  float* pixels = stbi_loadf_from_memory(bytes.data(), size, &width, &height, &components, 3);
  if (!pixels)
    return errorAt(ErrorCode::Invalid, file, "",
                   std::string("the Radiance pixels cannot be decoded (") + stbi_failure_reason() + ")");
  EnvironmentMap map;
  map.width = width, map.height = height;
  map.rgb.assign(pixels, pixels + std::size_t(width) * std::size_t(height) * 3);
  stbi_image_free(pixels);
  return map;
}

// OpenEXR reads through this: the bytes in memory, never past their end.
class MemoryStream : public Imf::IStream {
 public:
  MemoryStream(std::span<const std::uint8_t> bytes, const std::string& name)
      : Imf::IStream(name.c_str()), m_bytes(bytes) {}
  bool read(char c[], int n) override {
    if (n < 0 || m_at > m_bytes.size() || std::size_t(n) > m_bytes.size() - m_at)
      throw std::runtime_error("the data ends at byte " + std::to_string(m_bytes.size()) + " (reading " +
                               std::to_string(n) + " bytes at " + std::to_string(m_at) + ")");
    std::memcpy(c, m_bytes.data() + m_at, std::size_t(n));
    m_at += std::size_t(n);
    return m_at < m_bytes.size();
  }
  std::uint64_t tellg() override { return m_at; }
  void seekg(std::uint64_t at) override { m_at = at; }

 private:
  std::span<const std::uint8_t> m_bytes;
  std::uint64_t m_at = 0;
};

std::uint32_t littleEndian32(std::span<const std::uint8_t> bytes, std::size_t at) {
  return std::uint32_t(bytes[at]) | std::uint32_t(bytes[at + 1]) << 8 | std::uint32_t(bytes[at + 2]) << 16 |
         std::uint32_t(bytes[at + 3]) << 24;
}

// OpenEXR reads a typed attribute by its type, whatever size the file
// declares for it, and sizes some of its buffers from the value: a declared
// size that disagrees with the type, or a value that claims more than the
// declared size holds, would make it read the rest of the header out of
// step (and allocate what an unaligned "size" says). The problem, or empty.
std::string exrAttributeProblem(const std::string& type, std::span<const std::uint8_t> value) {
  static const std::pair<const char*, std::size_t> kFixed[] = {{"box2i", 16},
                                                               {"box2f", 16},
                                                               {"v2i", 8},
                                                               {"v2f", 8},
                                                               {"v2d", 16},
                                                               {"v3i", 12},
                                                               {"v3f", 12},
                                                               {"v3d", 24},
                                                               {"float", 4},
                                                               {"int", 4},
                                                               {"double", 8},
                                                               {"compression", 1},
                                                               {"lineOrder", 1},
                                                               {"envmap", 1},
                                                               {"deepImageState", 1},
                                                               {"chromaticities", 32},
                                                               {"m33f", 36},
                                                               {"m33d", 72},
                                                               {"m44f", 64},
                                                               {"m44d", 128},
                                                               {"tiledesc", 9},
                                                               {"rational", 8},
                                                               {"keycode", 28},
                                                               {"timecode", 8}};
  for (const auto& [name, size] : kFixed)
    if (type == name && value.size() != size)
      return "holds " + std::to_string(value.size()) + " bytes, not the " + std::to_string(size) + " of its type";
  if (type == "preview") {  // width, height, then 4 bytes a pixel
    if (value.size() < 8) return "too short for a preview";
    const std::uint64_t pixels = std::uint64_t(littleEndian32(value, 0)) * littleEndian32(value, 4);
    if (pixels * 4 != value.size() - 8) return "its preview's pixels do not fill it";
  }
  if (type == "chlist") {  // per channel a name, then 16 bytes; a lone 0 ends the list, at its end
    std::size_t at = 0;
    for (;;) {
      const auto end = std::find(value.begin() + std::ptrdiff_t(at), value.end(), std::uint8_t(0));
      if (end == value.end()) return "its channel list does not end inside it";
      const std::size_t name = std::size_t(end - value.begin()) - at;
      at += name + 1;
      if (name == 0) break;
      if (value.size() - at < 16) return "a channel's description runs past it";
      at += 16;
    }
    if (at != value.size()) return "its channel list ends before it does";
  }
  if (type == "stringvector")  // a length before each string
    for (std::size_t at = 0; at < value.size();) {
      if (value.size() - at < 4) return "a string's length runs past it";
      const std::uint32_t length = littleEndian32(value, at);
      at += 4;
      if (length > value.size() - at) return "a string claims more bytes than it holds";
      at += length;
    }
  return {};
}

// OpenEXR allocates each header attribute at the size it claims before
// reading it (seen: 1.3 GB from a 60-byte file), so the header is walked
// here first: every attribute must fit in the file, and the data window
// must pass sizeProblem. Single-part flat images only (what RgbaInputFile reads).
ByteProblem exrHeaderProblem(std::span<const std::uint8_t> bytes) {
  static constexpr std::uint8_t kMagic[4] = {0x76, 0x2f, 0x31, 0x01};
  if (bytes.size() < 8 || !std::equal(kMagic, kMagic + 4, bytes.begin()))
    return {0, "not an OpenEXR image (no magic number)"};
  const std::uint32_t version = littleEndian32(bytes, 4);
  if (version & 0x800) return {4, "a deep OpenEXR image is not an environment map"};
  if (version & 0x1000) return {4, "a multi-part OpenEXR file is not read as an environment map"};
  const auto text = [&](std::size_t& at, std::string& out) {
    const auto end = std::find(bytes.begin() + std::ptrdiff_t(at), bytes.end(), std::uint8_t(0));
    if (end == bytes.end() || end - (bytes.begin() + std::ptrdiff_t(at)) > 255) return false;
    out.assign(bytes.begin() + std::ptrdiff_t(at), end);
    at = std::size_t(end - bytes.begin()) + 1;
    return true;
  };
  for (std::size_t at = 8;;) {
    const std::size_t start = at;
    std::string name, type;
    if (!text(at, name)) return {start, "the header ends inside an attribute's name"};
    if (name.empty()) return {};
    if (!text(at, type) || at + 4 > bytes.size()) return {start, "the header ends inside attribute '" + name + "'"};
    const std::uint32_t size = littleEndian32(bytes, at);
    at += 4;
    if (size > bytes.size() - at)
      return {at - 4, "attribute '" + name + "' claims " + std::to_string(size) + " bytes, past the end of the file"};
    if (auto problem = exrAttributeProblem(type, bytes.subspan(at, size)); !problem.empty())
      return {at, "attribute '" + name + "' (" + type + "): " + problem};
    if (name == "dataWindow" && type == "box2i") {
      const auto corner = [&](std::size_t i) { return std::int64_t(std::int32_t(littleEndian32(bytes, at + i * 4))); };
      const std::string problem =
          sizeProblem(corner(2) - corner(0) + 1, corner(3) - corner(1) + 1, bytes.size(), kExrTexelsPerByte);
      if (!problem.empty()) return {at, "the data window: " + problem};
    }
    at += size;
  }
}

Expected<EnvironmentMap> decodeExr(std::span<const std::uint8_t> bytes, const std::string& file) {
  static std::once_flag limits;
  std::call_once(limits, [] { Imf::Header::setMaxImageSize(16384, 16384); });
  if (auto header = exrHeaderProblem(bytes); !header.problem.empty()) return refuse(file, header.at, header.problem);
  try {
    MemoryStream stream(bytes, file);
    Imf::RgbaInputFile exr(stream, 1);
    const Imath::Box2i window = exr.dataWindow();
    const std::int64_t width = std::int64_t(window.max.x) - window.min.x + 1;
    const std::int64_t height = std::int64_t(window.max.y) - window.min.y + 1;
    if (auto problem = sizeProblem(width, height, bytes.size(), kExrTexelsPerByte); !problem.empty())
      return refuse(file, 0, "the header's data window: " + problem);
    std::vector<Imf::Rgba> pixels(std::size_t(width * height));
    // OpenEXR addresses the frame buffer by absolute texel coordinates: its
    // base is where texel (0, 0) would be, outside our array when the window
    // does not start at the origin, so it is computed as an address (the
    // pointer arithmetic would be undefined; the fuzzer's UBSan caught it).
    const std::uintptr_t texelBytes = sizeof(Imf::Rgba);
    const std::uintptr_t shift = (std::uintptr_t(std::intptr_t(window.min.x)) +
                                  std::uintptr_t(std::intptr_t(window.min.y)) * std::uintptr_t(width)) *
                                 texelBytes;
    exr.setFrameBuffer(reinterpret_cast<Imf::Rgba*>(reinterpret_cast<std::uintptr_t>(pixels.data()) - shift), 1,
                       std::size_t(width));
    exr.readPixels(window.min.y, window.max.y);
    EnvironmentMap map;
    map.width = int(width), map.height = int(height);
    map.rgb.resize(pixels.size() * 3);
    for (std::size_t i = 0; i < pixels.size(); ++i) {
      map.rgb[i * 3] = float(pixels[i].r);
      map.rgb[i * 3 + 1] = float(pixels[i].g);
      map.rgb[i * 3 + 2] = float(pixels[i].b);
    }
    return map;
  } catch (const std::bad_alloc&) {
    return errorAt(ErrorCode::Invalid, file, "", "not enough memory to read this image");
  } catch (const std::exception& e) {
    return errorAt(ErrorCode::Invalid, file, "", std::string("not a readable OpenEXR image (") + e.what() + ")");
  } catch (...) {
    return errorAt(ErrorCode::Invalid, file, "", "not a readable OpenEXR image");
  }
}

}  // namespace

Expected<EnvironmentMap> decodeEnvironment(std::span<const std::uint8_t> bytes, const std::string& fileName) {
  const std::string ext = lowerExtension(fileName);
  Expected<EnvironmentMap> map =
      ext == ".hdr"   ? decodeHdr(bytes, fileName)
      : ext == ".exr" ? decodeExr(bytes, fileName)
                      : Expected<EnvironmentMap>(errorAt(ErrorCode::Unsupported, fileName, "",
                                                         "an environment is a .hdr (Radiance) or .exr (OpenEXR) file"));
  if (!map) return map;
  map.value().name = std::filesystem::path(fileName).filename().string();
  return finish(std::move(map).value(), fileName);
}

Expected<EnvironmentMap> readEnvironment(const std::filesystem::path& path) {
  auto bytes = readFileBytes(path);
  if (!bytes) return bytes.error();
  return decodeEnvironment(bytes.value(), path.string());
}

}  // namespace riglens::core
