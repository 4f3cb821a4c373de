#include "decode_worker.h"

#include <algorithm>
#include <chrono>
#include <functional>

#include "riglens/decode/opencv_decoder.h"

namespace riglens::app {

DecodeWorker::DecodeWorker(QObject* parent) : QObject(parent), m_worker(new QObject) {
  m_thread.setObjectName(QStringLiteral("riglens decoders"));
  m_worker->moveToThread(&m_thread);
  connect(&m_thread, &QThread::finished, m_worker, &QObject::deleteLater);
  m_thread.start();
}

DecodeWorker::~DecodeWorker() {
  {
    std::lock_guard lock(m_mutex);
    m_pending.reset();
  }
  m_thread.quit();  // a decode in progress finishes first
  m_thread.wait();
}

void DecodeWorker::open(std::shared_ptr<const core::Bundle> bundle) {
  const std::uint64_t generation = ++m_generation;
  m_requested = m_answered = 0;
  m_layout.reset();
  m_latest.reset();
  m_weightBytes = 0;
  {
    std::lock_guard lock(m_mutex);
    m_pending.reset();
  }
  QMetaObject::invokeMethod(m_worker, [this, bundle, generation] {
    m_character.reset();
    if (!bundle) return;
    core::Diagnostics notes;
    auto character = core::DecodedCharacter::open(bundle, decode::openCvOpener(), {}, notes);
    if (!character) {
      const QString message = QString::fromStdString(character.error().message);
      QMetaObject::invokeMethod(this, [this, message, generation] {
        if (generation == m_generation) emit failed(message);
      });
      return;
    }
    m_character = std::move(character).value();
    auto layout = std::make_shared<render::DecodedLayout>();
    layout->bundle = bundle;
    layout->branches = m_character->liftSpecs();
    layout->capacity = m_character->capacity();
    layout->bounds = m_character->bounds();
    const std::uintmax_t bytes = m_character->weightBytes();
    const core::Bounds bounds = m_character->bounds();
    QMetaObject::invokeMethod(this, [this, layout, notes, bytes, bounds, generation] {
      if (generation != m_generation) return;
      m_layout = layout;
      m_weightBytes = bytes;
      m_bounds = bounds;
      emit opened(notes);
    });
  });
}

void DecodeWorker::request(std::vector<float> rig, const core::PluckerCamera& camera) {
  if (!m_layout) return;
  const std::uint64_t generation = m_generation;
  const std::uint64_t id = ++m_requested;
  {
    std::lock_guard lock(m_mutex);
    m_pending = Request{std::move(rig), camera, id};
    if (m_queued) return;  // the worker takes the newest when it gets there
    m_queued = true;
  }
  QMetaObject::invokeMethod(m_worker, [this, generation] { process(generation); });
}

void DecodeWorker::process(std::uint64_t generation) {
  for (;;) {
    std::optional<Request> request;
    {
      std::lock_guard lock(m_mutex);
      request.swap(m_pending);
      if (!request) {
        m_queued = false;
        return;
      }
    }
    const std::uint64_t id = request->id;
    // Every request is answered on the GUI thread, whatever came of it, so
    // busy() ends; a decode's outputs come with its answer.
    const auto answer = [this, id, generation](std::function<void()> outcome) {
      QMetaObject::invokeMethod(this, [this, id, generation, outcome = std::move(outcome)] {
        if (generation != m_generation) return;
        m_answered = std::max(m_answered, id);
        if (outcome) outcome();
      });
    };
    if (!m_character) {
      answer(nullptr);
      continue;
    }
    const auto start = std::chrono::steady_clock::now();
    auto pass = m_character->decode(request->rig, request->camera);
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    if (!pass) {
      const QString message = QString::fromStdString(pass.error().message);
      answer([this, message] { emit failed(message); });
      continue;
    }
    if (*pass == core::DecodePass::None) {
      answer(nullptr);
      continue;
    }
    auto outputs = std::make_shared<const core::DecodedOutputs>(m_character->outputs(*pass));
    answer([this, outputs, ms] { adopt(outputs, ms); });
  }
}

void DecodeWorker::adopt(const std::shared_ptr<const core::DecodedOutputs>& outputs, double ms) {
  // Latest-only drops decodes the viewport never saw: an appearance pass
  // carries the last full pass's geometry forward so it is not lost.
  if (m_latest && outputs->pass != core::DecodePass::Full) {
    auto merged = std::make_shared<core::DecodedOutputs>(*outputs);
    merged->geometryId = m_latest->geometryId;
    for (std::size_t i = 0; i < merged->geom.size() && i < m_latest->geom.size(); ++i)
      if (!merged->geom[i]) merged->geom[i] = m_latest->geom[i];
    m_latest = std::move(merged);
  } else {
    m_latest = outputs;
  }
  m_lastMs = ms;
  ++m_serial;
  emit decoded();
}

}  // namespace riglens::app
