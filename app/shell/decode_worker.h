// DecodeWorker: a bundle's neural decoders run off the GUI and render
// threads. One worker thread owns the core::DecodedCharacter (opening its
// ONNX graphs, then every decode); the GUI thread posts requests (rig vector
// + camera) and receives finished decodes, which the viewport hands to the
// render thread. Requests are coalesced latest-only: while a decode runs,
// newer requests replace each other and only the last one is decoded next;
// the viewport keeps drawing the last lifted decode meanwhile. GUI thread API.
#pragma once

#include <QtCore/QObject>
#include <QtCore/QThread>
#include <memory>
#include <mutex>
#include <optional>

#include "riglens/core/decoded/decoded_character.h"
#include "riglens/render/character/character_renderer.h"

namespace riglens::app {

class DecodeWorker : public QObject {
  Q_OBJECT

 public:
  explicit DecodeWorker(QObject* parent = nullptr);
  ~DecodeWorker() override;

  // Opens `bundle`'s decoders on the worker (null closes). opened() or
  // failed() follows.
  void open(std::shared_ptr<const core::Bundle> bundle);
  // Decodes for this rig vector and camera when the worker is free; the
  // character's re-run policy decides what runs (possibly nothing).
  void request(std::vector<float> rig, const core::PluckerCamera& camera);

  bool isOpen() const { return m_layout != nullptr; }
  const std::shared_ptr<const render::DecodedLayout>& layout() const { return m_layout; }
  const std::shared_ptr<const core::DecodedOutputs>& latest() const { return m_latest; }
  std::uint64_t serial() const { return m_serial; }  // grows with every finished decode that ran something
  // A request is still being decoded, or waits for the worker, or its result
  // has not reached this thread yet.
  bool busy() const { return m_answered < m_requested; }
  std::uintmax_t weightBytes() const { return m_weightBytes; }
  const core::Bounds& bounds() const { return m_bounds; }
  double lastDecodeMs() const { return m_lastMs; }

 signals:
  void opened(const core::Diagnostics& notes);
  void failed(const QString& message);
  void decoded();  // latest() changed

 private:
  struct Request {
    std::vector<float> rig;
    core::PluckerCamera camera;
    std::uint64_t id = 0;  // m_requested when it was made
  };
  void process(std::uint64_t generation);                                             // worker thread
  void adopt(const std::shared_ptr<const core::DecodedOutputs>& outputs, double ms);  // GUI thread

  QThread m_thread;
  QObject* m_worker = nullptr;     // lives in m_thread: queued lambdas run there
  std::uint64_t m_generation = 0;  // bumped by open(): results of an older bundle are dropped
  // Worker state, touched only on the worker thread.
  std::shared_ptr<core::DecodedCharacter> m_character;
  // Shared: the latest request not yet taken.
  std::mutex m_mutex;
  std::optional<Request> m_pending;
  bool m_queued = false;
  // GUI thread.
  std::shared_ptr<const render::DecodedLayout> m_layout;
  std::shared_ptr<const core::DecodedOutputs> m_latest;
  std::uint64_t m_serial = 0;
  std::uint64_t m_requested = 0, m_answered = 0;  // request ids made and answered (busy())
  std::uintmax_t m_weightBytes = 0;
  core::Bounds m_bounds;
  double m_lastMs = 0;
};

}  // namespace riglens::app
