#include "playback_controller.h"

#include <algorithm>

#include "document.h"
#include "name_lists.h"
#include "rig_models.h"

namespace riglens::app {

PlaybackController::PlaybackController(QObject* parent)
    : ReportingController(parent), m_animations(new AnimationListModel(this)) {
  // Animation clock: ~60 Hz while a rig is open (autoPlay idles run by default).
  m_clock.setInterval(16);
  connect(&m_clock, &QTimer::timeout, this, &PlaybackController::tick);
}

void PlaybackController::setDocument(Document* document) {
  m_doc = document;
  m_animations->reload(m_doc);
  if (m_doc) {
    m_sinceTick.start();
    m_clock.start();
  } else {
    m_clock.stop();
  }
  emit playbackChanged();
}

void PlaybackController::tick() {
  if (!m_doc) return;
  const double dt = m_sinceTick.isValid() ? m_sinceTick.restart() / 1000.0 : 0.0;
  m_doc->controller().update(std::min(dt, 0.1));  // a stalled GUI does not jump the clock
  emit posed();
}

QStringList PlaybackController::animationNames() const {
  return m_doc ? namesOf(m_doc->controller().clips()) : QStringList{};
}

QString PlaybackController::playingAnimation() const {
  if (!m_doc) return {};
  const auto name = m_doc->controller().playing();
  return name ? QString::fromStdString(*name) : QString();
}

double PlaybackController::playTimeMs() const {
  return m_doc ? m_doc->controller().playableTimeMs() : 0.0;
}

double PlaybackController::playPeriodMs() const {
  return m_doc ? m_doc->controller().playablePeriodMs() : 0.0;
}

bool PlaybackController::paused() const {
  return m_doc && m_doc->controller().paused();
}

void PlaybackController::setPaused(bool paused) {
  if (!m_doc || paused == this->paused()) return;
  m_doc->controller().setPaused(paused);
  emit playbackChanged();
}

bool PlaybackController::loop() const {
  return m_doc && m_doc->controller().playableLooping();
}

void PlaybackController::setLoop(bool loop) {
  if (!m_doc) return;
  m_doc->controller().setLoopOverride(loop);
  emit playbackChanged();
  emit posed();
}

double PlaybackController::speed() const {
  return m_doc ? m_doc->controller().speed() : 1.0;
}

void PlaybackController::setSpeed(double speed) {
  if (!m_doc) return;
  m_doc->controller().setSpeed(speed);
  emit playbackChanged();
}

bool PlaybackController::autoPlayMuted() const {
  return m_doc && !m_doc->controller().autoPlayEnabled();
}

void PlaybackController::setAutoPlayMuted(bool muted) {
  if (!m_doc) return;
  m_doc->controller().setAutoPlayEnabled(!muted);
  emit playbackChanged();
  emit posed();
}

bool PlaybackController::play(const QString& animation) {
  if (!m_doc) return false;
  if (auto ok = m_doc->controller().play(animation.toStdString()); !ok) {
    emit errorReported(QString::fromStdString(ok.error().message));
    return false;
  }
  m_doc->controller().setLoopOverride(std::nullopt);
  m_doc->controller().setPaused(false);
  emit playbackChanged();
  emit posed();
  return true;
}

void PlaybackController::stop() {
  if (!m_doc) return;
  (void)m_doc->controller().play(std::nullopt);
  m_doc->controller().setPaused(false);
  emit playbackChanged();
  emit posed();
}

void PlaybackController::togglePause() {
  setPaused(!paused());
}

void PlaybackController::seek(double timeMs) {
  if (!m_doc || !m_doc->controller().playing()) return;
  m_doc->controller().seekPlayable(std::clamp(timeMs, 0.0, playPeriodMs()));
  emit posed();
}

void PlaybackController::stepFrame(int direction) {
  if (!m_doc || !m_doc->controller().playing()) return;
  setPaused(true);
  seek(playTimeMs() + (direction < 0 ? -kFrameStepMs : kFrameStepMs));
}

}  // namespace riglens::app
