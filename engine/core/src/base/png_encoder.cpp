#include "riglens/core/base/png_encoder.h"

#include <png.h>

#include <algorithm>
#include <csetjmp>
#include <cstdio>
#include <new>
#include <string>

namespace riglens::core {

namespace {

// What libpng's callbacks write: the file's bytes, or why it stopped.
struct PngOutput {
  std::vector<std::uint8_t> bytes;
  char message[200] = {};
};

// libpng reports an error by calling this and expects it not to return: it
// leaves by longjmp to writeRows' setjmp, keeping the message.
[[noreturn]] void keepErrorAndLeave(png_structp png, png_const_charp message) {
  auto* out = static_cast<PngOutput*>(png_get_error_ptr(png));
  std::snprintf(out->message, sizeof out->message, "%s", message);
  std::longjmp(png_jmpbuf(png), 1);
}

void ignoreWarning(png_structp, png_const_charp) {}

void appendBytes(png_structp png, png_bytep data, std::size_t size) {
  auto* out = static_cast<PngOutput*>(png_get_io_ptr(png));
  bool grown = true;
  try {
    out->bytes.insert(out->bytes.end(), data, data + size);
  } catch (const std::bad_alloc&) {
    grown = false;
  }
  if (!grown) png_error(png, "out of memory");  // outside the catch: libpng leaves by longjmp
}

void flushNothing(png_structp) {}

bool opaque(const PixelRows& pixels) {
  for (int y = 0; y < pixels.height; ++y) {
    const std::uint8_t* row = pixels.data + std::size_t(y) * pixels.stride;
    for (int x = 0; x < pixels.width; ++x)
      if (row[std::size_t(x) * 4 + 3] != 255) return false;
  }
  return true;
}

// PNG stores straight alpha: colour divided by alpha again, rounded.
void unpremultiply(const std::uint8_t* from, std::uint8_t* to, int width) {
  for (int x = 0; x < width; ++x, from += 4, to += 4) {
    const unsigned alpha = from[3];
    for (int c = 0; c < 3; ++c)
      to[c] = alpha == 0 ? 0 : std::uint8_t(std::min(255u, (from[c] * 255u + alpha / 2) / alpha));
    to[3] = std::uint8_t(alpha);
  }
}

// Writes the rows; false with out->message set when libpng failed. Holds no
// object with a destructor: libpng leaves it by longjmp (`scratch` is the
// caller's). Up filter and zlib level 1: png_encoder.h says why.
bool writeRows(png_structp png, png_infop info, const PixelRows& pixels, bool rgb, std::uint8_t* scratch) {
  if (setjmp(png_jmpbuf(png))) return false;
  png_set_IHDR(png, info, png_uint_32(pixels.width), png_uint_32(pixels.height), 8,
               rgb ? PNG_COLOR_TYPE_RGB : PNG_COLOR_TYPE_RGB_ALPHA, PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
               PNG_FILTER_TYPE_DEFAULT);
  png_set_filter(png, PNG_FILTER_TYPE_BASE, PNG_FILTER_UP);
  png_set_compression_level(png, 1);
  png_write_info(png, info);
  if (rgb) png_set_filler(png, 0, PNG_FILLER_AFTER);  // the fourth byte of each pixel is dropped
  if (pixels.order == PixelRows::Order::Bgra) png_set_bgr(png);
  const bool straighten = !rgb && pixels.premultiplied;
  for (int y = 0; y < pixels.height; ++y) {
    const std::uint8_t* row = pixels.data + std::size_t(y) * pixels.stride;
    if (straighten) {
      unpremultiply(row, scratch, pixels.width);
      row = scratch;
    }
    png_write_row(png, row);
  }
  png_write_end(png, nullptr);
  return true;
}

}  // namespace

Expected<std::vector<std::uint8_t>> encodePng(const PixelRows& pixels) {
  if (pixels.width <= 0 || pixels.height <= 0 || !pixels.data)
    return makeError(ErrorCode::Usage, "no picture to encode (" + std::to_string(pixels.width) + "x" +
                                           std::to_string(pixels.height) + ")");
  if (pixels.width > PNG_USER_WIDTH_MAX || pixels.height > PNG_USER_HEIGHT_MAX)
    return makeError(ErrorCode::Usage, std::to_string(pixels.width) + "x" + std::to_string(pixels.height) +
                                           " is larger than libpng writes");
  if (pixels.stride < std::size_t(pixels.width) * 4)
    return makeError(ErrorCode::Usage, "rows of " + std::to_string(pixels.stride) + " bytes cannot hold " +
                                           std::to_string(pixels.width) + " pixels");
  PngOutput out;
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &out, keepErrorAndLeave, ignoreWarning);
  png_infop info = png ? png_create_info_struct(png) : nullptr;
  if (!info) {
    png_destroy_write_struct(&png, nullptr);
    return makeError(ErrorCode::Io, "libpng could not start (out of memory)");
  }
  png_set_write_fn(png, &out, appendBytes, flushNothing);
  const bool rgb = opaque(pixels);
  std::vector<std::uint8_t> scratch(!rgb && pixels.premultiplied ? std::size_t(pixels.width) * 4 : 0);
  const bool written = writeRows(png, info, pixels, rgb, scratch.data());
  png_destroy_write_struct(&png, &info);
  if (!written) return makeError(ErrorCode::Io, std::string("libpng: ") + out.message);
  return std::move(out.bytes);
}

}  // namespace riglens::core
