// SceneViewportRenderer: the render-thread half of SceneViewportItem. Owns
// the engine's renderers (a voxel rig, a splat character or a splat scene,
// whichever the document is) and draws them under the QML scene through Qt
// Quick's own QRhi.
#pragma once

#include <QtCore/QObject>
#include <QtCore/QRect>
#include <QtCore/QVariantMap>
#include <QtQuick/QQuickWindow>
#include <functional>
#include <memory>
#include <optional>

#include "riglens/core/base/stage_timings.h"
#include "riglens/core/character/character_scene.h"
#include "riglens/core/rig/run_loader.h"
#include "riglens/render/character/character_renderer.h"
#include "riglens/render/device/frame_state.h"
#include "riglens/render/device/window_renderer.h"

namespace riglens::app {

// What the viewport item shows of the newest frame. Sent to the GUI thread as
// soon as the frame is drawn, so the panels show it in the very next frame
// (read in the next sync() instead, it reached the screen two frames later,
// and --screenshot waited for three). A rig's and a character's reports take
// this one road, to one receiver (AppController::setFrameReport).
struct ViewportFrameNews {
  qint64 gpuBytes = 0;
  // The Memory panel's report: a rig's, or (characterReport) a splat
  // character's or scene's, which adds the Frame panel's under "frame".
  QVariantMap report;
  bool characterReport = false;
  bool uploading = false;
  int frames = 0;
  bool unavailable = false;  // the software renderer: nothing to draw with
  // What the frame drew, for "is the document fully shown" (--screenshot):
  // the document (its run or scene, compared by address only), whether its
  // picture is final (no layer asked for another frame, no GPU times still
  // to come), and for a splat character or scene how many splats it drew,
  // which decode (the outputs' address) and whether the decoded character.
  const void* document = nullptr;
  const void* compared = nullptr;  // the compared version drawn beside or over it (CompareController)
  bool settled = false;
  std::size_t splats = 0;
  const void* decodedOutputs = nullptr;
  bool decodedDrawn = false;
  // A splat character or scene: why it cannot be drawn (empty when it can)
  // and whether for lack of compute.
  QString failure;
  bool computeMissing = false;
  bool sameAs(const ViewportFrameNews& o) const {
    return gpuBytes == o.gpuBytes && uploading == o.uploading && frames == o.frames && unavailable == o.unavailable &&
           document == o.document && compared == o.compared && settled == o.settled && splats == o.splats &&
           decodedOutputs == o.decodedOutputs && decodedDrawn == o.decodedDrawn && failure == o.failure &&
           computeMissing == o.computeMissing && characterReport == o.characterReport && report == o.report;
  }
};

// Lives on the render thread. Receives a snapshot in sync() (GUI thread
// blocked), draws it in the window's frame.
class SceneViewportRenderer : public QObject {
 public:
  explicit SceneViewportRenderer(QQuickWindow* window) : m_window(window) {}

  void setSnapshot(std::shared_ptr<const core::LoadedRun> run, std::shared_ptr<const core::CharacterScene> scene,
                   bool modelChanged, render::FrameState state, render::CharacterFrame character, QRect viewport) {
    if (modelChanged) {
      m_run = std::move(run);
      m_scene = std::move(scene);
      m_modelPending = true;
    }
    m_state = std::move(state);
    m_characterFrame = std::move(character);
    m_viewport = viewport;
  }

  // The version compared with the open run and how it is drawn (null: none).
  void setCompare(std::shared_ptr<const core::LoadedRun> run,
                  std::optional<render::WindowRenderer::CompareFrame> frame) {
    if (run != m_compareRun) {
      m_compareRun = std::move(run);
      m_compareRunPending = true;
    }
    m_compareFrame = std::move(frame);
  }

  // The decoded character of the open bundle and its latest decode (null:
  // none yet); each reaches the engine once.
  void setDecoded(std::shared_ptr<const render::DecodedLayout> layout,
                  std::shared_ptr<const core::DecodedOutputs> outputs) {
    if (layout != m_layout) {
      m_layout = std::move(layout);
      m_layoutPending = true;
    }
    if (outputs != m_outputs) {
      m_outputs = std::move(outputs);
      m_outputsPending = true;
    }
  }
  // beforeRendering: render thread, outside the main pass.
  void prepare() {
    QSGRendererInterface* rif = m_window->rendererInterface();
    auto* rhi = static_cast<QRhi*>(rif->getResource(m_window, QSGRendererInterface::RhiResource));
    auto* swapchain =
        static_cast<QRhiSwapChain*>(rif->getResource(m_window, QSGRendererInterface::RhiSwapchainResource));
    m_swapchain = swapchain;
    if (!rhi || !swapchain) {  // the software renderer: nothing to draw with
      m_unavailable = true;
      return;
    }
    if (!m_renderer) m_renderer = std::make_unique<render::WindowRenderer>(rhi, m_window->vulkanInstance());
    m_computeMissing = !m_renderer->supportsCompute();
    if (m_modelPending) {
      m_renderer->setModel(m_run);
      if (m_scene && m_scene->orl)
        m_renderer->setCharacter(m_scene->orl);
      else
        m_renderer->setCharacter(m_scene ? m_scene->pack : nullptr);
      m_renderer->setCloud(m_scene ? m_scene->cloud : nullptr);
      if (m_scene) m_renderer->setSplatBounds(m_scene->bounds);
      m_modelPending = false;
    }
    if (m_compareRunPending) {
      m_renderer->setCompareModel(m_compareRun);
      m_compareRunPending = false;
    }
    if (m_layoutPending) {
      m_renderer->setDecodedLayout(m_layout);
      m_layoutPending = false;
    }
    if (m_outputsPending) {
      m_renderer->setDecodedOutputs(m_outputs);
      m_outputsPending = false;
    }
    m_renderer->setCharacterFrame(m_characterFrame);
    if ((!m_run && !m_scene) || m_viewport.isEmpty()) {
      m_ready = false;
      m_drawnDocument = nullptr;
      m_drawnCompare = nullptr;
      return;
    }
    // The stack records whichever layers prepared: a character the GPU
    // cannot run leaves the rest of the frame drawn, and says why.
    const bool prepared = m_renderer->prepare(swapchain, m_state, m_viewport,
                                              m_compareRun && m_compareFrame ? &*m_compareFrame : nullptr);
    m_drawnCompare = m_compareRun && m_compareFrame ? m_compareRun.get() : nullptr;
    m_ready = true;
    // The compute splat tiles wait for their key count, or outgrew their
    // room: one more frame makes the picture final.
    // A frame that projected and sorted is followed by as many as QRhi keeps
    // in flight, so the Frame panel gets its GPU times (they are read when
    // QRhi reuses the frame's slot, after waiting for it).
    const std::size_t sorted = m_renderer->splatStats().sortedFrames;
    if (sorted != m_sortedFrames) m_framesToFollow = m_renderer->framesInFlight();
    m_sortedFrames = sorted;
    const bool follow = m_framesToFollow > 0;
    if (follow) --m_framesToFollow;
    if (follow || m_renderer->wantsAnotherFrame()) QMetaObject::invokeMethod(m_window, "update", Qt::QueuedConnection);
    m_failure = prepared ? QString() : QString::fromStdString(m_renderer->failure());
    m_drawnDocument = m_scene ? static_cast<const void*>(m_scene.get()) : static_cast<const void*>(m_run.get());
    m_settled = !follow && !m_renderer->wantsAnotherFrame() && !m_renderer->rigUploading();
    if (m_scene)
      reportSplats();
    else if (prepared)
      reportRig();
    if (prepared && m_run && !m_firstRigFrameTimed && !m_renderer->rigUploading()) {  // riglens --timings
      m_firstRigFrameTimed = true;
      const auto times = m_renderer->rigPrepareTimes();
      core::StageTimings::instance().add("first frame: upload (recorded)", times.uploadMs);
      core::StageTimings::instance().add("first frame: pipelines", times.pipelinesMs);
    }
  }

  // beforeRenderPassRecording: inside the main pass, under the QML scene.
  void record() {
    if (!m_ready || !m_swapchain) return;
    // QRhi calls on Quick's own command buffer: no begin/endExternalCommands
    // (those are for native API calls, and crash the GL backend in a pass not
    // begun for external content).
    m_renderer->record(m_swapchain);
    ++m_frames;
  }

  // afterRendering: render thread, after the main pass.
  // afterRendering: render thread; the frame's news goes out from here.
  void finish() {
    if (m_renderer && m_swapchain && m_ready) m_renderer->finishFrame(m_swapchain);
    ViewportFrameNews news;
    news.gpuBytes = m_gpuBytes;
    news.report = m_report;
    news.uploading = m_renderer && m_renderer->rigUploading();
    news.frames = m_frames;
    news.unavailable = m_unavailable;
    if (m_renderer && m_ready) {
      news.document = m_drawnDocument;
      news.compared = m_drawnCompare;
      news.settled = m_settled;
      if (m_scene) {
        news.splats = m_renderer->splatStats().splats;
        news.decodedOutputs = m_outputs.get();
        news.decodedDrawn = m_renderer->characterShowsDecoded();
        news.report = m_characterReport;
        news.characterReport = true;
        news.failure = m_failure;
        news.computeMissing = m_computeMissing;
      }
    }
    if (m_newsSink && !news.sameAs(m_lastNews)) {
      m_lastNews = news;
      m_newsSink(news);
    }
  }
  // Set in sync() (GUI thread blocked); called on the render thread.
  void setNewsSink(std::function<void(const ViewportFrameNews&)> sink) { m_newsSink = std::move(sink); }

 private:
  void reportRig() {
    const render::MemoryReport report = m_renderer->memoryReport();
    // The version compared with, when there is one, counts in the total.
    const qint64 compareBytes = qint64(m_renderer->compareMemoryReport().gpuBytes());
    m_gpuBytes = qint64(report.gpuBytes()) + compareBytes;
    QVariantList parts;
    for (const auto& p : report.parts)
      parts.append(QVariantMap{{"name", QString::fromStdString(p.name)},
                               {"vertexBytes", qint64(p.vertexBytes)},
                               {"indexBytes", qint64(p.indexBytes)},
                               {"uniformBytes", qint64(p.uniformBytes)},
                               {"totalBytes", qint64(p.vertexBytes + p.indexBytes + p.uniformBytes)}});
    m_report = QVariantMap{{"gpuBytes", m_gpuBytes},
                           {"vertexBytes", qint64(report.vertexBytes)},
                           {"indexBytes", qint64(report.indexBytes)},
                           {"uniformBytes", qint64(report.uniformBytes)},
                           {"storageBytes", qint64(report.storageBytes)},
                           {"textureBytes", qint64(report.textureBytes)},
                           {"overlayBytes", qint64(report.overlayBytes)},
                           {"compareBytes", compareBytes},
                           {"cpuBytes", qint64(report.cpuBytes)},
                           {"parts", parts}};
  }

  // What the newest finished frame cost on the GPU, pass by pass, and what it drew.
  QVariantMap frameReport() const {
    const render::FrameTimes times = m_renderer->gpuTimes();
    QVariantList passes;
    for (const auto& p : times.passes)
      passes.append(QVariantMap{{"pass", QString::fromStdString(p.pass)}, {"ms", p.ms}});
    const auto stats = m_renderer->splatStats();
    const render::GpuWork work = m_renderer->frameWork();
    return QVariantMap{{"available", times.available},
                       {"submissions", qint64(work.submissions)},
                       {"dispatches", qint64(work.dispatches)},
                       {"why", QString::fromStdString(times.why)},
                       {"passes", passes},
                       {"totalMs", times.totalMs()},
                       {"splats", qint64(stats.splats)},
                       {"raster", QString::fromStdString(stats.raster)},
                       {"cpuMs", stats.cpuMs},
                       {"tileKeys", qint64(stats.tileKeys)}};
  }

  void reportSplats() {
    const render::CharacterMemory memory = m_renderer->splatMemory();
    QVariantList buffers, cpuArrays, branches;
    for (const auto& b : memory.buffers)
      buffers.append(QVariantMap{{"name", QString::fromStdString(b.name)}, {"bytes", qint64(b.bytes)}});
    for (const auto& a : memory.cpuArrays)
      cpuArrays.append(QVariantMap{{"name", QString::fromStdString(a.name)}, {"bytes", qint64(a.bytes)}});
    for (const auto& b : memory.branches)
      branches.append(QVariantMap{{"name", QString::fromStdString(b.name)},
                                  {"slotOffset", b.slotOffset},
                                  {"slotsUsed", b.slotsUsed},
                                  {"capacity", b.capacity}});
    m_gpuBytes = qint64(memory.gpuBytes());
    m_characterReport = QVariantMap{{"packBytes", qint64(memory.packBytes)},
                                    {"decodedShown", m_renderer->characterShowsDecoded()},
                                    {"gpuBytes", m_gpuBytes},
                                    {"buffers", buffers},
                                    {"cpuArrays", cpuArrays},
                                    {"branches", branches},
                                    {"frame", frameReport()}};
  }

  QQuickWindow* m_window;
  std::unique_ptr<render::WindowRenderer> m_renderer;
  std::size_t m_sortedFrames = 0;
  int m_framesToFollow = 0;  // frames to draw after one that worked
  QRhiSwapChain* m_swapchain = nullptr;
  std::shared_ptr<const core::LoadedRun> m_run;
  std::shared_ptr<const core::CharacterScene> m_scene;
  render::CharacterFrame m_characterFrame;
  std::shared_ptr<const render::DecodedLayout> m_layout;
  std::shared_ptr<const core::DecodedOutputs> m_outputs;
  bool m_layoutPending = false, m_outputsPending = false;
  bool m_modelPending = false;
  std::shared_ptr<const core::LoadedRun> m_compareRun;
  std::optional<render::WindowRenderer::CompareFrame> m_compareFrame;
  bool m_compareRunPending = false;
  const void* m_drawnCompare = nullptr;
  render::FrameState m_state;
  QRect m_viewport;
  bool m_ready = false;
  qint64 m_gpuBytes = 0;
  QVariantMap m_report, m_characterReport;
  QString m_failure;
  bool m_computeMissing = false;
  const void* m_drawnDocument = nullptr;  // what the last prepared frame drew
  bool m_settled = false;
  int m_frames = 0;
  bool m_unavailable = false;
  bool m_firstRigFrameTimed = false;
  std::function<void(const ViewportFrameNews&)> m_newsSink;
  ViewportFrameNews m_lastNews;
};

}  // namespace riglens::app
