// `riglens-cli render --timings`: where a render's time goes, stage by stage
// (process start, Qt, load, device, first frame's upload / pipelines / GPU /
// readback, PNG encode), printed to stderr after the command. Stages are
// recorded whether or not they are printed (a clock read each).
#pragma once

#include <chrono>
#include <string>
#include <utility>
#include <vector>

namespace riglens::cli {

class StageTimings {
 public:
  static StageTimings& instance();

  void add(std::string stage, double ms) { m_stages.emplace_back(std::move(stage), ms); }

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

  // Each stage in order, what they leave out, and the whole process so far.
  void print() const;

 private:
  std::vector<std::pair<std::string, double>> m_stages;
};

// Milliseconds since this process started (Linux: /proc/self/stat's start
// time against /proc/uptime, both in 10 ms steps); -1 when unknown.
double processAgeMs();

}  // namespace riglens::cli
