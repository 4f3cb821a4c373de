#include "riglens/core/base/stage_timings.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <sstream>

namespace riglens::core {

StageTimings& StageTimings::instance() {
  static StageTimings timings;
  return timings;
}

void StageTimings::print() const {
  const std::lock_guard lock(m_mutex);
  const double total = processAgeMs();
  double counted = 0;
  std::fprintf(stderr, "timings (ms):\n");
  for (const auto& [stage, ms] : m_stages) {
    std::fprintf(stderr, "  %-34s %9.1f\n", stage.c_str(), ms);
    counted += ms;
  }
  if (total >= 0) {  // the process's age comes in 10 ms steps: "everything else" is that coarse
    std::fprintf(stderr, "  %-34s %9.1f\n", "everything else", std::max(0.0, total - counted));
    std::fprintf(stderr, "  %-34s %9.1f\n", "total (process start to now)", total);
  }
}

double StageTimings::sum(const std::string& prefix) const {
  const std::lock_guard lock(m_mutex);
  double total = 0;
  for (const auto& [stage, ms] : m_stages)
    if (stage.compare(0, prefix.size(), prefix) == 0) total += ms;
  return total;
}

double processAgeMs() {
  // Field 22 of /proc/self/stat: the start time in clock ticks after boot;
  // the command name (field 2) is in parentheses and may hold spaces.
  std::ifstream statFile("/proc/self/stat");
  std::string stat;
  std::getline(statFile, stat);
  const auto close = stat.rfind(')');
  std::ifstream uptimeFile("/proc/uptime");
  double uptime = -1;
  uptimeFile >> uptime;
  if (close == std::string::npos || uptime < 0) return -1;
  std::istringstream fields(stat.substr(close + 2));
  std::string field;
  for (int i = 3; i < 22 && fields >> field; ++i) {
  }
  unsigned long long startTicks = 0;
  if (!(fields >> startTicks)) return -1;
  const long ticks = sysconf(_SC_CLK_TCK);
  if (ticks <= 0) return -1;
  return (uptime - double(startTicks) / double(ticks)) * 1000.0;
}

}  // namespace riglens::core
