// The Qt string list of what a panel or a QML property lists by name: the
// `name` field of core's parts, joints and clips.
#pragma once

#include <QtCore/QString>
#include <QtCore/QStringList>
#include <iterator>

namespace riglens::app {

// Each item's `.name`, in order.
template <class Items>
QStringList namesOf(const Items& items) {
  QStringList names;
  names.reserve(qsizetype(std::size(items)));
  for (const auto& item : items) names << QString::fromStdString(item.name);
  return names;
}

}  // namespace riglens::app
