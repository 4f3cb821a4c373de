// GpuTimer: how long each GPU pass of a frame took, from Vulkan timestamp
// queries. Qt 6.4's QRhi has no per-pass timer API, so the timer records
// vkCmdWriteTimestamp on QRhi's own command buffer between passes (through
// QRhiCommandBuffer::beginExternal, which hands out the primary command
// buffer outside a pass). One query pool per frame slot: a frame's stamps are
// read back without waiting once the GPU has certainly finished it: an
// offscreen frame when QRhi ended it (it waits), a window frame when QRhi
// reuses its slot (it waits for the slot's fence), so a window's times lag
// by the frames in flight. Other backends report "not available" and why.
//
// Usage: every RhiDevice has one (RhiDevice::timer(); GpuTimer::of(rhi) for
// code that holds only the QRhi). The frame's owner calls beginFrame()
// before the first pass and endFrame() after the last; each pass calls
// mark(cb, "name") after recording its work (a no-op outside a timed frame);
// the owner marks the render pass after it ends. latest() is the newest
// frame whose stamps have landed.
//
// The timer also counts what frames ask of the GPU, on every backend (the
// stamps need Vulkan, the counts do not): each frame begun is one submission
// (QRhi submits a frame's command buffer once, when it ends), and each
// compute dispatch recorded inside a frame (countDispatch(), called by the
// engine's dispatch helpers). work() gives the running totals; a consumer
// reports the difference over its frames, so a pass split in two, or a frame
// that starts a helper frame of its own, shows.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

class QRhi;
class QRhiCommandBuffer;

namespace riglens::render {

struct PassTime {
  std::string pass;
  double ms = 0;  // GPU time from the previous stamp of the frame to this pass's
};

struct FrameTimes {
  bool available = false;
  std::string why;  // when not available
  std::uint64_t frame = 0;
  std::vector<PassTime> passes;
  double totalMs() const;
  double ms(std::string_view pass) const;  // the pass's time, summed over its marks; 0 when absent
};

// Running totals since the device was made (see above).
struct GpuWork {
  std::uint64_t submissions = 0;
  std::uint64_t dispatches = 0;
  GpuWork operator-(const GpuWork& earlier) const {
    return {submissions - earlier.submissions, dispatches - earlier.dispatches};
  }
  bool operator==(const GpuWork&) const = default;
};

class GpuTimer {
 public:
  explicit GpuTimer(QRhi* rhi);
  ~GpuTimer();
  GpuTimer(const GpuTimer&) = delete;
  GpuTimer& operator=(const GpuTimer&) = delete;

  // The timer of the device that owns `rhi`, or null.
  static GpuTimer* of(QRhi* rhi);

  bool available() const;
  void beginFrame(QRhiCommandBuffer* cb);
  void mark(QRhiCommandBuffer* cb, std::string_view pass);
  // Waited: the owner waits for the GPU to finish the frame before latest()
  // is called (offscreen frames); Submitted: it is known done only when QRhi
  // reuses its frame slot (window frames).
  enum class FrameEnd { Submitted, Waited };
  void endFrame(FrameEnd end);
  // Reads whatever finished frames have landed and returns the newest.
  FrameTimes latest();

  // One compute dispatch recorded into the frame this thread is recording
  // (between beginFrame and endFrame); a no-op outside one.
  static void countDispatch();
  GpuWork work() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> m_impl;
};

}  // namespace riglens::render
