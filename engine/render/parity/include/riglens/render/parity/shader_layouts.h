// Checks the uniform blocks of shaders/shader_interface.h - the very structs
// engine/render fills and uploads - against the reflection data qsb stored in
// each .qsb: block names, sizes and the offset of every member; and that the
// lift's block carries the bytes core::writeDebugLiftParams (the contract's
// layout) writes. A mismatch is a build bug; the render tests call it.
#pragma once

#include "riglens/core/base/expected.h"

namespace riglens::render {

core::Expected<void> verifyShaderLayouts();

// Every graphics pipeline's stages (X.vert with X.frag, every pair built
// into :/shaders) carry the same GLSL versions. On OpenGL, Qt picks each
// stage's newest version the context takes, and qsb writes layout(location)
// on varyings only from GLSL 410: a 150 vertex stage and a 430 fragment stage
// failed to link on llvmpipe's GL 4.5 (the splat composite). The error names
// the pair and both version lists.
core::Expected<void> verifyPipelineStagesShareGlslVersions();

}  // namespace riglens::render
