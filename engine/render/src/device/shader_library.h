// Loading the .qsb shaders that qt_add_shaders embedded under :/shaders/.
// Private to engine/render.
#pragma once

#include <QtGui/private/qshader_p.h>

#include "riglens/core/base/expected.h"

namespace riglens::render {

// `fileName` is the source's file name, e.g. "transform_points.comp".
core::Expected<QShader> loadShader(const char* fileName);

}  // namespace riglens::render
