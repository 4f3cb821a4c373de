#include "device/shader_library.h"

#include <QtCore/QFile>
#include <cstring>

namespace riglens::render {

namespace {

// RIGLENS_SHADER_DIR: a folder of .qsb builds to use instead of the built-in
// ones that it holds (tuning a kernel on a GPU host without rebuilding;
// CONTRIBUTING.md). Built-in otherwise.
QString qsbPath(const char* fileName) {
  const QString name = QString::fromUtf8(fileName) + QStringLiteral(".qsb");
  const QString dir = qEnvironmentVariable("RIGLENS_SHADER_DIR");
  if (!dir.isEmpty() && QFile::exists(dir + '/' + name)) {
    // Said on stderr, so a tuning folder left in the environment is seen.
    qInfo("riglens: %s from RIGLENS_SHADER_DIR (%s), not the built-in one", qPrintable(name), qPrintable(dir));
    return dir + '/' + name;
  }
  return QStringLiteral(":/shaders/") + name;
}

}  // namespace

core::Expected<QShader> loadShader(const char* fileName) {
  const QString path = qsbPath(fileName);
  QFile file(path);
  if (!file.open(QIODevice::ReadOnly)) {
    // A missing resource is a build problem, but it reaches users of a broken
    // package, so it is reported rather than asserted.
    return core::makeError(core::ErrorCode::Io, path.toStdString() + ": shader resource missing from the build");
  }
  QShader shader = QShader::fromSerialized(file.readAll());
  if (!shader.isValid())
    return core::makeError(core::ErrorCode::Parse, path.toStdString() + ": not a valid .qsb shader");
  return shader;
}

core::Expected<QShader> loadSpirvShader(const char* fileName, int lanes) {
  // RIGLENS_SPIRV_DIR: a folder of builds to try instead (tuning a kernel
  // on a GPU host without rebuilding; CONTRIBUTING.md).
  const QString dir = qEnvironmentVariable("RIGLENS_SPIRV_DIR", QStringLiteral(":/shaders/spirv"));
  const QString path = QStringLiteral("%1/%2.%3.spv").arg(dir, QString::fromUtf8(fileName)).arg(lanes);
  QFile file(path);
  if (!file.open(QIODevice::ReadOnly)) {
    const char* where = dir.startsWith(':') ? "missing from the build" : "cannot be read (RIGLENS_SPIRV_DIR)";
    return core::makeError(core::ErrorCode::Io, path.toStdString() + ": shader " + where);
  }
  const QByteArray spirv = file.readAll();
  constexpr quint32 kSpirvMagic = 0x07230203;
  quint32 magic = 0;
  if (spirv.size() >= 4) std::memcpy(&magic, spirv.constData(), 4);
  if (spirv.size() < 20 || spirv.size() % 4 != 0 || magic != kSpirvMagic)
    return core::makeError(core::ErrorCode::Parse, path.toStdString() + ": not a SPIR-V module");
  QShader shader;
  shader.setStage(QShader::ComputeStage);
  // QRhi's Vulkan backend looks up SPIR-V "version 100" and needs the entry point named.
  shader.setShader(QShaderKey(QShader::SpirvShader, QShaderVersion(100)),
                   QShaderCode(spirv, QByteArrayLiteral("main")));
  return shader;
}

std::unique_ptr<QRhiGraphicsPipeline> newGraphicsPipeline(QRhi* rhi, const char* vertex, const char* fragment) {
  auto vs = loadShader(vertex);
  auto fs = loadShader(fragment);
  if (!vs || !fs) return nullptr;
  std::unique_ptr<QRhiGraphicsPipeline> ps(rhi->newGraphicsPipeline());
  ps->setShaderStages({{QRhiShaderStage::Vertex, *vs}, {QRhiShaderStage::Fragment, *fs}});
  return ps;
}

std::unique_ptr<QRhiGraphicsPipeline> createGraphicsPipeline(std::unique_ptr<QRhiGraphicsPipeline> pipeline,
                                                             QRhiRenderPassDescriptor* rp, int samples,
                                                             QRhiShaderResourceBindings* bindings) {
  pipeline->setSampleCount(samples);
  pipeline->setShaderResourceBindings(bindings);
  pipeline->setRenderPassDescriptor(rp);
  return pipeline->create() ? std::move(pipeline) : nullptr;
}

std::unique_ptr<QRhiComputePipeline> newComputePipeline(QRhi* rhi, const QShader& shader,
                                                        QRhiShaderResourceBindings* layout) {
  std::unique_ptr<QRhiComputePipeline> p(rhi->newComputePipeline());
  p->setShaderStage({QRhiShaderStage::Compute, shader});
  p->setShaderResourceBindings(layout);
  return p->create() ? std::move(p) : nullptr;
}

std::unique_ptr<QRhiComputePipeline> newComputePipeline(QRhi* rhi, const char* fileName,
                                                        QRhiShaderResourceBindings* layout) {
  auto shader = loadShader(fileName);
  return shader ? newComputePipeline(rhi, *shader, layout) : nullptr;
}

std::unique_ptr<QRhiShaderResourceBindings> newBindings(QRhi* rhi,
                                                        std::initializer_list<QRhiShaderResourceBinding> bindings) {
  std::unique_ptr<QRhiShaderResourceBindings> srb(rhi->newShaderResourceBindings());
  srb->setBindings(bindings);
  return srb->create() ? std::move(srb) : nullptr;
}

QRhiGraphicsPipeline::TargetBlend overBlend(bool premultiplied) {
  QRhiGraphicsPipeline::TargetBlend blend;
  blend.enable = true;
  blend.srcColor = premultiplied ? QRhiGraphicsPipeline::One : QRhiGraphicsPipeline::SrcAlpha;
  blend.dstColor = QRhiGraphicsPipeline::OneMinusSrcAlpha;
  blend.srcAlpha = QRhiGraphicsPipeline::One;
  blend.dstAlpha = QRhiGraphicsPipeline::OneMinusSrcAlpha;
  return blend;
}

}  // namespace riglens::render
