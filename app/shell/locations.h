// How the app reads what QML hands it: a location (a QUrl from a file dialog
// or a drop, or a plain path) as a local path, and a byte count in words.
#pragma once

#include <QtCore/QString>
#include <QtCore/QVariant>

namespace riglens::app {

// A file URL's local path; any other text as given (so errors name it).
QString localPath(const QVariant& location);

// "1.5 MB", in the user's locale (traditional 1024-based units).
QString formatBytes(qint64 bytes);

}  // namespace riglens::app
