// Reviews one item in child processes of riglens-cli, so that a crash, a
// hang or memory running out is that item's error and nothing else's:
// `inspect --json` for its facts and problems, then `render` for a poster
// frame and a turntable video, with the stages' timings.
#pragma once

#include <QtCore/QJsonObject>
#include <QtCore/QSize>
#include <QtCore/QString>

#include "review_items.h"

namespace riglens::cli::review {

struct ItemSettings {
  QString cli;                // riglens-cli itself
  QString outDir;             // the report's folder: the item's files go to items/<id>/
  QSize size{480, 270};       // poster and video
  int frames = 36, fps = 24;  // the turntable video: 1.5 s at 24 fps
  bool video = true;
  int timeoutSeconds = 300;  // each child process
  int memoryLimitMb = 0;     // each child process's address space; 0: none
  // What decides whether an earlier review of an unchanged item still stands.
  QString key() const;
};

// The item's record (the report's line): facts, problems, files, timings,
// and `status` "ok" or "failed" with `error`.
// `inputHash`: hashInputs(item.path), worked out by the caller to decide whether to review it.
QJsonObject reviewItem(const ReviewItem& item, const ItemSettings& settings, const QString& inputHash);

// A hash of what the item reads: the file's bytes (a .gltf's with the
// buffers and images it names beside it), or every file of the folder
// (their paths inside it and their bytes). Empty when unreadable.
QString hashInputs(const QString& path);

}  // namespace riglens::cli::review
