// A splat sink's four buffers read back into a core::SplatSink through one
// waited-for offscreen frame (the lifts' readBack, for parity tests and tools).
#pragma once

#include <cstring>

#include "device/compute_buffers.h"
#include "riglens/core/splats/splat_sink.h"

namespace riglens::render {

inline core::Expected<core::SplatSink> readBackSink(QRhi* rhi, const SplatSinkBuffers& sink, const std::string& what) {
  const std::size_t cap = sink.capacity;
  QRhiBufferReadbackResult rc, ra, rb, rcol;
  auto ran = runOffscreenComputeFrame(rhi, what + " read-back", [&](QRhiCommandBuffer* cb) {
    QRhiResourceUpdateBatch* readback = rhi->nextResourceUpdateBatch();
    readback->readBackBuffer(sink.center, 0, int(cap * 16), &rc);
    readback->readBackBuffer(sink.covarianceA, 0, int(cap * 16), &ra);
    readback->readBackBuffer(sink.covarianceB, 0, int(cap * 16), &rb);
    readback->readBackBuffer(sink.color, 0, int(cap * 4), &rcol);
    cb->resourceUpdate(readback);
  });
  if (!ran) return ran.error();
  core::SplatSink out(cap);
  std::memcpy(out.center.data(), rc.data.constData(), cap * 16);
  std::memcpy(out.covarianceA.data(), ra.data.constData(), cap * 16);
  std::memcpy(out.covarianceB.data(), rb.data.constData(), cap * 16);
  std::memcpy(out.color.data(), rcol.data.constData(), cap * 4);
  return out;
}

}  // namespace riglens::render
