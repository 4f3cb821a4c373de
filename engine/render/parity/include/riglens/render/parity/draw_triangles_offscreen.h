// A one-shot offscreen draw of vertex-coloured triangles, read back into a
// QImage. The smallest complete path through the graphics pipeline: used by
// the render smoke test and as the base the part renderer grows from.
#pragma once

#include <QtCore/QSize>
#include <QtGui/QColor>
#include <QtGui/QImage>
#include <glm/mat4x4.hpp>
#include <span>

#include "riglens/core/base/expected.h"
#include "riglens/render/device/rhi_device.h"

namespace riglens::render {

struct ColorVertex {
  float x, y, z;  // object space
  float r, g, b;  // linear 0..1
};

// Draws `vertices` (a triangle list, counter-clockwise, no culling) with
// clip = correction * `viewProjection` * position, where correction is the
// backend's clip-space correction (so `viewProjection` uses OpenGL
// conventions on every backend). Returns the RGBA image, top row first,
// whatever the backend's framebuffer orientation.
core::Expected<QImage> drawColoredTrianglesOffscreen(RhiDevice& device, QSize size,
                                                     std::span<const ColorVertex> vertices,
                                                     const glm::mat4& viewProjection, QColor clearColor);

}  // namespace riglens::render
