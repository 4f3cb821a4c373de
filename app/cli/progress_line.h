// Progress on stderr for long commands (a video's frames, a review's items):
// done of total, the time so far and the time left; one line rewritten in a
// terminal, a line every few seconds in a log.
#pragma once

#include <QtCore/QString>
#include <chrono>

namespace riglens::cli {

class ProgressLine {
 public:
  // `unit`: what is counted ("frame", "item").
  ProgressLine(int total, const char* unit);
  // `done` of the total are finished; `detail` follows the counts.
  void update(int done, const QString& detail = {});

 private:
  using Clock = std::chrono::steady_clock;
  int m_total;
  const char* m_unit;
  bool m_tty;
  Clock::time_point m_start = Clock::now(), m_printed = Clock::now();
};

}  // namespace riglens::cli
