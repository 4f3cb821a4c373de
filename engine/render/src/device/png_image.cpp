#include "riglens/render/device/png_image.h"

#include <QtCore/QSysInfo>
#include <optional>

#include "riglens/core/base/png_encoder.h"

namespace riglens::render {

namespace {

// How core's encoder reads a format's four bytes, when it can as they lie.
struct Layout {
  core::PixelRows::Order order;
  bool premultiplied;
};

std::optional<Layout> layoutOf(QImage::Format format) {
  using Order = core::PixelRows::Order;
  switch (format) {
    case QImage::Format_RGBA8888:
    case QImage::Format_RGBX8888:  // its fourth byte is 255
      return Layout{Order::Rgba, false};
    case QImage::Format_RGBA8888_Premultiplied: return Layout{Order::Rgba, true};
    default: break;
  }
  // 0xAARRGGBB words: B, G, R, A in memory on a little-endian machine.
  if constexpr (QSysInfo::ByteOrder == QSysInfo::LittleEndian) {
    if (format == QImage::Format_ARGB32 || format == QImage::Format_RGB32) return Layout{Order::Bgra, false};
    if (format == QImage::Format_ARGB32_Premultiplied) return Layout{Order::Bgra, true};
  }
  return std::nullopt;
}

}  // namespace

core::Expected<std::vector<std::uint8_t>> encodePng(const QImage& image) {
  const std::optional<Layout> layout = layoutOf(image.format());
  const QImage converted = layout ? QImage() : image.convertToFormat(QImage::Format_RGBA8888);
  const QImage& source = layout ? image : converted;
  const Layout used = layout.value_or(Layout{core::PixelRows::Order::Rgba, false});
  return core::encodePng({source.width(), source.height(), std::size_t(source.bytesPerLine()), source.constBits(),
                          used.order, used.premultiplied});
}

}  // namespace riglens::render
