#include "progress_line.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <string>

namespace riglens::cli {

namespace {
// How often a progress line is printed when stderr is not a terminal (a
// log): often enough to see it move, not a line a frame.
constexpr double kLogIntervalSeconds = 2.0;
constexpr int kBarWidth = 20;

double secondsSince(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}
}  // namespace

ProgressLine::ProgressLine(int total, const char* unit)
    : m_total(total), m_unit(unit), m_tty(isatty(STDERR_FILENO) != 0) {}

void ProgressLine::update(int done, const QString& detail) {
  const double elapsed = secondsSince(m_start);
  const bool last = done >= m_total;
  if (!m_tty && !last && secondsSince(m_printed) < kLogIntervalSeconds) return;
  m_printed = Clock::now();
  const double left = done > 0 ? elapsed / done * (m_total - done) : 0.0;
  const int filled = m_total > 0 ? std::clamp(kBarWidth * done / m_total, 0, kBarWidth) : kBarWidth;
  const std::string bar = std::string(std::size_t(filled), '#') + std::string(std::size_t(kBarWidth - filled), '.');
  const char* end = !m_tty ? "\n" : last ? "\033[K\n" : "\033[K";  // a terminal's line is rewritten, then ended
  std::fprintf(stderr, "%sriglens-cli: [%s] %s %d/%d%s%s, %.1f s, %.1f s left%s", m_tty ? "\r" : "", bar.c_str(),
               m_unit, done, m_total, detail.isEmpty() ? "" : " ", qPrintable(detail), elapsed, left, end);
  std::fflush(stderr);
}

}  // namespace riglens::cli
