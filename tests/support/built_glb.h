// A fixture's glTF written to a file and loaded as the viewer loads it
// (core::loadRun): what render tests draw.
#pragma once

#include <QtCore/QFile>
#include <QtCore/QString>
#include <memory>

#include "gltf_builder.h"
#include "riglens/core/open/asset_readers.h"

namespace riglens::test {

inline std::shared_ptr<const core::LoadedRun> loadBuiltGlb(GltfBuilder builder, const QString& path) {
  const auto bytes = builder.glb();
  QFile out(path);
  if (!out.open(QIODevice::WriteOnly)) qFatal("cannot write %s", qPrintable(path));
  out.write(reinterpret_cast<const char*>(bytes.data()), qint64(bytes.size()));
  out.close();
  auto loaded = core::loadRun(path.toStdString());
  if (!loaded) qFatal("%s", loaded.error().message.c_str());
  return std::make_shared<const core::LoadedRun>(std::move(loaded).value());
}

}  // namespace riglens::test
