// PendingUploads: the resource updates a GPU pass stages outside a frame
// (its one-time uploads at create, the values a setter changes), handed to
// the frame's command buffer by whichever comes first, flush() (before a
// render pass, where a compute pass may not take them) or take() (the pass's
// own compute pass). A batch never handed over is released with the pass.
#pragma once

#include <QtGui/private/qrhi_p.h>

namespace riglens::render {

class PendingUploads {
 public:
  PendingUploads() = default;
  PendingUploads(const PendingUploads&) = delete;
  PendingUploads& operator=(const PendingUploads&) = delete;
  ~PendingUploads() {
    if (m_batch) m_batch->release();
  }

  // The staged batch, begun on first use.
  QRhiResourceUpdateBatch* batch(QRhi* rhi) {
    if (!m_batch) m_batch = rhi->nextResourceUpdateBatch();
    return m_batch;
  }
  // Records what is staged into `cb` (nothing staged: nothing).
  void flush(QRhiCommandBuffer* cb) {
    if (!m_batch) return;
    cb->resourceUpdate(m_batch);
    m_batch = nullptr;
  }
  // What is staged, or a fresh batch, for the caller's pass to apply.
  QRhiResourceUpdateBatch* takeOrBegin(QRhi* rhi) {
    batch(rhi);
    return take();
  }
  // What is staged, for the caller's pass to apply (null: nothing).
  QRhiResourceUpdateBatch* take() {
    QRhiResourceUpdateBatch* batch = m_batch;
    m_batch = nullptr;
    return batch;
  }

 private:
  QRhiResourceUpdateBatch* m_batch = nullptr;
};

}  // namespace riglens::render
