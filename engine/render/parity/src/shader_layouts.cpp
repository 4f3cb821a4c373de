#include "riglens/render/parity/shader_layouts.h"

#include <QtCore/QDir>
#include <cstddef>
#include <cstring>
#include <initializer_list>
#include <map>
#include <set>
#include <string>

#include "character/lift_block.h"
#include "device/gpu_layouts.h"
#include "device/shader_library.h"

namespace riglens::render {
namespace {

using Offsets = std::map<std::string, int>;
#define RIGLENS_MEMBER(Block, name) \
  { #name, int(offsetof(gpu::Block, name)) }

const Offsets kFrame{RIGLENS_MEMBER(FrameBlock, viewProj),       RIGLENS_MEMBER(FrameBlock, cameraPos),
                     RIGLENS_MEMBER(FrameBlock, keyDir),         RIGLENS_MEMBER(FrameBlock, fillDir),
                     RIGLENS_MEMBER(FrameBlock, skyColor),       RIGLENS_MEMBER(FrameBlock, groundColor),
                     RIGLENS_MEMBER(FrameBlock, highlightColor), RIGLENS_MEMBER(FrameBlock, mode),
                     RIGLENS_MEMBER(FrameBlock, wire),           RIGLENS_MEMBER(FrameBlock, look),
                     RIGLENS_MEMBER(FrameBlock, exposure),       RIGLENS_MEMBER(FrameBlock, environment),
                     RIGLENS_MEMBER(FrameBlock, lightPosition),  RIGLENS_MEMBER(FrameBlock, lightDirection),
                     RIGLENS_MEMBER(FrameBlock, lightColor),     RIGLENS_MEMBER(FrameBlock, lightCone)};
const Offsets kPart{RIGLENS_MEMBER(PartBlock, model), RIGLENS_MEMBER(PartBlock, normalMatrix),
                    RIGLENS_MEMBER(PartBlock, tint)};
const Offsets kMaterial{RIGLENS_MEMBER(MaterialBlock, alpha),    RIGLENS_MEMBER(MaterialBlock, flags),
                        RIGLENS_MEMBER(MaterialBlock, textures), RIGLENS_MEMBER(MaterialBlock, sets),
                        RIGLENS_MEMBER(MaterialBlock, pbr),      RIGLENS_MEMBER(MaterialBlock, emissive),
                        RIGLENS_MEMBER(MaterialBlock, specular), RIGLENS_MEMBER(MaterialBlock, ior),
                        RIGLENS_MEMBER(MaterialBlock, uvRows),   RIGLENS_MEMBER(MaterialBlock, toonShade),
                        RIGLENS_MEMBER(MaterialBlock, toon)};
const Offsets kEnv{RIGLENS_MEMBER(EnvParams, size), RIGLENS_MEMBER(EnvParams, sampling)};
const Offsets kSkin{RIGLENS_MEMBER(SkinParams, vertexCount), RIGLENS_MEMBER(SkinParams, boneCount),
                    RIGLENS_MEMBER(SkinParams, slotCount),   RIGLENS_MEMBER(SkinParams, rigid),
                    RIGLENS_MEMBER(SkinParams, tangents),    RIGLENS_MEMBER(SkinParams, pad0),
                    RIGLENS_MEMBER(SkinParams, pad1),        RIGLENS_MEMBER(SkinParams, pad2)};
const Offsets kLift{RIGLENS_MEMBER(LiftParams, vertexCount), RIGLENS_MEMBER(LiftParams, slotOffset),
                    RIGLENS_MEMBER(LiftParams, slotCount),   RIGLENS_MEMBER(LiftParams, shading),
                    RIGLENS_MEMBER(LiftParams, row0),        RIGLENS_MEMBER(LiftParams, row1),
                    RIGLENS_MEMBER(LiftParams, row2),        RIGLENS_MEMBER(LiftParams, sigma),
                    RIGLENS_MEMBER(LiftParams, opacity),     RIGLENS_MEMBER(LiftParams, pad),
                    RIGLENS_MEMBER(LiftParams, centre)};
const Offsets kGnm{RIGLENS_MEMBER(GnmParams, vertexCount), RIGLENS_MEMBER(GnmParams, rowLanes),
                   RIGLENS_MEMBER(GnmParams, activeCount), RIGLENS_MEMBER(GnmParams, flags),
                   RIGLENS_MEMBER(GnmParams, eyePos),      RIGLENS_MEMBER(GnmParams, eyeRot)};
const Offsets kOrl{RIGLENS_MEMBER(OrlParams, vertexCount), RIGLENS_MEMBER(OrlParams, maxInfluence),
                   RIGLENS_MEMBER(OrlParams, channelCount), RIGLENS_MEMBER(OrlParams, jointCount)};
const Offsets kSort{RIGLENS_MEMBER(SortParams, capacity), RIGLENS_MEMBER(SortParams, shift),
                    RIGLENS_MEMBER(SortParams, tileCount), RIGLENS_MEMBER(SortParams, pad)};
// radix_onesweep.comp (SPIR-V only, no reflection) declares the same block
// from the same header; the histogram kernel's reflection checks it.
const Offsets kOneSweep{RIGLENS_MEMBER(OneSweepParams, capacity), RIGLENS_MEMBER(OneSweepParams, pass),
                        RIGLENS_MEMBER(OneSweepParams, passes), RIGLENS_MEMBER(OneSweepParams, histogramGroups),
                        RIGLENS_MEMBER(OneSweepParams, countOnGpu)};
const Offsets kSplatView{RIGLENS_MEMBER(SplatView, view),     RIGLENS_MEMBER(SplatView, proj),
                         RIGLENS_MEMBER(SplatView, viewport), RIGLENS_MEMBER(SplatView, count),
                         RIGLENS_MEMBER(SplatView, tiles),    RIGLENS_MEMBER(SplatView, depthKey),
                         RIGLENS_MEMBER(SplatView, parts)};
const Offsets kComposite{RIGLENS_MEMBER(CompositeView, viewport), RIGLENS_MEMBER(CompositeView, drawn),
                         RIGLENS_MEMBER(CompositeView, background)};
const Offsets kTransform{RIGLENS_MEMBER(TransformParams, matrix), RIGLENS_MEMBER(TransformParams, count)};
const Offsets kMvp{RIGLENS_MEMBER(MvpBlock, mvp)};
const Offsets kDecoded{RIGLENS_MEMBER(DecodedLiftParams, dims),        RIGLENS_MEMBER(DecodedLiftParams, counts),
                       RIGLENS_MEMBER(DecodedLiftParams, scaleA),      RIGLENS_MEMBER(DecodedLiftParams, scaleB),
                       RIGLENS_MEMBER(DecodedLiftParams, rowL0),       RIGLENS_MEMBER(DecodedLiftParams, rowL1),
                       RIGLENS_MEMBER(DecodedLiftParams, rowL2),       RIGLENS_MEMBER(DecodedLiftParams, offsetO),
                       RIGLENS_MEMBER(DecodedLiftParams, slotRange),   RIGLENS_MEMBER(DecodedLiftParams, worldRot),
                       RIGLENS_MEMBER(DecodedLiftParams, worldOffset), RIGLENS_MEMBER(DecodedLiftParams, mask)};
#undef RIGLENS_MEMBER

core::Expected<void> check(const char* shaderFile, const char* block, const Offsets& offsets, int cppSize) {
  auto shader = loadShader(shaderFile);
  if (!shader) return shader.error();
  for (const auto& ub : shader->description().uniformBlocks()) {
    if (ub.blockName != block) continue;
    const std::string where = std::string(shaderFile) + " block " + block;
    // std140 pads a block to 16 bytes; the C++ struct may carry that padding.
    if (ub.size > cppSize || cppSize - ub.size >= 16)
      return core::makeError(core::ErrorCode::Invalid,
                             where + ": size " + std::to_string(ub.size) + " vs C++ " + std::to_string(cppSize));
    if (std::size_t(ub.members.size()) != offsets.size())
      return core::makeError(core::ErrorCode::Invalid, where + ": " + std::to_string(ub.members.size()) +
                                                           " members vs C++ " + std::to_string(offsets.size()));
    for (const auto& member : ub.members) {
      const auto it = offsets.find(member.name.toStdString());
      if (it == offsets.end())
        return core::makeError(core::ErrorCode::Invalid,
                               where + ": member " + member.name.toStdString() + " has no C++ mirror");
      if (it->second != member.offset)
        return core::makeError(core::ErrorCode::Invalid, where + ": member " + it->first + " at offset " +
                                                             std::to_string(member.offset) + " vs C++ " +
                                                             std::to_string(it->second));
    }
    return {};
  }
  return core::makeError(core::ErrorCode::Invalid, std::string(shaderFile) + ": no uniform block " + block);
}

// The lift block render uploads and the bytes the core writes for the same
// parameters (every field distinct, so a swapped pair shows).
core::Expected<void> checkLiftBytes() {
  core::DebugLiftParams p;
  p.vertexCount = 7;
  p.slotOffset = 11;
  p.slotCount = 13;
  p.shading = core::LiftShading::Normal;
  for (std::size_t i = 0; i < p.affine.size(); ++i) p.affine[i] = 0.5f + float(i);
  p.sigma = 0.003f;
  p.opacity = 0.75f;
  p.centroid = {1.5f, -2.5f, 3.5f};
  const gpu::LiftParams block = gpu::liftBlock(p);
  const auto bytes = core::writeDebugLiftParams(p);
  static_assert(sizeof(block) == bytes.size());
  if (std::memcmp(&block, bytes.data(), bytes.size()) != 0)
    return core::makeError(core::ErrorCode::Invalid,
                           "lift.comp block LiftParams: render's bytes differ from core::writeDebugLiftParams");
  return {};
}

}  // namespace

core::Expected<void> verifyShaderLayouts() {
  // Each block, with every shader that declares it.
  struct Block {
    const char* name;
    const Offsets* offsets;
    int size;
    std::initializer_list<const char*> shaders;
  };
  const Block blocks[] = {
      {"FrameBlock",
       &kFrame,
       sizeof(gpu::FrameBlock),
       {"part.vert", "part.frag", "part_flat.vert", "part_flat.frag", "part_pbr.vert", "part_pbr.frag",
        "part_pbr_plain.frag", "lines.vert", "environment_background.vert", "environment_background.frag"}},
      {"EnvParams", &kEnv, sizeof(gpu::EnvParams), {"env_prefilter.comp", "env_irradiance.comp", "env_brdf_lut.comp"}},
      {"PartBlock",
       &kPart,
       sizeof(gpu::PartBlock),
       {"part.vert", "part.frag", "part_flat.vert", "part_pbr.vert", "part_pbr.frag", "part_pbr_plain.frag"}},
      {"MaterialBlock",
       &kMaterial,
       sizeof(gpu::MaterialBlock),
       {"part.frag", "part_flat.vert", "part_flat.frag", "part_pbr.frag", "part_pbr_plain.frag"}},
      {"SkinParams", &kSkin, sizeof(gpu::SkinParams), {"skin.comp"}},
      {"LiftParams", &kLift, sizeof(gpu::LiftParams), {"lift.comp"}},
      {"GnmParams",
       &kGnm,
       sizeof(gpu::GnmParams),
       {"gnm.256.comp", "gnm.272.comp", "gnm.288.comp", "gnm.320.comp", "gnm.384.comp"}},
      {"OrlParams", &kOrl, sizeof(gpu::OrlParams), {"orl_deform.comp"}},
      {"SortParams",
       &kSort,
       sizeof(gpu::SortParams),
       {"radix_upsweep.comp", "radix_spine.comp", "radix_downsweep.comp"}},
      {"OneSweepParams", &kOneSweep, sizeof(gpu::OneSweepParams), {"radix_onesweep_histogram.comp"}},
      {"SplatView",
       &kSplatView,
       sizeof(gpu::SplatView),
       {"splat_project.comp", "splat.vert", "splat_tile_count.comp", "splat_tile_offsets.comp", "splat_tile_emit.comp",
        "splat_tile_ranges.comp", "splat_raster.comp", "splat_raster_transmittance.comp", "splat_raster_merge.comp"}},
      {"CompositeView",
       &kComposite,
       sizeof(gpu::CompositeView),
       {"splat_composite.vert", "splat_composite.frag", "splat_to_target.comp"}},
      {"TransformParams", &kTransform, sizeof(gpu::TransformParams), {"transform_points.comp"}},
      {"MvpBlock", &kMvp, sizeof(gpu::MvpBlock), {"vertex_color.vert"}},
      {"DecodedLiftParams",
       &kDecoded,
       sizeof(gpu::DecodedLiftParams),
       {"decoded_lift_pass1.comp", "decoded_lift_pass2.comp"}}};
  for (const Block& block : blocks)
    for (const char* shader : block.shaders)
      if (auto ok = check(shader, block.name, *block.offsets, block.size); !ok) return ok;
  return checkLiftBytes();
}

namespace {

// "150, 310 es, 430": the GLSL versions a .qsb carries, sorted.
std::string glslVersions(const QShader& shader) {
  std::set<std::string> versions;
  for (const QShaderKey& key : shader.availableShaders())
    if (key.source() == QShader::GlslShader)
      versions.insert(std::to_string(key.sourceVersion().version()) +
                      (key.sourceVersion().flags() & QShaderVersion::GlslEs ? " es" : ""));
  std::string list;
  for (const auto& v : versions) list += (list.empty() ? "" : ", ") + v;
  return list;
}

}  // namespace

core::Expected<void> verifyPipelineStagesShareGlslVersions() {
  const QStringList vertices = QDir(QStringLiteral(":/shaders")).entryList({QStringLiteral("*.vert.qsb")});
  if (vertices.isEmpty()) return core::makeError(core::ErrorCode::Invalid, "no vertex shaders under :/shaders");
  for (const QString& vertexFile : vertices) {
    const QString stem = vertexFile.chopped(int(std::strlen(".vert.qsb")));
    const std::string vertexName = (stem + QStringLiteral(".vert")).toStdString();
    const std::string fragmentName = (stem + QStringLiteral(".frag")).toStdString();
    auto vertex = loadShader(vertexName.c_str());
    if (!vertex) return vertex.error();
    auto fragment = loadShader(fragmentName.c_str());
    if (!fragment) return fragment.error();
    const std::string v = glslVersions(*vertex), f = glslVersions(*fragment);
    if (v != f)
      return core::makeError(core::ErrorCode::Invalid, "the pipeline " + stem.toStdString() +
                                                           " cannot link on OpenGL: " + vertexName + " carries GLSL " +
                                                           v + ", " + fragmentName + " GLSL " + f);
  }
  return {};
}

}  // namespace riglens::render
