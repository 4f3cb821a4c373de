// Compiled pipelines kept between runs: QRhi's pipeline cache data (Vulkan's
// VkPipelineCache, OpenGL's program binaries) saved in the user's cache
// folder when a device goes away and handed back to the next one. Qt checks
// the data's header against the device (vendor, device, driver version,
// Vulkan's pipelineCacheUUID) and ignores what another driver wrote; the file
// name carries RigLens's and Qt's versions, so an upgrade starts afresh.
#pragma once

#include <QtCore/QByteArray>
#include <QtCore/QString>

namespace riglens::render {

// <cache>/riglens/pipelines/<user>-riglens<version>-qt<version>.bin, where
// <cache> is $XDG_CACHE_HOME or ~/.cache; `user` names whose pipelines they
// are ("cli": RhiDevice's own devices, "viewer-vulkan"/"viewer-opengl": Qt
// Quick's, through QSG_RHI_PIPELINE_CACHE_LOAD/SAVE). Empty when there is no cache folder.
QString pipelineCacheFile(const QString& user);

// The file's bytes, empty when it is missing or unreadable; a cache that is
// too big to be one (over 64 MiB) is not read.
QByteArray readPipelineCache(const QString& file);
// Writes through a temporary file renamed into place, so a reader never sees
// half a cache; creates the folder. False when it could not.
bool writePipelineCache(const QString& file, const QByteArray& data);

}  // namespace riglens::render
