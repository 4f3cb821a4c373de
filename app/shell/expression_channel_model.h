// ExpressionChannelModel: the expression sliders of the open character, as
// the Expression panel lists them — GNM coefficients grouped by region, or
// the 52 ARKit channels — filtered by a case-insensitive substring of the
// name or the group. Rows point into the controller's value vector by
// `index`, so filtering never loses a value. GUI thread.
#pragma once

#include <QtCore/QAbstractListModel>
#include <QtCore/QString>
#include <vector>

#include "qml_owned.h"

namespace riglens::app {

struct ExpressionChannel {
  QString name, group;
  double minimum = 0, maximum = 1;
};

class ExpressionChannelModel : public QAbstractListModel {
  Q_OBJECT
  RIGLENS_QML_OWNED_BY_CONTROLLER
  Q_PROPERTY(int count READ rowCount NOTIFY countChanged)
 public:
  enum Role { NameRole = Qt::UserRole + 1, GroupRole, ValueRole, MinimumRole, MaximumRole, IndexRole };
  using QAbstractListModel::QAbstractListModel;

  int rowCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role) const override;
  QHash<int, QByteArray> roleNames() const override;

  // A new channel set (values all at their rest, 0).
  void setChannels(std::vector<ExpressionChannel> channels, const std::vector<float>* values);
  void setFilter(const QString& filter);
  void valuesChanged();  // only the value role
  const std::vector<ExpressionChannel>& channels() const { return m_channels; }

 signals:
  void countChanged();

 private:
  void refilter();  // the rows the filter keeps

  std::vector<ExpressionChannel> m_channels;
  const std::vector<float>* m_values = nullptr;  // the controller's, channel-indexed
  std::vector<int> m_rows;                       // channel indices shown
  QString m_filter;
};

}  // namespace riglens::app
