// An item's facts for the report, digested from what `inspect --json` says
// of it (each kind says it differently): parts, nodes, triangles, vertices,
// gaussians, joints, clips with their durations, and memory.
#pragma once

#include <QtCore/QJsonObject>

namespace riglens::cli::review {

QJsonObject digestFacts(const QJsonObject& inspect);

}  // namespace riglens::cli::review
