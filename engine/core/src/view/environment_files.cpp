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
  if (texels > kMaxEnvironmentTexels)
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

Expected<EnvironmentMap> decodeExr(std::span<const std::uint8_t> bytes, const std::string& file) {
  static std::once_flag limits;
  std::call_once(limits, [] { Imf::Header::setMaxImageSize(16384, 16384); });
  try {
    MemoryStream stream(bytes, file);
    Imf::RgbaInputFile exr(stream, 1);
    const Imath::Box2i window = exr.dataWindow();
    const std::int64_t width = std::int64_t(window.max.x) - window.min.x + 1;
    const std::int64_t height = std::int64_t(window.max.y) - window.min.y + 1;
    if (auto problem = sizeProblem(width, height, bytes.size(), kExrTexelsPerByte); !problem.empty())
      return refuse(file, 0, "the header's data window: " + problem);
    std::vector<Imf::Rgba> pixels(std::size_t(width * height));
    // OpenEXR addresses the frame buffer by absolute texel coordinates.
    const std::ptrdiff_t origin = -std::ptrdiff_t(window.min.x) - std::ptrdiff_t(window.min.y) * width;
    exr.setFrameBuffer(pixels.data() + origin, 1, std::size_t(width));
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
