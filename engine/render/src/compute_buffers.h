// Shared by the compute passes: the workgroup size the shaders declare and a
// created storage buffer (QRhi refuses zero-sized buffers, so at least 16 bytes).
#pragma once

#include <algorithm>
#include <memory>

#include <QtGui/private/qrhi_p.h>

namespace riglens::render {

inline constexpr int kComputeWorkgroup = 64;  // local_size_x of gnm.comp and lift.comp

// nullptr when the buffer cannot be created.
inline std::unique_ptr<QRhiBuffer> newStorageBuffer(QRhi* rhi, std::size_t bytes,
                                                    QRhiBuffer::UsageFlags usage = QRhiBuffer::StorageBuffer) {
  std::unique_ptr<QRhiBuffer> b(rhi->newBuffer(QRhiBuffer::Static, usage, int(std::max<std::size_t>(bytes, 16))));
  return b->create() ? std::move(b) : nullptr;
}

}  // namespace riglens::render
