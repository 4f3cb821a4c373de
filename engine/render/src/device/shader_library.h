// Loading the .qsb shaders that qt_add_shaders embedded under :/shaders/.
// Private to engine/render.
#pragma once

#include <QtGui/private/qrhi_p.h>
#include <QtGui/private/qshader_p.h>

#include <initializer_list>
#include <memory>

#include "riglens/core/base/expected.h"

namespace riglens::render {

// `fileName` is the source's file name, e.g. "transform_points.comp".
core::Expected<QShader> loadShader(const char* fileName);

// A compute shader glslc built for subgroups of `lanes` invocations
// (:/shaders/spirv/<fileName>.<lanes>.spv; shaders with subgroup operations,
// which qsb cannot translate): SPIR-V alone, so for the Vulkan backend only.
core::Expected<QShader> loadSpirvShader(const char* fileName, int lanes);

// A new graphics pipeline with `vertex` and `fragment` as its stages; null
// when either shader is missing from the build.
std::unique_ptr<QRhiGraphicsPipeline> newGraphicsPipeline(QRhi* rhi, const char* vertex, const char* fragment);

// "Over" blending of a colour target: the source's alpha covers what is
// behind; `premultiplied` when the shader already multiplied its colour by it.
QRhiGraphicsPipeline::TargetBlend overBlend(bool premultiplied);

// `pipeline`, its state set by the caller, bound to the pass it draws in (its
// descriptor, sample count and binding layout) and created; null when QRhi
// refuses it.
std::unique_ptr<QRhiGraphicsPipeline> createGraphicsPipeline(std::unique_ptr<QRhiGraphicsPipeline> pipeline,
                                                             QRhiRenderPassDescriptor* rp, int samples,
                                                             QRhiShaderResourceBindings* bindings);

// A created compute pipeline of `shader` over `layout`'s binding layout; null
// when the shader is missing or the pipeline cannot be made.
std::unique_ptr<QRhiComputePipeline> newComputePipeline(QRhi* rhi, const QShader& shader,
                                                        QRhiShaderResourceBindings* layout);
std::unique_ptr<QRhiComputePipeline> newComputePipeline(QRhi* rhi, const char* fileName,
                                                        QRhiShaderResourceBindings* layout);

// A created binding set; null when QRhi refuses it.
std::unique_ptr<QRhiShaderResourceBindings> newBindings(QRhi* rhi,
                                                        std::initializer_list<QRhiShaderResourceBinding> bindings);

}  // namespace riglens::render
