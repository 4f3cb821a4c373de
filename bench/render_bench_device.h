// What bench_render's files share: where its data is, the one offscreen
// device every benchmark draws on (made in main), and the per-pass GPU times and work counters each
// frame benchmark reports.
#pragma once

#include <benchmark/benchmark.h>

#include <QtCore/QCoreApplication>
#include <algorithm>
#include <filesystem>
#include <map>
#include <memory>
#include <string>

#include "riglens/render/device/gpu_timer.h"
#include "riglens/render/device/offscreen_canvas.h"
#include "riglens/render/device/rhi_device.h"

namespace riglens::bench {

// data/<name> beside the executable when packed, else the source tree's
// (RIGLENS_DATA_DIR) or `fallback`.
inline std::filesystem::path packedOr(const char* name, const std::filesystem::path& fallback) {
  const std::filesystem::path packed =
      std::filesystem::path(QCoreApplication::applicationDirPath().toStdString()) / name;
  return std::filesystem::exists(packed) ? packed : fallback;
}
inline std::filesystem::path ictFace() {
  return packedOr("ict-face", RIGLENS_DATA_DIR "/ict-face");
}

inline std::unique_ptr<render::RhiDevice>& device() {
  static std::unique_ptr<render::RhiDevice> d;
  return d;
}

// Per-pass GPU time (Vulkan timestamps, render::GpuTimer) averaged over the
// timed frames, reported as counters gpu_<pass>_ms and gpu_ms (the frame),
// and what an iteration asked of the GPU (GpuTimer::work(), every backend):
// submissions and compute dispatches. Made just before the timed loop.
// Given the canvas a frame was drawn on, add(canvas) also sums the CPU's
// side of the wall time: cpu_prepare_ms (the renderer's uniforms and its
// compute passes recorded) and cpu_submit_wait_ms (the render pass recorded,
// the frame submitted and waited for), so wall minus GPU has a name, and
// render_passes: the share of frames drawn in a render pass (0 where the
// canvas wrote splats alone without one, OffscreenCanvas::writesWithoutPass).
// A frame benchmark's `pass` argument: 0 the canvas's default (splats alone
// are written without a render pass), 1 every frame a render pass, as a
// window's frame is (the engine draws inside Qt Quick's pass).
inline void applyPassArg(render::OffscreenCanvas& canvas, std::int64_t pass) {
  canvas.setWritesWithoutPass(pass == 0);
}

class GpuPassTimes {
 public:
  GpuPassTimes() : m_workBefore(device()->timer().work()) {}
  void add(const render::OffscreenCanvas& canvas) {
    const auto times = canvas.lastFrameTimes();
    m_prepareMs += times.prepareMs;
    m_submitWaitMs += times.gpuMs;
    m_passFrames += canvas.lastFrameHadPass() ? 1 : 0;
    ++m_canvasFrames;
    add();
  }
  void add() {
    const render::FrameTimes t = device()->timer().latest();
    if (!t.available || t.frame == m_last) return;
    m_last = t.frame;
    ++m_frames;
    for (const auto& p : t.passes) m_ms[p.pass] += p.ms;
  }
  void report(benchmark::State& state) const {
    const render::GpuWork work = device()->timer().work() - m_workBefore;
    const double iterations = double(std::max<benchmark::IterationCount>(state.iterations(), 1));
    state.counters["submissions"] = double(work.submissions) / iterations;
    state.counters["dispatches"] = double(work.dispatches) / iterations;
    if (m_canvasFrames > 0) {
      state.counters["cpu_prepare_ms"] = m_prepareMs / m_canvasFrames;
      state.counters["cpu_submit_wait_ms"] = m_submitWaitMs / m_canvasFrames;
      state.counters["render_passes"] = double(m_passFrames) / m_canvasFrames;
    }
    if (m_frames == 0) return;
    double total = 0;
    for (const auto& [pass, ms] : m_ms) {
      state.counters["gpu_" + pass + "_ms"] = ms / m_frames;
      total += ms;
    }
    state.counters["gpu_ms"] = total / m_frames;
  }

 private:
  std::map<std::string, double> m_ms;
  std::uint64_t m_last = 0;
  int m_frames = 0;
  double m_prepareMs = 0, m_submitWaitMs = 0;
  int m_canvasFrames = 0, m_passFrames = 0;
  render::GpuWork m_workBefore;
};

}  // namespace riglens::bench
