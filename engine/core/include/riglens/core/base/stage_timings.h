// `riglens-cli render --timings` and `riglens --timings`: where the time from
// process start to the first picture goes, stage by stage (process start, Qt,
// load, device, first frame's upload / pipelines / GPU / readback, PNG
// encode), printed to stderr at the end. Stages are recorded whether or not
// they are printed (a clock read each); add() is thread safe, as the viewer
// records from its render thread too.
#pragma once

#include <chrono>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace riglens::core {

class StageTimings {
 public:
  static StageTimings& instance();

  void add(std::string stage, double ms) {
    const std::lock_guard lock(m_mutex);
    m_stages.emplace_back(std::move(stage), ms);
  }

  // Runs `f`, recording its wall time as `stage`; returns what it returns.
  template <class F>
  decltype(auto) time(const char* stage, F&& f) {
    const auto started = std::chrono::steady_clock::now();
    struct Record {
      StageTimings& timings;
      const char* stage;
      std::chrono::steady_clock::time_point started;
      ~Record() {
        timings.add(stage,
                    std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count());
      }
    } record{*this, stage, started};
    return f();
  }

  // The stages whose names start with `prefix`, added up.
  double sum(const std::string& prefix) const;

  // Each stage in order, what they leave out, and the whole process so far.
  void print() const;

 private:
  mutable std::mutex m_mutex;
  std::vector<std::pair<std::string, double>> m_stages;
};

// Milliseconds since this process started (Linux: /proc/self/stat's start
// time against /proc/uptime, both in 10 ms steps); -1 when unknown.
double processAgeMs();

}  // namespace riglens::core
