#include "expression_channel_model.h"

namespace riglens::app {

int ExpressionChannelModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : int(m_rows.size());
}

QVariant ExpressionChannelModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || index.row() >= int(m_rows.size())) return {};
  const int channel = m_rows[std::size_t(index.row())];
  const ExpressionChannel& c = m_channels[std::size_t(channel)];
  switch (role) {
    case NameRole: return c.name;
    case GroupRole: return c.group;
    case ValueRole:
      return m_values && std::size_t(channel) < m_values->size() ? double((*m_values)[std::size_t(channel)]) : 0.0;
    case MinimumRole: return c.minimum;
    case MaximumRole: return c.maximum;
    case IndexRole: return channel;
    default: return {};
  }
}

QHash<int, QByteArray> ExpressionChannelModel::roleNames() const {
  return {{NameRole, "name"},       {GroupRole, "group"},     {ValueRole, "value"},
          {MinimumRole, "minimum"}, {MaximumRole, "maximum"}, {IndexRole, "channel"}};
}

void ExpressionChannelModel::setChannels(std::vector<ExpressionChannel> channels, const std::vector<float>* values) {
  m_channels = std::move(channels);
  m_values = values;
  refilter();
}

void ExpressionChannelModel::setFilter(const QString& filter) {
  if (filter == m_filter) return;
  m_filter = filter;
  refilter();
}

void ExpressionChannelModel::refilter() {
  beginResetModel();
  m_rows.clear();
  for (int i = 0; i < int(m_channels.size()); ++i) {
    const ExpressionChannel& c = m_channels[std::size_t(i)];
    if (m_filter.isEmpty() || c.name.contains(m_filter, Qt::CaseInsensitive) ||
        c.group.contains(m_filter, Qt::CaseInsensitive))
      m_rows.push_back(i);
  }
  endResetModel();
  emit countChanged();
}

void ExpressionChannelModel::valuesChanged() {
  if (!m_rows.empty()) emit dataChanged(index(0), index(int(m_rows.size()) - 1), {ValueRole});
}

}  // namespace riglens::app
