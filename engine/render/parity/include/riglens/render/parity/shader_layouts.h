// Checks the C++ mirrors of the shaders' uniform blocks (src/gpu_layouts.h)
// against the reflection data qsb stored in each .qsb: block sizes and the
// offset of every member. A mismatch is a build bug; the render tests call it.
#pragma once

#include "riglens/core/base/expected.h"

namespace riglens::render {

core::Expected<void> verifyShaderLayouts();

}  // namespace riglens::render
