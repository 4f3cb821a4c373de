// Loading the .qsb shaders that qt_add_shaders embedded under :/shaders/.
// Private to engine/render.
#pragma once

#include <QtGui/private/qrhi_p.h>
#include <QtGui/private/qshader_p.h>

#include <memory>

#include "riglens/core/base/expected.h"

namespace riglens::render {

// `fileName` is the source's file name, e.g. "transform_points.comp".
core::Expected<QShader> loadShader(const char* fileName);

// A new graphics pipeline with `vertex` and `fragment` as its stages; null
// when either shader is missing from the build.
std::unique_ptr<QRhiGraphicsPipeline> newGraphicsPipeline(QRhi* rhi, const char* vertex, const char* fragment);

}  // namespace riglens::render
