#include "riglens/render/parity/shader_layouts.h"

#include <cstddef>
#include <map>
#include <string>

#include "device/gpu_layouts.h"
#include "riglens/core/character/debug_lift.h"
#include "device/shader_library.h"

namespace riglens::render {
namespace {

using Offsets = std::map<std::string, int>;

const Offsets kFrame{{"viewProj", offsetof(gpu::FrameBlock, viewProj)},
                     {"cameraPos", offsetof(gpu::FrameBlock, cameraPos)},
                     {"keyDir", offsetof(gpu::FrameBlock, keyDir)},
                     {"fillDir", offsetof(gpu::FrameBlock, fillDir)},
                     {"skyColor", offsetof(gpu::FrameBlock, skyColor)},
                     {"groundColor", offsetof(gpu::FrameBlock, groundColor)},
                     {"highlightColor", offsetof(gpu::FrameBlock, highlightColor)},
                     {"mode", offsetof(gpu::FrameBlock, mode)},
                     {"wire", offsetof(gpu::FrameBlock, wire)}};
const Offsets kPart{{"model", offsetof(gpu::PartBlock, model)},
                    {"normalMatrix", offsetof(gpu::PartBlock, normalMatrix)},
                    {"tint", offsetof(gpu::PartBlock, tint)}};
// lift.comp's LiftParams is the 96-byte uniform core::writeDebugLiftParams writes.
const Offsets kLift{{"vertexCount", 0}, {"slotOffset", 4}, {"slotCount", 8}, {"shading", 12}, {"row0", 16}, {"row1", 32},
                    {"row2", 48}, {"sigma", 64}, {"opacity", 68}, {"pad", 72}, {"centre", 80}};
const Offsets kGnm{{"vertexCount", 0}, {"coeffCount", 4}, {"activeCount", 8}, {"flags", 12}, {"eyePos", 16}, {"eyeRot", 48}};
const Offsets kSplatView{{"view", 0}, {"proj", 64}, {"viewport", 128}, {"count", 144}};
const Offsets kSkin{{"vertexCount", offsetof(gpu::SkinParams, vertexCount)},
                    {"boneCount", offsetof(gpu::SkinParams, boneCount)}};

core::Expected<void> check(const char* shaderFile, const char* block, const Offsets& offsets, int cppSize) {
  auto shader = loadShader(shaderFile);
  if (!shader) return shader.error();
  for (const auto& ub : shader->description().uniformBlocks()) {
    if (ub.blockName != block) continue;
    const std::string where = std::string(shaderFile) + " block " + block;
    // std140 pads a block to 16 bytes; the C++ struct may carry that padding.
    if (ub.size > cppSize || cppSize - ub.size >= 16)
      return core::makeError(core::ErrorCode::Invalid, where + ": size " + std::to_string(ub.size) +
                                                           " vs C++ " + std::to_string(cppSize));
    for (const auto& member : ub.members) {
      const auto it = offsets.find(member.name.toStdString());
      if (it == offsets.end())
        return core::makeError(core::ErrorCode::Invalid, where + ": member " + member.name.toStdString() + " has no C++ mirror");
      if (it->second != member.offset)
        return core::makeError(core::ErrorCode::Invalid, where + ": member " + it->first + " at offset " +
                                                             std::to_string(member.offset) + " vs C++ " + std::to_string(it->second));
    }
    return {};
  }
  return core::makeError(core::ErrorCode::Invalid, std::string(shaderFile) + ": no uniform block " + block);
}

}  // namespace

core::Expected<void> verifyShaderLayouts() {
  struct Case { const char* file; const char* block; const Offsets* offsets; int size; };
  const Case cases[] = {{"part.vert", "Frame", &kFrame, sizeof(gpu::FrameBlock)},
                        {"part.frag", "Frame", &kFrame, sizeof(gpu::FrameBlock)},
                        {"lines.vert", "Frame", &kFrame, sizeof(gpu::FrameBlock)},
                        {"part.vert", "Part", &kPart, sizeof(gpu::PartBlock)},
                        {"part.frag", "Part", &kPart, sizeof(gpu::PartBlock)},
                        {"skin.comp", "Params", &kSkin, sizeof(gpu::SkinParams)},
                        {"lift.comp", "LiftParams", &kLift, int(core::kDebugLiftParamsSize)},
                        {"gnm.comp", "Params", &kGnm, 176},
                        {"splat_project.comp", "View", &kSplatView, 160},
                        {"splat.vert", "View", &kSplatView, 160}};
  for (const Case& c : cases)
    if (auto ok = check(c.file, c.block, *c.offsets, c.size); !ok) return ok;
  return {};
}

}  // namespace riglens::render
