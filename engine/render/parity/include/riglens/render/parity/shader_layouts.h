// Checks the uniform blocks of shaders/shader_interface.h - the very structs
// engine/render fills and uploads - against the reflection data qsb stored in
// each .qsb: block names, sizes and the offset of every member; and that the
// lift's block carries the bytes core::writeDebugLiftParams (the contract's
// layout) writes. A mismatch is a build bug; the render tests call it.
#pragma once

#include "riglens/core/base/expected.h"

namespace riglens::render {

core::Expected<void> verifyShaderLayouts();

}  // namespace riglens::render
